//! The mcts policy: Monte Carlo tree search with the UCT rule and uniformly random rollouts to
//! the game's end, rewards +1, 0, -1 and proven results backed up, as OpenSpiel's `MCTSBot`.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{budget, Budget, PolicyError};
use crate::game::{game_keys, Draw, Game, Verdict};
use crate::side::Side;

/// The settings `mcts:` takes.
pub const KEYS: &str = "sims, ms, c, solve, repetition";
/// The simulations per move when no budget is given.
pub const DEFAULT_SIMS: u32 = 1000;
/// The most simulations per move. Each adds a node to the tree (about half a kilobyte with its
/// move lists), so this bounds a search's memory to some 50 MB per thread.
pub const MAX_SIMS: u32 = 100_000;
/// The exploration constant when none is given (OpenSpiel's `uct_c` in its examples).
pub const DEFAULT_C: f64 = 2.0;
/// Plies a rollout plays at most; one cut there counts as a draw.
pub const ROLLOUT_PLIES: u32 = 2000;

/// Rollout plies between looks at the clock and the stop flag (a simulation looks at both
/// before it starts).
const ROLLOUT_CLOCK_EVERY: u32 = 32;

/// How many simulations a move gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// This many (1 to [`MAX_SIMS`]).
    Sims(u32),
    /// As many as fit in this many milliseconds (1 to [`super::MAX_MS`]; the tree stops growing
    /// at [`MAX_SIMS`]); the moves then depend on the machine's speed.
    Millis(u32),
}

/// The mcts policy's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The budget.
    pub limit: Limit,
    /// The exploration constant of the UCT rule.
    pub c: f64,
    /// Back up proven results (a node whose game end is known): a move that wins at once is
    /// then always taken, and the search stops once the root is proven (OpenSpiel's `solve`).
    pub solve: bool,
    /// How a game the history ends (a repetition) is scored.
    pub repetition: Repetition,
}

/// How the search scores a game its history ends (a repetition, [`Game::history_end`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Repetition {
    /// As the reading's rules end it (Oware's sheet: each side takes its own row).
    #[default]
    Rules,
    /// As the endgame databases count play that goes round for ever: the seeds then on the
    /// board shared evenly, so the seeds captured before decide.
    Databases,
}

impl Settings {
    /// The default settings.
    pub const DEFAULT: Settings = Settings {
        limit: Limit::Sims(DEFAULT_SIMS),
        c: DEFAULT_C,
        solve: true,
        repetition: Repetition::Rules,
    };

    /// The settings from the `key=value` pairs given (checked for known keys already).
    pub(super) fn from_given(given: &[(&'static str, &str)]) -> Result<Settings, PolicyError> {
        let p = "mcts";
        let sims = ("sims", MAX_SIMS, "simulations per move, 1 to 100000");
        let limit = match budget(p, given, sims)? {
            None => Limit::Sims(DEFAULT_SIMS),
            Some(Budget::Count(n)) => Limit::Sims(n),
            Some(Budget::Millis(ms)) => Limit::Millis(ms),
        };
        let c = match given.iter().find(|(k, _)| *k == "c") {
            None => DEFAULT_C,
            // 0 (-0 written as 0) or 0.001 to 100: a canonical text of a few characters.
            Some((_, v)) => v
                .parse::<f64>()
                .ok()
                .filter(|&c| c == 0.0 || (0.001..=100.0).contains(&c))
                .map(|c| c + 0.0)
                .ok_or_else(|| PolicyError::BadValue {
                    policy: p,
                    key: "c",
                    value: v.to_string(),
                    expected: "an exploration constant, 0 or 0.001 to 100",
                })?,
        };
        let solve = match given.iter().find(|(k, _)| *k == "solve") {
            None | Some((_, "true")) => true,
            Some((_, "false")) => false,
            Some((_, v)) => {
                return Err(PolicyError::BadValue {
                    policy: p,
                    key: "solve",
                    value: v.to_string(),
                    expected: "true or false",
                })
            }
        };
        let repetition = match given.iter().find(|(k, _)| *k == "repetition") {
            None | Some((_, "rules")) => Repetition::Rules,
            Some((_, "databases")) => Repetition::Databases,
            Some((_, v)) => {
                return Err(PolicyError::BadValue {
                    policy: p,
                    key: "repetition",
                    value: v.to_string(),
                    expected: "rules or databases",
                })
            }
        };
        Ok(Settings {
            limit,
            c,
            solve,
            repetition,
        })
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Limit::Sims(n) => write!(f, "sims={n}")?,
            Limit::Millis(ms) => write!(f, "ms={ms}")?,
        }
        if self.c != DEFAULT_C {
            write!(f, ",c={}", self.c)?;
        }
        if !self.solve {
            write!(f, ",solve=false")?;
        }
        if self.repetition == Repetition::Databases {
            write!(f, ",repetition=databases")?;
        }
        Ok(())
    }
}

/// A node: the state a move reached, its statistics, and its children.
struct Node<G: Game> {
    state: G::State,
    mv: Option<G::Move>,
    parent: usize,
    children: Vec<usize>,
    /// Moves not expanded yet, the next one last.
    untried: Vec<G::Move>,
    visits: u32,
    /// Rewards summed for the player who moved into this node.
    total: f64,
    /// The player who moved into this node.
    mover: Side,
    /// The reward for South of a node whose result is known: the game ends there (or the rules
    /// leave it open), or, when solving, a proven result of the moves below.
    proven: Option<f64>,
    /// The proven result came from a game end the history decided (a repetition), here or,
    /// when solving, below.
    by_history: bool,
}

/// A search tree, its buffers kept between the moves of a game.
pub struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    moves: Vec<G::Move>,
    /// Simulations run since the tree was made.
    pub simulations: u64,
    deadline: Option<Instant>,
    stop: Option<&'static AtomicBool>,
    /// How the search under way scores a game its history ends.
    repetition: Repetition,
    /// What the last [`Tree::best_move`] did.
    last: Report,
}

