//! A study's job: as its manifest records it ([`Job`]), as a front end asks for it ([`Request`]),
//! and checked once, typed, before its folder is touched ([`CheckedJob`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{read_manifest, Field, JobKind, StudyError, MANIFEST};
use crate::playout::{EngineKind, PlayoutEngine, DEFAULT_MAX_PLIES};
use crate::policy::{Players, Policy};
use crate::registry::{self, GameKind};

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

/// A study asked for: the options of a run, those that define the job optional so that a
/// resumed run can take them from its manifest (and name any that differ).
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The game [default: bao].
    pub game: Option<GameKind>,
    /// The rule reading [default: the game's].
    pub variant: Option<String>,
    /// The engine [default: optimized, where it plays the reading].
    pub engine: Option<EngineKind>,
    /// Games in the job [default: 1000].
    pub games: Option<u64>,
    /// Master seed [default: 1].
    pub seed: Option<u64>,
    /// Both sides' policies [default: random].
    pub policy: Option<Players>,
    /// South's policy, instead of `policy`'s.
    pub south: Option<Policy>,
    /// North's policy, instead of `policy`'s.
    pub north: Option<Policy>,
    /// The ply limit [default: 2000].
    pub max_plies: Option<u32>,
    /// Random plies opening every game [default: 0].
    pub opening: Option<u32>,
    /// The slice `K/N` of the games this folder plays.
    pub shard: Option<String>,
    /// The study's folder.
    pub out: PathBuf,
    /// Worker threads [default: those of the run resumed, else all cores].
    pub threads: Option<u16>,
    /// Continue the run in `out`, with the job of its manifest.
    pub resume: bool,
    /// Replace a run in `out`.
    pub force: bool,
    /// Start even when the study's files would not fit the free space.
    pub no_space_check: bool,
    /// Skip the estimate (and with it the free-space check): for a caller that times the job.
    pub no_estimate: bool,
    /// The command the manifest records as having started the study.
    pub command: Vec<String>,
}

/// The most worker threads a job takes.
pub const MAX_THREADS: u16 = 64;

impl Request {
    /// A job of `games` random games of `game` under `variant` (default reading if `None`) from
    /// `seed`, written to `out` (replacing a run there).
    pub fn random(
        game: GameKind,
        variant: Option<&str>,
        games: u64,
        seed: u64,
        out: PathBuf,
    ) -> Request {
        Request {
            game: Some(game),
            variant: variant.map(String::from),
            games: Some(games),
            seed: Some(seed),
            out,
            force: true,
            ..Request::default()
        }
    }

    /// The players asked for: `policy` for both sides (or `default`), then `south` and `north`.
    fn players(&self, default: Players) -> Players {
        let both = self.policy.unwrap_or(default);
        Players {
            south: self.south.unwrap_or(both.south),
            north: self.north.unwrap_or(both.north),
        }
    }

    /// The job an explicit request describes, with the defaults filled in.
    pub fn job(&self) -> Result<Job, StudyError> {
        let game = self.game.unwrap_or_default();
        let variant =
            game.canonical_variant(self.variant.as_deref().unwrap_or(game.default_variant()));
        let engine = match self.engine {
            Some(e) => e,
            None => {
                // The optimized engines play every reading but those that leave a point open.
                if registry::engine(game, &variant, EngineKind::Optimized).is_ok() {
                    EngineKind::Optimized
                } else {
                    EngineKind::Reference
                }
            }
        };
        Ok(Job {
            game: game.name().into(),
            variant,
            engine: engine.name().into(),
            policy: self.players(Players::both(Policy::Random)).to_string(),
            seed: self.seed.unwrap_or(1),
            games: self.games.unwrap_or(1000),
            max_plies: self.max_plies.unwrap_or(DEFAULT_MAX_PLIES),
            opening: self.opening.unwrap_or(0),
            shard: self.shard.as_deref().map(canonical_shard).transpose()?,
        })
    }

    /// The job of a resumed run: the manifest's, with every field of the request checked
    /// against it.
    fn resumed(&self, old: &Job, manifest: &Path) -> Result<Job, StudyError> {
        let differs = |field, given: String, kept: String| {
            Err(StudyError::ResumeDiffers {
                field,
                given,
                kept,
                manifest: manifest.to_path_buf(),
            })
        };
        macro_rules! check {
            ($field:expr, $given:expr, $kept:expr) => {
                if let Some(given) = $given {
                    if given != $kept {
                        return differs($field, given.to_string(), $kept.to_string());
                    }
                }
            };
        }
        check!(Field::Game, self.game.map(|g| g.name()), old.game.as_str());
        let game = old.game.parse::<GameKind>().unwrap_or_default();
        check!(
            Field::Variant,
            self.variant.as_deref().map(|v| game.canonical_variant(v)),
            old.variant.as_str()
        );
        check!(
            Field::Engine,
            self.engine.map(|e| e.name()),
            old.engine.as_str()
        );
        if self.policy.is_some() || self.south.is_some() || self.north.is_some() {
            // The sides not given keep the manifest's policies.
            let kept = old.policy.parse::<Players>().ok();
            let given = self.players(kept.unwrap_or(Players::both(Policy::Random)));
            if kept != Some(given) {
                return differs(Field::Policy, given.to_string(), old.policy.clone());
            }
        }
        check!(Field::Seed, self.seed, old.seed);
        check!(Field::Games, self.games, old.games);
        check!(Field::MaxPlies, self.max_plies, old.max_plies);
        check!(Field::Opening, self.opening, old.opening);
        if let Some(given) = &self.shard {
            let same = canonical_shard(given)
                .ok()
                .is_some_and(|g| Some(g) == old.shard);
            if !same {
                return differs(
                    Field::Shard,
                    given.clone(),
                    old.shard.clone().unwrap_or_else(|| "(none)".into()),
                );
            }
        }
        Ok(old.clone())
    }

