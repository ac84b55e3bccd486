//! Command handlers of the `mancala-lab` binary, one module per command, and shared input helpers.

pub mod audit;
pub mod bench;
pub mod bot;
pub mod coverage;
pub mod diagram;
pub mod diff;
pub mod game;
pub mod game_study;
pub mod inconsistencies;
pub mod matches;

pub mod parse_only;
pub mod perft;
pub mod plot;
pub mod serve;
pub mod solve;
pub mod stats;
pub mod study_report;

pub use mancala_lab::study::folder::same_file;

use mancala_lab::study::{Field, Names, Step, StudyError};

/// The command line's names: a field as its option (`--max-plies`), a step as the command to run.
pub struct Flags;

impl Names for Flags {
    fn field(&self, field: Field) -> String {
        format!("--{}", field.name().replace('_', "-"))
    }

    fn step(&self, step: Step<'_>) -> String {
        use mancala_lab::text::shell_word;
        match step {
            Step::ResumeStudy(dir) => {
                format!("mancala-lab stats --resume --out {}", shell_word(dir))
            }
            Step::ResumeMatch(Some(dir)) => {
                format!("mancala-lab match --resume --out {}", shell_word(dir))
            }
            Step::ResumeMatch(None) => "mancala-lab match --resume".into(),
            Step::MergeMatch => "mancala-lab match merge".into(),
        }
    }
}

/// A study's error as the command line says it, its fields named by their options.
pub fn flagged(e: StudyError) -> String {
    e.message(&Flags)
}

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The options of `stats merge` and `match merge`: where the merged files go and the shards.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// Where to write the merged files (not one of the shards).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Replace the finished run or match already in --out.
    #[arg(long)]
    pub force: bool,
    /// The shard folders (`--shard K/N`), in any order.
    #[arg(required = true)]
    pub shards: Vec<std::path::PathBuf>,
}

/// The most bytes a position, move list or transcript input may hold (far beyond any game).
pub const MAX_INPUT: u64 = 256 << 20;

/// An input path as messages name it: `standard input` for `-`.
pub fn input_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        mancala_lab::text::shown_path(path)
    }
}

/// Reads a file, or standard input for `-`, of at most [`MAX_INPUT`] bytes; the error names the
/// path.
pub fn read_input(path: impl AsRef<std::path::Path>) -> Result<String, String> {
    let path = path.as_ref();
    let bytes = read_input_bytes(path)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (byte {} is not)",
            input_name(path),
            e.utf8_error().valid_up_to() + 1
        )
    })?;
    Ok(without_bom(text))
}

/// [`read_input`]'s bytes, whatever they are.
pub fn read_input_bytes(path: &std::path::Path) -> Result<Vec<u8>, String> {
    let stdin = path.as_os_str() == "-";
    let name = input_name(path);
    let mut bytes = Vec::new();
    let read = if stdin {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(MAX_INPUT + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!(
            "{name}: more than {} MiB; not a position or transcript",
            MAX_INPUT >> 20
        ));
    }
    Ok(bytes)
}

/// The file an input path names: standard input's for `-`, so that an output can be checked
/// against a file given as `-` (`< file`) too.
pub fn input_file(path: &std::path::Path) -> &std::path::Path {
    if path.as_os_str() == "-" {
        std::path::Path::new("/dev/stdin")
    } else {
        path
    }
}

/// Refuses `--force` with an `--out` that is itself a symbolic link: `--force` replaces files in
/// the folder `--out` names, and through a link they would be another folder's. The folder the
/// link leads to is named, to be given as `--out` by whoever means it.
pub fn force_not_through_link(out: &std::path::Path) -> Result<(), String> {
    // Without a trailing slash, which would have the link followed.
    let own: std::path::PathBuf = out.components().collect();
    if !own
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
    {
        return Ok(());
    }
    let target = mancala_lab::study::link_target(&own);
    Err(format!(
        "--out {}: a symbolic link to {}; --force replaces files only in a folder --out names \
         itself, not through a link (give --out {} to replace what is there)",
        mancala_lab::text::shown_path(out),
        mancala_lab::text::shown_path(&target),
        mancala_lab::text::shell_word(&target)
    ))
}

/// Refuses to write an SVG over a file at `out` (given as `option`) that is not one: a note, a
/// study's file or a position is never replaced, an earlier drawing is. `why` says what the
/// command replaces.
pub fn replaces_only_svg(option: &str, out: &std::path::Path, why: &str) -> Result<(), String> {
    use std::io::Read;
    // A device or a stream of the process (`/dev/stdout`) is not written at all: the write
    // says so.
    if !out.is_file() || out.starts_with("/dev") || out.starts_with("/proc") {
        return Ok(());
    }
    // Read whole only if small enough to be a drawing.
    let mut text = String::new();
    let len = std::fs::metadata(out).map_or(u64::MAX, |m| m.len());
    let read = len <= 64 << 20
        && std::fs::File::open(out)
            .and_then(|f| f.take(64 << 20).read_to_string(&mut text))
            .is_ok();
    if read && mancala_lab::diagram::is_drawing(&text) {
        return Ok(());
    }
    Err(format!(
        "{option} {}: the file there is not an SVG drawing this tool made; {why}, choose \
         another {option}",
        mancala_lab::text::shown_path(out)
    ))
}

