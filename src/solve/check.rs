//! An independent solve of a whole level, or of the part of it some drawn boards reach, to check
//! the build against: the moves played and kept reversed, then for each threshold t the boards
//! where the mover can force at least t and those where the opponent can hold the mover to -t or
//! less, by the counting retrograde method (no value iteration, no predecessor guessing); the
//! levels below come from the database.

use std::collections::HashMap;

use super::rank::drawn_rank;
use super::{seeds, through, Board, Database, Edge, Report, Retro};
use crate::game::{game_keys, Draw};

/// What the independent solve of one level found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Boards of the level.
    pub boards: u64,
    /// Boards whose value agreed with the level.
    pub agreed: u64,
    /// The first board (in rank order) whose value disagreed: board, level's value, its value.
    pub disagreed: Option<(Vec<u8>, i8, i8)>,
}

/// A move of the level that stays in it is not a plain turn of play (it won seeds, or the mover
/// plays again): the threshold method below assumes neither.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board {0:?}: a move within the level wins seeds or keeps the turn")]
pub struct UnexpectedMove(pub Vec<u8>);

impl UnexpectedMove {
    /// Checks that a move from `board` (of `pits` pits) that stays in its level is a plain turn
    /// of play: it wins `gain` seeds, 0, and the turn passes (`again` false).
    pub(crate) fn unless_plain(
        board: &Board,
        pits: usize,
        gain: i8,
        again: bool,
    ) -> Result<(), UnexpectedMove> {
        if gain != 0 || again {
            return Err(UnexpectedMove(board[..pits].to_vec()));
        }
        Ok(())
    }
}

/// The level's moves: for each board its value if the game is over there, the best value of its
/// moves that leave the level, and the boards of the level its other moves lead to.
#[derive(Default)]
struct Graph {
    over: Vec<Option<i8>>,
    best_exit: Vec<Option<i8>>,
    start: Vec<u32>,
    next: Vec<u32>,
}

/// `board`'s moves: its value if the game is over there, and the best value of its moves that
/// leave the level; `within` is told each board of the level a move leads to.
fn moves<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    level: u32,
    board: &Board,
    out: &mut Vec<(u8, Edge)>,
    mut within: impl FnMut(&Board),
) -> Result<(Option<i8>, Option<i8>), UnexpectedMove> {
    out.clear();
    let over = retro.expand(board, out);
    let mut best: Option<i8> = None;
    for (_, edge) in out.iter() {
        let exit = match *edge {
            Edge::Over(v) => v,
            Edge::Next {
                gain,
                board: b,
                again,
            } => {
                if seeds(&b) == level {
                    UnexpectedMove::unless_plain(board, db.ranks().pits(), gain, again)?;
                    within(&b);
                    continue;
                }
                through(
                    gain,
                    again,
                    db.value(&b).expect("the levels below are built"),
                )
            }
        };
        best = Some(best.map_or(exit, |b| b.max(exit)));
    }
    Ok((over, best))
}

impl Graph {
    /// Adds `board`'s entry (the next board of the graph): `index` numbers the boards of the level
    /// its moves lead to.
    fn push<R: Retro + ?Sized>(
        &mut self,
        retro: &R,
        db: &Database,
        level: u32,
        board: &Board,
        out: &mut Vec<(u8, Edge)>,
        mut index: impl FnMut(&Board) -> u32,
    ) -> Result<(), UnexpectedMove> {
        self.start.push(self.next.len() as u32);
        let (over, best) = moves(retro, db, level, board, out, |b| self.next.push(index(b)))?;
        self.over.push(over);
        self.best_exit.push(best);
        Ok(())
    }

    /// Closes the graph after its last board.
    fn close(&mut self) {
        self.start.push(self.next.len() as u32);
    }
}

/// The graph of the boards of `level` reachable from `from` by moves that stay in the level,
/// numbered in the order they were found (no ranks); `None` when they are more than `most`.
fn reach<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    level: u32,
    from: &Board,
    most: usize,
) -> Result<Option<(Graph, Vec<Board>)>, UnexpectedMove> {
    let mut g = Graph::default();
    let mut boards = vec![*from];
    let mut number: HashMap<Board, u32> = HashMap::from([(*from, 0)]);
    let mut out = Vec::new();
    let mut i = 0;
    while i < boards.len() {
        if boards.len() > most {
            return Ok(None);
        }
        let board = boards[i];
        g.push(retro, db, level, &board, &mut out, |b| {
            *number.entry(*b).or_insert_with(|| {
                boards.push(*b);
                boards.len() as u32 - 1
            })
        })?;
        i += 1;
    }
    g.close();
    Ok(Some((g, boards)))
}

