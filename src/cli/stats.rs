//! `mancala-lab stats`: batch playouts written as CSV (games.csv, clauses.csv, summary.csv) with a
//! manifest that checks the rows on disk; locked, resumable, interruptible, sharded and merged.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget};
use mancala_lab::game::EventTotals;
use mancala_lab::games_csv::{header, RowWriter};
use mancala_lab::playout::{EngineKind, Play, PlayoutEngine, DEFAULT_MAX_PLIES};
use mancala_lab::policy::{Players, Policy};
use mancala_lab::registry::engine as new_engine;
use mancala_lab::registry::GameKind;
use mancala_lab::stats::Summary;
use mancala_lab::study::{
    canonical_shard, clear_for_new_run, make_dir, read_manifest, read_manifest_unsealed,
    save_manifest, shard_range, verify_rows, write_results, DirLock, Job, Manifest, ReadLock,
    StudyError, GAMES, MANIFEST,
};

use mancala_lab::text::{escaped, quoted, shown_path};

use super::{interrupt_on_ctrl_c, interrupt_on_ctrl_c_with};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct StatsArgs {
    #[command(subcommand)]
    merge: Option<StatsCommand>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum StatsCommand {
    /// Join the output folders of shards into the files one run would have written.
    Merge(super::MergeArgs),
}

/// The options of a run. Those that define the job are optional so that `--resume` can take
/// them from the manifest and name any that differ.
#[derive(Args, Clone, Default)]
pub struct RunArgs {
    /// The game [default: bao].
    #[arg(long, value_enum)]
    pub(super) game: Option<GameKind>,
    // The game's readings, listed by the registry.
    #[arg(long, help = format!("The rule reading ({})", mancala_lab::registry::readings_help()))]
    pub(super) variant: Option<String>,
    /// The engine [default: optimized; reference for readings the optimized engines do not
    /// play (strict)]. Both write the same games.csv.
    #[arg(long, value_enum)]
    pub(super) engine: Option<EngineKind>,
    /// Number of games in the job [default: 1000].
    #[arg(long)]
    pub(super) games: Option<u64>,
    /// Master seed: game i's moves are a function of (seed, i, ply) [default: 1].
    #[arg(long)]
    pub(super) seed: Option<u64>,
    /// Move policy of both sides: random, greedy, search, alphabeta[:depth=D|ms=T] or
    /// mcts[:sims=N|ms=T][,c=C][,solve=false] (docs/statistics.md), or South's and North's as
    /// S/N [default: random].
    #[arg(long)]
    pub(super) policy: Option<Players>,
    /// South's policy (instead of the one --policy gives).
    #[arg(long)]
    pub(super) south: Option<Policy>,
    /// North's policy (instead of the one --policy gives).
    #[arg(long)]
    pub(super) north: Option<Policy>,
    /// Stop a game after this many plies [default: 2000].
    #[arg(long)]
    pub(super) max_plies: Option<u32>,
    /// Open every game with this many random plies (game i's own draws, whoever plays it)
    /// before the policies choose, so that deterministic players meet in varied positions
    /// [default: 0].
    #[arg(long, value_name = "PLIES")]
    pub(super) opening: Option<u32>,
    /// Run the K-th of N disjoint slices of the games, e.g. 2/8.
    #[arg(long)]
    pub(super) shard: Option<String>,
    /// Output folder.
    #[arg(long, default_value = "out/stats")]
    pub(super) out: PathBuf,
    /// Worker threads, 1 to 64 (default: those of the run --resume continues, else all cores).
    /// The games do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS)))]
    pub(super) threads: Option<u16>,
    /// Continue the run in --out, with the job's options from its manifest.
    #[arg(long, conflicts_with = "force")]
    pub(super) resume: bool,
    /// The command line the manifest records, when not this process's own (a match's pairing
    /// records the command that started the match).
    #[arg(skip)]
    pub(super) command: Option<Vec<String>>,
    /// Replace a run already in --out.
    #[arg(long)]
    pub(super) force: bool,
    /// Start even when the estimated size of the study's files passes the free space where
    /// --out is.
    #[arg(long)]
    pub(super) no_space_check: bool,
}

impl RunArgs {
    /// A job of `games` random games of `game` under `variant` (default reading if `None`) from
    /// `seed`, written to `out` (replacing a run there): for the main job and the bench.
    pub fn random_job(
        game: GameKind,
        variant: Option<&str>,
        games: u64,
        seed: u64,
        out: PathBuf,
    ) -> RunArgs {
        RunArgs {
            game: Some(game),
            variant: variant.map(String::from),
            games: Some(games),
            seed: Some(seed),
            out,
            force: true,
            ..RunArgs::default()
        }
    }
}

/// The command line, each argument as a Bash word that gives it back byte for byte.
pub(super) fn command_line() -> Vec<String> {
    std::env::args_os()
        .map(mancala_lab::text::shell_word)
        .collect()
}

/// A manifest `--resume` can go on from: the job it records and the clause events of the game
/// (its range `read_manifest` checked).
fn check_resumable(old: &Manifest, job: &Job, counted: &[&str], path: &Path) -> Result<(), String> {
    if &old.job != job {
        return Err(format!(
            "--resume: {} changed while the job was checked; run it again",
            shown_path(path)
        ));
    }
    let names: Vec<&str> = old.clause_events.keys().map(String::as_str).collect();
    let mut want: Vec<&str> = counted.to_vec();
    want.sort_unstable();
    if names != want {
        return Err(format!(
            "--resume: {}: clause_events name {} clauses, not the {} the {} engines count",
            shown_path(path),
            names.len(),
            want.len(),
            job.game
        ));
    }
    Ok(())
}

/// The commit the binary was built from (build.rs), `-dirty` if the tree had changes.
fn commit() -> String {
    env!("MANCALA_LAB_COMMIT").to_string()
}

/// The job an explicit option set describes, with the defaults filled in.
fn job_of(a: &RunArgs) -> Result<Job, String> {
    let game = a.game.unwrap_or_default();
    let variant = game.canonical_variant(a.variant.as_deref().unwrap_or(game.default_variant()));
    let engine = match a.engine {
        Some(e) => e,
        None => {
            // The optimized engines play every reading but those that leave a point open.
            if new_engine(game, &variant, EngineKind::Optimized).is_ok() {
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
        policy: players_of(a, Players::both(Policy::Random)).to_string(),
        seed: a.seed.unwrap_or(1),
        games: a.games.unwrap_or(1000),
        max_plies: a.max_plies.unwrap_or(DEFAULT_MAX_PLIES),
        opening: a.opening.unwrap_or(0),
        shard: a
            .shard
            .as_deref()
            .map(canonical_shard)
            .transpose()
            .map_err(|e| e.to_string())?,
    })
}

/// The players the options give: --policy for both sides (or `default`), then --south and
/// --north for one side each.
fn players_of(a: &RunArgs, default: Players) -> Players {
    let both = a.policy.unwrap_or(default);
    Players {
        south: a.south.unwrap_or(both.south),
        north: a.north.unwrap_or(both.north),
    }
}

/// The job of a resumed run: the manifest's, with every option given on the command line checked
/// against it.
fn resumed_job(a: &RunArgs, old: &Job, manifest: &Path) -> Result<Job, String> {
    let differs = |option: &str, given: String, kept: String| {
        Err(format!(
            "--resume: {option} {given} differs from the job in {} ({option} {kept}); leave it \
             out, or start a new run in another --out",
            shown_path(manifest)
        ))
    };
    macro_rules! check {
        ($field:ident, $opt:expr, $given:expr, $kept:expr) => {
            if let Some(given) = $given {
                if given != $kept {
                    return differs($opt, given.to_string(), $kept.to_string());
                }
            }
        };
    }
    check!(game, "--game", a.game.map(|g| g.name()), old.game.as_str());
    let game = old.game.parse::<GameKind>().unwrap_or_default();
    check!(
        variant,
        "--variant",
        a.variant.as_deref().map(|v| game.canonical_variant(v)),
        old.variant.as_str()
    );
    check!(
        engine,
        "--engine",
        a.engine.map(|e| e.name()),
        old.engine.as_str()
    );
    if a.policy.is_some() || a.south.is_some() || a.north.is_some() {
        // The sides not given keep the manifest's policies.
        let kept = old.policy.parse::<Players>().ok();
        let given = players_of(a, kept.unwrap_or(Players::both(Policy::Random)));
        if kept != Some(given) {
            return differs("--policy", given.to_string(), old.policy.clone());
        }
    }
    check!(seed, "--seed", a.seed, old.seed);
    check!(games, "--games", a.games, old.games);
    check!(max_plies, "--max-plies", a.max_plies, old.max_plies);
    check!(opening, "--opening", a.opening, old.opening);
    if let Some(given) = &a.shard {
        let same = canonical_shard(given)
            .ok()
            .is_some_and(|g| Some(g) == old.shard);
        if !same {
            return differs(
                "--shard",
                given.clone(),
                old.shard.clone().unwrap_or_else(|| "(none)".into()),
            );
        }
    }
    Ok(old.clone())
}

/// The first field in which two jobs differ, as `variant abapa, not sheet`.
fn job_difference(a: &Job, b: &Job) -> Option<String> {
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

/// One chunk of games played and written as CSV text.
struct Chunk {
    text: String,
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

/// The rows of `games`; `None` when Ctrl-C stopped a game under way (a chunk is kept whole or
/// not at all); an error when a player cannot play.
fn play_chunk(
    engine: &dyn PlayoutEngine,
    job: &Job,
    policy: Players,
    games: std::ops::Range<u64>,
    stop: &'static AtomicBool,
) -> Result<Option<Chunk>, String> {
    let game: GameKind = job.game.parse().expect("a checked game");
    let mut c = Chunk {
        text: String::with_capacity((games.end - games.start) as usize * 48),
        rows: 0,
        summary: Summary::default(),
        events: EventTotals::new(engine.counted_events()),
    };
    let run = (job.seed, games);
    let play = Play {
        players: policy,
        opening: job.opening,
        max_plies: job.max_plies,
    };
    let writer = RowWriter::new(game, &job.variant, policy);
    let mut end_clause = String::new();
    let whole = engine.play_until(play, run, stop, |row, events| {
        writer.write(&row, &mut c.text);
        end_clause.clear();
        end_clause.extend(row.end_clause_parts());
        let _ = c
            .summary
            .add(row.winner(), &end_clause, row.plies, Some(row.moves_hash));
        // Every clause the reference engines trace is counted (tests/game.rs).
        c.events.merge(&events);
        c.rows += 1;
    });
    Ok(whole?.then_some(c))
}

/// Prints `summary` of `job` under `label`, each ending with its clause's title in the game's
/// spec, and the warning of games that repeat, with what the job could do about it.
fn print_summary(label: &str, summary: &Summary, job: &Job) {
    let titles = job
        .game
        .parse::<GameKind>()
        .map(GameKind::clause_titles)
        .unwrap_or_default();
    println!("{label}");
    for r in summary.rows() {
        let line = r.display();
        let title = r
            .metric
            .strip_prefix("ended_by_")
            .and_then(|clause| titles.get(clause));
        match title {
            Some(t) => println!("  {} ({t}){}", r.metric, &line[r.metric.len()..]),
            None => println!("  {line}"),
        }
    }
    if let Some(warning) = summary.repeated_warning() {
        eprintln!(
            "warning: {warning}; {}",
            opening_advice(job.max_plies, job.opening)
        );
    }
}

/// How a job of ply limit `max_plies` that opens with `opening` random plies can measure the
/// game more broadly: open with more random plies, fewer than the ply limit (as a job must), or,
/// where the limit leaves no room for more, raise the limit too.
fn opening_advice(max_plies: u32, opening: u32) -> String {
    let wanted = (u64::from(opening) * 2).max(4);
    let k = wanted.min(u64::from(max_plies).saturating_sub(1));
    let plies = if opening == 0 {
        "the first plies".to_string()
    } else {
        format!("more than the job's {opening} first plies")
    };
    if k > u64::from(opening) {
        let below = if k < wanted {
            format!(", below the ply limit of {max_plies}")
        } else {
            String::new()
        };
        return format!(
            "to measure the game more broadly, play {plies} at random with --opening K (e.g. \
             --opening {k}{below})"
        );
    }
    // A limit the option takes, well past the opening.
    let limit = (wanted * 2).max(u64::from(DEFAULT_MAX_PLIES));
    let example = if u32::try_from(limit).is_ok() {
        format!(" (e.g. --max-plies {limit} --opening {wanted})")
    } else {
        String::new()
    };
    format!(
        "to measure the game more broadly, play {plies} at random with --opening K, which must \
         be below the ply limit of {max_plies}: raise it too{example}"
    )
}

/// What a stats job says on standard error.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// Everything: a progress bar, notes, its time, and how to resume it when interrupted.
    Study,
    /// As [`Report::Study`], but the caller says how to continue an interrupted job (a match).
    Part,
    /// Nothing: the caller (bench) reports.
    Quiet,
}

/// Runs (or resumes) a stats job; `interrupt` is set by Ctrl-C. Returns the exit code and, for
/// a finished job, its summary and manifest as written under the lock (once the lock is let go,
/// another job may already be replacing the folder's files).
pub fn run_job(
    args: &RunArgs,
    interrupt: &'static AtomicBool,
    report: Report,
) -> Result<(ExitCode, Option<(Summary, Manifest)>), String> {
    let quiet = report == Report::Quiet;
    let games_path = args.out.join(GAMES);
    // The whole job is checked before the folder is touched: a bad option never costs a study.
    let checked = check_job(args)?;
    if !args.resume {
        check_size(args, &checked, checked.first, quiet, interrupt)?;
    }
    make_dir(&args.out).map_err(|e| e.to_string())?;
    let _lock = DirLock::take(&args.out).map_err(|e| e.to_string())?;
    let (mut manifest, mut summary, hasher) = open_study(args, &checked)?;
    let (first, end) = (checked.first, checked.end);
    if args.resume {
        // What is left of a resumed job, its rows on disk kept whatever this says.
        check_size(
            args,
            &checked,
            first + manifest.games_done,
            quiet,
            interrupt,
        )?;
    }
    let total = end - first;
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    };
    bar.set_style(super::games_style()?);
    bar.set_position(manifest.games_done);
    let start = first + manifest.games_done;
    let note = format!(
        "note: policy {} has a time budget: its moves depend on the machine's speed, so the same \
         seed may give other games",
        checked.policy
    );
    let timed = !quiet && !checked.policy.is_deterministic();
    if timed {
        eprintln!("{note}");
    }
    let started = Instant::now();
    play_rows(
        args,
        &checked,
        (&mut manifest, &mut summary, hasher),
        interrupt,
        &bar,
    )?;
    bar.finish_and_clear();
    if timed {
        // Again after the run, where the figures are read.
        eprintln!("{note}");
    }
    let secs = started.elapsed().as_secs_f64();
    if !quiet && secs > 0.0 {
        let played = manifest.games_done - (start - first);
        eprintln!(
            "{}: {played} game{} in {secs:.1} s",
            checked
                .engine
                .describe(checked.policy, checked.job.max_plies),
            if played == 1 { "" } else { "s" },
        );
    }
    if manifest.games_done < total {
        if report != Report::Study {
            // The caller owns the folder and says what became of it.
            return Ok((ExitCode::from(130), None));
        }
        eprintln!(
            "interrupted after {} of {total} games; complete rows are in {}; continue with: \
             mancala-lab stats --resume --out {}",
            manifest.games_done,
            shown_path(&games_path),
            mancala_lab::text::shell_word(&args.out)
        );
        return Ok((ExitCode::from(130), None));
    }
    write_results(&args.out, &manifest, &summary).map_err(|e| e.to_string())?;
    Ok((ExitCode::SUCCESS, Some((summary, manifest))))
}

/// Bytes of a study's files beside games.csv (manifest, clauses.csv, summary.csv), at most.
const OTHER_FILES_BYTES: u64 = 64 << 10;

/// The estimate of a job: the bytes its games.csv rows take and the seconds its games take on
/// its threads, from a pilot of its first games played (and dropped) for about a quarter of a
/// second; `None` for searching policies (a pilot game may take as long as the job's start) or
/// a pilot stopped by Ctrl-C.
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
        let chunk = play_chunk(&*c.engine, &c.job, c.policy, from..from + k, interrupt).ok()??;
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
fn bytes_text(n: f64) -> String {
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

/// A duration as a person reads it (`3 min`, `2.5 h`, `41 days`).
pub(super) fn duration_text(secs: f64) -> String {
    match secs {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 90.0 * 60.0 => format!("{:.0} min", s / 60.0),
        s if s < 48.0 * 3600.0 => format!("{:.1} h", s / 3600.0),
        s if s < 3.0 * 365.0 * 86400.0 => format!("{:.0} days", s / 86400.0),
        s => format!("{:.0} years", s / (365.0 * 86400.0)),
    }
}

/// Says, before a long job (a minute or a gigabyte) starts, what it will write and how long it
/// will take, from its games `start..`; refuses one whose files would not fit the free space
/// where --out is (unless --no-space-check). Quiet jobs (the bench's) are not checked.
fn check_size(
    args: &RunArgs,
    c: &CheckedJob,
    start: u64,
    quiet: bool,
    interrupt: &'static AtomicBool,
) -> Result<(), String> {
    // The bench times the job itself: no pilot there.
    if quiet {
        return Ok(());
    }
    let Some((rows, secs)) = estimate(c, start, interrupt) else {
        return Ok(());
    };
    let bytes = rows + OTHER_FILES_BYTES as f64;
    let games = c.end - start;
    if secs >= 60.0 || bytes >= 1e9 {
        eprintln!(
            "estimate: {games} games write about {} and take roughly {} on {} threads (from \
             the first games, played and dropped)",
            bytes_text(bytes),
            duration_text(secs),
            c.threads
        );
    }
    if args.no_space_check {
        return Ok(());
    }
    match mancala_lab::disk::free_bytes(&args.out).map_err(|e| e.to_string())? {
        Some(free) if bytes > free as f64 => Err(format!(
            "--out {}: the study's files would take about {} and its file system has {} free; \
             free some space, play fewer --games (or split them with --shard), or give \
             --no-space-check to start anyway",
            shown_path(&args.out),
            bytes_text(bytes),
            bytes_text(free as f64)
        )),
        _ => Ok(()),
    }
}

/// A job checked against everything that can refuse it before its folder is touched.
/// The most worker threads a job takes.
pub(super) const MAX_THREADS: u16 = 64;

struct CheckedJob {
    job: Job,
    game: GameKind,
    policy: Players,
    engine: Box<dyn PlayoutEngine>,
    /// This folder's games: `first..end`.
    first: u64,
    end: u64,
    threads: usize,
}

/// The job the options (or, with --resume, the manifest) describe, checked: its game, policy,
/// engine, reading and shard.
fn check_job(args: &RunArgs) -> Result<CheckedJob, String> {
    if args.out.as_os_str() == "-" {
        return Err("--out -: a study is a folder of files; name one".into());
    }
    if args.out.join("match.json").symlink_metadata().is_ok() {
        return Err(format!(
            "--out {} holds a match (match.json); a study needs a folder of its own",
            shown_path(&args.out)
        ));
    }
    if !args.resume {
        return check_fields(args, job_of(args)?, None);
    }
    let manifest = args.out.join(MANIFEST);
    let old = read_manifest(&args.out).map_err(|e| format!("--resume: {e}"))?;
    let job = resumed_job(args, &old.job, &manifest)?;
    // The job comes from the manifest: what is wrong with it is wrong there.
    check_fields(args, job, Some(old.threads)).map_err(|e| {
        format!(
            "--resume: {}: the job it records: {e}",
            shown_path(&manifest)
        )
    })
}

/// The job checked field by field: its game, policy, engine, reading and shard. Its threads are
/// --threads, else those `recorded` by the run it resumes (so that its manifest is the one an
/// unbroken run writes), else all cores.
fn check_fields(args: &RunArgs, job: Job, recorded: Option<usize>) -> Result<CheckedJob, String> {
    let game = job.game.parse::<GameKind>().map_err(|e| e.to_string())?;
    let policy = job.policy.parse::<Players>().map_err(|e| e.to_string())?;
    let engine_kind = match job.engine.as_str() {
        "reference" => EngineKind::Reference,
        "optimized" => EngineKind::Optimized,
        other => {
            let other = quoted(other);
            return Err(format!("engine {other} (known: optimized, reference)"));
        }
    };
    let engine = new_engine(game, &job.variant, engine_kind)
        .map_err(|e| format!("--variant {}: {e}", quoted(&job.variant)))?;
    engine.prepare(policy)?;
    if job.max_plies == 0 {
        return Err("--max-plies 0: no game would have a move".into());
    }
    if job.opening >= job.max_plies {
        return Err(format!(
            "--opening {}: every ply of a game would be random (the ply limit is {}); open with \
             fewer plies",
            job.opening, job.max_plies
        ));
    }
    let (first, end) = shard_range(job.games, job.shard.as_deref()).map_err(|e| e.to_string())?;
    let threads = args
        .threads
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

/// Under the folder's lock: a new study's empty games.csv, or a resumed one's rows checked
/// against its manifest (rows written after the last save dropped, to be played again); the
/// manifest, saved before the first game so that a job stopped at any point can be resumed, and
/// the summary and CRC-32 state of the rows kept.
fn open_study(
    args: &RunArgs,
    c: &CheckedJob,
) -> Result<(Manifest, Summary, crc32fast::Hasher), String> {
    let games_path = args.out.join(GAMES);
    let old = if args.resume {
        // Read again under the lock: what the job resumes from.
        let old = read_manifest(&args.out).map_err(|e| format!("--resume: {e}"))?;
        let counted = c.engine.counted_events();
        check_resumable(&old, &c.job, counted, &args.out.join(MANIFEST))?;
        Some(old)
    } else {
        clear_for_new_run(&args.out, args.force, true).map_err(|e| e.to_string())?;
        None
    };
    let mut manifest = Manifest {
        command: args.command.clone().unwrap_or_else(command_line),
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
            return Err(format!(
                "--resume: {} covers games {}..{}, the job {}..{}",
                shown_path(args.out.join(MANIFEST)),
                old.first_game,
                old.end_game,
                c.first,
                c.end
            ));
        }
        let v = verify_rows(&args.out, &old, |_| Ok(())).map_err(|e| format!("--resume: {e}"))?;
        if old.commit != manifest.commit {
            // Allowed (a fix elsewhere in the code changes no game), but never silent.
            eprintln!(
                "note: {} was started by the build of commit {}; this build ({}) plays the rest, \
                 and the manifest now names it",
                shown_path(&args.out),
                escaped(&old.commit),
                manifest.commit
            );
        }
        if v.extra > 0 {
            let f = OpenOptions::new()
                .write(true)
                .open(&games_path)
                .map_err(|e| format!("{}: {e}", shown_path(&games_path)))?;
            f.set_len(v.end)
                .map_err(|e| format!("{}: {e}", shown_path(&games_path)))?;
        }
        (summary, hasher) = (v.summary, v.hasher);
        manifest.games_done = old.games_done;
        manifest.rows_bytes = old.rows_bytes;
        manifest.rows_crc32 = old.rows_crc32;
        manifest.clause_events = old.clause_events;
        // The command that started the study stays: a resume only finishes it.
        manifest.command = old.command;
    } else {
        fs::write(&games_path, header(c.game))
            .map_err(|e| format!("{}: {e}", shown_path(&games_path)))?;
    }
    save_manifest(&args.out, &manifest).map_err(|e| e.to_string())?;
    Ok((manifest, summary, hasher))
}

/// Plays the games the manifest does not count yet, in chunks on every thread, appending their
/// rows in game order and then the manifest that counts them (every second): an interruption in
/// between leaves rows that --resume drops and plays again.
fn play_rows(
    args: &RunArgs,
    c: &CheckedJob,
    (manifest, summary, mut hasher): (&mut Manifest, &mut Summary, crc32fast::Hasher),
    interrupt: &'static AtomicBool,
    bar: &ProgressBar,
) -> Result<(), String> {
    let games_path = args.out.join(GAMES);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(c.threads)
        .build()
        .map_err(|e| e.to_string())?;
    let file = OpenOptions::new()
        .append(true)
        .open(&games_path)
        .map_err(|e| format!("{}: {e}", shown_path(&games_path)))?;
    let mut file = BufWriter::with_capacity(1 << 20, file);
    let start = c.first + manifest.games_done;
    let size = chunk_size(&*c.engine, c.policy);
    let chunks = (c.end - start).div_ceil(size);
    let mut saved_at = Instant::now();
    let mut failed: Option<String> = None;
    let save = |file: &mut BufWriter<File>, m: &Manifest| -> Result<(), String> {
        file.flush()
            .map_err(|e| format!("{}: {e}", shown_path(&games_path)))?;
        save_manifest(&args.out, m).map_err(|e| e.to_string())
    };
    super::in_order(
        &pool,
        0..chunks,
        interrupt,
        |k| {
            let range = super::chunk(start..c.end, size, k);
            play_chunk(&*c.engine, &c.job, c.policy, range, interrupt)
        },
        |_, chunk| {
            // A chunk stopped under way is played again on --resume.
            let chunk = match chunk {
                Ok(Some(chunk)) => chunk,
                Ok(None) => return false,
                Err(e) => {
                    failed = Some(e);
                    return false;
                }
            };
            if let Err(e) = file.write_all(chunk.text.as_bytes()) {
                failed = Some(format!("{}: {e}", shown_path(&games_path)));
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
                    failed = Some(format!(
                        "{}: the count of clause {clause} passes {}; not a manifest a job writes",
                        shown_path(args.out.join(MANIFEST)),
                        u64::MAX
                    ));
                    return false;
                };
                *count = sum;
            }
            bar.set_position(manifest.games_done);
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

/// What `stats merge` refuses before reading a shard: a folder given twice, and `--out` one of
/// the shards.
pub(super) fn check_merge(out: &Path, shards: &[PathBuf]) -> Result<(), String> {
    if out.as_os_str() == "-" {
        return Err("--out -: a study is a folder of files; name one".into());
    }
    for (i, s) in shards.iter().enumerate() {
        if let Some(twice) = shards[..i].iter().find(|t| super::same_file(t, s)) {
            return Err(format!(
                "{} and {} are one folder, given twice",
                shown_path(twice),
                shown_path(s)
            ));
        }
        if super::same_file(s, out) {
            return Err(format!(
                "--out {} is one of the shards being merged; choose another folder",
                shown_path(out)
            ));
        }
        let (inside, outer) = (super::resolved(out), super::resolved(s));
        if inside.starts_with(&outer) {
            return Err(format!(
                "--out {} is inside the shard {}; a merge never writes into what it reads",
                shown_path(out),
                shown_path(s)
            ));
        }
        if outer.starts_with(&inside) {
            return Err(format!(
                "the shard {} is inside --out {}, which the merge writes; move it out first",
                shown_path(s),
                shown_path(out)
            ));
        }
    }
    Ok(())
}

fn merge(out: &Path, force: bool, shards: &[PathBuf]) -> Result<ExitCode, String> {
    if force {
        super::force_not_through_link(out)?;
    }
    check_merge(out, shards)?;
    if out.join("match.json").symlink_metadata().is_ok() {
        return Err(format!(
            "--out {} holds a match (match.json); a study needs a folder of its own",
            shown_path(out)
        ));
    }
    // Ctrl-C (or a termination signal) from the start: before --out is touched it just stops.
    let interrupt = super::interrupt_on_ctrl_c_with(String::new);
    let Some(merged) = merge_shards(out, force, shards, interrupt)? else {
        eprintln!("interrupted; nothing merged into {}", shown_path(out));
        return Ok(ExitCode::from(130));
    };
    if merged.commits.len() > 1 {
        eprintln!("{}", commits_note(&merged.commits));
    }
    print_summary(
        &format!("merged {} shards into {}", shards.len(), shown_path(out)),
        &merged.summary,
        &merged.job,
    );
    if interrupt.load(std::sync::atomic::Ordering::SeqCst) {
        eprintln!(
            "interrupted as the merge was being finished; {} holds it whole",
            shown_path(out)
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// What a merge of shards gives: the summary of all their games, and the commits of the builds
/// that played them.
pub(super) struct Merged {
    pub summary: Summary,
    /// The job of the shards, as one (the first shard's, without its shard).
    pub job: Job,
    pub commits: std::collections::BTreeSet<String>,
}

/// The note that shards were played by more than one build (allowed: a fix elsewhere in the
/// code changes no game; never silent).
pub(super) fn commits_note(commits: &std::collections::BTreeSet<String>) -> String {
    format!(
        "note: the shards were played by the builds of commits {}; the merged manifest names \
         the first shard's",
        commits
            .iter()
            .map(|c| quoted(c))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Merges the checked shards (`check_merge`) into `out`: the files one run of the whole job
/// would have written. `None` when `interrupt` stopped it, with nothing written to `out`.
pub(super) fn merge_shards(
    out: &Path,
    force: bool,
    shards: &[PathBuf],
    interrupt: &AtomicBool,
) -> Result<Option<Merged>, String> {
    let stopped = || interrupt.load(std::sync::atomic::Ordering::SeqCst);
    // Held until the merge is done: no job writes a shard while it is read.
    let _reading = shards
        .iter()
        .map(|s| ReadLock::take(s).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut parts: Vec<Manifest> = Vec::new();
    for s in shards {
        if s.join("match.json").symlink_metadata().is_ok() {
            return Err(format!(
                "{} holds a match (match.json), not a stats study; a match's shards are joined \
                 by `mancala-lab match merge`",
                shown_path(s)
            ));
        }
        parts.push(read_manifest(s).map_err(|e| e.to_string())?);
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
            return Err(format!(
                "{}: a shard of a different job ({difference} in {})",
                shown_path(shards[i].join(MANIFEST)),
                shown_path(shards[order[0]].join(MANIFEST)),
            ));
        }
        if m.first_game != expected {
            return Err(format!(
                "{}: covers games {}..{}, but the next game to merge is {expected} (a shard \
                 missing or given twice)",
                shown_path(&shards[i]),
                m.first_game,
                m.end_game
            ));
        }
        if m.games_done != m.end_game - m.first_game {
            return Err(format!(
                "{}: unfinished ({} of {} games); finish it with --resume",
                shown_path(&shards[i]),
                m.games_done,
                m.end_game - m.first_game
            ));
        }
        expected = m.end_game;
    }
    if expected != base.job.games {
        return Err(format!(
            "the shards cover games 0..{expected} of 0..{}",
            base.job.games
        ));
    }
    // Every shard's rows are checked before --out is touched: a bad shard never costs a study.
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
        let v = v.map_err(|e| e.to_string())?;
        if v.extra > 0 {
            return Err(format!(
                "{}: {} bytes past the {} rows {MANIFEST} counts; finish the shard with: \
                 mancala-lab stats --resume --out {}",
                shown_path(shards[i].join(GAMES)),
                v.extra,
                parts[i].games_done,
                mancala_lab::text::shell_word(&shards[i])
            ));
        }
    }
    let commits = parts.iter().map(|m| m.commit.clone()).collect();
    let created = out.symlink_metadata().is_err();
    make_dir(out).map_err(|e| e.to_string())?;
    let lock = DirLock::take(out).map_err(|e| e.to_string())?;
    // Without --force a study there is refused now; with it, it is replaced only once the
    // merged rows are whole, so that a failed or stopped merge keeps it.
    if !force {
        clear_for_new_run(out, false, false).map_err(|e| e.to_string())?;
    } else {
        mancala_lab::study::only_study_files(out).map_err(|e| e.to_string())?;
    }
    // The merged study is made in a folder of its own inside --out, removed if the merge fails
    // or is stopped, and swapped in whole.
    let staging = mancala_lab::study::staging_dir(out).map_err(|e| e.to_string())?;
    let games = staging.path().join(GAMES);
    let made = File::create(&games)
        .map_err(|e| format!("{}: {e}", shown_path(&games)))
        .and_then(|_| write_merged(&games, shards, &parts, &order, &base, interrupt))
        .and_then(|rows| {
            let merged = Manifest {
                command: command_line(),
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
                .and_then(|()| save_manifest(staging.path(), &merged))
                .map_err(|e| e.to_string())?;
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
    super::uninterrupted(|| {
        mancala_lab::study::swap_in(
            out,
            staging.path(),
            &[GAMES, "clauses.csv", "summary.csv", MANIFEST],
        )
    })
    .map_err(|e| format!("{e}; nothing merged into {}", shown_path(out)))?;
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
    interrupt: &std::sync::atomic::AtomicBool,
) -> Result<MergedRows, String> {
    let game = base
        .job
        .game
        .parse::<GameKind>()
        .map_err(|e| e.to_string())?;
    let mut w = BufWriter::with_capacity(
        1 << 20,
        OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(tmp)
            .map_err(|e| format!("{}: {e}", shown_path(tmp)))?,
    );
    let werr = |e: std::io::Error| format!("{}: {e}", shown_path(tmp));
    w.write_all(header(game).as_bytes()).map_err(werr)?;
    let (mut summary, mut hasher, mut bytes) = (Summary::default(), crc32fast::Hasher::new(), 0u64);
    let mut events: BTreeMap<String, u64> = BTreeMap::new();
    for &i in order {
        let v = verify_rows(&shards[i], &parts[i], |row| {
            if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(StudyError::Io {
                    path: tmp.to_path_buf(),
                    source: std::io::ErrorKind::Interrupted.into(),
                });
            }
            hasher.update(row);
            bytes += row.len() as u64;
            w.write_all(row).map_err(|source| StudyError::Io {
                path: tmp.to_path_buf(),
                source,
            })
        })
        .map_err(|e| e.to_string())?;
        summary.merge(&v.summary);
        for (c, n) in &parts[i].clause_events {
            let count = events.entry(c.clone()).or_default();
            *count = count.checked_add(*n).ok_or_else(|| {
                format!(
                    "{}: the count of clause {} passes {} with the shards before it; not a \
                     manifest a job writes",
                    shown_path(shards[i].join(MANIFEST)),
                    escaped(c),
                    u64::MAX
                )
            })?;
        }
    }
    w.flush().map_err(werr)?;
    w.get_ref().sync_all().map_err(werr)?;
    Ok(MergedRows {
        summary,
        bytes,
        crc32: hasher.finalize(),
        events,
    })
}

/// The main job's default study: Bao (default reading) and Oware (sheet), random play on the
/// optimized engines, to OUT/bao and OUT/oware (replacing the previous default study).
pub fn default_study(out: &Path) -> Result<ExitCode, String> {
    let interrupt = interrupt_on_ctrl_c();
    for game in GameKind::ALL {
        let games = game.main_job_games();
        let mut args = RunArgs::random_job(game, None, games, 1, out.join(game.name()));
        args.force = false;
        // The folder may hold this study (finished: played again, the same files; stopped:
        // continued) and nothing else: another study there is the user's, and is kept.
        if args.out.join(MANIFEST).exists() || args.out.join(GAMES).exists() {
            let ours = job_of(&args)?;
            // An older build's manifest has no checksum: its job still says whose study it is.
            let sealed = read_manifest(&args.out).is_ok();
            match read_manifest_unsealed(&args.out) {
                Ok(m) if m.job == ours && sealed && m.games_done < m.end_game - m.first_game => {
                    args = RunArgs {
                        out: args.out,
                        resume: true,
                        ..RunArgs::default()
                    };
                }
                Ok(m) if m.job == ours => args.force = true,
                _ => {
                    return Err(format!(
                        "{} holds another study than the main job's ({games} random {game} \
                         games, seed 1); move it away or delete it, the main job writes there",
                        shown_path(&args.out)
                    ))
                }
            }
        }
        let (code, summary) = run_job(&args, interrupt, Report::Study)?;
        let Some((summary, m)) = summary else {
            return Ok(code);
        };
        print_summary(
            &format!(
                "{game}: {games} random games ({} reading, seed 1) written to {}",
                game.default_variant(),
                shown_path(&args.out)
            ),
            &summary,
            &m.job,
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The folder of the match whose `pairs` folder holds `out` (where it plays its pairings), if any.
pub(super) fn match_of_pairing(out: &Path) -> Option<PathBuf> {
    let abs = super::resolved(out);
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

/// Refuses an `--out` inside a match's `pairs` folder: the match plays its pairings there, and
/// a study of its own would replace one or lie beside them unseen.
fn not_in_a_match(out: &Path) -> Result<(), String> {
    if let Some(matched) = match_of_pairing(out) {
        return Err(format!(
            "--out {}: a pairing folder of the match in {}; the match plays it (mancala-lab \
             match --resume), a study needs a folder of its own",
            shown_path(out),
            shown_path(&matched)
        ));
    }
    Ok(())
}

/// What `stats` would refuse before touching its folder, for `--parse-only`. A resumed job's
/// options come from its manifest, so without `--game` its `--variant` need only name a reading
/// of some game.
pub fn check(args: &StatsArgs) -> Result<(), String> {
    let a = &args.run;
    if let Some(StatsCommand::Merge(m)) = &args.merge {
        if m.force {
            super::force_not_through_link(&m.out)?;
        }
        return check_merge(&m.out, &m.shards);
    }
    not_in_a_match(&a.out)?;
    if a.force {
        super::force_not_through_link(&a.out)?;
    }
    if !a.resume {
        return check_job(a).map(drop);
    }
    if let Some(shard) = &a.shard {
        shard_range(a.games.unwrap_or(u64::MAX), Some(shard)).map_err(|e| e.to_string())?;
    }
    let Some(v) = &a.variant else { return Ok(()) };
    let games = a.game.map_or(GameKind::ALL.to_vec(), |g| vec![g]);
    let errors: Vec<String> = games
        .iter()
        .filter_map(|&g| new_engine(g, v, EngineKind::Reference).err())
        .map(|e| e.to_string())
        .collect();
    if errors.len() == games.len() {
        return Err(format!("--variant {}: {}", quoted(v), errors.join("; ")));
    }
    Ok(())
}

pub fn run(args: StatsArgs) -> Result<ExitCode, String> {
    if let Some(StatsCommand::Merge(m)) = args.merge {
        return merge(&m.out, m.force, &m.shards);
    }
    not_in_a_match(&args.run.out)?;
    if args.run.force {
        super::force_not_through_link(&args.run.out)?;
    }
    let out = mancala_lab::text::shell_word(&args.run.out);
    // The manifest on disk always names rows that are whole: a run stopped at any point resumes.
    let interrupt = interrupt_on_ctrl_c_with(move || {
        format!("interrupted; continue with: mancala-lab stats --resume --out {out}")
    });
    let (code, summary) = run_job(&args.run, interrupt, Report::Study)?;
    if let Some((summary, m)) = summary {
        let opening = match m.job.opening {
            0 => String::new(),
            1 => " after 1 random ply".into(),
            n => format!(" after {n} random plies"),
        };
        print_summary(
            &format!(
                "{} games {}..{} of {} ({} reading, {} policy{opening}, {} engine) written to {}",
                m.job.game,
                m.first_game,
                m.end_game,
                m.job.games,
                m.job.variant,
                m.job.policy,
                m.job.engine,
                shown_path(&args.run.out)
            ),
            &summary,
            &m.job,
        );
    }
    Ok(code)
}
