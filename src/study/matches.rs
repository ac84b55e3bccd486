//! A match: a round robin between policies, each pairing a study of its own (resumable), both
//! sides swapped on the same draws; its games and Bradley-Terry ratings as CSV, and its merge.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use super::folder::{match_of_pairing, uninterrupted};
use super::job::MAX_THREADS;
use super::{
    canonical_shard, is_study_file, is_temporary_of, make_dir, manifest_text, merge_shards,
    read_manifest, replace_file, run, shard_range, staging_dir, starts_with_header, swap_in,
    verify_rows, write_atomic, DirLock, JobKind, Keep, Manifest, Outcome, Progress, ReadLock,
    Request, StudyError, MANIFEST,
};
use crate::playout::{EngineKind, DEFAULT_MAX_PLIES};
use crate::policy::{Players, Policy};
use crate::ratings::{bradley_terry, DRAW};
use crate::registry::GameKind;
use crate::text::{csv_field, csv_fields, quoted};

/// The match's own file: what it plays, so that a resumed match goes on with the same.
pub const MATCH: &str = "match.json";
/// The folder of the pairings' studies.
pub const PAIRS: &str = "pairs";
/// The most players of a match (each pair plays both ways: 2 * 31 * 32 / 2 = 992 jobs).
pub const MAX_PLAYERS: usize = 32;
/// The first line of a match's games.csv.
const GAMES_HEADER: &str = "south,north,game,plies,winner,end_clause";
/// The first line of ratings.csv.
const RATINGS_HEADER: &str = "player,policy,games,wins,draws,losses,score,elo,elo_low,elo_high";

/// Whether `n` is 0 (for serde's `skip_serializing_if`).
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Whether `n` is 0 (for serde's `skip_serializing_if`).
fn is_zero_threads(n: &usize) -> bool {
    *n == 0
}

/// A match as match.json records it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Match {
    /// The game.
    pub game: String,
    /// The reading.
    pub variant: String,
    /// The players' canonical policy texts, in the order given.
    pub players: Vec<String>,
    /// Games of each pairing each way.
    pub games: u64,
    /// The master seed.
    pub seed: u64,
    /// The ply limit.
    pub max_plies: u32,
    /// Random plies opening every game (0: none; not written then).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening: u32,
    /// The slice of every pairing's games this folder plays (`K/N`); none for a whole match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The version of the build that started it.
    pub version: String,
    /// The command line that started the match, as Bash words: what its pairings' manifests
    /// record, also for those a resumed run starts (none in a merged match, or an older one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// The worker threads of the run that started the match, which its pairings record and a
    /// resumed run without threads of its own uses (0: not recorded, as in a merged match).
    #[serde(default, skip_serializing_if = "is_zero_threads")]
    pub threads: usize,
}

/// A match asked for (whole, or one shard), or one to resume.
#[derive(Clone, Debug, Default)]
pub struct MatchRequest {
    /// The game [default: bao].
    pub game: Option<GameKind>,
    /// The reading [default: the game's].
    pub variant: Option<String>,
    /// The players: two or more policies.
    pub players: Vec<Policy>,
    /// Games of each pairing each way [default: 100].
    pub games: Option<u64>,
    /// Master seed [default: 1].
    pub seed: Option<u64>,
    /// The ply limit [default: 2000].
    pub max_plies: Option<u32>,
    /// Random plies opening every game [default: 0].
    pub opening: Option<u32>,
    /// The slice `K/N` of every pairing's games.
    pub shard: Option<String>,
    /// The match's folder.
    pub out: PathBuf,
    /// Worker threads [default: those of the run resumed, else all cores].
    pub threads: Option<u16>,
    /// Continue the match in `out`, as its match.json records it.
    pub resume: bool,
    /// Replace a match in `out`.
    pub force: bool,
    /// The command that starts the match, recorded by it and its pairings.
    pub command: Vec<String>,
}

