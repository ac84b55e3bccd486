//! Move policies written once over the typed game interface: uniform random, greedy (most seeds
//! now), a two-ply material search, alphabeta and Monte Carlo tree search; one text form for all;
//! and how good a policy's moves are against perfect play ([`judge`]).

pub mod alphabeta;
pub mod judge;
pub mod mcts;
pub mod net;
pub mod perfect;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{Draw, Game, PlyFacts, Silent, Verdict};
use crate::side::Side;
use crate::text::quoted;

/// How moves are chosen: a policy and its settings, written `name` or `name:key=value,...`
/// (`alphabeta:depth=6`, `mcts:sims=1000,c=1.5`); [`fmt::Display`] gives the canonical text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Uniformly among the legal moves.
    Random,
    /// The move capturing the most seeds now; ties broken at random.
    Greedy,
    /// Two plies: seeds captured now minus the opponent's best capture in reply (a move that wins
    /// at once scores highest, one that loses at once lowest); ties at random.
    Search,
    /// Negamax with alpha-beta pruning over the game's evaluation ([`alphabeta`]).
    AlphaBeta(alphabeta::Settings),
    /// Monte Carlo tree search, UCT with random rollouts ([`mcts`]).
    Mcts(mcts::Settings),
    /// The best move by the endgame databases, alphabeta beyond them ([`perfect`]).
    Perfect(perfect::Settings),
    /// The legal move a learned network scores highest ([`net`]).
    Net(net::Settings),
}

/// The policy names, as the command line and the CSV files write them.
pub const NAMES: [&str; 7] = [
    "random",
    "greedy",
    "search",
    "alphabeta",
    "mcts",
    "perfect",
    "net",
];

impl Policy {
    /// The policy's name without its settings (`alphabeta`).
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => NAMES[0],
            Policy::Greedy => NAMES[1],
            Policy::Search => NAMES[2],
            Policy::AlphaBeta(_) => NAMES[3],
            Policy::Mcts(_) => NAMES[4],
            Policy::Perfect(_) => NAMES[5],
            Policy::Net(_) => NAMES[6],
        }
    }

    /// Whether the same seed always gives the same moves: all but a budget of time.
    pub fn is_deterministic(self) -> bool {
        match self {
            Policy::AlphaBeta(a) => !matches!(a.limit, alphabeta::Limit::Millis(_)),
            Policy::Mcts(m) => !matches!(m.limit, mcts::Limit::Millis(_)),
            _ => true,
        }
    }

    /// Whether a move costs a search (games are then handed out one by one to the threads).
    pub fn searches(self) -> bool {
        matches!(
            self,
            Policy::AlphaBeta(_) | Policy::Mcts(_) | Policy::Perfect(_)
        )
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::AlphaBeta(a) => write!(f, "{}:{a}", self.name()),
            Policy::Mcts(m) => write!(f, "{}:{m}", self.name()),
            Policy::Perfect(p) => write!(f, "{}:{p}", self.name()),
            Policy::Net(n) => write!(f, "{}:{n}", self.name()),
            _ => f.write_str(self.name()),
        }
    }
}

