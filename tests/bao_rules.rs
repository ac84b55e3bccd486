//! One focused test per normative Bao clause. Every expected position was worked out by hand from
//! the rules text (the working is in the comments); none was produced by running the engine.

mod common;

use common::*;
use mancala_lab::bao::variant::{InfiniteMoves, Variant};
use mancala_lab::bao::{IllegalMove, MoveKind, Position, Rules, Side, Stage};

// ---------------------------------------------------------------- 2.1 start, 2.1.1, 1.7, 3.1

#[test]
// spec: bao 2.1 type=test
// spec: bao 2.1.1 type=test
fn c2_1_start_position_and_south_first() {
    // Six in the nyumba (A5/a5), two in each of the two pits to its right, 22 in each store.
    let start = Position::start();
    assert_position(&start, START);
    assert_eq!(start.to_move(), Side::South);
    assert_eq!(start.board().total() + 44, 64);
}

#[test]
// spec: bao 3.1 type=test
fn c3_1_mtaji_begins_when_all_seeds_are_on_the_board() {
    // One store seed each: South's move is kunamua, then North (store 1) is still in kunamua,
    // then South, with both stores empty, plays in mtaji.
    let text = "
to_move: South
stores: 1 1
houses: owned owned
b: 0 0 0 0 0 0 0 21
a: 0 2 2 6 0 0 0 0
A: 0 0 0 0 6 2 2 0
B: 21 0 0 0 0 0 0 0
";
    let rules = Rules::default();
    let p = pos(text);
    assert_eq!(p.stage(), Stage::Kunamua);
    let p = rules.play(&p, rules.legal_moves(&p)[0]).unwrap().position;
    assert_eq!(
        (p.store(Side::South), p.store(Side::North), p.stage()),
        (0, 1, Stage::Kunamua)
    );
    let p = rules.play(&p, rules.legal_moves(&p)[0]).unwrap().position;
    assert_eq!(
        (p.store(Side::South), p.store(Side::North), p.stage()),
        (0, 0, Stage::Mtaji)
    );
}

// ---------------------------------------------------------------- kunamua kutakata: the opening

#[test]
// spec: bao 2.1.2 type=test
// spec: bao 2.3 type=test
// spec: bao 1.3 type=test
// spec: bao 1.5.4 type=test
// spec: bao 1.5.5 type=test
fn c2_3_opening_kutakata_a6_left() {
    // Store seed into A6 (2 -> 3), take the three and sow to the left: A5 7, A4 1, A3 1.
    // A3 was empty, so the move ends (1.5.4). North moves next; it can capture (a5 faces A4),
    // so there is no kutakatia.
    let played = play(START, "A6<*");
    assert_eq!(played.kind, MoveKind::Kutakata);
    // The position worked by hand for this move is AFTER_A6 (tests/common).
    assert_position(&played.position, AFTER_A6);
}

#[test]
// spec: bao 1.5.2 type=test
// spec: bao 2.3 type=test
fn c1_5_2_opening_moves_are_the_four_kutakata_from_a6_a7() {
    // No capture is possible (A5, A6, A7 face the empty a4, a3, a2); the house with six cannot
    // start a kutakata (2.3.2), so the store seed goes into A6 or A7, sown either way.
    assert_eq!(legal(START), ["A6<*", "A6>*", "A7<*", "A7>*"]);
    // A7>: A8 1, B8 1, B7 1 and stop: the sowing runs from the front row into the back row.
    let played = play(START, "A7>*");
    assert_position(
        &played.position,
        "
to_move: North
stores: 21 22
houses: owned owned
b: 0 0 0 0 0 0 0 0
a: 0 2 2 6 0 0 0 0
A: 0 0 0 0 6 2 0 1
B: 0 0 0 0 0 0 1 1
",
    );
}

// ---------------------------------------------------------------- kunamua captures

#[test]
// spec: bao 2.2.1 type=test
// spec: bao 2.2 type=test
// spec: bao 1.4 type=test
// spec: bao 1.4.2 type=test
fn c2_2_1_kunamua_capture_from_the_left_kichwa() {
    // Store seed into a6 (2 -> 3); take A3's single seed and sow it from North's left kichwa a1.
    // a1 was empty: the move ends.
    let played = play(AFTER_A6, "a6<");
    assert_eq!(played.kind, MoveKind::Capture);
    assert_position(
        &played.position,
        "
to_move: South
stores: 21 21
houses: owned owned
b: 0 0 0 0 0 0 0 0
a: 0 2 3 6 0 0 0 1
A: 0 0 0 1 7 0 2 0
B: 0 0 0 0 0 0 0 0
",
    );
}

