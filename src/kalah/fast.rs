//! The optimized Kalah engine: the board as one ring of 2m+2 bytes, a sowing of any size done in
//! one pass (whole laps at once), written apart from the reference engine to be checked against it.

use super::notation::Move;
use super::position::Position;
use super::rules::Outcome;
use super::variant::{EndTest, Sweep, Variant, MAX_PITS};
use super::Side;

/// Places on the largest ring: 2 × 6 pits and 2 stores.
const RING: usize = 2 * MAX_PITS as usize + 2;

/// A game state of the optimized engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FastState {
    /// South's pits 0..m, South's store m, North's pits m+1..=2m, North's store 2m+1.
    pub(crate) ring: [u8; RING],
    pub(crate) to_move: Side,
    pub(crate) plies: u32,
    pub(crate) outcome: Option<Outcome>,
}

impl FastState {
    /// The player to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Plies played since the game began.
    pub fn plies(&self) -> u32 {
        self.plies
    }
}

/// What a ply of the optimized engine did, beyond the new state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastPly {
    /// The last seed fell in the mover's store: the mover moves again.
    pub extra_turn: bool,
    /// Seeds put in the mover's store by a capture (the capturing seed included).
    pub captured: u8,
    /// The last seed fell in an empty pit of the mover's row facing an empty pit.
    pub opposite_empty: bool,
}

/// The optimized engine for one reading.
#[derive(Clone, Copy, Debug)]
pub struct FastRules {
    variant: Variant,
    /// Pits a row.
    m: usize,
}

impl FastRules {
    /// The engine for `variant`.
    pub fn new(variant: Variant) -> FastRules {
        FastRules {
            variant,
            m: usize::from(variant.pits),
        }
    }

    /// The reading.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The first ring index of `side`'s row.
    fn base(&self, side: Side) -> usize {
        side.index() * (self.m + 1)
    }

    /// Seeds in `side`'s row.
    fn row(&self, ring: &[u8; RING], side: Side) -> u32 {
        let b = self.base(side);
        ring[b..b + self.m].iter().map(|&s| u32::from(s)).sum()
    }

    /// A new game from the start position.
    pub fn new_game(&self) -> FastState {
        self.from_position(&Position::start(&self.variant))
    }

    /// The state of `position`, no ply played.
    pub fn from_position(&self, position: &Position) -> FastState {
        let mut ring = [0; RING];
        for side in Side::BOTH {
            let b = self.base(side);
            ring[b..b + self.m].copy_from_slice(position.row(side));
            ring[b + self.m] = position.store(side);
        }
        let mut state = FastState {
            ring,
            to_move: position.to_move(),
            plies: 0,
            outcome: None,
        };
        state.outcome = self.outcome(&state);
        state
    }

    /// The state of the pits `board` (South's `m` first, then North's), South to move, empty
    /// stores, no ply played: the databases' boards, without a `Position` in between.
    pub(crate) fn state_of_pits(&self, board: &[u8; 12]) -> FastState {
        let mut ring = [0; RING];
        let m = self.m;
        if m == 6 {
            // Fixed lengths: copies the compiler does inline.
            ring[..6].copy_from_slice(&board[..6]);
            ring[7..13].copy_from_slice(&board[6..12]);
        } else {
            ring[..m].copy_from_slice(&board[..m]);
            ring[m + 1..2 * m + 1].copy_from_slice(&board[m..2 * m]);
        }
        let mut state = FastState {
            ring,
            to_move: Side::South,
            plies: 0,
            outcome: None,
        };
        state.outcome = self.outcome(&state);
        state
    }

    /// The position of `state`.
    pub fn position(&self, state: &FastState) -> Position {
        let b = self.base(Side::North);
        let stores = [state.ring[self.m], state.ring[b + self.m]];
        Position::new(
            &state.ring[..self.m],
            &state.ring[b..b + self.m],
            stores,
            state.to_move,
            &self.variant,
        )
        .expect("the ring holds the reading's seeds")
    }

