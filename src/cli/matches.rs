//! `mancala-lab match`: the options of a match and what it says as it plays; the match itself
//! (its pairings, results and merge) is `mancala_lab::study::matches`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use mancala_lab::policy::Policy;
use mancala_lab::registry::GameKind;
use mancala_lab::study::matches::{games_text, merge_match, Match, MatchRequest, Played, Table};
use mancala_lab::study::{check_merge, JobKind, StudyError};
use mancala_lab::text::{shell_word, shown_path};

use super::flagged;
use super::stats::command_line;
use super::study_report::{commits_note, merge_end, merge_stopped, Bar};

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
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=i64::from(mancala_lab::study::job::MAX_THREADS)))]
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

impl PlayArgs {
    /// The match these options ask for, started by this process's command line.
    fn request(&self) -> MatchRequest {
        MatchRequest {
            game: self.game,
            variant: self.variant.clone(),
            players: self.players.clone(),
            games: self.games,
            seed: self.seed,
            max_plies: self.max_plies,
            opening: self.opening,
            shard: self.shard.clone(),
            out: self.out.clone(),
            threads: self.threads,
            resume: self.resume,
            force: self.force,
            command: command_line(),
        }
    }
}

/// What `match` refuses before it plays (also for `--parse-only`).
pub fn check(args: &MatchArgs) -> Result<(), String> {
    if let Some(MatchCommand::Merge(m)) = &args.merge {
        if m.force {
            super::force_not_through_link(&m.out)?;
        }
        return check_merge(&m.out, &m.shards).map_err(flagged);
    }
    let args = &args.run;
    if args.resume {
        return Ok(());
    }
    if args.force {
        super::force_not_through_link(&args.out)?;
    }
    args.request().check().map_err(flagged)
}

pub fn run(args: MatchArgs) -> Result<ExitCode, String> {
    match args.merge {
        Some(MatchCommand::Merge(m)) => merge(&m.out, m.force, &m.shards),
        None => play(args.run),
    }
}

/// Plays the match (or its shard) the options give, or goes on with the one in --out.
fn play(args: PlayArgs) -> Result<ExitCode, String> {
    let out = args.out.clone();
    let open = args.request().open().map_err(flagged)?;
    if args.force {
        super::force_not_through_link(&out)?;
    }
    // From here on a signal only sets the flag: a match being replaced is never left half
    // removed, and a pairing under way stops as `stats` stops.
    let hint_out = shell_word(&out);
    let interrupt = super::interrupt_on_ctrl_c_with(move || {
        format!("interrupted; continue with: mancala-lab match --resume --out {hint_out}")
    });
    let resume_hint = format!(
        "continue with: mancala-lab match --resume --out {}",
        shell_word(&out)
    );
    let mut bar = Bar::new()?;
    let mut pairing = |k: usize, of: usize, south: Policy, north: Policy| {
        eprintln!("pairing {k} of {of}: {south} (South) against {north} (North)");
    };
    let played = open
        .play(interrupt, &mut bar, &mut pairing)
        .map_err(flagged)?;
    match played {
        Played::Finished(table) => {
            print_results(&open.m, &out, &table)?;
            Ok(ExitCode::SUCCESS)
        }
        Played::StoppedInPairing { k, of } => {
            eprintln!(
                "interrupted in pairing {k} of {of}; the pairings played are kept; continue with: \
                 mancala-lab match --resume --out {}",
                shell_word(&out)
            );
            Ok(ExitCode::from(130))
        }
        Played::StoppedBeforeResults => {
            eprintln!("interrupted before the results were written; {resume_hint}");
            Ok(ExitCode::from(130))
        }
        Played::StoppedAfterResults => {
            eprintln!("interrupted; games.csv and ratings.csv are whole; {resume_hint}");
            Ok(ExitCode::from(130))
        }
    }
}

/// Prints what the match in `out` is and its ratings.
fn print_results(m: &Match, out: &Path, table: &Table) -> Result<(), String> {
    let games = games_text(m).map_err(flagged)?;
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

/// `match merge`: the shards' matches merged into --out (`mancala_lab::study::matches`).
fn merge(out: &Path, force: bool, shards: &[PathBuf]) -> Result<ExitCode, String> {
    if out.as_os_str() == "-" {
        return Err(flagged(StudyError::OutIsStdout(JobKind::Match)));
    }
    if force {
        super::force_not_through_link(out)?;
    }
    check_merge(out, shards).map_err(flagged)?;
    // Ctrl-C (or a termination signal) from the start: before --out is touched it just stops.
    let interrupt = super::interrupt_on_ctrl_c_with(String::new);
    let Some(merged) =
        merge_match(out, force, shards, &command_line(), interrupt).map_err(flagged)?
    else {
        return Ok(merge_stopped(out));
    };
    if merged.commits.len() > 1 {
        eprintln!("{}", commits_note(&merged.commits));
    }
    print_results(&merged.m, out, &merged.table)?;
    Ok(merge_end(out, interrupt))
}
