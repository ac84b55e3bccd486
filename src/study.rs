//! A study's folder on disk: the manifest and what it records, the lock, and the checks of the
//! rows of games.csv against the manifest that resuming and merging rely on.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::disk::{FolderLock, LockError};
use crate::games_csv::{columns, header};
use crate::registry::{GameKind, UnknownGame};
use crate::stats::{Summary, UnknownWinner};

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
    /// Plies of every game played at random before the policies take over (0: none; not
    /// written then, so that a job without an opening keeps the manifest it always had).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening: u32,
}

/// Whether `n` is 0 (for serde's `skip_serializing_if`).
fn is_zero(n: &u32) -> bool {
    *n == 0
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

/// Why a study folder could not be read, written or used.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", crate::text::shown_path(.path))]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The output folder could not be created.
    #[error("--out {}: {source}", crate::text::shown_path(.dir))]
    MakeDir {
        /// The folder.
        dir: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// A file stands where the output folder should be.
    #[error(
        "--out {}: a file, not a folder; choose a folder for the results",
        crate::text::shown_path(.0)
    )]
    NotAFolder(PathBuf),
    /// An output that is not a regular file: a device, a pipe, a folder, or a stream of this
    /// process reached through `/dev` or `/proc` (such as `/dev/stdout`).
    #[error(
        "{}: not a regular file (a device, a pipe, a folder or a stream of this process); write to \
         a file, or to '-' for standard output where the option allows it",
        crate::text::shown_path(.0)
    )]
    NotAFile(PathBuf),
    /// A file of a study folder that is a symbolic link or not a regular file.
    #[error(
        "{}: a symbolic link or not a regular file; the files of a study folder are its own \
         (remove it, or choose another --out)",
        crate::text::shown_path(.0)
    )]
    NotOwnFile(PathBuf),
    /// A file at the place of a study's file that no study wrote.
    #[error(
        "{}: not a file of a study (a link, a folder, or a file without the study's header); \
         move it away or choose another --out: a new run replaces only a study's own files",
        crate::text::shown_path(.0)
    )]
    NotStudyFile(PathBuf),
    /// Another job holds the folder's lock.
    #[error(
        "{} is in use by another stats or match job (lock {}, process {holder}); wait for it or choose \
         another --out",
        crate::text::shown_path(.dir),
        crate::text::shown_path(.lock)
    )]
    Locked {
        /// The folder.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The process id and host the lock names.
        holder: String,
    },
    /// A job is writing a folder a merge would read.
    #[error(
        "{} is being written by another stats or match job (lock {}, process {holder}); merge \
         its shards once it has finished",
        crate::text::shown_path(.dir),
        crate::text::shown_path(.lock)
    )]
    BeingWritten {
        /// The folder.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The process id and host the lock names.
        holder: String,
    },
    /// The lock file kept changing under the job taking it.
    #[error("{}: could not take the lock", crate::text::shown_path(.0))]
    LockNotTaken(PathBuf),
    /// The folder holds a run that is not to be overwritten.
    #[error(
        "{} already holds a run ({}); {}--force replaces it, or choose another --out",
        crate::text::shown_path(.dir),
        .files.join(", "),
        if *.resume_hint { "--resume continues it, " } else { "" }
    )]
    RunPresent {
        /// The folder.
        dir: PathBuf,
        /// The run's files found there.
        files: Vec<&'static str>,
        /// Whether to suggest `--resume`.
        resume_hint: bool,
    },
    /// The manifest could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The manifest is not a manifest.
    #[error("{}: {source}", crate::text::shown_path(.path))]
    BadManifest {
        /// The manifest file.
        path: PathBuf,
        /// What the JSON reader found.
        source: serde_json::Error,
    },
    /// The manifest's fields do not match its own checksum.
    #[error(
        "{}: edited since the job wrote it (its manifest_crc32 is missing or does not match \
         its fields); start the run again with --force",
        crate::text::shown_path(.0)
    )]
    ManifestEdited(PathBuf),
    /// A sealed manifest whose fields do not fit together (a forged one).
    #[error(
        "{}: {what}; not a manifest a job writes",
        crate::text::shown_path(.path)
    )]
    ManifestImpossible {
        /// The manifest.
        path: PathBuf,
        /// What does not fit.
        what: String,
    },
    /// The manifest names an unknown game.
    #[error(transparent)]
    Game(#[from] UnknownGame),
    /// A line of games.csv does not match the manifest.
    #[error("{}: line {line}: {source}", crate::text::shown_path(.path))]
    Row {
        /// games.csv.
        path: PathBuf,
        /// The line (1 is the header).
        line: u64,
        /// What is wrong with it.
        source: RowError,
    },
    /// The counted rows are complete and in order but not the bytes the manifest recorded.
    #[error(
        "{}: the {rows} rows counted by {manifest} are not the rows it recorded (bytes {bytes} \
         vs {recorded_bytes}, CRC-32 {crc:08x} vs {recorded_crc:08x}): changed since they were \
         written",
        crate::text::shown_path(.path),
        manifest = MANIFEST
    )]
    Changed {
        /// games.csv.
        path: PathBuf,
        /// The rows the manifest counts.
        rows: u64,
        /// Their bytes on disk.
        bytes: u64,
        /// Their bytes as recorded.
        recorded_bytes: u64,
        /// Their CRC-32 on disk.
        crc: u32,
        /// Their CRC-32 as recorded.
        recorded_crc: u32,
    },
    /// A `--shard` that is not `K/N` with 1 <= K <= N.
    #[error("--shard {}: expected K/N with 1 <= K <= N", crate::text::quoted(.0))]
    BadShard(String),
}

