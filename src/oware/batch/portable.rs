//! The batch engine's step written once over [`Bytes`], a vector of byte lanes: the portable path
//! plays it in 128-bit vectors (16 lanes, any target), the AVX2 path in 256-bit ones (32 lanes).

use super::lanes::{all_lanes, Lanes, Slams, Step, StepOut};
use crate::batch::bytes::Bytes;
use crate::game::{fmix32, pick, GOLDEN};

/// The multipliers of the board key: an odd 16-bit number per pit.
const KEY_MULTIPLIERS: [u16; 12] = [
    0x9e37, 0x7f4b, 0xc2b3, 0x27d5, 0x85eb, 0x165f, 0xd1b5, 0x5851, 0xf39d, 0x3c6f, 0xa4c3, 0x6a09,
];

/// The key's final mix: a bijection of 16 bits that spreads every bit to the low ones (the
/// repetition filter reads the low ten).
#[inline(always)]
fn mix(mut h: u16) -> u16 {
    h ^= h >> 7;
    h = h.wrapping_mul(0x2d35);
    h ^ (h >> 8)
}

/// The board key of this path: a weighted sum of the pits, mixed (the side to move is not in it:
/// the boards compared for a repetition always have the same mover).
pub(super) fn board_key(pits: &[u8; 12]) -> u16 {
    let sum = pits.iter().zip(KEY_MULTIPLIERS).fold(0u16, |h, (&v, m)| {
        h.wrapping_add(u16::from(v).wrapping_mul(m))
    });
    mix(sum)
}

/// The portable path: 16 lanes, in the instructions every processor of the target has.
pub(super) struct Portable;

/// Lanes of the portable path: one byte of a 128-bit register each (SSE2, NEON).
pub(super) const PORTABLE_LANES: usize = 16;

impl Step<PORTABLE_LANES> for Portable {
    fn key(pits: &[u8; 12], _south: bool) -> u16 {
        board_key(pits)
    }

    unsafe fn step(
        lanes: &mut Lanes<PORTABLE_LANES>,
        step: u64,
        ring: usize,
        slams: Slams,
    ) -> StepOut {
        vector_step::<PORTABLE_LANES, wide::u8x16>(lanes, step, ring, slams)
    }
}