#[test]
// spec: bao 2.2.2 type=test
// spec: bao 1.4.3 type=test
fn c2_2_2_the_player_chooses_the_kichwa() {
    // The same capture sown from the right kichwa a8.
    let played = play(AFTER_A6, "a6>");
    assert_position(
        &played.position,
        "
to_move: South
stores: 21 21
houses: owned owned
b: 0 0 0 0 0 0 0 0
a: 1 2 3 6 0 0 0 0
A: 0 0 0 1 7 0 2 0
B: 0 0 0 0 0 0 0 0
",
    );
    // Both harvesting pits (a5, a6) with both kichwa-s, and nothing else.
    assert_eq!(legal(AFTER_A6), ["a5<", "a5>", "a6<", "a6>"]);
}

#[test]
// spec: bao 1.4.1 type=test
// spec: bao 1.5.1 type=test
fn c1_4_1_capture_is_compulsory() {
    let why = refused(AFTER_A6, "a7>");
    assert!(why.contains("1.4.1"), "{why}");
}

#[test]
// spec: bao 1.4.5 type=test
// spec: bao 4.2.2.3.2 type=test
// spec: bao 1.6 type=test
fn c1_4_5_capture_at_kimbi_sows_from_left_kichwa_and_stops_in_house() {
    // Store seed into A2 (2); take a7's 2 and sow from A1: A1 1, A2 3. A2 faces the emptied a7:
    // kuendelea takes 3: A3 1, A4 2, A5 6. The owned house now holds six and no harvest is
    // possible there (a4 empty): without '+', the move stops (4.2.2.3.2).
    let played = play(KIMBI, "A2<");
    assert_position(
        &played.position,
        "
to_move: North
stores: 19 20
houses: owned owned
b: 0 0 0 0 9 0 0 0
a: 0 0 0 6 0 0 0 0
A: 1 0 1 2 6 0 0 0
B: 0 0 0 0 0 0 0 0
",
    );
    // The kichwa is forced: '>' would be the right kichwa.
    assert!(refused(KIMBI, "A2>").contains("1.4.5"));
    // The house decision makes two legal moves of one start. A4 (1) faces North's house a5 (6):
    // a capture too, with either kichwa, and neither reaches a house decision (A4<: six seeds from
    // A1 end in the empty A6; A4>: from A8 they end in the empty A3).
    assert_eq!(legal(KIMBI), ["A2<", "A2<+", "A4<", "A4>"]);
}

#[test]
// spec: bao 4.2.1.2 type=test
// spec: bao 4.2.1.1 type=test
// spec: bao N.3 type=test
fn c4_2_1_2_playing_the_house_loses_it() {
    // As above to A5 (6), then '+': take the 6 (the house is emptied, hence lost) and sow on:
    // A6, A7, A8, B8, B7, B6 one each; B6 was empty, the move ends.
    let played = play(KIMBI, "A2<+");
    assert_position(
        &played.position,
        "
to_move: North
stores: 19 20
houses: lost owned
b: 0 0 0 0 9 0 0 0
a: 0 0 0 6 0 0 0 0
A: 1 0 1 2 0 1 1 1
B: 0 0 0 0 0 1 1 1
",
    );
    // '+' on a move that never reaches the house is refused.
    assert!(refused(AFTER_A6, "a6<+").contains("4.2.1.2"));
}

// ---------------------------------------------------------------- kunamua kutakata rules

#[test]
// spec: bao 2.3.1 type=test
// spec: bao 1.5.3.1 type=test
fn c2_3_1_only_kichwa_filled_cannot_go_to_back_row() {
    // Kunamua; South's front row holds only A1 (1), which faces the empty a8: no capture.
    // A1< would sow B1, B2 and leave the front row empty; only A1> is legal: A2 1, A3 1.
    let before = "
to_move: South
stores: 20 20
houses: lost owned
b: 0 0 0 0 8 0 0 0
a: 0 2 2 6 0 0 0 0
A: 1 0 0 0 0 0 0 0
B: 0 0 0 5 0 0 0 0
";
    assert_eq!(legal(before), ["A1>*"]);
    assert!(refused(before, "A1<").contains("1.5.3.1"));
    assert!(refused(before, "B4>").contains("2.3"));
    assert_position(
        &play(before, "A1>").position,
        "
to_move: North
stores: 19 20
houses: lost owned
b: 0 0 0 0 8 0 0 0
a: 0 2 2 6 0 0 0 0
A: 0 1 1 0 0 0 0 0
B: 0 0 0 5 0 0 0 0
",
    );
}

/// Kunamua: the owned house (6) is South's only filled front pit and faces the empty a4.
const TAX: &str = "
to_move: South
stores: 20 20
houses: owned owned
b: 4 0 0 0 0 0 0 0
a: 0 2 2 6 0 0 0 0
A: 0 0 0 0 6 0 0 0
B: 0 4 0 0 0 0 0 0
";

