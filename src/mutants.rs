//! Mutation-checked coverage: reads what cargo-mutants found (`outcomes.json`) and maps each
//! mutant to the clause whose annotation governs its line, with the excuses written in the code.
//!
//! An excuse is a line `// mutant: excused REASON` directly above the code it excuses: a line of
//! code, or a whole function when the code below it is a function.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;

use crate::coverage::{outline, Annotation, AnnotationType, Outline, SourceFile};

/// What the tests did to a mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// A test failed: the mutant was caught.
    Caught,
    /// Every test passed: the mutant was missed.
    Missed,
    /// The tests ran past cargo-mutants' time limit (an endless loop, in practice): caught.
    Timeout,
    /// The mutant does not compile.
    Unviable,
}

/// One mutant cargo-mutants tested.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    /// cargo-mutants' name: `file:line:column: what was replaced`.
    pub name: String,
    /// The file, relative to the project root.
    pub file: String,
    /// The line changed.
    pub line: usize,
    /// What the tests did.
    pub outcome: Outcome,
}

/// Where the mutation results cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum MutantsError {
    /// Not cargo-mutants' `outcomes.json`.
    #[error("{path}: not a cargo-mutants outcomes.json: {source}")]
    Json {
        /// The file.
        path: String,
        /// What the JSON reader said.
        source: serde_json::Error,
    },
    /// An outcome cargo-mutants writes that this reader does not know.
    #[error("{path}: mutant {name}: unknown outcome '{summary}'")]
    UnknownOutcome {
        /// The file.
        path: String,
        /// The mutant.
        name: String,
        /// The outcome found.
        summary: String,
    },
}

#[derive(Deserialize)]
struct OutcomesJson {
    outcomes: Vec<OutcomeJson>,
}

#[derive(Deserialize)]
struct OutcomeJson {
    scenario: serde_json::Value,
    summary: String,
}

#[derive(Deserialize)]
struct MutantJson {
    name: String,
    file: String,
    span: SpanJson,
}

#[derive(Deserialize)]
struct SpanJson {
    start: LineJson,
}

#[derive(Deserialize)]
struct LineJson {
    line: usize,
}

/// The mutants of cargo-mutants' `outcomes.json` (its text; `path` names it in errors), the
/// unmutated baseline left out.
pub fn read_outcomes(path: &str, text: &str) -> Result<Vec<Mutant>, MutantsError> {
    let json = |source| MutantsError::Json {
        path: path.to_string(),
        source,
    };
    let all: OutcomesJson = serde_json::from_str(text).map_err(json)?;
    let mut out = Vec::new();
    for o in all.outcomes {
        let Some(m) = o.scenario.get("Mutant") else {
            continue; // the baseline
        };
        let m: MutantJson = serde_json::from_value(m.clone()).map_err(json)?;
        let outcome = match o.summary.as_str() {
            "CaughtMutant" => Outcome::Caught,
            "MissedMutant" => Outcome::Missed,
            "Timeout" => Outcome::Timeout,
            "Unviable" => Outcome::Unviable,
            _ => {
                return Err(MutantsError::UnknownOutcome {
                    path: path.to_string(),
                    name: m.name,
                    summary: o.summary,
                })
            }
        };
        out.push(Mutant {
            name: m.name,
            file: m.file,
            line: m.span.start.line,
            outcome,
        });
    }
    out.sort_by(|a, b| (&a.file, a.line, &a.name).cmp(&(&b.file, b.line, &b.name)));
    Ok(out)
}

/// A `// mutant: excused REASON` line and the lines of code it excuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excuse {
    /// The file.
    pub file: String,
    /// The line of the excuse.
    pub line: usize,
    /// The first and last line excused.
    pub lines: (usize, usize),
    /// Why the mutants there need not be caught.
    pub reason: String,
}

