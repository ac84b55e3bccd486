//! What every game's endgame databases stand on: a board as they see it (the pits only, the
//! mover's row first), where a move leads ([`Edge`]), and a game's rules as they need them
//! ([`Retro`]). Each game with databases implements [`Retro`] in its folder (`retro.rs`), its
//! engines hand it out through [`crate::game::Game::retro`], and [`crate::solve`] builds, checks
//! and searches the databases over it.

use crate::side::Side;

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

/// `pits` (South's row, then North's, `m` a row) as the databases see them: `to_move`'s row first.
pub fn mover_first(pits: &[u8], m: usize, to_move: Side) -> Board {
    let mut board = [0; MAX_PITS];
    let (own, theirs) = match to_move {
        Side::South => (0, m),
        Side::North => (m, 0),
    };
    board[..m].copy_from_slice(&pits[own..own + m]);
    board[m..2 * m].copy_from_slice(&pits[theirs..theirs + m]);
    board
}

/// A position exact play values (`solve`): its board as the databases see it, the seeds each
/// player has won so far, who moves and the names of the mover's pits; read from a position
/// text, or a game's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The pits, the mover's row first.
    pub board: Board,
    /// The seeds South and North have won so far.
    pub won: [u8; 2],
    /// The player to move.
    pub to_move: Side,
    /// The names of the mover's pits from its left, as the game's notation writes its moves.
    pub pit_names: Vec<char>,
    /// How a report names the position where it is a game's start (`the start of Kalah(6,4)`);
    /// `None` for a written position.
    pub start: Option<String>,
}
