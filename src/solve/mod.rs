//! Exact play: endgame databases built by retrograde analysis, one seed count at a time, their
//! level files, and a search that uses them as leaves. The games plug in through [`Retro`].

mod bits;
pub mod build;
pub mod check;
pub mod forced;
pub mod huge;
pub mod judge;
pub mod level_file;
pub mod rank;
pub mod search;

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

/// The most pits a board holds (Oware's twelve, Kalah(6,n)'s twelve).
pub const MAX_PITS: usize = 12;

/// A board as the databases see it: the pits only, the player to move's row first (from its left),
/// then the opponent's; entries past the game's pit count are 0.
pub type Board = [u8; MAX_PITS];

/// Where one move leads, from the point of view of the player who makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The game is over after the move: the final difference of the seeds won from here on
    /// (mover minus opponent), any sweep included.
    Over(i8),
    /// The game goes on at `board` (seen from the player then to move) after the mover won
    /// `gain` seeds more than the opponent; `again`: the same player moves (Kalah's extra turn).
    Next {
        /// Seeds the mover won with the move, net of any the opponent won.
        gain: i8,
        /// The board after the move, from the next mover's side.
        board: Board,
        /// Whether the mover moves again.
        again: bool,
    },
}

impl Edge {
    /// The value of the move, given the value of the board it leads to (from its mover's side).
    #[inline]
    pub fn value(&self, next: impl FnOnce(&Board) -> i8) -> i8 {
        match *self {
            Edge::Over(v) => v,
            Edge::Next { gain, board, again } => through(gain, again, next(&board)),
        }
    }
}

/// The value of a move that wins `gain` and leads to a board worth `next` to its player to move,
/// who is the mover again when `again`.
#[inline]
pub(crate) fn through(gain: i8, again: bool, next: i8) -> i8 {
    if again {
        gain + next
    } else {
        gain - next
    }
}

/// A game's rules as the databases need them: the moves of a board and where they lead.
pub trait Retro: Sync {
    /// The game's name, as in the level files' headers (`oware`, `kalah`).
    fn game(&self) -> &'static str;
    /// The reading as far as it changes values, as in the headers and folder names.
    fn reading(&self) -> String;
    /// Which engine plays the moves (`reference` or `optimized`), for messages.
    fn engine(&self) -> &'static str;
    /// Pits on the board, both rows.
    fn pits(&self) -> usize;
    /// The moves of `board` into `out` (pit from the mover's left, where it leads); returns the
    /// final difference instead when the game is over at `board` (then `out` is left empty).
    fn expand(&self, board: &Board, out: &mut Vec<(u8, Edge)>) -> Option<i8>;
    /// Boards of the same seed count from which a move may lead to `board`, into `out`: every
    /// such board, and perhaps others (a board listed that has no such move costs time, one left
    /// out makes the build wrong). Returns false when the game offers none; the build then
    /// re-evaluates every board on every pass. A game that lists them must make every move
    /// between boards of one seed count win nothing and pass the turn (the build checks).
    fn predecessors(&self, _board: &Board, _out: &mut Vec<Board>) -> bool {
        false
    }
    /// Whether no line of moves within one seed count comes back to a board it left (Kalah:
    /// such a move only carries seeds forward along the mover's row). The build then values each
    /// board once, the boards it leads to first, instead of iterating to a fixpoint. A game that
    /// says so wrongly makes the build stop with a panic, never a wrong value.
    fn acyclic(&self) -> bool {
        false
    }
    /// The seeds of the game in all (those of its start): no board of it holds more, so no level
    /// above them is worth building. `None` when the game does not say.
    fn seeds_in_all(&self) -> Option<u32> {
        None
    }
}

/// Seeds on `board`.
#[inline]
pub fn seeds(board: &Board) -> u32 {
    board.iter().map(|&s| u32::from(s)).sum()
}
