//! Oware (abapa family): positions, notation, rule readings and the reference engine.
//! Clause ids in comments (`spec: oware O.x`) point into `spec/oware.md`.

pub mod audit;
pub mod batch;
pub mod bench;
pub mod checks;
#[cfg(feature = "diagram")]
pub mod diagram;
pub mod engines;
pub mod fast;
pub mod game;
pub mod inconsistencies;
pub mod mancala;
pub mod mutate;
pub mod notation;
pub mod position;
pub mod retro;
pub mod rules;
pub mod variant;

pub use game::{Game, Outcome};
pub use mancala::Oware;
pub use notation::Move;
pub use position::{Position, PositionError};
pub use rules::{IllegalMove, Played, Rules};
pub use variant::Variant;

pub use crate::side::Side;
