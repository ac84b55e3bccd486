//! `diff --batch` for Kalah: the batch engine on each of its paths against the word board (the
//! scalar path), game by game, and a divergence narrowed to the first ply where they differ.

use std::ops::Range;

use super::Batch;
use crate::batch::{
    first_differing_ply, first_divergence, BatchCheck, BatchDivergence, BatchPath, Compared,
};
use crate::game::{draw_word, pick};
use crate::kalah::playout::{Playout, RandomGames};
use crate::kalah::{Rules, State, Variant};

/// The batch engine of one reading on some paths, beside the word board of that reading.
pub struct Check {
    variant: Variant,
    seed: u64,
    max_plies: u32,
    paths: Vec<BatchPath>,
    batches: Vec<Batch>,
    scalar: RandomGames,
}

impl Check {
    /// The check of `variant`'s games of `seed`, at most `max_plies` plies each, on `paths`; an
    /// error if this processor cannot run a path.
    pub fn new(
        variant: Variant,
        seed: u64,
        max_plies: u32,
        paths: &[BatchPath],
    ) -> Result<Check, String> {
        let batches = paths
            .iter()
            .map(|&path| {
                Batch::new(variant, seed, max_plies)
                    .with_path(path)
                    .map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<Batch>, String>>()?;
        Ok(Check {
            variant,
            seed,
            max_plies,
            paths: paths.to_vec(),
            batches,
            scalar: RandomGames::new(variant),
        })
    }
}

impl BatchCheck for Check {
    fn paths(&self) -> &[BatchPath] {
        &self.paths
    }

    fn check(&self, games: Range<u64>) -> Result<(u64, Vec<Vec<u64>>), BatchDivergence> {
        let mut want = Vec::with_capacity((games.end - games.start) as usize);
        self.scalar
            .play_range(self.seed, games.clone(), self.max_plies, &mut |p| {
                want.push(p)
            });
        let mut figures = Vec::with_capacity(self.batches.len());
        for (i, batch) in self.batches.iter().enumerate() {
            let mut got: Vec<Playout> = Vec::with_capacity(want.len());
            let steps = batch.play(games.clone(), |p| got.push(p));
            figures.push(vec![steps]);
            first_divergence(i, games.clone(), &want, got)?;
        }
        Ok((want.iter().map(|p| u64::from(p.plies)).sum(), figures))
    }

    fn path_line(&self, i: usize, figures: &[u64]) -> String {
        let path = self.paths[i];
        format!(
            "batch path {path} ({}): {} vector steps",
            path.describe(),
            figures.first().copied().unwrap_or(0)
        )
    }

    fn explain(&self, d: &BatchDivergence) -> Vec<String> {
        let (game, path) = (d.game, self.paths[d.path]);
        let at = first_differing_ply(d, |k| {
            let mut one = None;
            if let Ok(batch) = Batch::new(self.variant, self.seed, k).with_path(path) {
                batch.play(game..game + 1, |p| one = Some(p));
            }
            one != Some(self.scalar.playout(self.seed, game, k))
        });
        let rules = Rules::new(self.variant);
        let (before, moves) = reference_game(&rules, self.seed, game, at - 1);
        vec![
            format!(
                "the engines first differ after ply {at}; moves before it: {}",
                moves.join(" ")
            ),
            format!(
                "position before ply {at} (reference engine):\n{}",
                before.position()
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

/// Game `game` of `seed` on the reference engine with the batch's draws, to its end or
/// `max_plies` plies: the state reached and the moves played, as letters.
pub fn reference_game(rules: &Rules, seed: u64, game: u64, max_plies: u32) -> (State, Vec<String>) {
    let keys = crate::game::game_keys(seed, game);
    let mut state = rules.new_game();
    let mut played = Vec::new();
    loop {
        let moves = rules.legal_moves(&state);
        let ply = played.len() as u32;
        if moves.is_empty() || state.outcome().is_some() || ply >= max_plies {
            return (state, played);
        }
        let mv = moves[pick(draw_word(keys, ply), moves.len() as u32) as usize];
        played.push(mv.letter(state.position().to_move()).to_string());
        state = rules
            .play(&state, mv)
            .expect("a listed move is legal")
            .state;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch stopped sooner than the word board: the first game is reported as divergent,
    /// with both engines' plies, and the explanation ends at the word board's last ply.
    #[test]
    fn a_batch_that_plays_other_games_is_caught_at_the_first_game() {
        let variant = Variant::OPENSPIEL;
        let mut check = Check::new(variant, 7, 200, &[BatchPath::Portable]).unwrap();
        check.batches = vec![Batch::new(variant, 7, 5)
            .with_path(BatchPath::Portable)
            .unwrap()];
        let d = check.check(3..9).unwrap_err();
        assert_eq!((d.path, d.game, d.plies[0]), (0, 3, 5));
        assert!(d.plies[1] > 5, "{d:?}");
        assert_ne!(d.batch, d.scalar);
        let lines = check.explain(&d);
        assert_eq!(lines.len(), 2);
        let at = format!("the engines first differ after ply {}; ", d.plies[1]);
        assert!(lines[0].starts_with(&at), "{lines:?}");
        assert!(lines[1].contains("(reference engine):\n"), "{lines:?}");
    }

    #[test]
    fn agreeing_games_give_their_plies_and_each_paths_steps() {
        let paths = BatchPath::available_paths();
        let check = Check::new(Variant::OPENSPIEL, 1, 300, &paths).unwrap();
        let (plies, figures) = check.check(0..200).unwrap();
        let scalar = RandomGames::new(Variant::OPENSPIEL);
        let want: u64 = (0..200)
            .map(|g| u64::from(scalar.playout(1, g, 300).plies))
            .sum();
        assert_eq!(plies, want);
        assert_eq!(figures.len(), paths.len());
        assert!(check.path_line(0, &[3]).ends_with(": 3 vector steps"));
    }
}
