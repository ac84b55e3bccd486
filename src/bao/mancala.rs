//! Bao registered as a game of the harness ([`crate::registry::Mancala`]): its readings and
//! its two engines, as generic code reaches them.

use crate::engine::EngineError;
use crate::game::Action;
use crate::inconsistencies::{Finding, WitnessError};
use crate::playout::Row as GameRow;
use crate::playout::{EngineKind, Playouts};
use crate::registry::{EngineOf, Mancala, ShowError, TextKind, MAX_OWN_COLUMNS};

use super::fast::{FastRules, FastState, Unsupported};
use super::variant::{InfiniteMoves, VariantError};
use super::{Hand, Move, MoveText, Pit, Played, Position, Row, Rules, Side, Variant};

/// Bao la Kiswahili.
#[derive(Clone, Copy, Debug)]
pub struct Bao;

impl Mancala for Bao {
    const KIND: crate::game::GameKind = crate::game::GameKind::Bao;
    const SPEC: &'static str = include_str!("../../spec/bao.md");
    const DEFAULT_VARIANT: &'static str = "default";
    const MAIN_JOB_GAMES: u64 = 100_000;
    const CATALOG_TITLE: &'static str = "# Bao la Kiswahili";
    const COLUMNS: &'static [&'static str] = &[
        "harvests_south",
        "harvests_north",
        "seeds_captured_south",
        "seeds_captured_north",
        "kunamua_plies",
        "mtaji_plies",
        "houses_lost",
        "longest_move_seeds",
        "undefined_cases",
    ];
    type Variant = Variant;
    type Move = Move;
    type Position = Position;
    type Reference = Rules;
    type Optimized = FastRules;

    fn own_numbers(row: &GameRow, out: &mut [u32; MAX_OWN_COLUMNS]) -> usize {
        let [hs, hn] = row.harvests;
        let [cs, cn] = row.seeds_captured;
        let [kunamua, mtaji] = row.stage_plies;
        let own = [
            hs,
            hn,
            cs,
            cn,
            kunamua,
            mtaji,
            row.houses_lost,
            row.longest_move_seeds,
            row.undefined_cases,
        ];
        out[..own.len()].copy_from_slice(&own);
        own.len()
    }

    fn check_text(what: TextKind, text: &str) -> Result<(), String> {
        match what {
            TextKind::Move => super::checks::notation_roundtrip(text),
            TextKind::Transcript => super::checks::transcript_parse(text),
            TextKind::Position => super::checks::position_parse(text),
        }
    }

    fn inconsistencies(
        games: u64,
        seed: u64,
        done: &mut dyn FnMut(u64),
    ) -> Result<Vec<Finding>, WitnessError> {
        super::inconsistencies::hunt_with_progress(games, seed, done)
    }

    fn variant(preset: &str) -> Result<Variant, EngineError> {
        Ok(preset.parse()?)
    }

    fn reference(variant: Variant) -> Rules {
        Rules::new(variant)
    }

    fn optimized(variant: Variant) -> Result<FastRules, EngineError> {
        Ok(FastRules::new(variant)?)
    }

    fn set(variant: Variant, name: &str, value: &str) -> Result<Variant, String> {
        match name {
            "infinite" => {
                let inf: InfiniteMoves = value.parse().map_err(|e: VariantError| e.to_string())?;
                Ok(variant.with_infinite_moves(inf))
            }
            _ => Err(format!("Bao has no setting {}", crate::text::quoted(name))),
        }
    }

    fn print(position: &Position) -> String {
        super::position_text::print(position)
    }

    /// 38 numbers: the seeds of South's 16 pits and North's (each from A1/a1 along the row, then
    /// the back row from B8/b8), the two stores, whether each still owns its house (1 or 0), the
    /// player to move (0 South, 1 North), and the mover's kutakatia-ed pit (its place in that
    /// order, plus 1; 0 for none).
    fn observation(pos: &Position) -> Vec<f32> {
        let mut v = Vec::with_capacity(38);
        for side in [Side::South, Side::North] {
            v.extend((0..16).map(|i| f32::from(pos.board().get(side, Pit::from_ring(i)))));
        }
        v.extend([Side::South, Side::North].map(|s| f32::from(pos.store(s))));
        v.extend([Side::South, Side::North].map(|s| f32::from(u8::from(pos.house_owned(s)))));
        v.push(pos.to_move().index() as f32);
        v.push(pos.blocked().map_or(0.0, |p| (p.ring() + 1) as f32));
        v
    }

    fn explain(
        variant: Variant,
        start: Option<&str>,
        moves: &[String],
        mv: &str,
    ) -> Result<Vec<String>, ShowError> {
        let rules = Rules::new(variant);
        let pos = replay(&rules, start, moves)?;
        let played = play(&rules, &pos, mv)?;
        Ok(played.trace.iter().map(|s| s.to_string()).collect())
    }

    #[cfg(feature = "diagram")]
    fn diagram(
        variant: Variant,
        start: Option<&str>,
        moves: &[String],
        mv: Option<&str>,
    ) -> Result<String, ShowError> {
        use super::diagram;
        let rules = Rules::new(variant);
        let pos = replay(&rules, start, moves)?;
        let title = diagram::bao_title_under(&rules, &pos, mv);
        let steps = match mv {
            None => Vec::new(),
            Some(mv) => play(&rules, &pos, mv)?.trace,
        };
        diagram::bao_svg(&pos, &title, &steps).map_err(|e| ShowError::Drawing(e.to_string()))
    }
}

