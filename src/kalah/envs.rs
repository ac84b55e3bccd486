//! Kalah's vector environments on the word board ([`super::playout::RandomGames`]): a game a
//! 128-bit word, the action the pit sown, the observation written straight from the word.

use crate::game::Verdict;
use crate::vector::Stepper;

use super::playout::{Lane, RandomGames};
use super::variant::MAX_PITS;

/// The word board as a [`Stepper`] of the vector environments.
pub struct Words(pub RandomGames);

impl Stepper for Words {
    type State = Lane;

    fn observation_size(&self) -> usize {
        2 * usize::from(MAX_PITS) + 3
    }

    fn action_count(&self) -> usize {
        usize::from(MAX_PITS)
    }

    fn begin(&self, seed: u64, game: u64, opening: u32) -> Lane {
        self.0.opened(seed, game, opening)
    }

    fn plies(&self, s: &Lane) -> u32 {
        RandomGames::plies(s)
    }

    fn play(&self, s: &mut Lane, action: u32) -> Option<Verdict> {
        self.0.play_pit(s, action as usize);
        self.0.verdict(s)
    }

    fn observe(&self, s: &Lane, obs: &mut [f32], mask: &mut [bool]) -> u8 {
        self.0.observe(s, obs, mask)
    }
}
