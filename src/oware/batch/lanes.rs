//! The lane machinery every vector path of the batch engine shares: the lanes' state between
//! steps, the game feed, repetitions, ply limits, hand-overs to the scalar engine and playouts.
//!
//! A path supplies only [`Step`]: one ply in every lane, and the board key it files positions by.

use std::ops::Range;

use super::{finish_scalar, game_keys, Batch, BatchStats, Playout, PlayoutEvents};
use crate::oware::variant::{FinalSweep, GrandSlam, NoAllowedMove};
use crate::oware::Side;

pub(super) use crate::batch::bytes::Row;

/// Every lane's state between steps.
pub(super) struct Lanes<const N: usize> {
    /// Seeds, seen from the mover: pits 0–5 the mover's row from its left, 6–11 the opponent's.
    pub(super) pits: [Row<N>; 12],
    /// Mover's and opponent's scores.
    pub(super) scores: [Row<N>; 2],
    /// Legal moves: byte l of `legal[i]` is 0xff when lane l's mover may play pit i, else 0.
    pub(super) legal: [Row<N>; 6],
    /// Lane bit set when South moves.
    pub(super) south: u64,
    /// Lane bit set when the lane plays a game of the range (else it idles).
    pub(super) active: u64,
    /// Random counters: key 0 plus ply times the golden ratio, and key 1.
    pub(super) ctr: [u32; N],
    pub(super) key1: [u32; N],
    game: [u64; N],
    /// Step at which the lane's game started, and at which its last capture (or start) was.
    start: [u64; N],
    since: [u64; N],
    /// The first step at which a lane can reach the ply limit (no lane needs checking before).
    next_cut: u64,
    /// The first step at which a lane can have gone the ring's length without a capture.
    next_hand_over: u64,
    /// Per-lane filter of board keys since the last capture (1024 bits).
    filter: Vec<[u64; 16]>,
    /// What each lane's moves did so far, for the clause events (their `moves_hash` is kept in
    /// `moves_hash` until the game leaves the lane).
    events: [PlayoutEvents; N],
    /// The pit each lane's mover played at the last step (0-5 from the mover's left).
    pub(super) played: Row<N>,
    /// Each lane's games.csv `moves_hash` so far.
    moves_hash: [u64; N],
    /// Past boards and keys by step (index step % ring); a key is two rows, low and high byte.
    pub(super) ring: Vec<[Row<N>; 12]>,
    pub(super) ring_key: Vec<[Row<N>; 2]>,
    /// Each lane's keys by step, lane after lane (`ring` each): a lane's past keys side by
    /// side, compared many at a time.
    keys: Vec<u16>,
}

/// Lane masks a vector step hands to `settle` (bit l for lane l; no bit at or above `N`).
pub(super) struct StepOut {
    /// Lanes whose move captured.
    pub(super) captured: u64,
    /// Lanes whose game ended by score (a side over 24, or 24 each).
    pub(super) over: u64,
    /// Lanes whose new mover has no legal move.
    pub(super) stuck: u64,
    /// Lanes whose sowing lapped the board (12 seeds or more).
    pub(super) laps: u64,
    /// Per opponent pit (0–5 of that row), the lanes that captured it.
    pub(super) taken: [u64; 6],
    /// Lanes that played a grand slam capturing nothing.
    pub(super) empty_slams: u64,
}

/// What the reading does with grand slams.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Slams {
    /// Played, capturing nothing.
    Capture,
    /// Forbidden; when no other move is allowed the game ends.
    Forbidden,
    /// Forbidden unless no other move is allowed; then played, capturing nothing.
    PlayedWhenNothingElse,
}

/// One vector path: a ply in every lane, and the key it files boards by.
pub(super) trait Step<const N: usize> {
    /// The 16-bit key of a board seen from the mover (`south` when South moves); the step files
    /// the boards it makes under the same key.
    fn key(pits: &[u8; 12], south: bool) -> u16;

