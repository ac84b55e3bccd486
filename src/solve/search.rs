//! The value of a board beyond the built levels: alpha-beta to the end of the game with a table of
//! bounds, the databases as leaves. Sound where play cannot go round in circles (Kalah).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
pub const TABLE_MIB: u64 = 1024;

/// MiB of a table of at most `mib` MiB for a search of `budget` boards: no more than twice the
/// places the search can fill (an entry a board expanded), so that a short search (a `perfect`
/// move) does not touch a large table's pages.
fn table_size(mib: u64, budget: u64) -> u64 {
    let needed = budget
        .saturating_mul(2 * TABLE_PLACE_BYTES)
        .div_ceil(1 << 20);
    mib.min(needed.max(1))
}

/// Bytes a place of the table takes: one word, a board's check bits and its entry.
const TABLE_PLACE_BYTES: u64 = 8;

/// Places a bucket holds: one cache line.
const BUCKET_PLACES: usize = 8;

/// Bits of a packed [`Entry`] in the low end of a place: the two bounds (8 bits each), the best
/// move's pit (3) and the size plus one (6), so that a place in use is never zero.
const ENTRY_BITS: u32 = 25;

/// A move with the bounds of its value known without a search.
#[derive(Clone, Copy)]
struct Known {
    /// The pit it is played from.
    pit: u8,
    /// Where it leads.
    edge: Edge,
    /// Its value is at least this, from its mover's side.
    lo: i32,
    /// Its value is at most this.
    hi: i32,
}

/// The most moves a board has: one a pit of the mover's row.
const MOVES: usize = super::MAX_PITS / 2;

/// A place in an array of [`Known`] moves before it is filled.
const NO_MOVE: Known = Known {
    pit: 0,
    edge: Edge::Over(0),
    lo: 0,
    hi: 0,
};

/// Sibling moves are searched on several threads only on boards this many seeds or more above
/// the largest level, where each search is long enough to pay for the split.
const SPLIT_ABOVE: u32 = 6;

/// The most boards [`Search::guess`] looks at.
const GUESS_BOARDS: u64 = 1 << 21;

/// The bounds proven so far, by board: a fixed array of buckets, read and written without locks.
/// A board's key (its seed count and rank, never a hash) is mixed by a one-to-one function; the
/// low bits of the mix pick the bucket, the place keeps the rest beside the entry, so an entry
/// found is the board's own. A place is one word, written whole. A full bucket gives up its
/// smallest search.
struct Table {
    /// The buckets' places, from `first` on (where a cache line begins).
    words: Box<[AtomicU64]>,
    first: usize,
    /// Bits of the bucket number: the table has 2^`bucket_bits` buckets.
    bucket_bits: u32,
    /// Bits of a key.
    key_bits: u32,
    /// Ranks boards of any seed count a search meets.
    ranks: super::Ranks,
}

