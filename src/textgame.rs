//! A game played one move at a time through text (position text in, canonical move notation in
//! and out, a move's clause trace), on any engine of either game picked at run time: the layer
//! front ends such as the Python package (`python/`) stand on, so that they hold no rule code.

use std::fmt;

use crate::bao;
use crate::game::{Ending, Game, GameKind};
use crate::oware;
use crate::playout::{AnyEngine, EngineKind};
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

/// A rule reading of one game: the preset and, for Bao, the definition of an infinite move.
#[derive(Clone, Copy, Debug)]
enum Reading {
    Bao(bao::Variant),
    Oware(oware::Variant),
}

/// One engine with its state.
#[derive(Clone)]
struct Typed<G: Game> {
    game: G,
    state: G::State,
}

#[derive(Clone)]
enum Inner {
    BaoReference(Typed<bao::Rules>),
    BaoOptimized(Typed<bao::fast::FastRules>),
    OwareReference(Typed<oware::Rules>),
    /// With its reading, which the batch engine needs too.
    OwareOptimized(Typed<oware::fast::FastRules>, oware::Variant),
}

/// Runs `$body` with `$t` bound to the engine and state of `$inner`, whichever they are.
macro_rules! each {
    ($inner:expr, $t:ident => $body:expr) => {
        match $inner {
            Inner::BaoReference($t) => $body,
            Inner::BaoOptimized($t) => $body,
            Inner::OwareReference($t) => $body,
            Inner::OwareOptimized($t, _) => $body,
        }
    };
}

/// A game under way: its engine and reading, the position it started from, the moves played
/// and the state they lead to. Cloning copies the game at this point.
#[derive(Clone)]
pub struct TextGame {
    kind: GameKind,
    reading: Reading,
    engine: EngineKind,
    /// The position text the game started from; `None` for the game's start.
    start: Option<String>,
    moves: Vec<String>,
    /// Set when the last move reached a point the reading leaves open (its clause): the game
    /// stopped there, with no result, in the position before that move.
    silent: Option<&'static str>,
    inner: Inner,
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

/// A move as an action id: the stable integer of a move for front ends such as OpenSpiel
/// (docs/python.md).
pub trait Action: Copy {
    /// How many action ids the game has (ids are `0..COUNT`).
    const COUNT: u32;
    /// The move's id.
    fn action(self) -> u32;
}

impl Action for bao::Move {
    /// 64: the mover's 16 pits (front row 1-8, then back row 1-8), by hand, by house decision.
    const COUNT: u32 = 64;

    fn action(self) -> u32 {
        let row = match self.pit.row() {
            bao::board::Row::Front => 0,
            bao::board::Row::Back => 1,
        };
        let pit = row * 8 + u32::from(self.pit.number()) - 1;
        let hand = match self.hand {
            bao::board::Hand::Left => 0,
            bao::board::Hand::Right => 1,
        };
        (pit * 2 + hand) * 2 + u32::from(self.play_house)
    }
}

impl Action for oware::Move {
    /// 6: the mover's pits from its left (A-F for South, a-f for North).
    const COUNT: u32 = 6;

    fn action(self) -> u32 {
        u32::from(self.pit)
    }
}

impl<G: Game> Typed<G>
where
    G::Move: Action,
{
    /// The legal moves as (action id, notation), by id.
    fn legal_actions(&self) -> Vec<(u32, String)> {
        let mut all: Vec<(u32, String)> = self
            .legal()
            .into_iter()
            .map(|(m, n)| (m.action(), n))
            .collect();
        all.sort_unstable();
        all
    }
}

impl<G: Game> Typed<G> {
    fn legal(&self) -> Vec<(G::Move, String)> {
        let mut moves = Vec::new();
        self.game.legal_moves(&self.state, &mut moves);
        moves
            .into_iter()
            .map(|m| (m, self.game.notation(&self.state, m)))
            .collect()
    }

