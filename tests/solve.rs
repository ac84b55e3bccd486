//! The endgame databases: small levels built here and checked against positions worked by hand
//! from the rules, the reference engine's build against the optimized engine's, the whole-level
//! check by another method, and the level files.

use std::sync::atomic::AtomicBool;

use mancala_lab::solve::build::verify_level;
use mancala_lab::solve::check::{check_level, check_reach, check_sample};
use mancala_lab::solve::level_file::{self, Header, LevelError};
use mancala_lab::solve::search::{Search, SearchError, Stop};
use mancala_lab::solve::{build_level, seeds, Board, Database, Edge, Retro};
use mancala_lab::{kalah, oware};

/// Levels 0 to `most` of `full` (Kalah(3,n)'s, to 12 seeds).
fn first_levels(full: &Database, most: u32) -> Database {
    let mut part = Database::new(6, 12);
    for level in 0..=most {
        part.push(full.level(level).to_vec());
    }
    part
}

/// Levels 0 to `most` of `retro`.
fn build(retro: &dyn Retro, most: u32) -> Database {
    let mut db = Database::new(retro.pits(), most);
    for level in 0..=most {
        let (values, _) = build_level(retro, &db, level, &(), &AtomicBool::new(false)).unwrap();
        db.push(values);
    }
    db
}

/// Levels 0 to `most` of `db` with the value of board `rank` of level `level` raised by `by`.
fn changed(db: &Database, most: u32, level: u32, rank: usize, by: i8) -> Database {
    let mut bad = Database::new(12, most);
    for l in 0..=most {
        let mut values = db.level(l).to_vec();
        if l == level {
            values[rank] = values[rank].wrapping_add(by);
        }
        bad.push(values);
    }
    bad
}

fn oware(preset: &str) -> oware::retro::FastRetro {
    oware::retro::FastRetro::new(preset.parse().unwrap()).unwrap()
}

fn kalah(reading: &str) -> kalah::retro::FastRetro {
    kalah::retro::FastRetro::new(reading.parse().unwrap())
}

/// A board from the mover's pits (A.., then the opponent's a..).
fn board(pits: &[u8]) -> Board {
    let mut b = [0; 12];
    b[..pits.len()].copy_from_slice(pits);
    b
}

#[test]
fn oware_one_seed_worked_by_hand() {
    // One seed on the board (spec: oware O.4.1, O.4.2). In A-E it cannot reach the empty opponent,
    // so no move is allowed and each side takes its own: the mover +1. In F it must be sown into
    // a; the opponent then cannot feed back and takes it: -1. On the opponent's side the mover
    // has no move and the opponent takes it: -1.
    for preset in ["sheet", "abapa"] {
        let db = build(&oware(preset), 1);
        for pit in 0..12 {
            let mut b = [0; 12];
            b[pit] = 1;
            let want = if pit < 5 { 1 } else { -1 };
            assert_eq!(db.value(&b), Some(want), "{preset}: seed in pit {pit}");
        }
    }
}

#[test]
fn oware_grand_slam_worked_by_hand_parts_the_readings() {
    // F holds 1, a holds 1: sowing F makes a two, a capture of every seed North has.
    // sheet (O.4.1 forbidden): F is the only move and is not allowed; each takes its own: 0.
    // abapa (captures nothing): a holds 2, North must sow them into b and c, which leaves South
    // nothing, so North has no allowed move and takes its two: -2 for South.
    let b = board(&[0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]);
    assert_eq!(build(&oware("sheet"), 2).value(&b), Some(0));
    assert_eq!(build(&oware("abapa"), 2).value(&b), Some(-2));
    // The sheet with O.4.2's other choice: no move is allowed while both rows hold seeds, so the
    // grand slam F becomes allowed and captures nothing; North is then as under abapa: -2.
    let other = oware("sheet:no-allowed-move=allow-grand-slam");
    assert_eq!(build(&other, 2).value(&b), Some(-2));
}

#[test]
fn oware_no_allowed_move_choice_changes_nothing_under_abapa() {
    // Under abapa a grand slam is a legal move that captures nothing (O.4.1), so while both rows
    // hold seeds every nonempty pit may be sown: O.4.2's case (no allowed move with seeds on both
    // rows) never arises, and its two choices give the same values on every board.
    let each_takes_own = build(&oware("abapa"), 10);
    let allow = build(&oware("abapa:no-allowed-move=allow-grand-slam"), 10);
    for level in 0..=10 {
        assert_eq!(
            each_takes_own.level(level),
            allow.level(level),
            "level {level}"
        );
    }
}

