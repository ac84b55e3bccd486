//! The value of a board beyond the built levels: alpha-beta to the end of the game with a table of
//! bounds, the databases as leaves. Sound where play cannot go round in circles (Kalah).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// The search stopped before it found the value, with the bounds it had proven for the board
    /// asked about (from its player to move's side).
    #[error("the search gave up after {boards} boards ({why})")]
    GaveUp {
        /// Boards expanded.
        boards: u64,
        /// What stopped it.
        why: Stop,
        /// The value is at least this.
        lo: i8,
        /// The value is at most this.
        hi: i8,
    },
}

/// What stopped a search short of the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It expanded as many boards as its budget.
    Budget,
    /// It was asked to stop.
    Interrupted,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stop::Budget => "its budget",
            Stop::Interrupted => "interrupted",
        })
    }
}

/// How often (in boards expanded) a search reports its progress and looks at its stop flag.
const WATCH_EVERY: u64 = 1 << 20;

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
    /// Set by another thread to stop the search.
    stop: Option<&'a AtomicBool>,
    /// Told the boards expanded and the bounds proven so far, every [`WATCH_EVERY`] boards.
    watch: Option<&'a dyn Fn(u64, i8, i8)>,
    /// The bounds proven so far for the board a value is asked for.
    bounds: (i32, i32),
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
            stop: None,
            watch: None,
            bounds: (0, 0),
        }
    }

    /// The same search, stopped (with the bounds proven so far) once `flag` is set.
    pub fn stop_on(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// The same search, telling `watch` the boards expanded and the bounds proven so far for the
    /// board asked about, every million boards or so.
    pub fn watched(mut self, watch: &'a dyn Fn(u64, i8, i8)) -> Self {
        self.watch = Some(watch);
        self
    }

    /// The exact value of `board` for its player to move; `cycles`: the game's play can repeat
    /// a board, so only boards within the databases are answered.
    pub fn value(&mut self, board: &Board, cycles: bool) -> Result<i8, SearchError> {
        self.value_near(board, cycles, 0)
    }

    /// [`Search::value`], the search beyond the databases trying `guess` first: a guess near the
    /// value saves work, and the value found is the same whatever the guess.
    pub fn value_near(
        &mut self,
        board: &Board,
        cycles: bool,
        guess: i8,
    ) -> Result<i8, SearchError> {
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
        self.mtdf(board, i32::from(guess)).map(|v| v as i8)
    }

    /// MTD(f): null-window searches that close in on the value from a first guess, each
    /// narrowing the bounds the table keeps, until they meet; a search that gives up says the
    /// bounds it has proven.
    fn mtdf(&mut self, board: &Board, guess: i32) -> Result<i32, SearchError> {
        let n = seeds(board) as i32;
        let (mut lo, mut hi) = (-n, n);
        let mut guess = guess.clamp(lo, hi);
        while lo < hi {
            self.bounds = (lo, hi);
            let beta = if guess == lo { guess + 1 } else { guess };
            // A search that gives up reports `self.bounds`, the bounds proven so far.
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
            return Err(self.gave_up(Stop::Budget));
        }
        if self.nodes.is_multiple_of(WATCH_EVERY) {
            if let Some(watch) = self.watch {
                watch(self.nodes, self.bounds.0 as i8, self.bounds.1 as i8);
            }
            if self.stop.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                return Err(self.gave_up(Stop::Interrupted));
            }
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

    /// The search's end short of the value (the bounds are set where the value was asked for).
    fn gave_up(&self, why: Stop) -> SearchError {
        let (lo, hi) = (self.bounds.0 as i8, self.bounds.1 as i8);
        SearchError::GaveUp {
            boards: self.nodes - 1,
            why,
            lo,
            hi,
        }
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
