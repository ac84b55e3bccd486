//! Oware rules, one focused test per clause. The OpenSpiel rule tests are ported with our own
//! working (OpenSpiel's boards may hold fewer than 48 seeds; ours pad the scores to 48).

use mancala_lab::oware::game::Verdict;
use mancala_lab::oware::{Game, Move, Position, Rules, Side, Variant};

fn game(pits: [u8; 12], scores: [u8; 2], to_move: Side) -> Game {
    Game::from_position(Position::new(pits, scores, to_move).expect("48 seeds"))
}

fn letters(rules: &Rules, g: &Game) -> String {
    let side = g.position().to_move();
    rules
        .legal_moves(g)
        .iter()
        .map(|m| m.letter(side))
        .collect()
}

fn play(rules: &Rules, g: &Game, letter: char) -> Game {
    let (_, mv) = Move::from_letter(letter).unwrap();
    rules
        .play(g, mv)
        .unwrap_or_else(|e| panic!("{letter}: {e}"))
        .game
}

fn abapa() -> Rules {
    Rules::new(Variant::ABAPA)
}

fn sheet() -> Rules {
    Rules::new(Variant::SHEET)
}

/// The sheet reading with the forbidden grand slams playable (capturing nothing) when no other
/// move is allowed.
fn lenient() -> Rules {
    Rules::new(Variant {
        no_allowed_move: mancala_lab::oware::variant::NoAllowedMove::AllowGrandSlamWithoutCapture,
        ..Variant::SHEET
    })
}

#[test]
// spec: oware O.1 type=test
// spec: oware O.1.1 type=test
// spec: oware O.2.1 type=test
fn o1_start_position() {
    let g = sheet().new_game();
    assert_eq!(g.position().pits(), [4; 12]);
    assert_eq!(
        (
            g.position().score(Side::South),
            g.position().score(Side::North)
        ),
        (0, 0)
    );
    assert_eq!(g.position().to_move(), Side::South);
    let north_first = Rules::new(Variant {
        first_player: Side::North,
        ..Variant::SHEET
    })
    .new_game();
    assert_eq!(north_first.position().to_move(), Side::North);
    assert_eq!(letters(&sheet(), &g), "ABCDEF");
}

#[test]
// spec: oware O.2.3 type=test
// spec: oware O.2.2 type=test
fn o2_3_sowing_goes_counter_clockwise_from_the_next_pit() {
    // C (4 seeds): D, E, F, a get one each; North to move.
    let g = play(&sheet(), &sheet().new_game(), 'C');
    assert_eq!(g.position().pits(), [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4]);
    assert_eq!(g.position().to_move(), Side::North);
    // North's f (4 seeds) runs on into South's row: A, B, C, D.
    let g = play(&sheet(), &g, 'f');
    assert_eq!(g.position().pits(), [5, 5, 1, 6, 5, 5, 5, 4, 4, 4, 4, 0]);
}