    /// One ply in every lane: record the board in ring slot `step % ring`, draw and play a move,
    /// capture, turn the board to the new mover, work out its legal moves and the new boards' keys
    /// (into the next ring slot).
    ///
    /// # Safety
    ///
    /// The processor must have the features the path is compiled for.
    unsafe fn step(lanes: &mut Lanes<N>, step: u64, ring: usize, slams: Slams) -> StepOut;
}

/// The lane bits of `N` lanes.
pub(super) const fn all_lanes(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// Plays `games` on the vector path `S` with `N` lanes.
///
/// # Safety
///
/// The processor must have the features `S` is compiled for.
pub(super) unsafe fn play<const N: usize, S: Step<N>>(
    batch: &Batch,
    games: Range<u64>,
    each: &mut dyn FnMut(Playout),
) -> BatchStats {
    let first_south = batch.variant.first_player == Side::South;
    let mut lanes = Lanes {
        pits: [Row([4; N]); 12],
        scores: [Row([0; N]); 2],
        legal: [Row([0xff; N]); 6],
        south: if first_south { all_lanes(N) } else { 0 },
        active: 0,
        ctr: [0; N],
        key1: [0; N],
        game: [u64::MAX; N],
        start: [0; N],
        since: [0; N],
        next_cut: u64::from(batch.max_plies),
        next_hand_over: batch.ring as u64 - 1,
        filter: vec![[0; 16]; N],
        events: [PlayoutEvents::default(); N],
        played: Row([0; N]),
        moves_hash: [crate::playout::MOVES_HASH_START; N],
        ring: vec![[Row([0; N]); 12]; batch.ring],
        ring_key: vec![[Row([0; N]); 2]; batch.ring],
        keys: vec![0; N * batch.ring],
    };
    let mut feed = Feed {
        next: games.start,
        end: games.end,
        start_key: S::key(&[4; 12], first_south),
        each,
        stats: BatchStats::default(),
    };
    for l in 0..N {
        restart(batch, &mut lanes, l, 0, &mut feed);
    }
    let mut step = 0u64;
    let slams = match (batch.variant.grand_slam, batch.variant.no_allowed_move) {
        (GrandSlam::CapturesNothing, _) => Slams::Capture,
        (GrandSlam::Forbidden, NoAllowedMove::AllowGrandSlamWithoutCapture) => {
            Slams::PlayedWhenNothingElse
        }
        (GrandSlam::Forbidden, _) => Slams::Forbidden,
    };
    while lanes.active != 0 {
        // SAFETY: the caller vouches for the processor.
        let out = unsafe { S::step(&mut lanes, step, batch.ring, slams) };
        for (hash, &pit) in lanes.moves_hash.iter_mut().zip(&lanes.played.0) {
            *hash = crate::playout::moves_hash_step(*hash, pit);
        }
        step += 1;
        settle(batch, &mut lanes, step, out, &mut feed);
    }
    feed.stats.steps = step;
    feed.stats
}

/// Where the lanes' games come from and go: the next game of the range and its end, the key
/// of the start position, what takes each finished playout, and the counts so far.
struct Feed<'a> {
    next: u64,
    end: u64,
    start_key: u16,
    each: &'a mut dyn FnMut(Playout),
    stats: BatchStats,
}

/// Starts the next game of the range in lane `l` at step `step` (or idles the lane).
fn restart<const N: usize>(
    batch: &Batch,
    lanes: &mut Lanes<N>,
    l: usize,
    step: u64,
    feed: &mut Feed,
) {
    let (next, end, start_key) = (&mut feed.next, feed.end, feed.start_key);
    let bit = 1u64 << l;
    let game = if *next < end {
        lanes.active |= bit;
        *next += 1;
        *next - 1
    } else {
        lanes.active &= !bit;
        u64::MAX
    };
    for row in lanes.pits.iter_mut() {
        row.0[l] = 4;
    }
    lanes.scores[0].0[l] = 0;
    lanes.scores[1].0[l] = 0;
    for m in lanes.legal.iter_mut() {
        m.0[l] = 0xff;
    }
    if batch.variant.first_player == Side::South {
        lanes.south |= bit;
    } else {
        lanes.south &= !bit;
    }
    let keys = game_keys(batch.seed, game);
    lanes.ctr[l] = keys[0];
    lanes.key1[l] = keys[1];
    lanes.game[l] = game;
    lanes.start[l] = step;
    lanes.since[l] = step;
    lanes.filter[l] = [0; 16];
    lanes.events[l] = PlayoutEvents::default();
    lanes.moves_hash[l] = crate::playout::MOVES_HASH_START;
    insert(&mut lanes.filter[l], start_key);
    let slot = (step as usize) & (batch.ring - 1);
    let [lo, hi] = start_key.to_le_bytes();
    lanes.ring_key[slot][0].0[l] = lo;
    lanes.ring_key[slot][1].0[l] = hi;
    lanes.keys[l * batch.ring + slot] = start_key;
}

