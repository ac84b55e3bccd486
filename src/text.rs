//! Splitting a line of text into whitespace-separated words with their character columns, in
//! one pass (the parsers of positions, notation and transcripts share it), and quoting a word of
//! the input or a file path in an error message without repeating all of a huge one.

/// Characters of a token an error message repeats; a longer token is cut after them.
pub const QUOTED_CHARS: usize = 40;

/// `token` in single quotes for an error message: whole if it has at most [`QUOTED_CHARS`]
/// characters, otherwise its first [`QUOTED_CHARS`] characters, `…` and its length in
/// characters (`'AAAA…' (20971520 characters)`), so a hostile token never floods the message;
/// control characters escaped (`\u{1b}`, `\t`), so none reaches the terminal.
pub fn quoted(token: &str) -> String {
    match token.char_indices().nth(QUOTED_CHARS) {
        None => format!("'{}'", escaped(token)),
        Some((cut, _)) => format!(
            "'{}…' ({} characters)",
            escaped(&token[..cut]),
            token.chars().count()
        ),
    }
}

/// The characters a terminal does not show as themselves: those that reorder the text around
/// them (bidirectional marks, embeddings, overrides and isolates), those of no width (so that
/// `'C\u{200b}'` does not read as `'C'`: the soft hyphen too) and the Unicode line and paragraph
/// separators. A message shows them escaped.
const UNSEEN: [char; 20] = [
    '\u{061c}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}',
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}',
    '\u{feff}', '\u{ad}', '\u{2028}', '\u{2029}',
];

