//! The games the harness knows, each one registered thing ([`Mancala`]): generic code reaches a
//! game's readings and engines through [`with_game`], [`with_engine`] and [`engine`], never by name.

use crate::engine::EngineError;
use std::fmt;

use crate::game::{Action, Game};
use crate::playout::{EngineKind, PlayoutEngine, Playouts, Row};
use crate::retro::{Retro, Target};
use crate::side::Side;

/// The games the project plays; each has one folder under `src/` and one spec under `spec/`.
/// The default, where a command is given no game, is Bao.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum GameKind {
    /// Bao la Kiswahili (KIBA rules).
    #[default]
    Bao,
    /// Oware (abapa family).
    Oware,
    /// Kalah(m,n).
    Kalah,
}

impl GameKind {
    /// Every game.
    pub const ALL: [GameKind; 3] = [GameKind::Bao, GameKind::Oware, GameKind::Kalah];

    /// The name used on the command line, in files and in clause ids (`bao`, `oware`, `kalah`).
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Bao => "bao",
            GameKind::Oware => "oware",
            GameKind::Kalah => "kalah",
        }
    }

    /// The title of each clause of the game's spec, by id.
    pub fn clause_titles(self) -> std::collections::BTreeMap<String, String> {
        crate::spec::parse_spec(self.name(), self.spec_text())
            .map(|spec| spec.into_iter().map(|c| (c.id, c.title)).collect())
            .unwrap_or_default()
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game name that is not one of [`GameKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {} (known: {})", crate::text::quoted(.0), known_games())]
pub struct UnknownGame(pub String);

/// The games' names, for messages: `bao, oware, kalah`.
fn known_games() -> String {
    let names: Vec<&str> = GameKind::ALL.into_iter().map(GameKind::name).collect();
    names.join(", ")
}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// A game: its readings, its two engines, its positions as text and numbers, and how its
/// moves are explained and drawn. Implemented once per game, in the game's folder.
pub trait Mancala: 'static {
    /// Which game this is.
    const KIND: GameKind;
    /// The game's spec (`spec/<name>.md`), as built into the program.
    const SPEC: &'static str;
    /// The game's default rule reading (a preset name).
    const DEFAULT_VARIANT: &'static str;
    /// The game's readings as help texts list them (the presets, and how to write others).
    const READINGS: &'static str;
    /// The preset readings' names, the default first.
    const PRESETS: &'static [&'static str];
    /// The parameters a reading may set after its preset (`PRESET:NAME=VALUE,...`).
    const PARAMETERS: &'static [&'static str];
    /// The settings [`Mancala::set`] takes beside the reading (Bao's `infinite`).
    const SETTINGS: &'static [&'static str] = &[];
    /// Random games of the game the main job plays.
    const MAIN_JOB_GAMES: u64;
    /// The game's own games.csv columns, between `end_clause` and `moves_hash`.
    const COLUMNS: &'static [&'static str];
    /// A rule reading: every choice the sources leave open, decided.
    type Variant: Copy + std::fmt::Debug + Send + Sync + 'static;
    /// A move, with its action id.
    type Move: Copy + Eq + std::fmt::Debug + Send + Sync + Action;
    /// A position as the game's position text writes it (no history).
    type Position: Clone;
    /// The reference engine, which reads like the rules.
    type Reference: EngineOf<Self>;
    /// The optimized engine, built for speed; it plays the reference engine's moves.
    type Optimized: EngineOf<Self>;

    /// A row's numbers in [`Mancala::COLUMNS`], written to `out`; how many.
    fn own_numbers(row: &Row, out: &mut [u32; MAX_OWN_COLUMNS]) -> usize;
    /// Any `text` gives the game's move, transcript or position (as `what` says) or an error,
    /// never a panic, and what parses prints and parses back to itself (the fuzz targets'
    /// check); `Err` describes a failure.
    fn check_text(what: TextKind, text: &str) -> Result<(), String>;
    /// The start of the first line of the game's findings catalog (`spec/findings/<name>.md`).
    const CATALOG_TITLE: &'static str;
    /// Hunts the game's rule inconsistencies over `games` random games of `seed`, calling
    /// `done(g)` after game `g`; an error when a built witness no longer shows its finding.
    fn inconsistencies(
        games: u64,
        seed: u64,
        done: &mut dyn FnMut(u64),
    ) -> Result<Vec<crate::inconsistencies::Finding>, crate::inconsistencies::WitnessError>;
    /// What the game reads from the environment, checked before any command plays (e.g. a
    /// forced batch path this processor cannot run); none by default.
    fn check_environment() -> Result<(), String> {
        Ok(())
    }
    /// Whether the game has a batch engine (many games at a time in vector lanes).
    const BATCH: bool = false;
    /// The game's batch engine under `variant` on `paths` beside its scalar optimized engine,
    /// for games of `seed` of at most `max_plies` plies (`diff --batch`); or why there is none.
    fn batch_check(
        _variant: Self::Variant,
        _seed: u64,
        _max_plies: u32,
        _paths: &[crate::batch::BatchPath],
    ) -> Result<Box<dyn crate::batch::BatchCheck>, String> {
        Err(format!("{} has no batch engine", Self::KIND))
    }
    /// The game's sections of `bench` for `part` (none by default).
    fn bench(_bench: &mut dyn crate::bench::Bench, _part: crate::bench::BenchPart) {}
    /// The label and optimized engine `bench`'s search lines measure the policies on.
    fn search_bench() -> (&'static str, Self::Optimized);
    /// The game's text parsers `bench --parsers` times.
    fn bench_parsers() -> Vec<crate::bench::Parser> {
        Vec::new()
    }
    /// Why the game has no endgame databases, where it has none (`solve` says so before it
    /// reads a reading); `None` for a game whose engines have them ([`Game::retro`]).
    const NO_DATABASES: Option<&'static str> = None;
    /// The position exact play values under `variant`: the one `text` writes (the game's
    /// position text), or the game's start, with `per_pit` seeds in every pit where the game
    /// lets a start choose them (Oware; a reading that sets them ignores it); or why there is
    /// none.
    fn target(
        _variant: Self::Variant,
        _text: Option<&str>,
        _per_pit: Option<u8>,
    ) -> Result<Target, ExactError> {
        Err(ExactError::NoDatabases {
            reason: format!("{} has no endgame databases", Self::KIND),
        })
    }
    /// The reading a preset name gives, or why there is none.
    fn variant(preset: &str) -> Result<Self::Variant, EngineError>;
    /// The one name of `variant` where a reading can be written in several ways (Kalah's
    /// parameters); `None` where the name given is the only one.
    fn variant_name(_variant: &Self::Variant) -> Option<String> {
        None
    }
    /// `variant` with its setting `name` (e.g. Bao's `infinite`) set to `value`, or why not.
    fn set(variant: Self::Variant, name: &str, value: &str) -> Result<Self::Variant, String>;
    /// The reference engine of `variant`.
    fn reference(variant: Self::Variant) -> Self::Reference;
    /// The optimized engine of `variant`, or why it does not play that reading.
    fn optimized(variant: Self::Variant) -> Result<Self::Optimized, EngineError>;

    /// Vector environments of the optimized engine `engine` (docs/python.md): by default any
    /// engine's stepper ([`crate::vector::Engine`]); a game with a faster one of its own gives it.
    fn vector_envs(
        engine: Self::Optimized,
        spec: &crate::vector::EnvSpec,
        pool: crate::vector::Workers,
    ) -> Box<dyn crate::vector::VectorEnv>
    where
        Self: Sized + 'static,
    {
        crate::vector::envs(crate::vector::Engine::<Self, _>::new(engine), spec, pool)
    }
    /// `position` in the game's position text format.
    fn print(position: &Self::Position) -> String;
    /// `position` as numbers, for learning programs (docs/python.md).
    fn observation(position: &Self::Position) -> Vec<f32>;
    /// The formats of other engines' game records the game's audit reads.
    const RECORD_FORMATS: &'static [crate::audit::RecordFormat];
    /// A game record to audit.
    type Record;
    /// The records of the file `name` (its `text`, in `format`, one of
    /// [`Mancala::RECORD_FORMATS`]), each bad one as a message naming its place in the file.
    fn records(
        format: crate::audit::RecordFormat,
        name: &str,
        text: &str,
    ) -> Vec<Result<Self::Record, String>>;
    /// Where a record is (`file:line`, or the file).
    fn record_source(record: &Self::Record) -> &str;
    /// The audit of `record` under `variant`, or why the record cannot be audited.
    fn audit(
        variant: Self::Variant,
        record: &Self::Record,
    ) -> Result<crate::audit::GameAudit, String>;
    /// A reachable position under `variant` (random plies from the start) changed by `steps`
    /// random valid mutations, so that rare rule situations come up often (`diff --mutate`).
    fn mutated_start<R: rand::Rng>(
        variant: Self::Variant,
        steps: usize,
        rng: &mut R,
    ) -> Self::Position;
    /// Whether a result names the scores (the seeds each player took).
    const SCORED: bool;
    /// Why `written` is not a move in the game's notation, whatever the position.
    fn check_move(written: &str) -> Result<(), String>;
    /// The move `written` (in the game's notation, as a user writes it) names in `state`, played
    /// on the reference engine with its clause trace; or why it is no legal move there.
    fn play_written(
        engine: &Self::Reference,
        state: &RefState<Self>,
        written: &str,
    ) -> Result<Shown<Self>, MoveError>;
    /// The plies of a transcript of the game, read as far as the first fault (which ends it).
    fn transcript(text: &str) -> Box<dyn Iterator<Item = Result<WrittenPly, String>> + '_>;
    /// What a move's header says of the position besides the player to move (Bao: its stage).
    fn stage(_position: &Self::Position) -> Option<String> {
        None
    }
    /// The moves `moves` (canonical notation, in play order from the start) as a transcript
    /// that `replay` reads back.
    fn print_transcript(moves: &[String]) -> String;
    /// Where each pit of `position` is on its diagram ([`Mancala::draw`]), so that a page can
    /// make the pits of the drawing clickable.
    #[cfg(feature = "diagram")]
    fn pit_places(position: &Self::Position) -> Vec<PitPlace>;
    /// `state` drawn as SVG and, with a move (and its notation), that move's path and clause
    /// steps on it.
    #[cfg(feature = "diagram")]
    fn draw(
        engine: &Self::Reference,
        state: &RefState<Self>,
        mv: Option<(Self::Move, &str)>,
    ) -> Result<String, crate::diagram::DiagramError>;
}

/// A pit's place on a game's diagram, in the drawing's units: its name in the game's notation,
/// its centre and the radius of the disc that stands for it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PitPlace {
    /// The pit's name in the game's notation (`A6`, `c`).
    pub name: String,
    /// The centre's x.
    pub x: i32,
    /// The centre's y.
    pub y: i32,
    /// The radius.
    pub r: i32,
}

/// The names of a game's readings ([`GameKind::reading_names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReadingNames {
    /// The preset readings, the default first.
    pub presets: &'static [&'static str],
    /// The parameters a reading sets after its preset (`PRESET:NAME=VALUE,...`).
    pub parameters: &'static [&'static str],
    /// The settings taken beside the reading (Bao's `infinite`).
    pub settings: &'static [&'static str],
}

