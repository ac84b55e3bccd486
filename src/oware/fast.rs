//! The optimized Oware engine: a packed 12-byte board sown by one table add, legal moves as a bit
//! mask worked out once per position, play in place, a preallocated repetition list. No rule code is
//! shared with `rules.rs`.

use super::variant::{FinalSweep, GrandSlam, NoAllowedMove, Variant};

/// A game state of the optimized engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FastGame {
    /// Pits 0–11 (A..F, a..f).
    pub pits: [u8; 12],
    /// Scores of player 0 and 1.
    pub scores: [u8; 2],
    /// Player to move, 0 or 1.
    pub to_move: u8,
    /// Over: the winner (0, 1) or 2 for a draw.
    pub result: Option<u8>,
    /// Which rule ended the game (for reports).
    pub end_clause: &'static str,
    /// Packed keys of the positions since the last capture, the current one last.
    history: Vec<u128>,
    /// The legal moves (bit i = pit i from the mover's left), worked out once by the end rules.
    legal: u8,
    /// The moves that leave the opponent seeds (the sheet's grand-slam rule asks for them).
    allowed: u8,
}

/// A reading the optimized engine refuses rather than silently playing differently.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the optimized Oware engine does not support {0}; use the reference engine")]
pub struct Unsupported(pub &'static str);

/// The optimized engine for one reading: every choice except leaving a point open.
#[derive(Clone, Copy, Debug)]
pub struct FastRules {
    variant: Variant,
}

impl FastRules {
    /// The engine for `variant`, or why it cannot play it.
    pub fn new(variant: Variant) -> Result<FastRules, Unsupported> {
        if !variant.open_points().is_empty() {
            return Err(Unsupported(
                "readings that leave a point open (preset strict): it has no 'rules silent' outcome",
            ));
        }
        Ok(FastRules { variant })
    }

    /// A game from explicit pits, scores and mover, with the end rules applied.
    pub fn game(&self, pits: [u8; 12], scores: [u8; 2], to_move: u8) -> FastGame {
        let mut history = Vec::with_capacity(256);
        let mut g = FastGame {
            pits,
            scores,
            to_move,
            result: None,
            end_clause: "",
            history: Vec::new(),
            legal: 0,
            allowed: 0,
        };
        history.push(key(&g));
        g.history = history;
        self.finish(&mut g, false);
        g
    }

    /// The start position.
    pub fn start(&self) -> FastGame {
        self.game([4; 12], [0; 2], self.variant.first_player.index() as u8)
    }

    /// Sows pit `from` on `pits` and returns the last pit: one table add over the 12 bytes.
    #[inline]
    fn sow(pits: &mut [u8; 12], from: usize) -> usize {
        let n = usize::from(pits[from]);
        let mut wide = [0u8; 16];
        wide[..12].copy_from_slice(pits);
        let sown = u128::from_le_bytes(wide).wrapping_add(SOW[from][n]);
        pits.copy_from_slice(&sown.to_le_bytes()[..12]);
        usize::from(LAST[from][n])
    }

    /// Capture run from `last` in row `row_lo..row_lo+6`: (first pit of the run, seeds) or none.
    #[inline]
    fn capture_run(pits: &[u8; 12], last: usize, row_lo: usize) -> (usize, u8) {
        let mut i = last;
        let mut seeds = 0u8;
        loop {
            let s = pits[i];
            if s != 2 && s != 3 {
                return (i + 1, seeds);
            }
            seeds += s;
            if i == row_lo {
                return (i, seeds);
            }
            i -= 1;
        }
    }

    /// Plays pit `from` on a copy and reports (pits after, captured, opponent seeds left).
    #[inline]
    fn simulate(&self, g: &FastGame, from: usize, slam_captures: bool) -> ([u8; 12], u8) {
        let me = usize::from(g.to_move);
        let mut pits = g.pits;
        let last = FastRules::sow(&mut pits, from);
        let row_lo = (1 - me) * 6;
        let mut captured = 0;
        if last >= row_lo && last < row_lo + 6 {
            let (first, seeds) = FastRules::capture_run(&pits, last, row_lo);
            if seeds > 0 {
                let row_total: u8 = pits[row_lo..row_lo + 6].iter().sum();
                if seeds < row_total || slam_captures {
                    for p in &mut pits[first..=last] {
                        *p = 0;
                    }
                    captured = seeds;
                }
            }
        }
        (pits, captured)
    }

    /// The legal moves as a bit mask (bit i = pit i from the mover's left).
    pub fn legal_mask(&self, g: &FastGame) -> u8 {
        if g.result.is_some() {
            return 0;
        }
        g.legal
    }

    /// (moves that leave the opponent seeds, grand slams that would if they captured nothing).
    fn allowed(&self, g: &FastGame) -> (u8, u8) {
        let me = usize::from(g.to_move);
        let lo = me * 6;
        let opp_lo = (1 - me) * 6;
        let mut nonempty = 0u8;
        for i in 0..6 {
            if g.pits[lo + i] > 0 {
                nonempty |= 1 << i;
            }
        }
        let opp_empty = g.pits[opp_lo..opp_lo + 6].iter().all(|&s| s == 0);
        let slam_forbidden = self.variant.grand_slam == GrandSlam::Forbidden;
        if !opp_empty && !slam_forbidden {
            // A grand slam captures nothing, so no move can empty a non-empty opponent.
            return (nonempty, 0);
        }
        let (mut allowed, mut slams) = (0u8, 0u8);
        for i in 0..6 {
            if nonempty & (1 << i) == 0 {
                continue;
            }
            let (pits, _) = self.simulate(g, lo + i, slam_forbidden);
            if pits[opp_lo..opp_lo + 6].iter().any(|&s| s > 0) {
                allowed |= 1 << i;
            } else if slam_forbidden {
                let (p2, _) = self.simulate(g, lo + i, false);
                if p2[opp_lo..opp_lo + 6].iter().any(|&s| s > 0) {
                    slams |= 1 << i;
                }
            }
        }
        (allowed, slams)
    }

    /// Plays pit `pit` (0–5 from the mover's left) in place; the move must be legal.
    pub fn play(&self, g: &mut FastGame, pit: u8) {
        let me = usize::from(g.to_move);
        let from = me * 6 + usize::from(pit);
        // Grand slams capture under the sheet unless played because nothing else is allowed.
        let slam_captures = self.variant.grand_slam == GrandSlam::Forbidden && g.allowed != 0;
        let (pits, captured) = self.simulate(g, from, slam_captures);
        g.pits = pits;
        g.scores[me] += captured;
        g.to_move = 1 - g.to_move;
        if captured > 0 {
            g.history.clear();
        }
        g.history.push(key(g));
        self.finish(g, true);
    }

    /// Applies the end rules to the state just reached.
    fn finish(&self, g: &mut FastGame, after_move: bool) {
        let k = *g.history.last().expect("current position recorded");
        let seen = if after_move {
            // Every ply changes the mover, so only every other entry can equal the current one.
            g.history
                .iter()
                .rev()
                .step_by(2)
                .filter(|&&h| h == k)
                .count()
        } else {
            1
        };
        let end = if seen >= usize::from(self.variant.cycle_end.applies_at()) {
            Some(("O.6.2", true))
        } else if g.scores[0] > 24 || g.scores[1] > 24 {
            Some((
                "O.6.1",
                self.variant.final_sweep == FinalSweep::EachTakesOwn,
            ))
        } else if g.scores[0] == 24 && g.scores[1] == 24 {
            Some(("O.5.2", true))
        } else {
            let (allowed, slams) = self.allowed(g);
            g.allowed = allowed;
            g.legal = if allowed == 0
                && self.variant.no_allowed_move == NoAllowedMove::AllowGrandSlamWithoutCapture
            {
                slams
            } else {
                allowed
            };
            (g.legal == 0).then_some(("O.4.2", true))
        };
        if let Some((clause, sweep)) = end {
            (g.legal, g.allowed) = (0, 0);
            if sweep {
                for i in 0..12 {
                    g.scores[i / 6] += std::mem::replace(&mut g.pits[i], 0);
                }
            }
            g.result = Some(match g.scores[0].cmp(&g.scores[1]) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => 2,
            });
            g.end_clause = clause;
        }
    }

    /// Move-path count to `depth`.
    pub fn perft(&self, g: &FastGame, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mask = self.legal_mask(g);
        if depth == 1 {
            return u64::from(mask.count_ones());
        }
        let mut total = 0;
        for pit in 0..6 {
            if mask & (1 << pit) != 0 {
                let mut child = g.clone();
                self.play(&mut child, pit);
                total += self.perft(&child, depth - 1);
            }
        }
        total
    }
}

