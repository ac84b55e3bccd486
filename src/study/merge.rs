//! A merge of a study's shards: their folders checked to be the slices of one job, finished and
//! whole, then their rows joined into the files one run of the whole job would have written.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::error::io;
use super::folder::{resolved, same_file, uninterrupted};
use super::job::job_difference;
use super::{
    clear_for_new_run, make_dir, only_study_files, read_manifest, save_manifest, staging_dir,
    swap_in, verify_rows, write_results, DirLock, Job, JobKind, Manifest, ReadLock, StudyError,
    GAMES, MANIFEST,
};
use crate::games_csv::header;
use crate::registry::GameKind;
use crate::stats::Summary;

/// What a merge refuses before reading a shard: a folder given twice, and `out` one of the
/// shards, inside one, or holding one.
pub fn check_merge(out: &Path, shards: &[PathBuf]) -> Result<(), StudyError> {
    if out.as_os_str() == "-" {
        return Err(StudyError::OutIsStdout(JobKind::Study));
    }
    for (i, s) in shards.iter().enumerate() {
        if let Some(twice) = shards[..i].iter().find(|t| same_file(t, s)) {
            return Err(StudyError::GivenTwice(twice.clone(), s.clone()));
        }
        if same_file(s, out) {
            return Err(StudyError::OutIsShard(out.to_path_buf()));
        }
        let (inside, outer) = (resolved(out), resolved(s));
        if inside.starts_with(&outer) {
            return Err(StudyError::OutInsideShard {
                out: out.to_path_buf(),
                shard: s.clone(),
            });
        }
        if outer.starts_with(&inside) {
            return Err(StudyError::ShardInsideOut {
                shard: s.clone(),
                out: out.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// What a merge of shards gives: the summary of all their games, and the commits of the builds
/// that played them.
pub struct Merged {
    /// The summary of every game.
    pub summary: Summary,
    /// The job of the shards, as one (the first shard's, without its shard).
    pub job: Job,
    /// The commits of the builds that played the shards.
    pub commits: BTreeSet<String>,
}

/// Merges the checked shards ([`check_merge`]) into `out`: the files one run of the whole job
/// would have written, its manifest recording `command`. `None` when `interrupt` stopped it,
/// with nothing written to `out`.
pub fn merge_shards(
    out: &Path,
    force: bool,
    shards: &[PathBuf],
    command: &[String],
    interrupt: &AtomicBool,
) -> Result<Option<Merged>, StudyError> {
    let stopped = || interrupt.load(Ordering::SeqCst);
    // Held until the merge is done: no job writes a shard while it is read.
    let _reading = shards
        .iter()
        .map(|s| ReadLock::take(s))
        .collect::<Result<Vec<_>, _>>()?;
    let mut parts: Vec<Manifest> = Vec::new();
    for s in shards {
        if s.join("match.json").symlink_metadata().is_ok() {
            return Err(StudyError::ShardIsMatch(s.clone()));
        }
        parts.push(read_manifest(s)?);
    }
    // In game order whatever order they are given in; an empty shard before the shard that
    // starts at the same game.
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| (parts[i].first_game, parts[i].end_game));
    let base = parts[order[0]].clone();
    let same_job = |m: &Manifest| Job {
        shard: None,
        ..m.job.clone()
    };
    let mut expected = 0;
    for &i in &order {
        let m = &parts[i];
        if let Some(difference) = job_difference(&same_job(m), &same_job(&base)) {
            return Err(StudyError::OtherJob {
                manifest: shards[i].join(MANIFEST),
                difference,
                base: shards[order[0]].join(MANIFEST),
            });
        }
        if m.first_game != expected {
            return Err(StudyError::ShardGap {
                shard: shards[i].clone(),
                games: (m.first_game, m.end_game),
                expected,
            });
        }
        if m.games_done != m.end_game - m.first_game {
            return Err(StudyError::ShardUnfinished {
                shard: shards[i].clone(),
                done: m.games_done,
                total: m.end_game - m.first_game,
            });
        }
        expected = m.end_game;
    }
    if expected != base.job.games {
        return Err(StudyError::ShardsShort {
            end: expected,
            games: base.job.games,
        });
    }
    // Every shard's rows are checked before `out` is touched: a bad shard never costs a study.
    let check_stop = |_: &[u8]| {
        if stopped() {
            return Err(StudyError::Io {
                path: out.to_path_buf(),
                source: std::io::ErrorKind::Interrupted.into(),
            });
        }
        Ok(())
    };
    for &i in &order {
        let v = verify_rows(&shards[i], &parts[i], check_stop);
        if stopped() {
            return Ok(None);
        }
        let v = v?;
        if v.extra > 0 {
            return Err(StudyError::ShardExtra {
                shard: shards[i].clone(),
                extra: v.extra,
                rows: parts[i].games_done,
            });
        }
    }
    let commits = parts.iter().map(|m| m.commit.clone()).collect();
    let created = out.symlink_metadata().is_err();
    make_dir(out)?;
    let lock = DirLock::take(out)?;
    // Without `force` a study there is refused now; with it, it is replaced only once the
    // merged rows are whole, so that a failed or stopped merge keeps it.
    if !force {
        clear_for_new_run(out, false, false)?;
    } else {
        only_study_files(out)?;
    }
    // The merged study is made in a folder of its own inside `out`, removed if the merge fails
    // or is stopped, and swapped in whole.
    let staging = staging_dir(out)?;
    let games = staging.path().join(GAMES);
    let made = File::create(&games)
        .map_err(io(&games))
        .and_then(|_| write_merged(&games, shards, &parts, &order, &base, interrupt))
        .and_then(|rows| {
            let merged = Manifest {
                command: command.to_vec(),
                job: Job {
                    shard: None,
                    ..base.job.clone()
                },
                first_game: 0,
                end_game: base.job.games,
                games_done: base.job.games,
                rows_bytes: rows.bytes,
                rows_crc32: rows.crc32,
                clause_events: rows.events,
                ..base.clone()
            };
            write_results(staging.path(), &merged, &rows.summary)
                .and_then(|()| save_manifest(staging.path(), &merged))?;
            Ok(rows.summary)
        });
    let summary = match made {
        Ok(summary) => summary,
        Err(e) => {
            drop(staging);
            if created {
                // The folder this merge made goes with it: nothing is left of the merge.
                drop(lock);
                let _ = fs::remove_dir(out);
            }
            return if stopped() { Ok(None) } else { Err(e) };
        }
    };
    // From here on the merge is finished whatever a signal says: the new study takes the old
    // one's place, all files or none.
    uninterrupted(|| {
        swap_in(
            out,
            staging.path(),
            &[GAMES, "clauses.csv", "summary.csv", MANIFEST],
        )
    })
    .map_err(|e| StudyError::NothingMerged {
        source: Box::new(e),
        out: out.to_path_buf(),
    })?;
    Ok(Some(Merged {
        summary,
        job: Job {
            shard: None,
            ..base.job.clone()
        },
        commits,
    }))
}

/// The merged rows as written: their summary, byte count, CRC-32 and clause events.
struct MergedRows {
    summary: Summary,
    bytes: u64,
    crc32: u32,
    events: BTreeMap<String, u64>,
}

/// Writes the merged rows of the checked shards (`order`: by first game) to `tmp`, checking
/// each shard's rows again as they are copied; stopped by `interrupt`.
fn write_merged(
    tmp: &Path,
    shards: &[PathBuf],
    parts: &[Manifest],
    order: &[usize],
    base: &Manifest,
    interrupt: &AtomicBool,
) -> Result<MergedRows, StudyError> {
    let game = base.job.game.parse::<GameKind>()?;
    let mut w = BufWriter::with_capacity(
        1 << 20,
        OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(tmp)
            .map_err(io(tmp))?,
    );
    w.write_all(header(game).as_bytes()).map_err(io(tmp))?;
    let (mut summary, mut hasher, mut bytes) = (Summary::default(), crc32fast::Hasher::new(), 0u64);
    let mut events: BTreeMap<String, u64> = BTreeMap::new();
    for &i in order {
        let v = verify_rows(&shards[i], &parts[i], |row| {
            if interrupt.load(Ordering::Relaxed) {
                return Err(StudyError::Io {
                    path: tmp.to_path_buf(),
                    source: std::io::ErrorKind::Interrupted.into(),
                });
            }
            hasher.update(row);
            bytes += row.len() as u64;
            w.write_all(row).map_err(io(tmp))
        })?;
        summary.merge(&v.summary);
        for (c, n) in &parts[i].clause_events {
            let count = events.entry(c.clone()).or_default();
            *count = count
                .checked_add(*n)
                .ok_or_else(|| StudyError::CountOverflow {
                    manifest: shards[i].join(MANIFEST),
                    clause: c.clone(),
                    merged: true,
                })?;
        }
    }
    w.flush().map_err(io(tmp))?;
    w.get_ref().sync_all().map_err(io(tmp))?;
    Ok(MergedRows {
        summary,
        bytes,
        crc32: hasher.finalize(),
        events,
    })
}
