//! `mancala-lab bench`: random playouts per second, reference against optimized engine, one thread
//! and all cores, measured in one run so the ratios compare like with like on a noisy machine.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use mancala_lab::batch::BatchPath;
use mancala_lab::bench::{shown, Bench, BenchPart, Parser, Rate};
use mancala_lab::game::game_keys;
use mancala_lab::registry::{with_game, GameKind, GameVisitor, Mancala};
use std::sync::atomic::AtomicBool;

/// Shortest measurement: below it the clock's resolution and a single slow game dominate.
const MIN_SECONDS: f64 = 0.1;
/// Longest measurement (an hour; the whole bench makes about ten).
const MAX_SECONDS: f64 = 3600.0;

/// Set by Ctrl-C: measurements stop, the stats job winds down, the scratch folder is removed.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Set when a part of the bench failed: it goes on, then exits 2.
static FAILED: AtomicBool = AtomicBool::new(false);

/// The folder the stats job of a bench writes to while it runs: made new in the temporary
/// folder (`mancala-lab-bench-PID-` and a random suffix), removed after it and on Ctrl-C.
static SCRATCH: std::sync::Mutex<Option<std::path::PathBuf>> = std::sync::Mutex::new(None);

/// Removes the scratch folder, if there is one; its path.
fn remove_scratch() -> Option<std::path::PathBuf> {
    let path = SCRATCH.lock().ok()?.take()?;
    let _ = std::fs::remove_dir_all(&path);
    Some(path)
}

/// Ctrl-C stops the bench after the current measurement (exit 130); a second Ctrl-C stops it at
/// once. Either way the scratch folder goes.
fn stop_on_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            remove_scratch();
            std::process::exit(130);
        }
    });
}

/// The exit of an interrupted bench, its scratch folder removed.
fn stopped() -> Result<ExitCode, String> {
    let removed = remove_scratch().map_or(String::new(), |p| {
        format!("; its scratch folder {} is removed", p.display())
    });
    eprintln!(
        "bench interrupted (Ctrl-C or a termination signal); the lines above are the \
         measurements made{removed} (no stats job to resume)"
    );
    Ok(ExitCode::from(130))
}

/// A `--seconds` value and its text as given (shown as written in an error: `1e400`, not `inf`).
#[derive(Clone, Debug)]
pub struct Seconds {
    value: f64,
    text: String,
}

impl std::str::FromStr for Seconds {
    type Err = std::num::ParseFloatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Seconds {
            value: s.parse()?,
            text: s.to_string(),
        })
    }
}

#[derive(Args)]
pub struct BenchArgs {
    /// Seconds to spend on each measurement, from 0.1 to 3600.
    #[arg(long, default_value = "3")]
    seconds: Seconds,
    /// Master seed of the random games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Measure the text parsers instead: time per word on one long line of N and of 2N words
    /// (a parser linear in the line's length takes the same time per word).
    #[arg(long)]
    parsers: bool,
    /// Measure only these parts (repeatable; all when absent).
    #[arg(long, value_parser = parts())]
    only: Vec<String>,
    /// Also write the measurements as JSON to this file (the machine, its vector extensions and
    /// batch paths, and each line's figures), for scripts that compare runs.
    #[arg(long, value_name = "FILE", conflicts_with = "parsers")]
    json: Option<std::path::PathBuf>,
}

/// The parts `--only` names: a game's engines (by the game's name), the batch engines, the
/// search policies.
fn parts() -> clap::builder::PossibleValuesParser {
    let mut parts: Vec<clap::builder::PossibleValue> = GameKind::ALL
        .into_iter()
        .map(|g| {
            let title = clap::ValueEnum::to_possible_value(&g)
                .and_then(|v| v.get_help().map(ToString::to_string))
                .unwrap_or_else(|| g.name().to_string());
            clap::builder::PossibleValue::new(g.name()).help(format!(
                "{title}: reference and optimized engines, and the game's own lines"
            ))
        })
        .collect();
    parts
        .push(clap::builder::PossibleValue::new("batch").help(
            "The batch engines on every path this processor runs, and the stats job on each",
        ));
    parts.push(
        clap::builder::PossibleValue::new("search").help("The search policies (alphabeta, mcts)"),
    );
    clap::builder::PossibleValuesParser::new(parts)
}