#[test]
fn oware_capture_worked_by_hand() {
    // F holds 1; North's a holds 2 and f holds 1. F sows into a, which makes three: captured
    // (O.3.1), and f keeps North supplied, so it is no grand slam. North's only move, f, sows
    // into South's A (it feeds South, so it is allowed). South's A can only reach B, which leaves
    // North nothing: no allowed move, each takes its own (O.4.2), South +1. In all 3 + 1 = 4.
    let b = board(&[0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1]);
    for preset in ["sheet", "abapa"] {
        assert_eq!(build(&oware(preset), 4).value(&b), Some(4), "{preset}");
    }
}

#[test]
fn kalah_one_pit_one_seed_worked_by_hand_under_each_sweep() {
    // Kalah(1,1): South's seed goes into its store (an extra turn, K.2.4) and South's row is
    // empty, so the game ends (K.4.1). Where North's seed goes decides the value (K.4.2): to its
    // owner 1 - 1 = 0; to no one 1 - 0 = 1; to the player whose row is empty 2 - 0 = 2.
    let b = board(&[1, 1]);
    for (reading, want) in [
        ("openspiel:pits=1,seeds=1", 0),
        ("starvation:pits=1,seeds=1", 0),
        ("no-sweep:pits=1,seeds=1", 1),
        ("sweep-to-emptier:pits=1,seeds=1", 2),
    ] {
        let db = build(&kalah(reading), 2);
        assert_eq!(db.value(&b), Some(want), "{reading}");
    }
}

#[test]
fn kalah_empty_capture_worked_by_hand() {
    // Kalah(2,n): South A=1, B=0; North a=0, b=2. South's only move sows A into B, empty, and
    // the pit opposite B (North's a) is empty too.
    // openspiel: nothing is captured. North's only move sows b: one seed into North's store, one
    // into South's A. North's row is empty, the game ends, South takes its two: 2 - 1 = +1.
    // empty-capture: the seed in B goes to South's store alone (K.3.2); South's row is empty,
    // the game ends, North takes its two: 1 - 2 = -1.
    let b = board(&[1, 0, 0, 2]);
    assert_eq!(build(&kalah("openspiel:pits=2"), 3).value(&b), Some(1));
    assert_eq!(build(&kalah("empty-capture:pits=2"), 3).value(&b), Some(-1));
}

#[test]
fn reference_and_optimized_builds_are_byte_identical() {
    for preset in ["sheet", "abapa"] {
        let variant: oware::variant::Variant = preset.parse().unwrap();
        let fast = build(&oware::retro::FastRetro::new(variant).unwrap(), 7);
        let reference = build(&oware::retro::ReferenceRetro::new(variant).unwrap(), 7);
        for level in 0..=7 {
            assert_eq!(
                fast.level(level),
                reference.level(level),
                "{preset} level {level}"
            );
        }
    }
    for (name, v) in kalah::variant::PRESETS {
        let v = kalah::variant::Variant { pits: 3, ..v };
        let fast = build(&kalah::retro::FastRetro::new(v), 10);
        let reference = build(&kalah::retro::ReferenceRetro::new(v), 10);
        for level in 0..=10 {
            assert_eq!(
                fast.level(level),
                reference.level(level),
                "{name} level {level}"
            );
        }
    }
}

#[test]
fn levels_pass_both_checks_and_a_wrong_value_is_caught() {
    let retro = oware("sheet");
    let db = build(&retro, 8);
    for level in 0..=8 {
        verify_level(&retro, &db, level, &()).unwrap();
        let c = check_level(&retro, &db, level, &()).unwrap();
        assert_eq!((c.agreed, c.disagreed), (db.ranks().count(level), None));
    }
    // One value changed: both checks name it.
    let bad = changed(&db, 8, 6, 1000, 1);
    let wrong = verify_level(&retro, &bad, 6, &()).unwrap_err();
    assert_eq!(wrong.board, bad.ranks().unrank(1000, 6)[..12].to_vec());
    let c = check_level(&retro, &bad, 6, &()).unwrap();
    assert_eq!(c.agreed, db.ranks().count(6) - 1);
}

