//! The vector paths of the Kalah batch engine: a ply in every lane written once over
//! [`Bytes`], compiled for each path's registers, and the lanes' game feed and playouts.

use std::ops::Range;

use super::Batch;
use crate::batch::bytes::{Bytes, Row};
use crate::game::{fmix32, game_keys, GOLDEN};
use crate::kalah::playout::{Playout, PLACES};
use crate::kalah::variant::EndTest;
use crate::kalah::Side;
use crate::playout::{moves_hash_step, MOVES_HASH_START};

/// Steps between the moves into the lanes' wide counters of the byte counters (which count at
/// most one a step, so never wrap in between).
const FLUSH: u64 = 128;

/// The 16-lane portable path.
pub(super) fn play_portable(
    batch: &Batch,
    games: Range<u64>,
    each: &mut dyn FnMut(Playout),
) -> u64 {
    play::<16, wide::u8x16>(batch, games, each)
}

/// The 32-lane AVX2 path: the shared code compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn play_avx2(batch: &Batch, games: Range<u64>, each: &mut dyn FnMut(Playout)) -> u64 {
    play::<32, crate::batch::bytes::Y>(batch, games, each)
}

/// The 64-lane AVX-512 path: the shared code compiled for AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn play_avx512(batch: &Batch, games: Range<u64>, each: &mut dyn FnMut(Playout)) -> u64 {
    play::<64, crate::batch::bytes::Z>(batch, games, each)
}

/// The board's shape and the reading, as the step reads them.
struct Shape {
    /// Pits a row.
    m: usize,
    /// Places on the ring: 2m + 2.
    places: usize,
    /// Places a seed is sown into: every place but the opponent's store, 2m + 1.
    cycle: u8,
    /// Whole laps a sowing can make at most: all the seeds over the cycle.
    laps: u8,
    /// Whether a last seed opposite an empty pit goes to the store alone (K.3.2).
    empty_capture: bool,
    /// Whether only the mover's empty row ends the game (K.4.1).
    starved: bool,
    /// The start of the game, seen from South.
    start: [u8; PLACES],
    /// The ply at which a lane stops unless its game ended before: the cap or the limit.
    limit: u64,
}

/// Every lane's state between steps.
struct Lanes<const N: usize> {
    /// Seeds, seen from the mover: its pits 0..m, its store m, the opponent's pits m+1..=2m,
    /// the opponent's store 2m+1.
    x: [Row<N>; PLACES],
    /// Seeds captured by the mover and by the opponent (K.3.1).
    caught: [Row<N>; 2],
    /// Extra turns, captures and captures of nothing since the last flush.
    counts: [Row<N>; 3],
    /// The pit each lane's mover played at the last step.
    played: Row<N>,
    /// Lane bit set when South moves.
    south: u64,
    /// Lane bit set when the lane plays a game of the range (else it idles).
    active: u64,
    /// Random counters: key 0 plus ply times the golden ratio, and key 1.
    ctr: [u32; N],
    key1: [u32; N],
    game: [u64; N],
    /// The step at which the lane's game began.
    start: [u64; N],
    moves_hash: [u64; N],
    /// The counts flushed so far.
    totals: [[u32; 3]; N],
}

/// Where the lanes' games come from: the next game of the range and its end.
struct Feed {
    next: u64,
    end: u64,
}

