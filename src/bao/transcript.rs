//! Game transcripts in the KIBA form (spec: bao N.7): header lines, then `1: A6<* a6>*; comment`.
//! Parsing checks the syntax only; `Rules` replays the moves and reports the first illegal one.

use super::board::Side;
use super::notation::{MoveText, NotationError};

/// One ply of a transcript, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move number (one number covers South's and North's ply).
    pub number: u32,
    /// Who played it.
    pub side: Side,
    /// The move as written.
    pub text: MoveText,
    /// 1-based line.
    pub line: usize,
    /// 1-based column of the move's first character.
    pub column: usize,
}

/// The most header lines a transcript may have (real ones have a handful).
pub const MAX_HEADERS: usize = 1000;

/// The largest move number (a game of two million plies; memory stays bounded).
pub const MAX_MOVE_NUMBER: u32 = 1_000_000;

/// A parsed transcript: header lines and plies in order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Transcript {
    /// `Key: value` lines before the first move line.
    pub headers: Vec<(String, String)>,
    /// The plies, South's first.
    pub plies: Vec<Ply>,
}

/// A transcript that breaks the format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct TranscriptError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was expected.
    pub message: String,
}

fn err(line: usize, column: usize, message: impl Into<String>) -> TranscriptError {
    TranscriptError {
        line,
        column,
        message: message.into(),
    }
}