/// One ply in every lane (see [`Step::step`]) in the vectors `B`.
#[inline(always)]
pub(super) fn vector_step<const N: usize, B: Bytes<N>>(
    lanes: &mut Lanes<N>,
    step: u64,
    ring: usize,
    slams: Slams,
) -> StepOut {
    let slot = (step as usize) & (ring - 1);
    let mut pits = [B::splat(0); 12];
    for (v, (row, past)) in pits
        .iter_mut()
        .zip(lanes.pits.iter().zip(lanes.ring[slot].iter_mut()))
    {
        *v = B::load(&row.0);
        v.store(&mut past.0);
    }
    let mut legal = [B::splat(0); 6];
    for (v, row) in legal.iter_mut().zip(&lanes.legal) {
        *v = B::load(&row.0);
    }

    let k = draw(lanes, &legal);
    let (p, n) = kth_legal_pit(&legal, &pits, k);
    p.store(&mut lanes.played.0);

    let last = sow(&mut pits, p, n);
    let (run, outside) = capture_run(&pits, last);
    let any_run = run.iter().fold(B::splat(0), |a, &m| a.or(m));
    // A run that would take every seed of the row is a grand slam: it captures nothing (the
    // readings that forbid grand slams never let one be played while it would capture).
    let captured = any_run.and(outside);
    let laps = n.ge(B::splat(12));
    let mut taken = [0u64; 6];
    let mut gain = B::splat(0);
    for (j, r) in run.iter().enumerate() {
        let take = r.and(captured);
        taken[j] = take.bits();
        gain = gain.add(pits[6 + j].and(take));
        pits[6 + j] = pits[6 + j].and_not(take);
    }
    let mover_score = B::load(&lanes.scores[0].0).add(gain);
    let other_score = B::load(&lanes.scores[1].0);

    // Turn the board to the new mover: its pit j is pit j + 6 (mod 12) of the old.
    for (j, row) in lanes.pits.iter_mut().enumerate() {
        pits[(j + 6) % 12].store(&mut row.0);
    }
    let (mine, theirs) = (&pits[6..], &pits[..6]);
    other_score.store(&mut lanes.scores[0].0);
    mover_score.store(&mut lanes.scores[1].0);
    lanes.south = !lanes.south & all_lanes(N);

    // The new mover's legal moves: non-empty pits, and only those reaching the opponent when the
    // opponent's row is empty.
    let (mut opponent_has, mut opponent_keeps) = (B::splat(0), B::splat(0));
    for v in theirs {
        opponent_has = opponent_has.or(v.nonzero());
        opponent_keeps = opponent_keeps.or(v.ge(B::splat(3)));
    }
    let mut any = B::splat(0);
    for (i, (l, v)) in legal.iter_mut().zip(mine).enumerate() {
        let reaches = v.ge(B::splat(6 - i as u8));
        *l = v.nonzero().and(opponent_has.or(reaches));
    }
    // Where grand slams are forbidden and the opponent has no pit of 3 or more (which keeps its
    // seeds: a sown pit that held 3 holds 4), try every move for one.
    if slams != Slams::Capture && !opponent_keeps.bits() & all_lanes(N) != 0 {
        let mut allowed_any = B::splat(0);
        let mut slam = grand_slams(mine, theirs);
        for (l, s) in legal.iter_mut().zip(slam.iter_mut()) {
            *s = l.and(*s);
            *l = l.and_not(*s);
            allowed_any = allowed_any.or(*l);
        }
        if slams == Slams::PlayedWhenNothingElse {
            // No allowed move: the grand slams may be played, capturing nothing.
            for (l, s) in legal.iter_mut().zip(slam) {
                *l = l.or(s.and_not(allowed_any));
            }
        }
    }
    for (row, v) in lanes.legal.iter_mut().zip(&legal) {
        v.store(&mut row.0);
        any = any.or(*v);
    }
    let over = mover_score
        .gt(B::splat(24))
        .or(other_score.gt(B::splat(24)))
        .or(mover_score
            .eq(B::splat(24))
            .and(other_score.eq(B::splat(24))));

    // Board keys of the new boards, into the ring slot of the next step.
    let next_slot = ((step + 1) as usize) & (ring - 1);
    let mut sum = [0u16; N];
    for (row, m) in lanes.pits.iter().zip(KEY_MULTIPLIERS) {
        for (h, &v) in sum.iter_mut().zip(&row.0) {
            *h = h.wrapping_add(u16::from(v).wrapping_mul(m));
        }
    }
    let [lo, hi] = &mut lanes.ring_key[next_slot];
    for ((lo, hi), h) in lo.0.iter_mut().zip(hi.0.iter_mut()).zip(sum) {
        [*lo, *hi] = mix(h).to_le_bytes();
    }
    StepOut {
        captured: captured.bits(),
        over: over.bits(),
        stuck: !any.bits() & all_lanes(N),
        laps: laps.bits(),
        taken,
        empty_slams: any_run.and_not(outside).bits(),
    }
}

/// The draw of every lane: k uniform below the lane's legal move count, from its counter
/// (advanced by one ply) and key (`game::draw_word`, `game::pick`).
#[inline(always)]
fn draw<const N: usize, B: Bytes<N>>(lanes: &mut Lanes<N>, legal: &[B; 6]) -> B {
    let mut count = B::splat(0);
    for m in legal {
        count = count.add(m.ones());
    }
    let mut counts = [0u8; N];
    count.store(&mut counts);
    let mut k = [0u8; N];
    for l in 0..N {
        let ctr = lanes.ctr[l];
        lanes.ctr[l] = ctr.wrapping_add(GOLDEN);
        let word = fmix32(fmix32(ctr) ^ lanes.key1[l]);
        k[l] = pick(word, u32::from(counts[l])) as u8;
    }
    B::load(&k)
}