impl<G: Game> Default for Tree<G> {
    fn default() -> Self {
        Tree::new()
    }
}

/// What one search for a move did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    /// Simulations run (0: a forced move).
    pub sims: u32,
    /// A time budget was left when the search stopped at [`MAX_SIMS`] simulations.
    pub capped: bool,
    /// Simulations through the move chosen.
    pub visits: u32,
    /// The mean reward of the move chosen for the player to move, -1 (lost) to 1 (won).
    pub value: f64,
    /// The move's result when the search proved it: 1 won, 0 drawn, -1 lost.
    pub proven: Option<f64>,
    /// Simulations whose reward came from a game end the history decided (a repetition), in
    /// the tree or a rollout ([`Game::history_end`]).
    pub history_ends: u32,
}

/// South's reward of a game that ended with `verdict`.
fn reward(verdict: Verdict) -> f64 {
    match verdict {
        Verdict::Win(Side::South) => 1.0,
        Verdict::Win(Side::North) => -1.0,
        Verdict::Draw | Verdict::RulesSilent => 0.0,
    }
}

impl<G: Game> Tree<G> {
    /// An empty tree.
    pub fn new() -> Tree<G> {
        Tree {
            nodes: Vec::new(),
            moves: Vec::new(),
            simulations: 0,
            deadline: None,
            stop: None,
            repetition: Repetition::Rules,
            last: Report::default(),
        }
    }

    /// What the last [`Tree::best_move`] did.
    pub fn report(&self) -> Report {
        self.last
    }

    fn node(&mut self, game: &G, state: G::State, mv: Option<G::Move>, parent: usize) -> usize {
        let mover = if mv.is_some() {
            self.nodes[parent].state_mover(game)
        } else {
            game.to_move(&state).opponent()
        };
        let (proven, by_history) = match self.end_reward(game, &state) {
            Some((r, by_history)) => (Some(r), by_history),
            None => (None, false),
        };
        let mut untried = Vec::new();
        if proven.is_none() {
            game.legal_moves(&state, &mut untried);
            untried.reverse();
        }
        self.nodes.push(Node {
            state,
            mv,
            parent,
            children: Vec::new(),
            untried,
            visits: 0,
            total: 0.0,
            mover,
            proven,
            by_history,
        });
        self.nodes.len() - 1
    }

    /// South's reward of `s` once the game is over, and whether its history ended it.
    fn end_reward(&self, game: &G, s: &G::State) -> Option<(f64, bool)> {
        let ending = game.ending(s)?;
        Some(match (game.history_end(s), self.repetition) {
            (None, _) => (reward(ending.verdict), false),
            (Some(_), Repetition::Rules) => (reward(ending.verdict), true),
            (Some([south, north]), Repetition::Databases) => {
                (f64::from(south.cmp(&north) as i8), true)
            }
        })
    }

