//! `mancala-lab audit`: other engines' game records replayed under a reading, each game's first
//! deviation named by its clause, written as games.csv, summary.csv and witnesses.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use mancala_lab::audit::{games_csv, summary_csv, witnesses, GameAudit};
use mancala_lab::game::GameKind;
use mancala_lab::text::{quoted, shown_path};

/// The record formats `audit` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// AbstractPlay's JSON lines: one game per line (docs/formats.md).
    Abstractplay,
    /// Our transcripts of either game: one game per file.
    Transcript,
    /// OpenSpiel's Oware games as experiments/openspiel/dump_games.py writes them.
    Openspiel,
}

impl Format {
    /// The game whose records the format holds (a transcript: `--game`'s, Bao by default).
    fn game(self, asked: Option<GameKind>) -> GameKind {
        match self {
            Format::Abstractplay => GameKind::Bao,
            Format::Transcript => asked.unwrap_or(GameKind::Bao),
            Format::Openspiel => GameKind::Oware,
        }
    }
}

/// A game's reading, checked.
enum Reading {
    Bao(mancala_lab::bao::Variant),
    Oware(mancala_lab::oware::Variant),
}

/// Options of `audit`.
#[derive(Args)]
pub struct AuditArgs {
    /// The game of the records [default: the format's].
    #[arg(long, value_enum)]
    game: Option<GameKind>,
    /// The format of the record files (abstractplay and transcript: Bao; openspiel: Oware).
    #[arg(long, value_enum)]
    format: Format,
    /// The reading to audit under (Bao: default, literal-en, engines, strict; Oware: sheet,
    /// abapa, strict) [default: the game's own reading: default, sheet].
    #[arg(long)]
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

/// The reading the options name.
fn reading(args: &AuditArgs) -> Result<Reading, String> {
    let name = args
        .variant
        .clone()
        .unwrap_or_else(|| args.format.game(args.game).default_variant().to_string());
    match args.format.game(args.game) {
        GameKind::Bao => {
            let mut v: mancala_lab::bao::Variant =
                name.parse().map_err(|e| format!("--variant: {e}"))?;
            if let Some(inf) = &args.infinite {
                let inf: mancala_lab::bao::variant::InfiniteMoves =
                    inf.parse().map_err(|e| format!("--infinite: {e}"))?;
                v = v.with_infinite_moves(inf);
            }
            Ok(Reading::Bao(v))
        }
        GameKind::Oware => {
            if args.infinite.is_some() {
                return Err("--infinite: Oware has no infinite moves; it is for Bao".into());
            }
            let v: mancala_lab::oware::Variant =
                name.parse().map_err(|e| format!("--variant: {e}"))?;
            Ok(Reading::Oware(v))
        }
    }
}

/// What `audit` refuses before reading its records (also for `--parse-only`).
pub fn check(args: &AuditArgs) -> Result<(), String> {
    if let Some(game) = args.game.filter(|&g| g != args.format.game(args.game)) {
        return Err(format!(
            "--format {}: its records are of {}, not {}",
            quoted(&format!("{:?}", args.format).to_lowercase()),
            args.format.game(None).name(),
            game.name()
        ));
    }
    reading(args)?;
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

/// A record of either game.
enum AnyRecord {
    Bao(mancala_lab::bao::audit::Record),
    Oware(mancala_lab::oware::audit::Record),
}

impl AnyRecord {
    fn source(&self) -> &str {
        match self {
            AnyRecord::Bao(r) => &r.source,
            AnyRecord::Oware(r) => &r.source,
        }
    }

    /// The audit under `reading` (of the record's game), or why the record cannot be audited.
    fn audit(&self, reading: &Reading) -> Result<GameAudit, String> {
        match (self, reading) {
            (AnyRecord::Bao(r), Reading::Bao(v)) => {
                mancala_lab::bao::audit::audit(*v, r).map_err(|e| e.to_string())
            }
            (AnyRecord::Oware(r), Reading::Oware(v)) => {
                mancala_lab::oware::audit::audit(*v, r).map_err(|e| e.to_string())
            }
            _ => unreachable!("check() matches the format to the game"),
        }
    }
}

/// The records of one file, each bad one as an error naming the file and line.
fn records(
    format: Format,
    game: GameKind,
    path: &Path,
) -> Result<Vec<Result<AnyRecord, String>>, String> {
    let name = if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        shown_path(path)
    };
    // Records one a line: a line that is not UTF-8 is a bad record of its own, named by its
    // line, and the others are still read (the line is left empty for the reader).
    let mut bad_lines = Vec::new();
    let text = match format {
        Format::Abstractplay | Format::Openspiel => {
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
        // A transcript is one record: a file that is not UTF-8 is a bad record, named by the
        // line of its first bad byte.
        Format::Transcript => {
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
    let mut read: Vec<Result<AnyRecord, String>> = match format {
        Format::Abstractplay => mancala_lab::bao::abstractplay::read(&text)
            .into_iter()
            .map(|r| {
                r.map(|mut rec| {
                    rec.source = format!("{name}:{}", rec.source.trim_start_matches("line "));
                    AnyRecord::Bao(rec)
                })
                .map_err(|e| match e.column {
                    Some(column) => format!("{name}:{}:{column}: {}", e.line, e.message),
                    None => format!("{name}:{}: {}", e.line, e.message),
                })
            })
            .collect(),
        Format::Openspiel => mancala_lab::oware::audit::read_openspiel(&text)
            .into_iter()
            .map(|r| {
                r.map(|mut rec| {
                    rec.source = format!("{name}:{}", rec.source.trim_start_matches("line "));
                    AnyRecord::Oware(rec)
                })
                .map_err(|e| format!("{name}:{}: {}", e.line, e.message))
            })
            .collect(),
        Format::Transcript if game == GameKind::Oware => {
            vec![mancala_lab::oware::audit::from_transcript(&name, &text)
                .map(AnyRecord::Oware)
                .map_err(|e| format!("{name}: {e}"))]
        }
        Format::Transcript => {
            let t = match mancala_lab::bao::transcript::Transcript::parse(&text) {
                Ok(t) => t,
                Err(e) => return Ok(vec![Err(format!("{name}: {e}"))]),
            };
            vec![Ok(AnyRecord::Bao(mancala_lab::bao::audit::Record {
                game: name.clone(),
                source: name,
                moves: t.plies.iter().map(|p| p.text.to_string()).collect(),
                end: None,
                final_board: None,
            }))]
        }
    };
    read.extend(bad_lines);
    Ok(read)
}

/// The files and folder an audit writes in `--out`.
const OUTPUTS: [&str; 3] = ["games.csv", "summary.csv", "witnesses"];

/// Refuses an `--out` that holds an audit (any of its outputs) unless `--force`, and, even with
/// `--force`, one whose outputs would replace an input or a file no audit writes.
fn check_out(args: &AuditArgs) -> Result<(), String> {
    let out = &args.out;
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
    let reading = reading(&args)?;
    check_out(&args)?;
    // The inputs are read before Ctrl-C is caught: a signal while a read waits (a pipe or a
    // FIFO that stays open) stops the audit at once, with nothing written.
    let mut all = Vec::new();
    let mut bad = 0u64;
    for path in &args.files {
        all.extend(records(args.format, args.format.game(args.game), path)?);
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
        match record.audit(&reading) {
            Ok(a) => audits.push(a),
            Err(e) => {
                bar.suspend(|| eprintln!("mancala-lab: bad record: {}: {e}", record.source()));
                bad += 1;
            }
        }
    }
    bar.finish_and_clear();
    // Checked again: a file of the user's may have come to --out while the records were read.
    check_out(&args)?;
    // A signal from here on waits for the audit to be written whole.
    write(&args.out, &audits)?;
    let deviating = audits.iter().filter(|a| a.deviation.is_some()).count();
    let explained = audits
        .iter()
        .filter(|a| a.deviation.is_some() && !a.explained_by.is_empty())
        .count();
    let marks: usize = audits.iter().map(|a| a.notation.len()).sum();
    println!(
        "audited {} games under the reading {}{}: {} agree, {deviating} deviate in play ({explained} \
         explained by another reading); {marks} marks written otherwise; {bad} bad records; \
         tables in {}",
        audits.len(),
        args.variant
            .as_deref()
            .unwrap_or(args.format.game(args.game).default_variant()),
        args.infinite
            .as_ref()
            .map_or(String::new(), |i| format!(" (infinite {i})")),
        audits.len() - deviating,
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
