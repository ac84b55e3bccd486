//! A game's own study on the command line (e.g. `bao cutoffs`): its games on every core in order,
//! a progress bar, the rows streamed to a new CSV file, Ctrl-C reporting on the games played.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use mancala_lab::game_study::GameStudy;
use mancala_lab::text::shown_path;

/// What a study refuses before playing: `--csv -` (standard output holds the report).
pub fn check_csv(csv: Option<&std::path::Path>) -> Result<(), String> {
    if csv.is_some_and(|p| p.as_os_str() == "-") {
        return Err("--csv -: standard output holds the report; name a file".into());
    }
    Ok(())
}

/// Runs `study` on games `0..games`, with a progress bar; rows stream to the new file `csv` in
/// game order, and Ctrl-C stops taking games and reports on those played (exit 130).
pub fn run<S: GameStudy>(
    study: S,
    games: u64,
    csv: Option<&std::path::Path>,
) -> Result<ExitCode, String> {
    check_csv(csv)?;
    let mut out = match csv {
        Some(path) => {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => format!(
                        "--csv {}: something is there already; {} writes a new file, \
                         choose another name (or remove it)",
                        shown_path(path),
                        S::NAME
                    ),
                    _ => format!("--csv {}: {e}", shown_path(path)),
                })?;
            // Rows are written whole, one write each (the games cost far more), so that a
            // failed write can be cut back to the last whole row.
            file.write_all(S::CSV_HEADER.as_bytes())
                .map_err(|e| format!("--csv {}: {e}", shown_path(path)))?;
            Some((file, path, S::CSV_HEADER.len() as u64))
        }
        None => None,
    };
    let interrupt = super::interrupt_on_ctrl_c();
    let (bar, pool) = super::bar_and_pool(games)?;
    let mut failed = None;
    let mut sums = study.sums();
    let done = mancala_lab::study::pipeline::in_order(
        &pool,
        0..games,
        interrupt,
        |i| study.play(i),
        |i, r| {
            if let Some((file, path, written)) = &mut out {
                let row = study.csv_row(i, &r);
                if let Err(e) = file.write_all(row.as_bytes()) {
                    let cut = file.set_len(*written).is_ok();
                    failed = Some(format!(
                        "--csv {}: {e}; {}",
                        shown_path(path),
                        if cut {
                            format!("it holds the rows of games 0..{i}, whole")
                        } else {
                            "its last row may be cut".to_string()
                        }
                    ));
                    return false;
                }
                *written += row.len() as u64;
            }
            study.add(&mut sums, i, &r);
            bar.inc(1);
            true
        },
    );
    bar.finish_and_clear();
    if let Some(e) = failed {
        return Err(e);
    }
    print!("{}", study.report(&sums, done));
    if interrupt.load(Ordering::SeqCst) && done < games {
        eprintln!("interrupted: games 0..{done} of {games} played and reported");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
