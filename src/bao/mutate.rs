//! Random valid Bao positions for differential testing: start from a reachable position and apply
//! small random changes that keep every invariant, so rare rule situations come up often.

use rand::Rng;

use super::board::{Pit, Row, Side};
use super::position::{Position, Setup};
use super::rules::Rules;
use crate::walk::random_prefix;

/// A reachable position (0–59 random plies from the start under `rules`) changed by `steps` random
/// valid mutations.
pub fn mutated_start<R: Rng>(rules: &Rules, steps: usize, rng: &mut R) -> Position {
    let p = random_prefix(
        Position::start(),
        60,
        |p| rules.legal_moves(p),
        |p, mv| rules.play(p, mv).ok().map(|played| played.position),
        rng,
    );
    mutate(&p, steps, rng)
}

/// Applies `steps` random valid mutations to `pos`: seeds moved between pits, seeds moved between
/// a store and the board (kunamua), house ownership flipped, a kutakatia mark set or cleared.
pub fn mutate<R: Rng>(pos: &Position, steps: usize, rng: &mut R) -> Position {
    let mut current = pos.clone();
    for _ in 0..steps {
        let mut s: Setup = current.to_setup();
        let side = if rng.gen_bool(0.5) {
            Side::South
        } else {
            Side::North
        };
        let pit = Pit::from_ring(rng.gen_range(0..16));
        match rng.gen_range(0..6) {
            0..=2 => {
                // Move one seed from a non-empty pit to another pit of either side.
                if s.board.get(side, pit) > 0 {
                    let to_side = if rng.gen_bool(0.5) {
                        Side::South
                    } else {
                        Side::North
                    };
                    let to = Pit::from_ring(rng.gen_range(0..16));
                    s.board.set(side, pit, s.board.get(side, pit) - 1);
                    s.board.add_one(to_side, to);
                }
            }
            3 => {
                // Flip a house (an owned house must hold seeds).
                let i = side.index();
                s.house_owned[i] = !s.house_owned[i];
            }
            4 => {
                // Set or clear the kutakatia mark of the player to move.
                s.blocked = if s.blocked.is_some() || pit.row() == Row::Back {
                    None
                } else {
                    Some(pit)
                };
            }
            _ => {
                // Move a seed between both stores and the board, keeping their difference.
                if s.stores[0] > 0 && s.stores[1] > 0 && rng.gen_bool(0.5) {
                    s.stores[0] -= 1;
                    s.stores[1] -= 1;
                    s.board.add_one(side, pit);
                    s.board
                        .add_one(side.opponent(), Pit::from_ring(rng.gen_range(0..16)));
                }
            }
        }
        if let Ok(p) = Position::from_setup(s) {
            current = p;
        }
    }
    current
}