/// The state of the reference engine of the game `M`.
pub type RefState<M> = <<M as Mancala>::Reference as Game>::State;

/// A written move played on the reference engine ([`Mancala::play_written`]).
pub struct Shown<M: Mancala + ?Sized> {
    /// The move.
    pub mv: M::Move,
    /// Its canonical notation.
    pub notation: String,
    /// The state after it.
    pub state: RefState<M>,
    /// Its clause trace, one step a line.
    pub trace: Vec<String>,
}

/// Why a written move was not played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The text is no move in the game's notation (or names the other player's pit).
    Written(String),
    /// The move is not legal in the position.
    Illegal(String),
}

/// One ply of a transcript, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenPly {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The player the transcript says plays it.
    pub side: Side,
    /// How a message names it (e.g. `move 12 (North) 'a5>'`, `ply 3 'C'`).
    pub label: String,
    /// The move as written.
    pub text: String,
}

/// The reference engine's state after `moves` from `start` (position text; `None`: the game's
/// start).
pub fn replay<M: Mancala>(
    engine: &M::Reference,
    start: Option<&str>,
    moves: &[String],
) -> Result<RefState<M>, ShowError> {
    let mut state = match start {
        None => engine.start(),
        Some(text) => engine.state_from_text(text).map_err(ShowError::Replay)?,
    };
    for m in moves {
        state = M::play_written(engine, &state, m)
            .map_err(|e| ShowError::Replay(e.to_string()))?
            .state;
    }
    Ok(state)
}