    /// The move to play in `s`: the root child visited most (then of the highest mean reward,
    /// then first in canonical order); `None` when no move is legal. Once `stop` is set the
    /// search gives up at once and returns the best move of the simulations completed (the
    /// first legal move before any).
    pub fn best_move(
        &mut self,
        game: &G,
        s: &G::State,
        settings: Settings,
        draw: Draw,
        stop: Option<&'static AtomicBool>,
    ) -> Option<G::Move> {
        self.last = Report::default();
        game.legal_moves(s, &mut self.moves);
        if self.moves.len() <= 1 {
            return self.moves.first().copied();
        }
        self.nodes.clear();
        self.repetition = settings.repetition;
        self.node(game, s.clone(), None, 0);
        // The rollouts' draws: a counter stream of their own, from this ply's draw.
        let seed = (u64::from(draw.word(1)) << 32) | u64::from(draw.word(2));
        let sims = match settings.limit {
            Limit::Sims(n) => n,
            Limit::Millis(_) => MAX_SIMS,
        };
        self.deadline = match settings.limit {
            Limit::Sims(_) => None,
            Limit::Millis(ms) => Some(Instant::now() + Duration::from_millis(u64::from(ms))),
        };
        self.stop = stop;
        let mut ran = 0;
        for sim in 0..sims {
            // The first simulation always runs: a time budget always has a move to give.
            if sim > 0 && self.out_of_time() {
                break;
            }
            if !self.simulate(game, settings, game_keys(seed, u64::from(sim))) {
                break;
            }
            ran = sim + 1;
            if self.nodes[0].proven.is_some() {
                break;
            }
        }
        self.last.sims = ran;
        self.last.capped =
            matches!(settings.limit, Limit::Millis(_)) && ran == MAX_SIMS && !self.out_of_time();
        // Stopped before any simulation completed: nothing to choose by.
        if ran == 0 {
            return self.moves.first().copied();
        }
        let root = &self.nodes[0];
        let best = root.children.iter().copied().max_by(|&a, &b| {
            let (a, b) = (&self.nodes[a], &self.nodes[b]);
            // A proven result first (for the player who moves into the child), then visits,
            // then the rewards summed, as OpenSpiel's `best_child`.
            let key = |n: &Node<G>| {
                let sign = if n.mover == Side::South { 1.0 } else { -1.0 };
                (n.proven.map_or(0.0, |r| sign * r), n.visits, n.total)
            };
            // A tie counts as the earlier child being greater, so the earlier one stays.
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(std::cmp::Ordering::Greater)
        })?;
        let chosen = &self.nodes[best];
        // The child's rewards are summed for the player who moved into it: the player to move.
        let sign = if chosen.mover == Side::South {
            1.0
        } else {
            -1.0
        };
        self.last.visits = chosen.visits;
        self.last.value = chosen.total / f64::from(chosen.visits.max(1));
        self.last.proven = chosen.proven.map(|r| sign * r + 0.0);
        chosen.mv
    }

