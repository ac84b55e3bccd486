//! Headless Chromium for the tests that check a page or picture in a real browser.

use std::path::PathBuf;

/// Chromium, if this machine has it; `MANCALA_LAB_REQUIRE_BROWSER` makes its absence a failure.
pub fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("MANCALA_LAB_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from("/usr/bin/chromium")))
        .filter(|p| p.exists());
    if found.is_none() {
        assert!(
            std::env::var_os("MANCALA_LAB_REQUIRE_BROWSER").is_none(),
            "no Chromium at /usr/bin/chromium or $MANCALA_LAB_CHROMIUM"
        );
        eprintln!("skipped: no Chromium (apt-get install chromium)");
    }
    found
}