/// Seconds to parse `text` with `parse` (the best of five runs), and what the parser said.
fn parse_seconds(text: &str, parse: &dyn Fn(&str) -> Result<(), String>) -> (f64, String) {
    let seconds = (0..5)
        .map(|_| {
            let start = Instant::now();
            let _ = std::hint::black_box(parse(std::hint::black_box(text)));
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    let verdict = match parse(text) {
        Ok(()) => "accepted".to_string(),
        Err(e) => format!("refused: {e}"),
    };
    (seconds, verdict)
}

/// `bench --parsers`: each parser on inputs of N and of 2N words; each input is read to its
/// end (accepted, or refused only there), so the whole of it is timed.
fn parsers() -> Result<ExitCode, String> {
    struct Parsers;
    impl GameVisitor for Parsers {
        type Output = Vec<Parser>;
        fn visit<M: Mancala>(self) -> Vec<Parser> {
            M::bench_parsers()
        }
    }
    let mut cases: Vec<Parser> = GameKind::ALL
        .into_iter()
        .flat_map(|g| with_game(g, Parsers))
        .collect();
    cases.push((
        "spec clauses (a heading each)",
        |n| {
            let game = GameKind::default();
            let mut spec: String = (0..n)
                .map(|i| format!("## {game} 1.{i} — x\n- kind: normative\n"))
                .collect();
            spec.push_str(&format!("## {game} 1.0 — again\n"));
            spec
        },
        |t| {
            mancala_lab::coverage::parse_spec(GameKind::default().name(), t)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    ));
    let n = 200_000;
    println!("parsers, inputs of N = {n} and 2N words (best of 5 runs):");
    for (name, text, parse) in cases {
        let ((a, verdict), (b, _)) = (
            parse_seconds(&text(n), &parse),
            parse_seconds(&text(2 * n), &parse),
        );
        println!(
            "  {name:<40} N: {:>6.1} ns/word, 2N: {:>6.1} ns/word (ratio {:.2}; 1 = linear)",
            1e9 * a / n as f64,
            1e9 * b / (2 * n) as f64,
            (b / 2.0) / a
        );
        println!("    {verdict}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays games `play(i) -> plies` for about `secs` seconds on one thread (less if interrupted).
fn measure(secs: f64, mut play: impl FnMut(u64) -> u64) -> Rate {
    let budget = Duration::from_secs_f64(secs);
    let start = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    while start.elapsed() < budget && !interrupted() {
        plies += play(games);
        games += 1;
    }
    Rate::new(games, plies, start.elapsed().as_secs_f64())
}

/// Plays the same games `0..games` on all cores (rayon; each thread takes the next game when it is
/// free), with the thread count. Comparing like with like keeps rare slow games from skewing the
/// parallel speed-up.
fn measure_parallel(games: u64, play: impl Fn(u64) -> u64 + Sync) -> (Rate, usize) {
    let threads = rayon::current_num_threads();
    let (next, plies) = (AtomicU64::new(0), AtomicU64::new(0));
    let start = Instant::now();
    rayon::scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games || interrupted() {
                    break;
                }
                plies.fetch_add(play(i), Ordering::Relaxed);
            });
        }
    });
    let rate = Rate::new(games, plies.into_inner(), start.elapsed().as_secs_f64());
    (rate, threads)
}

/// Measures a reference playout against an optimized one (1 thread, then all cores), prints ratios;
/// returns the reference, optimized single-thread and optimized all-core measurements, or `None`
/// if Ctrl-C cut a measurement short (it is not printed).
fn compare(
    secs: f64,
    reference: impl FnMut(u64) -> u64,
    optimized: impl Fn(u64) -> u64 + Sync,
) -> Option<(Rate, Rate, Rate)> {
    let r = measure(secs, reference);
    if interrupted() {
        return None;
    }
    line("reference, 1 thread", r);
    let f = measure(secs, &optimized);
    if interrupted() {
        return None;
    }
    line("optimized, 1 thread", f);
    // The games the single-thread run played, now on every core.
    let (p, threads) = measure_parallel(f.games, &optimized);
    if interrupted() {
        return None;
    }
    line(&format!("optimized, {threads} threads"), p);
    let speed_up = p.games_per_s / f.games_per_s;
    println!(
        "  ratio optimized/reference {}x; parallel speed-up {} on {threads} threads (efficiency {}%)",
        shown(f.games_per_s / r.games_per_s, 1),
        shown(speed_up, 2),
        shown(100.0 * speed_up / threads as f64, 0)
    );
    Some((r, f, p))
}

/// The most games a stats line plays.
const STATS_GAMES: u64 = 5_000_000;

/// Runs the stats job (the optimized engine, CSV files and manifest included) on `games` random
/// games (at most [`STATS_GAMES`]) on all cores, and prints its rate beside `engine_rate`, the engine alone on all cores.
/// The job's folder is a scratch folder, removed afterwards (also when Ctrl-C interrupts the job).
fn stats_line(
    label: &str,
    game: GameKind,
    variant: &str,
    games: u64,
    seed: u64,
    engine_rate: Rate,
) {
    // Enough games to time the job, few enough for its scratch files (about 50 bytes a game).
    let games = games.min(STATS_GAMES);
    let made = tempfile::Builder::new()
        .prefix(&format!("mancala-lab-bench-{}-", std::process::id()))
        .tempdir();
    let out = match made {
        Ok(dir) => dir.keep(),
        Err(e) => {
            let tmp = std::env::temp_dir();
            println!(
                "  stats job failed: no scratch folder in {}: {e}",
                tmp.display()
            );
            FAILED.store(true, Ordering::SeqCst);
            return;
        }
    };
    if let Ok(mut scratch) = SCRATCH.lock() {
        *scratch = Some(out.clone());
    }
    let request = mancala_lab::study::Request {
        no_estimate: true,
        command: super::stats::command_line(),
        ..mancala_lab::study::Request::random(game, Some(variant), games, seed, out.clone())
    };
    let start = Instant::now();
    let done = mancala_lab::study::run(&request, &INTERRUPTED, &mut ());
    let secs = start.elapsed().as_secs_f64();
    remove_scratch();
    match done {
        _ if interrupted() => {}
        Ok(_) => {
            let rate = games as f64 / secs;
            let name = format!(
                "{label}stats job, {} threads, CSV included",
                rayon::current_num_threads()
            );
            let share = rate / engine_rate.games_per_s;
            println!(
                "  {name:<52} {:>12} games/s ({}% of the engine alone on all cores)",
                shown(rate, 0),
                shown(100.0 * share, 0)
            );
            record(&name, &[("games_per_s", rate), ("engine_share", share)]);
        }
        Err(e) => {
            println!("  stats job failed: {e}");
            FAILED.store(true, Ordering::SeqCst);
        }
    }
}

fn line(name: &str, r: Rate) {
    let (g, p) = (shown(r.games_per_s, 0), shown(r.plies_per_s, 0));
    println!("  {name:<52} {g:>12} games/s {p:>14} plies/s");
    record(
        name,
        &[
            ("games_per_s", r.games_per_s),
            ("plies_per_s", r.plies_per_s),
        ],
    );
}

/// One measurement of a bench, as `--json` writes it.
#[derive(serde::Serialize)]
struct Measurement {
    /// The heading it was printed under.
    section: String,
    /// Its line's label.
    name: String,
    /// Its figures by name (`games_per_s`, `plies_per_s`, `engine_share`, `nodes_per_s`, ...).
    values: std::collections::BTreeMap<&'static str, f64>,
}

/// The measurements made so far, and the heading they go under.
static MEASUREMENTS: std::sync::Mutex<(String, Vec<Measurement>)> =
    std::sync::Mutex::new((String::new(), Vec::new()));

/// Prints a heading; the measurements after it go under it.
fn section(title: &str) {
    println!("{title}");
    if let Ok(mut m) = MEASUREMENTS.lock() {
        m.0 = title.trim_end_matches(':').to_string();
    }
}

/// Keeps a measurement for `--json` (figures that are not numbers are left out).
fn record(name: &str, values: &[(&'static str, f64)]) {
    if let Ok(mut m) = MEASUREMENTS.lock() {
        let section = m.0.clone();
        m.1.push(Measurement {
            section,
            name: name.trim().to_string(),
            values: values
                .iter()
                .filter(|(_, v)| v.is_finite())
                .copied()
                .collect(),
        });
    }
}

/// The processor's vector extensions that the engines use, as `is_x86_feature_detected!` names
/// them (`neon` on aarch64).
fn vector_extensions() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        let mut found = Vec::new();
        for (name, has) in [
            ("sse2", is_x86_feature_detected!("sse2")),
            ("avx2", is_x86_feature_detected!("avx2")),
            ("avx512f", is_x86_feature_detected!("avx512f")),
            ("avx512bw", is_x86_feature_detected!("avx512bw")),
            ("avx512vbmi", is_x86_feature_detected!("avx512vbmi")),
        ] {
            if has {
                found.push(name);
            }
        }
        found
    }
    #[cfg(target_arch = "aarch64")]
    {
        vec!["neon"]
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        Vec::new()
    }
}

/// The processor's model name (Linux: /proc/cpuinfo), if it can be read.
fn processor() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find_map(|l| l.strip_prefix("model name")?.split_once(':'))
        .map(|(_, name)| name.trim().to_string())
}

