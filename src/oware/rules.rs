//! The Oware reference engine: legal moves, playing a move, and the end of the game, written
//! beside `spec/oware.md` with each decision citing its clause.

use std::fmt;

use super::game::{Game, Outcome, Verdict};
use super::notation::Move;
use super::position::{owner, row_start, Position, TOTAL_SEEDS};
use super::variant::{CycleEnd, FinalSweep, GrandSlam, NoAllowedMove, Variant};
use super::Side;

/// Why a move is not legal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is over.
    #[error("the game is over (oware {0})")]
    GameOver(&'static str),
    /// The letter names the other player's pit.
    #[error("{0} is a pit of the player not to move")]
    WrongPlayer(char),
    /// The pit is empty.
    #[error("{0} is empty; a move takes all seeds of a non-empty own pit (oware O.2.3)")]
    EmptyPit(char),
    /// The move would leave the opponent without seeds.
    #[error("{0} would leave the opponent without seeds (oware O.4.1)")]
    StarvesOpponent(char),
}

/// One step of a move, for `oware explain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The clause applied.
    pub clause: &'static str,
    /// What happened, in words.
    pub text: String,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[oware {}] {}", self.clause, self.text)
    }
}

/// A played move: the new game state and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The game after the move.
    pub game: Game,
    /// Seeds captured by the move.
    pub captured: u8,
    /// The steps, with clauses.
    pub trace: Vec<Step>,
    /// Points where the sheet is silent and the variant's reading decided (clause ids).
    pub undefined: Vec<&'static str>,
}

/// How a grand slam is treated when simulating a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlamMode {
    /// It captures as any other capture (and so empties the opponent's row).
    Captures,
    /// It captures nothing.
    NoCapture,
}

/// The result of sowing and capturing, before the end-of-game rules.
struct Sown {
    pits: [u8; 12],
    captured: u8,
    trace: Vec<Step>,
}

/// The name of pit `index` (A–F, a–f).
pub fn pit_name(index: usize) -> char {
    if index < 6 {
        char::from(b'A' + index as u8)
    } else {
        char::from(b'a' + (index - 6) as u8)
    }
}

/// The reference engine for one reading of the sheet.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rules {
    /// The reading of the unclear points.
    pub variant: Variant,
}

impl Rules {
    /// The engine for `variant`.
    pub fn new(variant: Variant) -> Rules {
        Rules { variant }
    }

    /// A new game from the start position, the variant's first player to move.
    pub fn new_game(&self) -> Game {
        // spec: oware O.2.1 the starting player is a setting of the game
        self.game_from(Position::start(self.variant.first_player))
    }

    /// A game from `position` with no history; already over if the position ends the game.
    pub fn game_from(&self, position: Position) -> Game {
        let mut game = Game::from_position(position);
        let _ = self.settle(&mut game, &mut Vec::new());
        game
    }

