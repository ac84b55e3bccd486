//! `run_study`: a resumable stats study from Python, the library's own run (the four files
//! `mancala-lab stats` writes, byte for byte), stopped cleanly by Ctrl-C and resumed.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use mancala_lab::study::{FieldNames, Outcome, Request};

use crate::{engine_kind, game_kind, interruptible};

/// Set by Ctrl-C while a study runs: the study stops between games, its rows whole.
static STOP: AtomicBool = AtomicBool::new(false);

/// Runs (or, with `resume`, continues) the study of `out`: the games, files and manifest of
/// `mancala-lab stats` with the same options. Returns what the manifest records and whether it
/// finished; Ctrl-C stops it with its rows whole (KeyboardInterrupt), to be resumed.
#[pyfunction]
#[pyo3(signature = (out, *, game=None, variant=None, engine=None, games=None, seed=None, policy=None, south=None, north=None, max_plies=None, opening=None, shard=None, threads=None, resume=false, force=false, no_space_check=false, command=Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub fn run_study<'py>(
    py: Python<'py>,
    out: PathBuf,
    game: Option<&str>,
    variant: Option<String>,
    engine: Option<&str>,
    games: Option<u64>,
    seed: Option<u64>,
    policy: Option<&str>,
    south: Option<&str>,
    north: Option<&str>,
    max_plies: Option<u32>,
    opening: Option<u32>,
    shard: Option<String>,
    threads: Option<u16>,
    resume: bool,
    force: bool,
    no_space_check: bool,
    command: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let field = |name: &str, e: String| PyValueError::new_err(format!("{name}: {e}"));
    let request = Request {
        game: game.map(game_kind).transpose()?,
        variant,
        engine: engine_kind(engine)?,
        games,
        seed,
        policy: policy
            .map(|p| p.parse().map_err(|e| field("policy", format!("{e}"))))
            .transpose()?,
        south: south
            .map(|p| p.parse().map_err(|e| field("south", format!("{e}"))))
            .transpose()?,
        north: north
            .map(|p| p.parse().map_err(|e| field("north", format!("{e}"))))
            .transpose()?,
        max_plies,
        opening,
        shard,
        out,
        threads: match threads {
            Some(0) => return Err(field("threads", "at least 1".into())),
            t => t,
        },
        resume,
        force,
        no_space_check,
        no_estimate: false,
        command,
    };
    request
        .not_in_a_match()
        .map_err(|e| PyValueError::new_err(e.message(&FieldNames)))?;
    STOP.store(false, Ordering::SeqCst);
    // Ctrl-C stops the study between chunks, and is raised once it has stopped.
    let request = &request;
    let (outcome, signal) = interruptible(py, &STOP, || {
        mancala_lab::study::run(request, &STOP, &mut ())
    });
    let outcome = outcome
        .map_err(|_| PyValueError::new_err("a game panicked; please report it"))?
        .map_err(|e| PyValueError::new_err(e.message(&FieldNames)))?;
    if let Some(e) = signal {
        return Err(e);
    }
    let result = PyDict::new(py);
    match outcome {
        Outcome::Finished(done) => {
            let (_, m) = *done;
            result.set_item("finished", true)?;
            result.set_item("games_done", m.games_done)?;
            result.set_item("total", m.end_game - m.first_game)?;
            result.set_item("first_game", m.first_game)?;
            result.set_item("end_game", m.end_game)?;
            result.set_item("game", m.job.game)?;
            result.set_item("variant", m.job.variant)?;
            result.set_item("engine", m.job.engine)?;
            result.set_item("policy", m.job.policy)?;
            result.set_item("seed", m.job.seed)?;
            result.set_item("games", m.job.games)?;
            result.set_item("max_plies", m.job.max_plies)?;
            result.set_item("opening", m.job.opening)?;
            result.set_item("shard", m.job.shard)?;
            result.set_item("threads", m.threads)?;
        }
        Outcome::Stopped { done, total } => {
            result.set_item("finished", false)?;
            result.set_item("games_done", done)?;
            result.set_item("total", total)?;
        }
    }
    Ok(result)
}
