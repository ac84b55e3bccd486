//! `mancala_lab._native.VectorEnv`: the library's vector environments ([`mancala_lab::vector`])
//! with numpy arrays in and out, stepped without the interpreter on the environment's threads.

use numpy::ndarray::{Dimension, IntoDimension};
use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use mancala_lab::vector::{make, EnvSpec, Outputs, VectorEnv as Envs};

use super::{engine_kind, game_kind, value_error};

/// N games of one reading stepped at once (docs/python.md, "Vector environments").
#[pyclass(module = "mancala_lab._native")]
pub struct VectorEnv {
    envs: Box<dyn Envs>,
    /// Whether `reset` has been called (a step before it is refused).
    started: bool,
    /// The arrays of the last call.
    kept: Kept,
    /// Every environment's final observation of the last step (those of the games that ended
    /// are handed back).
    finals: Vec<f32>,
}

/// The arrays one call hands back: observations, rewards, terminated, truncated, masks, the
/// final observations of the games that ended, the player to move, the player who moved, the
/// mover's reward.
type Arrays<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<f32>>,
);

/// The output arrays a vector environment hands back, kept to be filled again by the next call
/// where nothing else holds them any more.
#[derive(Default)]
struct Kept {
    obs: Option<Py<PyArray2<f32>>>,
    rewards: Option<Py<PyArray2<f32>>>,
    terminated: Option<Py<PyArray1<bool>>>,
    truncated: Option<Py<PyArray1<bool>>>,
    masks: Option<Py<PyArray2<bool>>>,
    to_move: Option<Py<PyArray1<u8>>>,
    mover: Option<Py<PyArray1<u8>>>,
    reward: Option<Py<PyArray1<f32>>>,
}

/// The array kept in `slot` if only the slot holds it (no Python name, view or buffer does:
/// whoever had it let it go), else a new one of shape `dims`, kept in the slot.
fn array<'py, T: Element, D: Dimension>(
    py: Python<'py>,
    slot: &mut Option<Py<PyArray<T, D>>>,
    dims: impl IntoDimension<Dim = D>,
) -> Bound<'py, PyArray<T, D>> {
    if let Some(kept) = slot {
        // SAFETY: a reference count read of a live object, the interpreter held.
        if unsafe { pyo3::ffi::Py_REFCNT(kept.as_ptr()) } == 1 {
            return kept.bind(py).clone();
        }
    }
    // SAFETY: the caller writes every element before the array is read.
    let fresh = unsafe { PyArray::<T, D>::new(py, dims, false) };
    *slot = Some(fresh.clone().unbind());
    fresh
}

