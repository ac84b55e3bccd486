//! Fuzz target: an arbitrary valid Bao position: text round trip, engines agree, invariants hold.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::bao::checks::bao_position_invariants;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = bao_position_invariants(data) {
        panic!("{e}");
    }
});
