//! The alphabeta policy: negamax with alpha-beta pruning and iterative deepening over the game's
//! evaluation, a transposition table on Zobrist keys, captures and the table's move first.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{budget, Budget, PolicyError};
use crate::game::{Draw, Game, Ply, Silent, Verdict};
use crate::side::Side;

/// The settings `alphabeta:` takes.
pub const KEYS: &str = "depth, ms";
/// The depth searched when no budget is given.
pub const DEFAULT_DEPTH: u32 = 4;
/// The deepest search, also the limit of a time budget.
pub const MAX_DEPTH: u32 = 64;

/// How far the search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Plies searched (1 to [`MAX_DEPTH`]).
    Depth(u32),
    /// Deepening until this many milliseconds have passed (1 to [`super::MAX_MS`]); the moves then
    /// depend on the machine's speed.
    Millis(u32),
}

/// The alphabeta policy's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The search budget.
    pub limit: Limit,
}

impl Settings {
    /// The settings with the default depth.
    pub const DEFAULT: Settings = Settings {
        limit: Limit::Depth(DEFAULT_DEPTH),
    };

    /// The settings from the `key=value` pairs given (checked for known keys already).
    pub(super) fn from_given(given: &[(&'static str, &str)]) -> Result<Settings, PolicyError> {
        let depth = ("depth", MAX_DEPTH, "a depth in plies, 1 to 64");
        let limit = match budget("alphabeta", given, depth)? {
            None => Limit::Depth(DEFAULT_DEPTH),
            Some(Budget::Count(d)) => Limit::Depth(d),
            Some(Budget::Millis(ms)) => Limit::Millis(ms),
        };
        Ok(Settings { limit })
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Limit::Depth(d) => write!(f, "depth={d}"),
            Limit::Millis(ms) => write!(f, "ms={ms}"),
        }
    }
}

/// Beyond every value.
const INF: i32 = i32::MAX / 2;
/// The value of a won game, less one per ply to reach it (a quicker win is worth more).
pub const WIN: i32 = 1_000_000;
/// Values at least this far from 0 are wins or losses.
const WON: i32 = WIN - 10_000;
/// Transposition table entries (a power of two).
const TABLE_SIZE: usize = 1 << 16;
/// Nodes between looks at the clock.
const CLOCK_EVERY: u64 = 16;

/// What a stored value says of the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// At least the value.
    Lower,
    /// At most the value.
    Upper,
}

/// A transposition table entry.
#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    key: u64,
    depth: u32,
    bound: Bound,
    value: i32,
    best: Option<M>,
}

/// The children of a node: each move with the ply it gives.
type Children<G> = Vec<(<G as Game>::Move, Result<Ply<<G as Game>::State>, Silent>)>;

/// A searcher: its transposition table and move buffers, kept between the moves of a game.
pub struct Searcher<G: Game> {
    table: Vec<Option<Entry<G::Move>>>,
    use_table: bool,
    buffers: Vec<Children<G>>,
    /// Nodes visited since the searcher was made.
    pub nodes: u64,
    /// Of those, game ends the history decided (a repetition).
    history_ends: u64,
    deadline: Option<Instant>,
    stop: Option<&'static AtomicBool>,
    stopped: bool,
    /// What the last [`Searcher::best_move`] did.
    last: Report,
}

/// What one search for a move did: the deepest search completed, the nodes it visited, and the
/// value of the move chosen there for the player to move (evaluation points; a won or lost game
/// is worth about +-1,000,000).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Plies of the deepest search completed (0: a forced move, or stopped before depth 1).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The value at that depth, for the player to move.
    pub value: Option<i32>,
    /// The moves of that value, among which the draw picked.
    pub best_moves: usize,
    /// Nodes visited that were game ends the history decided (a repetition,
    /// [`Game::history_end`]).
    pub history_ends: u64,
}

impl<G: Game> Default for Searcher<G> {
    fn default() -> Self {
        Searcher::new()
    }
}