impl Table {
    /// A table of at most `mib` MiB, a power of two of buckets, its memory zero and untouched
    /// until used; it has at least one bucket, and as many as a place's check bits need (8 MiB
    /// for 12 pits).
    fn new(mib: u64, pits: usize) -> Table {
        let ranks = super::Ranks::new(pits, super::MAX_SEEDS);
        // A key: the rank, then the seed count in the low 7 bits.
        let key_bits = 64 - ranks.count(super::MAX_SEEDS).leading_zeros() + 7;
        let places = mib.saturating_mul(1 << 20) / TABLE_PLACE_BYTES;
        let buckets = (places / BUCKET_PLACES as u64).max(1);
        let bucket_bits = buckets
            .ilog2()
            .max((key_bits + ENTRY_BITS).saturating_sub(64));
        let buckets = 1usize << bucket_bits;
        // One bucket more, to start on a cache line. The words' own alignment (8) lets the
        // allocator hand over pages the system zeroes on first touch, not zero them itself.
        let len = (buckets + 1) * BUCKET_PLACES;
        let layout = std::alloc::Layout::array::<AtomicU64>(len).expect("the table fits memory");
        // SAFETY: the layout is not empty; zero bytes are a valid `AtomicU64`; the box frees the
        // memory with the same layout.
        let words: Box<[AtomicU64]> = unsafe {
            let at = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
            if at.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            super::huge::advise(at as usize, layout.size());
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(at, len))
        };
        let first = (words.as_ptr() as usize).next_multiple_of(64) - words.as_ptr() as usize;
        Table {
            words,
            first: first / 8,
            bucket_bits,
            key_bits,
            ranks,
        }
    }

    /// The mixed key of `board`: its rank and seed count, put through a one-to-one function of
    /// `key_bits` bits (products by odd numbers and shifts that keep the high bits), so that the
    /// low bits depend on all of the key.
    #[inline]
    fn mixed(&self, board: &Board) -> u64 {
        let n = seeds(board);
        let key = (self.ranks.rank(board, n) << 7) | u64::from(n);
        let mask = u64::MAX >> (64 - self.key_bits);
        let half = self.key_bits.div_ceil(2);
        let mut x = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask;
        x ^= x >> half;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9) & mask;
        x ^ (x >> half)
    }

    /// The places of the bucket of the mixed key `mixed`.
    #[inline]
    fn bucket(&self, mixed: u64) -> &[AtomicU64] {
        let i = mixed as usize & ((1 << self.bucket_bits) - 1);
        let at = self.first + i * BUCKET_PLACES;
        &self.words[at..at + BUCKET_PLACES]
    }

    /// The bits of a mixed key a place keeps: those the bucket's number does not say.
    #[inline]
    fn check(&self, mixed: u64) -> u64 {
        mixed >> self.bucket_bits
    }

    /// Asks for the bucket of the board of mixed key `mixed` from memory, without waiting for it.
    #[inline]
    fn prefetch(&self, mixed: u64) {
        super::build::prefetch(&self.bucket(mixed)[0]);
    }

    /// The entry of the board of mixed key `mixed` ([`Table::mixed`]), if the table holds one.
    fn get(&self, mixed: u64) -> Option<Entry> {
        let check = self.check(mixed);
        self.bucket(mixed).iter().find_map(|place| {
            let word = place.load(Ordering::Relaxed);
            holds(word, check).then(|| Entry::unpack(word))
        })
    }

    /// Stores `entry` for the board of mixed key `mixed`: in the board's own place, else an
    /// empty one, else the place of the smallest search in the bucket.
    fn keep(&self, mixed: u64, entry: Entry) {
        let check = self.check(mixed);
        let bucket = self.bucket(mixed);
        let mut place = 0;
        let mut smallest = u16::MAX;
        for (p, at) in bucket.iter().enumerate() {
            let word = at.load(Ordering::Relaxed);
            if holds(word, check) {
                place = p;
                break;
            }
            // An empty place counts below every search.
            let size = if word == 0 {
                0
            } else {
                u16::from(Entry::unpack(word).size) + 1
            };
            if size < smallest {
                (place, smallest) = (p, size);
            }
        }
        bucket[place].store(check << ENTRY_BITS | entry.pack(), Ordering::Relaxed);
    }
}

/// Whether the place `word` holds the entry of the board with the check bits `check`.
#[inline]
fn holds(word: u64, check: u64) -> bool {
    word != 0 && word >> ENTRY_BITS == check
}

impl Entry {
    /// The entry in the low [`ENTRY_BITS`] bits of a word, never zero (a size above 62 is kept
    /// as 62).
    fn pack(self) -> u64 {
        debug_assert!(self.best < 8, "a pit of the mover's row");
        u64::from(self.lo as u8)
            | u64::from(self.hi as u8) << 8
            | u64::from(self.best & 7) << 16
            | u64::from(self.size.min(62) + 1) << 19
    }

