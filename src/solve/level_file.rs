//! A level on disk: one header line naming game, reading, board, seed count, format version and a
//! checksum, then one byte per board in rank order; written atomically (a temporary file of its
//! own, renamed). A build holds its folder's lock ([`lock`]) while it writes.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::disk::{FolderLock, LockError};
use crate::text::shown_path;

/// The format version written in headers; a file of another version is refused.
pub const FORMAT: u32 = 1;

/// The first word of every level file.
const MAGIC: &str = "mancala-lab-level";

/// A level file that cannot be read or written, naming the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// The file system refused.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The header is not a level's, or names another game, reading, board or level.
    #[error("{path}: {message}")]
    Header {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The values do not match the header's count or checksum.
    #[error("{path}: {message} (the file is damaged; delete it to build the level again)")]
    Damaged {
        /// The file.
        path: String,
        /// What does not match.
        message: String,
    },
    /// Another process holds the folder's lock: it is building levels there.
    #[error("{folder} is being built by another process (lock {lock}, process {holder})")]
    Locked {
        /// The folder.
        folder: String,
        /// Its lock file.
        lock: String,
        /// The process id and host the lock names.
        holder: String,
    },
}

/// What a level file is about: every field of its header but the checksum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// `oware` or `kalah`.
    pub game: String,
    /// The reading as far as it changes values.
    pub reading: String,
    /// Pits on the board.
    pub pits: usize,
    /// Seeds on every board of the level.
    pub seeds: u32,
    /// Boards in the level.
    pub positions: u64,
}

impl Header {
    /// The bytes of the level's file: the header line and a byte a board.
    pub fn file_bytes(&self) -> u64 {
        self.line(0).len() as u64 + self.positions
    }

    fn line(&self, crc: u32) -> String {
        format!(
            "{MAGIC} format={FORMAT} game={} reading={} pits={} seeds={} positions={} crc32={crc:08x}\n",
            self.game, self.reading, self.pits, self.seeds, self.positions
        )
    }
}

/// The folder of a game's levels under one reading, inside `root`.
pub fn folder(root: &Path, game: &str, reading: &str) -> PathBuf {
    let name: String = reading
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    root.join(format!("{game}_{name}"))
}

/// The file of level `seeds` in `folder`.
pub fn path(folder: &Path, seeds: u32) -> PathBuf {
    folder.join(format!("level-{seeds:02}.bin"))
}

fn io(path: &Path, e: std::io::Error) -> LevelError {
    LevelError::Io {
        path: shown_path(path),
        message: e.to_string(),
    }
}

/// Temporary files written so far by this process, for their names.
static TEMPORARIES: AtomicU64 = AtomicU64::new(0);

/// The name of a level's temporary file begins so (then its level, the process and a count)...
const PARTIAL_PREFIX: &str = ".level-";
/// ... and ends so.
const PARTIAL_SUFFIX: &str = ".partial";

/// Writes a level to its file in `folder` (made if missing) through a temporary file renamed
/// into place, so the file is whole or absent whatever stops the program. The temporary file's
/// name is this write's own (the level, the process and a count), so that two writers never
/// share one; a write that fails removes it.
pub fn write(folder: &Path, header: &Header, values: &[i8]) -> Result<PathBuf, LevelError> {
    std::fs::create_dir_all(folder).map_err(|e| io(folder, e))?;
    let target = path(folder, header.seeds);
    let temporary = folder.join(format!(
        "{PARTIAL_PREFIX}{:02}.{}-{}{PARTIAL_SUFFIX}",
        header.seeds,
        std::process::id(),
        TEMPORARIES.fetch_add(1, Ordering::Relaxed)
    ));
    let bytes: &[u8] = bytemuck_i8(values);
    let crc = crc32fast::hash(bytes);
    let write = || -> std::io::Result<()> {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&temporary)?);
        file.write_all(header.line(crc).as_bytes())?;
        file.write_all(bytes)?;
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temporary, &target)
    };
    write().map_err(|e| {
        // Whatever failed (a full disk, a file or folder in the way), nothing is left behind.
        let _ = std::fs::remove_file(&temporary);
        io(&temporary, e)
    })?;
    Ok(target)
}

/// A build's hold on its folder: no other build writes there meanwhile. Let go when dropped.
pub struct BuildLock {
    /// The folder's lock.
    _lock: FolderLock,
}

