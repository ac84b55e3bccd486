//! Tests of the study folder's files, locks, swaps and messages.

use std::fs;
use std::path::{Path, PathBuf};

use super::folder::{our_folder, Journal, JOURNAL};
use super::*;
use crate::registry::{GameKind, UnknownGame};
use crate::stats::UnknownWinner;

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut left: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    left
}

/// A swap that fails part way puts the old files back and leaves nothing of itself.
#[test]
fn a_failed_swap_undoes_itself() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a"), "old").unwrap();
    fs::write(dir.path().join("b"), "old b").unwrap();
    let staging = staging_dir(dir.path()).unwrap();
    fs::create_dir_all(staging.path().join("sub")).unwrap();
    fs::write(staging.path().join("a"), "new").unwrap();
    fs::write(staging.path().join("b"), "new b").unwrap();
    // `sub/x` cannot be moved in: `dir` has no `sub` (the second move in fails).
    fs::write(staging.path().join("sub/x"), "new x").unwrap();
    assert!(swap_in(dir.path(), staging.path(), &["a", "sub/x", "b"]).is_err());
    assert_eq!(fs::read_to_string(dir.path().join("a")).unwrap(), "old");
    assert_eq!(fs::read_to_string(dir.path().join("b")).unwrap(), "old b");
    assert_eq!(names(dir.path()), ["a", "b"]);
    // Whole, it replaces every file and leaves nothing of itself.
    let staging = staging_dir(dir.path()).unwrap();
    fs::write(staging.path().join("a"), "new").unwrap();
    fs::write(staging.path().join("c"), "new c").unwrap();
    swap_in(dir.path(), staging.path(), &["a", "b", "c"]).unwrap();
    drop(staging);
    assert_eq!(fs::read_to_string(dir.path().join("a")).unwrap(), "new");
    assert_eq!(names(dir.path()), ["a", "c"]);
}

/// A swap a kill cut short is undone by the next job to lock the folder, whatever move it
/// stopped at; a folder of the user's named like a staging folder is never removed.
#[test]
fn a_swap_cut_short_is_undone_by_the_next_lock() {
    for stopped_after in 0..=5 {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("a"), "old a").unwrap();
        fs::write(d.join("b"), "old b").unwrap();
        fs::create_dir_all(d.join(".merge.mine")).unwrap();
        fs::write(d.join(".merge.mine/thesis.tex"), "mine").unwrap();
        let staging = staging_dir(d).unwrap().keep();
        let aside = our_folder(d, ".old.").unwrap().keep();
        for n in ["a", "b", "c"] {
            fs::write(staging.join(n), format!("new {n}")).unwrap();
        }
        let journal = Journal {
            staging: staging.file_name().unwrap().to_string_lossy().into_owned(),
            aside: aside.file_name().unwrap().to_string_lossy().into_owned(),
            names: vec!["a".into(), "b".into(), "c".into()],
            present: vec!["a".into(), "b".into()],
        };
        fs::write(d.join(JOURNAL), serde_json::to_string(&journal).unwrap()).unwrap();
        // The moves swap_in makes, in order, cut short after `stopped_after` of them.
        let moves = [
            (d.join("a"), aside.join("a")),
            (d.join("b"), aside.join("b")),
            (staging.join("a"), d.join("a")),
            (staging.join("b"), d.join("b")),
            (staging.join("c"), d.join("c")),
        ];
        for (from, to) in &moves[..stopped_after] {
            fs::rename(from, to).unwrap();
        }
        let lock = DirLock::take(d).unwrap();
        drop(lock);
        assert_eq!(
            fs::read_to_string(d.join("a")).unwrap(),
            "old a",
            "{stopped_after}"
        );
        assert_eq!(
            fs::read_to_string(d.join("b")).unwrap(),
            "old b",
            "{stopped_after}"
        );
        assert_eq!(names(d), [".merge.mine", "a", "b"], "{stopped_after}");
        assert_eq!(
            fs::read_to_string(d.join(".merge.mine/thesis.tex")).unwrap(),
            "mine"
        );
        // The user's folder survives a new staging folder too.
        drop(staging_dir(d).unwrap());
        assert!(d.join(".merge.mine/thesis.tex").is_file());
    }
}

