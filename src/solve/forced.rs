//! The check that a level's values other than 0 are forced: won by play that leaves the level,
//! not held up by a cycle. With best-over-moves, it proves the level holds the game's values.
//!
//! A set of values can be the best over every board's moves and still be wrong where play cycles
//! within the level: round an even cycle, +x and -x support each other for any x, while the game
//! (endless play worth 0) gives 0. The check finds, as a least fixed point, the boards whose value
//! is forced:
//! - a board worth more than 0 is forced when one of its moves is worth its value and ends the
//!   game, leaves the level, or leads to a forced board;
//! - a board worth less than 0 is forced when every move that stays in the level leads to a
//!   forced board (the moves that leave the level are valued from the levels below).
//!
//! If every value is the best over its moves and every value other than 0 is forced, the values
//! are the game's: the player with a positive value forces it to an end of the level by the
//! forced moves, and neither player can do better than the values say, since endless play
//! gives 0 (docs/solve.md, "Verified, not trusted").

use std::sync::atomic::Ordering;

use rayon::prelude::*;

use super::bits::Bits;
use super::build::prefetch;
use super::check::UnexpectedMove;
use super::{seeds, through, Board, Database, Edge, Report, Retro};

/// Boards a parallel task takes at a time (a multiple of 64: whole words of the bit sets).
const CHUNK: usize = 1 << 14;

/// What the check of one level found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forced {
    /// Boards of the level.
    pub boards: u64,
    /// Boards whose value is not 0.
    pub valued: u64,
    /// Boards among those whose value was found forced.
    pub forced: u64,
    /// Passes over the boards still to look at.
    pub passes: u32,
    /// Boards looked at over all passes.
    pub evaluations: u64,
    /// The first board (in rank order) whose value other than 0 is not forced, with its value.
    pub unforced: Option<(Vec<u8>, i8)>,
}

/// Sets `set` to the boards of `values` worth other than 0 that are not in `forced`.
fn unsettle(set: &Bits, values: &[i8], forced: &Bits) {
    set.words().par_iter().enumerate().for_each(|(w, word)| {
        let from = w * 64;
        let bits = values[from..(from + 64).min(values.len())]
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0)
            .fold(0u64, |b, (k, _)| b | 1 << k);
        word.store(
            bits & !forced.words()[w].load(Ordering::Relaxed),
            Ordering::Relaxed,
        );
    });
}

/// Boards looked at together: every value and bit a batch reads is asked for from memory before
/// any is used, so the cache misses of many boards overlap.
const BATCH: usize = 32;

/// Where a move leads, as the check needs it.
#[derive(Clone, Copy)]
enum Target {
    /// The board of the level of this rank.
    Within(u64),
    /// The game's end, worth this much to the mover.
    Over(i8),
    /// A board of level `level` below, rank `index`, reached winning `gain` (the mover moves
    /// again when `again`).
    Below {
        gain: i8,
        again: bool,
        level: u32,
        index: usize,
    },
}

/// Scratch space of one thread's batches.
#[derive(Default)]
struct Scratch {
    /// One expansion's moves.
    out: Vec<(u8, Edge)>,
    /// One board's predecessors.
    before: Vec<Board>,
    /// The batch: each board's rank, value, the board, and one past its last target.
    batch: Vec<(u64, i8, Board, usize)>,
    /// The batch's moves.
    targets: Vec<Target>,
    /// Ranks of the boards with a move to a board just forced.
    marks: Vec<u64>,
}

/// Finds which boards of level `level` (built, with the levels below, in `db`) have a forced
/// value, and names the first whose value other than 0 is not. The set found is a least fixed
/// point, the same whatever the thread count. `report` is told each pass.
pub fn check_forced<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    level: u32,
    report: &dyn Report,
) -> Result<Forced, UnexpectedMove> {
    let values = db.level(level);
    let count = values.len() as u64;
    let ranks = db.ranks();
    let forced = Bits::new(count);
    // The boards to look at in this pass (every one worth other than 0 at first) and in the
    // next: those with a move to a board forced in this pass, where the game lists them, else
    // every board left.
    let mut todo = Bits::new(count);
    unsettle(&todo, values, &forced);
    let mut later = Bits::new(count);
    let tracked = retro.predecessors(&ranks.unrank(0, level), &mut Vec::new());
    let mut passes = 0;
    let mut evaluations = 0;
    loop {
        let pending = todo.len();
        if pending == 0 {
            break;
        }
        passes += 1;
        report.pass(level, passes, pending);
        let check = Check {
            retro,
            db,
            level,
            values,
            forced: &forced,
            later: &later,
            tracked,
        };
        let (newly, looked): (u64, u64) = todo
            .par_chunks(CHUNK)
            .map_init(Scratch::default, |scratch, chunk| {
                let (mut newly, mut looked, mut taken) = (0, 0, 0);
                scratch.batch.clear();
                for index in chunk.take() {
                    taken += 1;
                    // Forced since it was marked.
                    if forced.has(index) {
                        continue;
                    }
                    let board = ranks.unrank(index, level);
                    scratch
                        .batch
                        .push((index, values[index as usize], board, 0));
                    if scratch.batch.len() == BATCH {
                        looked += BATCH as u64;
                        newly += check.batch(scratch)?;
                        scratch.batch.clear();
                    }
                }
                looked += scratch.batch.len() as u64;
                newly += check.batch(scratch)?;
                report.advance(taken);
                Ok((newly, looked))
            })
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
        evaluations += looked;
        if newly == 0 {
            break;
        }
        if tracked {
            std::mem::swap(&mut todo, &mut later);
        } else {
            unsettle(&todo, values, &forced);
        }
    }
    let mut found = Forced {
        boards: count,
        passes,
        evaluations,
        ..Forced::default()
    };
    for (i, &v) in values.iter().enumerate() {
        if v == 0 {
            continue;
        }
        found.valued += 1;
        if forced.has(i as u64) {
            found.forced += 1;
        } else if found.unforced.is_none() {
            let board = ranks.unrank(i as u64, level);
            found.unforced = Some((board[..ranks.pits()].to_vec(), v));
        }
    }
    Ok(found)
}