/// Makes `folder` if missing and takes its lock ([`crate::disk::FolderLock`]), or names the
/// process that holds it; then removes the temporary files a build stopped part way left there
/// (a killed build's: under the lock no other build is writing one).
pub fn lock(folder: &Path) -> Result<BuildLock, LevelError> {
    std::fs::create_dir_all(folder).map_err(|e| io(folder, e))?;
    let lock = FolderLock::take(folder).map_err(|e| match e {
        LockError::Busy { dir, lock, holder } => LevelError::Locked {
            folder: shown_path(dir),
            lock: shown_path(lock),
            holder,
        },
        LockError::Io { path, source } => io(&path, source),
        LockError::NotTaken(path) => LevelError::Io {
            path: shown_path(path),
            message: "could not take the lock".to_string(),
        },
    })?;
    for entry in std::fs::read_dir(folder).map_err(|e| io(folder, e))? {
        let entry = entry.map_err(|e| io(folder, e))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(PARTIAL_PREFIX)
            && name.ends_with(PARTIAL_SUFFIX)
            && entry.file_type().is_ok_and(|t| t.is_file())
        {
            std::fs::remove_file(entry.path()).map_err(|e| io(&entry.path(), e))?;
        }
    }
    Ok(BuildLock { _lock: lock })
}

/// The values as bytes.
fn bytemuck_i8(values: &[i8]) -> &[u8] {
    // SAFETY: i8 and u8 have the same size and alignment, and every bit pattern is valid for both.
    unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), values.len()) }
}

/// Reads level `want.seeds` from `folder`: `None` if its file is absent, an error if it is not
/// the level `want` describes or is damaged.
pub fn read(folder: &Path, want: &Header) -> Result<Option<Vec<i8>>, LevelError> {
    let target = path(folder, want.seeds);
    let file = match std::fs::File::open(&target) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(&target, e)),
    };
    let shown = shown_path(&target);
    let mut reader = std::io::BufReader::new(file);
    let mut line = Vec::new();
    // A header is short; a file that has none within 1 KiB is not a level.
    (&mut reader)
        .take(1024)
        .read_until(b'\n', &mut line)
        .map_err(|e| io(&target, e))?;
    let header_error = |message: String| LevelError::Header {
        path: shown.clone(),
        message,
    };
    let text = std::str::from_utf8(&line)
        .ok()
        .and_then(|t| t.strip_suffix('\n'))
        .ok_or_else(|| header_error("no level header on the first line".to_string()))?;
    let mut words = text.split(' ');
    if words.next() != Some(MAGIC) {
        return Err(header_error(format!("not a level file (no {MAGIC:?})")));
    }
    let mut crc = None;
    let expected = want.line(0);
    let mut fields = expected.trim_end().split(' ').skip(1);
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(header_error(format!(
                "header word {word:?} is not NAME=VALUE"
            )));
        };
        if key == "crc32" {
            crc = u32::from_str_radix(value, 16).ok();
            continue;
        }
        let Some(wanted) = fields.next() else {
            return Err(header_error(format!("unexpected header field {key:?}")));
        };
        if word != wanted {
            return Err(header_error(format!(
                "header says {word}, the game and reading asked for need {wanted}"
            )));
        }
    }
    if let Some(missing) = fields.find(|f| !f.starts_with("crc32=")) {
        return Err(header_error(format!("header lacks {missing}")));
    }
    let Some(crc) = crc else {
        return Err(header_error("header lacks crc32".to_string()));
    };
    let mut bytes = super::huge::with_capacity(want.positions as usize);
    (&mut reader)
        .take(want.positions + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(&target, e))?;
    if bytes.len() as u64 != want.positions {
        return Err(LevelError::Damaged {
            path: shown,
            message: format!(
                "{} value bytes where the header names {} positions",
                bytes.len(),
                want.positions
            ),
        });
    }
    if crc32fast::hash(&bytes) != crc {
        return Err(LevelError::Damaged {
            path: shown,
            message: "checksum does not match the values".to_string(),
        });
    }
    Ok(Some(bytes.into_iter().map(|b| b as i8).collect()))
}

/// The levels 0, 1, ... of `retro` found in `folder`, up to `most` seeds: they stop at the first
/// absent file; a damaged file, or one of another reading, is an error.
pub fn load(
    retro: &dyn super::Retro,
    folder: &Path,
    most: u32,
) -> Result<super::Database, LevelError> {
    let mut db = super::Database::new(retro.pits(), most);
    while db.levels() <= most {
        let seeds = db.levels();
        let want = Header {
            game: retro.game().to_string(),
            reading: retro.reading(),
            pits: retro.pits(),
            seeds,
            positions: db.ranks().count(seeds),
        };
        match read(folder, &want)? {
            Some(values) => db.push(values),
            None => break,
        }
    }
    Ok(db)
}
