//! The JSON API of `serve` (docs/openapi.json): each handler builds the game a request names
//! through `TextGame`, off the async threads, and answers with what the library says.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use mancala_lab::game::Ending;
use mancala_lab::policy::Policy;
use mancala_lab::registry::{GameKind, PitPlace};
use mancala_lab::textgame::TextGame;
use serde::{Deserialize, Serialize};

/// The largest request body, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// The most moves a request may replay.
const MAX_MOVES: usize = 5_000;
/// The longest a policy's search runs for one request by default, in milliseconds.
pub const DEFAULT_MAX_MS: u32 = 2_000;
/// Searches (a policy's move, move values) run at once; more get 503.
const SEARCHES: usize = 2;
/// Boards a search for move values may expand beyond the databases.
const VALUES_BUDGET: u32 = 2_000_000;
/// The seconds a client is told to wait when every search slot is taken.
const RETRY_AFTER: &str = "1";

/// What every request shares: whether databases were named, the search cap, the search slots.
#[derive(Clone)]
pub struct Shared {
    databases: bool,
    max_ms: u32,
    /// One stop flag a slot: a search holds one while it runs.
    slots: Arc<Mutex<Vec<&'static AtomicBool>>>,
}

impl Shared {
    /// The server's shared state.
    pub fn new(databases: bool, max_ms: u32) -> Shared {
        let flags = (0..SEARCHES)
            .map(|_| &*Box::leak(Box::new(AtomicBool::new(false))))
            .collect();
        Shared {
            databases,
            max_ms,
            slots: Arc::new(Mutex::new(flags)),
        }
    }

    /// A free search slot's stop flag, cleared, or 503.
    fn take_slot(&self) -> Result<Slot, ApiError> {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        match slots.pop() {
            Some(flag) => {
                flag.store(false, Ordering::SeqCst);
                Ok(Slot {
                    flag,
                    slots: self.slots.clone(),
                })
            }
            None => Err(ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: format!(
                    "every search slot is taken ({SEARCHES} searches run at once); try again"
                ),
                line: None,
                column: None,
            }),
        }
    }
}

/// A search slot: its stop flag goes back to the free ones when the slot is dropped.
struct Slot {
    flag: &'static AtomicBool,
    slots: Arc<Mutex<Vec<&'static AtomicBool>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(self.flag);
    }
}

/// An error answer: its status and message (the command line's words), and for a transcript
/// the line and column of its fault.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    line: Option<usize>,
    column: Option<usize>,
}

impl ApiError {
    /// An error with `status` saying `message`.
    pub fn new(status: StatusCode, message: String) -> ApiError {
        ApiError {
            status,
            message,
            line: None,
            column: None,
        }
    }

    /// A request the game refuses (422).
    fn refused(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message.to_string())
    }
}

#[derive(Serialize)]
struct ErrorBody {
    error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.message,
            line: self.line,
            column: self.column,
        };
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER));
        }
        response
    }
}

/// A JSON body, its rejection answered as an [`ApiError`] (400, or 413 for one too large).
pub struct Body<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    let status = match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        _ => StatusCode::BAD_REQUEST,
    };
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => format!("the request body is over {MAX_BODY} bytes"),
        _ => rejection.body_text(),
    };
    ApiError::new(status, message)
}

/// Runs `work` off the async threads; a panic in it is a 500 and nothing more.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    match tokio::task::spawn_blocking(work).await {
        Ok(answer) => answer,
        Err(_) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request failed inside the server; please report it".into(),
        )),
    }
}

// ---- the game a request names ------------------------------------------------------------

/// A game, its reading, the position it started from and the moves played since.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// `bao`, `oware` or `kalah`.
    game: String,
    /// The reading, as `--variant` writes it (default: the game's).
    #[serde(default)]
    variant: Option<String>,
    /// The settings taken beside the reading (Bao's `infinite`).
    #[serde(default)]
    settings: BTreeMap<String, String>,
    /// The position text the game started from (default: the game's start).
    #[serde(default)]
    start: Option<String>,
    /// The moves played since, in notation.
    #[serde(default)]
    moves: Vec<String>,
}

impl GameRequest {
    fn kind(&self) -> Result<GameKind, ApiError> {
        self.game.parse().map_err(ApiError::refused)
    }

