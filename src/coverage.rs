//! Clause coverage: reads a game's spec (`spec/<game>.md`) and the `// spec:` annotations in the code
//! and tests, and reports per clause where it is implemented and which tests check it.
//!
//! Annotation form, one per line, alone on its line: `// spec: GAME ID [type=TYPE] [text]`, where
//! TYPE is `implementation` (default in `src/`), `test` (default in `tests/`), `exception` (text is
//! the reason; counts as implemented and tested) or `todo` (recorded, covers nothing).

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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

    fn name(self) -> &'static str {
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
fn id_key(s: &str) -> Vec<(u8, u64, String)> {
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

/// The role of an annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnnotationType {
    /// Code that applies the clause.
    Implementation,
    /// A test that checks the clause.
    Test,
    /// The clause needs no code or test, for the reason given.
    Exception,
    /// Work still to do.
    Todo,
}

/// One `// spec:` annotation found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    /// The clause id cited.
    pub id: String,
    /// Its role.
    pub kind: AnnotationType,
    /// The file, relative to the scanned root.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// For tests: the test function's name.
    pub test: Option<String>,
    /// The text after the id (for exceptions, the reason).
    pub note: String,
}

fn fn_name(line: &str) -> Option<String> {
    let t = line.trim_start();
    let t = t.strip_prefix("pub ").unwrap_or(t);
    let t = t.strip_prefix("async ").unwrap_or(t);
    let rest = t.strip_prefix("fn ")?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Finds the annotations citing `game` in one file; `default_type` applies where no `type=` is given.
pub fn scan_annotations(
    game: &str,
    file: &str,
    text: &str,
    default_type: AnnotationType,
) -> Vec<Annotation> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let marker = format!("// spec: {game} ");
    for (index, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix(marker.as_str()) else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let id = words.next().unwrap_or("").to_string();
        let mut kind = default_type;
        let mut note_words: Vec<&str> = Vec::new();
        for w in words {
            match w {
                "type=test" => kind = AnnotationType::Test,
                "type=implementation" => kind = AnnotationType::Implementation,
                "type=exception" => kind = AnnotationType::Exception,
                "type=todo" => kind = AnnotationType::Todo,
                _ => note_words.push(w),
            }
        }
        let test = (kind == AnnotationType::Test).then(|| {
            // The test is the function that follows (annotation above it) or the one it sits in.
            let after = lines[index + 1..]
                .iter()
                .find(|l| {
                    let t = l.trim_start();
                    !(t.starts_with("//") || t.starts_with("#[") || t.is_empty())
                })
                .and_then(|l| fn_name(l));
            after
                .or_else(|| lines[..index].iter().rev().find_map(|l| fn_name(l)))
                .unwrap_or_else(|| "?".to_string())
        });
        out.push(Annotation {
            id,
            kind,
            file: file.to_string(),
            line: index + 1,
            test,
            note: note_words.join(" "),
        });
    }
    out
}

/// Largest source file read, in bytes: a bigger `.rs` file is refused rather than read into memory.
pub const MAX_SOURCE_BYTES: u64 = 64 << 20;

/// Reads every `.rs` file under `root/src` and `root/tests` and returns their annotations for
/// `game`. Symbolic links to folders are not followed (a link back up the tree would loop), and
/// only regular files are read; an error names the file or folder it concerns.
pub fn scan_tree(game: &str, root: &Path) -> std::io::Result<Vec<Annotation>> {
    let mut files = Vec::new();
    for (dir, default_type) in [
        ("src", AnnotationType::Implementation),
        ("tests", AnnotationType::Test),
    ] {
        collect_rs(&root.join(dir), default_type, &mut files)?;
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    for (path, default_type) in files {
        let text = read_source(&path)?;
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        out.extend(scan_annotations(game, &rel, &text, default_type));
    }
    Ok(out)
}

/// `e` with `path` in front of its message.
fn at_path(path: &Path, e: std::io::Error) -> std::io::Error {
    let message = match e.kind() {
        std::io::ErrorKind::InvalidData => "not UTF-8 text (source files are UTF-8)".to_string(),
        _ => e.to_string(),
    };
    std::io::Error::new(e.kind(), format!("{}: {message}", path.display()))
}

/// The text of one source file, refused if larger than [`MAX_SOURCE_BYTES`].
fn read_source(path: &Path) -> std::io::Result<String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| at_path(path, e))?;
    let mut text = String::new();
    file.take(MAX_SOURCE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| at_path(path, e))?;
    if text.len() as u64 > MAX_SOURCE_BYTES {
        return Err(std::io::Error::other(format!(
            "{}: larger than {} MiB, too large for a source file",
            path.display(),
            MAX_SOURCE_BYTES >> 20
        )));
    }
    Ok(text)
}

