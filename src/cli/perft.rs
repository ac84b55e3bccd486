//! `mancala-lab perft`: move-path counts with both engines of a game, which must agree.

use std::process::ExitCode;

use clap::Args;
use mancala_lab::game::{perft, Game};
use mancala_lab::registry::GameKind;
use mancala_lab::registry::{with_game, GameVisitor, Mancala};

use mancala_lab::text::shown_path;

#[derive(Args)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, value_enum)]
    game: GameKind,
    // The game's readings, listed by the registry.
    #[arg(long, help = format!("The rule reading ({})", mancala_lab::registry::readings_help()))]
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
    // Drawn on a terminal only: one step per reply to a first move counted, by each engine.
    let mut replies = Vec::new();
    let subtrees: u64 = plies
        .iter()
        .filter_map(|(_, ply)| ply.as_ref().ok())
        .map(|p| {
            fast.successors(&p.state, &mut replies);
            replies.len() as u64
        })
        .sum();
    let engines = if fast_only { 1 } else { 2 };
    let length = (depth > 1).then_some(subtrees * engines);
    let bar =
        indicatif::ProgressBar::with_draw_target(length, indicatif::ProgressDrawTarget::stderr())
            .with_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} subtrees, eta {eta}")
                    .expect("a fixed template"),
            );
    let lines = plies
        .iter()
        .map(|(mv, ply)| {
            let n = ply
                .as_ref()
                .map_or(0, |p| counted(fast, &p.state, depth, &bar));
            let r = (!fast_only).then(|| match reference.play(rs, *mv) {
                Ok(p) => counted(reference, &p.state, depth, &bar),
                Err(_) => 0,
            });
            (fast.notation(fs, *mv), n, r)
        })
        .collect();
    bar.finish_and_clear();
    Ok(lines)
}

/// [`perft`] of `s` to `depth`, one step of `bar` per move from `s` counted.
fn counted<G: Game>(game: &G, s: &G::State, depth: u32, bar: &indicatif::ProgressBar) -> u64 {
    if depth <= 1 {
        return perft(game, s, depth);
    }
    let mut plies = Vec::new();
    game.successors(s, &mut plies);
    plies
        .iter()
        .map(|(_, ply)| {
            let n = ply.as_ref().map_or(0, |p| perft(game, &p.state, depth - 1));
            bar.inc(1);
            n
        })
        .sum()
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
    with_game(args.game, Engines(&preset(args))).map(drop)
}

/// The reference and optimized engines of a reading, or why perft cannot count with them.
struct Engines<'a>(&'a str);

impl GameVisitor for Engines<'_> {
    type Output = Result<(), String>;
    fn visit<M: Mancala>(self) -> Self::Output {
        engines::<M>(self.0).map(drop)
    }
}

/// The engines of game `M` under the preset `v`.
fn engines<M: Mancala>(v: &str) -> Result<(M::Reference, M::Optimized), String> {
    let variant = M::variant(v).map_err(|e| format!("--variant: {e}"))?;
    // The optimized engines refuse only readings that leave a point open.
    let fast = M::optimized(variant).map_err(|_| {
        format!(
            "--variant {v}: perft counts with the optimized engine, which does not play readings \
             that leave a point open (it has no 'rules silent' outcome)"
        )
    })?;
    Ok((M::reference(variant), fast))
}

/// The preset named by `--variant`, or the game's default.
fn preset(args: &PerftArgs) -> String {
    args.variant
        .clone()
        .unwrap_or_else(|| args.game.default_variant().into())
}

/// The counts under each first move, with the engines of the game visited.
struct Count<'a>(&'a PerftArgs);

impl GameVisitor for Count<'_> {
    type Output = Result<Result<Vec<(String, u64, Option<u64>)>, ExitCode>, String>;
    fn visit<M: Mancala>(self) -> Self::Output {
        let args = self.0;
        let (reference, fast) = engines::<M>(&preset(args))?;
        let (rs, fs) = match &args.position {
            Some(path) => {
                let text = super::position_input(path)?;
                let at = |e: String| format!("{}: {e}", shown_path(path));
                (
                    reference.state_from_text(&text).map_err(at)?,
                    fast.state_from_text(&text).map_err(at)?,
                )
            }
            None => (reference.start(), fast.start()),
        };
        Ok(divide(
            &reference,
            &fast,
            &rs,
            &fs,
            args.depth - 1,
            args.fast_only,
        ))
    }
}

pub fn run(args: PerftArgs) -> Result<ExitCode, String> {
    check(&args)?;
    Ok(match with_game(args.game, Count(&args))? {
        Ok(lines) => report(lines, args.divide),
        Err(code) => code,
    })
}