/// What is wrong with a line of games.csv (its file and line are in [`StudyError::Row`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RowError {
    /// A line longer than any games.csv row.
    #[error("more than {} KiB without a line break; not a games.csv row", MAX_ROW >> 10)]
    TooLong,
    /// The first line is not the game's header.
    #[error("the header is not that of {game} games.csv ({header})")]
    Header {
        /// The manifest's game.
        game: GameKind,
        /// Its header, without the line end.
        header: String,
    },
    /// Fewer complete rows than the manifest counts.
    #[error(
        "{} holds {complete} complete rows but {manifest} counts {counted} (rows lost or cut); \
         the folder cannot be used as it is",
        crate::text::shown_path(.path),
        manifest = MANIFEST
    )]
    Cut {
        /// games.csv.
        path: PathBuf,
        /// The complete rows found.
        complete: u64,
        /// The rows the manifest counts.
        counted: u64,
    },
    /// Not UTF-8 text.
    #[error("not UTF-8")]
    NotUtf8,
    /// Not the game's number of fields.
    #[error("{found} fields, {game} rows have {width}")]
    Fields {
        /// Fields found.
        found: usize,
        /// The manifest's game.
        game: GameKind,
        /// Fields of its rows.
        width: usize,
    },
    /// Not the game that belongs on this line.
    #[error(
        "game {} where game {want} belongs (rows missing, doubled or out of order)",
        crate::text::quoted(.found)
    )]
    OutOfOrder {
        /// The row's `game` field.
        found: String,
        /// The game the manifest puts here.
        want: u64,
    },
    /// The `plies` field is not a number.
    #[error("plies {} is not a number", crate::text::quoted(.0))]
    Plies(String),
    /// The `moves_hash` field is not 16 hexadecimal digits.
    #[error("moves_hash {} is not 16 hexadecimal digits", crate::text::quoted(.0))]
    MovesHash(String),
    /// A field that must be the job's is not.
    #[error(
        "{column} {} where the job's is {}",
        crate::text::quoted(.found),
        crate::text::quoted(.want)
    )]
    NotTheJob {
        /// The column.
        column: &'static str,
        /// What the row holds.
        found: String,
        /// The job's value.
        want: String,
    },
    /// More plies than the job's limit.
    #[error("{plies} plies, over the job's --max-plies {max}")]
    OverLimit {
        /// The row's plies.
        plies: u32,
        /// The job's limit.
        max: u32,
    },
    /// A game cut at the ply limit before the job's limit.
    #[error("cut at the ply limit after {plies} plies, but the job's --max-plies is {max}")]
    CutEarly {
        /// The row's plies.
        plies: u32,
        /// The job's limit.
        max: u32,
    },
    /// The `winner` field is not a winner.
    #[error(transparent)]
    Winner(#[from] UnknownWinner),
}

/// A [`StudyError::Io`] error of `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StudyError + '_ {
    move |source| StudyError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Games `first..end` of shard `K/N` of `games` games (checked: no overflow).
pub fn shard_range(games: u64, shard: Option<&str>) -> Result<(u64, u64), StudyError> {
    let Some(s) = shard else {
        return Ok((0, games));
    };
    let (k, n) = shard_numbers(s)?;
    let at = |k: u64| (u128::from(k) * u128::from(games) / u128::from(n)) as u64;
    Ok((at(k - 1), at(k)))
}

/// `K/N` as (K, N), digits only, 1 <= K <= N.
fn shard_numbers(s: &str) -> Result<(u64, u64), StudyError> {
    let number = |t: &str| {
        t.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| t.parse::<u64>().ok())
            .flatten()
    };
    s.split_once('/')
        .and_then(|(k, n)| Some((number(k)?, number(n)?)))
        .filter(|&(k, n)| n > 0 && (1..=n).contains(&k))
        .ok_or_else(|| StudyError::BadShard(s.to_string()))
}

/// The one spelling of a shard (`01/03` and `1/3` are the same shard, written `1/3`).
pub fn canonical_shard(s: &str) -> Result<String, StudyError> {
    shard_numbers(s).map(|(k, n)| format!("{k}/{n}"))
}

/// Holds `DIR/.lock` while a job writes DIR; a second job on the same folder is refused. The
/// lock is the operating system's (`flock`), so it ends with its process however that process
/// ends: a lock file left behind by a killed job holds nothing, and the next job takes it
/// ([`crate::disk::FolderLock`]).
pub struct DirLock {
    /// The lock, let go (and its file removed) when dropped.
    _lock: FolderLock,
}

impl DirLock {
    /// Takes the lock of `dir`, or says who holds it.
    pub fn take(dir: &Path) -> Result<DirLock, StudyError> {
        check_own_files(
            dir,
            &[LOCK, MANIFEST, "games.csv", "clauses.csv", "summary.csv"],
        )?;
        let lock = FolderLock::take(dir).map_err(|e| match e {
            LockError::Busy { dir, lock, holder } => StudyError::Locked { dir, lock, holder },
            LockError::Io { path, source } => StudyError::Io { path, source },
            LockError::NotTaken(path) => StudyError::LockNotTaken(path),
        })?;
        // A swap a killed job left part way is undone first: the folder is as it was.
        recover_swap(dir)?;
        Ok(DirLock { _lock: lock })
    }
}

/// A shared hold on `DIR/.lock` while a job reads DIR (a merge its shards): a job that would
/// write DIR is refused meanwhile, as this one is while a job writes DIR. Unlike [`DirLock`] it
/// leaves the lock file in place, as other readers may hold it too.
pub struct ReadLock {
    /// The shared hold; dropping it lets go.
    _lock: FolderLock,
}

impl ReadLock {
    /// Takes a shared hold on the lock of `dir`, or says which job writes it. A folder this
    /// process may not write is read without a hold (`None`): no job writes it either; nor is
    /// one that is not there (its reader says so).
    pub fn take(dir: &Path) -> Result<Option<ReadLock>, StudyError> {
        match FolderLock::share(dir) {
            Ok(lock) => Ok(Some(ReadLock { _lock: lock })),
            Err(LockError::Busy { dir, lock, holder }) => {
                Err(StudyError::BeingWritten { dir, lock, holder })
            }
            // A folder that is not there is named by the reading that follows.
            Err(LockError::Io { source, .. })
                if matches!(
                    source.kind(),
                    std::io::ErrorKind::PermissionDenied
                        | std::io::ErrorKind::ReadOnlyFilesystem
                        | std::io::ErrorKind::NotFound
                        | std::io::ErrorKind::NotADirectory
                ) =>
            {
                Ok(None)
            }
            Err(LockError::Io { path, source }) => Err(StudyError::Io { path, source }),
            Err(LockError::NotTaken(path)) => Err(StudyError::LockNotTaken(path)),
        }
    }
}

