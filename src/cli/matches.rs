//! `mancala-lab match`: a round robin between policies, each pairing a stats job of its own
//! (resumable), both sides swapped on the same draws; the games and Bradley-Terry ratings as CSV.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::{Deserialize, Serialize};

use mancala_lab::game::GameKind;
use mancala_lab::playout::{EngineKind, DEFAULT_MAX_PLIES};
use mancala_lab::policy::{Players, Policy};
use mancala_lab::ratings::{bradley_terry, DRAW};
use mancala_lab::study::{make_dir, read_manifest, verify_rows, write_atomic, DirLock};
use mancala_lab::text::{csv_field, csv_fields, shell_word, shown_path};

use super::stats::{run_job, Report, RunArgs};

/// The match's own file: what it plays, so that `--resume` goes on with the same.
const MATCH: &str = "match.json";
/// The folder of the pairings' stats jobs.
const PAIRS: &str = "pairs";
/// The most players of a match (each pair plays both ways: 2 * 31 * 32 / 2 = 992 jobs).
const MAX_PLAYERS: usize = 32;

#[derive(Args)]
pub struct MatchArgs {
    /// The game [default: bao].
    #[arg(long, value_enum)]
    game: Option<GameKind>,
    /// The rule reading, a preset of the game [default: the game's].
    #[arg(long)]
    variant: Option<String>,
    /// The players: two or more policies (as `stats --policy`), each pair meeting on both sides.
    #[arg(long, num_args = 2.., value_name = "POLICY")]
    players: Vec<Policy>,
    /// Games of each pairing on each side: player A South against B North, and as many the
    /// other way round on the same draws [default: 100].
    #[arg(long)]
    games: Option<u64>,
    /// Master seed: game i of every pairing draws from (seed, i) [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Stop a game after this many plies [default: 2000].
    #[arg(long)]
    max_plies: Option<u32>,
    /// Output folder.
    #[arg(long, default_value = "out/match")]
    out: PathBuf,
    /// Worker threads, 1 to 64 (default: all cores). The output does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: Option<u16>,
    /// Continue the match in --out, with the options recorded in its match.json.
    #[arg(long, conflicts_with_all = ["force", "game", "variant", "players", "games", "seed", "max_plies"])]
    resume: bool,
    /// Replace a match already in --out.
    #[arg(long)]
    force: bool,
}

/// A match as match.json records it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Match {
    game: String,
    variant: String,
    /// The players' canonical policy texts, in the order given.
    players: Vec<String>,
    games: u64,
    seed: u64,
    max_plies: u32,
    version: String,
}

/// The match the options describe, checked: two or more distinct players, a reading.
fn match_of(args: &MatchArgs) -> Result<Match, String> {
    let game = args.game.unwrap_or(GameKind::Bao);
    let players: Vec<String> = args.players.iter().map(ToString::to_string).collect();
    if players.len() < 2 {
        return Err("--players: name two policies or more".into());
    }
    if players.len() > MAX_PLAYERS {
        return Err(format!("--players: at most {MAX_PLAYERS} players"));
    }
    for (i, p) in players.iter().enumerate() {
        if players[..i].contains(p) {
            return Err(format!("--players: {p} is named twice"));
        }
    }
    let variant = args
        .variant
        .clone()
        .unwrap_or_else(|| game.default_variant().to_string());
    if args.games == Some(0) {
        return Err("--games 0: a pairing plays at least one game each way".into());
    }
    let m = Match {
        game: game.name().into(),
        variant,
        players,
        games: args.games.unwrap_or(100),
        seed: args.seed.unwrap_or(1),
        max_plies: args.max_plies.unwrap_or(DEFAULT_MAX_PLIES),
        version: env!("CARGO_PKG_VERSION").into(),
    };
    // The reading is checked by the first pairing's job before anything is played; checked
    // here too, so that --parse-only and a new folder see it first.
    let engines = [EngineKind::Optimized, EngineKind::Reference]
        .map(|k| mancala_lab::playout::AnyEngine::new(game, &m.variant, k));
    if let [Err(e), Err(_)] = engines {
        return Err(format!(
            "--variant {}: {e}",
            mancala_lab::text::quoted(&m.variant)
        ));
    }
    Ok(m)
}

/// A match read from match.json, checked as the options are: a file edited into something the
/// options could not give is refused.
fn recorded(m: Match) -> Result<Match, String> {
    let game: GameKind = m.game.parse().map_err(|e| format!("{e}"))?;
    let mut players = Vec::new();
    for p in &m.players {
        let policy: Policy = p.parse().map_err(|e| format!("{e}"))?;
        if policy.to_string() != *p {
            return Err(format!(
                "player {} is written {} by a match",
                mancala_lab::text::quoted(p),
                mancala_lab::text::quoted(&policy.to_string())
            ));
        }
        players.push(policy);
    }
    let again = match_of(&MatchArgs {
        game: Some(game),
        variant: Some(m.variant.clone()),
        players,
        games: Some(m.games),
        seed: Some(m.seed),
        max_plies: Some(m.max_plies),
        out: PathBuf::new(),
        threads: None,
        resume: false,
        force: false,
    })?;
    Ok(Match {
        version: m.version,
        ..again
    })
}

