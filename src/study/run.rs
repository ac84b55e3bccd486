//! A study run: its job checked, its folder locked and opened (new, or resumed from its
//! manifest), its games played in order on every thread, and its result files written.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::error::io;
use super::job::CheckedJob;
use super::{
    clear_for_new_run, make_dir, read_manifest, save_manifest, verify_rows, write_results, DirLock,
    Field, Job, Manifest, Request, StudyError, GAMES, MANIFEST,
};
use crate::game::EventTotals;
use crate::games_csv::{header, RowWriter};
use crate::playout::{EngineKind, Play, PlayoutEngine};
use crate::policy::{Players, Policy};
use crate::stats::Summary;

/// What a run tells its front end as it goes, in this order: notes before the games, the games'
/// start, their progress and their end. A front end that shows nothing ignores it all.
pub trait Progress {
    /// Something the user should know (see [`Note`]).
    fn note(&mut self, _note: Note<'_>) {}
    /// The games begin: `done` of the `total` this folder plays are already played.
    fn begin(&mut self, _total: u64, _done: u64, _job: &CheckedJob) {}
    /// `done` of the folder's games are played and counted.
    fn advance(&mut self, _done: u64) {}
    /// The games end (all played, or stopped): `played` by this run.
    fn end(&mut self, _played: u64, _job: &CheckedJob) {}
}

/// A front end that shows nothing.
impl Progress for () {}

/// What a run notes before its games.
#[derive(Clone, Copy, Debug)]
pub enum Note<'a> {
    /// A long job (a minute, or a gigabyte): its games, its files' bytes, its seconds on its
    /// threads, estimated from its first games played and dropped.
    Estimate {
        /// The games left.
        games: u64,
        /// The bytes its files will take.
        bytes: f64,
        /// The seconds it will take.
        secs: f64,
        /// Its threads.
        threads: usize,
    },
    /// A resumed study started by another build: this one plays the rest.
    OtherCommit {
        /// The study's folder.
        out: &'a Path,
        /// The commit that started it.
        started: &'a str,
        /// This build's.
        this: &'a str,
    },
}

/// How a run ended.
pub enum Outcome {
    /// Every game played: the summary and manifest as written under the lock (once the lock is
    /// let go, another job may already be replacing the folder's files).
    Finished(Box<(Summary, Manifest)>),
    /// Stopped by the interrupt: `done` of `total` games counted, their rows whole on disk.
    Stopped {
        /// The games counted.
        done: u64,
        /// The folder's games.
        total: u64,
    },
}

/// The commit the library was built from (build.rs), `-dirty` if the tree had changes.
pub fn commit() -> String {
    env!("MANCALA_LAB_COMMIT").to_string()
}

/// Runs (or resumes) the study `r` asks for; `interrupt` stops it between games, the rows
/// played kept whole and counted.
pub fn run(
    r: &Request,
    interrupt: &'static AtomicBool,
    progress: &mut dyn Progress,
) -> Result<Outcome, StudyError> {
    // The whole job is checked before the folder is touched: a bad option never costs a study.
    let checked = r.check()?;
    if !r.resume {
        check_size(r, &checked, checked.first, interrupt, progress)?;
    }
    make_dir(&r.out)?;
    let _lock = DirLock::take(&r.out)?;
    let (mut manifest, mut summary, hasher) = open_study(r, &checked, progress)?;
    let (first, end) = (checked.first, checked.end);
    if r.resume {
        // What is left of a resumed job, its rows on disk kept whatever this says.
        check_size(
            r,
            &checked,
            first + manifest.games_done,
            interrupt,
            progress,
        )?;
    }
    let total = end - first;
    let before = manifest.games_done;
    progress.begin(total, before, &checked);
    let played = play_rows(
        r,
        &checked,
        (&mut manifest, &mut summary, hasher),
        interrupt,
        progress,
    );
    played?;
    progress.end(manifest.games_done - before, &checked);
    if manifest.games_done < total {
        return Ok(Outcome::Stopped {
            done: manifest.games_done,
            total,
        });
    }
    write_results(&r.out, &manifest, &summary)?;
    Ok(Outcome::Finished(Box::new((summary, manifest))))
}

