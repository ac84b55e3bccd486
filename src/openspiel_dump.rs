//! The game records OpenSpiel's games are dumped as (experiments/openspiel/dump_games.py): one
//! game a line, each ply `MOVE:LEGAL:SOUTH.NORTH`, for the games whose pits are letters `A`-`F`.

use crate::audit::{cited_clause, Deviation, Kind};
use crate::side::Side;

/// One recorded ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move letter (`A`-`F` South, `a`-`f` North).
    pub letter: char,
    /// The record's legal moves before it, if it gives them: bit i is pit i from the mover's left.
    pub legal: Option<u8>,
    /// Both scores after it (South, North), if the record gives them.
    pub scores: Option<[u8; 2]>,
}

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The record's name for the game.
    pub game: String,
    /// Where it is: `file:line`.
    pub source: String,
    /// Its plies.
    pub plies: Vec<Ply>,
    /// The final scores and the winner (`None`: a draw), if the record gives them.
    pub end: Option<([u8; 2], Option<Side>)>,
}

/// A line of a dump that is not a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LineError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The games of a dump (`game <index> <ply>... final <south> <north> <return>` lines; `#`
/// lines are comments), or the error of each bad line; a score above `max_score` is one.
pub fn read(text: &str, max_score: u8) -> Vec<Result<Record, LineError>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if let Some((column, name)) = crate::text::odd_line_break(raw) {
            let message = format!(
                "column {column}: {}",
                crate::text::odd_line_break_problem(name)
            );
            out.push(Err(LineError { line, message }));
            continue;
        }
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        out.push(
            read_line(trimmed, max_score)
                .map(|r| Record {
                    source: format!("line {line}"),
                    ..r
                })
                .map_err(|message| LineError { line, message }),
        );
    }
    out
}

/// One game line, trimmed.
fn read_line(line: &str, max_score: u8) -> Result<Record, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() != Some(&"game") || tokens.len() < 2 {
        return Err("expected 'game <index> <ply>... final <south> <north> <return>'".into());
    }
    // Written plainly (no sign, no leading zero): the index names the game in the tables.
    if tokens[1]
        .parse::<u64>()
        .map_or(true, |i| i.to_string() != tokens[1])
    {
        return Err(format!(
            "game index {} is not a whole number below 2^64 written plainly",
            crate::text::quoted(tokens[1])
        ));
    }
    let final_at = tokens
        .iter()
        .position(|&t| t == "final")
        .ok_or("no 'final' at the end of the game")?;
    if tokens.len() != final_at + 4 {
        return Err("'final' must be followed by the two scores and South's return".into());
    }
    let mut plies = Vec::new();
    for (k, token) in tokens[2..final_at].iter().enumerate() {
        let bad = || {
            format!(
                "ply {}: {} is not MOVE:LEGAL:SOUTH.NORTH",
                k + 1,
                crate::text::quoted(token)
            )
        };
        let parts: Vec<&str> = token.split(':').collect();
        let [mv, legal, scores] = parts[..] else {
            return Err(bad());
        };
        let mut letters = mv.chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return Err(bad());
        };
        if !matches!(letter, 'A'..='F' | 'a'..='f') {
            return Err(format!(
                "ply {}: {} is not a pit (A-F, a-f)",
                k + 1,
                crate::text::quoted(mv)
            ));
        }
        let legal = u8::from_str_radix(legal, 16)
            .ok()
            .filter(|&m| m < 64)
            .ok_or_else(bad)?;
        let (s, n) = scores.split_once('.').ok_or_else(bad)?;
        let scores = [
            s.parse::<u8>()
                .ok()
                .filter(|&x| x <= max_score)
                .ok_or_else(bad)?,
            n.parse::<u8>()
                .ok()
                .filter(|&x| x <= max_score)
                .ok_or_else(bad)?,
        ];
        plies.push(Ply {
            letter,
            legal: Some(legal),
            scores: Some(scores),
        });
    }
    let count = |t: &str| {
        t.parse::<u8>()
            .ok()
            .filter(|&x| x <= max_score)
            .ok_or_else(|| {
                format!(
                    "final score {} is not 0-{max_score}",
                    crate::text::quoted(t)
                )
            })
    };
    let scores = [count(tokens[final_at + 1])?, count(tokens[final_at + 2])?];
    let winner = match tokens[final_at + 3] {
        "1" => Some(Side::South),
        "-1" => Some(Side::North),
        "0" => None,
        t => {
            return Err(format!(
                "South's return {} is not 1, 0 or -1",
                crate::text::quoted(t)
            ))
        }
    };
    Ok(Record {
        game: tokens[1].to_string(),
        source: String::new(),
        plies,
        end: Some((scores, winner)),
    })
}

/// A bad record: a move of the player not to move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} '{letter}': {message}")]
pub struct BadRecord {
    /// The ply, from 1.
    pub ply: usize,
    /// The move letter.
    pub letter: char,
    /// What is wrong.
    pub message: String,
}

/// The clauses a game's replay names where its engine's own answer names none.
#[derive(Clone, Copy, Debug)]
pub struct ReplayClauses {
    /// Whose turn it is.
    pub turn: &'static str,
    /// A move the rules allow that the record's engine forbids.
    pub allowed: &'static str,
    /// An illegal move whose error cites no clause.
    pub illegal: &'static str,
    /// Numbers that part after a ply with no step.
    pub numbers: &'static str,
    /// A record that ends where the rules play on.
    pub goes_on: &'static str,
}

