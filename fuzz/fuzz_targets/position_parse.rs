//! Any text gives a position or a clear error, and a parsed position prints and parses back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::bao::position_text;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(pos) = position_text::parse(text) {
            let printed = position_text::print(&pos);
            assert_eq!(position_text::parse(&printed).as_ref(), Ok(&pos));
        }
    }
});