    /// Sows `mv` and applies the capture rules; `slam` says what a grand slam does.
    fn sow(&self, pos: &Position, mv: Move, slam: SlamMode) -> Sown {
        let me = pos.to_move;
        let from = mv.index(me);
        let mut pits = pos.pits;
        let mut trace = Vec::new();
        // spec: oware O.2.3 take every seed of the chosen pit
        let mut seeds = std::mem::take(&mut pits[from]);
        let taken = seeds;
        let mut at = from;
        let mut skipped = false;
        while seeds > 0 {
            // spec: oware O.2.3 one seed into each following pit, counter-clockwise
            at = (at + 1) % 12;
            if at == from {
                // spec: oware O.2.4 a lap of twelve or more seeds skips the emptied pit
                skipped = true;
                continue;
            }
            pits[at] += 1;
            seeds -= 1;
        }
        trace.push(Step {
            clause: "O.2.3",
            text: format!(
                "sow {taken} from {}, last seed in {}",
                pit_name(from),
                pit_name(at)
            ),
        });
        if skipped {
            trace.push(Step {
                clause: "O.2.4",
                text: format!("{} skipped on the lap", pit_name(from)),
            });
        }
        let them = me.opponent();
        let mut captured = 0;
        if owner(at) == them && matches!(pits[at], 2 | 3) {
            // spec: oware O.3.1 the last seed makes two or three in the opponent's row: capture
            // spec: oware O.3.2 and so do the pits before it, back along the opponent's row
            let low = row_start(them);
            let mut chain = Vec::new();
            let mut i = at;
            loop {
                if !matches!(pits[i], 2 | 3) {
                    break;
                }
                chain.push(i);
                if i == low {
                    break;
                }
                i -= 1;
            }
            let take: u32 = chain.iter().map(|&i| u32::from(pits[i])).sum();
            let grand_slam = take == (low..low + 6).map(|i| u32::from(pits[i])).sum::<u32>();
            if grand_slam && slam == SlamMode::NoCapture {
                // spec: oware O.4.1 abapa reading: a grand slam is played but captures nothing
                trace.push(Step {
                    clause: "O.4.1",
                    text: "grand slam: nothing is captured".to_string(),
                });
            } else {
                for &i in &chain {
                    trace.push(Step {
                        clause: if i == at { "O.3.1" } else { "O.3.2" },
                        text: format!("capture {} from {}", pits[i], pit_name(i)),
                    });
                    captured += pits[i];
                    pits[i] = 0;
                }
            }
        }
        Sown {
            pits,
            captured,
            trace,
        }
    }

    /// Seeds on `side`'s row of `pits`.
    fn row(pits: &[u8; 12], side: Side) -> u32 {
        let s = row_start(side);
        pits[s..s + 6].iter().map(|&x| u32::from(x)).sum()
    }

    /// The mover's non-empty pits, and for each whether it is allowed and in which grand-slam mode.
    fn moves_with_modes(&self, pos: &Position) -> Vec<(Move, SlamMode)> {
        let me = pos.to_move;
        let them = me.opponent();
        let candidates: Vec<Move> = (0..6)
            .map(|pit| Move { pit })
            .filter(|m| pos.pits[m.index(me)] > 0)
            .collect();
        let normal = match self.variant.grand_slam {
            GrandSlam::Forbidden => SlamMode::Captures,
            GrandSlam::CapturesNothing => SlamMode::NoCapture,
        };
        // spec: oware O.4.1 a move must leave the opponent at least one seed
        let allowed: Vec<(Move, SlamMode)> = candidates
            .iter()
            .filter(|&&m| Rules::row(&self.sow(pos, m, normal).pits, them) > 0)
            .map(|&m| (m, normal))
            .collect();
        if allowed.is_empty()
            && self.variant.no_allowed_move == NoAllowedMove::AllowGrandSlamWithoutCapture
        {
            // spec: oware O.4.2 read as: with no allowed move, a grand slam may be played capturing nothing
            return candidates
                .into_iter()
                .filter(|&m| Rules::row(&self.sow(pos, m, SlamMode::NoCapture).pits, them) > 0)
                .map(|m| (m, SlamMode::NoCapture))
                .collect();
        }
        allowed
    }

    /// The legal moves, in pit order; empty once the game is over.
    pub fn legal_moves(&self, game: &Game) -> Vec<Move> {
        if game.outcome.is_some() {
            return Vec::new();
        }
        self.moves_with_modes(&game.position)
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    }

    /// Plays `mv`, or says why it is illegal.
    pub fn play(&self, game: &Game, mv: Move) -> Result<Played, IllegalMove> {
        let pos = &game.position;
        let me = pos.to_move;
        let letter = mv.letter(me);
        if let Some(out) = game.outcome {
            return Err(IllegalMove::GameOver(out.clause));
        }
        if pos.pits[mv.index(me)] == 0 {
            return Err(IllegalMove::EmptyPit(letter));
        }
        let Some(&(_, mode)) = self.moves_with_modes(pos).iter().find(|(m, _)| *m == mv) else {
            return Err(IllegalMove::StarvesOpponent(letter));
        };
        let sown = self.sow(pos, mv, mode);
        let mut trace = sown.trace;
        let mut scores = pos.scores;
        scores[me.index()] += sown.captured;
        let position = Position {
            pits: sown.pits,
            scores,
            // spec: oware O.2.2 the players move in turn
            to_move: me.opponent(),
        };
        let mut since_capture = if sown.captured > 0 {
            Vec::new()
        } else {
            game.since_capture.clone()
        };
        since_capture.push(position.clone());
        let mut next = Game {
            position,
            since_capture,
            outcome: None,
        };
        let undefined = self.settle(&mut next, &mut trace);
        Ok(Played {
            game: next,
            captured: sown.captured,
            trace,
            undefined,
        })
    }