/// In every lane, the `k`-th legal pit of the mover and its seeds.
#[inline(always)]
fn kth_legal_pit<const N: usize, B: Bytes<N>>(legal: &[B; 6], pits: &[B; 12], k: B) -> (B, B) {
    let (mut before, mut p, mut n) = (B::splat(0), B::splat(0), B::splat(0));
    for (i, &legal) in legal.iter().enumerate() {
        let chosen = legal.and(before.eq(k));
        p = chosen.select(B::splat(i as u8), p);
        n = chosen.select(pits[i], n);
        before = before.add(legal.ones());
    }
    (p, n)
}

/// Full laps q = n / 11 and the rest r = n % 11 of sowing n seeds, by comparisons (a pit holds
/// at most the 48 seeds of the game).
#[inline(always)]
fn laps_and_rest<const N: usize, B: Bytes<N>>(n: B) -> (B, B) {
    let (mut q, mut r) = (B::splat(0), n);
    for lap in [11, 22, 33, 44] {
        let more = n.ge(B::splat(lap));
        q = q.add(more.ones());
        r = r.sub(more.and(B::splat(11)));
    }
    (q, r)
}

/// Sows, in every lane, the `n` seeds of the mover's pit `p` (both per lane): q full laps of the
/// 11 other pits, then r more seeds from the next pit on. Returns the pit of the last seed.
#[inline(always)]
fn sow<const N: usize, B: Bytes<N>>(pits: &mut [B; 12], p: B, n: B) -> B {
    let (q, r) = laps_and_rest(n);
    for (j, v) in pits.iter_mut().enumerate() {
        // Pit j is d pits on from p (1 to 11; 0 for p itself): it gets a seed more than the laps
        // when d <= r. The emptied pit gets nothing back.
        let back = B::splat(j as u8).sub(p);
        let d = p.gt(B::splat(j as u8)).select(back.add(B::splat(12)), back);
        let extra = r.ge(d).and(d.nonzero()).ones();
        *v = v.add(q).add(extra);
        if j < 6 {
            *v = v.and_not(p.eq(B::splat(j as u8)));
        }
    }
    last_pit(p, r)
}

/// The pit of the last seed sown from `p` with rest `r`: r pits on (11 when r = 0, the pit before
/// the one emptied).
#[inline(always)]
fn last_pit<const N: usize, B: Bytes<N>>(p: B, r: B) -> B {
    let distance = r.nonzero().select(r, B::splat(11));
    let past = p.add(distance);
    past.min(past.sub(B::splat(12)))
}

/// Per pit `i` of the mover's row (`mine`), the lanes where sowing it would be a grand slam: a
/// capture run that takes every seed of the opponent's row (`theirs`). Worked out from the rows
/// rather than by sowing each pit: with a pit of 3 or more the opponent keeps a seed; else, a
/// sowing of at most 11 seeds (no lap) takes the whole row exactly when the row's seeds fill its
/// first m pits and the last seed lands in the m-th (`5 + m - i` seeds), and a longer one (every
/// pit sown) when its last seed lands in the row's last pit and every pit then holds 2 or 3:
/// `22 - i` seeds over pits of at most 1, `33 - i` over an empty row.
#[inline(always)]
pub(super) fn grand_slams<const N: usize, B: Bytes<N>>(mine: &[B], theirs: &[B]) -> [B; 6] {
    let (mut keeps, mut over_one, mut gap, mut m) =
        (B::splat(0), B::splat(0), B::splat(0), B::splat(0));
    for (j, v) in theirs.iter().enumerate() {
        keeps = keeps.or(v.ge(B::splat(3)));
        over_one = over_one.or(v.ge(B::splat(2)));
        let occupied = v.nonzero();
        if j > 0 {
            // A seed past an empty pit: the row's seeds do not fill its first pits.
            gap = gap.or(occupied.and_not(theirs[j - 1].nonzero()));
        }
        m = m.add(occupied.ones());
    }
    let filled = theirs[0].nonzero().and_not(gap.or(keeps));
    let low = B::splat(0xff).and_not(over_one);
    let empty = m.eq(B::splat(0));
    let mut slam = [B::splat(0); 6];
    for (i, (s, &n)) in slam.iter_mut().zip(mine).enumerate() {
        let short = filled.and(n.eq(m.add(B::splat(5 - i as u8))));
        let lap = low.and(n.eq(B::splat(22 - i as u8)));
        let laps = empty.and(n.eq(B::splat(33 - i as u8)));
        *s = short.or(lap).or(laps);
    }
    slam
}

