//! `mancala-lab match`: a round robin of policies, its files, ratings, refusals and resume.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn tmp(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-lab-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn ok(args: &[&str], out: &Path) -> Output {
    let o = run(args, out);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn refused(args: &[&str], out: &Path) -> String {
    let o = run(args, out);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    err
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

const FILES: [&str; 2] = ["games.csv", "ratings.csv"];

/// A small match: two players, three Oware games a pairing each way.
const SMALL: [&str; 7] = [
    "--game",
    "oware",
    "--players",
    "random",
    "greedy",
    "--games",
    "3",
];

fn same(a: &Path, b: &Path) {
    for f in FILES {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{f}");
    }
}

/// The fields of the ratings.csv row of `player` (numbered from 1).
fn rating(dir: &Path, player: usize) -> Vec<String> {
    read(&dir.join("ratings.csv"))
        .lines()
        .nth(player)
        .unwrap()
        .split(',')
        .map(String::from)
        .collect()
}

/// Every pair meets on both sides, on the same draws: the games and ratings do not depend on
/// the thread count, each pairing plays its games both ways, and the scores add up.
#[test]
fn a_round_robin_is_the_same_for_any_thread_count() {
    let (a, b) = (tmp("t1"), tmp("t2"));
    let job = [
        "--game",
        "oware",
        "--players",
        "random",
        "greedy",
        "search",
        "alphabeta:depth=1",
        "--games",
        "25",
        "--seed",
        "5",
    ];
    ok(&[&job[..], &["--threads", "1"]].concat(), &a);
    ok(&[&job[..], &["--threads", "2"]].concat(), &b);
    same(&a, &b);
    let games = read(&a.join("games.csv"));
    assert_eq!(
        games.lines().next(),
        Some("south,north,game,plies,winner,end_clause")
    );
    // 4 players: 6 pairs, each both ways, 25 games a way.
    assert_eq!(games.lines().count(), 1 + 6 * 2 * 25);
    for (s, n) in [
        ("random", "greedy"),
        ("greedy", "random"),
        ("search", "alphabeta:depth=1"),
    ] {
        let rows = games
            .lines()
            .filter(|l| l.starts_with(&format!("{s},{n},")))
            .count();
        assert_eq!(rows, 25, "{s} against {n}");
    }
    // Each player plays 3 opponents twice 25 times; every game gives out one point.
    let mut points = 0.0;
    for p in 1..=4 {
        let r = rating(&a, p);
        assert_eq!(r[2], "150", "{r:?}");
        points += r[6].parse::<f64>().unwrap() * 150.0;
    }
    assert!((points - 300.0).abs() < 0.01, "{points}");
    // The first player is the origin of the scale.
    assert_eq!(&rating(&a, 1)[7..], ["0.0", "0.0", "0.0"]);
}

/// A two-ply searcher beats a random player at Oware nearly always (the game's expectation, not
/// this code's): rated well above it, its interval clear of 0.
#[test]
fn a_searcher_is_rated_above_a_random_player() {
    let dir = tmp("strength");
    ok(
        &[
            "--game",
            "oware",
            "--players",
            "random",
            "alphabeta:depth=2",
            "--games",
            "20",
        ],
        &dir,
    );
    let r = rating(&dir, 2);
    let (elo, low) = (r[7].parse::<f64>().unwrap(), r[8].parse::<f64>().unwrap());
    assert!(elo > 300.0 && low > 0.0, "{r:?}");
    assert!(r[6].parse::<f64>().unwrap() > 0.9, "{r:?}");
}

/// A folder holding a match is never replaced silently; --resume finishes it (here, a finished
/// one: the same files again), --force replaces it. Bad player lists are refused.
#[test]
fn a_match_folder_is_kept_unless_forced_and_players_are_checked() {
    let dir = tmp("keep");
    let mut job = SMALL;
    job[6] = "5";
    ok(&job, &dir);
    let before = read(&dir.join("games.csv"));
    let err = refused(&job, &dir);
    assert!(err.contains("holds a match"), "{err}");
    ok(&["--resume"], &dir);
    assert_eq!(read(&dir.join("games.csv")), before);
    let err = refused(&["--resume", "--games", "9"], &dir);
    assert!(err.contains("cannot be used with"), "{err}");
    ok(&[&job[..], &["--force", "--seed", "2"]].concat(), &dir);
    assert_ne!(read(&dir.join("games.csv")), before);
    for (players, message) in [
        (
            &["mcts", "mcts:sims=1000"][..],
            "mcts:sims=1000 is named twice",
        ),
        (&["random", "nonsense"][..], "unknown policy 'nonsense'"),
    ] {
        let args = [&["--players"][..], players].concat();
        let err = refused(&args, &tmp("bad"));
        assert!(err.contains(message), "{err}");
    }
    let err = refused(
        &["--players", "random", "greedy", "--games", "0"],
        &tmp("bad"),
    );
    assert!(err.contains("--games 0"), "{err}");
    let err = refused(&["--resume"], &tmp("nothing"));
    assert!(err.contains("match.json"), "{err}");
}

/// Ctrl-C in the middle of a match keeps the pairings played; --resume finishes it to the files
/// of a match never interrupted.
#[test]
fn an_interrupted_match_resumes_to_the_same_files() {
    let (full, cut) = (tmp("full"), tmp("cut"));
    let job = [
        "--game",
        "oware",
        "--players",
        "mcts:sims=1500",
        "alphabeta:depth=3",
        "--games",
        "4",
        "--threads",
        "1",
    ];
    ok(&job, &full);
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .arg("match")
        .args(job)
        .arg("--out")
        .arg(&cut)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the first pairing has rows on disk.
    let first = cut.join("pairs/1-2/games.csv");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none()
        && std::fs::read_to_string(&first).map_or(0, |t| t.lines().count()) < 2
        && start.elapsed().as_secs() < 60
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the match ended before it could be interrupted"
    );
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("mancala-lab match --resume --out"), "{err}");
    assert!(!cut.join("ratings.csv").exists());
    ok(&["--resume"], &cut);
    same(&full, &cut);
    // The resume, given no --threads, played with those of the run it continued, and every
    // pairing records them as an unbroken run does.
    let threads =
        |p: &Path| serde_json::from_str::<serde_json::Value>(&read(p)).unwrap()["threads"].clone();
    assert_eq!(threads(&cut.join("match.json")), 1);
    for pairing in ["1-2", "2-1"] {
        assert_eq!(
            threads(&cut.join("pairs").join(pairing).join("manifest.json")),
            1,
            "{pairing}"
        );
    }
}

