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
