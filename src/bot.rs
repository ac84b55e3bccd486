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
//! - `stop`: ends the search under way, whose `go` answers with the best move so far; no answer
//!   of its own.
//! - `quit` (or the end of input): stop, a search under way too.

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

/// The longest a search of one `go` runs by default, whatever its budget (`bot --max-ms`).
pub const DEFAULT_MAX_MS: u32 = 60_000;

/// Why the bot stopped serving.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The policy cannot play this game (the `perfect` policy without its databases).
    #[error("{0}")]
    Policy(String),
    /// Writing an answer failed (the other program went away: `BrokenPipe`).
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A line the reader passes on: a command, an answer it gives itself (a bad line), or the end.
enum Line {
    Command(String),
    Answer(String),
    End,
}

/// What the reader and the search share: the `go` commands read and running, the last `go`
/// a `stop` followed, and whether the input ended; `flag` is the searches' stop flag.
#[derive(Default)]
struct Shared {
    gos_read: u64,
    running: u64,
    stop_for: u64,
    ended: bool,
}

/// The stop flag of the search of `go` number `k` (counted from 1) and what sets it.
struct Stopper {
    shared: std::sync::Mutex<Shared>,
    flag: &'static std::sync::atomic::AtomicBool,
}

impl Stopper {
    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the search under way if it is go number `k`.
    fn stop_if_running(&self, shared: &Shared, k: u64) {
        if shared.running == k && k > 0 {
            self.flag.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// Marks go number `k` as running; its flag is set already if a `stop` after it, or the
    /// end of input, was read.
    fn start(&self, k: u64) {
        let mut shared = self.lock();
        shared.running = k;
        let stopped = shared.ended || shared.stop_for >= k;
        self.flag
            .store(stopped, std::sync::atomic::Ordering::SeqCst);
    }

    /// Marks the search as over; whether it was stopped.
    fn finish(&self) -> bool {
        let mut shared = self.lock();
        shared.running = 0;
        self.flag.swap(false, std::sync::atomic::Ordering::SeqCst)
    }
}

/// Reads `input` line by line on a thread of its own, so that a `stop`, a `quit` or the end of
/// input reaches a search under way; every other line is passed on in order.
fn read_lines(
    mut input: impl BufRead + Send + 'static,
    stopper: std::sync::Arc<Stopper>,
    lines: std::sync::mpsc::Sender<Line>,
) {
    let mut buf = Vec::new();
    let end = |stopper: &Stopper| {
        let mut shared = stopper.lock();
        shared.ended = true;
        let running = shared.running;
        stopper.stop_if_running(&shared, running);
    };
    loop {
        buf.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        // A read error ends the input as its end does, after saying so.
        let read = match read {
            Ok(n) => n,
            Err(e) => {
                let _ = lines.send(Line::Answer(format!("error reading the input: {e}")));
                0
            }
        };
        if read == 0 {
            end(&stopper);
            let _ = lines.send(Line::End);
            return;
        }
        let said = if buf.len() > MAX_LINE {
            // The rest of the line is read and dropped with it.
            while !buf.ends_with(b"\n") {
                buf.clear();
                match (&mut input)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
            Line::Answer(format!("error a line of more than {} KiB", MAX_LINE >> 10))
        } else if let Ok(line) = std::str::from_utf8(&buf) {
            // A line break other than LF or CRLF (a CR alone, U+2028, ...) would join commands
            // into one (and a client waiting for each answer would wait for ever): named, not
            // taken for a bad command.
            let body = line.strip_suffix('\n').unwrap_or(line);
            match crate::text::odd_line_break(body.strip_suffix('\r').unwrap_or(body)) {
                Some((_, name)) => Line::Answer(format!(
                    "error {}",
                    crate::text::odd_line_break_problem(name)
                )),
                None => Line::Command(line.to_string()),
            }
        } else {
            Line::Answer("error not UTF-8 text".to_string())
        };
        if let Line::Command(line) = &said {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["stop"] => {
                    // Answered by the `go` it stops; nothing when no search is under way.
                    let mut shared = stopper.lock();
                    shared.stop_for = shared.gos_read;
                    let last = shared.gos_read;
                    stopper.stop_if_running(&shared, last);
                    continue;
                }
                ["quit"] => {
                    end(&stopper);
                    let _ = lines.send(Line::End);
                    return;
                }
                ["go", ..] => stopper.lock().gos_read += 1,
                _ => {}
            }
        }
        if lines.send(said).is_err() {
            return;
        }
    }
}

/// Serves the protocol on `input` and `output` with `policy` playing `game`; the policy's
/// random choices come from game 0 of `seed`, ply by ply, so the same position after the same
/// number of plies gets the same move. Every search ends after `max_ms` milliseconds whatever
/// its budget, at a `stop`, at `quit` or at the end of input, and answers with the best move
/// found so far. Refused before any answer when the policy cannot play `game`.
pub fn serve<G: Game>(
    game: &G,
    policy: Policy,
    seed: u64,
    max_ms: u32,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> Result<(), ServeError> {
    if matches!(policy, Policy::Perfect(_)) {
        perfect::prepare(game).map_err(ServeError::Policy)?;
    }
    // A net learned on another game is refused before any move, as the playouts refuse it.
    if let Policy::Net(settings) = policy {
        crate::policy::net::check(game, settings).map_err(ServeError::Policy)?;
    }
    // One flag for the bot's life: the searches hold on to it.
    let flag: &'static std::sync::atomic::AtomicBool =
        Box::leak(Box::new(std::sync::atomic::AtomicBool::new(false)));
    let stopper = std::sync::Arc::new(Stopper {
        shared: std::sync::Mutex::new(Shared::default()),
        flag,
    });
    let (send, lines) = std::sync::mpsc::channel();
    {
        let stopper = stopper.clone();
        std::thread::spawn(move || read_lines(input, stopper, send));
    }
    let mut game_index = 0;
    let mut keys = game_keys(seed, game_index);
    let (mut state, mut plies) = (game.start(), 0u32);
    let mut scratch = Scratch::stopping_on(flag);
    let mut moves = Vec::new();
    let mut gos = 0u64;
    loop {
        let line = match lines.recv() {
            Ok(Line::Command(line)) => line,
            Ok(Line::Answer(answer)) => {
                writeln!(output, "{answer}")?;
                output.flush()?;
                continue;
            }
            Ok(Line::End) | Err(_) => return Ok(()),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match words[..] {
            [] => continue,
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
                scratch = Scratch::stopping_on(flag);
                "ok".to_string()
            }
            ["go", ref budget @ ..] => {
                gos += 1;
                match (game.ending(&state), budgeted(policy, budget)) {
                    (_, Err(e)) => format!("error {e}"),
                    (Some(e), _) => format!("over {} {}", e.winner(), e.end_clause()),
                    (None, Ok(policy)) => {
                        let mut played = state.clone();
                        let draw = Draw::new(keys, plies);
                        stopper.start(gos);
                        let mut search = || choose(game, policy, &mut played, draw, &mut scratch);
                        let chosen = if policy.searches() {
                            with_cap(&stopper, gos, max_ms, search)
                        } else {
                            search()
                        };
                        let stopped = stopper.finish();
                        if let (Some(Ok(_)), Some(info)) = (&chosen, scratch.report(policy)) {
                            let mark = if stopped { " stopped" } else { "" };
                            writeln!(output, "info {info}{mark}")?;
                        }
                        match chosen {
                            Some(Ok((mv, _))) => {
                                format!("bestmove {}", game.notation(&state, mv))
                            }
                            Some(Err(silent)) => format!(
                                "error the move chosen reaches a point the reading leaves \
                                 open ({})",
                                silent.0
                            ),
                            None => match scratch.failure() {
                                Some(why) => format!("error {why}"),
                                None => "error no legal move, yet the game is not over".into(),
                            },
                        }
                    }
                }
            }
            [command @ ("legal" | "newgame" | "stop" | "quit"), ..] => {
                format!("error '{command}' takes no arguments")
            }
            [command, ..] => format!(
                "error unknown command {} (known: position, go, stop, legal, newgame, quit)",
                crate::text::quoted(command)
            ),
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
}

/// Runs `search` (go number `k`), stopping it after `max_ms` milliseconds.
fn with_cap<T>(
    stopper: &std::sync::Arc<Stopper>,
    k: u64,
    max_ms: u32,
    search: impl FnOnce() -> T,
) -> T {
    let watch = stopper.clone();
    let cap = std::time::Duration::from_millis(u64::from(max_ms));
    crate::policy::with_deadline(
        cap,
        move || {
            let shared = watch.lock();
            watch.stop_if_running(&shared, k);
        },
        search,
    )
}
