//! The batch Oware playouts, on every path this processor runs (AVX-512, AVX2, portable), play
//! exactly the games the scalar optimized engine plays with the same draws, and those are the
//! reference engine's games.

use mancala_lab::oware::batch::{reference_playout, scalar_playout, Batch, BatchPath, Playout};
use mancala_lab::oware::fast::FastRules;
use mancala_lab::oware::variant::{CycleEnd, FinalSweep, NoAllowedMove};
use mancala_lab::oware::{Rules, Side, Variant};
use proptest::prelude::*;

/// abapa; a reading with the third occurrence, no sweep at 25 and North first; the sheet
/// (grand slams forbidden); and the sheet letting grand slams be played, capturing nothing, when
/// no other move is allowed.
fn readings() -> [Variant; 4] {
    [
        Variant::ABAPA,
        Variant {
            cycle_end: CycleEnd::Occurrences(3),
            final_sweep: FinalSweep::None,
            first_player: Side::North,
            ..Variant::ABAPA
        },
        Variant::SHEET,
        Variant {
            no_allowed_move: NoAllowedMove::AllowGrandSlamWithoutCapture,
            ..Variant::SHEET
        },
    ]
}

/// The vector paths this machine runs (the portable one always); names those it cannot check.
fn vector_paths() -> Vec<BatchPath> {
    for path in BatchPath::ALL {
        if !path.available() {
            eprintln!("the {path} path cannot run here: it is not checked on this machine");
        }
    }
    BatchPath::available_paths()
        .into_iter()
        .filter(|&p| p != BatchPath::Scalar)
        .collect()
}

/// A batch on `path`.
fn on(path: BatchPath, variant: Variant, seed: u64, max_plies: u32) -> Batch {
    let batch = Batch::new(variant, seed, max_plies).unwrap();
    batch.with_path(path).unwrap()
}

/// The batch's playouts of `games`, in game order, each game exactly once.
fn batch_games(batch: &Batch, games: std::ops::Range<u64>) -> Vec<Playout> {
    let mut out = Vec::new();
    batch.play(games.clone(), |p| out.push(p));
    out.sort();
    let ids: Vec<u64> = out.iter().map(|p| p.game).collect();
    assert_eq!(ids, games.collect::<Vec<_>>(), "every game once");
    out
}

fn scalar_games(
    variant: Variant,
    seed: u64,
    games: std::ops::Range<u64>,
    max_plies: u32,
) -> Vec<Playout> {
    let rules = FastRules::new(variant).unwrap();
    games
        .map(|g| scalar_playout(&rules, seed, g, max_plies))
        .collect()
}

#[test]
fn batch_games_are_the_scalar_engines_games() {
    for path in vector_paths() {
        for variant in readings() {
            // 512 steps of history: hand-overs are rare; 8: most games are handed over.
            for (ring, seed) in [(512, 11), (8, 12)] {
                let batch = on(path, variant, seed, 100_000).with_ring(ring);
                assert!(batch.uses_vectors());
                assert_eq!(batch.path(), path);
                let mut out = Vec::new();
                let stats = batch.play(0..4000, |p| out.push(p));
                out.sort();
                let want = scalar_games(variant, seed, 0..4000, 100_000);
                for (got, want) in out.iter().zip(&want) {
                    assert_eq!(got, want, "{path} {variant:?} ring {ring}");
                }
                assert_eq!(out.len(), want.len());
                assert!(stats.filter_hits > 0, "the repetition filter was exercised");
                if ring == 8 {
                    assert!(stats.handed_over > 100, "hand-overs exercised: {stats:?}");
                }
            }
        }
    }
}

#[test]
fn the_portable_path_runs_everywhere_and_paths_are_named() {
    assert!(BatchPath::Portable.available() && BatchPath::Scalar.available());
    assert_eq!(
        BatchPath::available_paths().last(),
        Some(&BatchPath::Scalar)
    );
    for path in BatchPath::ALL {
        assert_eq!(path.name().parse::<BatchPath>(), Ok(path));
    }
    let e = "neon".parse::<BatchPath>().unwrap_err().to_string();
    assert!(
        e.contains("expected avx512, avx2, portable or scalar"),
        "{e}"
    );
    // A path this processor lacks is refused with the paths it has.
    if let Some(missing) = BatchPath::ALL.into_iter().find(|p| !p.available()) {
        let batch = Batch::new(Variant::ABAPA, 1, 100).unwrap();
        let e = batch.with_path(missing).unwrap_err().to_string();
        assert!(e.contains("it runs:") && e.contains("portable"), "{e}");
    }
}

#[test]
fn scalar_draws_play_the_reference_engines_games() {
    for variant in readings() {
        let rules = Rules::new(variant);
        let want: Vec<Playout> = (0..1500)
            .map(|g| reference_playout(&rules, 21, g, 100_000))
            .collect();
        assert_eq!(scalar_games(variant, 21, 0..1500, 100_000), want);
        // The games end in every way the readings know.
        assert!(want.iter().any(|p| p.result == Some(0)));
        assert!(want.iter().any(|p| p.result == Some(1)));
        assert!(want.iter().any(|p| p.result == Some(2)));
    }
}

#[test]
fn ply_limits_cut_games_alike() {
    for variant in readings() {
        for limit in [0, 1, 7, 60] {
            let want = scalar_games(variant, 5, 0..600, limit);
            let cut = want.iter().filter(|p| p.result.is_none()).count();
            assert!(cut > 0, "limit {limit} cuts some games");
            if limit == 60 {
                assert!(cut < 600, "limit 60 lets some games finish");
            }
            let rules = Rules::new(variant);
            for p in want.iter().take(100) {
                assert_eq!(*p, reference_playout(&rules, 5, p.game, limit));
            }
            for path in vector_paths() {
                let batch = on(path, variant, 5, limit);
                assert_eq!(batch_games(&batch, 0..600), want, "{path} limit {limit}");
            }
        }
    }
}

#[test]
fn the_scalar_fallback_plays_the_same_games() {
    let batch = Batch::new(Variant::ABAPA, 3, 100_000)
        .unwrap()
        .scalar_only();
    assert!(!batch.uses_vectors());
    assert_eq!(
        batch_games(&batch, 100..400),
        scalar_games(Variant::ABAPA, 3, 100..400, 100_000)
    );
}

#[test]
fn batch_refuses_readings_it_cannot_play() {
    // The strict reading leaves points open; the optimized engines have no "rules silent" end.
    let e = Batch::new(Variant::STRICT, 1, 100).unwrap_err();
    assert!(e.to_string().contains("leave a point open"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn any_seed_ring_and_range_plays_the_scalar_games(
        seed in any::<u64>(),
        ring in 4usize..80,
        first in 0u64..1_000_000_000,
        len in 1u64..300,
        which in 0usize..4,
    ) {
        let variant = readings()[which];
        let want = scalar_games(variant, seed, first..first + len, 100_000);
        for path in vector_paths() {
            let batch = on(path, variant, seed, 100_000).with_ring(ring);
            prop_assert_eq!(batch_games(&batch, first..first + len), want.clone(), "{}", path);
        }
    }
}
