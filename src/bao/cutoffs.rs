//! Bao's infinite-move cut-off study (`mancala-lab bao cutoffs`): per random game, what a
//! seed-count cut-off needs to know under exact detection of infinite moves.

use crate::game::{game_keys, Draw, Game};

use super::{Position, Rules};

/// Per game, for the cut-off study: the most seeds any legal (finite) move sowed at any position,
/// and how many candidate moves were infinite, under exact detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutoffRecord {
    /// The largest `sown` of a legal move offered anywhere in the game.
    pub longest_legal_move: u32,
    /// Candidate moves refused as infinite over the game.
    pub infinite_candidates: u32,
    /// Plies played.
    pub plies: u32,
}

/// Plays random Bao game `index` with exact detection, recording what a seed-count cut-off needs;
/// the moves are those of the stats job's random game `index`.
pub fn cutoff_game(rules: &Rules, seed: u64, index: u64, max_plies: u32) -> CutoffRecord {
    let keys = game_keys(seed, index);
    let mut rec = CutoffRecord {
        longest_legal_move: 0,
        infinite_candidates: 0,
        plies: 0,
    };
    let mut pos = Position::start();
    while rec.plies < max_plies {
        let (moves, infinite) = rules.legal_moves_and_infinite(&pos);
        rec.infinite_candidates += infinite as u32;
        for &m in &moves {
            let sown = rules.play(&pos, m).map_or(0, |p| p.sown);
            rec.longest_legal_move = rec.longest_legal_move.max(sown);
        }
        match rules.play_random(&mut pos, Draw::new(keys, rec.plies)) {
            Some(Ok(_)) => {}
            _ => break,
        }
        rec.plies += 1;
    }
    rec
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutoff_study_replays_the_stats_games() {
        // Same draws, same random choices: the same games, and the longest move offered is at
        // least the longest move played.
        let rules = Rules::default();
        for i in 0..20 {
            let (row, _) =
                crate::playout::play_game(&rules, crate::policy::Policy::Random, 4, i, 2000);
            let rec = cutoff_game(&rules, 4, i, 2000);
            assert_eq!(rec.plies, row.plies, "game {i}");
            assert!(rec.longest_legal_move >= row.longest_move_seeds, "game {i}");
        }
    }
}
