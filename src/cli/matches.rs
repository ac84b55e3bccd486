//! `mancala-lab match`: a round robin between policies, each pairing a stats job of its own
//! (resumable), both sides swapped on the same draws; the games and Bradley-Terry ratings as CSV.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};

use mancala_lab::playout::{EngineKind, DEFAULT_MAX_PLIES};
use mancala_lab::policy::{Players, Policy};
use mancala_lab::ratings::{bradley_terry, DRAW};
use mancala_lab::registry::GameKind;
use mancala_lab::study::{
    canonical_shard, make_dir, read_manifest, replace_file, shard_range, verify_rows, write_atomic,
    DirLock,
};
use mancala_lab::text::{csv_field, csv_fields, quoted, shell_word, shown_path};

use super::stats::{check_merge, commits_note, merge_shards, run_job, Report, RunArgs};

/// The match's own file: what it plays, so that `--resume` goes on with the same.
const MATCH: &str = "match.json";
/// The folder of the pairings' stats jobs.
const PAIRS: &str = "pairs";
/// The most players of a match (each pair plays both ways: 2 * 31 * 32 / 2 = 992 jobs).
const MAX_PLAYERS: usize = 32;

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    merge: Option<MatchCommand>,
    #[command(flatten)]
    run: PlayArgs,
}

#[derive(Subcommand)]
enum MatchCommand {
    /// Join the folders of a match's shards into the files one run would have written.
    Merge(super::MergeArgs),
}

/// The options of a match played (whole, or one shard).
#[derive(Args)]
pub struct PlayArgs {
    /// The game [default: bao].
    #[arg(long, value_enum)]
    game: Option<GameKind>,
    // The game's readings, listed by the registry.
    #[arg(long, help = format!("The rule reading ({})", mancala_lab::registry::readings_help()))]
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
    /// Open every game with this many random plies (game i's own draws, the same in both
    /// pairings of a pair) before the players choose, so that deterministic players meet in
    /// varied positions [default: 0].
    #[arg(long, value_name = "PLIES")]
    opening: Option<u32>,
    /// Play the K-th of N disjoint slices of every pairing's games, e.g. 2/8 (as `stats
    /// --shard`); `match merge` joins the shards' folders into the whole match.
    #[arg(long)]
    shard: Option<String>,
    /// Output folder.
    #[arg(long, default_value = "out/match")]
    out: PathBuf,
    /// Worker threads, 1 to 64 (default: those of the run --resume continues, else all cores).
    /// The games do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=i64::from(super::stats::MAX_THREADS)))]
    threads: Option<u16>,
    /// Continue the match in --out, with the options recorded in its match.json.
    #[arg(
        long,
        conflicts_with_all = ["force", "game", "variant", "players", "games", "seed", "max_plies", "opening", "shard"]
    )]
    resume: bool,
    /// Replace a match already in --out.
    #[arg(long)]
    force: bool,
}

/// Whether `n` is 0 (for serde's `skip_serializing_if`).
fn is_zero(n: &u32) -> bool {
    *n == 0
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
    /// Random plies opening every game (0: none; not written then).
    #[serde(default, skip_serializing_if = "is_zero")]
    opening: u32,
    /// The slice of every pairing's games this folder plays (`K/N`); none for a whole match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<String>,
    version: String,
    /// The command line that started the match, as Bash words: what its pairings' manifests
    /// record, also for those a `--resume` starts (none in a merged match, or an older one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    command: Vec<String>,
    /// The worker threads of the run that started the match, which its pairings record and a
    /// `--resume` without --threads uses (0: not recorded, as in a merged match).
    #[serde(default, skip_serializing_if = "is_zero_threads")]
    threads: usize,
}

fn is_zero_threads(n: &usize) -> bool {
    *n == 0
}

