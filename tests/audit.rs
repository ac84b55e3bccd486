//! `audit`: other engines' records replayed under our reading. The AbstractPlay records in
//! tests/data/abstractplay_bao_3.jsonl are games 0, 3 and 23 of a sample of 200 random games
//! played by AbstractPlay's gameslib (TypeScript); the expected verdicts are worked by hand from
//! the rules, as each test says.

use std::process::{Command, Output};

use mancala_lab::audit::Kind;
use mancala_lab::bao::abstractplay;
use mancala_lab::bao::audit::{audit, Record};
use mancala_lab::bao::{Side, Variant};

const SAMPLE: &str = include_str!("data/abstractplay_bao_3.jsonl");

fn sample(game: &str) -> Record {
    abstractplay::read(SAMPLE)
        .into_iter()
        .map(Result::unwrap)
        .find(|r| r.game == game)
        .unwrap()
}

fn record(moves: &[&str], end: Option<(Side, &'static str)>) -> Record {
    Record {
        game: "hand".into(),
        source: "hand".into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        end,
        final_board: None,
    }
}

#[test]
fn a_record_both_engines_play_alike_agrees() {
    // Game 3 ends with North's front row empty after South's 31st move; AbstractPlay's final
    // board is the one our engine reaches.
    let a = audit(Variant::DEFAULT, &sample("3")).unwrap();
    assert_eq!(a.deviation, None);
    assert!(a.explained_by.is_empty());
}

#[test]
fn an_illegal_move_names_the_clause_that_forbids_it() {
    // At the start South's front row holds seeds in A5, A6 and A7 only (2.1): A1 is empty, and a
    // move needs a non-empty pit (2.2.1).
    let a = audit(Variant::DEFAULT, &record(&["A1<"], None)).unwrap();
    let d = a.deviation.unwrap();
    assert_eq!(
        (d.ply, d.kind, d.clause.as_str()),
        (1, Kind::IllegalMove, "2.2.1")
    );
    // Game 23, ply 16: North's only filled front pit is the kichwa a8, and a8> runs into the
    // back row, which 1.5.3.1 forbids.
    let a = audit(Variant::DEFAULT, &sample("23")).unwrap();
    let d = a.deviation.unwrap();
    assert_eq!((d.ply, d.mv.as_str()), (16, "a8>*"));
    assert_eq!((d.kind, d.clause.as_str()), (Kind::IllegalMove, "1.5.3.1"));
    assert!(d.witness.contains("a: 1 0 0 0 0 0 0 0"), "{}", d.witness);
}

#[test]
fn a_different_end_is_a_result_deviation_with_the_records_clause() {
    // After A6<* alone both front rows hold seeds and South's move is no capture: the game goes
    // on, while the record says North won by an empty front row (1.2.1).
    let a = audit(
        Variant::DEFAULT,
        &record(&["A6<*"], Some((Side::North, "1.2.1"))),
    )
    .unwrap();
    let d = a.deviation.unwrap();
    assert_eq!(
        (d.ply, d.kind, d.clause.as_str()),
        (1, Kind::Result, "1.2.1")
    );
}

#[test]
fn a_final_board_reached_by_finishing_the_move_deviates_under_1_2_1() {
    // Game 0's last move A7< harvests North's last front seeds (a7) mid-move; 1.2.1 ends the game
    // there, with the harvested seeds sown from A1 to B8 (B1..B8 = 0,1,2,3,1,4,3,2). AbstractPlay's
    // board is what finishing the move gives: from B8 (2 seeds) kuendelea sows B7, B6; B6 (now 5)
    // sows B5..B1, ending in the empty B1: B1..B8 = 1,2,3,4,2,0,4,0.
    let a = audit(Variant::DEFAULT, &sample("0")).unwrap();
    let d = a.deviation.unwrap();
    assert_eq!(
        (d.ply, d.kind, d.clause.as_str()),
        (45, Kind::Position, "1.2.1")
    );
    assert!(d.witness.contains("/0,1,2,3,1,4,3,2\n"), "{}", d.witness);
    assert!(d.witness.contains("/1,2,3,4,2,0,4,0\n"), "{}", d.witness);
    // No reading explains it: every translation ends the game before the move ends. Finishing
    // the move reproduces it.
    assert!(a.explained_by.is_empty());
    assert_eq!(d.reproduced_by.as_deref(), Some("finish-move-after-1.2.1"));
}

#[test]
fn marks_are_judged_apart_from_play() {
    // A6 faces a3, empty at the start: A6< is a kutakata (1.5.3), written A6<* by us. Written
    // without its mark it is still played; the mark is a notation deviation. North's a6< then
    // captures (the transcript example of docs/formats.md).
    let a = audit(Variant::DEFAULT, &record(&["A6<", "a6<"], None)).unwrap();
    assert_eq!(a.deviation, None);
    assert_eq!(a.notation.len(), 1);
    let n = &a.notation[0];
    assert_eq!(
        (n.ply, n.written.as_str(), n.ours.as_str()),
        (1, "A6<", "A6<*")
    );
    assert_eq!(n.clause, "1.5.3");
}

fn run_audit(args: &[&str], out: &std::path::Path, files: &[&std::path::Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .arg("audit")
        .args(args)
        .arg("--out")
        .arg(out)
        .args(files)
        .output()
        .unwrap()
}

#[test]
fn bad_records_are_named_and_the_others_still_audited() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-audit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good = SAMPLE.lines().nth(1).unwrap();
    let input = dir.join("records.jsonl");
    let text = format!(
        "{good}\nnot json\n{}\n{}\n",
        good.replace("\"A7>*\"", "\"Z9<\""),
        good.replace("\"game\":3", "\"game\":4")
            .replacen("\"A", "\"a", 1)
    );
    // A fifth line with a byte that is not UTF-8: a bad record of its own.
    let mut bytes = text.into_bytes();
    bytes.extend_from_slice(b"{\"game\":\xff}\n");
    std::fs::write(&input, bytes).unwrap();
    let out = dir.join("audit");
    let o = run_audit(&["--format", "abstractplay"], &out, &[&input]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("records.jsonl:2: not an AbstractPlay record"),
        "{err}"
    );
    assert!(err.contains("records.jsonl:3: ply 1 'Z9<'"), "{err}");
    assert!(err.contains("records.jsonl:4: ply 1 "), "{err}");
    assert!(
        err.contains("records.jsonl:5: not UTF-8 text (byte 9 of the line is not)"),
        "{err}"
    );
    assert!(
        err.contains("a pit of North, but South is to move"),
        "{err}"
    );
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 2, "{games}");
    assert!(games.contains("records.jsonl:1,31,agrees,"), "{games}");
    assert!(out.join("summary.csv").is_file());
    // One game, that agrees; lines 2 to 5 are bad records. Counts of one in the singular.
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.starts_with("audited 1 game under the reading default: 1 agrees, 0 deviate in play"),
        "{said}"
    );
    assert!(said.contains("; 4 bad records;"), "{said}");
    let one_bad = dir.join("one-bad.jsonl");
    std::fs::write(&one_bad, format!("{good}\n{good}\nnot json\n")).unwrap();
    let o = run_audit(
        &["--format", "abstractplay"],
        &dir.join("one-bad-audit"),
        &[&one_bad],
    );
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{said}");
    assert!(said.starts_with("audited 2 games under"), "{said}");
    assert!(said.contains(": 2 agree, 0 deviate in play"), "{said}");
    assert!(said.contains("; 1 bad record;"), "{said}");

    // An audit already there is not replaced without --force.
    let o = run_audit(&["--format", "abstractplay"], &out, &[&input]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already holds an audit"));

    // Records ended by a lone carriage return (an old Mac's line break) read as one line: the
    // break is named where it is.
    let cr = dir.join("cr.jsonl");
    let mut joined = SAMPLE.lines().take(2).collect::<Vec<_>>().join("\r");
    joined.push('\n');
    std::fs::write(&cr, &joined).unwrap();
    let first = SAMPLE.lines().next().unwrap().chars().count();
    let o = run_audit(&["--format", "abstractplay"], &dir.join("cr-audit"), &[&cr]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "cr.jsonl:1:{}: a carriage return that ends no line",
            first + 1
        )),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Any of an audit's outputs marks a folder as holding one; no audit writes over its own
