//! The optimized Oware engine: pits, scores and mover packed in one u128 (also the repetition key),
//! sowing by one table add, legal moves as a bit mask worked out once per position, play in place.
//! No rule code is shared with `rules.rs`.

use super::variant::{FinalSweep, GrandSlam, NoAllowedMove, Variant};

/// A game state of the optimized engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FastGame {
    /// One number: pits 0–11 (A..F, a..f) in bytes 0–11, the scores of players 0 and 1 in bytes
    /// 12–13, the player to move in byte 14. It is also the repetition key.
    board: u128,
    /// Over: the winner (0, 1) or 2 for a draw.
    pub result: Option<u8>,
    /// Which rule ended the game (for reports).
    pub end_clause: &'static str,
    /// The boards since the last capture, the current one last.
    history: Vec<u128>,
    /// A filter over `history`: bit `bucket(b)` is set for every board `b` in it, so a board whose
    /// bit is clear has not occurred since the last capture and the history need not be read.
    seen: [u64; 4],
    /// The legal moves (bit i = pit i from the mover's left), worked out once by the end rules.
    legal: u8,
    /// The moves that leave the opponent seeds (the sheet's grand-slam rule asks for them).
    allowed: u8,
}

/// Byte of the board holding the score of player 0 (player 1's is the next).
const SCORES: usize = 12;
/// Byte of the board holding the player to move.
const MOVER: usize = 14;
/// The twelve pit bytes of a board.
const PIT_BYTES: u128 = (1 << 96) - 1;
/// One row (six pit bytes).
const ROW: u128 = (1 << 48) - 1;

/// Seeds in pit `i`.
#[inline]
fn pit(board: u128, i: usize) -> u8 {
    (board >> (8 * i)) as u8
}

/// The six pits of the row starting at pit `lo`, as a number.
#[inline]
fn row(board: u128, lo: usize) -> u64 {
    ((board >> (8 * lo)) & ROW) as u64
}