/// Why a text is not a policy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// Not a policy name.
    #[error("unknown policy {} (known: random, greedy, search, alphabeta, mcts, perfect, net)", quoted(.0))]
    Unknown(String),
    /// A policy without settings given some.
    #[error("policy '{0}' takes no settings")]
    NoSettings(&'static str),
    /// A setting not written `key=value`.
    #[error("policy '{policy}': expected key=value, found {}", quoted(.found))]
    NotASetting {
        /// The policy.
        policy: &'static str,
        /// What was found.
        found: String,
    },
    /// A setting the policy does not have.
    #[error("policy '{policy}': unknown setting {} (known: {known})", quoted(.key))]
    UnknownSetting {
        /// The policy.
        policy: &'static str,
        /// The key.
        key: String,
        /// The policy's settings.
        known: &'static str,
    },
    /// A setting given twice, or two budgets.
    #[error("policy '{policy}': {message}")]
    Conflict {
        /// The policy.
        policy: &'static str,
        /// What conflicts.
        message: String,
    },
    /// A net file that cannot be read or is not a net.
    #[error("policy 'net': file {}: {message}", quoted(.file))]
    Net {
        /// The file as given.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// More than two policies in a `S/N` text.
    #[error("{}: expected one policy, or South's and North's as S/N", quoted(.0))]
    Players(String),
    /// A value out of range or not a number.
    #[error("policy '{policy}': {}: expected {expected}", quoted(&format!("{key}={value}")))]
    BadValue {
        /// The policy.
        policy: &'static str,
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
        /// What is allowed.
        expected: &'static str,
    },
}

/// The `key=value` settings of a policy text, each key once, in the order given.
fn settings<'a>(
    policy: &'static str,
    text: &'a str,
    known: &'static str,
) -> Result<Vec<(&'static str, &'a str)>, PolicyError> {
    let mut out: Vec<(&'static str, &'a str)> = Vec::new();
    for item in text.split(',') {
        let Some((key, value)) = item.split_once('=') else {
            let found = item.to_string();
            return Err(PolicyError::NotASetting { policy, found });
        };
        let Some(key) = known.split(", ").find(|&k| k == key) else {
            let key = key.to_string();
            return Err(PolicyError::UnknownSetting { policy, key, known });
        };
        if out.iter().any(|&(k, _)| k == key) {
            let message = format!("'{key}' given twice");
            return Err(PolicyError::Conflict { policy, message });
        }
        out.push((key, value));
    }
    Ok(out)
}

/// A whole number from `min` to `max` for the setting `key` of `policy`.
fn whole(
    policy: &'static str,
    key: &'static str,
    value: &str,
    (min, max): (u32, u32),
    expected: &'static str,
) -> Result<u32, PolicyError> {
    value
        .parse::<u32>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| PolicyError::BadValue {
            policy,
            key,
            value: value.to_string(),
            expected,
        })
}

/// The longest time budget of a search policy, in milliseconds (an hour).
pub const MAX_MS: u32 = 3_600_000;

/// A search policy's budget as given: a count (plies, simulations) or milliseconds per move.
enum Budget {
    Count(u32),
    Millis(u32),
}

/// The budget given in `given`: the count `key` (1 to `max`, `expected` saying so) or `ms`,
/// not both; `None` for neither.
fn budget(
    policy: &'static str,
    given: &[(&'static str, &str)],
    (key, max, expected): (&'static str, u32, &'static str),
) -> Result<Option<Budget>, PolicyError> {
    let mut budgets = given.iter().filter(|(k, _)| [key, "ms"].contains(k));
    let first = budgets.next().copied();
    if budgets.next().is_some() {
        let message = format!("give '{key}' or 'ms', not both");
        return Err(PolicyError::Conflict { policy, message });
    }
    Ok(match first {
        None => None,
        Some((k, v)) if k == key => Some(Budget::Count(whole(policy, key, v, (1, max), expected)?)),
        Some((_, v)) => Some(Budget::Millis(whole(
            policy,
            "ms",
            v,
            (1, MAX_MS),
            "milliseconds per move, 1 to 3600000",
        )?)),
    })
}

impl std::str::FromStr for Policy {
    type Err = PolicyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, rest) = match s.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (s, None),
        };
        let name = NAMES
            .into_iter()
            .find(|&n| n == name)
            .ok_or_else(|| PolicyError::Unknown(s.to_string()))?;
        let given = match rest {
            None => Vec::new(),
            Some(_) if matches!(name, "random" | "greedy" | "search") => {
                return Err(PolicyError::NoSettings(name))
            }
            Some(rest) => settings(
                name,
                rest,
                match name {
                    "alphabeta" => alphabeta::KEYS,
                    "perfect" => perfect::KEYS,
                    "net" => net::KEYS,
                    _ => mcts::KEYS,
                },
            )?,
        };
        Ok(match name {
            "random" => Policy::Random,
            "greedy" => Policy::Greedy,
            "search" => Policy::Search,
            "alphabeta" => Policy::AlphaBeta(alphabeta::Settings::from_given(&given)?),
            "perfect" => Policy::Perfect(perfect::Settings::from_given(&given)?),
            "net" => Policy::Net(net::Settings::from_given(&given)?),
            _ => Policy::Mcts(mcts::Settings::from_given(&given)?),
        })
    }
}