    /// Whether the search is to stop: the stop flag set, or the time budget spent.
    fn out_of_time(&self) -> bool {
        self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// One simulation: down the tree by UCT, one node added, a random rollout, rewards back up;
    /// false when the clock or the stop flag cut its rollout short (nothing is backed up).
    fn simulate(&mut self, game: &G, settings: Settings, keys: [u32; 2]) -> bool {
        let c = settings.c;
        self.simulations += 1;
        let mut at = 0;
        // Selection.
        while self.nodes[at].proven.is_none()
            && self.nodes[at].untried.is_empty()
            && !self.nodes[at].children.is_empty()
        {
            let parent = &self.nodes[at];
            let log_n = f64::from(parent.visits.max(1)).ln();
            let mut best = (f64::NEG_INFINITY, parent.children[0]);
            for &child in &parent.children {
                let n = &self.nodes[child];
                let visits = f64::from(n.visits.max(1));
                let uct = n.total / visits + c * (log_n / visits).sqrt();
                if uct > best.0 {
                    best = (uct, child);
                }
            }
            at = best.1;
        }
        // Expansion.
        let mut south = None;
        if self.nodes[at].proven.is_none() {
            if let Some(mv) = self.nodes[at].untried.pop() {
                match game.play(&self.nodes[at].state, mv) {
                    Ok(ply) => {
                        let child = self.node(game, ply.state, Some(mv), at);
                        self.nodes[at].children.push(child);
                        at = child;
                    }
                    Err(_) => {
                        // A move the rules leave open: its result is unknown, a draw here.
                        let child = self.node(game, self.nodes[at].state.clone(), Some(mv), at);
                        self.nodes[child].proven = Some(0.0);
                        self.nodes[child].untried.clear();
                        self.nodes[at].children.push(child);
                        at = child;
                        south = Some(0.0);
                    }
                }
            }
        }
        // Rollout.
        let (south, by_history) = match (south, self.nodes[at].proven) {
            (Some(r), _) => (r, false),
            (None, Some(r)) => (r, self.nodes[at].by_history),
            (None, None) => match self.rollout(game, at, keys) {
                Some(r) => r,
                None => return false,
            },
        };
        self.last.history_ends += u32::from(by_history);
        // Back up.
        let mut solved = settings.solve;
        loop {
            if solved && self.nodes[at].proven.is_none() {
                solved = self.solve(at);
            }
            let node = &mut self.nodes[at];
            node.visits += 1;
            node.total += if node.mover == Side::South {
                south
            } else {
                -south
            };
            if at == 0 {
                break;
            }
            at = node.parent;
        }
        true
    }

    /// Proves node `at` from its children where they tell its result: a child the player to
    /// move wins by, or every move expanded and proven (the best of them); whether it did.
    fn solve(&mut self, at: usize) -> bool {
        let node = &self.nodes[at];
        let Some(&first) = node.children.first() else {
            return false;
        };
        // The player to move here is the one who moves into the children.
        let sign = if self.nodes[first].mover == Side::South {
            1.0
        } else {
            -1.0
        };
        let mut best: Option<f64> = None;
        let mut all = node.untried.is_empty();
        let mut by_history = false;
        for &child in &node.children {
            match self.nodes[child].proven {
                None => all = false,
                Some(r) => {
                    // Any proven child the history decided marks the proof: it may rest on it.
                    by_history |= self.nodes[child].by_history;
                    if best.is_none_or(|b| sign * r > sign * b) {
                        best = Some(r);
                    }
                }
            }
        }
        match best {
            Some(r) if all || sign * r == 1.0 => {
                self.nodes[at].proven = Some(r);
                self.nodes[at].by_history = by_history;
                true
            }
            _ => false,
        }
    }

    /// South's reward of a random game from node `at` to its end (a cut or a point the rules
    /// leave open: a draw) and whether the history decided that end; `None` when the clock or
    /// the stop flag cut it short (a Bao rollout can take milliseconds).
    fn rollout(&self, game: &G, at: usize, keys: [u32; 2]) -> Option<(f64, bool)> {
        let mut s = self.nodes[at].state.clone();
        for ply in 0..ROLLOUT_PLIES {
            if ply > 0 && ply.is_multiple_of(ROLLOUT_CLOCK_EVERY) && self.out_of_time() {
                return None;
            }
            match game.play_random(&mut s, Draw::new(keys, ply)) {
                None => break,
                Some(Err(_)) => return Some((0.0, false)),
                Some(Ok(_)) => {}
            }
        }
        Some(self.end_reward(game, &s).unwrap_or((0.0, false)))
    }
}

impl<G: Game> Node<G> {
    /// The player to move in this node's state.
    fn state_mover(&self, game: &G) -> Side {
        game.to_move(&self.state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oware::fast::FastRules;

    /// The O-DB1 witness's end (spec/findings/oware.md), worked by hand: 23 each captured, South
    /// A=1 and F=1; 36 forced plies later the sheet's repetition rule ends the game with each
    /// side taking its row, 25 to 23. By the rules South wins; as the databases count it, the
    /// two seeds are shared and it is a draw.
    #[test]
    fn a_repetition_end_is_scored_as_asked() {
        let game = FastRules::new(crate::oware::Variant::SHEET).unwrap();
        let mut pits = [0; 12];
        (pits[0], pits[5]) = (1, 1);
        let mut s = game.game(pits, [23, 23], 0);
        let mut moves = Vec::new();
        while game.ending(&s).is_none() {
            game.legal_moves(&s, &mut moves);
            s = Game::play(&game, &s, moves[0]).unwrap().state;
        }
        let mut tree = Tree::<FastRules>::new();
        assert_eq!(tree.end_reward(&game, &s), Some((1.0, true)));
        tree.repetition = Repetition::Databases;
        assert_eq!(tree.end_reward(&game, &s), Some((0.0, true)));
        // An end the history did not decide is scored by its verdict either way.
        let won = game.game([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1], [24, 20], 0);
        game.legal_moves(&won, &mut moves);
        let won = Game::play(&game, &won, moves[moves.len() - 1])
            .unwrap()
            .state;
        assert_eq!(tree.end_reward(&game, &won), Some((1.0, false)));
    }
}