/// The lane bits of `N` lanes.
const fn all_lanes(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// Plays `games` in `N` lanes of the vectors `B`, every playout to `each`; the steps taken.
#[inline(always)]
fn play<const N: usize, B: Bytes<N>>(
    batch: &Batch,
    games: Range<u64>,
    each: &mut dyn FnMut(Playout),
) -> u64 {
    let v = batch.variant;
    let m = usize::from(v.pits);
    let cycle = 2 * m + 1;
    let mut start = [0u8; PLACES];
    for pit in (0..m).chain(m + 1..2 * m + 1) {
        start[pit] = v.seeds;
    }
    let shape = Shape {
        m,
        places: 2 * m + 2,
        cycle: cycle as u8,
        laps: (v.total_seeds() as usize / cycle) as u8,
        empty_capture: v.empty_capture,
        starved: v.end == EndTest::MoverStarved,
        start,
        limit: u64::from(
            v.ply_cap
                .map_or(batch.max_plies, |c| c.min(batch.max_plies)),
        ),
    };
    let mut lanes = Lanes::<N> {
        x: [Row([0; N]); PLACES],
        caught: [Row([0; N]); 2],
        counts: [Row([0; N]); 3],
        played: Row([0; N]),
        south: 0,
        active: 0,
        ctr: [0; N],
        key1: [0; N],
        game: [0; N],
        start: [0; N],
        moves_hash: [0; N],
        totals: [[0; 3]; N],
    };
    let mut feed = Feed {
        next: games.start,
        end: games.end,
    };
    for l in 0..N {
        restart(batch, &shape, &mut lanes, l, 0, &mut feed);
    }
    let mut step = 0u64;
    // No lane reaches the limit before the earliest start plus the limit.
    let mut next_cut = shape.limit;
    while lanes.active != 0 {
        let ended = vector_step::<N, B>(&mut lanes, &shape);
        for (hash, &pit) in lanes.moves_hash.iter_mut().zip(&lanes.played.0) {
            *hash = moves_hash_step(*hash, pit);
        }
        step += 1;
        if step.is_multiple_of(FLUSH) {
            flush(&mut lanes);
        }
        let mut cut = 0u64;
        if step >= next_cut {
            for (l, &s) in lanes.start.iter().enumerate() {
                cut |= u64::from(step - s >= shape.limit) << l;
            }
        }
        let mut done = (ended | cut) & all_lanes(N);
        while done != 0 {
            let l = done.trailing_zeros() as usize;
            done &= done - 1;
            if lanes.active >> l & 1 == 1 {
                each(playout(batch, &shape, &lanes, l, step, ended >> l & 1 == 1));
            }
            restart(batch, &shape, &mut lanes, l, step, &mut feed);
        }
        if step >= next_cut {
            next_cut = lanes.start.iter().min().map_or(step, |&s| s) + shape.limit;
        }
    }
    step
}

/// Starts the next game of the range in lane `l` at step `step` (or idles the lane on a new
/// game it never reports).
fn restart<const N: usize>(
    batch: &Batch,
    shape: &Shape,
    lanes: &mut Lanes<N>,
    l: usize,
    step: u64,
    feed: &mut Feed,
) {
    let bit = 1u64 << l;
    let game = if feed.next < feed.end {
        lanes.active |= bit;
        feed.next += 1;
        feed.next - 1
    } else {
        lanes.active &= !bit;
        u64::MAX
    };
    // Kalah(m,n): n seeds in every pit, South to move (K.1.2).
    for (row, &seeds) in lanes.x.iter_mut().zip(&shape.start) {
        row.0[l] = seeds;
    }
    for row in lanes.caught.iter_mut().chain(&mut lanes.counts) {
        row.0[l] = 0;
    }
    lanes.totals[l] = [0; 3];
    lanes.south |= bit;
    let keys = game_keys(batch.seed, game);
    lanes.ctr[l] = keys[0];
    lanes.key1[l] = keys[1];
    lanes.game[l] = game;
    lanes.start[l] = step;
    lanes.moves_hash[l] = MOVES_HASH_START;
}

/// The byte counters into the wide ones.
fn flush<const N: usize>(lanes: &mut Lanes<N>) {
    for (k, row) in lanes.counts.iter_mut().enumerate() {
        for (total, c) in lanes.totals.iter_mut().zip(row.0.iter_mut()) {
            total[k] += u32::from(std::mem::take(c));
        }
    }
}

/// The playout of lane `l`, stopped at step `step`: its game ended by an empty row when
/// `ended`, else at the cap or the limit.
fn playout<const N: usize>(
    batch: &Batch,
    shape: &Shape,
    lanes: &Lanes<N>,
    l: usize,
    step: u64,
    ended: bool,
) -> Playout {
    let south = lanes.south >> l & 1 == 1;
    let (places, half) = (shape.places, shape.m + 1);
    let mine: [u8; PLACES] = std::array::from_fn(|j| lanes.x[j].0[l]);
    let ring = if south {
        mine
    } else {
        std::array::from_fn(|j| {
            if j < places {
                mine[(j + half) % places]
            } else {
                0
            }
        })
    };
    let caught = [0, 1].map(|k| u32::from(lanes.caught[k].0[l]));
    let count = |k: usize| lanes.totals[l][k] + u32::from(lanes.counts[k].0[l]);
    let plies = (step - lanes.start[l]) as u32;
    let end = if ended {
        Some("K.4.1")
    } else {
        // spec: kalah K.4.4 the ply cap, after the ply that reaches it
        batch
            .variant
            .ply_cap
            .filter(|&cap| plies >= cap)
            .map(|_| "K.4.4")
    };
    Playout::new(
        &batch.variant,
        Playout {
            game: lanes.game[l],
            plies,
            ring,
            to_move: if south { Side::South } else { Side::North },
            end,
            scores: [0; 2],
            captured: if south {
                caught
            } else {
                [caught[1], caught[0]]
            },
            moves_hash: lanes.moves_hash[l],
            extra_turns: count(0),
            captures: count(1),
            opposite_empty: count(2),
        },
    )
}

/// One random ply in every lane: draw the pit, sow it, capture, turn the board to the next
/// mover; the lanes whose game then ends (K.4.1).
#[inline(always)]
fn vector_step<const N: usize, B: Bytes<N>>(lanes: &mut Lanes<N>, s: &Shape) -> u64 {
    let (m, places) = (s.m, s.places);
    let zero = B::splat(0);
    let one = B::splat(1);
    let mut x = [zero; PLACES];
    for (v, row) in x.iter_mut().zip(&lanes.x).take(places) {
        *v = B::load(&row.0);
    }
    // spec: kalah K.2.1 the mover picks one of its non-empty pits: the k-th, k drawn
    let mut count = zero;
    for v in &x[..m] {
        count = count.add(v.nonzero().ones());
    }
    let k = draw(lanes, count);
    let (mut before, mut p, mut n) = (zero, zero, zero);
    for (i, &v) in x[..m].iter().enumerate() {
        let legal = v.nonzero();
        let chosen = legal.and(before.eq(k));
        p = chosen.select(B::splat(i as u8), p);
        n = chosen.select(v, n);
        before = before.add(legal.ones());
    }
    p.store(&mut lanes.played.0);

    // spec: kalah K.2.3 whole laps of the cycle, the emptied pit included, then the rest
    let cycle = B::splat(s.cycle);
    let (mut q, mut r) = (zero, n);
    for lap in 1..=s.laps {
        let more = n.ge(B::splat(lap * s.cycle));
        q = q.add(more.ones());
        r = r.sub(more.and(cycle));
    }
    // spec: kalah K.2.2 one seed a place from the next on, the opponent's store passed over
    for (j, v) in x[..2 * m + 1].iter_mut().enumerate() {
        let here = B::splat(j as u8);
        // Place j is d places on from p (1 to 2m; 0 for p itself, which only laps refill).
        let back = here.sub(p);
        let d = p.gt(here).select(back.add(cycle), back);
        let extra = r.ge(d).and(d.nonzero()).ones();
        let kept = if j < m { v.and_not(p.eq(here)) } else { *v };
        *v = kept.add(q).add(extra);
    }
    let past = p.add(r);
    let last = past.min(past.sub(cycle));
    // spec: kalah K.2.4 the last seed in the mover's store: the mover moves again
    let again = last.eq(B::splat(m as u8));

    // spec: kalah K.3.1 the last seed in an empty pit of the mover's row takes the pit opposite
    let mut at = [zero; PLACES];
    let (mut hit, mut taken) = (zero, zero);
    for (i, a) in at[..m].iter_mut().enumerate() {
        *a = last.eq(B::splat(i as u8)).and(x[i].eq(one));
        hit = hit.or(*a);
        taken = taken.or(x[2 * m - i].and(*a));
    }
    let full = taken.nonzero();
    let captures = hit.and(full);
    // spec: kalah K.3.2 opposite an empty pit: to the store alone, or stays, as the reading says
    let empties = hit.and_not(full);
    let took = if s.empty_capture { hit } else { captures };
    for (i, a) in at[..m].iter().enumerate() {
        let t = a.and(took);
        x[i] = x[i].and_not(t);
        x[2 * m - i] = x[2 * m - i].and_not(t);
    }
    let gain = taken.add(one).and(took);
    x[m] = x[m].add(gain);
    let caught_mine = B::load(&lanes.caught[0].0).add(gain);
    let caught_theirs = B::load(&lanes.caught[1].0);
    for (row, event) in lanes.counts.iter_mut().zip([again, captures, empties]) {
        B::load(&row.0).add(event.ones()).store(&mut row.0);
    }

    // The board turned to the next mover, where the mover does not move again.
    let half = m + 1;
    let (mut mine, mut theirs) = (zero, zero);
    for (j, row) in lanes.x.iter_mut().enumerate().take(places) {
        let v = again.select(x[j], x[(j + half) % places]);
        v.store(&mut row.0);
        if j < m {
            mine = mine.or(v);
        } else if (half..half + m).contains(&j) {
            theirs = theirs.or(v);
        }
    }
    again
        .select(caught_mine, caught_theirs)
        .store(&mut lanes.caught[0].0);
    again
        .select(caught_theirs, caught_mine)
        .store(&mut lanes.caught[1].0);
    lanes.south ^= !again.bits() & all_lanes(N);

    // spec: kalah K.4.1 the game ends when a row is empty, or the next mover's, as the reading says
    let starved = mine.eq(zero);
    let ended = if s.starved {
        starved
    } else {
        starved.or(theirs.eq(zero))
    };
    ended.bits()
}

/// Every lane's draw: k uniform below its count of non-empty pits, from its counter (advanced
/// by one ply) and key, as `game::draw_word` and `game::pick` draw it.
#[inline(always)]
fn draw<const N: usize, B: Bytes<N>>(lanes: &mut Lanes<N>, count: B) -> B {
    let mut counts = Row([0u8; N]);
    count.store(&mut counts.0);
    let mut k = Row([0u8; N]);
    for l in 0..N {
        let ctr = lanes.ctr[l];
        lanes.ctr[l] = ctr.wrapping_add(GOLDEN);
        let word = fmix32(fmix32(ctr) ^ lanes.key1[l]);
        // `pick` in 32 bits: a 24-bit word times a count below 256.
        k.0[l] = (((word >> 8) * u32::from(counts.0[l])) >> 24) as u8;
    }
    B::load(&k.0)
}
