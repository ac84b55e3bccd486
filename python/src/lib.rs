//! `mancala_lab._native`: the Python face of the project's [`TextGame`] (a game played through
//! text) and of its parallel playouts; the modules `mancala_lab.bao`, `.oware` and `.kalah` wrap it.

use std::sync::atomic::{AtomicBool, Ordering};

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use mancala_lab::batch::{BatchPath, PATH_VARIABLE};
use mancala_lab::playout::{EngineKind, Play, DEFAULT_MAX_PLIES};
use mancala_lab::policy::Players;
use mancala_lab::registry::GameKind;
use mancala_lab::textgame::TextGame;

mod study;
mod vector;

/// The name of `value`'s type, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".into(), |n| n.to_string())
}

/// `action` as an action id below `count`: `TypeError` for what is not an int (a bool
/// included), `ValueError` naming the action for an int out of range.
fn action_id(action: &Bound<'_, PyAny>, count: u32) -> PyResult<u32> {
    let is_int = action.is_instance_of::<pyo3::types::PyInt>()
        || action.hasattr("__index__").unwrap_or(false);
    if action.is_instance_of::<pyo3::types::PyBool>() || !is_int {
        return Err(PyTypeError::new_err(format!(
            "action: expected an action id, an int, not {}",
            type_name(action)
        )));
    }
    let index = action.call_method0("__index__")?;
    if !index.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "action: its __index__ gave a {}, not an int",
            type_name(&index)
        )));
    }
    match index.extract::<u32>() {
        Ok(id) if id < count => Ok(id),
        _ => Err(PyValueError::new_err(format!(
            "action {index}: expected an action id 0 to {}",
            count - 1
        ))),
    }
}

/// A Rust error as the `ValueError` Python code expects, with the Rust message.
/// The text of argument `name`, or a `TypeError` naming it and what was given instead.
fn text(name: &str, what: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    match value.cast::<pyo3::types::PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name}: expected {what}, a str, not {}",
            type_name(value)
        ))),
    }
}

