//! Oware move notation and transcripts: `A`–`F` for South's pits, `a`–`f` for North's
//! (spec: oware O.7.1); a transcript is move letters separated by white space (O.7.2).

use super::Side;
use crate::text::quoted;

/// A move: which of the mover's six pits to sow, 0 for A/a up to 5 for F/f.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// 0–5, counted from the mover's left.
    pub pit: u8,
}

impl Move {
    /// The pit index 0–11 this move empties when `side` plays it.
    pub fn index(self, side: Side) -> usize {
        side.index() * 6 + usize::from(self.pit)
    }

    /// The move's letter for `side` (spec: oware O.7.1).
    pub fn letter(self, side: Side) -> char {
        let base = if side == Side::South { b'A' } else { b'a' };
        char::from(base + self.pit)
    }

    /// The move and the player a letter names.
    pub fn from_letter(c: char) -> Option<(Side, Move)> {
        // spec: oware O.7.1 upper case for South, lower case for North
        match c {
            'A'..='F' => Some((
                Side::South,
                Move {
                    pit: c as u8 - b'A',
                },
            )),
            'a'..='f' => Some((
                Side::North,
                Move {
                    pit: c as u8 - b'a',
                },
            )),
            _ => None,
        }
    }
}

/// One written move of a transcript, with where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The player the letter names.
    pub side: Side,
    /// The move.
    pub mv: Move,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// A transcript token that is neither a move letter nor a move number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct TranscriptError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The token.
    pub found: String,
    /// What is wrong with it.
    pub problem: String,
}

/// Parses a transcript: move letters separated by white space, optionally with move numbers
/// (digits then one `.` or `:`, as `1.` or `1:`) before the first move of each pair, which must
/// count the pairs from 1 and be followed by a move; `#` and `;` start comments that run to the
/// end of the line. Linear in the length of the text; [`transcript_moves`] gives the same moves
/// one at a time.
pub fn parse_transcript(text: &str) -> Result<Vec<WrittenMove>, TranscriptError> {
    transcript_moves(text).collect()
}

/// The moves of a transcript (the format of [`parse_transcript`]) one at a time, as they are
/// read: a replay that stops at the first illegal move reads no further, and the memory used does
/// not grow with the transcript. After an error, the iterator ends.
pub fn transcript_moves(
    text: &str,
) -> impl Iterator<Item = Result<WrittenMove, TranscriptError>> + '_ {
    let mut lines = text.lines().enumerate();
    // The line being read: its number and the words left on it.
    let mut words = None;
    // Moves given so far.
    let mut count = 0usize;
    // The move number written before the next move, if any: its line, column and token.
    let mut numbered: Option<(usize, usize, &str)> = None;
    let mut done = false;
    std::iter::from_fn(move || {
        while !done {
            let Some((line, rest)) = &mut words else {
                match lines.next() {
                    Some((index, raw)) => {
                        let content = raw.split(['#', ';']).next().unwrap_or("");
                        words = Some((index + 1, crate::text::words(content)));
                        continue;
                    }
                    None => {
                        done = true;
                        let (line, column, token) = numbered?;
                        return Some(Err(TranscriptError {
                            line,
                            column,
                            found: token.to_string(),
                            problem: format!(
                                "move number {} with no move after it (a number goes before the \
                                 pair it counts)",
                                quoted(token)
                            ),
                        }));
                    }
                }
            };
            let line = *line;
            let Some((at, token)) = rest.next() else {
                words = None;
                continue;
            };
            match read_token(token, count, numbered) {
                Ok(Token::Number) => numbered = Some((line, at, token)),
                Ok(Token::Move(side, mv)) => {
                    numbered = None;
                    count += 1;
                    return Some(Ok(WrittenMove {
                        side,
                        mv,
                        line,
                        column: at,
                    }));
                }
                Err(problem) => {
                    done = true;
                    return Some(Err(TranscriptError {
                        line,
                        column: at,
                        found: token.to_string(),
                        problem,
                    }));
                }
            }
        }
        None
    })
}

/// A word of a transcript.
enum Token {
    /// A move number, in its place.
    Number,
    /// A move letter.
    Move(Side, Move),
}

/// What the word `token` is, after `count` moves, with the move number `numbered` (line,
/// column, token) written since the last move; or what is wrong with it.
fn read_token(
    token: &str,
    count: usize,
    numbered: Option<(usize, usize, &str)>,
) -> Result<Token, String> {
    if token.starts_with(|c: char| c.is_ascii_digit()) {
        // spec: oware O.7.2 a move number is digits, then one '.' or ':'
        let number = token
            .strip_suffix(['.', ':'])
            .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
            .ok_or_else(|| {
                format!(
                    "malformed move number {}: a move number is digits then one '.' or ':' (1. \
                     or 1:)",
                    quoted(token)
                )
            })?;
        // spec: oware O.7.2 move numbers are optional; one written must count the pairs
        let want = count / 2 + 1;
        if count % 2 == 1 || number.parse::<usize>().ok() != Some(want) {
            return Err(format!(
                "move number {} where {} expected",
                quoted(token),
                if count % 2 == 1 {
                    format!("the second move of pair {want} is")
                } else {
                    format!("pair {want} begins")
                }
            ));
        }
        if let Some((line, column, _)) = numbered {
            return Err(format!(
                "move number {} written twice: pair {want} is already numbered at line {line}, \
                 column {column}, with no move between",
                quoted(token)
            ));
        }
        return Ok(Token::Number);
    }
    let mut chars = token.chars();
    match (chars.next().and_then(Move::from_letter), chars.next()) {
        (Some((side, mv)), None) => Ok(Token::Move(side, mv)),
        _ => Err(format!(
            "expected a move letter A-F or a-f, or a move number, found {}",
            quoted(token)
        )),
    }
}

