//! `mancala-lab audit`: other engines' game records replayed under a reading, each game's first
//! deviation named by its clause, written as games.csv, summary.csv and witnesses.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use mancala_lab::audit::{games_csv, summary_csv, witnesses, GameAudit, RecordFormat};
use mancala_lab::registry::GameKind;
use mancala_lab::registry::{with_game, GameVisitor, Mancala};
use mancala_lab::text::{quoted, shown_path};

/// The games whose audit reads `format`, in the registry's order.
fn games_reading(format: RecordFormat) -> Vec<GameKind> {
    struct Reads(RecordFormat);
    impl GameVisitor for Reads {
        type Output = bool;
        fn visit<M: Mancala>(self) -> bool {
            M::RECORD_FORMATS.contains(&self.0)
        }
    }
    GameKind::ALL
        .into_iter()
        .filter(|&g| with_game(g, Reads(format)))
        .collect()
}

/// The game of the records: `--game`, if its audit reads the format, or the first game that
/// does.
fn game(args: &AuditArgs) -> Result<GameKind, String> {
    let games = games_reading(args.format);
    match args.game {
        Some(g) if games.contains(&g) => Ok(g),
        Some(g) => Err(format!(
            "--format {}: its records are of {}, not {}",
            quoted(args.format.name()),
            games
                .iter()
                .map(|g| g.name())
                .collect::<Vec<_>>()
                .join(" or "),
            g.name()
        )),
        None => games
            .first()
            .copied()
            .ok_or_else(|| format!("--format {}: no game reads it", args.format.name())),
    }
}

/// Options of `audit`.
#[derive(Args)]
pub struct AuditArgs {
    /// The game of the records [default: the format's].
    #[arg(long, value_enum)]
    game: Option<GameKind>,
    /// The format of the record files (abstractplay and transcript: Bao; openspiel and
    /// transcript: Oware and Kalah).
    #[arg(long, value_enum)]
    format: RecordFormat,
    // The game's readings, listed by the registry.
    #[arg(long, help = format!("The reading to audit under ({})", mancala_lab::registry::readings_help()))]
    variant: Option<String>,
    /// Bao: what counts as an infinite move (1.5.6), 'exact' or 'sown:N' (overrides the
    /// variant's).
    #[arg(long)]
    infinite: Option<String>,
    /// The folder to write games.csv, summary.csv and witnesses/ to.
    #[arg(long)]
    out: PathBuf,
    /// Replace an audit already in --out (only its own tables and witnesses: anything else there
    /// stops it).
    #[arg(long)]
    force: bool,
    /// Record files ('-' reads standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// The reading the options name in the game `M`.
fn reading<M: Mancala>(args: &AuditArgs) -> Result<M::Variant, String> {
    let name = args.variant.as_deref().unwrap_or(M::DEFAULT_VARIANT);
    let mut v = M::variant(name).map_err(|e| format!("--variant: {e}"))?;
    if let Some(inf) = &args.infinite {
        v = M::set(v, "infinite", inf).map_err(|e| format!("--infinite: {e}"))?;
    }
    Ok(v)
}

/// What `audit` refuses before reading its records (also for `--parse-only`).
pub fn check(args: &AuditArgs) -> Result<(), String> {
    struct Reading<'a>(&'a AuditArgs);
    impl GameVisitor for Reading<'_> {
        type Output = Result<(), String>;
        fn visit<M: Mancala>(self) -> Self::Output {
            reading::<M>(self.0).map(drop)
        }
    }
    with_game(game(args)?, Reading(args))?;
    if args.files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        return Err("standard input ('-') can be read once only".into());
    }
    // A file given twice would count its games twice.
    for (i, a) in args.files.iter().enumerate() {
        for b in &args.files[i + 1..] {
            if super::same_file(super::input_file(a), super::input_file(b)) {
                return Err(format!(
                    "{} and {} are the same file; each record file is given once",
                    shown_path(a),
                    shown_path(b)
                ));
            }
        }
    }
    Ok(())
}

