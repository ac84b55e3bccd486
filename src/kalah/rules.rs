//! The Kalah reference engine: legal moves, a ply with its trace, and the end of the game,
//! written beside `spec/kalah.md` with each decision citing its clause.

use std::fmt;

use super::notation::Move;
use super::position::Position;
use super::variant::{EndTest, Sweep, Variant};
use super::Side;

/// How a game ended: the winner (none for a draw), the final scores and the clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Final scores after the sweep, South then North.
    pub scores: [u8; 2],
    /// The clause that ended the game (K.4.1, or K.4.4 at the ply cap).
    pub clause: &'static str,
}

/// A game in progress: the position, the plies played since it began, and its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) position: Position,
    pub(crate) plies: u32,
    pub(crate) outcome: Option<Outcome>,
}

impl State {
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plies played since the game began (or since the position it was loaded from).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

/// Why a move is not legal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is over.
    #[error("the game is over (kalah {0})")]
    GameOver(&'static str),
    /// The pit is past the end of the row.
    #[error("pit {0} is not on a board of {1} pits a row")]
    NoSuchPit(u8, u8),
    /// The pit is empty.
    #[error("{0} is empty; a move takes all seeds of a non-empty own pit (kalah K.2.1)")]
    EmptyPit(char),
}

/// One step of a ply, for `explain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The clause applied.
    pub clause: &'static str,
    /// What happened, in words.
    pub text: String,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[kalah {}] {}", self.clause, self.text)
    }
}

/// A played ply: the new state and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The game after the ply.
    pub state: State,
    /// Seeds the ply's capture put in the mover's store (the capturing seed included).
    pub captured: u8,
    /// Whether the mover moves again (K.2.4).
    pub extra_turn: bool,
    /// The steps, with clauses.
    pub trace: Vec<Step>,
}

/// Where a seed can fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// A side's pit, counted from its owner's left.
    Pit(Side, u8),
    /// A side's store.
    Store(Side),
}

impl Place {
    fn name(self) -> String {
        match self {
            Place::Pit(side, pit) => Move { pit }.letter(side).to_string(),
            Place::Store(side) => format!("{side}'s store"),
        }
    }
}

/// The reference engine for one reading.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rules {
    /// The reading.
    pub variant: Variant,
}

impl Rules {
    /// The engine for `variant`.
    pub fn new(variant: Variant) -> Rules {
        Rules { variant }
    }

    /// A new game from the start position.
    pub fn new_game(&self) -> State {
        self.state_from(Position::start(&self.variant))
    }

    /// A game from `position`, no ply played; already over if the position ends the game.
    pub fn state_from(&self, position: Position) -> State {
        let mut state = State {
            position,
            plies: 0,
            outcome: None,
        };
        state.outcome = self.ending(&state);
        state
    }

    /// The legal moves, from the mover's left.
    pub fn legal_moves(&self, state: &State) -> Vec<Move> {
        if state.outcome.is_some() {
            return Vec::new();
        }
        let pos = &state.position;
        (0..pos.pits)
            // spec: kalah K.2.1 any non-empty pit of the mover's own row
            .filter(|&pit| pos.pit(pos.to_move, pit) > 0)
            .map(|pit| Move { pit })
            .collect()
    }

    /// The place after `place` in the sowing of `mover` (spec: kalah K.2.1, K.2.2).
    fn next(&self, place: Place, mover: Side) -> Place {
        // spec: kalah K.2.1 counter-clockwise: along a row, into its owner's store, on to the
        // other row
        let next = match place {
            Place::Pit(side, pit) if pit + 1 < self.variant.pits => Place::Pit(side, pit + 1),
            Place::Pit(side, _) => Place::Store(side),
            Place::Store(side) => Place::Pit(side.opponent(), 0),
        };
        if next == Place::Store(mover.opponent()) {
            // spec: kalah K.2.2 the opponent's store is skipped
            Place::Pit(mover, 0)
        } else {
            next
        }
    }

