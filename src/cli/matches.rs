//! `mancala-lab match`: a round robin between policies, each pairing a stats job of its own
//! (resumable), both sides swapped on the same draws; the games and Bradley-Terry ratings as CSV.

use std::fmt::Write as _;
use std::fs;
use std::io::Write;
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
#[serde(deny_unknown_fields)]
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
    if args.max_plies == Some(0) {
        return Err("--max-plies 0: no game would have a move".into());
    }
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
        if path.symlink_metadata().is_err() {
            return Err(format!(
                "--resume: {} holds no match (no match.json); start one, with --force if the \
                 folder holds a match's remains",
                shown_path(&out)
            ));
        }
        let text =
            mancala_lab::study::manifest_text(&path).map_err(|e| format!("--resume: {e}"))?;
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
    // A stats study's files (its manifest, or what its results leave): never taken for a
    // match's, with --force or without.
    let study = [mancala_lab::study::MANIFEST, "summary.csv", "clauses.csv"]
        .into_iter()
        .find(|f| out.join(f).symlink_metadata().is_ok());
    if let Some(file) = study {
        return Err(format!(
            "--out {} holds a stats study ({file}), not a match; a match needs a folder of its \
             own",
            shown_path(&out)
        ));
    }
    make_dir(&out).map_err(|e| e.to_string())?;
    // Held to the end: one match at a time in a folder (each pairing's job locks its own).
    let _lock = DirLock::take(&out).map_err(|e| e.to_string())?;
    // From here on a signal only sets the flag: a match being replaced is never left half
    // removed, and a pairing under way stops as `stats` stops.
    let hint_out = shell_word(&out);
    let interrupt = super::interrupt_on_ctrl_c_with(move || {
        format!("interrupted; continue with: mancala-lab match --resume --out {hint_out}")
    });
    let stopped = || interrupt.load(std::sync::atomic::Ordering::SeqCst);
    let resume_hint = format!(
        "continue with: mancala-lab match --resume --out {}",
        shell_word(&out)
    );
    // Temporary files a second Ctrl-C left while the results were written.
    if let Ok(entries) = fs::read_dir(&out) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let stale = [".games.csv.", ".ratings.csv."]
                .iter()
                .any(|p| name.starts_with(p))
                && name.ends_with(".tmp");
            if stale && e.file_type().is_ok_and(|t| t.is_file()) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
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
    let all = pairings(players.len());
    for (k, &(a, b)) in all.iter().enumerate() {
        let dir = pair_dir(&out, (a, b));
        let resume = dir.join(mancala_lab::study::MANIFEST).exists();
        if resume {
            let done = pair_manifest(&dir, &m, (players[a], players[b]))?;
            // A finished pairing whose result files a failed write lost is resumed: it plays
            // nothing and writes them.
            // Rows past those counted (a write the manifest never saw) are dropped by a resume
            // too: only a pairing whose games.csv is exactly its counted rows is skipped.
            let game: GameKind = done.job.game.parse().map_err(|e| format!("{e}"))?;
            let rows = fs::metadata(dir.join("games.csv")).map_or(0, |m| m.len());
            let whole = ["summary.csv", "clauses.csv"]
                .iter()
                .all(|f| dir.join(f).is_file())
                && rows == mancala_lab::playout::header(game).len() as u64 + done.rows_bytes;
            if done.games_done == done.end_game - done.first_game && whole {
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
            // A pairing folder without a manifest counts no game (a job killed before its first
            // save): it is played anew.
            force: !resume,
            ..RunArgs::default()
        };
        let (code, _) = run_job(&job, interrupt, Report::Part).map_err(|e| {
            format!(
                "pairing {} of {} ({}): {e}",
                k + 1,
                all.len(),
                shown_path(&dir)
            )
        })?;
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
    if stopped() {
        eprintln!("interrupted before the results were written; {resume_hint}");
        return Ok(ExitCode::from(130));
    }
    let table = results(&out, &m, &players)?;
    if stopped() {
        eprintln!("interrupted; games.csv and ratings.csv are whole; {resume_hint}");
        return Ok(ExitCode::from(130));
    }
    println!(
        "{} match, {} reading: {} players, {} game{} a pairing each way, seed {}; written to {}",
        m.game,
        m.variant,
        players.len(),
        m.games,
        if m.games == 1 { "" } else { "s" },
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

/// The ratings as a table to print.
struct Table {
    text: String,
}

/// A file `name` in `dir` made by `write` in a new file there, then renamed over `name`: a
/// reader sees the old file or the new one, never a part, and a link in its place is replaced,
/// not followed. `write` says what failed in its own words.
fn replace_file(
    dir: &Path,
    name: &str,
    write: impl FnOnce(&mut dyn Write) -> Result<(), String>,
) -> Result<(), String> {
    let path = dir.join(name);
    let fail = |e: std::io::Error| format!("{}: {e}", shown_path(&path));
    // Made with the permissions of any new file (the umask's), as the stats job's files; a file
    // replaced keeps its own (a private one stays private).
    let mut tmp = mancala_lab::study::temporary_beside(&path).map_err(|e| e.to_string())?;
    if let Some(meta) = fs::metadata(&path).ok().filter(|m| m.is_file()) {
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(fail)?;
    }
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        write(&mut w)?;
        w.flush().map_err(fail)?;
    }
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(&path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Points of a game to South and North by its `winner` field: a game without a winner (a
/// draw, a cut, a point the reading leaves open) is half a point each.
fn points_of(winner: &str) -> (f64, f64) {
    match winner {
        "South" => (1.0, 0.0),
        "North" => (0.0, 1.0),
        _ => (DRAW, DRAW),
    }
}

/// Writes the match's games.csv (every pairing's rows, checked against its manifest, streamed)
/// and ratings.csv; the ratings as a table to print.
fn results(out: &Path, m: &Match, players: &[Policy]) -> Result<Table, String> {
    let k = players.len();
    // Every pairing's manifest first: a foreign or unfinished one is refused before any file.
    let mut pairs = Vec::new();
    for (a, b) in pairings(k) {
        let dir = pair_dir(out, (a, b));
        let manifest = pair_manifest(&dir, m, (players[a], players[b]))?;
        if manifest.games_done != manifest.end_game - manifest.first_game {
            return Err(format!(
                "{}: unfinished; finish the match with --resume",
                shown_path(&dir)
            ));
        }
        pairs.push(((a, b), dir, manifest));
    }
    let (mut points, mut games) = (vec![vec![0.0; k]; k], vec![vec![0.0; k]; k]);
    let mut tally = vec![[0u64; 3]; k]; // wins, draws (and games without a winner), losses
    let games_path = out.join("games.csv");
    replace_file(out, "games.csv", |w| {
        let failed = |e: std::io::Error| mancala_lab::study::StudyError::Io {
            path: games_path.clone(),
            source: e,
        };
        w.write_all(b"south,north,game,plies,winner,end_clause\n")
            .map_err(|e| failed(e).to_string())?;
        for ((a, b), dir, manifest) in &pairs {
            let (a, b) = (*a, *b);
            let (south, north) = (
                csv_field(&players[a].to_string()).into_owned(),
                csv_field(&players[b].to_string()).into_owned(),
            );
            verify_rows(dir, manifest, |row| {
                let line = String::from_utf8_lossy(row);
                let f = csv_fields(line.trim_end());
                // verify_rows has checked each row's fields against its game.
                let field = |i: usize| f.get(i).map_or("", |x| x.as_ref());
                let (game, plies, winner, clause) = (field(0), field(3), field(4), field(5));
                writeln!(w, "{south},{north},{game},{plies},{winner},{clause}").map_err(failed)?;
                let (sa, sb) = points_of(winner);
                points[a][b] += sa;
                points[b][a] += sb;
                games[a][b] += 1.0;
                games[b][a] += 1.0;
                for (p, s) in [(a, sa), (b, sb)] {
                    tally[p][match s {
                        1.0 => 0,
                        0.0 => 2,
                        _ => 1,
                    }] += 1;
                }
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        }
        Ok(())
    })?;
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
        // Rounded as printed, without a sign on zero.
        let shown = |x: f64| format!("{:.1}", (x * 10.0).round() / 10.0 + 0.0);
        let (elo, low, high) = (shown(r.elo), shown(r.low), shown(r.high));
        let policy = players[i].to_string();
        let _ = writeln!(
            csv,
            "{},{},{n},{w},{d},{l},{score:.4},{elo},{low},{high}",
            i + 1,
            csv_field(&policy)
        );
        let _ = writeln!(
            text,
            "  {:>6}  {:<28} {n:>6} {w:>6} {d:>6} {l:>6} {score:>7.4} {elo:>8}  [{low}, {high}]",
            i + 1,
            policy
        );
    }
    replace_file(out, "ratings.csv", |w| {
        w.write_all(csv.as_bytes())
            .map_err(|e| format!("{}: {e}", shown_path(out.join("ratings.csv"))))
    })?;
    Ok(Table { text })
}
