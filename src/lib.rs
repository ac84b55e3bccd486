//! mancala-lab: the rules of Bao la Kiswahili and Oware as executable, traceable code,
//! with clause coverage of the written specification under `spec/`.

pub mod bao;
pub mod checks;
pub mod coverage;
pub mod diff;
pub mod engine;
pub mod game;
pub mod histogram;
pub mod inconsistencies;
pub mod oware;
pub mod playout;
pub mod policy;
pub mod side;
pub mod stats;
pub mod study;
pub mod text;
pub mod walk;
