//! Command handlers of the `mancala-lab` binary, one module per game, and shared input helpers.

pub mod bench;
pub mod diff;
pub mod inconsistencies;
pub mod oware;
pub mod perft;
pub mod plot;
pub mod stats;

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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

/// A flag that Ctrl-C sets; a second Ctrl-C stops the process at once.
pub fn interrupt_on_ctrl_c() -> Arc<AtomicBool> {
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = interrupt.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    interrupt
}