/// A write that fails leaves neither the target changed nor a temporary file behind.
#[test]
fn a_failed_atomic_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("summary.csv");
    // A folder in the file's place: the rename fails after the temporary file was written.
    fs::create_dir_all(target.join("inside")).unwrap();
    assert!(write_atomic(&target, "metric,value\n").is_err());
    let left: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["summary.csv"]);
    assert!(target.join("inside").is_dir());
}

/// The temporary file has a name of its own (a user's `NAME.tmp` is left alone), and the
/// written file gets the permissions of any new file in that folder.
#[test]
fn an_atomic_write_keeps_other_files_and_normal_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("summary.csv");
    let theirs = dir.path().join("summary.csv.tmp");
    fs::write(&theirs, "mine").unwrap();
    write_atomic(&target, "metric,value\n").unwrap();
    assert_eq!(fs::read_to_string(&target).unwrap(), "metric,value\n");
    assert_eq!(fs::read_to_string(&theirs).unwrap(), "mine");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let plain = dir.path().join("plain");
        fs::write(&plain, "").unwrap();
        assert_eq!(mode(&target), mode(&plain));
        // A file replaced keeps its own mode.
        for private in [0o600, 0o640] {
            fs::set_permissions(&target, fs::Permissions::from_mode(private)).unwrap();
            write_atomic(&target, "again\n").unwrap();
            assert_eq!(mode(&target), private);
        }
    }
}

/// A symbolic link is followed: its target gets the text, the link stays a link.
#[cfg(unix)]
#[test]
fn an_atomic_write_through_a_link_updates_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("data");
    fs::create_dir(&real).unwrap();
    fs::write(real.join("catalog.md"), "old").unwrap();
    let link = dir.path().join("catalog.md");
    // Relative to the link's folder; then a link to that link.
    std::os::unix::fs::symlink("data/catalog.md", &link).unwrap();
    let again = dir.path().join("again.md");
    std::os::unix::fs::symlink(&link, &again).unwrap();
    write_atomic(&again, "new").unwrap();
    assert_eq!(fs::read_to_string(real.join("catalog.md")).unwrap(), "new");
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(fs::symlink_metadata(&again).unwrap().is_symlink());
    // A dangling link is followed too: the file is made where it points.
    let dangling = dir.path().join("later.md");
    std::os::unix::fs::symlink("data/later.md", &dangling).unwrap();
    write_atomic(&dangling, "made").unwrap();
    assert_eq!(fs::read_to_string(real.join("later.md")).unwrap(), "made");
    assert!(fs::symlink_metadata(&dangling).unwrap().is_symlink());
}