#[test]
// spec: bao 2.3.2 type=test
// spec: bao 4.2.2.2 type=test
fn c2_3_2_house_tax_takes_two() {
    // Store seed in (7), two out and sown left: A4 1, A3 1; five stay, the house stays owned.
    assert_eq!(legal(TAX), ["A5<*", "A5>*"]);
    assert_position(
        &play(TAX, "A5<*").position,
        "
to_move: North
stores: 19 20
houses: owned owned
b: 4 0 0 0 0 0 0 0
a: 0 2 2 6 0 0 0 0
A: 0 0 1 1 5 0 0 0
B: 0 4 0 0 0 0 0 0
",
    );
    assert_position(
        &play(TAX, "A5>*").position,
        "
to_move: North
stores: 19 20
houses: owned owned
b: 4 0 0 0 0 0 0 0
a: 0 2 2 6 0 0 0 0
A: 0 0 0 0 5 1 1 0
B: 0 4 0 0 0 0 0 0
",
    );
}

#[test]
// spec: bao 4.2.2.1 type=test
fn c4_2_2_1_no_kutakata_from_the_house_with_six() {
    // As TAX but A7 also holds 2: the house may not start the kutakata.
    let before = TAX
        .replace("A: 0 0 0 0 6 0 0 0", "A: 0 0 0 0 6 0 2 0")
        .replace("B: 0 4 0", "B: 0 2 0");
    assert!(refused(&before, "A5<").contains("4.2.2.1"));
    assert_eq!(legal_plain(&before), ["A7<", "A7>"]);
}

#[test]
// spec: bao 2.3.3 type=test
fn c2_3_3_single_seed_pits_once_the_house_is_lost() {
    // House lost, A2 holds 1 and A6 holds 2, nothing faces them: A2 may not start.
    let lost = "
to_move: South
stores: 20 20
houses: lost lost
b: 0 0 0 0 0 0 0 16
a: 2 0 0 0 0 0 0 0
A: 0 1 0 0 0 2 0 0
B: 3 0 0 0 0 0 0 0
";
    assert!(refused(lost, "A2<").contains("2.3.3"));
    assert_eq!(legal_plain(lost), ["A6<", "A6>"]);
}

#[test]
// spec: bao 4.2.1.3 type=test
fn c4_2_1_3_house_under_six_is_an_ordinary_pit() {
    // House owned with 2: single-seed A2 may start (the house is owned), and so may the house.
    let owned = "
to_move: South
stores: 20 20
houses: owned lost
b: 0 0 0 0 0 0 0 16
a: 2 0 0 0 0 0 0 0
A: 0 1 0 0 2 2 0 0
B: 1 0 0 0 0 0 0 0
";
    assert_eq!(
        legal_plain(owned),
        ["A2<", "A2>", "A5<", "A5>", "A6<", "A6>"]
    );
    // A kutakata ending in the owned house with 4 goes on: A3 (1) + seed = 2, sown A4 1, A5 4;
    // the house has fewer than six, so kuendelea takes all 4 (house lost): A6 1, A7 1, A8 1, B8 1.
    let before = "
to_move: South
stores: 20 20
houses: owned owned
b: 0 0 0 0 0 0 0 10
a: 2 0 0 6 0 0 0 0
A: 0 0 1 0 3 0 0 0
B: 2 0 0 0 0 0 0 0
";
    assert_position(
        &play(before, "A3>*").position,
        "
to_move: North
stores: 19 20
houses: lost owned
b: 0 0 0 0 0 0 0 10
a: 2 0 0 6 0 0 0 0
A: 0 0 0 1 0 1 1 1
B: 2 0 0 0 0 0 0 1
",
    );
}

#[test]
// spec: bao 4.2.2.3.1 type=test
fn c4_2_2_3_1_kutakata_stops_in_house() {
    // A3 (1) + store seed = 2, sown A4 1, A5 6: a kutakata ending in the owned house with six stops.
    let before = "
to_move: South
stores: 20 20
houses: owned owned
b: 0 0 0 0 0 0 0 10
a: 2 0 0 6 0 0 0 0
A: 0 0 1 0 5 0 0 0
B: 0 0 0 0 0 0 0 0
";
    assert_position(
        &play(before, "A3>*").position,
        "
to_move: North
stores: 19 20
houses: owned owned
b: 0 0 0 0 0 0 0 10
a: 2 0 0 6 0 0 0 0
A: 0 0 0 1 6 0 0 0
B: 0 0 0 0 0 0 0 0
",
    );
}

