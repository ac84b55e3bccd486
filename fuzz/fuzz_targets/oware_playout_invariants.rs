//! Fuzz target: a byte stream drives an Oware game under both readings; 48 seeds, legal moves empty iff over.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::oware::checks::oware_playout_invariants;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = oware_playout_invariants(data) {
        panic!("{e}");
    }
});