/// Sets `key` in a lane filter; says whether it was set already.
#[inline(always)]
fn insert(filter: &mut [u64; 16], key: u16) -> bool {
    let word = &mut filter[usize::from((key >> 6) & 15)];
    let bit = 1u64 << (key & 63);
    let was = *word & bit != 0;
    *word |= bit;
    was
}

/// Lane `l`'s pits (seen from its mover) at ring slot `slot`, or now when `slot` is `None`.
fn lane_pits<const N: usize>(lanes: &Lanes<N>, l: usize, slot: Option<usize>) -> [u8; 12] {
    let rows = match slot {
        Some(s) => &lanes.ring[s],
        None => &lanes.pits,
    };
    std::array::from_fn(|j| rows[j].0[l])
}

/// Pits A..F a..f from pits seen from the mover.
fn absolute(pits: [u8; 12], south: bool) -> [u8; 12] {
    if south {
        pits
    } else {
        std::array::from_fn(|j| pits[(j + 6) % 12])
    }
}

/// After a vector step: counts each lane's clause events, finds repetitions, and hands the
/// lanes whose games ended (or reached the ply limit) to `feed`, restarting them.
fn settle<const N: usize>(
    batch: &Batch,
    lanes: &mut Lanes<N>,
    step: u64,
    out: StepOut,
    feed: &mut Feed,
) {
    count_events(lanes, &out);
    let (repeated, handed_over) = repetitions(batch, lanes, step, out.captured, feed);
    let finished = (out.over | out.stuck | repeated) & !handed_over & all_lanes(N);
    // No game reaches the ply limit before the earliest start plus the limit.
    let cut = if step < lanes.next_cut {
        0
    } else {
        let limit = u64::from(batch.max_plies);
        let mut cut = 0u64;
        for l in 0..N {
            if step - lanes.start[l] >= limit {
                cut |= 1 << l;
            }
        }
        // The lanes cut now restart at this step.
        let earliest = (0..N)
            .filter(|&l| cut & !finished & (1 << l) == 0)
            .map(|l| lanes.start[l])
            .min()
            .unwrap_or(step);
        lanes.next_cut = earliest.min(step) + limit;
        cut & !finished
    };
    let mut m = finished | cut;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        if lanes.active & (1 << l) != 0 {
            let playout = finished_playout(batch, lanes, l, step, &out, repeated, cut);
            (feed.each)(playout);
        }
        restart(batch, lanes, l, step, feed);
    }
}

/// Calls `f` with the index and bit of each lane of `mask`.
#[inline(always)]
fn each_lane(mask: u64, mut f: impl FnMut(usize, u64)) {
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros();
        f(l as usize, 1 << l);
        m &= m - 1;
    }
}

/// What this step's moves did, into each active lane's events.
fn count_events<const N: usize>(lanes: &mut Lanes<N>, out: &StepOut) {
    let (active, events) = (lanes.active, &mut lanes.events);
    // Laps and empty grand slams are rare; a capture takes one pit or more.
    each_lane(out.laps & active, |l, _| events[l].laps += 1);
    each_lane(out.empty_slams & active, |l, _| events[l].empty_slams += 1);
    each_lane(out.captured & active, |l, bit| {
        let e = &mut events[l];
        e.capturing_moves += 1;
        e.pits_captured += out
            .taken
            .iter()
            .map(|&t| u32::from(t & bit != 0))
            .sum::<u32>();
    });
}

