//! The `perfect` policy and `solve --judge`, against a plain minimax over every line of the
//! reference engine (Kalah, whose play cannot go round in circles): no database, no solver code.

use std::path::PathBuf;
use std::process::Command;

use mancala_lab::game::{game_keys, Draw, Game};
use mancala_lab::kalah;
use mancala_lab::policy::judge::{judge, Sample};
use mancala_lab::policy::{choose, Policy, Scratch};
use mancala_lab::side::Side;
use mancala_lab::solve::{level_file, Board, Ranks};

const READING: &str = "empty-capture:pits=3";
const SEEDS: u32 = 7;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
}

/// A fresh folder for this test binary.
fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-lab-perfect-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// South's final margin from `s` with both sides playing their best, every line to its end.
fn minimax<G: Game>(game: &G, s: &G::State) -> i32 {
    if game.ending(s).is_some() {
        let [south, north] = game.scores(s);
        return south as i32 - north as i32;
    }
    let mut moves = Vec::new();
    game.legal_moves(s, &mut moves);
    let values = moves
        .iter()
        .map(|&mv| minimax(game, &game.play(s, mv).unwrap().state));
    if game.to_move(s) == Side::South {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Every board of `seeds` seeds whose mover (South) has two moves or more, with the minimax value
/// of each move.
fn boards_with_a_choice<G: Game>(game: &G, seeds: u32) -> Vec<(Board, Vec<(u8, i32)>)> {
    let ranks = Ranks::new(6, seeds);
    let mut out = Vec::new();
    for rank in 0..ranks.count(seeds) {
        let board = ranks.unrank(rank, seeds);
        let s = game.board_state(&board).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&s, &mut moves);
        if game.ending(&s).is_some() || moves.len() < 2 {
            continue;
        }
        let values = moves
            .iter()
            .map(|&mv| {
                let after = game.play(&s, mv).unwrap().state;
                (game.move_code(mv), minimax(game, &after))
            })
            .collect();
        out.push((board, values));
    }
    out
}

/// The perfect policy, on `game`, plays a move of the best value of `boards`' on each.
fn plays_best<G: Game>(game: &G, boards: &[(Board, Vec<(u8, i32)>)]) {
    let perfect: Policy = "perfect".parse().unwrap();
    for (k, (board, values)) in boards.iter().enumerate() {
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let mut s = game.board_state(board).unwrap();
        assert_eq!(game.board(&s).as_ref(), Some(board));
        let mut scratch = Scratch::default();
        let draw = Draw::new(game_keys(1, k as u64), 0);
        let (mv, _) = choose(game, perfect, &mut s, draw, &mut scratch)
            .unwrap()
            .unwrap();
        let played = values
            .iter()
            .find(|&&(p, _)| p == game.move_code(mv))
            .unwrap();
        assert_eq!(played.1, best, "board {:?}: moves {values:?}", &board[..6]);
        assert!(scratch.report(perfect).unwrap().starts_with("exact value"));
    }
}

/// Builds Kalah(3,n) under the empty-capture reading to `SEEDS` seeds with `solve --build`.
fn build(db: &PathBuf) {
    let out = bin()
        .args(["solve", "--game", "kalah", "--variant", READING, "--build"])
        .args(["--seeds", &SEEDS.to_string(), "--db"])
        .arg(db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// One test sets the databases' folder for the whole binary (the policy reads it once).
#[test]
fn perfect_play_and_judged_policies_agree_with_minimax() {
    let db = tmp("db");
    build(&db);
    std::env::set_var(mancala_lab::policy::perfect::DB_VARIABLE, &db);
    let game = kalah::rules::Rules::new(READING.parse().unwrap());
    let boards = boards_with_a_choice(&game, SEEDS);
    assert!(boards.len() > 300, "{} boards", boards.len());

    // The perfect policy plays a move minimax values best, on every board with a choice, on
    // both engines.
    let perfect: Policy = "perfect".parse().unwrap();
    plays_best(&game, &boards);
    plays_best(
        &kalah::fast::FastRules::new(READING.parse().unwrap()),
        &boards,
    );

    // Judged: perfect play loses nothing; random play loses what minimax says it should, on
    // average over the boards (the sample's share within four standard errors of it).
    let (retro, _) = game.retro().unwrap();
    let folder = level_file::folder(&db, retro.game(), &retro.reading());
    let levels = level_file::load(retro.as_ref(), &folder, SEEDS).unwrap();
    let sample = Sample {
        seeds: SEEDS,
        boards: 4000,
        seed: 7,
        budget: 1000,
    };
    let policies = [perfect, Policy::Random];
    let judged = judge(&game, &levels, &policies, &sample, &|| {}).unwrap();
    assert_eq!(judged[0].boards, 4000);
    assert_eq!((judged[0].losing, judged[0].lost), (0, 0));
    let (mut share, mut loss) = (0.0, 0.0);
    for (_, values) in &boards {
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let n = values.len() as f64;
        share += values.iter().filter(|&&(_, v)| v < best).count() as f64 / n / boards.len() as f64;
        loss += values
            .iter()
            .map(|&(_, v)| f64::from(best - v))
            .sum::<f64>()
            / n
            / boards.len() as f64;
    }
    let random = judged[1];
    let error = (share * (1.0 - share) / 4000.0).sqrt();
    assert!(
        (random.share() - share).abs() < 4.0 * error,
        "random play: {} of moves lose value, minimax expects {share}",
        random.share()
    );
    let (lo, hi) = random.mean_interval();
    let half = (hi - lo) / 2.0;
    assert!(
        (random.mean_loss() - loss).abs() < 2.0 * half,
        "random play: mean loss {}, minimax expects {loss}",
        random.mean_loss()
    );
}

#[test]
fn judging_is_the_same_for_any_thread_count_and_refuses_missing_levels() {
    let db = tmp("threads");
    build(&db);
    let run = |threads: &str| {
        bin()
            .env("RAYON_NUM_THREADS", threads)
            .args(["solve", "--game", "kalah", "--variant", READING, "--db"])
            .arg(&db)
            .args(["--seeds", "6", "--sample", "500", "--judge", "greedy"])
            .args(["--judge", "mcts:sims=50", "--judge", "alphabeta:depth=2"])
            .output()
            .unwrap()
    };
    let (one, two) = (run("1"), run("2"));
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    assert_eq!(one.stdout, two.stdout);
    let text = String::from_utf8(one.stdout).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(
        text.lines().nth(2).unwrap().starts_with("greedy\t500\t"),
        "{text}"
    );
    // Kalah's history ends no game: the searching policies met no repetition, and their moves
    // on the boards without one are all their moves; greedy does not search.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows[0].len(), 19, "{text}");
    assert_eq!(rows[0][12], "history-boards");
    assert_eq!(rows[1][12..], ["-"; 7], "{text}");
    for row in &rows[2..] {
        assert_eq!(row[12], "0", "{text}");
        assert_eq!(row[13..16], row[3..6], "{text}");
        assert_eq!(row[16..19], row[9..12], "{text}");
    }

    // Oware: judged on its own levels, perfect play loses nothing on either engine (the boards,
    // the moves and the levels line up; Oware's repetitions keep a plain minimax out).
    let out = bin()
        .args([
            "solve", "--game", "oware", "--build", "--seeds", "6", "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // --verify --from checks the levels from there up only, and refuses a level not built.
    let verify_from = |from: &str| {
        bin()
            .args([
                "solve", "--game", "oware", "--verify", "--from", from, "--db",
            ])
            .arg(&db)
            .output()
            .unwrap()
    };
    let out = verify_from("4");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let checked: Vec<&str> = text
        .lines()
        .skip(2)
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(checked, ["4", "5", "6"], "{text}");
    // Each level passes best-over-moves and the forced check (Oware's play cycles).
    assert!(
        text.lines().nth(1).unwrap().contains("\tforced\t"),
        "{text}"
    );
    assert!(
        text.lines()
            .skip(2)
            .all(|l| l.split('\t').nth(3).unwrap().starts_with("ok (")),
        "{text}"
    );
    let out = verify_from("7");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--from 7") && err.contains("levels 0 to 6 only"),
        "{err}"
    );

    for engine in ["reference", "optimized"] {
        let out = bin()
            .args([
                "solve", "--game", "oware", "--seeds", "6", "--sample", "300",
            ])
            .args([
                "--judge", "perfect", "--judge", "random", "--engine", engine, "--db",
            ])
            .arg(&db)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("\nperfect:budget=1000000,depth=4\t300\t0\t"),
            "{engine}: {text}"
        );
        assert!(!text.contains("\nrandom\t300\t0\t"), "{engine}: {text}");
    }

    // Oware's levels must reach the seeds judged (play can cycle, nothing is searched beyond).
    let out = bin()
        .args([
            "solve", "--game", "oware", "--seeds", "9", "--judge", "random", "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("build the levels first"), "{err}");
}

#[test]
fn a_job_of_the_perfect_policy_without_levels_is_refused_before_it_writes() {
    let out_dir = tmp("refused");
    for (game, want) in [
        ("oware", "no levels in"),
        ("bao", "bao has no endgame databases"),
    ] {
        let out = bin()
            .env(
                mancala_lab::policy::perfect::DB_VARIABLE,
                out_dir.join("none"),
            )
            .args([
                "stats",
                "--game",
                game,
                "--games",
                "4",
                "--policy",
                "perfect/random",
            ])
            .arg("--out")
            .arg(out_dir.join(game))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{game}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{game}: {err}");
        assert!(!out_dir.join(game).join("games.csv").exists(), "{game}");
    }
    // A match asks before its first pairing, even one without the perfect player.
    let out = bin()
        .env(
            mancala_lab::policy::perfect::DB_VARIABLE,
            out_dir.join("none"),
        )
        .args([
            "match",
            "--game",
            "kalah",
            "--games",
            "2",
            "--players",
            "random",
        ])
        .args(["greedy", "perfect", "--out"])
        .arg(out_dir.join("match"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no levels in"));
    assert!(!out_dir.join("match").exists());
}
