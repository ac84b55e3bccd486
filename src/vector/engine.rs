//! Any engine of a game as a [`Stepper`]: its typed states, moves found by action id, and the
//! game's observation of its position.

use super::Stepper;
use crate::game::{game_keys, Action, Draw, Verdict};
use crate::registry::{EngineOf, Mancala};

/// Any engine of game `M` as a [`Stepper`]: its typed states, moves by action id, and the
/// game's observation.
pub struct Engine<M: Mancala, G: EngineOf<M>> {
    engine: G,
    observation_size: usize,
    _game: std::marker::PhantomData<fn() -> M>,
}

impl<M: Mancala, G: EngineOf<M>> Engine<M, G> {
    /// The stepper of `engine`.
    pub fn new(engine: G) -> Engine<M, G> {
        let start = engine.start();
        let observation_size = engine
            .position(&start)
            .map(|p| M::observation(&p).len())
            .unwrap_or(0);
        Engine {
            engine,
            observation_size,
            _game: std::marker::PhantomData,
        }
    }
}

/// A game under way on an engine: its state, plies, and how it ended once it has.
#[derive(Clone)]
pub struct Played<S> {
    state: S,
    plies: u32,
    /// Set when a move reached a point the reading leaves open (the game ends there).
    silent: bool,
}

impl<M: Mancala, G: EngineOf<M>> Stepper for Engine<M, G>
where
    G::State: Send,
{
    type State = Played<G::State>;

    fn observation_size(&self) -> usize {
        self.observation_size
    }

    fn action_count(&self) -> usize {
        M::Move::COUNT as usize
    }

    fn begin(&self, seed: u64, game: u64, opening: u32) -> Self::State {
        let mut state = self.engine.start();
        let keys = game_keys(seed, game);
        let mut plies = 0;
        // The opening stops short of a ply that would end the game: the actions have a game.
        while plies < opening {
            let mut next = state.clone();
            match self.engine.play_random(&mut next, Draw::new(keys, plies)) {
                Some(Ok(_)) if self.engine.ending(&next).is_none() => {
                    state = next;
                    plies += 1;
                }
                _ => break,
            }
        }
        Played {
            state,
            plies,
            silent: false,
        }
    }

    fn plies(&self, s: &Self::State) -> u32 {
        s.plies
    }

    fn play(&self, s: &mut Self::State, action: u32) -> Option<Verdict> {
        let mut moves = Vec::new();
        self.engine.legal_moves(&s.state, &mut moves);
        let mv = *moves.iter().find(|m| m.action() == action)?;
        s.plies += 1;
        if self.engine.play_in_place(&mut s.state, mv).is_err() {
            s.silent = true;
            return Some(Verdict::RulesSilent);
        }
        self.engine.ending(&s.state).map(|e| e.verdict)
    }

    fn observe(&self, s: &Self::State, obs: &mut [f32], mask: &mut [bool]) -> u8 {
        if let Ok(p) = self.engine.position(&s.state) {
            obs.copy_from_slice(&M::observation(&p));
        }
        mask.fill(false);
        if !s.silent && self.engine.ending(&s.state).is_none() {
            let mut moves = Vec::new();
            self.engine.legal_moves(&s.state, &mut moves);
            for mv in moves {
                mask[mv.action() as usize] = true;
            }
        }
        self.engine.to_move(&s.state).index() as u8
    }
}