/// The lanes whose position now occurs for the time that ends the game (O.6.2) since their
/// last capture (a capture starts a new span), and the lanes whose span outgrew the ring of
/// past boards: their games go to the scalar engine and the lanes restart.
fn repetitions<const N: usize>(
    batch: &Batch,
    lanes: &mut Lanes<N>,
    step: u64,
    captured: u64,
    feed: &mut Feed,
) -> (u64, u64) {
    let ring = batch.ring;
    let slot = (step as usize) & (ring - 1);
    let occurrences = u32::from(batch.variant.cycle_end.applies_at());
    // A capture starts a new span: its filter holds the board now only (set by the pass below).
    each_lane(captured, |l, _| {
        lanes.since[l] = step;
        lanes.filter[l] = [0; 16];
    });
    let mut handed_over = 0u64;
    if step >= lanes.next_hand_over {
        each_lane(!captured & all_lanes(N), |l, bit| {
            if step - lanes.since[l] >= ring as u64 - 1 {
                hand_over(batch, lanes, l, step, feed);
                restart(batch, lanes, l, step, feed);
                handed_over |= bit;
            }
        });
        // Every lane's span since its last capture started at `since` or later.
        lanes.next_hand_over = lanes.since.iter().min().map_or(step, |&s| s) + ring as u64 - 1;
    }
    // Every lane's board into its filter, with no branch: the lanes whose key was there already
    // are the few whose past keys are compared.
    let [lo, hi] = &lanes.ring_key[slot];
    let mut keys = [0u16; N];
    for (k, (&lo, &hi)) in keys.iter_mut().zip(lo.0.iter().zip(&hi.0)) {
        *k = u16::from(lo) | u16::from(hi) << 8;
    }
    let mut hits = 0u64;
    for (l, (filter, &key)) in lanes.filter.iter_mut().zip(&keys).enumerate() {
        hits |= u64::from(insert(filter, key)) << l;
        lanes.keys[l * ring + slot] = key;
    }
    let mut repeated = 0u64;
    each_lane(hits & !captured & !handed_over, |l, bit| {
        feed.stats.filter_hits += 1;
        let key = keys[l];
        let past = &lanes.keys[l * ring..(l + 1) * ring];
        // The boards are compared only where enough past keys match to end the game.
        if key_matches(past, lanes.since[l], step, key) + 1 < occurrences {
            return;
        }
        let now = lane_pits(lanes, l, None);
        let mut seen = 1;
        let mut t = step;
        while t >= lanes.since[l] + 2 {
            t -= 2;
            let s = (t as usize) & (ring - 1);
            if past[s] == key && lane_pits(lanes, l, Some(s)) == now {
                seen += 1;
            }
        }
        if seen >= occurrences {
            repeated |= bit;
        }
    });
    (repeated, handed_over)
}

/// How many of a lane's past keys (`past`, by step modulo its length) at the steps from `since`
/// to before `step` that have `step`'s mover equal `key`.
fn key_matches(past: &[u16], since: u64, step: u64, key: u16) -> u32 {
    let ring = past.len();
    let mut count = 0;
    let mut t = since + (step - since) % 2;
    while t < step {
        let i = (t as usize) & (ring - 1);
        let run = &past[i..ring.min(i + (step - t) as usize)];
        // Every other key of the run has the mover of `step`, from the first.
        count += run
            .iter()
            .enumerate()
            .map(|(j, &k)| u32::from(k == key) & u32::from(j % 2 == 0))
            .sum::<u32>();
        t += run.len() as u64;
        t += (step - t) % 2;
    }
    count
}

