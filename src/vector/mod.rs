//! Vector environments for learning programs: N games of one reading stepped at once by an
//! array of action ids, on every core, writing observations, rewards, ends and legal masks.
//!
//! Each environment plays games one after another: environment i starts with game i of the
//! seed and, when a game ends, starts the next game number not yet dealt (dealt in environment
//! order), so a run is the same whatever the thread count. A game may open with random plies on
//! the game's own draws (those of `random` for that game number), as a study's opening does,
//! stopping short of a ply that would end the game.

mod engine;
mod envs;
mod workers;

pub use engine::{Engine, Played};
pub use workers::Workers;

use crate::game::Verdict;
use crate::playout::EngineKind;
use crate::registry::{with_game, GameKind, GameVisitor, Mancala};
use envs::Envs;

/// What a vector environment is made with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvSpec {
    /// The game.
    pub game: GameKind,
    /// The reading, as the command line writes it (e.g. `openspiel:pits=4`).
    pub variant: String,
    /// The engine: `None` for the optimized one (an error if it does not play the reading).
    pub engine: Option<EngineKind>,
    /// Environments: games stepped at once (1 to [`MAX_ENVS`]).
    pub envs: usize,
    /// Plies after which a game is cut (truncated); at least 1.
    pub max_plies: u32,
    /// Random plies each game opens with before the actions take over.
    pub opening: u32,
    /// Threads that step the games (0: one per core).
    pub threads: usize,
}

/// Most threads a vector environment steps its games on.
pub const MAX_THREADS: usize = 64;

/// Most environments one vector environment holds.
pub const MAX_ENVS: usize = 1 << 22;

/// Why a vector environment cannot be made or stepped; each names the field or the place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnvError {
    /// The reading does not parse, or the engine does not play it.
    #[error("variant: {0}")]
    Variant(String),
    /// A number out of its range.
    #[error("{field} {value}: {expected}")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// The value given.
        value: u64,
        /// The range it must be in.
        expected: String,
    },
    /// An array of the wrong length.
    #[error("{field}: {got} values, expected {expected}")]
    Length {
        /// The array.
        field: &'static str,
        /// Its length.
        got: usize,
        /// The length it must have.
        expected: usize,
    },
    /// An action that is not legal in its environment's game (nothing was stepped).
    #[error("actions[{env}] = {action}: not a legal action there (legal: {legal:?})")]
    Illegal {
        /// The environment.
        env: usize,
        /// The action id given.
        action: i64,
        /// The legal action ids there.
        legal: Vec<u32>,
    },
}

/// Where a step or a reset writes, every array by environment (row-major).
pub struct Outputs<'a> {
    /// Observations of the games to be played on: `envs` x [`VectorEnv::observation_size`].
    pub observations: &'a mut [f32],
    /// South's and North's rewards for the ply: +1 to a game's winner and -1 to its loser when
    /// it ends, 0 otherwise: `envs` x 2.
    pub rewards: &'a mut [f32],
    /// Whether the game ended by its rules at this step: `envs`.
    pub terminated: &'a mut [bool],
    /// Whether the game was cut at the ply limit at this step: `envs`.
    pub truncated: &'a mut [bool],
    /// The legal actions of the games to be played on: `envs` x [`VectorEnv::action_count`].
    pub masks: &'a mut [bool],
    /// The player to move in the games to be played on (0 South, 1 North): `envs`.
    pub to_move: &'a mut [u8],
    /// The player who moved at this step (0 South, 1 North): `envs`.
    pub mover: &'a mut [u8],
    /// The mover's reward for its move (its column of `rewards`): `envs`.
    pub reward: &'a mut [f32],
    /// Where a game ended or was cut, its last observation (the new game's is in
    /// `observations`); elsewhere the same as `observations`: `envs` x observation size.
    pub final_observations: &'a mut [f32],
}

