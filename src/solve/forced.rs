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

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::check::UnexpectedMove;
use super::{huge, seeds, through, Board, Database, Edge, Report, Retro};

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
    /// Passes over the boards still to look at (the last forces none).
    pub passes: u32,
    /// Boards looked at over all passes.
    pub evaluations: u64,
    /// The first board (in rank order) whose value other than 0 is not forced, with its value.
    pub unforced: Option<(Vec<u8>, i8)>,
}

/// A set of boards of one level, a bit each by rank, shared by the threads.
struct Bits(Vec<AtomicU64>);

impl Bits {
    /// `count` boards, all in the set when `full`.
    fn new(count: u64, full: bool) -> Bits {
        let words = count.div_ceil(64) as usize;
        let mut v: Vec<AtomicU64> = huge::with_capacity(words);
        let word = if full { u64::MAX } else { 0 };
        v.resize_with(words, || AtomicU64::new(word));
        Bits(v)
    }

    fn has(&self, i: u64) -> bool {
        self.0[(i / 64) as usize].load(Ordering::Relaxed) & (1 << (i % 64)) != 0
    }

    fn add(&self, i: u64) {
        self.0[(i / 64) as usize].fetch_or(1 << (i % 64), Ordering::Relaxed);
    }
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
    let forced = Bits::new(count, false);
    // The boards to look at in this pass (every one at first) and in the next: those with a
    // move to a board forced in this pass, where the game lists them, else every board left.
    let mut todo = Bits::new(count, true);
    let mut later = Bits::new(count, false);
    let tracked = retro.predecessors(&ranks.unrank(0, level), &mut Vec::new());
    let mut pending = count;
    let mut passes = 0;
    let mut evaluations = 0;
    loop {
        passes += 1;
        report.pass(level, passes, pending);
        let found: (u64, u64) = todo
            .0
            .par_chunks(CHUNK / 64)
            .enumerate()
            .map_init(
                || (Vec::with_capacity(8), Vec::with_capacity(64)),
                |(out, before), (c, words)| {
                    let mut newly = 0;
                    let mut looked = 0;
                    for (w, word) in words.iter().enumerate() {
                        let mut set = word.swap(0, Ordering::Relaxed);
                        while set != 0 {
                            let index =
                                ((c * CHUNK / 64 + w) * 64) as u64 + set.trailing_zeros() as u64;
                            set &= set - 1;
                            if index >= count {
                                break;
                            }
                            let value = values[index as usize];
                            if value == 0 || forced.has(index) {
                                continue;
                            }
                            looked += 1;
                            let board = ranks.unrank(index, level);
                            let now = is_forced(retro, db, values, &board, value, &forced, out);
                            if !now? {
                                continue;
                            }
                            forced.add(index);
                            newly += 1;
                            // After the bit is set: a board marked here and looked at in the
                            // next pass sees it.
                            before.clear();
                            if tracked {
                                retro.predecessors(&board, before);
                                for p in before.iter() {
                                    let i = ranks.rank(p, level);
                                    if values[i as usize] != 0 && !forced.has(i) {
                                        later.add(i);
                                    }
                                }
                            }
                        }
                    }
                    report.advance(looked);
                    Ok((newly, looked))
                },
            )
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
        evaluations += found.1;
        if found.0 == 0 {
            break;
        }
        if tracked {
            std::mem::swap(&mut todo, &mut later);
        } else {
            todo = Bits::new(count, true);
        }
        pending = todo
            .0
            .par_iter()
            .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
            .sum();
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

/// Whether `board`, worth `value` (not 0), is forced now: `values` is its level, `forced` holds
/// the boards of the level found so far; `out` is scratch.
fn is_forced<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    values: &[i8],
    board: &Board,
    value: i8,
    forced: &Bits,
    out: &mut Vec<(u8, Edge)>,
) -> Result<bool, UnexpectedMove> {
    out.clear();
    if retro.expand(board, out).is_some() {
        return Ok(true);
    }
    let ranks = db.ranks();
    let level = seeds(board);
    // A board of the level a move leads to: its rank (the move must be a plain turn of play).
    let within = |edge: &Edge| match *edge {
        Edge::Next {
            gain,
            board: b,
            again,
        } if seeds(&b) == level => {
            if gain != 0 || again {
                return Err(UnexpectedMove(board[..ranks.pits()].to_vec()));
            }
            Ok(Some(ranks.rank(&b, level)))
        }
        _ => Ok(None),
    };
    for (_, edge) in out.iter() {
        let next = within(edge)?;
        if value > 0 {
            // One move worth the value that ends play within the level, or that leads to a
            // board whose (negative) value is forced.
            let worth = match (next, *edge) {
                (Some(i), _) if forced.has(i) => -values[i as usize],
                (Some(_), _) => continue,
                (None, Edge::Over(v)) => v,
                (
                    None,
                    Edge::Next {
                        gain,
                        board: b,
                        again,
                    },
                ) => through(
                    gain,
                    again,
                    db.value(&b).expect("the levels below are built"),
                ),
            };
            if worth >= value {
                return Ok(true);
            }
        } else if next.is_some_and(|i| !forced.has(i)) {
            // Every move that stays in the level must lead to a board whose (positive) value
            // is forced.
            return Ok(false);
        }
    }
    Ok(value < 0)
}