#[test]
// spec: bao 2.1.2 type=test
fn c2_1_2_store_seed_into_a_house_of_five_by_reading() {
    // House 5, no capture (a4 empty). Default: the store seed is no sowing (1.3); the house of 6
    // is played out: A6..A8, B8, B7, B6 one each, the house is lost.
    let before = "
to_move: South
stores: 20 20
houses: owned owned
b: 0 0 0 0 0 0 0 8
a: 0 2 2 6 0 0 0 0
A: 1 0 0 0 5 0 0 0
B: 0 0 0 0 0 0 0 0
";
    assert_position(
        &play(before, "A5>*").position,
        "
to_move: North
stores: 19 20
houses: lost owned
b: 0 0 0 0 0 0 0 8
a: 0 2 2 6 0 0 0 0
A: 1 0 0 0 0 1 1 1
B: 0 0 0 0 0 1 1 1
",
    );
    // The engine reports that a reading, not the text, decided this move.
    assert_eq!(play(before, "A5>*").undefined[0].clause, "2.1.2");
    // literal-en: the store seed is a sowing ending in a house of six: the move stops (4.2.2.3.1).
    assert_position(
        &play_with(Variant::LITERAL_EN, before, "A5>*").position,
        "
to_move: North
stores: 19 20
houses: owned owned
b: 0 0 0 0 0 0 0 8
a: 0 2 2 6 0 0 0 0
A: 1 0 0 0 6 0 0 0
B: 0 0 0 0 0 0 0 0
",
    );
    // strict leaves the point open: the move may be chosen (it passes every start rule) but playing
    // it is refused with the typed "rules silent" answer naming 2.1.2, and no position follows.
    let strict = Rules::new(Variant::STRICT);
    let start = pos(before);
    let listed: Vec<String> = strict
        .legal_moves(&start)
        .iter()
        .map(|m| strict.notation(&start, *m).unwrap())
        .collect();
    assert!(listed.contains(&"A5>*".to_string()), "{listed:?}");
    let text = mancala_lab::bao::MoveText::parse("A5>*").unwrap();
    match strict.play_text(&start, &text) {
        Err(IllegalMove::RulesSilent { clause, .. }) => assert_eq!(clause, "2.1.2"),
        other => panic!("expected a rules-silent refusal, got {other:?}"),
    }
    // A move that does not touch the open point plays as under the default reading.
    assert_eq!(
        play_with(Variant::STRICT, before, "A1>").position,
        play(before, "A1>").position
    );
    // The optimized engine refuses a reading it cannot honour instead of playing another one.
    assert!(mancala_lab::bao::fast::FastRules::new(Variant::STRICT).is_err());
}

// ---------------------------------------------------------------- mtaji

#[test]
// spec: bao 4.1 type=test
// spec: bao 1.3.1 type=test
// spec: bao 3.3 type=test
fn c4_1_capture_at_right_kimbi_changes_direction() {
    // A4 (3) sown right: A5 1, A6 1, A7 2. A7 faces a2 (2): harvest, sown from the right kichwa,
    // anticlockwise: A8 1, A7 3. Kuendelea anticlockwise from A7: A6 2, A5 2, A4 1 (was empty).
    let played = play(
        "
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 0 0 0 2 0
A: 0 0 0 3 0 0 1 0
B: 16 9 0 0 0 0 0 0
",
        "A4>",
    );
    assert!(clauses(&played).contains(&"4.1"));
    assert_position(
        &played.position,
        "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 0 0 0 0 0
A: 0 0 0 1 2 2 0 1
B: 16 9 0 0 0 0 0 0
",
    );
}

const MTAJI_CAPTURE: &str = "
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 3 0 0 0 0
A: 0 2 0 1 0 0 0 0
B: 16 9 0 0 0 0 0 0
";

#[test]
// spec: bao 3.4 type=test
// spec: bao 3.4.1 type=test
// spec: bao 1.4.4 type=test
fn c3_4_1_harvest_keeps_the_move_direction() {
    // A2 (2) right: A3 1, A4 2; A4 faces a5 (3): harvest. Clockwise move: from A1: A1 1, A2 1,
    // A3 2. A3 faces the empty a6: kuendelea A4 3, A5 1 (empty before): end.
    assert_position(
        &play(MTAJI_CAPTURE, "A2>").position,
        "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 0 0 0 0 0
A: 1 1 0 3 1 0 0 0
B: 16 9 0 0 0 0 0 0
",
    );
    // B2 (9) right runs anticlockwise along the back row and ends in A6 (empty): no capture,
    // while a capture exists.
    assert!(refused(MTAJI_CAPTURE, "B2>").contains("1.5.1"));
}

#[test]
// spec: bao 1.6.1 type=test
fn c1_6_1_kuendelea_gives_way_to_a_harvest() {
    // A2 right: A3 1, A4 2, harvest a5 (3) from A1: A1 1, A2 1, A3 2; kuendelea A4 3, A5 2.
    // A5 faces a4 (2): harvest, clockwise from A1: A1 2, A2 2; kuendelea A3 1, A4 4;
    // kuendelea A5 3, A6 1, A7 1, A8 1 (empty before): end.
    let played = play(
        "
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 3 2 0 0 0
A: 0 2 0 1 1 0 0 0
B: 16 6 0 0 0 0 0 0
",
        "A2>",
    );
    assert_eq!(played.captures, 2);
    assert_position(
        &played.position,
        "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 0 0 0 0 0
A: 2 0 1 0 3 1 1 1
B: 16 6 0 0 0 0 0 0
",
    );
}

