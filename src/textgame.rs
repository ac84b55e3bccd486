//! A game played one move at a time through text (position text in, canonical move notation in
//! and out, a move's clause trace), on any engine of any registered game picked at run time: the
//! layer front ends such as the Python package (`python/`) stand on, so that they hold no rule code.

use std::fmt;

use crate::game::{Action, Ending};
use crate::playout::{EngineKind, PlayoutEngine};
use crate::registry::GameKind;
use crate::registry::{with_game, EngineOf, GameVisitor, Mancala, ShowError};
use crate::side::Side;
use crate::text::quoted;

/// Why a text game refused a reading, a position or a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextGameError {
    /// The reading (variant, infinite-move definition, engine) is not one the game has.
    #[error("{0}")]
    Reading(String),
    /// The position text does not parse, or is not a position of the game.
    #[error("position: {0}")]
    Position(String),
    /// A diagram could not be drawn.
    #[error("{0}")]
    Drawing(String),
    /// The move is not one of the legal moves of the position.
    #[error("move {} is not legal here (legal: {legal})", quoted(.mv))]
    Illegal {
        /// The move as given.
        mv: String,
        /// The legal moves, or why there are none.
        legal: String,
    },
}

impl From<ShowError> for TextGameError {
    fn from(e: ShowError) -> TextGameError {
        match e {
            ShowError::Replay(e) => {
                TextGameError::Position(format!("replay on the reference engine: {e}"))
            }
            ShowError::Drawing(e) => TextGameError::Drawing(e),
        }
    }
}

/// One engine of the game `M` under one reading, with its state.
struct Typed<M: Mancala, G: EngineOf<M>> {
    variant: M::Variant,
    game: G,
    state: G::State,
}

impl<M: Mancala, G: EngineOf<M>> Clone for Typed<M, G> {
    fn clone(&self) -> Self {
        Typed {
            variant: self.variant,
            game: self.game.clone(),
            state: self.state.clone(),
        }
    }
}

/// What a text game asks of its engine, whichever game and engine it is.
trait Playing: Send + Sync {
    /// A copy of the engine and its state.
    fn boxed_clone(&self) -> Box<dyn Playing>;
    /// The same engine at the position `text`, or why that is no position of the game.
    fn at(&self, text: &str) -> Result<Box<dyn Playing>, String>;
    /// The same engine at the game's start.
    fn restart(&self) -> Box<dyn Playing>;
    /// The engine, for playing many games at once.
    fn playout_engine(&self) -> Box<dyn PlayoutEngine>;
    /// The legal moves and their notation, in the engine's order.
    fn legal(&self) -> Vec<String>;
    /// The legal moves as (action id, notation), by id.
    fn legal_actions(&self) -> Vec<(u32, String)>;
    /// How many action ids the game has.
    fn action_count(&self) -> u32;
    /// Plays the move written `text`: its canonical notation and, for a move that reaches a
    /// point the reading leaves open, the silent clause (the state is then unusable).
    fn play(&mut self, text: &str) -> Result<(String, Option<&'static str>), TextGameError>;
    /// The player to move.
    fn to_move(&self) -> Side;
    /// The ending, once the game is over.
    fn ending(&self) -> Option<Ending>;
    /// The scores, South's first.
    fn scores(&self) -> [u32; 2];
    /// The position in the game's text format.
    fn position_text(&self) -> Result<String, String>;
    /// The position as numbers.
    fn observation(&self) -> Result<Vec<f32>, String>;
    /// Where each pit is on the position's diagram.
    #[cfg(feature = "diagram")]
    fn pit_places(&self) -> Result<Vec<crate::registry::PitPlace>, String>;
    /// `moves` as the game's transcript.
    fn print_transcript(&self, moves: &[String]) -> String;
    /// The moves of the transcript `text`, replayed from the start on the reference engine.
    fn transcript(&self, text: &str) -> Result<Vec<String>, crate::registry::TranscriptFault>;
    /// Each legal move's exact value by the endgame databases, or why there are none.
    fn move_values(&self, budget: u32) -> Result<Option<Vec<(String, i8)>>, String>;
    /// The move `policy` chooses here with the draws of ply `ply` of game 0 of `seed`, and what
    /// its search did; a search gives up once `stop` is set (the best move so far).
    fn choose(
        &self,
        policy: crate::policy::Policy,
        seed_ply: (u64, u32),
        stop: &'static std::sync::atomic::AtomicBool,
    ) -> Result<Chosen, String>;
    /// The clause trace of `mv` after `moves` from `start`, on the reference engine.
    fn explain(
        &self,
        start: Option<&str>,
        moves: &[String],
        mv: &str,
    ) -> Result<Vec<String>, ShowError>;
    /// The diagram after `moves` from `start`, with `mv` drawn when given.
    #[cfg(feature = "diagram")]
    fn diagram(
        &self,
        start: Option<&str>,
        moves: &[String],
        mv: Option<&str>,
    ) -> Result<String, ShowError>;
}

impl<M: Mancala, G: EngineOf<M>> Playing for Typed<M, G> {
    fn boxed_clone(&self) -> Box<dyn Playing> {
        Box::new(self.clone())
    }

