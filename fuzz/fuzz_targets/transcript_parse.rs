//! Fuzz target: any text is a transcript or an error, never a panic; moves round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::checks::transcript_parse;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = transcript_parse(&text) {
        panic!("{e}");
    }
});