/// The match the options describe, checked: two or more distinct players, a reading.
fn match_of(args: &PlayArgs) -> Result<Match, String> {
    let game = args.game.unwrap_or_default();
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
    let variant = game.canonical_variant(args.variant.as_deref().unwrap_or(game.default_variant()));
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
        opening: args.opening.unwrap_or(0),
        shard: args
            .shard
            .as_deref()
            .map(canonical_shard)
            .transpose()
            .map_err(|e| e.to_string())?,
        version: env!("CARGO_PKG_VERSION").into(),
        command: super::stats::command_line(),
        threads: args
            .threads
            .map_or_else(rayon::current_num_threads, usize::from),
    };
    if m.opening >= m.max_plies {
        return Err(format!(
            "--opening {}: every ply of a game would be random (the ply limit is {}); open with \
             fewer plies",
            m.opening, m.max_plies
        ));
    }
    // The reading is checked by the first pairing's job before anything is played; checked
    // here too, so that --parse-only and a new folder see it first.
    let engines = [EngineKind::Optimized, EngineKind::Reference]
        .map(|k| mancala_lab::registry::engine(game, &m.variant, k));
    if let [Err(e), Err(_)] = engines {
        return Err(format!(
            "--variant {}: {e}",
            mancala_lab::text::quoted(&m.variant)
        ));
    }
    // A perfect player's databases, before any pairing plays.
    if let Some(&perfect) = args
        .players
        .iter()
        .find(|p| matches!(p, Policy::Perfect(_)))
    {
        if let Some(Ok(engine)) = engines.iter().find(|e| e.is_ok()) {
            engine.prepare(perfect.into())?;
        }
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
    let again = match_of(&PlayArgs {
        game: Some(game),
        variant: Some(m.variant.clone()),
        players,
        games: Some(m.games),
        seed: Some(m.seed),
        max_plies: Some(m.max_plies),
        opening: Some(m.opening),
        shard: m.shard.clone(),
        out: PathBuf::new(),
        threads: None,
        resume: false,
        force: false,
    })?;
    Ok(Match {
        version: m.version,
        command: m.command,
        threads: m.threads,
        ..again
    })
}

