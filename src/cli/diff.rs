//! `mancala-lab diff`: the reference and optimized engines of a game in lock step on random games.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::Args;
use mancala_lab::batch::{BatchCheck, BatchPath, PathError};
use mancala_lab::diff::{lockstep, Divergence, Engines};
use mancala_lab::game::Game;
use mancala_lab::playout::{EngineKind, Play, PlayoutEngine, DEFAULT_MAX_PLIES};
use mancala_lab::policy::Players;
use mancala_lab::registry::GameKind;
use mancala_lab::registry::{engine, with_game, GameVisitor, Mancala};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Args)]
pub struct DiffArgs {
    /// The game.
    #[arg(long, value_enum)]
    game: GameKind,
    // The game's readings, listed by the registry.
    #[arg(long, help = format!("The rule reading ({})", mancala_lab::registry::readings_help()))]
    variant: Option<String>,
    /// Number of random games, at least 1.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Master seed: game i draws its move bytes from ChaCha8 stream i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Index of the first game, to split a long run or continue one: games first..first+games.
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Stop a game after this many plies (the default of every command; random games end far
    /// sooner).
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES as usize)]
    max_plies: usize,
    /// Bao only: what counts as an infinite move, 'exact' or 'sown:N' (overrides the preset's).
    #[arg(long)]
    infinite: Option<String>,
    /// Start each game from a reachable position (0-59 random plies) changed by this many random
    /// valid mutations (seeds moved, stores, houses, marks; bao/mutate.rs, oware/mutate.rs).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=1000))]
    mutate: u16,
    /// Oware only: check the batch engine (many games at a time in vector lanes) on every path
    /// this processor runs against the scalar optimized engine, game by game (plies, scores, pits,
    /// result), with the batch's own draws.
    #[arg(long, conflicts_with = "rows")]
    batch: bool,
    /// With --batch: check only this batch path (avx512, avx2, portable or scalar).
    #[arg(long, requires = "batch")]
    path: Option<BatchPath>,
    /// Play each game with the stats job's typed engines, reference and optimized, and compare
    /// the games.csv rows and the clause events they give (with --policy; the draws of `stats`).
    #[arg(long, conflicts_with = "mutate")]
    rows: bool,
    /// With --rows: the move policy of both sides, or South's and North's as S/N (as `stats
    /// --policy`).
    #[arg(long, default_value = "random", requires = "rows")]
    policy: Players,
}

/// The random source of game `index`'s start position under `--mutate`: a stream of its own,
/// apart from the move bytes.
fn start_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6d75_7461_7465);
    rng.set_stream(index);
    rng
}

/// The move bytes of game `index`.
pub fn game_bytes(seed: u64, index: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let mut bytes = vec![0u8; 1024];
    rng.fill_bytes(&mut bytes);
    bytes
}

/// Plain `diff` for the game `M`: its two engines in lock step on the games of `args` (with
/// `play` false, only the checks that the engines play the reading).
fn run_pair<M: Mancala>(args: &DiffArgs, play: bool) -> Result<ExitCode, String> {
    let (variant, label) = reading::<M>(args)?;
    let reference = M::reference(variant);
    let optimized = M::optimized(variant).map_err(|e| format!("--variant {label}: {e}"))?;
    if !play {
        return Ok(ExitCode::SUCCESS);
    }
    let engines = Engines::<M> {
        reference: &reference,
        optimized: &optimized,
        label: &label,
    };
    let preset = preset(args);
    // The reference engine's clause trace of the diverging move.
    let explain = |d: &Divergence| -> String {
        let Some(mv) = d.moves.last() else {
            return String::new();
        };
        match mancala_lab::registry::explain::<M>(variant, Some(&d.before), &[], mv) {
            Ok(steps) => {
                let steps: Vec<String> = steps.iter().map(|s| format!("  {s}")).collect();
                format!("reference trace of {mv}:\n{}\n", steps.join("\n"))
            }
            Err(e) => format!("reference refuses {mv}: {e:?}\n"),
        }
    };
    let started = std::time::Instant::now();
    let (bar, pool) = super::bar_and_pool(args.games)?;
    let interrupt = interrupt_with_hint(args, &bar);
    let (mut plies, mut failure) = (0usize, None);
    let end = args.first + args.games;
    let done = mancala_lab::study::pipeline::in_order(
        &pool,
        args.first..end,
        interrupt,
        |i| {
            let text = (args.mutate > 0).then(|| {
                let rng = &mut start_rng(args.seed, i);
                M::print(&M::mutated_start(variant, usize::from(args.mutate), rng))
            });
            let states = match &text {
                None => (reference.start(), optimized.start()),
                Some(t) => engines
                    .states_at(t)
                    .map_err(|why| format!("game {i}: start position refused: {why}\n{t}"))?,
            };
            let from = text.map_or(String::new(), |t| format!("started from:\n{t}"));
            lockstep(&engines, states, &game_bytes(args.seed, i), args.max_plies).map_err(|d| {
                format!(
                    "game {i}: {d}\n{from}{}\nas a regression case (tests/regressions/):\n{}",
                    explain(&d),
                    d.regression_case(args.game.name(), &preset)
                )
            })
        },
        |i, result| {
            bar.set_position(i + 1 - args.first);
            match result {
                Ok(p) => plies += p,
                Err(e) => failure = Some(e),
            }
            failure.is_none()
        },
    );
    bar.finish_and_clear();
    let range = format!("games {}..{}", args.first, args.first + done);
    println!(
        "diff {} vs {}: {done} games ({range}, seed {}), {plies} plies, {} divergent, {:.1} s",
        engines.name(EngineKind::Reference),
        engines.name(EngineKind::Optimized),
        args.seed,
        usize::from(failure.is_some()),
        started.elapsed().as_secs_f64()
    );
    Ok(outcome(failure.map(|f| format!("\n{f}")), done, args))
}