/// A transcript's first fault, in its text or in play: where it is and what it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct TranscriptFault {
    /// 1-based line (0: the fault has no place, e.g. an empty transcript).
    pub line: usize,
    /// 1-based column (0 with `line`).
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl std::fmt::Display for TranscriptFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(
                f,
                "line {}, column {}: {}",
                self.line, self.column, self.message
            )
        }
    }
}

impl TranscriptFault {
    /// A fault of the transcript's text, as the game's parser words it (`line L, column C: ...`).
    fn of_text(e: String) -> TranscriptFault {
        let place = e.strip_prefix("line ").and_then(|rest| {
            let (line, rest) = rest.split_once(", column ")?;
            let (column, message) = rest.split_once(": ")?;
            Some((
                line.parse().ok()?,
                column.parse().ok()?,
                message.to_string(),
            ))
        });
        match place {
            Some((line, column, message)) => TranscriptFault {
                line,
                column,
                message,
            },
            None => TranscriptFault {
                line: 0,
                column: 0,
                message: e,
            },
        }
    }
}

/// Replays the transcript `text` from the start on the reference engine, as played: the first
/// fault, in the text or in play, ends it. The state reached and the moves in notation.
pub fn replay_transcript<M: Mancala>(
    engine: &M::Reference,
    text: &str,
) -> Result<(RefState<M>, Vec<String>), TranscriptFault> {
    let mut state = engine.start();
    let mut moves = Vec::new();
    for ply in M::transcript(text) {
        let ply = ply.map_err(TranscriptFault::of_text)?;
        let fault = |message: String| TranscriptFault {
            line: ply.line,
            column: ply.column,
            message,
        };
        let me = engine.to_move(&state);
        if engine.ending(&state).is_none() && ply.side != me {
            return Err(fault(format!("{}: {me} is to move", ply.label)));
        }
        let shown = M::play_written(engine, &state, &ply.text).map_err(|e| match e {
            MoveError::Written(e) => fault(format!("{}: {e}", ply.label)),
            MoveError::Illegal(e) => fault(format!("{} is illegal: {e}", ply.label)),
        })?;
        state = shown.state;
        moves.push(shown.notation);
    }
    Ok((state, moves))
}