    fn unpack(word: u64) -> Entry {
        Entry {
            lo: word as u8 as i8,
            hi: (word >> 8) as u8 as i8,
            best: (word >> 16) as u8 & 7,
            size: ((word >> 19) as u8 & 63) - 1,
        }
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
            table: Table::new(table_size(TABLE_MIB, budget), retro.pits()),
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

    /// The same search with a table of at most `mib` MiB (at least one bucket).
    pub fn table_mib(mut self, mib: u64) -> Self {
        self.table = Table::new(table_size(mib, self.budget), self.retro.pits());
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
            return Err(self.beyond(board));
        }
        self.mtdf(board, i32::from(guess)).map(|v| v as i8)
    }

    /// A first guess at the value of `board` for [`Search::value_near`]: alpha-beta to a depth,
    /// each move's gain counted and nothing beyond the last move, the levels exact, deepened
    /// while it stays within 2 million boards and a sixteenth of the budget. The boards it looks
    /// at count as searched.
    pub fn guess(&mut self, board: &Board) -> i8 {
        if let Some(v) = self.db.value(board) {
            return v;
        }
        let cap = GUESS_BOARDS.min(self.budget / 16);
        let (mut guess, mut spent) = (0, 0);
        for depth in 1..=super::MAX_SEEDS * 2 {
            let mut boards = 0;
            let n = seeds(board) as i32;
            let v = self.shallow(board, depth, -n - 1, n + 1, &mut boards, cap - spent);
            spent += boards;
            match v {
                Some(v) => guess = v,
                None => break,
            }
        }
        self.nodes.fetch_add(spent, Ordering::Relaxed);
        guess as i8
    }

