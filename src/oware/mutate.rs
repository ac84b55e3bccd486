//! Random valid Oware positions for differential testing: start from a reachable position and apply
//! small random changes that keep the 48 seeds, so rare rule situations come up often.

use rand::Rng;

use super::position::Position;
use super::rules::Rules;
use crate::side::Side;
use crate::walk::random_prefix;

/// A reachable position (0–59 random plies from the start under `rules`) changed by `steps` random
/// valid mutations.
pub fn mutated_start<R: Rng>(rules: &Rules, steps: usize, rng: &mut R) -> Position {
    let g = random_prefix(
        rules.new_game(),
        60,
        |g| rules.legal_moves(g),
        |g, mv| rules.play(g, mv).ok().map(|played| played.game),
        rng,
    );
    mutate(g.position(), steps, rng)
}

/// Applies `steps` random valid mutations to `pos`: a seed moved between two pits, a seed moved
/// between a pit and a score (scores stay at most 24), or the mover changed.
pub fn mutate<R: Rng>(pos: &Position, steps: usize, rng: &mut R) -> Position {
    let (mut pits, mut scores, mut to_move) = (
        pos.pits(),
        [pos.score(Side::South), pos.score(Side::North)],
        pos.to_move(),
    );
    for _ in 0..steps {
        let from = rng.gen_range(0..12);
        match rng.gen_range(0..5) {
            0..=2 => {
                if pits[from] > 0 {
                    pits[from] -= 1;
                    pits[rng.gen_range(0..12)] += 1;
                }
            }
            3 => {
                let who = rng.gen_range(0..2);
                if rng.gen_bool(0.5) && scores[who] > 0 {
                    scores[who] -= 1;
                    pits[from] += 1;
                } else if pits[from] > 0 && scores[who] < 24 {
                    pits[from] -= 1;
                    scores[who] += 1;
                }
            }
            _ => to_move = to_move.opponent(),
        }
    }
    Position::new(pits, scores, to_move).expect("every mutation keeps the 48 seeds")
}
