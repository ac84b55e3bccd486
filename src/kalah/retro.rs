//! Kalah's moves as the endgame databases see them (`crate::solve`): the pits from the player to
//! move, stores left out (a value counts the seeds won from here on), by either engine.

use crate::retro::{Board, Edge, Retro, Target};
use crate::side::Side;

use super::fast::FastRules;
use super::notation::Move;
use super::position::{Position, PositionError};
use super::rules::Rules;
use super::variant::{EndTest, Sweep, Variant};

/// The reading as far as it changes a database value: the board's pits a row, empty capture
/// (K.3.2), the end test (K.4.1) and the sweep (K.4.2). The seeds a pit at the start only choose
/// the start position, and the ply cap (K.4.4) is outside the databases (spec/findings/kalah.md).
pub fn reading(variant: &Variant) -> String {
    let end = match variant.end {
        EndTest::EitherRowEmpty => "either-row-empty",
        EndTest::MoverStarved => "mover-starved",
    };
    let sweep = match variant.sweep {
        Sweep::ToOwner => "to-owner",
        Sweep::ToEmptier => "to-emptier",
        Sweep::None => "none",
    };
    let capture = if variant.empty_capture { "on" } else { "off" };
    format!(
        "pits={},empty-capture={capture},end={end},sweep={sweep}",
        variant.pits
    )
}

/// The seeds of Kalah(m,n) in all: n in each of the 2m pits.
fn seeds_in_all(variant: &Variant) -> u32 {
    2 * u32::from(variant.pits) * u32::from(variant.seeds)
}

/// The reading the databases play: no ply cap.
fn uncapped(variant: Variant) -> Variant {
    Variant {
        ply_cap: None,
        ..variant
    }
}

/// The position of `board` (the mover's row first), South to move, empty stores.
pub(crate) fn position_of(board: &Board, m: usize) -> Position {
    let mut rows = [[0u8; 6]; 2];
    rows[0][..m].copy_from_slice(&board[..m]);
    rows[1][..m].copy_from_slice(&board[m..2 * m]);
    Position {
        rows,
        stores: [0; 2],
        pits: m as u8,
        to_move: Side::South,
    }
}

/// The pits of `position` as the databases see them: the mover's row first.
pub(crate) fn board_of(position: &Position) -> Board {
    let m = usize::from(position.pits);
    let mut pits = [0; 12];
    pits[..m].copy_from_slice(position.row(Side::South));
    pits[m..2 * m].copy_from_slice(position.row(Side::North));
    crate::retro::mover_first(&pits, m, position.to_move)
}