    /// The game at its start (or `start`), no move played.
    fn begin(&self, variant: &str) -> Result<TextGame, ApiError> {
        let kind = self.kind()?;
        let names = kind.reading_names();
        if let Some(name) = self
            .settings
            .keys()
            .find(|k| !names.settings.contains(&k.as_str()))
        {
            return Err(ApiError::refused(format!(
                "{kind} has no setting {} (known: {})",
                mancala_lab::text::quoted(name),
                if names.settings.is_empty() {
                    "none".to_string()
                } else {
                    names.settings.join(", ")
                }
            )));
        }
        let infinite = self.settings.get("infinite").map(String::as_str);
        let game = TextGame::new(kind, variant, infinite, None).map_err(ApiError::refused)?;
        match &self.start {
            None => Ok(game),
            Some(text) => game.from_position(text).map_err(ApiError::refused),
        }
    }

    /// The reading named, or the game's default.
    fn variant(&self) -> Result<String, ApiError> {
        match &self.variant {
            Some(v) => Ok(v.clone()),
            None => Ok(self.kind()?.default_variant().to_string()),
        }
    }

    /// The game after its moves, under `variant`.
    fn replay(&self, variant: &str) -> Result<TextGame, ApiError> {
        if self.moves.len() > MAX_MOVES {
            return Err(ApiError::refused(format!(
                "{} moves: at most {MAX_MOVES} a request",
                self.moves.len()
            )));
        }
        let mut game = self.begin(variant)?;
        for (i, mv) in self.moves.iter().enumerate() {
            game.play(mv)
                .map_err(|e| ApiError::refused(format!("move {}: {e}", i + 1)))?;
        }
        Ok(game)
    }

    /// The game after its moves, under its own reading.
    fn game(&self) -> Result<TextGame, ApiError> {
        self.replay(&self.variant()?)
    }
}

// ---- answers ------------------------------------------------------------------------------

/// A legal move and the pit it is played from.
#[derive(Serialize)]
struct LegalMove {
    notation: String,
    pit: Option<String>,
}

/// How a game ended: the winner (`South`, `North`, `draw`, `none`), the clause and its title.
#[derive(Serialize)]
struct EndView {
    winner: &'static str,
    clause: String,
    title: Option<String>,
}

fn end_view(kind: GameKind, ending: Ending) -> EndView {
    EndView {
        winner: ending.winner(),
        clause: ending.end_clause(),
        title: kind.clause(ending.clause).map(|(title, _)| title),
    }
}

/// A position and what can be done in it.
#[derive(Serialize)]
struct StateView {
    game: &'static str,
    variant: String,
    position: String,
    to_move: String,
    scores: [u32; 2],
    moves: Vec<String>,
    legal: Vec<LegalMove>,
    ending: Option<EndView>,
    svg: String,
    pits: Vec<PitPlace>,
    /// The moves as the game's transcript (what `replay` and POST /api/transcript read).
    transcript: String,
}

fn state_view(game: &TextGame, variant: &str) -> Result<StateView, ApiError> {
    Ok(StateView {
        game: game.kind().name(),
        variant: variant.to_string(),
        position: game.position_text(),
        to_move: game.to_move().to_string(),
        scores: game.scores(),
        moves: game.moves().to_vec(),
        legal: game
            .legal_moves_by_pit()
            .into_iter()
            .map(|(notation, pit)| LegalMove { notation, pit })
            .collect(),
        ending: game.ending().map(|e| end_view(game.kind(), e)),
        svg: game.diagram(None).map_err(ApiError::refused)?,
        pits: game.pit_places(),
        transcript: game.transcript(),
    })
}

/// GET /api/games: every game, its readings and settings.
pub async fn games(State(shared): State<Shared>) -> Response {
    #[derive(Serialize)]
    struct GameView {
        name: &'static str,
        default_variant: &'static str,
        presets: &'static [&'static str],
        parameters: &'static [&'static str],
        settings: &'static [&'static str],
        readings: &'static str,
    }
    #[derive(Serialize)]
    struct Games {
        games: Vec<GameView>,
        policies: Vec<&'static str>,
        databases: bool,
    }
    let games = GameKind::ALL
        .into_iter()
        .map(|kind| {
            let names = kind.reading_names();
            GameView {
                name: kind.name(),
                default_variant: kind.default_variant(),
                presets: names.presets,
                parameters: names.parameters,
                settings: names.settings,
                readings: kind.readings(),
            }
        })
        .collect();
    let mut policies = vec!["random", "greedy", "search", "alphabeta", "mcts"];
    if shared.databases {
        policies.push("perfect");
    }
    Json(Games {
        games,
        policies,
        databases: shared.databases,
    })
    .into_response()
}

