//! `mancala-lab audit`: other engines' game records replayed under a reading, each game's first
//! deviation named by its clause, written as games.csv, summary.csv and witnesses.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use mancala_lab::audit::{games_csv, summary_csv, witnesses, GameAudit};
use mancala_lab::bao::audit::{audit, Record};
use mancala_lab::text::shown_path;

use super::bao::RuleArgs;

/// The record formats `audit` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// AbstractPlay's JSON lines: one game per line (docs/formats.md).
    Abstractplay,
    /// Our Bao transcripts: one game per file.
    Transcript,
}

/// Options of `audit`.
#[derive(Args)]
pub struct AuditArgs {
    /// The game of the records (Bao only, for now).
    #[arg(long, value_parser = ["bao"], default_value = "bao")]
    game: String,
    /// The format of the record files.
    #[arg(long, value_enum)]
    format: Format,
    #[command(flatten)]
    rules: RuleArgs,
    /// The folder to write games.csv, summary.csv and witnesses/ to.
    #[arg(long)]
    out: PathBuf,
    /// Replace an audit already in --out.
    #[arg(long)]
    force: bool,
    /// Record files ('-' reads standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// What `audit` refuses before reading its records (also for `--parse-only`).
pub fn check(args: &AuditArgs) -> Result<(), String> {
    args.rules.variant()?;
    if args.files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        return Err("standard input ('-') can be read once only".into());
    }
    Ok(())
}

/// The records of one file, each bad one as an error naming the file and line.
fn records(format: Format, path: &Path) -> Result<Vec<Result<Record, String>>, String> {
    let name = if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        shown_path(path)
    };
    let text = super::read_input(path)?;
    Ok(match format {
        Format::Abstractplay => mancala_lab::bao::abstractplay::read(&text)
            .into_iter()
            .map(|r| {
                r.map(|mut rec| {
                    rec.source = format!("{name}:{}", rec.source.trim_start_matches("line "));
                    rec
                })
                .map_err(|e| format!("{name}:{}: {}", e.line, e.message))
            })
            .collect(),
        Format::Transcript => {
            let t = mancala_lab::bao::transcript::Transcript::parse(&text)
                .map_err(|e| format!("{name}: {e}"))?;
            vec![Ok(Record {
                game: name.clone(),
                source: name,
                moves: t.plies.iter().map(|p| p.text.to_string()).collect(),
                end: None,
                final_board: None,
            })]
        }
    })
}

pub fn run(args: AuditArgs) -> Result<ExitCode, String> {
    check(&args)?;
    let variant = args.rules.variant()?;
    let games_path = args.out.join("games.csv");
    if games_path.exists() && !args.force {
        return Err(format!(
            "--out {}: it already holds an audit (games.csv); choose another folder, or --force \
             to replace it",
            shown_path(&args.out)
        ));
    }
    let mut all = Vec::new();
    let mut bad = 0u64;
    for path in &args.files {
        all.extend(records(args.format, path)?);
    }
    let bar = super::games_bar(all.len() as u64)?;
    let mut audits: Vec<GameAudit> = Vec::new();
    for r in all {
        bar.inc(1);
        let record = match r {
            Ok(rec) => rec,
            Err(e) => {
                bar.suspend(|| eprintln!("mancala-lab: bad record: {e}"));
                bad += 1;
                continue;
            }
        };
        match audit(variant, &record) {
            Ok(a) => audits.push(a),
            Err(e) => {
                bar.suspend(|| eprintln!("mancala-lab: bad record: {}: {e}", record.source));
                bad += 1;
            }
        }
    }
    bar.finish_and_clear();
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
        args.rules.variant_name(),
        args.rules
            .infinite_name()
            .map_or(String::new(), |i| format!(" (infinite {i})")),
        audits.len() - deviating,
        shown_path(&args.out)
    );
    Ok(if bad > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the tables and witnesses of `audits` to `dir`, replacing what an earlier audit left.
fn write(dir: &Path, audits: &[GameAudit]) -> Result<(), String> {
    let fail = |p: &Path, e: &dyn std::fmt::Display| format!("--out {}: {e}", shown_path(p));
    let wdir = dir.join("witnesses");
    if wdir.exists() {
        std::fs::remove_dir_all(&wdir).map_err(|e| fail(&wdir, &e))?;
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