/// The clause trace of `mv` (in notation) played after `moves` from `start` (position text;
/// `None`: the game's start) on the reference engine of `variant`, one step a line.
pub fn explain<M: Mancala>(
    variant: M::Variant,
    start: Option<&str>,
    moves: &[String],
    mv: &str,
) -> Result<Vec<String>, ShowError> {
    let engine = M::reference(variant);
    let state = replay::<M>(&engine, start, moves)?;
    M::play_written(&engine, &state, mv)
        .map(|shown| shown.trace)
        .map_err(|e| ShowError::Replay(e.to_string()))
}

/// The board after `moves` from `start` as an SVG diagram and, with `mv`, that move's path
/// and clause steps on it.
#[cfg(feature = "diagram")]
pub fn diagram<M: Mancala>(
    variant: M::Variant,
    start: Option<&str>,
    moves: &[String],
    mv: Option<&str>,
) -> Result<String, ShowError> {
    let engine = M::reference(variant);
    let state = replay::<M>(&engine, start, moves)?;
    let shown = mv
        .map(|mv| M::play_written(&engine, &state, mv))
        .transpose()
        .map_err(|e| ShowError::Replay(e.to_string()))?;
    M::draw(
        &engine,
        &state,
        shown.as_ref().map(|s| (s.mv, s.notation.as_str())),
    )
    .map_err(|e| ShowError::Drawing(e.to_string()))
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Written(e) | MoveError::Illegal(e) => f.write_str(e),
        }
    }
}

/// Which text a game's round-trip check reads ([`Mancala::check_text`], the fuzz targets' text checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// One move in the game's notation.
    Move,
    /// A transcript of a game.
    Transcript,
    /// A position in the game's position text.
    Position,
}

/// The most games.csv columns of a game's own.
pub const MAX_OWN_COLUMNS: usize = 12;