/// input, even with --force; --force replaces an earlier audit's witnesses and nothing else.
#[test]
fn an_audit_never_writes_over_its_input_or_another_file() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-audit-out-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap();
    let refused = |o: &Output, says: &str| {
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
    };
    // A summary.csv alone, or a witnesses folder alone, is an audit there.
    for (name, text) in [
        ("summary.csv", "notes\n"),
        ("witnesses/records.jsonl", SAMPLE),
    ] {
        let out = dir.join(name.replace(['/', '.'], "-"));
        let path = out.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        let o = run_audit(&["--format", "abstractplay"], &out, &[&path]);
        refused(&o, "already holds an audit");
        // With --force: still refused, the record being where the audit writes.
        let o = run_audit(&["--format", "abstractplay", "--force"], &out, &[&path]);
        refused(&o, "is where the audit writes");
        assert_eq!(read(&path), text);
    }
    // The record given as out/games.csv itself.
    let out = dir.join("self");
    std::fs::create_dir_all(&out).unwrap();
    let input = out.join("games.csv");
    std::fs::write(&input, SAMPLE).unwrap();
    let o = run_audit(&["--format", "abstractplay", "--force"], &out, &[&input]);
    refused(&o, "is where the audit writes");
    assert_eq!(read(&input), SAMPLE);
    // --force over an earlier audit: its witnesses go, a file of another kind stops it.
    let input = dir.join("records.jsonl");
    std::fs::write(&input, SAMPLE).unwrap();
    let out = dir.join("again");
    let o = run_audit(&["--format", "abstractplay"], &out, &[&input]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stale = out.join("witnesses/position-9.9.txt");
    std::fs::write(&stale, "old").unwrap();
    let o = run_audit(&["--format", "abstractplay", "--force"], &out, &[&input]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!stale.exists());
    let notes = out.join("witnesses/notes.md");
    std::fs::write(&notes, "mine").unwrap();
    let o = run_audit(&["--format", "abstractplay", "--force"], &out, &[&input]);
    refused(&o, "is not a witness an audit writes");
    assert_eq!(read(&notes), "mine");
    // A witness of someone else's (a .txt not named as an audit names them) stops it too.
    std::fs::remove_file(&notes).unwrap();
    let mine = out.join("witnesses/notes.txt");
    std::fs::write(&mine, "mine").unwrap();
    let o = run_audit(&["--format", "abstractplay", "--force"], &out, &[&input]);
    refused(&o, "is not a witness an audit writes");
    assert_eq!(read(&mine), "mine");
    std::fs::remove_file(&mine).unwrap();
    // --force through a link to an audit elsewhere: refused, naming where it leads.
    #[cfg(unix)]
    {
        // A witness that --force would remove.
        std::fs::write(&stale, "old").unwrap();
        let link = dir.join("linked");
        std::os::unix::fs::symlink(&out, &link).unwrap();
        let o = run_audit(&["--format", "abstractplay", "--force"], &link, &[&input]);
        refused(&o, &format!("a symbolic link to {}", out.display()));
        assert_eq!(read(&stale), "old");
        std::fs::remove_file(&stale).unwrap();
    }
    // A table of someone else's under an audit's name, or a link there, stops it too.
    for name in ["games.csv", "summary.csv"] {
        let table = out.join(name);
        let audit_table = read(&table);
        std::fs::write(&table, "mine\n").unwrap();
        let o = run_audit(&["--format", "abstractplay", "--force"], &out, &[&input]);
        refused(&o, "is not a table an audit writes");
        assert_eq!(read(&table), "mine\n");
        #[cfg(unix)]
        {
            let kept = dir.join(format!("kept-{name}"));
            std::fs::write(&kept, &audit_table).unwrap();
            std::fs::remove_file(&table).unwrap();
            std::os::unix::fs::symlink(&kept, &table).unwrap();
            let o = run_audit(&["--format", "abstractplay", "--force"], &out, &[&input]);
            refused(&o, "is not a table an audit writes");
            assert!(table.symlink_metadata().unwrap().file_type().is_symlink());
            std::fs::remove_file(&table).unwrap();
        }
        std::fs::write(&table, &audit_table).unwrap();
    }
    let o = run_audit(&["--format", "abstractplay", "--force"], &out, &[&input]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A stats study is no audit to replace, --force or not.
    let study = dir.join("study");
    let made = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["stats", "--game", "bao", "--games", "3", "--out"])
        .arg(&study)
        .status()
        .unwrap();
    assert!(made.success());
    let games = read(&study.join("games.csv"));
    let o = run_audit(&["--format", "abstractplay", "--force"], &study, &[&input]);
    refused(
        &o,
        "holds a stats study or a match (manifest.json), not an audit",
    );
    assert_eq!(read(&study.join("games.csv")), games);
    let notes = out.join("notes.md");
    std::fs::write(&notes, "mine").unwrap();
    // A file as --out is named before any record is read.
    let o = run_audit(&["--format", "abstractplay"], &notes, &[&input]);
    refused(&o, "not a folder; an audit is a folder of files");
    assert!(!String::from_utf8_lossy(&o.stderr).contains("bad record"));
    assert_eq!(read(&notes), "mine");
    let _ = std::fs::remove_dir_all(&dir);
}