/// The query of GET /api/clause.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClauseQuery {
    game: String,
    id: String,
}

/// GET /api/clause?game=G&id=ID: a clause's title and text from the game's spec.
pub async fn clause(
    query: Result<Query<ClauseQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))?;
    let kind: GameKind = q.game.parse().map_err(ApiError::refused)?;
    // A clause id as the engines' traces write it may carry the game's name or `silent:`.
    let id = q.id.trim_start_matches("silent:");
    let id = id.strip_prefix(&format!("{} ", kind.name())).unwrap_or(id);
    let (title, text) = kind.clause(id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("{kind} has no clause {}", mancala_lab::text::quoted(id)),
        )
    })?;
    #[derive(Serialize)]
    struct ClauseView {
        game: &'static str,
        id: String,
        title: String,
        text: String,
    }
    Ok(Json(ClauseView {
        game: kind.name(),
        id: id.to_string(),
        title,
        text,
    })
    .into_response())
}

/// POST /api/state: the position after the request's moves.
pub async fn state(Body(request): Body<GameRequest>) -> Result<Response, ApiError> {
    let view = blocking(move || {
        let game = request.game()?;
        state_view(&game, &request.variant()?)
    })
    .await?;
    Ok(Json(view).into_response())
}

/// A request about one move in the request's position.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(flatten)]
    at: GameRequest,
    /// The move, in notation.
    #[serde(rename = "move")]
    mv: String,
}

/// One step of a move's explanation.
#[derive(Serialize)]
struct StepView {
    clause: String,
    text: String,
    pits: Vec<String>,
}

/// The steps of a trace (`[game id] text` a line), each with the pits it names.
fn steps(trace: &[String], pits: &[PitPlace]) -> Vec<StepView> {
    trace
        .iter()
        .map(|line| {
            let (clause, text) = match line.strip_prefix('[').and_then(|l| l.split_once("] ")) {
                Some((clause, text)) => (clause.to_string(), text.to_string()),
                None => (String::new(), line.clone()),
            };
            let named = named_pits(&text, pits);
            StepView {
                clause,
                text,
                pits: named,
            }
        })
        .collect()
}

/// The pits a step's text names: words that are pit names; a one-letter name only after a word
/// that leads to a place (`from`, `in`, `into`, `to`, `at`, `facing`), where it is no article.
fn named_pits(text: &str, pits: &[PitPlace]) -> Vec<String> {
    const LEADS: [&str; 7] = ["from", "in", "into", "to", "at", "facing", "onto"];
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut named: Vec<String> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let is_pit = pits.iter().any(|p| p.name == *w);
        let led = w.len() > 1 || (i > 0 && LEADS.contains(&words[i - 1]));
        if is_pit && led && !named.iter().any(|n| n == w) {
            named.push((*w).to_string());
        }
    }
    named
}

/// A move explained: who played it, its steps, the position after it, and the board before it
/// with the move drawn.
#[derive(Serialize)]
struct Explained {
    #[serde(rename = "move")]
    mv: String,
    by: String,
    steps: Vec<StepView>,
    svg: String,
    after: StateView,
}

/// POST /api/explain: a move's clause trace, as `explain` prints it, and its drawing.
pub async fn explain(Body(request): Body<MoveRequest>) -> Result<Response, ApiError> {
    let view = blocking(move || {
        let variant = request.at.variant()?;
        let game = request.at.replay(&variant)?;
        let mut after = game.clone();
        after.play(&request.mv).map_err(ApiError::refused)?;
        let pits = game.pit_places();
        let trace = game.explain(&request.mv).map_err(ApiError::refused)?;
        // A move the reading leaves open is not drawn: the game stops before it.
        let silent = after
            .ending()
            .is_some_and(|e| e.verdict == mancala_lab::game::Verdict::RulesSilent);
        let drawn = (!silent).then_some(request.mv.as_str());
        let svg = game.diagram(drawn).map_err(ApiError::refused)?;
        Ok(Explained {
            mv: request.mv.clone(),
            by: game.to_move().to_string(),
            steps: steps(&trace, &pits),
            svg,
            after: state_view(&after, &variant)?,
        })
    })
    .await?;
    Ok(Json(view).into_response())
}

