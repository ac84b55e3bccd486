//! Bao la Kiswahili: board, positions, notation, the rule readings and the reference engine.
//! Clause ids in comments (`spec: bao X`) point into `spec/bao.md`.

pub mod abstractplay;
pub mod audit;
pub mod bench;
pub mod board;
pub mod checks;
pub mod cutoffs;
#[cfg(feature = "diagram")]
pub mod diagram;
pub mod engines;
pub mod fast;
pub mod inconsistencies;
pub mod mancala;
pub mod mutate;
pub mod notation;
pub mod position;
pub mod position_text;
pub mod rules;
pub mod trace;
pub mod transcript;
pub mod variant;

pub use board::{Direction, Hand, Pit, Row, Side};
pub use mancala::Bao;
pub use notation::{Move, MoveKind, MoveText};
pub use position::{Position, PositionError, Setup, Stage};
pub use rules::{IllegalMove, Outcome, Played, Rules};
pub use variant::Variant;
