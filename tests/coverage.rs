//! The committed coverage snapshots (spec/coverage/GAME.txt) are the coverage of the code as it
//! is: a change of what is implemented or tested shows in review as a change of that file.

mod browser;

use std::path::Path;

use browser::chromium;

use mancala_lab::coverage::add_recorded;
use mancala_lab::coverage::{parse_spec, read_tree, scan_files, Report};

/// Whether mutants are meeting the whole suite (experiments/mutants/run.sh sets
/// `MANCALA_LAB_MUTATION_RUN`): a test that fails on a change of no behaviour would count every
/// such mutant caught, so it stands aside. A snapshot fails on any change to the code at all; a
/// test that reads the project's `// spec:` annotations fails when a mutant deletes them (one that
/// replaces a function's body takes its annotations with it), whatever the code then does.
fn mutation_run() -> bool {
    std::env::var_os("MANCALA_LAB_MUTATION_RUN").is_some()
}

#[test]
fn the_committed_snapshots_are_current() {
    if mutation_run() {
        eprintln!(
            "a mutation run: the snapshot, which any change to the code alters, is not compared"
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = read_tree(root).unwrap();
    for game in ["bao", "oware", "kalah"] {
        let spec = std::fs::read_to_string(root.join(format!("spec/{game}.md"))).unwrap();
        let clauses = parse_spec(game, &spec).unwrap();
        let scan = scan_files(game, &files);
        let report = Report::build(game, &clauses, &scan, None);
        // With the recorded mutation results, as the coverage command reads them.
        let now = add_recorded(report, root, &files, &scan)
            .unwrap()
            .snapshot();
        let path = root.join(format!("spec/coverage/{game}.txt"));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        let changed: Vec<String> = diff_lines(&committed, &now);
        assert!(
            changed.is_empty(),
            "{} is not the coverage of the code; rewrite it with\n  mancala-lab coverage --game \
             {game} --snapshot > spec/coverage/{game}.txt\nand review the change:\n{}",
            path.display(),
            changed.join("\n")
        );
    }
}

/// The lines only in `a` (as `- line`) and only in `b` (as `+ line`).
fn diff_lines(a: &str, b: &str) -> Vec<String> {
    let (x, y): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let gone = x
        .iter()
        .filter(|l| !y.contains(l))
        .map(|l| format!("- {l}"));
    let new = y
        .iter()
        .filter(|l| !x.contains(l))
        .map(|l| format!("+ {l}"));
    gone.chain(new).collect()
}

/// The check can fail: a snapshot with a clause's status changed differs.
#[test]
fn a_changed_snapshot_is_found() {
    let a = "bao 1.1 normative covered implemented=1 tests=1\n";
    let b = "bao 1.1 normative MISSING-test implemented=1\n";
    assert_eq!(
        diff_lines(a, b),
        [
            "- bao 1.1 normative covered implemented=1 tests=1",
            "+ bao 1.1 normative MISSING-test implemented=1"
        ]
    );
}

/// `coverage --html`: every link of the report points at an existing page and line, each line
/// linked is an annotation citing the clause, and headless Chromium loads the page.
#[test]
fn the_html_report_links_to_the_annotations() {
    if mutation_run() {
        eprintln!("a mutation run: the report, which reads the annotations, is not checked");
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-coverage-html-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for game in ["bao", "oware", "kalah"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args(["coverage", "--game", game, "--quiet", "--html"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let page = std::fs::read_to_string(dir.join(format!("{game}.html"))).unwrap();
        let mut links = 0;
        // Each link sits in its clause's section: <section ... id="cID">.
        for section in page.split("<section ").skip(1) {
            let id = section.split('"').nth(3).unwrap().trim_start_matches('c');
            for href in section.split("href=\"").skip(1) {
                let href = &href[..href.find('"').unwrap()];
                let (file, anchor) = href.split_once('#').expect("a line anchor");
                let target = std::fs::read_to_string(dir.join(file))
                    .unwrap_or_else(|e| panic!("{game} {id}: {href}: {e}"));
                let at = format!("<a id=\"{anchor}\" href=\"#{anchor}\">");
                let line = target
                    .lines()
                    .find(|l| l.starts_with(&at))
                    .unwrap_or_else(|| panic!("{game} {id}: {href}: no such line"));
                let cited = format!("// spec: {game} {id}");
                assert!(
                    line.contains(&cited)
                        && line[line.find(&cited).unwrap() + cited.len()..]
                            .chars()
                            .next()
                            .is_none_or(|c| c == ' '),
                    "{game} {id}: {href} is `{line}`"
                );
                links += 1;
            }
        }
        // At least an implementation and a test for each normative clause.
        let normative = page.matches("[normative]").count();
        assert!(
            normative > 10 && links >= 2 * normative,
            "{game}: {links} links"
        );
        if let Some(browser) = chromium() {
            let o = std::process::Command::new(browser)
                .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
                .arg(format!("--user-data-dir={}", dir.join("profile").display()))
                .arg(format!(
                    "file://{}",
                    dir.join(format!("{game}.html")).display()
                ))
                .output()
                .unwrap();
            let dom = String::from_utf8_lossy(&o.stdout);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            assert_eq!(
                dom.matches("<section ").count(),
                page.matches("<section ").count(),
                "{game}: Chromium read another page"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `coverage --record`: a run's results go into spec/coverage/mutants.csv with their code line;
/// a run whose file changed since is refused, naming the file, and nothing is written.
#[test]
fn mutation_runs_are_recorded_only_against_the_code_they_ran_on() {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let run = root.join("run");
    let code = "fn f() {\n    // mutant: excused a note\n    g();\n}\n";
    for dir in [
        root.join("src"),
        run.join("sources/src"),
        run.join("mutants.out"),
    ] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(root.join("src/x.rs"), code).unwrap();
    std::fs::write(run.join("sources/src/x.rs"), code).unwrap();
    let outcomes = r#"{"outcomes": [{"scenario": {"Mutant": {"name": "src/x.rs:3:5: delete g()",
        "file": "src/x.rs", "span": {"start": {"line": 3, "column": 5}}}},
        "summary": "MissedMutant"}]}"#;
    std::fs::write(run.join("mutants.out/outcomes.json"), outcomes).unwrap();
    let record = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args(["coverage", "--root"])
            .arg(&root)
            .arg("--record")
            .arg(&run)
            .output()
            .unwrap()
    };
    let o = record();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = root.join("spec/coverage/mutants.csv");
    // Line 3 is the second line of code: the note does not count.
    let recorded = std::fs::read_to_string(&csv).unwrap();
    assert!(
        recorded.contains("\nsrc/x.rs,2,5,delete g(),missed,"),
        "{recorded}"
    );

    std::fs::write(root.join("src/x.rs"), code.replace("g()", "h()")).unwrap();
    let o = record();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("src/x.rs changed since the run"), "{err}");
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), recorded);
    let _ = std::fs::remove_dir_all(&root);
}

