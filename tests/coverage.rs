//! The committed coverage snapshots (spec/coverage/GAME.txt) are the coverage of the code as it
//! is: a change of what is implemented or tested shows in review as a change of that file.

use std::path::Path;

use mancala_lab::coverage::{parse_spec, read_tree, scan_files, Report};

#[test]
fn the_committed_snapshots_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = read_tree(root).unwrap();
    for game in ["bao", "oware"] {
        let spec = std::fs::read_to_string(root.join(format!("spec/{game}.md"))).unwrap();
        let clauses = parse_spec(game, &spec).unwrap();
        let now = Report::build(game, &clauses, &scan_files(game, &files), None).snapshot();
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