/// The policies of the two sides, written `P` when both play `P`, or `S/N` (South's, then
/// North's: `alphabeta:depth=4/mcts`); [`fmt::Display`] gives the canonical text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Players {
    /// South's policy.
    pub south: Policy,
    /// North's policy.
    pub north: Policy,
}

impl Players {
    /// Both sides playing `policy`.
    pub fn both(policy: Policy) -> Players {
        Players {
            south: policy,
            north: policy,
        }
    }

    /// The policy of `side`.
    pub fn of(self, side: Side) -> Policy {
        match side {
            Side::South => self.south,
            Side::North => self.north,
        }
    }

    /// Whether the same seed always gives the same moves: no side has a budget of time.
    pub fn is_deterministic(self) -> bool {
        self.south.is_deterministic() && self.north.is_deterministic()
    }

    /// Whether a move of either side costs a search.
    pub fn searches(self) -> bool {
        self.south.searches() || self.north.searches()
    }
}

impl From<Policy> for Players {
    fn from(policy: Policy) -> Players {
        Players::both(policy)
    }
}

impl fmt::Display for Players {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.south == self.north {
            write!(f, "{}", self.south)
        } else {
            write!(f, "{}/{}", self.south, self.north)
        }
    }
}

impl std::str::FromStr for Players {
    type Err = PolicyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // A net's file may hold slashes: North's policy starts after the last slash followed
        // by a policy name (and its settings or nothing), a path's slash before it.
        let starts_policy = |rest: &str| {
            NAMES.iter().any(|n| {
                rest.strip_prefix(n)
                    .is_some_and(|after| after.is_empty() || after.starts_with(':'))
            })
        };
        let split = s
            .match_indices('/')
            .map(|(i, _)| i)
            .rfind(|&i| starts_policy(&s[i + 1..]));
        match split {
            None if s.contains('/') && !s.starts_with("net:") => {
                Err(PolicyError::Players(s.to_string()))
            }
            None => Ok(Players::both(s.parse()?)),
            Some(i) => {
                let (south, north) = (&s[..i], &s[i + 1..]);
                // Only a net's file may hold a slash.
                if (south.contains('/') && !south.starts_with("net:"))
                    || (north.contains('/') && !north.starts_with("net:"))
                {
                    return Err(PolicyError::Players(s.to_string()));
                }
                Ok(Players {
                    south: south.parse()?,
                    north: north.parse()?,
                })
            }
        }
    }
}

/// A chosen move, played, and what it did; or the open point it reaches (nothing played).
pub type Choice<G> = Result<(<G as Game>::Move, PlyFacts), Silent>;

/// Score of a move the rules leave open: its result is unknown, so it gains nothing.
const SILENT_SCORE: i64 = 0;
/// Score of a move that wins (or loses) at once.
const WIN_SCORE: i64 = 1000;

/// Scratch space of [`choose`], kept between plies.
pub struct Scratch<G: Game> {
    gains: Vec<(G::Move, Option<u32>)>,
    moves: Vec<G::Move>,
    scores: Vec<i64>,
    searcher: Option<alphabeta::Searcher<G>>,
    tree: Option<mcts::Tree<G>>,
    perfect: Option<Result<perfect::Player, String>>,
    stop: Option<&'static AtomicBool>,
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            gains: Vec::new(),
            moves: Vec::new(),
            scores: Vec::new(),
            searcher: None,
            tree: None,
            perfect: None,
            stop: None,
        }
    }
}

