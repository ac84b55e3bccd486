//! Long jobs whose standard output closes (`| head -1`) go on to finish their files, stop
//! printing, and exit with 141 and a note on standard error, rather than dying midway (the main
//! job's case is in tests/cli.rs, beside the copy of the project it runs in).

mod closed;

use std::path::PathBuf;
use std::process::Command;

use closed::{first_line_only, NOTE};

fn tmp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mancala-lab-closed-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_build_finishes_every_level_after_its_output_closes() {
    let dir = tmp("build");
    let args = [
        "solve", "--game", "oware", "--build", "--seeds", "14", "--db", "db",
    ];
    let (line, code, err) = first_line_only(&dir, &args);
    assert!(line.starts_with("oware under "), "{line}");
    assert_eq!(code, Some(141), "{err}");
    assert!(err.contains(NOTE), "{err}");
    let levels: Vec<_> = std::fs::read_dir(dir.join("db"))
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|f| f.unwrap().file_name().into_string().unwrap())
        .collect();
    // Levels 0 to 14, each a whole file: nothing half-written is left.
    for level in 0..=14 {
        assert!(
            levels.contains(&format!("level-{level:02}.bin")),
            "{levels:?}"
        );
    }
    assert!(levels.iter().all(|f| !f.contains("partial")), "{levels:?}");
    // The files check out: `--verify` reads them all; its output closed too, it checks on.
    let (line, code, err) = first_line_only(
        &dir,
        &["solve", "--game", "oware", "--verify", "--db", "db"],
    );
    assert!(!line.is_empty());
    assert_eq!(code, Some(141), "{err}");
    assert!(err.contains(NOTE), "{err}");
    let verify = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["solve", "--game", "oware", "--verify", "--db", "db"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(verify.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn perft_counts_to_the_end_after_its_output_closes() {
    let dir = tmp("perft");
    let args = ["perft", "--game", "kalah", "--depth", "6", "--divide"];
    let (line, code, err) = first_line_only(&dir, &args);
    // Kalah(6,4)'s first move A: a line of its own, then the other five and the total.
    assert!(line.starts_with("A "), "{line}");
    assert!(matches!(code, Some(141) | Some(0)), "{code:?} {err}");
    if code == Some(141) {
        assert!(err.contains(NOTE), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
