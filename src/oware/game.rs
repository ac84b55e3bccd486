//! An Oware game in progress: the position, the positions seen since the last capture (for the
//! endless-cycle rule), and the result once the game is over.

use super::position::Position;
use super::Side;

/// How a game ended: the winner (none for a draw), the final scores and the clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw (or when the rules do not decide).
    pub winner: Option<Side>,
    /// Final scores, South then North.
    pub scores: [u8; 2],
    /// The clause that ended the game.
    pub clause: &'static str,
    /// Whether the rules decided this end, or the game stopped where they are silent.
    pub verdict: Verdict,
}

/// Whether an end is decided by the rules or stops where they say nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The clause (under the variant's reading) decides the end and its winner.
    Decided,
    /// The clause is silent here and the variant leaves it open: no winner, the seeds stay put.
    RulesSilent,
}

/// A game state: what the rules need beyond the position itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) position: Position,
    /// Positions since the last capture, the current one included (spec: oware O.6.2).
    pub(crate) since_capture: Vec<Position>,
    pub(crate) outcome: Option<Outcome>,
}

impl Game {
    /// A game starting from `position`, with no history.
    pub fn from_position(position: Position) -> Game {
        Game {
            since_capture: vec![position.clone()],
            position,
            outcome: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}