/// An excuse the checker cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExcuseError {
    /// No reason after `excused`.
    #[error("{file}:{line}: an excuse needs its reason after '// mutant: excused'")]
    NoReason {
        /// The file.
        file: String,
        /// The line.
        line: usize,
    },
    /// Another word than `excused` after `// mutant:`.
    #[error("{file}:{line}: expected '// mutant: excused REASON'")]
    Malformed {
        /// The file.
        file: String,
        /// The line.
        line: usize,
    },
    /// Nothing but comments and blank lines below it.
    #[error("{file}:{line}: an excuse with no code below it")]
    NothingBelow {
        /// The file.
        file: String,
        /// The line.
        line: usize,
    },
}

/// The marker of an excuse.
const EXCUSE: &str = "// mutant:";

/// The excuses in `files`.
pub fn scan_excuses(files: &[SourceFile]) -> (Vec<Excuse>, Vec<ExcuseError>) {
    let (mut excuses, mut errors) = (Vec::new(), Vec::new());
    for f in files {
        let lines: Vec<&str> = f.text.lines().collect();
        let mut outlined = None;
        for (index, l) in lines.iter().enumerate() {
            let Some(rest) = l.trim_start().strip_prefix(EXCUSE) else {
                continue;
            };
            let (file, line) = (f.path.clone(), index + 1);
            // A file that does not parse fails the annotation scan already.
            let o: &Outline = outlined.get_or_insert_with(|| outline(&f.text).unwrap_or_default());
            if o.in_literal(line) {
                continue;
            }
            let Some(reason) = rest.trim().strip_prefix("excused") else {
                errors.push(ExcuseError::Malformed { file, line });
                continue;
            };
            let reason = reason.trim();
            if reason.is_empty() {
                errors.push(ExcuseError::NoReason { file, line });
                continue;
            }
            // The first line below that is not a comment or blank.
            let Some(below) = (index + 1..lines.len())
                .find(|&i| {
                    let t = lines[i].trim_start();
                    !(t.is_empty() || t.starts_with("//"))
                })
                .map(|i| i + 1)
            else {
                errors.push(ExcuseError::NothingBelow { file, line });
                continue;
            };
            let excused = o
                .fns
                .iter()
                .find(|s| s.start == below || s.sig == below)
                .map_or((below, below), |s| (s.start, s.end));
            excuses.push(Excuse {
                file,
                line,
                lines: excused,
                reason: reason.to_string(),
            });
        }
    }
    (excuses, errors)
}

/// The implementation annotation that governs line `line` of `file`: among those in the
/// innermost function holding the line, the last at or above it, else the first below it.
pub fn governing<'a>(
    annotations: &'a [Annotation],
    file: &str,
    line: usize,
) -> Option<&'a Annotation> {
    let holding = |a: &&Annotation| {
        a.kind == AnnotationType::Implementation
            && a.file == file
            && a.function
                .as_ref()
                .is_some_and(|f| f.start <= line && line <= f.end)
    };
    let innermost = annotations
        .iter()
        .filter(holding)
        .filter_map(|a| a.function.as_ref())
        .min_by_key(|f| f.end - f.start)?;
    let in_it: Vec<&Annotation> = annotations
        .iter()
        .filter(holding)
        .filter(|a| a.function.as_ref() == Some(innermost))
        .collect();
    in_it
        .iter()
        .rev()
        .find(|a| a.line <= line)
        .or_else(|| in_it.first())
        .copied()
}

/// The mutants of one clause (or of the code outside every clause).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Caught by a failing test.
    pub caught: usize,
    /// Caught by running past the time limit.
    pub timeout: usize,
    /// Did not compile.
    pub unviable: usize,
    /// Missed, with an excuse: (mutant, reason).
    pub excused: Vec<(String, String)>,
    /// Missed, without an excuse.
    pub missed: Vec<String>,
}

impl Tally {
    /// Mutants counted.
    pub fn total(&self) -> usize {
        self.caught + self.timeout + self.unviable + self.excused.len() + self.missed.len()
    }

    /// Viable mutants counted (all but the unviable).
    pub fn viable(&self) -> usize {
        self.total() - self.unviable
    }

    /// Adds another tally's mutants.
    pub fn merge(&mut self, other: &Tally) {
        self.caught += other.caught;
        self.timeout += other.timeout;
        self.unviable += other.unviable;
        self.excused.extend(other.excused.iter().cloned());
        self.missed.extend(other.missed.iter().cloned());
    }