/// N games of one reading stepped at once (see the module's comment).
pub trait VectorEnv: Send + Sync {
    /// The environments.
    fn envs(&self) -> usize;
    /// Numbers in one observation (the game's `observation`, docs/python.md).
    fn observation_size(&self) -> usize;
    /// Action ids of the game: 6 for Oware and Kalah, 64 for Bao.
    fn action_count(&self) -> usize;
    /// Starts game i of `seed` in environment i, every environment; writes the observations
    /// and masks (rewards 0, no ends; the final observations the same as the observations).
    fn reset(&mut self, seed: u64, out: Outputs<'_>) -> Result<(), EnvError>;
    /// Plays `actions[i]` in environment i, every environment; an error, with nothing played,
    /// when an action is not legal in its environment. Games that end are restarted with the
    /// next game of the seed.
    fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<(), EnvError>;
    /// The plies played in each environment's current game.
    fn plies(&self) -> &[u32];
    /// The game number each environment plays (game i of the seed).
    fn games(&self) -> &[u64];
}

/// The vector environment `spec` describes.
pub fn make(spec: &EnvSpec) -> Result<Box<dyn VectorEnv>, EnvError> {
    if spec.envs == 0 || spec.envs > MAX_ENVS {
        return Err(EnvError::OutOfRange {
            field: "envs",
            value: spec.envs as u64,
            expected: format!("1 to {MAX_ENVS}"),
        });
    }
    if spec.max_plies == 0 {
        return Err(EnvError::OutOfRange {
            field: "max_plies",
            value: 0,
            expected: "at least 1: no game would have a move".into(),
        });
    }
    if spec.threads > MAX_THREADS {
        return Err(EnvError::OutOfRange {
            field: "threads",
            value: spec.threads as u64,
            expected: format!("0 (one per core) to {}", MAX_THREADS),
        });
    }
    let pool = Workers::new(spec.threads)?;
    struct Make<'a>(&'a EnvSpec, Workers);
    impl GameVisitor for Make<'_> {
        type Output = Result<Box<dyn VectorEnv>, EnvError>;
        fn visit<M: Mancala>(self) -> Self::Output {
            let (spec, pool) = (self.0, self.1);
            let v = M::variant(&spec.variant).map_err(|e| EnvError::Variant(e.to_string()))?;
            if spec.engine == Some(EngineKind::Reference) {
                return Ok(envs(Engine::<M, _>::new(M::reference(v)), spec, pool));
            }
            let engine = M::optimized(v).map_err(|e| {
                EnvError::Variant(format!(
                    "{e} (the reference engine plays it: engine 'reference')"
                ))
            })?;
            Ok(M::vector_envs(engine, spec, pool))
        }
    }
    with_game(spec.game, Make(spec, pool))
}

/// The environments `spec` describes stepped by `stepper` on `pool`.
pub fn envs<S: Stepper + 'static>(stepper: S, spec: &EnvSpec, pool: Workers) -> Box<dyn VectorEnv> {
    Box::new(Envs::new(stepper, spec, pool))
}

/// One game's environments as [`Envs`] steps them: games begun, played an action at a time and
/// observed. Each game's optimized engine may have one of its own (Kalah's word board); any
/// engine has [`Engine`].
pub trait Stepper: Sync + Send {
    /// A game under way.
    type State: Clone + Send + Sync;
    /// Numbers in one observation.
    fn observation_size(&self) -> usize;
    /// Action ids of the game.
    fn action_count(&self) -> usize;
    /// Game `game` of `seed` after `opening` random plies on the game's own draws (fewer where
    /// the next would end the game: the opening never ends it).
    fn begin(&self, seed: u64, game: u64, opening: u32) -> Self::State;
    /// Plies played in `s`.
    fn plies(&self, s: &Self::State) -> u32;
    /// Plays the legal action `action`: how the game ended, if it did.
    fn play(&self, s: &mut Self::State, action: u32) -> Option<Verdict>;
    /// Writes the observation and legal actions of `s` (none once it ended); the player to
    /// move (0 South, 1 North).
    fn observe(&self, s: &Self::State, obs: &mut [f32], mask: &mut [bool]) -> u8;
}