const BACK_ROW: &str = "
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 0 0 0 0 0 0 0 1
A: 0 0 2 0 1 0 0 0
B: 0 0 3 0 0 0 0 25
";

#[test]
// spec: bao 3.5 type=test
// spec: bao 3.5.1 type=test
// spec: bao 1.5.2 type=test
fn c3_5_1_back_row_only_when_front_has_no_pair() {
    // No capture: a1 faces the empty A8. A3 holds two, so the back row may not start.
    assert_eq!(legal(BACK_ROW), ["A3<*", "A3>*"]);
    assert!(refused(BACK_ROW, "B3<").contains("3.5.1"));
    // A3 right: A4 1, A5 2; kuendelea A6 1, A7 1.
    assert_position(
        &play(BACK_ROW, "A3>*").position,
        "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 0 0 0 0 0 0 0 1
A: 0 0 0 1 0 1 1 0
B: 0 0 3 0 0 0 0 25
",
    );
}

#[test]
// spec: bao 3.3.1 type=test
// spec: bao 1.3.2 type=test
// spec: bao N.6 type=test
// spec: bao N.2 type=test
fn c3_3_1_singletons_do_not_move_and_back_row_direction() {
    // Front row only singletons: A3 cannot be played; B3 may. B3 '<' is the hand moving left
    // along the back row, which is clockwise: B2 1, B1 1, A1 1.
    let before = BACK_ROW
        .replace("A: 0 0 2 0 1", "A: 0 0 1 0 1")
        .replace("0 0 0 0 25", "0 0 0 0 26");
    assert!(refused(&before, "A3>").contains("3.3.1"));
    assert_position(
        &play(&before, "B3<*").position,
        "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 0 0 0 0 0 0 0 1
A: 1 0 1 0 1 0 0 0
B: 1 1 0 0 0 0 0 26
",
    );
    // B3 '>' runs anticlockwise: B4 1, B5 1, B6 1.
    assert_position(
        &play(&before, "B3>*").position,
        "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 0 0 0 0 0 0 0 1
A: 0 0 1 0 1 0 0 0
B: 0 0 0 1 1 1 0 26
",
    );
}

#[test]
// spec: bao 3.4.2 type=test
// spec: bao 1.5.3 type=test
// spec: bao 3.5.2 type=test
fn c3_4_2_seventeen_seeds_sow_as_kutakata() {
    // A1 holds 17, South's only seeds. Sown right it would end in A2 (2) facing a7 (1), a
    // harvest were the pit at most 15: here the move is a kutakata (3.4.2) and harvests nothing
    // (1.5.3). A1 is the only filled front pit, so A1< is forbidden (3.5.2).
    // Working: one seed in each of the 16 pits (A1 included), the 17th in A2 (2); kuendelea
    // A2 -> A3 2, A4 2; A4 -> A5 2, A6 2; A6 -> A7 2, A8 2; A8 -> B8 2, B7 2; B7 -> B6 2, B5 2;
    // B5 -> B4 2, B3 2; B3 -> B2 2, B1 2; B1 -> A1 2, A2 1 (emptied before): end.
    let before = "
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 14 16 16
a: 0 1 0 0 0 0 0 0
A: 17 0 0 0 0 0 0 0
B: 0 0 0 0 0 0 0 0
";
    assert_eq!(legal(before), ["A1>*"]);
    assert!(refused(before, "A1<").contains("3.5.2"));
    let played = play(before, "A1>*");
    assert_eq!(played.captures, 0);
    assert_position(
        &played.position,
        "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 14 16 16
a: 0 1 0 0 0 0 0 0
A: 2 1 2 0 2 0 2 0
B: 0 2 0 2 0 2 0 2
",
    );
}

#[test]
// spec: bao 1.6.2 type=test
fn c1_6_2_mtaji_kutakata_stops_in_the_owned_house() {
    // Mtaji, South's house still owned (no mtaji harvest yet) with 5. A3 right: A4 1, A5 6: stop.
    assert_position(
        &play(
            "
to_move: South
stores: 0 0
houses: owned lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 0 0 0 0 0
A: 0 0 2 0 5 0 0 0
B: 0 0 0 0 0 0 0 24
",
            "A3>*",
        )
        .position,
        "
to_move: North
stores: 0 0
houses: owned lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 0 0 0 0 0
A: 0 0 0 1 6 0 0 0
B: 0 0 0 0 0 0 0 24
",
    );
}