/// The reach check solves a drawn board with the boards it reaches in its level, by the counting
/// method on a graph of its own: it agrees with the levels and names a changed value.
#[test]
fn the_reach_check_solves_drawn_boards_afresh_and_catches_a_wrong_value() {
    // Kalah(6,n): every board of a level reaches a few boards of it (seeds only move forward).
    let retro = kalah("empty-capture:pits=6");
    let db = build(&retro, 8);
    let s = check_sample(&retro, &db, 8, 300, 1, 10_000, &|| ()).unwrap();
    assert_eq!((s.drawn, s.solved, s.checked.disagreed), (300, 300, None));
    assert_eq!(s.checked.agreed, s.checked.boards);
    assert!(s.checked.boards > 300);
    // Oware: a board's reach in its level is its whole set of play without captures; one that
    // reaches more than `most` boards is left out.
    let oware = oware("sheet");
    let odb = build(&oware, 6);
    let from = board(&[1, 1, 1, 1, 1, 1]);
    let c = check_reach(&oware, &odb, &from, 1_000_000)
        .unwrap()
        .unwrap();
    assert_eq!((c.agreed, c.disagreed), (c.boards, None));
    assert!(check_reach(&oware, &odb, &from, c.boards as usize - 1)
        .unwrap()
        .is_none());
    // One value changed: the reach check from that board names it, as it solves the board
    // without reading the level's value for it.
    let bad = changed(&db, 8, 8, 1000, 2);
    let from = bad.ranks().unrank(1000, 8);
    let c = check_reach(&retro, &bad, &from, 10_000).unwrap().unwrap();
    let (wrong, stored, found) = c.disagreed.unwrap();
    assert_eq!(
        (wrong, stored),
        (from[..12].to_vec(), db.level(8)[1000] + 2)
    );
    assert_eq!(found, db.level(8)[1000]);
    assert_eq!(c.agreed, c.boards - 1);
}

#[test]
fn predecessors_list_every_board_with_a_move_to_the_board() {
    let cases: Vec<Box<dyn Retro>> = vec![
        Box::new(oware("sheet")),
        Box::new(oware("abapa")),
        Box::new(kalah("openspiel:pits=4")),
        Box::new(kalah("empty-capture:pits=3")),
    ];
    for retro in cases {
        let db = Database::new(retro.pits(), 7);
        for level in 0..=7 {
            let mut p = db.ranks().unrank(0, level);
            loop {
                let mut out = Vec::new();
                retro.expand(&p, &mut out);
                for (_, edge) in out {
                    if let Edge::Next { board, .. } = edge {
                        if seeds(&board) == level {
                            let mut before = Vec::new();
                            assert!(retro.predecessors(&board, &mut before));
                            assert!(before.contains(&p), "{}: {p:?} -> {board:?}", retro.game());
                        }
                    }
                }
                if !db.ranks().next(&mut p) {
                    break;
                }
            }
        }
    }
}

#[test]
fn kalah_search_beyond_the_levels_agrees_with_the_levels() {
    // Kalah(3,n) levels to 12 seeds; the search from level 12 boards with only the levels to 8
    // as leaves must find the same values.
    let retro = kalah("openspiel:pits=3");
    let full = build(&retro, 12);
    let part = first_levels(&full, 8);
    // The same with a table of one board, which drops what it proved at every step.
    let mut search = Search::new(&retro, &part, 10_000_000);
    let mut forgetful = Search::new(&retro, &part, 10_000_000).table_mib(0);
    for index in (0..full.ranks().count(12)).step_by(97) {
        let b = full.ranks().unrank(index, 12);
        let want = full.level(12)[index as usize];
        assert_eq!(search.value(&b, false).unwrap(), want);
        assert_eq!(forgetful.value(&b, false).unwrap(), want);
    }
}

#[test]
fn a_search_on_several_threads_finds_the_same_values() {
    // Only the levels to 4 as leaves, so the level 12 boards are far enough above them for the
    // search to split its moves over the threads; with a table of a few boards too.
    let retro = kalah("empty-capture:pits=3");
    let full = build(&retro, 12);
    let part = first_levels(&full, 4);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let mut split = Search::new(&retro, &part, 100_000_000).threads(3);
    let mut forgetful = Search::new(&retro, &part, 100_000_000)
        .threads(3)
        .table_mib(0);
    pool.install(|| {
        for index in (0..full.ranks().count(12)).step_by(89) {
            let b = full.ranks().unrank(index, 12);
            let want = full.level(12)[index as usize];
            assert_eq!(split.value(&b, false).unwrap(), want, "{b:?}");
            assert_eq!(forgetful.value(&b, false).unwrap(), want, "{b:?}");
        }
    });
    assert!(split.nodes() > 0);
}

/// The header of an Oware level of `seeds` seeds and `positions` boards, under a reading `r`.
fn oware_header(seeds: u32, positions: u64) -> Header {
    Header {
        game: "oware".to_string(),
        reading: "r".to_string(),
        pits: 12,
        seeds,
        positions,
    }
}

