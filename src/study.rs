//! A study's folder on disk: the manifest and what it records, the lock, and the checks of the
//! rows of games.csv against the manifest that resuming and merging rely on.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::GameKind;
use crate::playout::{columns, header};
use crate::stats::Summary;

/// What defines a job: a resumed run and the shards of a merge must agree on all of it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub game: String,
    pub variant: String,
    pub engine: String,
    pub policy: String,
    pub seed: u64,
    pub games: u64,
    pub max_plies: u32,
    /// `K/N`, or none for the whole job.
    pub shard: Option<String>,
}

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
}

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";
/// The rows' file name.
pub const GAMES: &str = "games.csv";
/// The lock's file name.
pub const LOCK: &str = ".lock";

/// Games `first..end` of shard `K/N` of `games` games (checked: no overflow).
pub fn shard_range(games: u64, shard: Option<&str>) -> Result<(u64, u64), String> {
    let Some(s) = shard else {
        return Ok((0, games));
    };
    let parsed = s
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
        .filter(|&(k, n)| n > 0 && (1..=n).contains(&k));
    let (k, n) = parsed.ok_or_else(|| format!("--shard '{s}': expected K/N with 1 <= K <= N"))?;
    let at = |k: u64| (u128::from(k) * u128::from(games) / u128::from(n)) as u64;
    Ok((at(k - 1), at(k)))
}

/// Holds `DIR/.lock` while a job writes DIR; a second job on the same folder is refused.
pub struct DirLock(PathBuf);

impl DirLock {
    /// Takes the lock of `dir`, or says who holds it.
    pub fn take(dir: &Path) -> Result<DirLock, String> {
        let path = dir.join(LOCK);
        for _ in 0..2 {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    let _ = writeln!(f, "{}", std::process::id());
                    return Ok(DirLock(path));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let pid = fs::read_to_string(&path).unwrap_or_default();
                    let pid = pid.trim();
                    // A lock left by a process that no longer runs (killed hard) is stale.
                    let stale = Path::new("/proc/self").exists()
                        && !pid.is_empty()
                        && !Path::new("/proc").join(pid).exists();
                    if stale {
                        let _ = fs::remove_file(&path);
                        continue;
                    }
                    return Err(format!(
                        "{} is in use by another stats job (lock {}, process {pid}); wait for it \
                         or choose another --out",
                        dir.display(),
                        path.display()
                    ));
                }
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        Err(format!("{}: could not take the lock", path.display()))
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

/// Creates the output folder `dir` (and its parents); a file in its place is named as such.
pub fn make_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "--out {}: a file, not a folder; choose a folder for the results",
            dir.display()
        ));
    }
    fs::create_dir_all(dir).map_err(|e| format!("--out {}: {e}", dir.display()))
}

/// Writes `text` to a sibling file and renames it over `path`.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes the manifest of `dir`.
pub fn save_manifest(dir: &Path, m: &Manifest) -> Result<(), String> {
    let json = serde_json::to_string_pretty(m).map_err(|e| e.to_string())?;
    write_atomic(&dir.join(MANIFEST), &(json + "\n"))
}

