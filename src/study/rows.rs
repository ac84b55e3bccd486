//! The rows of a study's games.csv checked against its manifest: what resuming and merging rely
//! on before they use a row.

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::error::{io, RowError};
use super::{Manifest, StudyError, GAMES};
use crate::games_csv::{columns, header};
use crate::registry::GameKind;
use crate::stats::Summary;

/// The longest line a games.csv row may have (real rows have under 200 bytes).
pub const MAX_ROW: usize = 64 << 10;

/// Reads the next line into `buf`, at most [`MAX_ROW`] bytes; `Ok(false)` when it is longer.
fn read_row<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    buf.clear();
    Read::take(&mut *reader, MAX_ROW as u64 + 1).read_until(b'\n', buf)?;
    Ok(buf.len() <= MAX_ROW)
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
