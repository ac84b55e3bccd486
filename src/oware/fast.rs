//! The optimized Oware engine: each side's row and score in one half of a u128 that is also the
//! repetition key; sowing by one table add, captures worked out byte-wise, play in place.
//! No rule code is shared with `rules.rs`.

use super::variant::{FinalSweep, GrandSlam, NoAllowedMove, Variant};

/// A game state of the optimized engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FastGame {
    /// One number, a half per side: South's pits A..F in bytes 0–5, its score in byte 6 and the
    /// player to move in byte 7; North's pits a..f in bytes 8–13 and its score in byte 14. It is
    /// also the repetition key.
    board: u128,
    /// Over: the winner (0, 1) or 2 for a draw.
    pub result: Option<u8>,
    /// Which rule ended the game (for reports).
    pub end_clause: &'static str,
    /// Seeds each side took from its own row when the game ended (0 without a sweep).
    pub swept: [u8; 2],
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

/// Bit of a side's half where its score byte starts.
const SCORE: u32 = 48;
/// Bit of the board where the mover byte starts (in South's half).
const MOVER: u32 = 56;
/// The six pit bytes of a half.
const ROW: u64 = (1 << 48) - 1;
/// The twelve pit bytes of a board.
const PIT_BYTES: u128 = (ROW as u128) << 64 | ROW as u128;

/// The half of `board` holding `side`'s row and score.
#[inline(always)]
fn half(board: u128, side: usize) -> u64 {
    if side == 0 {
        board as u64
    } else {
        (board >> 64) as u64
    }
}

/// The six pits of `side`'s row, as a number (pit i in byte i).
#[inline(always)]
fn row(board: u128, side: usize) -> u64 {
    half(board, side) & ROW
}