/// The capture run of a sowing that ended in pit `last`: from there back while pits hold 2 or 3,
/// in the opponent's row (pits 6–11). Returns the run's lane masks per pit of that row, and the
/// lanes where the row holds seeds outside the run.
#[inline(always)]
fn capture_run<const N: usize, B: Bytes<N>>(pits: &[B; 12], last: B) -> ([B; 6], B) {
    let (mut run, mut alive, mut outside) = ([B::splat(0); 6], B::splat(0), B::splat(0));
    for j in (6..12).rev() {
        let two_or_three = pits[j].and(B::splat(0xfe)).eq(B::splat(2));
        alive = two_or_three.and(alive.or(last.eq(B::splat(j as u8))));
        run[j - 6] = alive;
        outside = outside.or(pits[j].nonzero().and_not(alive));
    }
    (run, outside)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether sowing the mover's pit `i` of `pits` (0–5 the mover's row, 6–11 the opponent's)
    /// takes every seed of the opponent's row, worked seed by seed.
    fn slam_by_sowing(mut pits: [u8; 12], i: usize) -> bool {
        let mut hand = std::mem::take(&mut pits[i]);
        let mut at = i;
        while hand > 0 {
            at = (at + 1) % 12;
            if at != i {
                pits[at] += 1;
                hand -= 1;
            }
        }
        let mut taken = [false; 12];
        let mut j = at;
        while (6..12).contains(&j) && (2..=3).contains(&pits[j]) {
            taken[j] = true;
            j -= 1;
        }
        taken[at] && (6..12).all(|j| taken[j] || pits[j] == 0)
    }

    #[test]
    fn grand_slams_are_the_moves_that_sow_a_whole_row_away() {
        // Every opponent row of pits holding 0 to 3, every pit and every count of up to 48.
        let mut cases = Vec::new();
        for row in 0..4u32.pow(6) {
            let theirs: [u8; 6] = std::array::from_fn(|j| (row / 4u32.pow(j as u32) % 4) as u8);
            for n in 0..=48u8 {
                cases.push((theirs, n));
            }
        }
        let mut found = 0;
        for chunk in cases.chunks(16) {
            let lane = |l: usize| chunk[l.min(chunk.len() - 1)];
            let theirs: [wide::u8x16; 6] =
                std::array::from_fn(|j| wide::u8x16::new(std::array::from_fn(|l| lane(l).0[j])));
            let n = wide::u8x16::new(std::array::from_fn(|l| lane(l).1));
            let slams = grand_slams(&[n; 6], &theirs);
            for (l, &(row, seeds)) in chunk.iter().enumerate() {
                for (i, slam) in slams.iter().enumerate() {
                    let mut pits = [0; 12];
                    pits[i] = seeds;
                    pits[6..].copy_from_slice(&row);
                    let expected = slam_by_sowing(pits, i);
                    found += usize::from(expected);
                    assert_eq!(
                        slam.bits() >> l & 1 == 1,
                        expected,
                        "pit {i} with {seeds} seeds against {row:?}"
                    );
                }
            }
        }
        // Each shape of the closed form is met: short sowings, one lap, two laps.
        assert!(found > 100, "{found} grand slams");
    }
}
