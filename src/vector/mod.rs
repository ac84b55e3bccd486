//! Vector environments for learning programs: N games of one reading stepped at once by an
//! array of action ids, on every core, writing observations, rewards, ends and legal masks.
//!
//! Each environment plays games one after another: environment i starts with game i of the
//! seed and, when a game ends, starts the next game number not yet dealt (dealt in environment
//! order), so a run is the same whatever the thread count. A game may open with random plies on
//! the game's own draws (those of `random` for that game number), as a study's opening does,
//! stopping short of a ply that would end the game.

use crate::game::{game_keys, Action, Draw, Verdict};
use crate::playout::EngineKind;

mod workers;
use crate::registry::{with_game, EngineOf, GameKind, GameVisitor, Mancala};
pub use workers::Workers;

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

/// The environments of one stepper.
struct Envs<S: Stepper> {
    stepper: S,
    states: Vec<S::State>,
    games: Vec<u64>,
    plies: Vec<u32>,
    /// The legal actions of each environment's game.
    masks: Vec<bool>,
    /// The player to move in each environment's game.
    to_move: Vec<u8>,
    seed: u64,
    next_game: u64,
    max_plies: u32,
    opening: u32,
    pool: Workers,
}

/// Environments stepped per task on a thread.
const CHUNK: usize = 256;

/// A part of the environments stepped by one task: their games, plies, actions and players
/// to move before the step.
struct Part<'a, T> {
    states: &'a mut [T],
    plies: &'a mut [u32],
    actions: &'a [i64],
    before: &'a [u8],
}

/// Steps the environments of `part`, writing into `out` (the same environments' rows).
fn step_part<S: Stepper>(
    stepper: &S,
    max_plies: u32,
    (obs_n, act_n): (usize, usize),
    part: &mut Part<'_, S::State>,
    out: &mut Outputs<'_>,
) {
    for (k, s) in part.states.iter_mut().enumerate() {
        let mover = part.before[k];
        out.mover[k] = mover;
        let verdict = stepper.play(s, part.actions[k] as u32);
        let plies = stepper.plies(s);
        part.plies[k] = plies;
        let reward = &mut out.rewards[2 * k..2 * k + 2];
        reward.fill(0.0);
        if let Some(Verdict::Win(side)) = verdict {
            reward[side.index()] = 1.0;
            reward[side.opponent().index()] = -1.0;
        }
        out.reward[k] = reward[usize::from(mover)];
        out.terminated[k] = verdict.is_some();
        out.truncated[k] = verdict.is_none() && plies >= max_plies;
        let row = k * obs_n..(k + 1) * obs_n;
        out.to_move[k] = stepper.observe(
            s,
            &mut out.final_observations[row.clone()],
            &mut out.masks[k * act_n..(k + 1) * act_n],
        );
        out.observations[row.clone()].copy_from_slice(&out.final_observations[row]);
    }
}

impl<S: Stepper> Envs<S> {
    fn new(stepper: S, spec: &EnvSpec, pool: Workers) -> Envs<S> {
        let start = stepper.begin(0, 0, 0);
        Envs {
            states: vec![start; spec.envs],
            games: (0..spec.envs as u64).collect(),
            plies: vec![0; spec.envs],
            masks: vec![false; spec.envs * stepper.action_count()],
            to_move: vec![0; spec.envs],
            seed: 0,
            next_game: spec.envs as u64,
            max_plies: spec.max_plies,
            opening: spec.opening,
            pool,
            stepper,
        }
    }
}

impl<S: Stepper> VectorEnv for Envs<S> {
    fn envs(&self) -> usize {
        self.states.len()
    }

    fn observation_size(&self) -> usize {
        self.stepper.observation_size()
    }

    fn action_count(&self) -> usize {
        self.stepper.action_count()
    }

    fn plies(&self) -> &[u32] {
        &self.plies
    }

    fn games(&self) -> &[u64] {
        &self.games
    }

    fn reset(&mut self, seed: u64, out: Outputs<'_>) -> Result<(), EnvError> {
        check_lengths(self, &out)?;
        self.seed = seed;
        self.next_game = self.states.len() as u64;
        let (obs_n, act_n) = (self.observation_size(), self.action_count());
        let (stepper, opening) = (&self.stepper, self.opening);
        let mut parts: Vec<_> = self
            .states
            .chunks_mut(CHUNK)
            .zip(self.games.chunks_mut(CHUNK))
            .zip(self.plies.chunks_mut(CHUNK))
            .zip(out.observations.chunks_mut(CHUNK * obs_n))
            .zip(self.masks.chunks_mut(CHUNK * act_n))
            .zip(out.to_move.chunks_mut(CHUNK))
            .enumerate()
            .collect();
        self.pool.each(
            &mut parts,
            |(c, (((((states, games), plies), obs), masks), to_move))| {
                for (k, s) in states.iter_mut().enumerate() {
                    let game = (*c * CHUNK + k) as u64;
                    games[k] = game;
                    *s = stepper.begin(seed, game, opening);
                    plies[k] = stepper.plies(s);
                    to_move[k] = stepper.observe(
                        s,
                        &mut obs[k * obs_n..(k + 1) * obs_n],
                        &mut masks[k * act_n..(k + 1) * act_n],
                    );
                }
            },
        );
        out.masks.copy_from_slice(&self.masks);
        out.final_observations.copy_from_slice(out.observations);
        out.rewards.fill(0.0);
        out.reward.fill(0.0);
        out.mover.copy_from_slice(out.to_move);
        self.to_move.copy_from_slice(out.to_move);
        out.terminated.fill(false);
        out.truncated.fill(false);
        Ok(())
    }

    fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<(), EnvError> {
        check_lengths(self, &out)?;
        let n = self.states.len();
        if actions.len() != n {
            return Err(EnvError::Length {
                field: "actions",
                got: actions.len(),
                expected: n,
            });
        }
        let (obs_n, act_n) = (self.observation_size(), self.action_count());
        // Every action checked before any is played: a bad one leaves every game as it was.
        let bad = actions
            .iter()
            .zip(self.masks.chunks_exact(act_n))
            .position(|(&a, legal)| !(0..act_n as i64).contains(&a) || !legal[a as usize]);
        if let Some(env) = bad {
            let legal = &self.masks[env * act_n..(env + 1) * act_n];
            return Err(EnvError::Illegal {
                env,
                action: actions[env],
                legal: (0..act_n as u32).filter(|&x| legal[x as usize]).collect(),
            });
        }
        let (stepper, max_plies) = (&self.stepper, self.max_plies);
        let Outputs {
            observations,
            rewards,
            terminated,
            truncated,
            masks,
            final_observations,
            to_move,
            mover,
            reward,
        } = out;
        // The environments in parts of CHUNK, each part's slices of every array together.
        let mut parts: Vec<Part<'_, S::State>> = self
            .states
            .chunks_mut(CHUNK)
            .zip(self.plies.chunks_mut(CHUNK))
            .zip(actions.chunks(CHUNK))
            .zip(self.to_move.chunks(CHUNK))
            .map(|(((states, plies), actions), before)| Part {
                states,
                plies,
                actions,
                before,
            })
            .collect();
        let mut outs: Vec<Outputs<'_>> = observations
            .chunks_mut(CHUNK * obs_n)
            .zip(final_observations.chunks_mut(CHUNK * obs_n))
            .zip(masks.chunks_mut(CHUNK * act_n))
            .zip(rewards.chunks_mut(CHUNK * 2))
            .zip(terminated.chunks_mut(CHUNK))
            .zip(truncated.chunks_mut(CHUNK))
            .zip(to_move.chunks_mut(CHUNK))
            .zip(mover.chunks_mut(CHUNK))
            .zip(reward.chunks_mut(CHUNK))
            .map(|((((((((o, f), m), r), te), tr), tm), mv), rw)| Outputs {
                observations: o,
                rewards: r,
                terminated: te,
                truncated: tr,
                masks: m,
                final_observations: f,
                to_move: tm,
                mover: mv,
                reward: rw,
            })
            .collect();
        let mut jobs: Vec<_> = parts.iter_mut().zip(outs.iter_mut()).collect();
        self.pool.each(&mut jobs, |(part, out)| {
            step_part(stepper, max_plies, (obs_n, act_n), part, out)
        });
        drop(jobs);
        drop(outs);
        // The games that ended give way to the next games of the seed, in environment order.
        for env in 0..n {
            if terminated[env] || truncated[env] {
                let game = self.next_game;
                self.next_game += 1;
                self.games[env] = game;
                let s = &mut self.states[env];
                *s = self.stepper.begin(self.seed, game, self.opening);
                self.plies[env] = self.stepper.plies(s);
                to_move[env] = self.stepper.observe(
                    s,
                    &mut observations[env * obs_n..(env + 1) * obs_n],
                    &mut masks[env * act_n..(env + 1) * act_n],
                );
            }
        }
        self.masks.copy_from_slice(masks);
        self.to_move.copy_from_slice(to_move);
        Ok(())
    }
}

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

/// An error naming the first output array of the wrong length.
fn check_lengths(env: &dyn VectorEnv, out: &Outputs<'_>) -> Result<(), EnvError> {
    let n = env.envs();
    let (obs, act) = (env.observation_size(), env.action_count());
    let want = [
        ("observations", out.observations.len(), n * obs),
        ("rewards", out.rewards.len(), n * 2),
        ("terminated", out.terminated.len(), n),
        ("truncated", out.truncated.len(), n),
        ("masks", out.masks.len(), n * act),
        ("final_observations", out.final_observations.len(), n * obs),
        ("to_move", out.to_move.len(), n),
        ("mover", out.mover.len(), n),
        ("reward", out.reward.len(), n),
    ];
    match want.into_iter().find(|&(_, got, expected)| got != expected) {
        Some((field, got, expected)) => Err(EnvError::Length {
            field,
            got,
            expected,
        }),
        None => Ok(()),
    }
}