/// A manifest a resumed run can go on from: the job it records and the clause events of the
/// game (its range `read_manifest` checked).
fn check_resumable(
    old: &Manifest,
    job: &Job,
    counted: &[&str],
    path: &Path,
) -> Result<(), StudyError> {
    if &old.job != job {
        return Err(StudyError::ManifestChanged(path.to_path_buf()).of(Field::Resume));
    }
    let names: Vec<&str> = old.clause_events.keys().map(String::as_str).collect();
    let mut want: Vec<&str> = counted.to_vec();
    want.sort_unstable();
    if names != want {
        return Err(StudyError::ClauseEvents {
            path: path.to_path_buf(),
            named: names.len(),
            counted: want.len(),
            game: job.game.clone(),
        }
        .of(Field::Resume));
    }
    Ok(())
}

/// One chunk of games played and written as CSV text.
pub(crate) struct Chunk {
    pub(crate) text: String,
    rows: u64,
    summary: Summary,
    /// The events every engine of the game reports.
    events: EventTotals,
}

/// Games per unit of work: enough to keep the writer cheap, few enough to keep progress smooth.
fn chunk_size(engine: &dyn PlayoutEngine, players: Players) -> u64 {
    let random = players == Players::both(Policy::Random);
    let search = [players.south, players.north].contains(&Policy::Search);
    match engine.engine_kind() {
        _ if players.searches() => 1,
        EngineKind::Reference => 4,
        _ if search => 16,
        _ if random && engine.batches_random_play() => 65_536,
        _ => 1024,
    }
}

/// The rows of `games`; `None` when the interrupt stopped a game under way (a chunk is kept
/// whole or not at all); an error when a player cannot play.
pub(crate) fn play_chunk(
    c: &CheckedJob,
    games: std::ops::Range<u64>,
    stop: &'static AtomicBool,
) -> Result<Option<Chunk>, StudyError> {
    let engine = &*c.engine;
    let mut chunk = Chunk {
        text: String::with_capacity((games.end - games.start) as usize * 48),
        rows: 0,
        summary: Summary::default(),
        events: EventTotals::new(engine.counted_events()),
    };
    let run = (c.job.seed, games);
    let play = Play {
        players: c.policy,
        opening: c.job.opening,
        max_plies: c.job.max_plies,
    };
    let writer = RowWriter::new(c.game, &c.job.variant, c.policy);
    let mut end_clause = String::new();
    let whole = engine.play_until(play, run, stop, |row, events| {
        writer.write(&row, &mut chunk.text);
        end_clause.clear();
        end_clause.extend(row.end_clause_parts());
        let _ = chunk
            .summary
            .add(row.winner(), &end_clause, row.plies, Some(row.moves_hash));
        // Every clause the reference engines trace is counted (tests/game.rs).
        chunk.events.merge(&events);
        chunk.rows += 1;
    });
    Ok(whole.map_err(StudyError::Play)?.then_some(chunk))
}

/// Bytes of a study's files beside games.csv (manifest, clauses.csv, summary.csv), at most.
const OTHER_FILES_BYTES: u64 = 64 << 10;

/// The estimate of a job: the bytes its games.csv rows take and the seconds its games take on
/// its threads, from a pilot of its first games played (and dropped) for about a quarter of a
/// second; `None` for searching policies (a pilot game may take as long as the job's start) or
/// a pilot stopped by the interrupt.
fn estimate(c: &CheckedJob, start: u64, interrupt: &'static AtomicBool) -> Option<(f64, f64)> {
    if c.policy.searches() || start >= c.end {
        return None;
    }
    let left = c.end - start;
    let began = Instant::now();
    let (mut played, mut bytes, mut size) = (0u64, 0u64, 1u64);
    while played < left && played < 4096 && began.elapsed() < Duration::from_millis(250) {
        let k = size.min(left - played);
        let from = start + played;
        // A player that cannot play makes no estimate: the job's first chunk says why.
        let chunk = play_chunk(c, from..from + k, interrupt).ok()??;
        bytes += chunk.text.len() as u64;
        played += k;
        size *= 2;
    }
    // A row's bytes but for its game index, whose digits grow along the job.
    let per_game = (bytes as f64 - digits(start, start + played)) / played as f64;
    // One thread played the pilot; the job's threads share the games.
    let rate = played as f64 / began.elapsed().as_secs_f64().max(1e-9) * c.threads as f64;
    Some((
        per_game * left as f64 + digits(start, c.end),
        left as f64 / rate,
    ))
}