/// The text of the position file `path` given as `--position` (`-`: standard input), its line
/// ends checked ([`line_ends`]).
pub fn position_input(path: &std::path::Path) -> Result<String, String> {
    let text = read_input(path).map_err(|e| format!("--position {e}"))?;
    line_ends(&input_name(path), &text)?;
    Ok(text)
}

/// Refuses the text of a position or transcript `name` that has a line break other than LF or
/// CRLF (a CR alone, a form feed, U+2028, ...), at its line and column: read as part of one
/// line, its comments and header values would swallow what follows them without a word.
pub fn line_ends(name: &str, text: &str) -> Result<(), String> {
    mancala_lab::text::check_line_ends(text).map_err(|e| format!("{name}: {e}"))
}

/// The text without a leading UTF-8 byte-order mark (some editors write one).
pub fn without_bom(s: String) -> String {
    match s.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => s,
    }
}

/// A flag that Ctrl-C sets; a second Ctrl-C stops the process at once.
pub fn interrupt_on_ctrl_c() -> &'static AtomicBool {
    interrupt_on_ctrl_c_with(String::new)
}

/// A flag that Ctrl-C (or a termination signal) sets, saying so; a second one stops the process
/// at once, printing `hint()` (how to continue the work, when not empty) first. One flag per
/// process, as there is one handler.
pub fn interrupt_on_ctrl_c_with(hint: impl Fn() -> String + Send + 'static) -> &'static AtomicBool {
    static INTERRUPT: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(move || {
        if INTERRUPT.swap(true, Ordering::SeqCst) {
            if mancala_lab::study::folder::swapping() {
                eprintln!("\nputting the new files in place; a moment");
                return;
            }
            let hint = hint();
            if !hint.is_empty() {
                eprintln!("\n{hint}");
            }
            std::process::exit(130);
        }
        eprintln!("\nstopping (Ctrl-C again to stop at once)");
    });
    &INTERRUPT
}

/// Ends the process (exit 130) if `stop` is set: for a job that writes nothing before its end,
/// stopped after `done` of `games` games, so nothing is lost.
pub fn exit_if_stopped(stop: &AtomicBool, done: u64, games: u64) {
    if stop.load(Ordering::SeqCst) {
        eprintln!("interrupted after {done} of {games} games; nothing written");
        std::process::exit(130);
    }
}

/// A progress bar over `games` games on standard error (drawn on a terminal only).
pub fn games_bar(games: u64) -> Result<ProgressBar, String> {
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    bar.set_style(games_style()?);
    Ok(bar)
}

/// The style of a bar over games: the rate in whole games a second.
pub fn games_style() -> Result<ProgressStyle, String> {
    Ok(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {rate} eta {eta}")
            .map_err(|e| e.to_string())?
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}/s", state.per_sec());
                },
            ),
    )
}

/// A progress bar over `games` games and a thread pool over every core.
pub fn bar_and_pool(games: u64) -> Result<(ProgressBar, rayon::ThreadPool), String> {
    let bar = games_bar(games)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .build()
        .map_err(|e| e.to_string())?;
    Ok((bar, pool))
}

/// Refuses what a game reads from the environment and cannot use (e.g. a batch path forced that
/// this processor cannot run), before any command plays.
/// The folder the `perfect` policy reads in `stats`, `match`, `bot` and `diff`: `$MANCALA_LAB_DB`,
/// else `db` (the `--db` default of `solve`).
pub fn default_databases() {
    use mancala_lab::policy::perfect::{use_root, DB_VARIABLE};
    if std::env::var_os(DB_VARIABLE).is_none_or(|d| d.is_empty()) {
        // The first folder named in this process: nothing was named before.
        let _ = use_root(std::path::PathBuf::from("db"));
    }
}

pub fn check_environment() -> Result<(), String> {
    struct Check;
    impl mancala_lab::registry::GameVisitor for Check {
        type Output = Result<(), String>;
        fn visit<M: mancala_lab::registry::Mancala>(self) -> Self::Output {
            M::check_environment()
        }
    }
    mancala_lab::registry::GameKind::ALL
        .into_iter()
        .try_for_each(|game| mancala_lab::registry::with_game(game, Check))
}
