//! Kalah's rules, clause by clause (spec/kalah.md): each test sets up a whole board, plays one
//! ply under a reading and compares the whole result with the one worked by hand from the clause
//! (the witnesses of spec/findings/kalah.md among them); perft against OpenSpiel's `mancala`.

use mancala_lab::kalah::{IllegalMove, Move, Position, Rules, Side, State, Variant};

/// The state of `text` under `reading`.
fn state(reading: &str, text: &str) -> (Rules, State) {
    let rules = Rules::new(reading.parse().unwrap());
    let position = Position::parse(text, &rules.variant).unwrap();
    (rules, rules.state_from(position))
}

/// Plays the move `letter` (of the player to move) from `text` under `reading`.
fn play(reading: &str, text: &str, letter: char) -> State {
    let (rules, s) = state(reading, text);
    let (side, mv) = Move::from_letter(letter, rules.variant.pits).unwrap();
    assert_eq!(side, s.position().to_move(), "{letter} is not the mover's");
    rules.play(&s, mv).unwrap().state
}

fn board(to_move: &str, scores: &str, north: &str, south: &str) -> String {
    format!("to_move: {to_move}\nscores: {scores}\nnorth: {north}\nsouth: {south}\n")
}

#[test]
// spec: kalah K.1.1 type=test
// spec: kalah K.1.2 type=test
// spec: kalah K.1.3 type=test
fn k1_2_every_pit_starts_with_the_readings_seeds() {
    let v = Variant::default();
    assert_eq!(
        Position::start(&v).to_string(),
        board("South", "0 0", "4 4 4 4 4 4", "4 4 4 4 4 4")
    );
    let v: Variant = "empty-capture:pits=3,seeds=5".parse().unwrap();
    assert_eq!(
        Position::start(&v).to_string(),
        board("South", "0 0", "5 5 5", "5 5 5")
    );
}

#[test]
// spec: kalah K.2.1 type=test
fn k2_1_a_move_sows_the_pits_seeds_one_by_one_from_the_next() {
    let start = board("South", "0 0", "4 4 4 4 4 4", "4 4 4 4 4 4");
    assert_eq!(
        play("openspiel", &start, 'A').position().to_string(),
        board("North", "0 0", "4 4 4 4 4 4", "0 5 5 5 5 4")
    );
}

#[test]
// spec: kalah K.2.2 type=test
fn k2_2_the_sowing_passes_through_the_movers_store_and_skips_the_opponents() {
    // F's eight seeds: South's store, a-f, North's store skipped, A.
    let before = board("South", "10 10", "3 3 3 3 3 4", "1 0 0 0 0 8");
    assert_eq!(
        play("openspiel", &before, 'F').position().to_string(),
        board("North", "11 10", "4 4 4 4 4 5", "2 0 0 0 0 0")
    );
}

#[test]
// spec: kalah K.2.3 type=test
fn k2_3_a_lap_sows_into_the_emptied_pit_and_can_capture_there() {
    // Finding K-S4's witness.
    let before = board("South", "10 10", "4 1 1 1 1 2", "13 1 1 1 1 1");
    assert_eq!(
        play("openspiel", &before, 'A').position().to_string(),
        board("North", "17 10", "0 2 2 2 2 3", "0 2 2 2 2 2")
    );
}

#[test]
// spec: kalah K.2.4 type=test
fn k2_4_the_last_seed_in_ones_own_store_gives_another_move() {
    let start = board("South", "0 0", "4 4 4 4 4 4", "4 4 4 4 4 4");
    let (rules, s) = state("openspiel", &start);
    let played = rules.play(&s, Move { pit: 2 }).unwrap();
    assert!(played.extra_turn);
    assert_eq!(
        played.state.position().to_string(),
        board("South", "1 0", "4 4 4 4 4 4", "4 4 0 5 5 5")
    );
    // Five moves left for South: every pit but the emptied C.
    let moves: Vec<char> = rules
        .legal_moves(&played.state)
        .iter()
        .map(|m| m.letter(Side::South))
        .collect();
    assert_eq!(moves, ['A', 'B', 'D', 'E', 'F']);
}