/// The decimal digits of the numbers `from..to`, all told.
fn digits(from: u64, to: u64) -> f64 {
    let mut total = 0.0;
    let mut low = 0u64;
    for width in 1..=20u32 {
        let high = 10u64.checked_pow(width).unwrap_or(u64::MAX);
        let (a, b) = (from.max(low), to.min(high));
        if a < b {
            total += (b - a) as f64 * f64::from(width);
        }
        low = high;
    }
    total
}

/// A byte count as a person reads it (`12.3 GB`).
pub fn bytes_text(n: f64) -> String {
    let units = ["bytes", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
    let mut v = n;
    let mut unit = 0;
    while v >= 1000.0 && unit + 1 < units.len() {
        v /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n:.0} bytes")
    } else {
        format!("{v:.1} {}", units[unit])
    }
}

/// Notes, before a long job (a minute or a gigabyte) starts, what it will write and how long it
/// will take, from its games `start..`; refuses one whose files would not fit the free space
/// where its folder is (unless asked not to check). A job asked for no estimate is not checked.
fn check_size(
    r: &Request,
    c: &CheckedJob,
    start: u64,
    interrupt: &'static AtomicBool,
    progress: &mut dyn Progress,
) -> Result<(), StudyError> {
    if r.no_estimate {
        return Ok(());
    }
    let Some((rows, secs)) = estimate(c, start, interrupt) else {
        return Ok(());
    };
    let bytes = rows + OTHER_FILES_BYTES as f64;
    if secs >= 60.0 || bytes >= 1e9 {
        progress.note(Note::Estimate {
            games: c.end - start,
            bytes,
            secs,
            threads: c.threads,
        });
    }
    if r.no_space_check {
        return Ok(());
    }
    match crate::disk::free_bytes(&r.out).map_err(|e| StudyError::FreeSpace(e.to_string()))? {
        Some(free) if bytes > free as f64 => Err(StudyError::NoSpace {
            out: r.out.clone(),
            need: bytes_text(bytes),
            free: bytes_text(free as f64),
        }),
        _ => Ok(()),
    }
}

/// Under the folder's lock: a new study's empty games.csv, or a resumed one's rows checked
/// against its manifest (rows written after the last save dropped, to be played again); the
/// manifest, saved before the first game so that a job stopped at any point can be resumed, and
/// the summary and CRC-32 state of the rows kept.
fn open_study(
    r: &Request,
    c: &CheckedJob,
    progress: &mut dyn Progress,
) -> Result<(Manifest, Summary, crc32fast::Hasher), StudyError> {
    let games_path = r.out.join(GAMES);
    let old = if r.resume {
        // Read again under the lock: what the job resumes from.
        let old = read_manifest(&r.out).map_err(|e| e.of(Field::Resume))?;
        let counted = c.engine.counted_events();
        check_resumable(&old, &c.job, counted, &r.out.join(MANIFEST))?;
        Some(old)
    } else {
        clear_for_new_run(&r.out, r.force, true)?;
        None
    };
    let mut manifest = Manifest {
        command: r.command.clone(),
        version: env!("CARGO_PKG_VERSION").into(),
        commit: commit(),
        job: c.job.clone(),
        first_game: c.first,
        end_game: c.end,
        threads: c.threads,
        games_done: 0,
        rows_bytes: 0,
        rows_crc32: 0,
        clause_events: c
            .engine
            .counted_events()
            .iter()
            .map(|c| (c.to_string(), 0))
            .collect(),
        manifest_crc32: None,
    };
    let (mut summary, mut hasher) = (Summary::default(), crc32fast::Hasher::new());
    if let Some(old) = old {
        if (old.first_game, old.end_game) != (c.first, c.end) {
            return Err(StudyError::Covers {
                manifest: r.out.join(MANIFEST),
                recorded: (old.first_game, old.end_game),
                job: (c.first, c.end),
            }
            .of(Field::Resume));
        }
        let v = verify_rows(&r.out, &old, |_| Ok(())).map_err(|e| e.of(Field::Resume))?;
        if old.commit != manifest.commit {
            // Allowed (a fix elsewhere in the code changes no game), but never silent.
            progress.note(Note::OtherCommit {
                out: &r.out,
                started: &old.commit,
                this: &manifest.commit,
            });
        }
        if v.extra > 0 {
            let f = OpenOptions::new()
                .write(true)
                .open(&games_path)
                .map_err(io(&games_path))?;
            f.set_len(v.end).map_err(io(&games_path))?;
        }
        (summary, hasher) = (v.summary, v.hasher);
        manifest.games_done = old.games_done;
        manifest.rows_bytes = old.rows_bytes;
        manifest.rows_crc32 = old.rows_crc32;
        manifest.clause_events = old.clause_events;
        // The command that started the study stays: a resume only finishes it.
        manifest.command = old.command;
    } else {
        fs::write(&games_path, header(c.game)).map_err(io(&games_path))?;
    }
    save_manifest(&r.out, &manifest)?;
    Ok((manifest, summary, hasher))
}

