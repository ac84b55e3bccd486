//! The plain-text Bao position format that a person can type (documented in docs/formats.md).
//! `parse` gives a validated [`Position`]; `print` writes the canonical form, which parses back.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::text::quoted;

use super::board::{Board, Pit, Row, Side};
use super::position::{Position, PositionError, Setup};

/// What is wrong with a position text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    /// A line that breaks the format, with its 1-based line and column.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected or wrong.
        message: String,
    },
    /// A required line is absent.
    #[error("missing line '{0}:'")]
    Missing(&'static str),
    /// The text is well formed but the position breaks the rules' invariants.
    #[error("invalid position: {0}")]
    Invalid(#[from] PositionError),
}

const KEYS: [&str; 8] = [
    "to_move",
    "stores",
    "houses",
    "b",
    "a",
    "A",
    "B",
    "kutakatia",
];

fn syntax(line: usize, column: usize, message: impl Into<String>) -> PositionTextError {
    PositionTextError::Syntax {
        line,
        column,
        message: message.into(),
    }
}

/// The words of a value with their 1-based columns in the line.
fn words(value: &str, offset: usize) -> Vec<(usize, &str)> {
    crate::text::words(value)
        .map(|(column, w)| (offset + column, w))
        .collect()
}

fn numbers<const N: usize>(
    line: usize,
    value: &[(usize, &str)],
    end_column: usize,
    what: &str,
) -> Result<[u8; N], PositionTextError> {
    if value.len() != N {
        let column = value.get(N).map_or(end_column, |w| w.0);
        return Err(syntax(
            line,
            column,
            format!("expected {N} numbers ({what}), found {}", value.len()),
        ));
    }
    let mut out = [0u8; N];
    for (slot, &(column, word)) in out.iter_mut().zip(value) {
        *slot = word
            .parse::<u8>()
            .ok()
            .filter(|&n| n <= 64)
            .ok_or_else(|| {
                syntax(
                    line,
                    column,
                    format!("expected a seed count 0-64, found {}", quoted(word)),
                )
            })?;
    }
    Ok(out)
}

/// One `key: value` line: its number, the column after its end, and its words with their columns.
type KeyLine<'a> = (usize, usize, Vec<(usize, &'a str)>);

/// Parses a position text into a validated position.
pub fn parse(text: &str) -> Result<Position, PositionTextError> {
    let seen = key_lines(text)?;
    let get = |key: &'static str| seen.get(key).ok_or(PositionTextError::Missing(key));
    let to_move = parse_to_move(get("to_move")?)?;
    let (line, end, value) = get("stores")?;
    let stores = numbers::<2>(*line, value, *end, "South's store, North's store")?;
    let house_owned = parse_houses(get("houses")?)?;
    let mut board = Board::empty();
    // Rows as seen from South: North's b8..b1 and a8..a1, then South's A1..A8 and B1..B8.
    let rows: [(&'static str, Side, Row, bool); 4] = [
        ("b", Side::North, Row::Back, true),
        ("a", Side::North, Row::Front, true),
        ("A", Side::South, Row::Front, false),
        ("B", Side::South, Row::Back, false),
    ];
    for (key, side, row, reversed) in rows {
        let (line, end, value) = get(key)?;
        let counts = numbers::<8>(*line, value, *end, "eight pits")?;
        for (i, &n) in counts.iter().enumerate() {
            let number = if reversed { 8 - i as u8 } else { i as u8 + 1 };
            board.set(side, Pit::new(row, number).expect("1-8"), n);
        }
    }
    let blocked = match seen.get("kutakatia") {
        None => None,
        Some((_, _, v)) if matches!(v[..], [(_, "none")]) => None,
        Some(key_line) => Some(parse_kutakatia(key_line, to_move)?),
    };
    Ok(Position::from_setup(Setup {
        board,
        stores,
        house_owned,
        to_move,
        blocked,
    })?)
}

/// The `key: value` lines of a position text by key, each key once, comments and blank lines
/// left out.
fn key_lines(text: &str) -> Result<HashMap<&str, KeyLine<'_>>, PositionTextError> {
    let mut seen: HashMap<&str, KeyLine> = HashMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("");
        if content.trim().is_empty() {
            continue;
        }
        let indent = content.chars().take_while(|c| c.is_whitespace()).count() + 1;
        let Some(colon) = content.find(':') else {
            return Err(syntax(
                line,
                indent,
                "expected 'key: value' (keys: to_move, stores, houses, b, a, A, B, kutakatia)",
            ));
        };
        let key = content[..colon].trim();
        if !KEYS.contains(&key) {
            return Err(syntax(
                line,
                indent,
                format!(
                    "unknown key {} (keys: to_move, stores, houses, b, a, A, B, kutakatia)",
                    quoted(key)
                ),
            ));
        }
        let offset = content[..=colon].chars().count();
        let value = words(&content[colon + 1..], offset);
        let end_column = content.chars().count() + 1;
        if seen.contains_key(key) {
            return Err(syntax(line, 1, format!("'{key}' given twice")));
        }
        seen.insert(key, (line, end_column, value));
    }
    Ok(seen)
}

/// The `to_move:` value.
fn parse_to_move((line, end, value): &KeyLine) -> Result<Side, PositionTextError> {
    match value[..] {
        [(_, "South")] | [(_, "south")] => Ok(Side::South),
        [(_, "North")] | [(_, "north")] => Ok(Side::North),
        _ => {
            let column = value.first().map_or(*end, |w| w.0);
            Err(syntax(*line, column, "expected 'South' or 'North'"))
        }
    }
}

