//! Whole-game properties of the Oware engine under both readings: 48 seeds conserved, legal moves
//! empty exactly when the game is over, every listed move plays, and games end.

use mancala_lab::oware::{Rules, Side, Variant};
use proptest::prelude::*;

fn check_game(rules: &Rules, bytes: &[u8], max_plies: usize) -> usize {
    let mut g = rules.new_game();
    for (ply, &b) in bytes.iter().cycle().take(max_plies).enumerate() {
        let moves = rules.legal_moves(&g);
        assert_eq!(moves.is_empty(), g.outcome().is_some(), "ply {ply}");
        if moves.is_empty() {
            let out = g.outcome().unwrap();
            let p = g.position();
            assert_eq!(out.scores, [p.score(Side::South), p.score(Side::North)]);
            return ply;
        }
        for &m in &moves {
            rules.play(&g, m).expect("every listed move plays");
        }
        let mover = g.position().to_move();
        g = rules
            .play(&g, moves[usize::from(b) % moves.len()])
            .unwrap()
            .game;
        let p = g.position();
        let total: u32 = p.pits().iter().map(|&s| u32::from(s)).sum::<u32>()
            + u32::from(p.score(Side::South))
            + u32::from(p.score(Side::North));
        assert_eq!(total, 48, "ply {ply}");
        if g.outcome().is_none() {
            assert_eq!(p.to_move(), mover.opponent());
            // O.4.1: the player to move always has seeds to play.
            assert!(p.row_seeds(p.to_move()) > 0, "ply {ply}");
        }
    }
    max_plies
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_games_end_with_seeds_conserved(bytes in proptest::collection::vec(any::<u8>(), 1..300)) {
        for variant in [Variant::SHEET, Variant::ABAPA] {
            let plies = check_game(&Rules::new(variant), &bytes, 20_000);
            prop_assert!(plies < 20_000, "game did not end");
        }
    }
}
