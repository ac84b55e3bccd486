//! Kalah's sections of `mancala-lab bench`: its reference and optimized engines under OpenSpiel's
//! reading, the word board, the batch engine on every path with the stats job, and its parsers.

use crate::bench::{Bench, BenchPart, Parser};
use crate::playout::{play_game, DEFAULT_MAX_PLIES};
use crate::policy::Policy;

use super::batch::Batch;
use super::fast::FastRules;
use super::playout::RandomGames;
use super::{Rules, Variant};

/// Kalah's sections for `part`: reference against optimized engine under `openspiel`
/// (Kalah(6,4), OpenSpiel's `mancala`), then the stats job on the optimized one.
pub fn sections(b: &mut dyn Bench, part: BenchPart) {
    match part {
        BenchPart::Notes => return,
        BenchPart::Batch => return batch_lines(b),
        BenchPart::Engines => {}
    }
    let seed = b.seed();
    let reference = Rules::new(Variant::OPENSPIEL);
    let fast = FastRules::new(Variant::OPENSPIEL);
    b.section("kalah (openspiel, Kalah(6,4) as OpenSpiel's mancala):");
    let Some(_) = b.compare(
        &mut |i| {
            u64::from(
                play_game(&reference, Policy::Random, seed, i, DEFAULT_MAX_PLIES)
                    .expect("random play needs no databases")
                    .0
                    .plies,
            )
        },
        &|i| {
            u64::from(
                play_game(&fast, Policy::Random, seed, i, DEFAULT_MAX_PLIES)
                    .expect("random play needs no databases")
                    .0
                    .plies,
            )
        },
    ) else {
        return;
    };
    // The stats job's random games: the word board, games side by side.
    let random = RandomGames::new(Variant::OPENSPIEL);
    let play = |chunk: u64| {
        let mut plies = 0;
        let first = chunk * CHUNK;
        random.play_range(seed, first..first + CHUNK, DEFAULT_MAX_PLIES, &mut |p| {
            plies += u64::from(p.plies)
        });
        plies
    };
    let one = b.measure(&mut |c| play(c)).chunks_of(CHUNK);
    if b.interrupted() {
        return;
    }
    b.line("word board (the stats job's random games), 1 thread", one);
    let (all, threads) = b.measure_parallel(one.games / CHUNK, &play);
    let all = all.chunks_of(CHUNK);
    b.line(&format!("word board, {threads} threads"), all);
}

/// The batch engine under `openspiel` on each path this processor runs, with the stats job on
/// each ([`crate::bench::batch_lines`]).
fn batch_lines(b: &mut dyn Bench) {
    let seed = b.seed();
    b.section("kalah batch engine (openspiel, Kalah(6,4)), on each path this processor runs:");
    crate::bench::batch_lines(b, "openspiel", &|path, games| {
        let batch = Batch::new(Variant::OPENSPIEL, seed, DEFAULT_MAX_PLIES)
            .with_path(path)
            .expect("an available path");
        let mut plies = 0;
        batch.play(games, |p| plies += u64::from(p.plies));
        plies
    });
}

/// Games a word-board measurement plays per call (so the clock is read rarely).
const CHUNK: u64 = 1024;

/// Kalah's parsers that `bench --parsers` times.
pub fn parsers() -> Vec<Parser> {
    vec![
        (
            "kalah transcript (letters on one line)",
            |n| format!("1. {}\n", "C f ".repeat(n / 2)),
            |t| {
                super::transcript::transcript_moves(t)
                    .try_for_each(|m| m.map(drop))
                    .map_err(|e| e.to_string())
            },
        ),
        (
            "kalah position (numbers on one row)",
            |n| format!("south: {}\n", "4 ".repeat(n)),
            |t| {
                super::Position::parse(t, &Variant::OPENSPIEL)
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
        ),
    ]
}
