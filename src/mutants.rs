//! Mutation-checked coverage: reads what cargo-mutants found (`outcomes.json`) and maps each
//! mutant to the clause whose annotation governs its line, with the excuses written in the code.
//!
//! An excuse is a line `// mutant: excused REASON` directly above the code it excuses: a line of
//! code, or a whole function when the code below it is a function.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::scan::{outline, Annotation, AnnotationType, Outline, SourceFile};

/// What the tests did to a mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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

/// Which stage of experiments/mutants/run.sh decided a mutant's outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Not recorded (results recorded before stages were).
    #[default]
    #[serde(rename = "")]
    Unrecorded,
    /// The quick tests (the engines' rule, property, regression and differential tests).
    Quick,
    /// The whole suite, for the mutants the quick tests missed or timed out on (the tests that
    /// fail on any change to the code standing aside).
    Suite,
}

/// The tests that fail on a change of no behaviour to a file with recorded mutants: on any change
/// at all (the snapshot: the file's checksum goes stale), or when the file's `// spec:`
/// annotations are deleted, as a mutant that replaces a function's body deletes those inside it
/// (the tests that read the annotations; they run no engine code). A mutant they alone catch is
/// missed. experiments/mutants/run.sh makes them stand aside (`MANCALA_LAB_MUTATION_RUN`), and its
/// canary proves that no other test fails on such changes; a result that names one anyway was
/// recorded without that.
pub const ANY_CHANGE_TESTS: &[&str] = &[
    "tests/coverage.rs::the_committed_snapshots_are_current",
    "tests/coverage.rs::the_html_report_links_to_the_annotations",
    "tests/coverage.rs::coverage_reads_the_project_it_is_run_in",
    "tests/coverage.rs::the_html_report_replaces_only_an_earlier_report",
];

/// The test that caught a mutant, by its cargo test log, as `TARGET::NAME` (`tests/cli.rs::name`,
/// `src/lib.rs::module::name`), with the test target named by the `Running` line above it: the
/// first test reported failed that is not one of the [`ANY_CHANGE_TESTS`]; else, where a test
/// binary was ended by a signal (e.g. killed when a mutant ran out of memory), that binary's target
/// and the signal (`src/lib.rs (signal: 9, SIGKILL)`); else the first of the [`ANY_CHANGE_TESTS`]
/// that failed, which catches nothing ([`Mutant::decided`]).
pub fn catching_test(log: &str) -> Option<String> {
    let failed = failing_tests(log);
    failed
        .iter()
        .find(|t| !ANY_CHANGE_TESTS.contains(&t.as_str()))
        .cloned()
        .or_else(|| ended_by_signal(log))
        .or_else(|| failed.into_iter().next())
}

/// The target of the first test binary cargo reports ended by a signal, with the signal.
fn ended_by_signal(log: &str) -> Option<String> {
    log.lines().find_map(|line| {
        let rest = line.split("process didn't exit successfully: `").nth(1)?;
        let (program, tail) = rest.split_once('`')?;
        let signal = tail.split_once("(signal: ")?.1.split_once(')')?.0;
        let signal = signal.split(':').next().unwrap_or(signal);
        let file = program.rsplit('/').next().unwrap_or(program);
        let name = file.rsplit_once('-').map_or(file, |(name, _)| name);
        let target = if name == env!("CARGO_CRATE_NAME") {
            "src/lib.rs".to_string()
        } else {
            format!("tests/{name}.rs")
        };
        Some(format!("{target} (signal: {signal})"))
    })
}

