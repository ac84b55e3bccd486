//! `mancala-lab solve`: builds and checks the endgame databases (level files) of Oware and Kalah,
//! and prints the exact value of a position with the value of each move.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use mancala_lab::game::Game;
use mancala_lab::playout::{EngineKind, Playouts};
use mancala_lab::policy::judge::{self, Judged, Sample};
use mancala_lab::policy::Policy;
use mancala_lab::registry::{self, with_engine, EngineVisitor, ExactError, GameKind};
use mancala_lab::retro::Target;
use mancala_lab::solve::build::{build_memory, verify_level, LevelStats};
use mancala_lab::solve::check::{check_level, check_sample};
use mancala_lab::solve::forced::check_forced;
use mancala_lab::solve::level_file::{self, Header};
use mancala_lab::solve::search::{Search, SearchError, TABLE_MIB};
use mancala_lab::solve::{build_level, seeds, Database, LevelError, Report, Retro, MAX_SEEDS};

#[derive(Args, Clone)]
pub struct SolveArgs {
    /// The game: oware or kalah.
    #[arg(long, value_enum)]
    game: GameKind,
    // The game's readings, listed by the registry.
    #[arg(long, help = format!("The rule reading ({})", mancala_lab::registry::readings_help()))]
    variant: Option<String>,
    /// Position file to solve (default: the start position; '-' reads standard input).
    #[arg(long)]
    position: Option<PathBuf>,
    /// Oware: solve the start position with this many seeds in every pit instead of four (Kalah's
    /// reading sets its own, `seeds=`).
    #[arg(long, conflicts_with = "position")]
    per_pit: Option<u8>,
    /// The folder of the level files (one folder a game and reading inside).
    #[arg(long, default_value = "db")]
    db: PathBuf,
    /// Build the levels from 0 seeds up to --seeds; levels already in --db are read back, checked
    /// and kept, so a stopped build goes on where it stopped.
    #[arg(long, requires = "seeds")]
    build: bool,
    /// The largest seed count to build, verify or use.
    #[arg(long)]
    seeds: Option<u32>,
    /// Build even when the files of the levels to build would pass the free space of the disk
    /// where --db is.
    #[arg(long, requires = "build")]
    no_space_check: bool,
    /// Check the levels in --db: every value the best over its moves, and every value of the
    /// levels up to --independent against a solve of the level by another method.
    #[arg(long, conflicts_with = "build")]
    verify: bool,
    /// The largest level --verify also solves by the other method (it holds the level's reversed
    /// moves in memory, about 26 bytes a board).
    #[arg(long, default_value_t = 18)]
    independent: u32,
    /// The first level --verify checks (the levels below are read, not checked).
    #[arg(long, requires = "verify", default_value_t = 0)]
    from: u32,
    /// Compare the levels of --variant with those of this reading, level by level: how many
    /// boards have another value, and the first of them (both built to --seeds first).
    #[arg(long, conflicts_with_all = ["build", "verify"], requires = "seeds")]
    compare: Option<String>,
    /// Judge this policy's moves against perfect play on random boards of --seeds seeds (again
    /// for more policies): the share of its moves that lose value and the mean value lost.
    #[arg(long, conflicts_with_all = ["build", "verify", "compare"], requires = "seeds")]
    judge: Vec<String>,
    /// Boards --judge draws (each with two moves or more), or --verify on each level above
    /// --independent (each solved with the boards it reaches, up to --reach).
    #[arg(long, default_value_t = 10_000)]
    sample: u64,
    /// The most boards --verify solves for one drawn board: the boards of its level it reaches.
    #[arg(long, default_value_t = 10_000)]
    reach: usize,
    /// The random seed --judge draws its boards and the policies' choices with.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The engine that plays the moves of a build or a check; both give byte-identical levels.
    #[arg(long, default_value = "optimized", value_parser = engines())]
    engine: EngineKind,
    /// Boards a search beyond the databases may expand before it gives up.
    #[arg(long, default_value_t = 100_000_000)]
    budget: u64,
    /// The value a search beyond the databases tries first (MTD(f)'s first guess): a guess near
    /// the value saves work; the value found is the same. By default, the value of a shallow
    /// search (a few million boards at most).
    #[arg(long, allow_negative_numbers = true)]
    guess: Option<i8>,
    /// MiB the search beyond the databases may keep its table of proven bounds in (a power of
    /// two of 64-byte buckets of 8 boards, at least 8 MiB over 12 pits); a full bucket gives up
    /// its smallest search.
    #[arg(
        long,
        default_value_t = TABLE_MIB,
        value_parser = clap::value_parser!(u64).range(1..=1 << 20)
    )]
    table: u64,
    /// Threads the search beyond the databases splits its work over; past one, the boards it
    /// reports searched vary from run to run (the values do not).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
}