/// [`text`] of an argument that may be `None`.
fn optional_text(
    name: &str,
    what: &str,
    value: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    match value {
        Some(v) if !v.is_none() => text(name, what, v).map(Some),
        _ => Ok(None),
    }
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn game_kind(game: &str) -> PyResult<GameKind> {
    game.parse().map_err(value_error)
}

fn engine_kind(engine: Option<&str>) -> PyResult<Option<EngineKind>> {
    match engine {
        None => Ok(None),
        Some("optimized") => Ok(Some(EngineKind::Optimized)),
        Some("reference") => Ok(Some(EngineKind::Reference)),
        Some(other) => Err(PyValueError::new_err(format!(
            "engine {other:?}: expected 'optimized' or 'reference'"
        ))),
    }
}

/// A game in progress: the position, the moves played, the legal moves.
#[pyclass(module = "mancala_lab._native")]
#[derive(Clone)]
struct State {
    game: TextGame,
    /// The game, preset and infinite-move reading it was made with: a pickle remakes it so.
    made: (String, String, Option<String>),
}

/// What pickling a state stores: the class, the arguments that make the game's start, and
/// the moves played since.
type Reduced<'py> = (
    Bound<'py, pyo3::types::PyType>,
    (String, String, Option<String>, &'static str, Option<String>),
    Vec<String>,
);

#[pymethods]
impl State {
    /// A game of `game` ('bao', 'oware' or 'kalah') from its start, or from the position text `position`.
    #[new]
    #[pyo3(signature = (game, variant, infinite=None, engine=None, position=None))]
    fn new(
        game: &Bound<'_, PyAny>,
        variant: &Bound<'_, PyAny>,
        infinite: Option<&Bound<'_, PyAny>>,
        engine: Option<&Bound<'_, PyAny>>,
        position: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<State> {
        let game = text("game", "'bao', 'oware' or 'kalah'", game)?;
        let variant = text("variant", "a reading's name", variant)?;
        let infinite = optional_text("infinite", "'exact' or 'sown:N'", infinite)?;
        let engine = optional_text("engine", "'optimized' or 'reference'", engine)?;
        let position = optional_text("position", "the position text", position)?;
        let text_game = TextGame::new(
            game_kind(&game)?,
            &variant,
            infinite.as_deref(),
            engine_kind(engine.as_deref())?,
        )
        .map_err(value_error)?;
        let text_game = match position {
            None => text_game,
            Some(text) => text_game.from_position(&text).map_err(value_error)?,
        };
        Ok(State {
            game: text_game,
            made: (game, variant, infinite),
        })
    }

    /// The legal moves in canonical notation; empty once the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// Plays a move written in canonical notation; `ValueError` if it is not legal (the state is
    /// then unchanged).
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = text("move", "the move's notation", mv)?;
        self.game.play(&mv).map_err(value_error)
    }

    /// The legal moves as (action id, notation) pairs, by id (docs/python.md: action ids).
    fn legal_actions(&self) -> Vec<(u32, String)> {
        self.game.legal_actions()
    }

    /// Plays the legal move of action id `action`; `ValueError` if none is legal.
    fn play_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = action_id(action, self.game.action_count())?;
        self.game.play_action(id).map_err(value_error)
    }

    /// How many action ids the game has: 64 for Bao, 6 for Oware and Kalah.
    fn action_count(&self) -> u32 {
        self.game.action_count()
    }

    /// The position as a float32 array (docs/python.md: observation).
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        self.game.observation().into_pyarray(py)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.ending().is_some()
    }

    /// 'South' or 'North' once one has won; 'draw', or 'none' where the rules are silent;
    /// `None` while the game goes on.
    fn winner(&self) -> Option<&'static str> {
        self.game.ending().map(|e| e.winner())
    }

    /// The clause that ended the game (`silent:CLAUSE` where the rules are silent), or `None`.
    fn end_clause(&self) -> Option<String> {
        self.game.ending().map(|e| e.end_clause())
    }

    /// 'South' or 'North'.
    fn to_move(&self) -> String {
        self.game.to_move().to_string()
    }

    /// South's and North's scores (Oware and Kalah: seeds taken; Bao: seeds on each side).
    fn scores(&self) -> (u32, u32) {
        let [s, n] = self.game.scores();
        (s, n)
    }

    /// The position in the game's text format.
    fn position_text(&self) -> String {
        self.game.position_text()
    }

    /// The moves played so far, in canonical notation.
    fn moves(&self) -> Vec<String> {
        self.game.moves().to_vec()
    }

    /// The clause trace of `mv` played here, one step a line (the state does not change).
    fn explain(&self, mv: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let mv = text("move", "the move's notation", mv)?;
        self.game.explain(&mv).map_err(value_error)
    }

    /// The engine that plays: 'optimized' or 'reference'.
    fn engine(&self) -> &'static str {
        self.game.engine().name()
    }

    /// An independent copy of the game at this point.
    fn clone(&self) -> State {
        Clone::clone(self)
    }

    /// The board as an SVG diagram (as `mancala-lab bao diagram` draws it) and, with `move`,
    /// that move's path and clause steps; `ValueError` if the move is not legal.
    #[pyo3(signature = (r#move=None))]
    fn svg(&self, r#move: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let mv = optional_text("move", "the move's notation", r#move)?;
        self.game.diagram(mv.as_deref()).map_err(value_error)
    }

    /// Pickled as the game's start and the moves played: unpickling replays them.
    fn __reduce__<'py>(&self, py: Python<'py>) -> Reduced<'py> {
        let (game, variant, infinite) = self.made.clone();
        let start = self.game.start_text().map(String::from);
        (
            py.get_type::<State>(),
            (game, variant, infinite, self.engine(), start),
            self.game.moves().to_vec(),
        )
    }

    /// Replays `moves` from the game's start (unpickling).
    fn __setstate__(&mut self, moves: &Bound<'_, PyAny>) -> PyResult<()> {
        let moves: Vec<String> = if moves.is_instance_of::<pyo3::types::PyString>() {
            None
        } else {
            moves.extract().ok()
        }
        .ok_or_else(|| {
            let what = match moves.try_iter() {
                Ok(_) if !moves.is_instance_of::<pyo3::types::PyString>() => {
                    format!("a {} of something else", type_name(moves))
                }
                _ => format!("a {}", type_name(moves)),
            };
            PyTypeError::new_err(format!(
                "state: expected the list of the moves played (each a str), not {what}"
            ))
        })?;
        let (game, variant, infinite) = &self.made;
        let start = TextGame::new(
            game_kind(game)?,
            variant,
            infinite.as_deref(),
            Some(self.game.engine()),
        )
        .map_err(value_error)?;
        let mut text_game = match self.game.start_text() {
            None => start,
            Some(text) => start.from_position(text).map_err(value_error)?,
        };
        for mv in &moves {
            text_game.play(mv).map_err(value_error)?;
        }
        self.game = text_game;
        Ok(())
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    fn __str__(&self) -> String {
        self.game.position_text()
    }
}

/// The columns of a batch of games: plies, winner code, end clause code, South's and North's
/// scores, and the clause names the codes index.
type Columns<'py> = (
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray1<u16>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u32>>,
    Vec<String>,
);

/// The most games one call plays (their columns take 15 bytes a game); more are played in
/// slices with `first`.
const MAX_BATCH: u64 = 50_000_000;

/// Games played between two looks at Python's signals' effect on the stop flag, at most.
const SLICE: u64 = 1 << 20;

/// Set when Ctrl-C (Python's KeyboardInterrupt) stops a batch: its searches stop at once.
static STOP: AtomicBool = AtomicBool::new(false);

/// The rows of a batch as columns.
#[derive(Default)]
struct Gathered {
    plies: Vec<u32>,
    winner: Vec<i8>,
    clause: Vec<u16>,
    south: Vec<u32>,
    north: Vec<u32>,
    clauses: Vec<String>,
}

