//! The game records OpenSpiel's games are dumped as (experiments/openspiel/dump_games.py): one
//! game a line, each ply `MOVE:LEGAL:SOUTH.NORTH`, for the games whose pits are letters `A`-`F`.

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