/// The engines `--engine` names, with their help.
fn engines() -> impl TypedValueParser<Value = EngineKind> {
    PossibleValuesParser::new([
        PossibleValue::new(EngineKind::Reference.name()).help("The engine written like the rules"),
        PossibleValue::new(EngineKind::Optimized.name()).help("The engine built for speed"),
    ])
    .map(|name| {
        if name == EngineKind::Reference.name() {
            EngineKind::Reference
        } else {
            EngineKind::Optimized
        }
    })
}

/// The reading --variant names, or the game's default.
fn variant(args: &SolveArgs) -> &str {
    args.variant
        .as_deref()
        .unwrap_or(args.game.default_variant())
}

/// The game's moves under the reading `name`, by the chosen engine; whether its play can cycle.
/// `flag` names the reading in errors.
fn moves_of(args: &SolveArgs, name: &str, flag: &str) -> Result<(Box<dyn Retro>, bool), String> {
    if let Err(why) = args.game.databases() {
        let covered: Vec<&str> = GameKind::ALL
            .into_iter()
            .filter(|g| g.databases().is_ok())
            .map(GameKind::name)
            .collect();
        return Err(format!("solve covers {}: {why}", covered.join(" and ")));
    }
    registry::retro(args.game, name, args.engine).map_err(|e| format!("{flag}: {e}"))
}

/// What `solve` refuses before it reads or builds anything (also for `--parse-only`).
pub fn check(args: &SolveArgs) -> Result<(), String> {
    let (retro, _) = moves_of(args, variant(args), "--variant")?;
    if let Some(n) = args.seeds {
        let checked = if args.build {
            mancala_lab::solve::check_build(retro.as_ref(), n)
        } else {
            mancala_lab::solve::check_seeds(n)
        };
        checked.map_err(|e| format!("--seeds {n}: {e}"))?;
    }
    if args.per_pit.is_some() && args.game != GameKind::Oware {
        return Err("--per-pit is for oware; Kalah's reading sets its seeds (seeds=N)".to_string());
    }
    if args.per_pit == Some(0) || args.per_pit.is_some_and(|k| k > 8) {
        return Err("--per-pit: 1 to 8 seeds a pit".to_string());
    }
    policies(args)?;
    if !args.judge.is_empty() && !(1..=100_000_000).contains(&args.sample) {
        return Err(format!("--sample {}: 1 to 100000000 boards", args.sample));
    }
    Ok(())
}

/// A progress bar on standard error (drawn on a terminal only): positions a second and the time
/// left in the current pass.
struct Bar(indicatif::ProgressBar);

impl Bar {
    fn new() -> Bar {
        Bar(on_stderr(
            "{msg} [{bar:30}] {human_pos}/{human_len} boards, {per_sec}, {eta} left",
        ))
    }

    /// Starts the bar afresh over `positions` boards, named `message`.
    fn begin(&self, positions: u64, message: String) {
        self.0.set_length(positions);
        // Also after finish_and_clear: a finished bar draws nothing until reset.
        self.0.reset();
        self.0.set_message(message);
    }
}

