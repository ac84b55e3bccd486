//! The value of a board beyond the built levels: alpha-beta to the end of the game with a table of
//! bounds, the databases as leaves. Sound where play cannot go round in circles (Kalah).

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;
use rustc_hash::{FxBuildHasher, FxHashMap};

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
    table: Table,
    /// Boards expanded so far.
    nodes: AtomicU64,
    budget: u64,
    /// Threads the search may run on (1: one, in a fixed order).
    threads: usize,
    /// Set by another thread to stop the search.
    stop: Option<&'a AtomicBool>,
    /// Told the boards expanded and the bounds proven so far, every [`WATCH_EVERY`] boards.
    watch: Option<&'a (dyn Fn(u64, i8, i8) + Sync)>,
    /// The bounds proven so far for the board a value is asked for.
    bounds: (i32, i32),
}

/// The table's size unless told otherwise, in MiB.
pub const TABLE_MIB: u64 = 2048;

/// Bytes a place of the table takes: a board and its entry (16), and the place's tag byte.
const TABLE_PLACE_BYTES: u64 = 17;

/// Parts of the table, each behind its own lock, so that threads seldom wait for each other.
const TABLE_PARTS: usize = 64;

/// Sibling moves are searched on several threads only on boards this many seeds or more above
/// the largest level, where each search is long enough to pay for the split.
const SPLIT_ABOVE: u32 = 6;

/// The bounds proven so far, by board, in parts that each drop their smallest searches when
/// full.
struct Table {
    parts: Vec<Mutex<FxHashMap<Board, Entry>>>,
    /// The most boards a part holds.
    part_limit: usize,
}

impl Table {
    /// A table of at most about `mib` MiB. Each part's own table has a power of two of places
    /// and fills at most 7 of each 8 of them, so a part holds at most 7/8 of the largest power
    /// of two of places that fits its share.
    fn new(mib: u64) -> Table {
        let share = mib.saturating_mul(1 << 20) / TABLE_PARTS as u64 / TABLE_PLACE_BYTES;
        let places = if share < 8 { 8 } else { 1u64 << share.ilog2() };
        Table {
            parts: (0..TABLE_PARTS).map(|_| Mutex::default()).collect(),
            part_limit: (places / 8 * 7) as usize,
        }
    }

    fn part(&self, board: &Board) -> std::sync::MutexGuard<'_, FxHashMap<Board, Entry>> {
        // Bits the parts' own tables leave alone: they place a board by the low bits of its hash
        // and tell boards apart by the top seven.
        let i = (FxBuildHasher.hash_one(board) >> 40) as usize % TABLE_PARTS;
        // A thread that panicked holding a part left entries that are each whole.
        self.parts[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, board: &Board) -> Option<Entry> {
        self.part(board).get(board).copied()
    }

    /// Stores `entry` for `board`, dropping the part's smallest searches when it is full.
    fn keep(&self, board: &Board, entry: Entry) {
        let mut part = self.part(board);
        if part.len() >= self.part_limit {
            // The smallest size kept that leaves the part at most half full.
            let mut by_size = [0usize; 66];
            for e in part.values() {
                by_size[usize::from(e.size).min(65)] += 1;
            }
            let (mut least, mut dropped) = (0, 0);
            while part.len() - dropped > self.part_limit / 2 {
                dropped += by_size[least];
                least += 1;
            }
            // A new table, not a thinned one: the places of dropped boards would count as used
            // until the table grew to twice its size.
            let mut fresh = FxHashMap::with_capacity_and_hasher(self.part_limit, FxBuildHasher);
            fresh.extend(part.drain().filter(|(_, e)| usize::from(e.size) >= least));
            *part = fresh;
        }
        part.insert(*board, entry);
    }
}

/// Why a search below the board asked about ended without a value.
enum Cut {
    /// The whole search stops.
    Stop(Stop),
    /// A sibling's search already reached beta: this one is not needed.
    Needless,
}

/// The flags that say a search running beside its siblings is no longer needed: its own
/// group's, then the groups' above it.
#[derive(Clone, Copy)]
struct Needed<'f> {
    flag: Option<&'f AtomicBool>,
    above: Option<&'f Needed<'f>>,
}

impl Needed<'_> {
    const ALWAYS: Needed<'static> = Needed {
        flag: None,
        above: None,
    };

    fn needless(&self) -> bool {
        let mut at = Some(self);
        while let Some(n) = at {
            if n.flag.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return true;
            }
            at = n.above;
        }
        false
    }
}

