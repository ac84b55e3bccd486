//! Why a game has no engine for a reading: the one error the registry's dispatch gives
//! ([`crate::registry::engine`]).

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