/// What `match` refuses before it plays (also for `--parse-only`).
pub fn check(args: &MatchArgs) -> Result<(), String> {
    if let Some(MatchCommand::Merge(m)) = &args.merge {
        if m.force {
            super::force_not_through_link(&m.out)?;
        }
        return check_merge(&m.out, &m.shards);
    }
    let args = &args.run;
    if args.resume {
        return Ok(());
    }
    if args.force {
        super::force_not_through_link(&args.out)?;
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

/// The first line of a match's games.csv.
const GAMES_HEADER: &str = "south,north,game,plies,winner,end_clause";

/// The first line of ratings.csv.
const RATINGS_HEADER: &str = "player,policy,games,wins,draws,losses,score,elo,elo_low,elo_high";

/// Whether `path`, one of [`match_files`], is the match's own: a match.json that reads as one, a
/// table with its header, the pairs folder (whose contents [`only_match_files`] checks).
fn is_match_file(path: &Path) -> bool {
    use mancala_lab::study::starts_with_header;
    let plain = path.symlink_metadata().is_ok_and(|m| m.is_file());
    match path.file_name().and_then(|n| n.to_str()) {
        Some(MATCH) => {
            plain
                && mancala_lab::study::manifest_text(path)
                    .is_ok_and(|t| serde_json::from_str::<Match>(&t).is_ok())
        }
        Some("games.csv") => starts_with_header(path, GAMES_HEADER),
        Some("ratings.csv") => starts_with_header(path, RATINGS_HEADER),
        Some(PAIRS) => path.symlink_metadata().is_ok_and(|m| m.is_dir()),
        _ => false,
    }
}

/// Refuses a folder where a file or folder of the user's stands at the place of a match's
/// own: a match or a merge replaces only a match's files, `--force` or not.
fn own_match_files(out: &Path) -> Result<(), String> {
    let foreign = match_files(out)
        .into_iter()
        .find(|p| p.symlink_metadata().is_ok() && !is_match_file(p));
    match foreign {
        Some(p) => Err(format!(
            "{}: not a file of a match (a link, a folder, or a file without the match's \
             header); move it away or choose another --out: a match replaces only its own files",
            shown_path(&p)
        )),
        None => Ok(()),
    }
}

/// The files of a match in `out`, present or not.
fn match_files(out: &Path) -> [PathBuf; 4] {
    [MATCH, "games.csv", "ratings.csv", PAIRS].map(|f| out.join(f))
}

pub fn run(args: MatchArgs) -> Result<ExitCode, String> {
    match args.merge {
        Some(MatchCommand::Merge(m)) => merge(&m.out, m.force, &m.shards),
        None => play(args.run),
    }
}

/// The match recorded in `dir`'s match.json, checked; `what` says whose (for errors).
fn read_match(dir: &Path, what: &str) -> Result<Match, String> {
    let path = dir.join(MATCH);
    if path.symlink_metadata().is_err() {
        return Err(format!(
            "{what}: {} holds no match (no match.json)",
            shown_path(dir)
        ));
    }
    let text = mancala_lab::study::manifest_text(&path).map_err(|e| format!("{what}: {e}"))?;
    let m = serde_json::from_str::<Match>(&text)
        .map_err(|e| format!("{what}: {}: {e}", shown_path(&path)))?;
    recorded(m).map_err(|e| format!("{what}: {}: {e}", shown_path(&path)))
}

/// The players of a checked match.
fn players_of(m: &Match, dir: &Path) -> Result<Vec<Policy>, String> {
    m.players
        .iter()
        .map(|p| p.parse::<Policy>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", shown_path(dir.join(MATCH))))
}

/// Makes `out` a match's folder and locks it (held to the end: one match at a time in a folder;
/// each pairing's job locks its own). A match's pairing folder, a stats study or a file of a
/// study's name there is refused; temporary files a second Ctrl-C left while results were
/// written are removed.
fn take_folder(out: &Path) -> Result<DirLock, String> {
    if out.as_os_str() == "-" {
        return Err("--out -: a match is a folder of files; name one".into());
    }
    if let Some(matched) = super::stats::match_of_pairing(out) {
        return Err(format!(
            "--out {}: a pairing folder of the match in {}; the match plays it (mancala-lab \
             match --resume --out {}), a match needs a folder of its own",
            shown_path(out),
            shown_path(&matched),
            shell_word(&matched)
        ));
    }
    // A stats study's files (its manifest, or what its results leave): never taken for a
    // match's, with --force or without; a file of the user's named so is not called a study.
    let study = [mancala_lab::study::MANIFEST, "summary.csv", "clauses.csv"]
        .into_iter()
        .find(|f| out.join(f).symlink_metadata().is_ok());
    if let Some(file) = study {
        let held = if mancala_lab::study::is_study_file(out, file) {
            format!("a stats study ({file}), not a match")
        } else {
            format!("{file}, a file no match writes")
        };
        return Err(format!(
            "--out {} holds {held}; a match needs a folder of its own",
            shown_path(out)
        ));
    }
    make_dir(out).map_err(|e| e.to_string())?;
    let lock = DirLock::take(out).map_err(|e| e.to_string())?;
    if let Ok(entries) = fs::read_dir(out) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let stale = mancala_lab::study::is_temporary_of(&name, &["games.csv", "ratings.csv"]);
            if stale && e.file_type().is_ok_and(|t| t.is_file()) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
    Ok(lock)
}

/// Removes the match in `out` (its files, present or not) for a new one: refused without
/// `force` when there is one, naming `keep`: what else can be done with it.
fn clear_match(out: &Path, force: bool, keep: &str) -> Result<(), String> {
    let present: Vec<PathBuf> = match_files(out)
        .into_iter()
        .filter(|p| p.symlink_metadata().is_ok())
        .collect();
    own_match_files(out)?;
    if !present.is_empty() && !force {
        return Err(format!(
            "--out {} holds a match ({}); {keep}replace it with --force",
            shown_path(out),
            present
                .iter()
                .map(|p| p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    only_match_files(out)?;
    for p in present {
        let gone = if p.is_dir() {
            fs::remove_dir_all(&p)
        } else {
            fs::remove_file(&p)
        };
        gone.map_err(|e| format!("{}: {e}", shown_path(&p)))?;
    }
    Ok(())
}

/// Refuses to replace the match in `out` while its `pairs` folder holds anything a match does
/// not write there (a pairing folder `K-L` holds a stats job's files, its lock and temporary
/// files): a user's notes are never removed with the match.
fn only_match_files(out: &Path) -> Result<(), String> {
    let pairs = out.join(PAIRS);
    let Ok(entries) = fs::read_dir(&pairs) else {
        return Ok(());
    };
    // `K-L` as a match names a pairing: two distinct player numbers from 1, written plainly
    // (a folder named otherwise, `01-2` or `1-1`, is no pairing of any match).
    let player = |n: &str| {
        n.parse::<usize>()
            .ok()
            .filter(|&k| (1..=MAX_PLAYERS).contains(&k) && n == k.to_string())
    };
    let pairing = |name: &str| {
        name.split_once('-')
            .is_some_and(|(a, b)| matches!((player(a), player(b)), (Some(a), Some(b)) if a != b))
    };
    let job_file = |name: &str| {
        [
            "manifest.json",
            "games.csv",
            "summary.csv",
            "clauses.csv",
            ".lock",
        ]
        .contains(&name)
            || mancala_lab::study::is_temporary_of(
                name,
                &["manifest.json", "games.csv", "summary.csv", "clauses.csv"],
            )
    };
    let foreign = |path: &Path| {
        format!(
            "--out {}: {} is not a file a match writes; move it away before replacing the match",
            shown_path(out),
            shown_path(path)
        )
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if !entry.file_type().is_ok_and(|t| t.is_dir()) || !pairing(&name) {
            return Err(foreign(&path));
        }
        for file in fs::read_dir(&path).map_err(|e| format!("{}: {e}", shown_path(&path)))? {
            let file = file.map_err(|e| format!("{}: {e}", shown_path(&path)))?;
            let name = file.file_name().to_string_lossy().into_owned();
            if !file.file_type().is_ok_and(|t| t.is_file()) || !job_file(&name) {
                return Err(foreign(&file.path()));
            }
        }
    }
    Ok(())
}

/// Writes match.json of `m` in `out`.
fn save_match(out: &Path, m: &Match) -> Result<(), String> {
    let text = serde_json::to_string_pretty(m).map_err(|e| e.to_string())? + "\n";
    write_atomic(&out.join(MATCH), &text).map_err(|e| e.to_string())
}

/// Plays the match (or its shard) the options give, or goes on with the one in --out.
fn play(args: PlayArgs) -> Result<ExitCode, String> {
    let out = args.out.clone();
    if out.as_os_str() == "-" {
        return Err("--out -: a match is a folder of files; name one".into());
    }
    let m = if args.resume {
        read_match(&out, "--resume").map_err(|e| {
            if out.join(MATCH).symlink_metadata().is_err() {
                format!("{e}; start one, with --force if the folder holds a match's remains")
            } else {
                e
            }
        })?
    } else {
        match_of(&args)?
    };
    let players = players_of(&m, &out)?;
    if args.force {
        super::force_not_through_link(&out)?;
    }
    let _lock = take_folder(&out)?;
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
    if !args.resume {
        clear_match(&out, args.force, "continue it with --resume, or ")?;
        save_match(&out, &m)?;
    }
    let all = pairings(players.len());
    for (k, &(a, b)) in all.iter().enumerate() {
        let dir = pair_dir(&out, (a, b));
        let resume = dir.join(mancala_lab::study::MANIFEST).exists();
        // A pairing folder without a manifest is one whose job was killed before its first
        // save: it holds the job's hidden files and at most games.csv's header. Anything else
        // there is not the match's, and is not played over.
        let header = mancala_lab::games_csv::header(m.game.parse().map_err(|e| format!("{e}"))?);
        let foreign = (!resume)
            .then(|| fs::read_dir(&dir).ok())
            .flatten()
            .and_then(|entries| {
                entries
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .find(|name| {
                        let header_only = name == "games.csv"
                            && fs::read(dir.join(name))
                                .is_ok_and(|b| b.is_empty() || b == header.as_bytes());
                        !name.starts_with('.') && !header_only
                    })
            });
        if let Some(name) = foreign {
            return Err(format!(
                "{}: {name} is there but no manifest.json, so the folder is not a pairing this \
                 match wrote; move it away to play the pairing",
                shown_path(&dir)
            ));
        }
        if resume {
            let done = pair_manifest(&dir, &m, (players[a], players[b]))
                .map_err(|e| format!("{e}; remove the folder to play it again"))?;
            // A finished pairing whose result files a failed write lost is resumed: it plays
            // nothing and writes them.
            // Rows past those counted (a write the manifest never saw) are dropped by a resume
            // too: only a pairing whose games.csv is exactly its counted rows is skipped.
            let game: GameKind = done.job.game.parse().map_err(|e| format!("{e}"))?;
            let rows = fs::metadata(dir.join("games.csv")).map_or(0, |m| m.len());
            let whole = ["summary.csv", "clauses.csv"]
                .iter()
                .all(|f| dir.join(f).is_file())
                && rows == mancala_lab::games_csv::header(game).len() as u64 + done.rows_bytes;
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
            opening: Some(m.opening),
            shard: m.shard.clone(),
            out: dir.clone(),
            // The threads of the run that started the match, unless --threads says otherwise.
            threads: args.threads.or_else(|| {
                u16::try_from(m.threads)
                    .ok()
                    .filter(|t| (1..=super::stats::MAX_THREADS).contains(t))
            }),
            // Every pairing records the command that started the match, whichever run plays it.
            command: Some(m.command.clone()).filter(|c| !c.is_empty()),
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
    print_results(&m, &out, &table)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints what the match in `out` is and its ratings.
fn print_results(m: &Match, out: &Path, table: &Table) -> Result<(), String> {
    let games = match &m.shard {
        None => format!(
            "{} game{} a pairing each way",
            m.games,
            if m.games == 1 { "" } else { "s" }
        ),
        Some(shard) => {
            let (first, end) = shard_range(m.games, Some(shard)).map_err(|e| e.to_string())?;
            format!(
                "games {first}..{end} of the {} a pairing plays each way (shard {shard})",
                m.games
            )
        }
    };
    let opening = match m.opening {
        0 => String::new(),
        1 => ", 1 random ply opening each game".into(),
        n => format!(", {n} random plies opening each game"),
    };
    println!(
        "{} match, {} reading: {} players, {games}{opening}, seed {}; written to {}",
        m.game,
        m.variant,
        m.players.len(),
        m.seed,
        shown_path(out)
    );
    print!("{}", table.text);
    Ok(())
}

/// `match merge`: the shards' matches checked to be slices of one match that cover its games,
/// every pairing merged as `stats merge` merges, then the match's games.csv and ratings.csv.
fn merge(out: &Path, force: bool, shards: &[PathBuf]) -> Result<ExitCode, String> {
    if out.as_os_str() == "-" {
        return Err("--out -: a match is a folder of files; name one".into());
    }
    if force {
        super::force_not_through_link(out)?;
    }
    check_merge(out, shards)?;
    // Ctrl-C (or a termination signal) from the start: before --out is touched it just stops.
    let interrupt = super::interrupt_on_ctrl_c_with(String::new);
    let stopped = || interrupt.load(std::sync::atomic::Ordering::SeqCst);
    // Held until the merge is done: no match writes a shard while it is read.
    let _reading = shards
        .iter()
        .map(|s| mancala_lab::study::ReadLock::take(s).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut parts = Vec::new();
    for s in shards {
        parts.push(read_match(s, "match merge")?);
    }
    let whole = |m: &Match| Match {
        shard: None,
        version: String::new(),
        command: Vec::new(),
        threads: 0,
        ..m.clone()
    };
    let base = whole(&parts[0]);
    for (i, m) in parts.iter().enumerate() {
        if whole(m) != base {
            let field = match_difference(&whole(m), &base);
            return Err(format!(
                "{}: a shard of a different match ({field} in {})",
                shown_path(shards[i].join(MATCH)),
                shown_path(shards[0].join(MATCH))
            ));
        }
    }
    let players = players_of(&base, &shards[0])?;
    // Every pairing of every shard its match's, finished and whole, before the shards' ranges
    // are read from their match.json files.
    for (s, m) in shards.iter().zip(&parts) {
        for (a, b) in pairings(players.len()) {
            check_shard_pairing(s, m, (a, b), (players[a], players[b]))?;
        }
    }
    let mut ranges = Vec::new();
    for (i, m) in parts.iter().enumerate() {
        let (first, end) = shard_range(m.games, m.shard.as_deref()).map_err(|e| e.to_string())?;
        ranges.push((first, end, i));
    }
    ranges.sort_unstable();
    let mut expected = 0;
    for &(first, end, i) in &ranges {
        if first != expected {
            return Err(format!(
                "{}: plays games {first}..{end} of each pairing, but the next game to merge is \
                 {expected} (a shard missing or given twice)",
                shown_path(&shards[i])
            ));
        }
        expected = end;
    }
    if expected != base.games {
        return Err(format!(
            "the shards cover games 0..{expected} of each pairing's 0..{}",
            base.games
        ));
    }
    let created = out.symlink_metadata().is_err();
    let lock = take_folder(out)?;
    // Without --force a match there is refused now; with it, it is replaced only once the
    // merged match is whole, so that a failed or stopped merge keeps it.
    if !force {
        clear_match(out, false, "merge into another folder, or ")?;
    } else {
        own_match_files(out)?;
        only_match_files(out)?;
    }
    // The merge is made in a folder of its own inside --out, removed if it fails or is stopped.
    let work = mancala_lab::study::staging_dir(out).map_err(|e| e.to_string())?;
    let m = Match {
        version: parts[0].version.clone(),
        ..base
    };
    let built = merge_into(work.path(), &m, &players, shards, interrupt);
    let (commits, table) = match built {
        Ok(Some(done)) => done,
        failed => {
            drop(work);
            if created {
                drop(lock);
                let _ = fs::remove_dir(out);
            }
            return match failed {
                Err(e) => Err(format!("{e}; nothing merged into {}", shown_path(out))),
                _ => {
                    eprintln!("interrupted; nothing merged into {}", shown_path(out));
                    Ok(ExitCode::from(130))
                }
            };
        }
    };
    // From here on the merge is finished whatever a signal says: the new match takes the old
    // one's place, all files or none, match.json last.
    super::uninterrupted(|| {
        mancala_lab::study::swap_in(
            out,
            work.path(),
            &[PAIRS, "games.csv", "ratings.csv", MATCH],
        )
    })
    .map_err(|e| format!("{e}; nothing merged into {}", shown_path(out)))?;
    drop(work);
    if commits.len() > 1 {
        eprintln!("{}", commits_note(&commits));
    }
    print_results(&m, out, &table)?;
    if stopped() {
        eprintln!(
            "interrupted as the merge was being finished; {} holds it whole",
            shown_path(out)
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// Merges every pairing of the checked `shards` into `dir` (empty), then writes the match's
/// match.json, games.csv and ratings.csv there; `None` when `interrupt` stopped it.
fn merge_into(
    dir: &Path,
    m: &Match,
    players: &[Policy],
    shards: &[PathBuf],
    interrupt: &std::sync::atomic::AtomicBool,
) -> Result<Option<(std::collections::BTreeSet<String>, Table)>, String> {
    let mut commits = std::collections::BTreeSet::new();
    make_dir(&dir.join(PAIRS)).map_err(|e| e.to_string())?;
    for (a, b) in pairings(players.len()) {
        let from: Vec<PathBuf> = shards.iter().map(|s| pair_dir(s, (a, b))).collect();
        match merge_shards(&pair_dir(dir, (a, b)), false, &from, interrupt)? {
            Some(merged) => commits.extend(merged.commits),
            None => return Ok(None),
        }
        if interrupt.load(std::sync::atomic::Ordering::SeqCst) {
            return Ok(None);
        }
    }
    save_match(dir, m)?;
    let table = results(dir, m, players)?;
    Ok(Some((commits, table)))
}

/// Refuses a pairing of the shard `s` (of the match `m`) that a merge cannot take: missing,
/// another job's, unfinished, or with rows past those its manifest counts.
fn check_shard_pairing(
    s: &Path,
    m: &Match,
    pair: (usize, usize),
    players: (Policy, Policy),
) -> Result<(), String> {
    let dir = pair_dir(s, pair);
    let resume = format!("mancala-lab match --resume --out {}", shell_word(s));
    if dir
        .join(mancala_lab::study::MANIFEST)
        .symlink_metadata()
        .is_err()
    {
        return Err(format!(
            "{}: missing (no manifest.json); the shard is not whole: finish it with: {resume}",
            shown_path(&dir)
        ));
    }
    let done = pair_manifest(&dir, m, players).map_err(|e| {
        format!(
            "{e}; {} is not a shard of its own match.json",
            shown_path(s)
        )
    })?;
    if done.games_done != done.end_game - done.first_game {
        return Err(format!(
            "{}: unfinished ({} of {} games); finish the shard with: {resume} (once no job is \
             playing it)",
            shown_path(&dir),
            done.games_done,
            done.end_game - done.first_game
        ));
    }
    let game: GameKind = done.job.game.parse().map_err(|e| format!("{e}"))?;
    let rows = fs::metadata(dir.join("games.csv")).map_or(0, |f| f.len());
    if rows != mancala_lab::games_csv::header(game).len() as u64 + done.rows_bytes {
        return Err(format!(
            "{}: games.csv does not hold exactly the rows manifest.json counts; finish the shard \
             with: {resume}",
            shown_path(&dir)
        ));
    }
    Ok(())
}

/// The first field in which two matches differ, as `seed 2, not 1 as`.
fn match_difference(a: &Match, b: &Match) -> String {
    let fields = |m: &Match| {
        [
            ("game", m.game.clone()),
            ("variant", m.variant.clone()),
            ("players", m.players.join(" ")),
            ("games", m.games.to_string()),
            ("seed", m.seed.to_string()),
            ("max_plies", m.max_plies.to_string()),
            ("opening", m.opening.to_string()),
        ]
    };
    fields(a)
        .into_iter()
        .zip(fields(b))
        .find(|(x, y)| x.1 != y.1)
        .map(|((name, x), (_, y))| format!("{name} {}, not {} as", quoted(&x), quoted(&y)))
        .unwrap_or_default()
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
        ("opening", j.opening.to_string(), m.opening.to_string()),
        (
            "shard",
            j.shard.clone().unwrap_or_default(),
            m.shard.clone().unwrap_or_default(),
        ),
    ]
    .into_iter()
    .find(|(_, found, want)| found != want);
    match differs {
        None => Ok(manifest),
        Some((field, found, want)) => Err(format!(
            "{}: not this match's pairing ({field} {} where the match has {})",
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
    // Checked again: a file of the user's may have come to a result's place during the games.
    own_match_files(out)?;
    let k = players.len();
    // Every pairing's manifest first: a foreign or unfinished one is refused before any file.
    let mut pairs = Vec::new();
    for (a, b) in pairings(k) {
        let dir = pair_dir(out, (a, b));
        let manifest = pair_manifest(&dir, m, (players[a], players[b]))
            .map_err(|e| format!("{e}; remove the folder to play it again"))?;
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
    replace_file(&games_path, |w| {
        let failed = |e: std::io::Error| mancala_lab::study::StudyError::Io {
            path: games_path.clone(),
            source: e,
        };
        w.write_all(format!("{GAMES_HEADER}\n").as_bytes())
            .map_err(failed)?;
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
            })?;
        }
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    let mut csv = format!("{RATINGS_HEADER}\n");
    if tally.iter().all(|t| t.iter().sum::<u64>() == 0) {
        // A shard with no game of any pairing (more shards than games): nothing to rate.
        write_ratings(out, &csv)?;
        return Ok(Table {
            text: "  no games here: nothing to rate\n".into(),
        });
    }
    let ratings = bradley_terry(&points, &games).map_err(|e| e.to_string())?;
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
    write_ratings(out, &csv)?;
    Ok(Table { text })
}

/// Writes the match's ratings.csv in `out`.
fn write_ratings(out: &Path, csv: &str) -> Result<(), String> {
    let path = out.join("ratings.csv");
    replace_file(&path, |w| {
        w.write_all(csv.as_bytes())
            .map_err(|source| mancala_lab::study::StudyError::Io {
                path: path.clone(),
                source,
            })
    })
    .map_err(|e| e.to_string())
}