/// The tests a cargo test log reports failed, in its order, as `TARGET::NAME`.
fn failing_tests(log: &str) -> Vec<String> {
    let mut failed = Vec::new();
    let mut target = String::new();
    for line in log.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("Running ") {
            if let Some(command) = rest.strip_prefix('`') {
                // cargo -v (as cargo-mutants runs it): `Running `.../deps/cli-HASH``; the
                // compiler's own `Running `rustc ...`` lines name no test binary.
                let program = command.split([' ', '`']).next().unwrap_or("");
                let file = program.rsplit('/').next().unwrap_or(program);
                if file == "rustc" || !program.contains("/deps/") {
                    continue;
                }
                let name = file.rsplit_once('-').map_or(file, |(name, _)| name);
                target = if name == env!("CARGO_CRATE_NAME") {
                    "src/lib.rs".to_string()
                } else {
                    format!("tests/{name}.rs")
                };
            } else {
                // `Running tests/cli.rs (target/...)`, `Running unittests src/lib.rs (...)`.
                let rest = rest.strip_prefix("unittests ").unwrap_or(rest);
                target = rest.split(" (").next().unwrap_or(rest).to_string();
            }
        } else if let Some(name) = line
            .strip_prefix("test ")
            .and_then(|l| l.strip_suffix(" ... FAILED"))
        {
            failed.push(format!("{target}::{name}"));
        }
    }
    failed
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
    /// The column where the change starts.
    pub column: usize,
    /// What was replaced, and by what (the name without its place).
    pub mutation: String,
    /// What the tests did.
    pub outcome: Outcome,
    /// The stage that decided the outcome.
    pub stage: Stage,
    /// The test that failed on the mutant (`TARGET::NAME`, [`catching_test`]), if one did.
    pub caught_by: String,
}

impl Mutant {
    /// A mutant at `file:line:column`, named as cargo-mutants names it.
    pub fn new(file: &str, line: usize, column: usize, mutation: &str, outcome: Outcome) -> Mutant {
        Mutant {
            name: format!("{file}:{line}:{column}: {mutation}"),
            file: file.to_string(),
            line,
            column,
            mutation: mutation.to_string(),
            outcome,
            stage: Stage::Unrecorded,
            caught_by: String::new(),
        }
    }

    /// The mutant as decided by `stage`, caught by `test` (empty: no test failed). A catch by
    /// one of the [`ANY_CHANGE_TESTS`] alone is a miss.
    pub fn decided(mut self, stage: Stage, test: &str) -> Mutant {
        self.stage = stage;
        self.caught_by = test.to_string();
        if self.outcome == Outcome::Caught && ANY_CHANGE_TESTS.contains(&test) {
            self.outcome = Outcome::Missed;
        }
        self
    }
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
    #[error("{path}: mutant {name}: unknown outcome {}", crate::text::quoted(.summary))]
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
    /// The mutant's log, relative to `mutants.out`.
    #[serde(default)]
    log_path: Option<String>,
    /// What experiments/mutants/run.sh adds: the stage whose outcome this is.
    #[serde(default)]
    stage: Stage,
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
    column: usize,
}

/// The mutants of cargo-mutants' `outcomes.json` (its text; `path` names it in errors), the
/// unmutated baseline left out.
pub fn read_outcomes(path: &str, text: &str) -> Result<Vec<Mutant>, MutantsError> {
    read_outcomes_with_logs(path, text, |_| None)
}

