//! `mancala-lab bao ...`: the start position, legal moves, playing, replaying, explaining and
//! drawing Bao moves, and the infinite-move cut-off study.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use mancala_lab::bao::position_text;
use mancala_lab::bao::transcript::Transcript;
use mancala_lab::bao::variant::InfiniteMoves;
use mancala_lab::bao::{MoveText, Position, Rules, Side, Variant};
use mancala_lab::text::{quoted, shown_path};

use super::read_input;

#[derive(Args, Clone)]
pub struct RuleArgs {
    /// Rule reading: default, literal-en, engines or strict (see spec/bao.md).
    #[arg(long, default_value = "default")]
    variant: String,
    /// What counts as an infinite move (1.5.6): 'exact' or 'sown:N' (overrides the variant's).
    #[arg(long)]
    infinite: Option<String>,
}

impl RuleArgs {
    fn rules(&self) -> Result<Rules, String> {
        self.variant().map(Rules::new)
    }

    /// The reading these options name.
    fn variant(&self) -> Result<Variant, String> {
        let mut variant: Variant = self
            .variant
            .parse()
            .map_err(|e| format!("--variant: {e}"))?;
        if let Some(inf) = &self.infinite {
            let inf: InfiniteMoves = inf.parse().map_err(|e| format!("--infinite: {e}"))?;
            variant = variant.with_infinite_moves(inf);
        }
        Ok(variant)
    }
}

