//! `diff --batch` for Oware: the batch engine on each of its paths against the scalar optimized
//! engine, game by game, and a divergence narrowed to the first ply where the positions differ.

use std::ops::Range;

use super::{reference_game, scalar_playout, Batch, Playout};
use crate::batch::{
    first_differing_ply, first_divergence, BatchCheck, BatchDivergence, BatchPath, Compared,
};
use crate::oware::fast::FastRules;
use crate::oware::{Rules, Variant};

/// The batch engine of one reading on some paths, beside the scalar engine of that reading.
pub struct Check {
    variant: Variant,
    seed: u64,
    max_plies: u32,
    paths: Vec<BatchPath>,
    batches: Vec<Batch>,
    scalar: FastRules,
}

impl Check {
    /// The check of `variant`'s games of `seed`, at most `max_plies` plies each, on `paths`; an
    /// error if the batch does not play the reading or this processor cannot run a path.
    pub fn new(
        variant: Variant,
        seed: u64,
        max_plies: u32,
        paths: &[BatchPath],
    ) -> Result<Check, String> {
        let batches = paths
            .iter()
            .map(|&path| {
                let batch = Batch::new(variant, seed, max_plies).map_err(|e| e.to_string())?;
                batch.with_path(path).map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<Batch>, String>>()?;
        let scalar = FastRules::new(variant).map_err(|e| e.to_string())?;
        Ok(Check {
            variant,
            seed,
            max_plies,
            paths: paths.to_vec(),
            batches,
            scalar,
        })
    }

    /// The scalar engine's game `game`, stopped after `max_plies` plies.
    fn scalar(&self, game: u64, max_plies: u32) -> Playout {
        scalar_playout(&self.scalar, self.seed, game, max_plies)
    }
}

impl BatchCheck for Check {
    fn paths(&self) -> &[BatchPath] {
        &self.paths
    }

    fn check(&self, games: Range<u64>) -> Result<(u64, Vec<Vec<u64>>), BatchDivergence> {
        let want: Vec<Playout> = games
            .clone()
            .map(|g| self.scalar(g, self.max_plies))
            .collect();
        let mut figures = Vec::with_capacity(self.batches.len());
        for (i, batch) in self.batches.iter().enumerate() {
            let mut got = Vec::with_capacity(want.len());
            let f = batch.play(games.clone(), |p| got.push(p));
            figures.push(vec![f.steps, f.filter_hits, f.handed_over]);
            first_divergence(i, games.clone(), &want, got)?;
        }
        Ok((want.iter().map(|p| u64::from(p.plies)).sum(), figures))
    }

    fn path_line(&self, i: usize, figures: &[u64]) -> String {
        let path = self.paths[i];
        let [steps, filter_hits, handed_over] = [0, 1, 2].map(|k| figures.get(k).copied());
        format!(
            "batch path {path} ({}): {} vector steps, {} repetition-filter hits compared, {} \
             games handed to the scalar engine",
            path.describe(),
            steps.unwrap_or(0),
            filter_hits.unwrap_or(0),
            handed_over.unwrap_or(0)
        )
    }

    fn explain(&self, d: &BatchDivergence) -> Vec<String> {
        let (game, path) = (d.game, self.paths[d.path]);
        let at = first_differing_ply(d, |k| {
            let mut one = None;
            let batch = Batch::new(self.variant, self.seed, k).ok();
            if let Some(batch) = batch.and_then(|b| b.with_path(path).ok()) {
                batch.play(game..game + 1, |p| one = Some(p));
            }
            one != Some(self.scalar(game, k))
        });
        let rules = Rules::new(self.variant);
        let (before, moves) = reference_game(&rules, self.seed, game, at - 1);
        let (_, all) = reference_game(&rules, self.seed, game, at);
        vec![
            format!(
                "the engines first differ after ply {at}; moves before it: {}",
                moves.iter().collect::<String>()
            ),
            format!(
                "position before ply {at} (reference engine):\n{}\nmove: {}",
                before.position().print(),
                all.get(moves.len()).map_or('-', |&m| m)
            ),
        ]
    }
}

impl Compared for Playout {
    fn game(&self) -> u64 {
        self.game
    }
    fn plies(&self) -> u32 {
        self.plies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch stopped sooner than the scalar engine: the first game is reported as divergent,
    /// with both engines' plies, and the explanation ends at the scalar engine's last ply
    /// (the batch, remade at each ply limit, never differs).
    #[test]
    fn a_batch_that_plays_other_games_is_caught_at_the_first_game() {
        let variant = Variant::ABAPA;
        let mut check = Check::new(variant, 7, 200, &[BatchPath::Scalar]).unwrap();
        check.batches = vec![Batch::new(variant, 7, 5)
            .unwrap()
            .with_path(BatchPath::Scalar)
            .unwrap()];
        let d = check.check(3..9).unwrap_err();
        assert_eq!((d.path, d.game, d.plies[0]), (0, 3, 5));
        assert!(d.plies[1] > 5, "{d:?}");
        assert_ne!(d.batch, d.scalar);
        let lines = check.explain(&d);
        assert_eq!(lines.len(), 2);
        let at = format!("the engines first differ after ply {}; ", d.plies[1]);
        assert!(lines[0].starts_with(&at), "{lines:?}");
        assert!(
            lines[1].contains("(reference engine):\nto_move: "),
            "{lines:?}"
        );
    }

    #[test]
    fn agreeing_games_give_their_plies_and_each_paths_figures() {
        let paths = BatchPath::available_paths();
        let check = Check::new(Variant::ABAPA, 1, 300, &paths).unwrap();
        let (plies, figures) = check.check(0..40).unwrap();
        let scalar = FastRules::new(Variant::ABAPA).unwrap();
        let want: u64 = (0..40)
            .map(|g| u64::from(scalar_playout(&scalar, 1, g, 300).plies))
            .sum();
        assert_eq!(plies, want);
        assert_eq!(figures.len(), paths.len());
        let line = check.path_line(0, &[3, 2, 1]);
        assert!(
            line.ends_with(
                ": 3 vector steps, 2 repetition-filter hits compared, 1 games handed \
                            to the scalar engine"
            ),
            "{line}"
        );
    }
}