/// A pairing folder of another job put in a match's place is refused, not counted; so is a
/// match.json edited into what no options give.
#[test]
fn foreign_pairings_and_edited_match_files_are_refused() {
    let (a, b) = (tmp("own"), tmp("foreign"));
    let job = [
        "--game",
        "oware",
        "--players",
        "random",
        "greedy",
        "--games",
        "4",
    ];
    ok(&job, &a);
    ok(&[&job[..], &["--seed", "9", "--force"]].concat(), &b);
    // Swap in the other seed's pairing 1-2.
    let pair = a.join("pairs/1-2");
    std::fs::remove_dir_all(&pair).unwrap();
    std::fs::rename(b.join("pairs/1-2"), &pair).unwrap();
    let err = refused(&["--resume"], &a);
    assert!(
        err.contains("not this match's pairing (seed '9' where the match has '1')"),
        "{err}"
    );
    // A pairing removed is played again on --resume.
    std::fs::remove_dir_all(&pair).unwrap();
    ok(&["--resume"], &a);
    let fresh = tmp("fresh");
    ok(&job, &fresh);
    same(&a, &fresh);
    // match.json edited: a player in another spelling, a single player.
    let path = a.join("match.json");
    let text = read(&path);
    for (from, to, message) in [
        (
            "\"greedy\"",
            "\"mcts:c=2\"",
            "player 'mcts:c=2' is written 'mcts:sims=1000'",
        ),
        (
            "\"random\",\n    \"greedy\"",
            "\"random\"",
            "name two policies or more",
        ),
        ("\"games\": 4", "\"games\": 0", "--games 0"),
    ] {
        assert!(text.contains(from), "{text}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
        let err = refused(&["--resume"], &a);
        assert!(err.contains(message), "{message}: {err}");
    }
}

/// A match and a stats study never share a folder; match.json is read only as a small regular
/// file; ratings.csv and games.csv replace a link in their place rather than write through it;
/// no rating reads -0.0; a ply limit of 0 is refused.
#[test]
fn a_match_keeps_to_its_folder_and_files() {
    let study = tmp("study");
    let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["stats", "--game", "oware", "--games", "3", "--out"])
        .arg(&study)
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = refused(&["--players", "random", "greedy", "--force"], &study);
    assert!(
        err.contains("holds a stats study (manifest.json), not a match"),
        "{err}"
    );
    assert!(study.join("games.csv").exists());
    let dir = tmp("files");
    let job = SMALL;
    ok(&job, &dir);
    let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args([
            "stats", "--game", "oware", "--games", "3", "--force", "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds a match (match.json)"));
    // A link in place of ratings.csv is the user's: it stops the match, and the file it points
    // to stays as it was; without it, the resume writes the results.
    let elsewhere = tmp("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let target = elsewhere.join("keep.txt");
    std::fs::write(&target, "keep").unwrap();
    std::fs::remove_file(dir.join("ratings.csv")).unwrap();
    std::os::unix::fs::symlink(&target, dir.join("ratings.csv")).unwrap();
    let err = refused(&["--resume"], &dir);
    assert!(err.contains("ratings.csv: not a file of a match"), "{err}");
    assert_eq!(read(&target), "keep");
    std::fs::remove_file(dir.join("ratings.csv")).unwrap();
    ok(&["--resume"], &dir);
    assert_eq!(read(&target), "keep");
    assert!(read(&dir.join("ratings.csv")).starts_with("player,policy,"));
    // The files get the permissions any new file gets, as the stats job's (not a temporary
    // file's 0600).
    use std::os::unix::fs::PermissionsExt;
    let mode = |f: &str| std::fs::metadata(dir.join(f)).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode("ratings.csv"), mode("pairs/1-2/summary.csv"));
    assert_eq!(mode("games.csv"), mode("pairs/1-2/games.csv"));
    // match.json a pipe or a device: refused, never waited on or read without end.
    let json = dir.join("match.json");
    std::fs::remove_file(&json).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &json).unwrap();
    let err = refused(&["--resume"], &dir);
    assert!(err.contains("not a regular file"), "{err}");
    let err = refused(&[&job[..], &["--max-plies", "0"]].concat(), &tmp("noplies"));
    assert!(err.contains("--max-plies 0"), "{err}");
    // One game a pairing: no rating written -0.0 (a case found by a hostile search).
    let neg = tmp("neg");
    let o = ok(
        &[
            "--game",
            "oware",
            "--players",
            "random",
            "mcts:sims=1",
            "mcts:sims=2",
            "greedy",
            "--games",
            "1",
            "--seed",
            "815",
        ],
        &neg,
    );
    assert!(!read(&neg.join("ratings.csv")).contains("-0.0"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("1 game a pairing each way") && !out.contains("-0.0"),
        "{out}"
    );
}