impl<G: Game> Scratch<G> {
    /// Scratch space whose searches give up as soon as `stop` is set (Ctrl-C): the move they
    /// return is then any legal one, and the caller is to drop the game.
    pub fn stopping_on(stop: &'static AtomicBool) -> Scratch<G> {
        Scratch {
            stop: Some(stop),
            ..Scratch::default()
        }
    }

    /// Game ends the history decided (a repetition) that the last search of `policy` met:
    /// nodes for alphabeta, simulations for mcts; `None` for a policy that does not search.
    pub fn history_ends(&self, policy: Policy) -> Option<u64> {
        match policy {
            Policy::AlphaBeta(_) => Some(self.searcher.as_ref()?.report().history_ends),
            Policy::Mcts(_) => Some(self.tree.as_ref()?.report().history_ends.into()),
            _ => None,
        }
    }

    /// What the last search of `policy` did, as the bot's `info` line says it (`None` for a
    /// policy that does not search).
    pub fn report(&self, policy: Policy) -> Option<String> {
        match policy {
            Policy::AlphaBeta(_) => {
                let r = self.searcher.as_ref()?.report();
                let mut line = format!("depth {} nodes {}", r.depth, r.nodes);
                if let Some(v) = r.value {
                    line += &format!(" value {v} best_moves {}", r.best_moves);
                }
                Some(line)
            }
            Policy::Mcts(_) => {
                let r = self.tree.as_ref()?.report();
                let mut line = format!("sims {} visits {} value {:.3}", r.sims, r.visits, r.value);
                if let Some(p) = r.proven {
                    line += &format!(" proven {p}");
                }
                if r.capped {
                    line += &format!(" capped {}", mcts::MAX_SIMS);
                }
                Some(line)
            }
            Policy::Perfect(p) => {
                let r = self.perfect.as_ref()?.as_ref().ok()?.report();
                Some(match r.value {
                    Some(v) => format!(
                        "exact value {v} best_moves {} searched {}",
                        r.best_moves, r.searched
                    ),
                    None => {
                        let line = self.report(Policy::AlphaBeta(p.fallback()))?;
                        format!("beyond the databases (searched {}): {line}", r.searched)
                    }
                })
            }
            _ => None,
        }
    }

    /// Why a policy could not choose at all (the `perfect` policy without its databases), if so:
    /// [`choose`] then returned `None`, which is not the end of the game.
    pub fn failure(&self) -> Option<&str> {
        self.perfect.as_ref()?.as_ref().err().map(String::as_str)
    }

    /// Whether the stop flag given to [`Scratch::stopping_on`] is set.
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// Runs `work` (a search), calling `on_time` from another thread if `work` is still running
/// after `cap` (to set the search's stop flag): a cap in time on a search of any budget.
pub fn with_deadline<T>(
    cap: std::time::Duration,
    on_time: impl FnOnce() + Send + 'static,
    work: impl FnOnce() -> T,
) -> T {
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(cap) {
            on_time();
        }
    });
    let out = work();
    drop(done);
    let _ = watchdog.join();
    out
}

/// The `k`-th of the indices whose score is the best, `k` drawn uniformly; `None` for no score.
fn pick_best(scores: impl Iterator<Item = i64> + Clone, draw: Draw) -> Option<usize> {
    let best = scores.clone().max()?;
    let ties = scores.clone().filter(|&x| x == best).count();
    let k = draw.below(ties, 0);
    scores
        .enumerate()
        .filter(|&(_, x)| x == best)
        .nth(k)
        .map(|(i, _)| i)
}

/// Plays `mv` in `s`, in place, writing what it did into `facts`.
fn play_into<G: Game>(
    game: &G,
    s: &mut G::State,
    mv: G::Move,
    facts: &mut PlyFacts,
) -> Option<Result<G::Move, Silent>> {
    Some(game.play_in_place(s, mv).map(|f| {
        *facts = f;
        mv
    }))
}

