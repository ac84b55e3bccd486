//! The retrograde build of one level (every board of one seed count) from the levels below, by
//! value iteration to the fixpoint over index ranges in parallel, and the check of a built level.

use std::sync::atomic::{fence, AtomicBool, AtomicI8, AtomicU64, Ordering};

use rayon::prelude::*;

use super::bits::Bits;
use super::{huge, seeds, through, Board, Edge, Ranks, Retro};

/// Boards a parallel task takes at a time.
const CHUNK: usize = 1 << 14;

/// The levels built so far, 0 seeds upwards, with their ranks.
#[derive(Clone, Debug)]
pub struct Database {
    ranks: Ranks,
    levels: Vec<Vec<i8>>,
}

/// The build was stopped (Ctrl-C) before the level was done; the levels written are whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

/// A level's value that is not the best over its moves, found by [`verify_level`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{seeds} seeds, board {board:?}: stored value {stored}, best move worth {best}")]
pub struct WrongValue {
    /// The level.
    pub seeds: u32,
    /// The board, mover's row first.
    pub board: Vec<u8>,
    /// The value in the level.
    pub stored: i8,
    /// The best over the board's moves, from the stored values.
    pub best: i8,
}

/// Where a build reports its progress (the command line draws a bar; the library prints nothing).
pub trait Report: Sync {
    /// A pass over the `positions` boards of level `seeds` begins (the first is pass 1).
    fn pass(&self, _seeds: u32, _pass: u32, _positions: u64) {}
    /// `positions` more boards of the current pass are done.
    fn advance(&self, _positions: u64) {}
    /// A stage of a check of level `seeds` over `positions` boards begins, named `stage`.
    fn stage(&self, _seeds: u32, _stage: &str, _positions: u64) {}
}

/// Reports nothing.
impl Report for () {}

/// What a level's build took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelStats {
    /// Boards in the level.
    pub positions: u64,
    /// Passes to the fixpoint (the last changes nothing).
    pub passes: u32,
    /// Boards evaluated over all passes (a pass looks only at boards a change may affect).
    pub evaluations: u64,
}

impl Database {
    /// No levels yet, for boards of `pits` pits and up to `max_seeds` seeds.
    pub fn new(pits: usize, max_seeds: u32) -> Database {
        Database {
            ranks: Ranks::new(pits, max_seeds),
            levels: Vec::new(),
        }
    }

    /// The ranks of the boards.
    pub fn ranks(&self) -> &Ranks {
        &self.ranks
    }

    /// How many levels are built (seed counts 0 to `levels() - 1`).
    pub fn levels(&self) -> u32 {
        self.levels.len() as u32
    }

    /// The values of level `seeds`, in rank order.
    pub fn level(&self, seeds: u32) -> &[i8] {
        &self.levels[seeds as usize]
    }

    /// Adds the next level (`levels()` seeds).
    pub fn push(&mut self, values: Vec<i8>) {
        assert_eq!(
            values.len() as u64,
            self.ranks.count(self.levels()),
            "a level holds every board of its seed count"
        );
        self.levels.push(values);
    }

    /// Bytes the built levels hold.
    pub fn bytes(&self) -> u64 {
        self.levels.iter().map(|l| l.len() as u64).sum()
    }

    /// Asks for the value of `board` from memory, without waiting for it; false if its level
    /// is not built.
    #[inline]
    pub(crate) fn prefetch(&self, board: &Board) -> bool {
        let s = seeds(board);
        match self.levels.get(s as usize) {
            Some(level) => {
                prefetch(&level[self.ranks.rank(board, s) as usize]);
                true
            }
            None => false,
        }
    }

    /// The value of `board` for its player to move, if its level is built.
    pub fn value(&self, board: &Board) -> Option<i8> {
        let s = seeds(board);
        let level = self.levels.get(s as usize)?;
        Some(level[self.ranks.rank(board, s) as usize])
    }
}

/// The value of `board`: over if the game ends there, else the best of its moves, the board
/// each leads to valued by `next`.
#[inline]
pub fn best<R: Retro + ?Sized>(
    retro: &R,
    board: &Board,
    out: &mut Vec<(u8, Edge)>,
    next: impl Fn(&Board) -> i8,
) -> i8 {
    out.clear();
    if let Some(v) = retro.expand(board, out) {
        return v;
    }
    out.iter()
        .map(|(_, edge)| edge.value(&next))
        .max()
        .unwrap_or_else(|| {
            panic!(
                "{} engine: a board with no move is not over",
                retro.engine()
            )
        })
}