/// A finished pairing that lost its summary (a failed write) gets it back on --resume.
#[test]
fn a_pairing_without_its_summary_is_completed_on_resume() {
    let dir = tmp("summary");
    ok(&SMALL, &dir);
    let summary = dir.join("pairs/2-1/summary.csv");
    let before = read(&summary);
    std::fs::remove_file(&summary).unwrap();
    ok(&["--resume"], &dir);
    assert_eq!(read(&summary), before);
}

/// What the eighth hostile sweep found: a resumed match keeps a private file private, drops the
/// temporary files an interrupted write left, cuts rows a pairing's manifest does not count,
/// refuses unknown fields in match.json, and takes no stats study's leftovers for a match.
#[test]
fn a_resumed_match_repairs_what_it_finds() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tmp("repairs");
    ok(&SMALL, &dir);
    let ratings = dir.join("ratings.csv");
    std::fs::set_permissions(&ratings, std::fs::Permissions::from_mode(0o600)).unwrap();
    let stale = dir.join(".games.csv.abc123.tmp");
    std::fs::write(&stale, "half a file").unwrap();
    let pair = dir.join("pairs/1-2/games.csv");
    let rows = read(&pair);
    let last = rows.lines().last().unwrap().to_string();
    std::fs::write(&pair, format!("{rows}{last}\n")).unwrap();
    ok(&["--resume"], &dir);
    let mode = std::fs::metadata(&ratings).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(!stale.exists());
    assert_eq!(read(&pair), rows);
    let json = dir.join("match.json");
    let text = read(&json);
    std::fs::write(&json, text.replacen('{', "{\n  \"extra\": 1,", 1)).unwrap();
    let err = refused(&["--resume"], &dir);
    assert!(err.contains("unknown field `extra`"), "{err}");
    // A stats folder that lost its manifest still holds a study's files.
    let study = tmp("leftover");
    let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["stats", "--game", "oware", "--games", "3", "--out"])
        .arg(&study)
        .output()
        .unwrap();
    assert!(o.status.success());
    std::fs::remove_file(study.join("manifest.json")).unwrap();
    let err = refused(&["--players", "random", "greedy", "--force"], &study);
    assert!(err.contains("holds a stats study (summary.csv)"), "{err}");
}