#[test]
// spec: oware O.2.4 type=test
fn o2_4_twelve_or_more_skip_the_emptied_pit() {
    // A holds 13: B..F and a..f take one each (11 seeds), A is skipped, B and C take the last two.
    // North: a..f 1 each; scores pad to 48.
    let g = game([13, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [14, 15], Side::South);
    let g = play(&sheet(), &g, 'A');
    assert_eq!(g.position().pits(), [0, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    assert_eq!(g.position().score(Side::South), 14);
}

// ---- ported from OpenSpiel's oware_test.cc, re-worked with 48 seeds

#[test]
// spec: oware O.3.1 type=test
// spec: oware O.3.2 type=test
// spec: oware O.6.1 type=test
fn o3_2_capture_back_to_the_start_of_the_row() {
    // OpenSpiel CaptureOpponentHousesTillBeginTest. C (8): D1 E1 F2 a2 b2 c2 d2 e3; e makes 3:
    // capture e, d, c, b, a (3+2+2+2+2 = 11); f (3) was not sown and stays. South 14 + 11 = 25.
    let start = game([0, 0, 8, 0, 0, 1, 1, 1, 1, 1, 2, 3], [14, 16], Side::South);
    let g = play(&abapa(), &start, 'C');
    // abapa: the game is over and each row goes to its owner: South 25 + 4, North 16 + 3.
    let out = g.outcome().unwrap();
    assert_eq!(
        (out.scores, out.winner, out.clause),
        ([29, 19], Some(Side::South), "O.6.1")
    );
    assert_eq!(g.position().pits(), [0; 12]);
    // sheet: the same capture ends the game with the seeds left on the board.
    let g = play(&sheet(), &start, 'C');
    assert_eq!(g.position().pits(), [0, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0, 3]);
    assert_eq!(g.outcome().unwrap().scores, [25, 16]);
}

#[test]
// spec: oware O.5.1 type=test
fn o5_1_chain_stops_at_a_pit_of_four() {
    // OpenSpiel CaptureMostOpponentHousesTest. C (8): ... a becomes 4, b c d 2, e 3: capture e, d,
    // c, b (9) and stop at a. South 16 + 9 = 25 wins.
    let start = game([0, 0, 8, 0, 0, 1, 3, 1, 1, 1, 2, 0], [16, 15], Side::South);
    let g = play(&abapa(), &start, 'C');
    let out = g.outcome().unwrap();
    assert_eq!((out.scores, out.winner), ([29, 19], Some(Side::South)));
    let g = play(&sheet(), &start, 'C');
    assert_eq!(g.position().pits(), [0, 0, 0, 1, 1, 2, 4, 0, 0, 0, 0, 0]);
    assert_eq!(g.outcome().unwrap().winner, Some(Side::South));
}

#[test]
fn o3_1_no_capture_with_one_seed_or_four() {
    // OpenSpiel NoCaptureBecauseTooFewSeedsTest: North c (8): d1 e1 f2 A4 B2 C2 D2 E1; E holds 1.
    let g = play(
        &abapa(),
        &game([3, 1, 1, 1, 0, 0, 0, 0, 8, 0, 0, 1], [16, 17], Side::North),
        'c',
    );
    assert_eq!(g.position().pits(), [4, 2, 2, 2, 1, 0, 0, 0, 0, 1, 1, 2]);
    assert_eq!(g.position().score(Side::North), 17);
    // NoCaptureBecauseTooManySeedsTest: C (8) makes e 4: nothing is captured.
    let g = play(
        &abapa(),
        &game([0, 0, 8, 0, 0, 1, 3, 1, 1, 1, 3, 0], [15, 15], Side::South),
        'C',
    );
    assert_eq!(g.position().pits(), [0, 0, 0, 1, 1, 2, 4, 2, 2, 2, 4, 0]);
    assert_eq!(g.position().score(Side::South), 15);
}

#[test]
// spec: oware O.4.1 type=test
fn o4_1_grand_slam_by_reading() {
    // OpenSpiel NoCaptureBecauseGrandSlamTest: North c (8): d1 e1 f2 A2 B2 C2 D2 E2, and F is
    // empty: capturing E back to A would take every South seed.
    let start = game([1, 1, 1, 1, 1, 0, 0, 0, 8, 0, 0, 1], [17, 17], Side::North);
    // abapa: legal, captures nothing.
    let g = play(&abapa(), &start, 'c');
    assert_eq!(g.position().pits(), [2, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 2]);
    assert_eq!(g.position().score(Side::North), 17);
    // sheet: forbidden; only f (one seed into A, making 2: capture A alone) is allowed.
    assert_eq!(letters(&sheet(), &start), "f");
    let (_, c) = Move::from_letter('c').unwrap();
    assert!(sheet()
        .play(&start, c)
        .unwrap_err()
        .to_string()
        .contains("O.4.1"));
    let g = play(&sheet(), &start, 'f');
    assert_eq!(g.position().pits(), [0, 1, 1, 1, 1, 0, 0, 0, 8, 0, 0, 0]);
    assert_eq!(g.position().score(Side::North), 19);
}

#[test]
fn o4_1_legal_moves_must_feed_an_empty_opponent() {
    // OpenSpiel LegalActionsNoConstraintsTest and LegalActionsLeaveTheOpponentSeedsTest.
    let free = game([1, 0, 9, 0, 0, 1, 1, 0, 0, 0, 0, 0], [18, 18], Side::South);
    assert_eq!(letters(&abapa(), &free), "ACF");
    // F drops its seed into a (1 -> 2), North's only seeds: a grand slam, which the sheet forbids.
    assert_eq!(letters(&sheet(), &free), "AC");
    // North is empty: A (into B) does not feed; F (into a) does.
    let starving = game([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0], [23, 23], Side::South);
    assert_eq!(letters(&abapa(), &starving), "F");
    assert_eq!(letters(&sheet(), &starving), "F");
}

#[test]
// spec: oware O.4.2 type=test
fn o4_2_no_allowed_move_ends_the_game() {
    // North f (1 seed) into A (1 -> 2): captures 2 (North 21 -> 23) and leaves South B. South's
    // only move, B into C, cannot feed North: the game ends and South adds its 1 seed.
    let start = game([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [24, 21], Side::North);
    for rules in [sheet(), abapa()] {
        let g = play(&rules, &start, 'f');
        let out = g.outcome().expect("South cannot feed North");
        assert_eq!(
            (out.clause, out.scores, out.winner),
            ("O.4.2", [25, 23], Some(Side::South))
        );
    }
    // Every move forbidden while both sides hold seeds: North's only move c is a grand slam.
    // Sheet (default): the game ends and each side takes its own row: South 17 + 5, North 18 + 8.
    let all_slams =
        Position::new([1, 1, 1, 1, 1, 0, 0, 0, 8, 0, 0, 0], [17, 18], Side::North).unwrap();
    let g = sheet().game_from(all_slams.clone());
    let out = g.outcome().unwrap();
    assert_eq!(
        (out.clause, out.scores, out.winner),
        ("O.4.2", [22, 26], Some(Side::North))
    );
    // The other reading lets the grand slam be played, capturing nothing.
    let lenient = lenient();
    assert_eq!(
        letters(&lenient, &lenient.game_from(all_slams.clone())),
        "c"
    );
    // strict leaves the point open: the game stops with a typed "rules silent" outcome naming
    // O.4.2, no winner, and the seeds left where they lie (captures 17/18).
    let strict = Rules::new(Variant::STRICT);
    let out = strict.game_from(all_slams).outcome().unwrap();
    assert_eq!(
        (out.verdict, out.clause, out.scores, out.winner),
        (Verdict::RulesSilent, "O.4.2", [17, 18], None)
    );
    // ... but where the sheet's case applies (all seeds on one side) strict decides as the sheet.
    let out = play(&strict, &start, 'f').outcome().unwrap();
    assert_eq!(
        (out.verdict, out.clause, out.winner),
        (Verdict::Decided, "O.4.2", Some(Side::South))
    );
    assert!(mancala_lab::oware::fast::FastRules::new(Variant::STRICT).is_err());
}

#[test]
// spec: oware O.5.2 type=test
// spec: oware O.6.2 type=test
fn o6_2_repetition_ends_the_game_by_reading() {
    // OpenSpiel GameEndsByRepetitionTest: two seeds chase each other round the board; after twelve
    // plies South is to move with A 1 and a 1 and scores 23/23 again.
    let start = game([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], [23, 23], Side::South);
    let round = ['A', 'a', 'B', 'b', 'C', 'c', 'D', 'd', 'E', 'e', 'F', 'f'];
    let mut g = start.clone();
    let mut undefined = Vec::new();
    for (i, &l) in round.iter().enumerate() {
        assert!(g.outcome().is_none(), "over before ply {i}");
        let (_, mv) = Move::from_letter(l).unwrap();
        let played = abapa().play(&g, mv).unwrap();
        undefined.extend(played.undefined);
        g = played.game;
    }
    // Only the last ply ends the game, by a rule the sheet leaves undefined.
    assert_eq!(undefined, ["O.6.2"]);
    // abapa: first repetition: each side takes its seed, 24-24, a draw.
    let out = g.outcome().unwrap();
    assert_eq!(
        (out.clause, out.scores, out.winner),
        ("O.6.2", [24, 24], None)
    );
    // sheet: "more than two full rounds": not at the third occurrence (two rounds, 24 plies) but
    // at the fourth (three rounds, 36 plies).
    let mut g = start;
    for (i, l) in round.iter().cycle().take(36).enumerate() {
        assert!(g.outcome().is_none(), "over before ply {i}");
        g = play(&sheet(), &g, *l);
    }
    assert_eq!(
        g.outcome().map(|o| (o.clause, o.scores)),
        Some(("O.6.2", [24, 24]))
    );
    // strict: at the first repetition the readings part, so the game stops there, undecided.
    let strict = Rules::new(Variant::STRICT);
    let mut g = game([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], [23, 23], Side::South);
    for (i, l) in round.iter().enumerate() {
        assert!(g.outcome().is_none(), "over before ply {i}");
        g = play(&strict, &g, *l);
    }
    let out = g.outcome().unwrap();
    assert_eq!(
        (out.verdict, out.clause, out.scores, out.winner),
        (Verdict::RulesSilent, "O.6.2", [23, 23], None)
    );
}

#[test]
// spec: oware O.7.1 type=test
// spec: oware O.7.2 type=test
fn o7_transcript_replays() {
    use mancala_lab::oware::notation::parse_transcript;
    // 1. C (D5 E5 F5 a5) f (A5 B5 C1 D6) -- as worked in o2_3.
    let moves = parse_transcript("1. C f\n").unwrap();
    let rules = sheet();
    let mut g = rules.new_game();
    for w in &moves {
        assert_eq!(w.side, g.position().to_move());
        g = rules.play(&g, w.mv).unwrap().game;
    }
    assert_eq!(g.position().pits(), [5, 5, 1, 6, 5, 5, 5, 4, 4, 4, 4, 0]);
}

#[test]
// spec: oware O.7.2 type=test
fn o7_2_a_move_number_stands_only_before_souths_move() {
    use mancala_lab::oware::notation::parse_transcript;
    // A number, when written, opens a pair: before South's move, counting the pairs. "1. C 1. f"
    // numbers pair 1 again where North's move of that pair is due, so it is refused at the second
    // "1." (column 6), though the number itself is the pair's; "1. C f 2. A" is a whole pair and
    // South's move of the next.
    let e = parse_transcript("1. C 1. f\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 6), "{e}");
    assert!(e.to_string().contains("the second move of pair 1"), "{e}");
    assert_eq!(parse_transcript("1. C f 2. A\n").unwrap().len(), 3);
}

#[test]
// spec: oware O.5.2 type=test
fn o5_2_the_only_road_to_24_each_is_a_grand_slam() {
    // 24 each is all 48 seeds captured, so the board must empty, and the capture that empties it
    // takes the opponent's last seeds. The nearest position: South 22, North 24, one seed in F
    // and one in a. F drops its seed into a (1 -> 2): capturing those 2 would give 24 each, but
    // it is a grand slam.
    let start = game([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], [22, 24], Side::South);
    // sheet: F is forbidden, South has no allowed move with seeds on both rows, and each side
    // takes its own row (O.4.2): South 23, North 25, North wins; no draw.
    assert_eq!(letters(&sheet(), &start), "");
    let g = sheet().game_from(start.position().clone());
    let out = g.outcome().expect("no allowed move");
    assert_eq!(
        (out.clause, out.scores, out.winner),
        ("O.4.2", [23, 25], Some(Side::North))
    );
    // abapa: F is played and captures nothing (a holds 2, the scores stay 22 and 24); North then
    // cannot feed South (a sows into b and c), so the game ends and each side takes its own row:
    // North 26, South 22; no draw.
    let g = play(&abapa(), &start, 'F');
    let out = g.outcome().expect("North cannot feed South");
    assert_eq!(
        (out.clause, out.scores, out.winner),
        ("O.4.2", [22, 26], Some(Side::North))
    );
    // The reading that lets a forbidden grand slam be played when nothing else is: the same.
    let lenient = lenient();
    let g = play(&lenient, &lenient.game_from(start.position().clone()), 'F');
    let out = g.outcome().expect("North cannot feed South");
    assert_eq!(
        (out.clause, out.scores, out.winner),
        ("O.4.2", [22, 26], Some(Side::North))
    );
}
