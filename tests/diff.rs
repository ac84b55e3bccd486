//! The differential checker run in CI: reference and optimized engines in lock step on seeded
//! games, on byte streams (proptest), and from randomly mutated positions; and a check that the
//! checker does catch a real difference.

use mancala_lab::bao::engines as bao;
use mancala_lab::bao::mutate::mutated_start;
use mancala_lab::bao::variant::{InfiniteMoves, Variant};
use mancala_lab::bao::{position_text, Rules};
use mancala_lab::diff::lockstep;
use mancala_lab::engine::Engine;
use mancala_lab::oware::engines as oware;
use proptest::prelude::*;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn bytes(seed: u64, index: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let mut b = vec![0u8; 512];
    rng.fill_bytes(&mut b);
    b
}

/// The default Bao reading with moves bounded at 3,000 seeds sown (exact proofs can take seconds).
fn sown3000() -> Variant {
    Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(3000))
}

/// Both Bao engines under [`sown3000`].
fn bao_pair_sown3000() -> (bao::Reference, bao::Optimized) {
    let v = sown3000();
    (
        bao::Reference::with(v, "sown3000"),
        bao::Optimized::with(v, "sown3000").unwrap(),
    )
}

fn run<A: Engine, B: Engine>(a: &A, b: &B, games: u64) {
    for i in 0..games {
        if let Err(d) = lockstep(a, b, a.start(), b.start(), &bytes(11, i), 1000) {
            panic!("game {i}:\n{d}");
        }
    }
}

#[test]
fn oware_engines_agree_on_seeded_games() {
    for preset in ["sheet", "abapa"] {
        run(
            &oware::Reference::new(preset).unwrap(),
            &oware::Optimized::new(preset).unwrap(),
            400,
        );
    }
}

#[test]
fn bao_engines_agree_on_seeded_games_with_exact_detection() {
    for preset in ["default", "literal-en", "engines"] {
        run(
            &bao::Reference::new(preset).unwrap(),
            &bao::Optimized::new(preset).unwrap(),
            25,
        );
    }
}

#[test]
fn bao_engines_agree_from_mutated_positions() {
    let (a, b) = bao_pair_sown3000();
    let rules = Rules::new(sown3000());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for i in 0..150u64 {
        // A reachable position after a few random plies, then mutated.
        let steps = rng.gen_range(1..12);
        let m = mutated_start(&rules, steps, &mut rng);
        let text = position_text::print(&m);
        let (sa, sb) = (a.parse_state(&text).unwrap(), b.parse_state(&text).unwrap());
        if let Err(d) = lockstep(&a, &b, sa, sb, &bytes(12, i), 200) {
            panic!("mutated position {i}:\n{text}\n{d}");
        }
    }
}

#[test]
fn oware_engines_agree_from_mutated_positions() {
    use mancala_lab::oware::mutate::{mutate, mutated_start};
    use mancala_lab::oware::Variant as OwareVariant;
    use mancala_lab::oware::{Position as OwarePosition, Rules as OwareRules, Side};
    // The mutations do change a position (a mover flip can be undone, so not every time).
    let start = OwarePosition::start(Side::South);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let changed = (0..300)
        .filter(|_| mutate(&start, 5, &mut rng) != start)
        .count();
    assert!(changed > 250, "{changed}");
    for (preset, v) in [
        ("sheet", OwareVariant::SHEET),
        ("abapa", OwareVariant::ABAPA),
    ] {
        let (a, b) = (
            oware::Reference::new(preset).unwrap(),
            oware::Optimized::new(preset).unwrap(),
        );
        let rules = OwareRules::new(v);
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        for i in 0..300u64 {
            let steps = rng.gen_range(1..12);
            let m = mutated_start(&rules, steps, &mut rng);
            let seeds: u32 = m.pits().iter().map(|&s| u32::from(s)).sum::<u32>()
                + u32::from(m.score(Side::South))
                + u32::from(m.score(Side::North));
            assert_eq!(seeds, 48);
            let text = m.print();
            let (sa, sb) = (a.parse_state(&text).unwrap(), b.parse_state(&text).unwrap());
            if let Err(d) = lockstep(&a, &b, sa, sb, &bytes(14, i), 300) {
                panic!("{preset}, mutated position {i}:\n{text}\n{d}");
            }
        }
    }
}

#[test]
fn the_checker_catches_a_different_reading() {
    // The 'engines' reading keeps houses in mtaji; against the default it must diverge.
    let a = bao::Reference::new("default").unwrap();
    let b = bao::Optimized::new("engines").unwrap();
    let found =
        (0..200).find_map(|i| lockstep(&a, &b, a.start(), b.start(), &bytes(13, i), 1000).err());
    let d = found.expect("a divergence between different readings");
    assert!(d.ply > 0 && !d.moves.is_empty());
    assert!(d.to_string().contains("engines disagree"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn lockstep_on_byte_streams(stream in proptest::collection::vec(any::<u8>(), 1..400)) {
        let (a, b) = bao_pair_sown3000();
        prop_assert!(lockstep(&a, &b, a.start(), b.start(), &stream, 1000).is_ok());
        let (c, d) = (oware::Reference::new("sheet").unwrap(), oware::Optimized::new("sheet").unwrap());
        prop_assert!(lockstep(&c, &d, c.start(), d.start(), &stream, 1000).is_ok());
    }
}

#[test]
fn engine_shortcuts_agree_with_the_plain_calls() {
    // legal_and_result shares work and the optimized play checks one start instead of listing all:
    // both must answer as the plain calls do, and every written move outside the list is refused.
    let (a, b) = bao_pair_sown3000();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut checked = 0;
    for _ in 0..12 {
        let (mut sa, mut sb) = (a.start(), b.start());
        loop {
            let (la, ra) = a.legal_and_result(&sa);
            assert_eq!((la.clone(), ra.clone()), (a.legal(&sa), a.result(&sa)));
            assert_eq!(b.legal_and_result(&sb), (b.legal(&sb), b.result(&sb)));
            let me = a.position_text(&sa).contains("to_move: South");
            for row in if me { ["A", "B"] } else { ["a", "b"] } {
                for n in 1..=8 {
                    for tail in ["<", ">", "<+", ">+"] {
                        let text = format!("{row}{n}{tail}");
                        let listed = la.iter().any(|m| m.trim_end_matches('*') == text);
                        let (pa, pb) = (a.play(&sa, &text), b.play(&sb, &text));
                        assert_eq!(
                            pa.is_ok(),
                            listed,
                            "reference {text} at\n{}",
                            a.position_text(&sa)
                        );
                        assert_eq!(
                            pb.is_ok(),
                            listed,
                            "optimized {text} at\n{}",
                            a.position_text(&sa)
                        );
                        if let (Ok(x), Ok(y)) = (pa, pb) {
                            assert_eq!(a.position_text(&x), b.position_text(&y), "{text}");
                        }
                        checked += 1;
                    }
                }
            }
            if la.is_empty() {
                assert!(ra.is_some());
                break;
            }
            let mv = &la[rng.gen_range(0..la.len())];
            sa = a.play(&sa, mv).unwrap();
            sb = b.play(&sb, mv).unwrap();
        }
    }
    assert!(checked > 10_000, "{checked}");
}
