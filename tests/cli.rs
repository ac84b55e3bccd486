//! The command line as a user drives it: exit codes, error messages, standard input.

mod closed;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(s) = stdin {
        // A command that fails before reading its input closes the pipe: not a test failure.
        let _ = input.write_all(s.as_bytes());
    }
    drop(input);
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Whether mutants are meeting the whole suite (experiments/mutants/run.sh sets
/// `MANCALA_LAB_MUTATION_RUN`): `coverage`'s verdict counts the `// spec:` annotations, which a
/// mutant that replaces a function's body deletes, so a test that runs it for something else
/// takes a FAIL verdict then.
fn mutation_run() -> bool {
    std::env::var_os("MANCALA_LAB_MUTATION_RUN").is_some()
}

#[test]
fn start_then_moves_from_standard_input() {
    let start = run(&["bao", "start"], None);
    assert!(start.status.success());
    let moves = run(&["bao", "moves", "--position", "-"], Some(&stdout(&start)));
    assert!(moves.status.success(), "{}", stderr(&moves));
    assert_eq!(stdout(&moves), "A6<*\nA6>*\nA7<*\nA7>*\n");
}

#[test]
fn play_prints_the_position_and_refuses_illegal_moves_with_the_clause() {
    let start = stdout(&run(&["bao", "start"], None));
    let ok = run(
        &["bao", "play", "--position", "-", "A6<*", "a6<"],
        Some(&start),
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(
        stdout(&ok).contains("a: 0 2 3 6 0 0 0 1\n"),
        "{}",
        stdout(&ok)
    );
    let bad = run(
        &["bao", "play", "--position", "-", "A6<*", "a7>"],
        Some(&start),
    );
    assert!(!bad.status.success());
    let err = stderr(&bad);
    assert!(
        err.contains("move 2 'a7>' is illegal") && err.contains("1.4.1"),
        "{err}"
    );
}

#[test]
fn malformed_inputs_name_what_and_where() {
    let start = stdout(&run(&["bao", "start"], None));
    let bad_move = run(&["bao", "play", "--position", "-", "A9<"], Some(&start));
    assert!(
        stderr(&bad_move).contains("column 2"),
        "{}",
        stderr(&bad_move)
    );
    let bad_pos = run(
        &["bao", "moves", "--position", "-"],
        Some(&start.replace("stores: 22 22", "stores: 22 x")),
    );
    assert_eq!(bad_pos.status.code(), Some(2));
    assert!(
        stderr(&bad_pos).contains("line 2, column 12"),
        "{}",
        stderr(&bad_pos)
    );
    let missing = run(
        &["bao", "moves", "--position", "/nonexistent/pos.txt"],
        None,
    );
    assert!(stderr(&missing).contains("/nonexistent/pos.txt"));
    let variant = run(
        &["bao", "moves", "--position", "-", "--variant", "nope"],
        Some(&start),
    );
    assert!(stderr(&variant).contains("unknown Bao variant 'nope'"));
}

#[test]
fn replay_reports_the_illegal_move_number() {
    let good = run(&["bao", "replay", "-"], Some("1: A6<* a6<;\n"));
    assert!(good.status.success(), "{}", stderr(&good));
    assert!(stdout(&good).contains("# result: game in progress, South to move"));
    let bad = run(
        &["bao", "replay", "-"],
        Some("1: A6<* a6<;\n2: A7>* a5>*;\n"),
    );
    assert!(!bad.status.success());
    // After 1. A6<* a6<, South's A4 faces the house a5: A7>* is not a capture, so it is move 2 that fails.
    assert!(
        stderr(&bad).contains("line 2, column 4: move 2 (South)"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn explain_lists_the_clauses_in_order() {
    let start = stdout(&run(&["bao", "start"], None));
    let out = run(&["bao", "explain", "--position", "-", "A6<"], Some(&start));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let store = text.find("[bao 2.1.2]").unwrap();
    let sow = text.find("[bao 1.3]").unwrap();
    let end = text.find("[bao 1.5.4]").unwrap();
    assert!(store < sow && sow < end, "{text}");
}

#[test]
fn coverage_prints_a_verdict() {
    let out = run(&["coverage", "--quiet"], None);
    assert!(
        stdout(&out).starts_with("coverage bao: "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn oware_reading_parameters_choose_who_starts() {
    // O.2.1 leaves the first player to the players: `first-player` after a preset names them.
    for (reading, mover) in [
        ("sheet:first-player=north", "North"),
        ("abapa:first-player=south", "South"),
        (
            "sheet:first-player=south,grand-slam=captures-nothing",
            "South",
        ),
    ] {
        let start = stdout(&run(&["oware", "start", "--variant", reading], None));
        assert!(
            start.contains(&format!("to_move: {mover}")),
            "{reading}: {start}"
        );
    }
    let bad = run(
        &["oware", "start", "--variant", "sheet:first-player=east"],
        None,
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("first-player='east': expected south or north"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn oware_commands_play_and_refuse_with_reasons() {
    let start = stdout(&run(&["oware", "start"], None));
    assert!(start.contains("south: 4 4 4 4 4 4"), "{start}");
    let moves = run(&["oware", "moves", "--position", "-"], Some(&start));
    assert_eq!(stdout(&moves), "A\nB\nC\nD\nE\nF\n");
    // C then f, as worked by hand in tests/oware_rules.rs.
    let played = run(
        &["oware", "play", "--position", "-", "C", "f"],
        Some(&start),
    );
    assert!(
        stdout(&played).contains("south: 5 5 1 6 5 5\n"),
        "{}",
        stdout(&played)
    );
    let wrong = run(&["oware", "play", "--position", "-", "c"], Some(&start));
    assert!(
        stderr(&wrong).contains("South is to move"),
        "{}",
        stderr(&wrong)
    );
    let bad = run(&["oware", "replay", "-"], Some("1. C f\n2. A g\n"));
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("line 2, column 6"),
        "{}",
        stderr(&bad)
    );
    let perft = run(
        &[
            "perft",
            "--game",
            "oware",
            "--depth",
            "3",
            "--variant",
            "abapa",
        ],
        None,
    );
    assert_eq!(stdout(&perft), "total 190 (both engines)\n");
    // By hand: after A6<* North captures at a5 or a6 with either kichwa (4); after A7<* only a5 (2);
    // after A6>* and A7>* North has no capture and kutakata from a6 or a7 either way (4 each).
    let perft = run(
        &["perft", "--game", "bao", "--depth", "2", "--divide"],
        None,
    );
    assert_eq!(
        stdout(&perft),
        "A6<* 4\nA6>* 4\nA7<* 2\nA7>* 4\ntotal 14 (both engines)\n"
    );
}

#[test]
fn diff_runs_both_games_and_applies_options() {
    let o = run(
        &[
            "diff",
            "--game",
            "oware",
            "--variant",
            "abapa",
            "--games",
            "20",
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("oware-reference/abapa vs oware-optimized/abapa: 20 games"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains(" 0 divergent"));
    // --mutate starts every game from a changed reachable position.
    for game in ["bao", "oware"] {
        let m = run(
            &["diff", "--game", game, "--games", "30", "--mutate", "5"],
            None,
        );
        assert!(m.status.success(), "{}", stderr(&m));
        assert!(stdout(&m).contains(": 30 games"), "{}", stdout(&m));
    }
    // --first shifts the game indices (a long run split or continued).
    let later = run(
        &["diff", "--game", "oware", "--games", "7", "--first", "5"],
        None,
    );
    assert!(later.status.success(), "{}", stderr(&later));
    assert!(
        stdout(&later).contains("7 games (games 5..12, seed 1)"),
        "{}",
        stdout(&later)
    );
    let b = run(
        &[
            "diff",
            "--game",
            "bao",
            "--games",
            "5",
            "--infinite",
            "sown:2000",
        ],
        None,
    );
    assert!(
        stdout(&b).contains("bao-reference/default+sown:2000"),
        "{}",
        stdout(&b)
    );
    let refused = run(&["diff", "--game", "oware", "--infinite", "sown:9"], None);
    assert_eq!(refused.status.code(), Some(2));
}

/// `diff --batch` for Kalah: every vector path against the word board, on a board with laps and
/// a reading with a cap, each path named with its steps.
#[test]
fn diff_batch_checks_the_kalah_batch_engine_on_every_path() {
    let o = run(
        &[
            "diff",
            "--game",
            "kalah",
            "--batch",
            "--variant",
            "empty-capture:pits=5,seeds=9,cap=30",
            "--games",
            "20000",
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("kalah-batch/empty-capture:pits=5,seeds=9,cap=30 vs kalah-optimized/"),
        "{out}"
    );
    assert!(out.contains(" 0 divergent"), "{out}");
    assert!(out.contains("batch path portable ("), "{out}");
    assert!(out.contains(" vector steps"), "{out}");
}

#[test]
fn diff_batch_checks_the_oware_batch_engine_and_refuses_what_it_cannot() {
    let o = run(
        &[
            "diff",
            "--game",
            "oware",
            "--batch",
            "--variant",
            "abapa",
            "--games",
            "40000",
            "--first",
            "3",
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(
            "oware-batch/abapa vs oware-optimized/abapa: 40000 games (games 3..40003, seed 1"
        ),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains(" 0 divergent"), "{}", stdout(&o));
    for (args, words) in [
        (
            vec!["diff", "--game", "bao", "--batch"],
            "--batch applies to oware and kalah only",
        ),
        (
            vec!["diff", "--game", "oware", "--batch", "--mutate", "2"],
            "drop --mutate",
        ),
        (
            vec!["diff", "--game", "oware", "--batch", "--variant", "strict"],
            "leave a point open",
        ),
    ] {
        let r = run(&args, None);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
        assert!(stderr(&r).contains(words), "{args:?}: {}", stderr(&r));
    }
}

#[test]
fn a_forced_batch_path_is_named_where_it_plays_and_refused_when_unknown() {
    let with_path = |path: &str, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("MANCALA_LAB_BATCH_PATH", path)
            .output()
            .unwrap()
    };
    let scratch = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("forced-path");
    let out = scratch.to_str().unwrap();
    // The portable path runs on every processor; the study names it.
    let o = with_path(
        "portable",
        &[
            "stats", "--game", "oware", "--games", "500", "--out", out, "--force",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("oware optimized engine (16-lane portable batch"),
        "{}",
        stderr(&o)
    );
    // A faster path passed over is named, with the reason: here the switch.
    if mancala_lab::oware::batch::BatchPath::fastest()
        != mancala_lab::oware::batch::BatchPath::Portable
    {
        assert!(
            stderr(&o).contains("; forced by MANCALA_LAB_BATCH_PATH; this processor runs the "),
            "{}",
            stderr(&o)
        );
    }
    let o = with_path(
        "scalar",
        &[
            "stats", "--game", "oware", "--games", "500", "--out", out, "--force",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("oware optimized engine (scalar)"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&scratch);
    // diff --batch --path checks that path alone.
    let o = run(
        &[
            "diff", "--game", "oware", "--batch", "--path", "portable", "--games", "3000",
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(" 0 divergent"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("batch path portable (16-lane"),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("batch path avx"), "{}", stdout(&o));
    // A name that is no path stops any command before it plays.
    let o = with_path(
        "neon",
        &["stats", "--game", "oware", "--games", "10", "--out", out],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("MANCALA_LAB_BATCH_PATH: unknown batch path \"neon\""),
        "{}",
        stderr(&o)
    );
    assert!(!scratch.exists(), "nothing written");
}

#[test]
fn bench_json_names_the_machine_and_each_measurement_and_keeps_other_files() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-json");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("bench.json");
    let path = report.to_str().unwrap();
    let args = [
        "bench",
        "--only",
        "batch",
        "--seconds",
        "0.1",
        "--json",
        path,
    ];
    let o = run(&args, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["bench"], "mancala-lab");
    let paths = json["machine"]["batch_paths"].as_array().unwrap();
    assert!(paths.contains(&"portable".into()) && paths.contains(&"scalar".into()));
    let measured = json["measurements"].as_array().unwrap();
    // Each path the processor runs: one thread, all threads, the stats job; two Oware readings
    // and Kalah's.
    assert_eq!(measured.len(), 3 * 3 * paths.len(), "{measured:?}");
    for m in measured {
        assert!(m["values"]["games_per_s"].as_f64().unwrap() > 0.0, "{m}");
        assert!(stdout(&o).contains(m["name"].as_str().unwrap()), "{m}");
    }
    let job = measured
        .iter()
        .find(|m| {
            m["name"]
                .as_str()
                .unwrap()
                .starts_with("portable: stats job")
        })
        .unwrap();
    assert!(
        job["values"]["engine_share"].as_f64().unwrap() > 0.0,
        "{job}"
    );
    // A second run replaces its own report; a file of the user's is kept and refused.
    assert!(run(&args, None).status.success());
    let mine = dir.join("mine.json");
    std::fs::write(&mine, "{\"results\": 1}\n").unwrap();
    let o = run(
        &[
            "bench",
            "--only",
            "oware",
            "--seconds",
            "0.1",
            "--json",
            mine.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is not a bench report"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&mine).unwrap(),
        "{\"results\": 1}\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn strict_readings_are_refused_by_the_optimized_engines_with_a_reason() {
    for (game, engine) in [
        ("bao", "optimized Bao engine"),
        ("oware", "optimized Oware engine"),
    ] {
        for cmd in ["diff", "perft"] {
            let mut args = vec![cmd, "--game", game, "--variant", "strict"];
            let mut words = engine;
            if cmd == "perft" {
                args.extend(["--depth", "1"]);
                words = "perft counts with the optimized engine, which does not play readings";
            }
            let o = run(&args, None);
            assert_eq!(o.status.code(), Some(2), "{cmd} {game}: {}", stderr(&o));
            assert!(stderr(&o).contains(words), "{cmd} {game}: {}", stderr(&o));
            assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        }
    }
}

#[test]
fn plot_writes_an_svg_and_names_bad_input() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-lab-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("games.csv");
    std::fs::write(&csv, "game,plies\n0,10\n1,12\n2,30\n").unwrap();
    let svg = dir.join("p.svg");
    let arg = format!("mine={}", csv.display());
    let o = run(&["plot", "--out", svg.to_str().unwrap(), &arg], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg") && text.contains("mine"),
        "{}",
        &text[..200.min(text.len())]
    );
    let bad = run(
        &[
            "plot",
            "--column",
            "nope",
            "--out",
            svg.to_str().unwrap(),
            &arg,
        ],
        None,
    );
    assert!(
        stderr(&bad).contains("no column 'nope'"),
        "{}",
        stderr(&bad)
    );
    // Every value in one bin: the run's one bar is drawn (its outline: up, across, down).
    let o = run(
        &["plot", "--bin", "400", "--out", svg.to_str().unwrap(), &arg],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    let series = text
        .split("<polyline")
        .find(|p| p.contains("stroke-width=\"2\"") && p.contains("points="))
        .expect("the run's line");
    let points = series.split("points=\"").nth(1).unwrap();
    let points: Vec<&str> = points[..points.find('"').unwrap()]
        .split_whitespace()
        .collect();
    assert_eq!(points.len(), 4, "{points:?}");
    let y = |p: &str| p.split(',').nth(1).unwrap().parse::<i64>().unwrap();
    assert!(y(points[1]) < y(points[0]), "the bar rises: {points:?}");
    assert_eq!(y(points[1]), y(points[2]), "its top is flat: {points:?}");
}

#[test]
fn diff_rows_compares_the_stats_rows_of_both_engines() {
    let o = run(
        &[
            "diff", "--game", "bao", "--rows", "--policy", "greedy", "--games", "200", "--seed",
            "4",
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(
            "diff --rows bao default greedy: 200 games (games 0..200, seed 4), 0 divergent"
        ),
        "{}",
        stdout(&o)
    );
    let strict = run(
        &["diff", "--game", "oware", "--rows", "--variant", "strict"],
        None,
    );
    assert_eq!(strict.status.code(), Some(2));
    assert!(
        stderr(&strict).contains("leave a point open"),
        "{}",
        stderr(&strict)
    );
    // A time budget would search the faster engine deeper: refused, before any game and when
    // only checked.
    for policy in ["alphabeta:ms=5", "mcts:ms=5"] {
        for check in [&[][..], &["--parse-only"][..]] {
            let mut args = check.to_vec();
            args.extend([
                "diff", "--game", "oware", "--rows", "--games", "2", "--policy", policy,
            ]);
            let o = run(&args, None);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(
                stderr(&o).contains(&format!(
                    "--policy {policy}: a time budget plays by the clock"
                )) && stderr(&o).contains("depth= or sims="),
                "{args:?}: {}",
                stderr(&o)
            );
        }
    }
}

#[test]
fn a_closed_standard_output_is_survived_and_named() {
    // The reader goes away before the command writes: the command must not panic.
    let start = stdout(&run(&["bao", "start"], None));
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["bao", "moves", "--position", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(start.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    // It ran to its end, printing nothing more, and says so (141: as a closed pipe's signal).
    assert_eq!(o.status.code(), Some(141), "{:?}", o.status);
    assert!(stderr(&o).contains("standard output was closed before the end"));
}

#[test]
fn game_ranges_past_the_last_index_are_refused() {
    for extra in [&[][..], &["--batch"][..], &["--rows"][..]] {
        let mut args = vec![
            "diff",
            "--game",
            "oware",
            "--games",
            "10",
            "--first",
            "18446744073709551615",
        ];
        args.extend_from_slice(extra);
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("--first 18446744073709551615"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn oware_transcripts_with_wrong_move_numbers_are_refused() {
    for text in ["2. C f\n", "1. C f 3. A a\n", "18446744073709551617. C f\n"] {
        let o = run(&["oware", "replay", "-"], Some(text));
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert!(stderr(&o).contains("move number"), "{text}: {}", stderr(&o));
    }
    let ok = run(&["oware", "replay", "-"], Some("1. C f 2: A a\n"));
    assert!(ok.status.success(), "{}", stderr(&ok));
}

#[test]
fn bench_refuses_a_non_positive_time() {
    let o = run(&["bench", "--seconds", "0"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--seconds 0"), "{}", stderr(&o));
}

#[test]
fn plot_bounds_its_bins_and_reads_and_writes_standard_streams() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.csv");
    std::fs::write(&big, "game,plies\n0,4000000000\n1,3\n").unwrap();
    let run_arg = format!("a={}", big.display());
    let svg = dir.join("p.svg");
    let svg = svg.to_str().unwrap();
    // One bin per unit would need 4 x 10^9 bins: refused, naming a width that works.
    let o = run(&["plot", "--bin", "1", "--out", svg, &run_arg], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("use --bin 400001 or more"),
        "{}",
        stderr(&o)
    );
    let o = run(&["plot", "--bin", "0", "--out", svg, &run_arg], None);
    assert_eq!(o.status.code(), Some(2));
    // The default width keeps the chart small.
    let o = run(&["plot", "--out", svg, &run_arg], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::metadata(svg).unwrap().len() < 100_000);
    // Standard input in, standard output out.
    let o = run(
        &["plot", "--out", "-", "a=-"],
        Some("game,plies\n0,40\n1,50\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("<svg"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn small_hostile_inputs_get_clear_answers() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-small-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A byte-order mark before the first key.
    let start = stdout(&run(&["bao", "start"], None));
    let o = run(
        &["bao", "moves", "--position", "-"],
        Some(&format!("\u{feff}{start}")),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Zero threads, a huge mutation count.
    let out = dir.join("s");
    let o = run(
        &["stats", "--threads", "0", "--out", out.to_str().unwrap()],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(&["diff", "--game", "bao", "--mutate", "4294967295"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // --out naming a file.
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let o = run(
        &["stats", "--games", "1", "--out", file.to_str().unwrap()],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a file, not a folder"),
        "{}",
        stderr(&o)
    );
    // The Bao findings written into the Oware catalog.
    let catalog = dir.join("oware.md");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/spec/findings/oware.md"),
        &catalog,
    )
    .unwrap();
    let o = run(
        &[
            "inconsistencies",
            "--game",
            "bao",
            "--games",
            "5",
            "--update",
            catalog.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not the bao catalog"), "{}", stderr(&o));
    // Moves of a finished game: none, and why.
    let over = "to_move: South\nstores: 0 0\nhouses: lost lost\nb: 0 0 0 0 0 0 0 0\na: 0 0 0 0 0 0 0 0\nA: 2 0 0 0 0 0 0 0\nB: 0 0 0 0 0 0 0 62\n";
    let o = run(&["bao", "moves", "--position", "-"], Some(over));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("the game is over\n# result: South wins (bao 1.2.1)"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The fenced block that follows `heading` in docs/formats.md.
fn readme_block(heading: &str) -> String {
    let formats = include_str!("../docs/formats.md");
    let after = &formats[formats.find(heading).expect(heading)..];
    let fence = after.find("```").expect("a block");
    let start = fence + after[fence..].find('\n').expect("its first line") + 1;
    let len = after[start..].find("```").expect("its end");
    after[start..start + len].to_string()
}

#[test]
fn the_readme_examples_of_positions_and_transcripts_are_accepted() {
    // The examples of docs/formats.md (linked from the README).
    let position = readme_block("## Bao position format");
    let o = run(&["bao", "moves", "--position", "-"], Some(&position));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).is_empty());
    let transcript = readme_block("## Bao transcript format");
    let o = run(&["bao", "replay", "-"], Some(&transcript));
    assert!(o.status.success(), "{}", stderr(&o));
    let position = readme_block("## Oware positions, moves and transcripts");
    let o = run(&["oware", "moves", "--position", "-"], Some(&position));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).is_empty());
}

/// Runs the binary, failing (not hanging) if it takes longer than `secs` seconds.
fn run_within(args: &[&str], secs: u64) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() > secs {
            child.kill().unwrap();
            panic!("{args:?} still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Game ranges that end at the top of the index range play exactly the games asked for: no index
/// wraps round to 0 (a worker that did would play for ever) and no chunk is cut short.
#[test]
fn game_ranges_reaching_the_last_index_play_every_game() {
    let top = u64::MAX;
    for (args, want) in [
        (
            vec!["diff", "--game", "bao", "--games", "1", "--first"],
            (top - 1, 1),
        ),
        (
            vec!["diff", "--game", "oware", "--games", "1", "--first"],
            (top - 1, 1),
        ),
        (
            vec!["diff", "--game", "bao", "--rows", "--games", "1", "--first"],
            (top - 1, 1),
        ),
        (
            vec![
                "diff", "--game", "oware", "--batch", "--games", "100000", "--first",
            ],
            (top - 100_000, 100_000),
        ),
    ] {
        let first = want.0.to_string();
        let mut all = args.clone();
        all.push(&first);
        let o = run_within(&all, 60);
        assert!(o.status.success(), "{all:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains(&format!("{} games (games {first}..{top}", want.1)),
            "{all:?}: {out}"
        );
    }
}

/// Output that cannot be written, and outputs that would overwrite an input, are errors (exit 2)
/// that leave the inputs as they were.
#[test]
fn outputs_never_overwrite_inputs_and_write_errors_are_reported() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-lab-outputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A full device: an error naming standard output, not a panic.
    if std::path::Path::new("/dev/full").exists() {
        let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args(["bao", "start"])
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("standard output: No space left"),
            "{}",
            stderr(&o)
        );
    }
    let start = stdout(&run(&["bao", "start"], None));
    let pos = dir.join("start.txt");
    std::fs::write(&pos, &start).unwrap();
    let p = pos.to_str().unwrap();
    for args in [
        vec!["bao", "diagram", "--position", p, "--out", p],
        vec!["bao", "explain", "--position", p, "A6<*", "--svg", "-"],
    ] {
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
    assert_eq!(std::fs::read_to_string(&pos).unwrap(), start);
    // plot: --out naming an input is refused; a pipe is read once and plotted.
    let games = dir.join("games.csv");
    std::fs::write(&games, "game,plies\n0,40\n1,60\n").unwrap();
    let g = games.to_str().unwrap();
    let o = run(&["plot", "--out", g, &format!("a={g}")], None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&games).unwrap(),
        "game,plies\n0,40\n1,60\n"
    );
    let fifo = dir.join("pipe.csv");
    let _ = std::fs::remove_file(&fifo);
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(fifo, "game,plies\n0,40\n1,60\n").unwrap())
        };
        let svg = dir.join("p.svg");
        let o = run(
            &[
                "plot",
                "--out",
                svg.to_str().unwrap(),
                &format!("a={}", fifo.display()),
            ],
            None,
        );
        writer.join().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
}

#[test]
fn coverage_fails_a_spec_without_clauses_and_names_a_file_it_cannot_read() {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-coverage-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("spec")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("spec/bao.md"), "").unwrap();
    let dir = root.to_str().unwrap();
    let o = run(&["coverage", "--root", dir, "--quiet"], None);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("FAIL: the spec has no normative clause"),
        "{}",
        stdout(&o)
    );
    std::fs::write(root.join("src/bad.rs"), b"fn f() {}\n\xff\n").unwrap();
    let o = run(&["coverage", "--root", dir, "--quiet"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("src/bad.rs: not UTF-8 text"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn oware_transcripts_refuse_repeated_and_trailing_move_numbers() {
    for (text, at, words) in [
        ("1. C f 2. 2. A a\n", "line 1, column 11", "written twice"),
        ("1. C f\n2.\n2. A a\n", "line 3, column 1", "written twice"),
        ("1. C f 2.\n", "line 1, column 8", "no move after it"),
    ] {
        let o = run(&["oware", "replay", "-"], Some(text));
        assert_eq!(o.status.code(), Some(2), "{text:?}: {}", stdout(&o));
        assert!(
            stderr(&o).contains(at) && stderr(&o).contains(words),
            "{text:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_huge_token_is_quoted_by_its_start_and_length() {
    let huge = "x".repeat(20 << 20);
    let length = format!("({} characters)", 20 << 20);
    let bao_start = stdout(&run(&["bao", "start"], None));
    let oware_start = stdout(&run(&["oware", "start"], None));
    for (args, input) in [
        (&["bao", "replay", "-"][..], format!("1: A6<* {huge};\n")),
        (&["oware", "replay", "-"][..], format!("1. C {huge}\n")),
        (
            &["bao", "moves", "--position", "-"][..],
            bao_start.replace("stores: 22 22", &format!("stores: 22 {huge}")),
        ),
        (
            &["oware", "moves", "--position", "-"][..],
            oware_start.replace("scores: 0 0", &format!("scores: 0 {huge}")),
        ),
    ] {
        let o = run(args, Some(&input));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.len() < 500, "{args:?}: {}", &err[..500.min(err.len())]);
        assert!(err.contains(&length), "{args:?}: {err}");
    }
}

/// `bao cutoffs --csv` writes one row per game and refuses a file that exists (it is a result).
#[test]
fn cutoffs_writes_its_rows_and_never_overwrites_them() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-lab-cutoffs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("c.csv");
    let _ = std::fs::remove_file(&csv);
    let c = csv.to_str().unwrap();
    let o = run(&["bao", "cutoffs", "--games", "30", "--csv", c], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("bao cut-off study: 30 random games"));
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 31);
    assert!(rows.lines().nth(30).unwrap().starts_with("29,"));
    let o = run(&["bao", "cutoffs", "--games", "5", "--csv", c], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("something is there already"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), rows);
    // A diff of no games checks nothing: refused.
    let o = run(&["diff", "--game", "oware", "--games", "0"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A write that fails (the file-size limit, its signal ignored) leaves whole rows only.
    #[cfg(unix)]
    {
        let cut = dir.join("cut.csv");
        let _ = std::fs::remove_file(&cut);
        let o = Command::new("sh")
            .arg("-c")
            .arg("trap '' XFSZ; ulimit -f 1; exec \"$0\" bao cutoffs --games 400 --csv \"$1\"")
            .arg(env!("CARGO_BIN_EXE_mancala-lab"))
            .arg(&cut)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(", whole"), "{}", stderr(&o));
        let rows = std::fs::read_to_string(&cut).unwrap();
        assert!(rows.ends_with('\n') && rows.lines().count() > 2, "{rows}");
        for (i, row) in rows.lines().skip(1).enumerate() {
            assert_eq!(row.split(',').count(), 4, "{row}");
            assert!(row.starts_with(&format!("{i},")), "{row}");
        }
    }
}

#[test]
fn rates_over_no_games_span_the_whole_range() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-no-games-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // No games at all, and a shard that holds none of the job's two games.
    for (name, args) in [
        ("none", &["--games", "0"][..]),
        ("shard", &["--games", "2", "--shard", "1/3"][..]),
    ] {
        let out = dir.join(name);
        let mut all = vec!["stats", "--out", out.to_str().unwrap()];
        all.extend_from_slice(args);
        let o = run(&all, None);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("south_win_rate: none (no games) [0.0000, 1.0000]"),
            "{name}: {}",
            stdout(&o)
        );
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        assert!(summary.contains("\ndraw_rate,,0,1\n"), "{name}: {summary}");
    }
    let o = run(
        &["inconsistencies", "--game", "oware", "--games", "0"],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("| none (no games) | 0.0–1000.0 |"),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("0.0–0.0"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inconsistencies_checks_its_catalog_before_playing() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-update-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bao = dir.join("bao.md");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/spec/findings/bao.md"),
        &bao,
    )
    .unwrap();
    let missing = dir.join("missing.md");
    let unmarked = dir.join("unmarked.md");
    std::fs::write(&unmarked, "# Oware findings\n\nno marker here\n").unwrap();
    // The marker with text after it on its line: an update would lose that text.
    let inline = dir.join("inline.md");
    std::fs::write(
        &inline,
        "# Oware findings\n\nmy text <!-- generated by mancala-lab inconsistencies; do not edit \
         below --> and more\n",
    )
    .unwrap();
    let stdin = std::path::PathBuf::from("-");
    for (path, words) in [
        (&missing, "No such file"),
        (&bao, "not the oware catalog"),
        (&unmarked, "no line '<!-- generated"),
        (&inline, "(alone on its line)"),
        (&dir, "not a regular file"),
        (&stdin, "not standard input or output; name the file"),
    ] {
        let o = run(
            &[
                "inconsistencies",
                "--game",
                "oware",
                "--games",
                "1",
                "--update",
                path.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(2), "{path:?}");
        assert!(stderr(&o).contains(words), "{path:?}: {}", stderr(&o));
        // Refused before any game: no report was printed.
        assert_eq!(stdout(&o), "", "{path:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn diagrams_of_a_finished_game_say_who_won_and_by_which_clause() {
    let bao = "to_move: South\nstores: 0 0\nhouses: lost lost\nb: 0 0 0 0 0 0 0 0\n\
               a: 0 0 0 0 0 0 0 0\nA: 2 0 0 0 0 0 0 0\nB: 0 0 0 0 0 0 0 62\n";
    let o = run(
        &["bao", "diagram", "--position", "-", "--out", "-"],
        Some(bao),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\nThe game is over: South wins (bao 1.2.1) (mtaji stage)\n"),
        "{}",
        &stdout(&o)[..400]
    );
    assert!(!stdout(&o).contains("South to move ("));
    for (position, title) in [
        (
            "to_move: North\nscores: 25 10\nnorth: 1 1 1 1 1 1\nsouth: 1 1 1 1 1 2\n",
            "The game is over: South wins 25-10 (oware O.6.1)",
        ),
        (
            "to_move: North\nscores: 24 24\nnorth: 0 0 0 0 0 0\nsouth: 0 0 0 0 0 0\n",
            "The game is over: a draw, 24-24 (oware O.5.2)",
        ),
    ] {
        let o = run(
            &["oware", "diagram", "--position", "-", "--out", "-"],
            Some(position),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!("\n{title}\n")),
            "{}",
            &stdout(&o)[..400]
        );
        assert!(!stdout(&o).contains("North to move"));
    }
}

#[test]
fn bench_bounds_its_time_and_cleans_up_on_ctrl_c() {
    for seconds in [
        "1e20", "1e-300", "0.02", "NaN", "3601", "1e400", "inf", "0.0000",
    ] {
        let o = run(&["bench", "--seconds", seconds], None);
        assert_eq!(o.status.code(), Some(2), "{seconds}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "--seconds {seconds}: expected a number of seconds"
            )),
            "{seconds}: {}",
            stderr(&o)
        );
    }
    // Ctrl-C (or a termination signal, as a batch scheduler sends) while the stats job writes
    // into the bench's scratch folder: the folder goes.
    for signal in ["-INT", "-TERM"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args(["bench", "--seconds", "0.1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The scratch folder: mancala-lab-bench-PID- and a random suffix.
        let prefix = format!("mancala-lab-bench-{}-", child.id());
        let find = || {
            std::fs::read_dir(std::env::temp_dir())
                .unwrap()
                .flatten()
                .find(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                .map(|e| e.path())
        };
        let mut scratch = std::path::PathBuf::new();
        let mut seen = false;
        while child.try_wait().unwrap().is_none() {
            if let Some(found) = find() {
                scratch = found;
                seen = true;
                let killed = Command::new("kill")
                    .args([signal, &child.id().to_string()])
                    .status()
                    .unwrap();
                assert!(killed.success());
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let o = child.wait_with_output().unwrap();
        assert!(
            seen,
            "the stats job's folder never appeared: {}",
            stdout(&o)
        );
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        assert!(!scratch.exists(), "{} left behind", scratch.display());
        assert!(stderr(&o).contains("bench interrupted"), "{}", stderr(&o));
    }
    // No temporary folder to make one in: the stats line says so, the bench exits 2 and makes
    // no folder.
    let missing = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-lab-no-tmp-{}", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["bench", "--seconds", "0.1"])
        .env("TMPDIR", &missing)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("stats job failed: no scratch folder"),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("a part of the bench failed"),
        "{}",
        stderr(&o)
    );
    assert!(!missing.exists());
}

/// A second Ctrl-C stops a diff at once, but still says where to continue from.
#[test]
fn a_second_ctrl_c_keeps_the_resume_hint() {
    let child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["diff", "--game", "bao", "--games", "100000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let pid = child.id().to_string();
    // Both signals at once: the second lands while the first still winds the run down.
    let killed = Command::new("sh")
        .args(["-c", &format!("kill -INT {pid}; kill -INT {pid}")])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let hint = stderr(&o);
    assert!(
        hint.contains("of 100000000 games; check the rest with --first "),
        "{hint}"
    );
    // The rest: --first K --games 100000000 - K (this run started at game 0).
    let words: Vec<&str> = hint.split_whitespace().collect();
    let after = |flag: &str| -> u64 {
        let at = words.iter().rposition(|w| *w == flag).unwrap();
        words[at + 1].parse().unwrap()
    };
    assert_eq!(after("--first") + after("--games"), 100_000_000, "{hint}");
}

/// Long jobs show their progress on a terminal (run under `script`, which gives them one, where
/// the machine has it).
#[test]
fn long_jobs_show_progress_on_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no `script` here: progress on a terminal not checked");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_mancala-lab");
    for (args, want) in [
        ("inconsistencies --game oware --games 400", "/400 games"),
        ("coverage --game oware --quiet --playouts 400", "/400 games"),
        ("perft --game bao --depth 3 --fast-only", "/"),
    ] {
        let o = Command::new("script")
            .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
            .output()
            .unwrap();
        let shown = String::from_utf8_lossy(&o.stdout);
        let verdict = args.starts_with("coverage") && o.status.code() == Some(1);
        assert!(
            o.status.success() || (mutation_run() && verdict),
            "{args}: {shown}"
        );
        assert!(
            shown.contains(want) && shown.contains('░'),
            "{args}: {shown}"
        );
    }
}

/// The games.csv header of Oware studies, for hand-made plot inputs.
const OWARE_HEADER: &str = "game,variant,policy,plies,winner,end_clause,seeds_captured_south,\
                            seeds_captured_north,score_south,score_north,undefined_cases";

/// `plot` copies a pipe to read it twice: the copy has no name in the temporary folder (nothing
/// can be left behind however plot ends), it stops at 256 MiB, and an input without line breaks
/// is refused at once.
#[test]
fn plot_copies_pipes_within_bounds_and_without_a_trace() {
    let tmp = tempfile::tempdir().unwrap();
    let spool_dir = tmp.path().join("spool");
    std::fs::create_dir(&spool_dir).unwrap();
    let out = tmp.path().join("p.svg");
    let plot = |input: &str| {
        Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
            .args([
                "plot",
                "--out",
                out.to_str().unwrap(),
                &format!("a={input}"),
            ])
            .env("TMPDIR", &spool_dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let row = "0,sheet,random,55,South,O.4.2,23,23,25,23,0\n";
    let spooled = || std::fs::read_dir(&spool_dir).unwrap().count();
    // Killed while it copies: no file there, during the copy or after.
    let mut child = plot("-");
    let mut input = child.stdin.take().unwrap();
    input
        .write_all(format!("{OWARE_HEADER}\n{}", row.repeat(10_000)).as_bytes())
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(spooled(), 0, "a named copy while reading");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(spooled(), 0, "a copy left behind");
    // More than 256 MiB of valid rows: refused, not copied to its end.
    let mut child = plot("-");
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = row.repeat(20_000);
        let mut sent = input
            .write_all(format!("{OWARE_HEADER}\n").as_bytes())
            .is_ok() as u64;
        while sent < 400 << 20 && input.write_all(chunk.as_bytes()).is_ok() {
            sent += chunk.len() as u64;
        }
        sent
    });
    let o = child.wait_with_output().unwrap();
    assert!(writer.join().unwrap() < 400 << 20, "read past the limit");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("standard input: more than 256 MiB"),
        "{}",
        stderr(&o)
    );
    assert_eq!(spooled(), 0);
    // An endless device without line breaks stops at the first line.
    let o = run_within(&["plot", "--out", out.to_str().unwrap(), "a=/dev/zero"], 10);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("/dev/zero: line 1: more than 64 KiB without a line break"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

/// The values of a plot's x-axis ticks (its integer labels) and the x pixel of every point of
/// its lines (the series and their legend samples).
fn plot_x_axis(svg: &str) -> (Vec<u64>, Vec<i64>) {
    let ticks = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| {
            let inner = &t[t.find('>')? + 1..t.find("</text>")?];
            inner.trim().parse().ok()
        })
        .collect();
    let points = svg
        .split("stroke-width=\"2\" points=\"")
        .skip(1)
        .flat_map(|p| {
            p[..p.find('"').unwrap()]
                .split_whitespace()
                .map(|xy| xy.split(',').next().unwrap().parse().unwrap())
                .collect::<Vec<i64>>()
        })
        .collect();
    (ticks, points)
}

/// Values up to u32::MAX, whatever the bin width: the x axis reaches past the largest value and
/// every point is drawn inside the chart (bin edges past 2^32 once wrapped round to small
/// numbers).
#[test]
fn plot_axes_cover_values_up_to_the_largest_u32() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("max.csv");
    std::fs::write(
        &csv,
        format!(
            "{OWARE_HEADER}\n0,sheet,random,4294967295,South,O.4.2,23,23,25,23,0\n\
             1,sheet,random,0,South,O.4.2,23,23,25,23,0\n"
        ),
    )
    .unwrap();
    let run_arg = format!("a={}", csv.display());
    for bin in [None, Some("429497"), Some("2147483648"), Some("4294967295")] {
        let mut args = vec!["plot", "--out", "-", &run_arg];
        if let Some(b) = bin {
            args.extend(["--bin", b]);
        }
        let o = run(&args, None);
        assert!(o.status.success(), "{bin:?}: {}", stderr(&o));
        let (ticks, points) = plot_x_axis(&stdout(&o));
        assert!(ticks.len() >= 2, "{bin:?}: ticks {ticks:?}");
        let step = ticks[1] - ticks[0];
        assert!(
            ticks.windows(2).all(|w| w[1] == w[0] + step),
            "{bin:?}: {ticks:?}"
        );
        // The axis runs past the last tick by less than a step, and so past the largest value.
        assert!(
            ticks[ticks.len() - 1] + step > 4_294_967_295,
            "{bin:?}: ticks {ticks:?} stop short of 4294967295"
        );
        // The chart spans x = 72 (margin 12 + label area 60) to 788 (800 less the margin).
        assert!(points.len() >= 2, "{bin:?}");
        for x in points {
            assert!((72..=788).contains(&x), "{bin:?}: a point at x = {x}");
        }
    }
}

/// A control character is not valid XML: a title, run name or column holding one is refused,
/// naming where it is, and no SVG is written.
#[test]
fn plot_refuses_control_characters_in_its_labels() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("games.csv");
    std::fs::write(&csv, "game,plies\n0,10\n").unwrap();
    let svg = tmp.path().join("p.svg");
    let out = svg.to_str().unwrap();
    let good = format!("a={}", csv.display());
    let bad_run = format!("a\u{1b}b={}", csv.display());
    for (args, words) in [
        (
            vec!["--title", "a\u{1}", &good],
            "--title: character 2 is the control character U+0001",
        ),
        (
            vec![&bad_run],
            "name: character 2 is the control character U+001B",
        ),
        (
            vec!["--column", "pl\ties", &good],
            "--column 'pl\\ties': character 3 is the control character U+0009",
        ),
    ] {
        let mut all = vec!["plot", "--out", out];
        all.extend(args);
        let o = run(&all, None);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        assert!(stderr(&o).contains(words), "{all:?}: {}", stderr(&o));
        assert!(!svg.exists(), "{all:?}");
    }
    // Markup characters are text, escaped: the SVG stays valid.
    let o = run(&["plot", "--title", "a<b & c", "--out", "-", &good], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("a&lt;b &amp; c"), "{}", stdout(&o));
}

/// Each run needs a name (its line in the legend) of its own and a path.
#[test]
fn plot_runs_need_a_name_of_their_own_and_a_path() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("games.csv");
    std::fs::write(&csv, "game,plies\n0,10\n").unwrap();
    let svg = tmp.path().join("p.svg");
    let c = csv.to_str().unwrap();
    let (first, again) = (format!("a={c}"), format!("a={c}"));
    let nameless = format!("={c}");
    for (runs, words) in [
        (vec!["a="], "run 'a=': no path after '='"),
        (vec![&nameless], "no name before '='"),
        (
            vec![first.as_str(), "b=-", &again],
            "the name 'a' is also that of run 1",
        ),
        (vec!["a"], "run 'a': expected NAME=PATH"),
    ] {
        let mut args = vec!["plot", "--out", svg.to_str().unwrap()];
        args.extend(runs);
        let o = run(&args, Some("game,plies\n0,3\n"));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
        assert!(!svg.exists(), "{args:?}");
    }
}

/// `explain --svg` never overwrites its --position file, and a --svg that cannot be written
/// fails, naming --svg, before the trace is printed.
#[test]
fn explain_checks_its_svg_before_printing_the_trace() {
    let tmp = tempfile::tempdir().unwrap();
    for (game, mv) in [("bao", "A6<*"), ("oware", "C")] {
        let pos = tmp.path().join(format!("{game}.txt"));
        let start = stdout(&run(&[game, "start"], None));
        std::fs::write(&pos, &start).unwrap();
        let p = pos.to_str().unwrap();
        let folder = tmp.path().to_str().unwrap();
        let missing = tmp.path().join("no/such/folder/x.svg");
        // The same file through another spelling of its path.
        let same = tmp.path().join(".").join(format!("{game}.txt"));
        for (svg, words) in [
            (p, "--svg "),
            (same.to_str().unwrap(), "that is the --position file"),
            (folder, "--svg "),
            (missing.to_str().unwrap(), "--svg "),
        ] {
            let o = run(&[game, "explain", "--position", p, mv, "--svg", svg], None);
            assert_eq!(o.status.code(), Some(2), "{game} --svg {svg}");
            assert!(stderr(&o).contains(words), "{game} {svg}: {}", stderr(&o));
            assert!(stdout(&o).is_empty(), "{game} {svg}: {}", stdout(&o));
            assert_eq!(
                std::fs::read_to_string(&pos).unwrap(),
                start,
                "{game} {svg}"
            );
        }
        // A file that is not a drawing is never replaced, by --svg or a diagram's --out; an
        // earlier drawing is.
        for (name, text) in [
            ("notes.md", "my notes\n"),
            ("notes.txt", "<svg is what I call my notes\n"),
            (
                "c.xml",
                "<?xml version=\"1.0\"?>\n<config><svg/></config>\n",
            ),
            ("mine.svg", HAND_MADE_SVG),
        ] {
            let notes = tmp.path().join(name);
            std::fs::write(&notes, text).unwrap();
            let n = notes.to_str().unwrap();
            for args in [
                vec![game, "explain", "--position", p, mv, "--svg", n],
                vec![game, "diagram", "--position", p, "--out", n],
            ] {
                let o = run(&args, None);
                assert_eq!(o.status.code(), Some(2), "{args:?}");
                assert!(stderr(&o).contains("not an SVG drawing"), "{}", stderr(&o));
                assert_eq!(std::fs::read_to_string(&notes).unwrap(), text);
            }
        }
        let drawing = tmp.path().join("d.svg");
        let d = drawing.to_str().unwrap();
        for _ in 0..2 {
            let o = run(&[game, "diagram", "--position", p, "--out", d], None);
            assert!(o.status.success(), "{}", stderr(&o));
        }
        // The help says what --svg takes.
        let help = stdout(&run(&[game, "explain", "--help"], None));
        assert!(!help.contains("('-': standard output)"), "{help}");
        assert!(help.contains("(a file, not '-'"), "{help}");
    }
}

/// `inconsistencies --update` leaves a user's `PATH.tmp` alone, and through a symbolic link
/// updates the file linked to, keeping the link.
#[cfg(unix)]
#[test]
fn inconsistencies_update_keeps_other_files_and_follows_links() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real");
    std::fs::create_dir(&real).unwrap();
    let catalog = real.join("oware.md");
    let original = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/spec/findings/oware.md"
    ))
    .unwrap();
    std::fs::write(&catalog, &original).unwrap();
    let link = tmp.path().join("oware.md");
    std::os::unix::fs::symlink("real/oware.md", &link).unwrap();
    let theirs = tmp.path().join("oware.md.tmp");
    std::fs::write(&theirs, "a user's file").unwrap();
    let o = run(
        &[
            "inconsistencies",
            "--game",
            "oware",
            "--games",
            "3",
            "--update",
            link.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "a user's file");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let updated = std::fs::read_to_string(&catalog).unwrap();
    assert_ne!(updated, original);
    assert!(updated.ends_with(&stdout(&o)), "{updated}");
    // Nothing else was left in either folder.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 3);
    assert_eq!(std::fs::read_dir(&real).unwrap().count(), 1);
    // A catalog saved with a byte-order mark and CRLF line ends is the catalog; the update
    // writes it with plain line ends throughout, the same text.
    let windows = tmp.path().join("windows.md");
    let text = format!("\u{feff}{}", original.replace('\n', "\r\n"));
    std::fs::write(&windows, text).unwrap();
    let o = run(
        &[
            "inconsistencies",
            "--game",
            "oware",
            "--games",
            "3",
            "--update",
            windows.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&windows).unwrap(), updated);
}

/// A move after the end of an Oware game is refused because the game is over, with the clause
/// that ended it, whichever side's letter it is (the other side's letter was refused as "North
/// is to move").
#[test]
fn oware_replay_past_the_end_says_the_game_is_over() {
    use mancala_lab::oware::notation::print_transcript;
    use mancala_lab::oware::{Rules, Variant};
    let rules = Rules::new(Variant::SHEET);
    let mut g = rules.new_game();
    let mut moves = Vec::new();
    // A fixed walk through the legal moves, to the end of the game.
    while g.outcome().is_none() {
        assert!(moves.len() < 100_000, "no end");
        let legal = rules.legal_moves(&g);
        let mv = legal[(moves.len() * 7 + 3) % legal.len()];
        moves.push((g.position().to_move(), mv));
        g = rules.play(&g, mv).unwrap().game;
    }
    let clause = g.outcome().unwrap().clause;
    let ply = moves.len() + 1;
    let transcript = print_transcript(&moves);
    for extra in ["A", "a"] {
        let o = run(
            &["oware", "replay", "-"],
            Some(&format!("{transcript}{extra}\n")),
        );
        assert_eq!(o.status.code(), Some(2), "{extra}: {}", stderr(&o));
        let want = format!("ply {ply} '{extra}' is illegal: the game is over (oware {clause})");
        assert!(stderr(&o).contains(&want), "{extra}: {}", stderr(&o));
    }
    // Without the extra move the transcript replays to the end.
    let o = run(&["oware", "replay", "-"], Some(&transcript));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("(oware {clause})")),
        "{}",
        stdout(&o)
    );
}

/// `oware replay` reads its transcript as it plays: memory stays near the input's size (the
/// whole move list took 13 times that), and the first illegal move ends the replay.
#[cfg(target_os = "linux")]
#[test]
fn oware_replay_stops_at_the_first_illegal_move_within_the_input_size() {
    let tmp = tempfile::tempdir().unwrap();
    let big = tmp.path().join("big.txt");
    // 40 MB of South's moves: the second is illegal (North is to move).
    std::fs::write(&big, "C ".repeat(20_000_000)).unwrap();
    // At most 250 MB of address space: the input, the program and some room, not 13 copies.
    let o = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 250000; exec \"$0\" oware replay \"$1\"",
            env!("CARGO_BIN_EXE_mancala-lab"),
            big.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 1, column 3: ply 2 'C': North is to move"),
        "{}",
        stderr(&o)
    );
    // A fault in the text after an illegal move is not reached.
    let o = run(&["oware", "replay", "-"], Some("1. C C\n2. ???\n"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ply 2 'C'"), "{}", stderr(&o));
}

/// A huge option value or path is cut in the error message (its start and its length), never
/// repeated whole.
#[test]
fn huge_option_values_and_paths_are_cut_in_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("games.csv");
    std::fs::write(&csv, "game,plies\n0,10\n").unwrap();
    let run_arg = format!("a={}", csv.display());
    let long = "x".repeat(100_000);
    let missing = format!("/nonexistent/{long}");
    let svg = tmp.path().join("p.svg");
    let svg = svg.to_str().unwrap();
    let start = "tests/examples/bao-start.txt";
    for args in [
        vec!["stats", "--shard", &long],
        vec!["stats", "--games", "1", "--out", &missing],
        vec!["stats", "--variant", &long],
        vec!["stats", "--game", "oware", "--variant", &long],
        vec!["plot", "--column", &long, "--out", svg, &run_arg],
        vec!["bao", "moves", "--position", &missing],
        vec!["oware", "moves", "--position", &missing],
        vec!["oware", "replay", &missing],
        vec!["bao", "diagram", "--position", start, "--out", &missing],
        vec![
            "bao",
            "explain",
            "--position",
            start,
            "A6<*",
            "--svg",
            &missing,
        ],
    ] {
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{}", &args[..2].join(" "));
        let err = stderr(&o);
        assert!(
            err.len() < 1_000,
            "{}: {} bytes: {}",
            args[..2].join(" "),
            err.len(),
            &err[..300]
        );
        assert!(
            err.contains("characters)"),
            "{}: {err}",
            args[..2].join(" ")
        );
    }
}

/// File names are paths, not text: a name that is not UTF-8 works, and a file that cannot be read
/// is named with the option that named it.
#[test]
fn file_names_need_not_be_utf8_and_unreadable_ones_name_their_option() {
    use std::os::unix::ffi::OsStrExt;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let odd = dir.join(std::ffi::OsStr::from_bytes(b"pos\xff.txt"));
    let bin = env!("CARGO_BIN_EXE_mancala-lab");
    for (game, first) in [("bao", "A6<*"), ("oware", "A")] {
        let start = Command::new(bin).args([game, "start"]).output().unwrap();
        std::fs::write(&odd, &start.stdout).unwrap();
        let o = Command::new(bin)
            .args([game, "moves", "--position"])
            .arg(&odd)
            .output()
            .unwrap();
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        assert_eq!(stdout(&o).lines().next(), Some(first), "{game}");
        let o = Command::new(bin)
            .args(["perft", "--game", game, "--depth", "1", "--position"])
            .arg(&odd)
            .output()
            .unwrap();
        assert!(o.status.success(), "{game} perft: {}", stderr(&o));
        let o = Command::new(bin)
            .args([game, "moves", "--position"])
            .arg(dir.join("missing.txt"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("--position "), "{}", stderr(&o));
    }
    // plot's runs are NAME=PATH: the path any bytes, the name (the legend's) UTF-8 text.
    let csv = dir.join(std::ffi::OsStr::from_bytes(b"games\xff.csv"));
    std::fs::write(&csv, "game,plies\n0,10\n1,20\n").unwrap();
    let mut run = std::ffi::OsString::from("a=");
    run.push(&csv);
    let o = Command::new(bin)
        .args(["plot", "--out", "-"])
        .arg(&run)
        .output()
        .unwrap();
    assert!(o.status.success(), "plot: {}", stderr(&o));
    assert!(stdout(&o).starts_with("<svg"), "{}", stdout(&o));
    let o = Command::new(bin)
        .args(["plot", "--out", "-"])
        .arg(std::ffi::OsStr::from_bytes(b"a\xff=x.csv"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the name is not UTF-8 text"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A copy of the project's spec/ and of the Rust files of src/ and tests/ under `to`: a project
/// the main job can be run in, outside this one.
fn copy_project(to: &std::path::Path) {
    fn copy(from: &std::path::Path, to: &std::path::Path, all: bool) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let (path, kind) = (entry.path(), entry.file_type().unwrap());
            if kind.is_dir() {
                copy(&path, &to.join(entry.file_name()), all);
            } else if kind.is_file() && (all || path.extension().is_some_and(|e| e == "rs")) {
                std::fs::copy(&path, to.join(entry.file_name())).unwrap();
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    copy(&root.join("spec"), &to.join("spec"), true);
    copy(&root.join("src"), &to.join("src"), false);
    copy(&root.join("tests"), &to.join("tests"), false);
}

/// The main job writes its default study to the project's out/bao and out/oware, from wherever
/// in the project it is run, and never over another study a user left there.
#[test]
fn the_main_job_keeps_another_study_in_its_folder() {
    // A project outside this one: run inside this one, the job would find this one's spec/.
    let dir = std::env::temp_dir().join(format!("mancala-main-job-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_project(&dir);
    let bin = env!("CARGO_BIN_EXE_mancala-lab");
    let mine = Command::new(bin)
        .args(["stats", "--games", "50", "--seed", "7", "--out", "out/bao"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(mine.status.success(), "{}", stderr(&mine));
    let before = std::fs::read(dir.join("out/bao/games.csv")).unwrap();
    for cwd in [dir.clone(), dir.join("src/bao")] {
        let o = Command::new(bin).current_dir(&cwd).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("holds another study"), "{}", stderr(&o));
        assert_eq!(
            std::fs::read(dir.join("out/bao/games.csv")).unwrap(),
            before
        );
    }
    // Run from src/bao, the job wrote its report to the project's out/, none there.
    assert!(dir.join("out/coverage/bao.html").is_file());
    assert!(!dir.join("src/bao/out").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The main job whose standard output closes after its first line (`| head -1`) plays all three
/// studies to their end, stops printing, and exits with 141 and a note on standard error.
#[test]
fn the_main_job_plays_every_study_after_its_output_closes() {
    let dir = std::env::temp_dir().join(format!("mancala-main-closed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_project(&dir);
    let (line, code, err) = closed::first_line_only(&dir, &[]);
    assert!(line.starts_with("clause coverage: "), "{line}");
    // In a mutation run the copy's annotations may be deleted (the canary): the coverage gate
    // then fails the job (exit 1), which plays its studies all the same.
    let gate_failed = mutation_run() && code == Some(1);
    assert!(code == Some(141) || gate_failed, "{err}");
    assert!(err.contains(closed::NOTE), "{err}");
    // Each study whole: the summary is written once its games are.
    for game in ["bao", "oware", "kalah"] {
        let summary = dir.join("out").join(game).join("summary.csv");
        assert!(summary.is_file(), "{game}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Outputs never land on their inputs, whatever path names them (a hard link included); `-` is
/// standard output only where standard output is free; `--mutants` names what a folder lacks.
#[test]
fn outputs_never_overwrite_inputs_by_another_name() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-hardlinks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_mancala-lab");
    let start = Command::new(bin).args(["bao", "start"]).output().unwrap();
    let (p, linked) = (dir.join("p.txt"), dir.join("linked.txt"));
    std::fs::write(&p, &start.stdout).unwrap();
    std::fs::hard_link(&p, &linked).unwrap();
    let o = Command::new(bin)
        .args(["bao", "explain", "--position"])
        .arg(&p)
        .arg("A6<*")
        .arg("--svg")
        .arg(&linked)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&p).unwrap(), start.stdout);
    let csv = dir.join("g.csv");
    std::fs::write(&csv, "game,plies\n0,3\n").unwrap();
    let svg = dir.join("g.svg");
    std::fs::hard_link(&csv, &svg).unwrap();
    let o = Command::new(bin)
        .args(["plot", "--out"])
        .arg(&svg)
        .arg(format!("a={}", csv.display()))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("that is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "game,plies\n0,3\n");
    let o = run(&["bao", "cutoffs", "--games", "2", "--csv", "-"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = Command::new(bin)
        .args(["coverage", "--mutants"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no mutants.out/outcomes.json"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A refused option value of 100 kB is cut in clap's own message too.
#[test]
fn clap_errors_cut_huge_values() {
    let huge = "9".repeat(100_000) + "x";
    for args in [
        vec!["diff", "--game", "oware", "--games", &huge],
        vec!["stats", "--game", &huge],
        vec!["bench", "--seconds", &huge],
    ] {
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{:?}", &args[..2]);
        let said = stderr(&o);
        assert!(said.len() < 2_000, "{:?}: {} bytes", &args[..2], said.len());
        assert!(said.contains("(100003 characters)"), "{said}");
    }
}

/// Outputs are regular files: a device, or a stream of the process such as `/dev/stdout` (which
/// leads to the file the shell redirected to), is refused rather than replaced; an output that is
/// the standard input a `-` input reads is refused too.
#[test]
fn outputs_never_replace_devices_streams_or_the_input_read_from_stdin() {
    let bin = env!("CARGO_BIN_EXE_mancala-lab");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-streams-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("log.txt");
    std::fs::write(&log, "keep\n").unwrap();
    let o = Command::new(bin)
        .args([
            "bao",
            "diagram",
            "--position",
            "tests/examples/bao-start.txt",
        ])
        .args(["--out", "/dev/stdout"])
        .stdout(std::fs::OpenOptions::new().append(true).open(&log).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "keep\n");

    // plot --out FILE a=- < FILE: the input is the output.
    let csv = dir.join("in.csv");
    std::fs::write(&csv, "game,plies\n0,10\n").unwrap();
    let o = Command::new(bin)
        .args(["plot", "--out"])
        .arg(&csv)
        .arg("a=-")
        .stdin(std::fs::File::open(&csv).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "game,plies\n0,10\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A standard error or output that cannot be written is no panic: the error message is dropped
/// (exit 2 for the refused move), and `--help` to a full disk is a failure, not a success.
#[test]
fn a_full_stderr_or_stdout_is_no_panic() {
    let bin = env!("CARGO_BIN_EXE_mancala-lab");
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let o = Command::new(bin)
        .args([
            "bao",
            "play",
            "--position",
            "tests/examples/bao-start.txt",
            "zz",
        ])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = Command::new(bin)
        .arg("--help")
        .stdout(full())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// Options may follow the moves of `bao play`, as they may for `oware play`.
#[test]
fn bao_play_takes_options_after_the_moves() {
    let o = run(
        &[
            "bao",
            "play",
            "--position",
            "tests/examples/bao-start.txt",
            "A6<*",
            "--variant",
            "engines",
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `audit` refuses a record file given twice (its games would count twice).
#[test]
fn audit_refuses_a_file_given_twice() {
    let o = run(
        &[
            "audit",
            "--format",
            "openspiel",
            "--out",
            "/nonexistent-audit",
            "tests/data/openspiel_oware_1000.txt",
            "./tests/data/openspiel_oware_1000.txt",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("are the same file"), "{}", stderr(&o));
}

/// `coverage --record` names its own option in its errors.
#[test]
fn coverage_record_errors_name_record() {
    let o = run(&["coverage", "--record", "/nonexistent-run"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--record /nonexistent-run"),
        "{}",
        stderr(&o)
    );
}

/// `bao cutoffs` needs a game and cut-offs of at least one seed.
#[test]
fn cutoffs_refuse_zero_games_and_zero_limits() {
    for args in [
        ["bao", "cutoffs", "--games", "0"].as_slice(),
        ["bao", "cutoffs", "--games", "1", "--limits", "5,0"].as_slice(),
    ] {
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("0 is not in 1.."), "{}", stderr(&o));
    }
}

/// A negative number given to an option that takes a whole number is named with the option and
/// the numbers it takes (clap's own error calls `-5` an unexpected argument, or `=-5` an invalid
/// digit): 1 or more where the command refuses 0 (perft's depth, --threads from 1 to 64, a stats
/// game's ply limit), 0 or more where it takes 0 (an empty stats job, solve's level 0), and no
/// bound where the rest of the line is refused either way (a match without players).
#[test]
fn a_negative_number_is_named_with_its_option() {
    for (args, says) in [
        (
            &["stats", "--games", "-5"][..],
            "--games -5: a negative number; --games takes a whole number 0 or more",
        ),
        (
            &["stats", "--games=-5"],
            "--games -5: a negative number; --games takes a whole number 0 or more",
        ),
        (
            &["solve", "--seeds", "-1"],
            "--seeds -1: a negative number; --seeds takes a whole number 0 or more",
        ),
        (
            &["solve", "--game", "kalah", "--seeds=-1"],
            "--seeds -1: a negative number; --seeds takes a whole number 0 or more",
        ),
        (
            &["perft", "--depth", "-2"],
            "--depth -2: a negative number; --depth takes a whole number 1 or more",
        ),
        (
            &["perft", "--game", "oware", "--depth", "-2"],
            "--depth -2: a negative number; --depth takes a whole number 1 or more",
        ),
        (
            &["stats", "--threads", "-1"],
            "--threads -1: a negative number; --threads takes a whole number 1 or more",
        ),
        (
            &["stats", "--max-plies", "-1"],
            "--max-plies -1: a negative number; --max-plies takes a whole number 1 or more",
        ),
        (
            &["--parse-only", "stats", "--opening", "-3"],
            "--opening -3: a negative number; --opening takes a whole number 0 or more",
        ),
        (
            &["match", "--games", "-3"],
            "--games -3: a negative number; --games takes a whole number, not a negative one",
        ),
    ] {
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), format!("mancala-lab: {says}\n"), "{args:?}");
    }
    // A value that is not a number, or a negative one for an option that takes negative ones
    // (solve's --guess, -128 to 127), is clap's to name.
    let o = run(&["stats", "--games", "-x"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("a negative number"), "{}", stderr(&o));
    let guess = ["--parse-only", "solve", "--game", "kalah", "--guess"];
    let o = run(&[&guess[..], &["-3"]].concat(), None);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&[&guess[..], &["-300"]].concat(), None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("-300 is not in -128..=127"),
        "{}",
        stderr(&o)
    );
}

/// An argument that is not UTF-8 text is named with its option (clap's own error names none).
#[test]
fn a_value_that_is_not_utf8_is_named_with_its_option() {
    use std::os::unix::ffi::OsStrExt;
    let o = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["stats", "--variant"])
        .arg(std::ffi::OsStr::from_bytes(b"x\xff"))
        .args(["--out", "/nonexistent-utf8"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--variant $'x\\xFF': the value is not UTF-8 text"),
        "{}",
        stderr(&o)
    );
}

/// A closed standard output is refused (nothing would be printed), `> /dev/null` is not.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_is_refused() {
    let sh = |redirect: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" bao start {redirect}"))
            .arg(env!("CARGO_BIN_EXE_mancala-lab"))
            .output()
            .unwrap()
    };
    let o = sh(">&-");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("standard output is closed"),
        "{}",
        stderr(&o)
    );
    let o = sh("> /dev/null");
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Small things a message must get right: standard input named as such, a missing folder
/// called missing, no study folder named `-`, no report folder under /dev.
#[test]
fn messages_name_standard_input_and_missing_folders() {
    let o = run(&["bao", "moves", "--position", "-"], Some("to_move: x\n"));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("standard input: line 1, column 10"),
        "{}",
        stderr(&o)
    );
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("missing").join("d.svg");
    let o = run(
        &[
            "bao",
            "diagram",
            "--position",
            "tests/examples/bao-start.txt",
            "--out",
            svg.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("No such file or directory"),
        "{}",
        stderr(&o)
    );
    for args in [
        &["stats", "--games", "1", "--out", "-"][..],
        &["stats", "merge", "--out", "-", "a", "b"][..],
    ] {
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("a study is a folder of files"),
            "{}",
            stderr(&o)
        );
    }
    assert!(!std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("-")
        .exists());
    // A report under /dev is refused before any folder is made.
    let shm = format!("/dev/shm/mancala-lab-report-{}/deep", std::process::id());
    let o = run(&["coverage", "--game", "bao", "--html", &shm], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!std::path::Path::new(&shm).parent().unwrap().exists());
}

/// One Ctrl-C (or termination signal) stops a job whose games search deeply within seconds, not
/// when the games under way end: the searches give up, their games are dropped and left for
/// `--resume`, whatever the engine.
#[test]
fn one_ctrl_c_stops_a_search_under_way() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-search-stop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let jobs: [&[&str]; 4] = [
        // Depth 40 takes hours a move; so does a million-simulation tree on the reference engine.
        &[
            "stats",
            "--game",
            "oware",
            "--policy",
            "alphabeta:depth=40",
            "--games",
            "3",
        ],
        &[
            "stats",
            "--game",
            "bao",
            "--engine",
            "reference",
            "--policy",
            "mcts:sims=100000",
            "--games",
            "3",
        ],
        &[
            "diff",
            "--game",
            "bao",
            "--rows",
            "--policy",
            "alphabeta:depth=40",
            "--games",
            "3",
        ],
        // Every node of Bao's reference engine checks its moves for infinite ones: seconds
        // between the nodes that once looked at the flag.
        &[
            "stats",
            "--game",
            "bao",
            "--engine",
            "reference",
            "--policy",
            "alphabeta:depth=12",
            "--games",
            "3",
        ],
    ];
    for (job, signal) in jobs.iter().zip(["-INT", "-TERM", "-INT", "-TERM"]) {
        let _ = std::fs::remove_dir_all(&dir);
        let mut args = job.to_vec();
        if args[0] == "stats" {
            args.extend(["--out", out]);
        }
        let o = signalled(
            Command::new(env!("CARGO_BIN_EXE_mancala-lab")).args(&args),
            signal,
        );
        assert_eq!(o.status.code(), Some(130), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("interrupted after 0 of 3 games"),
            "{args:?}: {}",
            stderr(&o)
        );
        if args[0] == "stats" {
            // Only the header: no row of a game given up.
            let rows = std::fs::read_to_string(dir.join("games.csv")).unwrap();
            assert_eq!(rows.lines().count(), 1, "{rows}");
        } else {
            assert!(stdout(&o).contains(": 0 games"), "{}", stdout(&o));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--resume --force` asks for two opposite things (finish the study, replace it): refused
/// rather than one silently ignored.
#[test]
fn resume_and_force_are_refused_together() {
    let o = run(
        &["stats", "--resume", "--force", "--out", "/nonexistent/x"],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("'--resume' cannot be used with '--force'"),
        "{}",
        stderr(&o)
    );
}

/// What the sixth hostile sweep found, each refused with a message that names what was given:
/// a control character in an argument (which clap would drop from the value it repeats), a
/// symbolic link to a missing folder as `--out`, a ply limit past the largest.
#[test]
fn hostile_arguments_are_named_as_given() {
    let o = run(&["stats", "--policy", "mc\u{1b}[2Jts"], None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim_end(),
        "mancala-lab: --policy 'mc\\u{1b}[2Jts': holds a control character"
    );
    let o = run(&["diff", "--game", "bao", "--games", "1\u{7}"], None);
    assert!(stderr(&o).contains("--games '1\\u{7}'"), "{}", stderr(&o));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-dangling-{}", std::process::id()));
    let link = dir.join("out");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(dir.join("missing"), &link).unwrap();
    let o = run(
        &["stats", "--games", "2", "--out", link.to_str().unwrap()],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a symbolic link to a folder that does not exist"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("missing").exists());
    let _ = std::fs::remove_dir_all(&dir);
    let o = run(
        &[
            "diff",
            "--game",
            "bao",
            "--max-plies",
            "18446744073709551615",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--max-plies 18446744073709551615: at most 4294967295 plies"),
        "{}",
        stderr(&o)
    );
}

/// A transcript read from standard input is named so in its errors, as every other input is.
#[test]
fn replays_name_standard_input() {
    for (game, text) in [("oware", "1. C f 3. A a\n"), ("bao", "x\n")] {
        let o = run(&[game, "replay", "-"], Some(text));
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).starts_with("mancala-lab: standard input: line 1, column "),
            "{game}: {}",
            stderr(&o)
        );
    }
}

/// A user's own drawing: a whole SVG document, not made by this tool.
const HAND_MADE_SVG: &str = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">\
                             <!-- my hand-made drawing --></svg>\n";

/// What the ninth hostile sweep found: plot never replaces a file that is not a plot (a study's
/// games.csv or manifest, a note), though it replaces an earlier plot; `diff --max-plies 0`
/// compares nothing, so it is refused.
#[test]
fn plot_replaces_only_plots_and_diff_needs_plies() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-plot-keep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("a.csv");
    std::fs::write(&data, "game,plies\n0,5\n1,7\n").unwrap();
    let note = dir.join("note.txt");
    std::fs::write(&note, "precious\n").unwrap();
    let run_plot = |out: &std::path::Path| {
        let a = format!("a={}", data.display());
        run(&["plot", "--out", out.to_str().unwrap(), &a], None)
    };
    let o = run_plot(&note);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not an SVG drawing"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&note).unwrap(), "precious\n");
    // A drawing of the user's own, though a whole SVG document, is not a plot either.
    let mine = dir.join("mine.svg");
    std::fs::write(&mine, HAND_MADE_SVG).unwrap();
    let o = run_plot(&mine);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not an SVG drawing this tool made"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), HAND_MADE_SVG);
    let svg = dir.join("p.svg");
    assert!(run_plot(&svg).status.success());
    assert!(
        run_plot(&svg).status.success(),
        "an earlier plot is replaced"
    );
    let _ = std::fs::remove_dir_all(&dir);
    for extra in [
        &[][..],
        &["--rows"][..],
        &["--game", "oware", "--batch"][..],
    ] {
        let mut args = vec!["diff", "--games", "3", "--max-plies", "0"];
        if !extra.contains(&"--game") {
            args.extend(["--game", "bao"]);
        }
        args.extend(extra);
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("--max-plies 0"), "{}", stderr(&o));
    }
}

/// The jobs that write only at their end (`inconsistencies`, `coverage --playouts`) stop on a
/// termination signal as on Ctrl-C: exit 130, saying nothing was written; the catalog is whole.
#[test]
fn jobs_writing_at_their_end_stop_on_a_signal() {
    let tmp = tempfile::tempdir().unwrap();
    let catalog = tmp.path().join("bao.md");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("spec/findings/bao.md"), &catalog).unwrap();
    let before = std::fs::read(&catalog).unwrap();
    let update = catalog.to_str().unwrap();
    let jobs: [&[&str]; 2] = [
        &[
            "inconsistencies",
            "--game",
            "bao",
            "--games",
            "100000000",
            "--update",
            update,
        ],
        &["coverage", "--quiet", "--playouts", "100000000"],
    ];
    for (args, signal) in jobs.into_iter().zip(["-TERM", "-INT"]) {
        let o = signalled(
            Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
                .args(args)
                .current_dir(root),
            signal,
        );
        assert_eq!(o.status.code(), Some(130), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("of 100000000 games; nothing written"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
    assert_eq!(std::fs::read(&catalog).unwrap(), before);
}

/// The output of `command`, sent `signal` (`-INT`, `-TERM`) 1.5 s after it started; fails the
/// test if it still runs 60 s later.
fn signalled(command: &mut Command, signal: &str) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() > 60 {
            child.kill().unwrap();
            panic!("{command:?} still running 60 s after one {signal}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// plot checks --out again once its inputs are read: a file that came there while it waited on
/// standard input is kept.
#[test]
fn a_file_that_comes_while_plot_reads_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("race.svg");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["plot", "--out"])
        .arg(&out)
        .arg("x=-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::write(&out, "my thesis draft\n").unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"game,plies\n0,5\n1,7\n").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not an SVG drawing"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "my thesis draft\n");
}

/// A file with old Mac line ends (CR alone) is refused at its first CR, line and column: read
/// as one line, its comments and header values would run to the end of the file and swallow
/// moves without a word.
#[test]
fn carriage_returns_that_end_no_line_are_refused() {
    for (args, text, at) in [
        (
            &["bao", "replay", "-"][..],
            "1: A6<* a6<;\r2: A4< a6<;\r",
            "line 1, column 13",
        ),
        (
            &["bao", "replay", "-"],
            "Event: x\r1: A6<* a6<;\r",
            "line 1, column 9",
        ),
        (
            &["oware", "replay", "-"],
            "1. C f ; first pair\r2. A a\r",
            "line 1, column 20",
        ),
        (
            &["oware", "replay", "-"],
            "1. C f\n2. A a\r3. B b\n",
            "line 2, column 7",
        ),
        (
            &["bao", "moves", "--position", "-"],
            "to_move: South\rstores: 22 22\r",
            "line 1, column 15",
        ),
        (
            &["oware", "moves", "--position", "-"],
            "to_move: South\rscores: 0 0\r",
            "line 1, column 15",
        ),
        // A comment before a lone CR would swallow the optional kutakatia line: perft would
        // count the moves of another position.
        (
            &["perft", "--game", "bao", "--depth", "1", "--position", "-"],
            "to_move: South\nstores: 22 22\nhouses: owned owned\nb: 0 0 0 0 0 0 0 0\n\
             a: 0 2 2 6 0 0 0 0\nA: 0 0 0 0 6 2 2 0\nB: 0 0 0 0 0 0 0 0 # back\rkutakatia: A6\n",
            "line 7, column 26",
        ),
        (
            &[
                "perft",
                "--game",
                "oware",
                "--depth",
                "1",
                "--position",
                "-",
            ],
            "to_move: South # x\rscores: 0 0\n",
            "line 1, column 19",
        ),
    ] {
        let o = run(args, Some(text));
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?} {text:?}: {}",
            stderr(&o)
        );
        assert!(
            stderr(&o).contains(at) && stderr(&o).contains("a carriage return that ends no line"),
            "{args:?} {text:?}: {}",
            stderr(&o)
        );
    }
    // The other characters other programs take for a line break: the same.
    for (args, text, at) in [
        (&["oware", "replay", "-"][..], "C f ; opening\u{2028}A a\n", "line 1, column 14: a line separator (U+2028)"),
        (&["bao", "replay", "-"], "1: A6<* a6<; note\u{2029}2: A4< a6<;\n", "line 1, column 18: a paragraph separator (U+2029)"),
        (&["oware", "replay", "-"], "C f ; x\u{85}A a\n", "line 1, column 8: a next-line character (U+0085)"),
        (&["oware", "replay", "-"], "C f ; x\u{0c}A a\n", "line 1, column 8: a form feed"),
        (&["oware", "replay", "-"], "C f ; x\u{0b}A a\n", "line 1, column 8: a vertical tab"),
        (&["oware", "replay", "-"], "C f ; x\u{1e}A a\n", "line 1, column 8: a record separator (U+001E)"),
        (
            &["bao", "moves", "--position", "-"],
            "to_move: South\nstores: 22 22\nhouses: owned owned\nb: 0 0 0 0 0 0 0 0\n\
             a: 0 2 2 6 0 0 0 0\nA: 0 0 0 0 6 2 2 0\nB: 0 0 0 0 0 0 0 0 # back\u{2029}kutakatia: A6\n",
            "line 7, column 26: a paragraph separator (U+2029) that ends no line",
        ),
    ] {
        let o = run(args, Some(text));
        assert_eq!(o.status.code(), Some(2), "{args:?} {text:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(at), "{args:?} {text:?}: {}", stderr(&o));
    }
    // CRLF line ends are line ends.
    let o = run(
        &["oware", "replay", "-"],
        Some("1. C f ; first pair\r\n2. A a\r\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `coverage --playouts` says "fired" only of the events the engines count: a clause they report
/// no event for is "not counted" (O.1, the start position, holds in every game), and an event no
/// position can fire under the reading gives its reason (O.5.2, 24 each).
#[test]
fn coverage_playouts_tells_not_counted_and_cannot_fire_from_zero() {
    let o = run(&["coverage", "--game", "oware", "--playouts", "30"], None);
    let out = stdout(&o);
    let fired = |clause: &str| -> String {
        let block = out
            .split(&format!("oware {clause} ["))
            .nth(1)
            .unwrap_or_else(|| panic!("no {clause} in {out}"));
        let line = block
            .lines()
            .find(|l| l.trim_start().starts_with("fired in playouts:"))
            .unwrap_or_else(|| panic!("no fired line for {clause}"));
        line.trim().to_string()
    };
    assert!(fired("O.1").contains("not counted"), "{}", fired("O.1"));
    assert!(fired("O.5.2").starts_with("fired in playouts: 0, and it cannot fire: "));
    let sowings: u64 = fired("O.2.3")
        .trim_start_matches("fired in playouts: ")
        .parse()
        .unwrap();
    assert!(sowings >= 30, "{sowings}");
}

/// A net learned elsewhere plays in `match` like any policy (its file's slashes kept apart from
/// the pairings' South/North), and a net of another game is refused before any game.
#[test]
fn a_net_file_plays_in_a_match_and_another_game_s_net_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let net = tmp.path().join("kalah-net.json");
    // One linear layer: pit F scores highest, then E, and so on.
    let file = serde_json::json!({
        "format": "mancala-lab net 1", "game": "kalah",
        "layers": [{"weights": vec![vec![0.0; 15]; 6], "bias": [0, 1, 2, 3, 4, 5],
                    "activation": "linear"}],
    });
    std::fs::write(&net, file.to_string()).unwrap();
    let policy = format!("net:file={}", net.display());
    let out = tmp.path().join("match");
    let o = run(
        &[
            "match",
            "--game",
            "kalah",
            "--players",
            &policy,
            "random",
            "--games",
            "20",
            "--out",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().filter(|l| l.starts_with(&policy)).count(), 20);
    let o = run(
        &[
            "stats",
            "--game",
            "oware",
            "--policy",
            &policy,
            "--games",
            "5",
            "--out",
            tmp.path().join("s").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("was learned on kalah: it does not play oware"),
        "{}",
        stderr(&o)
    );
}