/// The repetition key: pits, scores and player to move, one byte each.
fn key(g: &FastGame) -> u128 {
    let mut k = [0u8; 16];
    k[..12].copy_from_slice(&g.pits);
    k[12..14].copy_from_slice(&g.scores);
    k[14] = g.to_move;
    u128::from_le_bytes(k)
}

/// Most seeds a pit can hold.
const MAX_PIT: usize = 48;

/// `SOW[from][n]`: what emptying pit `from` of its `n` seeds and sowing them counter-clockwise,
/// skipping `from`, adds to the board read as 12 bytes (wrapping); `LAST[from][n]` is the pit the
/// last seed falls in.
static SOW: [[u128; MAX_PIT + 1]; 12] = sow_tables().0;
static LAST: [[u8; MAX_PIT + 1]; 12] = sow_tables().1;

const fn sow_tables() -> ([[u128; MAX_PIT + 1]; 12], [[u8; MAX_PIT + 1]; 12]) {
    let mut add = [[0u128; MAX_PIT + 1]; 12];
    let mut last = [[0u8; MAX_PIT + 1]; 12];
    let mut from = 0;
    while from < 12 {
        let mut n = 0;
        while n <= MAX_PIT {
            let mut bytes = [0u8; 16];
            let (mut at, mut left) = (from, n);
            while left > 0 {
                at = (at + 1) % 12;
                if at != from {
                    bytes[at] += 1;
                    left -= 1;
                }
            }
            add[from][n] = u128::from_le_bytes(bytes).wrapping_sub((n as u128) << (8 * from));
            last[from][n] = at as u8;
            n += 1;
        }
        from += 1;
    }
    (add, last)
}

impl FastRules {
    /// Plays one game of uniformly random legal moves from the start; returns (plies, result:
    /// 0 South, 1 North, 2 draw or unfinished).
    pub fn random_playout<R: rand::Rng>(&self, rng: &mut R, max_plies: u32) -> (u32, u8) {
        let mut g = self.start();
        for ply in 0..max_plies {
            let mask = self.legal_mask(&g);
            if mask == 0 {
                return (ply, g.result.unwrap_or(2));
            }
            // The k-th set bit, k uniform over the legal moves.
            let mut k = rng.gen_range(0..mask.count_ones());
            let mut m = mask;
            while k > 0 {
                m &= m - 1;
                k -= 1;
            }
            self.play(&mut g, m.trailing_zeros() as u8);
        }
        (max_plies, 2)
    }
}