impl Gathered {
    fn add(&mut self, rows: &[mancala_lab::playout::Row]) {
        for row in rows {
            self.plies.push(row.plies);
            self.winner.push(match row.winner() {
                "South" => 0,
                "North" => 1,
                "draw" => 2,
                _ => -1,
            });
            let name = row.end_clause();
            let code = match self.clauses.iter().position(|c| *c == name) {
                Some(i) => i,
                None => {
                    self.clauses.push(name);
                    self.clauses.len() - 1
                }
            };
            self.clause.push(code as u16);
            self.south.push(row.scores[0]);
            self.north.push(row.scores[1]);
        }
    }
}

/// Plays games `first .. first + n` of `seed` (the games `mancala-lab stats` plays with the same
/// seed and policy) on every core, without holding the interpreter; the rows as numpy arrays.
/// Ctrl-C stops it (KeyboardInterrupt), searches under way included.
#[pyfunction]
#[pyo3(signature = (game, variant, n, seed, policy="random", infinite=None, engine=None, max_plies=DEFAULT_MAX_PLIES, first=0, db=None))]
#[allow(clippy::too_many_arguments)]
fn batch_playouts<'py>(
    py: Python<'py>,
    game: &str,
    variant: &str,
    n: u64,
    seed: u64,
    policy: &str,
    infinite: Option<&str>,
    engine: Option<&str>,
    max_plies: u32,
    first: u64,
    db: Option<std::path::PathBuf>,
) -> PyResult<Columns<'py>> {
    let players: Players = policy.parse().map_err(value_error)?;
    // The perfect policy's folder: the one given, else MANCALA_LAB_DB; never a folder of its
    // own (the library refuses a perfect player with neither).
    if let Some(db) = db {
        mancala_lab::policy::perfect::use_root(db).map_err(value_error)?;
    }
    // A forced path the processor cannot run, or no path at all, is refused, not passed over.
    BatchPath::from_env().map_err(|e| PyValueError::new_err(format!("{PATH_VARIABLE}: {e}")))?;
    if max_plies == 0 {
        return Err(PyValueError::new_err(
            "max_plies 0: no game would have a move",
        ));
    }
    if n > MAX_BATCH {
        return Err(PyValueError::new_err(format!(
            "n {n}: at most {MAX_BATCH} games a call; play more in slices with first="
        )));
    }
    let end = first
        .checked_add(n)
        .ok_or_else(|| PyValueError::new_err("first + n passes 2**64"))?;
    let text_game = TextGame::new(game_kind(game)?, variant, infinite, engine_kind(engine)?)
        .map_err(value_error)?;
    let engine = text_game.playout_engine();
    // A policy that cannot play this game (perfect without its databases) is refused by the
    // playouts before any game, as the command line refuses it.
    let play = Play::new(players, max_plies);
    STOP.store(false, Ordering::SeqCst);
    let mut gathered = Gathered::default();
    let mut from = first;
    while from < end {
        let slice = from..end.min(from.saturating_add(SLICE));
        from = slice.end;
        // Played on a thread of its own while this one, without the interpreter, looks at
        // Python's signals every 20 ms: Ctrl-C sets the stop flag and is raised here.
        let engine = &engine;
        let (rows, signal) = interruptible(py, &STOP, || {
            engine.play_parallel_until(play, seed, slice, &STOP)
        });
        if let Some(e) = signal {
            return Err(e);
        }
        let rows = rows
            .map_err(|_| PyValueError::new_err("a game panicked; please report it"))?
            .map_err(value_error)?
            .ok_or_else(|| PyValueError::new_err("stopped"))?;
        gathered.add(&rows);
    }
    let g = gathered;
    Ok((
        g.plies.into_pyarray(py),
        g.winner.into_pyarray(py),
        g.clause.into_pyarray(py),
        g.south.into_pyarray(py),
        g.north.into_pyarray(py),
        g.clauses,
    ))
}

/// Runs `work` on a thread of its own while this one, without the interpreter, looks at
/// Python's signals every 20 ms: Ctrl-C sets `stop` (which `work` heeds) and is handed back once
/// `work` has returned, with what it returned (an error if it panicked).
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> (std::thread::Result<T>, Option<PyErr>) {
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = std::sync::mpsc::channel::<()>();
            let worker = scope.spawn(move || {
                let out = work();
                let _ = done.send(());
                out
            });
            let mut signal = None;
            let wait = std::time::Duration::from_millis(20);
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(wait)
            {
                if signal.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        stop.store(true, Ordering::SeqCst);
                        signal = Some(e);
                    }
                }
            }
            (worker.join(), signal)
        })
    })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // NumPy's C interface, loaded now: loaded later, a pending KeyboardInterrupt could fail it.
    let _ = PyArray1::<u32>::zeros(m.py(), 0, false);
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(batch_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(study::run_study, m)?)?;
    m.add_class::<vector::VectorEnv>()?;
    Ok(())
}