const OPENSPIEL: &str = include_str!("data/openspiel_oware_1000.txt");

#[test]
fn openspiel_games_agree_under_abapa_and_each_sheet_deviation_is_a_reading() {
    use mancala_lab::oware::audit::{audit, read_openspiel};
    use mancala_lab::oware::Variant as OwareVariant;
    let records: Vec<_> = read_openspiel(OPENSPIEL)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(records.len(), 1000);
    // abapa is OpenSpiel's rule set: every game agrees.
    for r in &records {
        assert_eq!(
            audit(OwareVariant::ABAPA, r).unwrap().deviation,
            None,
            "{}",
            r.game
        );
    }
    // The sheet departs from abapa in four choices only (grand slam O.4.1, no allowed move O.4.2,
    // the cycle rule O.6.2, the end sweep O.6.1): each deviation is one of them and some reading
    // explains it.
    let mut deviating = 0;
    for r in &records {
        let a = audit(OwareVariant::SHEET, r).unwrap();
        if let Some(d) = a.deviation {
            deviating += 1;
            assert!(
                ["O.4.1", "O.4.2", "O.6.1", "O.6.2"].contains(&d.clause.as_str()),
                "{d:?}"
            );
            assert!(!a.explained_by.is_empty(), "{}", r.game);
        }
    }
    assert!(deviating > 0);
}

