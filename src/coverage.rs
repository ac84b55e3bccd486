//! Clause coverage: reads a game's spec (`spec/<game>.md`) and the `// spec:` annotations in the code
//! and tests, and reports per clause where it is implemented and which tests check it.
//!
//! The annotations are read by [`crate::scan`].

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::mutants::{self, ByClause, ExcuseError, Tally};
pub use crate::scan::{
    outline, read_tree, scan_annotations, scan_files, scan_tree, Annotation, AnnotationError,
    AnnotationType, FnSpan, Outline, Scan, SourceFile, MAX_SOURCE_BYTES,
};

use crate::spec::id_key;
pub use crate::spec::{compare_ids, parse_spec, Clause, ClauseKind, SpecError};

/// The coverage of one clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClauseCoverage {
    /// The clause.
    pub clause: Clause,
    /// `file:line` of each implementation annotation.
    pub implemented_at: Vec<String>,
    /// Test names citing it.
    pub tested_by: Vec<String>,
    /// Exception reasons recorded for it.
    pub exceptions: Vec<String>,
    /// `file:line` of todo annotations.
    pub todos: Vec<String>,
    /// How often the clause fired in the engine's random playouts, when measured.
    pub fired: Option<Fired>,
    /// Its mutants, when mutation results were given.
    pub mutants: Option<Tally>,
}

/// How often a clause fired in random playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fired {
    /// It is an event the engines count: this many times.
    Count(u64),
    /// It is an event the engines count, but no position can fire it: why.
    Never(&'static str),
    /// The engines report no event for it (it sets up the board, names moves, or is a part of a
    /// move the engines do not count apart), so there is nothing to count.
    NotCounted,
}

impl std::fmt::Display for Fired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fired::Count(n) => write!(f, "{n}"),
            Fired::Never(why) => write!(f, "0, and it cannot fire: {why}"),
            Fired::NotCounted => write!(
                f,
                "not counted (the engines report no event for this clause, so there is nothing \
                 to count)"
            ),
        }
    }
}

/// Where a clause stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not a normative clause: nothing to implement.
    NotNormative,
    /// Needs no code or test, for a recorded reason.
    Excepted,
    /// Implemented and tested.
    Covered,
    /// Tested but not implemented.
    MissingImplementation,
    /// Implemented but not tested.
    MissingTest,
    /// Neither.
    MissingBoth,
}

impl Status {
    /// True when the clause does not hold the gate back.
    pub fn ok(self) -> bool {
        matches!(
            self,
            Status::NotNormative | Status::Excepted | Status::Covered
        )
    }

