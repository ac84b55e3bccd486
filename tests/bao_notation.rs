//! Notation and transcripts (spec: bao N.1–N.7) checked against positions worked by hand.

mod common;

use common::*;
use mancala_lab::bao::transcript::Transcript;
use mancala_lab::bao::{IllegalMove, MoveText, Position, Rules, Side};

#[test]
// spec: bao N.1 type=test
fn n1_moves_name_row_and_pit_of_the_mover() {
    let rules = Rules::default();
    let start = Position::start();
    let mv = rules
        .resolve(&start, &MoveText::parse("A6<").unwrap())
        .unwrap();
    assert_eq!(rules.notation(&start, mv).unwrap(), "A6<*");
    // North's row letters are lower case; South may not name them.
    let err = rules
        .resolve(&start, &MoveText::parse("a6<").unwrap())
        .unwrap_err();
    assert!(matches!(err, IllegalMove::WrongSide(_)), "{err}");
    // Canonical printing of every legal move parses back to the same move.
    for p in [start.clone(), pos(AFTER_A6)] {
        for mv in rules.legal_moves(&p) {
            let text = rules.notation(&p, mv).unwrap();
            let back = rules.resolve(&p, &MoveText::parse(&text).unwrap()).unwrap();
            assert_eq!(back, mv, "{text}");
        }
    }
}