#[test]
fn level_files_round_trip_and_refuse_damage_and_other_levels() {
    let dir = tempfile::tempdir().unwrap();
    let header = oware_header(2, 78);
    let values: Vec<i8> = (0..78).map(|i| (i % 5) as i8 - 2).collect();
    let path = level_file::write(dir.path(), &header, &values).unwrap();
    assert_eq!(
        level_file::read(dir.path(), &header).unwrap(),
        Some(values.clone())
    );
    // Absent: None, so the build makes it.
    let three = Header {
        seeds: 3,
        positions: 364,
        ..header.clone()
    };
    assert_eq!(level_file::read(dir.path(), &three).unwrap(), None);
    // Another reading: refused, naming the field.
    let other = Header {
        reading: "s".to_string(),
        ..header.clone()
    };
    let e = level_file::read(dir.path(), &other).unwrap_err();
    assert!(matches!(e, LevelError::Header { .. }), "{e}");
    assert!(e.to_string().contains("reading=r"), "{e}");
    // A flipped value byte: the checksum catches it.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = level_file::read(dir.path(), &header).unwrap_err();
    assert!(matches!(e, LevelError::Damaged { .. }), "{e}");
    // Cut short: the count catches it.
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let e = level_file::read(dir.path(), &header).unwrap_err();
    assert!(e.to_string().contains("75 value bytes"), "{e}");
    // No partial file is left behind by a write.
    level_file::write(dir.path(), &header, &values).unwrap();
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["level-02.bin".to_string()]);
}

/// Writers of one level at once each write through a temporary file of their own: every write
/// succeeds, and the file is whole. (With one temporary name for the level, a writer's rename
/// could find its file already renamed by another: "No such file or directory".)
#[test]
fn writers_of_one_level_at_once_do_not_share_a_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let header = oware_header(4, 1365);
    let values: Vec<i8> = (0..1365).map(|i| (i % 9) as i8 - 4).collect();
    std::thread::scope(|s| {
        let writers: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    (0..20)
                        .map(|_| level_file::write(dir.path(), &header, &values))
                        .collect::<Result<Vec<_>, _>>()
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap().unwrap();
        }
    });
    assert_eq!(level_file::read(dir.path(), &header).unwrap(), Some(values));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["level-04.bin"]);
}

/// A write that fails after its temporary file is written (a folder in the level file's place,
/// so the rename fails) removes it, and says which file failed.
#[test]
fn a_failed_write_removes_its_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let header = oware_header(2, 78);
    let in_the_way = level_file::path(dir.path(), 2);
    std::fs::create_dir(&in_the_way).unwrap();
    std::fs::write(in_the_way.join("mine"), "x").unwrap();
    let e = level_file::write(dir.path(), &header, &[0; 78]).unwrap_err();
    assert!(matches!(e, LevelError::Io { .. }), "{e}");
    assert!(e.to_string().contains("/.level-02."), "{e}");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(
        names,
        ["level-02.bin"],
        "only the folder in the way is left"
    );
    assert!(in_the_way.join("mine").exists());
}

/// A build's lock removes the temporary files a build stopped part way left (the level files'
/// own names only), and keeps a second build out until it is let go.
#[test]
fn a_build_s_lock_clears_what_a_stopped_build_left_and_keeps_a_second_out() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("levels");
    std::fs::create_dir(&folder).unwrap();
    for name in [
        ".level-05.123-0.partial",
        ".level-05.partial",
        "notes.partial",
    ] {
        std::fs::write(folder.join(name), "left").unwrap();
    }
    let lock = level_file::lock(&folder).unwrap();
    let mut names: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, [".lock", "notes.partial"]);
    let e = level_file::lock(&folder).err().unwrap();
    assert!(matches!(e, LevelError::Locked { .. }), "{e}");
    assert!(
        e.to_string()
            .contains(&format!("process {} on ", std::process::id())),
        "{e}"
    );
    drop(lock);
    drop(level_file::lock(&folder).unwrap());
    assert!(!folder.join(".lock").exists());
}

