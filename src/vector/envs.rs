//! The environments of one stepper: the games, their plies and masks, stepped in equal shares
//! on the caller and the workers, and the next games of the seed dealt in environment order.

use super::{EnvError, EnvSpec, Outputs, Stepper, VectorEnv, Workers};
use crate::game::Verdict;

/// The environments of one stepper.
pub(super) struct Envs<S: Stepper> {
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
    pub(super) fn new(stepper: S, spec: &EnvSpec, pool: Workers) -> Envs<S> {
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