/// The `--json` document: the machine, the run and its measurements.
fn json_report(args: &BenchArgs, interrupted: bool) -> String {
    let measurements = MEASUREMENTS
        .lock()
        .map(|mut m| std::mem::take(&mut m.1))
        .unwrap_or_default();
    let report = serde_json::json!({
        "bench": "mancala-lab",
        "version": env!("CARGO_PKG_VERSION"),
        "seconds": args.seconds.value,
        "seed": args.seed,
        "interrupted": interrupted,
        "machine": {
            "processor": processor(),
            "arch": std::env::consts::ARCH,
            "vector_extensions": vector_extensions(),
            "threads": rayon::current_num_threads(),
            "batch_paths": BatchPath::available_paths().iter().map(|p| p.name()).collect::<Vec<_>>(),
        },
        "measurements": measurements,
    });
    format!("{report:#}\n")
}

/// Whether `--json` may write `path`: a new file, or one a bench wrote before.
fn json_target(path: &std::path::Path) -> Result<(), String> {
    let shown = mancala_lab::text::shown_path(path);
    if let Ok(old) = std::fs::read_to_string(path) {
        let ours = serde_json::from_str::<serde_json::Value>(&old)
            .is_ok_and(|v| v.get("bench").and_then(|b| b.as_str()) == Some("mancala-lab"));
        if !ours {
            return Err(format!(
                "--json {shown}: the file is there and is not a bench report; name a new file"
            ));
        }
    } else if path.symlink_metadata().is_ok() {
        return Err(format!("--json {shown}: not a file this bench can replace"));
    }
    Ok(())
}