/// Plays the games the manifest does not count yet, in chunks on every thread, appending their
/// rows in game order and then the manifest that counts them (every second): an interruption in
/// between leaves rows that a resumed run drops and plays again.
fn play_rows(
    r: &Request,
    c: &CheckedJob,
    (manifest, summary, mut hasher): (&mut Manifest, &mut Summary, crc32fast::Hasher),
    interrupt: &'static AtomicBool,
    progress: &mut dyn Progress,
) -> Result<(), StudyError> {
    let games_path = r.out.join(GAMES);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(c.threads)
        .build()
        .map_err(|e| StudyError::Threads(e.to_string()))?;
    let file = OpenOptions::new()
        .append(true)
        .open(&games_path)
        .map_err(io(&games_path))?;
    let mut file = BufWriter::with_capacity(1 << 20, file);
    let start = c.first + manifest.games_done;
    let size = chunk_size(&*c.engine, c.policy);
    let chunks = (c.end - start).div_ceil(size);
    let mut saved_at = Instant::now();
    let mut failed: Option<StudyError> = None;
    let save = |file: &mut BufWriter<File>, m: &Manifest| -> Result<(), StudyError> {
        file.flush().map_err(io(&games_path))?;
        save_manifest(&r.out, m)
    };
    super::pipeline::in_order(
        &pool,
        0..chunks,
        interrupt,
        |k| {
            let range = super::pipeline::chunk(start..c.end, size, k);
            play_chunk(c, range, interrupt)
        },
        |_, chunk| {
            // A chunk stopped under way is played again when the run is resumed.
            let chunk = match chunk {
                Ok(Some(chunk)) => chunk,
                Ok(None) => return false,
                Err(e) => {
                    failed = Some(e);
                    return false;
                }
            };
            if let Err(e) = file.write_all(chunk.text.as_bytes()) {
                failed = Some(io(&games_path)(e));
                return false;
            }
            hasher.update(chunk.text.as_bytes());
            manifest.rows_bytes += chunk.text.len() as u64;
            manifest.rows_crc32 = hasher.clone().finalize();
            manifest.games_done += chunk.rows;
            summary.merge(&chunk.summary);
            for (clause, n) in chunk.events.iter() {
                let count = manifest
                    .clause_events
                    .entry(clause.to_string())
                    .or_default();
                // Only a forged manifest holds a count this close to the limit.
                let Some(sum) = count.checked_add(n) else {
                    failed = Some(StudyError::CountOverflow {
                        manifest: r.out.join(MANIFEST),
                        clause: clause.to_string(),
                        merged: false,
                    });
                    return false;
                };
                *count = sum;
            }
            progress.advance(manifest.games_done);
            if saved_at.elapsed() >= Duration::from_secs(1) {
                if let Err(e) = save(&mut file, manifest) {
                    failed = Some(e);
                    return false;
                }
                saved_at = Instant::now();
            }
            true
        },
    );
    save(&mut file, manifest)?;
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