/// Every game's readings and default, for the help of `--variant`: `bao: default, literal-en,
/// engines, strict [default: default]; oware: ...`.
pub fn readings_help() -> String {
    let games: Vec<String> = GameKind::ALL
        .into_iter()
        .map(|g| format!("{g}: {} [default: {}]", g.readings(), g.default_variant()))
        .collect();
    games.join("; ")
}

/// A game's [`Mancala::own_numbers`].
pub type OwnNumbers = fn(&Row, &mut [u32; MAX_OWN_COLUMNS]) -> usize;

impl GameKind {
    /// The game's spec (`spec/<name>.md`), as built into the program.
    pub fn spec_text(self) -> &'static str {
        struct Spec;
        impl GameVisitor for Spec {
            type Output = &'static str;
            fn visit<M: Mancala>(self) -> &'static str {
                M::SPEC
            }
        }
        with_game(self, Spec)
    }

    /// Clause `id` of the game's spec: its title and its entry's text; `None` for no such clause.
    pub fn clause(self, id: &str) -> Option<(String, String)> {
        crate::spec::clause_text(self.name(), self.spec_text(), id)
    }

    /// The game's preset readings, the default first, the parameters a reading may set after
    /// its preset, and the settings taken beside the reading ([`Mancala::PRESETS`] and on).
    pub fn reading_names(self) -> ReadingNames {
        struct Names;
        impl GameVisitor for Names {
            type Output = ReadingNames;
            fn visit<M: Mancala>(self) -> ReadingNames {
                ReadingNames {
                    presets: M::PRESETS,
                    parameters: M::PARAMETERS,
                    settings: M::SETTINGS,
                }
            }
        }
        with_game(self, Names)
    }

    /// The game's readings as help texts list them ([`Mancala::READINGS`]).
    pub fn readings(self) -> &'static str {
        struct Readings;
        impl GameVisitor for Readings {
            type Output = &'static str;
            fn visit<M: Mancala>(self) -> &'static str {
                M::READINGS
            }
        }
        with_game(self, Readings)
    }

    /// The one name of the reading `text` names ([`Mancala::variant_name`]), so that a study
    /// records it the same way however it was written; `text` itself where it names no reading
    /// (the error comes where the reading is used) or has one name only.
    pub fn canonical_variant(self, text: &str) -> String {
        struct Name<'a>(&'a str);
        impl GameVisitor for Name<'_> {
            type Output = Option<String>;
            fn visit<M: Mancala>(self) -> Option<String> {
                M::variant(self.0).ok().and_then(|v| M::variant_name(&v))
            }
        }
        with_game(self, Name(text)).unwrap_or_else(|| text.to_string())
    }

    /// Random games of the game the main job plays.
    pub fn main_job_games(self) -> u64 {
        struct Games;
        impl GameVisitor for Games {
            type Output = u64;
            fn visit<M: Mancala>(self) -> u64 {
                M::MAIN_JOB_GAMES
            }
        }
        with_game(self, Games)
    }

    /// Whether the game has a batch engine ([`Mancala::BATCH`]).
    pub fn has_batch(self) -> bool {
        struct Batch;
        impl GameVisitor for Batch {
            type Output = bool;
            fn visit<M: Mancala>(self) -> bool {
                M::BATCH
            }
        }
        with_game(self, Batch)
    }

    /// Whether the game has endgame databases, or why not ([`Mancala::NO_DATABASES`]).
    pub fn databases(self) -> Result<(), &'static str> {
        struct Databases;
        impl GameVisitor for Databases {
            type Output = Option<&'static str>;
            fn visit<M: Mancala>(self) -> Option<&'static str> {
                M::NO_DATABASES
            }
        }
        with_game(self, Databases).map_or(Ok(()), Err)
    }

    /// The game's default rule reading (a preset name).
    pub fn default_variant(self) -> &'static str {
        struct Default;
        impl GameVisitor for Default {
            type Output = &'static str;
            fn visit<M: Mancala>(self) -> &'static str {
                M::DEFAULT_VARIANT
            }
        }
        with_game(self, Default)
    }
}

/// An engine of the game `M`: a [`Playouts`] engine whose states are positions of `M`.
pub trait EngineOf<M: Mancala + ?Sized>: Playouts<Move = M::Move> {
    /// Where `state` stands, as a position of the game; an error only if the state is no
    /// position (a bug of the engine).
    fn position(&self, state: &Self::State) -> Result<M::Position, String>;
}