/// A progress line of `template` on standard error, drawn on a terminal only.
fn on_stderr(template: &str) -> indicatif::ProgressBar {
    let bar =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

impl Report for Bar {
    fn pass(&self, seeds: u32, pass: u32, positions: u64) {
        self.begin(positions, format!("level {seeds}, pass {pass}"));
    }
    fn advance(&self, positions: u64) {
        self.0.inc(positions);
    }
    fn stage(&self, seeds: u32, stage: &str, positions: u64) {
        self.begin(positions, format!("level {seeds}, {stage}"));
    }
}

/// A line on standard error (drawn on a terminal only) while a search runs: the boards
/// searched and the bounds of the value proven so far.
struct Spinner(indicatif::ProgressBar, std::sync::atomic::AtomicU8);

impl Spinner {
    fn new() -> Spinner {
        Spinner(on_stderr("{msg}, {elapsed}"), 0.into())
    }

    /// From now on the search tests which moves are best: the bounds are not the board's.
    fn best_moves(&self) {
        self.1.store(1, Ordering::Relaxed);
    }

    /// From now on the search values the moves, one by one.
    fn moves(&self) {
        self.1.store(2, Ordering::Relaxed);
    }

    /// 0 while the value is searched, 1 the best moves, 2 the moves' values.
    fn phase(&self) -> u8 {
        self.1.load(Ordering::Relaxed)
    }

    fn show(&self, boards: u64, lo: i8, hi: i8) {
        let rate = boards as f64 / self.0.elapsed().as_secs_f64().max(1e-3);
        let searched = format!("{boards} boards searched ({rate:.0} a second)");
        self.0.set_message(match self.phase() {
            0 => format!("{searched}, value at least {lo}, at most {hi}"),
            1 => format!("the value found, now the best moves: {searched}"),
            _ => format!("the best moves found, now each move's value: {searched}"),
        });
    }
}

/// Bytes as the reports show them.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.2} GiB", bytes as f64 / f64::from(1 << 30))
    } else if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

/// The header of level `seeds` of `retro`.
fn header(retro: &dyn Retro, db: &Database, seeds: u32) -> Header {
    Header {
        game: retro.game().to_string(),
        reading: retro.reading(),
        pits: retro.pits(),
        seeds,
        positions: db.ranks().count(seeds),
    }
}

/// The levels 0, 1, ... present in `folder`, up to `most` (they stop at the first absent one).
fn load(retro: &dyn Retro, folder: &Path, most: u32) -> Result<Database, String> {
    level_file::load(retro, folder, most).map_err(|e| e.to_string())
}

pub fn run(args: SolveArgs) -> Result<ExitCode, String> {
    check(&args)?;
    let (retro, cycles) = moves_of(&args, variant(&args), "--variant")?;
    let folder = level_file::folder(&args.db, retro.game(), &retro.reading());
    if args.build {
        return build(&args, retro.as_ref(), &folder);
    }
    if args.verify {
        return verify(&args, retro.as_ref(), &folder);
    }
    if let Some(other) = &args.compare {
        let (them, _) = moves_of(&args, other, "--compare")?;
        return compare(&args, retro.as_ref(), them.as_ref());
    }
    if !args.judge.is_empty() {
        return judge(&args, retro.as_ref(), &folder);
    }
    solve(&args, retro.as_ref(), cycles, &folder)
}

/// The policies of --judge.
fn policies(args: &SolveArgs) -> Result<Vec<Policy>, String> {
    args.judge
        .iter()
        .map(|p| p.parse().map_err(|e| format!("--judge: {e}")))
        .collect()
}

/// Runs --judge on the engine `game`.
fn judge_on<G: Game>(
    args: &SolveArgs,
    game: &G,
    db: &Database,
    sample: &Sample,
) -> Result<Vec<Judged>, String> {
    let policies = policies(args)?;
    let bar = Bar::new();
    bar.0.set_length(sample.boards);
    bar.0.set_message(format!("{} seeds", sample.seeds));
    let done = || bar.0.inc(1);
    let judged = judge::judge(game, db, &policies, sample, &done).map_err(|e| e.to_string());
    bar.0.finish_and_clear();
    judged
}

