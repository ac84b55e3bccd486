//! Oware's moves as the endgame databases see them (`crate::solve`): the board from the player to
//! move, no scores and no history, by the reference engine or by the optimized one.

use crate::retro::{Board, Edge, Retro, Target};
use crate::side::Side;

use super::fast::FastRules;
use super::position::{Position, PositionError};
use super::rules::Rules;
use super::variant::{GrandSlam, NoAllowedMove, Variant};

/// A reading the databases cannot hold: one that leaves a point open (`strict`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the reading leaves {} open, so some positions have no value; solve under sheet or abapa",
    .0.join(" and ")
)]
pub struct OpenReading(pub Vec<&'static str>);

/// The reading as far as it changes a database value: the grand slam (O.4.1) and what happens
/// when no move is allowed (O.4.2). The cycle rule (O.6.2), the end at 25 (O.6.1) and the final
/// sweep are outside the databases (spec/findings/oware.md, the O-DB findings).
pub fn reading(variant: &Variant) -> Result<String, OpenReading> {
    let open = variant.open_points();
    if !open.is_empty() {
        return Err(OpenReading(open));
    }
    let slam = match variant.grand_slam {
        GrandSlam::Forbidden => "forbidden",
        GrandSlam::CapturesNothing => "captures-nothing",
    };
    let none = match variant.no_allowed_move {
        NoAllowedMove::EachTakesOwn => "each-takes-own",
        NoAllowedMove::AllowGrandSlamWithoutCapture => "allow-grand-slam",
        NoAllowedMove::Open => unreachable!("an open reading is refused above"),
    };
    Ok(format!("grand-slam={slam},no-allowed-move={none}"))
}

/// The board after a move, seen from the opponent: their row first.
fn turned(pits: [u8; 12]) -> Board {
    let mut b = [0; 12];
    b[..6].copy_from_slice(&pits[6..]);
    b[6..].copy_from_slice(&pits[..6]);
    b
}

/// The position of `board` (the mover's row first): South to move, nothing won yet.
pub(crate) fn position_of(board: &Board) -> Position {
    Position {
        pits: *board,
        scores: [0; 2],
        to_move: Side::South,
    }
}

/// The position exact play values: the one `text` writes (Oware's position text), or the start
/// of `variant` with `per_pit` seeds in every pit (four when not given); or why `text` is none.
pub fn target(
    variant: &Variant,
    text: Option<&str>,
    per_pit: Option<u8>,
) -> Result<Target, PositionError> {
    let (pits, won, to_move, start) = match text {
        Some(t) => {
            let p = Position::parse(t)?;
            let won = [p.score(Side::South), p.score(Side::North)];
            (p.pits(), won, p.to_move(), None)
        }
        None => {
            let k = per_pit.unwrap_or(4);
            let start = format!(
                "the start with {k} seed{} a pit",
                if k == 1 { "" } else { "s" }
            );
            ([k; 12], [0; 2], variant.first_player, Some(start))
        }
    };
    let letters = if to_move == Side::South {
        "ABCDEF"
    } else {
        "abcdef"
    };
    Ok(Target {
        board: crate::retro::mover_first(&pits, 6, to_move),
        won,
        to_move,
        pit_names: letters.chars().collect(),
        start,
    })
}

/// The reference engine's moves (`oware::rules`).
pub struct ReferenceRetro {
    rules: Rules,
    reading: String,
}

impl ReferenceRetro {
    /// The moves under `variant`, unless it leaves a point open.
    pub fn new(variant: Variant) -> Result<ReferenceRetro, OpenReading> {
        Ok(ReferenceRetro {
            reading: reading(&variant)?,
            rules: Rules::new(variant),
        })
    }
}

/// South minus North.
fn difference(scores: [u8; 2]) -> i8 {
    scores[0] as i8 - scores[1] as i8
}

impl Retro for ReferenceRetro {
    fn game(&self) -> &'static str {
        "oware"
    }
    fn reading(&self) -> String {
        self.reading.clone()
    }
    fn engine(&self) -> &'static str {
        "reference"
    }
    fn pits(&self) -> usize {
        12
    }
    fn seeds_in_all(&self) -> Option<u32> {
        Some(super::position::TOTAL_SEEDS)
    }

    fn expand(&self, board: &Board, out: &mut Vec<(u8, Edge)>) -> Option<i8> {
        // South to move, no seeds captured yet: a single move captures at most 18, so the end at
        // 25 (O.6.1) never cuts in, and a fresh history never repeats within one ply (O.6.2).
        let game = self.rules.game_from(position_of(board));
        if let Some(outcome) = game.outcome {
            return Some(difference(outcome.scores));
        }
        for mv in self.rules.legal_moves(&game) {
            let played = self
                .rules
                .play(&game, mv)
                .expect("the reference engine plays its own legal moves");
            let edge = match played.game.outcome {
                Some(outcome) => Edge::Over(difference(outcome.scores)),
                None => Edge::Next {
                    gain: difference(played.game.position.scores),
                    board: turned(played.game.position.pits),
                    again: false,
                },
            };
            out.push((mv.pit, edge));
        }
        None
    }
}

