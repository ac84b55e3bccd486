//! A study's folder on disk: its lock, atomic writes, the swap journal a merge replaces files
//! with, link checks, and which files are a study's own.

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::io;
use super::{StudyError, GAMES, LOCK, MANIFEST};
use crate::disk::{FolderLock, LockError};
use crate::games_csv::header;
use crate::registry::GameKind;

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
pub(crate) const JOURNAL: &str = ".swap.json";

/// What a swap is doing, written before its first move: enough to undo it after a kill.
#[derive(Serialize, Deserialize)]
pub(crate) struct Journal {
    /// The folder (in `dir`) the new files come from.
    pub(crate) staging: String,
    /// The folder (in `dir`) the old files are moved into.
    pub(crate) aside: String,
    /// The names swapped, and which of them `dir` held before.
    pub(crate) names: Vec<String>,
    pub(crate) present: Vec<String>,
}

/// A new folder of ours in `dir` (prefix `prefix`), marked as ours.
pub(crate) fn our_folder(dir: &Path, prefix: &str) -> Result<tempfile::TempDir, StudyError> {
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

/// True when `a` and `b` name one existing file, by any path: the same path, a symbolic link or
/// a hard link.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => (x.dev(), x.ino()) == (y.dev(), y.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(a).is_ok_and(|x| std::fs::canonicalize(b).is_ok_and(|y| x == y))
    }
}

/// `path` made absolute with its links resolved, component by component: a part that exists is
/// resolved by the system, the rest as written (`..` leaving the folder before it), as folders
/// are made. For telling whether one folder lies inside another.
pub fn resolved(path: &Path) -> PathBuf {
    use std::path::Component;
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::Prefix(_) | Component::RootDir => out.push(part.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => {
                out.push(name);
                if let Ok(real) = std::fs::canonicalize(&out) {
                    out = real;
                }
            }
        }
    }
    out
}

/// Set while files are being swapped into place: a second interrupt then waits for the swap.
static SWAPPING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs `work` (a few renames) marked as a swap under way ([`swapping`]): a front end that ends
/// its process on a second interrupt waits for it instead.
pub fn uninterrupted<T>(work: impl FnOnce() -> T) -> T {
    use std::sync::atomic::Ordering;
    SWAPPING.store(true, Ordering::SeqCst);
    let done = work();
    SWAPPING.store(false, Ordering::SeqCst);
    done
}

/// Whether files are being swapped into place ([`uninterrupted`]).
pub fn swapping() -> bool {
    SWAPPING.load(std::sync::atomic::Ordering::SeqCst)
}

/// The folder of the match whose `pairs` folder holds `out` (where it plays its pairings), if any.
pub fn match_of_pairing(out: &Path) -> Option<PathBuf> {
    let abs = resolved(out);
    let pairs = abs
        .parent()
        .filter(|p| p.file_name().is_some_and(|n| n == "pairs"))?;
    let matched = pairs.parent()?;
    matched
        .join("match.json")
        .symlink_metadata()
        .is_ok()
        .then(|| matched.to_path_buf())
}

/// The largest manifest.json read (real ones have under 2 KiB).
pub const MAX_MANIFEST: u64 = 1 << 20;

/// Writes `text` as the folder's own file `path`: a new file renamed over it, replacing a link
/// put there rather than writing through it.
pub(crate) fn write_own(path: &Path, text: &str) -> Result<(), StudyError> {
    replace_file(path, |w| w.write_all(text.as_bytes()).map_err(io(path)))
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
