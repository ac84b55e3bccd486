//! `mancala-lab stats`: batch playouts written as CSV (games.csv, clauses.csv, summary.csv) with a
//! manifest; resumable, interruptible with Ctrl-C, splittable into shards and merged back.

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::interrupt_on_ctrl_c;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mancala_lab::bao::Rules as BaoRules;
use mancala_lab::stats::{self, ClauseCounts, Policy, SummaryRow};
use serde::{Deserialize, Serialize};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct StatsArgs {
    #[command(subcommand)]
    merge: Option<StatsCommand>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum StatsCommand {
    /// Join the output folders of shards into the files one run would have written.
    Merge {
        /// Where to write the merged files.
        #[arg(long)]
        out: PathBuf,
        /// The shard folders, in any order.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
}

#[derive(Args, Clone)]
pub struct RunArgs {
    /// The game: bao or oware.
    #[arg(long, default_value = "bao")]
    game: String,
    /// The rule reading (preset of that game; default: default / sheet).
    #[arg(long)]
    variant: Option<String>,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Master seed; game i uses ChaCha8 stream i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Move policy: random, greedy or search (two-ply material search).
    #[arg(long, default_value = "random")]
    policy: String,
    /// Output folder.
    #[arg(long, default_value = "out/stats")]
    out: PathBuf,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Run the K-th of N disjoint slices of the games, e.g. 2/8.
    #[arg(long)]
    shard: Option<String>,
    /// Continue an interrupted run in the same folder.
    #[arg(long)]
    resume: bool,
    /// Stop a game after this many plies.
    #[arg(long, default_value_t = 2000)]
    max_plies: u32,
}

/// Written beside the results: how they were made and how far the run got.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Manifest {
    command: Vec<String>,
    version: String,
    commit: String,
    game: String,
    variant: String,
    policy: String,
    seed: u64,
    games: u64,
    first_game: u64,
    end_game: u64,
    shard: Option<String>,
    threads: usize,
    max_plies: u32,
    games_done: u64,
    clause_counts: ClauseCounts,
}

impl Manifest {
    /// What identifies a job: a resumed run and the shards of a merge must agree on it.
    fn job(&self) -> (&str, &str, &str, u64, u64, u32) {
        (
            &self.game,
            &self.variant,
            &self.policy,
            self.seed,
            self.games,
            self.max_plies,
        )
    }
}

fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

fn shard_range(games: u64, shard: &Option<String>) -> Result<(u64, u64), String> {
    let Some(s) = shard else {
        return Ok((0, games));
    };
    let parsed = s
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
        .filter(|&(k, n)| n > 0 && (1..=n).contains(&k));
    let (k, n) = parsed.ok_or_else(|| format!("--shard '{s}': expected K/N with 1 <= K <= N"))?;
    Ok(((k - 1) * games / n, k * games / n))
}

/// One game's CSV row (without header) and clause counts.
fn play(
    args: &RunArgs,
    variant: &str,
    policy: Policy,
    index: u64,
) -> Result<(String, ClauseCounts), String> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    let counts = match args.game.as_str() {
        "bao" => {
            let v = variant.parse().map_err(|e| format!("--variant: {e}"))?;
            let (row, c) = stats::bao_game(
                &BaoRules::new(v),
                variant,
                policy,
                args.seed,
                index,
                args.max_plies,
            );
            w.serialize(row).map_err(|e| e.to_string())?;
            c
        }
        "oware" => {
            let v = variant.parse().map_err(|e| format!("--variant: {e}"))?;
            let (row, c) = stats::oware_game(v, variant, policy, args.seed, index, args.max_plies);
            w.serialize(row).map_err(|e| e.to_string())?;
            c
        }
        other => return Err(format!("unknown game '{other}' (known: bao, oware)")),
    };
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    Ok((String::from_utf8(bytes).map_err(|e| e.to_string())?, counts))
}

fn header(game: &str) -> &'static str {
    if game == "bao" {
        "game,variant,policy,plies,winner,end_clause,captures_south,captures_north,kunamua_plies,mtaji_plies,house_events,longest_move_sowings,longest_move_seeds,infinite_moves_met,undefined_cases\n"
    } else {
        "game,variant,policy,plies,winner,end_clause,captured_south,captured_north,final_south,final_north,capturing_moves,undefined_cases\n"
    }
}

/// Appends `rows` finished rows, then the manifest that counts them: an interruption in between is
/// undone by --resume, which keeps only the rows the manifest counts.
fn save_rows(
    file: &mut File,
    games_path: &Path,
    text: &str,
    manifest: &mut Manifest,
    rows: u64,
    manifest_path: &Path,
) -> Result<(), String> {
    if rows == 0 {
        return Ok(());
    }
    file.write_all(text.as_bytes())
        .and_then(|_| file.flush())
        .map_err(|e| format!("{}: {e}", games_path.display()))?;
    manifest.games_done += rows;
    let json = serde_json::to_string_pretty(manifest).map_err(|e| e.to_string())?;
    write_atomic(manifest_path, &json)
}

fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Keeps the first `rows` data rows of games.csv (dropping a partial tail after an interruption).
fn truncate_rows(path: &Path, rows: u64) -> Result<(), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut kept = String::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        if i as u64 > rows {
            break;
        }
        kept.push_str(&line);
        kept.push('\n');
    }
    write_atomic(path, &kept)
}

/// Reads (winner, end_clause, plies) of every row of a games.csv.
fn read_games(path: &Path) -> Result<Vec<(String, String, u32)>, String> {
    let mut r = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let headers = r.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or(format!("{}: no column {name}", path.display()))
    };
    let (w, c, p) = (col("winner")?, col("end_clause")?, col("plies")?);
    let mut out = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| format!("{}: row {}: {e}", path.display(), i + 2))?;
        let plies = rec[p]
            .parse()
            .map_err(|e| format!("{}: row {}: plies: {e}", path.display(), i + 2))?;
        out.push((rec[w].to_string(), rec[c].to_string(), plies));
    }
    Ok(out)
}

fn write_outputs(dir: &Path, counts: &ClauseCounts) -> Result<Vec<SummaryRow>, String> {
    let mut clauses = String::from("clause,count\n");
    for (c, n) in counts {
        clauses.push_str(&format!("{c},{n}\n"));
    }
    write_atomic(&dir.join("clauses.csv"), &clauses)?;
    let summary = stats::summarize(&read_games(&dir.join("games.csv"))?);
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in &summary {
        w.serialize(row).map_err(|e| e.to_string())?;
    }
    let text =
        String::from_utf8(w.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    write_atomic(&dir.join("summary.csv"), &text)?;
    Ok(summary)
}

fn print_summary(label: &str, summary: &[SummaryRow]) {
    println!("{label}");
    for r in summary {
        if r.metric == "games" {
            println!("  games: {}", r.value);
        } else {
            println!(
                "  {}: {:.4} [{:.4}, {:.4}]",
                r.metric, r.value, r.ci_low, r.ci_high
            );
        }
    }
}

/// Runs (or resumes) a stats job; `interrupt` is set by Ctrl-C.
pub fn run_job(
    args: &RunArgs,
    interrupt: &AtomicBool,
    quiet: bool,
) -> Result<(ExitCode, Vec<SummaryRow>), String> {
    let variant = args.variant.clone().unwrap_or_else(|| {
        if args.game == "bao" {
            "default"
        } else {
            "sheet"
        }
        .into()
    });
    let policy: Policy = args.policy.parse()?;
    let (first, end) = shard_range(args.games, &args.shard)?;
    fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let games_path = args.out.join("games.csv");
    let manifest_path = args.out.join("manifest.json");
    let threads = args
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    let mut manifest = Manifest {
        command: std::env::args().collect(),
        version: env!("CARGO_PKG_VERSION").into(),
        commit: commit(),
        game: args.game.clone(),
        variant: variant.clone(),
        policy: policy.name().into(),
        seed: args.seed,
        games: args.games,
        first_game: first,
        end_game: end,
        shard: args.shard.clone(),
        threads,
        max_plies: args.max_plies,
        games_done: 0,
        clause_counts: ClauseCounts::new(),
    };
    if args.resume {
        let text = fs::read_to_string(&manifest_path)
            .map_err(|e| format!("--resume: {}: {e}", manifest_path.display()))?;
        let old: Manifest =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
        let same = old.job() == manifest.job() && (old.first_game, old.end_game) == (first, end);
        if !same {
            return Err(format!(
                "--resume: {} was written by a different job",
                manifest_path.display()
            ));
        }
        manifest.games_done = old.games_done;
        manifest.clause_counts = old.clause_counts;
        truncate_rows(&games_path, old.games_done)?;
    } else {
        fs::write(&games_path, header(&args.game))
            .map_err(|e| format!("{}: {e}", games_path.display()))?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let total = end - first;
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
            .map_err(|e| e.to_string())?,
    );
    bar.set_position(manifest.games_done);
    let mut file = OpenOptions::new()
        .append(true)
        .open(&games_path)
        .map_err(|e| format!("{}: {e}", games_path.display()))?;
    // Rows are saved in game order every 256 rows or second, with the manifest that counts them.
    let (mut text, mut rows, mut saved_at) = (String::new(), 0u64, Instant::now());
    let mut failed = None;
    let start = first + manifest.games_done;
    super::in_order(
        &pool,
        start..end,
        interrupt,
        |i| play(args, &variant, policy, i),
        |_, result| {
            let (row, counts) = match result {
                Ok(done) => done,
                Err(e) => {
                    failed = Some(e);
                    return false;
                }
            };
            text.push_str(&row);
            for (c, n) in counts {
                *manifest.clause_counts.entry(c).or_default() += n;
            }
            rows += 1;
            bar.set_position(manifest.games_done + rows);
            if rows >= 256 || saved_at.elapsed() >= Duration::from_secs(1) {
                let (file, path) = (&mut file, &games_path);
                failed = save_rows(file, path, &text, &mut manifest, rows, &manifest_path).err();
                // Rows that failed to save are not tried again.
                (text, rows, saved_at) = (String::new(), 0, Instant::now());
            }
            failed.is_none()
        },
    );
    // The rows before a failed game are kept too.
    save_rows(
        &mut file,
        &games_path,
        &text,
        &mut manifest,
        rows,
        &manifest_path,
    )?;
    if let Some(e) = failed {
        return Err(e);
    }
    bar.finish_and_clear();
    if manifest.games_done < total {
        eprintln!(
            "interrupted after {} of {total} games; complete rows are in {}; continue with --resume",
            manifest.games_done,
            games_path.display()
        );
        return Ok((ExitCode::from(130), Vec::new()));
    }
    let summary = write_outputs(&args.out, &manifest.clause_counts)?;
    Ok((ExitCode::SUCCESS, summary))
}

fn merge(out: &Path, shards: &[PathBuf]) -> Result<ExitCode, String> {
    let mut parts: Vec<Manifest> = Vec::new();
    for s in shards {
        let p = s.join("manifest.json");
        let text = fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        parts.push(serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?);
    }
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| parts[i].first_game);
    let base = parts[order[0]].clone();
    let mut expected = 0;
    for &i in &order {
        let m = &parts[i];
        if m.job() != base.job() {
            return Err(format!(
                "{}: a shard of a different job",
                shards[i].display()
            ));
        }
        if m.first_game != expected || m.games_done != m.end_game - m.first_game {
            return Err(format!("{}: shards must cover games 0..{} completely and once (missing or unfinished slice at game {expected})", shards[i].display(), base.games));
        }
        expected = m.end_game;
    }
    if expected != base.games {
        return Err(format!(
            "the shards cover games 0..{expected} of 0..{}",
            base.games
        ));
    }
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut games = String::from(header(&base.game));
    let mut counts = ClauseCounts::new();
    for &i in &order {
        let text = fs::read_to_string(shards[i].join("games.csv"))
            .map_err(|e| format!("{}: {e}", shards[i].display()))?;
        games.extend(text.lines().skip(1).map(|l| format!("{l}\n")));
        for (c, n) in &parts[i].clause_counts {
            *counts.entry(c.clone()).or_default() += n;
        }
    }
    write_atomic(&out.join("games.csv"), &games)?;
    let summary = write_outputs(out, &counts)?;
    let merged = Manifest {
        command: std::env::args().collect(),
        first_game: 0,
        end_game: base.games,
        shard: None,
        games_done: base.games,
        clause_counts: counts,
        ..base
    };
    write_atomic(
        &out.join("manifest.json"),
        &serde_json::to_string_pretty(&merged).map_err(|e| e.to_string())?,
    )?;
    print_summary(
        &format!("merged {} shards into {}", shards.len(), out.display()),
        &summary,
    );
    Ok(ExitCode::SUCCESS)
}

