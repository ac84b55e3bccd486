//! Fuzz target: any text is a position or an error; a parsed position round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::checks::position_parse;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = position_parse(&text) {
        panic!("{e}");
    }
});
