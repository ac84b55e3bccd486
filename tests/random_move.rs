//! The optimized Bao engine's lazy random move (used by its playouts) against its full legal-move
//! list: every draw is a listed move giving the same position, and the draw is uniform.

use mancala_lab::bao::fast::{FastPos, FastRules};
use mancala_lab::bao::variant::{InfiniteMoves, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Positions met in a few random games (moves drawn from the full list).
fn positions(rules: &FastRules, games: u64) -> Vec<FastPos> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(g);
        let mut p = FastRules::start();
        for _ in 0..120 {
            out.push(p);
            let list = rules.legal_moves(&p);
            if list.len == 0 {
                break;
            }
            p = rules.play(&p, list.moves[rng.gen_range(0..list.len)]).0;
        }
    }
    out
}

fn readings() -> Vec<Variant> {
    vec![
        Variant::DEFAULT,
        Variant::ENGINES,
        // A small cut-off makes many moves "infinite", so striking off is exercised often.
        Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(12)),
    ]
}

#[test]
fn every_draw_is_a_listed_move_and_plays_the_same() {
    for v in readings() {
        let rules = FastRules::new(v).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let (mut drawn, mut none) = (0, 0);
        for p in positions(&rules, 30) {
            let list = rules.legal_moves(&p);
            let legal = &list.moves[..list.len];
            for _ in 0..3 {
                match rules.random_move(&p, &mut rng) {
                    Some((mv, next)) => {
                        assert!(legal.contains(&mv), "{v:?}: {mv} not in {legal:?} at {p:?}");
                        assert_eq!(next, rules.play(&p, mv).0, "{v:?}: {mv} at {p:?}");
                        drawn += 1;
                    }
                    None => {
                        assert!(legal.is_empty(), "{v:?}: no draw but {legal:?} at {p:?}");
                        none += 1;
                    }
                }
            }
        }
        assert!(
            drawn > 1000 && none > 0,
            "{v:?}: {drawn} draws, {none} ends"
        );
    }
}