/// What a pass reads and writes, shared by its threads.
struct Check<'a, R: ?Sized> {
    retro: &'a R,
    db: &'a Database,
    /// The level checked, and its values.
    level: u32,
    values: &'a [i8],
    /// The boards found forced so far.
    forced: &'a Bits,
    /// The boards to look at in the next pass.
    later: &'a Bits,
    /// Whether the game lists predecessors (else every board left is looked at each pass).
    tracked: bool,
}

impl<R: Retro + ?Sized> Check<'_, R> {
    /// Looks at the boards of `s.batch`: sets those forced now, then marks in `later` the boards
    /// with a move to them. Returns how many it set.
    fn batch(&self, s: &mut Scratch) -> Result<u64, UnexpectedMove> {
        let ranks = self.db.ranks();
        // Every board's moves first, each target asked for from memory.
        s.targets.clear();
        for (_, value, board, end) in s.batch.iter_mut() {
            s.out.clear();
            match self.retro.expand(board, &mut s.out) {
                Some(v) => s.targets.push(Target::Over(v)),
                None => {
                    for (_, edge) in &s.out {
                        s.targets.push(self.target(board, *value, edge)?);
                    }
                }
            }
            *end = s.targets.len();
        }
        let mut newly = 0;
        let mut start = 0;
        s.marks.clear();
        for &(index, value, board, end) in &s.batch {
            let moves = &s.targets[start..end];
            start = end;
            if !self.holds(value, moves) {
                continue;
            }
            self.forced.add(index);
            newly += 1;
            if self.tracked {
                s.before.clear();
                self.retro.predecessors(&board, &mut s.before);
                for p in &s.before {
                    let i = ranks.rank(p, self.level);
                    prefetch(&self.values[i as usize]);
                    prefetch(self.forced.word(i));
                    s.marks.push(i);
                }
            }
        }
        // After the batch's bits are set: a board marked here and looked at in the next pass
        // sees them.
        for &i in &s.marks {
            if self.values[i as usize] != 0 && !self.forced.has(i) {
                self.later.add(i);
            }
        }
        Ok(newly)
    }

    /// Where `edge`, a move of `board` (worth `value`), leads; what the check will read of it is
    /// asked for from memory.
    fn target(&self, board: &Board, value: i8, edge: &Edge) -> Result<Target, UnexpectedMove> {
        let ranks = self.db.ranks();
        let (gain, next, again) = match *edge {
            Edge::Over(v) => return Ok(Target::Over(v)),
            Edge::Next { gain, board, again } => (gain, board, again),
        };
        let level = seeds(&next);
        let index = ranks.rank(&next, level);
        if level == self.level {
            // The check reasons about plain turns of play within the level.
            UnexpectedMove::unless_plain(board, ranks.pits(), gain, again)?;
            prefetch(self.forced.word(index));
            if value > 0 {
                prefetch(&self.values[index as usize]);
            }
            return Ok(Target::Within(index));
        }
        let index = index as usize;
        if value > 0 {
            prefetch(&self.db.level(level)[index]);
        }
        Ok(Target::Below {
            gain,
            again,
            level,
            index,
        })
    }

    /// Whether a board worth `value` (not 0) with the moves `moves` is forced now. Worth more
    /// than 0: one move worth the value ends play within the level, or leads to a board whose
    /// (negative) value is forced. Worth less: every move that stays in the level leads to a
    /// board whose (positive) value is forced.
    fn holds(&self, value: i8, moves: &[Target]) -> bool {
        if value > 0 {
            moves.iter().any(|&t| match t {
                Target::Within(i) => self.forced.has(i) && -self.values[i as usize] >= value,
                Target::Over(v) => v >= value,
                Target::Below {
                    gain,
                    again,
                    level,
                    index,
                } => through(gain, again, self.db.level(level)[index]) >= value,
            })
        } else {
            moves.iter().all(|&t| match t {
                Target::Within(i) => self.forced.has(i),
                Target::Over(_) | Target::Below { .. } => true,
            })
        }
    }
}