/// The messages the command line shows, word for word as they were when they were strings.
#[test]
fn messages() {
    let dir = PathBuf::from("/tmp/run");
    let games = dir.join(GAMES);
    let io = |kind| std::io::Error::from(kind);
    let cases: Vec<(StudyError, &str)> = vec![
        (
            StudyError::Io {
                path: games.clone(),
                source: io(std::io::ErrorKind::NotFound),
            },
            "/tmp/run/games.csv: entity not found",
        ),
        (
            StudyError::MakeDir {
                dir: dir.clone(),
                source: io(std::io::ErrorKind::PermissionDenied),
            },
            "--out /tmp/run: permission denied",
        ),
        (
            StudyError::NotAFolder(dir.clone()),
            "--out /tmp/run: a file, not a folder; choose a folder for the results",
        ),
        (
            StudyError::Locked {
                dir: dir.clone(),
                lock: dir.join(LOCK),
                holder: "42 on node7".into(),
            },
            "/tmp/run is in use by another stats or match job (lock /tmp/run/.lock, process 42 on \
                 node7); wait for it or choose another --out",
        ),
        (
            StudyError::LockNotTaken(dir.join(LOCK)),
            "/tmp/run/.lock: could not take the lock",
        ),
        (
            StudyError::RunPresent {
                dir: dir.clone(),
                files: vec![MANIFEST, GAMES],
                resume_hint: true,
            },
            "/tmp/run already holds a run (manifest.json, games.csv); --resume continues it, \
                 --force replaces it, or choose another --out",
        ),
        (
            StudyError::RunPresent {
                dir: dir.clone(),
                files: vec![GAMES],
                resume_hint: false,
            },
            "/tmp/run already holds a run (games.csv); --force replaces it, or choose another \
                 --out",
        ),
        (
            StudyError::Game(UnknownGame("chess".into())),
            "unknown game 'chess' (known: bao, oware, kalah)",
        ),
        (
            StudyError::Row {
                path: games.clone(),
                line: 1,
                source: RowError::Header {
                    game: GameKind::Oware,
                    header: "game,seed".into(),
                },
            },
            "/tmp/run/games.csv: line 1: the header is not that of oware games.csv \
                 (game,seed)",
        ),
        (
            StudyError::Row {
                path: games.clone(),
                line: 4,
                source: RowError::Cut {
                    path: games.clone(),
                    complete: 2,
                    counted: 5,
                },
            },
            "/tmp/run/games.csv: line 4: /tmp/run/games.csv holds 2 complete rows but \
                 manifest.json counts 5 (rows lost or cut); the folder cannot be used as it is",
        ),
        (
            StudyError::Row {
                path: games.clone(),
                line: 3,
                source: RowError::NotUtf8,
            },
            "/tmp/run/games.csv: line 3: not UTF-8",
        ),
        (
            StudyError::Row {
                path: games.clone(),
                line: 3,
                source: RowError::Fields {
                    found: 2,
                    game: GameKind::Bao,
                    width: 9,
                },
            },
            "/tmp/run/games.csv: line 3: 2 fields, bao rows have 9",
        ),
        (
            StudyError::Row {
                path: games.clone(),
                line: 3,
                source: RowError::OutOfOrder {
                    found: "7".into(),
                    want: 1,
                },
            },
            "/tmp/run/games.csv: line 3: game '7' where game 1 belongs (rows missing, doubled \
                 or out of order)",
        ),
        (
            StudyError::Row {
                path: games.clone(),
                line: 3,
                source: RowError::Plies("x".into()),
            },
            "/tmp/run/games.csv: line 3: plies 'x' is not a number",
        ),
        (
            StudyError::Row {
                path: games.clone(),
                line: 3,
                source: UnknownWinner("south".into()).into(),
            },
            "/tmp/run/games.csv: line 3: winner 'south' (known: South, North, draw, none)",
        ),
        (
            StudyError::Changed {
                path: games.clone(),
                rows: 3,
                bytes: 120,
                recorded_bytes: 121,
                crc: 0xab,
                recorded_crc: 0x1234_5678,
            },
            "/tmp/run/games.csv: the 3 rows counted by manifest.json are not the rows it \
                 recorded (bytes 120 vs 121, CRC-32 000000ab vs 12345678): changed since they \
                 were written",
        ),
        (
            StudyError::BadShard("0/2".into()),
            "--shard '0/2': expected K/N with 1 <= K <= N",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(e.message(&Flags), want);
    }
}

/// Names as the command line gives them (its own, in `src/cli/`, is not the library's).
struct Flags;

impl Names for Flags {
    fn field(&self, field: Field) -> String {
        format!("--{}", field.name().replace('_', "-"))
    }

    fn step(&self, _: Step<'_>) -> String {
        String::new()
    }
}

#[test]
fn the_library_names_fields_as_written() {
    let e = StudyError::NotAFolder(PathBuf::from("/tmp/run"));
    assert_eq!(
        e.to_string(),
        "out /tmp/run: a file, not a folder; choose a folder for the results"
    );
}

#[test]
fn shards() {
    assert_eq!(shard_range(10, None).unwrap(), (0, 10));
    assert_eq!(shard_range(10, Some("2/3")).unwrap(), (3, 6));
    for bad in ["0/2", "3/2", "1/0", "1", "a/b"] {
        assert!(matches!(
            shard_range(10, Some(bad)),
            Err(StudyError::BadShard(s)) if s == bad
        ));
    }
}
