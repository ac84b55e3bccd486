//! `mancala-lab stats`: the options of a study, its progress bar and notes on standard error, and
//! its summary on standard output; the study itself (run, resume, merge) is `mancala_lab::study`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::{Args, Subcommand};
use mancala_lab::playout::EngineKind;
use mancala_lab::policy::{Players, Policy};
use mancala_lab::registry::engine as new_engine;
use mancala_lab::registry::GameKind;
use mancala_lab::stats::Summary;
use mancala_lab::study::job::MAX_THREADS;
use mancala_lab::study::{
    check_merge, merge_shards, read_manifest, read_manifest_unsealed, shard_range, Manifest,
    Outcome, Request, GAMES, MANIFEST,
};
use mancala_lab::text::{quoted, shown_path};

use super::study_report::{commits_note, merge_end, merge_stopped, print_summary, Bar};
use super::{flagged, interrupt_on_ctrl_c, interrupt_on_ctrl_c_with};

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
    Merge(super::MergeArgs),
}

/// The options of a run. Those that define the job are optional so that `--resume` can take
/// them from the manifest and name any that differ.
#[derive(Args, Clone, Default)]
pub struct RunArgs {
    /// The game [default: bao].
    #[arg(long, value_enum)]
    pub(super) game: Option<GameKind>,
    // The game's readings, listed by the registry.
    #[arg(long, help = format!("The rule reading ({})", mancala_lab::registry::readings_help()))]
    pub(super) variant: Option<String>,
    /// The engine [default: optimized; reference for readings the optimized engines do not
    /// play (strict)]. Both write the same games.csv.
    #[arg(long, value_enum)]
    pub(super) engine: Option<EngineKind>,
    /// Number of games in the job [default: 1000].
    #[arg(long)]
    pub(super) games: Option<u64>,
    /// Master seed: game i's moves are a function of (seed, i, ply) [default: 1].
    #[arg(long)]
    pub(super) seed: Option<u64>,
    /// Move policy of both sides: random, greedy, search, alphabeta[:depth=D|ms=T] or
    /// mcts[:sims=N|ms=T][,c=C][,solve=false] (docs/statistics.md), or South's and North's as
    /// S/N [default: random].
    #[arg(long)]
    pub(super) policy: Option<Players>,
    /// South's policy (instead of the one --policy gives).
    #[arg(long)]
    pub(super) south: Option<Policy>,
    /// North's policy (instead of the one --policy gives).
    #[arg(long)]
    pub(super) north: Option<Policy>,
    /// Stop a game after this many plies [default: 2000].
    #[arg(long)]
    pub(super) max_plies: Option<u32>,
    /// Open every game with this many random plies (game i's own draws, whoever plays it)
    /// before the policies choose, so that deterministic players meet in varied positions
    /// [default: 0].
    #[arg(long, value_name = "PLIES")]
    pub(super) opening: Option<u32>,
    /// Run the K-th of N disjoint slices of the games, e.g. 2/8.
    #[arg(long)]
    pub(super) shard: Option<String>,
    /// Output folder.
    #[arg(long, default_value = "out/stats")]
    pub(super) out: PathBuf,
    /// Worker threads, 1 to 64 (default: those of the run --resume continues, else all cores).
    /// The games do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS)))]
    pub(super) threads: Option<u16>,
    /// Continue the run in --out, with the job's options from its manifest.
    #[arg(long, conflicts_with = "force")]
    pub(super) resume: bool,
    /// The command line the manifest records, when not this process's own (a match's pairing
    /// records the command that started the match).
    #[arg(skip)]
    pub(super) command: Option<Vec<String>>,
    /// Replace a run already in --out.
    #[arg(long)]
    pub(super) force: bool,
    /// Start even when the estimated size of the study's files passes the free space where
    /// --out is.
    #[arg(long)]
    pub(super) no_space_check: bool,
}

impl RunArgs {
    /// The study these options ask for, recording this process's command line (or the one
    /// given: a match's pairing records the match's).
    pub fn request(&self) -> Request {
        Request {
            game: self.game,
            variant: self.variant.clone(),
            engine: self.engine,
            games: self.games,
            seed: self.seed,
            policy: self.policy,
            south: self.south,
            north: self.north,
            max_plies: self.max_plies,
            opening: self.opening,
            shard: self.shard.clone(),
            out: self.out.clone(),
            threads: self.threads,
            resume: self.resume,
            force: self.force,
            no_space_check: self.no_space_check,
            no_estimate: false,
            command: self.command.clone().unwrap_or_else(command_line),
        }
    }
}

/// Runs (or resumes) a stats job; `interrupt` is set by Ctrl-C. Returns the exit code and, for
/// a finished job, its summary and manifest as written under the lock.
pub fn run_job(
    request: &Request,
    interrupt: &'static AtomicBool,
) -> Result<(ExitCode, Option<(Summary, Manifest)>), String> {
    let mut bar = Bar::new()?;
    match mancala_lab::study::run(request, interrupt, &mut bar).map_err(flagged)? {
        Outcome::Finished(done) => Ok((ExitCode::SUCCESS, Some(*done))),
        Outcome::Stopped { done, total } => {
            eprintln!(
                "interrupted after {done} of {total} games; complete rows are in {}; continue \
                 with: mancala-lab stats --resume --out {}",
                shown_path(request.out.join(GAMES)),
                mancala_lab::text::shell_word(&request.out)
            );
            Ok((ExitCode::from(130), None))
        }
    }
}

/// The command line, each argument as a Bash word that gives it back byte for byte.
pub(super) fn command_line() -> Vec<String> {
    std::env::args_os()
        .map(mancala_lab::text::shell_word)
        .collect()
}