    /// The status as the report writes it.
    pub fn name(self) -> &'static str {
        match self {
            Status::NotNormative => "n/a",
            Status::Excepted => "excepted",
            Status::Covered => "covered",
            Status::MissingImplementation => "MISSING implementation",
            Status::MissingTest => "MISSING test",
            Status::MissingBoth => "MISSING implementation and test",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl ClauseCoverage {
    /// Covered: a normative clause with an implementation and a test, or an exception.
    pub fn status(&self) -> Status {
        if self.clause.kind != ClauseKind::Normative {
            return Status::NotNormative;
        }
        match (
            !self.exceptions.is_empty(),
            !self.implemented_at.is_empty(),
            !self.tested_by.is_empty(),
        ) {
            (true, _, _) => Status::Excepted,
            (false, true, true) => Status::Covered,
            (false, false, true) => Status::MissingImplementation,
            (false, true, false) => Status::MissingTest,
            (false, false, false) => Status::MissingBoth,
        }
    }

    /// True when the clause does not hold the gate back.
    pub fn ok(&self) -> bool {
        self.status().ok()
    }
}

/// The coverage report of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The game.
    pub game: String,
    /// One row per clause, in id order.
    pub clauses: Vec<ClauseCoverage>,
    /// Annotations citing ids the spec does not define.
    pub unknown: Vec<Annotation>,
    /// Annotations that could not be taken as written.
    pub malformed: Vec<AnnotationError>,
    /// Mutants in the game's clause code outside every annotated function, when mutation
    /// results were given.
    pub mutants_outside: Option<Tally>,
    /// Excuses of mutants that could not be taken as written.
    pub malformed_excuses: Vec<ExcuseError>,
    /// Recorded mutants of the game's clause code left out because their file changed since
    /// they were run.
    pub stale_mutants: usize,
}

impl Report {
    /// Matches annotations to clauses; `fired` gives trace counts per clause id where measured.
    pub fn build(
        game: &str,
        spec: &[Clause],
        scan: &Scan,
        fired: Option<&dyn Fn(&str) -> Fired>,
    ) -> Report {
        let mut clauses: Vec<ClauseCoverage> = spec
            .iter()
            .map(|c| ClauseCoverage {
                clause: c.clone(),
                implemented_at: Vec::new(),
                tested_by: Vec::new(),
                exceptions: Vec::new(),
                todos: Vec::new(),
                fired: fired.map(|f| f(&c.id)),
                mutants: None,
            })
            .collect();
        clauses.sort_by_cached_key(|c| id_key(&c.clause.id));
        let rows: HashMap<String, usize> = clauses
            .iter()
            .enumerate()
            .map(|(i, c)| (c.clause.id.clone(), i))
            .collect();
        let mut unknown = Vec::new();
        for a in &scan.annotations {
            let Some(&i) = rows.get(&a.id) else {
                unknown.push(a.clone());
                continue;
            };
            let row = &mut clauses[i];
            let at = format!("{}:{}", a.file, a.line);
            match a.kind {
                AnnotationType::Implementation => row.implemented_at.push(at),
                AnnotationType::Test => {
                    let name = a.test().unwrap_or_default().to_string();
                    if !row.tested_by.contains(&name) {
                        row.tested_by.push(name);
                    }
                }
                AnnotationType::Exception => row.exceptions.push(format!("{at} {}", a.note)),
                AnnotationType::Todo => row.todos.push(at),
            }
        }
        Report {
            game: game.to_string(),
            clauses,
            unknown,
            malformed: scan.errors.clone(),
            mutants_outside: None,
            malformed_excuses: Vec::new(),
            stale_mutants: 0,
        }
    }

    /// Adds mutation results: each clause's mutants (those of `by_clause`), and the excuses
    /// that could not be taken.
    pub fn with_mutants(
        mut self,
        mut by_clause: ByClause,
        excuse_errors: Vec<ExcuseError>,
    ) -> Report {
        for c in &mut self.clauses {
            c.mutants = Some(by_clause.clauses.remove(&c.clause.id).unwrap_or_default());
        }
        // Mutants governed by an id the spec lacks (already failing as an unknown id).
        for t in by_clause.clauses.values() {
            by_clause.outside.merge(t);
        }
        self.mutants_outside = Some(by_clause.outside);
        self.malformed_excuses = excuse_errors;
        self
    }

    /// Notes `n` recorded mutants left out as stale.
    pub fn with_stale_mutants(mut self, n: usize) -> Report {
        self.stale_mutants = n;
        self
    }

    /// Missed mutants without an excuse in the code of normative clauses: they fail the gate.
    pub fn missed_mutants(&self) -> Vec<&str> {
        self.clauses
            .iter()
            .filter(|c| c.clause.kind == ClauseKind::Normative)
            .filter_map(|c| c.mutants.as_ref())
            .flat_map(|t| t.missed.iter().map(String::as_str))
            .collect()
    }

    /// Every mutant of the clauses, and outside them, as one tally (when mutation results
    /// were given).
    pub fn mutant_totals(&self) -> Option<Tally> {
        let outside = self.mutants_outside.as_ref()?;
        let mut all = Tally::default();
        for t in self
            .clauses
            .iter()
            .filter_map(|c| c.mutants.as_ref())
            .chain([outside])
        {
            all.merge(t);
        }
        Some(all)
    }