/// The value of `b`, from level `seeds` being built (`current`) or a level below.
#[inline]
fn lookup(db: &Database, seeds_now: u32, current: &[i8], b: &Board) -> i8 {
    let s = seeds(b);
    if s == seeds_now {
        current[db.ranks.rank(b, s) as usize]
    } else {
        assert!(s < seeds_now, "a move added seeds to the board");
        db.levels[s as usize][db.ranks.rank(b, s) as usize]
    }
}

/// Boards updated together: every value a batch reads is asked for from memory before any is
/// used, so the cache misses of many boards overlap.
const BATCH: usize = 32;

/// Where a move's value comes from: a move that ends the game, or the board it leads to.
#[derive(Clone, Copy)]
struct Target {
    /// The final difference (`level == OVER`), or the seeds the move won.
    gain: i8,
    /// Whether the mover moves again (the next board's value is added, not subtracted).
    again: bool,
    /// The next board's level, or [`OVER`].
    level: u32,
    /// The next board's rank in its level.
    index: usize,
}

/// The level of a move that ends the game.
const OVER: u32 = u32::MAX;

impl Target {
    /// A move that ends the game with final difference `v`.
    fn over(v: i8) -> Target {
        Target {
            gain: v,
            again: false,
            level: OVER,
            index: 0,
        }
    }
}

/// Where `edge` leads, its value asked for from memory (`values`: the level being built).
#[inline]
fn target(db: &Database, seeds_now: u32, values: &[AtomicI8], edge: &Edge) -> Target {
    match *edge {
        Edge::Over(v) => Target::over(v),
        Edge::Next { gain, board, again } => {
            let s = seeds(&board);
            assert!(s <= seeds_now, "a move added seeds to the board");
            let index = db.ranks.rank(&board, s) as usize;
            if s == seeds_now {
                prefetch(&values[index]);
            } else {
                prefetch(&db.levels[s as usize][index]);
            }
            Target {
                gain,
                again,
                level: s,
                index,
            }
        }
    }
}

