//! Replays every case in tests/regressions/ with both engines of its game (see the README there).

use mancala_lab::bao::engines as bao;
use mancala_lab::diff::lockstep;
use mancala_lab::engine::Engine;
use mancala_lab::oware::engines as oware;

struct Case {
    game: String,
    variant: String,
    position: Option<String>,
    moves: Vec<String>,
}

fn parse(text: &str) -> Case {
    let mut case = Case {
        game: String::new(),
        variant: String::new(),
        position: None,
        moves: Vec::new(),
    };
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = line.split('#').next().unwrap().trim();
        if let Some(v) = line.strip_prefix("game:") {
            case.game = v.trim().to_string();
        } else if let Some(v) = line.strip_prefix("variant:") {
            case.variant = v.trim().to_string();
        } else if line == "position:" {
            let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "end").collect();
            case.position = Some(body.join("\n"));
        } else if let Some(v) = line.strip_prefix("moves:") {
            case.moves = v.split_whitespace().map(str::to_string).collect();
        }
    }
    case
}

/// Plays the case's moves in both engines, comparing after every move.
fn check<A: Engine, B: Engine>(a: &A, b: &B, case: &Case, name: &str) {
    let (mut sa, mut sb) = match &case.position {
        Some(t) => (a.parse_state(t).unwrap(), b.parse_state(t).unwrap()),
        None => (a.start(), b.start()),
    };
    for mv in &case.moves {
        // Lock step with no bytes compares the current state only.
        if let Err(d) = lockstep(a, b, sa.clone(), sb.clone(), &[], 0) {
            panic!("{name}: before {mv}:\n{d}");
        }
        sa = a
            .play(&sa, mv)
            .unwrap_or_else(|e| panic!("{name}: {mv}: {e}"));
        sb = b
            .play(&sb, mv)
            .unwrap_or_else(|e| panic!("{name}: {mv}: {e}"));
    }
    if let Err(d) = lockstep(a, b, sa, sb, &[], 0) {
        panic!("{name}: after the moves:\n{d}");
    }
}

#[test]
fn regression_cases_agree_in_both_engines() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut cases = 0;
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
    {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let case = parse(&std::fs::read_to_string(path).unwrap());
        match case.game.as_str() {
            "bao" => check(
                &bao::Reference::new(&case.variant).unwrap(),
                &bao::Optimized::new(&case.variant).unwrap(),
                &case,
                &name,
            ),
            "oware" => check(
                &oware::Reference::new(&case.variant).unwrap(),
                &oware::Optimized::new(&case.variant).unwrap(),
                &case,
                &name,
            ),
            other => panic!("{name}: unknown game '{other}'"),
        }
        cases += 1;
    }
    assert!(cases >= 3);
}
