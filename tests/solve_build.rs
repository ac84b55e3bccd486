//! `solve --build` on disk: the folder's lock (a second build at the same time is refused, naming
//! the first), no temporary file left by a write that fails, the levels a game can have, and what
//! a build says it takes before it starts (and its refusal when the disk is too small).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use mancala_lab::solve::level_file;

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

/// Runs `c`, which must be refused (exit 2) without writing to standard output; its message.
fn refused(mut c: Command) -> String {
    let out = c.output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(text(&out.stdout), "", "{err}");
    err
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

/// Bytes as `solve` shows them (KiB with one decimal below a MiB).
fn kib(bytes: u64) -> String {
    assert!(bytes < 1 << 20);
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

#[test]
fn a_build_into_a_folder_another_holds_is_refused_naming_the_holder() {
    let db = tempfile::tempdir().unwrap();
    let folder = oware_folder(db.path());
    // This process holds the folder as a build does.
    let lock = level_file::lock(&folder).unwrap();
    let err = refused(build(db.path(), 4, &[]));
    assert!(
        err.contains("is being built by another process (lock "),
        "{err}"
    );
    assert!(
        err.contains(&format!("process {} on ", std::process::id())),
        "{err}"
    );
    assert!(err.contains("another --db"), "{err}");
    assert_eq!(names(&folder), [".lock"], "nothing built meanwhile");
    drop(lock);
    // Let go: the same command builds, and lets go in turn.
    succeeds(build(db.path(), 4, &[]));
    assert_eq!(names(&folder), levels_to(4));
}

/// The case: two builds into one folder at once. The second is refused while the first
/// runs, naming its process; once the first is killed, its lock holds nothing.
#[test]
fn of_two_builds_at_once_the_second_is_refused() {
    let db = tempfile::tempdir().unwrap();
    let folder = oware_folder(db.path());
    // Levels to 20 take a minute or more; this one is killed long before.
    let mut first = build(db.path(), 20, &["--no-space-check"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = first.id().to_string();
    let began = Instant::now();
    while std::fs::read_to_string(folder.join(".lock"))
        .map_or(true, |t| t.split_whitespace().next() != Some(pid.as_str()))
    {
        assert!(
            first.try_wait().unwrap().is_none(),
            "the first build ended early"
        );
        assert!(began.elapsed() < Duration::from_secs(60), "no lock taken");
        std::thread::sleep(Duration::from_millis(20));
    }
    let err = refused(build(db.path(), 20, &["--no-space-check"]));
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first still builds"
    );
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(err.contains(&format!("process {pid} on ")), "{err}");
    // The killed build's lock file may be left; it holds nothing, and any temporary file that
    // build left part way is removed by the next.
    succeeds(build(db.path(), 5, &[]));
    let left = names(&folder);
    assert!(
        left.iter()
            .all(|n| n.starts_with("level-") && n.ends_with(".bin")),
        "{left:?}"
    );
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

/// No board of Oware holds more than its 48 seeds, nor of Kalah(m,n) more than 2mn; levels above
/// are refused before anything is read or made.
#[test]
fn levels_past_the_game_s_seeds_are_refused() {
    let db = tempfile::tempdir().unwrap();
    let err = refused(build(db.path(), 49, &[]));
    assert!(
        err.contains("--seeds 49: at most 48 (Oware has 48 seeds in all"),
        "{err}"
    );
    let kalah = |variant: &str, seeds: u32| {
        let mut c = bin();
        c.args(["solve", "--game", "kalah", "--variant", variant, "--build"])
            .args(["--seeds", &seeds.to_string(), "--db"])
            .arg(db.path());
        c
    };
    // The default reading, OpenSpiel's: Kalah(6,4).
    let err = refused(kalah("openspiel", 49));
    assert!(
        err.contains("--seeds 49: at most 48 (Kalah(6,4) has 48 seeds in all"),
        "{err}"
    );
    let err = refused(kalah("openspiel:seeds=6", 73));
    assert!(
        err.contains("--seeds 73: at most 72 (Kalah(6,6) has 72 seeds in all"),
        "{err}"
    );
    assert!(err.contains("seeds=n"), "{err}");
    let err = refused(kalah("empty-capture:pits=3,seeds=2", 13));
    assert!(err.contains("--seeds 13: at most 12 (Kalah(3,2)"), "{err}");
    // Past what a level file holds, whatever the game.
    let err = refused(kalah("openspiel:seeds=12", 101));
    assert!(err.contains("--seeds 101: at most 100"), "{err}");
    assert_eq!(names(db.path()), Vec::<String>::new(), "nothing made");
    // The largest levels are accepted (checked only: their build would take terabytes).
    for args in [
        &["--game", "oware", "--seeds", "48"][..],
        &["--game", "kalah", "--seeds", "48"],
        &[
            "--game",
            "kalah",
            "--variant",
            "openspiel:seeds=6",
            "--seeds",
            "72",
        ],
    ] {
        let out = bin()
            .args(["--parse-only", "solve", "--build"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn a_build_says_what_it_takes_before_it_starts() {
    let db = tempfile::tempdir().unwrap();
    let folder = oware_folder(db.path());
    let out = succeeds(build(db.path(), 6, &[]));
    let err = text(&out.stderr);
    // Boards of n seeds over 12 pits: C(n + 11, 11); 1 + 12 + 78 + 364 + 1,365 + 4,368 +
    // 12,376 = C(18, 12) = 18,564 to 6 seeds.
    assert!(
        err.contains("estimate: 7 of the 7 levels to build (18564 boards): "),
        "{err}"
    );
    // The files: as many bytes as those written.
    let written: u64 = levels_to(6)
        .iter()
        .map(|n| std::fs::metadata(folder.join(n)).unwrap().len())
        .sum();
    assert!(
        err.contains(&format!("boards): {} of files, ", kib(written))),
        "{err}"
    );
    // The memory at the most: level 6's build, with the 6,188 boards below it, its 12,376 and
    // its two bit sets a board (3,094 bytes): 21,658 bytes.
    assert!(
        err.contains(&format!("files, {} in memory at the most; ", kib(21_658))),
        "{err}"
    );
    assert!(
        err.contains("under a second (at 1.5 million boards a second"),
        "{err}"
    );
    // Again, one level more: only that one is to build (C(19, 11) = 31,824 boards).
    let out = succeeds(build(db.path(), 7, &[]));
    assert!(
        text(&out.stderr).contains(
            "estimate: 1 of the 8 levels to build (31824 boards; the other 7 are read back): "
        ),
        "{}",
        text(&out.stderr)
    );
    // Nothing left: the levels in memory, 18,564 + 31,824 bytes.
    let out = succeeds(build(db.path(), 7, &[]));
    assert!(
        text(&out.stderr).contains(&format!(
            "estimate: no level to build, the 8 are in {} (read back: {} in memory)",
            folder.display(),
            kib(50_388)
        )),
        "{}",
        text(&out.stderr)
    );
}

/// A build whose files would not fit the disk is refused before it makes anything, naming both
/// figures (the free space faked by MANCALA_LAB_FREE_SPACE); levels already built do not count,
/// and --no-space-check builds anyway.
#[test]
fn a_build_too_big_for_the_disk_is_refused_with_both_figures() {
    let db = tempfile::tempdir().unwrap();
    let db = db.path().join("not-made-yet");
    let folder = oware_folder(&db);
    let free = |c: &mut Command, bytes: &str| {
        c.env(mancala_lab::disk::FREE_SPACE_VARIABLE, bytes);
    };
    // Levels 0 to 6: 19,565 bytes of files (their headers and 18,564 boards); 1,000 bytes free.
    let mut c = build(&db, 6, &[]);
    free(&mut c, "1000");
    let err = refused(c);
    assert!(
        err.contains(&format!(
            "the levels to build would take {} in {} and its file system has {} free",
            kib(19_565),
            folder.display(),
            kib(1000)
        )),
        "{err}"
    );
    assert!(err.contains("--no-space-check"), "{err}");
    assert!(!db.exists(), "nothing made");
    let mut c = build(&db, 6, &["--no-space-check"]);
    free(&mut c, "1000");
    succeeds(c);
    assert_eq!(names(&folder), levels_to(6));
    // Level 7 alone: its header line and 31,824 boards.
    let header = "mancala-lab-level format=1 game=oware \
                  reading=grand-slam=forbidden,no-allowed-move=each-takes-own pits=12 seeds=7 \
                  positions=31824 crc32=01234567\n";
    let bytes = header.len() as u64 + 31_824;
    let mut c = build(&db, 7, &[]);
    free(&mut c, &(bytes - 1).to_string());
    let err = refused(c);
    assert!(err.contains(&format!("take {} in ", kib(bytes))), "{err}");
    let mut c = build(&db, 7, &[]);
    free(&mut c, &bytes.to_string());
    succeeds(c);
    assert_eq!(
        std::fs::metadata(folder.join("level-07.bin"))
            .unwrap()
            .len(),
        bytes
    );
    // A figure that is not one.
    let mut c = build(&db, 8, &[]);
    free(&mut c, "lots");
    let err = refused(c);
    assert!(
        err.contains("MANCALA_LAB_FREE_SPACE: \"lots\" is not a number of bytes"),
        "{err}"
    );
}
