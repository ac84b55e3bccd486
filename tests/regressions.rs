//! Replays every case in tests/regressions/ with both engines of its game (see the README there).

use mancala_lab::diff::{lockstep, Engines};
use mancala_lab::game::Game;
use mancala_lab::registry::GameKind;
use mancala_lab::registry::{with_game, GameVisitor, Mancala};

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

/// Plays the case's moves in both engines of the game `M`, comparing after every move.
struct Check<'a>(&'a Case, &'a str);

impl GameVisitor for Check<'_> {
    type Output = ();
    fn visit<M: Mancala>(self) {
        let Check(case, name) = self;
        let variant = M::variant(&case.variant).unwrap();
        let (reference, optimized) = (M::reference(variant), M::optimized(variant).unwrap());
        let engines = Engines::<M> {
            reference: &reference,
            optimized: &optimized,
            label: &case.variant,
        };
        let mut states = match &case.position {
            Some(t) => engines.states_at(t).unwrap(),
            None => (reference.start(), optimized.start()),
        };
        for mv in &case.moves {
            // Lock step with no bytes compares the current states only.
            if let Err(d) = lockstep(&engines, states.clone(), &[], 0) {
                panic!("{name}: before {mv}:\n{d}");
            }
            states = engines
                .play_written(&states, mv)
                .unwrap_or_else(|e| panic!("{name}: {mv}: {e}"));
        }
        if let Err(d) = lockstep(&engines, states, &[], 0) {
            panic!("{name}: after the moves:\n{d}");
        }
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
        let game: GameKind = case
            .game
            .parse()
            .unwrap_or_else(|e| panic!("{name}: game: {e}"));
        with_game(game, Check(&case, &name));
        cases += 1;
    }
    assert!(cases >= 3);
}
