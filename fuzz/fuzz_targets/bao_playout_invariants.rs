//! Fuzz target: a byte stream drives a Bao game; seeds conserved, positions valid, legal moves play, the game ends.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::bao::checks::bao_playout_invariants;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = bao_playout_invariants(data) {
        panic!("{e}");
    }
});