/// [`read_outcomes`], each mutant with its stage (as run.sh marked it) and the test that caught
/// it ([`catching_test`]), read from its log (`log` gives a log's text by its `log_path`).
pub fn read_outcomes_with_logs(
    path: &str,
    text: &str,
    log: impl Fn(&str) -> Option<String>,
) -> Result<Vec<Mutant>, MutantsError> {
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
        let (line, column) = (m.span.start.line, m.span.start.column);
        let place = format!("{}:{line}:{column}: ", m.file);
        let mutation = m.name.strip_prefix(&place).unwrap_or(&m.name);
        let test = match outcome {
            Outcome::Caught => o
                .log_path
                .as_deref()
                .and_then(&log)
                .and_then(|l| catching_test(&l)),
            _ => None,
        };
        out.push(
            Mutant::new(&m.file, line, column, mutation, outcome)
                .decided(o.stage, test.as_deref().unwrap_or("")),
        );
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
    /// Of those, caught by the quick tests.
    pub caught_quick: usize,
    /// Of those, caught by the rest of the suite.
    pub caught_suite: usize,
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
        self.caught_quick += other.caught_quick;
        self.caught_suite += other.caught_suite;
        self.timeout += other.timeout;
        self.unviable += other.unviable;
        self.excused.extend(other.excused.iter().cloned());
        self.missed.extend(other.missed.iter().cloned());
    }

    fn add(&mut self, m: &Mutant, excuse: Option<&Excuse>) {
        match (m.outcome, excuse) {
            (Outcome::Caught, _) => {
                self.caught += 1;
                match m.stage {
                    Stage::Quick => self.caught_quick += 1,
                    Stage::Suite => self.caught_suite += 1,
                    Stage::Unrecorded => {}
                }
            }
            (Outcome::Timeout, _) => self.timeout += 1,
            (Outcome::Unviable, _) => self.unviable += 1,
            (Outcome::Missed, Some(e)) => self.excused.push((m.name.clone(), e.reason.clone())),
            (Outcome::Missed, None) => self.missed.push(m.name.clone()),
        }
    }

    /// `12 mutants: 10 caught (9 by the quick tests, 1 by the rest of the suite), 1 by timeout,
    /// 1 unviable, 0 excused, 0 missed` (without the parenthesis where no stage was recorded).
    pub fn line(&self) -> String {
        let mut s = format!("{} mutants: {} caught", self.total(), self.caught);
        if self.caught_quick + self.caught_suite > 0 {
            let unrecorded = self.caught - self.caught_quick - self.caught_suite;
            let _ = write!(
                s,
                " ({} by the quick tests, {} by the rest of the suite",
                self.caught_quick, self.caught_suite
            );
            if unrecorded > 0 {
                let _ = write!(s, ", {unrecorded} by a stage not recorded");
            }
            s.push(')');
        }
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

/// True when `file` is `game`'s code: it lies under `src/GAME/` or holds one of the game's
/// implementation annotations (`annotations`, the game's).
pub fn in_game(game: &str, file: &str, annotations: &[Annotation]) -> bool {
    file.starts_with(&format!("src/{game}/"))
        || annotations
            .iter()
            .any(|a| a.kind == AnnotationType::Implementation && a.file == file)
}

/// Maps `mutants` to the clauses of `annotations` (`game`'s), with `excuses`. Mutants in files
/// that are not the game's code ([`in_game`]) are left out.
pub fn by_clause(
    game: &str,
    mutants: &[Mutant],
    annotations: &[Annotation],
    excuses: &[Excuse],
) -> ByClause {
    let mut out = ByClause::default();
    for m in mutants {
        if !in_game(game, &m.file, annotations) {
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

/// Where recorded mutation results are kept, relative to the project root.
pub const RECORDED_PATH: &str = "spec/coverage/mutants.csv";

/// True for a `// mutant: ...` line: recorded results count lines without them, so that adding
/// or removing an excuse keeps the results of the code around it.
fn is_note(line: &str) -> bool {
    line.trim_start().starts_with("// mutant:")
}

/// A source file as recorded results see it: its lines that are not `// mutant:` notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeLines {
    /// The line in the file (from 1) of each code line, in order.
    lines: Vec<usize>,
    /// CRC-32 of the code lines, each followed by a newline.
    pub crc32: u32,
}

impl CodeLines {
    /// The code lines of `text`.
    pub fn of(text: &str) -> CodeLines {
        let mut lines = Vec::new();
        let mut crc = crc32fast::Hasher::new();
        for (i, line) in text.lines().enumerate() {
            if !is_note(line) {
                lines.push(i + 1);
                crc.update(line.as_bytes());
                crc.update(b"\n");
            }
        }
        CodeLines {
            lines,
            crc32: crc.finalize(),
        }
    }

    /// The code line (from 1) of file line `line`; `None` on a note or past the end.
    pub fn code_line(&self, line: usize) -> Option<usize> {
        self.lines.binary_search(&line).ok().map(|i| i + 1)
    }

    /// The file line of code line `code_line` (from 1).
    pub fn line(&self, code_line: usize) -> Option<usize> {
        self.lines.get(code_line.checked_sub(1)?).copied()
    }
}

/// One row of the recorded results: a mutant, placed by its code line, and its outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedMutant {
    /// The file, relative to the project root.
    pub file: String,
    /// The line, counted without `// mutant:` lines.
    pub code_line: usize,
    /// The column where the change starts.
    pub column: usize,
    /// What was replaced, and by what.
    pub mutation: String,
    /// What the tests did.
    pub outcome: Outcome,
    /// CRC-32 of the file's code lines when the mutant was run (8 hex digits).
    pub source_crc32: String,
    /// The stage that decided the outcome (empty where it was not recorded).
    #[serde(default)]
    pub stage: Stage,
    /// The test that failed on the mutant (`TARGET::NAME`, [`catching_test`]; empty if none did).
    #[serde(default)]
    pub caught_by: String,
}

impl RecordedMutant {
    fn key(&self) -> (&str, usize, usize, &str) {
        (&self.file, self.code_line, self.column, &self.mutation)
    }
}

/// Why a run's results cannot be recorded, or the recorded ones read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The run kept no copy of a file it mutated.
    #[error(
        "{run}: no copy of {file} as the run saw it (sources/{file}): record only runs of \
         experiments/mutants/run.sh, which keeps one"
    )]
    NoCopy {
        /// The run's folder.
        run: String,
        /// The file.
        file: String,
    },
    /// A file's code differs from what the run mutated.
    #[error(
        "{run}: {file} changed since the run (beyond `// mutant:` lines); its mutants must run \
         again (experiments/mutants/run.sh --file {file})"
    )]
    Changed {
        /// The run's folder.
        run: String,
        /// The file.
        file: String,
    },
    /// A mutant on a line the run's copy does not have as code.
    #[error("{run}: mutant {name} is not on a line of code of its file")]
    NotCode {
        /// The run's folder.
        run: String,
        /// The mutant.
        name: String,
    },
    /// The recorded file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The recorded file does not read as recorded results.
    #[error("{path}: {message}")]
    Csv {
        /// The file.
        path: String,
        /// What is wrong, and where.
        message: String,
    },
}