    fn at(&self, text: &str) -> Result<Box<dyn Playing>, String> {
        Ok(Box::new(Typed::<M, G> {
            variant: self.variant,
            game: self.game.clone(),
            state: self.game.state_from_text(text)?,
        }))
    }

    fn restart(&self) -> Box<dyn Playing> {
        typed::<M, G>(self.variant, self.game.clone())
    }

    fn playout_engine(&self) -> Box<dyn PlayoutEngine> {
        Box::new(self.game.clone())
    }

    fn legal(&self) -> Vec<String> {
        self.moves().into_iter().map(|(_, n)| n).collect()
    }

    fn legal_actions(&self) -> Vec<(u32, String)> {
        let mut all: Vec<(u32, String)> = self
            .moves()
            .into_iter()
            .map(|(m, n)| (m.action(), n))
            .collect();
        all.sort_unstable();
        all
    }

    fn action_count(&self) -> u32 {
        M::Move::COUNT
    }

    fn play(&mut self, text: &str) -> Result<(String, Option<&'static str>), TextGameError> {
        let legal = self.moves();
        let Some((mv, written)) = legal.iter().find(|(_, n)| n == text).cloned() else {
            let names: Vec<&str> = legal.iter().map(|(_, n)| n.as_str()).collect();
            return Err(TextGameError::Illegal {
                mv: text.to_string(),
                legal: if names.is_empty() {
                    "none, the game is over".into()
                } else {
                    names.join(" ")
                },
            });
        };
        let silent = self.game.play_in_place(&mut self.state, mv).err();
        Ok((written, silent.map(|s| s.0)))
    }

    fn to_move(&self) -> Side {
        self.game.to_move(&self.state)
    }

    fn ending(&self) -> Option<Ending> {
        self.game.ending(&self.state)
    }

    fn scores(&self) -> [u32; 2] {
        self.game.scores(&self.state)
    }

    fn position_text(&self) -> Result<String, String> {
        self.game.position(&self.state).map(|p| M::print(&p))
    }

    fn observation(&self) -> Result<Vec<f32>, String> {
        self.game.position(&self.state).map(|p| M::observation(&p))
    }

    #[cfg(feature = "diagram")]
    fn pit_places(&self) -> Result<Vec<crate::registry::PitPlace>, String> {
        self.game.position(&self.state).map(|p| M::pit_places(&p))
    }

    fn print_transcript(&self, moves: &[String]) -> String {
        M::print_transcript(moves)
    }

    fn transcript(&self, text: &str) -> Result<Vec<String>, crate::registry::TranscriptFault> {
        let engine = M::reference(self.variant);
        crate::registry::replay_transcript::<M>(&engine, text).map(|(_, moves)| moves)
    }