#[test]
// spec: kalah K.3.1 type=test
fn k3_1_the_last_seed_in_an_empty_own_pit_takes_the_seeds_opposite() {
    // A's seed falls in B, empty; e opposite holds 5: 6 seeds to South's store.
    let before = board("South", "20 20", "0 5 0 0 0 1", "1 0 0 0 0 1");
    let (rules, s) = state("openspiel", &before);
    let played = rules.play(&s, Move { pit: 0 }).unwrap();
    assert_eq!(played.captured, 6);
    assert_eq!(
        played.state.position().to_string(),
        board("North", "26 20", "0 0 0 0 0 1", "0 0 0 0 0 1")
    );
}

#[test]
// spec: kalah K.3.1 type=test
fn k3_1_empty_means_empty_just_before_the_last_seed() {
    // Finding K-S5's witness: B, empty when the move began, gets a seed on the first lap and
    // the last seed: 2 seeds, no capture.
    let before = board("South", "10 10", "2 1 1 1 1 4", "14 0 1 1 1 1");
    assert_eq!(
        play("openspiel", &before, 'A').position().to_string(),
        board("North", "11 10", "3 2 2 2 2 5", "1 2 2 2 2 2")
    );
}

#[test]
// spec: kalah K.3.2 type=test
fn k3_2_empty_capture_by_reading() {
    // Finding K-S1's witness: A's seed falls in B, empty, opposite e, empty.
    let before = board("South", "20 20", "0 0 1 1 1 1", "1 0 0 0 0 3");
    assert_eq!(
        play("openspiel", &before, 'A').position().to_string(),
        board("North", "20 20", "0 0 1 1 1 1", "0 1 0 0 0 3")
    );
    assert_eq!(
        play("empty-capture", &before, 'A').position().to_string(),
        board("North", "21 20", "0 0 1 1 1 1", "0 0 0 0 0 3")
    );
}

/// Finding K-S2's and K-S3's witness: South's F empties South's row, the last seed in North's.
const EMPTIES_OWN_ROW: &str =
    "to_move: South\nscores: 20 18\nnorth: 8 0 0 0 0 0\nsouth: 0 0 0 0 0 2\n";

#[test]
// spec: kalah K.4.1 type=test
fn k4_1_either_row_empty_ends_the_game_after_the_ply() {
    let s = play("openspiel", EMPTIES_OWN_ROW, 'F');
    let outcome = s.outcome().expect("the game is over");
    assert_eq!(outcome.clause, "K.4.1");
    assert_eq!(
        s.position().to_string(),
        board("North", "21 18", "8 0 0 0 0 1", "0 0 0 0 0 0")
    );
}

#[test]
// spec: kalah K.4.1 type=test
fn k4_1_mover_starved_plays_on_while_the_player_to_move_has_seeds() {
    let (rules, s) = state("starvation", EMPTIES_OWN_ROW);
    let after = rules.play(&s, Move { pit: 5 }).unwrap().state;
    assert_eq!(after.outcome(), None);
    let moves: Vec<char> = rules
        .legal_moves(&after)
        .iter()
        .map(|m| m.letter(Side::North))
        .collect();
    assert_eq!(moves, ['a', 'f']);
    // f's eight seeds: North's store, all six of South's pits (South's store skipped), a.
    let next = rules.play(&after, Move { pit: 5 }).unwrap().state;
    assert_eq!(
        next.position().to_string(),
        board("South", "21 19", "0 0 0 0 0 2", "1 1 1 1 1 1")
    );
    assert_eq!(next.outcome(), None);
}

#[test]
// spec: kalah K.4.2 type=test
fn k4_2_the_seeds_left_by_reading() {
    let outcome = |reading: &str| play(reading, EMPTIES_OWN_ROW, 'F').outcome().unwrap();
    // North's row holds 9 when South's empties: to their owner, to South, or to no one.
    let o = outcome("openspiel");
    assert_eq!((o.scores, o.winner), ([21, 27], Some(Side::North)));
    let o = outcome("sweep-to-emptier");
    assert_eq!((o.scores, o.winner), ([30, 18], Some(Side::South)));
    let o = outcome("no-sweep");
    assert_eq!((o.scores, o.winner), ([21, 18], Some(Side::South)));
}

#[test]
// spec: kalah K.4.3 type=test
fn k4_3_equal_scores_are_a_draw() {
    // F's seed falls in South's store, South's row is empty: 24 and 24 after the sweep.
    let before = board("South", "23 20", "1 1 1 1 0 0", "0 0 0 0 0 1");
    let s = play("openspiel", &before, 'F');
    let o = s.outcome().unwrap();
    assert_eq!((o.scores, o.winner, o.clause), ([24, 24], None, "K.4.1"));
}

