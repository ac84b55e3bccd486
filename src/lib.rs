//! mancala-lab: the rules of Bao la Kiswahili, Oware and Kalah as executable, traceable code
//! (a reference and an optimized engine per game behind one typed interface, [`game::Game`]),
//! checked against each other and the written specification under `spec/`, and played at scale
//! by the `stats` job.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod audit;
pub mod bao;
pub mod batch;
pub mod bench;
pub mod bot;
pub mod checks;
#[cfg(feature = "tools")]
pub mod coverage;
#[cfg(feature = "diagram")]
pub mod diagram;
pub mod diff;
pub mod disk;
pub mod engine;
pub mod field;
pub mod game;
pub mod game_study;
pub mod games_csv;
pub mod histogram;
pub mod inconsistencies;
pub mod kalah;
#[cfg(feature = "tools")]
pub mod mutants;
pub mod openspiel_dump;
pub mod oware;
pub mod playout;
pub mod policy;
pub mod ratings;
pub mod reading;
pub mod registry;
#[cfg(feature = "tools")]
pub mod report;
pub mod retro;
#[cfg(feature = "tools")]
pub mod scan;
pub mod side;
pub mod solve;
pub mod spec;
pub mod stats;
#[cfg(feature = "study")]
pub mod study;
pub mod text;
pub mod textgame;
pub mod vector;
pub mod walk;
pub mod zobrist;
