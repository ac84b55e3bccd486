//! Kalah: its readings (the board among them), positions, move letters and the reference engine.
//! Clause ids in comments (`spec: kalah K.x`) point into `spec/kalah.md`.

pub mod audit;
pub mod batch;
pub mod bench;
pub mod checks;
#[cfg(feature = "diagram")]
pub mod diagram;
pub mod engines;
pub mod envs;
pub mod fast;
pub mod inconsistencies;
pub mod mancala;
pub mod mutate;
pub mod notation;
pub mod playout;
pub mod position;
pub mod retro;
pub mod rules;
pub mod transcript;
pub mod variant;

pub use mancala::Kalah;
pub use notation::Move;
pub use position::{Position, PositionError};
pub use rules::{IllegalMove, Outcome, Played, Rules, State, Step};
pub use variant::{EndTest, Sweep, Variant, VariantError};

pub use crate::side::Side;