/// Upper 1e-6 point of the chi-square distribution (Wilson–Hilferty approximation).
fn chi2_bound(df: f64) -> f64 {
    let z = 4.75;
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

#[test]
fn draws_are_uniform_over_the_legal_moves() {
    let mut tested = 0;
    let mut with_plus = 0;
    for v in readings() {
        let rules = FastRules::new(v).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for p in positions(&rules, 12).into_iter().step_by(7) {
            let list = rules.legal_moves(&p);
            let legal = &list.moves[..list.len];
            if legal.len() < 2 {
                continue;
            }
            let draws = 400 * legal.len();
            let mut counts = vec![0f64; legal.len()];
            for _ in 0..draws {
                let (mv, _) = rules.random_move(&p, &mut rng).unwrap();
                counts[legal.iter().position(|&m| m == mv).unwrap()] += 1.0;
            }
            let expected = draws as f64 / legal.len() as f64;
            let chi2: f64 = counts
                .iter()
                .map(|c| (c - expected).powi(2) / expected)
                .sum();
            let df = (legal.len() - 1) as f64;
            assert!(
                chi2 < chi2_bound(df),
                "{v:?}: chi2 {chi2:.1} over {df} df at {p:?}: {counts:?} for {legal:?}"
            );
            tested += 1;
            with_plus += usize::from(legal.iter().any(|&m| m & mancala_lab::bao::fast::PLUS != 0));
        }
    }
    assert!(tested > 50, "{tested} positions");
    // Positions where a start gives two moves (with and without `+`) are the delicate case.
    assert!(
        with_plus > 0,
        "no house decision among the tested positions"
    );
}

/// Random reachable positions changed by a few mutations (house ownership, stores, blocked pits,
/// seeds moved), so rare start rules (taxing the house, a lone filled pit) come up.
fn mutated_positions(v: Variant, count: u64) -> Vec<FastPos> {
    let rules = mancala_lab::bao::Rules::new(v);
    (0..count)
        .map(|i| {
            let mut rng = ChaCha8Rng::seed_from_u64(1000 + i);
            let p = mancala_lab::bao::mutate::mutated_start(&rules, 6, &mut rng);
            mancala_lab::bao::engines::to_fast(&p)
        })
        .collect()
}

/// Draws from `p` until every legal move has had 60 chances (one is missed with probability below
/// 1e-26) and checks the moves drawn are exactly the legal ones.
fn assert_draws_are_the_legal_moves(
    rules: &FastRules,
    p: &FastPos,
    rng: &mut ChaCha8Rng,
    v: Variant,
) {
    let list = rules.legal_moves(p);
    let mut legal: Vec<u8> = list.moves[..list.len].to_vec();
    legal.sort_unstable();
    let mut drawn = Vec::new();
    for _ in 0..60 * legal.len().max(1) {
        match rules.random_move(p, rng) {
            Some((mv, _)) => drawn.push(mv),
            None => break,
        }
    }
    drawn.sort_unstable();
    drawn.dedup();
    assert_eq!(drawn, legal, "{v:?}: draws vs legal moves at {p:?}");
}

#[test]
fn every_legal_move_can_be_drawn() {
    let mut compared = 0;
    for v in readings() {
        let rules = FastRules::new(v).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut ps = positions(&rules, 20);
        ps.extend(mutated_positions(v, 400));
        for p in ps {
            assert_draws_are_the_legal_moves(&rules, &p, &mut rng, v);
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared} positions");
}

/// Positions whose front row holds one filled pit (ring 0, the house or ring 7), in both stages,
/// with and without the house: the lone-pit and house-tax rules of the starts.
fn lone_pit_positions() -> Vec<FastPos> {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut out = Vec::new();
    for to_move in 0..2u8 {
        for ring in [0usize, 4, 7] {
            for seeds in [1u8, 2, 3, 6, 9] {
                for store in [0u8, 4] {
                    for houses in [0u8, 3] {
                        for _ in 0..4 {
                            let mut b = [0u8; 32];
                            let me = usize::from(to_move) * 16;
                            let them = 16 - me;
                            b[me + ring] = seeds;
                            for r in 8..16 {
                                b[me + r] = rng.gen_range(0..3);
                            }
                            for r in 0..16 {
                                b[them + r] = rng.gen_range(0..3);
                            }
                            b[them + rng.gen_range(0..8)] += 1;
                            let stores = if to_move == 0 { [store, 0] } else { [0, store] };
                            let blocked = match rng.gen_range(0..4) {
                                0 => ring as u8,
                                1 => rng.gen_range(0..16),
                                _ => mancala_lab::bao::fast::NO_PIT,
                            };
                            out.push(FastPos {
                                pits: b,
                                stores,
                                houses,
                                to_move,
                                blocked,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn lone_pit_and_house_starts_are_drawn_exactly() {
    for v in readings() {
        let rules = FastRules::new(v).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        for p in lone_pit_positions() {
            assert_draws_are_the_legal_moves(&rules, &p, &mut rng, v);
        }
    }
}

/// `random_playout` carries each position's harvesting starts over from the move that reached it;
/// the games must be those of `random_move_with` from scratch each ply, with the same draws.
#[test]
fn playouts_match_move_by_move_draws() {
    use mancala_lab::bao::fast::FastState;
    use mancala_lab::game::{game_keys, Draw};
    for v in readings() {
        let rules = FastRules::new(v).unwrap();
        let mut plies = 0;
        for g in 0..300u64 {
            let keys = game_keys(5, g);
            let played = rules.random_playout(keys, 2000);
            let mut p = FastRules::start();
            let mut ply = 0;
            let winner = loop {
                if ply == 2000 {
                    break 2;
                }
                let draw = Draw::new(keys, ply);
                match rules.random_move_with(&FastState::new(p), |n, a| draw.below(n, a)) {
                    Some((_, next)) => p = next.state.pos,
                    None => break rules.outcome(&p).map_or(2, |o| o.winner),
                }
                ply += 1;
            };
            assert_eq!(played, (ply, winner), "{v:?}: game {g}");
            plies += ply;
        }
        assert!(plies > 10_000, "{v:?}: {plies} plies");
    }
}