/// The body of POST /api/transcript.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TranscriptRequest {
    game: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    settings: BTreeMap<String, String>,
    /// The transcript, as `replay` reads it.
    text: String,
}

/// POST /api/transcript: a transcript replayed from the start; its first fault with its line
/// and column, as `replay` names it.
pub async fn transcript(Body(request): Body<TranscriptRequest>) -> Result<Response, ApiError> {
    let view = blocking(move || {
        let at = GameRequest {
            game: request.game,
            variant: request.variant,
            settings: request.settings,
            start: None,
            moves: Vec::new(),
        };
        let variant = at.variant()?;
        let game = at.begin(&variant)?;
        let replayed = game
            .from_transcript(&request.text)
            .map_err(|fault| ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                message: fault.to_string(),
                line: (fault.line > 0).then_some(fault.line),
                column: (fault.line > 0).then_some(fault.column),
            })?;
        state_view(&replayed, &variant)
    })
    .await?;
    Ok(Json(view).into_response())
}

/// What one reading makes of the move at hand.
#[derive(Serialize)]
struct ReadingView {
    variant: String,
    /// `same` (the position and result the request's reading gives), `different`, `illegal`
    /// (the move is not legal there) or `unreachable` (the game so far is not legal there).
    outcome: &'static str,
    /// What differs, in words.
    detail: String,
    /// The first step whose clause or text differs from the request's reading's.
    clause: Option<String>,
    position: Option<String>,
    ending: Option<EndView>,
    steps: Vec<StepView>,
}

/// POST /api/readings: the move at hand played under every preset reading of the game.
pub async fn readings(Body(request): Body<MoveRequest>) -> Result<Response, ApiError> {
    let view = blocking(move || {
        let kind = request.at.kind()?;
        let own = request.at.variant()?;
        let game = request.at.replay(&own)?;
        let pits = game.pit_places();
        let mut base = game.clone();
        base.play(&request.mv).map_err(ApiError::refused)?;
        let base_trace = game.explain(&request.mv).map_err(ApiError::refused)?;
        let base_end = base.ending().map(|e| e.end_clause());
        let mut views = Vec::new();
        // The other presets with the parameters of the reading at hand (a board size, say): a
        // preset that does not take them says so in its row.
        let (own_preset, parameters) = match own.split_once(':') {
            Some((preset, parameters)) => (preset, Some(parameters)),
            None => (own.as_str(), None),
        };
        let mut variants: Vec<String> = vec![own.clone()];
        variants.extend(
            kind.reading_names()
                .presets
                .iter()
                .filter(|p| **p != own_preset)
                .map(|preset| match parameters {
                    Some(p) => format!("{preset}:{p}"),
                    None => preset.to_string(),
                }),
        );
        for variant in variants {
            views.push(one_reading(
                kind,
                &request,
                &variant,
                (&base, &base_end, &base_trace),
                &pits,
            ));
        }
        Ok(views)
    })
    .await?;
    #[derive(Serialize)]
    struct Readings {
        readings: Vec<ReadingView>,
    }
    Ok(Json(Readings { readings: view }).into_response())
}