/// Writes the `--json` document to `path` (checked again: it may have appeared meanwhile).
fn write_json(args: &BenchArgs, path: &std::path::Path, interrupted: bool) -> Result<(), String> {
    json_target(path)?;
    mancala_lab::study::write_atomic(path, &json_report(args, interrupted))
        .map_err(|e| format!("--json {}: {e}", mancala_lab::text::shown_path(path)))
}

/// What `bench` refuses before measuring (also for `--parse-only`).
pub fn check(args: &BenchArgs) -> Result<(), String> {
    if !args.parsers && !(MIN_SECONDS..=MAX_SECONDS).contains(&args.seconds.value) {
        return Err(format!(
            "--seconds {}: expected a number of seconds from {MIN_SECONDS} to {MAX_SECONDS} \
             (a measurement shorter than {MIN_SECONDS} s is mostly noise)",
            args.seconds.text
        ));
    }
    if let Some(path) = &args.json {
        json_target(path)?;
    }
    Ok(())
}

pub fn run(args: BenchArgs) -> Result<ExitCode, String> {
    check(&args)?;
    if args.parsers {
        return parsers();
    }
    let result = measure_all(&args);
    if let Some(path) = &args.json {
        write_json(&args, path, interrupted())?;
    }
    result
}

/// The bench of the command line: measurements of `secs` seconds each on games of `seed`,
/// printed as they are made.
struct Measurer {
    secs: f64,
    seed: u64,
    /// The game whose sections are being measured.
    game: GameKind,
}