impl MatchRequest {
    /// The match the request describes, checked: two or more distinct players, a reading.
    pub fn new_match(&self) -> Result<Match, StudyError> {
        let game = self.game.unwrap_or_default();
        let players: Vec<String> = self.players.iter().map(ToString::to_string).collect();
        if players.len() < 2 {
            return Err(StudyError::TooFewPlayers);
        }
        if players.len() > MAX_PLAYERS {
            return Err(StudyError::TooManyPlayers(MAX_PLAYERS));
        }
        for (i, p) in players.iter().enumerate() {
            if players[..i].contains(p) {
                return Err(StudyError::PlayerTwice(p.clone()));
            }
        }
        let variant =
            game.canonical_variant(self.variant.as_deref().unwrap_or(game.default_variant()));
        if self.max_plies == Some(0) {
            return Err(StudyError::NoPlies);
        }
        if self.games == Some(0) {
            return Err(StudyError::NoGames);
        }
        let m = Match {
            game: game.name().into(),
            variant,
            players,
            games: self.games.unwrap_or(100),
            seed: self.seed.unwrap_or(1),
            max_plies: self.max_plies.unwrap_or(DEFAULT_MAX_PLIES),
            opening: self.opening.unwrap_or(0),
            shard: self.shard.as_deref().map(canonical_shard).transpose()?,
            version: env!("CARGO_PKG_VERSION").into(),
            command: self.command.clone(),
            threads: self
                .threads
                .map_or_else(rayon::current_num_threads, usize::from),
        };
        if m.opening >= m.max_plies {
            return Err(StudyError::OpeningTooLong {
                opening: m.opening,
                max_plies: m.max_plies,
            });
        }
        // The reading is checked by the first pairing's job before anything is played; checked
        // here too, so that a check alone and a new folder see it first.
        let engines = [EngineKind::Optimized, EngineKind::Reference]
            .map(|k| crate::registry::engine(game, &m.variant, k));
        if let [Err(e), Err(_)] = engines {
            return Err(StudyError::Variant {
                variant: m.variant.clone(),
                why: e.to_string(),
            });
        }
        // A perfect player's databases, before any pairing plays.
        if let Some(&perfect) = self
            .players
            .iter()
            .find(|p| matches!(p, Policy::Perfect(_)))
        {
            if let Some(Ok(engine)) = engines.iter().find(|e| e.is_ok()) {
                engine.prepare(perfect.into()).map_err(StudyError::Play)?;
            }
        }
        Ok(m)
    }

    /// What playing refuses before it plays: a new match's options (a resumed one's come from
    /// its folder).
    pub fn check(&self) -> Result<(), StudyError> {
        if self.resume {
            return Ok(());
        }
        self.new_match().map(drop)
    }

    /// The match to play: the one in `out` when resumed, else the one asked for; checked, with
    /// its players.
    pub fn open(&self) -> Result<OpenMatch, StudyError> {
        let out = &self.out;
        if out.as_os_str() == "-" {
            return Err(StudyError::OutIsStdout(JobKind::Match));
        }
        let m = if self.resume {
            read_match(out).map_err(|e| {
                let e = e.of(super::Field::Resume);
                if out.join(MATCH).symlink_metadata().is_err() {
                    StudyError::NoMatchToResume(Box::new(e))
                } else {
                    e
                }
            })?
        } else {
            self.new_match()?
        };
        let players = players_of(&m, out)?;
        Ok(OpenMatch {
            m,
            players,
            request: self.clone(),
        })
    }
}

/// A match read from match.json, checked as a request is: a file edited into something a
/// request could not give is refused.
fn recorded(m: Match) -> Result<Match, StudyError> {
    let game: GameKind = m.game.parse()?;
    let mut players = Vec::new();
    for p in &m.players {
        let policy: Policy = p.parse().map_err(|e| StudyError::Policy(format!("{e}")))?;
        if policy.to_string() != *p {
            return Err(StudyError::PlayerSpelling {
                found: p.clone(),
                canonical: policy.to_string(),
            });
        }
        players.push(policy);
    }
    let again = MatchRequest {
        game: Some(game),
        variant: Some(m.variant.clone()),
        players,
        games: Some(m.games),
        seed: Some(m.seed),
        max_plies: Some(m.max_plies),
        opening: Some(m.opening),
        shard: m.shard.clone(),
        ..MatchRequest::default()
    }
    .new_match()?;
    Ok(Match {
        version: m.version,
        command: m.command,
        threads: m.threads,
        ..again
    })
}

/// The match recorded in `dir`'s match.json, checked.
fn read_match(dir: &Path) -> Result<Match, StudyError> {
    let path = dir.join(MATCH);
    if path.symlink_metadata().is_err() {
        return Err(StudyError::NoMatch(dir.to_path_buf()));
    }
    let text = manifest_text(&path)?;
    let m = serde_json::from_str::<Match>(&text).map_err(|source| StudyError::BadManifest {
        path: path.clone(),
        source,
    })?;
    recorded(m).map_err(|e| StudyError::InFile {
        path,
        source: Box::new(e),
    })
}