/// The filter word and bit of `board` in `FastGame::seen` (a multiplicative hash to 0..256).
#[inline]
fn bucket(board: u128) -> (usize, u64) {
    let folded = (board as u64) ^ ((board >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let b = (folded.wrapping_mul(0xd6e8_feb8_6659_fd93) >> 56) as usize;
    (b >> 6, 1 << (b & 63))
}

/// Sum of the six bytes of a row (each at most 48, so no byte overflows on the way).
#[inline]
fn row_sum(r: u64) -> u8 {
    (r.wrapping_mul(0x0101_0101_0101) >> 40) as u8
}

impl FastGame {
    /// Seeds in pits 0–11 (A..F, a..f).
    pub fn pits(&self) -> [u8; 12] {
        let mut pits = [0; 12];
        pits.copy_from_slice(&self.board.to_le_bytes()[..12]);
        pits
    }

    /// Scores of player 0 and 1.
    pub fn scores(&self) -> [u8; 2] {
        [pit(self.board, SCORES), pit(self.board, SCORES + 1)]
    }

    /// Player to move, 0 or 1.
    pub fn to_move(&self) -> u8 {
        pit(self.board, MOVER)
    }
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
        let mut bytes = [0u8; 16];
        bytes[..12].copy_from_slice(&pits);
        bytes[12..14].copy_from_slice(&scores);
        bytes[14] = to_move;
        let board = u128::from_le_bytes(bytes);
        let mut history = Vec::with_capacity(256);
        history.push(board);
        let mut seen = [0; 4];
        let (word, bit) = bucket(board);
        seen[word] = bit;
        let mut g = FastGame {
            board,
            result: None,
            end_clause: "",
            history,
            seen,
            legal: 0,
            allowed: 0,
        };
        self.finish(&mut g, false);
        g
    }

    /// The start position.
    pub fn start(&self) -> FastGame {
        self.game([4; 12], [0; 2], self.variant.first_player.index() as u8)
    }

    /// Plays pit `from` on `board` and returns the board after it (scores and mover unchanged) and
    /// the seeds captured. Sowing is one table add; the capture run is read from the last pit back.
    #[inline]
    fn simulate(board: u128, from: usize, slam_captures: bool) -> (u128, u8) {
        let me = usize::from(pit(board, MOVER));
        let n = usize::from(pit(board, from));
        let board = board.wrapping_add(SOW[from][n]);
        let last = usize::from(LAST[from][n]);
        let row_lo = (1 - me) * 6;
        if !(row_lo..row_lo + 6).contains(&last) {
            return (board, 0);
        }
        let mut first = last;
        let mut seeds = 0u8;
        loop {
            let s = pit(board, first);
            if s != 2 && s != 3 {
                first += 1;
                break;
            }
            seeds += s;
            if first == row_lo {
                break;
            }
            first -= 1;
        }
        if first > last || (seeds == row_sum(row(board, row_lo)) && !slam_captures) {
            return (board, 0);
        }
        // Bytes first..=last of the board.
        let run = (1u128 << (8 * (last + 1))) - (1u128 << (8 * first));
        (board & !run, seeds)
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
        let me = usize::from(g.to_move());
        let (lo, opp_lo) = (me * 6, (1 - me) * 6);
        // A byte of a row is not zero exactly when adding 0x7f sets its top bit (pits hold < 128).
        let mine = row(g.board, lo);
        let tops = (mine + 0x7f7f_7f7f_7f7f) & 0x8080_8080_8080;
        let nonempty = ((tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
        let opp = row(g.board, opp_lo);
        let slam_forbidden = self.variant.grand_slam == GrandSlam::Forbidden;
        // Some opponent pit holds 4 or more: it only grows while sown and is never captured.
        let opp_keeps_one = (opp + 0x7c7c_7c7c_7c7c) & 0x8080_8080_8080 != 0;
        if opp != 0 && (!slam_forbidden || opp_keeps_one) {
            // No move can empty a non-empty opponent: a grand slam captures nothing, or is
            // impossible.
            return (nonempty, 0);
        }
        let (mut allowed, mut slams) = (0u8, 0u8);
        for i in 0..6 {
            if nonempty & (1 << i) == 0 {
                continue;
            }
            let (after, _) = FastRules::simulate(g.board, lo + i, slam_forbidden);
            if row(after, opp_lo) != 0 {
                allowed |= 1 << i;
            } else if slam_forbidden {
                let (after, _) = FastRules::simulate(g.board, lo + i, false);
                if row(after, opp_lo) != 0 {
                    slams |= 1 << i;
                }
            }
        }
        (allowed, slams)
    }

    /// Plays pit `pit` (0–5 from the mover's left) in place; the move must be legal.
    pub fn play(&self, g: &mut FastGame, pit: u8) {
        let me = usize::from(g.to_move());
        let from = me * 6 + usize::from(pit);
        // Grand slams capture under the sheet unless played because nothing else is allowed.
        let slam_captures = self.variant.grand_slam == GrandSlam::Forbidden && g.allowed != 0;
        let (board, captured) = FastRules::simulate(g.board, from, slam_captures);
        let scored = u128::from(captured) << (8 * (SCORES + me));
        g.board = (board + scored) ^ (1 << (8 * MOVER));
        if captured > 0 {
            g.history.clear();
            g.seen = [0; 4];
        }
        g.history.push(g.board);
        let (word, bit) = bucket(g.board);
        let maybe_repeated = g.seen[word] & bit != 0;
        g.seen[word] |= bit;
        self.finish(g, maybe_repeated);
    }

    /// Applies the end rules to the state just reached; `maybe_repeated`: the board may have
    /// occurred before since the last capture (else it has not).
    fn finish(&self, g: &mut FastGame, maybe_repeated: bool) {
        let k = g.board;
        let seen = if maybe_repeated {
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
        let scores = g.scores();
        let end = if seen >= usize::from(self.variant.cycle_end.applies_at()) {
            Some(("O.6.2", true))
        } else if scores[0] > 24 || scores[1] > 24 {
            Some((
                "O.6.1",
                self.variant.final_sweep == FinalSweep::EachTakesOwn,
            ))
        } else if scores[0] == 24 && scores[1] == 24 {
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
            let mut scores = scores;
            if sweep {
                scores[0] += row_sum(row(g.board, 0));
                scores[1] += row_sum(row(g.board, 6));
                g.board &= !PIT_BYTES;
            }
            g.board = (g.board & !(0xffff << (8 * SCORES)))
                | u128::from(u16::from_le_bytes(scores)) << (8 * SCORES);
            g.result = Some(match scores[0].cmp(&scores[1]) {
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

/// `SELECT[mask][k]`: the k-th set bit of the six-bit `mask`, counted from bit 0.
static SELECT: [[u8; 6]; 64] = {
    let mut table = [[0u8; 6]; 64];
    let mut mask = 0;
    while mask < 64 {
        let (mut bit, mut k) = (0, 0);
        while bit < 6 {
            if mask & (1 << bit) != 0 {
                table[mask][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
};

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
            // The k-th legal move, k uniform.
            let k = rng.gen_range(0..mask.count_ones());
            self.play(&mut g, SELECT[usize::from(mask)][k as usize]);
        }
        (max_plies, 2)
    }
}
