//! `mancala-lab oware playouts`: random Oware games on the batch engine on every core, summed up
//! with 95% intervals, optionally one CSV row per game.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use mancala_lab::oware::batch::{Batch, Playout};
use mancala_lab::oware::Variant;
use mancala_lab::stats::{wilson, Tally};

#[derive(Args)]
pub struct PlayoutArgs {
    /// Rule reading: sheet (our reading of the rules sheet) or abapa (OpenSpiel's oware).
    #[arg(long, default_value = "sheet")]
    variant: String,
    /// Number of games.
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Master seed: game i's moves are a function of (seed, i, ply).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Index of the first game, to continue or split a run: games first..first+games.
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Stop a game after this many plies (it counts as cut).
    #[arg(long, default_value_t = 100_000)]
    max_plies: u32,
    /// Also write one row per game, in game order: game, plies, result, score_south, score_north,
    /// end (the clause that ended it).
    #[arg(long)]
    csv: Option<PathBuf>,
}

/// Games per batch call (one unit of work for a thread).
const CHUNK: u64 = 65_536;

/// The CSV name of a result.
fn result_name(result: Option<u8>) -> &'static str {
    match result {
        Some(0) => "south",
        Some(1) => "north",
        Some(_) => "draw",
        None => "cut",
    }
}

pub fn run(args: PlayoutArgs) -> Result<ExitCode, String> {
    let variant: Variant = args
        .variant
        .parse()
        .map_err(|e| format!("--variant: {e}"))?;
    let batch = Batch::new(variant, args.seed, args.max_plies).map_err(|e| e.to_string())?;
    let mut csv = match &args.csv {
        None => None,
        Some(path) => {
            let mut w = csv::Writer::from_path(path)
                .map_err(|e| format!("--csv {}: {e}", path.display()))?;
            w.write_record([
                "game",
                "plies",
                "result",
                "score_south",
                "score_north",
                "end",
            ])
            .map_err(|e| format!("--csv {}: {e}", path.display()))?;
            Some(w)
        }
    };
    eprintln!(
        "engine: {}",
        if batch.uses_vectors() {
            "64-lane AVX-512 batch"
        } else {
            "scalar (no AVX-512 F, BW and VBMI here; same games)"
        }
    );
    let started = std::time::Instant::now();
    let interrupt = super::interrupt_on_ctrl_c();
    let (bar, pool) = super::bar_and_pool(args.games)?;
    let end = args.first + args.games;
    let chunk_range = |c: u64| super::chunk(args.first..end, CHUNK, c);
    let chunks = args.games.div_ceil(CHUNK);
    let (mut tally, mut failure) = (Tally::default(), None);
    let done = super::in_order(
        &pool,
        0..chunks,
        &interrupt,
        |c| {
            let mut games: Vec<Playout> = Vec::with_capacity(CHUNK as usize);
            batch.play(chunk_range(c), |p| games.push(p));
            games.sort_unstable();
            games
        },
        |_, games| {
            for p in &games {
                tally.add(p.plies, p.result, p.scores, p.end);
                if let Some(w) = csv.as_mut() {
                    let row = [
                        p.game.to_string(),
                        p.plies.to_string(),
                        result_name(p.result).to_string(),
                        p.scores[0].to_string(),
                        p.scores[1].to_string(),
                        p.end.to_string(),
                    ];
                    if let Err(e) = w.write_record(&row) {
                        failure = Some(e.to_string());
                        return false;
                    }
                }
            }
            bar.set_position(tally.games);
            true
        },
    );
    bar.finish_and_clear();
    if let (Some(w), Some(path)) = (csv.as_mut(), &args.csv) {
        if let Some(e) = failure
            .take()
            .or_else(|| w.flush().err().map(|e| e.to_string()))
        {
            return Err(format!("--csv {}: {e}", path.display()));
        }
    }
    print_summary(&args, &tally);
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{:.1} s, {:.0} games/s",
        secs,
        tally.games as f64 / secs.max(1e-9)
    );
    if done < chunks {
        eprintln!(
            "interrupted after {} of {} games; continue with --first {}",
            tally.games,
            args.games,
            args.first + tally.games
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

fn print_summary(args: &PlayoutArgs, t: &Tally) {
    println!(
        "oware playouts: {} games (games {}..{}, seed {}, variant {}, max plies {})",
        t.games,
        args.first,
        args.first + t.games,
        args.seed,
        args.variant,
        args.max_plies
    );
    for (name, k) in ["South wins", "North wins", "draws", "cut"]
        .iter()
        .zip(t.results)
    {
        let (p, lo, hi) = wilson(k, t.games);
        println!(
            "  {name:<11} {k:>12} {:>7.3}% [{:.3}, {:.3}]",
            100.0 * p,
            100.0 * lo,
            100.0 * hi
        );
    }
    for (clause, &k) in &t.ends {
        let (p, lo, hi) = wilson(k, t.games);
        println!(
            "  ended by {clause:<6} {k:>9} {:>7.3}% [{:.3}, {:.3}]",
            100.0 * p,
            100.0 * lo,
            100.0 * hi
        );
    }
    let (m, lo, hi) = t.mean_plies();
    println!(
        "  plies       mean {m:.3} [{lo:.3}, {hi:.3}], max {}",
        t.max_plies
    );
    let n = t.games.max(1) as f64;
    println!(
        "  final score mean South {:.3}, North {:.3}",
        t.scores[0] as f64 / n,
        t.scores[1] as f64 / n
    );
}