impl Transcript {
    /// Parses a transcript: blank and `#` lines are skipped, headers come first.
    pub fn parse(text: &str) -> Result<Transcript, TranscriptError> {
        let mut out = Transcript::default();
        let mut expected_number = 1u32;
        let mut finished = false;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let indent = raw.chars().count() - trimmed.chars().count();
            let Some(colon) = trimmed.find(':') else {
                return Err(err(
                    line,
                    indent + 1,
                    "expected a move line 'N: south north;' or a header 'Key: value'",
                ));
            };
            let head = &trimmed[..colon];
            if !head.chars().all(|c| c.is_ascii_digit()) || head.is_empty() {
                if !out.plies.is_empty() {
                    return Err(err(
                        line,
                        indent + 1,
                        "header lines must come before the first move line",
                    ));
                }
                if !head.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    return Err(err(
                        line,
                        indent + 1,
                        "expected a move number or a header key",
                    ));
                }
                if out.headers.len() == MAX_HEADERS {
                    return Err(err(
                        line,
                        indent + 1,
                        format!("more than {MAX_HEADERS} header lines: not a transcript"),
                    ));
                }
                out.headers.push((
                    head.trim().to_string(),
                    trimmed[colon + 1..].trim().to_string(),
                ));
                continue;
            }
            // spec: bao N.7 a move line: number, colon, space, South's move, space, North's move, semicolon
            let number: u32 = head
                .parse()
                .ok()
                .filter(|&n| n <= MAX_MOVE_NUMBER)
                .ok_or_else(|| {
                    err(
                        line,
                        indent + 1,
                        format!("move number over {MAX_MOVE_NUMBER}: no transcript is that long"),
                    )
                })?;
            if finished {
                return Err(err(
                    line,
                    indent + 1,
                    "a move line follows a line with South's move only",
                ));
            }
            if number != expected_number {
                return Err(err(
                    line,
                    indent + 1,
                    format!("expected move number {expected_number}, found {number}"),
                ));
            }
            let rest = &trimmed[colon + 1..];
            let body = rest.split(';').next().unwrap_or("");
            let body_offset = indent + colon + 1;
            let moves: Vec<(usize, &str)> = crate::text::words(body)
                .map(|(column, w)| (body_offset + column, w))
                .collect();
            match moves.len() {
                0 => {
                    return Err(err(
                        line,
                        body_offset + 1,
                        "expected South's move after the colon",
                    ))
                }
                1 => finished = true,
                2 => {}
                _ => {
                    return Err(err(
                        line,
                        moves[2].0,
                        "expected ';' or the end of the line after North's move",
                    ))
                }
            }
            for (&(column, word), side) in moves.iter().zip(Side::BOTH) {
                let text = MoveText::parse(word).map_err(|e: NotationError| {
                    err(
                        line,
                        column + e.column - 1,
                        format!(
                            "in move {}: expected {}, found {}",
                            crate::text::quoted(word),
                            e.expected,
                            e.found
                        ),
                    )
                })?;
                out.plies.push(Ply {
                    number,
                    side,
                    text,
                    line,
                    column,
                });
            }
            expected_number += 1;
        }
        Ok(out)
    }

    /// Writes move lines for canonical moves given in play order, South first.
    pub fn print_moves(moves: &[String]) -> String {
        let mut out = String::new();
        for (i, pair) in moves.chunks(2).enumerate() {
            out.push_str(&format!("{}: {};\n", i + 1, pair.join(" ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_and_move_numbers_are_bounded() {
        let many = "K: v\n".repeat(MAX_HEADERS + 1);
        let e = Transcript::parse(&many).unwrap_err();
        assert_eq!((e.line, e.column), (MAX_HEADERS + 1, 1));
        assert!(e.message.contains("more than 1000 header lines"), "{e}");
        assert!(Transcript::parse(&"K: v\n".repeat(MAX_HEADERS)).is_ok());
        let e = Transcript::parse("1000001: A6<* a6<;\n").unwrap_err();
        assert!(e.message.contains("move number over 1000000"), "{e}");
    }

    #[test]
    fn parses_headers_moves_and_comments() {
        let t = Transcript::parse("Event: test\n# note\n1: A6<* a6>*; opening\n2: A7>*\n").unwrap();
        assert_eq!(t.headers, vec![("Event".to_string(), "test".to_string())]);
        assert_eq!(t.plies.len(), 3);
        assert_eq!(
            (t.plies[1].side, t.plies[1].line, t.plies[1].column),
            (Side::North, 3, 9)
        );
        assert_eq!(t.plies[2].number, 2);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = Transcript::parse("1: A6<* a6>*;\n3: A7>*;\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        let e = Transcript::parse("1: A6<* a9>*;\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 10));
        let e = Transcript::parse("1: A6<*\n2: A7>*\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    /// Every refusal points at the first character of what is wrong, counted from 1 on the raw
    /// line, indentation included (docs/formats.md). Worked by hand: two spaces of indent put the
    /// line's text at column 3; in "  1:" the colon is column 4, so South's move would start at 5.
    #[test]
    fn refusals_point_past_the_indentation() {
        let at = |text: &str| {
            let e = Transcript::parse(text).unwrap_err();
            (e.line, e.column)
        };
        assert_eq!(at("  no colon here\n"), (1, 3));
        assert_eq!(at("1: A6<* a6<;\n  Key: v\n"), (2, 3));
        assert_eq!(at("  -x: v\n"), (1, 3));
        assert_eq!(at("  1000001: A6<* a6<;\n"), (1, 3));
        assert_eq!(at("1: A6<*\n  2: A7>* a6<;\n"), (2, 3));
        assert_eq!(at("  2: A6<* a6<;\n"), (1, 3));
        assert_eq!(at("  1:\n"), (1, 5));
        assert_eq!(at("1:;\n"), (1, 3));
        assert_eq!(at("  1: A6<* a6<* A7>*;\n"), (1, 16));
    }

    #[test]
    fn printed_moves_parse_back() {
        let moves = vec!["A6<*".to_string(), "a6>*".to_string(), "A7>*".to_string()];
        let text = Transcript::print_moves(&moves);
        assert_eq!(text, "1: A6<* a6>*;\n2: A7>*;\n");
        let t = Transcript::parse(&text).unwrap();
        let back: Vec<String> = t.plies.iter().map(|p| p.text.to_string()).collect();
        assert_eq!(back, moves);
    }

    #[test]
    fn errors_quote_a_huge_move_by_its_start_and_length() {
        let text = format!("1: A6<{} a6<;\n", "*".repeat(1_000_000));
        let message = Transcript::parse(&text).unwrap_err().to_string();
        assert!(message.len() < 200, "{}", &message[..200]);
        assert!(message.contains("(1000003 characters)"), "{message}");
    }
}