impl From<VariantError> for EngineError {
    fn from(e: VariantError) -> EngineError {
        EngineError::Reading(e.to_string())
    }
}

impl From<Unsupported> for EngineError {
    fn from(e: Unsupported) -> EngineError {
        EngineError::Unsupported(e.to_string())
    }
}

impl Playouts for Rules {
    const ENGINE: EngineKind = EngineKind::Reference;
}

impl Playouts for FastRules {
    const ENGINE: EngineKind = EngineKind::Optimized;
}

impl Action for Move {
    /// 64: the mover's 16 pits (front row 1-8, then back row 1-8), by hand, by house decision.
    const COUNT: u32 = 64;

    fn action(self) -> u32 {
        let row = match self.pit.row() {
            Row::Front => 0,
            Row::Back => 1,
        };
        let pit = row * 8 + u32::from(self.pit.number()) - 1;
        let hand = match self.hand {
            Hand::Left => 0,
            Hand::Right => 1,
        };
        (pit * 2 + hand) * 2 + u32::from(self.play_house)
    }
}

impl EngineOf<Bao> for Rules {
    fn position(&self, state: &Position) -> Result<Position, String> {
        Ok(state.clone())
    }
}

impl EngineOf<Bao> for FastRules {
    fn position(&self, state: &FastState) -> Result<Position, String> {
        Position::from_setup(super::engines::from_fast(&state.pos)).map_err(|e| e.to_string())
    }
}

/// The game after `moves` from `start` replayed on `rules`: where it stands.
fn replay(rules: &Rules, start: Option<&str>, moves: &[String]) -> Result<Position, ShowError> {
    let mut pos = match start {
        None => Position::start(),
        Some(text) => {
            super::position_text::parse(text).map_err(|e| ShowError::Replay(e.to_string()))?
        }
    };
    for m in moves {
        pos = play(rules, &pos, m)?.position;
    }
    Ok(pos)
}

/// `mv` (in notation) played on `rules` from `pos`.
fn play(rules: &Rules, pos: &Position, mv: &str) -> Result<Played, ShowError> {
    let text = MoveText::parse(mv).map_err(|e| ShowError::Replay(e.to_string()))?;
    rules
        .play_text(pos, &text)
        .map(|(_, played)| played)
        .map_err(|e| ShowError::Replay(e.to_string()))
}
