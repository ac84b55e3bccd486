//! `mancala-lab coverage` and the main job: the clause-coverage report of a game's spec, and the
//! verdict of both games followed by the default study.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use mancala_lab::coverage::{self, Report};
use mancala_lab::registry::GameKind;

/// Options of `coverage`.
#[derive(Args)]
pub struct CoverageArgs {
    /// The game whose spec to check (spec/<game>.md).
    #[arg(long, value_enum, default_value_t)]
    game: GameKind,
    /// The project root holding spec/, src/ and tests/ (default: the current folder if it has
    /// spec/, else the nearest folder above it that has).
    #[arg(long)]
    root: Option<PathBuf>,
    /// Also play this many random games (reference engine, default reading) and count how often
    /// each clause fires.
    #[arg(long, default_value_t = 0)]
    playouts: u64,
    /// Print only the one-line verdict.
    #[arg(long)]
    quiet: bool,
    /// Mutation results: the output folder of cargo-mutants (its `mutants.out/outcomes.json`, as
    /// `experiments/mutants/run.sh` writes it) or that file, instead of the recorded ones
    /// (spec/coverage/mutants.csv). Each mutant counts for the clause whose annotation governs
    /// its line; a missed mutant in a normative clause's code without a
    /// `// mutant: excused REASON` fails the gate.
    #[arg(long)]
    mutants: Option<PathBuf>,
    /// Record the results of these runs of experiments/mutants/run.sh (their --out folders) in
    /// spec/coverage/mutants.csv, for both games: a mutant's new outcome replaces its old one,
    /// and rows whose file changed since their run are dropped. Refused when a file's code
    /// changed since the run.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["quiet", "mutants", "playouts", "snapshot", "html"])]
    record: Vec<PathBuf>,
    /// Print the snapshot instead: one line per clause with its status and counts, as committed
    /// in spec/coverage/GAME.txt (tests/coverage.rs checks that it is current).
    #[arg(long, conflicts_with_all = ["quiet", "mutants", "playouts"])]
    snapshot: bool,
    /// Also write the report as a page, DIR/GAME.html (the spec with each clause coloured by its
    /// status, linked to its code and tests, with its mutants and firing counts), and the source
    /// files it links to under DIR/source/.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
}

/// The folder `--root` names, else the current folder or the nearest above it that holds spec/;
/// `what_to_do` ends the message when there is none.
fn project_root(root: Option<PathBuf>, what_to_do: &str) -> Result<PathBuf, String> {
    if let Some(root) = root {
        return Ok(root);
    }
    if Path::new("spec").is_dir() {
        return Ok(PathBuf::from("."));
    }
    let here = std::env::current_dir()
        .map_err(|e| format!("the current folder, to look for spec/ in: {e}"))?;
    here.ancestors()
        .skip(1)
        .find(|dir| dir.join("spec").is_dir())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            format!(
                "no spec/ folder in {} or a folder above it: {what_to_do}",
                mancala_lab::text::shown_path(&here)
            )
        })
}

/// A game's report and what it was made from.
struct Checked {
    report: Report,
    scan: coverage::Scan,
    spec: String,
    files: Vec<coverage::SourceFile>,
}

/// Writes the report page of `c` and the source pages it links to under `dir`.
fn write_html(option: &str, dir: &Path, c: &Checked) -> Result<PathBuf, String> {
    use mancala_lab::report;
    let fail =
        |p: &Path, e: std::io::Error| format!("{option} {}: {e}", mancala_lab::text::shown_path(p));
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "{option} {}: not a folder; the report is a folder of pages, name one",
            mancala_lab::text::shown_path(dir)
        ));
    }
    if mancala_lab::study::under_system_folder(dir) {
        return Err(format!(
            "{option} {}: under /dev or /proc; the report is a folder of files, write it elsewhere",
            mancala_lab::text::shown_path(dir)
        ));
    }
    // Every page first, then each checked to replace only an earlier report's page, then
    // written: a file that is not a report stops the report before anything is written.
    let mut pages = Vec::new();
    for file in report::linked_files(&c.report, &c.scan) {
        if let Some(source) = c.files.iter().find(|f| f.path == file) {
            pages.push((
                dir.join(report::source_href(&file)),
                report::source_page(source),
            ));
        }
    }
    let page = dir.join(format!("{}.html", c.report.game));
    pages.push((page.clone(), report::game_page(&c.report, &c.scan, &c.spec)));
    for (path, _) in &pages {
        replaces_only_a_report(option, path)?;
    }
    for (path, text) in &pages {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(parent, e))?;
        }
        mancala_lab::study::write_atomic(path, text).map_err(|e| format!("{option} {e}"))?;
    }
    Ok(page)
}

