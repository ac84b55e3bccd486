//! The bot protocol: a line protocol on a reader and a writer, in the spirit of UCI, so that
//! other programs can play against a policy of ours (`mancala-lab bot`; docs/bot.md).
//!
//! Commands, one per line (answers one line each):
//! - `position startpos [moves M1 M2 ...]`: the start, then these moves; `ok`, or `error ...`
//!   with the position left as it was.
//! - `go`: `bestmove M`, the policy's move (the position does not change), or
//!   `over WINNER CLAUSE` once the game is over.
//! - `legal`: `legal M1 M2 ...`, the legal moves in canonical order.
//! - `quit` (or the end of input): stop.

use std::io::{BufRead, Read, Write};

use crate::game::{game_keys, Draw, Game};
use crate::policy::{choose, Policy, Scratch};

/// The longest command line read (longer ones are refused, whole, with `error`).
pub const MAX_LINE: usize = 1 << 20;

/// The canonical notation of a legal move of `s` that reads `text`, if one does.
fn legal_move<G: Game>(
    game: &G,
    s: &G::State,
    text: &str,
    moves: &mut Vec<G::Move>,
) -> Option<G::Move> {
    game.legal_moves(s, moves);
    moves.iter().copied().find(|&m| game.notation(s, m) == text)
}

/// The state after `moves` from the start, or why there is none (the first move that is not
/// legal, by its number).
fn after_moves<G: Game>(game: &G, moves: &[&str]) -> Result<(G::State, u32), String> {
    let mut s = game.start();
    let mut legal = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let Some(mv) = legal_move(game, &s, text, &mut legal) else {
            let known: Vec<String> = legal.iter().map(|&m| game.notation(&s, m)).collect();
            return Err(format!(
                "move {} {} is not legal here (legal: {})",
                i + 1,
                crate::text::quoted(text),
                if known.is_empty() {
                    "none, the game is over".to_string()
                } else {
                    known.join(" ")
                }
            ));
        };
        if let Err(silent) = game.play_in_place(&mut s, mv) {
            return Err(format!(
                "move {} {text} reaches a point the reading leaves open ({})",
                i + 1,
                silent.0
            ));
        }
    }
    Ok((s, moves.len() as u32))
}

/// Serves the protocol on `input` and `output` with `policy` playing `game`; the policy's
/// random choices come from game 0 of `seed`, ply by ply, so the same position after the same
/// number of plies gets the same move.
pub fn serve<G: Game>(
    game: &G,
    policy: Policy,
    seed: u64,
    mut input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let keys = game_keys(seed, 0);
    let (mut state, mut plies) = (game.start(), 0u32);
    let mut scratch = Scratch::default();
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if read == 0 {
            return Ok(());
        }
        if buf.len() > MAX_LINE {
            // The rest of the line is read and dropped with it.
            while !buf.ends_with(b"\n") {
                buf.clear();
                if (&mut input)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut buf)?
                    == 0
                {
                    break;
                }
            }
            writeln!(output, "error a line of more than {} KiB", MAX_LINE >> 10)?;
            output.flush()?;
            continue;
        }
        let Ok(line) = std::str::from_utf8(&buf) else {
            writeln!(output, "error not UTF-8 text")?;
            output.flush()?;
            continue;
        };
        // A line break other than LF or CRLF (a CR alone, U+2028, ...) would join commands into
        // one (and a client waiting for each answer would wait for ever): named, not taken for a
        // bad command.
        let body = line.strip_suffix('\n').unwrap_or(line);
        if let Some((_, name)) =
            crate::text::odd_line_break(body.strip_suffix('\r').unwrap_or(body))
        {
            writeln!(
                output,
                "error {}",
                crate::text::odd_line_break_problem(name)
            )?;
            output.flush()?;
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match words[..] {
            [] => continue,
            ["quit"] => return Ok(()),
            ["position", "startpos"] => {
                (state, plies) = (game.start(), 0);
                "ok".to_string()
            }
            ["position", "startpos", "moves", ref list @ ..] => match after_moves(game, list) {
                Ok((s, n)) => {
                    (state, plies) = (s, n);
                    "ok".to_string()
                }
                Err(e) => format!("error {e}"),
            },
            ["position", ..] => "error expected 'position startpos [moves M1 M2 ...]'".to_string(),
            ["legal"] => {
                game.legal_moves(&state, &mut moves);
                let all: Vec<String> = moves.iter().map(|&m| game.notation(&state, m)).collect();
                format!("legal {}", all.join(" ")).trim_end().to_string()
            }
            ["go"] => match game.ending(&state) {
                Some(e) => format!("over {} {}", e.winner(), e.end_clause()),
                None => {
                    let mut played = state.clone();
                    let draw = Draw::new(keys, plies);
                    match choose(game, policy, &mut played, draw, &mut scratch) {
                        Some(Ok((mv, _))) => format!("bestmove {}", game.notation(&state, mv)),
                        Some(Err(silent)) => format!(
                            "error the move chosen reaches a point the reading leaves open ({})",
                            silent.0
                        ),
                        None => "error no legal move, yet the game is not over".to_string(),
                    }
                }
            },
            ["go", ..] => {
                "error 'go' takes no arguments (the budget is the policy's: bot --policy)".into()
            }
            [command @ ("legal" | "quit"), ..] => format!("error '{command}' takes no arguments"),
            [command, ..] => format!(
                "error unknown command {} (known: position, go, legal, quit)",
                crate::text::quoted(command)
            ),
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
}
