//! Fuzz target: the two Bao engines in lock step on the game the bytes choose.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::bao::checks::bao_reference_vs_optimized;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = bao_reference_vs_optimized(data) {
        panic!("{e}");
    }
});