fn judge(args: &SolveArgs, retro: &dyn Retro, folder: &Path) -> Result<ExitCode, String> {
    let seeds = args.seeds.expect("clap requires --seeds with --judge");
    // A judged `perfect` reads the levels judged with.
    mancala_lab::policy::perfect::use_root(args.db.clone())?;
    let db = std::sync::Arc::new(load(retro, folder, seeds)?);
    // ... and shares them, rather than reading a second copy.
    mancala_lab::policy::perfect::share(retro, db.clone())?;
    if db.levels() <= seeds && retro.game() == "oware" {
        let reach = match db.levels() {
            0 => "holds no levels".to_string(),
            k => format!("reaches {} seeds", k - 1),
        };
        return Err(format!(
            "{} {reach}, not {seeds}: build the levels first (solve --build --seeds {seeds}); \
             Oware's play can go round in circles, so boards beyond them are not searched",
            mancala_lab::text::shown_path(folder),
        ));
    }
    let sample = Sample {
        seeds,
        boards: args.sample,
        seed: args.seed,
        budget: args.budget,
    };
    /// Judges on the engine the registry gives.
    struct Judge<'a>(&'a SolveArgs, &'a Database, &'a Sample);
    impl EngineVisitor for Judge<'_> {
        type Output = Result<Vec<Judged>, String>;
        fn visit<G: Playouts>(self, game: G) -> Self::Output {
            judge_on(self.0, &game, self.1, self.2)
        }
    }
    let judged = with_engine(
        args.game,
        variant(args),
        args.engine,
        Judge(args, &db, &sample),
    )
    .map_err(|e| format!("--variant: {e}"))??;
    let built = match db.levels() {
        0 => "no databases".to_string(),
        k => format!("the databases to {} seeds", k - 1),
    };
    println!(
        "{} under {}: {} boards of {seeds} seeds with two moves or more (seed {}), each move \
         valued by {built}{}",
        retro.game(),
        retro.reading(),
        args.sample,
        args.seed,
        if db.levels() <= seeds {
            " and a search beyond"
        } else {
            ""
        }
    );
    println!(
        "policy\tboards\tlosing\tshare\tshare-low\tshare-high\tmean-loss\tmean-loss-low\tmean-loss-high\tworse-result\tworse-low\tworse-high\t\
         history-boards\tshare-without\tshare-without-low\tshare-without-high\tworse-without\t\
         worse-without-low\tworse-without-high"
    );
    for (policy, j) in policies(args)?.iter().zip(&judged) {
        let (lo, hi) = j.share_interval();
        let (mlo, mhi) = j.mean_interval();
        let (wlo, whi) = j.worse_interval();
        let split = match j.without_history {
            // No board left without a repetition: no share to give.
            Some(s) if s.boards == 0 => format!("{}{}", s.history_boards, "\t-".repeat(6)),
            Some(s) => {
                let ((p, plo, phi), (w, wlo, whi)) = (s.share(), s.worse_share());
                format!(
                    "{}\t{p:.4}\t{plo:.4}\t{phi:.4}\t{w:.4}\t{wlo:.4}\t{whi:.4}",
                    s.history_boards
                )
            }
            None => ["-"; 7].join("\t"),
        };
        println!(
            "{policy}\t{}\t{}\t{:.4}\t{lo:.4}\t{hi:.4}\t{:.3}\t{mlo:.3}\t{mhi:.3}\t{:.4}\t\
             {wlo:.4}\t{whi:.4}\t{split}",
            j.boards,
            j.losing,
            j.share(),
            j.mean_loss(),
            j.worse_share()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Says what building levels 0 to `most` into `folder` takes (the levels to build, their files,
/// the memory, roughly the time), on standard error; refuses a build whose files would not fit
/// the free space where `folder` is (unless --no-space-check).
fn check_space(
    args: &SolveArgs,
    retro: &dyn Retro,
    folder: &Path,
    most: u32,
) -> Result<(), String> {
    let plan = mancala_lab::solve::build::plan(retro, folder, most);
    let all = most + 1;
    if plan.levels.is_empty() {
        eprintln!(
            "estimate: no level to build, the {all} are in {} (read back: {} in memory)",
            mancala_lab::text::shown_path(folder),
            size(plan.memory)
        );
        return Ok(());
    }
    let time = match plan.seconds {
        Some(secs) => format!(
            "{} (at {:.1} million boards a second, the rate docs/performance.md measured on 2 \
             cores; this machine may be faster or slower)",
            if secs < 1.0 {
                "under a second".to_string()
            } else {
                format!("roughly {}", super::study_report::duration_text(secs))
            },
            if retro.acyclic() {
                mancala_lab::solve::build::ONE_PASS_RATE
            } else {
                mancala_lab::solve::build::FIXPOINT_RATE
            } / 1e6
        ),
        None => "its time is not estimated (the reference engine evaluates every board on every \
                 pass, many times slower than the optimized one)"
            .to_string(),
    };
    let built = plan.levels.len() as u32;
    let others = match all - built {
        0 => String::new(),
        1 => "; the other is read back".to_string(),
        n => format!("; the other {n} are read back"),
    };
    eprintln!(
        "estimate: {built} of the {all} levels to build ({} boards{others}): {} of files, {} in \
         memory at the most; {time}",
        plan.boards,
        size(plan.disk),
        size(plan.memory)
    );
    if args.no_space_check {
        return Ok(());
    }
    match mancala_lab::disk::free_bytes(folder).map_err(|e| e.to_string())? {
        Some(free) if plan.disk > free => Err(format!(
            "--db {}: the levels to build would take {} in {} and its file system has {} free; \
             free some space, build fewer levels (--seeds), or give --no-space-check to build \
             anyway",
            mancala_lab::text::shown_path(&args.db),
            size(plan.disk),
            mancala_lab::text::shown_path(folder),
            size(free)
        )),
        _ => Ok(()),
    }
}

fn build(args: &SolveArgs, retro: &dyn Retro, folder: &Path) -> Result<ExitCode, String> {
    let most = args.seeds.expect("clap requires --seeds with --build");
    check_space(args, retro, folder, most)?;
    // Held to the end: a second build into the folder meanwhile is refused.
    let _lock = level_file::lock(folder).map_err(|e| match e {
        LevelError::Locked { .. } => {
            format!("{e}; wait for it to finish, or build into another --db")
        }
        e => e.to_string(),
    })?;
    let stop = super::interrupt_on_ctrl_c_with(String::new);
    let mut db = Database::new(retro.pits(), most);
    let bar = Bar::new();
    println!(
        "{} under {} ({} engine), levels 0 to {most}, in {}",
        retro.game(),
        retro.reading(),
        retro.engine(),
        mancala_lab::text::shown_path(folder)
    );
    println!("level\tpositions\tpasses\tevaluations\tseconds\tpositions/s\tmemory\tfile");
    let started = Instant::now();
    for level in 0..=most {
        let want = header(retro, &db, level);
        if let Some(values) = level_file::read(folder, &want).map_err(|e| e.to_string())? {
            db.push(values);
            println!("{level}\t{}\t-\t-\t-\t-\t-\tread back", want.positions);
            continue;
        }
        let t = Instant::now();
        let memory = build_memory(retro, &db, level);
        let (
            values,
            LevelStats {
                positions,
                passes,
                evaluations,
            },
        ) = match build_level(retro, &db, level, &bar, stop) {
            Ok(built) => built,
            Err(_) => {
                bar.0.finish_and_clear();
                eprintln!(
                    "interrupted in level {level}; levels 0 to {} are written, and the same \
                         command goes on from level {level}",
                    level.saturating_sub(1)
                );
                return Ok(ExitCode::from(130));
            }
        };
        let secs = t.elapsed().as_secs_f64();
        let written = level_file::write(folder, &want, &values).map_err(|e| e.to_string())?;
        db.push(values);
        bar.0.finish_and_clear();
        println!(
            "{level}\t{positions}\t{passes}\t{evaluations}\t{secs:.2}\t{:.0}\t{}\t{}",
            positions as f64 / secs.max(1e-9),
            size(memory),
            mancala_lab::text::shown_path(&written)
        );
        if stop.load(Ordering::SeqCst) {
            eprintln!("interrupted after level {level}; the same command goes on from there");
            return Ok(ExitCode::from(130));
        }
    }
    println!(
        "built in {:.1} s; levels in memory {}",
        started.elapsed().as_secs_f64(),
        size(db.bytes())
    );
    Ok(ExitCode::SUCCESS)
}

/// Levels 0 to `most` of `retro` from `args.db`, all of them, or an error naming the first absent.
fn load_all(args: &SolveArgs, retro: &dyn Retro, most: u32) -> Result<Database, String> {
    let folder = level_file::folder(&args.db, retro.game(), &retro.reading());
    let db = load(retro, &folder, most)?;
    if db.levels() <= most {
        return Err(format!(
            "{} has no level {} (build it with solve --build --seeds {most})",
            mancala_lab::text::shown_path(&folder),
            db.levels()
        ));
    }
    Ok(db)
}

fn compare(args: &SolveArgs, ours: &dyn Retro, theirs: &dyn Retro) -> Result<ExitCode, String> {
    let most = args.seeds.expect("clap requires --seeds with --compare");
    let a = load_all(args, ours, most)?;
    let b = load_all(args, theirs, most)?;
    println!(
        "{} under {} (a) against {} (b)",
        ours.game(),
        ours.reading(),
        theirs.reading()
    );
    println!("level\tpositions\tdiffering\tshare\tfirst-differing-board\ta\tb");
    for level in 0..=most {
        let (x, y) = (a.level(level), b.level(level));
        let differing = x.iter().zip(y).filter(|(p, q)| p != q).count();
        let first = x.iter().zip(y).position(|(p, q)| p != q);
        let witness = first.map_or("-\t-\t-".to_string(), |i| {
            let board = a.ranks().unrank(i as u64, level);
            let pits: Vec<String> = board[..ours.pits()].iter().map(u8::to_string).collect();
            format!("{}\t{}\t{}", pits.join(" "), x[i], y[i])
        });
        println!(
            "{level}\t{}\t{differing}\t{:.6}\t{witness}",
            x.len(),
            differing as f64 / x.len() as f64
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn verify(args: &SolveArgs, retro: &dyn Retro, folder: &Path) -> Result<ExitCode, String> {
    let most = args.seeds.unwrap_or(MAX_SEEDS);
    let db = load(retro, folder, most)?;
    if db.levels() == 0 {
        return Err(format!(
            "no levels in {} (build them with solve --build --seeds N)",
            mancala_lab::text::shown_path(folder)
        ));
    }
    if let Some(n) = args.seeds {
        if db.levels() <= n {
            return Err(format!(
                "{} holds levels 0 to {} only, not {n}",
                mancala_lab::text::shown_path(folder),
                db.levels() - 1
            ));
        }
    }
    if args.from >= db.levels() {
        return Err(format!(
            "--from {}: {} holds levels 0 to {} only",
            args.from,
            mancala_lab::text::shown_path(folder),
            db.levels() - 1
        ));
    }
    println!(
        "{} under {}: levels {} to {} checked with the {} engine",
        retro.game(),
        retro.reading(),
        args.from,
        db.levels() - 1,
        retro.engine()
    );
    println!("level\tpositions\tbest-over-moves\tforced\tindependent");
    let bar = Bar::new();
    let mut failed = false;
    for level in args.from..db.levels() {
        let bellman = match verify_level(retro, &db, level, &bar) {
            Ok(()) => "ok".to_string(),
            Err(wrong) => {
                failed = true;
                format!("WRONG: {wrong}")
            }
        };
        bar.0.finish_and_clear();
        let forced = forced(retro, &db, level, &bar, &mut failed);
        let independent = if level > args.independent {
            sampled(args, retro, &db, level, &bar, &mut failed)
        } else {
            let checked = check_level(retro, &db, level, &bar);
            bar.0.finish_and_clear();
            match checked {
                Ok(c) => match c.disagreed {
                    None => format!("ok ({} of {} agree)", c.agreed, c.boards),
                    Some((board, stored, found)) => {
                        failed = true;
                        format!(
                            "WRONG: {} of {} agree; board {board:?}: level says {stored}, the \
                             other method {found}",
                            c.agreed, c.boards
                        )
                    }
                },
                Err(e) => {
                    failed = true;
                    format!("cannot run: {e}")
                }
            }
        };
        println!(
            "{level}\t{}\t{bellman}\t{forced}\t{independent}",
            db.ranks().count(level)
        );
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The check that every value other than 0 of the level is forced, not held up by a cycle
/// (needed only where play within a level can come back to a board).
fn forced(retro: &dyn Retro, db: &Database, level: u32, bar: &Bar, failed: &mut bool) -> String {
    if retro.acyclic() {
        return "not needed (no cycles within a level)".to_string();
    }
    let found = check_forced(retro, db, level, bar);
    bar.0.finish_and_clear();
    match found {
        Ok(f) => match f.unforced {
            None => format!(
                "ok ({} boards worth other than 0, all forced; {} passes, {} evaluations)",
                f.valued, f.passes, f.evaluations
            ),
            Some((board, value)) => {
                *failed = true;
                format!(
                    "WRONG: {} of {} boards worth other than 0 forced; board {board:?} holds \
                     {value}, which no play forces",
                    f.forced, f.valued
                )
            }
        },
        Err(e) => {
            *failed = true;
            format!("cannot run: {e}")
        }
    }
}

/// The independent check of a level above --independent: --sample boards, each solved with the
/// boards it reaches in its level.
fn sampled(
    args: &SolveArgs,
    retro: &dyn Retro,
    db: &Database,
    level: u32,
    bar: &Bar,
    failed: &mut bool,
) -> String {
    if args.sample == 0 {
        return "not run (above --independent)".to_string();
    }
    bar.pass(level, 2, args.sample);
    let found = check_sample(
        retro,
        db,
        level,
        args.sample,
        args.seed,
        args.reach,
        &|| bar.advance(1),
    );
    bar.0.finish_and_clear();
    match found {
        Ok(s) => {
            let c = &s.checked;
            let left = s.drawn - s.solved;
            let left = if left == 0 {
                String::new()
            } else {
                format!("; {left} reach more than --reach, not run")
            };
            match &c.disagreed {
                None => format!(
                    "sampled: ok ({} drawn boards solved, their {} boards reached agree{left})",
                    s.solved, c.agreed
                ),
                Some((board, stored, found)) => {
                    *failed = true;
                    format!(
                        "sampled: WRONG: {} of {} agree; board {board:?}: level says {stored}, \
                         the other method {found}",
                        c.agreed, c.boards
                    )
                }
            }
        }
        Err(e) => {
            *failed = true;
            format!("cannot run: {e}")
        }
    }
}

/// The position to solve (--position, or the start) and how the report names it.
fn target(args: &SolveArgs) -> Result<(Target, String), String> {
    let text = args
        .position
        .as_deref()
        .map(super::position_input)
        .transpose()?
        .map(super::without_bom);
    let shown = args.position.as_deref().map(super::input_name);
    let t =
        registry::target(args.game, variant(args), text.as_deref(), args.per_pit).map_err(|e| {
            match e {
                ExactError::Position { message } => {
                    format!("{}: {message}", shown.clone().unwrap_or_default())
                }
                e => format!("--variant: {e}"),
            }
        })?;
    let what = t.start.clone().or(shown).unwrap_or_default();
    Ok((t, what))
}

fn solve(
    args: &SolveArgs,
    retro: &dyn Retro,
    cycles: bool,
    folder: &Path,
) -> Result<ExitCode, String> {
    let (t, what) = target(args)?;
    let n = seeds(&t.board);
    if n > MAX_SEEDS {
        return Err(format!(
            "{n} seeds on the board: solve handles at most {MAX_SEEDS}"
        ));
    }
    let most = args.seeds.unwrap_or(n.max(1)).min(n);
    let db = load(retro, folder, most)?;
    let stop = super::interrupt_on_ctrl_c_with(String::new);
    let spinner = Spinner::new();
    let watch = |boards: u64, lo: i8, hi: i8| spinner.show(boards, lo, hi);
    let mut search = Search::new(retro, &db, args.budget)
        .table_mib(args.table)
        .threads(usize::from(args.threads))
        .stop_on(stop)
        .watched(&watch);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(usize::from(args.threads))
        .build()
        .map_err(|e| format!("cannot start {} search threads: {e}", args.threads))?;
    // The levels read are those the board can reach; the folder may hold more.
    let built = match db.levels() {
        0 => "no databases".to_string(),
        k => format!("levels 0 to {} of the databases read", k - 1),
    };
    let head = format!(
        "{} under {}, {}, {} to move, {n} seeds on the board; {built}",
        retro.game(),
        retro.reading(),
        what,
        t.to_move,
    );
    let (me, them) = (t.to_move.index(), 1 - t.to_move.index());
    // The value is printed as soon as it is found: the moves' values can take as long again.
    let show_value = |value: i8| {
        println!("{head}");
        println!("value: {value}");
        println!(
            "final difference: {} (with the {} and {} seeds won so far)",
            i32::from(value) + i32::from(t.won[me]) - i32::from(t.won[them]),
            t.won[me],
            t.won[them]
        );
    };
    // The value, the best moves and each move's value are printed as soon as each is found:
    // each step can take longer than the one before.
    let found = pool.install(|| -> Result<(), SearchError> {
        let guess = match args.guess {
            Some(g) => g,
            None if cycles => 0,
            None => search.guess(&t.board),
        };
        let value = search.value_near(&t.board, cycles, guess)?;
        spinner.0.suspend(|| show_value(value));
        spinner.best_moves();
        let best = search.best_moves(&t.board, value, cycles)?;
        let letter = |pit: u8| t.pit_names[usize::from(pit)].to_string();
        if best.is_empty() {
            spinner
                .0
                .suspend(|| println!("best moves: none (the game is over)"));
            return Ok(());
        }
        let best: Vec<String> = best.into_iter().map(letter).collect();
        spinner
            .0
            .suspend(|| println!("best moves: {}", best.join(" ")));
        spinner.moves();
        let all: Vec<String> = search
            .moves(&t.board, cycles)?
            .into_iter()
            .map(|(pit, v)| format!("{} {v}", letter(pit)))
            .collect();
        spinner
            .0
            .suspend(|| println!("move values: {}", all.join(", ")));
        Ok(())
    });
    spinner.0.finish_and_clear();
    match found {
        Ok(()) => {}
        // Out of budget or interrupted: the bounds proven are an answer too, if not the whole.
        Err(SearchError::GaveUp {
            boards,
            why,
            lo,
            hi,
        }) => {
            match spinner.phase() {
                0 => {
                    println!("{head}");
                    println!("value: not found, but at least {lo} and at most {hi}");
                }
                1 => println!("best moves: not found (the search of the moves stopped short)"),
                _ => println!("move values: not found (the search of the moves stopped short)"),
            }
            println!("searched: {boards} boards beyond the databases, then stopped ({why})");
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(e.to_string()),
    }
    if search.nodes() > 0 {
        println!("searched: {} boards beyond the databases", search.nodes());
    }
    Ok(ExitCode::SUCCESS)
}