/// Levels past the seeds a game has in all are refused: Oware's 48 (four in each of twelve
/// pits), Kalah(m,n)'s 2mn; and past 100 seeds, what a level file holds, for any game.
#[test]
fn a_build_past_the_game_s_seeds_is_refused() {
    use mancala_lab::solve::{check_build, SeedsError};
    let past = |retro: &dyn Retro, most: u32| match check_build(retro, most) {
        Err(SeedsError::PastTheGame { most, game, .. }) => Some((most, game)),
        Err(e) => panic!("{e}"),
        Ok(()) => None,
    };
    for preset in ["sheet", "abapa"] {
        assert_eq!(past(&oware(preset), 48), None);
        assert_eq!(past(&oware(preset), 49), Some((48, "Oware".to_string())));
    }
    assert_eq!(past(&kalah("openspiel"), 48), None);
    assert_eq!(
        past(&kalah("openspiel"), 49),
        Some((48, "Kalah(6,4)".to_string()))
    );
    assert_eq!(past(&kalah("openspiel:seeds=6"), 72), None);
    assert_eq!(
        past(&kalah("openspiel:seeds=6"), 73),
        Some((72, "Kalah(6,6)".to_string()))
    );
    assert_eq!(
        past(&kalah("empty-capture:pits=4,seeds=3"), 25),
        Some((24, "Kalah(4,3)".to_string()))
    );
    // Kalah(6,12) has 144 seeds: the files stop it first.
    assert_eq!(past(&kalah("openspiel:seeds=12"), 100), None);
    assert_eq!(
        check_build(&kalah("openspiel:seeds=12"), 101),
        Err(SeedsError::PastTheFiles)
    );
}