/// The rows of a run's `mutants`: `ran_on` holds the text of each file the run mutated, as it
/// saw it, `current` the files as they are now; every file's code must be the same in both.
pub fn record(
    run: &str,
    mutants: &[Mutant],
    ran_on: &BTreeMap<String, String>,
    current: &BTreeMap<String, String>,
) -> Result<Vec<RecordedMutant>, RecordError> {
    let mut code = BTreeMap::new();
    let mut rows = Vec::new();
    for m in mutants {
        if !code.contains_key(&m.file) {
            let Some(then) = ran_on.get(&m.file) else {
                return Err(RecordError::NoCopy {
                    run: run.to_string(),
                    file: m.file.clone(),
                });
            };
            let then = CodeLines::of(then);
            if current.get(&m.file).map(|now| CodeLines::of(now).crc32) != Some(then.crc32) {
                return Err(RecordError::Changed {
                    run: run.to_string(),
                    file: m.file.clone(),
                });
            }
            code.insert(m.file.clone(), then);
        }
        let lines = &code[&m.file];
        let code_line = lines
            .code_line(m.line)
            .ok_or_else(|| RecordError::NotCode {
                run: run.to_string(),
                name: m.name.clone(),
            })?;
        rows.push(RecordedMutant {
            file: m.file.clone(),
            code_line,
            column: m.column,
            mutation: m.mutation.clone(),
            outcome: m.outcome,
            source_crc32: format!("{:08x}", lines.crc32),
            stage: m.stage,
            caught_by: m.caught_by.clone(),
        });
    }
    Ok(rows)
}

/// What a merge of new rows into the recorded ones did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Mutants not recorded before.
    pub added: usize,
    /// Mutants recorded before, now with another outcome.
    pub changed: usize,
    /// Mutants recorded before, run again with the same outcome.
    pub same: usize,
    /// Rows dropped because their file changed since they were run.
    pub stale: usize,
}

/// `old` with `new` merged in (a new row replaces an old one of the same mutant), rows of files
/// whose code changed since their run dropped (`current`: the files now), sorted by place.
pub fn merge_recorded(
    old: Vec<RecordedMutant>,
    new: Vec<RecordedMutant>,
    current: &BTreeMap<String, String>,
) -> (Vec<RecordedMutant>, Merged) {
    let crcs: BTreeMap<&str, String> = current
        .iter()
        .map(|(f, t)| (f.as_str(), format!("{:08x}", CodeLines::of(t).crc32)))
        .collect();
    let mut counts = Merged::default();
    let mut rows: BTreeMap<(String, usize, usize, String), RecordedMutant> = BTreeMap::new();
    let owned = |r: &RecordedMutant| {
        let (f, l, c, m) = r.key();
        (f.to_string(), l, c, m.to_string())
    };
    for r in old {
        if crcs.get(r.file.as_str()) == Some(&r.source_crc32) {
            rows.insert(owned(&r), r);
        } else {
            counts.stale += 1;
        }
    }
    for r in new {
        let outcome = r.outcome;
        match rows.insert(owned(&r), r) {
            Some(old) if old.outcome == outcome => counts.same += 1,
            Some(_) => counts.changed += 1,
            None => counts.added += 1,
        }
    }
    (rows.into_values().collect(), counts)
}

