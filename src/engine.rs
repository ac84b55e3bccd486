//! The common face of every engine, as the differential checker sees it: moves, positions and
//! results as canonical text, so that engines sharing no code can be compared ply by ply.

/// Why no engine plays a reading: an unknown preset, or a reading the optimized engine refuses.
/// Each game turns its own reading errors into these (`From` in its folder).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// Not a preset (or reading choice) of the game.
    #[error("{0}")]
    Reading(String),
    /// A reading the optimized engine does not play.
    #[error("{0}")]
    Unsupported(String),
}

/// An engine of one game under one rule reading.
///
/// Its refusals (`parse_state`, `play`) are text like everything else it returns: the
/// differential checker compares and reports them, no caller tells them apart.
pub trait Engine {
    /// A game state (position plus whatever history the rules need).
    type State: Clone;

    /// A short name for reports, e.g. `bao-reference`.
    fn name(&self) -> String;

    /// The start of a game.
    fn start(&self) -> Self::State;

    /// A state from the game's position text format.
    fn parse_state(&self, text: &str) -> Result<Self::State, String>;

    /// The legal moves in canonical notation, in the engine's canonical order.
    fn legal(&self, state: &Self::State) -> Vec<String>;

    /// Plays a move given in canonical notation.
    fn play(&self, state: &Self::State, mv: &str) -> Result<Self::State, String>;

    /// The state's position in the game's text format.
    fn position_text(&self, state: &Self::State) -> String;

    /// The result once the game is over (winner and clause), else `None`.
    fn result(&self, state: &Self::State) -> Option<String>;

    /// The legal moves and the result together; an engine may override this to do the shared work
    /// (such as proving moves infinite) once. It must equal `(legal(state), result(state))`.
    fn legal_and_result(&self, state: &Self::State) -> (Vec<String>, Option<String>) {
        (self.legal(state), self.result(state))
    }
}

/// `legal_and_result` for a game that is over exactly when no move is legal: the result is only
/// worked out for an empty move list, so the legal moves are found once.
pub fn legal_then_result<E: Engine + ?Sized>(
    engine: &E,
    state: &E::State,
) -> (Vec<String>, Option<String>) {
    let legal = engine.legal(state);
    let result = if legal.is_empty() {
        engine.result(state)
    } else {
        None
    };
    (legal, result)
}