const FIRST_MTAJI_CAPTURE: &str = "
to_move: South
stores: 0 0
houses: owned owned
b: 0 0 0 0 0 0 16 16
a: 1 0 0 3 0 0 0 0
A: 0 2 0 1 5 0 0 0
B: 16 4 0 0 0 0 0 0
";

#[test]
// spec: bao 3.2 type=test
// spec: bao 4.2.1.1 type=test
fn c3_2_house_lost_at_first_mtaji_capture() {
    // A2 right: A3 1, A4 2; harvest a5 (North's house: emptied, lost). Default reading: the first
    // mtaji harvest also ends South's house. From A1: A1 1, A2 1, A3 2; kuendelea A4 3, A5 6;
    // A5 is no longer a house: kuendelea A6, A7, A8, B8, B7, B6 one each; B6 was empty.
    assert_position(
        &play(FIRST_MTAJI_CAPTURE, "A2>").position,
        "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 0 0 0 0 0
A: 1 1 0 3 0 1 1 1
B: 16 4 0 0 0 1 1 1
",
    );
    // The 'engines' reading keeps South's house: the capture move may stop there with six.
    assert_position(
        &play_with(Variant::ENGINES, FIRST_MTAJI_CAPTURE, "A2>").position,
        "
to_move: North
stores: 0 0
houses: owned lost
b: 0 0 0 0 0 0 16 16
a: 1 0 0 0 0 0 0 0
A: 1 1 0 3 6 0 0 0
B: 16 4 0 0 0 0 0 0
",
    );
}

// ---------------------------------------------------------------- end of the game

#[test]
// spec: bao 1.2.1 type=test
fn c1_2_1_emptying_the_front_row_ends_the_game_mid_move() {
    // A2 right: A3 1, A4 2; harvest a5 (1), North's last front seed. The seed is sown in A1 (2)
    // and the move stops there although kuendelea would go on: the game is over.
    let played = play(
        "
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 0 0 0 1 0 0 0 0
A: 1 2 0 1 0 0 0 0
B: 16 11 0 0 0 0 0 0
",
        "A2>",
    );
    assert_position(
        &played.position,
        "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 0 0 0 0 0 0 0 0
A: 2 0 1 2 0 0 0 0
B: 16 11 0 0 0 0 0 0
",
    );
    let outcome = Rules::default().outcome(&played.position).unwrap();
    assert_eq!((outcome.winner, outcome.clause), (Side::South, "1.2.1"));
}

