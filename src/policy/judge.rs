//! How good a policy's moves are against perfect play: on random boards of one seed count, the
//! share of its moves that lose value and the mean value lost, with 95% intervals.

use rayon::prelude::*;

use super::{choose, Policy, Scratch};
use crate::game::{game_keys, Draw, Game};
use crate::solve::rank::drawn_rank;
use crate::solve::search::{Search, SearchError};
use crate::solve::{Board, Database, Edge, Retro};

/// A sample of boards to judge policies on: `boards` boards of `seeds` seeds drawn by `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Seeds on every board.
    pub seeds: u32,
    /// Boards drawn.
    pub boards: u64,
    /// The random seed that draws them (and the policies' random choices).
    pub seed: u64,
    /// Boards a search beyond the databases may expand for one board's moves.
    pub budget: u64,
}

/// One policy's moves on a sample, against the best move's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    /// Boards judged (each with two moves or more).
    pub boards: u64,
    /// Moves worth less than the best.
    pub losing: u64,
    /// Moves that turn a won game into a draw or a loss, or a drawn one into a loss.
    pub worse_result: u64,
    /// The value lost, summed over the boards.
    pub lost: u64,
    /// The squares of the value lost, summed.
    pub lost_squared: u64,
    /// For a policy that searches: its moves on the boards where its search met no game end
    /// the history decided (a repetition), where no repetition rule can have swayed it.
    pub without_history: Option<Split>,
}

/// A searching policy's moves on the boards where its search met no game end the history
/// decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// Boards where the search met one (the rest are counted below).
    pub history_boards: u64,
    /// Boards where it met none.
    pub boards: u64,
    /// Of those, moves worth less than the best.
    pub losing: u64,
    /// Of those, moves that worsen the result.
    pub worse_result: u64,
}

impl Split {
    fn add(self, other: Split) -> Split {
        Split {
            history_boards: self.history_boards + other.history_boards,
            boards: self.boards + other.boards,
            losing: self.losing + other.losing,
            worse_result: self.worse_result + other.worse_result,
        }
    }

    /// The share of losing moves, with its Wilson interval (95%).
    pub fn share(&self) -> (f64, f64, f64) {
        let p = self.losing as f64 / self.boards.max(1) as f64;
        let (lo, hi) = wilson(p, self.boards);
        (p, lo, hi)
    }

    /// The share of moves that worsen the result, with its Wilson interval (95%).
    pub fn worse_share(&self) -> (f64, f64, f64) {
        let p = self.worse_result as f64 / self.boards.max(1) as f64;
        let (lo, hi) = wilson(p, self.boards);
        (p, lo, hi)
    }
}

impl Judged {
    fn add(mut self, other: Judged) -> Judged {
        self.boards += other.boards;
        self.losing += other.losing;
        self.worse_result += other.worse_result;
        self.lost += other.lost;
        self.lost_squared += other.lost_squared;
        self.without_history = match (self.without_history, other.without_history) {
            (Some(a), Some(b)) => Some(a.add(b)),
            (a, b) => a.or(b),
        };
        self
    }

    /// The share of losing moves.
    pub fn share(&self) -> f64 {
        self.losing as f64 / self.boards.max(1) as f64
    }

    /// The share of moves that worsen the result.
    pub fn worse_share(&self) -> f64 {
        self.worse_result as f64 / self.boards.max(1) as f64
    }

    /// The Wilson score interval (95%) of the share of losing moves.
    pub fn share_interval(&self) -> (f64, f64) {
        wilson(self.share(), self.boards)
    }

    /// The Wilson score interval (95%) of the share of moves that worsen the result.
    pub fn worse_interval(&self) -> (f64, f64) {
        wilson(self.worse_share(), self.boards)
    }

    /// The mean value lost a move.
    pub fn mean_loss(&self) -> f64 {
        self.lost as f64 / self.boards.max(1) as f64
    }

    /// The normal 95% interval of the mean value lost.
    pub fn mean_interval(&self) -> (f64, f64) {
        let n = self.boards.max(1) as f64;
        let mean = self.mean_loss();
        let variance =
            (self.lost_squared as f64 / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
        let half = 1.96 * (variance / n).sqrt();
        (mean - half, mean + half)
    }
}

/// The Wilson score interval (95%) of a share `p` of `n` trials.
fn wilson(p: f64, n: u64) -> (f64, f64) {
    let (n, z) = (n.max(1) as f64, 1.96f64);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let scale = 1.0 + z * z / n;
    ((centre - spread) / scale, (centre + spread) / scale)
}

/// Why a sample cannot be judged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// The game has no endgame databases.
    #[error("{0}")]
    NoDatabases(String),
    /// A board's moves could not be valued.
    #[error("board {board:?}: {error}")]
    Search {
        /// The board, mover's row first.
        board: Vec<u8>,
        /// What the search said.
        error: SearchError,
    },
    /// A policy played a move the databases do not know (the engines disagree).
    #[error("board {board:?}: the policy played pit {pit}, which is not among the board's moves")]
    UnknownMove {
        /// The board, mover's row first.
        board: Vec<u8>,
        /// The pit played, from the mover's left.
        pit: u8,
    },
    /// Boards of this many seeds seldom leave the mover a choice.
    #[error("no board of {0} seeds with two moves or more was drawn in 1000 tries")]
    NoChoice(u32),
}