    fn move_values(&self, budget: u32) -> Result<Option<Vec<(String, i8)>>, String> {
        let mut player = crate::policy::perfect::Player::new(&self.game)?;
        Ok(player
            .move_values(&self.game, &self.state, budget)
            .map(|values| {
                values
                    .into_iter()
                    .map(|(m, v)| (self.game.notation(&self.state, m), v))
                    .collect()
            }))
    }

    fn choose(
        &self,
        policy: crate::policy::Policy,
        (seed, ply): (u64, u32),
        stop: &'static std::sync::atomic::AtomicBool,
    ) -> Result<Chosen, String> {
        use crate::policy::{choose, Policy, Scratch};
        if matches!(policy, Policy::Perfect(_)) {
            crate::policy::perfect::prepare(&self.game)?;
        }
        let mut scratch = Scratch::stopping_on(stop);
        let mut played = self.state.clone();
        let draw = crate::game::Draw::new(crate::game::game_keys(seed, 0), ply);
        let chosen = choose(&self.game, policy, &mut played, draw, &mut scratch);
        let info = scratch.report(policy);
        match chosen {
            Some(Ok((mv, _))) => Ok(Chosen {
                mv: self.game.notation(&self.state, mv),
                info,
                stopped: stop.load(std::sync::atomic::Ordering::SeqCst),
            }),
            Some(Err(silent)) => Err(format!(
                "the move chosen reaches a point the reading leaves open ({})",
                silent.0
            )),
            None => Err(scratch.failure().map_or(
                "no legal move: the game is over".to_string(),
                str::to_string,
            )),
        }
    }

    fn explain(
        &self,
        start: Option<&str>,
        moves: &[String],
        mv: &str,
    ) -> Result<Vec<String>, ShowError> {
        crate::registry::explain::<M>(self.variant, start, moves, mv)
    }

    #[cfg(feature = "diagram")]
    fn diagram(
        &self,
        start: Option<&str>,
        moves: &[String],
        mv: Option<&str>,
    ) -> Result<String, ShowError> {
        crate::registry::diagram::<M>(self.variant, start, moves, mv)
    }
}

impl<M: Mancala, G: EngineOf<M>> Typed<M, G> {
    /// The legal moves with their notation, in the engine's order.
    fn moves(&self) -> Vec<(M::Move, String)> {
        let mut moves = Vec::new();
        self.game.legal_moves(&self.state, &mut moves);
        moves
            .into_iter()
            .map(|m| (m, self.game.notation(&self.state, m)))
            .collect()
    }
}

/// A policy's move ([`TextGame::choose`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The move, in canonical notation.
    pub mv: String,
    /// What the policy's search did, as the bot's `info` line says it (`None`: no search).
    pub info: Option<String>,
    /// Whether the stop flag ended the search (the move is then the best found so far).
    pub stopped: bool,
}

/// A game under way: its engine and reading, the position it started from, the moves played
/// and the state they lead to. Cloning copies the game at this point.
pub struct TextGame {
    kind: GameKind,
    engine: EngineKind,
    /// The position text the game started from; `None` for the game's start.
    start: Option<String>,
    moves: Vec<String>,
    /// Set when the last move reached a point the reading leaves open (its clause): the game
    /// stopped there, with no result, in the position before that move.
    silent: Option<&'static str>,
    inner: Box<dyn Playing>,
}

impl Clone for TextGame {
    fn clone(&self) -> TextGame {
        TextGame {
            kind: self.kind,
            engine: self.engine,
            start: self.start.clone(),
            moves: self.moves.clone(),
            silent: self.silent,
            inner: self.inner.boxed_clone(),
        }
    }
}

impl fmt::Debug for TextGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TextGame")
            .field("game", &self.kind)
            .field("engine", &self.engine)
            .field("moves", &self.moves)
            .finish()
    }
}