/// Refuses to write the report page `path` over a file that is not a page of an earlier report
/// (a link is judged by the file it leads to).
fn replaces_only_a_report(option: &str, path: &Path) -> Result<(), String> {
    use std::io::Read;
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    let mut text = String::new();
    let page = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= 64 << 20)
        && std::fs::File::open(path)
            .and_then(|f| f.take(64 << 20).read_to_string(&mut text))
            .is_ok()
        && mancala_lab::report::is_report_page(&text);
    if page {
        return Ok(());
    }
    Err(format!(
        "{option} {}: the file there is not a page of a coverage report; a report replaces only \
         an earlier report, choose another folder",
        mancala_lab::text::shown_path(path)
    ))
}

fn checked_report(
    kind: GameKind,
    root: &Path,
    playouts: u64,
    mutants: Option<&Path>,
) -> Result<Checked, String> {
    let game = kind.name();
    let spec_path = root.join("spec").join(format!("{game}.md"));
    let shown = mancala_lab::text::shown_path(&spec_path);
    if !spec_path.is_file() {
        return Err(format!(
            "{shown}: not a regular file (the game's spec in the project root, the folder --root \
             names or the nearest one holding spec/)"
        ));
    }
    let text = super::read_input(&spec_path)?;
    let spec = coverage::parse_spec(game, &text).map_err(|e| format!("{shown}: {e}"))?;
    let files = coverage::read_tree(root)
        .map_err(|e| format!("scanning {}: {e}", mancala_lab::text::shown_path(root)))?;
    let scan = coverage::scan_files(game, &files);
    let report = if playouts > 0 {
        let (counts, counted, never) = clause_counts(kind, playouts)?;
        let f = move |id: &str| {
            if let Some((_, why)) = never.iter().find(|(c, _)| *c == id) {
                coverage::Fired::Never(why)
            } else if counted.contains(&id) {
                coverage::Fired::Count(counts.get(id).copied().unwrap_or(0))
            } else {
                coverage::Fired::NotCounted
            }
        };
        Report::build(game, &spec, &scan, Some(&f))
    } else {
        Report::build(game, &spec, &scan, None)
    };
    let report = match mutants {
        Some(path) => {
            let found = read_mutants("--mutants", path)?;
            mancala_lab::coverage::add_to_report(report, &found, &[], &files, &scan)
        }
        None => mancala_lab::coverage::add_recorded(report, root, &files, &scan)
            .map_err(|e| e.to_string())?,
    };
    Ok(Checked {
        report,
        scan,
        spec: text,
        files,
    })
}

/// Records the results of the mutation runs in `runs` under `root`.
fn record(root: &Path, runs: &[PathBuf]) -> Result<ExitCode, String> {
    use mancala_lab::mutants;
    let files = coverage::read_tree(root)
        .map_err(|e| format!("scanning {}: {e}", mancala_lab::text::shown_path(root)))?;
    let current = mutants::sources(&files);
    let mut new = Vec::new();
    for run in runs {
        let found = read_mutants("--record", run)?;
        let mut ran_on = BTreeMap::new();
        for m in &found {
            if ran_on.contains_key(&m.file) {
                continue;
            }
            let copy = run.join("sources").join(&m.file);
            if copy.is_file() {
                ran_on.insert(m.file.clone(), super::read_input(&copy)?);
            }
        }
        let shown = mancala_lab::text::shown_path(run);
        new.extend(mutants::record(&shown, &found, &ran_on, &current).map_err(|e| e.to_string())?);
    }
    let old = mutants::read_recorded_under(root)
        .map_err(|e| e.to_string())?
        .unwrap_or_default();
    let (rows, merged) = mutants::merge_recorded(old, new, &current);
    let path = root.join(mutants::RECORDED_PATH);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: {e}", mancala_lab::text::shown_path(dir)))?;
    }
    mancala_lab::study::write_atomic(&path, &mutants::write_recorded(&rows))
        .map_err(|e| e.to_string())?;
    println!(
        "{}: {} mutants ({} new, {} with another outcome, {} run again with the same); {} rows \
         dropped as stale",
        mancala_lab::text::shown_path(&path),
        rows.len(),
        merged.added,
        merged.changed,
        merged.same,
        merged.stale
    );
    Ok(ExitCode::SUCCESS)
}

/// The mutants of cargo-mutants' results at `path`: its output folder or `outcomes.json`.
fn read_mutants(option: &str, path: &Path) -> Result<Vec<mancala_lab::mutants::Mutant>, String> {
    let file = [
        path.join("mutants.out/outcomes.json"),
        path.join("outcomes.json"),
    ]
    .into_iter()
    .find(|p| p.is_file())
    .unwrap_or_else(|| path.to_path_buf());
    if file.is_dir() {
        return Err(format!(
            "{option} {}: no mutants.out/outcomes.json or outcomes.json in it (the folder \
             cargo-mutants writes with --output, or that file)",
            mancala_lab::text::shown_path(path)
        ));
    }
    let name = file.display().to_string();
    let text = super::read_input(&name).map_err(|e| format!("{option} {e}"))?;
    // Each mutant's log, named relative to the folder of outcomes.json; only logs inside the
    // run's folder are read.
    let logs = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let run = path.canonicalize().ok();
    let log = |relative: &str| -> Option<String> {
        use std::io::Read as _;
        let log = logs.join(relative).canonicalize().ok()?;
        if Path::new(relative).is_absolute() || !run.as_ref().is_some_and(|r| log.starts_with(r)) {
            return None;
        }
        let mut bytes = Vec::new();
        std::fs::File::open(&log)
            .ok()?
            .take(LOG_LIMIT)
            .read_to_end(&mut bytes)
            .ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    };
    mancala_lab::mutants::read_outcomes_with_logs(&name, &text, log)
        .map_err(|e| format!("{option} {e}"))
}

