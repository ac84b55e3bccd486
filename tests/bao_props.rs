//! Whole-game properties of the reference engine: seeds are conserved, positions stay valid, every
//! listed move plays, turns alternate, and games end. Driven by byte streams (each byte picks
//! `legal[b % len]`) with proptest, and by fixed seeds with exact infinite-move detection.

use mancala_lab::bao::variant::InfiniteMoves;
use mancala_lab::bao::{Pit, Position, Rules, Side, Variant};
use proptest::prelude::*;

/// Plays the game the bytes choose, checking the invariants after every ply; returns plies played.
fn check_game(rules: &Rules, bytes: &[u8], max_plies: usize) -> usize {
    let mut pos = Position::start();
    for (ply, &b) in bytes.iter().cycle().take(max_plies).enumerate() {
        let moves = rules.legal_moves(&pos);
        // Legal moves are empty exactly when the game is over (1.2).
        assert_eq!(
            moves.is_empty(),
            rules.outcome(&pos).is_some(),
            "at ply {ply}"
        );
        if moves.is_empty() {
            return ply;
        }
        for &mv in &moves {
            rules.play(&pos, mv).expect("every listed move plays");
        }
        let mover = pos.to_move();
        let played = rules
            .play(&pos, moves[usize::from(b) % moves.len()])
            .unwrap();
        let next = played.position;
        let total =
            next.board().total() + u32::from(next.store(Side::South) + next.store(Side::North));
        assert_eq!(total, 64, "seeds conserved at ply {ply}");
        assert!(
            Position::from_setup(next.to_setup()).is_ok(),
            "valid at ply {ply}"
        );
        assert_eq!(next.to_move(), mover.opponent());
        // A player never empties his own front row (1.5.3.1 forbids the only way to do it).
        assert!(
            Pit::front_row().any(|p| next.board().get(mover, p) > 0),
            "ply {ply}"
        );
        pos = next;
    }
    max_plies
}

fn limited() -> Rules {
    Rules::new(Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(5_000)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_games_keep_the_invariants_and_end(bytes in proptest::collection::vec(any::<u8>(), 1..200)) {
        // A sowing limit keeps each case fast: exact detection can need 10^8 sowings (spec 1.5.6).
        let plies = check_game(&limited(), &bytes, 3000);
        prop_assert!(plies < 3000, "game did not end");
    }
}

#[test]
fn seeded_games_with_exact_detection_keep_the_invariants() {
    let rules = Rules::default();
    for i in 0..40u8 {
        let bytes: Vec<u8> = (0..97u32)
            .map(|k| (k * 31 + u32::from(i) * 7) as u8)
            .collect();
        let plies = check_game(&rules, &bytes, 3000);
        assert!(plies < 3000);
    }
}
