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
    // O-U1's witness: every move forbidden by the sheet while both rows hold seeds.
    if let Some((_, w)) = &get("O-U1").witness {
        let p = Position::parse(w).unwrap();
        assert!(p.row_seeds(p.to_move()) > 0 && p.row_seeds(p.to_move().opponent()) > 0);
        let sheet = Rules::new(Variant::SHEET);
        assert_eq!(sheet.game_from(p).outcome().unwrap().clause, "O.4.2");
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