#[derive(Subcommand)]
pub enum BaoCommand {
    /// Print the start position in the position text format.
    Start,
    /// List the legal moves of a position, one per line, in canonical notation.
    Moves {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: std::path::PathBuf,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Play moves from a position and print the resulting position.
    Play {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: std::path::PathBuf,
        /// Moves in KIBA notation, e.g. A6<* a5>.
        #[arg(required = true)]
        moves: Vec<String>,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Replay a transcript from the start position; print the final position and the result.
    Replay {
        /// Transcript file ('-' reads standard input).
        file: std::path::PathBuf,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Show the clause trace of one move: every sowing, harvest and house event with its clause.
    Explain {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: std::path::PathBuf,
        /// The move in KIBA notation.
        #[arg(allow_hyphen_values = true)]
        r#move: String,
        /// Also draw the move's path on the board as SVG to this file (a file, not '-': standard
        /// output holds the trace).
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
        position: std::path::PathBuf,
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
        /// Number of random games (exact detection), at least 1.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Master seed; game i uses stream i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cut-offs to compare, in seeds sown per move (each at least 1).
        #[arg(long, value_delimiter = ',', default_value = "100,192,500",
              value_parser = clap::value_parser!(u32).range(1..))]
        limits: Vec<u32>,
        /// Also write one row per game (game, plies, longest_legal_move, infinite_candidates).
        #[arg(long)]
        csv: Option<std::path::PathBuf>,
    },
}

/// What a `bao` command refuses before reading its position (also for `--parse-only`): a move
/// that is not KIBA notation, and an SVG file that is the position or, beside a trace, `-`.
pub fn check(cmd: &BaoCommand) -> Result<(), String> {
    let written = |m: &str| {
        MoveText::parse(m)
            .map(drop)
            .map_err(|e| format!("move {}: {e}", quoted(m)))
    };
    match cmd {
        BaoCommand::Play { moves, .. } => moves.iter().try_for_each(|m| written(m)),
        BaoCommand::Explain {
            position,
            r#move,
            svg,
            ..
        } => {
            written(r#move)?;
            super::diagram::svg_beside_trace(svg.as_deref(), position)
        }
        BaoCommand::Diagram {
            position,
            r#move,
            out,
            ..
        } => {
            r#move.as_deref().map(written).transpose()?;
            super::diagram::not_an_input("--out", out, position)
        }
        BaoCommand::Cutoffs { limits, csv, .. } => check_cutoffs(limits, csv.as_deref()),
        _ => Ok(()),
    }
}

/// What `cutoffs` refuses before playing: a cut-off given twice, and `--csv -` (standard
/// output holds the report).
fn check_cutoffs(limits: &[u32], csv: Option<&std::path::Path>) -> Result<(), String> {
    if let Some(twice) = limits
        .iter()
        .enumerate()
        .find_map(|(i, l)| limits[..i].contains(l).then_some(l))
    {
        return Err(format!("--limits: {twice} given twice"));
    }
    if csv.is_some_and(|p| p.as_os_str() == "-") {
        return Err("--csv -: standard output holds the report; name a file".into());
    }
    Ok(())
}

/// Plays one written Bao move from `pos`: its canonical notation and what it did.
fn play_one(
    rules: &Rules,
    pos: &Position,
    written: &str,
) -> Result<(String, mancala_lab::bao::Played), String> {
    let text = MoveText::parse(written).map_err(|e| format!("move {}: {e}", quoted(written)))?;
    let (mv, played) = rules
        .play_text(pos, &text)
        .map_err(|e| format!("move {} is illegal: {e}", quoted(written)))?;
    Ok((mv.notation(pos.to_move(), played.kind), played))
}

fn load_position(path: &std::path::Path) -> Result<Position, String> {
    let text = super::position_input(path)?;
    position_text::parse(&text).map_err(|e| format!("{}: {e}", super::input_name(path)))
}

/// Runs a `bao` subcommand.
pub fn run(cmd: BaoCommand) -> Result<ExitCode, String> {
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
                    .map_err(|e| format!("move {} {}: {e}", i + 1, quoted(written)))?;
                let (_, played) = rules
                    .play_text(&pos, &text)
                    .map_err(|e| format!("move {} {} is illegal: {e}", i + 1, quoted(written)))?;
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
            let file = super::input_name(&file);
            super::line_ends(&file, &text)?;
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
                        "{file}: line {}, column {}: move {} ({side}) {} is illegal: {e}",
                        ply.line,
                        ply.column,
                        ply.number,
                        quoted(&ply.text.to_string())
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
            super::diagram::not_an_input("--out", &out, &position)?;
            let rules = rules.rules()?;
            let pos = load_position(&position)?;
            let svg = match r#move {
                None => mancala_lab::bao::diagram::bao_svg(
                    &pos,
                    &mancala_lab::bao::diagram::bao_title_under(&rules, &pos, None),
                    &[],
                )?,
                Some(written) => {
                    let (text, played) = play_one(&rules, &pos, &written)?;
                    let title =
                        mancala_lab::bao::diagram::bao_title_under(&rules, &pos, Some(&text));
                    mancala_lab::bao::diagram::bao_svg(&pos, &title, &played.trace)?
                }
            };
            super::diagram::write_svg(&out, &svg)?;
        }
        BaoCommand::Explain {
            position,
            r#move,
            svg,
            rules,
        } => {
            super::diagram::svg_beside_trace(svg.as_deref(), &position)?;
            let rules = rules.rules()?;
            let pos = load_position(&position)?;
            let (text, played) = play_one(&rules, &pos, &r#move)?;
            // The drawing is written before the trace is printed: a --svg that cannot be
            // written fails the command with nothing printed.
            if let Some(out) = &svg {
                let title = mancala_lab::bao::diagram::bao_title_under(&rules, &pos, Some(&text));
                let picture = mancala_lab::bao::diagram::bao_svg(&pos, &title, &played.trace)?;
                super::diagram::write_svg_file("--svg", out, &picture)?;
            }
            println!("{text} by {} ({:?} stage)", pos.to_move(), pos.stage());
            for step in &played.trace {
                println!("  {step}");
            }
            println!("resulting position:");
            print!("{}", position_text::print(&played.position));
            if let Some(out) = svg {
                eprintln!("wrote {}", out.display());
            }
        }
        BaoCommand::Cutoffs {
            games,
            seed,
            limits,
            csv,
        } => {
            return cutoffs(games, seed, &limits, csv.as_deref());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `bao cutoffs`: random games under exact detection, with a progress bar; rows stream to the
/// CSV in game order, and Ctrl-C stops taking games and reports on those played (exit 130).
fn cutoffs(
    games: u64,
    seed: u64,
    limits: &[u32],
    csv: Option<&std::path::Path>,
) -> Result<ExitCode, String> {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    check_cutoffs(limits, csv)?;
    let mut out = match csv {
        Some(path) => {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => format!(
                        "--csv {}: something is there already; cutoffs writes a new file, \
                         choose another name (or remove it)",
                        shown_path(path)
                    ),
                    _ => format!("--csv {}: {e}", shown_path(path)),
                })?;
            // Rows are written whole, one write each (the games cost far more), so that a
            // failed write can be cut back to the last whole row.
            let header = "game,plies,longest_legal_move,infinite_candidates\n";
            file.write_all(header.as_bytes())
                .map_err(|e| format!("--csv {}: {e}", shown_path(path)))?;
            Some((file, path, header.len() as u64))
        }
        None => None,
    };
    let rules = Rules::default();
    let interrupt = super::interrupt_on_ctrl_c();
    let (bar, pool) = super::bar_and_pool(games)?;
    let (mut with_infinite, mut candidates, mut longest) = (0u64, 0u64, 0u32);
    let mut misjudged = vec![0u64; limits.len()];
    let mut failed = None;
    let done = super::in_order(
        &pool,
        0..games,
        interrupt,
        |i| {
            mancala_lab::bao::cutoffs::cutoff_game(
                &rules,
                seed,
                i,
                mancala_lab::playout::DEFAULT_MAX_PLIES,
            )
        },
        |i, r| {
            with_infinite += u64::from(r.infinite_candidates > 0);
            candidates += u64::from(r.infinite_candidates);
            longest = longest.max(r.longest_legal_move);
            for (m, &limit) in misjudged.iter_mut().zip(limits) {
                *m += u64::from(r.longest_legal_move > limit);
            }
            if let Some((file, path, written)) = &mut out {
                let row = format!(
                    "{i},{},{},{}\n",
                    r.plies, r.longest_legal_move, r.infinite_candidates
                );
                if let Err(e) = file.write_all(row.as_bytes()) {
                    let cut = file.set_len(*written).is_ok();
                    failed = Some(format!(
                        "--csv {}: {e}; {}",
                        shown_path(path),
                        if cut {
                            format!("it holds the rows of games 0..{i}, whole")
                        } else {
                            "its last row may be cut".to_string()
                        }
                    ));
                    return false;
                }
                *written += row.len() as u64;
            }
            bar.inc(1);
            true
        },
    );
    bar.finish_and_clear();
    if let Some(e) = failed {
        return Err(e);
    }
    let share = |n: u64| 100.0 * n as f64 / done.max(1) as f64;
    println!(
        "bao cut-off study: {done} random games, seed {seed}, default reading, exact detection"
    );
    println!(
        "  games with at least one infinite candidate move: {with_infinite} ({:.2}%)",
        share(with_infinite)
    );
    println!("  infinite candidate moves met: {candidates}");
    println!("  longest finite legal move offered: {longest} seeds sown");
    for (limit, m) in limits.iter().zip(&misjudged) {
        println!(
            "  cut-off {limit:>5} seeds: {m} games ({:.2}%) offer a finite move it would call infinite",
            share(*m)
        );
    }
    if interrupt.load(Ordering::SeqCst) && done < games {
        eprintln!("interrupted: games 0..{done} of {games} played and reported");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