/// The players of a checked match.
fn players_of(m: &Match, dir: &Path) -> Result<Vec<Policy>, StudyError> {
    m.players
        .iter()
        .map(|p| p.parse::<Policy>())
        .collect::<Result<_, _>>()
        .map_err(|e| StudyError::InFile {
            path: dir.join(MATCH),
            source: Box::new(StudyError::Policy(format!("{e}"))),
        })
}

/// The ordered pairings (South, North) by player index: each pair both ways, in a fixed order.
pub fn pairings(players: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..players {
        for b in a + 1..players {
            out.push((a, b));
            out.push((b, a));
        }
    }
    out
}

/// The folder of pairing (South `a`, North `b`): `pairs/A-B`, players numbered from 1.
pub fn pair_dir(out: &Path, (a, b): (usize, usize)) -> PathBuf {
    out.join(PAIRS).join(format!("{}-{}", a + 1, b + 1))
}

/// Whether `path`, one of [`match_files`], is the match's own: a match.json that reads as one, a
/// table with its header, the pairs folder (whose contents [`only_match_files`] checks).
fn is_match_file(path: &Path) -> bool {
    let plain = path.symlink_metadata().is_ok_and(|m| m.is_file());
    match path.file_name().and_then(|n| n.to_str()) {
        Some(MATCH) => {
            plain && manifest_text(path).is_ok_and(|t| serde_json::from_str::<Match>(&t).is_ok())
        }
        Some("games.csv") => starts_with_header(path, GAMES_HEADER),
        Some("ratings.csv") => starts_with_header(path, RATINGS_HEADER),
        Some(PAIRS) => path.symlink_metadata().is_ok_and(|m| m.is_dir()),
        _ => false,
    }
}

/// Refuses a folder where a file or folder of the user's stands at the place of a match's
/// own: a match or a merge replaces only a match's files, forced or not.
fn own_match_files(out: &Path) -> Result<(), StudyError> {
    let foreign = match_files(out)
        .into_iter()
        .find(|p| p.symlink_metadata().is_ok() && !is_match_file(p));
    match foreign {
        Some(p) => Err(StudyError::NotMatchFile(p)),
        None => Ok(()),
    }
}

/// The files of a match in `out`, present or not.
fn match_files(out: &Path) -> [PathBuf; 4] {
    [MATCH, "games.csv", "ratings.csv", PAIRS].map(|f| out.join(f))
}

/// Makes `out` a match's folder and locks it (held to the end: one match at a time in a folder;
/// each pairing's job locks its own). A match's pairing folder, a stats study or a file of a
/// study's name there is refused; temporary files a second interrupt left while results were
/// written are removed.
fn take_folder(out: &Path) -> Result<DirLock, StudyError> {
    if out.as_os_str() == "-" {
        return Err(StudyError::OutIsStdout(JobKind::Match));
    }
    if let Some(matched) = match_of_pairing(out) {
        return Err(StudyError::InMatch {
            out: out.to_path_buf(),
            matched,
            kind: JobKind::Match,
        });
    }
    // A stats study's files (its manifest, or what its results leave): never taken for a
    // match's, forced or not; a file of the user's named so is not called a study.
    let study = [MANIFEST, "summary.csv", "clauses.csv"]
        .into_iter()
        .find(|f| out.join(f).symlink_metadata().is_ok());
    if let Some(file) = study {
        return Err(StudyError::HoldsStudy {
            out: out.to_path_buf(),
            file,
            study: is_study_file(out, file),
        });
    }
    make_dir(out)?;
    let lock = DirLock::take(out)?;
    if let Ok(entries) = fs::read_dir(out) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let stale = is_temporary_of(&name, &["games.csv", "ratings.csv"]);
            if stale && e.file_type().is_ok_and(|t| t.is_file()) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
    Ok(lock)
}