impl Bench for Measurer {
    fn seconds(&self) -> f64 {
        self.secs
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn interrupted(&self) -> bool {
        interrupted()
    }

    fn section(&mut self, title: &str) {
        section(title);
    }

    fn say(&mut self, text: &str) {
        println!("{text}");
    }

    fn measure(&mut self, play: &mut dyn FnMut(u64) -> u64) -> Rate {
        measure(self.secs, play)
    }

    fn measure_parallel(
        &mut self,
        games: u64,
        play: &(dyn Fn(u64) -> u64 + Sync),
    ) -> (Rate, usize) {
        measure_parallel(games, play)
    }

    fn line(&mut self, name: &str, rate: Rate) {
        line(name, rate);
    }

    fn compare(
        &mut self,
        reference: &mut dyn FnMut(u64) -> u64,
        optimized: &(dyn Fn(u64) -> u64 + Sync),
    ) -> Option<(Rate, Rate, Rate)> {
        compare(self.secs, reference, optimized)
    }

    fn stats_line(&mut self, label: &str, variant: &str, games: u64, engine_rate: Rate) {
        stats_line(label, self.game, variant, games, self.seed, engine_rate);
    }
}

/// Every part of the bench `--only` names (all by default), printed as it is measured: each
/// game's engines, the batch engines, the search policies.
fn measure_all(args: &BenchArgs) -> Result<ExitCode, String> {
    stop_on_ctrl_c();
    let (secs, seed) = (args.seconds.value, args.seed);
    println!("random playouts from the start position, {secs} s per measurement");
    let part = |p: &str| args.only.is_empty() || args.only.iter().any(|o| o == p);
    let mut bench = Measurer {
        secs,
        seed,
        game: GameKind::default(),
    };
    struct Sections<'a>(&'a mut Measurer, BenchPart);
    impl GameVisitor for Sections<'_> {
        type Output = ();
        fn visit<M: Mancala>(self) {
            self.0.game = M::KIND;
            M::bench(self.0, self.1);
        }
    }
    for game in GameKind::ALL {
        with_game(game, Sections(&mut bench, BenchPart::Notes));
    }
    for game in GameKind::ALL.into_iter().filter(|g| part(g.name())) {
        with_game(game, Sections(&mut bench, BenchPart::Engines));
        if interrupted() {
            return stopped();
        }
    }
    if part("batch") {
        for game in GameKind::ALL {
            with_game(game, Sections(&mut bench, BenchPart::Batch));
            if interrupted() {
                return stopped();
            }
        }
    }
    if part("search") {
        section("search policies, optimized engines, 1 thread, on states of random games:");
        struct Search<'a>(&'a Measurer);
        impl GameVisitor for Search<'_> {
            type Output = ();
            fn visit<M: Mancala>(self) {
                let (name, engine) = M::search_bench();
                search_lines(name, &engine, self.0.secs, self.0.seed);
            }
        }
        for game in GameKind::ALL {
            with_game(game, Search(&bench));
            if interrupted() {
                return stopped();
            }
        }
    }
    if FAILED.load(Ordering::SeqCst) {
        return Err("a part of the bench failed (its line above says why)".into());
    }
    Ok(ExitCode::SUCCESS)
}

/// The depth and simulations the search lines measure.
const SEARCH_DEPTH: u32 = 4;
const SEARCH_SIMS: u32 = 1000;

/// Measures the alphabeta and mcts policies on `game` (nodes and simulations per second), each
/// search on a state of random game `i` of `seed` (a few to 40 plies in).
fn search_lines<G: mancala_lab::game::Game>(name: &str, game: &G, secs: f64, seed: u64) {
    use mancala_lab::game::Draw;
    use mancala_lab::policy::{alphabeta, mcts};
    let state = |i: u64| {
        let keys = game_keys(seed, i);
        let mut s = game.start();
        for ply in 0..(i % 40) as u32 {
            if !matches!(game.play_random(&mut s, Draw::new(keys, ply)), Some(Ok(_))) {
                break;
            }
        }
        (s, Draw::new(keys, 0))
    };
    let ab = alphabeta::Settings {
        limit: alphabeta::Limit::Depth(SEARCH_DEPTH),
    };
    let mut searcher = alphabeta::Searcher::new();
    let nodes = measure(secs, |i| {
        let (s, draw) = state(i);
        let before = searcher.nodes;
        searcher.best_move(game, &s, ab, draw, None);
        searcher.nodes - before
    });
    if interrupted() {
        return;
    }
    let m = mcts::Settings {
        limit: mcts::Limit::Sims(SEARCH_SIMS),
        ..mcts::Settings::DEFAULT
    };
    let mut tree = mcts::Tree::new();
    let sims = measure(secs, |i| {
        let (s, draw) = state(i);
        let before = tree.simulations;
        tree.best_move(game, &s, m, draw, None);
        tree.simulations - before
    });
    if interrupted() {
        return;
    }
    println!(
        "  {name}: alphabeta:depth={SEARCH_DEPTH} {} nodes/s ({} searches/s); \
         mcts:sims={SEARCH_SIMS} {} simulations/s ({} searches/s)",
        shown(nodes.plies_per_s, 0),
        shown(nodes.games_per_s, 1),
        shown(sims.plies_per_s, 0),
        shown(sims.games_per_s, 1)
    );
    record(
        &format!("{name}: alphabeta:depth={SEARCH_DEPTH}"),
        &[
            ("nodes_per_s", nodes.plies_per_s),
            ("searches_per_s", nodes.games_per_s),
        ],
    );
    record(
        &format!("{name}: mcts:sims={SEARCH_SIMS}"),
        &[
            ("simulations_per_s", sims.plies_per_s),
            ("searches_per_s", sims.games_per_s),
        ],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_that_are_not_numbers_are_not_printed_as_such() {
        assert_eq!(shown(f64::NAN, 1), "n/a");
        assert_eq!(shown(f64::INFINITY, 0), "n/a");
        assert_eq!(shown(2.345, 2), "2.35");
    }
}