/// What `match` refuses before it plays (also for `--parse-only`).
pub fn check(args: &MatchArgs) -> Result<(), String> {
    if args.resume {
        return Ok(());
    }
    match_of(args).map(drop)
}

/// The ordered pairings (South, North) by player index: each pair both ways, in a fixed order.
fn pairings(players: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..players {
        for b in a + 1..players {
            out.push((a, b));
            out.push((b, a));
        }
    }
    out
}

/// The folder of pairing (South `a`, North `b`): `pairs/A-B`, players numbered from 1.
fn pair_dir(out: &Path, (a, b): (usize, usize)) -> PathBuf {
    out.join(PAIRS).join(format!("{}-{}", a + 1, b + 1))
}

/// The files of a match in `out`, present or not.
fn match_files(out: &Path) -> [PathBuf; 4] {
    [MATCH, "games.csv", "ratings.csv", PAIRS].map(|f| out.join(f))
}

pub fn run(args: MatchArgs) -> Result<ExitCode, String> {
    let out = args.out.clone();
    if out.as_os_str() == "-" {
        return Err("--out -: a match is a folder of files; name one".into());
    }
    let m = if args.resume {
        let path = out.join(MATCH);
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("--resume: {}: {e}", shown_path(&path)))?;
        let m = serde_json::from_str::<Match>(&text)
            .map_err(|e| format!("--resume: {}: {e}", shown_path(&path)))?;
        recorded(m).map_err(|e| format!("--resume: {}: {e}", shown_path(&path)))?
    } else {
        match_of(&args)?
    };
    let players: Vec<Policy> = m
        .players
        .iter()
        .map(|p| p.parse::<Policy>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", shown_path(out.join(MATCH))))?;
    make_dir(&out).map_err(|e| e.to_string())?;
    // Held to the end: one match at a time in a folder (each pairing's job locks its own).
    let _lock = DirLock::take(&out).map_err(|e| e.to_string())?;
    if !args.resume {
        let present: Vec<PathBuf> = match_files(&out)
            .into_iter()
            .filter(|p| p.symlink_metadata().is_ok())
            .collect();
        if !present.is_empty() && !args.force {
            return Err(format!(
                "--out {} holds a match ({}); continue it with --resume, or replace it with --force",
                shown_path(&out),
                present
                    .iter()
                    .map(|p| p.file_name().unwrap_or_default().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        for p in present {
            let gone = if p.is_dir() {
                fs::remove_dir_all(&p)
            } else {
                fs::remove_file(&p)
            };
            gone.map_err(|e| format!("{}: {e}", shown_path(&p)))?;
        }
        let text = serde_json::to_string_pretty(&m).map_err(|e| e.to_string())? + "\n";
        write_atomic(&out.join(MATCH), &text).map_err(|e| e.to_string())?;
    }
    let hint_out = shell_word(&out);
    let interrupt = super::interrupt_on_ctrl_c_with(move || {
        format!("interrupted; continue with: mancala-lab match --resume --out {hint_out}")
    });
    let all = pairings(players.len());
    for (k, &(a, b)) in all.iter().enumerate() {
        let dir = pair_dir(&out, (a, b));
        let resume = dir.join(mancala_lab::study::MANIFEST).exists();
        if resume {
            let done = pair_manifest(&dir, &m, (players[a], players[b]))?;
            if done.games_done == done.end_game - done.first_game {
                continue;
            }
        }
        eprintln!(
            "pairing {} of {}: {} (South) against {} (North)",
            k + 1,
            all.len(),
            players[a],
            players[b]
        );
        let job = RunArgs {
            game: Some(m.game.parse().map_err(|e| format!("{e}"))?),
            variant: Some(m.variant.clone()),
            games: Some(m.games),
            seed: Some(m.seed),
            policy: Some(Players {
                south: players[a],
                north: players[b],
            }),
            max_plies: Some(m.max_plies),
            out: dir.clone(),
            threads: args.threads,
            resume,
            ..RunArgs::default()
        };
        let (code, _) = run_job(&job, interrupt, Report::Part)?;
        if code != ExitCode::SUCCESS {
            eprintln!(
                "interrupted in pairing {} of {}; the pairings played are kept; continue with: \
                 mancala-lab match --resume --out {}",
                k + 1,
                all.len(),
                shell_word(&out)
            );
            return Ok(code);
        }
    }
    let (games_csv, table) = results(&out, &m, &players)?;
    write_atomic(&out.join("games.csv"), &games_csv).map_err(|e| e.to_string())?;
    write_atomic(&out.join("ratings.csv"), &table.csv).map_err(|e| e.to_string())?;
    println!(
        "{} match, {} reading: {} players, {} games a pairing each way, seed {}; written to {}",
        m.game,
        m.variant,
        players.len(),
        m.games,
        m.seed,
        shown_path(&out)
    );
    print!("{}", table.text);
    Ok(ExitCode::SUCCESS)
}

/// The manifest of the pairing in `dir`, checked to be the job the match gives it (another
/// job's folder put in its place is refused, never counted).
fn pair_manifest(
    dir: &Path,
    m: &Match,
    (south, north): (Policy, Policy),
) -> Result<mancala_lab::study::Manifest, String> {
    let manifest = read_manifest(dir).map_err(|e| e.to_string())?;
    let j = &manifest.job;
    let policy = Players { south, north }.to_string();
    let differs = [
        ("game", j.game.clone(), m.game.clone()),
        ("variant", j.variant.clone(), m.variant.clone()),
        ("policy", j.policy.clone(), policy),
        ("seed", j.seed.to_string(), m.seed.to_string()),
        ("games", j.games.to_string(), m.games.to_string()),
        (
            "max_plies",
            j.max_plies.to_string(),
            m.max_plies.to_string(),
        ),
        ("shard", j.shard.clone().unwrap_or_default(), String::new()),
    ]
    .into_iter()
    .find(|(_, found, want)| found != want);
    match differs {
        None => Ok(manifest),
        Some((field, found, want)) => Err(format!(
            "{}: not this match's pairing ({field} {} where the match has {}); remove the \
             folder to play it again",
            shown_path(dir.join(mancala_lab::study::MANIFEST)),
            mancala_lab::text::quoted(&found),
            mancala_lab::text::quoted(&want)
        )),
    }
}

/// The ratings as CSV and as a table to print.
struct Table {
    csv: String,
    text: String,
}

/// The match's games.csv (every pairing's rows, checked against its manifest) and its ratings.
fn results(out: &Path, m: &Match, players: &[Policy]) -> Result<(String, Table), String> {
    let k = players.len();
    let mut games_csv = String::from("south,north,game,plies,winner,end_clause\n");
    let (mut points, mut games) = (vec![vec![0.0; k]; k], vec![vec![0.0; k]; k]);
    let mut tally = vec![[0u64; 3]; k]; // wins, draws (and games without a winner), losses
    for (a, b) in pairings(k) {
        let dir = pair_dir(out, (a, b));
        let manifest = pair_manifest(&dir, m, (players[a], players[b]))?;
        if manifest.games_done != manifest.end_game - manifest.first_game {
            return Err(format!(
                "{}: unfinished; finish the match with --resume",
                shown_path(&dir)
            ));
        }
        let mut bad = None;
        verify_rows(&dir, &manifest, |row| {
            let line = String::from_utf8_lossy(row);
            let f = csv_fields(line.trim_end());
            let (Some(game), Some(plies), Some(winner), Some(clause)) =
                (f.first(), f.get(3), f.get(4), f.get(5))
            else {
                bad = Some(format!("{}: a row without its fields", shown_path(&dir)));
                return Ok(());
            };
            let _ = writeln!(
                games_csv,
                "{},{},{game},{plies},{winner},{clause}",
                csv_field(&players[a].to_string()),
                csv_field(&players[b].to_string()),
            );
            let (sa, sb) = match winner.as_ref() {
                "South" => (1.0, 0.0),
                "North" => (0.0, 1.0),
                _ => (DRAW, DRAW),
            };
            points[a][b] += sa;
            points[b][a] += sb;
            games[a][b] += 1.0;
            games[b][a] += 1.0;
            for (p, s) in [(a, sa), (b, sb)] {
                tally[p][if s == 1.0 {
                    0
                } else if s == 0.0 {
                    2
                } else {
                    1
                }] += 1;
            }
            Ok(())
        })
        .map_err(|e| e.to_string())?;
        if let Some(e) = bad {
            return Err(e);
        }
    }
    let ratings = bradley_terry(&points, &games).map_err(|e| e.to_string())?;
    let mut csv =
        String::from("player,policy,games,wins,draws,losses,score,elo,elo_low,elo_high\n");
    let mut text = format!(
        "  {:>6}  {:<28} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8}  95% interval\n",
        "player", "policy", "games", "wins", "draws", "losses", "score", "elo"
    );
    for (i, r) in ratings.iter().enumerate() {
        let [w, d, l] = tally[i];
        let n = w + d + l;
        let score = if n == 0 {
            0.0
        } else {
            (w as f64 + DRAW * d as f64) / n as f64
        };
        let policy = players[i].to_string();
        let _ = writeln!(
            csv,
            "{},{},{n},{w},{d},{l},{score:.4},{:.1},{:.1},{:.1}",
            i + 1,
            csv_field(&policy),
            r.elo,
            r.low,
            r.high
        );
        let _ = writeln!(
            text,
            "  {:>6}  {:<28} {n:>6} {w:>6} {d:>6} {l:>6} {score:>7.4} {:>8.1}  [{:.1}, {:.1}]",
            i + 1,
            policy,
            r.elo,
            r.low,
            r.high
        );
    }
    Ok((games_csv, Table { csv, text }))
}