    /// True when the spec has at least one normative clause, every normative clause is covered or
    /// excepted and every annotation is well formed and cites a known id. A spec without a
    /// normative clause checks nothing, so it fails.
    pub fn passed(&self) -> bool {
        self.normative_counts().0 > 0
            && self.unknown.is_empty()
            && self.malformed.is_empty()
            && self.malformed_excuses.is_empty()
            && self.missed_mutants().is_empty()
            && self.clauses.iter().all(ClauseCoverage::ok)
    }

    /// Counts: (normative clauses, covered or excepted).
    pub fn normative_counts(&self) -> (usize, usize) {
        let normative: Vec<_> = self
            .clauses
            .iter()
            .filter(|c| c.clause.kind == ClauseKind::Normative)
            .collect();
        let ok = normative.iter().filter(|c| c.ok()).count();
        (normative.len(), ok)
    }

    /// A one-line verdict.
    pub fn summary_line(&self) -> String {
        let (n, ok) = self.normative_counts();
        if n == 0 {
            return format!(
                "coverage {game}: FAIL: the spec has no normative clause (an entry '## {game} ID — \
                 title' followed by '- kind: normative'), so there is nothing to check",
                game = self.game
            );
        }
        let mut malformed = match self.malformed.len() + self.malformed_excuses.len() {
            0 => String::new(),
            k => format!(", {k} malformed annotations"),
        };
        if let Some(t) = self.mutant_totals() {
            let _ = write!(
                malformed,
                ", {}; {} missed in normative clauses",
                t.line(),
                self.missed_mutants().len()
            );
            if self.stale_mutants > 0 {
                let _ = write!(
                    malformed,
                    " ({} recorded mutants left out: their file changed since they were run)",
                    self.stale_mutants
                );
            }
        }
        format!(
            "coverage {}: {ok}/{n} normative clauses implemented and tested, {} unknown ids \
             cited{malformed}: {}",
            self.game,
            self.unknown.len(),
            if self.passed() { "PASS" } else { "FAIL" }
        )
    }

    /// One line per clause with its kind, status and counts of implementing annotations, citing
    /// tests, exceptions, todos and mutants (when known), then the mutants outside every clause
    /// and the recorded mutants left out as stale: committed, so that a change of coverage shows in review
    /// (counts, not lines, so that moving code changes nothing).
    pub fn snapshot(&self) -> String {
        let mut out = String::new();
        for c in &self.clauses {
            let _ = write!(
                out,
                "{} {} {} {}",
                self.game,
                c.clause.id,
                c.clause.kind.name(),
                c.status().name().replace(' ', "-")
            );
            for (name, n) in [
                ("implemented", c.implemented_at.len()),
                ("tests", c.tested_by.len()),
                ("exceptions", c.exceptions.len()),
                ("todos", c.todos.len()),
            ] {
                if n > 0 {
                    let _ = write!(out, " {name}={n}");
                }
            }
            if let Some(t) = c.mutants.as_ref().filter(|t| t.total() > 0) {
                let _ = write!(out, " mutants={}", t.total());
                for (name, n) in [
                    ("caught", t.caught + t.timeout),
                    ("unviable", t.unviable),
                    ("excused", t.excused.len()),
                    ("missed", t.missed.len()),
                ] {
                    if n > 0 {
                        let _ = write!(out, " {name}={n}");
                    }
                }
            }
            out.push('\n');
        }
        if let Some(t) = self.mutants_outside.as_ref().filter(|t| t.total() > 0) {
            let _ = writeln!(
                out,
                "{} outside-clauses mutants={} caught={} unviable={} excused={} missed={}",
                self.game,
                t.total(),
                t.caught + t.timeout,
                t.unviable,
                t.excused.len(),
                t.missed.len()
            );
        }
        if self.stale_mutants > 0 {
            let _ = writeln!(out, "{} stale-mutants {}", self.game, self.stale_mutants);
        }
        out
    }