/// The most of a mutant's log read for the test that caught it.
const LOG_LIMIT: u64 = 16 << 20;

/// How often each clause fires in `games` random games (seed 1) of the reference engine under
/// the game's default reading: the clause events of the moves and the clauses that end the games.
/// Counts of the clauses fired in `games` random games, the clauses the engines count (events
/// and ends) and those that cannot fire.
type ClauseCounts = (
    BTreeMap<&'static str, u64>,
    Vec<&'static str>,
    &'static [(&'static str, &'static str)],
);

fn clause_counts(kind: GameKind, games: u64) -> Result<ClauseCounts, String> {
    use mancala_lab::playout::{EngineKind, Play, DEFAULT_MAX_PLIES};
    use mancala_lab::policy::Policy;
    let variant = kind.default_variant();
    let engine = mancala_lab::registry::engine(kind, variant, EngineKind::Reference)
        .map_err(|e| format!("--variant {variant}: {e}"))?;
    let mut counts = BTreeMap::new();
    let bar = super::games_bar(games)?;
    let stop = super::interrupt_on_ctrl_c();
    let mut played = 0;
    let events_counted = engine.counted_events();
    engine.play(
        Play::new(Policy::Random, DEFAULT_MAX_PLIES),
        1,
        0..games,
        |row, events| {
            bar.inc(1);
            played += 1;
            super::exit_if_stopped(stop, played, games);
            for (clause, n) in events.iter() {
                *counts.entry(clause).or_default() += n;
            }
            // An end the engines count as an event is in the events already.
            match row.ending {
                Some(end) if !events_counted.contains(&end.clause) => {
                    *counts.entry(end.clause).or_default() += 1;
                }
                _ => {}
            }
        },
    )?;
    bar.finish_and_clear();
    let mut counted: Vec<&'static str> = engine.counted_events().to_vec();
    counted.extend(counts.keys());
    Ok((counts, counted, engine.events_that_cannot_fire()))
}

/// Runs `coverage`: the report (or its one-line verdict), exit 1 if a gate fails.
pub fn run(args: CoverageArgs) -> Result<ExitCode, String> {
    let root = project_root(args.root, "run from the project root or give --root")?;
    if !args.record.is_empty() {
        return record(&root, &args.record);
    }
    let checked = checked_report(args.game, &root, args.playouts, args.mutants.as_deref())?;
    if let Some(dir) = &args.html {
        let page = write_html("--html", dir, &checked)?;
        eprintln!("report: {}", page.display());
    }
    let report = checked.report;
    if args.snapshot {
        print!("{}", report.snapshot());
        return Ok(ExitCode::SUCCESS);
    }
    if args.quiet {
        println!("{}", report.summary_line());
    } else {
        print!("{}", report.render());
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The main job: the coverage verdict of both games on one line, then the default study, both
/// written to the project's out/.
pub fn main_job() -> Result<ExitCode, String> {
    let root = project_root(
        None,
        "run the main job inside the project (its root holds spec/, src/ and tests/)",
    )?;
    let checked = GameKind::ALL
        .iter()
        .map(|&game| checked_report(game, &root, 0, None))
        .collect::<Result<Vec<_>, _>>()?;
    // The project's out/, wherever in the project the job is run.
    let out = if root == Path::new(".") {
        PathBuf::from("out")
    } else {
        root.join("out")
    };
    let dir = out.join("coverage");
    // The main job was given no option: its errors name the folder it writes.
    let pages = checked
        .iter()
        .map(|c| write_html("the coverage report", &dir, c))
        .collect::<Result<Vec<_>, _>>()?;
    let reports: Vec<Report> = checked.into_iter().map(|c| c.report).collect();
    let verdict = |r: &Report| {
        let (n, ok) = r.normative_counts();
        if n == 0 {
            return format!("{} FAIL (its spec has no normative clause)", r.game);
        }
        format!(
            "{} {ok}/{n} {}",
            r.game,
            if r.passed() { "PASS" } else { "FAIL" }
        )
    };
    let verdicts: Vec<String> = reports.iter().map(verdict).collect();
    let pages: Vec<String> = pages.iter().map(|p| p.display().to_string()).collect();
    println!(
        "clause coverage: {} (report: {})",
        verdicts.join(", "),
        pages.join(", ")
    );
    let code = super::stats::default_study(&out)?;
    Ok(if reports.iter().all(Report::passed) {
        code
    } else {
        ExitCode::FAILURE
    })
}
