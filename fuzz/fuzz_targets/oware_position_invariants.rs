//! Fuzz target: an arbitrary valid Oware position: text round trip, engines agree, invariants hold.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::oware::checks::oware_position_invariants;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = oware_position_invariants(data) {
        panic!("{e}");
    }
});