/// What a hard kill can leave: a pairing folder with games.csv's header but no manifest (killed
/// before its first save) is played anew on --resume, while one holding a file of someone else's
/// is refused and kept; a folder without match.json says how to start over; `stats --max-plies
/// 0` is refused as `match` refuses it.
#[test]
fn remains_of_a_hard_kill_are_handled() {
    let dir = tmp("killed");
    let job = SMALL;
    ok(&job, &dir);
    let fresh = read(&dir.join("games.csv"));
    let pair = dir.join("pairs/2-1");
    let header = read(&pair.join("games.csv"))
        .lines()
        .next()
        .unwrap()
        .to_string()
        + "\n";
    std::fs::remove_file(pair.join("manifest.json")).unwrap();
    for f in ["summary.csv", "clauses.csv"] {
        std::fs::remove_file(pair.join(f)).unwrap();
    }
    std::fs::write(pair.join("games.csv"), "my notes\n").unwrap();
    let err = refused(&["--resume"], &dir);
    assert!(
        err.contains("games.csv is there but no manifest.json"),
        "{err}"
    );
    assert_eq!(read(&pair.join("games.csv")), "my notes\n");
    std::fs::write(pair.join("games.csv"), header).unwrap();
    ok(&["--resume"], &dir);
    assert_eq!(read(&dir.join("games.csv")), fresh);
    std::fs::remove_file(dir.join("match.json")).unwrap();
    let err = refused(&["--resume"], &dir);
    assert!(
        err.contains("holds no match (no match.json)") && err.contains("--force"),
        "{err}"
    );
    ok(&[&job[..], &["--force"]].concat(), &dir);
    let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["stats", "--game", "oware", "--max-plies", "0", "--out"])
        .arg(tmp("zero"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--max-plies 0: no game would have a move"));
}

fn merge(out: &Path, shards: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["match", "merge", "--out"])
        .arg(out)
        .args(shards)
        .output()
        .unwrap()
}

/// Three players, five Oware games a pairing each way, in 1, 2 or 3 slices.
const SHARDED: [&str; 8] = [
    "--game",
    "oware",
    "--players",
    "random",
    "greedy",
    "search",
    "--games",
    "5",
];