    /// Plays `mv` for the player to move.
    pub fn play(&self, state: &State, mv: Move) -> Result<Played, IllegalMove> {
        if let Some(outcome) = state.outcome {
            return Err(IllegalMove::GameOver(outcome.clause));
        }
        let mut pos = state.position;
        if mv.pit >= pos.pits {
            return Err(IllegalMove::NoSuchPit(mv.pit, pos.pits));
        }
        let me = pos.to_move;
        let them = me.opponent();
        let mut trace = Vec::new();
        // spec: kalah K.2.1 take every seed of one non-empty pit of one's own row
        let seeds = std::mem::take(&mut pos.rows[me.index()][usize::from(mv.pit)]);
        if seeds == 0 {
            return Err(IllegalMove::EmptyPit(mv.letter(me)));
        }
        let mut at = Place::Pit(me, mv.pit);
        for _ in 0..seeds {
            // spec: kalah K.2.1 one seed into each following place
            // spec: kalah K.2.3 the emptied pit included, on a lap of 2m+1 seeds or more
            at = self.next(at, me);
            match at {
                Place::Pit(side, pit) => pos.rows[side.index()][usize::from(pit)] += 1,
                Place::Store(side) => pos.stores[side.index()] += 1,
            }
        }
        trace.push(Step {
            clause: "K.2.1",
            text: format!(
                "sow {seeds} from {}, last seed in {}",
                mv.letter(me),
                at.name()
            ),
        });
        let mut captured = 0;
        let mut extra_turn = false;
        match at {
            // mutant: excused the opponent's store is skipped (K.2.2), so no last seed ends there
            Place::Store(side) if side == me => {
                // spec: kalah K.2.4 the last seed in one's own store: move again
                extra_turn = true;
                trace.push(Step {
                    clause: "K.2.4",
                    text: format!("{me} moves again"),
                });
            }
            // spec: kalah K.3.1 a pit of one's own row, empty before the last seed fell
            Place::Pit(side, pit) if side == me && pos.rows[me.index()][usize::from(pit)] == 1 => {
                let across = pos.pits - 1 - pit;
                let opposite = pos.rows[them.index()][usize::from(across)];
                if opposite > 0 {
                    // spec: kalah K.3.1 the last seed and the seeds opposite go to the store
                    captured = opposite + 1;
                    pos.rows[them.index()][usize::from(across)] = 0;
                    trace.push(Step {
                        clause: "K.3.1",
                        text: format!(
                            "capture {opposite} from {} and the seed in {}",
                            Place::Pit(them, across).name(),
                            at.name()
                        ),
                    });
                } else if self.variant.empty_capture {
                    // spec: kalah K.3.2 empty capture: the lone last seed goes to the store
                    captured = 1;
                    trace.push(Step {
                        clause: "K.3.2",
                        text: format!(
                            "{} opposite is empty: the seed in {} goes to the store",
                            Place::Pit(them, across).name(),
                            at.name()
                        ),
                    });
                } else {
                    // spec: kalah K.3.2 no empty capture: the last seed stays
                    trace.push(Step {
                        clause: "K.3.2",
                        text: format!(
                            "{} opposite is empty: nothing is captured",
                            Place::Pit(them, across).name()
                        ),
                    });
                }
                if captured > 0 {
                    pos.rows[me.index()][usize::from(pit)] = 0;
                    pos.stores[me.index()] += captured;
                }
            }
            // spec: kalah K.3.1 a last seed in the opponent's row, or in a pit that held seeds,
            // captures nothing
            _ => {}
        }
        if !extra_turn {
            // spec: kalah K.2.4 otherwise the turn passes
            pos.to_move = them;
        }
        let mut next = State {
            position: pos,
            plies: state.plies + 1,
            outcome: None,
        };
        next.outcome = self.ending(&next);
        if let Some(outcome) = next.outcome {
            trace.push(Step {
                clause: outcome.clause,
                text: format!(
                    "the game ends: South {}, North {}",
                    outcome.scores[0], outcome.scores[1]
                ),
            });
        }
        Ok(Played {
            state: next,
            captured,
            extra_turn,
            trace,
        })
    }

    /// The outcome if `state` ends the game (spec: kalah K.4).
    fn ending(&self, state: &State) -> Option<Outcome> {
        let pos = &state.position;
        let empty = |side: Side| pos.row_seeds(side) == 0;
        let clause = match self.variant.end {
            // spec: kalah K.4.1 either-row-empty: after every ply, a row with no seeds ends it
            EndTest::EitherRowEmpty if empty(Side::South) || empty(Side::North) => Some("K.4.1"),
            // spec: kalah K.4.1 mover-starved: the player to move has no seeds
            EndTest::MoverStarved if empty(pos.to_move) => Some("K.4.1"),
            _ => None,
        }
        .or_else(|| {
            // spec: kalah K.4.4 the ply cap ends a game still going
            let cap = self.variant.ply_cap?;
            (state.plies >= cap).then_some("K.4.4")
        })?;
        let mut scores = pos.stores;
        let row = |side: Side| pos.row_seeds(side) as u8;
        match self.variant.sweep {
            Sweep::ToOwner => {
                // spec: kalah K.4.2 to-owner: the seeds left in a row count for its owner
                for side in Side::BOTH {
                    scores[side.index()] += row(side);
                }
            }
            Sweep::ToEmptier => {
                // spec: kalah K.4.2 to-emptier: they count for the player whose row is empty
                // (for no one when no row is, at the ply cap)
                if let Some(emptier) = Side::BOTH.into_iter().find(|&s| empty(s)) {
                    scores[emptier.index()] += row(emptier.opponent());
                }
            }
            // spec: kalah K.4.2 none: they count for no one
            Sweep::None => {}
        }
        // spec: kalah K.4.3 the larger score wins; equal scores are a draw
        let winner = match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        };
        Some(Outcome {
            winner,
            scores,
            clause,
        })
    }
}