/// `text` with each control character escaped (`\u{1b}`, `\t`, `\n`), and each of [`UNSEEN`]
/// (`\u{202e}`, `\u{200b}`), so that none reaches the terminal from a message that repeats what
/// it was given.
pub fn escaped(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || UNSEEN.contains(&c) {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The characters other programs take for a line break and the text formats do not (they end
/// lines with LF or CRLF), each with its name: read as part of one line, a comment before one
/// would swallow what follows it, moves or a position's line, without a word.
const ODD_BREAKS: [(char, &str); 9] = [
    ('\r', "a carriage return"),
    ('\u{0b}', "a vertical tab"),
    ('\u{0c}', "a form feed"),
    ('\u{1c}', "a file separator (U+001C)"),
    ('\u{1d}', "a group separator (U+001D)"),
    ('\u{1e}', "a record separator (U+001E)"),
    ('\u{85}', "a next-line character (U+0085)"),
    ('\u{2028}', "a line separator (U+2028)"),
    ('\u{2029}', "a paragraph separator (U+2029)"),
];

/// The 1-based character column and the name of the first odd line break in `line` (a line
/// without its LF or CRLF end), if it has one.
pub fn odd_line_break(line: &str) -> Option<(usize, &'static str)> {
    line.chars().enumerate().find_map(|(i, c)| {
        ODD_BREAKS
            .iter()
            .find(|(b, _)| *b == c)
            .map(|(_, name)| (i + 1, *name))
    })
}

/// What is wrong with the odd line break `name`.
pub fn odd_line_break_problem(name: &str) -> String {
    format!(
        "{name} that ends no line (lines end with LF or CRLF; read as part of one line, a comment \
         before it would swallow what follows): save the text with LF or CRLF line ends"
    )
}

/// `text` refused (`line L, column C: ...`) at its first odd line break: see
/// [`odd_line_break`].
pub fn check_line_ends(text: &str) -> Result<(), String> {
    for (index, line) in text.lines().enumerate() {
        if let Some((column, name)) = odd_line_break(line) {
            return Err(format!(
                "line {}, column {column}: {}",
                index + 1,
                odd_line_break_problem(name)
            ));
        }
    }
    Ok(())
}

/// Characters of a file path an error message repeats; a longer path is cut after them.
pub const PATH_CHARS: usize = 256;

/// A file path for an error message, as written (unquoted, like the system's own messages):
/// whole if it has at most [`PATH_CHARS`] characters, otherwise its first [`PATH_CHARS`]
/// characters, `…` and its length in characters, so a hostile path never floods the message.
pub fn shown_path(path: impl AsRef<std::path::Path>) -> String {
    let text = path.as_ref().to_string_lossy();
    if text.is_empty() {
        return "'' (an empty path)".to_string();
    }
    match text.char_indices().nth(PATH_CHARS) {
        None => escaped(&text),
        Some((cut, _)) => format!(
            "{}… ({} characters)",
            escaped(&text[..cut]),
            text.chars().count()
        ),
    }
}

#[cfg(feature = "tools")]
/// `word` as one word of a Bash command line that gives it back byte for byte: as it is when
/// nothing in it is special, else quoted (bytes that are not UTF-8 as `\xNN` in `$'...'`).
pub fn shell_word(word: impl AsRef<std::ffi::OsStr>) -> String {
    use shell_quote::{Bash, QuoteRefExt};
    let word = word.as_ref();
    // A word of these characters only means itself to the shell: written as it is
    // (`alphabeta:depth=3`, `out/s1`), not quoted.
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c);
    match word.to_str() {
        Some(w) if !w.is_empty() && w.chars().all(plain) => w.to_string(),
        _ => word.quoted(Bash),
    }
}

/// The words of `s`, each with its 1-based column counted in characters from the start of `s`.
pub fn words(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut chars = s.char_indices().enumerate().peekable();
    std::iter::from_fn(move || {
        // Skip white space, then take the word.
        while chars.next_if(|(_, (_, c))| c.is_whitespace()).is_some() {}
        let (column, (start, _)) = chars.next()?;
        let mut end = s.len();
        while let Some(&(_, (i, c))) = chars.peek() {
            if c.is_whitespace() {
                end = i;
                break;
            }
            chars.next();
        }
        Some((column + 1, &s[start..end]))
    })
}

/// One `key: value` line of a position text: the key, and the value's words with their columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyLine<'a> {
    /// 1-based line.
    pub line: usize,
    /// 1-based column of the key's first character.
    pub key_column: usize,
    /// The key, trimmed.
    pub key: &'a str,
    /// The value's words, each with its 1-based column in the line.
    pub words: Vec<(usize, &'a str)>,
    /// The column just past the line's content (where a missing word would stand).
    pub end_column: usize,
}

/// The `key: value` lines of `text`, blank lines and `#` comments left out; a line without a
/// colon is `Err((line, column))`, the column that of its first character.
pub fn key_lines(text: &str) -> impl Iterator<Item = Result<KeyLine<'_>, (usize, usize)>> {
    text.lines().enumerate().filter_map(|(index, raw)| {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("");
        if content.trim().is_empty() {
            return None;
        }
        // Columns count characters, as `words` does.
        let key_column = content.chars().take_while(|c| c.is_whitespace()).count() + 1;
        let Some(colon) = content.find(':') else {
            return Some(Err((line, key_column)));
        };
        let offset = content[..=colon].chars().count();
        Some(Ok(KeyLine {
            line,
            key_column,
            key: content[..colon].trim(),
            words: words(&content[colon + 1..])
                .map(|(column, w)| (offset + column, w))
                .collect(),
            end_column: content.chars().count() + 1,
        }))
    })
}

/// A CSV field as written: quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\"")).into()
    } else {
        s.into()
    }
}

