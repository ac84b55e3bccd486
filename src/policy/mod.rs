//! Move policies written once over the typed game interface: uniform random, greedy (most seeds
//! now) and a two-ply material search; their random choices come from the game's counter draws.

use crate::game::{Draw, Game, PlyFacts, Silent, Verdict};

/// How moves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Policy {
    /// Uniformly among the legal moves.
    Random,
    /// The move capturing the most seeds now; ties broken at random.
    Greedy,
    /// Two plies: seeds captured now minus the opponent's best capture in reply (a move that wins
    /// at once scores highest, one that loses at once lowest); ties at random.
    Search,
}

impl Policy {
    /// The policy's name on the command line and in the CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
            Policy::Search => "search",
        }
    }
}

/// A policy name that is not `random`, `greedy` or `search`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown policy {} (known: random, greedy, search)", crate::text::quoted(.0))]
pub struct UnknownPolicy(pub String);

impl std::str::FromStr for Policy {
    type Err = UnknownPolicy;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Policy::Random, Policy::Greedy, Policy::Search]
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownPolicy(s.to_string()))
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
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            gains: Vec::new(),
            moves: Vec::new(),
            scores: Vec::new(),
        }
    }
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

/// Plays the move `policy` chooses in `s`, in place; `None` when no move is legal.
pub fn choose<G: Game>(
    game: &G,
    policy: Policy,
    s: &mut G::State,
    draw: Draw,
    scratch: &mut Scratch<G>,
) -> Option<Choice<G>> {
    match policy {
        Policy::Random => game.play_random(s, draw),
        Policy::Greedy => {
            game.gains(s, &mut scratch.gains);
            let gains = &scratch.gains;
            let i = pick_best(
                gains.iter().map(|(_, g)| g.map_or(SILENT_SCORE, i64::from)),
                draw,
            )?;
            let mv = gains[i].0;
            Some(game.play_in_place(s, mv).map(|facts| (mv, facts)))
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
            Some(game.play_in_place(s, mv).map(|facts| (mv, facts)))
        }
    }
}