#[test]
// spec: kalah K.4.4 type=test
fn k4_4_the_ply_cap_ends_a_game_and_scores_it() {
    // C (extra move), F, then North's a: the third ply reaches a cap of 3.
    let rules = Rules::new("openspiel:cap=3".parse().unwrap());
    let mut s = rules.new_game();
    for (mv, over) in [(2, false), (5, false), (0, true)] {
        s = rules.play(&s, Move { pit: mv }).unwrap().state;
        assert_eq!(s.outcome().is_some(), over, "after {} plies", s.plies());
    }
    assert_eq!(
        s.position().to_string(),
        board("South", "2 0", "5 5 6 6 6 0", "4 4 0 5 5 0")
    );
    let o = s.outcome().unwrap();
    assert_eq!(
        (o.scores, o.winner, o.clause),
        ([20, 28], Some(Side::North), "K.4.4")
    );
    // OpenSpiel's cap: over after ply 1,001, not before.
    assert_eq!(Variant::default().ply_cap, Some(1001));
}

#[test]
fn illegal_moves_are_refused_with_the_reason() {
    let start = board("South", "0 0", "4 4 4 4 4 4", "4 4 4 4 4 4");
    let (rules, s) = state("openspiel", &start);
    let after_c = rules.play(&s, Move { pit: 2 }).unwrap().state;
    assert_eq!(
        rules.play(&after_c, Move { pit: 2 }),
        Err(IllegalMove::EmptyPit('C'))
    );
    assert_eq!(
        rules.play(&s, Move { pit: 6 }),
        Err(IllegalMove::NoSuchPit(6, 6))
    );
    let over = play("openspiel", EMPTIES_OWN_ROW, 'F');
    assert_eq!(
        rules.play(&over, Move { pit: 0 }),
        Err(IllegalMove::GameOver("K.4.1"))
    );
    assert!(rules.legal_moves(&over).is_empty());
}

fn perft(rules: &Rules, s: &State, depth: u32) -> u64 {
    if depth == 0 || s.outcome().is_some() {
        return 1;
    }
    rules
        .legal_moves(s)
        .into_iter()
        .map(|mv| perft(rules, &rules.play(s, mv).unwrap().state, depth - 1))
        .sum()
}

#[test]
fn perft_matches_openspiel() {
    // OpenSpiel 2.0.2's `mancala`, `state.child(action)` over `legal_actions()`, terminal states
    // ending a path (spec/kalah.md, Perft).
    let rules = Rules::default();
    let start = rules.new_game();
    let counts: Vec<u64> = (1..=7).map(|d| perft(&rules, &start, d)).collect();
    assert_eq!(counts, [6, 35, 185, 942, 4690, 23233, 114430]);
}

/// The presets set every reading as spec/kalah.md's table gives them (its ply-cap column among
/// them), and each parameter value written after a preset sets its field.
#[test]
fn presets_and_parameters_are_the_specs_readings() {
    use mancala_lab::kalah::{EndTest, Sweep};
    // spec/kalah.md: only openspiel has a cap (1,001 plies).
    for (name, cap) in [
        ("openspiel", Some(1001)),
        ("empty-capture", None),
        ("starvation", None),
        ("sweep-to-emptier", None),
        ("no-sweep", None),
    ] {
        assert_eq!(name.parse::<Variant>().unwrap().ply_cap, cap, "{name}");
    }
    let read = |text: &str| text.parse::<Variant>().unwrap();
    assert!(read("openspiel:empty-capture=on").empty_capture);
    assert!(!read("empty-capture:empty-capture=off").empty_capture);
    assert_eq!(
        read("starvation:end=either-row-empty").end,
        EndTest::EitherRowEmpty
    );
    assert_eq!(
        read("openspiel:end=mover-starved").end,
        EndTest::MoverStarved
    );
    assert_eq!(read("no-sweep:sweep=to-owner").sweep, Sweep::ToOwner);
    assert_eq!(read("openspiel:sweep=to-emptier").sweep, Sweep::ToEmptier);
    assert_eq!(read("openspiel:sweep=none").sweep, Sweep::None);
    assert_eq!(read("openspiel:cap=7").ply_cap, Some(7));
    assert_eq!(read("openspiel:cap=none").ply_cap, None);
    for bad in [
        "openspiel:empty-capture=yes",
        "openspiel:end=never",
        "openspiel:sweep=all",
    ] {
        assert!(bad.parse::<Variant>().is_err(), "{bad}");
    }
}