/// The recorded results as CSV text, one row per mutant.
pub fn write_recorded(rows: &[RecordedMutant]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 text")
}

/// Reads recorded results (`path` names the file in errors).
pub fn read_recorded(path: &str, text: &str) -> Result<Vec<RecordedMutant>, RecordError> {
    let mut rows = Vec::new();
    for row in csv::Reader::from_reader(text.as_bytes()).deserialize() {
        rows.push(row.map_err(|e: csv::Error| RecordError::Csv {
            path: path.to_string(),
            message: e.to_string(),
        })?);
    }
    Ok(rows)
}

/// The recorded mutants whose file's code is unchanged, placed on the lines they have now, and
/// the file of each row left out because its file changed (or is gone).
pub fn fresh(
    rows: &[RecordedMutant],
    current: &BTreeMap<String, String>,
) -> (Vec<Mutant>, Vec<String>) {
    let code: BTreeMap<&str, CodeLines> = current
        .iter()
        .map(|(f, t)| (f.as_str(), CodeLines::of(t)))
        .collect();
    let mut out = Vec::new();
    let mut stale = Vec::new();
    for r in rows {
        let line = code
            .get(r.file.as_str())
            .filter(|c| format!("{:08x}", c.crc32) == r.source_crc32)
            .and_then(|c| c.line(r.code_line));
        match line {
            Some(line) => out.push(
                Mutant::new(&r.file, line, r.column, &r.mutation, r.outcome)
                    .decided(r.stage, &r.caught_by),
            ),
            None => stale.push(r.file.clone()),
        }
    }
    (out, stale)
}

/// Each source file's text by its path.
pub fn sources(files: &[SourceFile]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect()
}