impl<'a, R: Retro + ?Sized> Search<'a, R> {
    /// A search of `retro` with the levels of `db`, expanding at most `budget` boards.
    pub fn new(retro: &'a R, db: &'a Database, budget: u64) -> Self {
        Search {
            retro,
            db,
            table: Table::new(TABLE_MIB),
            nodes: AtomicU64::new(0),
            budget,
            threads: 1,
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

    /// The same search with a table of about `mib` MiB (at least one board).
    pub fn table_mib(mut self, mib: u64) -> Self {
        self.table = Table::new(mib);
        self
    }

    /// The same search splitting its work over the threads of the current rayon pool when
    /// `threads` is over 1: the values are the same, the boards expanded vary from run to run.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The same search, telling `watch` the boards expanded and the bounds proven so far for the
    /// board asked about, every million boards or so.
    pub fn watched(mut self, watch: &'a (dyn Fn(u64, i8, i8) + Sync)) -> Self {
        self.watch = Some(watch);
        self
    }

    /// Boards expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
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
            guess = match self.alpha_beta(board, beta - 1, beta, Needed::ALWAYS) {
                Ok(v) => v,
                Err(Cut::Stop(why)) => return Err(self.gave_up(why)),
                Err(Cut::Needless) => unreachable!("the board asked about is always needed"),
            };
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
        &self,
        board: &Board,
        mut alpha: i32,
        mut beta: i32,
        needed: Needed<'_>,
    ) -> Result<i32, Cut> {
        if let Some(v) = self.db.value(board) {
            return Ok(i32::from(v));
        }
        // No board is worth more than the seeds on it, to either player.
        let n = seeds(board) as i32;
        let entry = self.table.get(board);
        let (lo, hi) = entry.map_or((-n, n), |e| (i32::from(e.lo), i32::from(e.hi)));
        if lo == hi || lo >= beta {
            return Ok(lo);
        }
        if hi <= alpha {
            return Ok(hi);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let at = self.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        if at > self.budget {
            return Err(Cut::Stop(Stop::Budget));
        }
        if at.is_multiple_of(WATCH_EVERY) {
            if let Some(watch) = self.watch {
                watch(at, self.bounds.0 as i8, self.bounds.1 as i8);
            }
            if self.stop.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                return Err(Cut::Stop(Stop::Interrupted));
            }
        }
        if needed.needless() {
            return Err(Cut::Needless);
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
        if let Some((v, pit)) = self.known_cut(&edges, beta) {
            let e = entry.map_or(
                Entry {
                    lo: v as i8,
                    hi: n as i8,
                    best: pit,
                    size: 0,
                },
                |e| Entry {
                    lo: e.lo.max(v as i8),
                    best: pit,
                    ..e
                },
            );
            self.table.keep(board, e);
            return Ok(v);
        }
        let window = (alpha, beta);
        let (mut best, mut best_pit) = (i32::MIN, 0);
        let split =
            self.threads > 1 && edges.len() > 2 && seeds(board) >= self.db.levels() + SPLIT_ABOVE;
        let mut rest = &edges[..];
        while let Some((&(pit, edge), tail)) = rest.split_first() {
            let v = self.child(edge, alpha, beta, needed)?;
            rest = tail;
            if v > best {
                (best, best_pit) = (v, pit);
            }
            alpha = alpha.max(v);
            if alpha >= beta || split {
                break;
            }
        }
        if alpha < beta && !rest.is_empty() {
            // The eldest move did not reach beta: the others are searched side by side, each
            // stopping once one of them reaches it.
            let flag = AtomicBool::new(false);
            let group = Needed {
                flag: Some(&flag),
                above: Some(&needed),
            };
            let found: Vec<Result<(i32, u8), Cut>> = rest
                .par_iter()
                .with_max_len(1)
                .map(|&(pit, edge)| {
                    let v = self.child(edge, alpha, beta, group)?;
                    if v >= beta {
                        flag.store(true, Ordering::Relaxed);
                    }
                    Ok((v, pit))
                })
                .collect();
            let mut needless = false;
            for f in found {
                match f {
                    Ok((v, pit)) => {
                        if v > best {
                            (best, best_pit) = (v, pit);
                        }
                    }
                    Err(Cut::Needless) => needless = true,
                    Err(stop) => return Err(stop),
                }
            }
            alpha = alpha.max(best);
            // A sibling was dropped only because another reached beta, or because this whole
            // search is no longer needed.
            if needless && alpha < beta {
                return Err(Cut::Needless);
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
        let entry = Entry {
            lo: lo as i8,
            hi: hi as i8,
            best: best_pit,
            size: (64 - (self.nodes() - at + 1).leading_zeros()) as u8,
        };
        self.table.keep(board, entry);
        Ok(best)
    }

    /// The value of the move `edge` within (alpha, beta), from its mover's side.
    fn child(&self, edge: Edge, alpha: i32, beta: i32, needed: Needed<'_>) -> Result<i32, Cut> {
        Ok(match edge {
            Edge::Over(v) => i32::from(v),
            Edge::Next { gain, board, again } => {
                let g = i32::from(gain);
                if again {
                    g + self.alpha_beta(&board, alpha - g, beta - g, needed)?
                } else {
                    g - self.alpha_beta(&board, g - beta, g - alpha, needed)?
                }
            }
        })
    }

    /// Enhanced transposition cutoff: a move whose board is known well enough (a database level,
    /// or bounds the table holds) to be worth `beta` or more, with its value at least, and pit.
    fn known_cut(&self, edges: &[(u8, Edge)], beta: i32) -> Option<(i32, u8)> {
        edges.iter().find_map(|&(pit, edge)| {
            let v = match edge {
                Edge::Over(v) => i32::from(v),
                Edge::Next { gain, board, again } => {
                    let (lo, hi) = match self.db.value(&board) {
                        Some(v) => (v, v),
                        None => self.table.get(&board).map(|e| (e.lo, e.hi))?,
                    };
                    let g = i32::from(gain);
                    if again {
                        g + i32::from(lo)
                    } else {
                        g - i32::from(hi)
                    }
                }
            };
            (v >= beta).then_some((v, pit))
        })
    }

    /// The search's end short of the value (the bounds are set where the value was asked for).
    fn gave_up(&self, why: Stop) -> SearchError {
        let (lo, hi) = (self.bounds.0 as i8, self.bounds.1 as i8);
        SearchError::GaveUp {
            boards: self.nodes().min(self.budget),
            why,
            lo,
            hi,
        }
    }
}