/// Removes the match in `out` (its files, present or not) for a new one: refused unless
/// `force` when there is one, naming `keep`: what else can be done with it.
fn clear_match(out: &Path, force: bool, keep: Keep) -> Result<(), StudyError> {
    let present: Vec<PathBuf> = match_files(out)
        .into_iter()
        .filter(|p| p.symlink_metadata().is_ok())
        .collect();
    own_match_files(out)?;
    if !present.is_empty() && !force {
        return Err(StudyError::MatchPresent {
            out: out.to_path_buf(),
            files: present
                .iter()
                .map(|p| {
                    p.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect(),
            keep,
        });
    }
    only_match_files(out)?;
    for p in present {
        let gone = if p.is_dir() {
            fs::remove_dir_all(&p)
        } else {
            fs::remove_file(&p)
        };
        gone.map_err(super::error::io(&p))?;
    }
    Ok(())
}

/// Refuses to replace the match in `out` while its `pairs` folder holds anything a match does
/// not write there (a pairing folder `K-L` holds a stats job's files, its lock and temporary
/// files): a user's notes are never removed with the match.
fn only_match_files(out: &Path) -> Result<(), StudyError> {
    let pairs = out.join(PAIRS);
    let Ok(entries) = fs::read_dir(&pairs) else {
        return Ok(());
    };
    // `K-L` as a match names a pairing: two distinct player numbers from 1, written plainly
    // (a folder named otherwise, `01-2` or `1-1`, is no pairing of any match).
    let player = |n: &str| {
        n.parse::<usize>()
            .ok()
            .filter(|&k| (1..=MAX_PLAYERS).contains(&k) && n == k.to_string())
    };
    let pairing = |name: &str| {
        name.split_once('-')
            .is_some_and(|(a, b)| matches!((player(a), player(b)), (Some(a), Some(b)) if a != b))
    };
    let job_file = |name: &str| {
        [
            "manifest.json",
            "games.csv",
            "summary.csv",
            "clauses.csv",
            ".lock",
        ]
        .contains(&name)
            || is_temporary_of(
                name,
                &["manifest.json", "games.csv", "summary.csv", "clauses.csv"],
            )
    };
    let foreign = |path: &Path| StudyError::ForeignInPairs {
        out: out.to_path_buf(),
        path: path.to_path_buf(),
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if !entry.file_type().is_ok_and(|t| t.is_dir()) || !pairing(&name) {
            return Err(foreign(&path));
        }
        for file in fs::read_dir(&path).map_err(super::error::io(&path))? {
            let file = file.map_err(super::error::io(&path))?;
            let name = file.file_name().to_string_lossy().into_owned();
            if !file.file_type().is_ok_and(|t| t.is_file()) || !job_file(&name) {
                return Err(foreign(&file.path()));
            }
        }
    }
    Ok(())
}

/// Writes match.json of `m` in `out`.
fn save_match(out: &Path, m: &Match) -> Result<(), StudyError> {
    let text = serde_json::to_string_pretty(m)? + "\n";
    write_atomic(&out.join(MATCH), &text)
}

/// A match opened to be played: checked, with its players.
pub struct OpenMatch {
    /// The match.
    pub m: Match,
    /// Its players.
    pub players: Vec<Policy>,
    /// What was asked.
    request: MatchRequest,
}

/// How a match's run ended.
pub enum Played {
    /// Every pairing played, the results written: the ratings as a table to print.
    Finished(Table),
    /// Stopped in pairing `k` of `of` (from 1); the pairings played are kept.
    StoppedInPairing {
        /// The pairing.
        k: usize,
        /// The pairings.
        of: usize,
    },
    /// Stopped after the pairings, before the results were written.
    StoppedBeforeResults,
    /// Stopped as the results were written; they are whole.
    StoppedAfterResults,
}

impl OpenMatch {
    /// Plays the match's pairings not yet played (each a study, its progress told to
    /// `progress`, `pairing(k, of, south, north)` told before it), then writes its games.csv and
    /// ratings.csv; `interrupt` stops it, what is played kept.
    pub fn play(
        &self,
        interrupt: &'static AtomicBool,
        progress: &mut dyn Progress,
        pairing: &mut dyn FnMut(usize, usize, Policy, Policy),
    ) -> Result<Played, StudyError> {
        let (m, players, out) = (&self.m, &self.players, &self.request.out);
        let _lock = take_folder(out)?;
        let stopped = || interrupt.load(Ordering::SeqCst);
        if !self.request.resume {
            clear_match(out, self.request.force, Keep::Resume)?;
            save_match(out, m)?;
        }
        let game: GameKind = m.game.parse()?;
        let all = pairings(players.len());
        for (k, &(a, b)) in all.iter().enumerate() {
            let dir = pair_dir(out, (a, b));
            let resume = dir.join(MANIFEST).exists();
            // A pairing folder without a manifest is one whose job was killed before its first
            // save: it holds the job's hidden files and at most games.csv's header. Anything
            // else there is not the match's, and is not played over.
            let header = crate::games_csv::header(game);
            let foreign = (!resume)
                .then(|| fs::read_dir(&dir).ok())
                .flatten()
                .and_then(|entries| {
                    entries
                        .flatten()
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .find(|name| {
                            let header_only = name == "games.csv"
                                && fs::read(dir.join(name))
                                    .is_ok_and(|b| b.is_empty() || b == header.as_bytes());
                            !name.starts_with('.') && !header_only
                        })
                });
            if let Some(name) = foreign {
                return Err(StudyError::PairingForeign { dir, name });
            }
            if resume {
                let done = pair_manifest(&dir, m, (players[a], players[b]))
                    .map_err(|e| StudyError::PlayAgain(Box::new(e)))?;
                // A finished pairing whose result files a failed write lost is resumed: it
                // plays nothing and writes them. Rows past those counted (a write the manifest
                // never saw) are dropped by a resume too: only a pairing whose games.csv is
                // exactly its counted rows is skipped.
                let rows = fs::metadata(dir.join("games.csv")).map_or(0, |m| m.len());
                let whole = ["summary.csv", "clauses.csv"]
                    .iter()
                    .all(|f| dir.join(f).is_file())
                    && rows == header.len() as u64 + done.rows_bytes;
                if done.games_done == done.end_game - done.first_game && whole {
                    continue;
                }
            }
            pairing(k + 1, all.len(), players[a], players[b]);
            let command = if m.command.is_empty() {
                self.request.command.clone()
            } else {
                // Every pairing records the command that started the match.
                m.command.clone()
            };
            let job = Request {
                game: Some(game),
                variant: Some(m.variant.clone()),
                games: Some(m.games),
                seed: Some(m.seed),
                policy: Some(Players {
                    south: players[a],
                    north: players[b],
                }),
                max_plies: Some(m.max_plies),
                opening: Some(m.opening),
                shard: m.shard.clone(),
                out: dir.clone(),
                // The threads of the run that started the match, unless asked otherwise.
                threads: self.request.threads.or_else(|| {
                    u16::try_from(m.threads)
                        .ok()
                        .filter(|t| (1..=MAX_THREADS).contains(t))
                }),
                command,
                resume,
                // A pairing folder without a manifest counts no game (a job killed before its
                // first save): it is played anew.
                force: !resume,
                ..Request::default()
            };
            let outcome = run(&job, interrupt, progress).map_err(|e| StudyError::Pairing {
                k: k + 1,
                of: all.len(),
                dir: dir.clone(),
                source: Box::new(e),
            })?;
            if let Outcome::Stopped { .. } = outcome {
                return Ok(Played::StoppedInPairing {
                    k: k + 1,
                    of: all.len(),
                });
            }
        }
        if stopped() {
            return Ok(Played::StoppedBeforeResults);
        }
        let table = results(out, m, players)?;
        if stopped() {
            return Ok(Played::StoppedAfterResults);
        }
        Ok(Played::Finished(table))
    }
}

/// The games a match plays, as its report says them: `N games a pairing each way`, or the
/// shard's.
pub fn games_text(m: &Match) -> Result<String, StudyError> {
    Ok(match &m.shard {
        None => format!(
            "{} game{} a pairing each way",
            m.games,
            if m.games == 1 { "" } else { "s" }
        ),
        Some(shard) => {
            let (first, end) = shard_range(m.games, Some(shard))?;
            format!(
                "games {first}..{end} of the {} a pairing plays each way (shard {shard})",
                m.games
            )
        }
    })
}

/// A merged match: the match, its ratings as a table, and the commits of the builds that
/// played its shards.
pub struct MergedMatch {
    /// The match.
    pub m: Match,
    /// Its ratings.
    pub table: Table,
    /// The builds' commits.
    pub commits: BTreeSet<String>,
}

/// Merges a match's shards (checked by [`super::check_merge`]) into `out`: the shards' matches
/// checked to be slices of one match that cover its games, every pairing merged as a study's
/// shards are, then the match's games.csv and ratings.csv. `None` when `interrupt` stopped it,
/// nothing merged.
pub fn merge_match(
    out: &Path,
    force: bool,
    shards: &[PathBuf],
    command: &[String],
    interrupt: &AtomicBool,
) -> Result<Option<MergedMatch>, StudyError> {
    // Held until the merge is done: no match writes a shard while it is read.
    let _reading = shards
        .iter()
        .map(|s| ReadLock::take(s))
        .collect::<Result<Vec<_>, _>>()?;
    let mut parts = Vec::new();
    for s in shards {
        parts.push(read_match(s).map_err(|e| StudyError::InMerge(Box::new(e)))?);
    }
    let whole = |m: &Match| Match {
        shard: None,
        version: String::new(),
        command: Vec::new(),
        threads: 0,
        ..m.clone()
    };
    let base = whole(&parts[0]);
    for (i, m) in parts.iter().enumerate() {
        if whole(m) != base {
            return Err(StudyError::OtherMatch {
                path: shards[i].join(MATCH),
                difference: match_difference(&whole(m), &base),
                base: shards[0].join(MATCH),
            });
        }
    }
    let players = players_of(&base, &shards[0])?;
    // Every pairing of every shard its match's, finished and whole, before the shards' ranges
    // are read from their match.json files.
    for (s, m) in shards.iter().zip(&parts) {
        for (a, b) in pairings(players.len()) {
            check_shard_pairing(s, m, (a, b), (players[a], players[b]))?;
        }
    }
    let mut ranges = Vec::new();
    for (i, m) in parts.iter().enumerate() {
        let (first, end) = shard_range(m.games, m.shard.as_deref())?;
        ranges.push((first, end, i));
    }
    ranges.sort_unstable();
    let mut expected = 0;
    for &(first, end, i) in &ranges {
        if first != expected {
            return Err(StudyError::MatchShardGap {
                shard: shards[i].clone(),
                games: (first, end),
                expected,
            });
        }
        expected = end;
    }
    if expected != base.games {
        return Err(StudyError::MatchShardsShort {
            end: expected,
            games: base.games,
        });
    }
    let created = out.symlink_metadata().is_err();
    let lock = take_folder(out)?;
    // Unless forced, a match there is refused now; forced, it is replaced only once the merged
    // match is whole, so that a failed or stopped merge keeps it.
    if !force {
        clear_match(out, false, Keep::MergeElsewhere)?;
    } else {
        own_match_files(out)?;
        only_match_files(out)?;
    }
    // The merge is made in a folder of its own inside `out`, removed if it fails or is stopped.
    let work = staging_dir(out)?;
    let m = Match {
        version: parts[0].version.clone(),
        ..base
    };
    let built = merge_into(work.path(), &m, &players, shards, command, interrupt);
    let (commits, table) = match built {
        Ok(Some(done)) => done,
        failed => {
            drop(work);
            if created {
                drop(lock);
                let _ = fs::remove_dir(out);
            }
            return match failed {
                Err(e) => Err(StudyError::NothingMerged {
                    source: Box::new(e),
                    out: out.to_path_buf(),
                }),
                _ => Ok(None),
            };
        }
    };
    // From here on the merge is finished whatever a signal says: the new match takes the old
    // one's place, all files or none, match.json last.
    uninterrupted(|| {
        swap_in(
            out,
            work.path(),
            &[PAIRS, "games.csv", "ratings.csv", MATCH],
        )
    })
    .map_err(|e| StudyError::NothingMerged {
        source: Box::new(e),
        out: out.to_path_buf(),
    })?;
    drop(work);
    Ok(Some(MergedMatch { m, table, commits }))
}

/// Merges every pairing of the checked `shards` into `dir` (empty), then writes the match's
/// match.json, games.csv and ratings.csv there; `None` when `interrupt` stopped it.
fn merge_into(
    dir: &Path,
    m: &Match,
    players: &[Policy],
    shards: &[PathBuf],
    command: &[String],
    interrupt: &AtomicBool,
) -> Result<Option<(BTreeSet<String>, Table)>, StudyError> {
    let mut commits = BTreeSet::new();
    make_dir(&dir.join(PAIRS))?;
    for (a, b) in pairings(players.len()) {
        let from: Vec<PathBuf> = shards.iter().map(|s| pair_dir(s, (a, b))).collect();
        match merge_shards(&pair_dir(dir, (a, b)), false, &from, command, interrupt)? {
            Some(merged) => commits.extend(merged.commits),
            None => return Ok(None),
        }
        if interrupt.load(Ordering::SeqCst) {
            return Ok(None);
        }
    }
    save_match(dir, m)?;
    let table = results(dir, m, players)?;
    Ok(Some((commits, table)))
}

/// Refuses a pairing of the shard `s` (of the match `m`) that a merge cannot take: missing,
/// another job's, unfinished, or with rows past those its manifest counts.
fn check_shard_pairing(
    s: &Path,
    m: &Match,
    pair: (usize, usize),
    players: (Policy, Policy),
) -> Result<(), StudyError> {
    let dir = pair_dir(s, pair);
    if dir.join(MANIFEST).symlink_metadata().is_err() {
        return Err(StudyError::PairingMissing {
            dir,
            shard: s.to_path_buf(),
        });
    }
    let done = pair_manifest(&dir, m, players).map_err(|e| StudyError::NotOwnShard {
        source: Box::new(e),
        shard: s.to_path_buf(),
    })?;
    if done.games_done != done.end_game - done.first_game {
        return Err(StudyError::PairingUnfinished {
            dir,
            done: done.games_done,
            total: done.end_game - done.first_game,
            shard: s.to_path_buf(),
        });
    }
    let game: GameKind = done.job.game.parse()?;
    let rows = fs::metadata(dir.join("games.csv")).map_or(0, |f| f.len());
    if rows != crate::games_csv::header(game).len() as u64 + done.rows_bytes {
        return Err(StudyError::PairingRows {
            dir,
            shard: s.to_path_buf(),
        });
    }
    Ok(())
}

/// The first field in which two matches differ, as `seed 2, not 1 as`.
fn match_difference(a: &Match, b: &Match) -> String {
    let fields = |m: &Match| {
        [
            ("game", m.game.clone()),
            ("variant", m.variant.clone()),
            ("players", m.players.join(" ")),
            ("games", m.games.to_string()),
            ("seed", m.seed.to_string()),
            ("max_plies", m.max_plies.to_string()),
            ("opening", m.opening.to_string()),
        ]
    };
    fields(a)
        .into_iter()
        .zip(fields(b))
        .find(|(x, y)| x.1 != y.1)
        .map(|((name, x), (_, y))| format!("{name} {}, not {} as", quoted(&x), quoted(&y)))
        .unwrap_or_default()
}

/// The manifest of the pairing in `dir`, checked to be the job the match gives it (another
/// job's folder put in its place is refused, never counted).
fn pair_manifest(
    dir: &Path,
    m: &Match,
    (south, north): (Policy, Policy),
) -> Result<Manifest, StudyError> {
    let manifest = read_manifest(dir)?;
    let j = &manifest.job;
    let policy = Players { south, north }.to_string();
    let differs = [
        ("game", j.game.clone(), m.game.clone()),
        ("variant", j.variant.clone(), m.variant.clone()),
        ("policy", j.policy.clone(), policy),
        ("seed", j.seed.to_string(), m.seed.to_string()),
        ("games", j.games.to_string(), m.games.to_string()),
        (
            "max_plies",
            j.max_plies.to_string(),
            m.max_plies.to_string(),
        ),
        ("opening", j.opening.to_string(), m.opening.to_string()),
        (
            "shard",
            j.shard.clone().unwrap_or_default(),
            m.shard.clone().unwrap_or_default(),
        ),
    ]
    .into_iter()
    .find(|(_, found, want)| found != want);
    match differs {
        None => Ok(manifest),
        Some((field, found, want)) => Err(StudyError::NotThePairing {
            path: dir.join(MANIFEST),
            field,
            found,
            want,
        }),
    }
}

/// The ratings as a table to print.
pub struct Table {
    /// The table's lines.
    pub text: String,
}

/// Points of a game to South and North by its `winner` field: a game without a winner (a
/// draw, a cut, a point the reading leaves open) is half a point each.
fn points_of(winner: &str) -> (f64, f64) {
    match winner {
        "South" => (1.0, 0.0),
        "North" => (0.0, 1.0),
        _ => (DRAW, DRAW),
    }
}

/// Writes the match's games.csv (every pairing's rows, checked against its manifest, streamed)
/// and ratings.csv; the ratings as a table to print.
fn results(out: &Path, m: &Match, players: &[Policy]) -> Result<Table, StudyError> {
    // Checked again: a file of the user's may have come to a result's place during the games.
    own_match_files(out)?;
    let k = players.len();
    // Every pairing's manifest first: a foreign or unfinished one is refused before any file.
    let mut pairs = Vec::new();
    for (a, b) in pairings(k) {
        let dir = pair_dir(out, (a, b));
        let manifest = pair_manifest(&dir, m, (players[a], players[b]))
            .map_err(|e| StudyError::PlayAgain(Box::new(e)))?;
        if manifest.games_done != manifest.end_game - manifest.first_game {
            return Err(StudyError::PairingNotDone(dir));
        }
        pairs.push(((a, b), dir, manifest));
    }
    let (mut points, mut games) = (vec![vec![0.0; k]; k], vec![vec![0.0; k]; k]);
    let mut tally = vec![[0u64; 3]; k]; // wins, draws (and games without a winner), losses
    let games_path = out.join("games.csv");
    replace_file(&games_path, |w| {
        w.write_all(format!("{GAMES_HEADER}\n").as_bytes())
            .map_err(super::error::io(&games_path))?;
        for ((a, b), dir, manifest) in &pairs {
            let (a, b) = (*a, *b);
            let (south, north) = (
                csv_field(&players[a].to_string()).into_owned(),
                csv_field(&players[b].to_string()).into_owned(),
            );
            verify_rows(dir, manifest, |row| {
                let line = String::from_utf8_lossy(row);
                let f = csv_fields(line.trim_end());
                // verify_rows has checked each row's fields against its game.
                let field = |i: usize| f.get(i).map_or("", |x| x.as_ref());
                let (game, plies, winner, clause) = (field(0), field(3), field(4), field(5));
                writeln!(w, "{south},{north},{game},{plies},{winner},{clause}")
                    .map_err(super::error::io(&games_path))?;
                let (sa, sb) = points_of(winner);
                points[a][b] += sa;
                points[b][a] += sb;
                games[a][b] += 1.0;
                games[b][a] += 1.0;
                for (p, s) in [(a, sa), (b, sb)] {
                    tally[p][match s {
                        1.0 => 0,
                        0.0 => 2,
                        _ => 1,
                    }] += 1;
                }
                Ok(())
            })?;
        }
        Ok(())
    })?;
    let mut csv = format!("{RATINGS_HEADER}\n");
    if tally.iter().all(|t| t.iter().sum::<u64>() == 0) {
        // A shard with no game of any pairing (more shards than games): nothing to rate.
        write_ratings(out, &csv)?;
        return Ok(Table {
            text: "  no games here: nothing to rate\n".into(),
        });
    }
    let ratings = bradley_terry(&points, &games).map_err(|e| StudyError::Ratings(e.to_string()))?;
    let mut text = format!(
        "  {:>6}  {:<28} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8}  95% interval\n",
        "player", "policy", "games", "wins", "draws", "losses", "score", "elo"
    );
    for (i, r) in ratings.iter().enumerate() {
        let [w, d, l] = tally[i];
        let n = w + d + l;
        let score = if n == 0 {
            0.0
        } else {
            (w as f64 + DRAW * d as f64) / n as f64
        };
        // Rounded as printed, without a sign on zero.
        let shown = |x: f64| format!("{:.1}", (x * 10.0).round() / 10.0 + 0.0);
        let (elo, low, high) = (shown(r.elo), shown(r.low), shown(r.high));
        let policy = players[i].to_string();
        let _ = writeln!(
            csv,
            "{},{},{n},{w},{d},{l},{score:.4},{elo},{low},{high}",
            i + 1,
            csv_field(&policy)
        );
        let _ = writeln!(
            text,
            "  {:>6}  {:<28} {n:>6} {w:>6} {d:>6} {l:>6} {score:>7.4} {elo:>8}  [{low}, {high}]",
            i + 1,
            policy
        );
    }
    write_ratings(out, &csv)?;
    Ok(Table { text })
}

/// Writes the match's ratings.csv in `out`.
fn write_ratings(out: &Path, csv: &str) -> Result<(), StudyError> {
    let path = out.join("ratings.csv");
    replace_file(&path, |w| {
        w.write_all(csv.as_bytes()).map_err(super::error::io(&path))
    })
}