/// The main job's default study: Bao (default reading) and Oware (sheet), random play, to out/.
pub fn default_study() -> Result<ExitCode, String> {
    let interrupt = interrupt_on_ctrl_c();
    for (game, games) in [("bao", 2000), ("oware", 5000)] {
        let args = RunArgs {
            game: game.into(),
            variant: None,
            games,
            seed: 1,
            policy: "random".into(),
            out: PathBuf::from("out").join(game),
            threads: None,
            shard: None,
            resume: false,
            max_plies: 2000,
        };
        let (code, summary) = run_job(&args, &interrupt, false)?;
        if code != ExitCode::SUCCESS {
            return Ok(code);
        }
        print_summary(
            &format!(
                "{game}: {games} random games (seed 1) written to {}",
                args.out.display()
            ),
            &summary,
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: StatsArgs) -> Result<ExitCode, String> {
    if let Some(StatsCommand::Merge { out, shards }) = args.merge {
        return merge(&out, &shards);
    }
    let interrupt = interrupt_on_ctrl_c();
    let (code, summary) = run_job(&args.run, &interrupt, false)?;
    if code == ExitCode::SUCCESS {
        print_summary(
            &format!(
                "{} {} games written to {}",
                args.run.game,
                args.run.games,
                args.run.out.display()
            ),
            &summary,
        );
    }
    Ok(code)
}