/// The value of `game` under the reading's own rules, history and all (O.6.2 ends a game at a
/// repetition and each side takes its row): every line searched to its end, from `me`'s side.
/// The scores are 23 each at the start, so the difference of the final scores is the value.
fn value_with_history(
    rules: &oware::rules::Rules,
    game: &oware::game::Game,
    me: mancala_lab::side::Side,
) -> i32 {
    if let Some(outcome) = game.outcome() {
        let s = outcome.scores;
        let d = i32::from(s[0]) - i32::from(s[1]);
        return if me == mancala_lab::side::Side::South {
            d
        } else {
            -d
        };
    }
    let mover = game.position().to_move();
    let values = rules
        .legal_moves(game)
        .into_iter()
        .map(|mv| value_with_history(rules, &rules.play(game, mv).unwrap().game, me));
    if mover == me {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

#[test]
fn oware_repetition_witness_o_db1() {
    // South A=1 and F=1, North empty, South to move (spec/findings/oware.md, O-DB1). South must
    // feed: F into a. From then on each side walks its single seed along its row; no capture can
    // happen (a capture would take North's only seed: a grand slam). After twelve plies North's f
    // falls into South's A and the start position is back. The rules end the game at the
    // repetition (abapa: its second occurrence; sheet: its fourth) with each side taking its row:
    // South takes both seeds, +2. The databases count endless play as 0.
    let b = board(&[1, 0, 0, 0, 0, 1]);
    for preset in ["abapa", "sheet"] {
        let variant: oware::variant::Variant = preset.parse().unwrap();
        let rules = oware::rules::Rules::new(variant);
        let start =
            oware::position::Position::new(b, [23, 23], mancala_lab::side::Side::South).unwrap();
        let game = rules.game_from(start);
        let with_history = value_with_history(&rules, &game, mancala_lab::side::Side::South);
        assert_eq!(with_history, 2, "{preset}: the rules' value");
        assert_eq!(
            build(&oware(preset), 2).value(&b),
            Some(0),
            "{preset}: the databases'"
        );
    }
}

#[test]
fn a_shallow_search_guesses_nearer_the_value_than_zero() {
    // Kalah(3,n) boards of 12 seeds, valued by the full levels (retrograde analysis). The guess
    // comes from the levels to 4 and a shallow search; it must be nearer the value than 0 over
    // the sample, take at most a sixteenth of the budget, and leave the value unchanged. On a
    // board the levels hold, it is the level's value.
    for reading in ["openspiel:pits=3", "empty-capture:pits=3"] {
        let retro = kalah(reading);
        let full = build(&retro, 12);
        let part = first_levels(&full, 4);
        let (mut off_guess, mut off_zero) = (0, 0);
        for index in (0..full.ranks().count(12)).step_by(61) {
            let b = full.ranks().unrank(index, 12);
            let truth = full.level(12)[index as usize];
            let mut search = Search::new(&retro, &part, 160_000);
            let guess = search.guess(&b);
            assert!(
                search.nodes() <= 10_000,
                "{reading} {b:?}: {}",
                search.nodes()
            );
            off_guess += (i32::from(guess) - i32::from(truth)).abs();
            off_zero += i32::from(truth).abs();
            assert_eq!(
                search.value_near(&b, false, guess),
                Ok(truth),
                "{reading} {b:?}"
            );
            let mut within = Search::new(&retro, &full, 160_000);
            assert_eq!(within.guess(&b), truth, "{reading} {b:?}");
            assert_eq!(within.nodes(), 0);
        }
        assert!(
            off_guess < off_zero,
            "{reading}: the guesses are {off_guess} off in all, 0 is {off_zero}"
        );
    }
}

#[test]
fn a_search_that_gives_up_states_bounds_that_hold_and_narrow() {
    // Kalah(3,n) boards of 12 seeds, valued by the full levels; the search has the levels to 4
    // only. Each budget's bounds hold the value and lie within the smaller budget's.
    let retro = kalah("openspiel:pits=3");
    let full = build(&retro, 12);
    let part = first_levels(&full, 4);
    let (mut stopped, mut narrowed) = (0, 0);
    for index in (0..full.ranks().count(12)).step_by(97) {
        let b = full.ranks().unrank(index, 12);
        let truth = full.level(12)[index as usize];
        let (mut lo, mut hi) = (-12, 12);
        for budget in [1, 3, 10, 30, 100, 300, 1000, 3000, 10_000] {
            match Search::new(&retro, &part, budget).value(&b, false) {
                Ok(v) => {
                    assert_eq!(v, truth);
                    (lo, hi) = (v, v);
                }
                Err(SearchError::GaveUp {
                    boards,
                    why,
                    lo: l,
                    hi: h,
                }) => {
                    stopped += 1;
                    narrowed += usize::from((l, h) != (-12, 12));
                    assert_eq!((boards, why), (budget, Stop::Budget));
                    assert!(l <= truth && truth <= h, "{truth} not in [{l}, {h}]");
                    assert!(lo <= l && h <= hi, "[{l}, {h}] not within [{lo}, {hi}]");
                    (lo, hi) = (l, h);
                }
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!((lo, hi), (truth, truth), "solved within the largest budget");
        // The first guess changes the work, not the value.
        for guess in [-12, -5, 0, 3, 12] {
            let mut search = Search::new(&retro, &part, 1_000_000);
            assert_eq!(search.value_near(&b, false, guess).unwrap(), truth);
        }
    }
    assert!(stopped > 50, "{stopped} searches stopped short");
    assert!(
        narrowed > 20,
        "{narrowed} of {stopped} stopped searches proved a bound"
    );
}

#[test]
fn the_best_moves_are_those_the_full_levels_value_at_the_board_s_value() {
    // Kalah(3,n) boards of 12 seeds under both capture readings. The full levels (retrograde
    // analysis, no search) value every move; the search has the levels to 4 only. Its best moves
    // must be the moves the levels value at the board's value, and its move values theirs.
    for reading in ["openspiel:pits=3", "empty-capture:pits=3"] {
        let retro = kalah(reading);
        let full = build(&retro, 12);
        let part = first_levels(&full, 4);
        let (mut boards, mut ties) = (0, 0);
        for index in (0..full.ranks().count(12)).step_by(89) {
            let b = full.ranks().unrank(index, 12);
            let mut edges = Vec::new();
            if retro.expand(&b, &mut edges).is_some() {
                continue;
            }
            let values: Vec<(u8, i8)> = edges
                .iter()
                .map(|(pit, e)| (*pit, e.value(|next| full.value(next).unwrap())))
                .collect();
            let value = full.value(&b).unwrap();
            let best: Vec<u8> = values
                .iter()
                .filter(|&&(_, v)| v == value)
                .map(|&(p, _)| p)
                .collect();
            let mut search = Search::new(&retro, &part, 1_000_000);
            assert_eq!(search.value(&b, false), Ok(value), "{reading} {b:?}");
            assert_eq!(
                search.best_moves(&b, value, false),
                Ok(best.clone()),
                "{reading} {b:?}"
            );
            assert_eq!(search.moves(&b, false), Ok(values), "{reading} {b:?}");
            boards += 1;
            ties += usize::from(best.len() > 1);
        }
        assert!(
            boards > 40 && ties > 5,
            "{reading}: {boards} boards, {ties} with ties"
        );
    }
}

#[test]
fn solve_prints_the_bounds_of_a_search_that_runs_out() {
    // Kalah(4,3) under empty capture is a first-player win by 8 (Irving, Donkers and Uiterwijk;
    // experiments/exact-play/README.md). With no levels and a budget of 2,000 boards the search
    // stops short: exit 1, and the bounds printed hold +8.
    let text = solve_stopped_short("empty-capture:pits=4,seeds=3", 2000);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("value: not found, but at least "))
        .unwrap_or_else(|| panic!("{text}"));
    let (lo, hi) = line.split_once(" and at most ").unwrap();
    let (lo, hi): (i32, i32) = (lo.parse().unwrap(), hi.parse().unwrap());
    assert!(lo <= 8 && 8 <= hi && hi - lo < 48, "{text}");
    assert!(text.contains("searched: 2000 boards beyond the databases, then stopped (its budget)"));
}

#[test]
fn solve_says_so_when_the_value_is_found_but_not_the_best_moves() {
    // Kalah(3,3) under empty capture is a first-player win (Irving, Donkers and Uiterwijk). With
    // no levels, 1,000 boards find the value but not every move's: exit 1, the value printed.
    let text = solve_stopped_short("empty-capture:pits=3,seeds=3", 1000);
    let value: i32 = text
        .lines()
        .find_map(|l| l.strip_prefix("value: "))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(value > 0, "{text}");
    assert!(text.contains("best moves: not found"), "{text}");
    assert!(text.contains("searched: 1000 boards beyond the databases, then stopped (its budget)"));
}

#[test]
fn solve_prints_the_best_moves_before_the_moves_values_run_out() {
    // Kalah(3,3) again: 1,200 boards find the value and which moves keep it (a test each), but
    // not every move's own value. Exit 1; what was found is printed, then what was not.
    let text = solve_stopped_short("empty-capture:pits=3,seeds=3", 1200);
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("best moves: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!best.contains("not found") && !best.is_empty(), "{text}");
    assert!(
        text.contains("move values: not found (the search of the moves stopped short)"),
        "{text}"
    );
    assert!(text.contains("searched: 1200 boards beyond the databases, then stopped (its budget)"));
}

/// The standard output of `solve` on the start of Kalah under `variant` with no levels and a
/// budget of `budget` boards, which must stop short (exit 1).
fn solve_stopped_short(variant: &str, budget: u64) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["solve", "--game", "kalah", "--variant", variant, "--db"])
        .arg(dir.path())
        .args(["--budget", &budget.to_string()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    text
}

/// Oware's sheet moves, told wrongly to a check: as if no line of moves within a level came back
/// to a board (`ClaimsNoCycles`), or as if every move that stays in its level kept the turn
/// (`KeepsTheTurn`).
#[derive(PartialEq)]
enum Misreported {
    ClaimsNoCycles,
    KeepsTheTurn,
}

/// [`Misreported`]'s game: the real moves and how they are misreported.
struct Wrong(oware::retro::FastRetro, Misreported);

fn wrong(how: Misreported) -> Wrong {
    Wrong(oware("sheet"), how)
}

impl Retro for Wrong {
    fn game(&self) -> &'static str {
        self.0.game()
    }
    fn reading(&self) -> String {
        self.0.reading()
    }
    fn engine(&self) -> &'static str {
        self.0.engine()
    }
    fn pits(&self) -> usize {
        self.0.pits()
    }
    fn expand(&self, board: &Board, out: &mut Vec<(u8, Edge)>) -> Option<i8> {
        let over = self.0.expand(board, out);
        if self.1 == Misreported::KeepsTheTurn {
            let level = seeds(board);
            for (_, edge) in out.iter_mut() {
                if let Edge::Next {
                    board: next, again, ..
                } = edge
                {
                    if seeds(next) == level {
                        *again = true;
                    }
                }
            }
        }
        over
    }
    fn acyclic(&self) -> bool {
        self.1 == Misreported::ClaimsNoCycles
    }
}

#[test]
#[should_panic(expected = "comes back to a board")]
fn a_game_that_wrongly_claims_no_cycles_stops_the_build() {
    // Finding O-DB1: at 2 seeds, South's A and F against an empty North walk round for ever.
    build(&wrong(Misreported::ClaimsNoCycles), 2);
}

/// The boards of the O-DB1 cycle (South's A and F against an empty North, South to move), each
/// with its one move, in the order play visits them.
fn o_db1_cycle(retro: &dyn Retro) -> Vec<Board> {
    let start = board(&[1, 0, 0, 0, 0, 1]);
    let mut cycle = vec![start];
    loop {
        let mut out = Vec::new();
        assert_eq!(retro.expand(cycle.last().unwrap(), &mut out), None);
        assert_eq!(out.len(), 1, "one move from {:?}", cycle.last().unwrap());
        let Edge::Next {
            gain: 0,
            board,
            again: false,
        } = out[0].1
        else {
            panic!("a move that stays in the level: {:?}", out[0]);
        };
        if board == start {
            return cycle;
        }
        cycle.push(board);
    }
}

#[test]
fn a_value_held_up_by_a_cycle_passes_best_over_moves_and_fails_the_forced_check() {
    use mancala_lab::solve::forced::check_forced;
    let retro = oware("sheet");
    let db = build(&retro, 4);
    // The built levels: every value other than 0 is forced.
    for level in 0..=4 {
        let f = check_forced(&retro, &db, level, &()).unwrap();
        assert_eq!((f.forced, f.unforced), (f.valued, None), "level {level}");
    }
    // The cycle of finding O-DB1: twelve boards, each with one move.
    let cycle = o_db1_cycle(&retro);
    assert_eq!(cycle.len(), 12, "{cycle:?}");
    let ranks = db.ranks();
    assert!(cycle.iter().all(|b| db.value(b) == Some(0)));
    // +2 and -2 in turn round the cycle, and every other board of the level set again to the
    // best over its moves until none changes: another set of values where each is the best over
    // its moves, yet no play leaves the cycle, so the check finds boards it cannot force.
    let mut values = db.level(2).to_vec();
    let in_cycle: Vec<usize> = cycle
        .iter()
        .map(|b| ranks.rank(&b[..], 2) as usize)
        .collect();
    for (i, &r) in in_cycle.iter().enumerate() {
        values[r] = if i % 2 == 0 { 2 } else { -2 };
    }
    let mut out = Vec::new();
    for pass in 0.. {
        assert!(pass < 100, "the values settle");
        let mut changed = false;
        for r in 0..values.len() {
            if in_cycle.contains(&r) {
                continue;
            }
            let b = ranks.unrank(r as u64, 2);
            let v = mancala_lab::solve::build::best(&retro, &b, &mut out, |n| {
                let s = seeds(n);
                if s == 2 {
                    values[ranks.rank(&n[..], 2) as usize]
                } else {
                    db.value(n).unwrap()
                }
            });
            changed |= v != values[r];
            values[r] = v;
        }
        if !changed {
            break;
        }
    }
    let mut bad = Database::new(12, 2);
    for level in 0..2 {
        bad.push(db.level(level).to_vec());
    }
    bad.push(values);
    verify_level(&retro, &bad, 2, &()).unwrap();
    let f = check_forced(&retro, &bad, 2, &()).unwrap();
    assert!(f.unforced.is_some());
    assert!(f.valued - f.forced >= 12, "{f:?}");
    // The first board the check names is on the cycle or leads to it.
    let (named, value) = f.unforced.clone().unwrap();
    assert_eq!(value.abs(), 2);
    assert!(
        in_cycle
            .iter()
            .any(|&r| ranks.unrank(r as u64, 2)[..] == named[..])
            || {
                let mut out = Vec::new();
                retro.expand(&board(&named), &mut out);
                out.iter()
                    .any(|(_, e)| matches!(e, Edge::Next { board, .. } if cycle.contains(board)))
            }
    );
    // The same without the game's predecessor lists (every board left looked at each pass).
    let g = check_forced(&wrong(Misreported::ClaimsNoCycles), &bad, 2, &()).unwrap();
    assert_eq!(
        (g.valued, g.forced, g.unforced),
        (f.valued, f.forced, f.unforced)
    );
    // Kalah's levels have no cycles: every value is forced.
    let kalah = kalah("openspiel:pits=4");
    let kdb = build(&kalah, 8);
    for level in 0..=8 {
        let f = check_forced(&kalah, &kdb, level, &()).unwrap();
        assert_eq!((f.forced, f.unforced), (db_valued(&kdb, level), None));
    }
}

/// Boards of level `level` worth other than 0.
fn db_valued(db: &Database, level: u32) -> u64 {
    db.level(level).iter().filter(|&&v| v != 0).count() as u64
}

#[test]
fn a_move_within_a_level_that_keeps_the_turn_is_refused_by_both_checks() {
    use mancala_lab::solve::check::UnexpectedMove;
    use mancala_lab::solve::forced::check_forced;
    // The levels of the real game; the checks then meet a game whose moves within a level
    // would keep the turn, which their reasoning (plain turns of play) does not cover.
    let retro = oware("sheet");
    let db = build(&retro, 2);
    let wrong = wrong(Misreported::KeepsTheTurn);
    // Level 0 has no moves at all.
    check_level(&wrong, &db, 0, &()).unwrap();
    check_forced(&wrong, &db, 0, &()).unwrap();
    let named = |e: UnexpectedMove| {
        let mut b = [0; 12];
        b.copy_from_slice(&e.0);
        b
    };
    for level in 1..=2 {
        let a = named(
            check_level(&wrong, &db, level, &())
                .map(|_| ())
                .unwrap_err(),
        );
        let f = named(
            check_forced(&wrong, &db, level, &())
                .map(|_| ())
                .unwrap_err(),
        );
        for b in [a, f] {
            // A board of the level with a move that stays in it, in the real game.
            assert_eq!(seeds(&b), level);
            let mut out = Vec::new();
            retro.expand(&b, &mut out);
            assert!(
                out.iter()
                    .any(|(_, e)| matches!(e, Edge::Next { board, .. } if seeds(board) == level)),
                "{b:?}: {out:?}"
            );
        }
    }
}