/// Asks for the cache line holding `value`, without waiting for it.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; it reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: prefetching is a hint; it reads nothing and cannot fault.
    unsafe {
        std::arch::asm!("prfm pldl1keep, [{0}]", in(reg) value as *const T, options(nostack, readonly, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let _ = value;
}

/// Scratch space of one thread's batches.
#[derive(Default)]
struct Scratch {
    /// One expansion's moves.
    out: Vec<(u8, Edge)>,
    /// One board's predecessors.
    before: Vec<Board>,
    /// The batch's boards.
    boards: Vec<Board>,
    /// Each board's moves: `ends[k]` is one past board `k`'s last target.
    targets: Vec<Target>,
    /// One past each board's last target.
    ends: Vec<usize>,
    /// Predecessors of changed boards: (rank, the changed board's new value, its old value).
    marks: Vec<(usize, i8, i8)>,
}

/// Updates the boards of level `seeds_now` at `indices` (in chunk `chunk`) to the best of their
/// moves, in order; marks in `later` the predecessors a change may affect (when `tracked`), `open`
/// telling which chunks other threads are working on. Returns how many values changed.
#[allow(clippy::too_many_arguments)]
fn update_batch<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    values: &[AtomicI8],
    later: &Bits,
    open: &[AtomicBool],
    chunk: usize,
    tracked: bool,
    seeds_now: u32,
    indices: &[u64],
    scratch: &mut Scratch,
) -> u64 {
    let Scratch {
        out,
        before,
        boards,
        targets,
        ends,
        marks,
    } = scratch;
    boards.clear();
    targets.clear();
    ends.clear();
    marks.clear();
    // Every board's targets, each asked for from memory as soon as it is known.
    for (k, &index) in indices.iter().enumerate() {
        let board = match boards.last() {
            Some(&previous) if index == indices[k - 1] + 1 => {
                let mut board = previous;
                db.ranks.next(&mut board);
                board
            }
            _ => db.ranks.unrank(index, seeds_now),
        };
        out.clear();
        if let Some(v) = retro.expand(&board, out) {
            targets.push(Target::over(v));
        }
        for (_, edge) in out.iter() {
            let target = target(db, seeds_now, values, edge);
            if target.level == seeds_now {
                // The marks below count on it.
                assert!(
                    !tracked || (target.gain == 0 && !target.again),
                    "{} engine: a move within the level won seeds or moves again",
                    retro.engine()
                );
            }
            targets.push(target);
        }
        assert!(
            targets.len() > ends.last().copied().unwrap_or(0),
            "{} engine: a board with no move is not over",
            retro.engine()
        );
        ends.push(targets.len());
        boards.push(board);
    }
    // Each board set to its best move, in order; the predecessors of a changed board asked for.
    let mut changed = 0;
    let mut from = 0;
    for ((&index, board), &end) in indices.iter().zip(boards.iter()).zip(ends.iter()) {
        // The fixpoint build's values start at 0, never `UNKNOWN`.
        let v = targets[from..end]
            .iter()
            .map(|t| move_value(db, seeds_now, values, t))
            .max()
            .expect("every board has a target");
        from = end;
        let old = values[index as usize].swap(v, Ordering::Relaxed);
        if old != v {
            changed += 1;
            if tracked {
                before.clear();
                retro.predecessors(board, before);
                for p in before.iter() {
                    let r = db.ranks.rank(p, seeds_now) as usize;
                    prefetch(&values[r]);
                    prefetch(later.word(r as u64));
                    marks.push((r, v, old));
                }
            }
        }
    }
    // A move that stays in the level captures nothing, so it is worth minus the changed board's
    // value to its predecessor: that is looked at again only if the move may now be its best,
    // or was. A predecessor another thread may be evaluating right now (its chunk is open) may
    // have read the old value after the check: it is looked at again whatever its value.
    fence(Ordering::SeqCst);
    for &(r, v, old) in marks.iter() {
        let c = r / CHUNK;
        let busy = c != chunk && open[c].load(Ordering::Acquire);
        let x = values[r].load(Ordering::Relaxed);
        if busy || -v > x || -old >= x {
            later.add(r as u64);
        }
    }
    changed
}

/// A board of an acyclic level not valued yet (values lie within plus or minus the seeds).
const UNKNOWN: i8 = i8::MIN;

/// The value of a move (`t`), `UNKNOWN` if it leads to a board of the level not valued yet.
#[inline]
fn move_value(db: &Database, seeds_now: u32, values: &[AtomicI8], t: &Target) -> i8 {
    if t.level == OVER {
        return t.gain;
    }
    let next = if t.level == seeds_now {
        values[t.index].load(Ordering::Relaxed)
    } else {
        db.levels[t.level as usize][t.index]
    };
    if next == UNKNOWN {
        UNKNOWN
    } else {
        through(t.gain, t.again, next)
    }
}

/// Pushes the moves of `board` onto `targets`, and onto `boards` where each leads (a board of
/// zeros after a move that ends the game), each value asked for from memory.
#[allow(clippy::too_many_arguments)]
fn push_moves<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    seeds_now: u32,
    values: &[AtomicI8],
    board: &Board,
    out: &mut Vec<(u8, Edge)>,
    targets: &mut Vec<Target>,
    boards: &mut Vec<Board>,
) {
    out.clear();
    if let Some(v) = retro.expand(board, out) {
        targets.push(Target::over(v));
        boards.push([0; super::MAX_PITS]);
        return;
    }
    assert!(
        !out.is_empty(),
        "{} engine: a board with no move is not over",
        retro.engine()
    );
    for (_, edge) in out.iter() {
        targets.push(target(db, seeds_now, values, edge));
        boards.push(match *edge {
            Edge::Next { board, .. } => board,
            Edge::Over(_) => [0; super::MAX_PITS],
        });
    }
}

/// Scratch space of one thread of an acyclic build.
#[derive(Default)]
struct Walk {
    /// One expansion's moves.
    out: Vec<(u8, Edge)>,
    /// The moves of the batch's boards.
    targets: Vec<Target>,
    /// Where each of `targets` leads.
    boards: Vec<Board>,
    /// The batch's boards not valued yet: rank, and their moves' range in `targets`.
    roots: Vec<(usize, usize, usize)>,
    /// The moves of the boards on the way down from one root.
    path_targets: Vec<Target>,
    /// Where each of `path_targets` leads.
    path_boards: Vec<Board>,
    /// The boards on the way down: rank, and where their moves begin in `path_targets`.
    path: Vec<(usize, usize)>,
}