fn merge(out: &Path, force: bool, shards: &[PathBuf]) -> Result<ExitCode, String> {
    if force {
        super::force_not_through_link(out)?;
    }
    check_merge(out, shards).map_err(flagged)?;
    if out.join("match.json").symlink_metadata().is_ok() {
        return Err(format!(
            "--out {} holds a match (match.json); a study needs a folder of its own",
            shown_path(out)
        ));
    }
    // Ctrl-C (or a termination signal) from the start: before --out is touched it just stops.
    let interrupt = super::interrupt_on_ctrl_c_with(String::new);
    let Some(merged) =
        merge_shards(out, force, shards, &command_line(), interrupt).map_err(flagged)?
    else {
        return Ok(merge_stopped(out));
    };
    if merged.commits.len() > 1 {
        eprintln!("{}", commits_note(&merged.commits));
    }
    print_summary(
        &format!("merged {} shards into {}", shards.len(), shown_path(out)),
        &merged.summary,
        &merged.job,
    );
    Ok(merge_end(out, interrupt))
}

/// The main job's default study: Bao (default reading) and Oware (sheet), random play on the
/// optimized engines, to OUT/bao and OUT/oware (replacing the previous default study).
pub fn default_study(out: &Path) -> Result<ExitCode, String> {
    let interrupt = interrupt_on_ctrl_c();
    for game in GameKind::ALL {
        let games = game.main_job_games();
        let mut args = Request {
            force: false,
            command: command_line(),
            ..Request::random(game, None, games, 1, out.join(game.name()))
        };
        // The folder may hold this study (finished: played again, the same files; stopped:
        // continued) and nothing else: another study there is the user's, and is kept.
        if args.out.join(MANIFEST).exists() || args.out.join(GAMES).exists() {
            let ours = args.job().map_err(flagged)?;
            // An older build's manifest has no checksum: its job still says whose study it is.
            let sealed = read_manifest(&args.out).is_ok();
            match read_manifest_unsealed(&args.out) {
                Ok(m) if m.job == ours && sealed && m.games_done < m.end_game - m.first_game => {
                    args = Request {
                        out: args.out,
                        resume: true,
                        command: command_line(),
                        ..Request::default()
                    };
                }
                Ok(m) if m.job == ours => args.force = true,
                _ => {
                    return Err(format!(
                        "{} holds another study than the main job's ({games} random {game} \
                         games, seed 1); move it away or delete it, the main job writes there",
                        shown_path(&args.out)
                    ))
                }
            }
        }
        let (code, summary) = run_job(&args, interrupt)?;
        let Some((summary, m)) = summary else {
            return Ok(code);
        };
        print_summary(
            &format!(
                "{game}: {games} random games ({} reading, seed 1) written to {}",
                game.default_variant(),
                shown_path(&args.out)
            ),
            &summary,
            &m.job,
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What `stats` would refuse before touching its folder, for `--parse-only`. A resumed job's
/// options come from its manifest, so without `--game` its `--variant` need only name a reading
/// of some game.
pub fn check(args: &StatsArgs) -> Result<(), String> {
    let a = &args.run;
    if let Some(StatsCommand::Merge(m)) = &args.merge {
        if m.force {
            super::force_not_through_link(&m.out)?;
        }
        return check_merge(&m.out, &m.shards).map_err(flagged);
    }
    a.request().not_in_a_match().map_err(flagged)?;
    if a.force {
        super::force_not_through_link(&a.out)?;
    }
    if !a.resume {
        return a.request().check().map(drop).map_err(flagged);
    }
    if let Some(shard) = &a.shard {
        shard_range(a.games.unwrap_or(u64::MAX), Some(shard)).map_err(flagged)?;
    }
    let Some(v) = &a.variant else { return Ok(()) };
    let games = a.game.map_or(GameKind::ALL.to_vec(), |g| vec![g]);
    let errors: Vec<String> = games
        .iter()
        .filter_map(|&g| new_engine(g, v, EngineKind::Reference).err())
        .map(|e| e.to_string())
        .collect();
    if errors.len() == games.len() {
        return Err(format!("--variant {}: {}", quoted(v), errors.join("; ")));
    }
    Ok(())
}

pub fn run(args: StatsArgs) -> Result<ExitCode, String> {
    if let Some(StatsCommand::Merge(m)) = args.merge {
        return merge(&m.out, m.force, &m.shards);
    }
    args.run.request().not_in_a_match().map_err(flagged)?;
    if args.run.force {
        super::force_not_through_link(&args.run.out)?;
    }
    let out = mancala_lab::text::shell_word(&args.run.out);
    // The manifest on disk always names rows that are whole: a run stopped at any point resumes.
    let interrupt = interrupt_on_ctrl_c_with(move || {
        format!("interrupted; continue with: mancala-lab stats --resume --out {out}")
    });
    let (code, summary) = run_job(&args.run.request(), interrupt)?;
    if let Some((summary, m)) = summary {
        let opening = match m.job.opening {
            0 => String::new(),
            1 => " after 1 random ply".into(),
            n => format!(" after {n} random plies"),
        };
        print_summary(
            &format!(
                "{} games {}..{} of {} ({} reading, {} policy{opening}, {} engine) written to {}",
                m.job.game,
                m.first_game,
                m.end_game,
                m.job.games,
                m.job.variant,
                m.job.policy,
                m.job.engine,
                shown_path(&args.run.out)
            ),
            &summary,
            &m.job,
        );
    }
    Ok(code)
}