#[test]
fn an_openspiel_game_the_sheet_does_not_end_is_a_result_deviation() {
    use mancala_lab::oware::audit::{audit, read_openspiel};
    use mancala_lab::oware::Variant as OwareVariant;
    // One move from the start (all six pits legal: mask 3f; no capture: 0.0), then OpenSpiel's
    // record says the game ended: under any reading the game goes on after one move.
    let text =
        "game 1 C:3f:0.0 final 0 0 0\ngame 2 c:3f:0.0 final 0 0 0\ngame 3 C:3f:0.0 final 0 0\n";
    let read = read_openspiel(text);
    let a = audit(OwareVariant::SHEET, read[0].as_ref().unwrap()).unwrap();
    let d = a.deviation.unwrap();
    assert_eq!((d.ply, d.kind), (1, Kind::Result));
    // North's c as the first move: South moves first (O.2.1), a bad record.
    let e = audit(OwareVariant::SHEET, read[1].as_ref().unwrap()).unwrap_err();
    assert!(
        e.to_string().starts_with("ply 1 'c': a pit of North"),
        "{e}"
    );
    let e = read[2].as_ref().unwrap_err().to_string();
    assert!(e.starts_with("line 3: 'final' must be followed"), "{e}");
}

#[test]
fn our_oware_transcripts_are_audited_too() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-audit-ow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // South's C (4 seeds) sows D, E, F, a and leaves C empty; North's c sows d, e, f, A and does
    // not reach C: South's second C takes from an empty pit, which O.2.3 forbids.
    let t = dir.join("game.txt");
    std::fs::write(&t, "1. C c 2. C\n").unwrap();
    let out = dir.join("audit");
    let o = run_audit(&["--format", "transcript", "--game", "oware"], &out, &[&t]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        games.contains(",3,deviates,3,C,illegal-move,O.2.3,"),
        "{games}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_final_board_the_moves_do_not_lead_to_is_a_position_deviation() {
    // A6<* (a kutakata: the store seed into A6, then its three seeds sown on; 1.5.3) changes
    // South's front row, but the record's final board is the start board: the
    // moves do not lead to it. The game goes on, so the clause is that of the move's last step,
    // its end in an empty pit (1.5.4).
    // The start (2.1), rows b8..b1 / a8..a1 / A1..A8 / B1..B8: each house (a5, A5) holds six,
    // the two pits to its right (a6, a7; A6, A7) two.
    let start = "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0";
    let r = Record {
        final_board: Some(start.into()),
        ..record(&["A6<*"], None)
    };
    let a = audit(Variant::DEFAULT, &r).unwrap();
    let d = a.deviation.unwrap();
    assert_eq!(
        (d.ply, d.kind, d.clause.as_str()),
        (1, Kind::Position, "1.5.4")
    );
    // The board after no move at all is the start board: agrees.
    let r = Record {
        final_board: Some(start.into()),
        ..record(&[], None)
    };
    assert_eq!(audit(Variant::DEFAULT, &r).unwrap().deviation, None);
}

