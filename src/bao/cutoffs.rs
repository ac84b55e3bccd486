//! Bao's infinite-move cut-off study (`mancala-lab bao cutoffs`): per random game, what a
//! seed-count cut-off needs to know under exact detection of infinite moves.

use crate::game::{game_keys, Draw, Game};

use super::{Position, Rules};

/// Per game, for the cut-off study: the most seeds any legal (finite) move sowed at any position,
/// and how many candidate moves were infinite, under exact detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutoffRecord {
    /// The largest `sown` of a legal move offered anywhere in the game.
    pub longest_legal_move: u32,
    /// Candidate moves refused as infinite over the game.
    pub infinite_candidates: u32,
    /// Plies played.
    pub plies: u32,
}

/// Plays random Bao game `index` with exact detection, recording what a seed-count cut-off needs;
/// the moves are those of the stats job's random game `index`.
pub fn cutoff_game(rules: &Rules, seed: u64, index: u64, max_plies: u32) -> CutoffRecord {
    let keys = game_keys(seed, index);
    let mut rec = CutoffRecord {
        longest_legal_move: 0,
        infinite_candidates: 0,
        plies: 0,
    };
    let mut pos = Position::start();
    while rec.plies < max_plies {
        let (moves, infinite) = rules.legal_moves_and_infinite(&pos);
        rec.infinite_candidates += infinite as u32;
        for &m in &moves {
            let sown = rules.play(&pos, m).map_or(0, |p| p.sown);
            rec.longest_legal_move = rec.longest_legal_move.max(sown);
        }
        match rules.play_random(&mut pos, Draw::new(keys, rec.plies)) {
            Some(Ok(_)) => {}
            _ => break,
        }
        rec.plies += 1;
    }
    rec
}

/// A cut-off given twice to [`Cutoffs::new`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0} given twice")]
pub struct LimitTwice(pub u32);

/// The cut-off study: random games under exact detection, summed up against seed-count
/// cut-offs (`mancala-lab bao cutoffs`).
pub struct Cutoffs {
    rules: Rules,
    seed: u64,
    limits: Vec<u32>,
}

/// The cut-off study's sums over the games played.
pub struct CutoffSums {
    with_infinite: u64,
    candidates: u64,
    longest: u32,
    /// Per cut-off, the games offering a finite move it would call infinite.
    misjudged: Vec<u64>,
}

impl Cutoffs {
    /// The study of the games of `seed` against the cut-offs `limits` (seeds sown per move);
    /// an error if a cut-off is given twice.
    pub fn new(seed: u64, limits: &[u32]) -> Result<Cutoffs, LimitTwice> {
        if let Some(&twice) = limits
            .iter()
            .enumerate()
            .find_map(|(i, l)| limits[..i].contains(l).then_some(l))
        {
            return Err(LimitTwice(twice));
        }
        Ok(Cutoffs {
            rules: Rules::default(),
            seed,
            limits: limits.to_vec(),
        })
    }
}

impl crate::game_study::GameStudy for Cutoffs {
    type Record = CutoffRecord;
    type Sums = CutoffSums;
    const NAME: &'static str = "cutoffs";
    const CSV_HEADER: &'static str = "game,plies,longest_legal_move,infinite_candidates\n";

    fn play(&self, game: u64) -> CutoffRecord {
        cutoff_game(
            &self.rules,
            self.seed,
            game,
            crate::playout::DEFAULT_MAX_PLIES,
        )
    }

    fn sums(&self) -> CutoffSums {
        CutoffSums {
            with_infinite: 0,
            candidates: 0,
            longest: 0,
            misjudged: vec![0; self.limits.len()],
        }
    }

    fn add(&self, sums: &mut CutoffSums, _game: u64, r: &CutoffRecord) {
        sums.with_infinite += u64::from(r.infinite_candidates > 0);
        sums.candidates += u64::from(r.infinite_candidates);
        sums.longest = sums.longest.max(r.longest_legal_move);
        for (m, &limit) in sums.misjudged.iter_mut().zip(&self.limits) {
            *m += u64::from(r.longest_legal_move > limit);
        }
    }

    fn csv_row(&self, game: u64, r: &CutoffRecord) -> String {
        format!(
            "{game},{},{},{}\n",
            r.plies, r.longest_legal_move, r.infinite_candidates
        )
    }

    fn report(&self, sums: &CutoffSums, done: u64) -> String {
        use std::fmt::Write;
        let share = |n: u64| 100.0 * n as f64 / done.max(1) as f64;
        let mut out = format!(
            "bao cut-off study: {done} random games, seed {}, default reading, exact detection\n",
            self.seed
        );
        let _ = writeln!(
            out,
            "  games with at least one infinite candidate move: {} ({:.2}%)",
            sums.with_infinite,
            share(sums.with_infinite)
        );
        let _ = writeln!(out, "  infinite candidate moves met: {}", sums.candidates);
        let _ = writeln!(
            out,
            "  longest finite legal move offered: {} seeds sown",
            sums.longest
        );
        for (limit, &m) in self.limits.iter().zip(&sums.misjudged) {
            let _ = writeln!(
                out,
                "  cut-off {limit:>5} seeds: {m} games ({:.2}%) offer a finite move it would call \
                 infinite",
                share(m)
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutoff_study_replays_the_stats_games() {
        // Same draws, same random choices: the same games, and the longest move offered is at
        // least the longest move played.
        let rules = Rules::default();
        for i in 0..20 {
            let (row, _) =
                crate::playout::play_game(&rules, crate::policy::Policy::Random, 4, i, 2000)
                    .expect("random play needs no databases");
            let rec = cutoff_game(&rules, 4, i, 2000);
            assert_eq!(rec.plies, row.plies, "game {i}");
            assert!(rec.longest_legal_move >= row.longest_move_seeds, "game {i}");
        }
    }
}