/// Plain `diff` through the registry: [`run_pair`] for the game of `args`.
fn pair(args: &DiffArgs, play: bool) -> Result<ExitCode, String> {
    struct Pair<'a>(&'a DiffArgs, bool);
    impl GameVisitor for Pair<'_> {
        type Output = Result<ExitCode, String>;
        fn visit<M: Mancala>(self) -> Self::Output {
            run_pair::<M>(self.0, self.1)
        }
    }
    with_game(args.game, Pair(args, play))
}

/// Games per batch call under `--batch`.
const BATCH_CHUNK: u64 = 16_384;

/// The batch paths `diff --batch` checks: the one `--path` names, else every vector path this
/// processor runs.
fn batch_paths(args: &DiffArgs) -> Result<Vec<BatchPath>, String> {
    match args.path {
        Some(path) if path.available() => Ok(vec![path]),
        Some(path) => Err(format!("--path: {}", PathError::Unavailable(path))),
        None => Ok(BatchPath::available_paths()
            .into_iter()
            .filter(|&p| p != BatchPath::Scalar)
            .collect()),
    }
}

/// `diff --batch`: the game's batch engine on each of its paths against its scalar optimized
/// engine, game by game.
fn run_batch(args: &DiffArgs, preset: &str) -> Result<ExitCode, String> {
    struct Made<'a>(&'a DiffArgs, Vec<BatchPath>);
    impl GameVisitor for Made<'_> {
        type Output = Result<Box<dyn BatchCheck>, String>;
        fn visit<M: Mancala>(self) -> Self::Output {
            let (variant, _) = reading::<M>(self.0)?;
            let max_plies =
                u32::try_from(self.0.max_plies).map_err(|_| "--max-plies is too large")?;
            M::batch_check(variant, self.0.seed, max_plies, &self.1)
        }
    }
    let check = with_game(args.game, Made(args, batch_paths(args)?))?;
    let paths = check.paths().to_vec();
    let started = std::time::Instant::now();
    let (bar, pool) = super::bar_and_pool(args.games)?;
    let interrupt = interrupt_with_hint(args, &bar);
    let end = args.first + args.games;
    let chunk_range = |c: u64| mancala_lab::study::pipeline::chunk(args.first..end, BATCH_CHUNK, c);
    let (mut plies, mut games, mut failure) = (0u64, 0u64, None);
    let mut totals: Vec<Vec<u64>> = vec![Vec::new(); paths.len()];
    let chunks = args.games.div_ceil(BATCH_CHUNK);
    let play = |c: u64| check.check(chunk_range(c));
    let done =
        mancala_lab::study::pipeline::in_order(&pool, 0..chunks, interrupt, play, |c, result| {
            match result {
                Ok((p, figures)) => {
                    plies += p;
                    games += chunk_range(c).count() as u64;
                    for (total, f) in totals.iter_mut().zip(figures) {
                        total.resize(total.len().max(f.len()), 0);
                        for (t, x) in total.iter_mut().zip(f) {
                            *t += x;
                        }
                    }
                }
                Err(divergence) => failure = Some(divergence),
            }
            bar.set_position(games);
            failure.is_none()
        });
    bar.finish_and_clear();
    let game = args.game.name();
    println!(
        "diff {game}-batch/{preset} vs {game}-optimized/{preset}: {games} games (games {}..{}, \
         seed {}, batch draws), {plies} plies, {} divergent, {:.1} s",
        args.first,
        args.first + games,
        args.seed,
        usize::from(failure.is_some()),
        started.elapsed().as_secs_f64()
    );
    if paths.is_empty() {
        println!("no vector path runs here: only the scalar engine plays");
    }
    for (i, figures) in totals.iter().enumerate() {
        println!("{}", check.path_line(i, figures));
    }
    if let Some(d) = failure {
        println!(
            "first divergence: game {} on batch path {}\n  batch:  {}\n  scalar: {}",
            d.game, paths[d.path], d.batch, d.scalar
        );
        for line in check.explain(&d) {
            println!("{line}");
        }
        return Ok(ExitCode::FAILURE);
    }
    if done < chunks {
        eprintln!("{}", interrupted(args, games));
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--rows`: the games.csv rows of the reference and optimized engines, game by game.
fn run_rows(args: &DiffArgs) -> Result<ExitCode, String> {
    let variant = preset(args);
    let engines = [EngineKind::Reference, EngineKind::Optimized].map(|kind| {
        engine(args.game, &variant, kind).map_err(|e| format!("--variant {variant}: {e}"))
    });
    let [Ok(reference), Ok(optimized)] = engines else {
        let [a, b] = engines;
        return Err(a.and(b).err().unwrap_or_default());
    };
    // A policy that cannot play (perfect without databases) is refused before any game.
    for engine in [&reference, &optimized] {
        engine.prepare(args.policy)?;
    }
    let end = args.first + args.games;
    let max_plies = u32::try_from(args.max_plies).map_err(|_| "--max-plies is too large")?;
    let started = std::time::Instant::now();
    let (bar, pool) = super::bar_and_pool(args.games)?;
    let interrupt = interrupt_with_hint(args, &bar);
    // The row and the clause events every engine of the game reports.
    let counted = reference.counted_events();
    // A game Ctrl-C stops under way has no row (`None`).
    let row = |engine: &dyn PlayoutEngine, i: u64| {
        let mut text = String::new();
        let played = engine.play_until(
            Play::new(args.policy, max_plies),
            (args.seed, i..i + 1),
            interrupt,
            |row, mut events| {
                mancala_lab::games_csv::RowWriter::new(args.game, &variant, args.policy)
                    .write(&row, &mut text);
                events.retain(|c| counted.contains(&c));
                text.push_str(&format!("  events: {:?}\n", events.sorted()));
            },
        );
        Ok::<_, String>(played?.then_some(text))
    };
    let mut failure = None;
    let mut refused: Option<String> = None;
    let mut done = 0;
    mancala_lab::study::pipeline::in_order(
        &pool,
        args.first..end,
        interrupt,
        |i| -> Result<Option<Option<String>>, String> {
            let (Some(a), Some(b)) = (row(&*reference, i)?, row(&*optimized, i)?) else {
                return Ok(None);
            };
            Ok(Some((a != b).then(|| {
                format!(
                    "game {i}:
  reference: {a}  optimized: {b}"
                )
            })))
        },
        |i, differs| {
            // A game stopped under way ends the run before it; a player that cannot play, too.
            let differs = match differs {
                Ok(Some(differs)) => differs,
                Ok(None) => return false,
                Err(e) => {
                    refused = Some(e);
                    return false;
                }
            };
            done += 1;
            bar.set_position(i + 1 - args.first);
            failure = differs;
            failure.is_none()
        },
    );
    bar.finish_and_clear();
    if let Some(e) = refused {
        return Err(e);
    }
    println!(
        "diff --rows {} {variant} {}: {done} games (games {}..{}, seed {}), {} divergent, {:.1} s",
        args.game,
        args.policy,
        args.first,
        args.first + done,
        args.seed,
        usize::from(failure.is_some()),
        started.elapsed().as_secs_f64()
    );
    Ok(outcome(failure.map(|f| format!(" {f}")), done, args))
}

/// Ctrl-C during a diff: the first stops starting games; a second exits at once, naming the
/// `--first` that continues the run (`bar` counts the games checked, in game order).
fn interrupt_with_hint(args: &DiffArgs, bar: &indicatif::ProgressBar) -> &'static AtomicBool {
    let (bar, first, games) = (bar.clone(), args.first, args.games);
    super::interrupt_on_ctrl_c_with(move || interrupted_at(first, games, bar.position()))
}

/// What to say when a run of `args` stops after checking `done` games.
fn interrupted(args: &DiffArgs, done: u64) -> String {
    interrupted_at(args.first, args.games, done)
}

/// The run of `games` games from `first` stopped after `done`: the options that check the rest.
fn interrupted_at(first: u64, games: u64, done: u64) -> String {
    format!(
        "interrupted after {done} of {games} games; check the rest with --first {} --games {}",
        first + done,
        games - done
    )
}

/// The exit of a diff run that checked `done` games: the first divergence (exit 1), an
/// interruption (exit 130, with the `--first` to continue from), or success.
fn outcome(failure: Option<String>, done: u64, args: &DiffArgs) -> ExitCode {
    if let Some(first) = failure {
        println!("first divergence:{first}");
        return ExitCode::FAILURE;
    }
    if done < args.games {
        eprintln!("{}", interrupted(args, done));
        return ExitCode::from(130);
    }
    ExitCode::SUCCESS
}

/// Everything `diff` would refuse before playing: the range, the options that do not go
/// together, the reading and the engines it needs. `--parse-only` runs it too.
pub fn check(args: &DiffArgs) -> Result<(), String> {
    if args.first.checked_add(args.games).is_none() {
        return Err(format!(
            "--first {} with --games {}: the range passes the last game index ({}: games are \
             numbered below 2^64 - 1)",
            args.first,
            args.games,
            u64::MAX - 1
        ));
    }
    if args.batch && !args.game.has_batch() {
        let games: Vec<&str> = GameKind::ALL
            .into_iter()
            .filter(|g| g.has_batch())
            .map(GameKind::name)
            .collect();
        return Err(format!("--batch applies to {} only", games.join(" and ")));
    }
    if args.batch && args.mutate > 0 {
        return Err("--batch plays from the start position only; drop --mutate".to_string());
    }
    if args.infinite.is_some() && args.rows {
        return Err(
            "--infinite does not apply with --rows (name the reading with --variant)".into(),
        );
    }
    if u32::try_from(args.max_plies).is_err() {
        return Err(format!(
            "--max-plies {}: at most {} plies",
            args.max_plies,
            u32::MAX
        ));
    }
    if args.max_plies == 0 {
        return Err(
            "--max-plies 0: no game would have a move, so nothing would be compared".into(),
        );
    }
    if !args.policy.is_deterministic() {
        // The two engines run at different speeds: a time budget would search them to different
        // depths and report divergences the rules do not have.
        return Err(format!(
            "--policy {}: a time budget plays by the clock, so the engines would differ by speed; \
             give a budget of depth= or sims=",
            args.policy
        ));
    }
    if args.rows {
        let v = preset(args);
        for kind in [EngineKind::Reference, EngineKind::Optimized] {
            engine(args.game, &v, kind).map_err(|e| format!("--variant {v}: {e}"))?;
        }
        return Ok(());
    }
    pair(args, false).map(drop)
}

/// The preset named by `--variant`, or the game's default.
fn preset(args: &DiffArgs) -> String {
    args.variant
        .clone()
        .unwrap_or_else(|| args.game.default_variant().to_string())
}

/// The reading of `--variant` with `--infinite` set, and its name in reports.
fn reading<M: Mancala>(args: &DiffArgs) -> Result<(M::Variant, String), String> {
    let v = preset(args);
    let mut variant = M::variant(&v).map_err(|e| format!("--variant: {e}"))?;
    let mut label = v.clone();
    if let Some(inf) = &args.infinite {
        variant = M::set(variant, "infinite", inf).map_err(|e| format!("--infinite: {e}"))?;
        label = format!("{v}+{inf}");
    }
    Ok((variant, label))
}

pub fn run(args: DiffArgs) -> Result<ExitCode, String> {
    check(&args)?;
    if args.rows {
        return run_rows(&args);
    }
    if args.batch {
        return run_batch(&args, &preset(&args));
    }
    pair(&args, true)
}