/// The level's moves reversed, which is all the counting method needs: for each board its value
/// if the game is over there, the best value of its moves that leave the level, how many of its
/// moves stay in it, and the boards with a move to it (once a move).
struct Reversed {
    over: Vec<Option<i8>>,
    best_exit: Vec<Option<i8>>,
    moves_in: Vec<u8>,
    pstart: Vec<u32>,
    prev: Vec<u32>,
}

impl Reversed {
    /// `g` reversed (its forward moves dropped).
    fn of(g: Graph) -> Reversed {
        let count = g.over.len();
        let moves_in = (0..count)
            .map(|p| (g.start[p + 1] - g.start[p]) as u8)
            .collect();
        let mut counts = vec![0u32; count];
        for &q in &g.next {
            counts[q as usize] += 1;
        }
        let mut r = Reversed {
            over: g.over,
            best_exit: g.best_exit,
            moves_in,
            pstart: Reversed::starts(&counts),
            prev: vec![0u32; g.next.len()],
        };
        drop(counts);
        for p in 0..count {
            for &q in &g.next[g.start[p] as usize..g.start[p + 1] as usize] {
                r.place(p as u32, q);
            }
        }
        r
    }

    /// Where each board's entries will start, from how many moves lead to it, ready for
    /// [`Reversed::place`]: board q's cursor is `pstart[q + 1]`, at its start; once every move is
    /// placed it stands at q's end, so `pstart` holds each board's start and end.
    fn starts(counts: &[u32]) -> Vec<u32> {
        let mut pstart = vec![0u32; counts.len() + 1];
        for q in 1..counts.len() {
            pstart[q + 1] = pstart[q] + counts[q - 1];
        }
        pstart
    }

    /// Records a move from `p` to `q` (after [`Reversed::starts`]).
    fn place(&mut self, p: u32, q: u32) {
        let cursor = &mut self.pstart[q as usize + 1];
        self.prev[*cursor as usize] = p;
        *cursor += 1;
    }

    /// The boards with a move to `q`.
    fn into(&self, q: usize) -> &[u32] {
        &self.prev[self.pstart[q] as usize..self.pstart[q + 1] as usize]
    }
}

/// The value of every board of `r`, a graph of boards of `level` seeds, by the counting method,
/// in parallel; `report` is told each threshold as a stage over the boards.
fn solve(r: &Reversed, level: u32, report: &dyn Report) -> Vec<i8> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
    const UNKNOWN: u8 = 0;
    const WINS: u8 = 1;
    const LOSES: u8 = 2;
    const UNCOUNTED: u8 = u8::MAX;
    // Boards a task takes at once: small graphs (a drawn board's reach) stay on one thread.
    const CHUNK: usize = 1 << 14;
    let count = r.over.len();
    // The value found so far: t once the mover is known to force t, -t once the opponent is
    // known to hold the mover to -t.
    let mut found = vec![0i8; count];
    // Per board its state for this threshold, and the moves left that do not settle it. Each
    // board is settled once (a compare-and-swap), so each is passed on once, and the sets found
    // are least fixed points: the same whatever the order of the threads.
    let state: Vec<AtomicU8> = (0..count).map(|_| AtomicU8::new(UNKNOWN)).collect();
    let left: Vec<AtomicU8> = (0..count).map(|_| AtomicU8::new(0)).collect();
    for t in 1..=level as i32 {
        report.stage(
            level,
            &format!("counting, threshold {t} of {level}"),
            count as u64,
        );
        // Settled by its own moves: the game over, or a move out of the level.
        let settled = |p: usize| match (r.over[p], r.best_exit[p]) {
            (Some(v), _) if i32::from(v) >= t => (WINS, 0),
            (Some(v), _) if i32::from(v) <= -t => (LOSES, 0),
            (Some(_), _) => (UNKNOWN, UNCOUNTED),
            (None, Some(e)) if i32::from(e) >= t => (WINS, 0),
            (None, Some(e)) if i32::from(e) > -t => (UNKNOWN, UNCOUNTED),
            (None, _) if r.moves_in[p] == 0 => (LOSES, 0),
            (None, _) => (UNKNOWN, r.moves_in[p]),
        };
        (0..count)
            .into_par_iter()
            .with_min_len(CHUNK)
            .for_each(|p| {
                let (s, l) = settled(p);
                state[p].store(s, Relaxed);
                left[p].store(l, Relaxed);
            });
        let (state, left) = (&state, &left);
        // Passes `q`'s state on to the boards with a move to it; those it settles are returned.
        let pass_on = |q: usize| {
            let loses = state[q].load(Relaxed) == LOSES;
            r.into(q).iter().filter_map(move |&p| {
                let p = p as usize;
                if state[p].load(Relaxed) != UNKNOWN {
                    None
                } else if loses {
                    // A move to a board where the opponent gets -t or less.
                    state[p]
                        .compare_exchange(UNKNOWN, WINS, Relaxed, Relaxed)
                        .is_ok()
                        .then_some(p as u32)
                } else if left[p].load(Relaxed) != UNCOUNTED && left[p].fetch_sub(1, Relaxed) == 1 {
                    // Every move to a board where the opponent gets t or more.
                    state[p]
                        .compare_exchange(UNKNOWN, LOSES, Relaxed, Relaxed)
                        .is_ok()
                        .then_some(p as u32)
                } else {
                    None
                }
            })
        };
        let mut next: Vec<u32> = (0..count.div_ceil(CHUNK))
            .into_par_iter()
            .flat_map_iter(|c| {
                let boards = c * CHUNK..count.min((c + 1) * CHUNK);
                report.advance(boards.len() as u64);
                boards
                    .filter(|&q| settled(q).0 != UNKNOWN)
                    .flat_map(pass_on)
                    .collect::<Vec<u32>>()
            })
            .collect();
        while !next.is_empty() {
            next = next
                .par_iter()
                .with_min_len(CHUNK)
                .flat_map_iter(|&q| pass_on(q as usize))
                .collect();
        }
        found
            .par_iter_mut()
            .zip(state.par_iter())
            .with_min_len(CHUNK)
            .for_each(|(f, s)| match s.load(Relaxed) {
                WINS => *f = t as i8,
                LOSES => *f = -(t as i8),
                _ => {}
            });
    }
    found
}