impl<G: Game> Searcher<G> {
    /// A searcher with an empty transposition table.
    pub fn new() -> Searcher<G> {
        Searcher {
            table: vec![None; TABLE_SIZE],
            use_table: true,
            buffers: Vec::new(),
            nodes: 0,
            history_ends: 0,
            deadline: None,
            stop: None,
            stopped: false,
            last: Report::default(),
        }
    }

    /// What the last [`Searcher::best_move`] did.
    pub fn report(&self) -> Report {
        self.last
    }

    /// A searcher without a transposition table (to check that the table changes no value).
    pub fn without_table() -> Searcher<G> {
        Searcher {
            use_table: false,
            ..Searcher::new()
        }
    }

    /// The move to play in `s`: among the moves of the best value at the deepest search
    /// completed, the one `draw` picks; `None` when no move is legal. Once `stop` is set the
    /// search gives up at once and returns the best move of the deepest depth completed (the
    /// first legal move before depth 1 completes).
    pub fn best_move(
        &mut self,
        game: &G,
        s: &G::State,
        settings: Settings,
        draw: Draw,
        stop: Option<&'static AtomicBool>,
    ) -> Option<G::Move> {
        self.stop = stop;
        let nodes_before = self.nodes;
        let history_before = self.history_ends;
        self.last = Report::default();
        let mut root = Vec::new();
        game.successors(s, &mut root);
        if root.len() <= 1 {
            return root.first().map(|c| c.0);
        }
        let (max_depth, deadline) = match settings.limit {
            Limit::Depth(d) => (d, None),
            Limit::Millis(ms) => (
                MAX_DEPTH,
                Some(Instant::now() + Duration::from_millis(u64::from(ms))),
            ),
        };
        let mut order: Vec<usize> = (0..root.len()).collect();
        let mut best = Vec::new();
        for depth in 1..=max_depth {
            // The first depth completes whatever the clock says (only a stop ends it).
            self.deadline = if depth == 1 { None } else { deadline };
            self.stopped = false;
            let mover = game.to_move(s);
            let Some((values, ties)) = self.root_values(game, mover, &root, &order, depth) else {
                break;
            };
            // The next depth looks at the best moves first.
            order.sort_by_key(|&i| std::cmp::Reverse(values[i]));
            self.last = Report {
                depth,
                value: Some(values[ties[0]]),
                best_moves: ties.len(),
                ..Report::default()
            };
            best = ties;
            if values.iter().any(|&v| v.abs() >= WON) && depth >= 2 && deadline.is_some() {
                break;
            }
        }
        self.last.nodes = self.nodes - nodes_before;
        self.last.history_ends = self.history_ends - history_before;
        if best.is_empty() {
            // Stopped before the first depth completed.
            return Some(root[0].0);
        }
        best.sort_unstable();
        Some(root[best[draw.below(best.len(), 0)]].0)
    }

    /// The value of every root move to `depth` plies (a move below the best gets a bound at most
    /// the best less one) and the moves of the best value, in canonical order; `None` when the
    /// clock stopped the search.
    fn root_values(
        &mut self,
        game: &G,
        mover: Side,
        root: &Children<G>,
        order: &[usize],
        depth: u32,
    ) -> Option<(Vec<i32>, Vec<usize>)> {
        let mut values = vec![-INF; root.len()];
        let mut best = -INF;
        let mut ties = Vec::new();
        for &i in order {
            // A window that tells a move as good as the best apart from a worse one.
            let alpha = if best == -INF { -INF } else { best - 1 };
            let v = match &root[i].1 {
                Err(_) => 0,
                Ok(ply) => self.child(game, mover, &ply.state, depth - 1, (alpha, INF), 1),
            };
            if self.stopped {
                return None;
            }
            values[i] = v;
            if v > best {
                best = v;
                ties.clear();
            }
            if v == best {
                ties.push(i);
            }
        }
        Some((values, ties))
    }