    /// The full text report.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for c in &self.clauses {
            let _ = writeln!(
                out,
                "{} {} [{}] {}",
                self.game,
                c.clause.id,
                c.clause.kind.name(),
                c.status()
            );
            if c.clause.kind == ClauseKind::Heading {
                continue;
            }
            let list = |v: &[String]| {
                if v.is_empty() {
                    "-".to_string()
                } else {
                    v.join(", ")
                }
            };
            if !c.implemented_at.is_empty() || c.clause.kind == ClauseKind::Normative {
                let _ = writeln!(out, "    implemented at: {}", list(&c.implemented_at));
                let _ = writeln!(out, "    tested by: {}", list(&c.tested_by));
            }
            for e in &c.exceptions {
                let _ = writeln!(out, "    exception: {e}");
            }
            for t in &c.todos {
                let _ = writeln!(out, "    todo: {t}");
            }
            if let Some(n) = c.fired {
                let _ = writeln!(out, "    fired in playouts: {n}");
            }
            if let Some(t) = c.mutants.as_ref().filter(|t| t.total() > 0) {
                let _ = writeln!(out, "    {}", t.line());
                for (m, why) in &t.excused {
                    let _ = writeln!(out, "    excused mutant: {m} ({why})");
                }
                for m in &t.missed {
                    let _ = writeln!(out, "    MISSED mutant: {m}");
                }
            }
        }
        if let Some(t) = &self.mutants_outside {
            let _ = writeln!(out, "outside every annotated function: {}", t.line());
            for m in &t.missed {
                let _ = writeln!(out, "    missed mutant (no clause): {m}");
            }
        }
        for a in &self.unknown {
            let _ = writeln!(
                out,
                "UNKNOWN clause {} {} cited at {}:{}",
                self.game,
                crate::text::escaped(&a.id),
                crate::text::escaped(&a.file),
                a.line
            );
        }
        for e in &self.malformed {
            let _ = writeln!(out, "MALFORMED annotation: {e}");
        }
        for e in &self.malformed_excuses {
            let _ = writeln!(out, "MALFORMED excuse: {e}");
        }
        let _ = writeln!(out, "{}", self.summary_line());
        out
    }
}

/// `report` (of the game `scan` was made for) with `found` mapped to its clauses, the excuses
/// read from `files`, and the stale rows (their files) of the game's clause code counted.
pub fn add_to_report(
    report: Report,
    found: &[mutants::Mutant],
    stale: &[String],
    files: &[SourceFile],
    scan: &Scan,
) -> Report {
    let (excuses, errors) = mutants::scan_excuses(files);
    let mapped = mutants::by_clause(&report.game, found, &scan.annotations, &excuses);
    let stale = stale
        .iter()
        .filter(|f| mutants::in_game(&report.game, f, &scan.annotations))
        .count();
    report
        .with_mutants(mapped, errors)
        .with_stale_mutants(stale)
}

