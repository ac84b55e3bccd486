//! Oware's sections of `mancala-lab bench`: its engines under abapa (OpenSpiel's reading), and
//! its batch engine on every path this processor runs, with the stats job on each.

use crate::batch::BatchPath;
use crate::bench::{shown, Bench, BenchPart, Parser};
use crate::playout::{play_game, DEFAULT_MAX_PLIES};
use crate::policy::Policy;

use super::batch::{scalar_playout, Batch};
use super::fast::FastRules;
use super::{Rules, Variant};

/// Games a batch measurement plays per call (so the clock is read rarely).
const BATCH_CHUNK: u64 = 16_384;

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

/// Measures the batch engine on every path this processor runs (the scalar engine among them),
/// one thread and all cores, then the stats job on that path, for `variant`; each path's ratio
/// is against the scalar path measured in the same run.
fn batch_lines(b: &mut dyn Bench, variant: &str) {
    let (seed, reading) = (b.seed(), variant.parse::<Variant>());
    let reading = reading.expect("a preset the batch plays");
    let mut scalar = None;
    for path in BatchPath::available_paths().into_iter().rev() {
        let batch = Batch::new(reading, seed, DEFAULT_MAX_PLIES)
            .expect("the benchmarked readings are batch-playable")
            .with_path(path)
            .expect("an available path");
        let name = format!("{path}: {}", path.describe());
        let play = |chunk: u64| {
            let mut plies = 0;
            let first = chunk * BATCH_CHUNK;
            batch.play(first..first + BATCH_CHUNK, |p| plies += u64::from(p.plies));
            plies
        };
        let one = b.measure(&mut |c| play(c)).chunks_of(BATCH_CHUNK);
        if b.interrupted() {
            return;
        }
        b.line(&format!("{name}, 1 thread"), one);
        let (all, threads) = b.measure_parallel(one.games / BATCH_CHUNK, &play);
        if b.interrupted() {
            return;
        }
        let all = all.chunks_of(BATCH_CHUNK);
        b.line(&format!("{name}, {threads} threads"), all);
        let speed_up = all.games_per_s / one.games_per_s;
        let against = scalar.map_or(String::new(), |s: crate::bench::Rate| {
            format!(
                "{}x the scalar path; ",
                shown(one.games_per_s / s.games_per_s, 1)
            )
        });
        b.say(&format!(
            "  {path}: {against}parallel speed-up {} on {threads} threads (efficiency {}%)",
            shown(speed_up, 2),
            shown(100.0 * speed_up / threads as f64, 0)
        ));
        if path == BatchPath::Scalar {
            scalar = Some(one);
        }
        if BatchPath::force(Some(path)).is_ok() {
            b.stats_line(&format!("{path}: "), variant, all.games, all);
        }
        let _ = BatchPath::force(None);
        if b.interrupted() {
            return;
        }
    }
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