    /// The value for `mover` of `child`, a state `mover` moved to, searched to `depth` plies
    /// over the window `(alpha, beta)` of `mover`: negated when the turn passed, taken as it is
    /// when `mover` moves again (Kalah's extra turn).
    fn child(
        &mut self,
        game: &G,
        mover: Side,
        child: &G::State,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: u32,
    ) -> i32 {
        if game.to_move(child) == mover {
            self.negamax(game, child, depth, alpha, beta, ply)
        } else {
            -self.negamax(game, child, depth, -beta, -alpha, ply)
        }
    }

    /// The value of `s` to `depth` plies for the player to move, by alpha-beta over
    /// (`alpha`, `beta`): exact inside the window, a bound outside it.
    pub fn value(&mut self, game: &G, s: &G::State, depth: u32) -> i32 {
        self.deadline = None;
        self.stop = None;
        self.stopped = false;
        self.negamax(game, s, depth, -INF, INF, 0)
    }

    fn negamax(
        &mut self,
        game: &G,
        s: &G::State,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        // The stop flag at every node, the clock every few: a node of a reference engine can
        // cost milliseconds (its game end and its moves are worked out clause by clause).
        if self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
            || (self.nodes.is_multiple_of(CLOCK_EVERY)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let mover = game.to_move(s);
        if let Some(ending) = game.ending(s) {
            self.history_ends += u64::from(game.history_end(s).is_some());
            return match ending.verdict {
                Verdict::Win(w) if w == mover => WIN - ply as i32,
                Verdict::Win(_) => -(WIN - ply as i32),
                Verdict::Draw | Verdict::RulesSilent => 0,
            };
        }
        let sign = if mover.index() == 0 { 1 } else { -1 };
        if depth == 0 {
            return sign * game.evaluate(s);
        }
        let key = game.key(s);
        let slot = key as usize & (TABLE_SIZE - 1);
        let mut table_move = None;
        if let Some(e) = self.table[slot].filter(|e| self.use_table && e.key == key) {
            table_move = e.best;
            // Only a search to this very depth: a deeper one would change the value.
            if e.depth == depth {
                let v = from_table(e.value, ply);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let ply_index = ply as usize;
        if self.buffers.len() <= ply_index {
            self.buffers.resize_with(ply_index + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.buffers[ply_index]);
        game.successors(s, &mut children);
        if children.is_empty() {
            self.buffers[ply_index] = children;
            return sign * game.evaluate(s);
        }
        // The table's move first, then the biggest captures; otherwise canonical order.
        let mut order: Vec<(bool, u32, usize)> = children
            .iter()
            .enumerate()
            .map(|(i, (mv, ply))| {
                let captured = ply.as_ref().map_or(0, |p| p.facts.seeds_captured);
                (Some(*mv) != table_move, u32::MAX - captured, i)
            })
            .collect();
        order.sort_unstable();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for &(_, _, i) in &order {
            let v = match &children[i].1 {
                Err(_) => 0,
                Ok(p) => self.child(game, mover, &p.state, depth - 1, (alpha, beta), ply + 1),
            };
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(children[i].0);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.buffers[ply_index] = children;
        if self.stopped {
            return 0;
        }
        if self.use_table {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table[slot] = Some(Entry {
                key,
                depth,
                bound,
                value: to_table(best, ply),
                best: best_move,
            });
        }
        best
    }
}

/// A value as the table keeps it: a win counted from the stored node, not from the root.
fn to_table(v: i32, ply: u32) -> i32 {
    if v >= WON {
        v + ply as i32
    } else if v <= -WON {
        v - ply as i32
    } else {
        v
    }
}

/// A stored value seen from `ply` plies below the root.
fn from_table(v: i32, ply: u32) -> i32 {
    if v >= WON {
        v - ply as i32
    } else if v <= -WON {
        v + ply as i32
    } else {
        v
    }
}