/// The engine of a new text game: the reading and engine asked for, at the game's start.
struct Start<'a> {
    variant: &'a str,
    infinite: Option<&'a str>,
    engine: Option<EngineKind>,
}

impl GameVisitor for Start<'_> {
    type Output = Result<(Box<dyn Playing>, EngineKind), TextGameError>;

    fn visit<M: Mancala>(self) -> Self::Output {
        let reading = TextGameError::Reading;
        let mut v = M::variant(self.variant).map_err(|e| reading(format!("variant: {e}")))?;
        if let Some(inf) = self.infinite {
            v = M::set(v, "infinite", inf).map_err(|e| reading(format!("infinite: {e}")))?;
        }
        if self.engine != Some(EngineKind::Reference) {
            match (M::optimized(v), self.engine) {
                (Ok(game), _) => return Ok((typed::<M, _>(v, game), EngineKind::Optimized)),
                (Err(e), Some(_)) => return Err(reading(e.to_string())),
                (Err(_), None) => {}
            }
        }
        Ok((typed::<M, _>(v, M::reference(v)), EngineKind::Reference))
    }
}

/// `game` at its start, under `variant`.
fn typed<M: Mancala, G: EngineOf<M>>(variant: M::Variant, game: G) -> Box<dyn Playing> {
    Box::new(Typed::<M, G> {
        variant,
        state: game.start(),
        game,
    })
}

impl TextGame {
    /// A game of `kind` from its start, under the preset `variant` (Bao: `infinite`, when given,
    /// overrides the reading's definition of an infinite move, as `exact` or `sown:N`), played by
    /// `engine` (`None`: the optimized engine where it plays the reading, else the reference).
    pub fn new(
        kind: GameKind,
        variant: &str,
        infinite: Option<&str>,
        engine: Option<EngineKind>,
    ) -> Result<TextGame, TextGameError> {
        let start = Start {
            variant,
            infinite,
            engine,
        };
        let (inner, engine) = with_game(kind, start)?;
        Ok(TextGame {
            kind,
            engine,
            start: None,
            moves: Vec::new(),
            silent: None,
            inner,
        })
    }

    /// The same game and engine from the position `text` (the game's position text format),
    /// with no moves played.
    pub fn from_position(&self, text: &str) -> Result<TextGame, TextGameError> {
        // A byte-order mark some editors write is no part of the position (as on the command line).
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let bad = |e: String| TextGameError::Position(e);
        // Read as one line, a comment would swallow the lines after a lone CR unseen.
        crate::text::check_line_ends(text).map_err(bad)?;
        Ok(TextGame {
            kind: self.kind,
            engine: self.engine,
            start: Some(text.to_string()),
            moves: Vec::new(),
            silent: None,
            inner: self.inner.at(text).map_err(bad)?,
        })
    }

