//! `mancala-lab perft`: move-path counts with both engines of a game, which must agree.

use std::process::ExitCode;

use clap::Args;
use mancala_lab::bao::engines::to_fast;
use mancala_lab::bao::fast::{FastRules as BaoFast, FastState};
use mancala_lab::bao::{position_text, Position as BaoPosition, Rules as BaoRules, Side};
use mancala_lab::game::{perft, Game, GameKind};
use mancala_lab::oware::fast::FastRules as OwareFast;
use mancala_lab::oware::{Position as OwarePosition, Rules as OwareRules};

use mancala_lab::text::shown_path;

#[derive(Args)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, value_enum)]
    game: GameKind,
    /// The rule reading (preset of that game) [default: default for bao, sheet for oware].
    #[arg(long)]
    variant: Option<String>,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Position file (default: the start position; '-' reads standard input).
    #[arg(long)]
    position: Option<std::path::PathBuf>,
    /// Print the count under each first move.
    #[arg(long)]
    divide: bool,
    /// Count with the optimized engine only (the reference engine is much slower at depth).
    #[arg(long)]
    fast_only: bool,
}

/// Per first move of `rs` / `fs`: its notation, the optimized engine's count below it and the
/// reference engine's (unless `fast_only`); an error when the engines list different moves.
#[allow(clippy::type_complexity)]
fn divide<R: Game, F: Game<Move = R::Move>>(
    reference: &R,
    fast: &F,
    rs: &R::State,
    fs: &F::State,
    depth: u32,
    fast_only: bool,
) -> Result<Vec<(String, u64, Option<u64>)>, ExitCode> {
    let mut plies = Vec::new();
    fast.successors(fs, &mut plies);
    if !fast_only {
        let (mut want, mut got) = (Vec::new(), Vec::new());
        reference.legal_moves(rs, &mut want);
        fast.legal_moves(fs, &mut got);
        if want != got {
            println!("engines disagree on the legal moves: {want:?} (reference) vs {got:?}");
            return Err(ExitCode::FAILURE);
        }
    }
    // Drawn on a terminal only: one step per first move counted.
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(plies.len() as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    let lines = plies
        .iter()
        .map(|(mv, ply)| {
            let n = ply.as_ref().map_or(0, |p| perft(fast, &p.state, depth));
            let r = (!fast_only).then(|| match reference.play(rs, *mv) {
                Ok(p) => perft(reference, &p.state, depth),
                Err(_) => 0,
            });
            (fast.notation(fs, *mv), n, r)
        })
        .inspect(|_| bar.inc(1))
        .collect();
    bar.finish_and_clear();
    Ok(lines)
}

fn report(lines: Vec<(String, u64, Option<u64>)>, divide: bool) -> ExitCode {
    let mut total = (0u64, Some(0u64));
    let mut agree = true;
    for (name, fast, reference) in &lines {
        total.0 += fast;
        total.1 = total.1.zip(*reference).map(|(a, b)| a + b);
        agree &= reference.is_none_or(|r| r == *fast);
        if divide {
            match reference {
                Some(r) if r != fast => println!("{name} {fast} (reference {r}: DIFFERENT)"),
                _ => println!("{name} {fast}"),
            }
        }
    }
    match total.1 {
        Some(r) if r != total.0 => println!(
            "total {} (optimized) vs {r} (reference): engines disagree",
            total.0
        ),
        Some(_) => println!("total {} (both engines)", total.0),
        None => println!("total {} (optimized engine)", total.0),
    }
    if agree && total.1.is_none_or(|r| r == total.0) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// What `perft` refuses before counting (also for `--parse-only`): a depth of 0, a reading
/// that is not one of the game's or that the optimized engine does not play (perft always
/// counts with it).
pub fn check(args: &PerftArgs) -> Result<(), String> {
    if args.depth == 0 {
        return Err("--depth must be at least 1".to_string());
    }
    let v = preset(args);
    // The optimized engines refuse only readings that leave a point open.
    let unplayed = format!(
        "--variant {v}: perft counts with the optimized engine, which does not play readings \
         that leave a point open (it has no 'rules silent' outcome)"
    );
    match args.game {
        GameKind::Bao => {
            let variant = v.parse().map_err(|e| format!("--variant: {e}"))?;
            BaoFast::new(variant).map_err(|_| unplayed.clone())?;
        }
        GameKind::Oware => {
            let variant = v.parse().map_err(|e| format!("--variant: {e}"))?;
            OwareFast::new(variant).map_err(|_| unplayed)?;
        }
    }
    Ok(())
}

/// The preset named by `--variant`, or the game's default.
fn preset(args: &PerftArgs) -> String {
    args.variant
        .clone()
        .unwrap_or_else(|| args.game.default_variant().into())
}

pub fn run(args: PerftArgs) -> Result<ExitCode, String> {
    check(&args)?;
    let d = args.depth - 1;
    let v = preset(&args);
    let lines = match args.game {
        GameKind::Bao => {
            let variant = v.parse().map_err(|e| format!("--variant: {e}"))?;
            let (reference, fast) = (
                BaoRules::new(variant),
                BaoFast::new(variant).map_err(|e| format!("--variant {v}: {e}"))?,
            );
            let p = match &args.position {
                Some(path) => position_text::parse(&super::position_input(path)?)
                    .map_err(|e| format!("{}: {e}", shown_path(path)))?,
                None => BaoPosition::start(),
            };
            let fp = FastState::new(to_fast(&p));
            divide(&reference, &fast, &p, &fp, d, args.fast_only)
        }
        GameKind::Oware => {
            let variant = v.parse().map_err(|e| format!("--variant: {e}"))?;
            let (reference, fast) = (
                OwareRules::new(variant),
                OwareFast::new(variant).map_err(|e| format!("--variant {v}: {e}"))?,
            );
            let g = match &args.position {
                Some(path) => reference.game_from(
                    OwarePosition::parse(&super::position_input(path)?)
                        .map_err(|e| format!("{}: {e}", shown_path(path)))?,
                ),
                None => reference.new_game(),
            };
            let p = g.position();
            let fg = fast.game(
                p.pits(),
                [p.score(Side::South), p.score(Side::North)],
                p.to_move().index() as u8,
            );
            divide(&reference, &fast, &g, &fg, d, args.fast_only)
        }
    };
    Ok(match lines {
        Ok(lines) => report(lines, args.divide),
        Err(code) => code,
    })
}