/// `report` with the recorded results under `root` that still describe `files` (unchanged
/// when there are none).
pub fn add_recorded(
    report: Report,
    root: &std::path::Path,
    files: &[SourceFile],
    scan: &Scan,
) -> Result<Report, mutants::RecordError> {
    Ok(match mutants::read_recorded_under(root)? {
        None => report,
        Some(rows) => {
            let (found, stale) = mutants::fresh(&rows, &mutants::sources(files));
            add_to_report(report, &found, &stale, files, scan)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    const SPEC: &str =
        "# Spec\n## bao 1 — General\n- kind: heading\n### bao 1.1 — Rule\n- kind: normative\n\
        ### bao 1.2 — Note\n- kind: informative\n### bao 1.10 — Later rule\n- kind: normative\n";

    fn report(src: &str, tests: &str) -> Report {
        let spec = parse_spec("bao", SPEC).unwrap();
        let mut a = scan_annotations("bao", "src/x.rs", src, AnnotationType::Implementation);
        a.extend(scan_annotations(
            "bao",
            "tests/t.rs",
            tests,
            AnnotationType::Test,
        ));
        Report::build("bao", &spec, &a, None)
    }

    const IMPL: &str = "fn f() {\n    // spec: bao 1.1\n    // spec: bao 1.10 the later rule\n}\n";
    const TESTS: &str = "#[test]\n// spec: bao 1.1\nfn c1_1_works() {}\n#[test]\nfn c1_10() {\n    // spec: bao 1.10\n}\n";

    #[test]
    fn full_coverage_passes_and_ids_sort_numerically() {
        let r = report(IMPL, TESTS);
        assert!(r.passed(), "{}", r.render());
        let ids: Vec<&str> = r.clauses.iter().map(|c| c.clause.id.as_str()).collect();
        assert_eq!(ids, ["1", "1.1", "1.2", "1.10"]);
        assert_eq!(r.clauses[1].tested_by, ["c1_1_works"]);
        assert_eq!(r.clauses[3].tested_by, ["c1_10"]);
        assert_eq!(r.clauses[1].implemented_at, ["src/x.rs:2"]);
    }

    #[test]
    fn a_missing_test_fails() {
        let r = report(IMPL, "#[test]\n// spec: bao 1.1\nfn c1_1() {}\n");
        assert!(!r.passed());
        assert_eq!(r.clauses[3].status(), Status::MissingTest);
    }

    #[test]
    fn a_missing_implementation_fails() {
        let r = report("fn f() {\n    // spec: bao 1.1\n}\n", TESTS);
        assert!(!r.passed());
        assert_eq!(r.clauses[3].status(), Status::MissingImplementation);
    }

    #[test]
    fn an_unknown_id_fails() {
        let r = report(&format!("{IMPL}// spec: bao 9.9\n"), TESTS);
        assert!(!r.passed());
        assert_eq!(r.unknown.len(), 1);
        assert_eq!(r.unknown[0].id, "9.9");
    }

    #[test]
    fn an_exception_covers_and_a_todo_does_not() {
        let excepted = "// spec: bao 1.10 type=exception decided by the players, not the engine\n";
        let r = report(
            &format!("fn f() {{\n    // spec: bao 1.1\n}}\n{excepted}"),
            "#[test]\n// spec: bao 1.1\nfn t() {}\n",
        );
        assert!(r.passed(), "{}", r.render());
        assert_eq!(r.clauses[3].status(), Status::Excepted);
        let todo = report(
            "// spec: bao 1.1\n// spec: bao 1.10 type=todo issue 9\n",
            TESTS,
        );
        assert!(!todo.passed());
    }

    #[test]
    fn spec_entries_need_a_kind_and_unique_ids() {
        assert!(matches!(
            parse_spec("bao", "## bao 1.1 — x\n"),
            Err(SpecError::MissingKind { .. })
        ));
        let dup = "## bao 1.1 — x\n- kind: normative\n## bao 1.1 — y\n- kind: normative\n";
        assert!(matches!(
            parse_spec("bao", dup),
            Err(SpecError::Duplicate { .. })
        ));
        // Headings of other games and ordinary headings are not entries.
        assert_eq!(
            parse_spec("bao", "# Title\n## oware O.1 — x\n").unwrap(),
            vec![]
        );
    }

    #[test]
    fn annotations_must_stand_alone_on_their_line() {
        let a = scan_annotations(
            "bao",
            "f",
            "x(); // spec: bao 1.1\n/// see (spec: bao 1.1)\n",
            AnnotationType::Implementation,
        );
        assert_eq!(a, Scan::default());
    }

    /// The errors of annotations in `src/x.rs` (`test` false) or `tests/t.rs`.
    fn errors(text: &str, test: bool) -> Vec<AnnotationError> {
        let (file, kind) = if test {
            ("tests/t.rs", AnnotationType::Test)
        } else {
            ("src/x.rs", AnnotationType::Implementation)
        };
        scan_annotations("bao", file, text, kind).errors
    }

    #[test]
    fn malformed_annotations_are_errors_and_fail_the_gate() {
        let at = |line| ("src/x.rs".to_string(), line);
        let cases: Vec<(&str, AnnotationError)> = vec![
            ("fn f() {\n    // spec: bao 1.1 type=implementaton\n}\n", {
                let (file, line) = at(2);
                AnnotationError::UnknownType {
                    file,
                    line,
                    word: "type=implementaton".into(),
                }
            }),
            ("// spec: bao 1.1 type=exception\n", {
                let (file, line) = at(1);
                AnnotationError::ExceptionWithoutReason { file, line }
            }),
            ("// spec: bao 1.1 type=test type=todo x\n", {
                let (file, line) = at(1);
                AnnotationError::TypeTwice { file, line }
            }),
            ("fn f() {}\n// spec: bao\n", {
                let (file, line) = at(2);
                AnnotationError::MissingId { file, line }
            }),
            // A test annotation in src/ that no function holds.
            (
                "const X: u8 = 1;\n// spec: bao 1.1 type=test\nconst Y: u8 = 2;\n",
                {
                    let (file, line) = at(2);
                    AnnotationError::TestOutsideFunction { file, line }
                },
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(errors(text, false), [expected], "{text}");
            let r = report(&format!("{IMPL}{text}"), TESTS);
            assert!(!r.passed(), "{text}");
            assert!(
                r.summary_line().contains("1 malformed annotations"),
                "{text}"
            );
            assert!(
                r.render().contains("MALFORMED annotation: src/x.rs:"),
                "{text}"
            );
        }
        // In tests/: an annotation after the last test, and one between two items.
        let e = errors("#[test]\nfn t() {}\n// spec: bao 1.1\n", true);
        assert!(
            matches!(
                e[..],
                [AnnotationError::TestOutsideFunction { line: 3, .. }]
            ),
            "{e:?}"
        );
        let e = errors("fn t() {}\n// spec: bao 1.1\nstruct S;\nfn u() {}\n", true);
        assert!(
            matches!(
                e[..],
                [AnnotationError::TestOutsideFunction { line: 2, .. }]
            ),
            "{e:?}"
        );
        // A file that is not Rust cannot place its annotations.
        let e = errors("fn t( {\n// spec: bao 1.1\n", true);
        assert!(matches!(e[..], [AnnotationError::NotRust { .. }]), "{e:?}");
    }

    #[test]
    fn well_formed_annotations_are_taken() {
        // Above a test with attributes and comments between, inside a nested test module, and
        // an exception with its reason.
        let text =
            "mod tests {\n    // spec: bao 1.1\n    #[test]\n    // why\n    fn above() {}\n\n    \
            #[test]\n    fn inside() {\n        let x = 1;\n        // spec: bao 1.10\n    }\n}\n\
            // spec: bao 1.2 type=exception the players decide\n";
        let scan = scan_annotations("bao", "tests/t.rs", text, AnnotationType::Test);
        assert_eq!(scan.errors, []);
        let got: Vec<(&str, Option<&str>)> = scan
            .annotations
            .iter()
            .map(|a| (a.id.as_str(), a.test()))
            .collect();
        assert_eq!(
            got,
            [
                ("1.1", Some("above")),
                ("1.10", Some("inside")),
                ("1.2", None)
            ]
        );
        assert_eq!(scan.annotations[2].note, "the players decide");
        // Implementation annotations name their function, in a method too.
        let text = "impl S {\n    fn run(&self) {\n        // spec: bao 1.1\n    }\n}\n";
        let scan = scan_annotations("bao", "src/x.rs", text, AnnotationType::Implementation);
        let run = scan.annotations[0].function.as_ref().unwrap();
        assert_eq!((run.name.as_str(), run.start, run.end), ("run", 2, 4));
        // A word that only starts with the game's name is no annotation.
        assert_eq!(
            scan_annotations(
                "bao",
                "src/x.rs",
                "// spec: baobab 1\n",
                AnnotationType::Test
            ),
            Scan::default()
        );
    }

    #[test]
    fn annotations_inside_string_literals_are_text() {
        // A test's sample source in a string or a macro argument cites nothing.
        let text = "const SRC: &str = \"\n// spec: bao 1.1\n\";\nfn f() {\n    assert!(g(\"\n    \
            // spec: bao 1.2\n\"));\n    // spec: bao 1.10\n}\n";
        let scan = scan_annotations("bao", "src/x.rs", text, AnnotationType::Implementation);
        let ids: Vec<&str> = scan.annotations.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["1.10"]);
    }

    #[test]
    fn statuses_are_types() {
        let r = report(IMPL, TESTS);
        let statuses: Vec<Status> = r.clauses.iter().map(ClauseCoverage::status).collect();
        assert_eq!(
            statuses,
            [
                Status::NotNormative,
                Status::Covered,
                Status::NotNormative,
                Status::Covered
            ]
        );
        assert!(Status::Excepted.ok() && !Status::MissingTest.ok());
        assert_eq!(
            Status::MissingBoth.to_string(),
            "MISSING implementation and test"
        );
    }

    #[test]
    fn a_spec_without_a_normative_clause_fails() {
        for spec in ["", "# Spec\n## bao 1 — General\n- kind: heading\n"] {
            let clauses = parse_spec("bao", spec).unwrap();
            let r = Report::build("bao", &clauses, &Scan::default(), None);
            assert!(!r.passed(), "{spec:?}");
            assert!(
                r.summary_line()
                    .contains("FAIL: the spec has no normative clause"),
                "{}",
                r.summary_line()
            );
        }
    }

    /// The duplicate check over many headings (its time is measured by `bench --parsers`).
    #[test]
    fn a_duplicate_after_many_headings_names_its_line() {
        let n = 5_000;
        let mut spec: String = (0..n)
            .map(|i| format!("## bao 1.{i} — x\n- kind: normative\n"))
            .collect();
        assert_eq!(parse_spec("bao", &spec).unwrap().len(), n);
        spec.push_str("## bao 1.7 — again\n- kind: normative\n");
        assert_eq!(
            parse_spec("bao", &spec),
            Err(SpecError::Duplicate {
                id: "1.7".into(),
                line: 2 * n + 1
            })
        );
    }

    /// A fresh folder `root` with `src/` in it.
    fn tree(name: &str) -> PathBuf {
        let root =
            std::env::temp_dir().join(format!("mancala-coverage-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("src")).unwrap();
        root
    }

    #[test]
    fn linked_folders_are_not_followed() {
        let root = tree("links");
        std::fs::write(root.join("src/x.rs"), "// spec: bao 1.1\n").unwrap();
        // Two links back to src/: following them loops (2^40 paths before the system says so).
        std::os::unix::fs::symlink(".", root.join("src/a")).unwrap();
        std::os::unix::fs::symlink(".", root.join("src/b")).unwrap();
        std::os::unix::fs::symlink("x.rs", root.join("src/y.rs")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join("src/zero.rs")).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let at = root.clone();
        std::thread::spawn(move || tx.send(scan_tree("bao", &at).map_err(|e| e.to_string())));
        let found = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("scan_tree ends")
            .unwrap();
        let files: Vec<&str> = found.annotations.iter().map(|a| a.file.as_str()).collect();
        // The file and the link to a file, once each.
        assert_eq!(files, ["src/x.rs", "src/y.rs"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_file_that_is_not_utf8_is_named() {
        let root = tree("utf8");
        std::fs::write(root.join("src/bad.rs"), b"fn f() {}\n\xff\xfe\n").unwrap();
        let e = scan_tree("bao", &root).unwrap_err().to_string();
        assert!(e.contains("src/bad.rs: not UTF-8 text"), "{e}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