/// Creates the output folder `dir` (and its parents); a file in its place is named as such.
pub fn make_dir(dir: &Path) -> Result<(), StudyError> {
    if dir.exists() && !dir.is_dir() {
        return Err(StudyError::NotAFolder(dir.to_path_buf()));
    }
    if !dir.exists() && fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        // create_dir_all would say only "File exists".
        return Err(StudyError::MakeDir {
            dir: dir.to_path_buf(),
            source: std::io::Error::other("a symbolic link to a folder that does not exist"),
        });
    }
    fs::create_dir_all(dir).map_err(|source| StudyError::MakeDir {
        dir: dir.to_path_buf(),
        source,
    })
}

/// Writes `text` to a new file beside `path` with a unique name, then renames it over `path`, so
/// a reader sees the old file or the new one, never a part. A symbolic link at `path` is followed:
/// the file it points to is replaced and the link stays. The new file gets the permissions of the
/// file it replaces, or those any new file gets (0644 under the usual umask), and on any failure
/// the temporary file is removed.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), StudyError> {
    let chain = link_chain(path);
    let target = chain.last().cloned().unwrap_or_else(|| path.to_path_buf());
    // Replacing a device or a stream (`/dev/stdout` ends at the file the shell redirected to)
    // would destroy it: only regular files are written.
    let special = chain
        .iter()
        .any(|p| p.starts_with("/dev") || p.starts_with("/proc"))
        || fs::metadata(&target).is_ok_and(|m| !m.is_file());
    if special {
        return Err(StudyError::NotAFile(path.to_path_buf()));
    }
    replace_file(&target, |w| {
        w.write_all(text.as_bytes()).map_err(io(&target))
    })
}

/// Writes `path` anew: what `write` puts in a new file beside it, flushed and synced, then renamed
/// over `path`, so a reader sees the old file or the new one, never a part. A link at `path` is
/// replaced, not followed. The new file keeps the permissions of a regular file it replaces (a
/// private one stays private), or gets those any new file gets; on any failure the temporary file
/// is removed.
pub fn replace_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), StudyError>,
) -> Result<(), StudyError> {
    let mut tmp = temporary_beside(path)?;
    if let Some(meta) = fs::metadata(path).ok().filter(|m| m.is_file()) {
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(io(tmp.path()))?;
    }
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        write(&mut w)?;
        w.flush().map_err(io(path))?;
    }
    tmp.as_file().sync_all().map_err(io(path))?;
    // A failed rename hands the file back, and dropping it removes it.
    tmp.persist(path).map_err(|e| StudyError::Io {
        path: path.to_path_buf(),
        source: e.error,
    })?;
    Ok(())
}

/// The prefix of the folder a merge stages its files in, inside the folder it writes.
pub const STAGING: &str = ".merge.";

/// The file that marks a folder as one of ours (a staging or an aside folder): only those are
/// ever removed as left behind.
const OURS: &str = ".mancala-lab";

/// The journal of a swap under way (`swap_in`), in the folder swapped.
const JOURNAL: &str = ".swap.json";

/// What a swap is doing, written before its first move: enough to undo it after a kill.
#[derive(Serialize, Deserialize)]
struct Journal {
    /// The folder (in `dir`) the new files come from.
    staging: String,
    /// The folder (in `dir`) the old files are moved into.
    aside: String,
    /// The names swapped, and which of them `dir` held before.
    names: Vec<String>,
    present: Vec<String>,
}

/// A new folder of ours in `dir` (prefix `prefix`), marked as ours.
fn our_folder(dir: &Path, prefix: &str) -> Result<tempfile::TempDir, StudyError> {
    let made = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(dir)
        .map_err(io(dir))?;
    fs::write(made.path().join(OURS), "").map_err(io(made.path()))?;
    Ok(made)
}

/// A new folder inside `dir` for files that are to take the place of `dir`'s own
/// ([`swap_in`]); removed when dropped. Folders of ours a job killed outright left behind
/// (`dir` locked by the caller) are removed first; a folder of the user's is never touched.
pub fn staging_dir(dir: &Path) -> Result<tempfile::TempDir, StudyError> {
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let ours = (name.starts_with(STAGING) || name.starts_with(".old."))
                && e.file_type().is_ok_and(|t| t.is_dir())
                && e.path().join(OURS).is_file();
            if ours {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }
    our_folder(dir, STAGING)
}

/// Puts the files (or folders) `names` of `staging` (a folder in `dir`) in the place of
/// `dir`'s, all or none: `dir`'s are first moved aside into a folder of their own, the new ones
/// moved in, and on a failure every move is undone. A journal written first lets the next job
/// to lock `dir` undo a swap a kill cut short ([`DirLock::take`]). The old files are removed
/// only once the new ones are all in place.
pub fn swap_in(dir: &Path, staging: &Path, names: &[&str]) -> Result<(), StudyError> {
    let aside = our_folder(dir, ".old.")?.keep();
    let name_of = |p: &Path| {
        p.file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    };
    let journal = Journal {
        staging: name_of(staging),
        aside: name_of(&aside),
        names: names.iter().map(|n| n.to_string()).collect(),
        present: names
            .iter()
            .filter(|n| dir.join(n).symlink_metadata().is_ok())
            .map(|n| n.to_string())
            .collect(),
    };
    let text = serde_json::to_string(&journal)?;
    write_atomic(&dir.join(JOURNAL), &text)?;
    let swap = || -> Result<(), StudyError> {
        for n in &journal.present {
            fs::rename(dir.join(n), aside.join(n)).map_err(io(&dir.join(n)))?;
        }
        for n in names {
            let new = staging.join(n);
            if new.symlink_metadata().is_ok() {
                fs::rename(&new, dir.join(n)).map_err(io(&dir.join(n)))?;
            }
        }
        Ok(())
    };
    match swap() {
        Ok(()) => {
            // The journal goes first: from here on the new files are the folder's.
            fs::remove_file(dir.join(JOURNAL)).map_err(io(&dir.join(JOURNAL)))?;
            let _ = fs::remove_dir_all(&aside);
            Ok(())
        }
        Err(e) => match undo_swap(dir, &journal) {
            Ok(()) => Err(e),
            Err(undo) => Err(StudyError::Io {
                path: dir.to_path_buf(),
                source: std::io::Error::other(format!(
                    "{e}; undoing the swap failed too ({undo}): the old files are in {}, and \
                     the next job in the folder undoes the swap",
                    crate::text::shown_path(&aside)
                )),
            }),
        },
    }
}

