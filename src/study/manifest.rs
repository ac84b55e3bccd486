//! A study's manifest: the job it runs, how far it got, and the checksums of the rows it counts,
//! sealed so that an edited manifest is refused.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::folder::{manifest_text, write_own};
use super::{Job, StudyError};

/// Written beside the results: how they were made, how far the run got, and a checksum of the
/// rows it counts, so that rows lost, doubled or changed on disk are found before they are used.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Manifest {
    pub command: Vec<String>,
    pub version: String,
    pub commit: String,
    #[serde(flatten)]
    pub job: Job,
    pub first_game: u64,
    pub end_game: u64,
    pub threads: usize,
    /// Rows of games.csv that are complete and counted (games first_game..first_game+games_done).
    pub games_done: u64,
    /// Bytes of those rows (after the header line).
    pub rows_bytes: u64,
    /// CRC-32 of those rows.
    pub rows_crc32: u32,
    /// Clause events of the counted games that every engine of the game reports (each such
    /// clause listed, 0 included).
    pub clause_events: BTreeMap<String, u64>,
    /// CRC-32 of every other field (the manifest's compact JSON without this one), so that a
    /// manifest edited by hand is found before its job is resumed or merged; one without it is
    /// refused too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest_crc32: Option<u32>,
}

impl Manifest {
    /// The CRC-32 of every field but `manifest_crc32`.
    fn fields_crc32(&self) -> u32 {
        let bare = Manifest {
            manifest_crc32: None,
            ..self.clone()
        };
        crc32fast::hash(serde_json::to_string(&bare).unwrap_or_default().as_bytes())
    }
}

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";
/// The rows' file name.
pub const GAMES: &str = "games.csv";
/// The lock's file name.
pub use crate::disk::LOCK;

/// Writes the manifest of `dir`.
pub fn save_manifest(dir: &Path, m: &Manifest) -> Result<(), StudyError> {
    let sealed = Manifest {
        manifest_crc32: Some(m.fields_crc32()),
        ..m.clone()
    };
    let json = serde_json::to_string_pretty(&sealed)?;
    write_own(&dir.join(MANIFEST), &(json + "\n"))
}

/// Reads the manifest of `dir`.
pub fn read_manifest(dir: &Path) -> Result<Manifest, StudyError> {
    let path = dir.join(MANIFEST);
    let text = manifest_text(&path)?;
    let bad = |source| StudyError::BadManifest {
        path: path.clone(),
        source,
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(bad)?;
    let m: Manifest = serde_json::from_value(value.clone()).map_err(bad)?;
    // A field the job does not write is an edit the checksum cannot see.
    let known = serde_json::to_value(&m).map_err(bad)?;
    let unknown = value
        .as_object()
        .and_then(|v| v.keys().find(|k| known.get(k.as_str()).is_none()).cloned());
    match m.manifest_crc32 {
        Some(crc) if crc == m.fields_crc32() && unknown.is_none() => {}
        _ => return Err(StudyError::ManifestEdited(path)),
    }
    let what = if m.first_game > m.end_game || m.end_game > m.job.games {
        format!(
            "games {}..{} of a job of {} games",
            m.first_game, m.end_game, m.job.games
        )
    } else if m.games_done > m.end_game - m.first_game {
        format!(
            "counts {} games done in games {}..{}",
            m.games_done, m.first_game, m.end_game
        )
    } else {
        // The rows hold the policy's canonical text: another text of the same policy would
        // give a resumed or merged study rows of two spellings.
        match m.job.policy.parse::<crate::policy::Players>() {
            Ok(p) if p.to_string() == m.job.policy => return Ok(m),
            Ok(p) => format!(
                "policy {} is written {} by a job",
                crate::text::quoted(&m.job.policy),
                crate::text::quoted(&p.to_string())
            ),
            Err(e) => e.to_string(),
        }
    };
    Err(StudyError::ManifestImpossible { path, what })
}

/// Reads the manifest of `dir` without checking its checksum: for the checks that try the row
/// checks behind it on manifests of their own making.
pub fn read_manifest_unsealed(dir: &Path) -> Result<Manifest, StudyError> {
    let path = dir.join(MANIFEST);
    let text = manifest_text(&path)?;
    serde_json::from_str(&text).map_err(|source| StudyError::BadManifest { path, source })
}