/// The whole level reversed, boards numbered by rank, without its forward moves: the moves are
/// played twice (once to count them, once to place them), in parallel over the ranks.
fn reversed<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    level: u32,
    report: &dyn Report,
) -> Result<Reversed, UnexpectedMove> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering};
    let count = db.ranks().count(level) as usize;
    // Boards played between two reports of progress.
    const EVERY: usize = 1 << 12;
    // Each board's moves: over, best exit, and the ranks of the boards of the level they reach.
    let play = |p: usize, out: &mut Vec<(u8, Edge)>, into: &mut Vec<u32>| {
        if p.is_multiple_of(EVERY) {
            report.advance(EVERY.min(count - p) as u64);
        }
        let board = db.ranks().unrank(p as u64, level);
        into.clear();
        moves(retro, db, level, &board, out, |b| {
            into.push(db.ranks().rank(b, level) as u32)
        })
    };
    let counts: Vec<AtomicU32> = (0..count).map(|_| AtomicU32::new(0)).collect();
    let mut over = vec![None; count];
    let mut best_exit = vec![None; count];
    let mut moves_in = vec![0u8; count];
    report.stage(level, "counting, the moves played", count as u64);
    over.par_iter_mut()
        .zip(best_exit.par_iter_mut())
        .zip(moves_in.par_iter_mut())
        .enumerate()
        .try_for_each_init(
            || (Vec::new(), Vec::new()),
            |(out, into), (p, ((o, e), m))| {
                (*o, *e) = play(p, out, into)?;
                *m = into.len() as u8;
                for &q in into.iter() {
                    counts[q as usize].fetch_add(1, Ordering::Relaxed);
                }
                Ok(())
            },
        )?;
    let counts: Vec<u32> = counts.into_iter().map(AtomicU32::into_inner).collect();
    let edges: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    assert!(
        edges <= u64::from(u32::MAX),
        "a level of at most 4 billion moves"
    );
    let pstart = Reversed::starts(&counts);
    drop(counts);
    // The places, filled by many threads at once: each move takes the next place of its board.
    let cursors: Vec<AtomicU32> = pstart.into_iter().map(AtomicU32::new).collect();
    let prev: Vec<AtomicU32> = (0..edges).map(|_| AtomicU32::new(0)).collect();
    report.stage(level, "counting, the moves reversed", count as u64);
    (0..count).into_par_iter().try_for_each_init(
        || (Vec::new(), Vec::new()),
        |(out, into), p| {
            play(p, out, into)?;
            for &q in into.iter() {
                let at = cursors[q as usize + 1].fetch_add(1, Ordering::Relaxed);
                prev[at as usize].store(p as u32, Ordering::Relaxed);
            }
            Ok(())
        },
    )?;
    // Each cursor now stands at its board's end, where the next board's entries start.
    Ok(Reversed {
        over,
        best_exit,
        moves_in,
        pstart: cursors.into_iter().map(AtomicU32::into_inner).collect(),
        prev: prev.into_iter().map(AtomicU32::into_inner).collect(),
    })
}