/// What `variant` makes of the request's move, beside the request's own reading's result.
fn one_reading(
    kind: GameKind,
    request: &MoveRequest,
    variant: &str,
    (base, base_end, base_trace): (&TextGame, &Option<String>, &[String]),
    pits: &[PitPlace],
) -> ReadingView {
    let mut view = ReadingView {
        variant: variant.to_string(),
        outcome: "same",
        detail: String::new(),
        clause: None,
        position: None,
        ending: None,
        steps: Vec::new(),
    };
    let game = match request.at.replay(variant) {
        Ok(game) => game,
        Err(e) => {
            view.outcome = "unreachable";
            view.detail = format!("the game so far is not played this way here: {}", e.message);
            return view;
        }
    };
    let mut after = game.clone();
    if let Err(e) = after.play(&request.mv) {
        view.outcome = "illegal";
        view.detail = e.to_string();
        return view;
    }
    let trace = match game.explain(&request.mv) {
        Ok(trace) => trace,
        Err(e) => {
            view.outcome = "illegal";
            view.detail = e.to_string();
            return view;
        }
    };
    let end = after.ending().map(|e| e.end_clause());
    view.position = Some(after.position_text());
    view.ending = after.ending().map(|e| end_view(kind, e));
    view.steps = steps(&trace, pits);
    let first_difference = trace
        .iter()
        .zip(base_trace)
        .position(|(a, b)| a != b)
        .or_else(|| (trace.len() != base_trace.len()).then(|| trace.len().min(base_trace.len())));
    view.clause = first_difference.map(|i| {
        let line = trace
            .get(i)
            .or_else(|| base_trace.get(i))
            .cloned()
            .unwrap_or_default();
        line.strip_prefix('[')
            .and_then(|l| l.split_once(']'))
            .map_or(line.clone(), |(c, _)| c.to_string())
    });
    if after.position_text() != base.position_text() || end != *base_end {
        view.outcome = "different";
        view.detail = match (&end, base_end) {
            (a, b) if a != b => format!(
                "the game ends differently ({} here, {} under the reading at hand)",
                a.as_deref().unwrap_or("not over"),
                b.as_deref().unwrap_or("not over")
            ),
            _ => "a different position".to_string(),
        };
    } else if first_difference.is_some() {
        view.detail = "the same position, by other steps".to_string();
    }
    view
}

/// The body of POST /api/policy.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyRequest {
    #[serde(flatten)]
    at: GameRequest,
    /// The policy, as `stats --policy` writes it (`mcts:sims=1000`).
    policy: String,
    /// The seed of its random choices (default 1).
    #[serde(default)]
    seed: Option<u64>,
}

/// POST /api/policy: the move a policy plays in the position, within the server's time cap.
pub async fn policy(
    State(shared): State<Shared>,
    Body(request): Body<PolicyRequest>,
) -> Result<Response, ApiError> {
    let policy: Policy = request.policy.parse().map_err(ApiError::refused)?;
    if matches!(policy, Policy::Perfect(_)) && !shared.databases {
        return Err(ApiError::refused(
            "policy perfect: this server was started without --db (no endgame databases)",
        ));
    }
    let slot = shared.take_slot()?;
    let cap = Duration::from_millis(u64::from(shared.max_ms));
    let flag = slot.flag;
    let chosen = blocking(move || {
        let _slot = slot;
        let game = request.at.game()?;
        // The server's cap: the search is stopped then, and answers with its best move so far.
        let seed = request.seed.unwrap_or(1);
        mancala_lab::policy::with_deadline(
            cap,
            move || flag.store(true, Ordering::SeqCst),
            || game.choose(policy, seed, flag),
        )
        .map_err(ApiError::refused)
    })
    .await?;
    #[derive(Serialize)]
    struct ChosenView {
        #[serde(rename = "move")]
        mv: String,
        info: Option<String>,
        stopped: bool,
    }
    Ok(Json(ChosenView {
        mv: chosen.mv,
        info: chosen.info,
        stopped: chosen.stopped,
    })
    .into_response())
}

/// POST /api/values: the exact value of each legal move, from the server's databases.
pub async fn values(
    State(shared): State<Shared>,
    Body(request): Body<GameRequest>,
) -> Result<Response, ApiError> {
    if !shared.databases {
        return Err(ApiError::refused(
            "move values: this server was started without --db (no endgame databases)",
        ));
    }
    let slot = shared.take_slot()?;
    let values = blocking(move || {
        let _slot = slot;
        let game = request.game()?;
        game.move_values(VALUES_BUDGET).map_err(ApiError::refused)
    })
    .await?;
    #[derive(Serialize)]
    struct Value {
        #[serde(rename = "move")]
        mv: String,
        value: i8,
    }
    #[derive(Serialize)]
    struct Values {
        /// `false` where the databases (and a bounded search beyond them) do not reach.
        known: bool,
        values: Vec<Value>,
    }
    let known = values.is_some();
    let values = values
        .unwrap_or_default()
        .into_iter()
        .map(|(mv, value)| Value { mv, value })
        .collect();
    Ok(Json(Values { known, values }).into_response())
}
