//! Bao registered as a game of the harness ([`crate::registry::Mancala`]): its readings and
//! its two engines, as generic code reaches them.

use crate::audit::{GameAudit, RecordFormat};
use crate::engine::EngineError;
use crate::game::Action;
use crate::inconsistencies::{Finding, WitnessError};
use crate::playout::Row as GameRow;
use crate::playout::{EngineKind, Playouts};
use crate::registry::{EngineOf, Mancala, MoveError, Shown, TextKind, WrittenPly, MAX_OWN_COLUMNS};
use crate::text::quoted;

use super::fast::{FastRules, FastState, Unsupported};
use super::variant::{InfiniteMoves, VariantError};
use super::{Hand, Move, MoveText, Pit, Position, Row, Rules, Side, Variant};

/// Bao la Kiswahili.
#[derive(Clone, Copy, Debug)]
pub struct Bao;

impl Mancala for Bao {
    const KIND: crate::registry::GameKind = crate::registry::GameKind::Bao;
    const SPEC: &'static str = include_str!("../../spec/bao.md");
    const DEFAULT_VARIANT: &'static str = "default";
    const READINGS: &'static str = "default, literal-en, engines, strict";
    const PRESETS: &'static [&'static str] = &super::variant::PRESET_NAMES;
    const PARAMETERS: &'static [&'static str] = &[];
    const SETTINGS: &'static [&'static str] = &["infinite"];
    const NO_DATABASES: Option<&'static str> = Some(
        "Bao's positions are not counted by seeds alone (houses, the kunamua stage, store counts)",
    );
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

    const SCORED: bool = false;
    const RECORD_FORMATS: &'static [RecordFormat] =
        &[RecordFormat::Abstractplay, RecordFormat::Transcript];
    type Record = super::audit::Record;

    fn records(format: RecordFormat, name: &str, text: &str) -> Vec<Result<Self::Record, String>> {
        match format {
            RecordFormat::Transcript => {
                let t = match super::transcript::Transcript::parse(text) {
                    Ok(t) => t,
                    Err(e) => return vec![Err(format!("{name}: {e}"))],
                };
                vec![Ok(super::audit::Record {
                    game: name.to_string(),
                    source: name.to_string(),
                    moves: t.plies.iter().map(|p| p.text.to_string()).collect(),
                    end: None,
                    final_board: None,
                })]
            }
            _ => super::abstractplay::read(text)
                .into_iter()
                .map(|r| {
                    r.map(|mut rec| {
                        rec.source = format!("{name}:{}", rec.source.trim_start_matches("line "));
                        rec
                    })
                    .map_err(|e| match e.column {
                        Some(column) => format!("{name}:{}:{column}: {}", e.line, e.message),
                        None => format!("{name}:{}: {}", e.line, e.message),
                    })
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
        MoveText::parse(written)
            .map(drop)
            .map_err(|e| e.to_string())
    }

    fn play_written(rules: &Rules, pos: &Position, written: &str) -> Result<Shown<Bao>, MoveError> {
        let text = MoveText::parse(written).map_err(|e| MoveError::Written(e.to_string()))?;
        let (mv, played) = rules
            .play_text(pos, &text)
            .map_err(|e| MoveError::Illegal(e.to_string()))?;
        Ok(Shown {
            mv,
            notation: mv.notation(pos.to_move(), played.kind),
            trace: played.trace.iter().map(|s| s.to_string()).collect(),
            state: played.position,
        })
    }

    fn transcript(text: &str) -> Box<dyn Iterator<Item = Result<WrittenPly, String>> + '_> {
        match super::transcript::Transcript::parse(text) {
            Err(e) => Box::new(std::iter::once(Err(e.to_string()))),
            Ok(t) => Box::new(t.plies.into_iter().map(|ply| {
                let text = ply.text.to_string();
                Ok(WrittenPly {
                    line: ply.line,
                    column: ply.column,
                    side: ply.side,
                    label: format!("move {} ({}) {}", ply.number, ply.side, quoted(&text)),
                    text,
                })
            })),
        }
    }

    fn stage(pos: &Position) -> Option<String> {
        Some(format!("{:?} stage", pos.stage()))
    }

    fn print_transcript(moves: &[String]) -> String {
        super::transcript::Transcript::print_moves(moves)
    }

    #[cfg(feature = "diagram")]
    fn pit_places(_position: &Position) -> Vec<crate::registry::PitPlace> {
        super::diagram::bao_pit_places()
    }

    #[cfg(feature = "diagram")]
    fn draw(
        rules: &Rules,
        pos: &Position,
        mv: Option<(Move, &str)>,
    ) -> Result<String, crate::diagram::DiagramError> {
        use super::diagram::{bao_svg, bao_title_under};
        let title = bao_title_under(rules, pos, mv.map(|(_, n)| n));
        let steps = match mv {
            None => Vec::new(),
            // A move the caller read from this position: it plays.
            Some((mv, _)) => Rules::play(rules, pos, mv)
                .map(|played| played.trace)
                .unwrap_or_default(),
        };
        bao_svg(pos, &title, &steps)
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