/// The playout of lane `l`, whose game ended at step `step` (or reached the ply limit: `cut`).
fn finished_playout<const N: usize>(
    batch: &Batch,
    lanes: &Lanes<N>,
    l: usize,
    step: u64,
    out: &StepOut,
    repeated: u64,
    cut: u64,
) -> Playout {
    let bit = 1u64 << l;
    let south = lanes.south & bit != 0;
    let mut pits = absolute(lane_pits(lanes, l, None), south);
    let mine = [lanes.scores[0].0[l], lanes.scores[1].0[l]];
    let mut scores = if south { mine } else { [mine[1], mine[0]] };
    let clause = if cut & bit != 0 {
        ""
    } else if repeated & bit != 0 {
        "O.6.2"
    } else if out.over & bit != 0 {
        if scores[0] > 24 || scores[1] > 24 {
            "O.6.1"
        } else {
            "O.5.2"
        }
    } else {
        "O.4.2"
    };
    let mut swept = [0; 2];
    let result = if cut & bit != 0 {
        None
    } else {
        // Repetitions and stuck movers sweep; a score over 24 sweeps as the reading says; at
        // 24 each the rows are empty.
        let sweep = repeated & bit != 0
            || out.over & bit == 0
            || batch.variant.final_sweep == FinalSweep::EachTakesOwn;
        if sweep {
            swept = [pits[..6].iter().sum::<u8>(), pits[6..].iter().sum::<u8>()];
            scores[0] += swept[0];
            scores[1] += swept[1];
            pits = [0; 12];
        }
        Some(match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        })
    };
    Playout {
        game: lanes.game[l],
        plies: (step - lanes.start[l]) as u32,
        scores,
        result,
        pits,
        end: clause,
        swept,
        events: PlayoutEvents {
            moves_hash: lanes.moves_hash[l],
            ..lanes.events[l]
        },
    }
}

/// Hands lane `l`'s game (now at step `step`, too long without a capture for the ring) to the
/// scalar engine with its boards since the last capture, and plays it out there.
fn hand_over<const N: usize>(
    batch: &Batch,
    lanes: &Lanes<N>,
    l: usize,
    step: u64,
    feed: &mut Feed,
) {
    let bit = 1u64 << l;
    if lanes.active & bit == 0 {
        return;
    }
    feed.stats.handed_over += 1;
    let south_now = lanes.south & bit != 0;
    let mover = |t: u64| {
        // The mover alternates every step.
        let south = south_now ^ ((step - t) % 2 == 1);
        u8::from(!south)
    };
    let ring = batch.ring;
    let mut history: Vec<([u8; 12], u8)> = (lanes.since[l]..step)
        .map(|t| {
            let s = (t as usize) & (ring - 1);
            let m = mover(t);
            (absolute(lane_pits(lanes, l, Some(s)), m == 0), m)
        })
        .collect();
    history.push((absolute(lane_pits(lanes, l, None), south_now), mover(step)));
    let mine = [lanes.scores[0].0[l], lanes.scores[1].0[l]];
    let scores = if south_now { mine } else { [mine[1], mine[0]] };
    let mut g = batch.rules.game_with_history(&history, scores);
    let ply = (step - lanes.start[l]) as u32;
    (feed.each)(finish_scalar(
        &batch.rules,
        &mut g,
        game_keys(batch.seed, lanes.game[l]),
        lanes.game[l],
        ply,
        batch.max_plies,
        PlayoutEvents {
            moves_hash: lanes.moves_hash[l],
            ..lanes.events[l]
        },
    ));
}

#[cfg(test)]
mod tests {
    use super::key_matches;

    #[test]
    fn past_keys_are_counted_for_the_same_mover_only_and_across_the_ring_s_end() {
        // A ring of 8 steps: step t's key is at slot t % 8. Key 7 was filed at steps 4 and 8
        // (slots 4 and 0), at the odd step 5, and at slot 2 (step 2, or step 10 itself).
        let mut past = [1u16; 8];
        for slot in [4, 0, 5, 2] {
            past[slot] = 7;
        }
        // Step 10, span from step 3: the same mover moved at steps 4, 6 and 8.
        assert_eq!(key_matches(&past, 3, 10, 7), 2);
        assert_eq!(key_matches(&past, 4, 10, 7), 2);
        // From step 5: steps 6 and 8 only.
        assert_eq!(key_matches(&past, 5, 10, 7), 1);
        // Step 9, from step 3: steps 3, 5 and 7.
        assert_eq!(key_matches(&past, 3, 9, 7), 1);
        // No past step at all, and another key.
        assert_eq!(key_matches(&past, 10, 10, 7), 0);
        assert_eq!(key_matches(&past, 3, 10, 9), 0);
    }
}