/// Why a game could not be explained or drawn after moves its engine took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShowError {
    /// The replay on the reference engine failed (the engines disagree, or the start is bad).
    Replay(String),
    /// The diagram could not be drawn.
    Drawing(String),
}

/// Code run with one game's type: [`with_game`] calls `visit` with the game it is given.
pub trait GameVisitor {
    /// What the visit gives.
    type Output;
    /// The visit, with the game's type.
    fn visit<M: Mancala>(self) -> Self::Output;
}

/// Code run with one engine's type: [`with_engine`] calls `visit` with the engine it made.
pub trait EngineVisitor {
    /// What the visit gives.
    type Output;
    /// The visit, with the engine (typed, so that its calls are static).
    fn visit<G: Playouts>(self, engine: G) -> Self::Output;
}

/// Runs `visitor` with the type of `game`: the one place that lists the games.
pub fn with_game<V: GameVisitor>(game: GameKind, visitor: V) -> V::Output {
    match game {
        GameKind::Bao => visitor.visit::<crate::bao::Bao>(),
        GameKind::Oware => visitor.visit::<crate::oware::Oware>(),
        GameKind::Kalah => visitor.visit::<crate::kalah::Kalah>(),
    }
}

/// Runs `visitor` with the engine `kind` of `game` under the preset `variant`, or says why
/// there is none.
pub fn with_engine<V: EngineVisitor>(
    game: GameKind,
    variant: &str,
    kind: EngineKind,
    visitor: V,
) -> Result<V::Output, EngineError> {
    struct Visit<'a, V> {
        variant: &'a str,
        kind: EngineKind,
        visitor: V,
    }
    impl<V: EngineVisitor> GameVisitor for Visit<'_, V> {
        type Output = Result<V::Output, EngineError>;
        fn visit<M: Mancala>(self) -> Self::Output {
            let v = M::variant(self.variant)?;
            Ok(match self.kind {
                EngineKind::Reference => self.visitor.visit(M::reference(v)),
                EngineKind::Optimized => self.visitor.visit(M::optimized(v)?),
            })
        }
    }
    with_game(
        game,
        Visit {
            variant,
            kind,
            visitor,
        },
    )
}

/// The engine `kind` of `game` under the preset `variant`, to be kept and played at run time,
/// or why there is none.
pub fn engine(
    game: GameKind,
    variant: &str,
    kind: EngineKind,
) -> Result<Box<dyn PlayoutEngine>, EngineError> {
    struct Boxed;
    impl EngineVisitor for Boxed {
        type Output = Box<dyn PlayoutEngine>;
        fn visit<G: Playouts>(self, engine: G) -> Self::Output {
            Box::new(engine)
        }
    }
    with_engine(game, variant, kind, Boxed)
}

/// Why there is no exact play ([`retro`], [`target`]) for a game, reading or position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    /// No engine plays the reading: not a reading of the game, or one the engine refuses.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The reading has no endgame databases (the game has none, or it leaves a point open).
    #[error("{reason}")]
    NoDatabases {
        /// Why not, as the game's engine says it.
        reason: String,
    },
    /// The text is no position of the game.
    #[error("{message}")]
    Position {
        /// What is wrong with it, as the game's parser says it.
        message: String,
    },
}

/// The endgame databases' moves of `game` under the reading `variant` (a preset name, as
/// [`with_engine`] takes it), played by its engine `kind` ([`Game::retro`]), and whether its
/// play can go round in circles; or why there are none. A reading without databases is said so
/// whichever engine is asked for (the reference engine says why), before an engine that does
/// not play the reading.
pub fn retro(
    game: GameKind,
    variant: &str,
    kind: EngineKind,
) -> Result<(Box<dyn Retro>, bool), ExactError> {
    struct Visit<'a> {
        variant: &'a str,
        kind: EngineKind,
    }
    impl GameVisitor for Visit<'_> {
        type Output = Result<(Box<dyn Retro>, bool), ExactError>;
        fn visit<M: Mancala>(self) -> Self::Output {
            let v = M::variant(self.variant)?;
            let reference = M::reference(v);
            let no_databases = |reason| ExactError::NoDatabases { reason };
            match self.kind {
                EngineKind::Reference => reference.retro().map_err(no_databases),
                EngineKind::Optimized => match M::optimized(v) {
                    Ok(optimized) => optimized.retro().map_err(no_databases),
                    Err(refused) => {
                        reference.retro().map_err(no_databases)?;
                        Err(refused.into())
                    }
                },
            }
        }
    }
    with_game(game, Visit { variant, kind })
}