    /// Refuses a folder inside a match's `pairs` folder: the match plays its pairings there, and
    /// a study of its own would replace one or lie beside them unseen (checked by the front
    /// ends that start a study; a match's own pairings are played there).
    pub fn not_in_a_match(&self) -> Result<(), StudyError> {
        match super::folder::match_of_pairing(&self.out) {
            Some(matched) => Err(StudyError::InMatch {
                out: self.out.clone(),
                matched,
                kind: JobKind::Study,
            }),
            None => Ok(()),
        }
    }

    /// The job the request (or, resumed, the manifest) describes, checked against everything
    /// that can refuse it before its folder is touched.
    pub fn check(&self) -> Result<CheckedJob, StudyError> {
        if self.out.as_os_str().is_empty() {
            return Err(StudyError::NoOut);
        }
        if self.resume && self.force {
            return Err(StudyError::ResumeOrForce);
        }
        if self.out.as_os_str() == "-" {
            return Err(StudyError::OutIsStdout(JobKind::Study));
        }
        if self.out.join("match.json").symlink_metadata().is_ok() {
            return Err(StudyError::HoldsMatch(self.out.clone()));
        }
        if !self.resume {
            return CheckedJob::new(self.job()?, self.threads, None);
        }
        let manifest = self.out.join(MANIFEST);
        let old = read_manifest(&self.out).map_err(|e| e.of(Field::Resume))?;
        let job = self.resumed(&old.job, &manifest)?;
        // The job comes from the manifest: what is wrong with it is wrong there.
        CheckedJob::new(job, self.threads, Some(old.threads)).map_err(|e| {
            StudyError::RecordedJob {
                manifest,
                source: Box::new(e),
            }
            .of(Field::Resume)
        })
    }
}

/// A job checked field by field, typed: its game, reading, engine, players and range.
pub struct CheckedJob {
    /// The job as its manifest records it.
    pub job: Job,
    /// Its game.
    pub game: GameKind,
    /// Its players.
    pub policy: Players,
    /// The engine that plays it.
    pub engine: Box<dyn PlayoutEngine>,
    /// This folder's games: `first..end`.
    pub first: u64,
    /// The end of this folder's games.
    pub end: u64,
    /// Worker threads.
    pub threads: usize,
}

impl CheckedJob {
    /// `job` checked: its game, policy, engine, reading and shard. Its threads are `threads`,
    /// else those `recorded` by the run it resumes (so that its manifest is the one an
    /// unbroken run writes), else all cores.
    pub fn new(
        job: Job,
        threads: Option<u16>,
        recorded: Option<usize>,
    ) -> Result<CheckedJob, StudyError> {
        let game = job.game.parse::<GameKind>()?;
        let policy = job
            .policy
            .parse::<Players>()
            .map_err(|e| StudyError::Policy(e.to_string()))?;
        let engine_kind = match job.engine.as_str() {
            "reference" => EngineKind::Reference,
            "optimized" => EngineKind::Optimized,
            other => return Err(StudyError::UnknownEngine(other.to_string())),
        };
        let engine =
            registry::engine(game, &job.variant, engine_kind).map_err(|e| StudyError::Variant {
                variant: job.variant.clone(),
                why: e.to_string(),
            })?;
        engine.prepare(policy).map_err(StudyError::Play)?;
        if job.max_plies == 0 {
            return Err(StudyError::NoPlies);
        }
        if job.opening >= job.max_plies {
            return Err(StudyError::OpeningTooLong {
                opening: job.opening,
                max_plies: job.max_plies,
            });
        }
        let (first, end) = shard_range(job.games, job.shard.as_deref())?;
        let threads = threads
            .map(usize::from)
            .or(recorded.filter(|t| (1..=usize::from(MAX_THREADS)).contains(t)))
            .unwrap_or_else(rayon::current_num_threads);
        Ok(CheckedJob {
            job,
            game,
            policy,
            engine,
            first,
            end,
            threads,
        })
    }
}

/// The first field in which two jobs differ, as `variant abapa, not sheet as`.
pub fn job_difference(a: &Job, b: &Job) -> Option<String> {
    let fields = |j: &Job| {
        [
            ("game", j.game.clone()),
            ("variant", j.variant.clone()),
            ("engine", j.engine.clone()),
            ("policy", j.policy.clone()),
            ("seed", j.seed.to_string()),
            ("games", j.games.to_string()),
            ("max_plies", j.max_plies.to_string()),
            ("opening", j.opening.to_string()),
            ("shard", j.shard.clone().unwrap_or_else(|| "(none)".into())),
        ]
    };
    fields(a)
        .into_iter()
        .zip(fields(b))
        .find(|(x, y)| x.1 != y.1)
        .map(|((name, x), (_, y))| format!("{name} {x}, not {y} as"))
}
