//! AbstractPlay's Bao game records, one JSON object per line (see docs/formats.md): read as
//! [`Record`]s in our notation, each bad line named by its number.

use serde::Deserialize;

use super::audit::Record;
use super::board::Side;

/// A line that is not a game record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {message}", .column.map(|c| format!(", column {c}")).unwrap_or_default())]
pub struct LineError {
    /// The line, from 1.
    pub line: usize,
    /// The character column, from 1, where the error is one place of the line.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    game: u64,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    plies: Option<usize>,
    winner: String,
    reason: String,
    moves: Vec<String>,
    #[serde(rename = "final")]
    final_board: String,
}

/// The clause of AbstractPlay's reason for the end of a game.
fn end_clause(reason: &str) -> Option<&'static str> {
    match reason {
        // An empty front row (1.2.1), no move (1.2.2), only infinite moves left (1.5.6).
        "frontempty" => Some("1.2.1"),
        "nomoves" => Some("1.2.2"),
        "infinite" => Some("1.5.6"),
        _ => None,
    }
}

/// Checks a final board: four rows of eight counts split by `/`.
fn check_board(board: &str) -> Result<(), String> {
    let rows: Vec<&str> = board.split('/').collect();
    let counts_ok = rows.len() == 4
        && rows.iter().all(|r| {
            let cells: Vec<&str> = r.split(',').collect();
            // Written plainly (no sign, no leading zero): the board is compared as text.
            cells.len() == 8
                && cells.iter().all(|c| {
                    c.parse::<u8>()
                        .is_ok_and(|n| n <= 64 && n.to_string() == *c)
                })
        });
    if counts_ok {
        Ok(())
    } else {
        Err(format!(
            "'final' is not four rows of eight seed counts (plain numbers 0 to 64) split by '/': {}",
            crate::text::quoted(board)
        ))
    }
}

/// The records of `text`, or the error of each bad line (the others are still read). Blank
/// lines are skipped.
pub fn read(text: &str) -> Vec<Result<Record, LineError>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let err = |message: String| LineError {
            line,
            column: None,
            message,
        };
        // A line break other programs use and the format does not (a lone CR ending records)
        // would join records into one line: named, rather than a JSON error past it.
        if let Some((column, name)) = crate::text::odd_line_break(raw) {
            out.push(Err(LineError {
                line,
                column: Some(column),
                message: crate::text::odd_line_break_problem(name),
            }));
            continue;
        }
        let parsed: Line = match serde_json::from_str(raw) {
            Ok(l) => l,
            Err(e) => {
                out.push(Err(err(format!(
                    "not an AbstractPlay record: {}",
                    json_error(raw, &e)
                ))));
                continue;
            }
        };
        let winner = match parsed.winner.as_str() {
            "S" => Side::South,
            "N" => Side::North,
            w => {
                out.push(Err(err(format!(
                    "'winner' is {}, expected \"S\" or \"N\"",
                    crate::text::quoted(w)
                ))));
                continue;
            }
        };
        let Some(clause) = end_clause(&parsed.reason) else {
            out.push(Err(err(format!(
                "'reason' is {}, expected frontempty, nomoves or infinite",
                crate::text::quoted(&parsed.reason)
            ))));
            continue;
        };
        if let Some(p) = parsed.plies.filter(|&p| p != parsed.moves.len()) {
            out.push(Err(err(format!(
                "'plies' says {p}, but 'moves' has {}",
                parsed.moves.len()
            ))));
            continue;
        }
        if let Err(m) = check_board(&parsed.final_board) {
            out.push(Err(err(m)));
            continue;
        }
        let _ = parsed.seed;
        out.push(Ok(Record {
            game: parsed.game.to_string(),
            source: format!("line {line}"),
            moves: parsed.moves,
            end: Some((winner, clause)),
            final_board: Some(parsed.final_board),
        }));
    }
    out
}

/// A JSON error on one line of `raw`, its place a column counted in characters (the parser
/// counts bytes, and its line is always 1).
fn json_error(raw: &str, e: &serde_json::Error) -> String {
    let text = e.to_string();
    let what = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(what, _)| what);
    if e.column() == 0 {
        return what.to_string();
    }
    let byte = (e.column() - 1).min(raw.len());
    let column = raw.char_indices().take_while(|&(i, _)| i < byte).count() + 1;
    format!("{what} at column {column}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_point_at_a_character_column() {
        // Two two-byte letters before the stray '}': the parser finds it at byte 13, which is
        // character 11 of the line (counted by hand).
        let raw = "{\"a\":\"éé\",}";
        let e = serde_json::from_str::<serde_json::Value>(raw).unwrap_err();
        assert_eq!(e.column(), 13);
        let said = json_error(raw, &e);
        assert!(said.ends_with(" at column 11"), "{said}");
        assert!(!said.contains("line"), "{said}");
    }

    #[test]
    fn lines_become_records_and_bad_lines_are_named() {
        let good = r#"{"game":7,"seed":1,"plies":2,"winner":"N","reason":"nomoves","moves":["A6<*","a6<*"],"final":"0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0"}"#;
        let text = format!(
            "{good}\n\n{{\"game\":1}}\n{}\n{}\n",
            good.replace("\"N\"", "\"X\""),
            good.replace("\"plies\":2", "\"plies\":3")
        );
        let read = read(&text);
        assert_eq!(read.len(), 4);
        let r = read[0].as_ref().unwrap();
        assert_eq!(r.game, "7");
        assert_eq!(r.moves, ["A6<*", "a6<*"]);
        assert_eq!(r.end, Some((Side::North, "1.2.2")));
        let errors: Vec<String> = read[1..]
            .iter()
            .map(|r| r.as_ref().unwrap_err().to_string())
            .collect();
        assert!(
            errors[0].starts_with("line 3: not an AbstractPlay record"),
            "{}",
            errors[0]
        );
        assert_eq!(
            errors[1],
            "line 4: 'winner' is 'X', expected \"S\" or \"N\""
        );
        assert_eq!(errors[2], "line 5: 'plies' says 3, but 'moves' has 2");
        // Counts written otherwise than plainly would be compared as text with ours: refused.
        for count in ["+0", "00", "01", " 0", "65"] {
            let odd = good.replacen("\"final\":\"0,", &format!("\"final\":\"{count},"), 1);
            let e = super::read(&odd)[0].as_ref().unwrap_err().to_string();
            assert!(e.contains("plain numbers 0 to 64"), "{count}: {e}");
        }
        // Records ended by a lone carriage return (an old Mac's line break): the first is named
        // where it is, not as a JSON error past it.
        let joined = "{\"game\":0}\r{\"game\":1}\n";
        let errors: Vec<String> = super::read(joined)
            .into_iter()
            .filter_map(|r| r.err().map(|e| e.to_string()))
            .collect();
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].starts_with("line 1, column 11: a carriage return that ends no line"),
            "{}",
            errors[0]
        );
    }
}