    /// The same game and engine from the start, with the moves of the transcript `text` (the
    /// game's transcript format, as `replay` reads it) played; its first fault, in the text or
    /// in play, with its line and column.
    pub fn from_transcript(
        &self,
        text: &str,
    ) -> Result<TextGame, crate::registry::TranscriptFault> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        crate::text::check_line_ends(text).map_err(|message| crate::registry::TranscriptFault {
            line: 0,
            column: 0,
            message,
        })?;
        let moves = self.inner.transcript(text)?;
        let mut game = TextGame {
            kind: self.kind,
            engine: self.engine,
            start: None,
            moves: Vec::new(),
            silent: None,
            inner: self.inner.boxed_clone(),
        };
        game.inner = game.inner.restart();
        for mv in &moves {
            game.play(mv)
                .map_err(|e| crate::registry::TranscriptFault {
                    line: 0,
                    column: 0,
                    message: e.to_string(),
                })?;
        }
        Ok(game)
    }

    /// The move `policy` would play here (the game does not change), its random choices those
    /// of ply `moves().len()` of game 0 of `seed`; a search gives up once `stop` is set and
    /// answers with the best move found so far. An error when the policy cannot play here (no
    /// legal move, or `perfect` without its databases).
    pub fn choose(
        &self,
        policy: crate::policy::Policy,
        seed: u64,
        stop: &'static std::sync::atomic::AtomicBool,
    ) -> Result<Chosen, String> {
        if self.silent.is_some() || self.ending().is_some() {
            return Err("no legal move: the game is over".to_string());
        }
        let ply = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
        self.inner.choose(policy, (seed, ply), stop)
    }

    /// The exact value of each legal move (seeds won from here on by the mover, as the endgame
    /// databases count them), from the databases the `perfect` policy reads, with a search of
    /// at most `budget` boards beyond them; `Ok(None)` where they do not reach, an error where
    /// the game and reading have none.
    pub fn move_values(&self, budget: u32) -> Result<Option<Vec<(String, i8)>>, String> {
        if self.silent.is_some() {
            return Ok(Some(Vec::new()));
        }
        self.inner.move_values(budget)
    }

    /// The moves played as the game's transcript (what `replay` and
    /// [`TextGame::from_transcript`] read); a game started from a position gives that position
    /// first as comment lines, which a replay from the start does not read.
    pub fn transcript(&self) -> String {
        let moves = self.inner.print_transcript(&self.moves);
        match &self.start {
            None => moves,
            Some(start) => {
                let mut out = String::from("# started from this position, not the game's start:\n");
                for line in start.lines() {
                    out.push_str(&format!("# {line}\n"));
                }
                out + &moves
            }
        }
    }

    /// The game.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// The engine that plays.
    pub fn engine(&self) -> EngineKind {
        self.engine
    }

    /// The engine of this game and reading, for playing many games at once
    /// (`play_parallel` of [`PlayoutEngine`]).
    pub fn playout_engine(&self) -> Box<dyn PlayoutEngine> {
        self.inner.playout_engine()
    }

    /// The legal moves in canonical notation and order; empty once the game is over.
    pub fn legal_moves(&self) -> Vec<String> {
        if self.silent.is_some() {
            return Vec::new();
        }
        self.inner.legal()
    }

    /// Plays the move written `mv` (canonical notation, as [`TextGame::legal_moves`] gives it).
    /// On an error the game is unchanged. A move that reaches a point the reading leaves open
    /// (the `strict` readings) ends the game there with no result (`ending` says which clause is
    /// silent), in the position before the move, as the stats job ends such a game.
    pub fn play(&mut self, mv: &str) -> Result<(), TextGameError> {
        if self.silent.is_some() {
            return Err(TextGameError::Illegal {
                mv: mv.to_string(),
                legal: "none, the game is over".into(),
            });
        }
        let mut next = self.inner.boxed_clone();
        let (written, silent) = next.play(mv)?;
        match silent {
            None => self.inner = next,
            Some(clause) => self.silent = Some(clause),
        }
        self.moves.push(written);
        Ok(())
    }

    /// How many action ids the game has: 64 for Bao, 6 for Oware ([`Action`]).
    pub fn action_count(&self) -> u32 {
        self.inner.action_count()
    }

    /// The legal moves as (action id, canonical notation), by action id.
    pub fn legal_actions(&self) -> Vec<(u32, String)> {
        if self.silent.is_some() {
            return Vec::new();
        }
        self.inner.legal_actions()
    }

    /// Plays the legal move whose action id is `action`. On an error the game is unchanged.
    pub fn play_action(&mut self, action: u32) -> Result<(), TextGameError> {
        let legal = self.legal_actions();
        match legal.iter().find(|(a, _)| *a == action) {
            Some((_, mv)) => self.play(&mv.clone()),
            None => Err(TextGameError::Illegal {
                mv: format!("action {action}"),
                legal: if legal.is_empty() {
                    "none, the game is over".into()
                } else {
                    let ids: Vec<String> = legal.iter().map(|(a, _)| a.to_string()).collect();
                    ids.join(" ")
                },
            }),
        }
    }

    /// The position as numbers, for learning programs (docs/python.md has each game's layout).
    pub fn observation(&self) -> Vec<f32> {
        self.inner
            .observation()
            .expect("the engine's state is a position of the game")
    }

    /// The moves played, in canonical notation.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The player to move.
    pub fn to_move(&self) -> Side {
        self.inner.to_move()
    }

    /// The ending once the game is over: the verdict and its clause.
    pub fn ending(&self) -> Option<Ending> {
        if let Some(clause) = self.silent {
            return Some(Ending {
                verdict: crate::game::Verdict::RulesSilent,
                clause,
            });
        }
        self.inner.ending()
    }

    /// The scores (Oware: seeds taken, after any final sweep; Bao: seeds on each side), South's
    /// first.
    pub fn scores(&self) -> [u32; 2] {
        self.inner.scores()
    }

    /// The position in the game's text format.
    pub fn position_text(&self) -> String {
        self.inner
            .position_text()
            .unwrap_or_else(|e| format!("invalid position: {e}\n"))
    }

    /// The position text the game started from; `None` for the game's own start.
    pub fn start_text(&self) -> Option<&str> {
        self.start.as_deref()
    }

    /// The clause trace of `mv` played here, one step a line, as the reference engine gives it
    /// (the game is replayed on the reference engine from its start, so that a history the
    /// rules read is the game's own). The game does not change.
    /// A move that reaches a point the reading leaves open has one step: the silent clause, and
    /// why the reference engine stops there.
    pub fn explain(&self, mv: &str) -> Result<Vec<String>, TextGameError> {
        // The move is checked here first: the error is the one `play` gives.
        let mut after = self.clone();
        after.play(mv)?;
        match self
            .inner
            .explain(self.start.as_deref(), self.moves_to_position(), mv)
        {
            Ok(trace) => Ok(trace),
            Err(ShowError::Replay(why)) if after.silent.is_some() => Ok(vec![format!(
                "[{} {}] {why}",
                self.kind.name(),
                after.silent.unwrap_or_default()
            )]),
            Err(e) => Err(e.into()),
        }
    }

    /// The board as an SVG diagram (as `mancala-lab bao diagram` draws it) and, with `mv`, that
    /// move's path and clause steps on it. The game does not change.
    #[cfg(feature = "diagram")]
    pub fn diagram(&self, mv: Option<&str>) -> Result<String, TextGameError> {
        if let Some(mv) = mv {
            self.clone().play(mv)?;
        }
        Ok(self
            .inner
            .diagram(self.start.as_deref(), self.moves_to_position(), mv)?)
    }

    /// Where each pit is on the diagram [`TextGame::diagram`] draws (the drawing's units).
    #[cfg(feature = "diagram")]
    pub fn pit_places(&self) -> Vec<crate::registry::PitPlace> {
        self.inner
            .pit_places()
            .expect("the engine's state is a position of the game")
    }

    /// The legal moves in canonical order, each with the pit it is played from: the longest
    /// pit name of the diagram its notation starts with (every game writes a move from its pit).
    #[cfg(feature = "diagram")]
    pub fn legal_moves_by_pit(&self) -> Vec<(String, Option<String>)> {
        let places = self.pit_places();
        self.legal_moves()
            .into_iter()
            .map(|mv| {
                let pit = places
                    .iter()
                    .filter(|p| mv.starts_with(&p.name))
                    .max_by_key(|p| p.name.len())
                    .map(|p| p.name.clone());
                (mv, pit)
            })
            .collect()
    }

    /// The moves that lead to the position: all but a last one the reading is silent on.
    fn moves_to_position(&self) -> &[String] {
        let n = self.moves.len() - usize::from(self.silent.is_some());
        &self.moves[..n]
    }
}