/// Values the board of rank `root` (its moves `targets`, leading to `boards`) and, depth first,
/// every board of the level on its lines not valued yet. Returns the boards expanded.
#[allow(clippy::too_many_arguments)]
fn settle<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    seeds_now: u32,
    values: &[AtomicI8],
    root: usize,
    targets: &[Target],
    boards: &[Board],
    walk: &mut Walk,
) -> u64 {
    let Walk {
        out,
        path_targets,
        path_boards,
        path,
        ..
    } = walk;
    path_targets.clear();
    path_targets.extend_from_slice(targets);
    path_boards.clear();
    path_boards.extend_from_slice(boards);
    path.clear();
    path.push((root, 0));
    // A line within the level cannot be longer than the level has boards of distinct
    // potential; this bound is far above that and still stops a cycle before memory runs out.
    let limit = db.ranks.pits() * seeds_now as usize + 2;
    let mut expanded = 0;
    while let Some(&(index, from)) = path.last() {
        let unknown = (from..path_targets.len()).find(|&k| {
            let t = &path_targets[k];
            t.level == seeds_now && values[t.index].load(Ordering::Relaxed) == UNKNOWN
        });
        if let Some(k) = unknown {
            assert!(
                path.len() < limit,
                "{} engine: a line of moves within level {seeds_now} comes back to a board",
                retro.engine()
            );
            let (next, board) = (path_targets[k].index, path_boards[k]);
            let from = path_targets.len();
            push_moves(
                retro,
                db,
                seeds_now,
                values,
                &board,
                out,
                path_targets,
                path_boards,
            );
            expanded += 1;
            path.push((next, from));
            continue;
        }
        let v = path_targets[from..]
            .iter()
            .map(|t| move_value(db, seeds_now, values, t))
            .max()
            .expect("every board has a move");
        values[index].store(v, Ordering::Relaxed);
        path_targets.truncate(from);
        path_boards.truncate(from);
        path.pop();
    }
    expanded
}

/// Builds level `seeds` of a game whose moves within a level form no cycle ([`Retro::acyclic`]):
/// each board is valued once, after the boards of the level its moves lead to (depth first), in
/// one pass over the ranks in parallel. The values are those of the game, so they do not depend
/// on the order or the thread count, and equal those of the fixpoint build.
fn build_acyclic<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    seeds_now: u32,
    report: &dyn Report,
    stop: &AtomicBool,
) -> Result<(Vec<i8>, LevelStats), Interrupted> {
    let count = db.ranks.count(seeds_now);
    let mut values: Vec<AtomicI8> = huge::with_capacity(count as usize);
    values.resize_with(count as usize, || AtomicI8::new(UNKNOWN));
    report.pass(seeds_now, 1, count);
    let evaluations = AtomicU64::new(0);
    (0..count.div_ceil(CHUNK as u64))
        .into_par_iter()
        .try_for_each_init(Walk::default, |walk, c| {
            if stop.load(Ordering::Relaxed) {
                return Err(Interrupted);
            }
            let start = c as usize * CHUNK;
            let end = (start + CHUNK).min(count as usize);
            let mut board = db.ranks.unrank(start as u64, seeds_now);
            let mut expanded = 0;
            for first in (start..end).step_by(BATCH) {
                // The batch's boards not valued yet, every value they read asked for first.
                walk.targets.clear();
                walk.boards.clear();
                walk.roots.clear();
                for index in first..(first + BATCH).min(end) {
                    if index > start {
                        db.ranks.next(&mut board);
                    }
                    if values[index].load(Ordering::Relaxed) != UNKNOWN {
                        continue;
                    }
                    let from = walk.targets.len();
                    push_moves(
                        retro,
                        db,
                        seeds_now,
                        &values,
                        &board,
                        &mut walk.out,
                        &mut walk.targets,
                        &mut walk.boards,
                    );
                    expanded += 1;
                    walk.roots.push((index, from, walk.targets.len()));
                }
                for k in 0..walk.roots.len() {
                    let (index, from, to) = walk.roots[k];
                    if values[index].load(Ordering::Relaxed) != UNKNOWN {
                        continue;
                    }
                    let best = walk.targets[from..to]
                        .iter()
                        .map(|t| move_value(db, seeds_now, &values, t))
                        .try_fold(i8::MIN, |best, v| (v != UNKNOWN).then(|| best.max(v)));
                    match best {
                        Some(v) => values[index].store(v, Ordering::Relaxed),
                        None => {
                            let targets = std::mem::take(&mut walk.targets);
                            let boards = std::mem::take(&mut walk.boards);
                            expanded += settle(
                                retro,
                                db,
                                seeds_now,
                                &values,
                                index,
                                &targets[from..to],
                                &boards[from..to],
                                walk,
                            );
                            walk.targets = targets;
                            walk.boards = boards;
                        }
                    }
                }
            }
            evaluations.fetch_add(expanded, Ordering::Relaxed);
            report.advance((end - start) as u64);
            Ok(())
        })?;
    let values: Vec<i8> = values.into_iter().map(AtomicI8::into_inner).collect();
    assert!(
        !values.par_iter().any(|&v| v == UNKNOWN),
        "every board of an acyclic level is valued in its pass"
    );
    Ok((
        values,
        LevelStats {
            positions: count,
            passes: 1,
            evaluations: evaluations.into_inner(),
        },
    ))
}

