//! Oware's sections of `mancala-lab bench`: its engines under abapa (OpenSpiel's reading), and
//! its batch engine on every path this processor runs, with the stats job on each.

use crate::bench::{Bench, BenchPart, Parser};
use crate::playout::{play_game, DEFAULT_MAX_PLIES};
use crate::policy::Policy;

use super::batch::{scalar_playout, Batch};
use super::fast::FastRules;
use super::{Rules, Variant};

/// Oware's sections for `part`: reference against scalar optimized engine under abapa; or the
/// batch engine under abapa and under sheet (the main job's reading).
pub fn sections(b: &mut dyn Bench, part: BenchPart) {
    match part {
        BenchPart::Notes => {}
        BenchPart::Engines => {
            let seed = b.seed();
            let reference = Rules::new(Variant::ABAPA);
            let fast = FastRules::new(Variant::ABAPA).expect("abapa decides every point");
            b.section("oware (abapa, as OpenSpiel):");
            b.compare(
                &mut |i| {
                    u64::from(
                        play_game(&reference, Policy::Random, seed, i, DEFAULT_MAX_PLIES)
                            .expect("random play needs no databases")
                            .0
                            .plies,
                    )
                },
                &|i| u64::from(scalar_playout(&fast, seed, i, DEFAULT_MAX_PLIES).plies),
            );
        }
        BenchPart::Batch => {
            for (variant, label) in [
                ("abapa", "abapa, as OpenSpiel"),
                ("sheet", "sheet, the main job's reading"),
            ] {
                b.section(&format!(
                    "oware batch engine ({label}), on each path this processor runs:"
                ));
                batch_lines(b, variant);
                if b.interrupted() {
                    return;
                }
            }
        }
    }
}

/// [`crate::bench::batch_lines`] for the Oware batch engine under `variant`.
fn batch_lines(b: &mut dyn Bench, variant: &str) {
    let seed = b.seed();
    let reading = variant
        .parse::<Variant>()
        .expect("a preset the batch plays");
    crate::bench::batch_lines(b, variant, &|path, games| {
        let batch = Batch::new(reading, seed, DEFAULT_MAX_PLIES)
            .expect("the benchmarked readings are batch-playable")
            .with_path(path)
            .expect("an available path");
        let mut plies = 0;
        batch.play(games, |p| plies += u64::from(p.plies));
        plies
    });
}

/// The label and engine `bench`'s search lines measure the policies on.
pub fn search_engine() -> (&'static str, FastRules) {
    (
        "oware (abapa)",
        FastRules::new(Variant::ABAPA).expect("abapa decides every point"),
    )
}

/// Oware's parsers that `bench --parsers` times.
pub fn parsers() -> Vec<Parser> {
    vec![
        (
            "oware transcript (letters on one line)",
            |n| format!("1. {}\n", "C f ".repeat(n / 2)),
            |t| {
                super::notation::parse_transcript(t)
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
        ),
        (
            "oware position (numbers on one row)",
            |n| format!("south: {}\n", "4 ".repeat(n)),
            |t| {
                super::Position::parse(t)
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
        ),
    ]
}
