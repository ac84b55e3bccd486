//! Fuzz target: the two Kalah engines in lock step, every preset, a board from the first byte.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::kalah::checks::kalah_reference_vs_optimized;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = kalah_reference_vs_optimized(data) {
        panic!("{e}");
    }
});