/// Solves level `level` on its own and compares every value with the database's; `report` is
/// told each stage (the moves played twice, then each threshold).
pub fn check_level<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    level: u32,
    report: &dyn Report,
) -> Result<Checked, UnexpectedMove> {
    let found = solve(&reversed(retro, db, level, report)?, level, report);
    let values = db.level(level);
    Ok(compare(
        db,
        &found,
        |p| values[p],
        |p| db.ranks().unrank(p as u64, level),
    ))
}

/// Compares the values `found` with the database's (`stored`) board by board; `board` names the
/// first that differs.
fn compare(
    db: &Database,
    found: &[i8],
    stored: impl Fn(usize) -> i8,
    board: impl Fn(usize) -> Board,
) -> Checked {
    let mut checked = Checked {
        boards: found.len() as u64,
        ..Checked::default()
    };
    for (p, &v) in found.iter().enumerate() {
        let s = stored(p);
        if v == s {
            checked.agreed += 1;
        } else if checked.disagreed.is_none() {
            checked.disagreed = Some((board(p)[..db.ranks().pits()].to_vec(), s, v));
        }
    }
    checked
}

/// Solves the boards of `from`'s level that `from` reaches without leaving the level (the
/// levels below valued from `db`), by the counting method on a graph numbered without ranks, and
/// compares each value with the database's; `None` when they are more than `most` boards.
pub fn check_reach<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    from: &Board,
    most: usize,
) -> Result<Option<Checked>, UnexpectedMove> {
    let level = seeds(from);
    let Some((g, boards)) = reach(retro, db, level, from, most)? else {
        return Ok(None);
    };
    let found = solve(&Reversed::of(g), level, &());
    let stored = |p: usize| db.value(&boards[p]).expect("the level is built");
    Ok(Some(compare(db, &found, stored, |p| boards[p])))
}

/// What [`check_sample`] found on one level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sampled {
    /// Boards drawn.
    pub drawn: u64,
    /// Boards drawn whose reach was small enough to solve.
    pub solved: u64,
    /// The boards of those reaches, with repeats across them, compared with the level.
    pub checked: Checked,
}

/// Checks level `level` on `drawn` boards drawn uniformly by `seed`: each with [`check_reach`]
/// (reaches over `most` boards are left out and not counted as solved). The same arguments give
/// the same result whatever the thread count; `done` is called after every board.
pub fn check_sample<R: Retro + ?Sized>(
    retro: &R,
    db: &Database,
    level: u32,
    drawn: u64,
    seed: u64,
    most: usize,
    done: &(dyn Fn() + Sync),
) -> Result<Sampled, UnexpectedMove> {
    use rayon::prelude::*;
    let count = db.ranks().count(level);
    // Each drawn board's result, merged in any order: sums, and the disagreement of the
    // earliest drawn board, so the thread count changes nothing.
    let merge = |mut a: (Sampled, u64), b: (Sampled, u64)| {
        a.0.solved += b.0.solved;
        a.0.checked.boards += b.0.checked.boards;
        a.0.checked.agreed += b.0.checked.agreed;
        if b.0.checked.disagreed.is_some() && (a.0.checked.disagreed.is_none() || b.1 < a.1) {
            a.0.checked.disagreed = b.0.checked.disagreed;
            a.1 = b.1;
        }
        Ok::<_, UnexpectedMove>(a)
    };
    let (mut sampled, _) = (0..drawn)
        .into_par_iter()
        .map(|k| {
            let draw = Draw::new(game_keys(seed, k), level);
            let rank = drawn_rank(draw, 0, count);
            let found = check_reach(retro, db, &db.ranks().unrank(rank, level), most);
            done();
            let checked = found?;
            let one = Sampled {
                drawn: 0,
                solved: u64::from(checked.is_some()),
                checked: checked.unwrap_or_default(),
            };
            Ok((one, k))
        })
        .try_reduce(|| (Sampled::default(), u64::MAX), merge)?;
    sampled.drawn = drawn;
    Ok(sampled)
}
