//! A rule reading written `PRESET[:NAME=VALUE,...]`: a preset, then parameters that change its
//! choices one at a time (Kalah's and Oware's `--variant`), and why such a text is refused.

use crate::text::quoted;

/// A game's reading that can be written as a preset and parameters.
pub trait Written: Sized + Copy {
    /// The game's name in messages (`Kalah`).
    const GAME: &'static str;
    /// The preset names, the default first.
    const PRESET_NAMES: &'static [&'static str];
    /// The parameter names, in the order they are printed.
    const PARAMETER_NAMES: &'static [&'static str];
    /// The preset called `name`.
    fn preset(name: &str) -> Option<Self>;
    /// Sets the parameter `name` (one of [`Written::PARAMETER_NAMES`]) from its written
    /// `value`, or says what the value may be.
    fn set(&mut self, name: &str, value: &str) -> Result<(), &'static str>;
}

/// Reads `written` as `PRESET[:NAME=VALUE,...]`, each parameter at most once.
pub fn parse<V: Written>(written: &str) -> Result<V, ReadingError> {
    let (name, parameters) = match written.split_once(':') {
        Some((name, rest)) => (name, Some(rest)),
        None => (written, None),
    };
    let mut reading = V::preset(name).ok_or_else(|| ReadingError::UnknownPreset {
        game: V::GAME,
        name: name.to_string(),
        known: V::PRESET_NAMES,
    })?;
    let mut seen: Vec<&str> = Vec::new();
    for parameter in parameters.into_iter().flat_map(|p| p.split(',')) {
        let (key, value) = parameter
            .split_once('=')
            .ok_or_else(|| ReadingError::NoValue {
                game: V::GAME,
                parameter: parameter.to_string(),
            })?;
        if !V::PARAMETER_NAMES.contains(&key) {
            return Err(ReadingError::UnknownParameter {
                game: V::GAME,
                name: key.to_string(),
                known: V::PARAMETER_NAMES,
            });
        }
        if seen.contains(&key) {
            return Err(ReadingError::Repeated {
                game: V::GAME,
                name: key.to_string(),
            });
        }
        reading
            .set(key, value)
            .map_err(|expected| ReadingError::BadValue {
                game: V::GAME,
                name: key.to_string(),
                value: value.to_string(),
                expected,
            })?;
        seen.push(key);
    }
    Ok(reading)
}

/// Why a text is not a reading of a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadingError {
    /// The preset is not one of the game's.
    #[error("unknown {game} variant {} (known: {})", quoted(.name), .known.join(", "))]
    UnknownPreset {
        /// The game.
        game: &'static str,
        /// The name written.
        name: String,
        /// The game's presets.
        known: &'static [&'static str],
    },
    /// A parameter name is not one of the game's.
    #[error("unknown {game} variant parameter {} (known: {})", quoted(.name), .known.join(", "))]
    UnknownParameter {
        /// The game.
        game: &'static str,
        /// The name written.
        name: String,
        /// The game's parameters.
        known: &'static [&'static str],
    },
    /// A parameter without `=VALUE`.
    #[error("{game} variant parameter {} has no value (write NAME=VALUE)", quoted(.parameter))]
    NoValue {
        /// The game.
        game: &'static str,
        /// The parameter as written.
        parameter: String,
    },
    /// A parameter given twice.
    #[error("{game} variant parameter {} is given twice", quoted(.name))]
    Repeated {
        /// The game.
        game: &'static str,
        /// The parameter.
        name: String,
    },
    /// A value out of range or of the wrong kind.
    #[error("{game} variant parameter {name}={}: expected {expected}", quoted(.value))]
    BadValue {
        /// The game.
        game: &'static str,
        /// The parameter.
        name: String,
        /// The value written.
        value: String,
        /// What it may be.
        expected: &'static str,
    },
}

impl From<ReadingError> for crate::engine::EngineError {
    fn from(e: ReadingError) -> crate::engine::EngineError {
        crate::engine::EngineError::Reading(e.to_string())
    }
}
