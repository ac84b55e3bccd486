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

use std::collections::BTreeMap;
use std::io::Read;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

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

/// True when `a` and `b` name one existing file, by any path: the same path, a symbolic link or
/// a hard link.
pub fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => (x.dev(), x.ino()) == (y.dev(), y.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(a).is_ok_and(|x| std::fs::canonicalize(b).is_ok_and(|y| x == y))
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

/// `path` made absolute with its links resolved, component by component: a part that exists is
/// resolved by the system, the rest as written (`..` leaving the folder before it), as folders
/// are made. For telling whether one folder lies inside another.
pub fn resolved(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = std::path::PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::Prefix(_) | Component::RootDir => out.push(part.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => {
                out.push(name);
                if let Ok(real) = std::fs::canonicalize(&out) {
                    out = real;
                }
            }
        }
    }
    out
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
            if UNINTERRUPTED.load(Ordering::SeqCst) {
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

/// Set while files are being swapped into place: a second Ctrl-C then waits for the swap.
static UNINTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs `work` (a few renames) without letting a second Ctrl-C stop the process half way.
pub fn uninterrupted<T>(work: impl FnOnce() -> T) -> T {
    UNINTERRUPTED.store(true, Ordering::SeqCst);
    let done = work();
    UNINTERRUPTED.store(false, Ordering::SeqCst);
    done
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

/// Games `size * c ..` of `range`, the `c`-th chunk (shorter at the end).
pub fn chunk(range: Range<u64>, size: u64, c: u64) -> Range<u64> {
    let from = range.start + c * size;
    from..from.saturating_add(size).min(range.end)
}

/// Runs `work(i)` for every `i` in `range` on the threads of `pool`, each thread taking the next
/// index as soon as it is free (a slow item holds up only its own thread), and hands the results
/// to `take` in index order on the calling thread. New items stop being started once `take`
/// returns false or `interrupt` is set; returns how many results `take` received (a prefix of
/// `range`). No thread runs more than a few items ahead of the first result not yet taken, so
/// memory stays bounded however slow one item is.
pub fn in_order<T: Send>(
    pool: &rayon::ThreadPool,
    range: Range<u64>,
    interrupt: &AtomicBool,
    work: impl Fn(u64) -> T + Sync,
    mut take: impl FnMut(u64, T) -> bool,
) -> u64 {
    // Items are counted from range.start, so no index is formed past range.end.
    let count = range.end.saturating_sub(range.start);
    let window = 2 * pool.current_num_threads() as u64 + 2;
    let (next, done) = (AtomicU64::new(0), AtomicU64::new(0));
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, T)>();
    let mut taken = 0;
    pool.in_place_scope(|scope| {
        for _ in 0..pool.current_num_threads() {
            let (tx, next, done, stop, work) = (tx.clone(), &next, &done, &stop, &work);
            scope.spawn(move |_| {
                while !interrupt.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
                    if next.load(Ordering::SeqCst) >= done.load(Ordering::SeqCst) + window {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                        continue;
                    }
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    if k >= count {
                        break;
                    }
                    let i = range.start + k;
                    if tx.send((i, work(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Results that arrive early wait here for the ones before them.
        let mut ready = BTreeMap::new();
        for (i, result) in &rx {
            ready.insert(i, result);
            while let Some(result) = ready.remove(&(range.start + taken)) {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                if !take(range.start + taken, result) {
                    stop.store(true, Ordering::SeqCst);
                }
                taken += 1;
                done.store(taken, Ordering::SeqCst);
            }
        }
    });
    taken
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