/// Reads the manifest of `dir`.
pub fn read_manifest(dir: &Path) -> Result<Manifest, String> {
    let path = dir.join(MANIFEST);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Refuses to overwrite a run in `dir` unless `force`; with `force`, removes its files.
pub fn clear_for_new_run(dir: &Path, force: bool, resume_hint: bool) -> Result<(), String> {
    let files = [MANIFEST, GAMES, "clauses.csv", "summary.csv"];
    let present: Vec<&str> = files
        .iter()
        .copied()
        .filter(|f| dir.join(f).exists())
        .collect();
    if present.is_empty() {
        return Ok(());
    }
    if !force {
        return Err(format!(
            "{} already holds a run ({}); {}--force replaces it, or choose another --out",
            dir.display(),
            present.join(", "),
            if resume_hint {
                "--resume continues it, "
            } else {
                ""
            }
        ));
    }
    for f in present {
        fs::remove_file(dir.join(f)).map_err(|e| format!("{}: {e}", dir.join(f).display()))?;
    }
    Ok(())
}

/// What reading a folder's games.csv against its manifest found.
pub struct Verified {
    pub summary: Summary,
    pub hasher: crc32fast::Hasher,
    /// Bytes of the header and the counted rows (where a resumed run goes on writing).
    pub end: u64,
    /// Bytes past them (an interrupted write that the manifest does not count).
    pub extra: u64,
}

/// Reads `dir/games.csv` and checks it against the manifest `m`: the header of the game, the
/// counted rows complete with the game's columns and indices first_game, first_game + 1, ...,
/// and their bytes and CRC-32 as recorded; `copy` receives each counted row.
pub fn verify_rows(
    dir: &Path,
    m: &Manifest,
    mut copy: impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<Verified, String> {
    let path = dir.join(GAMES);
    let game: GameKind = m.job.game.parse()?;
    let file = File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let total = file.metadata().map(|md| md.len()).unwrap_or(0);
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut line = Vec::new();
    let at = |n: u64| format!("{}: line {n}", path.display());
    reader
        .read_until(b'\n', &mut line)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let head = header(game);
    if line != head.as_bytes() {
        return Err(format!(
            "{}: the header is not that of {game} games.csv ({})",
            at(1),
            head.trim_end()
        ));
    }
    let width = columns(game).len();
    let mut v = Verified {
        summary: Summary::default(),
        hasher: crc32fast::Hasher::new(),
        end: head.len() as u64,
        extra: 0,
    };
    for i in 0..m.games_done {
        let n = i + 2;
        line.clear();
        reader
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if line.last() != Some(&b'\n') {
            return Err(format!(
                "{}: {} holds {} complete rows but {MANIFEST} counts {} (rows lost or cut); \
                 the folder cannot be used as it is",
                at(n),
                path.display(),
                i,
                m.games_done
            ));
        }
        let text = std::str::from_utf8(&line[..line.len() - 1])
            .map_err(|_| format!("{}: not UTF-8", at(n)))?;
        let fields: Vec<&str> = text.split(',').collect();
        if fields.len() != width {
            return Err(format!(
                "{}: {} fields, {game} rows have {width}",
                at(n),
                fields.len()
            ));
        }
        let want = m.first_game + i;
        if fields[0].parse::<u64>().ok() != Some(want) {
            return Err(format!(
                "{}: game '{}' where game {want} belongs (rows missing, doubled or out of order)",
                at(n),
                fields[0]
            ));
        }
        let plies = fields[3]
            .parse::<u32>()
            .map_err(|_| format!("{}: plies '{}' is not a number", at(n), fields[3]))?;
        v.summary
            .add(fields[4], fields[5], plies)
            .map_err(|e| format!("{}: {e}", at(n)))?;
        v.hasher.update(&line);
        v.end += line.len() as u64;
        copy(&line)?;
    }
    let (bytes, crc) = (v.end - head.len() as u64, v.hasher.clone().finalize());
    if (bytes, crc) != (m.rows_bytes, m.rows_crc32) {
        return Err(format!(
            "{}: the {} rows counted by {MANIFEST} are not the rows it recorded (bytes {bytes} \
             vs {}, CRC-32 {crc:08x} vs {:08x}): changed since they were written",
            path.display(),
            m.games_done,
            m.rows_bytes,
            m.rows_crc32
        ));
    }
    v.extra = total.saturating_sub(v.end);
    Ok(v)
}

/// clauses.csv: `clause,kind,count`, the clause events every engine of the game reports
/// (`event`) and the clauses that ended the games (`end`).
pub fn clauses_csv(events: &BTreeMap<String, u64>, summary: &Summary) -> String {
    let mut text = String::from("clause,kind,count\n");
    for (c, n) in events {
        text.push_str(&format!("{c},event,{n}\n"));
    }
    for (c, n) in &summary.ends {
        text.push_str(&format!("{c},end,{n}\n"));
    }
    text
}

/// Writes clauses.csv and summary.csv of a finished run.
pub fn write_results(dir: &Path, m: &Manifest, summary: &Summary) -> Result<(), String> {
    write_atomic(
        &dir.join("clauses.csv"),
        &clauses_csv(&m.clause_events, summary),
    )?;
    write_atomic(&dir.join("summary.csv"), &summary.csv())
}
