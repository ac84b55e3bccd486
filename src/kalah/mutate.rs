//! Random valid Kalah positions for differential testing: a reachable position changed by small
//! random steps that keep the reading's seeds, so that rare rule situations come up often.

use rand::Rng;

use super::position::Position;
use super::rules::Rules;
use super::Side;
use crate::walk::random_prefix;

/// A reachable position (0–39 random plies from the start under `rules`) changed by `steps`
/// random valid mutations.
pub fn mutated_start<R: Rng>(rules: &Rules, steps: usize, rng: &mut R) -> Position {
    let state = random_prefix(
        rules.new_game(),
        40,
        |s| rules.legal_moves(s),
        |s, mv| rules.play(s, mv).ok().map(|played| played.state),
        rng,
    );
    mutate(rules, state.position(), steps, rng)
}

/// Applies `steps` random valid mutations to `pos`: a seed moved between two pits, a seed moved
/// between a pit and a store, or the mover changed. The seed count stays the reading's.
pub fn mutate<R: Rng>(rules: &Rules, pos: &Position, steps: usize, rng: &mut R) -> Position {
    let m = usize::from(pos.pits());
    // Pits 0..m South's, m..2m North's, each from its owner's left.
    let mut pits: Vec<u8> = Side::BOTH
        .iter()
        .flat_map(|&side| pos.row(side).to_vec())
        .collect();
    let mut stores = Side::BOTH.map(|side| pos.store(side));
    let mut to_move = pos.to_move();
    for _ in 0..steps {
        let from = rng.gen_range(0..2 * m);
        match rng.gen_range(0..5) {
            0..=2 => {
                if pits[from] > 0 {
                    pits[from] -= 1;
                    pits[rng.gen_range(0..2 * m)] += 1;
                }
            }
            3 => {
                let who = rng.gen_range(0..2);
                if rng.gen_bool(0.5) && stores[who] > 0 {
                    stores[who] -= 1;
                    pits[from] += 1;
                } else if pits[from] > 0 {
                    pits[from] -= 1;
                    stores[who] += 1;
                }
            }
            _ => to_move = to_move.opponent(),
        }
    }
    Position::new(&pits[..m], &pits[m..], stores, to_move, &rules.variant)
        .expect("every mutation keeps the reading's seeds")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::Variant;
    use rand::SeedableRng;

    #[test]
    fn mutated_positions_keep_the_board_and_the_seeds() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for (pits, seeds) in [(6, 4), (1, 1), (3, 5)] {
            let variant = Variant {
                pits,
                seeds,
                ..Variant::OPENSPIEL
            };
            let rules = Rules::new(variant);
            let mut changed = 0;
            for _ in 0..200 {
                let p = mutated_start(&rules, 8, &mut rng);
                let text = p.to_string();
                assert_eq!(Position::parse(&text, &variant).unwrap(), p, "{text}");
                changed += usize::from(p != Position::start(&variant));
            }
            assert!(changed > 150, "Kalah({pits},{seeds}): {changed}");
        }
    }
}
