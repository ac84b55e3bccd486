//! Folders that jobs write: the lock that keeps a second job out of a folder while one writes it
//! (a study's, a database's levels), and the space free on the disk where a folder is.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The lock's file name, inside the folder it locks.
pub const LOCK: &str = ".lock";

/// The environment variable that, when set, stands for the free space of every disk, in bytes:
/// a way to test the refusal of a job too big for its disk without filling one.
pub const FREE_SPACE_VARIABLE: &str = "MANCALA_LAB_FREE_SPACE";

/// Why a folder's lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another job holds the lock in a way that excludes this hold.
    #[error("{} is in use (lock {}, process {holder})", crate::text::shown_path(.dir), crate::text::shown_path(.lock))]
    Busy {
        /// The folder.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The process id and host the lock names.
        holder: String,
    },
    /// The lock file could not be made, opened or written, or is not a lock this tool made.
    #[error("{}: {source}", crate::text::shown_path(.path))]
    Io {
        /// The lock file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The lock file kept changing under the job taking it.
    #[error("{}: could not take the lock", crate::text::shown_path(.0))]
    NotTaken(PathBuf),
}

/// A hold on `DIR/.lock`: alone while a job writes DIR ([`FolderLock::take`]), a second job on
/// the same folder is refused; shared while a job reads DIR ([`FolderLock::share`]), a job that
/// would write it is refused meanwhile, as a reader is while a job writes. The lock is the
/// operating system's (`flock`), so it ends with its process however that process ends: a lock
/// file left behind by a killed job holds nothing, and the next job takes it. The file names the
/// process (and host) holding it, so that a job refused can say who holds it.
pub struct FolderLock {
    path: PathBuf,
    /// Whether this job holds the lock alone (and removes the file when it lets go).
    alone: bool,
    /// The open, locked file; closing it releases the lock.
    _file: File,
}

impl FolderLock {
    /// Takes the lock of `dir` alone, or says who holds it. The folder must exist.
    pub fn take(dir: &Path) -> Result<FolderLock, LockError> {
        FolderLock::hold(dir, Hold::Alone)
    }

    /// Takes a shared hold on the lock of `dir` (the lock file is made if missing and left in
    /// place, as other readers may hold it too), or says which job writes it.
    pub fn share(dir: &Path) -> Result<FolderLock, LockError> {
        FolderLock::hold(dir, Hold::Shared)
    }