#[test]
fn an_openspiel_score_the_move_does_not_give_is_a_position_deviation() {
    use mancala_lab::oware::audit::{audit, read_openspiel};
    use mancala_lab::oware::Variant as OwareVariant;
    // South's opening C sows D, E, F and a: nothing is captured (O.3 needs a last seed making 2
    // or 3 on the opponent's row; a then holds 5), so the scores stay 0 0, not the record's 0 5.
    let r = read_openspiel("game 1 C:3f:0.5 final 0 5 -1\n")
        .remove(0)
        .unwrap();
    let a = audit(OwareVariant::ABAPA, &r).unwrap();
    let d = a.deviation.unwrap();
    assert_eq!((d.ply, d.kind), (1, Kind::Position));
    assert!(
        d.witness.contains("ours: scores 0 0\nrecord: scores 0 5"),
        "{}",
        d.witness
    );
}

/// An OpenSpiel line's game index is a whole number, as AbstractPlay's is.
#[test]
fn an_openspiel_game_index_must_be_a_whole_number() {
    use mancala_lab::oware::audit::read_openspiel;
    for index in ["-1", "18446744073709551616", "x"] {
        let read = read_openspiel(&format!("game {index} C:3f:0.0 final 0 0 0\n"));
        let e = read[0].as_ref().unwrap_err();
        assert!(
            e.message.contains("is not a whole number"),
            "{index}: {}",
            e.message
        );
    }
    assert!(read_openspiel("game 18446744073709551615 C:3f:0.0 final 0 0 0\n")[0].is_ok());
}

