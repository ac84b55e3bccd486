//! Fuzz target: the two Oware engines in lock step, both readings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::oware::checks::oware_reference_vs_optimized;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = oware_reference_vs_optimized(data) {
        panic!("{e}");
    }
});
