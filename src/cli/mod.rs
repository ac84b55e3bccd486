//! Command handlers of the `mancala-lab` binary, one module per game, and shared input helpers.

pub mod bench;
pub mod diff;
pub mod inconsistencies;
pub mod oware;
pub mod perft;
pub mod plot;
pub mod stats;

use std::io::Read;

/// Reads a file, or standard input for `-`; the error names the path.
pub fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("standard input: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
    }
}