    fn hold(dir: &Path, hold: Hold) -> Result<FolderLock, LockError> {
        let path = dir.join(LOCK);
        for _ in 0..3 {
            let attempt = try_lock_file(&path, hold).map_err(|source| LockError::Io {
                path: path.clone(),
                source,
            })?;
            match attempt {
                Attempt::Held(file) => {
                    return Ok(FolderLock {
                        path,
                        alone: matches!(hold, Hold::Alone),
                        _file: file,
                    })
                }
                Attempt::Busy => {
                    return Err(LockError::Busy {
                        dir: dir.to_path_buf(),
                        holder: lock_holder(&path),
                        lock: path,
                    })
                }
                Attempt::Replaced => continue,
            }
        }
        Err(LockError::NotTaken(path))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still locked (the file closes after this): see `try_lock_file`.
        if self.alone {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// How a lock file is held: by one job writing the folder, or shared by jobs reading it.
#[derive(Clone, Copy)]
enum Hold {
    Alone,
    Shared,
}

/// What one try at a lock file gave.
enum Attempt {
    /// Locked, and naming this process.
    Held(File),
    /// Another process holds it in a way that excludes this hold.
    Busy,
    /// The file was removed or replaced meanwhile (its holder removes it before it lets go): try
    /// again.
    Replaced,
}

/// How many names (hard links) the file of `meta` has; 1 where the system does not say.
fn links(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

/// True when the open `file` is the one at `path` (not one a link there points to).
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

fn host_name() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty() && !h.contains(char::is_whitespace))
        .unwrap_or_else(|| "unknown-host".into())
}

/// Opens (making it if need be) and locks the lock file `path` as `hold` says; once locked, the
/// file names this process and host, so that a job refused meanwhile can say who holds it.
fn try_lock_file(path: &Path, hold: Hold) -> std::io::Result<Attempt> {
    // A link, or a file with other names (a hard link), is no lock this tool made: writing the
    // holder into it would empty a file of the user's. Refused before it is opened.
    if let Ok(meta) = fs::symlink_metadata(path) {
        if !meta.is_file() || links(&meta) > 1 {
            return Err(std::io::Error::other(
                "a symbolic link, not a regular file, or a file with other names (hard links): \
                 not a lock this tool made; remove it",
            ));
        }
        // A file of the user's that happens to be named so is not taken (and later removed).
        if !names_a_holder(path) {
            return Err(std::io::Error::other(
                "not a lock this tool made (it holds other text than 'PROCESS HOST'); move it \
                 away",
            ));
        }
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    let locked = match hold {
        Hold::Alone => file.try_lock(),
        Hold::Shared => file.try_lock_shared(),
    };
    match locked {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => return Ok(Attempt::Busy),
        Err(fs::TryLockError::Error(e)) => return Err(e),
    }
    if !same_file(&file, path) {
        return Ok(Attempt::Replaced);
    }
    file.set_len(0)?;
    // One write: a reader never sees the line half made (as "PROCESS " without its host).
    let holder = format!("{} {}\n", std::process::id(), host_name());
    file.write_all(holder.as_bytes())?;
    Ok(Attempt::Held(file))
}

/// Whether the lock file at `path` reads as one this tool writes: empty (being made), or the
/// process number and, once written whole, the host (a line being written by an older build,
/// one part at a time, may stop after the space).
fn names_a_holder(path: &Path) -> bool {
    let mut text = String::new();
    let read = File::open(path).and_then(|f| f.take(256).read_to_string(&mut text));
    if read.is_err() || text.len() >= 256 {
        return false;
    }
    let line = text.strip_suffix('\n').unwrap_or(&text);
    let (pid, host) = match line.split_once(' ') {
        Some((pid, "")) => (pid, "x"),
        Some(parts) => parts,
        None => (line, "x"),
    };
    line.is_empty()
        || (!pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && !host.is_empty()
            && !host.contains(char::is_whitespace))
}

/// The process (and host) a lock file names.
fn lock_holder(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let mut words = text.split_whitespace();
    match (words.next(), words.next()) {
        (Some(pid), Some(host)) => format!("{pid} on {host}"),
        (Some(pid), None) => pid.to_string(),
        _ => "unknown, the lock is being made".into(),
    }
}

/// [`FREE_SPACE_VARIABLE`] set to something other than a number of bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{FREE_SPACE_VARIABLE}: {0:?} is not a number of bytes")]
pub struct BadFreeSpace(pub String);

/// The bytes free to an unprivileged writer on the file system of `dir` (or of the nearest
/// folder above it that exists), if the system says; [`FREE_SPACE_VARIABLE`], when set, stands
/// for it.
pub fn free_bytes(dir: &Path) -> Result<Option<u64>, BadFreeSpace> {
    if let Some(value) = std::env::var_os(FREE_SPACE_VARIABLE) {
        let text = value.to_string_lossy();
        return match text.parse() {
            Ok(bytes) if text.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(bytes)),
            _ => Err(BadFreeSpace(text.into_owned())),
        };
    }
    Ok(system_free_bytes(dir))
}

/// [`free_bytes`] as the system tells it.
fn system_free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let mut at = dir;
    while !at.as_os_str().is_empty() && !at.is_dir() {
        at = at.parent()?;
    }
    let at = if at.as_os_str().is_empty() {
        Path::new(".")
    } else {
        at
    };
    let path = std::ffi::CString::new(at.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs is plain data, for which all zero bytes is a value.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is a NUL-terminated string and `st` a statvfs the call fills in.
    if unsafe { libc::statvfs(path.as_ptr(), &mut st) } != 0 {
        return None;
    }
    // The fields' widths differ between systems (32 bits on some).
    #[allow(clippy::useless_conversion)]
    Some(u64::from(st.f_bavail).saturating_mul(u64::from(st.f_frsize)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_hold_alone_is_refused_naming_this_process_and_a_shared_one_too() {
        let dir = tempfile_dir("alone");
        let lock = FolderLock::take(&dir).unwrap();
        let holder = fs::read_to_string(lock.path()).unwrap();
        assert!(
            holder.starts_with(&format!("{} ", std::process::id())),
            "{holder}"
        );
        for second in [FolderLock::take(&dir), FolderLock::share(&dir)] {
            match second {
                Err(LockError::Busy { holder, .. }) => {
                    assert!(
                        holder.starts_with(&format!("{} on ", std::process::id())),
                        "{holder}"
                    )
                }
                Err(e) => panic!("{e}"),
                Ok(_) => panic!("a second hold was given"),
            }
        }
        drop(lock);
        assert!(!dir.join(LOCK).exists(), "the lock file is removed");
        // Let go: taken again; two readers share it, and keep the writer out.
        let (a, b) = (
            FolderLock::share(&dir).unwrap(),
            FolderLock::share(&dir).unwrap(),
        );
        assert!(matches!(
            FolderLock::take(&dir),
            Err(LockError::Busy { .. })
        ));
        drop((a, b));
        FolderLock::take(&dir).unwrap();
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_of_the_user_s_named_so_is_not_taken() {
        let dir = tempfile_dir("user-file");
        fs::write(dir.join(LOCK), "my notes\n").unwrap();
        assert!(matches!(FolderLock::take(&dir), Err(LockError::Io { .. })));
        assert_eq!(fs::read_to_string(dir.join(LOCK)).unwrap(), "my notes\n");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A fresh folder for one test (the library's tests do not depend on `tempfile`).
    fn tempfile_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mancala-lab-disk-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }
}