/// Bytes the build of level `seeds` holds: the levels below, the level (a byte a board) and,
/// unless the game is acyclic, the two bit sets of the fixpoint build.
pub fn build_memory<R: Retro + ?Sized>(retro: &R, db: &Database, seeds: u32) -> u64 {
    let positions = db.ranks.count(seeds);
    let bits = if retro.acyclic() { 0 } else { positions / 4 };
    db.bytes() + positions + bits
}

/// Boards a second the optimized engine built Oware's level 30 at, the largest level measured
/// (docs/performance.md, "Oware to 30 seeds": 1.55 million on 2 cores; smaller levels go
/// faster): the rate [`plan`] estimates a fixpoint build's time with.
pub const FIXPOINT_RATE: f64 = 1.5e6;

/// Boards a second the one-pass build of an acyclic game reached on its largest level measured
/// (docs/performance.md, "Kalah(6,5) under `openspiel`": level 29, 3.1 million on 2 cores):
/// the rate [`plan`] estimates its time with.
pub const ONE_PASS_RATE: f64 = 3.0e6;

/// What building levels 0 to `most` takes, from their sizes alone, before it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The levels to build: those whose files are not in the folder (the others are read back).
    pub levels: Vec<u32>,
    /// Boards in those levels.
    pub boards: u64,
    /// Bytes of their files (written through a temporary file each, renamed: no more at once).
    pub disk: u64,
    /// Bytes in memory at the most: every level once read or built, or the build of a level
    /// ([`build_memory`]), whichever is more.
    pub memory: u64,
    /// Seconds the build takes, roughly: its boards at [`FIXPOINT_RATE`] or [`ONE_PASS_RATE`].
    /// `None` for the reference engine, whose build evaluates every board on every pass and is
    /// many times slower (no rate measured).
    pub seconds: Option<f64>,
}

/// The [`Plan`] of building `retro`'s levels 0 to `most` into `folder`.
pub fn plan<R: Retro + ?Sized>(retro: &R, folder: &std::path::Path, most: u32) -> Plan {
    let ranks = Ranks::new(retro.pits(), most);
    let (mut levels, mut boards, mut disk) = (Vec::new(), 0, 0);
    let (mut below, mut memory) = (0u64, 0u64);
    for seeds in 0..=most {
        let positions = ranks.count(seeds);
        if !super::level_file::path(folder, seeds).exists() {
            let header = super::level_file::Header {
                game: retro.game().to_string(),
                reading: retro.reading(),
                pits: retro.pits(),
                seeds,
                positions,
            };
            levels.push(seeds);
            boards += positions;
            disk += header.file_bytes();
            let bits = if retro.acyclic() { 0 } else { positions / 4 };
            memory = memory.max(below + positions + bits);
        }
        below += positions;
    }
    let rate = if retro.acyclic() {
        ONE_PASS_RATE
    } else {
        FIXPOINT_RATE
    };
    Plan {
        levels,
        boards,
        disk,
        memory: memory.max(below),
        seconds: (retro.engine() != "reference").then(|| boards as f64 / rate),
    }
}

