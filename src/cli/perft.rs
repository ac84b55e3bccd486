//! `mancala-lab perft`: move-path counts with both engines of a game, which must agree.

use std::process::ExitCode;

use clap::Args;
use mancala_lab::bao::engines::{fast_move_notation, to_fast};
use mancala_lab::bao::fast::FastRules as BaoFast;
use mancala_lab::bao::{position_text, Position as BaoPosition, Rules as BaoRules, Side};
use mancala_lab::game::GameKind;
use mancala_lab::oware::fast::FastRules as OwareFast;
use mancala_lab::oware::{Move, Position as OwarePosition, Rules as OwareRules};

use super::read_input;

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
    position: Option<String>,
    /// Print the count under each first move.
    #[arg(long)]
    divide: bool,
    /// Count with the optimized engine only (the reference engine is much slower at depth).
    #[arg(long)]
    fast_only: bool,
}

fn bao_ref(r: &BaoRules, p: &BaoPosition, d: u32) -> u64 {
    if d == 0 {
        return 1;
    }
    let moves = r.legal_moves(p);
    moves
        .iter()
        .map(|&m| {
            if d == 1 {
                1
            } else {
                bao_ref(r, &r.play(p, m).expect("legal").position, d - 1)
            }
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

pub fn run(args: PerftArgs) -> Result<ExitCode, String> {
    if args.depth == 0 {
        return Err("--depth must be at least 1".to_string());
    }
    let d = args.depth - 1;
    let v = args
        .variant
        .clone()
        .unwrap_or_else(|| args.game.default_variant().into());
    match args.game {
        GameKind::Bao => {
            let variant = v.parse().map_err(|e| format!("--variant: {e}"))?;
            let (reference, fast) = (
                BaoRules::new(variant),
                BaoFast::new(variant).map_err(|e| format!("--variant {v}: {e}"))?,
            );
            let p = match &args.position {
                Some(path) => {
                    position_text::parse(&read_input(path)?).map_err(|e| format!("{path}: {e}"))?
                }
                None => BaoPosition::start(),
            };
            let side = p.to_move();
            let fp = to_fast(&p);
            let list = fast.legal_moves(&fp);
            let mut lines = Vec::new();
            for i in 0..list.len {
                let name = fast_move_notation(side, list.moves[i], list.kinds[i]);
                let n = fast.perft(&fast.play(&fp, list.moves[i]).0, d);
                let r = (!args.fast_only).then(|| {
                    let text = mancala_lab::bao::MoveText::parse(&name).expect("canonical");
                    match reference.play_text(&p, &text) {
                        Ok((_, played)) => bao_ref(&reference, &played.position, d),
                        Err(_) => u64::MAX,
                    }
                });
                lines.push((name, n, r));
            }
            if !args.fast_only && reference.legal_moves(&p).len() != list.len {
                println!("engines disagree on the number of legal moves");
                return Ok(ExitCode::FAILURE);
            }
            Ok(report(lines, args.divide))
        }
        GameKind::Oware => {
            let variant = v.parse().map_err(|e| format!("--variant: {e}"))?;
            let (reference, fast) = (
                OwareRules::new(variant),
                OwareFast::new(variant).map_err(|e| format!("--variant {v}: {e}"))?,
            );
            let g = match &args.position {
                Some(path) => reference.game_from(
                    OwarePosition::parse(&read_input(path)?).map_err(|e| format!("{path}: {e}"))?,
                ),
                None => reference.new_game(),
            };
            let p = g.position();
            let fg = fast.game(
                p.pits(),
                [p.score(Side::South), p.score(Side::North)],
                p.to_move().index() as u8,
            );
            let mask = fast.legal_mask(&fg);
            let mut lines = Vec::new();
            for pit in (0..6u8).filter(|i| mask & (1 << i) != 0) {
                let mut child = fg.clone();
                fast.play(&mut child, pit);
                let n = fast.perft(&child, d);
                let r = (!args.fast_only).then(|| match reference.play(&g, Move { pit }) {
                    Ok(played) => reference.perft(&played.game, d),
                    Err(_) => u64::MAX,
                });
                lines.push((Move { pit }.letter(p.to_move()).to_string(), n, r));
            }
            if !args.fast_only && reference.legal_moves(&g).len() != lines.len() {
                println!("engines disagree on the number of legal moves");
                return Ok(ExitCode::FAILURE);
            }
            Ok(report(lines, args.divide))
        }
    }
}
