//! Oware registered as a game of the harness ([`crate::registry::Mancala`]): its readings and
//! its two engines, as generic code reaches them, with the batch engine behind the optimized one.

use crate::engine::EngineError;
use crate::game::Action;
use crate::game::EventTotals;
use crate::inconsistencies::{Finding, WitnessError};
use crate::playout::{EngineKind, Play, Playouts, Row};
use crate::policy::{Players, Policy};
use crate::registry::{EngineOf, Mancala, ShowError, TextKind, MAX_OWN_COLUMNS};

use super::batch::Batch;
use super::fast::{FastGame, FastRules, Unsupported};
use super::variant::UnknownVariant;
use super::{Game, Move, Played, Position, Rules, Side, Variant};

/// Oware, of the abapa family.
#[derive(Clone, Copy, Debug)]
pub struct Oware;

impl Mancala for Oware {
    const KIND: crate::game::GameKind = crate::game::GameKind::Oware;
    const SPEC: &'static str = include_str!("../../spec/oware.md");
    const DEFAULT_VARIANT: &'static str = "sheet";
    const MAIN_JOB_GAMES: u64 = 1_000_000;
    const CATALOG_TITLE: &'static str = "# Oware";
    const COLUMNS: &'static [&'static str] = &[
        "seeds_captured_south",
        "seeds_captured_north",
        "score_south",
        "score_north",
        "undefined_cases",
    ];
    type Variant = Variant;
    type Move = Move;
    type Position = Position;
    type Reference = Rules;
    type Optimized = FastRules;

    fn own_numbers(row: &Row, out: &mut [u32; MAX_OWN_COLUMNS]) -> usize {
        let [cs, cn] = row.seeds_captured;
        let own = [cs, cn, row.scores[0], row.scores[1], row.undefined_cases];
        out[..own.len()].copy_from_slice(&own);
        own.len()
    }

    /// A batch path forced through the environment must name a path this processor runs.
    fn check_environment() -> Result<(), String> {
        use super::batch::{BatchPath, PATH_VARIABLE};
        BatchPath::from_env()
            .map(drop)
            .map_err(|e| format!("{PATH_VARIABLE}: {e}"))
    }

    fn check_text(what: TextKind, text: &str) -> Result<(), String> {
        match what {
            TextKind::Move => Ok(()),
            TextKind::Transcript => super::checks::transcript_parse(text),
            TextKind::Position => super::checks::position_parse(text),
        }
    }

    fn inconsistencies(
        games: u64,
        seed: u64,
        done: &mut dyn FnMut(u64),
    ) -> Result<Vec<Finding>, WitnessError> {
        Ok(super::inconsistencies::hunt_with_progress(
            games, seed, done,
        ))
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

    fn set(_: Variant, name: &str, _: &str) -> Result<Variant, String> {
        Err(match name {
            "infinite" => "Oware has no infinite moves (a Bao setting)".into(),
            _ => format!("Oware has no setting {}", crate::text::quoted(name)),
        })
    }

    fn print(position: &Position) -> String {
        position.print()
    }

    /// 15 numbers: the seeds of pits A-F and a-f, South's and North's scores, the player to
    /// move (0 South, 1 North).
    fn observation(pos: &Position) -> Vec<f32> {
        let mut v: Vec<f32> = pos.pits().iter().map(|&n| f32::from(n)).collect();
        v.extend([Side::South, Side::North].map(|s| f32::from(pos.score(s))));
        v.push(pos.to_move().index() as f32);
        v
    }

    fn explain(
        variant: Variant,
        start: Option<&str>,
        moves: &[String],
        mv: &str,
    ) -> Result<Vec<String>, ShowError> {
        let rules = Rules::new(variant);
        let game = replay(&rules, start, moves)?;
        let played = play(&rules, &game, mv)?;
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
        let drawing = |e: crate::diagram::DiagramError| ShowError::Drawing(e.to_string());
        let rules = Rules::new(variant);
        let game = replay(&rules, start, moves)?;
        let p = game.position();
        let (pits, scores) = (p.pits(), [p.score(Side::South), p.score(Side::North)]);
        let Some(mv) = mv else {
            let title = diagram::oware_title(&game);
            return diagram::oware_svg(&pits, scores, p.to_move(), &title, None).map_err(drawing);
        };
        let played = play(&rules, &game, mv)?;
        let steps: Vec<(&'static str, String)> = played
            .trace
            .iter()
            .map(|s| (s.clause, s.text.clone()))
            .collect();
        let m = diagram::OwareMove {
            from: pit(mv)?.index(p.to_move()),
            captured: played.captured,
            steps: &steps,
        };
        let title = format!("{} plays {mv}", p.to_move());
        diagram::oware_svg(&pits, scores, p.to_move(), &title, Some(&m)).map_err(drawing)
    }
}

impl From<UnknownVariant> for EngineError {
    fn from(e: UnknownVariant) -> EngineError {
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

    /// Random games on the batch engine, on the fastest path the processor has (the scalar one
    /// plays them one by one, as fast as alone): the same games on every path.
    fn play_batch(
        &self,
        play: Play,
        seed: u64,
        games: std::ops::Range<u64>,
        each: &mut dyn FnMut(Row, EventTotals),
    ) -> bool {
        let Ok(batch) = Batch::new(self.variant(), seed, play.max_plies) else {
            return false;
        };
        let mut playouts = Vec::with_capacity((games.end - games.start) as usize);
        batch.play(games, |p| playouts.push(p));
        playouts.sort_unstable_by_key(|p| p.game);
        for p in &playouts {
            each(p.row(), p.events());
        }
        true
    }

    fn batches_random_play(&self) -> bool {
        true
    }

    fn describe(&self, players: Players, max_plies: u32) -> String {
        let batch = Batch::new(self.variant(), 0, max_plies)
            .ok()
            .filter(|b| b.uses_vectors());
        match batch {
            Some(b) if players == Players::both(Policy::Random) => {
                let why = b.path().note().map(|w| format!("; {w}"));
                format!(
                    "oware optimized engine ({}{})",
                    b.path().describe(),
                    why.unwrap_or_default()
                )
            }
            _ => "oware optimized engine (scalar)".into(),
        }
    }
}

impl Action for Move {
    /// 6: the mover's pits from its left (A-F for South, a-f for North).
    const COUNT: u32 = 6;

    fn action(self) -> u32 {
        u32::from(self.pit)
    }
}

impl EngineOf<Oware> for Rules {
    fn position(&self, state: &Game) -> Result<Position, String> {
        Ok(state.position().clone())
    }
}

impl EngineOf<Oware> for FastRules {
    fn position(&self, state: &FastGame) -> Result<Position, String> {
        let mover = if state.to_move() == 0 {
            Side::South
        } else {
            Side::North
        };
        Position::new(state.pits(), state.scores(), mover).map_err(|e| e.to_string())
    }
}

/// The game after `moves` from `start` replayed on `rules`: where it stands.
fn replay(rules: &Rules, start: Option<&str>, moves: &[String]) -> Result<Game, ShowError> {
    let mut game = match start {
        None => rules.new_game(),
        Some(text) => {
            rules.game_from(Position::parse(text).map_err(|e| ShowError::Replay(e.to_string()))?)
        }
    };
    for m in moves {
        game = play(rules, &game, m)?.game;
    }
    Ok(game)
}

/// The pit an Oware move in notation empties.
fn pit(mv: &str) -> Result<Move, ShowError> {
    match mv.chars().next().and_then(Move::from_letter) {
        Some((_, pit)) => Ok(pit),
        None => Err(ShowError::Replay(format!(
            "{} is not a move",
            crate::text::quoted(mv)
        ))),
    }
}

/// `mv` (in notation) played on `rules` from `game`.
fn play(rules: &Rules, game: &Game, mv: &str) -> Result<Played, ShowError> {
    rules
        .play(game, pit(mv)?)
        .map_err(|e| ShowError::Replay(e.to_string()))
}
