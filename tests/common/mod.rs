//! Helpers for the Bao rule tests: positions from text, and whole-position comparison.
#![allow(dead_code)]

use mancala_lab::bao::position_text;
use mancala_lab::bao::{MoveKind, MoveText, Played, Position, Rules, Variant};

/// A position from the text format; panics with the parser's message on a typo in a test.
pub fn pos(text: &str) -> Position {
    position_text::parse(text).unwrap_or_else(|e| panic!("bad test position: {e}\n{text}"))
}

/// Plays `mv` (notation) under `variant`, panicking with the reason when it is illegal.
pub fn play_with(variant: Variant, before: &str, mv: &str) -> Played {
    let rules = Rules::new(variant);
    let text = MoveText::parse(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    rules
        .play_text(&pos(before), &text)
        .unwrap_or_else(|e| panic!("{mv} should be legal: {e}"))
        .1
}

/// Plays `mv` under the default reading.
pub fn play(before: &str, mv: &str) -> Played {
    play_with(Variant::DEFAULT, before, mv)
}

/// Asserts the whole position equals the expected text (compared in canonical form).
pub fn assert_position(actual: &Position, expected: &str) {
    let expected = pos(expected);
    assert_eq!(
        position_text::print(actual),
        position_text::print(&expected),
        "resulting position differs"
    );
}

/// The error text when `mv` is refused, or a panic if it is legal.
pub fn refused(before: &str, mv: &str) -> String {
    let rules = Rules::default();
    let text = MoveText::parse(mv).unwrap();
    match rules.play_text(&pos(before), &text) {
        Ok(_) => panic!("{mv} should be illegal"),
        Err(e) => e.to_string(),
    }
}

/// The legal moves in canonical notation with their `*`/`**` marks.
pub fn legal(before: &str) -> Vec<String> {
    legal_with(Variant::DEFAULT, before)
}

/// The legal moves under `variant`, in canonical notation.
pub fn legal_with(variant: Variant, before: &str) -> Vec<String> {
    let rules = Rules::new(variant);
    let p = pos(before);
    rules
        .legal_moves(&p)
        .into_iter()
        .map(|m| rules.notation(&p, m).unwrap())
        .collect()
}

/// The legal moves without their marks (pit, direction and `+` only).
pub fn legal_plain(before: &str) -> Vec<String> {
    let p = pos(before);
    Rules::default()
        .legal_moves(&p)
        .into_iter()
        .map(|m| m.notation(p.to_move(), MoveKind::Capture))
        .collect()
}

/// The clause ids of a move's trace, in order.
pub fn clauses(played: &Played) -> Vec<&'static str> {
    played.trace.iter().map(|s| s.clause).collect()
}

/// The start position, as text.
pub const START: &str = "
to_move: South
stores: 22 22
houses: owned owned
b: 0 0 0 0 0 0 0 0
a: 0 2 2 6 0 0 0 0
A: 0 0 0 0 6 2 2 0
B: 0 0 0 0 0 0 0 0
";

/// After 1. A6<*: North to move, a5 faces A4 (1) and a6 faces A3 (1).
pub const AFTER_A6: &str = "
to_move: North
stores: 21 22
houses: owned owned
b: 0 0 0 0 0 0 0 0
a: 0 2 2 6 0 0 0 0
A: 0 0 1 1 7 0 2 0
B: 0 0 0 0 0 0 0 0
";

/// Kunamua, South to move: A2 (1) faces a7 (2); the house A5 holds 5.
pub const KIMBI: &str = "
to_move: South
stores: 20 20
houses: owned owned
b: 0 0 0 0 9 0 0 0
a: 0 2 0 6 0 0 0 0
A: 0 1 0 1 5 0 0 0
B: 0 0 0 0 0 0 0 0
";