/// The `houses:` value: whether South's and North's houses are owned.
fn parse_houses((line, end, value): &KeyLine) -> Result<[bool; 2], PositionTextError> {
    if value.len() != 2 {
        return Err(syntax(
            *line,
            *end,
            "expected two words, South's then North's: owned | lost",
        ));
    }
    let mut house_owned = [true; 2];
    for (slot, &(column, word)) in house_owned.iter_mut().zip(value) {
        *slot = match word {
            "owned" => true,
            "lost" => false,
            _ => {
                return Err(syntax(
                    *line,
                    column,
                    format!("expected 'owned' or 'lost', found {}", quoted(word)),
                ))
            }
        };
    }
    Ok(house_owned)
}

/// The `kutakatia:` pit, one of the player to move's.
fn parse_kutakatia((line, end, value): &KeyLine, to_move: Side) -> Result<Pit, PositionTextError> {
    let [(column, word)] = value[..] else {
        return Err(syntax(
            *line,
            *end,
            "expected one pit name such as 'a3', or 'none'",
        ));
    };
    let not_a_pit = || {
        syntax(
            *line,
            column,
            format!("expected a pit name such as 'a3', found {}", quoted(word)),
        )
    };
    let mut chars = word.chars();
    let (Some(r), Some(n @ '1'..='8'), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(not_a_pit());
    };
    let (side, row) = match r {
        'A' => (Side::South, Row::Front),
        'B' => (Side::South, Row::Back),
        'a' => (Side::North, Row::Front),
        'b' => (Side::North, Row::Back),
        _ => return Err(not_a_pit()),
    };
    if side != to_move {
        return Err(syntax(
            *line,
            column,
            format!("{word} is not a pit of the player to move"),
        ));
    }
    Ok(Pit::new(row, n as u8 - b'0').expect("1-8"))
}

/// Writes `pos` in the canonical text format.
pub fn print(pos: &Position) -> String {
    let mut out = String::new();
    let owned = |s: Side| if pos.house_owned(s) { "owned" } else { "lost" };
    let _ = writeln!(out, "to_move: {}", pos.to_move());
    let _ = writeln!(
        out,
        "stores: {} {}",
        pos.store(Side::South),
        pos.store(Side::North)
    );
    let _ = writeln!(out, "houses: {} {}", owned(Side::South), owned(Side::North));
    let row = |side: Side, row: Row, reversed: bool| -> String {
        let numbers: Vec<u8> = if reversed {
            (1..=8).rev().collect()
        } else {
            (1..=8).collect()
        };
        numbers
            .iter()
            .map(|&n| {
                pos.board()
                    .get(side, Pit::new(row, n).expect("1-8"))
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(out, "b: {}", row(Side::North, Row::Back, true));
    let _ = writeln!(out, "a: {}", row(Side::North, Row::Front, true));
    let _ = writeln!(out, "A: {}", row(Side::South, Row::Front, false));
    let _ = writeln!(out, "B: {}", row(Side::South, Row::Back, false));
    if let Some(pit) = pos.blocked() {
        let _ = writeln!(out, "kutakatia: {}", pit.name(pos.to_move()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "to_move: South\nstores: 22 22\nhouses: owned owned\n\
        b: 0 0 0 0 0 0 0 0\na: 0 2 2 6 0 0 0 0\nA: 0 0 0 0 6 2 2 0\nB: 0 0 0 0 0 0 0 0\n";

    #[test]
    fn start_position_text_matches_the_rules() {
        // spec: bao 2.1 type=test
        assert_eq!(parse(START).unwrap(), Position::start());
        assert_eq!(print(&Position::start()), START);
    }

    #[test]
    fn errors_name_line_and_column() {
        let bad = START.replace("A: 0 0 0 0 6 2 2 0", "A: 0 0 0 0 6 x 2 0");
        match parse(&bad) {
            Err(PositionTextError::Syntax { line, column, .. }) => {
                assert_eq!((line, column), (6, 14))
            }
            other => panic!("{other:?}"),
        }
        let short = START.replace("B: 0 0 0 0 0 0 0 0", "B: 0 0 0");
        assert!(matches!(
            parse(&short),
            Err(PositionTextError::Syntax { line: 7, .. })
        ));
        let missing = START.replace("houses: owned owned\n", "");
        assert_eq!(parse(&missing), Err(PositionTextError::Missing("houses")));
        let seeds = START.replace("stores: 22 22", "stores: 22 21");
        assert!(matches!(
            parse(&seeds),
            Err(PositionTextError::Invalid(PositionError::SeedCount(63)))
        ));
    }

    #[test]
    fn comments_and_kutakatia_line_round_trip() {
        let text = format!(
            "# a comment\n{}",
            START.replace("to_move: South", "to_move: South # who moves")
        );
        assert_eq!(parse(&text).unwrap(), Position::start());
        let blocked = format!("{START}kutakatia: A6\n");
        let pos = parse(&blocked).unwrap();
        assert_eq!(pos.blocked(), Some(Pit::front(6)));
        assert_eq!(print(&pos), blocked);
        assert!(parse(&format!("{START}kutakatia: a6\n")).is_err());
    }

    #[test]
    fn errors_quote_a_huge_word_by_its_start_and_length() {
        let huge = "x".repeat(1_000_000);
        for text in [
            format!("{huge}: 1\n"),
            START.replace("stores: 22 22", &format!("stores: 22 {huge}")),
            START.replace("houses: owned owned", &format!("houses: owned {huge}")),
            format!("{START}kutakatia: {huge}\n"),
        ] {
            let message = parse(&text).unwrap_err().to_string();
            assert!(message.len() < 200, "{}", &message[..200]);
            assert!(message.contains("(1000000 characters)"), "{message}");
        }
    }
}
