//! Oware registered as a game of the harness ([`crate::registry::Mancala`]): its readings and
//! its two engines, as generic code reaches them, with the batch engine behind the optimized one.

use crate::audit::{GameAudit, RecordFormat};
use crate::engine::EngineError;
use crate::game::Action;
use crate::game::EventTotals;
use crate::inconsistencies::{Finding, WitnessError};
use crate::playout::{EngineKind, Play, Playouts, Row};
use crate::policy::{Players, Policy};
use crate::registry::{
    EngineOf, ExactError, Mancala, MoveError, Shown, TextKind, WrittenPly, MAX_OWN_COLUMNS,
};
use crate::retro::Target;
use crate::text::quoted;

use super::batch::{Batch, Playout};
use super::fast::{FastGame, FastRules, Unsupported};
use super::{Game, Move, Position, Rules, Side, Variant};

/// Oware, of the abapa family.
#[derive(Clone, Copy, Debug)]
pub struct Oware;

impl Mancala for Oware {
    const KIND: crate::registry::GameKind = crate::registry::GameKind::Oware;
    const SPEC: &'static str = include_str!("../../spec/oware.md");
    const DEFAULT_VARIANT: &'static str = "sheet";
    const READINGS: &'static str = "sheet, abapa, strict, each with parameters after a colon (sheet:no-allowed-move=allow-grand-slam)";
    const PRESETS: &'static [&'static str] = &super::variant::PRESET_NAMES;
    const PARAMETERS: &'static [&'static str] = &super::variant::PARAMETER_NAMES;
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
        crate::batch::check_path_variable()
    }

    const BATCH: bool = true;

    fn batch_check(
        variant: Variant,
        seed: u64,
        max_plies: u32,
        paths: &[crate::batch::BatchPath],
    ) -> Result<Box<dyn crate::batch::BatchCheck>, String> {
        super::batch::check::Check::new(variant, seed, max_plies, paths)
            .map(|c| Box::new(c) as Box<dyn crate::batch::BatchCheck>)
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

    fn target(
        variant: Variant,
        text: Option<&str>,
        per_pit: Option<u8>,
    ) -> Result<Target, ExactError> {
        super::retro::target(&variant, text, per_pit).map_err(|e| ExactError::Position {
            message: e.to_string(),
        })
    }

    fn bench(bench: &mut dyn crate::bench::Bench, part: crate::bench::BenchPart) {
        super::bench::sections(bench, part);
    }

    fn search_bench() -> (&'static str, FastRules) {
        super::bench::search_engine()
    }

    fn bench_parsers() -> Vec<crate::bench::Parser> {
        super::bench::parsers()
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

    const SCORED: bool = true;
    const RECORD_FORMATS: &'static [RecordFormat] =
        &[RecordFormat::Openspiel, RecordFormat::Transcript];
    type Record = super::audit::Record;

    fn records(format: RecordFormat, name: &str, text: &str) -> Vec<Result<Self::Record, String>> {
        match format {
            RecordFormat::Transcript => {
                vec![super::audit::from_transcript(name, text).map_err(|e| format!("{name}: {e}"))]
            }
            _ => super::audit::read_openspiel(text)
                .into_iter()
                .map(|r| {
                    r.map(|mut rec| {
                        rec.source = format!("{name}:{}", rec.source.trim_start_matches("line "));
                        rec
                    })
                    .map_err(|e| format!("{name}:{}: {}", e.line, e.message))
                })
                .collect(),
        }
    }

    fn record_source(record: &Self::Record) -> &str {
        &record.source
    }

    fn audit(variant: Variant, record: &Self::Record) -> Result<GameAudit, String> {
        super::audit::audit(variant, record).map_err(|e| e.to_string())
    }

    fn mutated_start<R: rand::Rng>(variant: Variant, steps: usize, rng: &mut R) -> Position {
        super::mutate::mutated_start(&Rules::new(variant), steps, rng)
    }

    fn check_move(written: &str) -> Result<(), String> {
        letter(written).map(drop)
    }

    fn play_written(rules: &Rules, game: &Game, written: &str) -> Result<Shown<Oware>, MoveError> {
        let (side, mv) = letter(written).map_err(MoveError::Written)?;
        let me = game.position().to_move();
        // A finished game takes no move, whoever's letter it is: the play says so with its clause.
        if side != me && game.outcome().is_none() {
            return Err(MoveError::Written(format!(
                "{} is a pit of {side}, but {me} is to move",
                quoted(written)
            )));
        }
        let played = rules
            .play(game, mv)
            .map_err(|e| MoveError::Illegal(e.to_string()))?;
        Ok(Shown {
            mv,
            notation: mv.letter(me).to_string(),
            trace: played.trace.iter().map(|s| s.to_string()).collect(),
            state: played.game,
        })
    }

    fn transcript(text: &str) -> Box<dyn Iterator<Item = Result<WrittenPly, String>> + '_> {
        Box::new(
            super::notation::transcript_moves(text)
                .enumerate()
                .map(|(i, w)| {
                    let w = w.map_err(|e| e.to_string())?;
                    let letter = w.mv.letter(w.side);
                    Ok(WrittenPly {
                        line: w.line,
                        column: w.column,
                        side: w.side,
                        label: format!("ply {} '{letter}'", i + 1),
                        text: letter.to_string(),
                    })
                }),
        )
    }

    fn print_transcript(moves: &[String]) -> String {
        // As notation::print_transcript writes them: numbered pairs, one per line (`1. A d`).
        let pairs = moves.chunks(2).enumerate();
        pairs
            .map(|(i, pair)| format!("{}. {}\n", i + 1, pair.join(" ")))
            .collect()
    }

    #[cfg(feature = "diagram")]
    fn pit_places(_position: &Position) -> Vec<crate::registry::PitPlace> {
        super::diagram::oware_pit_places()
    }

    #[cfg(feature = "diagram")]
    fn draw(
        rules: &Rules,
        game: &Game,
        mv: Option<(Move, &str)>,
    ) -> Result<String, crate::diagram::DiagramError> {
        use super::diagram;
        let p = game.position();
        let (pits, scores) = (p.pits(), [p.score(Side::South), p.score(Side::North)]);
        // A move the caller read from this position: it plays.
        let Some((mv, Ok(played))) = mv.map(|(m, n)| ((m, n), rules.play(game, m))) else {
            let title = diagram::oware_title(game);
            return diagram::oware_svg(&pits, scores, p.to_move(), &title, None);
        };
        let ((mv, notation), played) = (mv, played);
        let steps: Vec<(&'static str, String)> = played
            .trace
            .iter()
            .map(|s| (s.clause, s.text.clone()))
            .collect();
        let m = diagram::OwareMove {
            from: mv.index(p.to_move()),
            captured: played.captured,
            steps: &steps,
        };
        let title = format!("{} plays {notation}", p.to_move());
        diagram::oware_svg(&pits, scores, p.to_move(), &title, Some(&m))
    }
}

/// The side and pit of a move letter, or why `written` is not one letter A-F or a-f.
fn letter(written: &str) -> Result<(Side, Move), String> {
    let mut chars = written.chars();
    match (chars.next().and_then(Move::from_letter), chars.next()) {
        (Some(x), None) => Ok(x),
        _ => Err(format!(
            "{}: expected one move letter A-F (South) or a-f (North)",
            quoted(written)
        )),
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
        // The lanes finish their games out of order: each goes to its slot, read back in order.
        let first = games.start;
        let mut slots: Vec<Option<Playout>> = vec![None; (games.end - first) as usize];
        batch.play(games, |p| slots[(p.game - first) as usize] = Some(p));
        for p in slots.iter().flatten() {
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
