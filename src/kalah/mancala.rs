//! Kalah registered as a game of the harness ([`crate::registry::Mancala`]): its readings (the
//! board among them) and its two engines, as generic code reaches them.

use crate::audit::{GameAudit, RecordFormat};
use crate::engine::EngineError;
use crate::game::Action;
use crate::game::EventTotals;
use crate::inconsistencies::{Finding, WitnessError};
use crate::playout::{EngineKind, Play, Playouts, Row};
use crate::registry::{
    EngineOf, ExactError, Mancala, MoveError, Shown, TextKind, WrittenPly, MAX_OWN_COLUMNS,
};
use crate::retro::Target;
use crate::text::quoted;

use super::fast::{FastRules, FastState};
use super::variant::MAX_PITS;
use super::{Move, Position, Rules, Side, State, Variant};

/// Kalah(m,n), with its disputed readings.
#[derive(Clone, Copy, Debug)]
pub struct Kalah;

impl Mancala for Kalah {
    const KIND: crate::registry::GameKind = crate::registry::GameKind::Kalah;
    const SPEC: &'static str = include_str!("../../spec/kalah.md");
    const DEFAULT_VARIANT: &'static str = "openspiel";
    const READINGS: &'static str = "openspiel, empty-capture, starvation, sweep-to-emptier, no-sweep, each with parameters after a colon (openspiel:pits=4,seeds=3)";
    const PRESETS: &'static [&'static str] = &super::variant::PRESET_NAMES;
    const PARAMETERS: &'static [&'static str] = &super::variant::PARAMETER_NAMES;
    const MAIN_JOB_GAMES: u64 = 1_000_000;
    const CATALOG_TITLE: &'static str = "# Kalah";
    const COLUMNS: &'static [&'static str] = &[
        "seeds_captured_south",
        "seeds_captured_north",
        "score_south",
        "score_north",
    ];
    type Variant = Variant;
    type Move = Move;
    type Position = Position;
    type Reference = Rules;
    type Optimized = FastRules;

    fn own_numbers(row: &Row, out: &mut [u32; MAX_OWN_COLUMNS]) -> usize {
        let [cs, cn] = row.seeds_captured;
        let own = [cs, cn, row.scores[0], row.scores[1]];
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
        Ok(super::inconsistencies::hunt_with_progress(
            games, seed, done,
        ))
    }

    fn variant(preset: &str) -> Result<Variant, EngineError> {
        Ok(preset.parse()?)
    }

    /// The reading sets the seeds a pit (`seeds=`): `per_pit` is not taken.
    fn target(
        variant: Variant,
        text: Option<&str>,
        _per_pit: Option<u8>,
    ) -> Result<Target, ExactError> {
        super::retro::target(&variant, text).map_err(|e| ExactError::Position {
            message: e.to_string(),
        })
    }

    /// The closest preset and the parameters that differ from it (spec/kalah.md).
    fn variant_name(variant: &Variant) -> Option<String> {
        Some(variant.to_string())
    }

    fn bench(bench: &mut dyn crate::bench::Bench, part: crate::bench::BenchPart) {
        super::bench::sections(bench, part);
    }

    fn search_bench() -> (&'static str, FastRules) {
        ("kalah (openspiel)", FastRules::new(Variant::OPENSPIEL))
    }

    fn bench_parsers() -> Vec<crate::bench::Parser> {
        super::bench::parsers()
    }

    fn reference(variant: Variant) -> Rules {
        Rules::new(variant)
    }

    fn optimized(variant: Variant) -> Result<FastRules, EngineError> {
        Ok(FastRules::new(variant))
    }

    fn set(_: Variant, name: &str, _: &str) -> Result<Variant, String> {
        Err(match name {
            "infinite" => "Kalah has no infinite moves (a Bao setting)".into(),
            _ => format!(
                "Kalah has no setting {} (its board and rules are set in the reading: \
                 openspiel:pits=4,seeds=3)",
                quoted(name)
            ),
        })
    }

    fn print(position: &Position) -> String {
        position.to_string()
    }

    /// On the word board ([`super::envs::Words`]).
    fn vector_envs(
        engine: FastRules,
        spec: &crate::vector::EnvSpec,
        pool: crate::vector::Workers,
    ) -> Box<dyn crate::vector::VectorEnv> {
        let words = super::playout::RandomGames::new(engine.variant());
        crate::vector::envs(super::envs::Words(words), spec, pool)
    }

    /// 15 numbers, whatever the board: the seeds of South's pits from A and of North's from a,
    /// six a row (0 past the m pits of a smaller board), South's and North's stores, the player
    /// to move (0 South, 1 North).
    fn observation(pos: &Position) -> Vec<f32> {
        let mut v = vec![0.0; 2 * usize::from(MAX_PITS)];
        for (side, row) in Side::BOTH
            .into_iter()
            .zip(v.chunks_mut(usize::from(MAX_PITS)))
        {
            for (cell, &n) in row.iter_mut().zip(pos.row(side)) {
                *cell = f32::from(n);
            }
        }
        v.extend(Side::BOTH.map(|s| f32::from(pos.store(s))));
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
        letter(written, MAX_PITS).map(drop)
    }

    fn play_written(
        rules: &Rules,
        state: &State,
        written: &str,
    ) -> Result<Shown<Kalah>, MoveError> {
        let (side, mv) = letter(written, rules.variant.pits).map_err(MoveError::Written)?;
        let me = state.position().to_move();
        // A finished game takes no move, whoever's letter it is: the play says so with its clause.
        if side != me && state.outcome().is_none() {
            return Err(MoveError::Written(format!(
                "{} is a pit of {side}, but {me} is to move",
                quoted(written)
            )));
        }
        let played = rules
            .play(state, mv)
            .map_err(|e| MoveError::Illegal(e.to_string()))?;
        Ok(Shown {
            mv,
            notation: mv.letter(me).to_string(),
            trace: played.trace.iter().map(|s| s.to_string()).collect(),
            state: played.state,
        })
    }

    fn transcript(text: &str) -> Box<dyn Iterator<Item = Result<WrittenPly, String>> + '_> {
        Box::new(
            super::transcript::transcript_moves(text)
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
        // As transcript::print_transcript writes them: one numbered ply a line (`1. C`).
        let plies = moves.iter().enumerate();
        plies.map(|(i, mv)| format!("{}. {mv}\n", i + 1)).collect()
    }

    #[cfg(feature = "diagram")]
    fn pit_places(position: &Position) -> Vec<crate::registry::PitPlace> {
        super::diagram::pit_places(usize::from(position.pits()))
    }

    #[cfg(feature = "diagram")]
    fn draw(
        rules: &Rules,
        state: &State,
        mv: Option<(Move, &str)>,
    ) -> Result<String, crate::diagram::DiagramError> {
        use super::diagram;
        let p = state.position();
        // A move the caller read from this position: it plays.
        match mv.map(|(m, n)| (m, n, rules.play(state, m))) {
            Some((mv, notation, Ok(played))) => {
                let title = format!("{} plays {notation}", p.to_move());
                diagram::svg(p, &title, Some((mv.pit, &played)))
            }
            _ => diagram::svg(p, &diagram::title(state), None),
        }
    }
}

