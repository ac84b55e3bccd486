//! The value of a board beyond the built levels: alpha-beta to the end of the game with a table of
//! bounds, the databases as leaves. Sound where play cannot go round in circles (Kalah).

use std::collections::HashMap;

use super::{seeds, through, Board, Database, Edge, Retro};

/// Why a board cannot be searched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// Play can cycle above the built levels, where a table of values is not sound.
    #[error(
        "the board holds {seeds} seeds and the databases {}; {game} play can go round in \
         circles, so solve answers only within the databases: build them to {seeds} seeds \
         (solve --build --seeds {seeds})",
        if *built < 0 { "are not built".to_string() } else { format!("reach {built}") }
    )]
    BeyondDatabases {
        /// The game.
        game: &'static str,
        /// Seeds on the board.
        seeds: u32,
        /// The largest level built, or -1 for none.
        built: i64,
    },
    /// The search visited more boards than its budget.
    #[error("the search gave up after {0} boards (its budget)")]
    Budget(u64),
}

/// What a finished search proved for a board: the bounds of its value, the pit of the move that
/// gave the best (searched first next time) and the log2 of the boards its search expanded (which
/// entries a full table keeps).
#[derive(Clone, Copy, Debug)]
struct Entry {
    lo: i8,
    hi: i8,
    best: u8,
    size: u8,
}

/// Alpha-beta over `retro`'s moves with `db` as leaves.
pub struct Search<'a, R: Retro + ?Sized> {
    retro: &'a R,
    db: &'a Database,
    table: HashMap<Board, Entry>,
    /// Boards expanded so far.
    pub nodes: u64,
    budget: u64,
}

/// A table holding this many boards (about 1.1 GiB) drops those of its smallest searches.
const TABLE_LIMIT: usize = 56_000_000;

impl<'a, R: Retro + ?Sized> Search<'a, R> {
    /// A search of `retro` with the levels of `db`, expanding at most `budget` boards.
    pub fn new(retro: &'a R, db: &'a Database, budget: u64) -> Self {
        Search {
            retro,
            db,
            table: HashMap::new(),
            nodes: 0,
            budget,
        }
    }

    /// The exact value of `board` for its player to move; `cycles`: the game's play can repeat
    /// a board, so only boards within the databases are answered.
    pub fn value(&mut self, board: &Board, cycles: bool) -> Result<i8, SearchError> {
        if let Some(v) = self.db.value(board) {
            return Ok(v);
        }
        if cycles {
            return Err(SearchError::BeyondDatabases {
                game: self.retro.game(),
                seeds: seeds(board),
                built: i64::from(self.db.levels()) - 1,
            });
        }
        self.mtdf(board).map(|v| v as i8)
    }

    /// MTD(f): null-window searches that close in on the value from a first guess (0), each
    /// narrowing the bounds the table keeps, until they meet.
    fn mtdf(&mut self, board: &Board) -> Result<i32, SearchError> {
        let n = seeds(board) as i32;
        let (mut lo, mut hi) = (-n, n);
        let mut guess = 0;
        while lo < hi {
            let beta = if guess == lo { guess + 1 } else { guess };
            guess = self.alpha_beta(board, beta - 1, beta)?;
            if guess < beta {
                hi = guess;
            } else {
                lo = guess;
            }
        }
        Ok(lo)
    }

    /// The value of each move of `board` (pit, value), in pit order; empty when the game is over.
    pub fn moves(&mut self, board: &Board, cycles: bool) -> Result<Vec<(u8, i8)>, SearchError> {
        let mut edges = Vec::new();
        if self.retro.expand(board, &mut edges).is_some() {
            return Ok(Vec::new());
        }
        let mut values = Vec::new();
        for (pit, edge) in edges {
            let v = match edge {
                Edge::Over(v) => v,
                Edge::Next { gain, board, again } => {
                    through(gain, again, self.value(&board, cycles)?)
                }
            };
            values.push((pit, v));
        }
        Ok(values)
    }

    /// Fail-soft alpha-beta: the value if it lies in (alpha, beta), else a bound beyond the
    /// window on that side.
    fn alpha_beta(
        &mut self,
        board: &Board,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, SearchError> {
        if let Some(v) = self.db.value(board) {
            return Ok(i32::from(v));
        }
        // No board is worth more than the seeds on it, to either player.
        let n = seeds(board) as i32;
        let entry = self.table.get(board).copied();
        let (lo, hi) = entry.map_or((-n, n), |e| (i32::from(e.lo), i32::from(e.hi)));
        if lo == hi || lo >= beta {
            return Ok(lo);
        }
        if hi <= alpha {
            return Ok(hi);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let before = self.nodes;
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(SearchError::Budget(self.budget));
        }
        let mut edges = Vec::with_capacity(6);
        if let Some(v) = self.retro.expand(board, &mut edges) {
            return Ok(i32::from(v));
        }
        // The best move of an earlier search first, then extra turns, then the larger gains.
        let hint = entry.map(|e| e.best);
        edges.sort_by_key(|&(pit, e)| {
            let first = i32::from(Some(pit) != hint);
            match e {
                Edge::Over(v) => (first, 0, -i32::from(v)),
                Edge::Next { gain, again, .. } => (first, i32::from(!again), -i32::from(gain)),
            }
        });
        let window = (alpha, beta);
        let (mut best, mut best_pit) = (i32::MIN, 0);
        for &(pit, edge) in &edges {
            let v = match edge {
                Edge::Over(v) => i32::from(v),
                Edge::Next { gain, board, again } => {
                    let g = i32::from(gain);
                    if again {
                        g + self.alpha_beta(&board, alpha - g, beta - g)?
                    } else {
                        g - self.alpha_beta(&board, g - beta, g - alpha)?
                    }
                }
            };
            if v > best {
                (best, best_pit) = (v, pit);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let (mut lo, mut hi) = (lo, hi);
        if best <= window.0 {
            hi = hi.min(best);
        } else if best >= window.1 {
            lo = lo.max(best);
        } else {
            (lo, hi) = (best, best);
        }
        if self.table.len() >= TABLE_LIMIT {
            self.shrink();
        }
        let entry = Entry {
            lo: lo as i8,
            hi: hi as i8,
            best: best_pit,
            size: (64 - (self.nodes - before).leading_zeros()) as u8,
        };
        self.table.insert(*board, entry);
        Ok(best)
    }

    /// Drops the entries of the smallest searches until the table is at most half full: they
    /// cost the least to search again.
    fn shrink(&mut self) {
        for size in 1..=64 {
            self.table.retain(|_, e| e.size > size);
            if self.table.len() <= TABLE_LIMIT / 2 {
                return;
            }
        }
    }
}
