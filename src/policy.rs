//! Move policies written once over the typed game interface: uniform random, greedy (most seeds
//! now) and a two-ply material search; their random choices come from the game's counter draws.

use crate::game::{Draw, Game, Ply, Silent, Verdict};

/// How moves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
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

impl std::str::FromStr for Policy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Policy::Random, Policy::Greedy, Policy::Search]
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown policy '{s}' (known: random, greedy, search)"))
    }
}

/// A chosen move and the ply it gives, or the open point it reaches.
pub type Choice<G> = Result<(<G as Game>::Move, Ply<<G as Game>::State>), Silent>;

/// Score of a move the rules leave open: its result is unknown, so it gains nothing.
const SILENT_SCORE: i64 = 0;
/// Score of a move that wins (or loses) at once.
const WIN_SCORE: i64 = 1000;

/// The move `policy` chooses in `s` and the ply it gives; `None` when no move is legal.
/// `moves` is scratch space.
pub fn choose<G: Game>(
    game: &G,
    policy: Policy,
    s: &G::State,
    draw: Draw,
    moves: &mut Vec<G::Move>,
) -> Option<Choice<G>> {
    if policy == Policy::Random {
        return game.random_move(s, draw);
    }
    game.legal_moves(s, moves);
    if moves.is_empty() {
        return None;
    }
    let mover = game.to_move(s);
    let mut replies = Vec::new();
    let mut scored: Vec<(i64, Choice<G>)> = Vec::with_capacity(moves.len());
    for &mv in moves.iter() {
        let choice = game.play(s, mv).map(|ply| (mv, ply));
        let score = match &choice {
            Err(_) => SILENT_SCORE,
            Ok((_, ply)) => {
                let now = i64::from(ply.facts.seeds_captured);
                if policy == Policy::Greedy {
                    now
                } else {
                    game.legal_moves(&ply.state, &mut replies);
                    if replies.is_empty() {
                        // No reply: the game is over (every engine ends a game exactly then).
                        match game.ending(&ply.state).map(|e| e.verdict) {
                            Some(Verdict::Win(w)) if w == mover => WIN_SCORE,
                            Some(Verdict::Win(_)) => -WIN_SCORE,
                            _ => 0,
                        }
                    } else {
                        let best_reply = replies
                            .iter()
                            .map(|&r| match game.play(&ply.state, r) {
                                Ok(after) => i64::from(after.facts.seeds_captured),
                                Err(_) => SILENT_SCORE,
                            })
                            .max()
                            .unwrap_or(0);
                        now - best_reply
                    }
                }
            }
        };
        scored.push((score, choice));
    }
    let best = scored.iter().map(|(score, _)| *score).max()?;
    let ties = scored.iter().filter(|(score, _)| *score == best).count();
    let k = draw.below(ties, 0);
    scored
        .into_iter()
        .filter(|(score, _)| *score == best)
        .nth(k)
        .map(|(_, choice)| choice)
}
