//! `solve --build` on disk: no temporary file left by a write that fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
}

/// The folder of Oware's levels under the sheet (the default reading) inside `db`.
fn oware_folder(db: &Path) -> PathBuf {
    db.join("oware_grand-slam_forbidden_no-allowed-move_each-takes-own")
}

/// `solve --game oware --build --seeds N --db DB` with `extra` options.
fn build(db: &Path, seeds: u32, extra: &[&str]) -> Command {
    let mut c = bin();
    c.args(["solve", "--game", "oware", "--build", "--seeds"])
        .arg(seeds.to_string())
        .arg("--db")
        .arg(db)
        .args(extra);
    c
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn succeeds(mut c: Command) -> Output {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

/// The names in `folder`, sorted.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// `level-00.bin` to `level-NN.bin`.
fn levels_to(most: u32) -> Vec<String> {
    (0..=most).map(|n| format!("level-{n:02}.bin")).collect()
}

/// A write that fails part way (the file size limit, as a full disk would) leaves the levels
/// before it whole and no temporary file.
#[cfg(unix)]
#[test]
fn a_write_that_fails_leaves_no_temporary_file() {
    use std::os::unix::process::CommandExt;
    let db = tempfile::tempdir().unwrap();
    let folder = oware_folder(db.path());
    let mut c = build(db.path(), 6, &[]);
    // Files of at most 1 KiB: levels 0 to 3 fit (at most 364 boards and the header), level 4's
    // 1,365 boards do not. SIGXFSZ ignored, the write fails with EFBIG instead of a kill.
    // SAFETY: the closure calls only setrlimit and signal, both async-signal-safe.
    unsafe {
        c.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1024,
                rlim_max: 1024,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = c.output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("/.level-04."), "{err}");
    assert!(err.contains(".partial: "), "{err}");
    assert_eq!(names(&folder), levels_to(3), "{err}");
    // The same command, without the limit, goes on from level 4.
    let out = succeeds(build(db.path(), 6, &[]));
    assert_eq!(text(&out.stdout).matches("read back").count(), 4);
    assert_eq!(names(&folder), levels_to(6));
}