/// The fields of one CSV line (without its line break): split at the commas, or read by the
/// csv crate when the line quotes (a quote left open runs to the end of the line).
pub fn csv_fields(line: &str) -> Vec<std::borrow::Cow<'_, str>> {
    if !line.contains('"') {
        return line.split(',').map(Into::into).collect();
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    match reader.records().next() {
        Some(Ok(record)) => record.iter().map(|f| f.to_string().into()).collect(),
        _ => vec![line.into()],
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn controls_and_bidirectional_overrides_are_shown_escaped() {
        assert_eq!(
            super::escaped("bao \u{202e}1.1\u{2066}\x1b[31m\tok é C\u{200b} A\u{ad}\u{2028}"),
            "bao \\u{202e}1.1\\u{2066}\\u{1b}[31m\\tok é C\\u{200b} A\\u{ad}\\u{2028}"
        );
    }

    #[test]
    fn csv_fields_read_back_what_csv_field_writes() {
        let fields = ["7", "mcts:sims=200,c=1.5", "say \"hi\"", ""];
        let line: Vec<_> = fields.iter().map(|f| csv_field(f)).collect();
        let line = line.join(",");
        assert_eq!(line, "7,\"mcts:sims=200,c=1.5\",\"say \"\"hi\"\"\",");
        assert_eq!(csv_fields(&line), fields);
        assert_eq!(csv_fields("a,b,,c"), ["a", "b", "", "c"]);
        // A quote left open runs to the end of the line.
        assert_eq!(csv_fields("a,\"b,c"), ["a", "b,c"]);
    }

    use super::{
        csv_field, csv_fields, quoted, shell_word, shown_path, words, PATH_CHARS, QUOTED_CHARS,
    };

    #[test]
    fn quoted_tokens_are_bounded() {
        assert_eq!(quoted("a7>"), "'a7>'");
        // No control character reaches the terminal.
        assert_eq!(quoted("\u{1b}[2J\tx\r"), "'\\u{1b}[2J\\tx\\r'");
        assert_eq!(shown_path("/tmp/x\u{1b}[31m\n"), "/tmp/x\\u{1b}[31m\\n");
        let exact = "é".repeat(QUOTED_CHARS);
        assert_eq!(quoted(&exact), format!("'{exact}'"));
        let long = "é".repeat(20_000_000);
        let q = quoted(&long);
        assert_eq!(
            q,
            format!("'{}…' (20000000 characters)", "é".repeat(QUOTED_CHARS))
        );
    }

    #[test]
    fn shown_paths_are_bounded() {
        assert_eq!(shown_path("out/games.csv"), "out/games.csv");
        let exact = "d/".repeat(PATH_CHARS / 2);
        assert_eq!(shown_path(&exact), exact);
        let long = format!("/tmp/{}", "é".repeat(100_000));
        assert_eq!(
            shown_path(&long),
            format!("/tmp/{}… (100005 characters)", "é".repeat(PATH_CHARS - 5))
        );
    }

    #[test]
    fn words_carry_their_character_columns() {
        let got: Vec<(usize, &str)> = words("  ab é\tcd  ").collect();
        assert_eq!(got, [(3, "ab"), (6, "é"), (8, "cd")]);
        assert_eq!(words("").count(), 0);
        assert_eq!(words("x").collect::<Vec<_>>(), [(1, "x")]);
    }

    #[test]
    #[cfg(feature = "tools")]
    fn shell_words_give_their_bytes_back_in_bash() {
        assert_eq!(shell_word("out/bao"), "out/bao");
        assert_eq!(shell_word("alphabeta:depth=3"), "alphabeta:depth=3");
        assert_eq!(shell_word("mcts:sims=5,c=1.5"), "mcts:sims=5,c=1.5");
        assert_ne!(shell_word(""), "");
        assert_ne!(shell_word("a*"), "a*");
        #[cfg(unix)]
        for plain in ["=x", "-", "%@+", "a,b", "x:y=z/w.v_-"] {
            let Ok(out) = std::process::Command::new("bash")
                .arg("-c")
                .arg(format!("printf %s {}", shell_word(plain)))
                .output()
            else {
                break;
            };
            assert_eq!(out.stdout, plain.as_bytes(), "{plain}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let odd = std::ffi::OsStr::from_bytes(b"a b'\xff\n");
            let quoted = shell_word(odd);
            // Bash itself reads the word back (skipped where there is no bash).
            let Ok(out) = std::process::Command::new("bash")
                .arg("-c")
                .arg(format!("printf %s {quoted}"))
                .output()
            else {
                return;
            };
            assert_eq!(out.stdout, b"a b'\xff\n", "{quoted}");
        }
    }
}
