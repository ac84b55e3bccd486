//! Fuzz target: a study folder's manifest and games.csv read back as `--resume` and `merge` do.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala_lab::checks::study_files;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = study_files(data) {
        panic!("{e}");
    }
});