/// The side and pit of a move letter on a board of `pits` pits a row, or why `written` is not
/// one letter of that board.
fn letter(written: &str, pits: u8) -> Result<(Side, Move), String> {
    let mut chars = written.chars();
    match (
        chars.next().and_then(|c| Move::from_letter(c, pits)),
        chars.next(),
    ) {
        (Some(x), None) => Ok(x),
        _ => {
            let last = char::from(b'A' + pits - 1);
            Err(format!(
                "{}: expected one move letter A-{last} (South) or a-{} (North)",
                quoted(written),
                last.to_ascii_lowercase()
            ))
        }
    }
}

impl Playouts for Rules {
    const ENGINE: EngineKind = EngineKind::Reference;
}

impl Playouts for FastRules {
    const ENGINE: EngineKind = EngineKind::Optimized;

    /// Random games on the batch engine, on the fastest path the processor has (the scalar
    /// path is the word board, [`super::playout::RandomGames`]): the same games on every path.
    fn play_batch(
        &self,
        play: Play,
        seed: u64,
        games: std::ops::Range<u64>,
        each: &mut dyn FnMut(Row, EventTotals),
    ) -> bool {
        super::batch::Batch::new(self.variant(), seed, play.max_plies)
            .play_in_order(games, |p| each(p.row(), p.events()));
        true
    }

    fn batches_random_play(&self) -> bool {
        true
    }

    fn describe(&self, players: crate::policy::Players, max_plies: u32) -> String {
        let batch = super::batch::Batch::new(self.variant(), 0, max_plies);
        if players != crate::policy::Players::both(crate::policy::Policy::Random) {
            return "kalah optimized engine".into();
        }
        if !batch.uses_vectors() {
            return "kalah optimized engine (scalar word board)".into();
        }
        let why = batch.path().note().map(|w| format!("; {w}"));
        format!(
            "kalah optimized engine ({}{})",
            batch.path().describe(),
            why.unwrap_or_default()
        )
    }
}

impl Action for Move {
    /// 6: the mover's pits from its left (A-F for South, a-f for North; a board of m pits uses
    /// the first m).
    const COUNT: u32 = MAX_PITS as u32;

    fn action(self) -> u32 {
        u32::from(self.pit)
    }
}

impl EngineOf<Kalah> for Rules {
    fn position(&self, state: &State) -> Result<Position, String> {
        Ok(*state.position())
    }
}

impl EngineOf<Kalah> for FastRules {
    fn position(&self, state: &FastState) -> Result<Position, String> {
        Ok(FastRules::position(self, state))
    }
}