/// Undoes the swap `journal` records in `dir`: new files moved back out (removed), old ones
/// moved back in; then the journal and the swap's folders go.
fn undo_swap(dir: &Path, journal: &Journal) -> Result<(), StudyError> {
    let (staging, aside) = (dir.join(&journal.staging), dir.join(&journal.aside));
    for n in &journal.names {
        let here = dir.join(n);
        let old_aside = aside.join(n).symlink_metadata().is_ok();
        let was = journal.present.contains(n);
        // What is in `dir` under this name is the new file if the old one is aside, or if
        // there was none.
        if here.symlink_metadata().is_ok() && (old_aside || !was) {
            let gone = if here.is_dir() && !here.is_symlink() {
                fs::remove_dir_all(&here)
            } else {
                fs::remove_file(&here)
            };
            gone.map_err(io(&here))?;
        }
        if old_aside {
            fs::rename(aside.join(n), &here).map_err(io(&here))?;
        }
    }
    fs::remove_file(dir.join(JOURNAL)).map_err(io(&dir.join(JOURNAL)))?;
    let _ = fs::remove_dir_all(staging);
    let _ = fs::remove_dir_all(aside);
    Ok(())
}

/// Undoes a swap a killed job left part way in `dir` (its journal there), if any.
fn recover_swap(dir: &Path) -> Result<(), StudyError> {
    let path = dir.join(JOURNAL);
    if path.symlink_metadata().is_err() {
        return Ok(());
    }
    let text = manifest_text(&path)?;
    let journal: Journal =
        serde_json::from_str(&text).map_err(|source| StudyError::BadManifest {
            path: path.clone(),
            source,
        })?;
    // Only names of this folder: a journal never points elsewhere.
    let plain = |n: &String| {
        !n.is_empty() && !n.contains('/') && !n.contains('\\') && n != "." && n != ".."
    };
    let ours = journal.staging.starts_with(STAGING) && journal.aside.starts_with(".old.");
    if !ours || !journal.names.iter().all(plain) || !journal.present.iter().all(plain) {
        return Err(StudyError::Io {
            path,
            source: std::io::Error::other("not a journal of a swap of this folder's files"),
        });
    }
    undo_swap(dir, &journal)
}

/// Whether `name` is that of a temporary file [`temporary_beside`] makes for one of `files`:
/// `.FILE.` then six letters or digits, then `.tmp`. A leftover of a stopped job is recognised
/// by it; a file of the user's is unlikely to be named so.
pub fn is_temporary_of(name: &str, files: &[&str]) -> bool {
    files.iter().any(|f| {
        name.strip_prefix('.')
            .and_then(|n| n.strip_prefix(f))
            .and_then(|n| n.strip_prefix('.'))
            .and_then(|n| n.strip_suffix(".tmp"))
            .is_some_and(|r| {
                r.len() == TEMPORARY_LETTERS && r.bytes().all(|b| b.is_ascii_alphanumeric())
            })
    })
}

/// The random letters of a temporary file's name (tempfile's default).
const TEMPORARY_LETTERS: usize = 6;

