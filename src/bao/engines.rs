//! The reference and optimized Bao engines behind the common [`Engine`] face.

use super::board::{Board, Hand, Pit, Side};
use super::fast::{FastPos, FastRules, NONE, PLUS, RIGHT};
use super::notation::{Move, MoveKind, MoveText};
use super::position::{Position, Setup};
use super::position_text;
use super::rules::Rules;
use super::variant::Variant;
use crate::engine::{legal_then_result, Engine};

/// The reference engine under a named preset.
pub struct Reference {
    rules: Rules,
    preset: String,
}

/// The optimized engine under a named preset.
pub struct Optimized {
    rules: FastRules,
    preset: String,
}

impl Reference {
    /// The reference engine for a preset name.
    pub fn new(preset: &str) -> Result<Reference, String> {
        let v: Variant = preset.parse().map_err(|e| format!("{e}"))?;
        Ok(Reference::with(v, preset))
    }

    /// The reference engine for a variant, reported under `label`.
    pub fn with(variant: Variant, label: &str) -> Reference {
        Reference {
            rules: Rules::new(variant),
            preset: label.to_string(),
        }
    }
}

impl Optimized {
    /// The optimized engine for a preset name.
    pub fn new(preset: &str) -> Result<Optimized, String> {
        let v: Variant = preset.parse().map_err(|e| format!("{e}"))?;
        Optimized::with(v, preset)
    }

    /// The optimized engine for a variant, reported under `label`.
    pub fn with(variant: Variant, label: &str) -> Result<Optimized, String> {
        Ok(Optimized {
            rules: FastRules::new(variant).map_err(|e| e.to_string())?,
            preset: label.to_string(),
        })
    }
}

/// A position of the optimized engine from a validated position.
pub fn to_fast(p: &Position) -> FastPos {
    let mut b = [0u8; 32];
    for side in Side::BOTH {
        for pit in Pit::all() {
            b[side.index() * 16 + pit.ring()] = p.board().get(side, pit);
        }
    }
    FastPos {
        b,
        stores: [p.store(Side::South), p.store(Side::North)],
        houses: u8::from(p.house_owned(Side::South)) | (u8::from(p.house_owned(Side::North)) << 1),
        to_move: p.to_move().index() as u8,
        blocked: p.blocked().map_or(NONE, |pit| pit.ring() as u8),
    }
}

/// The setup of an optimized-engine position (validate with `Position::from_setup`).
pub fn from_fast(f: &FastPos) -> Setup {
    let mut board = Board::empty();
    for side in Side::BOTH {
        for pit in Pit::all() {
            board.set(side, pit, f.b[side.index() * 16 + pit.ring()]);
        }
    }
    Setup {
        board,
        stores: f.stores,
        house_owned: [f.houses & 1 != 0, f.houses & 2 != 0],
        to_move: if f.to_move == 0 {
            Side::South
        } else {
            Side::North
        },
        blocked: (f.blocked != NONE).then(|| Pit::from_ring(usize::from(f.blocked))),
    }
}

/// The notation of an optimized-engine move.
pub fn fast_move_notation(side: Side, mv: u8, kind: u8) -> String {
    let m = Move {
        pit: Pit::from_ring(usize::from(mv & 15)),
        hand: if mv & RIGHT != 0 {
            Hand::Right
        } else {
            Hand::Left
        },
        play_house: mv & PLUS != 0,
    };
    let kind = match kind {
        0 => MoveKind::Capture,
        1 => MoveKind::Kutakata,
        _ => MoveKind::Kutakatia,
    };
    m.notation(side, kind)
}

impl Engine for Reference {
    type State = Position;

    fn name(&self) -> String {
        format!("bao-reference/{}", self.preset)
    }

    fn start(&self) -> Position {
        Position::start()
    }

    fn parse_state(&self, text: &str) -> Result<Position, String> {
        position_text::parse(text).map_err(|e| e.to_string())
    }

    fn legal(&self, p: &Position) -> Vec<String> {
        self.rules
            .legal_moves(p)
            .into_iter()
            .map(|m| {
                self.rules
                    .notation(p, m)
                    .unwrap_or_else(|e| format!("?{e}"))
            })
            .collect()
    }

    fn play(&self, p: &Position, mv: &str) -> Result<Position, String> {
        let text = MoveText::parse(mv).map_err(|e| e.to_string())?;
        self.rules
            .play_text(p, &text)
            .map(|(_, played)| played.position)
            .map_err(|e| e.to_string())
    }

    fn position_text(&self, p: &Position) -> String {
        position_text::print(p)
    }

    fn result(&self, p: &Position) -> Option<String> {
        self.rules
            .outcome(p)
            .map(|o| format!("{} wins by {}", o.winner, o.clause))
    }

    fn legal_and_result(&self, p: &Position) -> (Vec<String>, Option<String>) {
        // A game with a legal move is not over (rules.outcome).
        legal_then_result(self, p)
    }
}

impl Engine for Optimized {
    type State = FastPos;

    fn name(&self) -> String {
        format!("bao-optimized/{}", self.preset)
    }

    fn start(&self) -> FastPos {
        FastRules::start()
    }

    fn parse_state(&self, text: &str) -> Result<FastPos, String> {
        position_text::parse(text)
            .map(|p| to_fast(&p))
            .map_err(|e| e.to_string())
    }

    fn legal(&self, p: &FastPos) -> Vec<String> {
        let side = if p.to_move == 0 {
            Side::South
        } else {
            Side::North
        };
        let list = self.rules.legal_moves(p);
        (0..list.len)
            .map(|i| fast_move_notation(side, list.moves[i], list.kinds[i]))
            .collect()
    }

    fn play(&self, p: &FastPos, mv: &str) -> Result<FastPos, String> {
        let side = if p.to_move == 0 {
            Side::South
        } else {
            Side::North
        };
        // A move written with its row and hand names one start: check and play just that one.
        if let Ok(MoveText {
            row: Some((row_side, row)),
            hand: Some(hand),
            play_house,
            number,
            ..
        }) = MoveText::parse(mv)
        {
            let Some(pit) = Pit::new(row, number).filter(|_| row_side == side) else {
                return Err(format!("'{mv}' is not legal"));
            };
            let code = pit.ring() as u8
                | if hand == Hand::Right { RIGHT } else { 0 }
                | if play_house { PLUS } else { 0 };
            return self
                .rules
                .play_checked(p, code)
                .map(|(next, _, _)| next)
                .ok_or_else(|| format!("'{mv}' is not legal"));
        }
        let list = self.rules.legal_moves(p);
        let wanted = mv.trim_end_matches('*');
        (0..list.len)
            .find(|&i| {
                fast_move_notation(side, list.moves[i], list.kinds[i]).trim_end_matches('*')
                    == wanted
            })
            .map(|i| self.rules.play(p, list.moves[i]).0)
            .ok_or_else(|| format!("'{mv}' is not legal"))
    }

    fn position_text(&self, p: &FastPos) -> String {
        match Position::from_setup(from_fast(p)) {
            Ok(pos) => position_text::print(&pos),
            Err(e) => format!("invalid position: {e}\n"),
        }
    }

    fn legal_and_result(&self, p: &FastPos) -> (Vec<String>, Option<String>) {
        // A game with a legal move is not over (FastRules::outcome).
        legal_then_result(self, p)
    }

    fn result(&self, p: &FastPos) -> Option<String> {
        self.rules.outcome(p).map(|o| {
            let w = if o.winner == 0 {
                Side::South
            } else {
                Side::North
            };
            format!("{w} wins by {}", o.clause)
        })
    }
}
