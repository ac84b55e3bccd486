//! The `mancala-lab` command line: the default study, clause coverage, and the Bao tools.
//! All printing happens here; the library returns values and typed errors.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod cli;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cli::read_input;

use clap::{Args, Parser, Subcommand};
use mancala_lab::bao::position_text;
use mancala_lab::bao::transcript::Transcript;
use mancala_lab::bao::variant::InfiniteMoves;
use mancala_lab::bao::{MoveText, Position, Rules, Side, Variant};
use mancala_lab::coverage::{self, Report};
use mancala_lab::game::GameKind;

/// Rules verification and research harness for mancala games (Bao la Kiswahili, Oware).
///
/// Run with no subcommand for the main job: the clause-coverage verdict of both games and the
/// default study (random games of both games on the optimized engines, to out/).
#[derive(Parser)]
#[command(name = "mancala-lab", version)]
struct Cli {
    /// Check the command line without running it: the subcommand, every option, and the values
    /// the command would refuse (a reading of its game, --infinite, --shard); exit 0 if it is
    /// valid, 2 naming what is not. Hidden; tests/docs.rs checks the documented commands with it.
    #[arg(long, hide = true)]
    parse_only: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Clause coverage: where each clause of a game's spec is implemented and tested.
    Coverage(CoverageArgs),
    /// Bao la Kiswahili: legal moves, playing, replaying and explaining moves.
    #[command(subcommand)]
    Bao(BaoCommand),
    /// Oware: legal moves, playing, replaying and explaining moves.
    #[command(subcommand)]
    Oware(cli::oware::OwareCommand),
    /// Differential check: the reference and optimized engines in lock step on random games.
    Diff(cli::diff::DiffArgs),
    /// Move-path counts (perft) with both engines of a game, which must agree.
    Perft(cli::perft::PerftArgs),
    /// Playout speed: reference against optimized engines, one thread and all cores.
    Bench(cli::bench::BenchArgs),
    /// Rule inconsistencies: positions where readings differ or no clause decides, with witnesses.
    Inconsistencies(cli::inconsistencies::InconsistencyArgs),
    /// Batch playout statistics as CSV (games, clause counts, summary with 95% intervals).
    Stats(cli::stats::StatsArgs),
    /// Plot the distribution of a games.csv column for one or more runs, as SVG.
    Plot(cli::plot::PlotArgs),
}

