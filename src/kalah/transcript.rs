//! Kalah transcripts (spec: kalah K.5.2): move letters separated by white space, an extra turn
//! being the same side's letter again, with optional ply numbers and `#`/`;` comments.

use super::notation::Move;
use super::variant::MAX_PITS;
use super::Side;
use crate::text::quoted;

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

/// A transcript word that is neither a move letter nor a ply number in its place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct TranscriptError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub problem: String,
}

/// The moves of a transcript one at a time, as they are read: a replay that stops at the first
/// illegal move reads no further, and memory does not grow with the text. After an error (or a
/// ply number with no move after it, at the end), the iterator ends. Letters name pits `A`–`F`
/// and `a`–`f`; whether the board has that pit is the replay's question.
pub fn transcript_moves(
    text: &str,
) -> impl Iterator<Item = Result<WrittenMove, TranscriptError>> + '_ {
    let mut words = text.lines().enumerate().flat_map(|(index, raw)| {
        // spec: kalah K.5.2 '#' or ';' starts a comment
        let content = raw.split(['#', ';']).next().unwrap_or("");
        crate::text::words(content).map(move |(column, word)| (index + 1, column, word))
    });
    // Moves read so far, and the ply number written since the last move (line, column, word).
    let mut count = 0usize;
    let mut numbered: Option<(usize, usize, &str)> = None;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let fail = |line, column, problem| {
            Some(Err(TranscriptError {
                line,
                column,
                problem,
            }))
        };
        loop {
            let Some((line, column, word)) = words.next() else {
                done = true;
                let (line, column, word) = numbered?;
                return fail(
                    line,
                    column,
                    format!("ply number {} with no move after it", quoted(word)),
                );
            };
            match read_word(word, count, numbered) {
                Ok(None) => numbered = Some((line, column, word)),
                Ok(Some((side, mv))) => {
                    numbered = None;
                    count += 1;
                    return Some(Ok(WrittenMove {
                        side,
                        mv,
                        line,
                        column,
                    }));
                }
                Err(problem) => {
                    done = true;
                    return fail(line, column, problem);
                }
            }
        }
    })
}

/// The move `word` names (`None` for a ply number in its place) after `count` moves, with the
/// ply number `numbered` written since the last move; or what is wrong with it.
fn read_word(
    word: &str,
    count: usize,
    numbered: Option<(usize, usize, &str)>,
) -> Result<Option<(Side, Move)>, String> {
    if word.starts_with(|c: char| c.is_ascii_digit()) {
        // spec: kalah K.5.2 a ply number is digits then '.' or ':', and counts the plies from 1
        let number = word
            .strip_suffix(['.', ':'])
            .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
            .ok_or_else(|| {
                format!(
                    "malformed ply number {}: digits then one '.' or ':' (1. or 1:)",
                    quoted(word)
                )
            })?;
        let want = count + 1;
        if number.parse::<usize>().ok() != Some(want) {
            return Err(format!(
                "ply number {} where ply {want} is next",
                quoted(word)
            ));
        }
        if let Some((line, column, _)) = numbered {
            return Err(format!(
                "ply number {} written twice: ply {want} is already numbered at line {line}, \
                 column {column}",
                quoted(word)
            ));
        }
        return Ok(None);
    }
    let mut chars = word.chars();
    match (
        chars.next().and_then(|c| Move::from_letter(c, MAX_PITS)),
        chars.next(),
    ) {
        (Some(letter), None) => Ok(Some(letter)),
        _ => Err(format!(
            "expected a move letter A-F or a-f, or a ply number, found {}",
            quoted(word)
        )),
    }
}

/// Writes moves as a transcript, one numbered ply a line (`1. C`).
pub fn print_transcript(moves: &[(Side, Move)]) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, &(side, mv))| format!("{}. {}\n", i + 1, mv.letter(side)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(text: &str) -> Result<String, TranscriptError> {
        transcript_moves(text)
            .map(|w| w.map(|w| w.mv.letter(w.side)))
            .collect()
    }

    #[test]
    fn letters_numbers_and_comments() {
        // spec: kalah K.5.2 type=test
        assert_eq!(
            letters("C A  # South twice: C ends in the store\nd").unwrap(),
            "CAd"
        );
        assert_eq!(letters("1. C 2: A 3. d ; end").unwrap(), "CAd");
        assert_eq!(letters("C 2. A d 4. f").unwrap(), "CAdf");
        assert_eq!(letters("").unwrap(), "");
    }

    #[test]
    fn faults_name_their_line_and_column() {
        let e = letters("C\n  A g").unwrap_err();
        assert_eq!((e.line, e.column), (2, 5), "{e}");
        let e = letters("1. C 3. A").unwrap_err();
        assert_eq!((e.line, e.column), (1, 6), "{e}");
        assert!(e.problem.contains("ply 2 is next"), "{e}");
        let e = letters("1. 1. C").unwrap_err();
        assert!(e.problem.contains("written twice"), "{e}");
        let e = letters("1x C").unwrap_err();
        assert!(e.problem.contains("malformed"), "{e}");
        let e = letters("C 2.").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3), "{e}");
        assert!(e.problem.contains("no move after it"), "{e}");
    }

    #[test]
    fn moves_stream_up_to_the_first_fault() {
        let text = format!("C A d {}\nb\n", "x".repeat(1_000));
        let items: Vec<_> = transcript_moves(&text).collect();
        assert_eq!(items.len(), 4);
        let e = items[3].as_ref().unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
    }

    #[test]
    fn printed_transcripts_read_back() {
        let moves = [
            (Side::South, Move { pit: 2 }),
            (Side::South, Move { pit: 0 }),
            (Side::North, Move { pit: 5 }),
        ];
        let text = print_transcript(&moves);
        assert_eq!(text, "1. C\n2. A\n3. f\n");
        let back: Vec<(Side, Move)> = transcript_moves(&text)
            .map(|w| w.map(|w| (w.side, w.mv)).unwrap())
            .collect();
        assert_eq!(back, moves);
    }
}