/// A transcript that is not UTF-8, or does not parse, is a bad record of its own, named by its
/// file and line; the other files are still audited.
#[test]
fn a_bad_transcript_file_is_one_bad_record() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    let ill = dir.path().join("ill.txt");
    let good = dir.path().join("good.txt");
    std::fs::write(&bad, b"1. C f\n2. A \xff a\n").unwrap();
    std::fs::write(&ill, "1. C f\n2. A Z\n").unwrap();
    std::fs::write(&good, "1. C f\n2. A a\n").unwrap();
    let out = dir.path().join("audit");
    let o = run_audit(
        &["--format", "transcript", "--game", "oware"],
        &out,
        &[&bad, &ill, &good],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bad.txt:2: not UTF-8 text (byte 6 of the line is not)"),
        "{err}"
    );
    assert!(err.contains("ill.txt: line 2, column 6"), "{err}");
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 2, "{games}");
    assert!(games.contains("good.txt"), "{games}");
}

/// A signal while the audit waits for its input (a pipe that stays open) stops it at once, with
/// nothing written: one SIGTERM, as `timeout` sends, is enough.
#[test]
fn a_signal_stops_an_audit_waiting_for_its_input() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-audit-wait-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args([
            "audit",
            "--format",
            "transcript",
            "--game",
            "oware",
            "--out",
        ])
        .arg(&out)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Standard input stays open (held here) and empty: the audit waits on it.
    let _input = child.stdin.take();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut waited = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(waited < 200, "the audit still runs 20 s after SIGTERM");
        std::thread::sleep(std::time::Duration::from_millis(100));
        waited += 1;
    };
    assert!(!status.success());
    assert!(!out.join("games.csv").exists());
    let _ = std::fs::remove_dir_all(&out);
}

/// The folder is checked again once the records are read: a file of the user's that came to
/// --out while the audit waited on its input stops it, and is kept.
#[test]
fn a_file_that_comes_while_the_records_are_read_is_kept() {
    use std::io::Write;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-audit-late-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["audit", "--format", "abstractplay", "--force", "--out"])
        .arg(&dir)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The audit waits for its records; meanwhile the user puts notes where it writes.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let notes = dir.join("witnesses/notes.txt");
    std::fs::create_dir_all(notes.parent().unwrap()).unwrap();
    std::fs::write(&notes, "mine").unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(SAMPLE.as_bytes()).unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is not a witness an audit writes"), "{err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine");
    let _ = std::fs::remove_dir_all(&dir);
}

/// OpenSpiel records with old Mac line ends (CR alone) are named bad at the CR, not read as one
/// line.
#[test]
fn openspiel_records_with_lone_carriage_returns_are_bad() {
    use mancala_lab::oware::audit::read_openspiel;
    let first = OPENSPIEL.lines().find(|l| l.starts_with("game ")).unwrap();
    let read = read_openspiel(&format!("{first}\r{first}\n"));
    assert_eq!(read.len(), 1);
    let e = read[0].as_ref().unwrap_err();
    assert_eq!(e.line, 1);
    assert!(
        e.message.contains("a carriage return that ends no line"),
        "{}",
        e.message
    );
    // A game index written otherwise than plainly would name one game three ways: refused.
    let line = first.replacen("game ", "game +", 1);
    let e = read_openspiel(&format!("{line}\n"))[0]
        .as_ref()
        .unwrap_err()
        .message
        .clone();
    assert!(e.contains("written plainly"), "{e}");
    // A transcript so written is a bad record too, not a shorter game that agrees.
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("mac.txt");
    std::fs::write(&transcript, "1. C f ; first pair\r2. A a\r").unwrap();
    let o = run_audit(
        &["--format", "transcript", "--game", "oware"],
        &dir.path().join("out"),
        &[&transcript],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("line 1, column 20: a carriage return"),
        "{err}"
    );
}

/// A recorded move with control characters is quoted escaped in its error: none reaches the
/// terminal.
#[test]
fn a_bad_move_is_quoted_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("esc.jsonl");
    std::fs::write(
        &records,
        "{\"game\":0,\"winner\":\"S\",\"reason\":\"frontempty\",\"moves\":[\"A7>*\\u001b[31m\"],\"final\":\"0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/\
         0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0\"}\n",
    )
    .unwrap();
    let o = run_audit(
        &["--format", "abstractplay"],
        &dir.path().join("out"),
        &[&records],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("ply 1 'A7>*\\u{1b}[31m'"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err}");
}
