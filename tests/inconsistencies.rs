//! The inconsistency hunter finds the reading differences random play is known to reach, and its
//! witnesses show what it claims.

use mancala_lab::inconsistencies;
use mancala_lab::oware::{Position, Rules, Variant};

#[test]
fn oware_findings_have_true_witnesses() {
    let findings = inconsistencies::oware(300, 1);
    let get = |id: &str| findings.iter().find(|f| f.id == id).unwrap();
    assert!(get("O-R1").games > 0, "grand slams occur in random play");
    assert!(get("O-R3").games > 0, "games end at 25 with seeds left");
}

/// O-U1 says: both rows hold seeds and the player to move has no allowed move (every move would
/// capture all the opponent's seeds). Its witness must show exactly that, and nothing the sheet
/// settles (one row empty).
#[test]
fn oware_no_allowed_move_witness_matches_the_finding() {
    use mancala_lab::oware::rules::Verdict;
    // Seed 3, 300 games: the one game ending by O.4.2 there does so with the opponent's row empty
    // and the only feeding move a grand slam. The sheet settles that (the mover takes every seed),
    // so O-U1 must not report it.
    let settled = inconsistencies::oware(300, 3);
    assert_eq!(settled.iter().find(|f| f.id == "O-U1").unwrap().games, 0);
    // Seed 24, 300 games: O-U1 arises, and its witness must be what the finding describes.
    let findings = inconsistencies::oware(300, 24);
    let u1 = findings.iter().find(|f| f.id == "O-U1").unwrap();
    let (_, w) = u1
        .witness
        .as_ref()
        .expect("random play meets O-U1 in these 300 games");
    let p = Position::parse(w).unwrap();
    let (me, them) = (p.to_move(), p.to_move().opponent());
    assert!(p.row_seeds(me) > 0 && p.row_seeds(them) > 0, "{w}");
    // The sheet reading: no allowed move, the game ends by O.4.2.
    let sheet = Rules::new(Variant::SHEET);
    assert_eq!(
        sheet.game_from(p.clone()).outcome().unwrap().clause,
        "O.4.2"
    );
    // The sheet as worded (strict) finds itself silent here: no winner, clause O.4.2.
    let strict = Rules::new(Variant::STRICT).game_from(p.clone());
    let out = strict.outcome().unwrap();
    assert_eq!((out.clause, out.verdict), ("O.4.2", Verdict::RulesSilent));
    // Checked move by move: every non-empty pit of the mover, sown with the grand slam allowed,
    // captures all the opponent's seeds (so the sheet forbids it), and no other move exists.
    let abapa = Rules::new(Variant::ABAPA);
    let game = abapa.game_from(p.clone());
    let non_empty: Vec<u8> = (0..6u8)
        .filter(|&i| p.pit(usize::from(i) + 6 * me.index()) > 0)
        .collect();
    let legal: Vec<u8> = abapa.legal_moves(&game).iter().map(|m| m.pit).collect();
    assert_eq!(legal, non_empty, "{w}");
    for mv in abapa.legal_moves(&game) {
        let played = abapa.play(&game, mv).unwrap();
        assert!(
            played
                .trace
                .iter()
                .any(|s| s.clause == "O.4.1" && s.text.contains("grand slam")),
            "{} is not a grand slam in\n{w}",
            mv.letter(me)
        );
    }
}

#[test]
fn bao_reading_differences_are_found() {
    let findings = inconsistencies::bao(300, 1);
    let house = findings.iter().find(|f| f.id == "B-R1").unwrap();
    assert!(
        house.games > 0,
        "the house-loss readings differ in random play"
    );
    let (_, w) = house.witness.as_ref().unwrap();
    assert!(w.starts_with("to_move:") && w.contains("B-R1"), "{w}");
    let report = inconsistencies::report("bao", 300, 1, &findings);
    assert!(report.contains("| B-R1 | 3.2, 4.2.1.1 |"));
}

/// The position text at the start of a witness (up to the first line that is not a field).
fn witness_position(w: &str) -> mancala_lab::bao::Position {
    let text: String = w
        .lines()
        .take_while(|l| {
            [
                "to_move:",
                "stores:",
                "houses:",
                "kutakatia:",
                "a:",
                "b:",
                "A:",
                "B:",
            ]
            .iter()
            .any(|f| l.starts_with(f))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    mancala_lab::bao::position_text::parse(&text).unwrap()
}

#[test]
fn bao_kutakatia_duration_and_mid_move_end_witnesses_hold() {
    use mancala_lab::bao::variant::{InfiniteMoves, Variant as BaoVariant};
    use mancala_lab::bao::{MoveText, Rules as BaoRules};
    let findings = inconsistencies::bao(300, 1);
    let get = |id: &str| findings.iter().find(|f| f.id == id).unwrap();
    let rules =
        BaoRules::new(BaoVariant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(5000)));
    // B-R5: the witness is unmarked; carrying the named pit's mark over changes the legal moves.
    let (_, w) = get("B-R5")
        .witness
        .as_ref()
        .expect("random play meets B-R5 in 300 games");
    let pos = witness_position(w);
    assert_eq!(pos.blocked(), None);
    let pit_name = w
        .split("two moves (")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let mut setup = pos.to_setup();
    let pit = mancala_lab::bao::Pit::all()
        .find(|p| p.name(pos.to_move()) == pit_name)
        .unwrap();
    setup.blocked = Some(pit);
    let carried = mancala_lab::bao::Position::from_setup(setup).unwrap();
    assert_ne!(rules.legal_moves(&pos), rules.legal_moves(&carried), "{w}");
    // B-U3: the named move, played, ends the game by 1.2.1 in the middle of the move.
    let (_, w) = get("B-U3").witness.as_ref().unwrap();
    let pos = witness_position(w);
    let mv = w.lines().last().unwrap().split(' ').next().unwrap();
    let (_, played) = rules
        .play_text(&pos, &MoveText::parse(mv).unwrap())
        .unwrap();
    assert_eq!(rules.outcome(&played.position).unwrap().clause, "1.2.1");
    assert!(played.trace.iter().any(|s| s.clause == "1.2.1"), "{w}");
    assert!(get("B-U3").games > 0 && get("B-R5").games > 0);
}