/// The records of one file, each bad one as an error naming the file and line.
fn records<M: Mancala>(
    format: RecordFormat,
    path: &Path,
) -> Result<Vec<Result<M::Record, String>>, String> {
    let name = if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        shown_path(path)
    };
    // Records one a line: a line that is not UTF-8 is a bad record of its own, named by its
    // line, and the others are still read (the line is left empty for the reader).
    let mut bad_lines = Vec::new();
    let text = if format.per_line() {
        {
            let bytes = super::read_input_bytes(path)?;
            let lines: Vec<String> = bytes
                .split(|&b| b == b'\n')
                .enumerate()
                .map(|(i, line)| match std::str::from_utf8(line) {
                    Ok(t) => t.to_string(),
                    Err(e) => {
                        bad_lines.push(Err(format!(
                            "{name}:{}: not UTF-8 text (byte {} of the line is not)",
                            i + 1,
                            e.valid_up_to() + 1
                        )));
                        String::new()
                    }
                })
                .collect();
            super::without_bom(lines.join("\n"))
        }
    } else {
        // A record a file: a file that is not UTF-8 is a bad record, named by the line of its
        // first bad byte.
        {
            let bytes = super::read_input_bytes(path)?;
            match String::from_utf8(bytes) {
                Ok(text) => {
                    let text = super::without_bom(text);
                    if let Err(e) = super::line_ends(&name, &text) {
                        return Ok(vec![Err(e)]);
                    }
                    text
                }
                Err(e) => {
                    let bad = e.utf8_error().valid_up_to();
                    let bytes = e.as_bytes();
                    let line = bytes[..bad].iter().filter(|&&b| b == b'\n').count() + 1;
                    let start = bytes[..bad]
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |i| i + 1);
                    return Ok(vec![Err(format!(
                        "{name}:{line}: not UTF-8 text (byte {} of the line is not)",
                        bad - start + 1
                    ))]);
                }
            }
        }
    };
    let mut read = M::records(format, &name, &text);
    read.extend(bad_lines);
    Ok(read)
}

/// The files and folder an audit writes in `--out`.
const OUTPUTS: [&str; 3] = ["games.csv", "summary.csv", "witnesses"];

/// Refuses an `--out` that holds an audit (any of its outputs) unless `--force`, and, even with
/// `--force`, one whose outputs would replace an input or a file no audit writes; with
/// `--force`, an `--out` that is a symbolic link.
fn check_out(args: &AuditArgs) -> Result<(), String> {
    let out = &args.out;
    if args.force {
        super::force_not_through_link(out)?;
    }
    if out.exists() && !out.is_dir() {
        return Err(format!(
            "--out {}: not a folder; an audit is a folder of files, name one",
            shown_path(out)
        ));
    }
    // A stats study or a match shares file names with an audit (games.csv, summary.csv): it is
    // never an audit to replace, --force or not.
    let other = [
        "manifest.json",
        "match.json",
        "pairs",
        "clauses.csv",
        "ratings.csv",
    ]
    .into_iter()
    .find(|f| out.join(f).symlink_metadata().is_ok());
    if let Some(file) = other {
        return Err(format!(
            "--out {}: it holds a stats study or a match ({file}), not an audit; an audit needs \
             a folder of its own",
            shown_path(out)
        ));
    }
    let found: Vec<&str> = OUTPUTS
        .into_iter()
        .filter(|name| out.join(name).symlink_metadata().is_ok())
        .collect();
    if !found.is_empty() && !args.force {
        return Err(format!(
            "--out {}: it already holds an audit ({}); choose another folder, or --force to \
             replace it",
            shown_path(out),
            found.join(", ")
        ));
    }
    let witnesses = out.join("witnesses");
    if witnesses.symlink_metadata().is_ok_and(|m| !m.is_dir()) {
        return Err(format!(
            "--out {}: witnesses is not a folder of its own (a file or a link); move it away",
            shown_path(out)
        ));
    }
    let inside = |file: &Path| {
        let file = super::input_file(file);
        let under = match (file.canonicalize(), witnesses.canonicalize()) {
            (Ok(f), Ok(w)) => f.starts_with(w),
            _ => false,
        };
        under
            || OUTPUTS[..2]
                .iter()
                .any(|n| super::same_file(file, &out.join(n)))
    };
    if let Some(file) = args.files.iter().find(|f| inside(f)) {
        return Err(format!(
            "--out {}: the record file {} is where the audit writes; move it, or choose \
             another folder",
            shown_path(out),
            shown_path(file)
        ));
    }
    // Only an audit's own tables are replaced: a plain file starting with the header it writes.
    for (name, header) in [
        ("games.csv", games_csv(&[])),
        ("summary.csv", summary_csv(&[])),
    ] {
        let path = out.join(name);
        let header = header.lines().next().unwrap_or("");
        if path.symlink_metadata().is_ok() && !mancala_lab::study::starts_with_header(&path, header)
        {
            return Err(format!(
                "--out {}: {} is not a table an audit writes (a link, or a file without the \
                 audit's header); move it away before replacing the audit",
                shown_path(out),
                shown_path(&path)
            ));
        }
    }
    // Only witnesses are replaced: anything else in witnesses/ stays, and stops the audit.
    if let Ok(entries) = std::fs::read_dir(&witnesses) {
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_witness = entry.file_type().is_ok_and(|t| t.is_file())
                && mancala_lab::audit::is_witness_name(&name);
            if !is_witness {
                return Err(format!(
                    "--out {}: {} is not a witness an audit writes; move it away before \
                     replacing the audit",
                    shown_path(out),
                    shown_path(&path)
                ));
            }
        }
    }
    Ok(())
}