/// Builds level `seeds` (the levels below must be in `db`): the value of every board of that
/// many seeds for its player to move. Play that never captures again is worth 0 (the remaining
/// seeds shared evenly). Every value starts at 0; passes over the level set each board to the
/// best of its moves, in place, until a pass changes nothing. Whatever order the boards are
/// updated in (so whatever the thread count) the passes end at the same values: those of the game
/// where endless play is worth 0 (docs/solve.md gives the argument).
pub fn build_level<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    seeds_now: u32,
    report: &dyn Report,
    stop: &AtomicBool,
) -> Result<(Vec<i8>, LevelStats), Interrupted> {
    assert_eq!(db.levels(), seeds_now, "the levels below are built first");
    assert!(seeds_now <= db.ranks.max_seeds(), "ranks cover the level");
    if retro.acyclic() {
        return build_acyclic(retro, db, seeds_now, report, stop);
    }
    let count = db.ranks.count(seeds_now);
    let mut values: Vec<AtomicI8> = huge::with_capacity(count as usize);
    values.resize_with(count as usize, || AtomicI8::new(0));
    // Boards to look at in this pass and the next, a bit each: every board at first; then the
    // boards with a move to a board whose value changed (when the game lists them).
    let mut todo = Bits::full(count);
    let mut later = Bits::new(count);
    // The chunks a thread is working on.
    let open: Vec<AtomicBool> = (0..count.div_ceil(CHUNK as u64))
        .map(|_| AtomicBool::new(false))
        .collect();
    let tracked = retro.predecessors(&db.ranks.unrank(0, seeds_now), &mut Vec::new());
    let mut passes = 0;
    let mut pending = count;
    let mut evaluations = 0;
    loop {
        passes += 1;
        report.pass(seeds_now, passes, pending);
        evaluations += pending;
        let changed = AtomicU64::new(0);
        // A task takes CHUNK boards: CHUNK / 64 words of the bit sets.
        todo.par_chunks(CHUNK).try_for_each_init(
            || (Scratch::default(), Vec::with_capacity(BATCH)),
            |(scratch, batch), chunk| {
                let c = chunk.number;
                if stop.load(Ordering::Relaxed) {
                    return Err(Interrupted);
                }
                let mut differ = 0;
                let mut looked = 0;
                batch.clear();
                // Opened before any value is read: a thread that changes a value after this and
                // then finds the chunk closed knows the chunk read the new value.
                open[c].store(true, Ordering::Relaxed);
                fence(Ordering::SeqCst);
                // Untracked, every board is looked at in every pass.
                let ranks = if tracked { chunk.take() } else { chunk.peek() };
                for index in ranks {
                    batch.push(index);
                    if batch.len() == BATCH {
                        differ += update_batch(
                            retro, db, &values, &later, &open, c, tracked, seeds_now, batch,
                            scratch,
                        );
                        looked += batch.len() as u64;
                        batch.clear();
                    }
                }
                differ += update_batch(
                    retro, db, &values, &later, &open, c, tracked, seeds_now, batch, scratch,
                );
                looked += batch.len() as u64;
                open[c].store(false, Ordering::Release);
                changed.fetch_add(differ, Ordering::Relaxed);
                report.advance(looked);
                Ok(())
            },
        )?;
        if changed.load(Ordering::Relaxed) == 0 {
            let values = values.into_iter().map(AtomicI8::into_inner).collect();
            return Ok((
                values,
                LevelStats {
                    positions: count,
                    passes,
                    evaluations,
                },
            ));
        }
        if tracked {
            std::mem::swap(&mut todo, &mut later);
            pending = todo.len();
        }
    }
}

/// Checks level `seeds` of `db` as it stands: every value is the best over its board's moves,
/// valued from the stored levels. Returns the first wrong value in rank order, if any.
pub fn verify_level<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    seeds_now: u32,
    report: &dyn Report,
) -> Result<(), Box<WrongValue>> {
    let values = db.level(seeds_now);
    report.pass(seeds_now, 1, values.len() as u64);
    let first = values
        .par_chunks(CHUNK)
        .enumerate()
        .map_init(
            || Vec::with_capacity(8),
            |out, (c, chunk)| {
                let start = c * CHUNK;
                let mut board = db.ranks.unrank(start as u64, seeds_now);
                let mut wrong = None;
                for (i, &stored) in chunk.iter().enumerate() {
                    if i > 0 {
                        db.ranks.next(&mut board);
                    }
                    let v = best(retro, &board, out, |b| lookup(db, seeds_now, values, b));
                    if v != stored {
                        wrong = Some(WrongValue {
                            seeds: seeds_now,
                            board: board[..db.ranks.pits()].to_vec(),
                            stored,
                            best: v,
                        });
                        break;
                    }
                }
                report.advance(chunk.len() as u64);
                wrong
            },
        )
        .find_first(|w| w.is_some())
        .flatten();
    match first {
        Some(w) => Err(Box::new(w)),
        None => Ok(()),
    }
}
