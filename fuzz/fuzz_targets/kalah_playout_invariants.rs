//! Fuzz target: a byte stream picks a board Kalah(m,n) and drives a game under every preset; seeds kept, turns, moves iff not over.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::kalah::checks::kalah_playout_invariants;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = kalah_playout_invariants(data) {
        panic!("{e}");
    }
});