/// A game's reference engine under one reading as a dump's records replay it: moves are pits
/// from the mover's left, written `A`… for South and `a`… for North.
pub trait Replayed {
    /// A game state.
    type State;
    /// The game's name as its errors cite a clause (`GAME X.Y`).
    const GAME: &'static str;
    /// What the record's numbers after each ply are called (e.g. `scores`).
    const NUMBERS: &'static str;
    /// The clauses the replay names.
    const CLAUSES: ReplayClauses;
    /// The start of a game.
    fn start(&self) -> Self::State;
    /// The player to move.
    fn to_move(&self, s: &Self::State) -> Side;
    /// The position in the game's position text.
    fn text(&self, s: &Self::State) -> String;
    /// The pit of a move letter (`A`-`F`, `a`-`f`) from its owner's left, or why the board has
    /// no such pit: the clause and the words.
    fn pit(&self, letter: char) -> Result<u8, (&'static str, String)>;
    /// The legal moves, bit i for pit i from the mover's left.
    fn legal_mask(&self, s: &Self::State) -> u8;
    /// Plays the mover's pit: the new state and the clause of its last step; or the error's
    /// words (citing its clause as `game X.Y`).
    fn play(&self, s: &Self::State, pit: u8)
        -> Result<(Self::State, Option<&'static str>), String>;
    /// The numbers the record gives after a ply (South, North).
    fn numbers(&self, s: &Self::State) -> [u8; 2];
    /// The final scores, the winner and the clause, once the game is over.
    fn outcome(&self, s: &Self::State) -> Option<([u8; 2], Option<Side>, &'static str)>;
}

/// The letters of the pits set in `mask` (bit i: pit i from `side`'s left).
fn mask_letters(mask: u8, side: Side) -> String {
    let base = if side == Side::South { b'A' } else { b'a' };
    (0..8)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| char::from(base + i).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The side a move letter names (checked when read).
fn side_of(letter: char) -> Side {
    if letter.is_ascii_uppercase() {
        Side::South
    } else {
        Side::North
    }
}

/// Replays `record` on `game`: the first deviation in play.
pub fn replay<G: Replayed>(game: &G, record: &Record) -> Result<Option<Deviation>, BadRecord> {
    let clause_of = |message: &str, otherwise: &str| {
        cited_clause(message, G::GAME).unwrap_or_else(|| otherwise.to_string())
    };
    let mut state = game.start();
    for (i, ply) in record.plies.iter().enumerate() {
        let n = i + 1;
        let to_move = game.to_move(&state);
        let before = game.text(&state);
        let dev = |kind: Kind, clause: String, ours: String, theirs: String| Deviation {
            ply: n,
            mv: ply.letter.to_string(),
            kind,
            clause,
            witness: format!(
                "{before}move: {}\nours: {ours}\nrecord: {theirs}\n",
                ply.letter
            ),
            reproduced_by: None,
        };
        let pit = match game.pit(ply.letter) {
            Ok(pit) => pit,
            Err((clause, why)) => {
                return Ok(Some(dev(
                    Kind::IllegalMove,
                    clause.into(),
                    why,
                    "legal".into(),
                )))
            }
        };
        let side = side_of(ply.letter);
        if side != to_move {
            return Err(BadRecord {
                ply: n,
                letter: ply.letter,
                message: format!(
                    "a pit of {side}, but {to_move} is to move ({} {})",
                    G::GAME,
                    G::CLAUSES.turn
                ),
            });
        }
        let ours = game.legal_mask(&state);
        if let Some(theirs) = ply.legal.filter(|&l| l != ours) {
            // Which move one side allows and the other does not, and the clause of our verdict.
            let differ = ours ^ theirs;
            let pit = (0..8).find(|i| differ >> i & 1 == 1).expect("masks differ");
            let clause = match game.play(&state, pit) {
                Err(e) => clause_of(&e, G::CLAUSES.illegal),
                // We allow it: the record's engine forbids a move the rules allow.
                Ok(_) => G::CLAUSES.allowed.to_string(),
            };
            return Ok(Some(dev(
                Kind::IllegalMove,
                clause,
                format!("legal {}", mask_letters(ours, to_move)),
                format!("legal {}", mask_letters(theirs, to_move)),
            )));
        }
        let last_step = match game.play(&state, pit) {
            Ok((next, last_step)) => {
                state = next;
                last_step
            }
            Err(e) => {
                let clause = clause_of(&e, G::CLAUSES.illegal);
                return Ok(Some(dev(Kind::IllegalMove, clause, e, "legal".into())));
            }
        };
        let numbers = game.numbers(&state);
        if let Some(theirs) = ply.scores.filter(|&t| t != numbers) {
            // The clause of the last step of our move: where the counts part.
            let clause = last_step.unwrap_or(G::CLAUSES.numbers).to_string();
            let word = G::NUMBERS;
            return Ok(Some(dev(
                Kind::Position,
                clause,
                format!("{word} {} {}", numbers[0], numbers[1]),
                format!("{word} {} {}", theirs[0], theirs[1]),
            )));
        }
    }
    let Some((scores, winner)) = record.end else {
        return Ok(None);
    };
    let show = |s: [u8; 2], w: Option<Side>| {
        let who = w.map_or("a draw".to_string(), |w| format!("{w} wins"));
        format!("{who}, {} {}", s[0], s[1])
    };
    let theirs = show(scores, winner);
    let result = |clause: &str, ours: String| Deviation {
        ply: record.plies.len(),
        mv: String::new(),
        kind: Kind::Result,
        clause: clause.to_string(),
        witness: format!("{}ours: {ours}\nrecord: {theirs}\n", game.text(&state)),
        reproduced_by: None,
    };
    Ok(match game.outcome(&state) {
        None => Some(result(G::CLAUSES.goes_on, "the game goes on".into())),
        Some((s, w, clause)) if s != scores || w != winner => Some(result(clause, show(s, w))),
        Some(_) => None,
    })
}