#[test]
// spec: bao N.5 type=test
fn n5_omitted_row_and_direction() {
    let rules = Rules::default();
    // Kunamua: "6<" is South's A6<.
    let start = Position::start();
    let short = rules
        .resolve(&start, &MoveText::parse("6<").unwrap())
        .unwrap();
    let full = rules
        .resolve(&start, &MoveText::parse("A6<").unwrap())
        .unwrap();
    assert_eq!(short, full);
    // A capture at the kimbi A2 may leave out the direction: only A2< is legal (A2<+ has '+').
    let kimbi = pos(KIMBI);
    let mv = rules
        .resolve(&kimbi, &MoveText::parse("A2").unwrap())
        .unwrap();
    assert_eq!(rules.notation(&kimbi, mv).unwrap(), "A2<");
    // Where both directions are legal, leaving it out is ambiguous.
    let err = rules
        .resolve(&pos(AFTER_A6), &MoveText::parse("a6").unwrap())
        .unwrap_err();
    assert!(matches!(err, IllegalMove::Ambiguous { .. }), "{err}");
    // Where no legal move matches, leaving out the direction is not ambiguous: the move is refused
    // for what it is. A1 is empty at the start (2.2.1, 2.3).
    let err = rules
        .play_text(&start, &MoveText::parse("A1").unwrap())
        .unwrap_err();
    assert!(!matches!(err, IllegalMove::Ambiguous { .. }), "{err}");
    assert!(err.to_string().starts_with("A1 is empty"), "{err}");
    // In mtaji the row is required.
    let mtaji = pos("
to_move: South
stores: 0 0
houses: lost lost
b: 0 0 0 0 0 0 16 16
a: 0 0 0 0 0 0 0 1
A: 0 0 2 0 1 0 0 0
B: 0 0 3 0 0 0 0 25
");
    let err = rules
        .resolve(&mtaji, &MoveText::parse("3>").unwrap())
        .unwrap_err();
    assert_eq!(err, IllegalMove::RowNeeded);
}

#[test]
// spec: bao N.7 type=test
fn n7_transcript_replays_from_the_start() {
    // 1. A6<* (worked in the rules tests), then North a6< harvests A3's seed into a1.
    let t = Transcript::parse("Event: test game\n1: A6<* a6<; North harvests at once\n").unwrap();
    assert_eq!(t.headers, [("Event".to_string(), "test game".to_string())]);
    let rules = Rules::default();
    let mut p = Position::start();
    for ply in &t.plies {
        p = rules.play_text(&p, &ply.text).unwrap().1.position;
    }
    assert_position(
        &p,
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
    assert_eq!(t.plies[1].side, Side::North);
    // The second ply of move 2 is where an error would be reported.
    let t = Transcript::parse("1: A6<* a6<;\n2: A7>* a9<;\n").unwrap_err();
    assert_eq!((t.line, t.column), (2, 10));
}

/// A move with more after its last valid character says what could have come there (worked by
/// hand from N.1–N.4: the pit, then an optional direction, '+', and at most two '*').
#[test]
// spec: bao N.4 type=test
fn a_move_with_more_after_it_says_what_could_come_there() {
    for (text, column, expected) in [
        ("A1x", 3, "'<', '>', '+', '*' or the end of the move"),
        ("A1<x", 4, "'+', '*' or the end of the move"),
        ("A1+x", 4, "'*' or the end of the move"),
        ("A1<+x", 5, "'*' or the end of the move"),
        ("A1<*x", 5, "a second '*' or the end of the move"),
        ("A1<**x", 6, "the end of the move"),
        ("A1<***", 6, "the end of the move"),
    ] {
        let e = MoveText::parse(text).unwrap_err();
        assert_eq!((e.column, e.expected), (column, expected), "{text}");
    }
}

/// Positions that no game reaches are refused: stores that do not fit the player to move, and a
/// kutakatia-ed pit outside the front row (N.7, 2.1, 5.1).
#[test]
// spec: bao 2.1.1 type=test
// spec: bao 5.1 type=test
fn impossible_stores_and_kutakatia_pits_are_refused() {
    use mancala_lab::bao::position_text::parse;
    // North to move: South has used one store seed more than North (north = south + 1), or both
    // stores are empty (mtaji). 3 / 0 is neither. 61 seeds on the board, 3 in the stores.
    let stores = "to_move: North\nstores: 3 0\nhouses: lost lost\n\
                  b: 4 4 4 4 4 2 0 0\na: 1 1 1 1 1 1 1 1\n\
                  A: 1 1 1 1 1 1 1 1\nB: 4 4 4 4 4 3 0 0\n";
    let e = parse(stores).unwrap_err().to_string();
    assert!(e.contains("cannot occur with North to move"), "{e}");
    // The same with 1 / 2 (North one more than South) is a position a game reaches.
    let fine = stores.replace("stores: 3 0", "stores: 1 2");
    assert!(parse(&fine).is_ok(), "{:?}", parse(&fine));
    // A kutakatia-ed pit is a front pit (5.1): B2, in the back row, is refused though it holds seeds.
    let mtaji = "to_move: South\nstores: 0 0\nhouses: lost lost\n\
                 b: 2 2 2 2 2 2 2 2\na: 2 2 2 2 2 2 2 2\n\
                 A: 2 2 2 2 2 2 2 2\nB: 2 2 2 2 2 2 2 2\n";
    assert!(parse(mtaji).is_ok());
    let e = parse(&format!("{mtaji}kutakatia: B2\n"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("must be a non-empty front-row pit"), "{e}");
    assert!(parse(&format!("{mtaji}kutakatia: A2\n")).is_ok());
}

/// Where the position text's errors point, and the `kutakatia` line (N.7 positions; columns
/// counted by hand on each line as written, from 1).
#[test]
// spec: bao 5.1 type=test
fn position_text_errors_point_at_their_column_and_kutakatia_none_is_no_block() {
    use mancala_lab::bao::position_text::{parse, PositionTextError};
    let start = include_str!("examples/bao-start.txt");
    let at = |text: &str| match parse(text).unwrap_err() {
        PositionTextError::Syntax { line, column, .. } => (line, column),
        e => panic!("{e}"),
    };
    // An unknown key or a line without a colon: the first character after the indentation.
    assert_eq!(at(&format!("  bogus: 1\n{start}")), (1, 3));
    // Columns count characters: two no-break spaces (two bytes each) are two columns.
    assert_eq!(at(&format!("\u{a0}\u{a0}bogus: 1\n{start}")), (1, 3));
    assert_eq!(at(&format!("{start}   nocolon\n")), (8, 4));
    // Too few counts on a row: one past the line's last character ("b: 0 0 0" has 8).
    let short = start.replace("b: 0 0 0 0 0 0 0 0", "b: 0 0 0");
    assert_eq!(at(&short), (4, 9));
    // `kutakatia: none` says no pit is blocked.
    assert_eq!(
        parse(&format!("{start}kutakatia: none\n")).unwrap(),
        Position::start()
    );
    // A back-row pit of the player to move is a pit, but no kutakatia-ed one (5.1): b2 for
    // North as B2 for South.
    let north = "to_move: North\nstores: 0 0\nhouses: lost lost\n\
                 b: 2 2 2 2 2 2 2 2\na: 2 2 2 2 2 2 2 2\n\
                 A: 2 2 2 2 2 2 2 2\nB: 2 2 2 2 2 2 2 2\n";
    let e = parse(&format!("{north}kutakatia: b2\n"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("must be a non-empty front-row pit"), "{e}");
}