/// Writes moves as a transcript: numbered pairs, one per line (`1. A d`).
pub fn print_transcript(moves: &[(Side, Move)]) -> String {
    let mut out = String::new();
    for (i, pair) in moves.chunks(2).enumerate() {
        let letters: Vec<String> = pair.iter().map(|&(s, m)| m.letter(s).to_string()).collect();
        out.push_str(&format!("{}. {}\n", i + 1, letters.join(" ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for side in Side::BOTH {
            for pit in 0..6 {
                let m = Move { pit };
                assert_eq!(Move::from_letter(m.letter(side)), Some((side, m)));
            }
        }
        assert_eq!(Move::from_letter('G'), None);
    }

    #[test]
    fn transcripts_parse_with_numbers_and_comments() {
        let moves = parse_transcript("1. C f  # opening\n2: A a ; note\nD\n").unwrap();
        let letters: String = moves.iter().map(|w| w.mv.letter(w.side)).collect();
        assert_eq!(letters, "CfAaD");
        assert_eq!((moves[4].line, moves[4].column), (3, 1));
        let e = parse_transcript("1. C g\n").unwrap_err();
        assert_eq!((e.line, e.column, e.found.as_str()), (1, 6, "g"));
        // Columns count characters, not bytes.
        let e = parse_transcript("1. C  é\n").unwrap_err();
        assert_eq!((e.column, e.found.as_str()), (7, "é"));
        let printed = print_transcript(&moves.iter().map(|w| (w.side, w.mv)).collect::<Vec<_>>());
        assert_eq!(printed, "1. C f\n2. A a\n3. D\n");
    }

    #[test]
    fn move_numbers_must_count_the_pairs() {
        for (text, column) in [
            ("2. C f\n", 1),
            ("1. C f 3. A a\n", 8),
            ("18446744073709551617. C f\n", 1),
            ("1. C 2. f\n", 6),
        ] {
            let e = parse_transcript(text).unwrap_err();
            assert_eq!((e.line, e.column), (1, column), "{text}: {e}");
            assert!(e.to_string().contains("move number"), "{e}");
        }
        assert_eq!(parse_transcript("1. C f 2. A a 3: B\n").unwrap().len(), 5);
    }

    #[test]
    fn a_move_number_is_digits_then_one_dot_or_colon() {
        for (text, at) in [
            ("1 C f\n", (1, 1)),
            ("1.. C f\n", (1, 1)),
            ("1..... C f\n", (1, 1)),
            ("1.: C f\n", (1, 1)),
            ("1:. C f\n", (1, 1)),
            ("1. C f 2.. A a\n", (1, 8)),
            ("1. C f\n  2;3 A a\n", (2, 3)),
            ("1.C f\n", (1, 1)),
            ("1x. C f\n", (1, 1)),
            ("1. C f\n2 A\n", (2, 1)),
        ] {
            let e = parse_transcript(text).unwrap_err();
            assert_eq!((e.line, e.column), at, "{text:?}: {e}");
            assert!(
                e.to_string().contains("malformed move number"),
                "{text:?}: {e}"
            );
        }
        // Both marks, and leading zeros (the number counts).
        assert_eq!(parse_transcript("1. C f\n02: A a\n").unwrap().len(), 4);
    }

    #[test]
    fn a_move_number_needs_a_move_after_it_and_is_written_once() {
        for (text, at, words) in [
            ("1. C f 2. 2. A a\n", (1, 11), "written twice"),
            ("1. C f\n2.\n2. A a\n", (3, 1), "written twice"),
            ("1. C f 2.\n", (1, 8), "no move after it"),
            ("1. C f\n2: # nothing yet\n\n", (2, 1), "no move after it"),
            ("1.\n", (1, 1), "no move after it"),
        ] {
            let e = parse_transcript(text).unwrap_err();
            assert_eq!((e.line, e.column), at, "{text:?}: {e}");
            assert!(e.to_string().contains(words), "{text:?}: {e}");
        }
    }

    /// Moves come one at a time: the ones before a fault are given before it is read, and none
    /// after it.
    #[test]
    fn moves_stream_up_to_the_first_fault() {
        let text = format!("1. C f 2. A 3. {}\nb\n", "x".repeat(1_000));
        let mut moves = transcript_moves(&text);
        let letters: Vec<char> = moves
            .by_ref()
            .take(3)
            .map(|w| {
                let w = w.unwrap();
                w.mv.letter(w.side)
            })
            .collect();
        assert_eq!(letters, ['C', 'f', 'A']);
        let e = moves.next().unwrap().unwrap_err();
        assert_eq!((e.line, e.column), (1, 13), "{e}");
        assert!(moves.next().is_none());
        // A trailing number is the last item.
        let items: Vec<_> = transcript_moves("1. C f 2.").collect();
        assert_eq!(items.len(), 3);
        assert!(items[2]
            .as_ref()
            .unwrap_err()
            .problem
            .contains("no move after it"));
    }

    #[test]
    fn a_huge_token_is_quoted_by_its_start_and_length() {
        let e = parse_transcript(&format!("1. C {}\n", "x".repeat(1_000_000))).unwrap_err();
        let message = e.to_string();
        assert!(message.len() < 200, "{}", &message[..200]);
        assert!(message.contains("(1000000 characters)"), "{message}");
        let e = parse_transcript(&format!("1. C f {}.\n", "9".repeat(1_000_000))).unwrap_err();
        assert!(e.to_string().len() < 200);
    }
}