#[derive(Args)]
struct CoverageArgs {
    /// The game whose spec to check (spec/<game>.md).
    #[arg(long, value_enum, default_value = "bao")]
    game: GameKind,
    /// The project root holding spec/, src/ and tests/ (default: the current directory if it has spec/).
    #[arg(long)]
    root: Option<PathBuf>,
    /// Also play this many random games (reference engine, default reading) and count how often
    /// each clause fires.
    #[arg(long, default_value_t = 0)]
    playouts: u64,
    /// Print only the one-line verdict.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args, Clone)]
struct RuleArgs {
    /// Rule reading: default, literal-en, engines or strict (see spec/bao.md).
    #[arg(long, default_value = "default")]
    variant: String,
    /// What counts as an infinite move (1.5.6): 'exact' or 'sown:N' (overrides the variant's).
    #[arg(long)]
    infinite: Option<String>,
}

impl RuleArgs {
    fn rules(&self) -> Result<Rules, String> {
        let mut variant: Variant = self
            .variant
            .parse()
            .map_err(|e| format!("--variant: {e}"))?;
        if let Some(inf) = &self.infinite {
            let inf: InfiniteMoves = inf.parse().map_err(|e| format!("--infinite: {e}"))?;
            variant = variant.with_infinite_moves(inf);
        }
        Ok(Rules::new(variant))
    }
}

#[derive(Subcommand)]
enum BaoCommand {
    /// Print the start position in the position text format.
    Start,
    /// List the legal moves of a position, one per line, in canonical notation.
    Moves {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: String,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Play moves from a position and print the resulting position.
    Play {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: String,
        /// Moves in KIBA notation, e.g. A6<* a5>.
        #[arg(required = true, allow_hyphen_values = true)]
        moves: Vec<String>,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Replay a transcript from the start position; print the final position and the result.
    Replay {
        /// Transcript file ('-' reads standard input).
        file: String,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Show the clause trace of one move: every sowing, harvest and house event with its clause.
    Explain {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: String,
        /// The move in KIBA notation.
        #[arg(allow_hyphen_values = true)]
        r#move: String,
        /// Also draw the move's path on the board as SVG to this file ('-': standard output).
        #[arg(long)]
        svg: Option<PathBuf>,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Draw a position as SVG (pits, houses, stores, the kutakatia-ed pit, the player to move);
    /// with --move, the move's path on it, each step numbered with its clause.
    Diagram {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: String,
        /// A move in KIBA notation whose path is drawn.
        #[arg(long = "move", allow_hyphen_values = true)]
        r#move: Option<String>,
        /// The SVG file to write ('-': standard output).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Study: how often exact infinite-move detection and seed-count cut-offs disagree.
    Cutoffs {
        /// Number of random games (exact detection).
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Master seed; game i uses stream i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cut-offs to compare, in seeds sown per move.
        #[arg(long, value_delimiter = ',', default_value = "100,192,500")]
        limits: Vec<u32>,
        /// Also write one row per game (game, plies, longest_legal_move, infinite_candidates).
        #[arg(long)]
        csv: Option<std::path::PathBuf>,
    },
}

/// Plays one written Bao move from `pos`: its canonical notation and what it did.
fn play_one(
    rules: &Rules,
    pos: &Position,
    written: &str,
) -> Result<(String, mancala_lab::bao::Played), String> {
    let text = MoveText::parse(written).map_err(|e| format!("move '{written}': {e}"))?;
    let (mv, played) = rules
        .play_text(pos, &text)
        .map_err(|e| format!("move '{written}' is illegal: {e}"))?;
    Ok((mv.notation(pos.to_move(), played.kind), played))
}

fn load_position(path: &str) -> Result<Position, String> {
    let text = read_input(path)?;
    position_text::parse(&text).map_err(|e| format!("{path}: {e}"))
}

fn project_root(root: Option<PathBuf>) -> PathBuf {
    root.unwrap_or_else(|| {
        if Path::new("spec").is_dir() {
            PathBuf::from(".")
        } else {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        }
    })
}

fn coverage_report(kind: GameKind, root: &Path, playouts: u64) -> Result<Report, String> {
    let game = kind.name();
    let spec_path = root.join("spec").join(format!("{game}.md"));
    let text =
        std::fs::read_to_string(&spec_path).map_err(|e| format!("{}: {e}", spec_path.display()))?;
    let spec =
        coverage::parse_spec(game, &text).map_err(|e| format!("{}: {e}", spec_path.display()))?;
    let annotations =
        coverage::scan_tree(game, root).map_err(|e| format!("scanning {}: {e}", root.display()))?;
    if playouts > 0 {
        let counts = clause_counts(kind, playouts)?;
        let f = move |id: &str| counts.get(id).copied().unwrap_or(0);
        Ok(Report::build(game, &spec, &annotations, Some(&f)))
    } else {
        Ok(Report::build(game, &spec, &annotations, None))
    }
}

/// How often each clause fires in `games` random games (seed 1) of the reference engine under
/// the game's default reading: the clause events of the moves and the clauses that end the games.
fn clause_counts(kind: GameKind, games: u64) -> Result<BTreeMap<&'static str, u64>, String> {
    use mancala_lab::playout::{AnyEngine, EngineKind, DEFAULT_MAX_PLIES};
    use mancala_lab::policy::Policy;
    let engine = AnyEngine::new(kind, kind.default_variant(), EngineKind::Reference)?;
    let mut counts = BTreeMap::new();
    engine.play(
        Policy::Random,
        1,
        0..games,
        DEFAULT_MAX_PLIES,
        |row, events| {
            for (clause, n) in events.iter() {
                *counts.entry(clause).or_default() += n;
            }
            if let Some(end) = row.ending {
                *counts.entry(end.clause).or_default() += 1;
            }
        },
    );
    Ok(counts)
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        None => {
            let root = project_root(None);
            let bao = coverage_report(GameKind::Bao, &root, 0)?;
            let oware = coverage_report(GameKind::Oware, &root, 0)?;
            let verdict = |r: &Report| {
                let (n, ok) = r.normative_counts();
                format!(
                    "{} {ok}/{n} {}",
                    r.game,
                    if r.passed() { "PASS" } else { "FAIL" }
                )
            };
            println!("clause coverage: {}, {}", verdict(&bao), verdict(&oware));
            let code = cli::stats::default_study()?;
            Ok(if bao.passed() && oware.passed() {
                code
            } else {
                ExitCode::FAILURE
            })
        }
        Some(Command::Coverage(args)) => {
            let root = project_root(args.root);
            let report = coverage_report(args.game, &root, args.playouts)?;
            if args.quiet {
                println!("{}", report.summary_line());
            } else {
                print!("{}", report.render());
            }
            Ok(if report.passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Some(Command::Bao(cmd)) => bao(cmd),
        Some(Command::Oware(cmd)) => cli::oware::run(cmd),
        Some(Command::Diff(args)) => cli::diff::run(args),
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Inconsistencies(args)) => cli::inconsistencies::run(args),
        Some(Command::Stats(args)) => cli::stats::run(args),
        Some(Command::Plot(args)) => cli::plot::run(args),
    }
}

fn bao(cmd: BaoCommand) -> Result<ExitCode, String> {
    match cmd {
        BaoCommand::Start => {
            print!("{}", position_text::print(&Position::start()));
        }
        BaoCommand::Moves { position, rules } => {
            let rules = rules.rules()?;
            let pos = load_position(&position)?;
            for mv in rules.legal_moves(&pos) {
                println!("{}", rules.notation(&pos, mv).map_err(|e| e.to_string())?);
            }
            if let Some(out) = rules.outcome(&pos) {
                eprintln!(
                    "no legal move: the game is over, {} wins (bao {})",
                    out.winner, out.clause
                );
            }
        }
        BaoCommand::Play {
            position,
            moves,
            rules,
        } => {
            let rules = rules.rules()?;
            let mut pos = load_position(&position)?;
            for (i, written) in moves.iter().enumerate() {
                let text = MoveText::parse(written)
                    .map_err(|e| format!("move {} '{written}': {e}", i + 1))?;
                let (_, played) = rules
                    .play_text(&pos, &text)
                    .map_err(|e| format!("move {} '{written}' is illegal: {e}", i + 1))?;
                pos = played.position;
            }
            print!("{}", position_text::print(&pos));
            if let Some(out) = rules.outcome(&pos) {
                println!("# result: {} wins (bao {})", out.winner, out.clause);
            }
        }
        BaoCommand::Replay { file, rules } => {
            let rules = rules.rules()?;
            let text = read_input(&file)?;
            let transcript = Transcript::parse(&text).map_err(|e| format!("{file}: {e}"))?;
            let mut pos = Position::start();
            for ply in &transcript.plies {
                let side = if ply.side == Side::South {
                    "South"
                } else {
                    "North"
                };
                let (_, played) = rules.play_text(&pos, &ply.text).map_err(|e| {
                    format!(
                        "{file}: line {}, column {}: move {} ({side}) '{}' is illegal: {e}",
                        ply.line, ply.column, ply.number, ply.text
                    )
                })?;
                pos = played.position;
            }
            print!("{}", position_text::print(&pos));
            match rules.outcome(&pos) {
                Some(out) => println!("# result: {} wins (bao {})", out.winner, out.clause),
                None => println!("# result: game in progress, {} to move", pos.to_move()),
            }
        }
        BaoCommand::Diagram {
            position,
            r#move,
            out,
            rules,
        } => {
            let rules = rules.rules()?;
            let pos = load_position(&position)?;
            let svg = match r#move {
                None => cli::diagram::bao_svg(&pos, &cli::diagram::bao_title(&pos, None), &[])?,
                Some(written) => {
                    let (text, played) = play_one(&rules, &pos, &written)?;
                    let title = cli::diagram::bao_title(&pos, Some(&text));
                    cli::diagram::bao_svg(&pos, &title, &played.trace)?
                }
            };
            cli::diagram::write_svg(&out, &svg)?;
        }
        BaoCommand::Explain {
            position,
            r#move,
            svg,
            rules,
        } => {
            let rules = rules.rules()?;
            let pos = load_position(&position)?;
            let (text, played) = play_one(&rules, &pos, &r#move)?;
            println!("{text} by {} ({:?} stage)", pos.to_move(), pos.stage());
            for step in &played.trace {
                println!("  {step}");
            }
            println!("resulting position:");
            print!("{}", position_text::print(&played.position));
            if let Some(out) = svg {
                let title = cli::diagram::bao_title(&pos, Some(&text));
                let picture = cli::diagram::bao_svg(&pos, &title, &played.trace)?;
                cli::diagram::write_svg(&out, &picture)?;
            }
        }
        BaoCommand::Cutoffs {
            games,
            seed,
            limits,
            csv,
        } => {
            use rayon::prelude::*;
            let rules = Rules::default();
            let records: Vec<_> = (0..games)
                .into_par_iter()
                .map(|i| {
                    mancala_lab::stats::bao_cutoff_game(
                        &rules,
                        seed,
                        i,
                        mancala_lab::playout::DEFAULT_MAX_PLIES,
                    )
                })
                .collect();
            if let Some(path) = &csv {
                let mut text = String::from("game,plies,longest_legal_move,infinite_candidates\n");
                for (i, r) in records.iter().enumerate() {
                    text.push_str(&format!(
                        "{i},{},{},{}\n",
                        r.plies, r.longest_legal_move, r.infinite_candidates
                    ));
                }
                std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            let with_infinite = records.iter().filter(|r| r.infinite_candidates > 0).count();
            let longest = records
                .iter()
                .map(|r| r.longest_legal_move)
                .max()
                .unwrap_or(0);
            println!("bao cut-off study: {games} random games, seed {seed}, default reading, exact detection");
            println!(
                "  games with at least one infinite candidate move: {with_infinite} ({:.2}%)",
                100.0 * with_infinite as f64 / games.max(1) as f64
            );
            println!(
                "  infinite candidate moves met: {}",
                records
                    .iter()
                    .map(|r| u64::from(r.infinite_candidates))
                    .sum::<u64>()
            );
            println!("  longest finite legal move offered: {longest} seeds sown");
            for limit in limits {
                let misjudged = records
                    .iter()
                    .filter(|r| r.longest_legal_move > limit)
                    .count();
                println!(
                    "  cut-off {limit:>5} seeds: {misjudged} games ({:.2}%) offer a finite move it would call infinite",
                    100.0 * misjudged as f64 / games.max(1) as f64
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    // Like other Unix tools, stop quietly when the reader of standard output goes away (`| head`)
    // instead of failing on the next write.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let matches = <Cli as clap::CommandFactory>::command().get_matches();
    let result = if matches.get_flag("parse_only") {
        check_values(&matches).map(|()| ExitCode::SUCCESS)
    } else {
        run(<Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit()))
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("mancala-lab: {message}");
            ExitCode::from(2)
        }
    }
}

/// `--parse-only`: what clap takes as free text but the command would refuse before playing: the
/// reading (`--variant`) of the command's game, `--infinite` and `--shard`.
fn check_values(matches: &clap::ArgMatches) -> Result<(), String> {
    let (mut game, mut args) = (GameKind::Bao, matches);
    while let Some((name, sub)) = args.subcommand() {
        if name == "oware" {
            game = GameKind::Oware;
        }
        args = sub;
    }
    let text = |id: &str| args.try_get_one::<String>(id).ok().flatten();
    if let Ok(Some(&chosen)) = args.try_get_one::<GameKind>("game") {
        game = chosen;
    }
    if let Some(v) = text("variant") {
        match game {
            GameKind::Bao => v.parse::<Variant>().map(drop).map_err(|e| e.to_string()),
            GameKind::Oware => v
                .parse::<mancala_lab::oware::Variant>()
                .map(drop)
                .map_err(|e| e.to_string()),
        }
        .map_err(|e| format!("--variant: {e}"))?;
    }
    if let Some(inf) = text("infinite") {
        inf.parse::<InfiniteMoves>()
            .map_err(|e| format!("--infinite: {e}"))?;
    }
    if let Some(shard) = text("shard") {
        mancala_lab::study::shard_range(0, Some(shard))?;
    }
    Ok(())
}
