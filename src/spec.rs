//! A game's spec (`spec/<game>.md`) as clauses: each clause's id, title and kind, read from its
//! heading and `- kind:` line; the coverage report and the games' clause lists start here.

use std::cmp::Ordering;
use std::collections::HashSet;

/// What a clause of the rules is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClauseKind {
    /// A rule the engine must obey: needs an implementation and a test.
    Normative,
    /// Defines a term; no behaviour of its own.
    Definition,
    /// Explains or motivates; no behaviour of its own.
    Informative,
    /// A section heading.
    Heading,
}

impl ClauseKind {
    fn parse(s: &str) -> Option<ClauseKind> {
        match s {
            "normative" => Some(ClauseKind::Normative),
            "definition" => Some(ClauseKind::Definition),
            "informative" => Some(ClauseKind::Informative),
            "heading" => Some(ClauseKind::Heading),
            _ => None,
        }
    }

    /// The kind as the spec writes it.
    pub fn name(self) -> &'static str {
        match self {
            ClauseKind::Normative => "normative",
            ClauseKind::Definition => "definition",
            ClauseKind::Informative => "informative",
            ClauseKind::Heading => "heading",
        }
    }
}

/// One clause entry of a spec file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Its id, e.g. `4.2.2.3.1` or `N.3`.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its kind.
    pub kind: ClauseKind,
}

/// A spec file that does not follow the entry format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// An entry without a `kind:` line, or with an unknown kind.
    #[error("spec line {line}: clause {id} needs a line 'kind: normative|definition|informative|heading'")]
    MissingKind {
        /// The clause.
        id: String,
        /// Its heading line.
        line: usize,
    },
    /// The same id twice.
    #[error("spec line {line}: clause {id} is defined twice")]
    Duplicate {
        /// The clause.
        id: String,
        /// The second heading's line.
        line: usize,
    },
}

/// The sort key of a clause id: its segments, numbers before words and compared as numbers.
pub(crate) fn id_key(s: &str) -> Vec<(u8, u64, String)> {
    s.split('.')
        .map(|seg| match seg.parse::<u64>() {
            Ok(n) => (0, n, String::new()),
            Err(_) => (1, 0, seg.to_string()),
        })
        .collect()
}

/// Compares clause ids segment by segment, numbers numerically (`4.10` after `4.9`).
pub fn compare_ids(a: &str, b: &str) -> Ordering {
    id_key(a).cmp(&id_key(b))
}

fn is_clause_id(s: &str) -> bool {
    let mut segments = s.split('.');
    let first = segments.next().unwrap_or("");
    let first_ok = first.chars().all(|c| c.is_ascii_digit()) && !first.is_empty()
        || first.len() <= 2 && first.chars().all(|c| c.is_ascii_uppercase()) && !first.is_empty();
    first_ok && segments.all(|seg| !seg.is_empty() && seg.chars().all(|c| c.is_ascii_digit()))
}

/// The text of clause `id` in a spec: its title and the lines of its entry (from its heading to
/// the next heading, trimmed), as the spec writes them; `None` when the spec has no such clause.
pub fn clause_text(game: &str, text: &str, id: &str) -> Option<(String, String)> {
    let mut lines = text.lines();
    let title = lines.by_ref().find_map(|line| {
        let rest = line
            .trim()
            .strip_prefix('#')?
            .trim_start_matches('#')
            .trim();
        let mut words = rest.splitn(3, ' ');
        (words.next() == Some(game) && words.next() == Some(id)).then(|| {
            words
                .next()
                .unwrap_or("")
                .trim_start_matches(['—', '-', ' '])
                .trim()
                .to_string()
        })
    })?;
    let body: Vec<&str> = lines
        .take_while(|line| !line.trim_start().starts_with('#'))
        .collect();
    Some((title, body.join("\n").trim().to_string()))
}

/// Reads the clause entries of a spec: each is a Markdown heading `## <game> <id> — title`
/// followed, before the next heading, by a line `- kind: <kind>`. Linear in the length of the text.
pub fn parse_spec(game: &str, text: &str) -> Result<Vec<Clause>, SpecError> {
    let mut clauses: Vec<(Clause, usize, bool)> = Vec::new();
    let mut ids: HashSet<&str> = HashSet::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') {
            let rest = trimmed.trim_start_matches('#').trim();
            let mut words = rest.splitn(3, ' ');
            if words.next() == Some(game) {
                if let Some(id) = words.next().filter(|id| is_clause_id(id)) {
                    let title = words
                        .next()
                        .unwrap_or("")
                        .trim_start_matches(['—', '-', ' '])
                        .trim();
                    if !ids.insert(id) {
                        return Err(SpecError::Duplicate {
                            id: id.to_string(),
                            line: index + 1,
                        });
                    }
                    clauses.push((
                        Clause {
                            id: id.to_string(),
                            title: title.to_string(),
                            kind: ClauseKind::Heading,
                        },
                        index + 1,
                        false,
                    ));
                }
            }
            continue;
        }
        let field = trimmed.trim_start_matches(['-', '*', ' ']);
        if let Some(kind) = field.strip_prefix("kind:") {
            if let Some((clause, _, has_kind)) = clauses.last_mut() {
                if !*has_kind {
                    if let Some(k) = ClauseKind::parse(kind.trim().trim_matches('*').trim()) {
                        clause.kind = k;
                        *has_kind = true;
                    }
                }
            }
        }
    }
    clauses
        .into_iter()
        .map(|(c, line, has_kind)| {
            if has_kind {
                Ok(c)
            } else {
                Err(SpecError::MissingKind { id: c.id, line })
            }
        })
        .collect()
}