    /// Alpha-beta to `depth` moves with nothing counted beyond them (see [`Search::guess`]);
    /// `None` once it has looked at `cap` boards.
    fn shallow(
        &self,
        board: &Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        boards: &mut u64,
        cap: u64,
    ) -> Option<i32> {
        if let Some(v) = self.db.value(board) {
            return Some(i32::from(v));
        }
        if *boards >= cap {
            return None;
        }
        *boards += 1;
        let mut edges = Vec::with_capacity(6);
        if let Some(v) = self.retro.expand(board, &mut edges) {
            return Some(i32::from(v));
        }
        if depth == 0 {
            return Some(0);
        }
        let mut room = [NO_MOVE; MOVES];
        let moves = self.with_known(&edges, &[None; MOVES], &mut room);
        order(moves, None, beta);
        let mut best = i32::MIN;
        for &mut Known { edge, .. } in moves {
            let v = through_window(edge, alpha, beta, |next, a, b| {
                self.shallow(next, depth - 1, a, b, boards, cap).ok_or(())
            })
            .ok()?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    /// MTD(f): null-window searches that close in on the value from a first guess, each
    /// narrowing the bounds the table keeps, until they meet; a search that gives up says the
    /// bounds it has proven.
    fn mtdf(&mut self, board: &Board, guess: i32) -> Result<i32, SearchError> {
        // What earlier searches proved of the board holds: a move's value after the board's.
        let (mut lo, mut hi) = self.proven(board);
        let mut guess = guess.clamp(lo, hi);
        while lo < hi {
            self.bounds = (lo, hi);
            let beta = if guess == lo { guess + 1 } else { guess };
            guess = self.test(board, beta)?;
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

    /// The moves of `board` worth `value`, its value (from [`Search::value`]), in pit order;
    /// empty when the game is over. No move is worth more than its board, so each move's board
    /// is tested once against the bound that makes the move best, never valued: far less work
    /// than [`Search::moves`] where a move is far from the best.
    pub fn best_moves(
        &mut self,
        board: &Board,
        value: i8,
        cycles: bool,
    ) -> Result<Vec<u8>, SearchError> {
        let mut edges = Vec::new();
        if self.retro.expand(board, &mut edges).is_some() {
            return Ok(Vec::new());
        }
        let value = i32::from(value);
        let mut best = Vec::new();
        for (pit, edge) in edges {
            let worth_value = match edge {
                Edge::Over(v) => i32::from(v) >= value,
                Edge::Next { gain, board, again } => {
                    let g = i32::from(gain);
                    if again {
                        self.at_least(&board, value - g, cycles)?
                    } else {
                        !self.at_least(&board, g - value + 1, cycles)?
                    }
                }
            };
            if worth_value {
                best.push(pit);
            }
        }
        Ok(best)
    }

    /// Whether `board` is worth at least `x` to its player to move: one null-window search,
    /// unless the databases or the bounds proven so far tell.
    fn at_least(&mut self, board: &Board, x: i32, cycles: bool) -> Result<bool, SearchError> {
        if let Some(v) = self.db.value(board) {
            return Ok(i32::from(v) >= x);
        }
        if cycles {
            return Err(self.beyond(board));
        }
        let (lo, hi) = self.proven(board);
        if lo >= x || hi < x {
            return Ok(lo >= x);
        }
        self.bounds = (lo, hi);
        Ok(self.test(board, x)? >= x)
    }

    /// One null-window search of `board` around `beta`: a value below `beta` is an upper bound
    /// of the board's, one at or above it a lower bound.
    fn test(&self, board: &Board, beta: i32) -> Result<i32, SearchError> {
        match self.alpha_beta(board, beta - 1, beta, Needed::ALWAYS) {
            Ok(v) => Ok(v),
            Err(Cut::Stop(why)) => Err(self.gave_up(why)),
            Err(Cut::Needless) => unreachable!("the board asked about is always needed"),
        }
    }

    /// The bounds earlier searches proved for `board` (its table entry), else the seeds on it.
    fn proven(&self, board: &Board) -> (i32, i32) {
        self.proven_at(board, self.table.mixed(board))
    }

    /// [`Search::proven`] for `board` of mixed key `mixed`, worked out already.
    fn proven_at(&self, board: &Board, mixed: u64) -> (i32, i32) {
        let n = seeds(board) as i32;
        self.table
            .get(mixed)
            .map_or((-n, n), |e| (i32::from(e.lo), i32::from(e.hi)))
    }

    /// The error for a board past the databases where play can cycle.
    fn beyond(&self, board: &Board) -> SearchError {
        SearchError::BeyondDatabases {
            game: self.retro.game(),
            seeds: seeds(board),
            built: i64::from(self.db.levels()) - 1,
        }
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
        // The board's rank, worked out once for the table's read and its writes.
        let mixed = self.table.mixed(board);
        let entry = self.table.get(mixed);
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
        // Every move's board asked for from memory (its level or its table entry) before any
        // is looked at, so the misses overlap; a board past the levels keeps its mixed key.
        let mut keys = [None; MOVES];
        for ((_, edge), key) in edges.iter().zip(&mut keys) {
            if let Edge::Next { board, .. } = edge {
                if !self.db.prefetch(board) {
                    let mixed = self.table.mixed(board);
                    self.table.prefetch(mixed);
                    *key = Some(mixed);
                }
            }
        }
        // What each move is known to be worth without a search (its board's level or table
        // entry): a move known to reach beta ends the search here (enhanced transposition
        // cutoff); the others are tried in the order that most likely reaches it soonest.
        let mut room = [NO_MOVE; MOVES];
        let moves = self.with_known(&edges, &keys, &mut room);
        order(moves, entry.map(|e| e.best), beta);
        if let Some(&Known { pit, lo: v, .. }) = moves.iter().find(|m| m.lo >= beta) {
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
            self.table.keep(mixed, e);
            return Ok(v);
        }
        let window = (alpha, beta);
        let (mut best, mut best_pit) = (i32::MIN, 0);
        let split =
            self.threads > 1 && edges.len() > 2 && seeds(board) >= self.db.levels() + SPLIT_ABOVE;
        let mut rest = &moves[..];
        while let Some((&Known { pit, edge, .. }, tail)) = rest.split_first() {
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
                .map(|&Known { pit, edge, .. }| {
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
        self.table.keep(mixed, entry);
        Ok(best)
    }

    /// The value of the move `edge` within (alpha, beta), from its mover's side.
    fn child(&self, edge: Edge, alpha: i32, beta: i32, needed: Needed<'_>) -> Result<i32, Cut> {
        through_window(edge, alpha, beta, |next, a, b| {
            self.alpha_beta(next, a, b, needed)
        })
    }

    /// The bounds of the move `edge`'s value from its mover's side, known without a search:
    /// its board's level, else the bounds the table holds, else the seeds on the board. `key`:
    /// the board's mixed key when it is past the levels and worked out already.
    fn known(&self, edge: Edge, key: Option<u64>) -> (i32, i32) {
        match edge {
            Edge::Over(v) => (i32::from(v), i32::from(v)),
            Edge::Next { gain, board, again } => {
                let (lo, hi) = match key {
                    Some(mixed) => self.proven_at(&board, mixed),
                    None => match self.db.value(&board) {
                        Some(v) => (i32::from(v), i32::from(v)),
                        None => self.proven(&board),
                    },
                };
                let g = i32::from(gain);
                if again {
                    (g + lo, g + hi)
                } else {
                    (g - hi, g - lo)
                }
            }
        }
    }

    /// The moves `edges` into `out`, each with what it is known to be worth ([`Search::known`]).
    /// `keys`: each move's board's mixed key, where it is past the levels and worked out.
    fn with_known<'m>(
        &self,
        edges: &[(u8, Edge)],
        keys: &[Option<u64>; MOVES],
        out: &'m mut [Known; MOVES],
    ) -> &'m mut [Known] {
        for ((m, &(pit, edge)), &key) in out.iter_mut().zip(edges).zip(keys) {
            let (lo, hi) = self.known(edge, key);
            *m = Known { pit, edge, lo, hi };
        }
        &mut out[..edges.len()]
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

/// Puts the moves in the order the searches try them to reach `beta`: those that may still
/// reach it first, then `hint` (an earlier search's best move), then the best known (the middle
/// of their bounds), then extra turns, then the larger gains.
fn order(moves: &mut [Known], hint: Option<u8>, beta: i32) {
    moves.sort_by_key(|&Known { pit, edge, lo, hi }| {
        let (gain, again) = match edge {
            Edge::Over(_) => (0, true),
            Edge::Next { gain, again, .. } => (gain, again),
        };
        (hi < beta, Some(pit) != hint, -(lo + hi), !again, -gain)
    });
}

/// The value of the move `edge` within (alpha, beta), from its mover's side, `search` valuing
/// the board it leads to within the window seen from that board's player to move.
fn through_window<E>(
    edge: Edge,
    alpha: i32,
    beta: i32,
    search: impl FnOnce(&Board, i32, i32) -> Result<i32, E>,
) -> Result<i32, E> {
    Ok(match edge {
        Edge::Over(v) => i32::from(v),
        Edge::Next { gain, board, again } => {
            let g = i32::from(gain);
            if again {
                g + search(&board, alpha - g, beta - g)?
            } else {
                g - search(&board, g - beta, g - alpha)?
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(lo: i8, hi: i8, best: u8, size: u8) -> Entry {
        Entry { lo, hi, best, size }
    }

    /// Boards of one seed in one of six pits (A to F), and of two seeds in A, B, C or D.
    fn boards() -> [Board; 10] {
        let mut b = [[0; 12]; 10];
        for (k, board) in b.iter_mut().enumerate() {
            if k < 6 {
                board[k] = 1;
            } else {
                board[k - 6] = 2;
            }
        }
        b
    }

    #[test]
    fn a_board_finds_its_own_entry_and_no_other() {
        // A table of 0 MiB over 6 pits has one bucket: every board meets every other there.
        let t = Table::new(0, 6);
        assert_eq!(t.bucket_bits, 0, "one bucket");
        let [a, b, _, _, _, _, two, ..] = boards();
        assert_eq!(t.get(t.mixed(&a)), None);
        t.keep(t.mixed(&a), entry(-1, 1, 3, 5));
        assert_eq!(t.get(t.mixed(&a)), Some(entry(-1, 1, 3, 5)));
        assert_eq!(t.get(t.mixed(&b)), None);
        assert_eq!(t.get(t.mixed(&two)), None);
        // Kept again: the same place, so seven stay free for others.
        t.keep(t.mixed(&a), entry(0, 0, 2, 6));
        t.keep(t.mixed(&b), entry(-2, 2, 0, 1));
        t.keep(t.mixed(&two), entry(1, 2, 4, 0));
        assert_eq!(t.get(t.mixed(&a)), Some(entry(0, 0, 2, 6)));
        assert_eq!(t.get(t.mixed(&b)), Some(entry(-2, 2, 0, 1)));
        assert_eq!(t.get(t.mixed(&two)), Some(entry(1, 2, 4, 0)));
    }

    #[test]
    fn a_full_bucket_gives_up_its_smallest_search() {
        let t = Table::new(0, 6);
        let b = boards();
        let sizes = [9, 3, 7, 5, 8, 6, 4, 10];
        for (board, size) in b.iter().zip(sizes) {
            t.keep(t.mixed(board), entry(0, 1, 0, size));
        }
        t.keep(t.mixed(&b[8]), entry(0, 1, 0, 1));
        assert_eq!(
            t.get(t.mixed(&b[1])),
            None,
            "the smallest search (size 3) made room"
        );
        for (k, size) in [
            (0, 9),
            (2, 7),
            (3, 5),
            (4, 8),
            (5, 6),
            (6, 4),
            (7, 10),
            (8, 1),
        ] {
            assert_eq!(t.get(t.mixed(&b[k])), Some(entry(0, 1, 0, size)));
        }
    }

    #[test]
    fn an_entry_keeps_its_bounds_move_and_size() {
        for e in [
            entry(-48, 48, 5, 0),
            entry(-100, -99, 0, 62),
            entry(100, 100, 7, 40),
        ] {
            assert_eq!(Entry::unpack(e.pack()), e);
            assert_ne!(e.pack(), 0, "a place in use is never empty");
        }
        // A search of more than 2^62 boards is kept as one of 2^62.
        assert_eq!(Entry::unpack(entry(0, 1, 2, 64).pack()), entry(0, 1, 2, 62));
    }

    #[test]
    fn no_two_boards_share_a_bucket_and_check() {
        // The mix is one to one: every board of up to 8 seeds over 12 pits in the smallest
        // table (2^17 buckets) has its own pair of bucket and check bits.
        let t = Table::new(0, 12);
        assert_eq!(t.bucket_bits, 17);
        let mut seen = std::collections::HashSet::new();
        for n in 0..=8 {
            for r in 0..t.ranks.count(n) {
                let board = t.ranks.unrank(r, n);
                assert!(seen.insert(t.mixed(&board)), "{board:?}");
            }
        }
    }

    #[test]
    fn a_short_search_gets_a_small_table() {
        // A million boards, 8 bytes a place, twice over: 16,000,000 bytes, 16 MiB rounded up.
        assert_eq!(table_size(2048, 1_000_000), 16);
        assert_eq!(table_size(2048, 1_500_000_000), 2048);
        assert_eq!(table_size(2048, 0), 1);
        assert_eq!(table_size(0, 1_000_000), 0);
    }

    #[test]
    fn buckets_start_on_a_cache_line() {
        for (mib, pits) in [(0, 6), (1, 6), (3, 6), (9, 12)] {
            let t = Table::new(mib, pits);
            assert_eq!(t.bucket(1).as_ptr() as usize % 64, 0);
            assert_eq!(t.bucket(1).len(), 8);
        }
        assert_eq!(1 << Table::new(1, 6).bucket_bits, (1 << 20) / 64);
        // Over 12 pits, a key's bits beyond the entry's need 2^17 buckets: 8 MiB.
        assert_eq!(Table::new(1, 12).bucket_bits, 17);
        assert_eq!(Table::new(16, 12).bucket_bits, 18);
    }
}
