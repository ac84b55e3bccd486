//! `mancala-lab bao ...`: the commands every game has (`cli/game.rs`) and Bao's own, the
//! infinite-move cut-off study.

use std::process::ExitCode;

use clap::Subcommand;
use mancala_lab::bao::Rules;
use mancala_lab::registry::GameKind;
use mancala_lab::text::shown_path;

#[derive(Subcommand)]
pub enum BaoCommand {
    /// The commands every game has.
    #[command(flatten)]
    Game(super::game::GameCommand),
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

/// What a `bao` command refuses before it plays (also for `--parse-only`).
pub fn check(cmd: &BaoCommand) -> Result<(), String> {
    match cmd {
        BaoCommand::Game(cmd) => super::game::check(GameKind::Bao, cmd),
        BaoCommand::Cutoffs { limits, csv, .. } => check_cutoffs(limits, csv.as_deref()),
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

/// Runs a `bao` subcommand.
pub fn run(cmd: BaoCommand) -> Result<ExitCode, String> {
    match cmd {
        BaoCommand::Game(cmd) => super::game::run(GameKind::Bao, cmd),
        BaoCommand::Cutoffs {
            games,
            seed,
            limits,
            csv,
        } => cutoffs(games, seed, &limits, csv.as_deref()),
    }
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
