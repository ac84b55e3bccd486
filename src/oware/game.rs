//! An Oware game in progress: the position, the positions seen since the last capture (for the
//! endless-cycle rule), and the result once the game is over.

use super::position::Position;
use super::rules::Outcome;

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