/// `coverage --html` replaces only pages of an earlier report: a file of the user's at a page's
/// place, or a link to one, stops it with exit 2 before anything is written.
#[test]
fn the_html_report_replaces_only_an_earlier_report() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-coverage-keep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let html = |game: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args(["coverage", "--game", game, "--quiet", "--html"])
            .arg(&dir)
            .output()
            .unwrap()
    };
    // A report, written twice: the second replaces the first. (In a mutation run the verdict,
    // which counts the annotations, may be FAIL, exit 1: the report is written all the same.)
    for _ in 0..2 {
        let o = html("oware");
        let written = o.status.success() || (mutation_run() && o.status.code() == Some(1));
        assert!(written, "{}", String::from_utf8_lossy(&o.stderr));
    }
    // The user's notes where the Bao page would go.
    std::fs::write(dir.join("bao.html"), "my notes\n").unwrap();
    let o = html("bao");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bao.html: the file there is not a page of a coverage report"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("bao.html")).unwrap(),
        "my notes\n"
    );
    // A link at the Oware page's place to a file of the user's: the file is kept.
    let notes = dir.join("important.txt");
    std::fs::write(&notes, "important\n").unwrap();
    std::fs::remove_file(dir.join("oware.html")).unwrap();
    std::os::unix::fs::symlink(&notes, dir.join("oware.html")).unwrap();
    let o = html("oware");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "important\n");
    // A file named as the report's folder is named so.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["coverage", "--quiet", "--html"])
        .arg(&notes)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("important.txt: not a folder; the report is a folder of pages"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "important\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without --root, coverage reads the project the current folder is in (found by its spec/), and
/// never the tree the binary was built from: outside any project it refuses, and writes nothing.
#[test]
fn coverage_reads_the_project_it_is_run_in() {
    let bin = env!("CARGO_BIN_EXE_mancala-lab");
    let run = |dir: &Path, args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap()
    };
    // From a folder inside the project: the project's report.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let o = run(&src, &["coverage", "--game", "oware", "--quiet"]);
    if mutation_run() {
        // Its verdict counts the annotations: only that the project's report came out.
        assert!(String::from_utf8_lossy(&o.stdout).starts_with("coverage oware: "));
    } else {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).starts_with("coverage oware: 16/16"));
    }
    // Outside any project (the system's temporary folder has no spec/ above it).
    let away = std::env::temp_dir().join(format!("mancala-no-project-{}", std::process::id()));
    std::fs::create_dir_all(away.join("run/mutants.out")).unwrap();
    std::fs::write(
        away.join("run/mutants.out/outcomes.json"),
        "{\"outcomes\":[]}",
    )
    .unwrap();
    let recorded = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/coverage/mutants.csv");
    let before = std::fs::read(&recorded).unwrap();
    // The main job takes no --root: it is not offered one.
    for (args, says) in [
        (&["coverage", "--quiet"][..], "or give --root"),
        (&["coverage", "--record", "run"], "or give --root"),
        (&[], "run the main job inside the project"),
    ] {
        let o = run(&away, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("no spec/ folder in") && err.contains(says),
            "{args:?}: {err}"
        );
        assert!(!args.is_empty() || !err.contains("--root"), "{err}");
    }
    assert!(!away.join("out").exists(), "the main job wrote out/");
    assert_eq!(std::fs::read(&recorded).unwrap(), before);
    std::fs::remove_dir_all(&away).unwrap();
}
