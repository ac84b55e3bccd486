//! The vector environments (`mancala_lab::vector`) against the reference engines: the same
//! observations, masks, rewards and ends, step by step, on every game, whatever the threads.

use mancala_lab::playout::EngineKind;
use mancala_lab::registry::GameKind;
use mancala_lab::vector::{make, EnvError, EnvSpec, Outputs, VectorEnv};

/// Everything a step or a reset writes, owned.
#[derive(Clone, Debug, PartialEq)]
struct Step {
    observations: Vec<f32>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    masks: Vec<bool>,
    finals: Vec<f32>,
    to_move: Vec<u8>,
    mover: Vec<u8>,
    reward: Vec<f32>,
}

impl Step {
    fn new(env: &dyn VectorEnv) -> Step {
        let n = env.envs();
        let (o, a) = (env.observation_size(), env.action_count());
        Step {
            observations: vec![f32::NAN; n * o],
            rewards: vec![f32::NAN; n * 2],
            terminated: vec![true; n],
            truncated: vec![true; n],
            masks: vec![true; n * a],
            finals: vec![f32::NAN; n * o],
            to_move: vec![9; n],
            mover: vec![9; n],
            reward: vec![f32::NAN; n],
        }
    }

    fn out(&mut self) -> Outputs<'_> {
        Outputs {
            observations: &mut self.observations,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            masks: &mut self.masks,
            final_observations: &mut self.finals,
            to_move: &mut self.to_move,
            mover: &mut self.mover,
            reward: &mut self.reward,
        }
    }
}

/// A small random number generator for the actions (independent of the library's draws).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A legal action per environment, drawn from `rng`, from the masks of `s`.
fn actions(s: &Step, a: usize, rng: &mut Rng) -> Vec<i64> {
    s.masks
        .chunks(a)
        .map(|legal| {
            let ids: Vec<usize> = (0..a).filter(|&i| legal[i]).collect();
            ids[rng.below(ids.len())] as i64
        })
        .collect()
}

fn spec(game: GameKind, variant: &str, engine: Option<EngineKind>, threads: usize) -> EnvSpec {
    EnvSpec {
        game,
        variant: variant.into(),
        engine,
        envs: 37,
        max_plies: 60,
        opening: 3,
        threads,
    }
}

/// Steps the optimized engine's environments (Kalah: the word board) and the reference
/// engine's side by side with the same random legal actions: every output the same at every
/// step, across game ends (auto-reset deals the next games alike), on 1 and 3 threads.
#[test]
fn the_optimized_environments_step_as_the_reference_engine() {
    let cases = [
        (GameKind::Kalah, "openspiel"),
        (GameKind::Kalah, "empty-capture:pits=3,seeds=5"),
        (GameKind::Kalah, "starvation:pits=4,seeds=2,cap=25"),
        (GameKind::Kalah, "sweep-to-emptier:pits=6,seeds=12"),
        (GameKind::Kalah, "no-sweep:pits=2,seeds=1"),
        (GameKind::Oware, "abapa"),
        (GameKind::Oware, "sheet"),
        (GameKind::Bao, "default"),
    ];
    for (game, variant) in cases {
        for threads in [1, 3] {
            let mut fast = make(&spec(game, variant, None, threads)).unwrap();
            let mut reference = make(&spec(game, variant, Some(EngineKind::Reference), 2)).unwrap();
            let a = fast.action_count();
            let (mut f, mut r) = (Step::new(&*fast), Step::new(&*reference));
            fast.reset(11, f.out()).unwrap();
            reference.reset(11, r.out()).unwrap();
            assert_eq!(f, r, "{game:?} {variant}: reset");
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            let mut ends = 0;
            for step in 0..150 {
                let acts = actions(&f, a, &mut rng);
                fast.step(&acts, f.out()).unwrap();
                reference.step(&acts, r.out()).unwrap();
                assert_eq!(f, r, "{game:?} {variant}, {threads} threads: step {step}");
                assert_eq!(fast.games(), reference.games());
                assert_eq!(fast.plies(), reference.plies());
                ends += f.terminated.iter().filter(|&&t| t).count();
            }
            assert!(ends > 0, "{game:?} {variant}: no game ended");
        }
    }
}