/// A match played in shards and merged is the match played whole, byte for byte: every
/// pairing's games and the ratings.
#[test]
fn a_sharded_match_merges_into_the_files_of_one_run() {
    let whole = tmp("whole");
    ok(&SHARDED, &whole);
    let shards: Vec<PathBuf> = (1..=3).map(|k| tmp(&format!("shard-{k}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let o = ok(&[&SHARDED[..], &["--shard", &shard]].concat(), s);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(&format!("(shard {shard})")), "{out}");
    }
    // Shard 1 of 3 plays game 0 of each pairing: 6 pairings, one row each.
    assert_eq!(read(&shards[0].join("games.csv")).lines().count(), 1 + 6);
    let merged = tmp("merged");
    // In any order.
    let o = merge(&merged, &[&shards[2], &shards[0], &shards[1]]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    same(&whole, &merged);
    for pair in ["1-2", "2-1", "1-3", "3-1", "2-3", "3-2"] {
        let f = format!("pairs/{pair}/games.csv");
        assert_eq!(read(&whole.join(&f)), read(&merged.join(&f)), "{f}");
    }
    // The merged folder is a whole match: resumed, it plays nothing and keeps its files.
    ok(&["--resume"], &merged);
    same(&whole, &merged);
}

/// What is not one match's shards, or not whole, is refused before --out is touched; a shard
/// whose rows fail their checksum leaves nothing merged.
#[test]
fn match_merge_refuses_what_is_not_one_match() {
    let s: Vec<PathBuf> = (1..=2).map(|k| tmp(&format!("part-{k}"))).collect();
    for (k, dir) in s.iter().enumerate() {
        ok(
            &[&SHARDED[..], &["--shard", &format!("{}/2", k + 1)]].concat(),
            dir,
        );
    }
    let other = tmp("part-other-seed");
    ok(
        &[&SHARDED[..], &["--shard", "2/2", "--seed", "7"]].concat(),
        &other,
    );
    let out = tmp("merge-out");
    let refused_merge = |shards: &[&Path], says: &str| {
        let o = merge(&out, shards);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{says}: {err}");
        assert!(!out.join("match.json").exists() && !out.join("pairs").exists());
    };
    refused_merge(
        &[&s[0]],
        "the shards cover games 0..2 of each pairing's 0..5",
    );
    refused_merge(
        &[&s[0], &other],
        "a shard of a different match (seed '7', not '1'",
    );
    refused_merge(&[&s[0], &s[1], &s[1]], "one folder, given twice");
    refused_merge(&[&s[0], &s[1], &out], "");
    let o = merge(&s[0], &[&s[0], &s[1]]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("is one of the shards being merged"));
    // A shard that lost a pairing, or a pairing's rows.
    let torn = tmp("part-torn");
    ok(&[&SHARDED[..], &["--shard", "2/2"]].concat(), &torn);
    std::fs::remove_dir_all(torn.join("pairs/3-2")).unwrap();
    refused_merge(&[&s[0], &torn], "pairs/3-2");
    let _ = std::fs::remove_dir_all(&torn);
    ok(&[&SHARDED[..], &["--shard", "2/2"]].concat(), &torn);
    let rows = torn.join("pairs/3-2/games.csv");
    let text = read(&rows).replacen(",South,", ",North,", 1);
    let text = if text == read(&rows) {
        read(&rows).replacen(",North,", ",South,", 1)
    } else {
        text
    };
    std::fs::write(&rows, text).unwrap();
    refused_merge(&[&s[0], &torn], "pairs/3-2");
    // A whole merge, then one into the same folder without --force.
    assert!(merge(&out, &[&s[0], &s[1]]).status.success());
    let o = merge(&out, &[&s[0], &s[1]]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds a match") && err.contains("--force"),
        "{err}"
    );
    // A shard given on --resume.
    refused(&["--resume", "--shard", "1/2"], &s[0]);
}

/// `--opening K` in a match: recorded in match.json, given to every pairing, and part of what
/// makes shards one match.
#[test]
fn a_match_opening_is_recorded_and_varies_the_games() {
    let players = [
        "--game",
        "bao",
        "--players",
        "alphabeta:depth=2",
        "alphabeta:depth=4",
        "--games",
        "30",
    ];
    let (plain, opened) = (tmp("opening-none"), tmp("opening-4"));
    ok(&players, &plain);
    let o = ok(&[&players[..], &["--opening", "4"]].concat(), &opened);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("4 random plies opening each game"), "{out}");
    let m: serde_json::Value = serde_json::from_str(&read(&opened.join("match.json"))).unwrap();
    assert_eq!(m["opening"], 4);
    let pair: serde_json::Value =
        serde_json::from_str(&read(&opened.join("pairs/2-1/manifest.json"))).unwrap();
    assert_eq!(pair["opening"], 4);
    // Each pairing is the stats job of its two players with that opening.
    let stats = |opening: &str| {
        let dir = tmp(&format!("opening-stats-{opening}"));
        let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args([
                "stats",
                "--game",
                "bao",
                "--games",
                "30",
                "--opening",
                opening,
            ])
            .args([
                "--south",
                "alphabeta:depth=4",
                "--north",
                "alphabeta:depth=2",
            ])
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        read(&dir.join("games.csv"))
    };
    let pair = read(&opened.join("pairs/2-1/games.csv"));
    assert_eq!(pair, stats("4"));
    assert_ne!(pair, stats("0"));
    assert_eq!(read(&plain.join("pairs/2-1/games.csv")), stats("0"));
    // Shards of two openings are two matches.
    let (s1, s2) = (tmp("opening-s1"), tmp("opening-s2"));
    ok(
        &[&players[..], &["--opening", "4", "--shard", "1/2"]].concat(),
        &s1,
    );
    ok(
        &[&players[..], &["--opening", "5", "--shard", "2/2"]].concat(),
        &s2,
    );
    let o = merge(&tmp("opening-merged"), &[&s1, &s2]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("opening '5', not '4'"), "{err}");
    let err = refused(
        &[&players[..], &["--opening", "9", "--max-plies", "9"]].concat(),
        &s1,
    );
    assert!(err.contains("every ply of a game would be random"), "{err}");
}

/// A merge that fails keeps what --out held, even with --force; a merge never reads from inside
/// --out nor writes inside a shard; a failed merge into a new folder leaves no folder.
#[test]
fn a_failed_merge_keeps_the_match_in_out() {
    let s: Vec<PathBuf> = (1..=2).map(|k| tmp(&format!("keep-{k}"))).collect();
    for (k, dir) in s.iter().enumerate() {
        ok(
            &[&SHARDED[..], &["--shard", &format!("{}/2", k + 1)]].concat(),
            dir,
        );
    }
    let out = tmp("keep-out");
    assert!(merge(&out, &[&s[0], &s[1]]).status.success());
    let before: Vec<String> = FILES.iter().map(|f| read(&out.join(f))).collect();
    // Rows changed in the last pairing of a shard: found only as the merge copies them.
    let bad = tmp("keep-bad");
    ok(&[&SHARDED[..], &["--shard", "2/2"]].concat(), &bad);
    let rows = bad.join("pairs/3-2/games.csv");
    let text = read(&rows);
    let changed = match text.replacen(",South,", ",North,", 1) {
        t if t != text => t,
        _ => text.replacen(",North,", ",South,", 1),
    };
    std::fs::write(&rows, changed).unwrap();
    let forced = |shards: &[&Path]| {
        Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args(["match", "merge", "--force", "--out"])
            .arg(&out)
            .args(shards)
            .output()
            .unwrap()
    };
    let o = forced(&[&s[0], &bad]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("nothing merged"), "{err}");
    let after: Vec<String> = FILES.iter().map(|f| read(&out.join(f))).collect();
    assert_eq!(before, after);
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Shards inside --out, --out inside a shard.
    let inner = out.join("pairs/part");
    std::fs::create_dir_all(&inner).unwrap();
    let copy = Command::new("cp")
        .args(["-r"])
        .arg(s[0].join("."))
        .arg(&inner)
        .status()
        .unwrap();
    assert!(copy.success());
    let err = String::from_utf8_lossy(&forced(&[&inner, &s[1]]).stderr).into_owned();
    assert!(err.contains("is inside --out"), "{err}");
    assert!(inner.join("match.json").exists());
    let o = merge(&s[0].join("pairs"), &[&s[0], &s[1]]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("is inside the shard"));
    assert!(!s[0].join("pairs/match.json").exists());
    // A new folder a failed merge would have made is not left behind.
    let fresh = tmp("keep-fresh");
    assert_eq!(merge(&fresh, &[&s[0], &bad]).status.code(), Some(2));
    assert!(!fresh.exists());
}

/// More shards than games, as a cluster array may ask: the empty shards play and rate nothing,
/// and merge with the others into the whole match.
#[test]
fn empty_shards_merge_too() {
    let small = [
        "--game",
        "oware",
        "--players",
        "random",
        "greedy",
        "--games",
        "2",
    ];
    let whole = tmp("empty-whole");
    ok(&small, &whole);
    let shards: Vec<PathBuf> = (1..=3).map(|k| tmp(&format!("empty-{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        ok(
            &[&small[..], &["--shard", &format!("{}/3", k + 1)]].concat(),
            dir,
        );
    }
    assert_eq!(read(&shards[0].join("games.csv")).lines().count(), 1);
    assert_eq!(read(&shards[0].join("ratings.csv")).lines().count(), 1);
    let merged = tmp("empty-merged");
    let refs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    assert!(merge(&merged, &refs).status.success());
    same(&whole, &merged);
}

/// A pairing a `--resume` starts (the match was killed before it) records the command that
/// started the match, as in a match played at one go: its manifest is the same byte for byte.
#[test]
fn a_pairing_started_by_a_resume_records_the_matchs_command() {
    let dir = tmp("command");
    ok(&SMALL, &dir);
    let manifest = dir.join("pairs/2-1/manifest.json");
    let whole = read(&manifest);
    std::fs::remove_dir_all(dir.join("pairs/2-1")).unwrap();
    ok(&["--resume"], &dir);
    assert_eq!(read(&manifest), whole);
}

/// `--force` replaces a match, never a user's files in it: a folder or file under pairs/ that
/// a match does not write stops it, and is kept.
#[test]
fn force_replaces_a_match_but_not_a_users_files_in_it() {
    let dir = tmp("keepmine");
    ok(&SMALL, &dir);
    let forced = [&SMALL[..], &["--force"]].concat();
    for mine in [
        "pairs/1-2/my-notes.txt",
        "pairs/extra/f",
        "pairs/01-2/games.csv",
        "pairs/1-1/games.csv",
    ] {
        let path = dir.join(mine);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "mine").unwrap();
        let err = refused(&forced, &dir);
        assert!(err.contains("is not a file a match writes"), "{err}");
        assert_eq!(read(&path), "mine");
        std::fs::remove_file(&path).unwrap();
        if !mine.starts_with("pairs/1-2/") {
            std::fs::remove_dir(path.parent().unwrap()).unwrap();
        }
    }
    ok(&forced, &dir);
}

/// A stats study is never written into a match's pairs/ folder: over a pairing (even with
/// --force), or beside them.
#[test]
fn a_study_is_not_written_among_a_matchs_pairings() {
    let dir = tmp("amongpairs");
    ok(&SMALL, &dir);
    let games = read(&dir.join("pairs/1-2/games.csv"));
    for pair in ["pairs/1-2", "pairs/9-9"] {
        let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args([
                "stats", "--game", "oware", "--games", "5", "--force", "--out",
            ])
            .arg(dir.join(pair))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("a pairing folder of the match"), "{err}");
    }
    assert_eq!(read(&dir.join("pairs/1-2/games.csv")), games);
    assert!(!dir.join("pairs/9-9").exists());
}

/// A match refused a folder names what is there as what it is: a match's pairing folder as the
/// match's, a file of the user's that a stats study would also name so as a file, not a study.
#[test]
fn a_match_names_what_holds_its_folder() {
    let dir = tmp("names");
    ok(&SMALL, &dir);
    let pairing = dir.join("pairs/1-2");
    let games = read(&pairing.join("games.csv"));
    for force in [&[][..], &["--force"]] {
        let err = refused(&[&SMALL[..], force].concat(), &pairing);
        assert!(err.contains("a pairing folder of the match in"), "{err}");
        assert!(!err.contains("stats study"), "{err}");
    }
    assert_eq!(read(&pairing.join("games.csv")), games);
    let notes = tmp("notes");
    std::fs::create_dir_all(&notes).unwrap();
    for name in ["summary.csv", "clauses.csv", "manifest.json"] {
        std::fs::write(notes.join(name), "my notes\n").unwrap();
        let err = refused(&SMALL, &notes);
        assert!(
            err.contains(&format!("holds {name}, a file no match writes")),
            "{err}"
        );
        assert!(!err.contains("stats study"), "{err}");
        assert_eq!(read(&notes.join(name)), "my notes\n");
        std::fs::remove_file(notes.join(name)).unwrap();
    }
}

/// `--force` and `merge --force` replace no match through a link: an --out that is a symbolic
/// link to a folder elsewhere is refused, naming that folder, whose match stays as it was.
#[cfg(unix)]
#[test]
fn force_replaces_no_match_through_a_linked_out() {
    let elsewhere = tmp("linked-target");
    ok(&SMALL, &elsewhere);
    let before: Vec<String> = FILES.map(|f| read(&elsewhere.join(f))).to_vec();
    let shards = [tmp("linked-shard-1"), tmp("linked-shard-2")];
    for (k, s) in shards.iter().enumerate() {
        ok(
            &[&SMALL[..], &["--shard", &format!("{}/2", k + 1)]].concat(),
            s,
        );
    }
    let link = tmp("linked");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    let named = format!("a symbolic link to {}", elsewhere.display());
    let err = refused(&[&SMALL[..], &["--seed", "2", "--force"]].concat(), &link);
    assert!(err.contains(&named), "{err}");
    let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["match", "merge", "--force", "--out"])
        .arg(&link)
        .args(&shards)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&named), "{err}");
    assert_eq!(FILES.map(|f| read(&elsewhere.join(f))).to_vec(), before);
}