    /// Plays the move written `text`: its canonical notation and, for a move that reaches a point
    /// the reading leaves open, the silent clause (the state is then unusable).
    fn play(&mut self, text: &str) -> Result<(String, Option<&'static str>), TextGameError> {
        let legal = self.legal();
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
        let reading = match kind {
            GameKind::Bao => {
                let mut v: bao::Variant = variant
                    .parse()
                    .map_err(|e| TextGameError::Reading(format!("variant: {e}")))?;
                if let Some(inf) = infinite {
                    let inf: bao::variant::InfiniteMoves = inf
                        .parse()
                        .map_err(|e| TextGameError::Reading(format!("infinite: {e}")))?;
                    v = v.with_infinite_moves(inf);
                }
                Reading::Bao(v)
            }
            GameKind::Oware => {
                if infinite.is_some() {
                    return Err(TextGameError::Reading(
                        "infinite: Oware has no infinite moves (a Bao setting)".into(),
                    ));
                }
                Reading::Oware(
                    variant
                        .parse()
                        .map_err(|e| TextGameError::Reading(format!("variant: {e}")))?,
                )
            }
        };
        let optimized = |engine: Option<EngineKind>| -> Result<Option<Inner>, TextGameError> {
            if engine == Some(EngineKind::Reference) {
                return Ok(None);
            }
            let made = match &reading {
                Reading::Bao(v) => bao::fast::FastRules::new(*v).map(|game| {
                    Inner::BaoOptimized(Typed {
                        state: game.start(),
                        game,
                    })
                }),
                Reading::Oware(v) => match oware::fast::FastRules::new(*v) {
                    Ok(game) => Ok(Inner::OwareOptimized(
                        Typed {
                            state: Game::start(&game),
                            game,
                        },
                        *v,
                    )),
                    Err(e) => {
                        return match engine {
                            Some(_) => Err(TextGameError::Reading(e.to_string())),
                            None => Ok(None),
                        }
                    }
                },
            };
            match (made, engine) {
                (Ok(inner), _) => Ok(Some(inner)),
                (Err(e), Some(_)) => Err(TextGameError::Reading(e.to_string())),
                (Err(_), None) => Ok(None),
            }
        };
        let (inner, engine) = match optimized(engine)? {
            Some(inner) => (inner, EngineKind::Optimized),
            None => (reference(&reading), EngineKind::Reference),
        };
        Ok(TextGame {
            kind,
            reading,
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
        let inner = match &self.inner {
            Inner::BaoReference(t) => Inner::BaoReference(Typed {
                game: t.game,
                state: bao::position_text::parse(text).map_err(|e| bad(e.to_string()))?,
            }),
            Inner::BaoOptimized(t) => {
                let pos = bao::position_text::parse(text).map_err(|e| bad(e.to_string()))?;
                Inner::BaoOptimized(Typed {
                    game: t.game,
                    state: bao::fast::FastState::new(bao::engines::to_fast(&pos)),
                })
            }
            Inner::OwareReference(t) => {
                let pos = oware::Position::parse(text).map_err(|e| bad(e.to_string()))?;
                Inner::OwareReference(Typed {
                    game: t.game,
                    state: t.game.game_from(pos),
                })
            }
            Inner::OwareOptimized(t, v) => {
                let pos = oware::Position::parse(text).map_err(|e| bad(e.to_string()))?;
                Inner::OwareOptimized(
                    Typed {
                        game: t.game,
                        state: t.game.game(
                            pos.pits(),
                            [pos.score(Side::South), pos.score(Side::North)],
                            pos.to_move().index() as u8,
                        ),
                    },
                    *v,
                )
            }
        };
        Ok(TextGame {
            start: Some(text.to_string()),
            moves: Vec::new(),
            silent: None,
            inner,
            ..self.clone()
        })
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
    /// ([`AnyEngine::play_parallel`]).
    pub fn playout_engine(&self) -> AnyEngine {
        match &self.inner {
            Inner::BaoReference(t) => AnyEngine::BaoReference(t.game),
            Inner::BaoOptimized(t) => AnyEngine::BaoOptimized(t.game),
            Inner::OwareReference(t) => AnyEngine::OwareReference(t.game),
            Inner::OwareOptimized(t, v) => AnyEngine::OwareOptimized(t.game, *v),
        }
    }

    /// The legal moves in canonical notation and order; empty once the game is over.
    pub fn legal_moves(&self) -> Vec<String> {
        if self.silent.is_some() {
            return Vec::new();
        }
        each!(&self.inner, t => t.legal().into_iter().map(|(_, n)| n).collect())
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
        let mut next = self.inner.clone();
        let (written, silent) = each!(&mut next, t => t.play(mv))?;
        match silent {
            None => self.inner = next,
            Some(clause) => self.silent = Some(clause),
        }
        self.moves.push(written);
        Ok(())
    }

    /// How many action ids the game has: 64 for Bao, 6 for Oware ([`Action`]).
    pub fn action_count(&self) -> u32 {
        match self.kind {
            GameKind::Bao => bao::Move::COUNT,
            GameKind::Oware => oware::Move::COUNT,
        }
    }

    /// The legal moves as (action id, canonical notation), by action id.
    pub fn legal_actions(&self) -> Vec<(u32, String)> {
        if self.silent.is_some() {
            return Vec::new();
        }
        each!(&self.inner, t => t.legal_actions())
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

    /// The position as numbers, for learning programs (docs/python.md). Oware, 15: the seeds of
    /// pits A-F and a-f, South's and North's scores, the player to move (0 South, 1 North).
    /// Bao, 38: the seeds of South's 16 pits and North's (each from A1/a1 along the row, then
    /// the back row from B8/b8), the two stores, whether each still owns its house (1 or 0), the
    /// player to move, and the mover's kutakatia-ed pit (its place in that order, plus 1; 0 for
    /// none).
    pub fn observation(&self) -> Vec<f32> {
        let mover = |side: Side| match side {
            Side::South => 0.0,
            Side::North => 1.0,
        };
        match self
            .standing()
            .expect("the engine's state is a position of the game")
        {
            Standing::Oware(pos) => {
                let mut v: Vec<f32> = pos.pits().iter().map(|&n| f32::from(n)).collect();
                v.extend([Side::South, Side::North].map(|s| f32::from(pos.score(s))));
                v.push(mover(pos.to_move()));
                v
            }
            Standing::Bao(pos) => {
                let mut v = Vec::with_capacity(38);
                for side in [Side::South, Side::North] {
                    v.extend(
                        (0..16).map(|i| f32::from(pos.board().get(side, bao::Pit::from_ring(i)))),
                    );
                }
                v.extend([Side::South, Side::North].map(|s| f32::from(pos.store(s))));
                v.extend(
                    [Side::South, Side::North].map(|s| f32::from(u8::from(pos.house_owned(s)))),
                );
                v.push(mover(pos.to_move()));
                v.push(pos.blocked().map_or(0.0, |p| (p.ring() + 1) as f32));
                v
            }
        }
    }

    /// The moves played, in canonical notation.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The player to move.
    pub fn to_move(&self) -> Side {
        each!(&self.inner, t => t.game.to_move(&t.state))
    }

    /// The ending once the game is over: the verdict and its clause.
    pub fn ending(&self) -> Option<Ending> {
        if let Some(clause) = self.silent {
            return Some(Ending {
                verdict: crate::game::Verdict::RulesSilent,
                clause,
            });
        }
        each!(&self.inner, t => t.game.ending(&t.state))
    }

    /// The scores (Oware: seeds taken, after any final sweep; Bao: seeds on each side), South's
    /// first.
    pub fn scores(&self) -> [u32; 2] {
        each!(&self.inner, t => t.game.scores(&t.state))
    }

    /// The position in the game's text format.
    pub fn position_text(&self) -> String {
        match self.standing() {
            Ok(Standing::Bao(pos)) => bao::position_text::print(&pos),
            Ok(Standing::Oware(pos)) => pos.print(),
            Err(e) => format!("invalid position: {e}\n"),
        }
    }

    /// Where the game stands, as the reference engines' position of the game; an error only if
    /// the optimized engine's state is no position (a bug of that engine).
    fn standing(&self) -> Result<Standing, String> {
        match &self.inner {
            Inner::BaoReference(t) => Ok(Standing::Bao(t.state.clone())),
            Inner::BaoOptimized(t) => {
                bao::Position::from_setup(bao::engines::from_fast(&t.state.pos))
                    .map(Standing::Bao)
                    .map_err(|e| e.to_string())
            }
            Inner::OwareReference(t) => Ok(Standing::Oware(t.state.position().clone())),
            Inner::OwareOptimized(t, _) => oware::Position::new(
                t.state.pits(),
                t.state.scores(),
                if t.state.to_move() == 0 {
                    Side::South
                } else {
                    Side::North
                },
            )
            .map(Standing::Oware)
            .map_err(|e| e.to_string()),
        }
    }

    /// The position text the game started from; `None` for the game's own start.
    pub fn start_text(&self) -> Option<&str> {
        self.start.as_deref()
    }

    /// The clause trace of `mv` played here, one step a line, as the reference engine gives it
    /// (the game is replayed on the reference engine from its start, so that a history the
    /// rules read is the game's own). The game does not change.
    pub fn explain(&self, mv: &str) -> Result<Vec<String>, TextGameError> {
        // The move is checked here first: the error is the one `play` gives.
        self.clone().play(mv)?;
        Ok(match self.replay()? {
            Replayed::Bao(rules, pos) => replay_bao(&rules, &pos, mv)?
                .trace
                .iter()
                .map(|s| s.to_string())
                .collect(),
            Replayed::Oware(rules, game) => replay_oware(&rules, &game, mv)?
                .trace
                .iter()
                .map(|s| s.to_string())
                .collect(),
        })
    }

    /// The board as an SVG diagram (as `mancala-lab bao diagram` draws it) and, with `mv`, that
    /// move's path and clause steps on it. The game does not change.
    #[cfg(feature = "diagram")]
    pub fn diagram(&self, mv: Option<&str>) -> Result<String, TextGameError> {
        use crate::diagram;
        if let Some(mv) = mv {
            self.clone().play(mv)?;
        }
        let drawing = |e: diagram::DiagramError| TextGameError::Drawing(e.to_string());
        match self.replay()? {
            Replayed::Bao(rules, pos) => {
                let title = diagram::bao_title_under(&rules, &pos, mv);
                let steps = match mv {
                    None => Vec::new(),
                    Some(mv) => replay_bao(&rules, &pos, mv)?.trace,
                };
                diagram::bao_svg(&pos, &title, &steps).map_err(drawing)
            }
            Replayed::Oware(rules, game) => {
                let p = game.position();
                let (pits, scores) = (p.pits(), [p.score(Side::South), p.score(Side::North)]);
                let Some(mv) = mv else {
                    let title = diagram::oware_title(&game);
                    return diagram::oware_svg(&pits, scores, p.to_move(), &title, None)
                        .map_err(drawing);
                };
                let played = replay_oware(&rules, &game, mv)?;
                let steps: Vec<(&'static str, String)> = played
                    .trace
                    .iter()
                    .map(|s| (s.clause, s.text.clone()))
                    .collect();
                let pit = oware_pit(mv)?;
                let m = diagram::OwareMove {
                    from: pit.index(p.to_move()),
                    captured: played.captured,
                    steps: &steps,
                };
                let title = format!("{} plays {mv}", p.to_move());
                diagram::oware_svg(&pits, scores, p.to_move(), &title, Some(&m)).map_err(drawing)
            }
        }
    }

    /// The moves that lead to the position: all but a last one the reading is silent on.
    fn moves_to_position(&self) -> &[String] {
        let n = self.moves.len() - usize::from(self.silent.is_some());
        &self.moves[..n]
    }

    /// The game so far replayed on the reference engine of its reading.
    fn replay(&self) -> Result<Replayed, TextGameError> {
        match &self.reading {
            Reading::Bao(v) => {
                let rules = bao::Rules::new(*v);
                let mut pos = match &self.start {
                    None => bao::Position::start(),
                    Some(text) => {
                        bao::position_text::parse(text).map_err(|e| replay_failed(e.to_string()))?
                    }
                };
                for m in self.moves_to_position() {
                    pos = replay_bao(&rules, &pos, m)?.position;
                }
                Ok(Replayed::Bao(rules, pos))
            }
            Reading::Oware(v) => {
                let rules = oware::Rules::new(*v);
                let mut game = match &self.start {
                    None => rules.new_game(),
                    Some(text) => rules.game_from(
                        oware::Position::parse(text).map_err(|e| replay_failed(e.to_string()))?,
                    ),
                };
                for m in self.moves_to_position() {
                    game = replay_oware(&rules, &game, m)?.game;
                }
                Ok(Replayed::Oware(rules, game))
            }
        }
    }
}

/// Where a game stands, in the reference engines' position types.
enum Standing {
    Bao(bao::Position),
    Oware(oware::Position),
}

/// A game replayed on the reference engine: its rules and where the game stands.
enum Replayed {
    Bao(bao::Rules, bao::Position),
    Oware(oware::Rules, oware::Game),
}

/// A replay on the reference engine that failed (the engines disagree, or the start is bad).
fn replay_failed(e: String) -> TextGameError {
    TextGameError::Position(format!("replay on the reference engine: {e}"))
}

/// `mv` played on the reference Bao engine from `pos`.
fn replay_bao(
    rules: &bao::Rules,
    pos: &bao::Position,
    mv: &str,
) -> Result<bao::rules::Played, TextGameError> {
    let text = bao::MoveText::parse(mv).map_err(|e| replay_failed(e.to_string()))?;
    rules
        .play_text(pos, &text)
        .map(|(_, played)| played)
        .map_err(|e| replay_failed(e.to_string()))
}

/// The pit an Oware move in notation empties.
fn oware_pit(mv: &str) -> Result<oware::Move, TextGameError> {
    match mv.chars().next().and_then(oware::Move::from_letter) {
        Some((_, pit)) => Ok(pit),
        None => Err(replay_failed(format!("{} is not a move", quoted(mv)))),
    }
}

/// `mv` played on the reference Oware engine from `game`.
fn replay_oware(
    rules: &oware::Rules,
    game: &oware::Game,
    mv: &str,
) -> Result<oware::rules::Played, TextGameError> {
    rules
        .play(game, oware_pit(mv)?)
        .map_err(|e| replay_failed(e.to_string()))
}

/// The reference engine of `reading`, at the game's start.
fn reference(reading: &Reading) -> Inner {
    match reading {
        Reading::Bao(v) => {
            let game = bao::Rules::new(*v);
            Inner::BaoReference(Typed {
                state: game.start(),
                game,
            })
        }
        Reading::Oware(v) => {
            let game = oware::Rules::new(*v);
            Inner::OwareReference(Typed {
                state: Game::start(&game),
                game,
            })
        }
    }
}
