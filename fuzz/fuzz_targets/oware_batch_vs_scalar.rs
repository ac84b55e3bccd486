//! Fuzz target: the Oware batch engine against the scalar optimized engine, game by game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::oware::checks::oware_batch_vs_scalar;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = oware_batch_vs_scalar(data) {
        panic!("{e}");
    }
});
