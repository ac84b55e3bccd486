//! The stats job: the same games.csv from every engine and any thread count, rows that are the
//! reference engine's games, and a folder that cannot be corrupted silently (locks, resume and
//! merge checked against the manifest, no overwrite without --force).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-lab-stats-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `dir` with a space and a byte that is not UTF-8 added to its last name (unix only).
fn odd_path(dir: PathBuf) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        let mut bytes = dir.into_os_string().into_vec();
        bytes.extend_from_slice(b" \xff");
        PathBuf::from(std::ffi::OsString::from_vec(bytes))
    }
    #[cfg(not(unix))]
    dir
}

fn run_stats(args: &[&str], out: &Path) -> Output {
    bin()
        .arg("stats")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn stats(args: &[&str], out: &Path) -> Output {
    let o = run_stats(args, out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// Runs a stats command that must be refused with exit 2; returns its message.
fn refused(args: &[&str], out: &Path) -> String {
    let o = run_stats(args, out);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    err
}

fn merge(out: &Path, shards: &[PathBuf], extra: &[&str]) -> Output {
    bin()
        .args(["stats", "merge", "--out"])
        .arg(out)
        .args(extra)
        .args(shards)
        .output()
        .unwrap()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&read(&dir.join("manifest.json"))).unwrap()
}

/// Writes `m` as the manifest of `dir`, sealed with its checksum as the tool seals it, so that
/// the checks behind the checksum are the ones tried.
fn set_manifest(dir: &Path, m: &serde_json::Value) {
    let m: mancala_lab::study::Manifest = serde_json::from_value(m.clone()).unwrap();
    mancala_lab::study::save_manifest(dir, &m).unwrap();
}

const JOB: [&str; 6] = ["--game", "oware", "--games", "300", "--seed", "7"];
const FILES: [&str; 3] = ["games.csv", "clauses.csv", "summary.csv"];

fn same_files(a: &Path, b: &Path, files: &[&str]) {
    for f in files {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{f}");
    }
}

#[test]
fn games_csv_is_identical_for_any_thread_count() {
    for (game, policy, games) in [
        ("oware", "random", "300"),
        ("oware", "search", "60"),
        ("bao", "greedy", "60"),
        ("bao", "random", "2000"),
        ("oware", "alphabeta:depth=3", "12"),
        ("bao", "mcts:sims=40,c=1.5", "6"),
    ] {
        let (a, b) = (
            tmp(&format!("t1{game}{}", policy.replace([':', ',', '='], "-"))),
            tmp(&format!("t3{game}{}", policy.replace([':', ',', '='], "-"))),
        );
        let job = [
            "--game", game, "--policy", policy, "--games", games, "--seed", "7",
        ];
        stats(&[&job[..], &["--threads", "1"]].concat(), &a);
        stats(&[&job[..], &["--threads", "3"]].concat(), &b);
        same_files(&a, &b, &FILES);
        let rows = read(&a.join("games.csv"));
        assert_eq!(rows.lines().count(), games.parse::<usize>().unwrap() + 1);
        // A policy whose settings hold a comma is a quoted field.
        let field = if policy.contains(',') {
            format!("\"{policy}\"")
        } else {
            policy.to_string()
        };
        assert!(rows.contains(&format!(",{field},")), "{policy}");
    }
}

/// For each game, several readings and every policy, the optimized and the reference engine
/// write the same games.csv, clauses.csv and summary.csv.
#[test]
fn optimized_and_reference_engines_write_the_same_rows() {
    let cases = [
        ("oware", "sheet", "random", "3000"),
        ("oware", "abapa", "random", "3000"),
        ("oware", "sheet", "greedy", "400"),
        ("oware", "abapa", "search", "150"),
        ("bao", "default", "random", "2000"),
        ("bao", "literal-en", "random", "1000"),
        ("bao", "engines", "greedy", "150"),
        ("bao", "default", "search", "30"),
        ("oware", "abapa", "alphabeta:depth=3", "8"),
        ("oware", "sheet", "mcts:sims=30", "4"),
        ("bao", "engines", "alphabeta:depth=2", "4"),
        ("bao", "default", "mcts:sims=8", "1"),
        ("oware", "abapa", "greedy/search", "100"),
        ("bao", "default", "alphabeta:depth=1/random", "6"),
    ];
    for (game, variant, policy, games) in cases {
        let mut dirs = Vec::new();
        for engine in ["optimized", "reference"] {
            let name = policy.replace([':', ',', '='], "-");
            let dir = tmp(&format!("eng-{game}-{variant}-{name}-{engine}"));
            let job = [
                "--game",
                game,
                "--variant",
                variant,
                "--policy",
                policy,
                "--games",
                games,
                "--seed",
                "11",
                "--engine",
                engine,
            ];
            stats(&job, &dir);
            dirs.push(dir);
        }
        let case = format!("{game} {variant} {policy}");
        assert_eq!(
            read(&dirs[0].join("games.csv")),
            read(&dirs[1].join("games.csv")),
            "{case}"
        );
        for f in ["summary.csv", "clauses.csv"] {
            assert_eq!(
                read(&dirs[0].join(f)),
                read(&dirs[1].join(f)),
                "{case}: {f}"
            );
        }
        let clauses = read(&dirs[0].join("clauses.csv"));
        assert!(
            clauses.contains(",event,") && clauses.contains(",end,"),
            "{case}: {clauses}"
        );
    }
}

/// Each row of an Oware random run is the game the reference engine plays with the same draws
/// (an independent replay, one ply at a time), whichever engine wrote it.
#[test]
fn oware_rows_are_the_reference_engines_games() {
    use mancala_lab::oware::batch::reference_playout;
    use mancala_lab::oware::{Rules, Variant};
    let dir = tmp("oware-ref");
    stats(
        &[
            "--game",
            "oware",
            "--variant",
            "abapa",
            "--games",
            "2000",
            "--seed",
            "4",
        ],
        &dir,
    );
    let rules = Rules::new(Variant::ABAPA);
    let text = read(&dir.join("games.csv"));
    let mut lines = text.lines().skip(1);
    for game in 0..2000u64 {
        let r = reference_playout(&rules, 4, game, 2000);
        let winner = match r.result {
            Some(0) => "South",
            Some(1) => "North",
            Some(_) => "draw",
            None => "none",
        };
        let end = if r.result.is_some() {
            r.end
        } else {
            "ply-limit"
        };
        let want = format!(
            "{game},abapa,random,{},{winner},{end},{},{},{},{},",
            r.plies,
            r.scores[0] - r.swept[0],
            r.scores[1] - r.swept[1],
            r.scores[0],
            r.scores[1]
        );
        let line = lines.next().unwrap();
        assert!(line.starts_with(&want), "game {game}: {line} vs {want}");
    }
    assert_eq!(lines.next(), None);
}

#[test]
fn resume_after_a_crash_mid_write_gives_the_same_files() {
    let (full, broken) = (tmp("full"), tmp("broken"));
    stats(&JOB, &full);
    // A crash after 100 games: the manifest counts 100 games (the counts and checksum of games
    // 0..100 are those shard 1/3 of the same job records) and rows follow that it does not count,
    // the last one cut.
    let first_third = tmp("third");
    stats(&[&JOB[..], &["--shard", "1/3"]].concat(), &first_third);
    let third = manifest(&first_third);
    let mut m = manifest(&full);
    for key in ["games_done", "rows_bytes", "rows_crc32", "clause_events"] {
        m[key] = third[key].clone();
    }
    set_manifest(&broken_copy(&full, &broken), &m);
    let text = read(&full.join("games.csv"));
    let rows: Vec<&str> = text.lines().take(121).collect();
    std::fs::write(
        broken.join("games.csv"),
        format!("{}\n121,she", rows.join("\n")),
    )
    .unwrap();
    std::fs::remove_file(broken.join("summary.csv")).unwrap();
    // --resume alone: the job's options come from the manifest.
    stats(&["--resume"], &broken);
    same_files(&full, &broken, &FILES);
    // An option that differs from the job is named.
    let err = refused(&["--resume", "--seed", "8"], &broken);
    assert!(err.contains("--seed 8") && err.contains("seed 7"), "{err}");
}

/// Copies a run folder; returns the copy.
fn broken_copy(from: &Path, to: &Path) -> PathBuf {
    std::fs::create_dir_all(to).unwrap();
    for f in ["games.csv", "clauses.csv", "summary.csv", "manifest.json"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
    to.to_path_buf()
}

#[test]
fn a_job_killed_before_its_first_save_resumes() {
    let (full, killed) = (tmp("kfull"), tmp("killed"));
    stats(&JOB, &full);
    broken_copy(&full, &killed);
    // What a kill right after the start leaves: the header, and the manifest of no game.
    let mut m = manifest(&full);
    m["games_done"] = 0.into();
    m["rows_bytes"] = 0.into();
    m["rows_crc32"] = 0.into();
    for (_, n) in m["clause_events"].as_object_mut().unwrap() {
        *n = 0.into();
    }
    set_manifest(&killed, &m);
    let header = read(&full.join("games.csv"))
        .lines()
        .next()
        .unwrap()
        .to_string();
    std::fs::write(killed.join("games.csv"), header + "\n").unwrap();
    stats(&["--resume"], &killed);
    same_files(&full, &killed, &FILES);
}

#[test]
fn resume_refuses_rows_lost_or_miscounted() {
    let full = tmp("rfull");
    stats(&JOB, &full);
    let rows: Vec<String> = read(&full.join("games.csv"))
        .lines()
        .map(String::from)
        .collect();
    // A row deleted from the middle.
    let lost = broken_copy(&full, &tmp("lost"));
    let mut fewer = rows.clone();
    fewer.remove(50);
    std::fs::write(lost.join("games.csv"), fewer.join("\n") + "\n").unwrap();
    let err = refused(&["--resume"], &lost);
    assert!(
        err.contains("games.csv: line 51") && err.contains("game 49"),
        "{err}"
    );
    // games_done raised by hand beyond the rows on disk.
    let raised = broken_copy(&full, &tmp("raised"));
    let mut m = manifest(&full);
    m["games_done"] = 20_000.into();
    set_manifest(&raised, &m);
    let err = refused(&["--resume"], &raised);
    assert!(
        err.contains("counts 20000 games done in games 0..300"),
        "{err}"
    );
    // A counted row changed.
    let changed = broken_copy(&full, &tmp("changed"));
    let edited = read(&full.join("games.csv")).replacen(",South,", ",North,", 1);
    std::fs::write(changed.join("games.csv"), edited).unwrap();
    let err = refused(&["--resume"], &changed);
    assert!(err.contains("CRC-32"), "{err}");
}

#[test]
fn a_second_job_on_a_folder_in_use_is_refused() {
    let dir = tmp("locked");
    std::fs::create_dir_all(&dir).unwrap();
    // A live process holds the lock: this test's own.
    let held = std::fs::File::create(dir.join(".lock")).unwrap();
    held.try_lock().unwrap();
    std::fs::write(dir.join(".lock"), "4242 node7\n").unwrap();
    let err = refused(&JOB, &dir);
    assert!(
        err.contains("in use by another stats or match job")
            && err.contains(".lock")
            && err.contains("process 4242 on node7"),
        "{err}"
    );
    assert!(!dir.join("games.csv").exists());
    // A lock file whose process let go (killed, or on another host) holds nothing. (A child
    // another test spawned meanwhile shares the lock until it starts its program: waited for.)
    drop(held);
    let start = std::time::Instant::now();
    while std::fs::File::open(dir.join(".lock"))
        .unwrap()
        .try_lock()
        .is_err()
    {
        assert!(start.elapsed().as_secs() < 30, "the lock is still held");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    stats(&JOB, &dir);
    assert!(!dir.join(".lock").exists());
    // Two jobs started together on one folder: one is refused, the other writes every row once.
    let both = tmp("both");
    let job = [
        "--game",
        "oware",
        "--games",
        "30000",
        "--seed",
        "2",
        "--engine",
        "reference",
    ];
    let spawn = || {
        bin()
            .arg("stats")
            .args(job)
            .arg("--out")
            .arg(&both)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let codes = [a.status.code(), b.status.code()];
    assert!(
        codes.contains(&Some(0)) && codes.contains(&Some(2)),
        "{codes:?}"
    );
    assert_eq!(read(&both.join("games.csv")).lines().count(), 30_001);
}

#[test]
fn a_finished_run_is_not_overwritten_without_force() {
    let dir = tmp("over");
    stats(&JOB, &dir);
    let before = read(&dir.join("games.csv"));
    let err = refused(&["--game", "oware", "--games", "10"], &dir);
    assert!(
        err.contains("already holds a run") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(read(&dir.join("games.csv")), before);
    stats(&["--game", "oware", "--games", "10", "--force"], &dir);
    assert_eq!(read(&dir.join("games.csv")).lines().count(), 11);
}

#[test]
fn shards_merge_into_one_run_and_bad_shards_are_refused() {
    let single = tmp("single");
    stats(&JOB, &single);
    let shards: Vec<PathBuf> = (1..=3).map(|k| tmp(&format!("shard{k}"))).collect();
    for (k, dir) in shards.iter().enumerate().rev() {
        let o = stats(
            &[&JOB[..], &["--shard", &format!("{}/3", k + 1)]].concat(),
            dir,
        );
        // Each shard reports its own games, not the job's.
        let said = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            said.contains(&format!("games {}..{} of 300", k * 100, (k + 1) * 100)),
            "{said}"
        );
    }
    let merged = tmp("merged");
    let o = merge(&merged, &shards, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    same_files(&single, &merged, &FILES);
    // Not over a finished run without --force, and never into one of its own inputs.
    assert_eq!(merge(&merged, &shards, &[]).status.code(), Some(2));
    assert!(merge(&merged, &shards, &["--force"]).status.success());
    let o = merge(&shards[0], &shards, &["--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is one of the shards"));
    // A missing shard.
    assert_eq!(merge(&tmp("bad"), &shards[..2], &[]).status.code(), Some(2));
    // A shard of another job: the field that differs is named.
    let other = broken_copy(&shards[1], &tmp("bad-job"));
    let mut m = manifest(&other);
    m["variant"] = "abapa".into();
    set_manifest(&other, &m);
    let o = merge(
        &tmp("out-job"),
        &[shards[0].clone(), other, shards[2].clone()],
        &[],
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a shard of a different job (variant abapa, not "),
        "{err}"
    );
    // A shard with a row missing, doubled, or cut mid-row: refused, naming the file and line.
    let text = read(&shards[1].join("games.csv"));
    let lines: Vec<&str> = text.lines().collect();
    let mut missing = lines.clone();
    missing.remove(10);
    let mut doubled = lines.clone();
    doubled.insert(10, lines[10]);
    let cut = &text[..text.len() - 5];
    for (what, body) in [
        ("missing", missing.join("\n") + "\n"),
        ("doubled", doubled.join("\n") + "\n"),
        ("cut", cut.to_string()),
    ] {
        let bad = broken_copy(&shards[1], &tmp(&format!("bad-{what}")));
        std::fs::write(bad.join("games.csv"), body).unwrap();
        let o = merge(
            &tmp(&format!("out-{what}")),
            &[shards[0].clone(), bad.clone(), shards[2].clone()],
            &[],
        );
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains(&format!("{}", bad.join("games.csv").display())),
            "{what}: {err}"
        );
    }
}

#[test]
fn empty_shards_and_empty_jobs_write_a_manifest_and_merge() {
    let shards: Vec<PathBuf> = (1..=3).map(|k| tmp(&format!("e{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let job = [
            "--game",
            "bao",
            "--games",
            "2",
            "--shard",
            &format!("{}/3", k + 1),
        ];
        stats(&job, dir);
        assert!(dir.join("manifest.json").exists());
    }
    let merged = tmp("emerged");
    let o = merge(&merged, &shards, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read(&merged.join("games.csv")).lines().count(), 3);
    // In any order, as a shell's `shard-*` lists shard-10 before shard-9: the empty shard 1/3
    // (games 0..0) given after shard 2/3 (games 0..1), which starts at the same game.
    let any_order = tmp("emerged-any-order");
    let given = [shards[1].clone(), shards[0].clone(), shards[2].clone()];
    let o = merge(&any_order, &given, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        read(&any_order.join("games.csv")),
        read(&merged.join("games.csv"))
    );
    let none = tmp("none");
    stats(&["--games", "0"], &none);
    assert!(read(&none.join("summary.csv")).contains("\ngames,0,0,0\n"));
}

#[test]
fn the_manifest_records_the_command_line_as_bash_words() {
    let out = odd_path(tmp("cmdline"));
    stats(&["--game", "oware", "--games", "3"], &out);
    let m = manifest(&out);
    let command: Vec<&str> = m["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    let n = command.len();
    assert_eq!(command[n - 2], "--out");
    // Bash reads the recorded word back as the folder's name, byte for byte.
    let echoed = Command::new("bash")
        .arg("-c")
        .arg(format!("printf %s {}", command[n - 1]))
        .output()
        .unwrap();
    assert_eq!(echoed.stdout, out.as_os_str().as_encoded_bytes());
}

#[test]
fn ctrl_c_leaves_complete_rows_and_resume_finishes() {
    // A folder name with a space and a byte that is not UTF-8: the hint must still be a command
    // that continues the job.
    let (full, cut) = (tmp("sigfull"), odd_path(tmp("sigcut")));
    let job = [
        "--game",
        "bao",
        "--games",
        "3000",
        "--seed",
        "3",
        "--engine",
        "reference",
        "--threads",
        "1",
    ];
    stats(&job, &full);
    let child = bin()
        .arg("stats")
        .args(job)
        .arg("--out")
        .arg(&cut)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().unwrap();
    let code = out.status.code();
    assert!(matches!(code, Some(0) | Some(130)), "{code:?}");
    // Every row written is complete (it parses with the header's column count).
    let text = read(&cut.join("games.csv"));
    let columns = text.lines().next().unwrap().split(',').count();
    assert!(text.ends_with('\n'));
    assert!(text.lines().all(|l| l.split(',').count() == columns));
    if code == Some(130) {
        // The hint, run by Bash as printed (with this build's binary), finishes the job.
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        let hint = said
            .split("continue with: mancala-lab ")
            .nth(1)
            .expect(&said)
            .lines()
            .next()
            .unwrap();
        assert!(hint.starts_with("stats --resume --out "), "{said}");
        let resumed = Command::new("bash")
            .arg("-c")
            .arg(format!("\"$0\" {hint}"))
            .arg(env!("CARGO_BIN_EXE_mancala-lab"))
            .output()
            .unwrap();
        assert!(
            resumed.status.success(),
            "{hint}: {}",
            String::from_utf8_lossy(&resumed.stderr)
        );
    }
    same_files(&full, &cut, &FILES);
    // The resume, given no --threads, kept those of the run it continued.
    assert_eq!(manifest(&cut)["threads"], 1);
}

#[test]
fn strict_games_follow_the_default_game_until_the_open_point() {
    // strict differs from default only by leaving 2.1.2 open, and both draw the same random numbers,
    // so each strict game is the default game, or its prefix stopped where the default game's move
    // relied on a reading (the default row then counts at least one undefined case).
    use mancala_lab::bao::variant::{InfiniteMoves, Variant};
    use mancala_lab::bao::Rules;
    use mancala_lab::playout::play_game;
    use mancala_lab::policy::Policy;
    let limit = InfiniteMoves::SownLimit(2000);
    let default = Rules::new(Variant::DEFAULT.with_infinite_moves(limit));
    let strict = Rules::new(Variant::STRICT.with_infinite_moves(limit));
    let mut stopped = 0;
    for i in 0..600 {
        let (d, _) = play_game(&default, Policy::Random, 1, i, 1000).unwrap();
        let (s, _) = play_game(&strict, Policy::Random, 1, i, 1000).unwrap();
        if s.end_clause() == "silent:2.1.2" {
            stopped += 1;
            assert_eq!(s.winner(), "none", "game {i}");
            assert!(s.plies < d.plies, "game {i}: {} vs {}", s.plies, d.plies);
            assert!(d.undefined_cases > 0, "game {i}");
        } else {
            assert_eq!(s, d, "game {i}");
        }
    }
    // About 6.5 in 1,000 games reach the point (2,000-game run); 600 games must meet some.
    assert!(stopped > 0);
}

/// A bad option or a bad shard is refused before the output folder is touched: `--force` never
/// costs a finished study for a typing error, and a failed merge leaves no partial file.
#[test]
fn force_checks_the_job_before_clearing_the_study() {
    let dir = tmp("force-first");
    stats(&JOB, &dir);
    let before: Vec<String> = FILES.iter().map(|f| read(&dir.join(f))).collect();
    for bad in [
        vec!["--force", "--variant", "bogus"],
        vec!["--force", "--shard", "4/3"],
        vec!["--force", "--game", "bao", "--variant", "abapa"],
    ] {
        let err = refused(&bad, &dir);
        assert!(
            err.contains("--variant") || err.contains("--shard"),
            "{err}"
        );
        let after: Vec<String> = FILES.iter().map(|f| read(&dir.join(f))).collect();
        assert_eq!(before, after, "{bad:?}");
    }
    // A new folder is not even created for a bad job.
    let fresh = tmp("force-fresh");
    refused(&["--variant", "bogus"], &fresh);
    assert!(!fresh.exists());
    // A merge whose shard lost a row leaves the merged study it would replace as it was.
    let shards: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let d = tmp(&format!("force-shard{k}"));
            stats(&[&JOB[..], &["--shard", &format!("{k}/2")]].concat(), &d);
            d
        })
        .collect();
    let merged = tmp("force-merged");
    assert!(merge(&merged, &shards, &[]).status.success());
    let kept = read(&merged.join("games.csv"));
    let bad = broken_copy(&shards[1], &tmp("force-bad-shard"));
    let mut rows: Vec<String> = read(&bad.join("games.csv"))
        .lines()
        .map(String::from)
        .collect();
    rows.remove(4);
    std::fs::write(bad.join("games.csv"), rows.join("\n") + "\n").unwrap();
    let o = merge(&merged, &[shards[0].clone(), bad], &["--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(read(&merged.join("games.csv")), kept);
    // Nothing but the study's files is left, and a user's file of the old temporary name stays.
    let files = |d: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        files(&merged),
        ["clauses.csv", "games.csv", "manifest.json", "summary.csv"]
    );
    std::fs::write(merged.join("games.csv.tmp"), "mine").unwrap();
    assert!(merge(&merged, &shards, &["--force"]).status.success());
    assert_eq!(read(&merged.join("games.csv.tmp")), "mine");
    assert_eq!(read(&merged.join("games.csv")), kept);
}

/// --resume refuses a manifest edited into another job: rows of another policy, a done count past
/// the job's games, an unknown engine, or clause events that are not the game's.
#[test]
fn resume_refuses_an_edited_job() {
    let full = tmp("edited-full");
    stats(&JOB, &full);
    let m = manifest(&full);
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: [(&str, Edit, &str); 6] = [
        (
            "policy",
            Box::new(|m| m["policy"] = "greedy".into()),
            "policy 'random' where the job's is 'greedy'",
        ),
        (
            // Control characters in what a message repeats are escaped, never sent raw.
            "variant",
            Box::new(|m| m["variant"] = "sheet\u{1b}[2J".into()),
            "--variant 'sheet\\u{1b}[2J': unknown Oware variant",
        ),
        (
            "engine-escape",
            Box::new(|m| m["engine"] = "\u{7}x".into()),
            "engine '\\u{7}x' (known",
        ),
        (
            "done",
            Box::new(|m| {
                m["games"] = 50.into();
                m["end_game"] = 50.into();
            }),
            "counts 300 games done in games 0..50",
        ),
        (
            "engine",
            Box::new(|m| m["engine"] = "bogus".into()),
            "engine 'bogus'",
        ),
        (
            "events",
            Box::new(|m| m["clause_events"]["zzz"] = 5.into()),
            "clause_events name 10 clauses",
        ),
    ];
    for (name, edit, want) in cases {
        let dir = broken_copy(&full, &tmp(&format!("edited-{name}")));
        let mut m = m.clone();
        edit(&mut m);
        set_manifest(&dir, &m);
        let err = refused(&["--resume"], &dir);
        assert!(err.contains(want), "{name}: {err}");
    }
}

/// A lock file left by a job that is gone, whatever it says, holds nothing, and jobs that find
/// one at the same moment never both take the folder (a stress test: they used to, now and then,
/// by one renaming the other's fresh lock away as stale, and wrote every row twice).
#[test]
fn jobs_racing_for_a_left_lock_never_both_write() {
    let games = 10_000u64;
    for round in 0..8 {
        let dir = tmp(&format!("lock-race-{round}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(".lock"), "999999 this-host\n").unwrap();
        let job = |seed: &str| {
            Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
                .args(["stats", "--game", "bao", "--games", &games.to_string()])
                .args(["--threads", "1", "--force", "--seed", seed, "--out"])
                .arg(&dir)
                .output()
                .unwrap()
        };
        let outputs: Vec<_> = std::thread::scope(|s| {
            let jobs: Vec<_> = ["1", "2", "3", "4"]
                .map(|seed| s.spawn(move || job(seed)))
                .into_iter()
                .collect();
            jobs.into_iter().map(|j| j.join().unwrap()).collect()
        });
        for o in &outputs {
            let code = o.status.code();
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                code == Some(0) || (code == Some(2) && err.contains("in use by another")),
                "round {round}: {code:?} {err}"
            );
        }
        let rows = read(&dir.join("games.csv")).lines().count() as u64;
        assert_eq!(rows, games + 1, "round {round}: rows written twice");
    }
}

/// A manifest edited by hand, or without its checksum, is refused before its job is resumed or
/// merged; a limit edited after games were cut at it is found in the rows too.
#[test]
fn edited_manifests_are_refused() {
    let job = [
        "--game",
        "bao",
        "--games",
        "400",
        "--max-plies",
        "30",
        "--seed",
        "3",
    ];
    let dir = tmp("edited");
    stats(&job, &dir);
    let text = read(&dir.join("manifest.json"));
    assert!(text.contains("\"manifest_crc32\""), "{text}");
    std::fs::write(
        dir.join("manifest.json"),
        text.replace("\"max_plies\": 30", "\"max_plies\": 2000"),
    )
    .unwrap();
    let err = refused(&["--resume"], &dir);
    assert!(
        err.contains("manifest.json: edited since the job wrote it"),
        "{err}"
    );
    // Without its checksum: refused too.
    let mut m: serde_json::Value = serde_json::from_str(&text).unwrap();
    m.as_object_mut().unwrap().remove("manifest_crc32");
    std::fs::write(dir.join("manifest.json"), m.to_string()).unwrap();
    let err = refused(&["--resume"], &dir);
    assert!(
        err.contains("manifest.json: edited since the job wrote it"),
        "{err}"
    );
    // The same edit sealed anew: rows cut at 30 plies under a limit of 2000 are still found.
    m["max_plies"] = 2000.into();
    m["games_done"] = 200.into();
    set_manifest(&dir, &m);
    let err = refused(&["--resume"], &dir);
    assert!(
        err.contains("cut at the ply limit after 30 plies, but the job's --max-plies is 2000"),
        "{err}"
    );
}

/// What is wrong with a resumed job is named where it is: in its manifest.
#[test]
fn a_resumed_jobs_bad_fields_name_the_manifest() {
    let dir = tmp("bad-fields");
    stats(&[&JOB[..], &["--shard", "1/3"]].concat(), &dir);
    let written = manifest(&dir);
    for (field, value, want) in [
        ("shard", "0/3", "shard '0/3'"),
        ("game", "chess", "chess"),
        ("engine", "turbo", "turbo"),
    ] {
        let mut m = written.clone();
        m[field] = value.into();
        set_manifest(&dir, &m);
        let err = refused(&["--resume"], &dir);
        assert!(
            err.contains("manifest.json: the job it records: ") && err.contains(want),
            "{field}: {err}"
        );
    }
}

/// A shard has one spelling: `01/03` is stored as `1/3`, and resuming it as `1/3` is the same
/// job; signs and spaces are not numbers.
#[test]
fn shards_are_stored_in_one_spelling() {
    let dir = tmp("shard-spelling");
    let o = run_stats(&[&JOB[..], &["--shard", "01/03"]].concat(), &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(manifest(&dir)["shard"], "1/3");
    stats(&["--resume", "--shard", "1/3"], &dir);
    for odd in ["+1/3", "1/ 3", "1/+3"] {
        let err = refused(&[&JOB[..], &["--shard", odd, "--force"]].concat(), &dir);
        assert!(err.contains("expected K/N"), "{odd}: {err}");
    }
}

/// A study folder's files are its own: a symbolic link planted among them is refused, and the
/// file it points to is left alone.
#[test]
fn a_link_among_a_study_folders_files_is_refused() {
    let out = tmp("linked");
    stats(&JOB, &out);
    let elsewhere = tmp("linked-target");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let theirs = elsewhere.join("precious.txt");
    std::fs::write(&theirs, "precious\n").unwrap();
    std::fs::remove_file(out.join("summary.csv")).unwrap();
    std::os::unix::fs::symlink(&theirs, out.join("summary.csv")).unwrap();
    let err = refused(&["--resume"], &out);
    assert!(err.contains("summary.csv: a symbolic link"), "{err}");
    assert_eq!(read(&theirs), "precious\n");
}

/// A games.csv row without a line break, or a huge manifest, is refused without reading it whole.
#[test]
fn huge_rows_and_manifests_are_refused() {
    let out = tmp("hugerow");
    stats(&JOB, &out);
    let games = out.join("games.csv");
    let mut text = read(&games);
    let header_end = text.find('\n').unwrap() + 1;
    text.insert_str(header_end, &"9".repeat(100_000));
    std::fs::write(&games, text).unwrap();
    let err = refused(&["--resume"], &out);
    assert!(
        err.contains("line 2: more than 64 KiB without a line break"),
        "{err}"
    );

    let out = tmp("hugemanifest");
    stats(&JOB, &out);
    std::fs::write(out.join("manifest.json"), " ".repeat(2 << 20)).unwrap();
    let err = refused(&["--resume"], &out);
    assert!(err.contains("more than 1 MiB"), "{err}");
}

/// A study resumed by another build says so (the manifest then names the new build).
#[test]
fn a_resume_by_another_build_is_noted() {
    let out = tmp("otherbuild");
    stats(&JOB, &out);
    let mut m = manifest(&out);
    m["commit"] = serde_json::json!("0123abc");
    set_manifest(&out, &m);
    let o = stats(&["--resume"], &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("started by the build of commit 0123abc"),
        "{err}"
    );
    // A commit with control characters is shown escaped.
    let mut m = manifest(&out);
    m["commit"] = serde_json::json!("zzz\u{1b}[2J");
    set_manifest(&out, &m);
    let o = stats(&["--resume"], &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("build of commit zzz\\u{1b}[2J;"), "{err}");
}

/// Merge reads no pipe (it would wait for a writer), takes a folder once, says when the shards
/// come from different builds, and stops at a signal before --out is touched.
#[test]
fn merge_refuses_pipes_and_folders_twice_and_notes_other_builds() {
    let shards = [tmp("mpipe1"), tmp("mpipe2")];
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        stats(&["--games", "100", "--shard", &shard], dir);
    }
    let out = tmp("mpipe-out");
    // Another build's shard: merged, with a note.
    let mut m = manifest(&shards[1]);
    m["commit"] = serde_json::json!("0123abc");
    set_manifest(&shards[1], &m);
    let o = merge(&out, &shards, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("played by the builds of commits"), "{err}");
    assert!(err.contains("0123abc"), "{err}");
    // One folder twice.
    let twice = [shards[0].clone(), shards[0].clone()];
    let o = merge(&tmp("mpipe-out2"), &twice, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("given twice"));
    // games.csv a named pipe: refused at once, not waited on.
    #[cfg(unix)]
    {
        let games = shards[1].join("games.csv");
        std::fs::remove_file(&games).unwrap();
        let made = Command::new("mkfifo").arg(&games).status().unwrap();
        assert!(made.success());
        let mut child = bin()
            .args(["stats", "merge", "--out"])
            .arg(tmp("mpipe-out3"))
            .args(&shards)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > std::time::Duration::from_secs(60) {
                child.kill().unwrap();
                panic!("merge waits on a pipe");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("not a regular file"), "{err}");
    }
}

/// A sealed manifest with a field no job writes, or a range that cannot be, is refused; a
/// resumed study keeps the command that started it.
#[test]
fn manifests_with_unknown_fields_or_impossible_ranges_are_refused() {
    let full = tmp("mrange");
    stats(&["--games", "50", "--shard", "1/2"], &full);
    let started = manifest(&full)["command"].clone();
    stats(&["--resume"], &full);
    assert_eq!(manifest(&full)["command"], started);
    let m = manifest(&full);
    // An unknown field, sealed as the tool seals: the checksum cannot see it.
    let text = read(&full.join("manifest.json")).replacen('{', "{\n  \"note\": 1,", 1);
    std::fs::write(full.join("manifest.json"), text).unwrap();
    let err = refused(&["--resume"], &full);
    assert!(err.contains("edited since the job wrote it"), "{err}");
    let mut wrapped = m.clone();
    wrapped["first_game"] = 30.into();
    wrapped["end_game"] = 20.into();
    set_manifest(&full, &wrapped);
    let err = refused(&["--resume"], &full);
    assert!(
        err.contains("games 30..20 of a job of 50 games; not a manifest a job writes"),
        "{err}"
    );
    let o = merge(&tmp("mrange-out"), std::slice::from_ref(&full), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("games 30..20"));
    // A policy that is none, or one written otherwise than a job writes it (the rows would be
    // finished under two spellings): refused by --resume and by merge.
    for (policy, message) in [
        ("bogus", "unknown policy 'bogus'"),
        (
            "mcts:c=2,sims=1000",
            "policy 'mcts:c=2,sims=1000' is written 'mcts:sims=1000'",
        ),
        (
            "alphabeta",
            "policy 'alphabeta' is written 'alphabeta:depth=4'",
        ),
    ] {
        let mut other = m.clone();
        other["policy"] = policy.into();
        set_manifest(&full, &other);
        let err = refused(&["--resume"], &full);
        assert!(err.contains(message), "{policy}: {err}");
        let o = merge(&tmp("mrange-out"), std::slice::from_ref(&full), &[]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(message), "{policy}: {err}");
    }
}

/// A time budget is named as the one source of machine-dependent games when the job starts (a
/// run stopped early has seen it too) and again beside the figures at the end.
#[test]
fn a_time_budget_is_noted_at_the_start_and_the_end() {
    let dir = tmp("timed");
    let o = stats(
        &[
            "--game",
            "oware",
            "--policy",
            "alphabeta:ms=1",
            "--games",
            "2",
        ],
        &dir,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    let note = "note: policy alphabeta:ms=1 has a time budget";
    assert_eq!(err.matches(note).count(), 2, "{err}");
    assert!(err.starts_with(note), "{err}");
    // A budget of depth or simulations: no note.
    let o = stats(
        &[
            "--game",
            "oware",
            "--policy",
            "alphabeta:depth=1",
            "--games",
            "2",
            "--force",
        ],
        &dir,
    );
    assert!(!String::from_utf8_lossy(&o.stderr).contains("time budget"));
}

/// Each side plays its own policy (--south, --north, or --policy S/N): the `policy` column holds
/// South's and North's as S/N, one text however the sides were given. A two-ply searcher
/// beats a random player at Oware nearly always, whichever side it plays (the expectation of
/// the game, not of this code); a resume naming another policy for a side is refused.
#[test]
fn each_side_plays_its_own_policy() {
    let (a, b, c) = (tmp("sides-a"), tmp("sides-b"), tmp("sides-c"));
    let job = ["--game", "oware", "--games", "40", "--seed", "3"];
    stats(
        &[
            &job[..],
            &["--south", "alphabeta:depth=2", "--north", "random"],
        ]
        .concat(),
        &a,
    );
    stats(
        &[&job[..], &["--policy", "alphabeta:depth=2/random"]].concat(),
        &b,
    );
    stats(
        &[
            &job[..],
            &["--policy", "random", "--south", "alphabeta:depth=2"],
        ]
        .concat(),
        &c,
    );
    same_files(&a, &b, &FILES);
    same_files(&a, &c, &FILES);
    let rows = read(&a.join("games.csv"));
    let wins = |who: &str| {
        rows.lines()
            .filter(|l| l.contains(&format!(",{who},")))
            .count()
    };
    assert!(
        rows.lines()
            .skip(1)
            .all(|l| l.contains(",alphabeta:depth=2/random,")),
        "{rows}"
    );
    assert!(wins("South") >= 36, "{rows}");
    // Sides swapped: North wins.
    let d = tmp("sides-d");
    stats(
        &[
            &job[..],
            &["--south", "random", "--north", "alphabeta:depth=2"],
        ]
        .concat(),
        &d,
    );
    let rows = read(&d.join("games.csv"));
    assert!(
        rows.lines()
            .skip(1)
            .all(|l| l.contains(",random/alphabeta:depth=2,")),
        "{rows}"
    );
    assert!(
        rows.lines().filter(|l| l.contains(",North,")).count() >= 36,
        "{rows}"
    );
    // The same policy on both sides is written once.
    let e = tmp("sides-e");
    stats(
        &[
            "--game",
            "oware",
            "--games",
            "2",
            "--policy",
            "mcts:sims=5/mcts:c=2,sims=5",
        ],
        &e,
    );
    assert!(read(&e.join("games.csv")).contains(",mcts:sims=5,"));
    // A resume may repeat a side's policy, not change it.
    stats(&["--resume", "--south", "alphabeta:depth=2"], &a);
    let err = refused(&["--resume", "--north", "greedy"], &a);
    assert!(
        err.contains("--policy alphabeta:depth=2/greedy differs from the job"),
        "{err}"
    );
    let err = refused(&["--policy", "random/greedy/search"], &tmp("sides-f"));
    assert!(
        err.contains("expected one policy, or South's and North's as S/N"),
        "{err}"
    );
}

/// Clause counts resealed near the limit (a forged manifest) are refused by merge, never summed
/// round to a plausible small number.
#[test]
fn clause_counts_that_would_overflow_are_refused() {
    let (a, b) = (tmp("ovf-a"), tmp("ovf-b"));
    stats(&["--game", "oware", "--games", "20", "--shard", "1/2"], &a);
    stats(&["--game", "oware", "--games", "20", "--shard", "2/2"], &b);
    for dir in [&a, &b] {
        let mut m = manifest(dir);
        m["clause_events"]["O.2.3"] = serde_json::json!(u64::MAX);
        set_manifest(dir, &m);
    }
    let o = merge(&tmp("ovf-out"), &[a, b], &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("the count of clause O.2.3 passes"), "{err}");
}

/// The number of distinct rows of a games.csv, the game index left out: a lower bound of the
/// distinct games.
fn distinct_games(dir: &Path) -> usize {
    let text = read(&dir.join("games.csv"));
    let rows: std::collections::BTreeSet<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split_once(',').unwrap().1)
        .collect();
    rows.len()
}

/// `--opening K`: random players play the very games they play without it; alphabeta, whose
/// games repeat (it is deterministic but for ties), meets a new position in (almost) every game.
/// The opening is part of the job: recorded, checked on resume and merge, and bounded.
#[test]
fn an_opening_varies_a_deterministic_players_games() {
    let (plain, opened) = (tmp("opening-none"), tmp("opening-6"));
    let random = ["--game", "oware", "--games", "300"];
    stats(&random, &plain);
    stats(&[&random[..], &["--opening", "6"]].concat(), &opened);
    assert_eq!(
        read(&plain.join("games.csv")),
        read(&opened.join("games.csv"))
    );
    assert_eq!(manifest(&opened)["opening"], 6);
    assert!(manifest(&plain).get("opening").is_none());
    let searcher = [
        "--game",
        "bao",
        "--games",
        "60",
        "--policy",
        "alphabeta:depth=2",
        "--force",
    ];
    stats(&searcher, &plain);
    let o = stats(&[&searcher[..], &["--opening", "4"]].concat(), &opened);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("alphabeta:depth=2 policy after 4 random plies"),
        "{out}"
    );
    let (before, after) = (distinct_games(&plain), distinct_games(&opened));
    assert!(
        before < 50 && after >= 57,
        "{before} then {after} distinct games of 60"
    );
    // Shards of two openings are not one job; nor is a resume with another.
    let shards = [tmp("opening-shard-1"), tmp("opening-shard-2")];
    stats(
        &[&searcher[..], &["--opening", "4", "--shard", "1/2"]].concat(),
        &shards[0],
    );
    stats(
        &[&searcher[..], &["--opening", "5", "--shard", "2/2"]].concat(),
        &shards[1],
    );
    let o = merge(&tmp("opening-merged"), &shards, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("opening 5, not 4"), "{err}");
    let err = refused(&["--resume", "--opening", "3"], &opened);
    assert!(err.contains("--opening 3 differs"), "{err}");
    let err = refused(
        &[&random[..], &["--opening", "50", "--max-plies", "50"]].concat(),
        &tmp("x"),
    );
    assert!(err.contains("every ply of a game would be random"), "{err}");
}

/// The warning of games that repeat offers only options a job accepts: an opening shorter than
/// the ply limit, or a higher limit with it. Each job here repeats its games (Oware has six first
/// moves, greedy play repeats itself), and the options the warning offers run as a job.
#[test]
fn the_repeated_games_warning_offers_options_a_job_accepts() {
    let out = tmp("advice");
    for job in [
        &["--max-plies", "1"][..],
        &["--max-plies", "3", "--policy", "greedy"],
        &["--max-plies", "3", "--opening", "2", "--policy", "greedy"],
    ] {
        let base = [&["--game", "oware", "--games", "100"][..], job].concat();
        let o = stats(&[&base[..], &["--force"]].concat(), &out);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("warning: only "), "{job:?}: {err}");
        let offered: Vec<&str> = err
            .split_once("(e.g. ")
            .and_then(|(_, rest)| rest.split([',', ';', ')']).next())
            .unwrap_or_else(|| panic!("{job:?}: no options offered: {err}"))
            .split(' ')
            .collect();
        // The job's options, those offered in place of their own.
        let mut again = vec!["--force"];
        for pair in base.chunks(2) {
            if !offered.contains(&pair[0]) {
                again.extend(pair);
            }
        }
        again.extend(&offered);
        let o = run_stats(&again, &out);
        assert!(
            o.status.success(),
            "{job:?}: {offered:?} offered, refused: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// A merge never writes inside one of its shards, nor reads a shard inside the folder it
/// writes (which --force would clear).
#[test]
fn merge_keeps_out_and_shards_apart() {
    let shards = [tmp("nest1"), tmp("nest2")];
    for (k, dir) in shards.iter().enumerate() {
        stats(&["--games", "40", "--shard", &format!("{}/2", k + 1)], dir);
    }
    let o = merge(&shards[0].join("sub"), &shards, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is inside the shard"), "{err}");
    assert!(!shards[0].join("sub").exists());
    // Through a folder that does not exist yet and `..`: the shard itself.
    let sneaky = shards[0]
        .join("../nope/..")
        .join(shards[0].file_name().unwrap());
    let o = merge(&sneaky, &shards, &["--force"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is inside the shard"), "{err}");
    // A match's folder is not a study's.
    let m = tmp("nest-match");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(m.join("match.json"), "{}").unwrap();
    let o = merge(&m, &shards, &["--force"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("holds a match"), "{err}");
    assert!(!m.join("games.csv").exists());
    // Nor is a match a shard of a study.
    let o = merge(
        &tmp("nest-from-match"),
        &[m.clone(), shards[0].clone()],
        &[],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("match merge"), "{err}");
    let out = tmp("nest-out");
    let inner = out.join("part");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::rename(&shards[1], &inner).unwrap();
    let o = merge(&out, &[shards[0].clone(), inner.clone()], &["--force"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is inside --out"), "{err}");
    assert!(inner.join("games.csv").exists());
}

/// A merge holds its shards while it reads them: a shard a job is writing is refused as such
/// (not as a broken folder), and a job that would write a shard being merged is refused.
#[test]
fn a_merge_and_a_job_on_its_shards_exclude_each_other() {
    let shards: Vec<PathBuf> = (1..=2).map(|k| tmp(&format!("busy{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        stats(
            &[
                "--game",
                "oware",
                "--games",
                "40",
                "--shard",
                &format!("{}/2", k + 1),
            ],
            dir,
        );
    }
    // A job writing shard 1 (its lock, as a stats job holds it).
    let writing = mancala_lab::study::DirLock::take(&shards[0]).unwrap();
    let merged = tmp("busymerged");
    let o = merge(&merged, &shards, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is being written by another stats or match job"),
        "{err}"
    );
    assert!(!merged.join("games.csv").exists());
    drop(writing);
    // A merge reading shard 2 (its hold, as a merge takes it): a job on shard 2 is refused.
    let reading = mancala_lab::study::ReadLock::take(&shards[1]).unwrap();
    let err = refused(&["--resume"], &shards[1]);
    assert!(
        err.contains("is in use by another stats or match job"),
        "{err}"
    );
    // Two merges may read the same shards at once.
    let o = merge(&merged, &shards, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    drop(reading);
}

/// A file or folder of the user's at the place of a study's own (games.csv, summary.csv,
/// clauses.csv, manifest.json), or an audit's tables, is never replaced, by `--force` or by
/// `merge --force`: it stops the job.
#[test]
fn force_never_replaces_a_users_file_at_a_studys_place() {
    let shards = [tmp("place-shard-1"), tmp("place-shard-2")];
    for (k, s) in shards.iter().enumerate() {
        stats(
            &[
                "--game",
                "oware",
                "--games",
                "20",
                "--shard",
                &format!("{}/2", k + 1),
            ],
            s,
        );
    }
    for (name, text) in [
        ("games.csv", "a,b\n"),
        ("summary.csv", "user notes\n"),
        ("clauses.csv", "clause\n"),
        ("manifest.json", "{\"mine\": true}\n"),
        // An audit's tables: its games.csv starts "game,source,".
        ("games.csv", "game,source,plies,verdict\n"),
    ] {
        let dir = tmp("place");
        std::fs::create_dir_all(&dir).unwrap();
        let mine = dir.join(name);
        std::fs::write(&mine, text).unwrap();
        for force in [&[][..], &["--force"][..]] {
            let err = refused(
                &[&["--game", "oware", "--games", "10"][..], force].concat(),
                &dir,
            );
            assert!(err.contains("not a file of a study"), "{name}: {err}");
            let o = merge(&dir, &shards, force);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{name}: {err}");
            assert!(err.contains("not a file of a study"), "{name}: {err}");
            assert_eq!(read(&mine), text, "{name}");
        }
    }
    // A folder at games.csv's place, with the user's data in it.
    let dir = tmp("place");
    std::fs::create_dir_all(dir.join("games.csv/sub")).unwrap();
    std::fs::write(dir.join("games.csv/sub/data"), "precious").unwrap();
    let err = refused(&["--game", "oware", "--games", "10", "--force"], &dir);
    assert!(err.contains("games.csv: "), "{err}");
    assert_eq!(read(&dir.join("games.csv/sub/data")), "precious");
    // A study of the first manifest format (clause_counts, no engine or row checksum) is a
    // study: --force replaces it.
    let old = tmp("place-old");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(
        old.join("manifest.json"),
        r#"{"command":["mancala-lab","stats"],"version":"0.1.0","commit":"77cd517","game":"oware",
"variant":"sheet","policy":"random","seed":1,"games":10,"first_game":0,"end_game":10,
"shard":null,"threads":2,"max_plies":2000,"games_done":10,"clause_counts":{}}"#,
    )
    .unwrap();
    stats(&["--game", "oware", "--games", "10", "--force"], &old);
}

/// `--force` replaces no files through a link: an --out that is a symbolic link to a folder
/// elsewhere (written with a trailing slash or not) is refused by a job and a merge, naming the
/// folder it leads to, whose study stays as it was; named as --out itself, that folder is
/// replaced.
#[cfg(unix)]
#[test]
fn force_replaces_no_study_through_a_linked_out() {
    let elsewhere = tmp("linked-out-target");
    stats(&["--game", "oware", "--games", "10"], &elsewhere);
    let kept = |f: &str| read(&elsewhere.join(f));
    let before: Vec<String> = ["games.csv", "manifest.json"].map(kept).to_vec();
    let shards = [tmp("linked-out-shard-1"), tmp("linked-out-shard-2")];
    for (k, s) in shards.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        stats(&["--game", "oware", "--games", "20", "--shard", &shard], s);
    }
    let link = tmp("linked-out");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    let job = ["--game", "oware", "--games", "20", "--force"];
    let named = format!("a symbolic link to {}", elsewhere.display());
    for out in [link.clone(), link.join("")] {
        let err = refused(&job, &out);
        assert!(err.contains(&named), "{err}");
        let o = merge(&out, &shards, &["--force"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(&named), "{err}");
    }
    assert_eq!(["games.csv", "manifest.json"].map(kept).to_vec(), before);
    stats(&job, &elsewhere);
    assert_eq!(manifest(&elsewhere)["games"], 20);
}

/// A `.lock` that is a link, or a hard link to a file of the user's, is no lock of this tool:
/// a merge reading the folder or a job writing it refuses it, and never empties the file.
#[cfg(unix)]
#[test]
fn a_lock_that_links_to_a_users_file_is_refused() {
    let shards = [tmp("lock-shard-1"), tmp("lock-shard-2")];
    for (k, s) in shards.iter().enumerate() {
        stats(
            &[
                "--game",
                "oware",
                "--games",
                "10",
                "--shard",
                &format!("{}/2", k + 1),
            ],
            s,
        );
    }
    let notes = tmp("lock-notes");
    std::fs::create_dir_all(&notes).unwrap();
    let precious = notes.join("notes.txt");
    std::fs::write(&precious, "my precious notes\n").unwrap();
    let lock = shards[0].join(".lock");
    // A link to the notes, then a link to nothing (the merge would make the file).
    for target in [precious.clone(), notes.join("made-by-merge.txt")] {
        std::os::unix::fs::symlink(&target, &lock).unwrap();
        let o = merge(&tmp("lock-merged"), &shards, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(".lock: a symbolic link"), "{err}");
        std::fs::remove_file(&lock).unwrap();
    }
    assert!(!notes.join("made-by-merge.txt").exists());
    // A file of the user's named .lock: neither taken, rewritten nor removed.
    std::fs::write(&lock, "my notes\n").unwrap();
    let o = merge(&tmp("lock-merged"), &shards, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(".lock: not a lock this tool made"), "{err}");
    let o = run_stats(&["--resume"], &shards[0]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(read(&lock), "my notes\n");
    std::fs::remove_file(&lock).unwrap();
    // A hard link: a job writing the folder refuses it too.
    std::fs::hard_link(&precious, &lock).unwrap();
    let o = run_stats(&["--resume"], &shards[0]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("file with other names"), "{err}");
    std::fs::remove_file(&lock).unwrap();
    assert_eq!(read(&precious), "my precious notes\n");
}

/// The results of a run are written only over the study's own files, checked again as they
/// are written, and a link at their place is replaced, not written through.
#[test]
fn results_are_written_only_over_the_studys_own_files() {
    use mancala_lab::study::{read_manifest, write_results};
    let dir = tmp("results-own");
    stats(&["--game", "oware", "--games", "10"], &dir);
    let m = read_manifest(&dir).unwrap();
    let summary = mancala_lab::stats::Summary::default();
    std::fs::write(dir.join("summary.csv"), "my,own\n1,2\n").unwrap();
    let err = write_results(&dir, &m, &summary).unwrap_err().to_string();
    assert!(err.contains("not a file of a study"), "{err}");
    assert_eq!(read(&dir.join("summary.csv")), "my,own\n1,2\n");
    #[cfg(unix)]
    {
        let notes = tmp("results-notes");
        std::fs::write(&notes, "clause,kind,count\nmine\n").unwrap();
        std::fs::remove_file(dir.join("summary.csv")).unwrap();
        std::fs::remove_file(dir.join("clauses.csv")).unwrap();
        std::os::unix::fs::symlink(&notes, dir.join("clauses.csv")).unwrap();
        let err = write_results(&dir, &m, &summary).unwrap_err().to_string();
        assert!(err.contains("not a file of a study"), "{err}");
        assert_eq!(read(&notes), "clause,kind,count\nmine\n");
    }
}

/// A folder a job was killed in before its first save holds games.csv's header and no manifest:
/// it cannot be resumed, so only --force is offered, and it works.
#[test]
fn a_folder_without_a_manifest_is_not_offered_a_resume() {
    let dir = tmp("no-manifest");
    std::fs::create_dir_all(&dir).unwrap();
    let header = mancala_lab::games_csv::header(mancala_lab::registry::GameKind::Oware);
    std::fs::write(dir.join("games.csv"), header).unwrap();
    let err = refused(&["--game", "oware", "--games", "5"], &dir);
    assert!(
        err.contains("already holds a run") && err.contains("--force"),
        "{err}"
    );
    assert!(!err.contains("--resume"), "{err}");
    stats(&["--game", "oware", "--games", "5", "--force"], &dir);
}

/// clauses.csv names each clause by its spec title and says which counted events cannot fire
/// under the reading, and why; the summary printed names the clause that ended the games. The
/// titles are those of spec/oware.md; which events can fire is checked by playing: under abapa
/// a grand slam is played capturing nothing (O.4.1 fires, no note), under sheet it is forbidden.
#[test]
fn clauses_csv_gives_titles_and_says_which_events_cannot_fire() {
    let rows = |dir: &Path| -> Vec<Vec<String>> {
        let mut r = csv::Reader::from_path(dir.join("clauses.csv")).unwrap();
        assert_eq!(
            r.headers().unwrap().iter().collect::<Vec<_>>(),
            ["clause", "kind", "count", "title", "note"]
        );
        r.records()
            .map(|x| x.unwrap().iter().map(String::from).collect())
            .collect()
    };
    let row = |rows: &[Vec<String>], clause: &str| -> Vec<String> {
        rows.iter()
            .find(|r| r[0] == clause && r[1] == "event")
            .unwrap_or_else(|| panic!("no event row for {clause}"))
            .clone()
    };
    let sheet = tmp("titles-sheet");
    let o = stats(
        &["--game", "oware", "--games", "3000", "--seed", "3"],
        &sheet,
    );
    let printed = String::from_utf8_lossy(&o.stdout);
    assert!(
        printed.contains("ended_by_O.6.1 (Twenty-five ends the game): "),
        "{printed}"
    );
    let sheet = rows(&sheet);
    assert_eq!(row(&sheet, "O.2.3")[3], "A move");
    assert_eq!(row(&sheet, "O.2.3")[4], "");
    let draw = row(&sheet, "O.5.2");
    assert_eq!((draw[2].as_str(), draw[3].as_str()), ("0", "Draw"));
    assert!(draw[4].contains("grand slam"), "{draw:?}");
    let slam = row(&sheet, "O.4.1");
    assert_eq!(slam[2], "0");
    assert!(slam[4].contains("forbids the grand slam"), "{slam:?}");
    let abapa = tmp("titles-abapa");
    stats(
        &[
            "--game",
            "oware",
            "--variant",
            "abapa",
            "--games",
            "3000",
            "--seed",
            "3",
        ],
        &abapa,
    );
    let abapa = rows(&abapa);
    let slam = row(&abapa, "O.4.1");
    assert!(slam[2].parse::<u64>().unwrap() > 0, "{slam:?}");
    assert_eq!(slam[4], "");
    assert!(!row(&abapa, "O.5.2")[4].is_empty());
    // A Bao study's rows carry spec/bao.md's titles.
    let bao = tmp("titles-bao");
    stats(&["--game", "bao", "--games", "50"], &bao);
    assert_eq!(row(&rows(&bao), "1.6")[3], "Kuendelea");
}

/// The empty shard docs/statistics.md shows is empty: its command, run as written, writes a
/// manifest and a games.csv of the header alone.
#[test]
fn the_documented_empty_shard_plays_no_game() {
    let doc = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/statistics.md"));
    let example = doc
        .split("even an empty one (`")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("the empty shard's example");
    let args: Vec<&str> = example.split_whitespace().collect();
    let out = tmp("documented-empty-shard");
    stats(&[&["--game", "oware"][..], &args].concat(), &out);
    assert_eq!(read(&out.join("games.csv")).lines().count(), 1, "{example}");
    assert_eq!(manifest(&out)["games_done"], 0, "{example}");
}

/// A job whose files cannot fit where --out is is refused before the folder is made, naming the
/// estimated size and the free space; a long job says what it will write and how long it takes.
#[test]
fn a_job_too_big_for_the_disk_is_refused_with_both_figures() {
    let out = tmp("too-big");
    let o = run_stats(
        &["--game", "oware", "--games", "18446744073709551615"],
        &out,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    // About 45 bytes a game and 19 or 20 digits of game index: some 1.2 zettabytes (10^21),
    // more than any disk.
    assert!(
        err.contains("estimate: 18446744073709551615 games write about "),
        "{err}"
    );
    assert!(err.contains(" ZB and take roughly "), "{err}");
    let size: f64 = err
        .split("games write about ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the estimated size");
    assert!((0.9..1.6).contains(&size), "{err}");
    assert!(err.contains("the study's files would take about "), "{err}");
    assert!(err.contains(" free; "), "{err}");
    assert!(err.contains("--no-space-check"), "{err}");
    assert!(!out.exists(), "the folder is not made");
}

/// MANCALA_LAB_FREE_SPACE stands for the free space of the disk: a small job is refused where it
/// says too little is free, and starts with --no-space-check; a value that is not a number of
/// bytes is refused.
#[test]
fn the_free_space_a_job_sees_can_be_set() {
    let out = tmp("free-space");
    let job = |free: &str, extra: &[&str]| {
        bin()
            .args(["stats", "--game", "oware", "--games", "100"])
            .args(extra)
            .arg("--out")
            .arg(&out)
            .env(mancala_lab::disk::FREE_SPACE_VARIABLE, free)
            .output()
            .unwrap()
    };
    let o = job("10", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("its file system has 10 bytes free"), "{err}");
    assert!(!out.exists(), "the folder is not made");
    let o = job("lots", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("MANCALA_LAB_FREE_SPACE: \"lots\" is not a number of bytes"),
        "{err}"
    );
    let o = job("10", &["--no-space-check"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A deterministic policy playing itself repeats its games: summary.csv counts the distinct ones
/// (by the hash of their moves, so two games with the same moves are one), standard error warns
/// and says what to do, and the count is the same over shards merged as over one run.
#[test]
fn repeated_games_are_counted_and_warned_of() {
    let job = [
        "--game",
        "bao",
        "--policy",
        "alphabeta:depth=2",
        "--games",
        "60",
    ];
    let one = tmp("repeats-one");
    let o = stats(&job, &one);
    let summary = read(&one.join("summary.csv"));
    let games = read(&one.join("games.csv"));
    let rows: Vec<&str> = games.lines().skip(1).collect();
    // The distinct games, counted here from the rows' moves_hash column by hand.
    let hashes: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r.rsplit(',').next().unwrap()).collect();
    let distinct = hashes.len();
    assert!(
        distinct < 60,
        "alphabeta self-play repeats games: {distinct}"
    );
    assert!(
        summary.contains(&format!(
            "\ndistinct_games,{distinct},{distinct},{distinct}\nrepeated_games,{r},{r},{r}\n",
            r = 60 - distinct
        )),
        "{summary}"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "warning: only {distinct} of the 60 games are distinct"
        )) && err.contains("--opening"),
        "{err}"
    );
    // Two shards: a game of the second may repeat one of the first; the merge counts it once.
    let shards: Vec<PathBuf> = (1..=2).map(|k| tmp(&format!("repeats-{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        stats(&[&job[..], &["--shard", &shard]].concat(), dir);
    }
    let merged = tmp("repeats-merged");
    let o = merge(&merged, &shards, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read(&merged.join("summary.csv")), summary);
    // Random play: every game its own.
    let random = tmp("repeats-random");
    let o = stats(&["--game", "bao", "--games", "50"], &random);
    assert!(read(&random.join("summary.csv")).contains("\ndistinct_games,50,50,50\n"));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("warning"));
}

/// A reading whose name holds commas (Kalah's board as parameters) is one quoted field of
/// games.csv: the study resumes, its shards merge, `plot` reads it, and a match rates it.
#[test]
fn a_reading_with_commas_is_one_field() {
    let job = [
        "--game",
        "kalah",
        "--variant",
        "openspiel:pits=3,seeds=2",
        "--games",
        "200",
    ];
    let single = tmp("commas");
    stats(&job, &single);
    let games = read(&single.join("games.csv"));
    let first = games.lines().nth(1).unwrap();
    assert!(
        first.starts_with("0,\"openspiel:pits=3,seeds=2\",random,"),
        "{first}"
    );
    let shards: Vec<PathBuf> = (1..=2).map(|k| tmp(&format!("commas{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        stats(
            &[&job[..], &["--shard", &format!("{}/2", k + 1)]].concat(),
            dir,
        );
    }
    let merged = tmp("commas-merged");
    let o = merge(&merged, &shards, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    same_files(&single, &merged, &FILES);
    // A stopped study of that reading resumes (its rows verified field by field).
    let m = manifest(&single);
    assert_eq!(m["variant"], "openspiel:pits=3,seeds=2");
    let o = run_stats(&["--resume"], &single);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = tmp("commas.svg");
    let o = bin()
        .args(["plot", "--out"])
        .arg(&svg)
        .arg(format!("a={}", single.join("games.csv").display()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = tmp("commas-match");
    let o = bin()
        .args([
            "match",
            "--game",
            "kalah",
            "--variant",
            "openspiel:pits=4,seeds=3",
        ])
        .args(["--players", "random", "greedy", "--games", "50", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("ratings.csv").exists());
}

/// A Kalah reading is recorded by its one name (the closest preset and the parameters that
/// differ, spec/kalah.md), so that shards of one job written two ways merge.
#[test]
fn a_reading_is_recorded_by_its_one_name() {
    let job = ["--game", "kalah", "--games", "100"];
    let a = tmp("name-a");
    stats(
        &[&job[..], &["--variant", "openspiel:seeds=3"]].concat(),
        &a,
    );
    assert_eq!(manifest(&a)["variant"], "openspiel:pits=6,seeds=3");
    let shards = [tmp("name-1"), tmp("name-2")];
    let ways = ["empty-capture", "openspiel:empty-capture=on,cap=none"];
    for (k, (dir, way)) in shards.iter().zip(ways).enumerate() {
        let shard = format!("{}/2", k + 1);
        stats(
            &[&job[..], &["--variant", way, "--shard", &shard]].concat(),
            dir,
        );
        assert_eq!(manifest(dir)["variant"], "empty-capture");
    }
    let merged = tmp("name-merged");
    let o = merge(&merged, &shards, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
