//! Fuzz target: any text is a move or an error; print(parse(x)) parses back to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::checks::notation_roundtrip;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = notation_roundtrip(&text) {
        panic!("{e}");
    }
});