    /// Applies the end-of-game rules to a game just reached (spec: oware O.4.2, O.5, O.6).
    /// Returns the clauses whose silence the variant settled in ending the game, if any.
    fn settle(&self, game: &mut Game, trace: &mut Vec<Step>) -> Vec<&'static str> {
        let mut undefined = Vec::new();
        let seen = game
            .since_capture
            .iter()
            .filter(|p| **p == game.position)
            .count();
        // Half of the 48 seeds: 24.
        let half = TOTAL_SEEDS / 2;
        let end: Option<(&'static str, bool)> =
            if seen >= usize::from(self.variant.cycle_end.applies_at()) {
                // spec: oware O.6.2 the same arrangement keeps coming round: each side takes its own seeds
                Some(("O.6.2", true))
            } else if u32::from(game.position.scores[0]) > half
                || u32::from(game.position.scores[1]) > half
            {
                // spec: oware O.6.1 the game ends when a player has 25 or more
                Some((
                    "O.6.1",
                    self.variant.final_sweep == FinalSweep::EachTakesOwn,
                ))
            } else if u32::from(game.position.scores[0]) == half
                && u32::from(game.position.scores[1]) == half
            {
                // spec: oware O.5.2 24 each is a draw
                Some(("O.5.2", true))
            } else if self.moves_with_modes(&game.position).is_empty() {
                // spec: oware O.4.2 no allowed move: the remaining seeds go to the side they lie on
                Some(("O.4.2", true))
            } else {
                None
            };
        if let Some((clause, sweep)) = end {
            let both_rows = game.position.row_seeds(Side::South) > 0
                && game.position.row_seeds(Side::North) > 0;
            if clause == "O.6.2" || (clause == "O.4.2" && both_rows) {
                // spec: oware O.4.2 silent when both rows hold seeds; O.6.2 "full round" undefined
                undefined.push(clause);
            }
            let open = (clause == "O.6.2" && self.variant.cycle_end == CycleEnd::Open)
                || (clause == "O.4.2"
                    && both_rows
                    && self.variant.no_allowed_move == NoAllowedMove::Open);
            if open {
                // spec: oware O.4.2 left open by the variant: the game stops undecided
                // spec: oware O.6.2 left open by the variant: the game stops undecided
                trace.push(Step {
                    clause,
                    text: "the rules do not decide what happens now; the variant leaves it open"
                        .to_string(),
                });
                game.outcome = Some(Outcome {
                    winner: None,
                    scores: game.position.scores,
                    clause,
                    verdict: Verdict::RulesSilent,
                });
                return undefined;
            }
            if sweep {
                for i in 0..12 {
                    game.position.scores[owner(i).index()] +=
                        std::mem::take(&mut game.position.pits[i]);
                }
            }
            let [s, n] = game.position.scores;
            // spec: oware O.5.1 the player with more seeds (25 or more) wins
            let winner = match s.cmp(&n) {
                std::cmp::Ordering::Greater => Some(Side::South),
                std::cmp::Ordering::Less => Some(Side::North),
                std::cmp::Ordering::Equal => None,
            };
            trace.push(Step {
                clause,
                text: format!(
                    "game over{}: South {s}, North {n}",
                    if sweep {
                        ", each side takes the seeds on its row"
                    } else {
                        ""
                    }
                ),
            });
            game.outcome = Some(Outcome {
                winner,
                scores: game.position.scores,
                clause,
                verdict: Verdict::Decided,
            });
        }
        undefined
    }
}