/// The optimized engine's moves (`oware::fast`).
pub struct FastRetro {
    rules: FastRules,
    reading: String,
}

impl FastRetro {
    /// The moves under `variant`, unless it leaves a point open.
    pub fn new(variant: Variant) -> Result<FastRetro, OpenReading> {
        let reading = reading(&variant)?;
        let rules = FastRules::new(variant).map_err(|_| OpenReading(variant.open_points()))?;
        Ok(FastRetro { rules, reading })
    }
}

/// The boards of the same seed count from which a move that captures nothing may lead to `board`
/// (seen from the player now to move): the previous mover's emptied pit refilled with the seeds
/// taken back from the pits after it, one each, the emptied pit skipped on a lap (O.2.3, O.2.4).
/// Every such board is listed; some listed have no such move (the move captured, or was not
/// allowed), which only costs the build a look.
pub fn unsown(board: &Board, out: &mut Vec<Board>) {
    let mover_view = turned(*board);
    for from in 0..6 {
        if mover_view[from] != 0 {
            continue;
        }
        let mut before = mover_view;
        let mut at = from;
        let mut taken = 0u8;
        loop {
            at = (at + 1) % 12;
            if at == from {
                continue;
            }
            if before[at] == 0 {
                break;
            }
            before[at] -= 1;
            taken += 1;
            let mut candidate = before;
            candidate[from] = taken;
            out.push(candidate);
        }
    }
}

impl Retro for FastRetro {
    fn game(&self) -> &'static str {
        "oware"
    }
    fn reading(&self) -> String {
        self.reading.clone()
    }
    fn engine(&self) -> &'static str {
        "optimized"
    }
    fn pits(&self) -> usize {
        12
    }
    fn seeds_in_all(&self) -> Option<u32> {
        Some(super::position::TOTAL_SEEDS)
    }

    fn expand(&self, board: &Board, out: &mut Vec<(u8, Edge)>) -> Option<i8> {
        let any = self.rules.moves_from(*board, |pit, after, captured| {
            let edge = Edge::Next {
                gain: captured as i8,
                board: turned(after),
                again: false,
            };
            out.push((pit, edge));
        });
        if any {
            return None;
        }
        // No move: each side takes the seeds of its own row (O.4.2).
        let own: u32 = board[..6].iter().map(|&s| u32::from(s)).sum();
        let theirs: u32 = board[6..].iter().map(|&s| u32::from(s)).sum();
        Some(own as i8 - theirs as i8)
    }

    fn predecessors(&self, board: &Board, out: &mut Vec<Board>) -> bool {
        unsown(board, out);
        true
    }
}