    /// `side`'s pits (from its left) and its store in `state`.
    pub fn row_and_store<'a>(&self, state: &'a FastState, side: Side) -> (&'a [u8], u8) {
        let b = self.base(side);
        (&state.ring[b..b + self.m], state.ring[b + self.m])
    }

    /// Seeds in the mover's pit `pit` (counted from the mover's left).
    pub fn mover_pit(&self, state: &FastState, pit: u8) -> u8 {
        state.ring[self.base(state.to_move) + usize::from(pit)]
    }

    /// The legal moves, from the mover's left, into `out` (cleared first).
    pub fn legal_moves(&self, state: &FastState, out: &mut Vec<Move>) {
        out.clear();
        if state.outcome.is_some() {
            return;
        }
        let b = self.base(state.to_move);
        for pit in 0..self.m {
            if state.ring[b + pit] > 0 {
                out.push(Move { pit: pit as u8 });
            }
        }
    }

    /// Plays the legal move `mv` in place; returns what the ply did.
    pub fn play(&self, state: &mut FastState, mv: Move) -> FastPly {
        let m = self.m;
        let len = 2 * m + 2;
        let me = state.to_move;
        let base = self.base(me);
        let own_store = base + m;
        let skipped = (own_store + m + 1) % len;
        let from = base + usize::from(mv.pit);
        let ring = &mut state.ring;
        let seeds = usize::from(std::mem::take(&mut ring[from]));
        debug_assert!(seeds > 0, "a legal move sows seeds");
        // Whole laps first: every place but the opponent's store gets one seed a lap.
        let laps = seeds / (len - 1);
        if laps > 0 {
            for (place, count) in ring[..len].iter_mut().enumerate() {
                if place != skipped {
                    *count += laps as u8;
                }
            }
        }
        // A whole lap ends in the pit it started from.
        let mut last = from;
        for _ in 0..seeds % (len - 1) {
            last += 1;
            if last == len {
                last = 0;
            }
            if last == skipped {
                last = if last + 1 == len { 0 } else { last + 1 };
            }
            ring[last] += 1;
        }
        let extra = last == own_store;
        let mut ply = FastPly {
            extra_turn: extra,
            captured: 0,
            opposite_empty: false,
        };
        if !extra && (base..own_store).contains(&last) && ring[last] == 1 {
            let opposite = 2 * m - last;
            let taken = ring[opposite];
            ply.opposite_empty = taken == 0;
            if taken > 0 || self.variant.empty_capture {
                ply.captured = taken + 1;
                ring[own_store] += taken + 1;
                ring[opposite] = 0;
                ring[last] = 0;
            }
        }
        if !extra {
            state.to_move = me.opponent();
        }
        state.plies += 1;
        state.outcome = self.outcome(state);
        ply
    }

    /// The outcome if `state` ends the game.
    fn outcome(&self, state: &FastState) -> Option<Outcome> {
        let rows = [
            self.row(&state.ring, Side::South),
            self.row(&state.ring, Side::North),
        ];
        let ended = match self.variant.end {
            EndTest::EitherRowEmpty => rows.contains(&0),
            EndTest::MoverStarved => rows[state.to_move.index()] == 0,
        };
        let clause = if ended {
            "K.4.1"
        } else if self.variant.ply_cap.is_some_and(|cap| state.plies >= cap) {
            "K.4.4"
        } else {
            return None;
        };
        let stores = [
            u32::from(state.ring[self.m]),
            u32::from(state.ring[2 * self.m + 1]),
        ];
        let scores = match self.variant.sweep {
            Sweep::ToOwner => [stores[0] + rows[0], stores[1] + rows[1]],
            Sweep::ToEmptier if rows[0] == 0 => [stores[0] + rows[1], stores[1]],
            Sweep::ToEmptier if rows[1] == 0 => [stores[0], stores[1] + rows[0]],
            Sweep::ToEmptier | Sweep::None => stores,
        };
        let winner = if scores[0] > scores[1] {
            Some(Side::South)
        } else if scores[1] > scores[0] {
            Some(Side::North)
        } else {
            None
        };
        Some(Outcome {
            winner,
            scores: [scores[0] as u8, scores[1] as u8],
            clause,
        })
    }
}
