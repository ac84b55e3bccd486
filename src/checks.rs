//! Properties checked on arbitrary input, shared by the fuzz targets (`fuzz/`) and `cargo test`:
//! each returns `Err` with a description when a property fails; none may panic or hang.
//! That `Err(String)` is a failure report for the fuzzer to show, not an error a caller handles.

#[cfg(feature = "fuzz")]
use arbitrary::{Arbitrary, Unstructured};

use crate::registry::GameKind;
use crate::registry::{with_game, GameVisitor, Mancala, TextKind};
#[cfg(feature = "fuzz")]
use crate::side::Side;

/// North or South, one arbitrary bool.
#[cfg(feature = "fuzz")]
pub(crate) fn arbitrary_side(u: &mut Unstructured<'_>) -> arbitrary::Result<Side> {
    Ok(if bool::arbitrary(u)? {
        Side::North
    } else {
        Side::South
    })
}

/// `text`, printed from `pos`, parses back to `pos`.
#[cfg(feature = "fuzz")]
pub(crate) fn text_round_trip<P: PartialEq, E: std::fmt::Display>(
    pos: &P,
    text: &str,
    parse: impl Fn(&str) -> Result<P, E>,
) -> Result<(), String> {
    let back = parse(text).map_err(|e| format!("printed position does not parse: {e}\n{text}"))?;
    if back != *pos {
        return Err(format!(
            "position text round trip changed the position:\n{text}"
        ));
    }
    Ok(())
}

/// Any text gives each game's move notation, transcript or position (as `what` says) or an error,
/// never a panic; what parses prints and parses back to itself.
fn every_game(what: TextKind, text: &str) -> Result<(), String> {
    struct Check<'a>(TextKind, &'a str);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<M: Mancala>(self) -> Self::Output {
            M::check_text(self.0, self.1)
        }
    }
    GameKind::ALL
        .into_iter()
        .try_for_each(|game| with_game(game, Check(what, text)))
}

/// Any text gives a move or an error in every game's notation; a parsed move prints and parses
/// back to itself.
pub fn notation_roundtrip(text: &str) -> Result<(), String> {
    every_game(TextKind::Move, text)
}

/// Any text gives a transcript or an error in every game; a parsed transcript's moves print and
/// parse back.
pub fn transcript_parse(text: &str) -> Result<(), String> {
    every_game(TextKind::Transcript, text)
}

/// Any text gives a position or an error in every game; a parsed position prints and parses back
/// to itself.
pub fn position_parse(text: &str) -> Result<(), String> {
    every_game(TextKind::Position, text)
}

#[cfg(feature = "tools")]
/// A study folder read back (`stats --resume`, `stats merge`): the bytes before the first 0 byte
/// are manifest.json, the rest games.csv. Reading them must give an answer, never a panic; a
/// folder that verifies must hold exactly the rows its manifest counts.
pub fn study_files(data: &[u8]) -> Result<(), String> {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (manifest, games) = (&data[..split], data.get(split + 1..).unwrap_or(&[]));
    let dir = std::env::temp_dir().join(format!(
        "mancala-lab-study-check-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let checked = study_folder(&dir, manifest, games);
    let _ = std::fs::remove_dir_all(&dir);
    checked
}

#[cfg(feature = "tools")]
/// [`study_files`] on the folder `dir`, made to hold `manifest` and `games`.
fn study_folder(dir: &std::path::Path, manifest: &[u8], games: &[u8]) -> Result<(), String> {
    use crate::study::{read_manifest_unsealed as read_manifest, verify_rows, GAMES, MANIFEST};
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(MANIFEST), manifest).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(GAMES), games).map_err(|e| e.to_string())?;
    let Ok(m) = read_manifest(dir) else {
        return Ok(());
    };
    let mut rows = 0u64;
    if let Ok(v) = verify_rows(dir, &m, |_| {
        rows += 1;
        Ok(())
    }) {
        if rows != m.games_done || v.summary.games != m.games_done {
            return Err(format!(
                "verified {rows} rows (summary {}) but the manifest counts {}",
                v.summary.games, m.games_done
            ));
        }
    }
    Ok(())
}

/// A CSV column read for `plot`: any bytes give values or an error, never a panic, and the
/// default bin width always keeps the chart drawable (at most 200 bins).
pub fn csv_column(data: &[u8]) -> Result<(), String> {
    use crate::histogram::{bins, each_value};
    let mut max = 0u32;
    if let Ok(n) = each_value(data, "input", "plies", |v| max = max.max(v)) {
        if n > 0 {
            let (bin, count) = bins(max, None, "plies").map_err(|e| e.to_string())?;
            if count > 200 || bin == 0 {
                return Err(format!("values up to {max}: width {bin}, {count} bins"));
            }
        }
    }
    Ok(())
}

/// The reference and optimized engines of `M` under `variant` agree on the game `bytes` choose
/// from `start` (position text; `None`: the game's start), for up to `max_plies` plies.
pub fn engines_agree<M: crate::registry::Mancala>(
    variant: M::Variant,
    start: Option<&str>,
    bytes: &[u8],
    max_plies: usize,
) -> Result<(), String> {
    use crate::game::Game;
    let reference = M::reference(variant);
    let optimized = M::optimized(variant).map_err(|e| e.to_string())?;
    let engines = crate::diff::Engines::<M> {
        reference: &reference,
        optimized: &optimized,
        label: "fuzz",
    };
    let states = match start {
        None => (reference.start(), optimized.start()),
        Some(text) => engines.states_at(text)?,
    };
    crate::diff::lockstep(&engines, states, bytes, max_plies)
        .map(drop)
        .map_err(|d| d.to_string())
}
