//! Exact play: endgame databases built by retrograde analysis, one seed count at a time, their
//! level files, and a search that uses them as leaves. The games plug in through [`Retro`]
//! ([`crate::retro`], the layer below).

mod bits;
pub mod build;
pub mod check;
pub mod forced;
pub mod huge;
pub mod level_file;
pub mod rank;
pub mod search;

pub(crate) use crate::retro::through;
pub use crate::retro::{seeds, Board, Edge, Retro, MAX_PITS};
pub use build::{build_level, Database, Interrupted, Report};
pub use level_file::LevelError;
pub use rank::Ranks;

/// The most seeds a level may hold (values are one signed byte).
pub const MAX_SEEDS: u32 = 100;

/// Levels up to a seed count that cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedsError {
    /// More seeds than a level file holds.
    #[error("at most {MAX_SEEDS}")]
    PastTheFiles,
    /// More seeds than the game has in all: no board of it has that many.
    #[error(
        "at most {most} ({game} has {most} seeds in all, so none of its boards holds more{hint})"
    )]
    PastTheGame {
        /// The seeds of the game in all.
        most: u32,
        /// The game, as `Oware` or `Kalah(6,4)`.
        game: String,
        /// What else to do, if anything (empty, or starting with `; `).
        hint: String,
    },
}

/// Whether levels up to `seeds` seeds can be held in level files.
pub fn check_seeds(seeds: u32) -> Result<(), SeedsError> {
    if seeds > MAX_SEEDS {
        return Err(SeedsError::PastTheFiles);
    }
    Ok(())
}

/// Whether levels up to `most` seeds are worth building for `retro`'s game: no more than the
/// seeds it has in all ([`Retro::seeds_in_all`]), nor than a level file holds.
pub fn check_build(retro: &dyn Retro, most: u32) -> Result<(), SeedsError> {
    if let Some(all) = retro.seeds_in_all() {
        if most > all && all < MAX_SEEDS {
            let (game, hint) = match retro.game() {
                "kalah" => {
                    let m = retro.pits() as u32 / 2;
                    (
                        format!("Kalah({m},{})", all / (2 * m)),
                        format!(
                            "; the levels serve every Kalah({m},n): for a larger game, name its \
                             n in the reading, seeds=n"
                        ),
                    )
                }
                "oware" => ("Oware".to_string(), String::new()),
                other => (other.to_string(), String::new()),
            };
            return Err(SeedsError::PastTheGame {
                most: all,
                game,
                hint,
            });
        }
    }
    check_seeds(most)
}
