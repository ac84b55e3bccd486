//! The differential checker run in CI: reference and optimized engines in lock step on seeded
//! games, on byte streams (proptest), and from randomly mutated positions; and a check that the
//! checker does catch a real difference.

use mancala_lab::bao::mutate::mutated_start;
use mancala_lab::bao::variant::{InfiniteMoves, Variant};
use mancala_lab::bao::{position_text, Bao, Rules};
use mancala_lab::diff::{lockstep, Engines, States};
use mancala_lab::game::Game;
use mancala_lab::oware::{Oware, Variant as OwareVariant};
use mancala_lab::registry::Mancala;
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

/// Runs `check` with both engines of the game `M`, the reference under `reference` and the
/// optimized under `optimized`, reported under `label`.
fn with_engines<M: Mancala, T>(
    reference: M::Variant,
    optimized: M::Variant,
    label: &str,
    check: impl FnOnce(&Engines<M>) -> T,
) -> T {
    let (r, o) = (M::reference(reference), M::optimized(optimized).unwrap());
    check(&Engines::<M> {
        reference: &r,
        optimized: &o,
        label,
    })
}

/// Both engines' start states.
fn starts<M: Mancala>(e: &Engines<M>) -> States<M> {
    (e.reference.start(), e.optimized.start())
}

fn run<M: Mancala>(e: &Engines<M>, games: u64) {
    for i in 0..games {
        if let Err(d) = lockstep(e, starts(e), &bytes(11, i), 1000) {
            panic!("game {i}:\n{d}");
        }
    }
}

fn oware(preset: &str) -> OwareVariant {
    preset.parse().unwrap()
}

#[test]
fn oware_engines_agree_on_seeded_games() {
    for preset in ["sheet", "abapa"] {
        with_engines::<Oware, _>(oware(preset), oware(preset), preset, |e| run(e, 400));
    }
}

#[test]
fn bao_engines_agree_on_seeded_games_with_exact_detection() {
    for preset in ["default", "literal-en", "engines"] {
        let v: Variant = preset.parse().unwrap();
        with_engines::<Bao, _>(v, v, preset, |e| run(e, 25));
    }
}

#[test]
fn bao_engines_agree_from_mutated_positions() {
    let rules = Rules::new(sown3000());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for i in 0..150u64 {
        // A reachable position after a few random plies, then mutated.
        let steps = rng.gen_range(1..12);
        let m = mutated_start(&rules, steps, &mut rng);
        let text = position_text::print(&m);
        with_engines::<Bao, _>(sown3000(), sown3000(), "sown3000", |e| {
            if let Err(d) = lockstep(e, e.states_at(&text).unwrap(), &bytes(12, i), 200) {
                panic!("mutated position {i}:\n{text}\n{d}");
            }
        });
    }
}

#[test]
fn oware_engines_agree_from_mutated_positions() {
    use mancala_lab::oware::mutate::{mutate, mutated_start};
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
            with_engines::<Oware, _>(v, v, preset, |e| {
                if let Err(d) = lockstep(e, e.states_at(&text).unwrap(), &bytes(14, i), 300) {
                    panic!("{preset}, mutated position {i}:\n{text}\n{d}");
                }
            });
        }
    }
}

#[test]
fn the_checker_catches_a_different_reading() {
    // The 'engines' reading keeps houses in mtaji; against the default it must diverge.
    let found = with_engines::<Bao, _>(Variant::DEFAULT, Variant::ENGINES, "mixed", |e| {
        (0..200).find_map(|i| lockstep(e, starts(e), &bytes(13, i), 1000).err())
    });
    let d = found.expect("a divergence between different readings");
    assert!(d.ply > 0 && !d.moves.is_empty());
    assert!(d.to_string().contains("engines disagree"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn lockstep_on_byte_streams(stream in proptest::collection::vec(any::<u8>(), 1..400)) {
        let bao_ok = with_engines::<Bao, _>(sown3000(), sown3000(), "sown3000", |e| {
            lockstep(e, starts(e), &stream, 1000).is_ok()
        });
        prop_assert!(bao_ok);
        let oware_ok = with_engines::<Oware, _>(oware("sheet"), oware("sheet"), "sheet", |e| {
            lockstep(e, starts(e), &stream, 1000).is_ok()
        });
        prop_assert!(oware_ok);
    }
}