impl VectorEnv {
    /// The output arrays (reused where nothing holds them any more, else new), filled by
    /// `fill` without the interpreter; the final observations of the games that ended, in
    /// environment order.
    fn call<'py>(
        &mut self,
        py: Python<'py>,
        fill: impl FnOnce(&mut dyn Envs, Outputs<'_>) -> Result<(), mancala_lab::vector::EnvError>
            + Send,
    ) -> PyResult<Arrays<'py>> {
        let n = self.envs.envs();
        let (o, a) = (self.envs.observation_size(), self.envs.action_count());
        let k = &mut self.kept;
        // Every element of each is written by `fill` (which writes each output whole) before
        // the arrays are handed back; if it fails they are not handed back.
        let obs = array(py, &mut k.obs, [n, o]);
        let rewards = array(py, &mut k.rewards, [n, 2]);
        let terminated = array(py, &mut k.terminated, n);
        let truncated = array(py, &mut k.truncated, n);
        let masks = array(py, &mut k.masks, [n, a]);
        let to_move = array(py, &mut k.to_move, n);
        let mover = array(py, &mut k.mover, n);
        let reward = array(py, &mut k.reward, n);
        self.finals.resize(n * o, 0.0);
        let ended: Vec<usize> = {
            let (mut ow, mut rw) = (obs.readwrite(), rewards.readwrite());
            let (mut tw, mut cw) = (terminated.readwrite(), truncated.readwrite());
            let (mut mw, mut tm, mut mv, mut rv) = (
                masks.readwrite(),
                to_move.readwrite(),
                mover.readwrite(),
                reward.readwrite(),
            );
            let out = Outputs {
                observations: ow.as_slice_mut()?,
                rewards: rw.as_slice_mut()?,
                terminated: tw.as_slice_mut()?,
                truncated: cw.as_slice_mut()?,
                masks: mw.as_slice_mut()?,
                final_observations: &mut self.finals,
                to_move: tm.as_slice_mut()?,
                mover: mv.as_slice_mut()?,
                reward: rv.as_slice_mut()?,
            };
            let envs = &mut *self.envs;
            py.detach(|| fill(envs, out)).map_err(value_error)?;
            let (t, c) = (tw.as_slice()?, cw.as_slice()?);
            (0..n).filter(|&i| t[i] || c[i]).collect()
        };
        let finals = PyArray2::<f32>::zeros(py, [ended.len(), o], false);
        {
            let mut fw = finals.readwrite();
            let rows = fw.as_slice_mut()?;
            for (row, &env) in rows.chunks_exact_mut(o.max(1)).zip(&ended) {
                row.copy_from_slice(&self.finals[env * o..(env + 1) * o]);
            }
        }
        Ok((
            obs, rewards, terminated, truncated, masks, finals, to_move, mover, reward,
        ))
    }
}

#[pymethods]
impl VectorEnv {
    /// `n` games of `game` under `variant` (docs/python.md, "Vector environments").
    #[new]
    #[pyo3(signature = (game, variant, n, engine=None, max_plies=mancala_lab::playout::DEFAULT_MAX_PLIES, opening=0, threads=0))]
    fn new(
        game: &str,
        variant: &str,
        n: usize,
        engine: Option<&str>,
        max_plies: u32,
        opening: u32,
        threads: usize,
    ) -> PyResult<VectorEnv> {
        let spec = EnvSpec {
            game: game_kind(game)?,
            variant: variant.to_string(),
            engine: engine_kind(engine)?,
            envs: n,
            max_plies,
            opening,
            threads,
        };
        Ok(VectorEnv {
            envs: make(&spec).map_err(value_error)?,
            started: false,
            kept: Kept::default(),
            finals: Vec::new(),
        })
    }

    /// Environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.envs.envs()
    }

    /// Numbers in one observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.envs.observation_size()
    }

    /// Action ids of the game.
    #[getter]
    fn action_count(&self) -> usize {
        self.envs.action_count()
    }

    /// Plies played in each environment's current game (uint32).
    fn plies<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_slice(py, self.envs.plies())
    }

    /// The game number each environment plays (uint64).
    fn games<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_slice(py, self.envs.games())
    }

    /// Starts game i of `seed` in environment i: the arrays of `step`, rewards 0 and no ends.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<Arrays<'py>> {
        let arrays = self.call(py, move |e, out| e.reset(seed, out))?;
        self.started = true;
        Ok(arrays)
    }

    /// Plays `actions[i]` (int64 action ids) in environment i: (observations, rewards,
    /// terminated, truncated, masks, final observations, to move, mover, mover's reward).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Arrays<'py>> {
        if !self.started {
            return Err(PyValueError::new_err(
                "step before reset: call reset(seed) first",
            ));
        }
        let n = self.envs.envs();
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "actions: {} values, expected {n} (one per environment)",
                actions.len()
            )));
        }
        let actions: Vec<i64> = actions.as_array().iter().copied().collect();
        self.call(py, move |e, out| e.step(&actions, out))
    }

    /// What the environment was made with, as a dict.
    fn spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("num_envs", self.envs.envs())?;
        d.set_item("observation_size", self.envs.observation_size())?;
        d.set_item("action_count", self.envs.action_count())?;
        Ok(d)
    }
}