/// Bit i set when byte i (i < 6) of a row is not zero; pits hold fewer than 128 seeds.
#[inline(always)]
fn nonzero_bytes(r: u64) -> u8 {
    // A byte below 128 is not zero exactly when adding 0x7f sets its top bit.
    let tops = (r + 0x7f7f_7f7f_7f7f) & 0x8080_8080_8080;
    ((tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Sum of the six bytes of a row (each at most 48, so no byte overflows on the way).
#[inline(always)]
fn row_sum(r: u64) -> u8 {
    (r.wrapping_mul(0x0101_0101_0101) >> 40) as u8
}

/// The filter word and bit of `board` in `FastGame::seen` (a multiplicative hash to 0..256).
#[inline(always)]
fn bucket(board: u128) -> (usize, u64) {
    let folded = (board as u64) ^ ((board >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let b = (folded.wrapping_mul(0xd6e8_feb8_6659_fd93) >> 56) as usize;
    (b >> 6, 1 << (b & 63))
}

/// The run a sowing that ended in pit `j` (0–5) of the row `opp` captures: the pits holding 2 or
/// 3 from `j` back towards pit 0, as a byte mask of the row (0 when pit `j` holds neither).
#[inline(always)]
fn capture_run(opp: u64, j: usize) -> u64 {
    // 2 and 3 are the bytes that are 0 or 1 after flipping bit 1, i.e. 0 once bit 0 is dropped.
    let blockers = u32::from(nonzero_bytes((opp ^ 0x0202_0202_0202) & 0xfefe_fefe_fefe));
    let upto = (2u32 << j) - 1;
    // One past the highest blocker at or below j (0 when there is none).
    let first = 32 - (blockers & upto).leading_zeros();
    BYTES[(upto & !((1 << first) - 1)) as usize]
}

impl FastGame {
    /// Seeds in pits 0–11 (A..F, a..f).
    pub fn pits(&self) -> [u8; 12] {
        let b = self.board.to_le_bytes();
        let mut pits = [0; 12];
        pits[..6].copy_from_slice(&b[..6]);
        pits[6..].copy_from_slice(&b[8..14]);
        pits
    }

    /// Scores of player 0 and 1.
    #[inline]
    pub fn scores(&self) -> [u8; 2] {
        [half(self.board, 0), half(self.board, 1)].map(|h| (h >> SCORE) as u8)
    }

    /// Player to move, 0 or 1.
    #[inline]
    pub fn to_move(&self) -> u8 {
        (self.board >> MOVER) as u8
    }
}

/// What a sowing does besides moving seeds ([`FastRules::sow_events`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SowEvents {
    /// 12 seeds or more: the sowing skips the emptied pit on its lap.
    pub lap: bool,
    /// Opponent pits captured.
    pub pits_captured: u8,
    /// A grand slam that captures nothing.
    pub empty_slam: bool,
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

    /// The reading this engine plays.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// A game from explicit pits, scores and mover, with the end rules applied.
    pub fn game(&self, pits: [u8; 12], scores: [u8; 2], to_move: u8) -> FastGame {
        self.game_with_history(&[(pits, to_move)], scores)
    }

    /// A game whose positions since the last capture were `history` (pits A..F a..f and mover),
    /// the current one last, all with `scores`; the end rules are applied to the current one.
    pub(crate) fn game_with_history(
        &self,
        history: &[([u8; 12], u8)],
        scores: [u8; 2],
    ) -> FastGame {
        let boards: Vec<u128> = history
            .iter()
            .map(|&(pits, to_move)| board_of(pits, scores, to_move))
            .collect();
        let mut seen = [0; 4];
        for &board in &boards {
            let (word, bit) = bucket(board);
            seen[word] |= bit;
        }
        let mut g = FastGame {
            board: *boards.last().expect("a history holds the current position"),
            result: None,
            end_clause: "",
            swept: [0; 2],
            history: boards,
            seen,
            legal: 0,
            allowed: 0,
        };
        g.history.reserve(256);
        self.finish(&mut g, history.len() > 1);
        g
    }

    /// The start position.
    pub fn start(&self) -> FastGame {
        self.game([4; 12], [0; 2], self.variant.first_player.index() as u8)
    }

    /// `me` plays its pit `pit` (0–5) on `board`: returns the board after it (captures scored, the
    /// mover unchanged) and the seeds captured. Sowing is one table add; the capture run is worked out
    /// byte-wise on the opponent's row.
    #[inline(always)]
    fn simulate(board: u128, me: usize, pit: usize, slam_captures: bool) -> (u128, u8) {
        let (board, seeds, run) = FastRules::sow(board, me, pit);
        // A run taking every seed of the row is a grand slam.
        if run == 0 || (seeds & !run == 0 && !slam_captures) {
            return (board, 0);
        }
        let captured = row_sum(seeds & run);
        let (run, score) = (u128::from(run), u128::from(captured) << SCORE);
        let board = if me == 0 {
            (board & !(run << 64)) + score
        } else {
            (board & !run) + (score << 64)
        };
        (board, captured)
    }

    /// `me` sows its pit `pit` (0–5) on `board`: the board after the sowing, the opponent's row
    /// then, and the capture run the last seed starts there (a byte mask of that row; 0 when the
    /// last seed fell in the mover's own row or starts no run).
    #[inline(always)]
    fn sow(board: u128, me: usize, pit: usize) -> (u128, u64, u64) {
        let from = me * 6 + pit;
        let n = usize::from((half(board, me) >> (8 * pit)) as u8);
        let board = board.wrapping_add(SOW[from][n]);
        let last = usize::from(LAST[from][n]);
        let opp = 1 - me;
        let seeds = row(board, opp);
        if (last >= 6) != (opp == 1) {
            // The last seed fell in the mover's own row: nothing is captured.
            return (board, seeds, 0);
        }
        (board, seeds, capture_run(seeds, last - 6 * opp))
    }

    /// The legal moves as a bit mask (bit i = pit i from the mover's left).
    #[inline]
    pub fn legal_mask(&self, g: &FastGame) -> u8 {
        if g.result.is_some() {
            return 0;
        }
        g.legal
    }

    /// (moves that leave the opponent seeds, grand slams that would if they captured nothing).
    #[inline(always)]
    fn allowed(&self, board: u128) -> (u8, u8) {
        let me = usize::from((board >> MOVER) as u8);
        let nonempty = nonzero_bytes(row(board, me));
        let opp = row(board, 1 - me);
        let slam_forbidden = self.variant.grand_slam == GrandSlam::Forbidden;
        // Some opponent pit holds 3 or more, so it keeps its seeds: a capture run holds only pits
        // the move sowed, and a sown pit that held 3 or more holds 4 or more.
        let opp_keeps_one = (opp + 0x7d7d_7d7d_7d7d) & 0x8080_8080_8080 != 0;
        if opp != 0 && (!slam_forbidden || opp_keeps_one) {
            // No move can empty a non-empty opponent: a grand slam captures nothing, or is
            // impossible.
            return (nonempty, 0);
        }
        self.allowed_by_trying(board, me, nonempty, slam_forbidden)
    }

    /// (legal moves, moves that leave the opponent seeds) on `board`, the end rules aside: when
    /// no move is allowed, the reading may let grand slams be played.
    #[inline(always)]
    fn legal_and_allowed(&self, board: u128) -> (u8, u8) {
        let (allowed, slams) = self.allowed(board);
        let legal = if allowed == 0
            && self.variant.no_allowed_move == NoAllowedMove::AllowGrandSlamWithoutCapture
        {
            slams
        } else {
            allowed
        };
        (legal, allowed)
    }

    /// `allowed` for the rare positions where moves must be tried: the opponent's row is empty, or
    /// a grand slam is forbidden and might be on.
    #[cold]
    fn allowed_by_trying(
        &self,
        board: u128,
        me: usize,
        nonempty: u8,
        slam_forbidden: bool,
    ) -> (u8, u8) {
        let (mut allowed, mut slams) = (0u8, 0u8);
        for i in 0..6 {
            if nonempty & (1 << i) == 0 {
                continue;
            }
            let (after, _) = FastRules::simulate(board, me, i, slam_forbidden);
            if row(after, 1 - me) != 0 {
                allowed |= 1 << i;
            } else if slam_forbidden {
                let (after, _) = FastRules::simulate(board, me, i, false);
                if row(after, 1 - me) != 0 {
                    slams |= 1 << i;
                }
            }
        }
        (allowed, slams)
    }

    /// The seeds the legal move `pit` captures, without playing it (the end rules aside: a final
    /// sweep is no capture).
    #[inline]
    pub fn captures(&self, g: &FastGame, pit: u8) -> u8 {
        let slam_captures = self.variant.grand_slam == GrandSlam::Forbidden && g.allowed != 0;
        FastRules::simulate(
            g.board,
            usize::from(g.to_move()),
            usize::from(pit),
            slam_captures,
        )
        .1
    }

    /// What sowing the legal move `pit` does besides moving seeds, without playing it: whether
    /// it laps the board (12 seeds or more skip the emptied pit), how many of the opponent's pits
    /// it captures, and whether it is a grand slam that captures nothing.
    #[inline(always)]
    pub fn sow_events(&self, g: &FastGame, pit: u8) -> SowEvents {
        let me = usize::from(g.to_move());
        let n = (half(g.board, me) >> (8 * pit)) as u8;
        let (_, seeds, run) = FastRules::sow(g.board, me, usize::from(pit));
        let slam_captures = self.variant.grand_slam == GrandSlam::Forbidden && g.allowed != 0;
        let empty_slam = run != 0 && seeds & !run == 0 && !slam_captures;
        SowEvents {
            lap: n >= 12,
            pits_captured: if empty_slam {
                0
            } else {
                (run.count_ones() / 8) as u8
            },
            empty_slam,
        }
    }

    /// For a two-ply search, without playing the legal move `pit`: the seeds it captures and the
    /// most seeds a reply then captures; `None` when the move may end the game (a score past
    /// 24 or of 24 each, a position that may have come before, or no reply), where the caller
    /// plays it instead.
    #[inline]
    pub fn capture_and_best_reply(&self, g: &FastGame, pit: u8) -> Option<(u8, u8)> {
        let me = usize::from(g.to_move());
        let slam_forbidden = self.variant.grand_slam == GrandSlam::Forbidden;
        let (board, captured) = FastRules::simulate(
            g.board,
            me,
            usize::from(pit),
            slam_forbidden && g.allowed != 0,
        );
        let board = board ^ (1 << MOVER);
        let scores = [half(board, 0), half(board, 1)].map(|h| (h >> SCORE) as u8);
        let (word, bit) = bucket(board);
        let may_repeat = captured == 0 && g.seen[word] & bit != 0;
        if scores[0] >= 24 || scores[1] >= 24 || may_repeat {
            return None;
        }
        let (legal, allowed) = self.legal_and_allowed(board);
        let slam_captures = slam_forbidden && allowed != 0;
        let best = (0..6)
            .filter(|i| legal & (1 << i) != 0)
            .map(|i| FastRules::simulate(board, 1 - me, i, slam_captures).1)
            .max()?;
        Some((captured, best))
    }

    /// South's legal moves on `pits` with no scores and no history, for the endgame databases:
    /// `each` gets every pit (0–5) with the pits after it and the seeds it captured; false when
    /// no move is legal, the game over (O.4.2: then each side takes its own row).
    pub(crate) fn moves_from(
        &self,
        pits: [u8; 12],
        mut each: impl FnMut(u8, [u8; 12], u8),
    ) -> bool {
        let board = board_of(pits, [0, 0], 0);
        let (legal, allowed) = self.legal_and_allowed(board);
        let slam_captures = self.variant.grand_slam == GrandSlam::Forbidden && allowed != 0;
        for pit in 0..6 {
            if legal & (1 << pit) != 0 {
                let (after, captured) = FastRules::simulate(board, 0, pit, slam_captures);
                let b = after.to_le_bytes();
                let mut next = [0; 12];
                next[..6].copy_from_slice(&b[..6]);
                next[6..].copy_from_slice(&b[8..14]);
                each(pit as u8, next, captured);
            }
        }
        legal != 0
    }

    /// Plays pit `pit` (0–5 from the mover's left) in place; the move must be legal.
    #[inline(always)]
    pub fn play(&self, g: &mut FastGame, pit: u8) {
        let me = usize::from(g.to_move());
        // Grand slams capture under the sheet unless played because nothing else is allowed.
        let slam_captures = self.variant.grand_slam == GrandSlam::Forbidden && g.allowed != 0;
        let (board, captured) = FastRules::simulate(g.board, me, usize::from(pit), slam_captures);
        g.board = board ^ (1 << MOVER);
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
    #[inline(always)]
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
            (g.legal, g.allowed) = self.legal_and_allowed(g.board);
            (g.legal == 0).then_some(("O.4.2", true))
        };
        if let Some((clause, sweep)) = end {
            self.end(g, clause, sweep);
        }
    }

    /// Ends the game at `clause`: each side takes the seeds of its row if `sweep`, then the
    /// higher score wins.
    #[cold]
    fn end(&self, g: &mut FastGame, clause: &'static str, sweep: bool) {
        (g.legal, g.allowed) = (0, 0);
        if sweep {
            g.swept = [0, 1].map(|side| row_sum(row(g.board, side)));
            let takes = g.swept.map(u128::from);
            g.board = (g.board & !PIT_BYTES) + (takes[0] << SCORE) + (takes[1] << (64 + SCORE));
        }
        let scores = g.scores();
        g.result = Some(match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        });
        g.end_clause = clause;
    }
}

/// The board of pits A..F a..f, scores and mover.
fn board_of(pits: [u8; 12], scores: [u8; 2], to_move: u8) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..6].copy_from_slice(&pits[..6]);
    bytes[8..14].copy_from_slice(&pits[6..]);
    (bytes[6], bytes[14]) = (scores[0], scores[1]);
    bytes[7] = to_move;
    u128::from_le_bytes(bytes)
}