/// The position exact play values: the one `text` writes (Kalah's position text, under
/// `variant`), or the start of `variant`; or why `text` is none.
pub fn target(variant: &Variant, text: Option<&str>) -> Result<Target, PositionError> {
    let p = match text {
        Some(t) => Position::parse(t, variant)?,
        None => Position::start(variant),
    };
    let me = p.to_move();
    let pit_names = "ABCDEF"
        .chars()
        .take(usize::from(variant.pits))
        .map(|c| {
            if me == Side::South {
                c
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    Ok(Target {
        board: board_of(&p),
        won: [p.store(Side::South), p.store(Side::North)],
        to_move: me,
        pit_names,
        start: text
            .is_none()
            .then(|| format!("the start of Kalah({},{})", variant.pits, variant.seeds)),
    })
}

/// Where a ply from `board` led: over (stores give the final difference) or the next board.
fn edge(after: &Position, over: Option<[u8; 2]>, m: usize) -> Edge {
    if let Some(scores) = over {
        return Edge::Over(scores[0] as i8 - scores[1] as i8);
    }
    let gain = after.stores[0] as i8 - after.stores[1] as i8;
    let again = after.to_move == Side::South;
    let (first, second) = if again { (0, 1) } else { (1, 0) };
    let mut board = [0; 12];
    board[..m].copy_from_slice(&after.rows[first][..m]);
    board[m..2 * m].copy_from_slice(&after.rows[second][..m]);
    Edge::Next { gain, board, again }
}

/// The reference engine's moves (`kalah::rules`).
pub struct ReferenceRetro {
    rules: Rules,
}

impl ReferenceRetro {
    /// The moves under `variant` (its ply cap aside).
    pub fn new(variant: Variant) -> ReferenceRetro {
        ReferenceRetro {
            rules: Rules::new(uncapped(variant)),
        }
    }
}

impl Retro for ReferenceRetro {
    fn game(&self) -> &'static str {
        "kalah"
    }
    fn reading(&self) -> String {
        reading(&self.rules.variant)
    }
    fn engine(&self) -> &'static str {
        "reference"
    }
    fn pits(&self) -> usize {
        2 * usize::from(self.rules.variant.pits)
    }
    fn seeds_in_all(&self) -> Option<u32> {
        Some(seeds_in_all(&self.rules.variant))
    }

    fn expand(&self, board: &Board, out: &mut Vec<(u8, Edge)>) -> Option<i8> {
        let m = usize::from(self.rules.variant.pits);
        let state = self.rules.state_from(position_of(board, m));
        if let Some(outcome) = state.outcome() {
            return Some(outcome.scores[0] as i8 - outcome.scores[1] as i8);
        }
        for mv in self.rules.legal_moves(&state) {
            let played = self
                .rules
                .play(&state, mv)
                .expect("the reference engine plays its own legal moves");
            let over = played.state.outcome().map(|o| o.scores);
            out.push((mv.pit, edge(played.state.position(), over, m)));
        }
        None
    }
}

/// The optimized engine's moves (`kalah::fast`).
pub struct FastRetro {
    rules: FastRules,
    m: usize,
}

impl FastRetro {
    /// The moves under `variant` (its ply cap aside).
    pub fn new(variant: Variant) -> FastRetro {
        FastRetro {
            rules: FastRules::new(uncapped(variant)),
            m: usize::from(variant.pits),
        }
    }
}

/// The boards of the same seed count from which a move may lead to `board` (seen from the player
/// now to move): only a sowing that stops short of the store keeps every seed in the pits, and it
/// passes the turn, so the previous mover's emptied pit is refilled with one seed from each pit
/// after it on their row. Some listed boards capture instead, which only costs the build a look.
pub fn unsown(board: &Board, m: usize, out: &mut Vec<Board>) {
    let mut mover_view = [0; 12];
    mover_view[..m].copy_from_slice(&board[m..2 * m]);
    mover_view[m..2 * m].copy_from_slice(&board[..m]);
    for from in 0..m {
        if mover_view[from] != 0 {
            continue;
        }
        let mut before = mover_view;
        for (taken, at) in (from + 1..m).enumerate() {
            if before[at] == 0 {
                break;
            }
            before[at] -= 1;
            let mut candidate = before;
            candidate[from] = taken as u8 + 1;
            out.push(candidate);
        }
    }
}

impl Retro for FastRetro {
    fn game(&self) -> &'static str {
        "kalah"
    }
    fn reading(&self) -> String {
        reading(&self.rules.variant())
    }
    fn engine(&self) -> &'static str {
        "optimized"
    }
    fn pits(&self) -> usize {
        2 * self.m
    }
    fn seeds_in_all(&self) -> Option<u32> {
        Some(seeds_in_all(&self.rules.variant()))
    }

    fn expand(&self, board: &Board, out: &mut Vec<(u8, Edge)>) -> Option<i8> {
        let state = self.rules.state_of_pits(board);
        if let Some(outcome) = state.outcome() {
            return Some(outcome.scores[0] as i8 - outcome.scores[1] as i8);
        }
        let m = self.m;
        for pit in 0..m as u8 {
            if board[usize::from(pit)] == 0 {
                continue;
            }
            let mut next = state;
            self.rules.play(&mut next, Move { pit });
            if let Some(outcome) = next.outcome() {
                let v = outcome.scores[0] as i8 - outcome.scores[1] as i8;
                out.push((pit, Edge::Over(v)));
                continue;
            }
            // The ring: South's pits 0..m, its store m, North's pits m+1..=2m, its store 2m+1;
            // the next board starts with the row of the player then to move.
            let ring = &next.ring;
            let again = next.to_move() == Side::South;
            let (first, second) = if again { (0, m + 1) } else { (m + 1, 0) };
            let mut after = [0; 12];
            if m == 6 {
                after[..6].copy_from_slice(&ring[first..first + 6]);
                after[6..].copy_from_slice(&ring[second..second + 6]);
            } else {
                after[..m].copy_from_slice(&ring[first..first + m]);
                after[m..2 * m].copy_from_slice(&ring[second..second + m]);
            }
            let edge = Edge::Next {
                gain: ring[m] as i8 - ring[2 * m + 1] as i8,
                board: after,
                again,
            };
            out.push((pit, edge));
        }
        None
    }

    fn predecessors(&self, board: &Board, out: &mut Vec<Board>) -> bool {
        unsown(board, self.m, out);
        true
    }

    /// A move that keeps every seed in the pits stops short of the store, so it moves seeds
    /// forward along the mover's row only: the sum over seeds of their pit's place in its row
    /// grows, and no board comes back within a level (finding K-DB1).
    fn acyclic(&self) -> bool {
        true
    }
}