    fn add(&mut self, m: &Mutant, excuse: Option<&Excuse>) {
        match (m.outcome, excuse) {
            (Outcome::Caught, _) => self.caught += 1,
            (Outcome::Timeout, _) => self.timeout += 1,
            (Outcome::Unviable, _) => self.unviable += 1,
            (Outcome::Missed, Some(e)) => self.excused.push((m.name.clone(), e.reason.clone())),
            (Outcome::Missed, None) => self.missed.push(m.name.clone()),
        }
    }

    /// `12 mutants: 10 caught, 1 timeout, 1 unviable, 0 excused, 0 missed`.
    pub fn line(&self) -> String {
        let mut s = format!("{} mutants: {} caught", self.total(), self.caught);
        if self.timeout > 0 {
            let _ = write!(s, ", {} by timeout", self.timeout);
        }
        let _ = write!(
            s,
            ", {} unviable, {} excused, {} missed",
            self.unviable,
            self.excused.len(),
            self.missed.len()
        );
        s
    }
}

/// A game's mutants by the clause that governs them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByClause {
    /// Per clause id.
    pub clauses: BTreeMap<String, Tally>,
    /// Mutants in files that hold the game's clause code, outside every annotated function.
    pub outside: Tally,
}

/// Maps `mutants` to the clauses of `annotations` (one game's), with `excuses`. Mutants in files
/// with none of the game's implementation annotations are left out (another game's code).
pub fn by_clause(mutants: &[Mutant], annotations: &[Annotation], excuses: &[Excuse]) -> ByClause {
    let mut out = ByClause::default();
    for m in mutants {
        let in_game = annotations
            .iter()
            .any(|a| a.kind == AnnotationType::Implementation && a.file == m.file);
        if !in_game {
            continue;
        }
        let excuse = excuses
            .iter()
            .find(|e| e.file == m.file && e.lines.0 <= m.line && m.line <= e.lines.1);
        match governing(annotations, &m.file, m.line) {
            Some(a) => out.clauses.entry(a.id.clone()).or_default().add(m, excuse),
            None => out.outside.add(m, excuse),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::scan_annotations;

    const SRC: &str = "\
fn first() {
    // spec: bao 1.1
    let a = 1;
    // spec: bao 1.2
    let b = 2;
}

// spec: bao 1.3
fn second() {
    let c = 3;
    fn inner() {
        // spec: bao 1.4
        let d = 4;
    }
}

fn third() {
    // mutant: excused only the speed changes
    let e = 5;
    let f = 6;
}

// mutant: excused the trace text is not checked
#[inline]
fn fourth() {
    let g = 7;
}

/// Documented.
// mutant: excused between its doc comment and itself
fn fifth() {
    let h = 8;
}
";

    fn file() -> SourceFile {
        SourceFile {
            path: "src/x.rs".into(),
            text: SRC.into(),
            default_type: AnnotationType::Implementation,
        }
    }

    fn mutant(line: usize, outcome: Outcome) -> Mutant {
        Mutant {
            name: format!("src/x.rs:{line}:5: replace"),
            file: "src/x.rs".into(),
            line,
            outcome,
        }
    }

    #[test]
    fn each_line_is_governed_by_the_annotation_above_it_in_its_function() {
        let scan = scan_annotations("bao", "src/x.rs", SRC, AnnotationType::Implementation);
        assert_eq!(scan.errors, []);
        let at = |line| governing(&scan.annotations, "src/x.rs", line).map(|a| a.id.as_str());
        // Before the first annotation of a function: its first one; after: the last above.
        assert_eq!(
            [at(1), at(3), at(5)],
            [Some("1.1"), Some("1.1"), Some("1.2")]
        );
        // Directly above a function: all of it, but a nested function with its own.
        assert_eq!([at(10), at(13)], [Some("1.3"), Some("1.4")]);
        // Unannotated functions and other files: none.
        assert_eq!(at(19), None);
        assert_eq!(governing(&scan.annotations, "src/y.rs", 3), None);
    }

    #[test]
    fn excuses_cover_a_line_or_a_function_and_need_a_reason() {
        let (excuses, errors) = scan_excuses(&[file()]);
        assert_eq!(errors, []);
        let covered: Vec<(usize, usize)> = excuses.iter().map(|e| e.lines).collect();
        assert_eq!(covered, [(19, 19), (24, 27), (29, 33)]);
        assert_eq!(excuses[0].reason, "only the speed changes");
        let bad = SourceFile {
            text: "// mutant: excused\nfn f() {}\n// mutant: excuse x\nfn g() {}\n// mutant: excused x\n".into(),
            ..file()
        };
        let (_, errors) = scan_excuses(&[bad]);
        // This file's own samples are string literals, not excuses.
        let own = SourceFile {
            text: include_str!("mutants.rs").into(),
            ..file()
        };
        assert_eq!(scan_excuses(&[own]), (vec![], vec![]));
        let file = || "src/x.rs".to_string();
        assert_eq!(
            errors,
            [
                ExcuseError::NoReason {
                    file: file(),
                    line: 1
                },
                ExcuseError::Malformed {
                    file: file(),
                    line: 3
                },
                ExcuseError::NothingBelow {
                    file: file(),
                    line: 5
                },
            ]
        );
    }

    #[test]
    fn mutants_are_tallied_by_clause_with_their_excuses() {
        let scan = scan_annotations("bao", "src/x.rs", SRC, AnnotationType::Implementation);
        let (excuses, _) = scan_excuses(&[file()]);
        let mutants = [
            mutant(3, Outcome::Caught),
            mutant(3, Outcome::Missed),
            mutant(5, Outcome::Unviable),
            mutant(13, Outcome::Timeout),
            mutant(19, Outcome::Missed),
            mutant(20, Outcome::Missed),
            mutant(26, Outcome::Missed),
            Mutant {
                file: "src/other.rs".into(),
                ..mutant(1, Outcome::Missed)
            },
        ];
        let t = by_clause(&mutants, &scan.annotations, &excuses);
        assert_eq!(t.clauses["1.1"].caught, 1);
        assert_eq!(t.clauses["1.1"].missed, ["src/x.rs:3:5: replace"]);
        assert_eq!(t.clauses["1.2"].unviable, 1);
        assert_eq!(t.clauses["1.4"].timeout, 1);
        assert_eq!(t.outside.excused.len(), 2);
        assert_eq!(t.outside.missed, ["src/x.rs:20:5: replace"]);
        // src/other.rs holds none of the game's annotations: not counted.
        let total: usize = t.clauses.values().map(Tally::total).sum::<usize>() + t.outside.total();
        assert_eq!(total, 7);
        assert_eq!(
            t.clauses["1.1"].line(),
            "2 mutants: 1 caught, 0 unviable, 0 excused, 1 missed"
        );
    }

    #[test]
    fn outcomes_json_is_read_and_bad_input_named() {
        let json = r#"{"outcomes": [
            {"scenario": "Baseline", "summary": "Success"},
            {"scenario": {"Mutant": {"name": "src/x.rs:3:5: replace f", "file": "src/x.rs",
              "span": {"start": {"line": 3, "column": 5}, "end": {"line": 3, "column": 9}}}},
             "summary": "MissedMutant"}
        ]}"#;
        let m = read_outcomes("o.json", json).unwrap();
        assert_eq!(
            m,
            [mutant(3, Outcome::Missed)].map(|m| Mutant {
                name: "src/x.rs:3:5: replace f".into(),
                ..m
            })
        );
        let e = read_outcomes("o.json", "{}").unwrap_err().to_string();
        assert!(
            e.starts_with("o.json: not a cargo-mutants outcomes.json"),
            "{e}"
        );
        let odd = json.replace("MissedMutant", "Exploded");
        let e = read_outcomes("o.json", &odd).unwrap_err().to_string();
        assert_eq!(
            e,
            "o.json: mutant src/x.rs:3:5: replace f: unknown outcome 'Exploded'"
        );
    }
}