pub fn run(args: AuditArgs) -> Result<ExitCode, String> {
    check(&args)?;
    check_out(&args)?;
    struct Run<'a>(&'a AuditArgs);
    impl GameVisitor for Run<'_> {
        type Output = Result<ExitCode, String>;
        fn visit<M: Mancala>(self) -> Self::Output {
            audit::<M>(self.0)
        }
    }
    with_game(game(&args)?, Run(&args))
}

/// The audit of the records of `args`, of the game `M`.
fn audit<M: Mancala>(args: &AuditArgs) -> Result<ExitCode, String> {
    let reading = reading::<M>(args)?;
    // The inputs are read before Ctrl-C is caught: a signal while a read waits (a pipe or a
    // FIFO that stays open) stops the audit at once, with nothing written.
    let mut all = Vec::new();
    let mut bad = 0u64;
    for path in &args.files {
        all.extend(records::<M>(args.format, path)?);
    }
    let interrupt = super::interrupt_on_ctrl_c();
    let stopped = || interrupt.load(std::sync::atomic::Ordering::SeqCst);
    let bar = super::games_bar(all.len() as u64)?;
    let mut audits: Vec<GameAudit> = Vec::new();
    for r in all {
        if stopped() {
            bar.finish_and_clear();
            eprintln!(
                "interrupted; nothing written to {} (an audit is written whole or not at all)",
                shown_path(&args.out)
            );
            return Ok(ExitCode::from(130));
        }
        bar.inc(1);
        let record = match r {
            Ok(rec) => rec,
            Err(e) => {
                bar.suspend(|| eprintln!("mancala-lab: bad record: {e}"));
                bad += 1;
                continue;
            }
        };
        match M::audit(reading, &record) {
            Ok(a) => audits.push(a),
            Err(e) => {
                let source = M::record_source(&record);
                bar.suspend(|| eprintln!("mancala-lab: bad record: {source}: {e}"));
                bad += 1;
            }
        }
    }
    bar.finish_and_clear();
    // Checked again: a file of the user's may have come to --out while the records were read.
    check_out(args)?;
    // A signal from here on waits for the audit to be written whole.
    write(&args.out, &audits)?;
    let deviating = audits.iter().filter(|a| a.deviation.is_some()).count();
    let explained = audits
        .iter()
        .filter(|a| a.deviation.is_some() && !a.explained_by.is_empty())
        .count();
    let marks: usize = audits.iter().map(|a| a.notation.len()).sum();
    println!(
        "audited {} under the reading {}{}: {}, {} in play ({explained} explained by another \
         reading); {} written otherwise; {}; tables in {}",
        counted(audits.len(), "game", "games"),
        args.variant.as_deref().unwrap_or(M::DEFAULT_VARIANT),
        args.infinite
            .as_ref()
            .map_or(String::new(), |i| format!(" (infinite {i})")),
        counted(audits.len() - deviating, "agrees", "agree"),
        counted(deviating, "deviates", "deviate"),
        counted(marks, "mark", "marks"),
        counted(bad, "bad record", "bad records"),
        shown_path(&args.out)
    );
    Ok(if stopped() {
        eprintln!("interrupted once the audit was written whole");
        ExitCode::from(130)
    } else if bad > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the tables and witnesses of `audits` to `dir`, replacing what an earlier audit left
/// (checked by [`check_out`]): its tables go first and games.csv comes last, so a folder
/// without games.csv holds no complete audit.
fn write(dir: &Path, audits: &[GameAudit]) -> Result<(), String> {
    let fail = |p: &Path, e: &dyn std::fmt::Display| format!("--out {}: {e}", shown_path(p));
    for name in ["games.csv", "summary.csv"] {
        let path = dir.join(name);
        if path.symlink_metadata().is_ok() {
            std::fs::remove_file(&path).map_err(|e| fail(&path, &e))?;
        }
    }
    let wdir = dir.join("witnesses");
    if let Ok(entries) = std::fs::read_dir(&wdir) {
        for entry in entries.flatten() {
            std::fs::remove_file(entry.path()).map_err(|e| fail(&entry.path(), &e))?;
        }
    }
    std::fs::create_dir_all(&wdir).map_err(|e| fail(&wdir, &e))?;
    for (name, text) in witnesses(audits) {
        let path = wdir.join(name);
        mancala_lab::study::write_atomic(&path, &text).map_err(|e| fail(&path, &e))?;
    }
    for (name, text) in [
        ("summary.csv", summary_csv(audits)),
        ("games.csv", games_csv(audits)),
    ] {
        let path = dir.join(name);
        mancala_lab::study::write_atomic(&path, &text).map_err(|e| fail(&path, &e))?;
    }
    Ok(())
}

/// `n` and the word for that many: `one` for 1, `many` otherwise (0 included).
fn counted<N: std::fmt::Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let word = if n == N::from(1) { one } else { many };
    format!("{n} {word}")
}
