//! Splitting a line of text into whitespace-separated words with their character columns, in
//! one pass (the parsers of positions, notation and transcripts share it).

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

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn words_carry_their_character_columns() {
        let got: Vec<(usize, &str)> = words("  ab é\tcd  ").collect();
        assert_eq!(got, [(3, "ab"), (6, "é"), (8, "cd")]);
        assert_eq!(words("").count(), 0);
        assert_eq!(words("x").collect::<Vec<_>>(), [(1, "x")]);
    }
}
