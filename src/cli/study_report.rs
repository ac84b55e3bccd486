//! How a study reports on a terminal, for `stats`, `match` and the main job: its notes and
//! progress bar on standard error as it plays, its summary on standard output when done.

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mancala_lab::playout::DEFAULT_MAX_PLIES;
use mancala_lab::policy::Players;
use mancala_lab::registry::GameKind;
use mancala_lab::stats::Summary;
use mancala_lab::study::run::bytes_text;
use mancala_lab::study::{CheckedJob, Job, Note, Progress};
use mancala_lab::text::{escaped, quoted, shown_path};

/// A study's progress on standard error: its notes, a bar, and its time.
pub struct Bar {
    bar: ProgressBar,
    style: ProgressStyle,
    started: Instant,
}

impl Bar {
    /// A bar not yet drawn: it appears when the games begin.
    pub fn new() -> Result<Bar, String> {
        Ok(Bar {
            bar: ProgressBar::hidden(),
            style: super::games_style()?,
            started: Instant::now(),
        })
    }
}

impl Progress for Bar {
    fn note(&mut self, note: Note<'_>) {
        match note {
            Note::Estimate {
                games,
                bytes,
                secs,
                threads,
            } => eprintln!(
                "estimate: {games} games write about {} and take roughly {} on {threads} threads \
                 (from the first games, played and dropped)",
                bytes_text(bytes),
                duration_text(secs),
            ),
            Note::OtherCommit { out, started, this } => eprintln!(
                "note: {} was started by the build of commit {}; this build ({this}) plays the \
                 rest, and the manifest now names it",
                shown_path(out),
                escaped(started),
            ),
        }
    }

    fn begin(&mut self, total: u64, done: u64, job: &CheckedJob) {
        self.bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        self.bar.set_style(self.style.clone());
        self.bar.set_position(done);
        if !job.policy.is_deterministic() {
            eprintln!("{}", timed_note(job.policy));
        }
        self.started = Instant::now();
    }

    fn advance(&mut self, done: u64) {
        self.bar.set_position(done);
    }

    fn end(&mut self, played: u64, job: &CheckedJob) {
        self.bar.finish_and_clear();
        if !job.policy.is_deterministic() {
            // Again after the run, where the figures are read.
            eprintln!("{}", timed_note(job.policy));
        }
        let secs = self.started.elapsed().as_secs_f64();
        if secs > 0.0 {
            eprintln!(
                "{}: {played} game{} in {secs:.1} s",
                job.engine.describe(job.policy, job.job.max_plies),
                if played == 1 { "" } else { "s" },
            );
        }
    }
}

/// The note that a policy's moves depend on the machine's speed.
fn timed_note(policy: Players) -> String {
    format!(
        "note: policy {policy} has a time budget: its moves depend on the machine's speed, so the \
         same seed may give other games"
    )
}

/// Prints `summary` of `job` under `label`, each ending with its clause's title in the game's
/// spec, and the warning of games that repeat, with what the job could do about it.
pub fn print_summary(label: &str, summary: &Summary, job: &Job) {
    let titles = job
        .game
        .parse::<GameKind>()
        .map(GameKind::clause_titles)
        .unwrap_or_default();
    println!("{label}");
    for r in summary.rows() {
        let line = r.display();
        let title = r
            .metric
            .strip_prefix("ended_by_")
            .and_then(|clause| titles.get(clause));
        match title {
            Some(t) => println!("  {} ({t}){}", r.metric, &line[r.metric.len()..]),
            None => println!("  {line}"),
        }
    }
    if let Some(warning) = summary.repeated_warning() {
        eprintln!(
            "warning: {warning}; {}",
            opening_advice(job.max_plies, job.opening)
        );
    }
}

/// How a job of ply limit `max_plies` that opens with `opening` random plies can measure the
/// game more broadly: open with more random plies, fewer than the ply limit (as a job must), or,
/// where the limit leaves no room for more, raise the limit too.
fn opening_advice(max_plies: u32, opening: u32) -> String {
    let wanted = (u64::from(opening) * 2).max(4);
    let k = wanted.min(u64::from(max_plies).saturating_sub(1));
    let plies = if opening == 0 {
        "the first plies".to_string()
    } else {
        format!("more than the job's {opening} first plies")
    };
    if k > u64::from(opening) {
        let below = if k < wanted {
            format!(", below the ply limit of {max_plies}")
        } else {
            String::new()
        };
        return format!(
            "to measure the game more broadly, play {plies} at random with --opening K (e.g. \
             --opening {k}{below})"
        );
    }
    // A limit the option takes, well past the opening.
    let limit = (wanted * 2).max(u64::from(DEFAULT_MAX_PLIES));
    let example = if u32::try_from(limit).is_ok() {
        format!(" (e.g. --max-plies {limit} --opening {wanted})")
    } else {
        String::new()
    };
    format!(
        "to measure the game more broadly, play {plies} at random with --opening K, which must \
         be below the ply limit of {max_plies}: raise it too{example}"
    )
}

/// A duration as a person reads it (`3 min`, `2.5 h`, `41 days`).
pub fn duration_text(secs: f64) -> String {
    match secs {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 90.0 * 60.0 => format!("{:.0} min", s / 60.0),
        s if s < 48.0 * 3600.0 => format!("{:.1} h", s / 3600.0),
        s if s < 3.0 * 365.0 * 86400.0 => format!("{:.0} days", s / 86400.0),
        s => format!("{:.0} years", s / (365.0 * 86400.0)),
    }
}

/// The note that shards were played by more than one build (allowed: a fix elsewhere in the
/// code changes no game; never silent).
pub fn commits_note(commits: &std::collections::BTreeSet<String>) -> String {
    format!(
        "note: the shards were played by the builds of commits {}; the merged manifest names \
         the first shard's",
        commits
            .iter()
            .map(|c| quoted(c))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A merge stopped before it touched `out`: said, exit 130.
pub fn merge_stopped(out: &Path) -> ExitCode {
    eprintln!("interrupted; nothing merged into {}", shown_path(out));
    ExitCode::from(130)
}

/// The end of a merge into `out`: success, or exit 130 when a signal came as it was being
/// finished (the merge is whole all the same).
pub fn merge_end(out: &Path, interrupt: &AtomicBool) -> ExitCode {
    if interrupt.load(Ordering::SeqCst) {
        eprintln!(
            "interrupted as the merge was being finished; {} holds it whole",
            shown_path(out)
        );
        return ExitCode::from(130);
    }
    ExitCode::SUCCESS
}
