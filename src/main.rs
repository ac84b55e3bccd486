//! The `mancala-lab` command line: parses the arguments and dispatches to one module per command
//! under `cli/`; all printing happens there, the library returns values and errors.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

/// `eprintln!` that never panics: a message to a standard error that is closed or full
/// (`2>/dev/full`) is dropped rather than stopping a job midway. Defined before the modules, so
/// every `eprintln!` of the command line is this one.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `println!` that survives a closed standard output: once its reader has gone (`| head`), the
/// rest of the output is dropped and the job goes on to finish its files ([`stdout_gone`]); any
/// other failure to write (a full disk) stops the program with exit 2, naming it.
macro_rules! println {
    () => {
        $crate::print_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::print_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` as [`println!`] writes.
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::print_out(format_args!($($arg)*))
    };
}

mod cli;

/// Set once standard output's reader has gone (a write failed with `BrokenPipe`).
static STDOUT_GONE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes to standard output, as [`println!`] says.
fn print_out(args: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    if stdout_gone() {
        return;
    }
    let mut out = std::io::stdout().lock();
    match out.write_fmt(args) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            STDOUT_GONE.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        Err(e) => {
            eprintln!("mancala-lab: standard output: {e}");
            std::process::exit(2);
        }
    }
}

/// Whether standard output's reader has gone.
fn stdout_gone() -> bool {
    STDOUT_GONE.load(std::sync::atomic::Ordering::SeqCst)
}

/// The exit status of a job that ran to its end after its standard output closed: 141, what a
/// shell reports for a program that a closed pipe stopped (128 + SIGPIPE), though this one
/// finished its work.
const STDOUT_CLOSED_EXIT: u8 = 141;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mancala_lab::registry::GameKind;

/// Rules verification and research harness for mancala games (Bao la Kiswahili, Oware, Kalah).
///
/// Run with no subcommand for the main job: the clause-coverage verdict of every game and the
/// default study (random games of every game on the optimized engines, to out/).
#[derive(Parser)]
#[command(name = "mancala-lab", version)]
struct Cli {
    /// Check the command line without running it: the subcommand, every option, and what the
    /// command refuses before it reads or plays anything (readings, --infinite, --shard, options
    /// that do not go together, move notation, an output that is an input); exit 0 if it is
    /// valid, 2 naming what is not. What is in files (a study folder, a position) is checked when
    /// the command runs. Hidden; tests/docs.rs checks the documented commands with it.
    #[arg(long, hide = true)]
    parse_only: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Clause coverage: where each clause of a game's spec is implemented and tested.
    Coverage(cli::coverage::CoverageArgs),
    /// Bao la Kiswahili: legal moves, playing, replaying and explaining moves.
    #[command(subcommand)]
    Bao(BaoCommand),
    /// Oware: legal moves, playing, replaying and explaining moves.
    #[command(subcommand)]
    Oware(cli::game::GameCommand),
    /// Kalah(m,n): legal moves, playing, replaying and explaining moves.
    #[command(subcommand)]
    Kalah(cli::game::GameCommand),
    /// Differential check: the reference and optimized engines in lock step on random games.
    Diff(cli::diff::DiffArgs),
    /// Move-path counts (perft) with both engines of a game, which must agree.
    Perft(cli::perft::PerftArgs),
    /// Playout speed: reference against optimized engines, one thread and all cores.
    Bench(cli::bench::BenchArgs),
    /// Rule inconsistencies: positions where readings differ or no clause decides, with witnesses.
    Inconsistencies(cli::inconsistencies::InconsistencyArgs),
    /// Batch playout statistics as CSV (games, clause counts, summary with 95% intervals).
    Stats(cli::stats::StatsArgs),
    /// A round robin between policies, both sides swapped: games and Elo ratings as CSV.
    #[command(name = "match")]
    Match(cli::matches::MatchArgs),
    /// Plot the distribution of a games.csv column for one or more runs, as SVG.
    Plot(cli::plot::PlotArgs),
    /// Audit other engines' game records: replay them, name the clause where each deviates.
    Audit(cli::audit::AuditArgs),
    /// Play a policy against another program: a line protocol on standard input and output.
    Bot(cli::bot::BotArgs),
    /// Exact play: build and check endgame databases, print a position's value and best moves.
    Solve(cli::solve::SolveArgs),
    /// The board in the browser: play, replay and explain moves clause by clause (a local web
    /// server and its JSON API).
    Serve(cli::serve::ServeArgs),
}

// `mancala-lab bao ...`: the commands every game has and Bao's own study.
#[derive(Subcommand)]
enum BaoCommand {
    /// The commands every game has.
    #[command(flatten)]
    Game(cli::game::GameCommand),
    /// Study: how often exact infinite-move detection and seed-count cut-offs disagree.
    Cutoffs {
        /// Number of random games (exact detection), at least 1.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Master seed; game i uses stream i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cut-offs to compare, in seeds sown per move (each at least 1).
        #[arg(long, value_delimiter = ',', default_value = "100,192,500",
              value_parser = clap::value_parser!(u32).range(1..))]
        limits: Vec<u32>,
        /// Also write one row per game (game, plies, longest_legal_move, infinite_candidates).
        #[arg(long)]
        csv: Option<std::path::PathBuf>,
    },
}

/// Bao's cut-off study of the games of `seed` against `limits`, or why not.
fn cutoffs(seed: u64, limits: &[u32]) -> Result<mancala_lab::bao::cutoffs::Cutoffs, String> {
    mancala_lab::bao::cutoffs::Cutoffs::new(seed, limits).map_err(|e| format!("--limits: {e}"))
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    // The command line's `perfect` players read `db` when MANCALA_LAB_DB names no folder (the
    // library itself has no default); `solve` names its own `--db`.
    if !matches!(cli.command, Some(Command::Solve(_) | Command::Serve(_))) {
        cli::default_databases();
    }
    match cli.command {
        None => cli::coverage::main_job(),
        Some(Command::Coverage(args)) => cli::coverage::run(args),
        Some(Command::Bao(BaoCommand::Game(cmd))) => cli::game::run(GameKind::Bao, cmd),
        Some(Command::Bao(BaoCommand::Cutoffs {
            games,
            seed,
            limits,
            csv,
        })) => cli::game_study::run(cutoffs(seed, &limits)?, games, csv.as_deref()),
        Some(Command::Oware(cmd)) => cli::game::run(GameKind::Oware, cmd),
        Some(Command::Kalah(cmd)) => cli::game::run(GameKind::Kalah, cmd),
        Some(Command::Diff(args)) => cli::diff::run(args),
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Inconsistencies(args)) => cli::inconsistencies::run(args),
        Some(Command::Stats(args)) => cli::stats::run(args),
        Some(Command::Match(args)) => cli::matches::run(args),
        Some(Command::Plot(args)) => cli::plot::run(args),
        Some(Command::Audit(args)) => cli::audit::run(args),
        Some(Command::Bot(args)) => cli::bot::run(args),
        Some(Command::Solve(args)) => cli::solve::run(args),
        Some(Command::Serve(args)) => cli::serve::run(args),
    }
}

/// `--parse-only`: the checks a command makes before it plays, for the commands that combine
/// options in ways clap cannot see.
fn check(cli: &Cli) -> Result<(), String> {
    match &cli.command {
        Some(Command::Diff(args)) => cli::diff::check(args),
        Some(Command::Stats(args)) => cli::stats::check(args),
        Some(Command::Match(args)) => cli::matches::check(args),
        Some(Command::Bench(args)) => cli::bench::check(args),
        Some(Command::Perft(args)) => cli::perft::check(args),
        Some(Command::Plot(args)) => cli::plot::check(args).map(drop),
        Some(Command::Audit(args)) => cli::audit::check(args),
        Some(Command::Bot(args)) => cli::bot::check(args),
        Some(Command::Solve(args)) => cli::solve::check(args),
        Some(Command::Serve(args)) => cli::serve::check(args),
        Some(Command::Bao(BaoCommand::Game(cmd))) => cli::game::check(GameKind::Bao, cmd),
        Some(Command::Bao(BaoCommand::Cutoffs {
            seed, limits, csv, ..
        })) => {
            cutoffs(*seed, limits)?;
            cli::game_study::check_csv(csv.as_deref())
        }
        Some(Command::Oware(cmd)) => cli::game::check(GameKind::Oware, cmd),
        Some(Command::Kalah(cmd)) => cli::game::check(GameKind::Kalah, cmd),
        _ => Ok(()),
    }
}

/// `text` with every word over 200 characters cut, as `mancala_lab::text::quoted` cuts a token.
fn cut_long_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(1 << 16));
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let n = word.chars().count();
        if n > 200 {
            let head: String = word.chars().take(40).collect();
            out.push_str(&format!("{head}… ({n} characters)"));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Which argument is not UTF-8 text, and the option before it: for clap's error, which names none.
fn not_utf8_argument() -> String {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match args.iter().position(|a| a.to_str().is_none()) {
        Some(i) => {
            let shown = mancala_lab::text::shell_word(&args[i]);
            let option = args[..i]
                .last()
                .and_then(|a| a.to_str())
                .filter(|a| a.starts_with("--"));
            match option {
                Some(o) => format!("{o} {shown}: the value is not UTF-8 text"),
                None => format!("argument {i} {shown}: not UTF-8 text"),
            }
        }
        None => "an argument is not UTF-8 text".into(),
    }
}

/// The first argument holding a control character, escaped, with the option before it.
fn control_argument() -> Option<String> {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let i = args.iter().position(|a| a.chars().any(char::is_control))?;
    let shown = mancala_lab::text::quoted(&args[i]);
    Some(match args[..i].last().filter(|a| a.starts_with("--")) {
        Some(o) => format!("{o} {shown}"),
        None => format!("argument {} {shown}", i + 1),
    })
}

/// An option that takes a whole number given a negative one (`--games -5`, `--games=-5`), which
/// clap reports as an argument of its own or an invalid digit: named, with the numbers the
/// command takes there. `None` when no such value is in `args` (the whole command line).
fn negative_number(args: &[std::ffi::OsString]) -> Option<String> {
    let mut command = <Cli as clap::CommandFactory>::command();
    command.build();
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut at = &command;
    let mut i = 1;
    while i < words.len() {
        let word = &words[i];
        if word == "--" {
            return None;
        }
        let Some(long) = word.strip_prefix("--") else {
            // A subcommand's name, or a value the scan need not know.
            if let Some(sub) = at.find_subcommand(word) {
                at = sub;
            }
            i += 1;
            continue;
        };
        let (name, inline) = match long.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (long, None),
        };
        let Some(arg) = at
            .get_arguments()
            .find(|a| a.get_long() == Some(name) && a.get_action().takes_values())
        else {
            i += 1;
            continue;
        };
        let (value_at, value) = match inline {
            Some(value) => (i, value),
            None => (i + 1, words.get(i + 1)?.as_str()),
        };
        let negative = value.strip_prefix('-').is_some_and(|digits| {
            digits.bytes().all(|b| b.is_ascii_digit()) && digits.bytes().any(|b| b != b'0')
        });
        if negative && whole_number(arg) {
            let least = match least_number(args, value_at, inline.map(|_| name), at, arg) {
                Some(n) => format!(" {n} or more"),
                None => ", not a negative one".to_string(),
            };
            return Some(format!(
                "--{name} {value}: a negative number; --{name} takes a whole number{least}"
            ));
        }
        i = value_at + 1;
    }
    None
}

/// Whether `arg` takes a whole number 0 or more (an unsigned integer type).
fn whole_number(arg: &clap::Arg) -> bool {
    use std::any::TypeId;
    let parsed = arg.get_value_parser().type_id();
    [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
    ]
    .into_iter()
    .any(|t| parsed == t)
}

/// The least whole number the command line `args` takes for `arg` of the (sub)command `at`,
/// whose value is `args[value_at]` (`--NAME=VALUE` when `inline` names it): 1 where its parser
/// refuses 0, or where the command refuses 0 there before it runs (as `--parse-only` checks) and
/// takes 1; 0 where it takes both. `None` when other errors of the line hide which.
fn least_number(
    args: &[std::ffi::OsString],
    value_at: usize,
    inline: Option<&str>,
    at: &clap::Command,
    arg: &clap::Arg,
) -> Option<u8> {
    let parser = clap::Command::new("n").arg(
        clap::Arg::new("v")
            .long("v")
            .value_parser(arg.get_value_parser().clone()),
    );
    if parser.try_get_matches_from(["n", "--v", "0"]).is_err() {
        return Some(1);
    }
    // The line with the value 0 or 1, and each required option it lacks that takes a value of
    // a list (`--game`) given one: the command's own checks of it, or the error clap finds.
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let lacking: Vec<(&str, Vec<String>)> = at
        .get_arguments()
        .filter(|a| a.is_required_set())
        .filter_map(|a| {
            let long = a.get_long()?;
            let given =
                |w: &String| *w == format!("--{long}") || w.starts_with(&format!("--{long}="));
            let values: Vec<String> = a
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_string())
                .collect();
            (!words.iter().any(given) && !values.is_empty()).then_some((long, values))
        })
        .collect();
    // Each value of the first lacking option in turn (the others their first).
    let choices = lacking.first().map_or(1, |(_, values)| values.len());
    let check_with = |value: &str, choice: usize| -> Result<(), String> {
        let mut line = args.to_vec();
        line[value_at] = match inline {
            Some(name) => format!("--{name}={value}").into(),
            None => value.into(),
        };
        for (k, (long, values)) in lacking.iter().enumerate() {
            line.push(format!("--{long}").into());
            line.push(values[if k == 0 { choice } else { 0 }].clone().into());
        }
        let matches = <Cli as clap::CommandFactory>::command()
            .try_get_matches_from(line)
            .map_err(|e| e.to_string())?;
        let cli =
            <Cli as clap::FromArgMatches>::from_arg_matches(&matches).map_err(|e| e.to_string())?;
        cli::parse_only::check_values(&matches).and_then(|()| check(&cli))
    };
    let option = format!("--{}", arg.get_long().unwrap_or_default());
    (0..choices).find_map(
        |choice| match (check_with("0", choice), check_with("1", choice)) {
            (Ok(()), _) => Some(0),
            (Err(zero), Ok(())) if zero.contains(&option) => Some(1),
            (Err(zero), Err(one)) if zero.contains(&option) && !one.contains(&option) => Some(1),
            // Refused for another reason either way.
            _ => None,
        },
    )
}

/// Whether the process started with standard output closed. The standard library opens
/// `/dev/null` for reading and writing on a closed standard descriptor before `main`; a shell's
/// `> /dev/null` opens it for writing only.
#[cfg(unix)]
fn stdout_was_closed() -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: F_GETFL only reads the descriptor's flags.
    let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
    if flags == -1 {
        return true;
    }
    if flags & libc::O_ACCMODE != libc::O_RDWR {
        return false;
    }
    // SAFETY: fstat writes into the zeroed struct it is given and reads nothing else.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above; fd 1 is open (F_GETFL succeeded).
    if unsafe { libc::fstat(1, &mut st) } != 0 {
        return false;
    }
    std::fs::metadata("/dev/null")
        .is_ok_and(|null| (null.dev(), null.ino()) == (st.st_dev, st.st_ino))
}

fn main() -> ExitCode {
    // A closed pipe on standard output (`| head`) does not kill the program (Rust ignores
    // SIGPIPE): a long job stops printing, finishes its files and exits with 141 ([`print_out`]).
    // Any other failure to write standard output (a full disk, a closed terminal) is bad output,
    // reported as such: `print!` panics on it, and this turns that one panic into an error.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied());
        if let Some(e) = message.and_then(|m| m.strip_prefix("failed printing to stdout: ")) {
            eprintln!("mancala-lab: standard output: {e}");
            std::process::exit(2);
        }
        default_hook(info);
    }));
    // A closed standard output (`>&-`) would take every write without a word: refuse to run
    // rather than report nothing and succeed.
    #[cfg(unix)]
    if stdout_was_closed() {
        eprintln!("mancala-lab: standard output is closed; give it a file, or > /dev/null");
        return ExitCode::from(2);
    }
    let matches = match <Cli as clap::CommandFactory>::command().try_get_matches() {
        Ok(m) => m,
        Err(e) if e.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            // clap does not say which argument: name it, and the option it belongs to.
            eprintln!("mancala-lab: {}", cut_long_words(&not_utf8_argument()));
            std::process::exit(2);
        }
        Err(e) if e.use_stderr() => {
            // clap drops control characters from a value it repeats, so that the value shown
            // is not the one given: name such an argument, escaped, instead.
            if let Some(which) = control_argument() {
                eprintln!("mancala-lab: {which}: holds a control character");
                std::process::exit(2);
            }
            let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
            if let Some(message) = negative_number(&args) {
                eprintln!("mancala-lab: {}", cut_long_words(&message));
                std::process::exit(2);
            }
            // clap repeats a refused value whole: a hostile one of 100 kB floods the message.
            use std::io::Write as _;
            let _ = write!(
                std::io::stderr(),
                "{}",
                cut_long_words(&e.render().to_string())
            );
            std::process::exit(e.exit_code());
        }
        Err(e) => {
            // --help and --version: written to standard output, whose failure (a full disk) is
            // an error, not a success with nothing shown.
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            if let Err(w) = write!(out, "{}", e.render()).and_then(|()| out.flush()) {
                eprintln!("mancala-lab: standard output: {w}");
                std::process::exit(2);
            }
            std::process::exit(0);
        }
    };
    let cli =
        <Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = if let Err(e) = cli::check_environment() {
        Err(e)
    } else if cli.parse_only {
        cli::parse_only::check_values(&matches)
            .and_then(|()| check(&cli))
            .map(|()| ExitCode::SUCCESS)
    } else {
        run(cli)
    };
    // Whatever was still buffered goes now, or is known not to.
    if let Err(e) = std::io::Write::flush(&mut std::io::stdout()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            STDOUT_GONE.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
    if stdout_gone() && result.is_ok() {
        eprintln!(
            "mancala-lab: standard output was closed before the end (its reader went away); \
             the job ran to its end and its files are complete"
        );
    }
    match result {
        // A job that otherwise succeeded says, by its status, that its output was cut; one
        // that failed keeps its own status.
        Ok(code) if stdout_gone() && code == ExitCode::SUCCESS => {
            ExitCode::from(STDOUT_CLOSED_EXIT)
        }
        Ok(code) => code,
        Err(message) => {
            eprintln!("mancala-lab: {message}");
            ExitCode::from(2)
        }
    }
}
