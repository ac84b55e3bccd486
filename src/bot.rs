//! The bot protocol: a line protocol on a reader and a writer, in the spirit of UCI, so that
//! other programs can play against a policy of ours (`mancala-lab bot`; docs/bot.md).
//!
//! Commands, one per line (answers one line each):
//! - `position startpos [moves M1 M2 ...]`: the start, then these moves; `ok`, or `error ...`
//!   with the position left as it was. `position text LINE; LINE; ... [moves ...]`: a position
//!   in the game's position text, its lines joined by `;`, instead of the start.
//! - `go [ms=T | sims=N | depth=D | time=T [inc=I]]`: `bestmove M`, the policy's move (the
//!   position does not change), after an `info ...` line saying what a search did; `over WINNER
//!   CLAUSE` once the game is over. A budget given applies to this move only; `time=` is the
//!   mover's clock (milliseconds left, and `inc=` added a move), spent a share at a time.
//! - `legal`: `legal M1 M2 ...`, the legal moves in canonical order.
//! - `newgame`: `ok`, a fresh game at the start with random choices of its own (the next game
//!   of the seed).
//! - `quit` (or the end of input): stop.

use std::io::{BufRead, Read, Write};

use crate::game::{game_keys, Draw, Game};
use crate::policy::{alphabeta, choose, mcts, perfect, Policy, Scratch, MAX_MS};
use crate::text::quoted;

/// The share of the clock a move spends: a twentieth of the time left and three quarters of the
/// increment, never more than half the time left (at least 1 ms).
pub fn clock_budget(time_left: u32, increment: u32) -> u32 {
    let share = u64::from(time_left / 20) + u64::from(increment) * 3 / 4;
    share
        .min(u64::from(time_left / 2))
        .clamp(1, u64::from(MAX_MS)) as u32
}

/// The policy one `go` plays: `policy` with the budget the command's `key=value` words give for
/// this move (none: the policy as it is), or why not.
pub fn budgeted(policy: Policy, words: &[&str]) -> Result<Policy, String> {
    let (mut budget, mut time, mut increment) = (None, None, None);
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!(
                "'go' takes key=value words (ms=, sims=, depth=, time=, inc=), not {}",
                quoted(word)
            ));
        };
        let millis = || {
            value
                .parse::<u32>()
                .map_err(|_| format!("{key}={}: expected milliseconds", quoted(value)))
        };
        match key {
            "ms" | "sims" | "depth" if budget.is_none() => budget = Some((key, value.to_string())),
            "ms" | "sims" | "depth" => return Err("one budget a move: ms=, sims= or depth=".into()),
            "time" => time = Some(millis()?),
            "inc" => increment = Some(millis()?),
            _ => {
                return Err(format!(
                    "'go' knows ms=, sims=, depth=, time= and inc=, not {}",
                    quoted(key)
                ))
            }
        }
    }
    match (time, increment, &budget) {
        (None, Some(_), _) => return Err("inc= goes with time= (the clock)".into()),
        (Some(_), _, Some((key, _))) => {
            return Err(format!(
                "time= sets the move's budget from the clock; leave out {key}="
            ))
        }
        (Some(t), i, None) => {
            budget = Some(("ms", clock_budget(t, i.unwrap_or(0)).to_string()));
        }
        _ => {}
    }
    let Some((key, value)) = budget else {
        return Ok(policy);
    };
    let name = match policy {
        Policy::AlphaBeta(_) => "alphabeta",
        Policy::Mcts(_) => "mcts",
        Policy::Perfect(_) if key == "depth" => "perfect",
        Policy::Perfect(_) => {
            return Err(format!(
                "policy 'perfect' takes depth= only (the alphabeta it plays beyond the \
                 databases), not {key}="
            ))
        }
        other => {
            return Err(format!(
                "policy '{other}' takes no budget (it does not search)"
            ))
        }
    };
    let given: Policy = format!("{name}:{key}={value}")
        .parse()
        .map_err(|e| format!("{e}"))?;
    Ok(match (policy, given) {
        (Policy::AlphaBeta(_), Policy::AlphaBeta(s)) => {
            Policy::AlphaBeta(alphabeta::Settings { limit: s.limit })
        }
        (Policy::Mcts(old), Policy::Mcts(s)) => Policy::Mcts(mcts::Settings {
            limit: s.limit,
            ..old
        }),
        (Policy::Perfect(old), Policy::Perfect(s)) => Policy::Perfect(perfect::Settings {
            depth: s.depth,
            ..old
        }),
        _ => unreachable!("the policy parsed under its own name"),
    })
}

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

/// The state after `moves` from `s`, or why there is none (the first move that is not legal,
/// by its number).
fn after_moves<G: Game>(
    game: &G,
    mut s: G::State,
    moves: &[&str],
) -> Result<(G::State, u32), String> {
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
    let mut game_index = 0;
    let mut keys = game_keys(seed, game_index);
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
            ["position", "startpos", "moves", ref list @ ..] => {
                match after_moves(game, game.start(), list) {
                    Ok((s, n)) => {
                        (state, plies) = (s, n);
                        "ok".to_string()
                    }
                    Err(e) => format!("error {e}"),
                }
            }
            ["position", "text", ref rest @ ..] => {
                // The position text's lines joined by `;`, then the moves played from it.
                let (text, list) = match rest.iter().position(|&w| w == "moves") {
                    Some(i) => (&rest[..i], &rest[i + 1..]),
                    None => (rest, &[][..]),
                };
                let text = text.join(" ").replace(';', "\n");
                match game
                    .state_from_text(&text)
                    .map_err(|e| format!("position text: {e}"))
                    .and_then(|s| after_moves(game, s, list))
                {
                    Ok((s, n)) => {
                        (state, plies) = (s, n);
                        "ok".to_string()
                    }
                    Err(e) => format!("error {e}"),
                }
            }
            ["position", ..] => "error expected 'position startpos [moves M1 M2 ...]' or \
                                 'position text LINE; LINE; ... [moves M1 M2 ...]'"
                .to_string(),
            ["legal"] => {
                game.legal_moves(&state, &mut moves);
                let all: Vec<String> = moves.iter().map(|&m| game.notation(&state, m)).collect();
                format!("legal {}", all.join(" ")).trim_end().to_string()
            }
            ["newgame"] => {
                game_index += 1;
                keys = game_keys(seed, game_index);
                (state, plies) = (game.start(), 0);
                scratch = Scratch::default();
                "ok".to_string()
            }
            ["go", ref budget @ ..] => match (game.ending(&state), budgeted(policy, budget)) {
                (_, Err(e)) => format!("error {e}"),
                (Some(e), _) => format!("over {} {}", e.winner(), e.end_clause()),
                (None, Ok(policy)) => {
                    let mut played = state.clone();
                    let draw = Draw::new(keys, plies);
                    let chosen = choose(game, policy, &mut played, draw, &mut scratch);
                    if let (Some(Ok(_)), Some(info)) = (&chosen, scratch.report(policy)) {
                        writeln!(output, "info {info}")?;
                    }
                    match chosen {
                        Some(Ok((mv, _))) => format!("bestmove {}", game.notation(&state, mv)),
                        Some(Err(silent)) => format!(
                            "error the move chosen reaches a point the reading leaves open ({})",
                            silent.0
                        ),
                        None => "error no legal move, yet the game is not over".to_string(),
                    }
                }
            },
            [command @ ("legal" | "quit" | "newgame"), ..] => {
                format!("error '{command}' takes no arguments")
            }
            [command, ..] => format!(
                "error unknown command {} (known: position, go, legal, newgame, quit)",
                crate::text::quoted(command)
            ),
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
}
