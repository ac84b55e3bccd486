//! `mancala-lab diff`: the reference and optimized engines of a game in lock step on random games.

use std::process::ExitCode;

use clap::Args;
use mancala_lab::diff::lockstep;
use mancala_lab::engine::Engine;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

#[derive(Args)]
pub struct DiffArgs {
    /// The game: bao or oware.
    #[arg(long)]
    game: String,
    /// The rule reading (preset name of that game).
    #[arg(long)]
    variant: Option<String>,
    /// Number of random games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Master seed: game i draws its move bytes from ChaCha8 stream i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Index of the first game, to split a long run or continue one: games first..first+games.
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Stop a game after this many plies.
    #[arg(long, default_value_t = 1000)]
    max_plies: usize,
    /// Bao only: what counts as an infinite move, 'exact' or 'sown:N' (overrides the preset's).
    #[arg(long)]
    infinite: Option<String>,
    /// Start each game from a reachable position (0-59 random plies) changed by this many random
    /// valid mutations (seeds moved, stores, houses, marks; bao/mutate.rs, oware/mutate.rs).
    #[arg(long, default_value_t = 0)]
    mutate: usize,
}

/// The random source of game `index`'s start position under `--mutate`: a stream of its own,
/// apart from the move bytes.
fn start_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6d75_7461_7465);
    rng.set_stream(index);
    rng
}

/// Under `--mutate`: a mutated start position as text, drawn from the random source given.
type StartText<'a> = &'a (dyn Fn(&mut ChaCha8Rng) -> String + Sync);

/// The move bytes of game `index`.
pub fn game_bytes(seed: u64, index: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let mut bytes = vec![0u8; 1024];
    rng.fill_bytes(&mut bytes);
    bytes
}

fn run_pair<A: Engine + Sync, B: Engine + Sync>(
    a: &A,
    b: &B,
    args: &DiffArgs,
    variant: &str,
    start: StartText,
    explain: &(dyn Fn(&mancala_lab::diff::Divergence) -> String + Sync),
) -> Result<ExitCode, String> {
    let started = std::time::Instant::now();
    let interrupt = super::interrupt_on_ctrl_c();
    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
            .map_err(|e| e.to_string())?,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .build()
        .map_err(|e| e.to_string())?;
    let (mut plies, mut failure) = (0usize, None);
    let end = args.first + args.games;
    let done = super::in_order(
        &pool,
        args.first..end,
        &interrupt,
        |i| {
            let text = (args.mutate > 0).then(|| start(&mut start_rng(args.seed, i)));
            let (sa, sb) = match &text {
                None => (a.start(), b.start()),
                Some(t) => match (a.parse_state(t), b.parse_state(t)) {
                    (Ok(sa), Ok(sb)) => (sa, sb),
                    (ra, rb) => {
                        let why = ra.err().or(rb.err()).unwrap_or_default();
                        return Err(format!("game {i}: start position refused: {why}\n{t}"));
                    }
                },
            };
            let from = text.map_or(String::new(), |t| format!("started from:\n{t}"));
            lockstep(a, b, sa, sb, &game_bytes(args.seed, i), args.max_plies).map_err(|d| {
                format!(
                    "game {i}: {d}\n{from}{}\nas a regression case (tests/regressions/):\n{}",
                    explain(&d),
                    d.regression_case(&args.game, variant)
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
        a.name(),
        b.name(),
        args.seed,
        usize::from(failure.is_some()),
        started.elapsed().as_secs_f64()
    );
    if let Some(first) = failure {
        println!("first divergence:\n{first}");
        return Ok(ExitCode::FAILURE);
    }
    if done < args.games {
        eprintln!(
            "interrupted after {done} of {} games; continue with --first {}",
            args.games,
            args.first + done
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: DiffArgs) -> Result<ExitCode, String> {
    match args.game.as_str() {
        "oware" => {
            if args.infinite.is_some() {
                return Err("--infinite applies to bao only".to_string());
            }
            use mancala_lab::oware::engines::{Optimized, Reference};
            let v = args.variant.clone().unwrap_or_else(|| "sheet".to_string());
            let rules =
                mancala_lab::oware::Rules::new(v.parse().map_err(|e| format!("--variant: {e}"))?);
            let start = |rng: &mut ChaCha8Rng| {
                mancala_lab::oware::mutate::mutated_start(&rules, args.mutate, rng).print()
            };
            run_pair(
                &Reference::new(&v)?,
                &Optimized::new(&v)?,
                &args,
                &v,
                &start,
                &|_| String::new(),
            )
        }
        "bao" => {
            use mancala_lab::bao::engines::{Optimized, Reference};
            use mancala_lab::bao::variant::{InfiniteMoves, Variant};
            let v = args
                .variant
                .clone()
                .unwrap_or_else(|| "default".to_string());
            let mut variant: Variant = v.parse().map_err(|e| format!("--variant: {e}"))?;
            let mut label = v.clone();
            if let Some(inf) = &args.infinite {
                let inf: InfiniteMoves = inf.parse().map_err(|e| format!("--infinite: {e}"))?;
                variant = variant.with_infinite_moves(inf);
                label = format!("{v}+{inf}");
            }
            // The reference engine's clause trace of the diverging move.
            let explain = move |d: &mancala_lab::diff::Divergence| -> String {
                use mancala_lab::bao::{position_text, MoveText, Rules};
                let rules = Rules::new(variant);
                let (Ok(pos), Some(mv)) = (position_text::parse(&d.before), d.moves.last()) else {
                    return String::new();
                };
                let Ok(text) = MoveText::parse(mv) else {
                    return String::new();
                };
                match rules.play_text(&pos, &text) {
                    Ok((_, played)) => {
                        let steps: Vec<String> =
                            played.trace.iter().map(|s| format!("  {s}")).collect();
                        format!("reference trace of {mv}:\n{}\n", steps.join("\n"))
                    }
                    Err(e) => format!("reference refuses {mv}: {e}\n"),
                }
            };
            let rules = mancala_lab::bao::Rules::new(variant);
            let start = |rng: &mut ChaCha8Rng| {
                let m = mancala_lab::bao::mutate::mutated_start(&rules, args.mutate, rng);
                mancala_lab::bao::position_text::print(&m)
            };
            run_pair(
                &Reference::with(variant, &label),
                &Optimized::with(variant, &label)?,
                &args,
                &v,
                &start,
                &explain,
            )
        }
        other => Err(format!("unknown game '{other}' (known: bao, oware)")),
    }
}
