//! Oware positions and their text format: twelve pits, two scores, the player to move.
//! Pits are indexed 0–11: South's A–F are 0–5, North's a–f are 6–11; sowing runs upwards (A→F→a→f).

use std::fmt::Write as _;

use super::Side;
use crate::text::quoted;

/// Seeds in play: four in each of the twelve pits (spec: oware O.1.1).
pub const TOTAL_SEEDS: u32 = 48;

/// A validated Oware position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) pits: [u8; 12],
    pub(crate) scores: [u8; 2],
    pub(crate) to_move: Side,
}

/// Why a text or a setup is not an Oware position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A malformed line.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// A required line is absent.
    #[error("missing line '{0}:'")]
    Missing(&'static str),
    /// Pits and scores do not add up to 48.
    #[error("the pits and scores hold {0} seeds; an Oware position has exactly 48")]
    SeedCount(u32),
}

/// The first pit index of `side`'s row.
pub fn row_start(side: Side) -> usize {
    side.index() * 6
}

/// The owner of pit `index`.
pub fn owner(index: usize) -> Side {
    // spec: oware O.1 the six pits nearer a player are that player's territory
    if index < 6 {
        Side::South
    } else {
        Side::North
    }
}

impl Position {
    /// The start position: four seeds in every pit, `first` to move (spec: oware O.1.1, O.2.1).
    pub fn start(first: Side) -> Position {
        Position {
            // spec: oware O.1.1 four seeds in each of the twelve pits
            pits: [4; 12],
            scores: [0; 2],
            to_move: first,
        }
    }

    /// A position from its parts, checking that 48 seeds are accounted for.
    pub fn new(pits: [u8; 12], scores: [u8; 2], to_move: Side) -> Result<Position, PositionError> {
        let total: u32 = pits.iter().map(|&s| u32::from(s)).sum::<u32>()
            + u32::from(scores[0])
            + u32::from(scores[1]);
        if total != TOTAL_SEEDS {
            return Err(PositionError::SeedCount(total));
        }
        Ok(Position {
            pits,
            scores,
            to_move,
        })
    }

    /// Seeds in pit `index` (0–11).
    pub fn pit(&self, index: usize) -> u8 {
        self.pits[index]
    }

    /// All twelve pits, A..F then a..f.
    pub fn pits(&self) -> [u8; 12] {
        self.pits
    }

    /// `side`'s captured seeds.
    pub fn score(&self, side: Side) -> u8 {
        self.scores[side.index()]
    }

    /// The player to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Seeds on `side`'s row.
    pub fn row_seeds(&self, side: Side) -> u32 {
        let s = row_start(side);
        self.pits[s..s + 6].iter().map(|&x| u32::from(x)).sum()
    }