/// Most seeds a pit can hold.
const MAX_PIT: usize = 48;

/// Bit of the board where pit `p` (0–11) starts.
const fn pit_bit(p: usize) -> usize {
    8 * p + if p < 6 { 0 } else { 16 }
}

/// `SOW[from][n]`: what emptying pit `from` of its `n` seeds and sowing them counter-clockwise,
/// skipping `from`, adds to the board (wrapping); `LAST[from][n]` is the pit the last seed falls in.
static SOW: [[u128; MAX_PIT + 1]; 12] = sow_tables().0;
static LAST: [[u8; MAX_PIT + 1]; 12] = sow_tables().1;

const fn sow_tables() -> ([[u128; MAX_PIT + 1]; 12], [[u8; MAX_PIT + 1]; 12]) {
    let mut add = [[0u128; MAX_PIT + 1]; 12];
    let mut last = [[0u8; MAX_PIT + 1]; 12];
    let mut from = 0;
    while from < 12 {
        let mut n = 0;
        while n <= MAX_PIT {
            let mut delta = 0u128;
            let (mut at, mut left) = (from, n);
            while left > 0 {
                at = (at + 1) % 12;
                if at != from {
                    delta += 1 << pit_bit(at);
                    left -= 1;
                }
            }
            add[from][n] = delta.wrapping_sub((n as u128) << pit_bit(from));
            last[from][n] = at as u8;
            n += 1;
        }
        from += 1;
    }
    (add, last)
}

/// `BYTES[m]`: the byte mask (0xff per pit) of the six-bit pit mask `m`.
static BYTES: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut m = 0;
    while m < 64 {
        let mut i = 0;
        while i < 6 {
            if m & (1 << i) != 0 {
                table[m] |= 0xff << (8 * i);
            }
            i += 1;
        }
        m += 1;
    }
    table
};

/// `SELECT[mask][k]`: the k-th set bit of the six-bit `mask`, counted from bit 0.
pub(crate) static SELECT: [[u8; 6]; 64] = {
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