fn collect_rs(
    dir: &Path,
    default_type: AnnotationType,
    out: &mut Vec<(PathBuf, AnnotationType)>,
) -> std::io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir).map_err(|e| at_path(dir, e))? {
        let entry = entry.map_err(|e| at_path(dir, e))?;
        let path = entry.path();
        // The entry itself, not what a link points to: a linked folder is not entered.
        let kind = entry.file_type().map_err(|e| at_path(&path, e))?;
        if kind.is_dir() {
            collect_rs(&path, default_type, out)?;
        } else if path.extension().is_some_and(|e| e == "rs")
            // A file, or a link to one (not a device, pipe or folder).
            && (kind.is_file() || std::fs::metadata(&path).is_ok_and(|m| m.is_file()))
        {
            out.push((path, default_type));
        }
    }
    Ok(())
}

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
    /// Times the clause fired in the engine's traces, when measured.
    pub fired: Option<u64>,
}

impl ClauseCoverage {
    /// Covered: a normative clause with an implementation and a test, or an exception.
    pub fn status(&self) -> &'static str {
        if self.clause.kind != ClauseKind::Normative {
            return "n/a";
        }
        match (
            !self.exceptions.is_empty(),
            !self.implemented_at.is_empty(),
            !self.tested_by.is_empty(),
        ) {
            (true, _, _) => "excepted",
            (false, true, true) => "covered",
            (false, false, true) => "MISSING implementation",
            (false, true, false) => "MISSING test",
            (false, false, false) => "MISSING implementation and test",
        }
    }

    /// True when the clause does not hold the gate back.
    pub fn ok(&self) -> bool {
        matches!(self.status(), "n/a" | "excepted" | "covered")
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
}

impl Report {
    /// Matches annotations to clauses; `fired` gives trace counts per clause id where measured.
    pub fn build(
        game: &str,
        spec: &[Clause],
        annotations: &[Annotation],
        fired: Option<&dyn Fn(&str) -> u64>,
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
            })
            .collect();
        clauses.sort_by_cached_key(|c| id_key(&c.clause.id));
        let rows: HashMap<String, usize> = clauses
            .iter()
            .enumerate()
            .map(|(i, c)| (c.clause.id.clone(), i))
            .collect();
        let mut unknown = Vec::new();
        for a in annotations {
            let Some(&i) = rows.get(&a.id) else {
                unknown.push(a.clone());
                continue;
            };
            let row = &mut clauses[i];
            let at = format!("{}:{}", a.file, a.line);
            match a.kind {
                AnnotationType::Implementation => row.implemented_at.push(at),
                AnnotationType::Test => {
                    let name = a.test.clone().unwrap_or_default();
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
        }
    }

    /// True when the spec has at least one normative clause, every normative clause is covered or
    /// excepted and no annotation cites an unknown id. A spec without a normative clause checks
    /// nothing, so it fails.
    pub fn passed(&self) -> bool {
        self.normative_counts().0 > 0
            && self.unknown.is_empty()
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
        format!(
            "coverage {}: {ok}/{n} normative clauses implemented and tested, {} unknown ids cited: {}",
            self.game,
            self.unknown.len(),
            if self.passed() { "PASS" } else { "FAIL" }
        )
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
        }
        for a in &self.unknown {
            let _ = writeln!(
                out,
                "UNKNOWN clause {} {} cited at {}:{}",
                self.game, a.id, a.file, a.line
            );
        }
        let _ = writeln!(out, "{}", self.summary_line());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(r.clauses[3].status(), "MISSING test");
    }

    #[test]
    fn a_missing_implementation_fails() {
        let r = report("fn f() {\n    // spec: bao 1.1\n}\n", TESTS);
        assert!(!r.passed());
        assert_eq!(r.clauses[3].status(), "MISSING implementation");
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
        assert_eq!(r.clauses[3].status(), "excepted");
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
        assert!(a.is_empty());
    }

    #[test]
    fn a_spec_without_a_normative_clause_fails() {
        for spec in ["", "# Spec\n## bao 1 — General\n- kind: heading\n"] {
            let clauses = parse_spec("bao", spec).unwrap();
            let r = Report::build("bao", &clauses, &[], None);
            assert!(!r.passed(), "{spec:?}");
            assert!(
                r.summary_line()
                    .contains("FAIL: the spec has no normative clause"),
                "{}",
                r.summary_line()
            );
        }
    }

    #[test]
    fn many_headings_parse_in_linear_time() {
        let n = 200_000;
        let mut spec: String = (0..n)
            .map(|i| format!("## bao 1.{i} — x\n- kind: normative\n"))
            .collect();
        let start = std::time::Instant::now();
        assert_eq!(parse_spec("bao", &spec).unwrap().len(), n);
        spec.push_str("## bao 1.7 — again\n- kind: normative\n");
        assert_eq!(
            parse_spec("bao", &spec),
            Err(SpecError::Duplicate {
                id: "1.7".into(),
                line: 2 * n + 1
            })
        );
        // A quadratic check takes minutes here; a linear one well under a second.
        assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
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
        let files: Vec<&str> = found.iter().map(|a| a.file.as_str()).collect();
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