/// A file or folder of the user's at the place of one of a match's own (match.json, games.csv,
/// ratings.csv, pairs) is never removed, by `--force` or by `merge --force`: it stops the job.
#[test]
fn force_never_removes_a_users_file_at_a_matchs_place() {
    let shards = [tmp("own-shard-1"), tmp("own-shard-2")];
    for (k, s) in shards.iter().enumerate() {
        ok(
            &[&SMALL[..], &["--shard", &format!("{}/2", k + 1)]].concat(),
            s,
        );
    }
    for (name, folder) in [
        ("match.json", true),
        ("ratings.csv", true),
        ("games.csv", false),
        ("ratings.csv", false),
        ("pairs", false),
    ] {
        let dir = tmp("own-place");
        let mine = if folder {
            dir.join(name).join("sub/data")
        } else {
            dir.join(name)
        };
        std::fs::create_dir_all(mine.parent().unwrap()).unwrap();
        std::fs::write(&mine, "precious\n").unwrap();
        for forced in [false, true] {
            let mut args = SMALL.to_vec();
            if forced {
                args.push("--force");
            }
            let err = refused(&args, &dir);
            assert!(err.contains("not a file of a match"), "{name}: {err}");
            let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
                .args(["match", "merge", "--out"])
                .arg(&dir)
                .args(&shards)
                .args(forced.then_some("--force"))
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{name}: {err}");
            assert!(err.contains("not a file of a match"), "{name}: {err}");
            assert_eq!(read(&mine), "precious\n", "{name}");
        }
    }
}

/// Hidden files of the user's named like temporary files are neither cleared as leftovers nor
/// removed with a pairing by --force: only names a stopped job leaves (`.FILE.XXXXXX.tmp`) are.
#[test]
fn hidden_files_of_the_users_are_kept() {
    let dir = tmp("hidden");
    std::fs::create_dir_all(&dir).unwrap();
    let notes = dir.join(".games.csv.notes.tmp");
    std::fs::write(&notes, "my precious notes").unwrap();
    ok(&SMALL, &dir);
    assert_eq!(read(&notes), "my precious notes");
    let mine = dir.join("pairs/1-2/.my-notes.tmp");
    std::fs::write(&mine, "notes").unwrap();
    let err = refused(&[&SMALL[..], &["--force"]].concat(), &dir);
    assert!(err.contains("is not a file a match writes"), "{err}");
    assert_eq!(read(&mine), "notes");
    // A leftover of a stopped job is one: --force replaces the match with it.
    std::fs::remove_file(&mine).unwrap();
    std::fs::write(dir.join("pairs/1-2/.games.csv.aB3dE9.tmp"), "part").unwrap();
    ok(&[&SMALL[..], &["--force"]].concat(), &dir);
    assert_eq!(read(&notes), "my precious notes");
}