/// Plays the move `policy` chooses in `s`, in place; `None` when no move is legal, or when the
/// policy cannot play here at all ([`Scratch::failure`] names why).
pub fn choose<G: Game>(
    game: &G,
    policy: Policy,
    s: &mut G::State,
    draw: Draw,
    scratch: &mut Scratch<G>,
) -> Option<Choice<G>> {
    let mut facts = PlyFacts::default();
    let mv = choose_into(game, policy, s, draw, scratch, &mut facts)?;
    Some(mv.map(|mv| (mv, facts)))
}

/// [`choose`] writing what the ply did into `facts` (overwritten) rather than returning it: the
/// playout loop's form, which copies no facts per ply.
#[inline]
pub fn choose_into<G: Game>(
    game: &G,
    policy: Policy,
    s: &mut G::State,
    draw: Draw,
    scratch: &mut Scratch<G>,
    facts: &mut PlyFacts,
) -> Option<Result<G::Move, Silent>> {
    match policy {
        Policy::Random => game.play_random_into(s, draw, facts),
        Policy::AlphaBeta(settings) => {
            let searcher = scratch
                .searcher
                .get_or_insert_with(alphabeta::Searcher::new);
            let mv = searcher.best_move(game, s, settings, draw, scratch.stop)?;
            play_into(game, s, mv, facts)
        }
        Policy::Perfect(settings) => {
            let player = scratch
                .perfect
                .get_or_insert_with(|| perfect::Player::new(game));
            // No databases, no move: a perfect player never plays another policy's moves under
            // its name ([`Scratch::failure`] says why; the front ends refuse before they play).
            let exact = player.as_mut().ok()?.best_move(game, s, settings, draw);
            let mv = match exact {
                Some(mv) => mv,
                None => {
                    let searcher = scratch
                        .searcher
                        .get_or_insert_with(alphabeta::Searcher::new);
                    searcher.best_move(game, s, settings.fallback(), draw, scratch.stop)?
                }
            };
            play_into(game, s, mv, facts)
        }
        Policy::Net(settings) => {
            let mv = net::best_move(game, s, settings)?;
            play_into(game, s, mv, facts)
        }
        Policy::Mcts(settings) => {
            let tree = scratch.tree.get_or_insert_with(mcts::Tree::new);
            let mv = tree.best_move(game, s, settings, draw, scratch.stop)?;
            play_into(game, s, mv, facts)
        }
        Policy::Greedy => {
            game.gains(s, &mut scratch.gains);
            let gains = &scratch.gains;
            let i = pick_best(
                gains.iter().map(|(_, g)| g.map_or(SILENT_SCORE, i64::from)),
                draw,
            )?;
            let mv = gains[i].0;
            play_into(game, s, mv, facts)
        }
        Policy::Search => {
            game.legal_moves(s, &mut scratch.moves);
            let mover = game.to_move(s);
            let scores = &mut scratch.scores;
            scores.clear();
            for &mv in &scratch.moves {
                if let Some((now, reply)) = game.capture_and_best_reply(s, mv) {
                    scores.push(i64::from(now) - i64::from(reply));
                    continue;
                }
                scores.push(match game.play(s, mv) {
                    Err(_) => SILENT_SCORE,
                    Ok(ply) => match game.max_capture(&ply.state) {
                        // The mover's own next capture where it moves again (Kalah's extra turn).
                        Some(next) if game.to_move(&ply.state) == mover => {
                            i64::from(ply.facts.seeds_captured) + i64::from(next)
                        }
                        Some(reply) => i64::from(ply.facts.seeds_captured) - i64::from(reply),
                        // No reply: the game is over (every engine ends a game exactly then).
                        None => match game.ending(&ply.state).map(|e| e.verdict) {
                            Some(Verdict::Win(w)) if w == mover => WIN_SCORE,
                            Some(Verdict::Win(_)) => -WIN_SCORE,
                            _ => 0,
                        },
                    },
                });
            }
            let i = pick_best(scores.iter().copied(), draw)?;
            let mv = scratch.moves[i];
            play_into(game, s, mv, facts)
        }
    }
}