/// The position exact play values in `game` under the reading `variant` ([`Mancala::target`]):
/// the one `text` writes, or the game's start (with `per_pit` seeds a pit where the game takes
/// it).
pub fn target(
    game: GameKind,
    variant: &str,
    text: Option<&str>,
    per_pit: Option<u8>,
) -> Result<Target, ExactError> {
    struct Visit<'a> {
        variant: &'a str,
        text: Option<&'a str>,
        per_pit: Option<u8>,
    }
    impl GameVisitor for Visit<'_> {
        type Output = Result<Target, ExactError>;
        fn visit<M: Mancala>(self) -> Self::Output {
            M::target(M::variant(self.variant)?, self.text, self.per_pit)
        }
    }
    with_game(
        game,
        Visit {
            variant,
            text,
            per_pit,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_refused_with_the_reason() {
        use EngineKind::{Optimized, Reference};
        let refused = |game, variant, kind| engine(game, variant, kind).err().unwrap();
        assert!(matches!(
            refused(GameKind::Bao, "nope", Reference),
            EngineError::Reading(_)
        ));
        assert!(matches!(
            refused(GameKind::Bao, "strict", Optimized),
            EngineError::Unsupported(_)
        ));
        assert!(matches!(
            refused(GameKind::Oware, "nope", Optimized),
            EngineError::Reading(_)
        ));
        let strict = refused(GameKind::Oware, "strict", Optimized);
        assert!(matches!(strict, EngineError::Unsupported(_)));
        assert_eq!(
            strict.to_string(),
            "the optimized Oware engine does not support readings that leave a point open \
             (preset strict): it has no 'rules silent' outcome; use the reference engine"
        );
        assert!(engine(GameKind::Oware, "strict", Reference).is_ok());
    }

    #[test]
    fn a_game_says_it_has_no_databases_where_its_engines_have_none() {
        for game in GameKind::ALL {
            let found = retro(game, game.default_variant(), EngineKind::Reference);
            assert_eq!(game.databases().is_ok(), found.is_ok(), "{game}");
        }
        assert!(matches!(
            retro(GameKind::Oware, "strict", EngineKind::Optimized),
            Err(ExactError::NoDatabases { .. })
        ));
    }

    #[test]
    fn exact_targets_are_read_through_the_registry() {
        let kalah = target(GameKind::Kalah, "openspiel:pits=3,seeds=2", None, None).unwrap();
        assert_eq!(kalah.board[..6], [2; 6]);
        assert_eq!(kalah.pit_names, ['A', 'B', 'C']);
        assert_eq!(kalah.start.as_deref(), Some("the start of Kalah(3,2)"));
        let oware = target(GameKind::Oware, "sheet:first-player=north", None, Some(1)).unwrap();
        assert_eq!((oware.board, oware.to_move), ([1; 12], Side::North));
        assert_eq!(oware.pit_names, "abcdef".chars().collect::<Vec<_>>());
        let text = "to_move: North\nscores: 20 22\nnorth: 0 1 0 2 0 0\nsouth: 1 0 1 0 1 0\n";
        let written = target(GameKind::Oware, "sheet", Some(text), None).unwrap();
        assert_eq!(written.board, [0, 0, 2, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
        assert_eq!((written.won, written.start), ([20, 22], None));
        assert!(matches!(
            target(GameKind::Oware, "sheet", Some("garbage"), None),
            Err(ExactError::Position { .. })
        ));
        assert!(matches!(
            target(GameKind::Bao, "default", None, None),
            Err(ExactError::NoDatabases { .. })
        ));
    }

    #[test]
    fn every_game_is_registered_under_its_kind() {
        struct Kind;
        impl GameVisitor for Kind {
            type Output = GameKind;
            fn visit<M: Mancala>(self) -> GameKind {
                M::KIND
            }
        }
        for game in GameKind::ALL {
            assert_eq!(with_game(game, Kind), game);
        }
    }
}