#[test]
// spec: bao 1.2.1 type=test
fn c1_2_1_no_move_is_played_once_a_front_row_is_empty() {
    // The position the test above ends in, with South to move: North's front row is empty, so
    // the game is over (1.2.1) and South's moves from A1 (2 seeds) or A4 (2) are refused as such,
    // although either would be a kutakata on a board where the game went on.
    let over = pos("
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 0 0 0 0 0 0 0 0
A: 2 0 1 2 0 0 0 0
B: 16 11 0 0 0 0 0 0
");
    let rules = Rules::default();
    for mv in ["A1>", "A4<", "B1>"] {
        let text = mancala_lab::bao::MoveText::parse(mv).unwrap();
        assert!(
            matches!(
                rules.play_text(&over, &text),
                Err(IllegalMove::GameOver("1.2.1"))
            ),
            "{mv}: {:?}",
            rules.play_text(&over, &text)
        );
    }
}

#[test]
// spec: bao 1.2.2 type=test
fn c1_2_2_no_legal_move_loses() {
    // Kunamua; A3 (1) is kutakatia-ed and the house (6) may not start a kutakata while A3 is
    // filled; nothing can be captured. South cannot move and loses.
    let before = "
to_move: South
stores: 20 20
houses: owned owned
b: 0 0 0 0 0 0 0 9
a: 2 0 0 6 0 0 0 0
A: 0 0 1 0 6 0 0 0
B: 0 0 0 0 0 0 0 0
kutakatia: A3
";
    let rules = Rules::default();
    assert!(rules.legal_moves(&pos(before)).is_empty());
    let outcome = rules.outcome(&pos(before)).unwrap();
    assert_eq!((outcome.winner, outcome.clause), (Side::North, "1.2.2"));
}

#[test]
// spec: bao 3.3.2 type=test
fn c3_3_2_only_single_seeds_in_mtaji_loses() {
    let before = "
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 15 16 16
a: 1 0 0 0 0 0 0 0
A: 1 1 1 1 1 1 1 1
B: 1 1 1 1 1 1 1 1
";
    let outcome = Rules::default().outcome(&pos(before)).unwrap();
    assert_eq!((outcome.winner, outcome.clause), (Side::North, "3.3.2"));
}

// ---------------------------------------------------------------- kutakatia

const KUTAKATIA: &str = "
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 15 17
a: 0 0 0 0 0 1 1 0
A: 0 0 2 1 0 1 0 0
B: 26 0 0 0 0 0 0 0
";

const AFTER_KUTAKATIA: &str = "
to_move: North
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 15 17
a: 0 0 0 0 0 1 1 0
A: 0 0 0 2 1 1 0 0
B: 26 0 0 0 0 0 0 0
kutakatia: a3
";

#[test]
// spec: bao 5.1 type=test
// spec: bao N.4 type=test
fn c5_1_kutakata_leaving_one_threat_kutakatia_s_it() {
    // A3 right: A4 2, A5 1 (empty): end. North has no capture (singletons and piles of 15, 17
    // that end in the back row). South could now harvest exactly one North pit: A4 (2) right
    // ends in A6 (1) facing a3 (1). a3 is neither the only filled nor the only full front pit.
    let played = play(KUTAKATIA, "A3>**");
    assert_eq!(played.kind, MoveKind::Kutakatia);
    // How long the block lasts is unstated: the engine says the reading decided.
    assert_eq!(
        played
            .undefined
            .iter()
            .map(|u| u.clause)
            .collect::<Vec<_>>(),
        ["5.1"]
    );
    assert!(play(START, "A6<*").undefined.is_empty());
    assert_position(&played.position, AFTER_KUTAKATIA);
    // The mark is a result: writing '*' for this move is an error, as is '*' on a capture.
    assert!(refused(KUTAKATIA, "A3>*").contains("A3>**"));
    assert!(refused(AFTER_A6, "a6<*").contains("a6<"));
}

#[test]
// spec: bao 5.2 type=test
// spec: bao 1.6.3 type=test
fn c5_2_kuendelea_into_the_kutakatia_pit_ends_the_move() {
    // North b1 (17) '<' runs clockwise: one seed in each of North's 16 pits, the 17th in a1 (2);
    // kuendelea a2 3, a3 3. a3 is kutakatia-ed: the move ends there.
    assert_position(
        &play(AFTER_KUTAKATIA, "b1<*").position,
        "
to_move: South
stores: 0 0
houses: lost lost
b: 1 1 1 1 1 1 16 1
a: 1 1 1 1 1 3 3 0
A: 0 0 0 2 1 1 0 0
B: 26 0 0 0 0 0 0 0
",
    );
}

#[test]
// spec: bao 5.1.1.2 type=test
fn c5_1_1_2_only_occupied_front_pit_is_not_blocked() {
    let before = KUTAKATIA
        .replace("a: 0 0 0 0 0 1 1 0", "a: 0 0 0 0 0 1 0 0")
        .replace("15 17", "15 18");
    let played = play(&before, "A3>*");
    assert_eq!(played.kind, MoveKind::Kutakata);
    assert_eq!(played.position.blocked(), None);
}

#[test]
// spec: bao 5.1.1.3 type=test
fn c5_1_1_3_only_front_pit_with_two_is_not_blocked() {
    // a3 holds 2, a2 1: a3 is the only North front pit with more than one seed.
    let before = KUTAKATIA
        .replace("a: 0 0 0 0 0 1 1 0", "a: 0 0 0 0 0 2 1 0")
        .replace("15 17", "15 16");
    let played = play(&before, "A3>*");
    assert_eq!(played.kind, MoveKind::Kutakata);
    assert_eq!(played.position.blocked(), None);
}

const HOUSE_THREAT: &str = "
to_move: South
stores: 0 0
houses: lost owned
b: 0 0 0 0 0 0 16 16
a: 0 0 0 3 0 0 1 2
A: 0 2 0 0 0 2 0 0
B: 22 0 0 0 0 0 0 0
";

#[test]
// spec: bao 5.1.1.1 type=test
// spec: bao 4.2.3.1 type=test
fn c5_1_1_1_owned_house_is_not_blocked() {
    // A6 left: A5 1, A4 1 (empty): end. South's only threat: A2 (2) right ends in A4 (1) facing
    // North's owned house a5 (3). Default: an owned house is never kutakatia-ed.
    let expected = "
to_move: North
stores: 0 0
houses: lost owned
b: 0 0 0 0 0 0 16 16
a: 0 0 0 3 0 0 1 2
A: 0 2 0 1 1 0 0 0
B: 22 0 0 0 0 0 0 0
";
    let played = play(HOUSE_THREAT, "A6<*");
    assert_position(&played.position, expected);
    // 'engines' exempts the house only with six or more: a5 (3) is kutakatia-ed.
    let played = play_with(Variant::ENGINES, HOUSE_THREAT, "A6<**");
    assert_position(&played.position, &format!("{expected}kutakatia: a5\n"));
}

// ---------------------------------------------------------------- infinite moves

/// An independent model of a kutakata that only sows and continues (no harvest, no house, no
/// kutakatia), on one player's ring of 16 pits (A1..A8 = 0..7, B8..B1 = 8..15). Returns the final
/// ring, or `None` when the in-move state repeats (the move is infinite).
fn kuendelea_only(mut ring: [u8; 16], start: usize, step: usize) -> Option<[u8; 16]> {
    let mut seen = std::collections::HashSet::new();
    let mut pit = start;
    loop {
        let seeds = std::mem::take(&mut ring[pit]);
        for _ in 0..seeds {
            pit = (pit + step) % 16;
            ring[pit] += 1;
        }
        if ring[pit] == 1 {
            return Some(ring);
        }
        if !seen.insert((ring, pit)) {
            return None;
        }
    }
}

const INFINITE: &str = "
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 32 16
a: 0 0 0 0 0 0 0 1
A: 1 2 1 3 1 0 1 0
B: 0 1 2 1 0 1 0 1
";

#[test]
// spec: bao 1.5.6 type=test
fn c1_5_6_infinite_moves_are_illegal() {
    // South's 15 seeds on the ring; North's only front seed a1 faces the empty A8, so nothing is
    // ever harvested and the houses are lost: every move is pure kuendelea, which the small model
    // above decides independently of the engine. A4< (anticlockwise) comes back to a state it was
    // in (the model finds a cycle of 344 sowings), and so does A4>; A2 ends either way.
    let ring = [1, 2, 1, 3, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 1, 0];
    assert_eq!(kuendelea_only(ring, 3, 15), None);
    assert_eq!(kuendelea_only(ring, 3, 1), None);
    let finite = kuendelea_only(ring, 1, 1).expect("A2> ends");
    let rules = Rules::default();
    let why = refused(INFINITE, "A4<");
    assert!(why.contains("1.5.6"), "{why}");
    let played = rules
        .play(
            &pos(INFINITE),
            rules.resolve(&pos(INFINITE), &"A2>".parse_move()).unwrap(),
        )
        .unwrap();
    let engine_ring: Vec<u8> = mancala_lab::bao::Pit::all()
        .map(|p| played.position.board().get(Side::South, p))
        .collect();
    assert_eq!(engine_ring, finite.to_vec());
    assert_eq!(legal(INFINITE), ["A2<*", "A2>*"]);

    // The definition is a setting fixed for the game: every opening move sows 4 seeds (store seed
    // and 3), so under a limit of 2 none is finite and South, with no finite move, loses (1.5.6).
    let tight = Rules::new(Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(2)));
    assert_eq!(rules.legal_moves(&pos(START)).len(), 4);
    assert!(tight.legal_moves(&pos(START)).is_empty());
    assert_eq!(tight.outcome(&pos(START)).unwrap().clause, "1.5.6");
}

