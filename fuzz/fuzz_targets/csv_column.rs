//! Fuzz target: a games.csv column read for `plot`: values or a clear error, and drawable bins.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::checks::csv_column;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = csv_column(data) {
        panic!("{e}");
    }
});
