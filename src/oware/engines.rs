//! The reference and optimized Oware engines behind the common [`Engine`] face.

use super::fast::{FastGame, FastRules};
use super::notation::Move;
use super::position::Position;
use super::rules::Rules;
use super::{Game, Side, Variant};
use crate::engine::Engine;

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
        Ok(Reference {
            rules: Rules::new(v),
            preset: preset.to_string(),
        })
    }
}

impl Optimized {
    /// The optimized engine for a preset name.
    pub fn new(preset: &str) -> Result<Optimized, String> {
        let v: Variant = preset.parse().map_err(|e| format!("{e}"))?;
        Ok(Optimized {
            rules: FastRules::new(v).map_err(|e| e.to_string())?,
            preset: preset.to_string(),
        })
    }
}

fn side_of(i: u8) -> Side {
    if i == 0 {
        Side::South
    } else {
        Side::North
    }
}

fn result_text(winner: Option<Side>, scores: [u8; 2], clause: &str) -> String {
    format!("{winner:?} {}-{} by {clause}", scores[0], scores[1])
}

fn parse_letter(mv: &str, to_move: Side) -> Result<Move, String> {
    let mut chars = mv.chars();
    match (chars.next().and_then(Move::from_letter), chars.next()) {
        (Some((side, m)), None) if side == to_move => Ok(m),
        _ => Err(format!("'{mv}' is not a move of {to_move}")),
    }
}

impl Engine for Reference {
    type State = Game;

    fn name(&self) -> String {
        format!("oware-reference/{}", self.preset)
    }

    fn start(&self) -> Game {
        self.rules.new_game()
    }

    fn parse_state(&self, text: &str) -> Result<Game, String> {
        Ok(self
            .rules
            .game_from(Position::parse(text).map_err(|e| e.to_string())?))
    }

    fn legal(&self, g: &Game) -> Vec<String> {
        let side = g.position().to_move();
        self.rules
            .legal_moves(g)
            .iter()
            .map(|m| m.letter(side).to_string())
            .collect()
    }

    fn play(&self, g: &Game, mv: &str) -> Result<Game, String> {
        let m = parse_letter(mv, g.position().to_move())?;
        self.rules
            .play(g, m)
            .map(|p| p.game)
            .map_err(|e| e.to_string())
    }

    fn position_text(&self, g: &Game) -> String {
        g.position().print()
    }

    fn result(&self, g: &Game) -> Option<String> {
        g.outcome()
            .map(|o| result_text(o.winner, o.scores, o.clause))
    }
}

impl Engine for Optimized {
    type State = FastGame;

    fn name(&self) -> String {
        format!("oware-optimized/{}", self.preset)
    }

    fn start(&self) -> FastGame {
        self.rules.start()
    }

    fn parse_state(&self, text: &str) -> Result<FastGame, String> {
        let p = Position::parse(text).map_err(|e| e.to_string())?;
        Ok(self.rules.game(
            p.pits(),
            [p.score(Side::South), p.score(Side::North)],
            p.to_move().index() as u8,
        ))
    }

    fn legal(&self, g: &FastGame) -> Vec<String> {
        let mask = self.rules.legal_mask(g);
        let side = side_of(g.to_move());
        (0..6)
            .filter(|i| mask & (1 << i) != 0)
            .map(|pit| Move { pit }.letter(side).to_string())
            .collect()
    }

    fn play(&self, g: &FastGame, mv: &str) -> Result<FastGame, String> {
        let m = parse_letter(mv, side_of(g.to_move()))?;
        if self.rules.legal_mask(g) & (1 << m.pit) == 0 {
            return Err(format!("'{mv}' is not legal"));
        }
        let mut next = g.clone();
        self.rules.play(&mut next, m.pit);
        Ok(next)
    }

    fn position_text(&self, g: &FastGame) -> String {
        Position::new(g.pits(), g.scores(), side_of(g.to_move()))
            .map(|p| p.print())
            .unwrap_or_else(|e| format!("invalid: {e}\n"))
    }

    fn result(&self, g: &FastGame) -> Option<String> {
        g.result.map(|r| {
            let winner = match r {
                0 => Some(Side::South),
                1 => Some(Side::North),
                _ => None,
            };
            result_text(winner, g.scores(), g.end_clause)
        })
    }
}