#[test]
// spec: bao 1.5.6 type=test
fn c1_5_6_an_infinite_house_play_is_counted_with_the_infinite_moves() {
    // Kunamua, South to move, South's house A5 owned with 8. Captures exist at A3 (a6 holds 4)
    // and A4 (a5 holds 1), so those are the starts (2.2.1); A2 is empty and captures nothing.
    // Counting the store seed: A4< and A4> sow 1 + 1. A3> sows 1 + 4 from A8 down to the house
    // (9 seeds, no harvest there), where South may stop (4.2.2.3.2): 5 seeds; playing the house
    // (A3>+) sows its 9 on from A4 to an empty B5: 14 seeds. A3< sows 1 + 4 from A1 to A4, harvests
    // a5's 1 (from A1: 1 seed), then relays 2 from A1, 4 from A3 and 3 from A7, ending in an empty
    // B7: 15 seeds. So under `sown:12` two moves are infinite (A3< and the house play A3>+), under
    // `sown:14` only A3<.
    let text = "
to_move: South
stores: 20 20
houses: owned lost
b: 0 0 0 0 0 0 0 0
a: 0 4 4 1 0 0 0 0
A: 0 0 1 3 8 1 2 0
B: 0 0 0 0 0 0 0 0
";
    let p = pos(text);
    let names = |rules: &Rules| {
        let (moves, infinite) = rules.legal_moves_and_infinite(&p);
        let names: Vec<String> = moves
            .iter()
            .map(|m| m.notation(Side::South, MoveKind::Capture))
            .collect();
        (names, infinite)
    };
    let limit = |n| Rules::new(Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(n)));
    assert_eq!(
        names(&limit(12)),
        (vec!["A3>".into(), "A4<".into(), "A4>".into()], 2)
    );
    assert_eq!(
        names(&limit(14)),
        (
            vec!["A3>".into(), "A3>+".into(), "A4<".into(), "A4>".into()],
            1
        )
    );
    assert_eq!(names(&Rules::default()).1, 0);
}

trait ParseMove {
    fn parse_move(&self) -> mancala_lab::bao::MoveText;
}

impl ParseMove for str {
    fn parse_move(&self) -> mancala_lab::bao::MoveText {
        mancala_lab::bao::MoveText::parse(self).unwrap()
    }
}