/// A new, uniquely named file in the folder of `path` (`.NAME.XXXXXX.tmp`), removed when dropped
/// unless renamed, created with the mode a new file gets.
pub fn temporary_beside(path: &Path) -> Result<tempfile::NamedTempFile, StudyError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .suffix(".tmp")
        .rand_bytes(TEMPORARY_LETTERS);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Narrowed by the umask, as for any new file (tempfile's own default is 0600).
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    // tempfile's error repeats the temporary path whole; the error names `path` instead (cut
    // to a readable length when shown), with the system's reason.
    builder.tempfile_in(dir).map_err(|e| {
        // tempfile wraps the system's error as "REASON at path PATH": the reason is kept.
        let reason = e
            .get_ref()
            .map(|inner| inner.to_string())
            .and_then(|t| t.split_once(" at path ").map(|(r, _)| r.to_string()));
        let source = match (e.raw_os_error(), reason) {
            (Some(code), _) => std::io::Error::from_raw_os_error(code),
            (None, Some(reason)) => std::io::Error::new(e.kind(), reason),
            (None, None) => e.kind().into(),
        };
        StudyError::Io {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// The file a chain of symbolic links at `path` ends at (`path` itself when it is not a link),
/// whether or not that file exists yet.
pub fn link_target(path: &Path) -> PathBuf {
    link_chain(path).pop().unwrap_or_else(|| path.to_path_buf())
}

/// `path` and each file the symbolic links from it lead to, in order.
/// Whether `path`, or the folder it would be made in, lies under `/dev` or `/proc` (links
/// followed): no file of ours is written there.
pub fn under_system_folder(path: &Path) -> bool {
    let mut at = Some(path);
    while let Some(p) = at {
        if let Ok(real) = p.canonicalize() {
            return real.starts_with("/dev") || real.starts_with("/proc");
        }
        at = p.parent();
    }
    path.starts_with("/dev") || path.starts_with("/proc")
}

fn link_chain(path: &Path) -> Vec<PathBuf> {
    let mut chain = vec![path.to_path_buf()];
    // As many links as the system follows before it reports a loop.
    for _ in 0..40 {
        let at = chain.last().expect("not empty");
        match fs::read_link(at) {
            // A relative link is relative to the folder holding it.
            Ok(next) => {
                let next = match at.parent() {
                    Some(dir) => dir.join(next),
                    None => next,
                };
                chain.push(next);
            }
            Err(_) => break,
        }
    }
    chain
}

/// Refuses a study folder whose own files (`names`) include a symbolic link or something other
/// than a regular file: the job would write through it, or replace a device.
pub fn check_own_files(dir: &Path, names: &[&str]) -> Result<(), StudyError> {
    for name in names {
        let path = dir.join(name);
        if let Ok(m) = fs::symlink_metadata(&path) {
            if !m.file_type().is_file() {
                return Err(StudyError::NotOwnFile(path));
            }
        }
    }
    Ok(())
}

/// Writes the manifest of `dir`.
pub fn save_manifest(dir: &Path, m: &Manifest) -> Result<(), StudyError> {
    let sealed = Manifest {
        manifest_crc32: Some(m.fields_crc32()),
        ..m.clone()
    };
    let json = serde_json::to_string_pretty(&sealed)?;
    write_own(&dir.join(MANIFEST), &(json + "\n"))
}

/// Writes `text` as the folder's own file `path`: a new file renamed over it, replacing a link
/// put there rather than writing through it.
fn write_own(path: &Path, text: &str) -> Result<(), StudyError> {
    replace_file(path, |w| w.write_all(text.as_bytes()).map_err(io(path)))
}

/// The longest line a games.csv row may have (real rows have under 200 bytes).
pub const MAX_ROW: usize = 64 << 10;

/// The largest manifest.json read (real ones have under 2 KiB).
pub const MAX_MANIFEST: u64 = 1 << 20;

/// Reads the next line into `buf`, at most [`MAX_ROW`] bytes; `Ok(false)` when it is longer.
fn read_row<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    buf.clear();
    Read::take(&mut *reader, MAX_ROW as u64 + 1).read_until(b'\n', buf)?;
    Ok(buf.len() <= MAX_ROW)
}

/// The text of a manifest file (or match.json): a regular file of at most [`MAX_MANIFEST`]
/// bytes, read without waiting on a pipe or reading a device without end.
pub fn manifest_text(path: &Path) -> Result<String, StudyError> {
    // Looked at before it is opened: opening a pipe would wait for a writer.
    let meta = fs::metadata(path).map_err(io(path))?;
    if !meta.is_file() || meta.len() > MAX_MANIFEST {
        return Err(StudyError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(format!(
                "not a manifest: {}",
                if meta.is_file() {
                    "more than 1 MiB"
                } else {
                    "not a regular file"
                }
            )),
        });
    }
    let file = File::open(path).map_err(io(path))?;
    let mut text = String::new();
    Read::take(file, MAX_MANIFEST)
        .read_to_string(&mut text)
        .map_err(io(path))?;
    Ok(text)
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

/// The first line of clauses.csv.
pub const CLAUSES_HEADER: &str = "clause,kind,count,title,note";
/// The first line of clauses.csv as studies wrote it before the titles and notes (still a
/// study's own file: replaced by `--force`, rewritten by `--resume`).
const CLAUSES_HEADER_WITHOUT_TITLES: &str = "clause,kind,count";

/// Whether `path` is a plain file (not a link) whose first line is `header` (given without its
/// line end): a table this tool wrote, which a new run may replace.
pub fn starts_with_header(path: &Path, header: &str) -> bool {
    if !path.symlink_metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(file) = File::open(path) else {
        return false;
    };
    let mut line = Vec::new();
    let mut reader = BufReader::new(file.take(header.len() as u64 + 2));
    if reader.read_until(b'\n', &mut line).is_err() {
        return false;
    }
    let line = line.strip_suffix(b"\n").unwrap_or(&line);
    line.strip_suffix(b"\r").unwrap_or(line) == header.as_bytes()
}

/// Whether the file `name` of a study folder `dir` is the study's own: a manifest that reads as
/// one, or a table with its header (games.csv of either game, possibly still empty).
pub fn is_study_file(dir: &Path, name: &str) -> bool {
    let path = dir.join(name);
    match name {
        // A manifest of this build or an older one: the fields every format has.
        MANIFEST => {
            path.symlink_metadata().is_ok_and(|m| m.is_file())
                && manifest_text(&path)
                    .ok()
                    .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                    .is_some_and(|v| {
                        ["command", "version", "first_game", "end_game", "games_done"]
                            .iter()
                            .all(|k| v.get(k).is_some())
                    })
        }
        GAMES => {
            path.symlink_metadata()
                .is_ok_and(|m| m.is_file() && m.len() == 0)
                || GameKind::ALL
                    .into_iter()
                    .any(|g| starts_with_header(&path, header(g).trim_end()))
        }
        "clauses.csv" => {
            starts_with_header(&path, CLAUSES_HEADER)
                || starts_with_header(&path, CLAUSES_HEADER_WITHOUT_TITLES)
        }
        "summary.csv" => starts_with_header(&path, crate::stats::SUMMARY_HEADER),
        _ => false,
    }
}

/// The files of a study in `dir` that are there.
fn study_files_present(dir: &Path) -> Vec<&'static str> {
    [MANIFEST, GAMES, "clauses.csv", "summary.csv"]
        .into_iter()
        .filter(|f| dir.join(f).symlink_metadata().is_ok())
        .collect()
}

/// Refuses a folder where a file or folder of the user's stands at the place of a study's file:
/// a new run or a merge replaces only a study's own files, `--force` or not.
pub fn only_study_files(dir: &Path) -> Result<(), StudyError> {
    match study_files_present(dir)
        .into_iter()
        .find(|f| !is_study_file(dir, f))
    {
        Some(f) => Err(StudyError::NotStudyFile(dir.join(f))),
        None => Ok(()),
    }
}

/// Refuses to overwrite a run in `dir` unless `force`; with `force`, removes its files. A file
/// at a study file's place that is not the study's own is never removed ([`only_study_files`]).
pub fn clear_for_new_run(dir: &Path, force: bool, resume_hint: bool) -> Result<(), StudyError> {
    let present = study_files_present(dir);
    if present.is_empty() {
        return Ok(());
    }
    only_study_files(dir)?;
    if !force {
        // A folder without a manifest (a job killed before its first save) cannot be resumed.
        let resume_hint = resume_hint && present.contains(&MANIFEST);
        return Err(StudyError::RunPresent {
            dir: dir.to_path_buf(),
            files: present,
            resume_hint,
        });
    }
    for f in present {
        let path = dir.join(f);
        fs::remove_file(&path).map_err(io(&path))?;
    }
    Ok(())
}

/// What reading a folder's games.csv against its manifest found.
pub struct Verified {
    /// The counted rows' games.
    pub summary: Summary,
    /// The CRC-32 of the counted rows so far (a resumed run goes on with it).
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
    mut copy: impl FnMut(&[u8]) -> Result<(), StudyError>,
) -> Result<Verified, StudyError> {
    let path = dir.join(GAMES);
    let game: GameKind = m.job.game.parse()?;
    // Looked at before it is opened: opening a pipe would wait for a writer.
    if !fs::metadata(&path).map_err(io(&path))?.is_file() {
        return Err(StudyError::NotOwnFile(path));
    }
    let file = File::open(&path).map_err(io(&path))?;
    let total = file.metadata().map(|md| md.len()).unwrap_or(0);
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut line = Vec::new();
    let at = |line: u64, source: RowError| StudyError::Row {
        path: path.clone(),
        line,
        source,
    };
    if !read_row(&mut reader, &mut line).map_err(io(&path))? {
        return Err(at(1, RowError::TooLong));
    }
    // A study of a build before the moves_hash column is read without it.
    let head = header(game);
    let hashed = line == head.as_bytes();
    if !hashed && line != crate::games_csv::header_without_moves_hash(game).as_bytes() {
        let header = head.trim_end().to_string();
        return Err(at(1, RowError::Header { game, header }));
    }
    let head = String::from_utf8_lossy(&line).into_owned();
    let width = columns(game).len() - usize::from(!hashed);
    let mut v = Verified {
        summary: Summary::default(),
        hasher: crc32fast::Hasher::new(),
        end: head.len() as u64,
        extra: 0,
    };
    for i in 0..m.games_done {
        let n = i + 2;
        if !read_row(&mut reader, &mut line).map_err(io(&path))? {
            return Err(at(n, RowError::TooLong));
        }
        if line.last() != Some(&b'\n') {
            let cut = RowError::Cut {
                path: path.clone(),
                complete: i,
                counted: m.games_done,
            };
            return Err(at(n, cut));
        }
        let text =
            std::str::from_utf8(&line[..line.len() - 1]).map_err(|_| at(n, RowError::NotUtf8))?;
        let fields = crate::text::csv_fields(text);
        let fields: Vec<&str> = fields.iter().map(|f| f.as_ref()).collect();
        if fields.len() != width {
            let found = fields.len();
            return Err(at(n, RowError::Fields { found, game, width }));
        }
        let want = m.first_game + i;
        if fields[0].parse::<u64>().ok() != Some(want) {
            let found = fields[0].to_string();
            return Err(at(n, RowError::OutOfOrder { found, want }));
        }
        for (column, found, want) in [
            ("variant", fields[1], &m.job.variant),
            ("policy", fields[2], &m.job.policy),
        ] {
            if found != want {
                let (found, want) = (found.to_string(), want.clone());
                return Err(at(
                    n,
                    RowError::NotTheJob {
                        column,
                        found,
                        want,
                    },
                ));
            }
        }
        let plies = fields[3]
            .parse::<u32>()
            .map_err(|_| at(n, RowError::Plies(fields[3].to_string())))?;
        if plies > m.job.max_plies {
            let max = m.job.max_plies;
            return Err(at(n, RowError::OverLimit { plies, max }));
        }
        if fields[5] == crate::playout::PLY_LIMIT && plies != m.job.max_plies {
            let max = m.job.max_plies;
            return Err(at(n, RowError::CutEarly { plies, max }));
        }
        let moves_hash = match hashed {
            true => Some(
                Some(fields[width - 1])
                    .filter(|h| h.len() == 16)
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
                    .ok_or_else(|| at(n, RowError::MovesHash(fields[width - 1].to_string())))?,
            ),
            false => None,
        };
        v.summary
            .add(fields[4], fields[5], plies, moves_hash)
            .map_err(|e| at(n, e.into()))?;
        v.hasher.update(&line);
        v.end += line.len() as u64;
        copy(&line)?;
    }
    let (bytes, crc) = (v.end - head.len() as u64, v.hasher.clone().finalize());
    if (bytes, crc) != (m.rows_bytes, m.rows_crc32) {
        return Err(StudyError::Changed {
            path,
            rows: m.games_done,
            bytes,
            recorded_bytes: m.rows_bytes,
            crc,
            recorded_crc: m.rows_crc32,
        });
    }
    v.extra = total.saturating_sub(v.end);
    Ok(v)
}
/// What clauses.csv says of each clause beside its count, for a person reading it.
#[derive(Clone, Debug, Default)]
pub struct ClauseNotes {
    /// The clause titles of the game's spec, by id.
    pub titles: BTreeMap<String, String>,
    /// The counted events no position can fire under the job's reading, and why.
    pub cannot_fire: &'static [(&'static str, &'static str)],
}

impl ClauseNotes {
    /// The notes for `job`'s game and reading (none for a game or reading not known).
    pub fn of(job: &Job) -> ClauseNotes {
        use crate::playout::EngineKind;
        let Ok(game) = job.game.parse::<crate::registry::GameKind>() else {
            return ClauseNotes::default();
        };
        ClauseNotes {
            titles: game.clause_titles(),
            cannot_fire: crate::registry::engine(game, &job.variant, EngineKind::Reference)
                .map(|e| e.events_that_cannot_fire())
                .unwrap_or(&[]),
        }
    }

    /// The title of `clause` (an id of the spec, or the ply limit's end).
    fn title(&self, clause: &str) -> &str {
        match self.titles.get(clause) {
            Some(t) => t,
            None if clause == crate::playout::PLY_LIMIT => "cut at the ply limit (no clause)",
            None => "",
        }
    }

    /// Why `clause` cannot fire, if it cannot.
    fn note(&self, clause: &str) -> &str {
        self.cannot_fire
            .iter()
            .find(|(c, _)| *c == clause)
            .map_or("", |(_, why)| why)
    }
}

/// clauses.csv: `clause,kind,count,title,note`, the clause events every engine of the game
/// reports (`event`) and the clauses that ended the games (`end`); each with its title in the
/// spec and, for an event that no position can fire under the reading, why (so that its 0 does
/// not read as "did not happen").
pub fn clauses_csv(
    events: &BTreeMap<String, u64>,
    summary: &Summary,
    notes: &ClauseNotes,
) -> String {
    use crate::text::csv_field;
    let mut text = format!("{CLAUSES_HEADER}\n");
    let rows = events
        .iter()
        .map(|(c, n)| (c, "event", n))
        .chain(summary.ends.iter().map(|(c, n)| (c, "end", n)));
    for (c, kind, n) in rows {
        let note = if kind == "event" { notes.note(c) } else { "" };
        text.push_str(&format!(
            "{c},{kind},{n},{},{}\n",
            csv_field(notes.title(c)),
            csv_field(note)
        ));
    }
    text
}

/// Writes clauses.csv and summary.csv of a finished run, once it is checked again that no file
/// of the user's has come to stand in their place while the games were played.
pub fn write_results(dir: &Path, m: &Manifest, summary: &Summary) -> Result<(), StudyError> {
    only_study_files(dir)?;
    write_own(
        &dir.join("clauses.csv"),
        &clauses_csv(&m.clause_events, summary, &ClauseNotes::of(&m.job)),
    )?;
    write_own(&dir.join("summary.csv"), &summary.csv())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut left: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        left
    }

    /// A swap that fails part way puts the old files back and leaves nothing of itself.
    #[test]
    fn a_failed_swap_undoes_itself() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("a"), "old").unwrap();
        fs::write(dir.path().join("b"), "old b").unwrap();
        let staging = staging_dir(dir.path()).unwrap();
        fs::create_dir_all(staging.path().join("sub")).unwrap();
        fs::write(staging.path().join("a"), "new").unwrap();
        fs::write(staging.path().join("b"), "new b").unwrap();
        // `sub/x` cannot be moved in: `dir` has no `sub` (the second move in fails).
        fs::write(staging.path().join("sub/x"), "new x").unwrap();
        assert!(swap_in(dir.path(), staging.path(), &["a", "sub/x", "b"]).is_err());
        assert_eq!(fs::read_to_string(dir.path().join("a")).unwrap(), "old");
        assert_eq!(fs::read_to_string(dir.path().join("b")).unwrap(), "old b");
        assert_eq!(names(dir.path()), ["a", "b"]);
        // Whole, it replaces every file and leaves nothing of itself.
        let staging = staging_dir(dir.path()).unwrap();
        fs::write(staging.path().join("a"), "new").unwrap();
        fs::write(staging.path().join("c"), "new c").unwrap();
        swap_in(dir.path(), staging.path(), &["a", "b", "c"]).unwrap();
        drop(staging);
        assert_eq!(fs::read_to_string(dir.path().join("a")).unwrap(), "new");
        assert_eq!(names(dir.path()), ["a", "c"]);
    }

    /// A swap a kill cut short is undone by the next job to lock the folder, whatever move it
    /// stopped at; a folder of the user's named like a staging folder is never removed.
    #[test]
    fn a_swap_cut_short_is_undone_by_the_next_lock() {
        for stopped_after in 0..=5 {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path();
            fs::write(d.join("a"), "old a").unwrap();
            fs::write(d.join("b"), "old b").unwrap();
            fs::create_dir_all(d.join(".merge.mine")).unwrap();
            fs::write(d.join(".merge.mine/thesis.tex"), "mine").unwrap();
            let staging = staging_dir(d).unwrap().keep();
            let aside = our_folder(d, ".old.").unwrap().keep();
            for n in ["a", "b", "c"] {
                fs::write(staging.join(n), format!("new {n}")).unwrap();
            }
            let journal = Journal {
                staging: staging.file_name().unwrap().to_string_lossy().into_owned(),
                aside: aside.file_name().unwrap().to_string_lossy().into_owned(),
                names: vec!["a".into(), "b".into(), "c".into()],
                present: vec!["a".into(), "b".into()],
            };
            fs::write(d.join(JOURNAL), serde_json::to_string(&journal).unwrap()).unwrap();
            // The moves swap_in makes, in order, cut short after `stopped_after` of them.
            let moves = [
                (d.join("a"), aside.join("a")),
                (d.join("b"), aside.join("b")),
                (staging.join("a"), d.join("a")),
                (staging.join("b"), d.join("b")),
                (staging.join("c"), d.join("c")),
            ];
            for (from, to) in &moves[..stopped_after] {
                fs::rename(from, to).unwrap();
            }
            let lock = DirLock::take(d).unwrap();
            drop(lock);
            assert_eq!(
                fs::read_to_string(d.join("a")).unwrap(),
                "old a",
                "{stopped_after}"
            );
            assert_eq!(
                fs::read_to_string(d.join("b")).unwrap(),
                "old b",
                "{stopped_after}"
            );
            assert_eq!(names(d), [".merge.mine", "a", "b"], "{stopped_after}");
            assert_eq!(
                fs::read_to_string(d.join(".merge.mine/thesis.tex")).unwrap(),
                "mine"
            );
            // The user's folder survives a new staging folder too.
            drop(staging_dir(d).unwrap());
            assert!(d.join(".merge.mine/thesis.tex").is_file());
        }
    }

    /// A write that fails leaves neither the target changed nor a temporary file behind.
    #[test]
    fn a_failed_atomic_write_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("summary.csv");
        // A folder in the file's place: the rename fails after the temporary file was written.
        fs::create_dir_all(target.join("inside")).unwrap();
        assert!(write_atomic(&target, "metric,value\n").is_err());
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["summary.csv"]);
        assert!(target.join("inside").is_dir());
    }

    /// The temporary file has a name of its own (a user's `NAME.tmp` is left alone), and the
    /// written file gets the permissions of any new file in that folder.
    #[test]
    fn an_atomic_write_keeps_other_files_and_normal_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("summary.csv");
        let theirs = dir.path().join("summary.csv.tmp");
        fs::write(&theirs, "mine").unwrap();
        write_atomic(&target, "metric,value\n").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "metric,value\n");
        assert_eq!(fs::read_to_string(&theirs).unwrap(), "mine");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            let plain = dir.path().join("plain");
            fs::write(&plain, "").unwrap();
            assert_eq!(mode(&target), mode(&plain));
            // A file replaced keeps its own mode.
            for private in [0o600, 0o640] {
                fs::set_permissions(&target, fs::Permissions::from_mode(private)).unwrap();
                write_atomic(&target, "again\n").unwrap();
                assert_eq!(mode(&target), private);
            }
        }
    }

    /// A symbolic link is followed: its target gets the text, the link stays a link.
    #[cfg(unix)]
    #[test]
    fn an_atomic_write_through_a_link_updates_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("data");
        fs::create_dir(&real).unwrap();
        fs::write(real.join("catalog.md"), "old").unwrap();
        let link = dir.path().join("catalog.md");
        // Relative to the link's folder; then a link to that link.
        std::os::unix::fs::symlink("data/catalog.md", &link).unwrap();
        let again = dir.path().join("again.md");
        std::os::unix::fs::symlink(&link, &again).unwrap();
        write_atomic(&again, "new").unwrap();
        assert_eq!(fs::read_to_string(real.join("catalog.md")).unwrap(), "new");
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert!(fs::symlink_metadata(&again).unwrap().is_symlink());
        // A dangling link is followed too: the file is made where it points.
        let dangling = dir.path().join("later.md");
        std::os::unix::fs::symlink("data/later.md", &dangling).unwrap();
        write_atomic(&dangling, "made").unwrap();
        assert_eq!(fs::read_to_string(real.join("later.md")).unwrap(), "made");
        assert!(fs::symlink_metadata(&dangling).unwrap().is_symlink());
    }

    /// The messages the command line shows, word for word as they were when they were strings.
    #[test]
    fn messages() {
        let dir = PathBuf::from("/tmp/run");
        let games = dir.join(GAMES);
        let io = |kind| std::io::Error::from(kind);
        let cases: Vec<(StudyError, &str)> = vec![
            (
                StudyError::Io {
                    path: games.clone(),
                    source: io(std::io::ErrorKind::NotFound),
                },
                "/tmp/run/games.csv: entity not found",
            ),
            (
                StudyError::MakeDir {
                    dir: dir.clone(),
                    source: io(std::io::ErrorKind::PermissionDenied),
                },
                "--out /tmp/run: permission denied",
            ),
            (
                StudyError::NotAFolder(dir.clone()),
                "--out /tmp/run: a file, not a folder; choose a folder for the results",
            ),
            (
                StudyError::Locked {
                    dir: dir.clone(),
                    lock: dir.join(LOCK),
                    holder: "42 on node7".into(),
                },
                "/tmp/run is in use by another stats or match job (lock /tmp/run/.lock, process 42 on \
                 node7); wait for it or choose another --out",
            ),
            (
                StudyError::LockNotTaken(dir.join(LOCK)),
                "/tmp/run/.lock: could not take the lock",
            ),
            (
                StudyError::RunPresent {
                    dir: dir.clone(),
                    files: vec![MANIFEST, GAMES],
                    resume_hint: true,
                },
                "/tmp/run already holds a run (manifest.json, games.csv); --resume continues it, \
                 --force replaces it, or choose another --out",
            ),
            (
                StudyError::RunPresent {
                    dir: dir.clone(),
                    files: vec![GAMES],
                    resume_hint: false,
                },
                "/tmp/run already holds a run (games.csv); --force replaces it, or choose another \
                 --out",
            ),
            (
                StudyError::Game(UnknownGame("chess".into())),
                "unknown game 'chess' (known: bao, oware, kalah)",
            ),
            (
                StudyError::Row {
                    path: games.clone(),
                    line: 1,
                    source: RowError::Header {
                        game: GameKind::Oware,
                        header: "game,seed".into(),
                    },
                },
                "/tmp/run/games.csv: line 1: the header is not that of oware games.csv \
                 (game,seed)",
            ),
            (
                StudyError::Row {
                    path: games.clone(),
                    line: 4,
                    source: RowError::Cut {
                        path: games.clone(),
                        complete: 2,
                        counted: 5,
                    },
                },
                "/tmp/run/games.csv: line 4: /tmp/run/games.csv holds 2 complete rows but \
                 manifest.json counts 5 (rows lost or cut); the folder cannot be used as it is",
            ),
            (
                StudyError::Row {
                    path: games.clone(),
                    line: 3,
                    source: RowError::NotUtf8,
                },
                "/tmp/run/games.csv: line 3: not UTF-8",
            ),
            (
                StudyError::Row {
                    path: games.clone(),
                    line: 3,
                    source: RowError::Fields {
                        found: 2,
                        game: GameKind::Bao,
                        width: 9,
                    },
                },
                "/tmp/run/games.csv: line 3: 2 fields, bao rows have 9",
            ),
            (
                StudyError::Row {
                    path: games.clone(),
                    line: 3,
                    source: RowError::OutOfOrder {
                        found: "7".into(),
                        want: 1,
                    },
                },
                "/tmp/run/games.csv: line 3: game '7' where game 1 belongs (rows missing, doubled \
                 or out of order)",
            ),
            (
                StudyError::Row {
                    path: games.clone(),
                    line: 3,
                    source: RowError::Plies("x".into()),
                },
                "/tmp/run/games.csv: line 3: plies 'x' is not a number",
            ),
            (
                StudyError::Row {
                    path: games.clone(),
                    line: 3,
                    source: UnknownWinner("south".into()).into(),
                },
                "/tmp/run/games.csv: line 3: winner 'south' (known: South, North, draw, none)",
            ),
            (
                StudyError::Changed {
                    path: games.clone(),
                    rows: 3,
                    bytes: 120,
                    recorded_bytes: 121,
                    crc: 0xab,
                    recorded_crc: 0x1234_5678,
                },
                "/tmp/run/games.csv: the 3 rows counted by manifest.json are not the rows it \
                 recorded (bytes 120 vs 121, CRC-32 000000ab vs 12345678): changed since they \
                 were written",
            ),
            (
                StudyError::BadShard("0/2".into()),
                "--shard '0/2': expected K/N with 1 <= K <= N",
            ),
        ];
        for (e, want) in cases {
            assert_eq!(e.to_string(), want);
        }
    }

    #[test]
    fn shards() {
        assert_eq!(shard_range(10, None).unwrap(), (0, 10));
        assert_eq!(shard_range(10, Some("2/3")).unwrap(), (3, 6));
        for bad in ["0/2", "3/2", "1/0", "1", "a/b"] {
            assert!(matches!(
                shard_range(10, Some(bad)),
                Err(StudyError::BadShard(s)) if s == bad
            ));
        }
    }
}