    /// Parses the text format (see docs/formats.md).
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let mut to_move = None;
        let mut scores = None;
        let mut north = None;
        let mut south = None;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("");
            if content.trim().is_empty() {
                continue;
            }
            let syntax = |column: usize, message: String| PositionError::Syntax {
                line,
                column,
                message,
            };
            // Columns count characters, as `text::words` does.
            let indent = content.chars().take_while(|c| c.is_whitespace()).count();
            let Some(colon) = content.find(':') else {
                return Err(syntax(
                    indent + 1,
                    "expected 'key: value' (keys: to_move, scores, north, south)".into(),
                ));
            };
            let key = content[..colon].trim();
            let value = &content[colon + 1..];
            let offset = content[..=colon].chars().count();
            let words: Vec<(usize, &str)> = crate::text::words(value)
                .map(|(column, w)| (offset + column, w))
                .collect();
            let end_column = content.chars().count() + 1;
            let counts = |n: usize| -> Result<Vec<u8>, PositionError> {
                if words.len() != n {
                    return Err(syntax(
                        words.get(n).map_or(end_column, |w| w.0),
                        format!("expected {n} numbers, found {}", words.len()),
                    ));
                }
                words
                    .iter()
                    .map(|&(column, w)| {
                        w.parse::<u8>().ok().filter(|&x| x <= 48).ok_or_else(|| {
                            syntax(
                                column,
                                format!("expected a seed count 0-48, found {}", quoted(w)),
                            )
                        })
                    })
                    .collect()
            };
            let duplicate = |seen: bool| {
                if seen {
                    Err(syntax(indent + 1, format!("{} given twice", quoted(key))))
                } else {
                    Ok(())
                }
            };
            match key {
                "to_move" => {
                    duplicate(to_move.is_some())?;
                    to_move = Some(match words[..] {
                        [(_, "South")] | [(_, "south")] => Side::South,
                        [(_, "North")] | [(_, "north")] => Side::North,
                        _ => {
                            return Err(syntax(
                                words.first().map_or(end_column, |w| w.0),
                                "expected 'South' or 'North'".into(),
                            ))
                        }
                    });
                }
                "scores" => {
                    duplicate(scores.is_some())?;
                    let v = counts(2)?;
                    scores = Some([v[0], v[1]]);
                }
                "north" => {
                    duplicate(north.is_some())?;
                    north = Some(counts(6)?);
                }
                "south" => {
                    duplicate(south.is_some())?;
                    south = Some(counts(6)?);
                }
                _ => {
                    return Err(syntax(
                        indent + 1,
                        format!(
                            "unknown key {} (keys: to_move, scores, north, south)",
                            quoted(key)
                        ),
                    ))
                }
            }
        }
        let to_move = to_move.ok_or(PositionError::Missing("to_move"))?;
        let scores = scores.ok_or(PositionError::Missing("scores"))?;
        let north = north.ok_or(PositionError::Missing("north"))?;
        let south = south.ok_or(PositionError::Missing("south"))?;
        let mut pits = [0u8; 12];
        pits[..6].copy_from_slice(&south);
        for (i, &n) in north.iter().enumerate() {
            // The north line lists f..a as seen from South: f is pit 11, a is pit 6.
            pits[11 - i] = n;
        }
        Position::new(pits, scores, to_move)
    }

    /// Writes the canonical text form.
    pub fn print(&self) -> String {
        let mut out = String::new();
        let join = |it: &mut dyn Iterator<Item = u8>| {
            it.map(|n| n.to_string()).collect::<Vec<_>>().join(" ")
        };
        let _ = writeln!(out, "to_move: {}", self.to_move);
        let _ = writeln!(out, "scores: {} {}", self.scores[0], self.scores[1]);
        let _ = writeln!(
            out,
            "north: {}",
            join(&mut (6..12).rev().map(|i| self.pits[i]))
        );
        let _ = writeln!(out, "south: {}", join(&mut (0..6).map(|i| self.pits[i])));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_orders_north_from_f_to_a() {
        let text = "to_move: North\nscores: 3 5\nnorth: 1 2 3 4 5 6\nsouth: 0 1 2 3 4 9\n";
        let p = Position::parse(text).unwrap();
        assert_eq!(p.pit(6), 6); // a
        assert_eq!(p.pit(11), 1); // f
        assert_eq!(p.pit(5), 9); // F
        assert_eq!(p.print(), text);
    }

    #[test]
    fn errors_say_where() {
        let e = Position::parse(
            "to_move: South\nscores: 0 0\nnorth: 4 4 4 4 4 4\nsouth: 4 4 x 4 4 4\n",
        )
        .unwrap_err();
        assert_eq!(
            e,
            PositionError::Syntax {
                line: 4,
                column: 12,
                message: "expected a seed count 0-48, found 'x'".into()
            }
        );
        let e = Position::parse(
            "to_move: South\nscores: 0 1\nnorth: 4 4 4 4 4 4\nsouth: 4 4 4 4 4 4\n",
        )
        .unwrap_err();
        assert_eq!(e, PositionError::SeedCount(49));
        assert_eq!(
            Position::parse("scores: 0 0\n").unwrap_err(),
            PositionError::Missing("to_move")
        );
    }

    #[test]
    fn error_columns_count_characters_from_the_line_start() {
        // Each expected column is counted by hand on the line as written (1-based, characters).
        let at = |text: &str| match Position::parse(text).unwrap_err() {
            PositionError::Syntax { line, column, .. } => (line, column),
            e => panic!("{e:?}"),
        };
        // A key without a colon, an unknown key: the key's first character.
        assert_eq!(at("  nocolon\n"), (1, 3));
        assert_eq!(at("to_move: South\n   bogus: 1\n"), (2, 4));
        // A key given twice: its second line, first character.
        assert_eq!(at("scores: 0 0\n  scores: 1 1\n"), (2, 3));
        // Too few numbers: one past the line's last character; too many: the first extra one.
        assert_eq!(at("scores: 0\n"), (1, 10));
        assert_eq!(at("  scores: 0  # one short\n"), (1, 14));
        assert_eq!(at("scores: 0 1 2\n"), (1, 13));
        // Wide characters count once: an ideographic space (3 bytes) and an indent of one.
        assert_eq!(at("scores:\u{3000}0\n"), (1, 10));
        assert_eq!(at("\u{3000}scores: 0 0\n\u{3000}scores: 0 0\n"), (2, 2));
        // A bad side to move: the word's column; none at all: one past the end.
        assert_eq!(at("to_move: Süd\n"), (1, 10));
        assert_eq!(at("to_move:\n"), (1, 9));
    }

    #[test]
    fn errors_quote_a_huge_word_by_its_start_and_length() {
        let huge = "x".repeat(1_000_000);
        for text in [format!("{huge}: 1\n"), format!("scores: 0 {huge}\n")] {
            let message = Position::parse(&text).unwrap_err().to_string();
            assert!(message.len() < 200, "{}", &message[..200]);
            assert!(message.contains("(1000000 characters)"), "{message}");
        }
    }
}