/// Board `k` of the sample: uniform among the boards of `seeds` seeds whose mover has two moves
/// or more, with the value of each of its moves.
fn board_of<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    sample: &Sample,
    cycles: bool,
    k: u64,
) -> Result<(Board, Vec<(u8, i8)>), JudgeError> {
    let draw = Draw::new(game_keys(sample.seed, k), 0);
    let count = db.ranks().count(sample.seeds);
    let mut edges: Vec<(u8, Edge)> = Vec::new();
    for attempt in 0..1000 {
        let rank = drawn_rank(draw, attempt, count);
        let board = db.ranks().unrank(rank, sample.seeds);
        edges.clear();
        if retro.expand(&board, &mut edges).is_some() || edges.len() < 2 {
            continue;
        }
        let mut search = Search::new(retro, db, sample.budget);
        let values = search
            .moves(&board, cycles)
            .map_err(|error| JudgeError::Search {
                board: board[..retro.pits()].to_vec(),
                error,
            })?;
        return Ok((board, values));
    }
    Err(JudgeError::NoChoice(sample.seeds))
}

/// Judges each of `policies` on the boards of `sample`, valued by `db` (and a search beyond it
/// where the game's play cannot cycle); the same sample and seed give the same figures whatever
/// the thread count. `done` is called after every board.
pub fn judge<G: Game>(
    game: &G,
    db: &Database,
    policies: &[Policy],
    sample: &Sample,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<Judged>, JudgeError> {
    let (retro, cycles) = game.retro().map_err(JudgeError::NoDatabases)?;
    let retro = retro.as_ref();
    let zero = || vec![Judged::default(); policies.len()];
    (0..sample.boards)
        .into_par_iter()
        .map(|k| {
            let (board, values) = board_of(retro, db, sample, cycles, k)?;
            let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
            let start = game
                .board_state(&board)
                .ok_or_else(|| JudgeError::NoDatabases(game.game_name().into()))?;
            let mut out = zero();
            for (judged, &policy) in out.iter_mut().zip(policies) {
                // A fresh scratch: a search's tables never carry one board's work to the next.
                let mut scratch = Scratch::default();
                let mut state = start.clone();
                let draw = Draw::new(game_keys(sample.seed, k), 1);
                let Some(Ok((mv, _))) = choose(game, policy, &mut state, draw, &mut scratch) else {
                    continue;
                };
                let pit = game.move_code(mv);
                let Some(&(_, value)) = values.iter().find(|&&(p, _)| p == pit) else {
                    let board = board[..retro.pits()].to_vec();
                    return Err(JudgeError::UnknownMove { board, pit });
                };
                let lost = u64::from(best.abs_diff(value));
                let losing = u64::from(lost > 0);
                // Nothing is won yet on a drawn board: the value's sign is the result.
                let worse_result = u64::from(value.signum() < best.signum());
                let without_history = scratch.history_ends(policy).map(|met| match met {
                    0 => Split {
                        history_boards: 0,
                        boards: 1,
                        losing,
                        worse_result,
                    },
                    _ => Split {
                        history_boards: 1,
                        ..Split::default()
                    },
                });
                *judged = Judged {
                    boards: 1,
                    losing,
                    worse_result,
                    lost,
                    lost_squared: lost * lost,
                    without_history,
                };
            }
            done();
            Ok(out)
        })
        .try_reduce(zero, |a, b| {
            Ok(a.into_iter().zip(b).map(|(x, y)| x.add(y)).collect())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_match_worked_figures() {
        // Wilson's interval for 50 of 100, by hand: centre 0.5 + z²/200 = 0.519208, spread
        // 1.96 * sqrt(0.0025 + z²/40000) = 0.099866, scale 1.038416: 0.4038 to 0.5962.
        let j = Judged {
            boards: 100,
            losing: 50,
            ..Judged::default()
        };
        let (lo, hi) = j.share_interval();
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        // Losses 0, 0, 2, 2: mean 1, sample variance 4/3, half width 1.96 * sqrt(1/3).
        let j = Judged {
            boards: 4,
            losing: 2,
            worse_result: 1,
            lost: 4,
            lost_squared: 8,
            without_history: None,
        };
        let (lo, hi) = j.mean_interval();
        let half = 1.96 * (1.0f64 / 3.0).sqrt();
        assert!((lo - (1.0 - half)).abs() < 1e-9 && (hi - (1.0 + half)).abs() < 1e-9);
        assert_eq!(j.worse_share(), 0.25);
    }
}
