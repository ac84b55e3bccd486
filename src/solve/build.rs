//! The retrograde build of one level (every board of one seed count) from the levels below, by
//! value iteration to the fixpoint over index ranges in parallel, and the check of a built level.

use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, Ordering};

use rayon::prelude::*;

use super::{seeds, Board, Edge, Ranks, Retro};

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

/// The best move's value of `board` of level `seeds_now`, the level's values so far in `values`:
/// every target's index is worked out before any is read, so the reads overlap.
#[inline]
fn evaluate<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    values: &[AtomicI8],
    seeds_now: u32,
    board: &Board,
    out: &mut Vec<(u8, Edge)>,
) -> i8 {
    out.clear();
    if let Some(v) = retro.expand(board, out) {
        return v;
    }
    // (gain, again, level, index) of each move; level u32::MAX for a move that ends the game.
    let mut targets = [(0i8, false, 0u32, 0usize); 8];
    for (t, (_, edge)) in targets.iter_mut().zip(out.iter()) {
        *t = match *edge {
            Edge::Over(v) => (v, false, u32::MAX, 0),
            Edge::Next { gain, board, again } => {
                let s = seeds(&board);
                assert!(s <= seeds_now, "a move added seeds to the board");
                (gain, again, s, db.ranks.rank(&board, s) as usize)
            }
        };
    }
    targets[..out.len()]
        .iter()
        .map(|&(gain, again, s, i)| {
            if s == u32::MAX {
                return gain;
            }
            let next = if s == seeds_now {
                values[i].load(Ordering::Relaxed)
            } else {
                db.levels[s as usize][i]
            };
            if again {
                gain + next
            } else {
                gain - next
            }
        })
        .max()
        .unwrap_or_else(|| {
            panic!(
                "{} engine: a board with no move is not over",
                retro.engine()
            )
        })
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
    let count = db.ranks.count(seeds_now);
    let values: Vec<AtomicI8> = (0..count).map(|_| AtomicI8::new(0)).collect();
    // Boards to look at in this pass and the next, a bit each: every board at first; then the
    // boards with a move to a board whose value changed (when the game lists them).
    let words = count.div_ceil(64) as usize;
    let mut todo: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(u64::MAX)).collect();
    let mut later: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
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
        todo.par_chunks(CHUNK / 64).enumerate().try_for_each_init(
            || (Vec::with_capacity(8), Vec::with_capacity(32)),
            |(out, before), (c, bits)| {
                if stop.load(Ordering::Relaxed) {
                    return Err(Interrupted);
                }
                let mut differ = 0;
                let mut looked = 0;
                for (w, word) in bits.iter().enumerate() {
                    let mut set = if tracked {
                        word.swap(0, Ordering::Relaxed)
                    } else {
                        u64::MAX
                    };
                    while set != 0 {
                        let bit = set.trailing_zeros() as u64;
                        set &= set - 1;
                        let index = ((c * CHUNK / 64 + w) as u64) * 64 + bit;
                        if index >= count {
                            break;
                        }
                        looked += 1;
                        let board = db.ranks.unrank(index, seeds_now);
                        let v = evaluate(retro, db, &values, seeds_now, &board, out);
                        if values[index as usize].swap(v, Ordering::Relaxed) != v {
                            differ += 1;
                            if tracked {
                                before.clear();
                                retro.predecessors(&board, before);
                                for p in before.iter() {
                                    let r = db.ranks.rank(p, seeds_now);
                                    later[(r / 64) as usize]
                                        .fetch_or(1 << (r % 64), Ordering::Relaxed);
                                }
                            }
                        }
                    }
                }
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
            pending = todo
                .par_iter()
                .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
                .sum();
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