/// The recorded results under `root` ([`RECORDED_PATH`]), if there are any.
pub fn read_recorded_under(
    root: &std::path::Path,
) -> Result<Option<Vec<RecordedMutant>>, RecordError> {
    use std::io::Read as _;
    let path = root.join(RECORDED_PATH);
    let name = crate::text::shown_path(&path);
    let fail = |source| RecordError::Io {
        path: name.clone(),
        source,
    };
    // A regular file (a pipe would block the open) of at most 64 MiB (a full run records under
    // 200 KiB).
    match std::fs::metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(fail(e)),
        Ok(m) if !m.is_file() => return Err(fail(std::io::Error::other("not a regular file"))),
        Ok(_) => {}
    }
    let limit = 64 << 20;
    let file = std::fs::File::open(&path).map_err(fail)?;
    let mut text = String::new();
    file.take(limit + 1)
        .read_to_string(&mut text)
        .map_err(fail)?;
    if text.len() as u64 > limit {
        return Err(fail(std::io::Error::other("more than 64 MiB")));
    }
    read_recorded(&name, &text).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::scan_annotations;

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
        Mutant::new("src/x.rs", line, 5, "replace", outcome)
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
            Mutant::new("src/other.rs", 1, 5, "replace", Outcome::Missed),
        ];
        let t = by_clause("bao", &mutants, &scan.annotations, &excuses);
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
            [Mutant::new("src/x.rs", 3, 5, "replace f", Outcome::Missed)]
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

    fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(f, t)| (f.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn recorded_results_survive_excuses_added_and_go_stale_when_code_changes() {
        let then = "fn f() {\n    a();\n    b();\n}\n";
        // An excuse added above line 3 moves it to line 4; the code is the same.
        let now = "fn f() {\n    a();\n    // mutant: excused b is slow\n    b();\n}\n";
        assert_eq!(CodeLines::of(then).crc32, CodeLines::of(now).crc32);
        assert_eq!(CodeLines::of(now).code_line(3), None);
        assert_eq!(CodeLines::of(now).code_line(4), Some(3));
        assert_eq!(CodeLines::of(now).line(3), Some(4));
        assert_eq!(CodeLines::of(now).line(0), None);

        let run = [
            Mutant::new("src/x.rs", 3, 5, "delete b()", Outcome::Missed),
            Mutant::new("src/x.rs", 2, 5, "delete a()", Outcome::Caught),
        ];
        let ran_on = files(&[("src/x.rs", then)]);
        let rows = record("run1", &run, &ran_on, &files(&[("src/x.rs", now)])).unwrap();
        assert_eq!(rows[0].code_line, 3);
        // Back on the line it has now, under the excuse.
        let (mutants, stale) = fresh(&rows, &files(&[("src/x.rs", now)]));
        assert!(stale.is_empty());
        assert_eq!(mutants[0].name, "src/x.rs:4:5: delete b()");

        // Written and read back as they were.
        let text = write_recorded(&rows);
        assert!(text
            .starts_with("file,code_line,column,mutation,outcome,source_crc32,stage,caught_by\n"));
        assert_eq!(read_recorded("m.csv", &text).unwrap(), rows);

        // A change of code: recording refused, recorded rows stale.
        let changed = files(&[("src/x.rs", "fn f() {\n    a();\n    c();\n}\n")]);
        let e = record("run1", &run, &ran_on, &changed).unwrap_err();
        assert!(matches!(e, RecordError::Changed { .. }), "{e}");
        assert!(e
            .to_string()
            .starts_with("run1: src/x.rs changed since the run"));
        let stale = vec!["src/x.rs".to_string(); 2];
        assert_eq!(fresh(&rows, &changed), (vec![], stale.clone()));
        assert_eq!(fresh(&rows, &files(&[])), (vec![], stale));
        let e = record("run1", &run, &files(&[]), &changed).unwrap_err();
        assert!(matches!(e, RecordError::NoCopy { .. }), "{e}");
        let on_note = [Mutant::new("src/x.rs", 3, 1, "x", Outcome::Caught)];
        let e = record(
            "run1",
            &on_note,
            &files(&[("src/x.rs", now)]),
            &files(&[("src/x.rs", now)]),
        );
        assert!(matches!(e, Err(RecordError::NotCode { .. })));
    }

    #[test]
    fn a_merge_replaces_the_same_mutant_adds_others_and_drops_stale_rows() {
        let a = "fn a() {}\n";
        let b = "fn b() {}\n";
        let current = files(&[("src/a.rs", a), ("src/b.rs", b)]);
        let row = |file: &str, text: &str, mutation: &str, outcome| RecordedMutant {
            file: file.into(),
            code_line: 1,
            column: 1,
            mutation: mutation.into(),
            outcome,
            source_crc32: format!("{:08x}", CodeLines::of(text).crc32),
            stage: Stage::Unrecorded,
            caught_by: String::new(),
        };
        let old = vec![
            row("src/a.rs", a, "m1", Outcome::Missed),
            row("src/b.rs", "fn b() { 1 }\n", "m1", Outcome::Caught),
        ];
        let new = vec![
            row("src/a.rs", a, "m1", Outcome::Caught),
            row("src/a.rs", a, "m2", Outcome::Unviable),
        ];
        let (rows, merged) = merge_recorded(old, new, &current);
        assert_eq!(
            merged,
            Merged {
                added: 1,
                changed: 1,
                same: 0,
                stale: 1
            }
        );
        let outcomes: Vec<_> = rows
            .iter()
            .map(|r| (r.mutation.as_str(), r.outcome))
            .collect();
        assert_eq!(
            outcomes,
            [("m1", Outcome::Caught), ("m2", Outcome::Unviable)]
        );
    }

    #[test]
    fn a_bad_recorded_file_is_named_with_its_row() {
        let text = "file,code_line,column,mutation,outcome,source_crc32\nsrc/x.rs,1,1,m,exploded,00000000\n";
        let e = read_recorded("spec/coverage/mutants.csv", text)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("spec/coverage/mutants.csv: "), "{e}");
        assert!(e.contains("line: 2"), "{e}");
    }

    /// A cargo test log in which `failed` are the failing tests of `tests/coverage.rs`.
    fn log(failed: &[&str]) -> String {
        let mut log = String::from(
            "     Running unittests src/lib.rs (target/debug/deps/mancala_lab-1)\n\
             test mutants::tests::x ... ok\n\
             \x20    Running tests/coverage.rs (target/debug/deps/coverage-2)\n",
        );
        for t in failed {
            log += &format!("test {t} ... FAILED\n");
        }
        log
    }

    #[test]
    fn the_first_failing_test_is_named_with_its_target() {
        assert_eq!(
            catching_test(&log(&["a_changed_snapshot_is_found", "b"])).as_deref(),
            Some("tests/coverage.rs::a_changed_snapshot_is_found")
        );
        let unit = "     Running unittests src/lib.rs (x)\ntest oware::rules::t ... FAILED\n";
        assert_eq!(
            catching_test(unit).as_deref(),
            Some("src/lib.rs::oware::rules::t")
        );
        assert_eq!(catching_test(&log(&[])), None);
        // As cargo-mutants logs it (cargo -v): compiler lines, then each test binary.
        let verbose = "     Running `/root/bin/rustc --crate-name cli tests/cli.rs`\n\
             \x20    Running `/tmp/m/target/debug/deps/mancala_lab-ce28`\n\
             test a ... ok\n\
             \x20    Running `/tmp/m/target/debug/deps/oware_batch-f633`\n\
             test scalar_draws ... FAILED\n";
        assert_eq!(
            catching_test(verbose).as_deref(),
            Some("tests/oware_batch.rs::scalar_draws")
        );
        let unit = verbose.replace("test a ... ok", "test oware::t ... FAILED");
        assert_eq!(
            catching_test(&unit).as_deref(),
            Some("src/lib.rs::oware::t")
        );
        // A test binary killed (out of memory) before any test failed: its target, the signal.
        let killed = "     Running `/tmp/m/target/debug/deps/mancala_lab-c61c`\n\
             test a ... ok\n\
             error: test failed, to rerun pass `-p mancala-lab --lib`\n\n\
             Caused by:\n\
             \x20 process didn't exit successfully: `/tmp/m/target/debug/deps/mancala_lab-c61c` \
             (signal: 9, SIGKILL: kill)\n";
        assert_eq!(
            catching_test(killed).as_deref(),
            Some("src/lib.rs (signal: 9, SIGKILL)")
        );
        let tests = killed.replace("mancala_lab-c61c", "oware_batch-f633");
        assert_eq!(
            catching_test(&tests).as_deref(),
            Some("tests/oware_batch.rs (signal: 9, SIGKILL)")
        );
    }

    /// The tooling's own check: a mutant that only a test failing on any change catches is
    /// reported missed, whichever stage ran it; one a behavioural test catches stays caught, with
    /// its stage and test recorded.
    #[test]
    fn a_mutant_only_the_snapshot_test_catches_is_missed() {
        let json = r#"{"outcomes": [
            {"scenario": "Baseline", "summary": "Success"},
            {"scenario": {"Mutant": {"name": "src/x.rs:3:5: replace f", "file": "src/x.rs",
              "span": {"start": {"line": 3, "column": 5}}}},
             "summary": "CaughtMutant", "log_path": "log/a.log", "stage": "suite"},
            {"scenario": {"Mutant": {"name": "src/x.rs:4:5: replace g", "file": "src/x.rs",
              "span": {"start": {"line": 4, "column": 5}}}},
             "summary": "CaughtMutant", "log_path": "log/b.log", "stage": "quick"}
        ]}"#;
        let logs = |p: &str| match p {
            "log/a.log" => Some(log(&["the_committed_snapshots_are_current"])),
            "log/b.log" => Some(log(&["a_changed_snapshot_is_found"])),
            _ => None,
        };
        let found = read_outcomes_with_logs("o.json", json, logs).unwrap();
        assert_eq!(found[0].outcome, Outcome::Missed, "{:?}", found[0]);
        assert_eq!(found[0].stage, Stage::Suite);
        assert_eq!(
            (
                found[1].outcome,
                found[1].stage,
                found[1].caught_by.as_str()
            ),
            (
                Outcome::Caught,
                Stage::Quick,
                "tests/coverage.rs::a_changed_snapshot_is_found"
            )
        );
        let mut tally = Tally::default();
        for m in &found {
            tally.add(m, None);
        }
        assert_eq!(
            tally.line(),
            "2 mutants: 1 caught (1 by the quick tests, 0 by the rest of the suite), 0 unviable, \
             0 excused, 1 missed"
        );
    }

    /// A mutant that replaces a function's body deletes the `// spec:` annotations in it, which
    /// fails the tests that read them whatever the code then does: caught by those alone, it is
    /// missed; with another test failing too, it is caught by that one, whichever failed first.
    #[test]
    fn a_mutant_only_the_annotation_readers_catch_is_missed() {
        let mutant = |line: usize, log: &str| {
            format!(
                r#"{{"scenario": {{"Mutant": {{"name": "src/x.rs:{line}:5: replace f with ()",
                  "file": "src/x.rs", "span": {{"start": {{"line": {line}, "column": 5}}}}}}}},
                 "summary": "CaughtMutant", "log_path": "{log}", "stage": "suite"}}"#
            )
        };
        let json = format!(
            r#"{{"outcomes": [{}, {}, {}]}}"#,
            mutant(3, "a"),
            mutant(4, "b"),
            mutant(5, "c")
        );
        let readers = [
            "coverage_reads_the_project_it_is_run_in",
            "the_html_report_links_to_the_annotations",
        ];
        let logs = |p: &str| match p {
            "a" => Some(log(&readers)),
            "b" => Some(log(&[readers[1], "a_changed_snapshot_is_found"])),
            "c" => Some(
                "     Running tests/docs.rs (target/debug/deps/docs-3)\n\
                 test console_examples_run ... FAILED\n"
                    .to_string(),
            ),
            _ => None,
        };
        let found = read_outcomes_with_logs("o.json", &json, logs).unwrap();
        let decided: Vec<(Outcome, &str)> = found
            .iter()
            .map(|m| (m.outcome, m.caught_by.as_str()))
            .collect();
        assert_eq!(
            decided,
            [
                (
                    Outcome::Missed,
                    "tests/coverage.rs::coverage_reads_the_project_it_is_run_in"
                ),
                (
                    Outcome::Caught,
                    "tests/coverage.rs::a_changed_snapshot_is_found"
                ),
                // The docs' examples run the engines; only their `coverage` ones read the
                // annotations, and those are not run in a mutation run.
                (Outcome::Caught, "tests/docs.rs::console_examples_run"),
            ]
        );
    }

    /// Each test a catch by which is a miss exists, and stands aside in a mutation run.
    #[test]
    fn the_any_change_tests_exist_and_stand_aside_in_a_mutation_run() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for test in ANY_CHANGE_TESTS {
            let (file, name) = test.split_once("::").unwrap();
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            let body = text
                .split_once(&format!("\nfn {name}() {{\n"))
                .unwrap_or_else(|| panic!("{test}: no such test"))
                .1;
            let body = &body[..body.find("\n}\n").unwrap()];
            assert!(body.contains("mutation_run()"), "{test}: runs in full");
        }
    }

    #[test]
    fn recorded_rows_keep_stage_and_test_and_older_rows_read_without_them() {
        let text = "fn f() {}\n";
        let row = RecordedMutant {
            file: "src/x.rs".into(),
            code_line: 1,
            column: 1,
            mutation: "m".into(),
            outcome: Outcome::Caught,
            source_crc32: format!("{:08x}", CodeLines::of(text).crc32),
            stage: Stage::Suite,
            caught_by: "tests/cli.rs::t".into(),
        };
        let csv = write_recorded(std::slice::from_ref(&row));
        assert!(csv
            .starts_with("file,code_line,column,mutation,outcome,source_crc32,stage,caught_by\n"));
        assert!(csv.contains(",suite,tests/cli.rs::t\n"), "{csv}");
        assert_eq!(read_recorded("m.csv", &csv).unwrap(), vec![row.clone()]);
        let old =
            "file,code_line,column,mutation,outcome,source_crc32\nsrc/x.rs,1,1,m,caught,00000000\n";
        let read = read_recorded("m.csv", old).unwrap();
        assert_eq!(
            (read[0].stage, read[0].caught_by.as_str()),
            (Stage::Unrecorded, "")
        );
    }
}
