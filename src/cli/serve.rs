//! `mancala-lab serve`: the board in the browser. One page, its assets built into the program,
//! and the JSON API under `/api` it calls; every answer comes from the registry and `TextGame`.

mod api;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use clap::Args;

/// Options of `serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on; only this machine reaches the default. Another (0.0.0.0, a
    /// network's address) serves every machine that reaches it, with no login: a warning says so.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The folder of the endgame databases (`solve --build --db`) the `perfect` policy and the
    /// move values read; without it, neither is offered.
    #[arg(long)]
    db: Option<PathBuf>,
    /// The longest a policy's search runs for one request, in milliseconds (1 to 60000),
    /// whatever budget the request asks for.
    #[arg(long, default_value_t = api::DEFAULT_MAX_MS,
          value_parser = clap::value_parser!(u32).range(1..=60_000))]
    max_ms: u32,
}

/// What `serve` refuses before it listens (also for `--parse-only`): nothing its options can
/// say alone.
pub fn check(_args: &ServeArgs) -> Result<(), String> {
    Ok(())
}

/// What is on disk for `serve`: the database folder, if named, is a folder.
fn check_files(args: &ServeArgs) -> Result<(), String> {
    if let Some(db) = &args.db {
        if !db.is_dir() {
            return Err(format!(
                "--db {}: no such folder",
                mancala_lab::text::shown_path(db)
            ));
        }
    }
    Ok(())
}

/// The page and its assets, built into the program.
const INDEX: &str = include_str!("serve/index.html");
const SCRIPT: &str = include_str!("serve/app.js");
const STYLE: &str = include_str!("serve/style.css");
/// The API's OpenAPI document (docs/openapi.json).
const OPENAPI: &str = include_str!("../../docs/openapi.json");

/// An asset with its content type, cached for a minute.
fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("max-age=60"),
            ),
        ],
        body,
    )
        .into_response()
}

/// The server's routes.
pub fn router(state: api::Shared) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
        .route(
            "/api/openapi.json",
            get(|| async { asset("application/json", OPENAPI) }),
        )
        .route("/api/games", get(api::games))
        .route("/api/clause", get(api::clause))
        .route("/api/state", post(api::state))
        .route("/api/explain", post(api::explain))
        .route("/api/transcript", post(api::transcript))
        .route("/api/readings", post(api::readings))
        .route("/api/policy", post(api::policy))
        .route("/api/values", post(api::values))
        .fallback(|| async {
            api::ApiError::new(StatusCode::NOT_FOUND, "no such page or endpoint".into())
        })
        .layer(axum::extract::DefaultBodyLimit::max(api::MAX_BODY))
        .with_state(state)
}

pub fn run(args: ServeArgs) -> Result<ExitCode, String> {
    check(&args)?;
    check_files(&args)?;
    if let Some(db) = &args.db {
        mancala_lab::policy::perfect::use_root(db.clone())?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("serve: {e}"))?;
    runtime.block_on(async move {
        let addr = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("--host {} --port {}: {e}", args.host, args.port))?;
        let bound = listener.local_addr().map_err(|e| format!("serve: {e}"))?;
        if !args.host.is_loopback() {
            eprintln!(
                "warning: listening on {}: every machine that reaches this address can use the \
                 board and its searches (no login, no encryption)",
                args.host
            );
        }
        let shown = if args.host.is_unspecified() {
            SocketAddr::new(IpAddr::from([127, 0, 0, 1]), bound.port())
        } else {
            bound
        };
        println!("mancala-lab serve: http://{shown}/ (Ctrl-C stops it)");
        let shared = api::Shared::new(args.db.is_some(), args.max_ms);
        axum::serve(listener, router(shared))
            .with_graceful_shutdown(stopped())
            .await
            .map_err(|e| format!("serve: {e}"))?;
        eprintln!("mancala-lab serve: stopped");
        Ok::<(), String>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Resolves at Ctrl-C or a termination signal: the server then stops taking connections and
/// finishes the requests under way.
async fn stopped() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