/// Kalah(6,4) worked by hand from the start: South sows C (4 seeds: D, E, F and its store), so
/// South moves again; the observation, mask and mover say so, and nothing ended.
#[test]
fn a_kalah_step_worked_by_hand() {
    let mut env = make(&EnvSpec {
        opening: 0,
        envs: 1,
        ..spec(GameKind::Kalah, "openspiel", None, 1)
    })
    .unwrap();
    let mut s = Step::new(&*env);
    env.reset(0, s.out()).unwrap();
    let start: Vec<f32> = [[4.0; 6], [4.0; 6]].concat();
    assert_eq!(s.observations[..12], start[..]);
    assert_eq!(s.observations[12..], [0.0, 0.0, 0.0]);
    assert_eq!(s.masks, vec![true; 6]);
    env.step(&[2], s.out()).unwrap();
    assert_eq!(
        s.observations,
        vec![4.0, 4.0, 0.0, 5.0, 5.0, 5.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 1.0, 0.0, 0.0]
    );
    assert_eq!((s.to_move[0], s.mover[0]), (0, 0));
    assert_eq!(s.masks, vec![true, true, false, true, true, true]);
    assert_eq!(
        (s.terminated[0], s.truncated[0], s.reward[0]),
        (false, false, 0.0)
    );
    // North's turn after South sows A (4 seeds: B to E).
    env.step(&[0], s.out()).unwrap();
    assert_eq!((s.to_move[0], s.mover[0]), (1, 0));
    assert_eq!(s.observations[14], 1.0);
}

/// The same seed gives the same outputs on 1, 2 and 5 threads; an illegal action is refused
/// with its environment named, and nothing is played (the next legal step is as if it had not
/// been tried).
#[test]
fn threads_change_nothing_and_an_illegal_action_plays_nothing() {
    let run = |threads: usize, illegal: bool| {
        let mut env = make(&spec(GameKind::Oware, "abapa", None, threads)).unwrap();
        let a = env.action_count();
        let mut s = Step::new(&*env);
        env.reset(5, s.out()).unwrap();
        let mut rng = Rng(42);
        let mut all = Vec::new();
        for step in 0..80 {
            let acts = actions(&s, a, &mut rng);
            if illegal && step == 40 {
                let mut bad = acts.clone();
                let env_at = 7;
                let legal = &s.masks[env_at * a..(env_at + 1) * a];
                bad[env_at] = (0..a).find(|&i| !legal[i]).map_or(a as i64, |i| i as i64);
                let before = s.clone();
                let err = env.step(&bad, s.out()).unwrap_err();
                assert!(matches!(err, EnvError::Illegal { env: 7, .. }), "{err}");
                assert!(err.to_string().starts_with("actions[7] = "), "{err}");
                s = before;
            }
            env.step(&acts, s.out()).unwrap();
            all.push(s.clone());
        }
        all
    };
    let one = run(1, false);
    assert_eq!(run(2, false), one);
    assert_eq!(run(5, true), one);
}

/// Bad specs and arrays are refused with the field named.
#[test]
fn bad_specs_and_arrays_name_the_field() {
    let bad = |s: EnvSpec| make(&s).err().map(|e| e.to_string()).unwrap_or_default();
    let base = spec(GameKind::Kalah, "openspiel", None, 1);
    assert!(bad(EnvSpec {
        envs: 0,
        ..base.clone()
    })
    .starts_with("envs 0: "));
    assert!(bad(EnvSpec {
        max_plies: 0,
        ..base.clone()
    })
    .starts_with("max_plies 0: "));
    assert!(bad(EnvSpec {
        threads: 65,
        ..base.clone()
    })
    .starts_with("threads 65: "));
    assert!(bad(EnvSpec {
        variant: "chess".into(),
        ..base.clone()
    })
    .starts_with("variant: "));
    let mut env = make(&base).unwrap();
    let mut s = Step::new(&*env);
    env.reset(0, s.out()).unwrap();
    let e = env.step(&[0; 3], s.out()).unwrap_err();
    assert_eq!(e.to_string(), "actions: 3 values, expected 37");
    let mut short = Step::new(&*env);
    short.rewards.pop();
    let e = env.step(&[0; 37], short.out()).unwrap_err();
    assert_eq!(e.to_string(), "rewards: 73 values, expected 74");
}
