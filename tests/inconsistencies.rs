//! The inconsistency hunter finds the reading differences random play is known to reach, and its
//! witnesses show what it claims. The witnesses of the catalogs (`spec/findings/`) are checked as
//! printed there, each against its finding's description, with the expected boards and moves worked
//! out by hand from the rules.

use mancala_lab::inconsistencies;
use mancala_lab::oware::{Position, Rules, Variant};

const BAO_CATALOG: &str = include_str!("../spec/findings/bao.md");
const OWARE_CATALOG: &str = include_str!("../spec/findings/oware.md");

/// The fenced block under the catalog heading that starts with `heading`.
fn catalog_block(catalog: &str, heading: &str) -> String {
    let at = catalog
        .find(&format!("\n{heading}"))
        .unwrap_or_else(|| panic!("no heading '{heading}' in the catalog"));
    let after = &catalog[at..];
    let start = after.find("```\n").expect("a block") + 4;
    let len = after[start..].find("```").expect("its end");
    after[start..start + len].to_string()
}

#[test]
fn oware_findings_have_true_witnesses() {
    let findings = mancala_lab::oware::inconsistencies::hunt(300, 1);
    let get = |id: &str| findings.iter().find(|f| f.id == id).unwrap();
    assert!(get("O-R1").games > 0, "grand slams occur in random play");
    assert!(get("O-R3").games > 0, "games end at 25 with seeds left");
}

/// O-U1 says: both rows hold seeds and the player to move has no allowed move (every move would
/// capture all the opponent's seeds). Its witness must show exactly that, and nothing the sheet
/// settles (one row empty).
#[test]
fn oware_no_allowed_move_witness_matches_the_finding() {
    use mancala_lab::oware::game::Verdict;
    // Seed 3, 300 games: the one game ending by O.4.2 there does so with the opponent's row empty
    // and the only feeding move a grand slam. The sheet settles that (the mover takes every seed),
    // so O-U1 must not report it.
    let settled = mancala_lab::oware::inconsistencies::hunt(300, 3);
    assert_eq!(settled.iter().find(|f| f.id == "O-U1").unwrap().games, 0);
    // Seed 24, 300 games: O-U1 arises, and its witness must be what the finding describes.
    let findings = mancala_lab::oware::inconsistencies::hunt(300, 24);
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
    let findings = mancala_lab::bao::inconsistencies::hunt(300, 1).unwrap();
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
    let findings = mancala_lab::bao::inconsistencies::hunt(300, 1).unwrap();
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

// ---------------------------------------------------------------------------------------------
// The catalogs' witnesses, as printed, against their findings.

use mancala_lab::bao::variant::{
    HouseKutakatia, HouseLoss, InfiniteMoves, StoreSeedIntoHouse, Variant as BaoVariant,
};
use mancala_lab::bao::{position_text, MoveText, Rules as BaoRules, Side, Stage};

/// The reading the Bao hunter plays: default, infinite = more than 5,000 seeds sown.
fn bao_base() -> BaoVariant {
    BaoVariant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(5000))
}

/// The legal moves of `pos` in canonical notation.
fn bao_moves(rules: &BaoRules, pos: &mancala_lab::bao::Position) -> Vec<String> {
    rules
        .legal_moves(pos)
        .into_iter()
        .map(|m| rules.notation(pos, m).unwrap())
        .collect()
}

/// Plays the written move: its canonical notation and the position it leaves, as text.
fn bao_play(rules: &BaoRules, pos: &mancala_lab::bao::Position, mv: &str) -> (String, String) {
    let (m, played) = rules.play_text(pos, &MoveText::parse(mv).unwrap()).unwrap();
    (
        m.notation(pos.to_move(), played.kind),
        position_text::print(&played.position),
    )
}

/// The Bao catalog's witness under `heading`, which must start with `position` (worked by hand),
/// and that position parsed.
fn bao_witness(heading: &str, position: &str) -> (String, mancala_lab::bao::Position) {
    let w = catalog_block(BAO_CATALOG, heading);
    assert!(w.starts_with(position), "the witness worked by hand:\n{w}");
    (w, position_text::parse(position).unwrap())
}

/// A mtaji kutakata with no pit that can stop it (houses lost, no kutakatia mark), worked straight
/// from the rules on one player's ring of 16 pits, written in the position's `A:`/`B:` (or `a:`/`b:`)
/// lines: each sowing drops one seed a pit in one direction (1.3, 1.3.1); a sowing ending in an empty
/// pit ends the move (1.5.4); otherwise that pit's seeds are taken and sown on (1.6).
#[derive(Debug, PartialEq, Eq)]
enum Relay {
    /// The move ends, having sown this many seeds.
    Ends(u32),
    /// The state (ring and pit of the last seed) after relay `first` comes back `period` relays later.
    Cycles { first: usize, period: usize },
}

/// `front` and `back` as written (front 1..8, back 1..8); `start` 1..8 on the front row;
/// `clockwise` runs 1 to 8 along the front row, then 8 to 1 along the back row.
fn relay(front: &[u8], back: &[u8], start: usize, clockwise: bool) -> Relay {
    let mut ring: Vec<u8> = front
        .iter()
        .copied()
        .chain(back.iter().rev().copied())
        .collect();
    let step = |p: usize| {
        if clockwise {
            (p + 1) % 16
        } else {
            (p + 15) % 16
        }
    };
    let mut at = start - 1;
    let mut hand = std::mem::take(&mut ring[at]);
    let mut sown = 0u32;
    let mut seen = std::collections::HashMap::new();
    for relays in 0.. {
        for _ in 0..hand {
            at = step(at);
            ring[at] += 1;
        }
        sown += u32::from(hand);
        if ring[at] == 1 {
            return Relay::Ends(sown);
        }
        if let Some(first) = seen.insert((ring.clone(), at), relays) {
            return Relay::Cycles {
                first,
                period: relays - first,
            };
        }
        hand = std::mem::take(&mut ring[at]);
    }
    unreachable!()
}

/// The numbers of the line that starts with `label` in a position text.
fn row(text: &str, label: &str) -> Vec<u8> {
    let line = text.lines().find(|l| l.starts_with(label)).unwrap();
    line[label.len()..]
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect()
}

/// B-R1 (3.2 and 4.2.1.1: house lost at the first mtaji harvest, or only when emptied).
#[test]
fn bao_house_loss_witness_matches_the_finding() {
    let position = "to_move: South\nstores: 0 0\nhouses: owned lost\nb: 0 0 0 1 1 1 1 1\n\
                    a: 0 2 11 1 1 2 4 0\nA: 0 1 0 3 24 0 1 0\nB: 1 0 1 1 0 2 1 3\n";
    let (_, pos) = bao_witness("### B-R1 witness (ply", position);
    let default = BaoRules::new(bao_base());
    let emptied = BaoRules::new(BaoVariant {
        house_loss: HouseLoss::EmptiedOnly,
        ..bao_base()
    });
    // By hand: South's only capture start is A4> (3 seeds end in A7, facing a2's 4). A4's sowing
    // runs A5 A6 A7; a2 is harvested and sown from A8 anticlockwise (A7 is a kimbi, 4.1) to A5;
    // a4 (1) is harvested there, A8 relays 2 to A6, a3 (2) is harvested, A7 relays 5 to A2, a7 (2)
    // is harvested and sown from A1 (1.4.5), A2 relays 3 and the last seed falls in A5 (28 seeds)
    // facing the empty a4: a capture move ending in the owned house with six or more, so the
    // player stops or plays it (4.2.2.3.2, 4.2.1.2): two moves, if the house is still owned.
    assert_eq!(bao_moves(&emptied, &pos), ["A4>", "A4>+"]);
    let (_, stopped) = bao_play(&emptied, &pos, "A4>");
    assert_eq!(
        stopped,
        "to_move: North\nstores: 0 0\nhouses: owned lost\nb: 0 0 0 1 1 1 1 1\n\
         a: 0 0 11 1 0 0 0 0\nA: 1 0 2 2 28 4 0 1\nB: 1 0 1 1 0 2 1 3\n"
    );
    // Under the default the harvest of a2, the first of mtaji, already ended South's house (3.2):
    // A5 is then an ordinary pit and the move relays on, with no choice.
    assert_eq!(bao_moves(&default, &pos), ["A4>"]);
    let (_, played) = default
        .play_text(&pos, &MoveText::parse("A4>").unwrap())
        .unwrap();
    assert!(!played.position.house_owned(Side::South));
    assert!(played.trace.iter().any(|s| s.clause == "3.2"));
}

/// B-R3 (2.1.2 against 1.3: the store seed lifts a house of five to six).
#[test]
fn bao_store_seed_witness_matches_the_finding() {
    let position = "to_move: South\nstores: 18 18\nhouses: owned owned\nb: 3 2 0 1 1 0 0 0\n\
                    a: 1 0 0 7 0 0 0 0\nA: 0 0 1 0 5 0 0 0\nB: 0 0 0 1 1 0 2 3\n";
    let (_, pos) = bao_witness("### B-R3 witness (ply", position);
    // By hand: no capture (A3 and A5 face the empty a6 and a4), so A5< is a kutakata whose store
    // seed makes the owned house six. Played out (not a sowing): the six seeds run A4 A3 A2 A1 B1
    // B2, ending in the empty B2, and the emptied house is lost.
    let (mv, out) = bao_play(&BaoRules::new(bao_base()), &pos, "A5<");
    assert_eq!(mv, "A5<*");
    assert_eq!(
        out,
        "to_move: North\nstores: 17 18\nhouses: lost owned\nb: 3 2 0 1 1 0 0 0\n\
         a: 1 0 0 7 0 0 0 0\nA: 1 1 2 1 0 0 0 0\nB: 1 1 0 1 1 0 2 3\n"
    );
    // A sowing of one seed ending in the owned house of six stops there (4.2.2.3.1).
    let stop = BaoRules::new(BaoVariant {
        store_seed_into_house: StoreSeedIntoHouse::Stop,
        ..bao_base()
    });
    let (_, out) = bao_play(&stop, &pos, "A5<");
    assert_eq!(
        out,
        "to_move: North\nstores: 17 18\nhouses: owned owned\nb: 3 2 0 1 1 0 0 0\n\
         a: 1 0 0 7 0 0 0 0\nA: 0 0 1 0 6 0 0 0\nB: 0 0 0 1 1 0 2 3\n"
    );
}

/// B-R4 (1.5.6: a move of more than 500 seeds but no more than 5,000).
#[test]
fn bao_infinite_bound_witness_matches_the_finding() {
    use mancala_lab::bao::IllegalMove;
    let position = "to_move: South\nstores: 0 0\nhouses: lost lost\nb: 0 3 1 4 2 0 2 0\n\
                    a: 1 1 0 0 0 0 0 1\nA: 2 1 4 1 2 3 18 0\nB: 0 4 1 0 4 1 2 6\n";
    let (_, pos) = bao_witness("### B-R4 witness (ply", position);
    // A1< (anticlockwise from the left kichwa, into the back row) is a kutakata with no pit to
    // stop it: the relay worked from the rules ends after 755 seeds.
    let sown = relay(&row(position, "A:"), &row(position, "B:"), 1, false);
    assert_eq!(sown, Relay::Ends(755));
    let bounded = BaoRules::new(bao_base());
    let (_, played) = bounded
        .play_text(&pos, &MoveText::parse("A1<").unwrap())
        .unwrap();
    assert_eq!(played.sown, 755);
    // Under a 500-seed bound the same move counts as infinite and is not legal.
    let short = BaoRules::new(bao_base().with_infinite_moves(InfiniteMoves::SownLimit(500)));
    let refused = short.play_text(&pos, &MoveText::parse("A1<").unwrap());
    assert!(
        matches!(refused, Err(IllegalMove::Infinite(_))),
        "{refused:?}"
    );
    assert!(bao_moves(&bounded, &pos).contains(&"A1<*".to_string()));
    assert!(!bao_moves(&short, &pos).contains(&"A1<*".to_string()));
}

/// B-R5 (5.1: a mark that lasted two moves of the blocked player).
#[test]
fn bao_kutakatia_duration_catalog_witness_matches_the_finding() {
    let position = "to_move: North\nstores: 0 0\nhouses: lost lost\nb: 1 1 4 2 2 2 1 1\n\
                    a: 0 0 4 0 0 1 0 1\nA: 1 1 4 2 6 11 0 0\nB: 2 1 2 4 2 4 1 3\n";
    let (w, pos) = bao_witness("### B-R5 witness (ply", position);
    let rules = BaoRules::new(bao_base());
    // By hand: no capture start of North ends in a3 or a6, the only North pits facing South seeds,
    // so North must kutakata, and a6 (4) is its only front pit of two or more: a6< ends in the empty
    // a2, a6> relays b7, b5, b2, a1, a3 and ends in the empty a5. Two moves.
    let moves = bao_moves(&rules, &pos);
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert!(moves[0].starts_with("a6<") && moves[1].starts_with("a6>"));
    // With a6 still kutakatia-ed no front pit may start and the back row is closed (3.5.1): none.
    let mut setup = pos.to_setup();
    setup.blocked = Some(mancala_lab::bao::Pit::front(6));
    let carried = mancala_lab::bao::Position::from_setup(setup).unwrap();
    assert!(rules.legal_moves(&carried).is_empty());
    assert!(w.contains("two moves (a6 still blocked): 0 legal"), "{w}");
}

/// B-U3 (1.2.1: the game ends mid-move; the harvest is sown and the move stops).
#[test]
fn bao_mid_move_end_catalog_witness_matches_the_finding() {
    let position = "to_move: South\nstores: 20 20\nhouses: owned lost\nb: 0 0 0 0 0 0 0 0\n\
                    a: 0 3 4 1 0 0 0 0\nA: 0 1 1 3 8 1 2 0\nB: 0 0 0 0 0 0 0 0\n";
    let (_, pos) = bao_witness("### B-U3 witness (ply", position);
    let rules = BaoRules::new(bao_base());
    // By hand: the store seed makes A2 two, facing a7 (3): harvested and sown from A1 (A2 is a
    // kimbi, 1.4.5) to A3, which faces a6 (4): harvested and sown A1..A4; A4 faces a5 (1), the last
    // seed of North's front row. That harvest ends the game (1.2.1); its seed goes to A1.
    let (mv, out) = bao_play(&rules, &pos, "A2<");
    assert_eq!(mv, "A2<");
    assert_eq!(
        out,
        "to_move: North\nstores: 19 20\nhouses: owned lost\nb: 0 0 0 0 0 0 0 0\n\
         a: 0 0 0 0 0 0 0 0\nA: 3 4 3 4 8 1 2 0\nB: 0 0 0 0 0 0 0 0\n"
    );
    let end = rules.outcome(&position_text::parse(&out).unwrap()).unwrap();
    assert_eq!((end.winner, end.clause), (Side::South, "1.2.1"));
}

/// B-R2 (5.1.1.1 against 3.2): reached from the start, a kutakata threatens only North's owned
/// house of five; exempt under the default, kutakatia-ed when only a house of six is exempt.
#[test]
fn bao_house_kutakatia_witness_is_reachable_and_matches_the_finding() {
    let position = "to_move: South\nstores: 0 0\nhouses: lost owned\nb: 0 2 1 3 1 2 0 2\n\
                    a: 0 0 0 5 0 3 10 1\nA: 0 1 4 6 4 1 0 0\nB: 0 4 2 0 5 2 3 2\n";
    let (w, pos) = bao_witness("### B-R2 witness (constructed)", position);
    let rules = BaoRules::new(bao_base());
    // The moves printed reach it from the start.
    let line = w.lines().last().unwrap();
    let line = &line[line.rfind(": ").unwrap() + 2..];
    let mut at = mancala_lab::bao::Position::start();
    for m in line.split_whitespace() {
        at = rules
            .play_text(&at, &MoveText::parse(m).unwrap())
            .unwrap()
            .1
            .position;
    }
    assert_eq!(at, pos);
    assert_eq!(line.split_whitespace().count(), 44);
    // By hand, after A5< (4 seeds: A4 A3 A2, and the empty A1 ends it): North has no capture start
    // (none of a2 10, a3 3, a5 5, b1 2, b3 2, b5 3, b7 2 ends in a3 or a5, the pits facing South
    // seeds); of South's starts only A2> (2 seeds, ending in A4 of 7) harvests, and it harvests a5.
    // a5 is North's owned house with 5 seeds, not its only filled front pit nor the only one with
    // more than one seed (a2, a3): exempt only under 5.1.1.1 as we read it.
    let after = "to_move: North\nstores: 0 0\nhouses: lost owned\nb: 0 2 1 3 1 2 0 2\n\
                 a: 0 0 0 5 0 3 10 1\nA: 1 2 5 7 0 1 0 0\nB: 0 4 2 0 5 2 3 2\n";
    assert_eq!(bao_play(&rules, &pos, "A5<"), ("A5<*".into(), after.into()));
    let six = BaoRules::new(BaoVariant {
        house_kutakatia: HouseKutakatia::ExemptWhileOwnedWithSix,
        ..bao_base()
    });
    let marked = format!("{after}kutakatia: a5\n");
    assert_eq!(
        bao_play(&six, &pos, "A5<"),
        ("A5<**".into(), marked.clone())
    );
    // The mark changes North's moves: a5 (5 seeds) starts a kutakata both ways unless marked.
    let free = bao_moves(&rules, &position_text::parse(after).unwrap());
    let blocked = bao_moves(&six, &position_text::parse(&marked).unwrap());
    assert!(free.iter().any(|m| m.starts_with("a5<")) && free.iter().any(|m| m.starts_with("a5>")));
    assert!(!blocked.iter().any(|m| m.starts_with("a5")), "{blocked:?}");
    assert!(!blocked.is_empty());
    assert_eq!(pos.stage(), Stage::Mtaji);
}

/// B-U2 (1.5.6, 1.2.2): every move of the player to move is infinite.
const B_U2_POSITION: &str = "to_move: South\nstores: 0 0\nhouses: lost lost\nb: 4 3 3 3 3 3 3 3\n\
                             a: 1 0 0 0 1 0 1 0\nA: 0 1 3 1 0 1 0 1\nB: 3 0 1 2 7 0 1 15\n";

#[test]
fn bao_all_moves_infinite_witness_matches_the_finding() {
    let position = B_U2_POSITION;
    let (_, pos) = bao_witness("### B-U2 witness (constructed)", position);
    // By hand: mtaji, both houses lost, no mark. North's front seeds face only South's empty
    // front pits (A1, A5, A7), so South has no capture start (1.4); A3 is South's only front pit
    // with two or more seeds, so its kutakatas A3< and A3> are the only starts (3.5, 3.5.1).
    let bounded = BaoRules::new(bao_base());
    let starts: Vec<String> = bounded
        .draw_slots(&pos)
        .0
        .iter()
        .map(|m| m.notation(Side::South, mancala_lab::bao::MoveKind::Kutakata))
        .collect();
    assert_eq!(starts, ["A3<*", "A3>*"]);
    // Worked from the rules, neither relay ever ends: the state after the first sowing comes back,
    // after 894 relays (A3<) and 228 relays (A3>).
    let (front, back) = (row(position, "A:"), row(position, "B:"));
    assert_eq!(
        relay(&front, &back, 3, false),
        Relay::Cycles {
            first: 0,
            period: 894
        }
    );
    assert_eq!(
        relay(&front, &back, 3, true),
        Relay::Cycles {
            first: 0,
            period: 228
        }
    );
    // So South has no legal move and loses, under the exact definition and the 5,000-seed bound.
    for rules in [bounded, BaoRules::new(BaoVariant::DEFAULT)] {
        assert!(rules.legal_moves(&pos).is_empty());
        let end = rules.outcome(&pos).unwrap();
        assert_eq!((end.winner, end.clause), (Side::North, "1.5.6"));
    }
}

/// B-U1: the catalog says why no witness exists; both steps of the argument hold on every mark
/// set in random games and in positions changed by random mutations.
#[test]
fn bao_kutakatia_never_takes_the_last_move() {
    use mancala_lab::bao::mutate::mutate;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    assert!(BAO_CATALOG.contains("### B-U1: no witness can exist"));
    let rules = BaoRules::new(bao_base());
    let (mut marks, mut heavy) = (0, 0);
    let mut check = |pos: &mancala_lab::bao::Position| {
        for mv in rules.legal_moves(pos) {
            let next = rules.play(pos, mv).unwrap().position;
            let Some(pit) = next.blocked() else { continue };
            marks += 1;
            let me = next.to_move();
            // (1) The marked player is in mtaji.
            assert_eq!(
                next.stage(),
                Stage::Mtaji,
                "{}",
                position_text::print(&next)
            );
            // (2) A mark on two or more seeds leaves another front pit of two or more, and the
            // player to move a legal move; a mark on one seed takes no move away.
            let marked = rules.legal_moves(&next);
            if next.board().get(me, pit) > 1 {
                heavy += 1;
                assert!(mancala_lab::bao::Pit::front_row()
                    .any(|p| p != pit && next.board().get(me, p) > 1));
                assert!(!marked.is_empty(), "{}", position_text::print(&next));
            } else {
                let mut setup = next.to_setup();
                setup.blocked = None;
                let free = mancala_lab::bao::Position::from_setup(setup).unwrap();
                let taken: Vec<_> = rules
                    .legal_moves(&free)
                    .into_iter()
                    .filter(|m| !marked.contains(m))
                    .collect();
                assert!(taken.is_empty(), "{}", position_text::print(&next));
            }
        }
    };
    for g in 0..400u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        rng.set_stream(g);
        let mut pos = mancala_lab::bao::Position::start();
        for ply in 0..400 {
            check(&pos);
            if ply % 8 == 0 {
                check(&mutate(&pos, 6, &mut rng));
            }
            let moves = rules.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = rules
                .play(&pos, moves[rng.gen_range(0..moves.len())])
                .unwrap()
                .position;
        }
    }
    assert!(
        marks > 200 && heavy > 60,
        "{marks} marks, {heavy} on two or more seeds"
    );
}

/// The table gives each frequency a 95% Wilson interval per 1,000 games, and says where each
/// witness comes from.
#[test]
fn the_report_gives_intervals_and_witness_sources() {
    let finding = |id, games, witness: Option<(usize, String)>| inconsistencies::Finding {
        id,
        clauses: "1.1",
        summary: "s",
        games,
        witness,
        constructed: None,
        impossible: None,
    };
    let mut none = finding("X-2", 0, None);
    none.impossible = Some("because");
    let findings = [finding("X-1", 263, Some((44, "w".into()))), none];
    let report = inconsistencies::report("bao", 10_000, 1, &findings);
    // Wilson, z = 1.96: 263 of 10,000 is 26.3 per 1,000 within 23.3 to 29.6; 0 of 10,000 is 0
    // within 0 to 1.96^2 / (10,000 + 1.96^2) = 0.38 per 1,000.
    assert!(
        report.contains("| X-1 | 1.1 | s | 263 | 26.3 | 23.3–29.6 | random play, ply 44 |"),
        "{report}"
    );
    assert!(
        report.contains("| X-2 | 1.1 | s | 0 | 0.0 | 0.0–0.4 | none can exist |"),
        "{report}"
    );
    assert!(report.contains("### X-2: no witness can exist\n\nbecause\n"));
    // Every finding in both catalogs has an interval.
    for catalog in [BAO_CATALOG, OWARE_CATALOG] {
        let rows: Vec<&str> = catalog
            .lines()
            .filter(|l| l.starts_with("| B-") || l.starts_with("| O-"))
            .filter(|l| l.matches('|').count() == 8)
            .collect();
        assert!(rows.len() >= 4, "{catalog}");
        assert!(rows.iter().all(|l| l.contains('–')), "{rows:?}");
    }
}

/// The Oware position at the start of a catalog witness.
fn oware_witness(w: &str) -> Position {
    let text: String = w
        .lines()
        .take_while(|l| {
            ["to_move:", "scores:", "north:", "south:"]
                .iter()
                .any(|f| l.starts_with(f))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    Position::parse(&text).unwrap()
}

/// The letters of the legal moves.
fn oware_moves(rules: &Rules, p: &Position) -> String {
    let game = rules.game_from(p.clone());
    rules
        .legal_moves(&game)
        .iter()
        .map(|m| m.letter(p.to_move()))
        .collect()
}

/// O-R1 (O.4.1): a grand slam, forbidden by the sheet, played capturing nothing by abapa.
#[test]
fn oware_grand_slam_catalog_witness_matches_the_finding() {
    let w = catalog_block(OWARE_CATALOG, "### O-R1 witness (ply");
    let p = oware_witness(&w);
    assert_eq!(
        p.print(),
        "to_move: South\nscores: 5 0\nnorth: 0 1 1 2 2 1\nsouth: 10 1 5 6 10 4\n"
    );
    // By hand: A's ten seeds go to B..F and a..e; e, d, c, b, a then hold 2, 2, 3, 3, 2 and are
    // all captured (O.3.1, O.3.2), leaving North (f empty) no seed: a grand slam.
    assert_eq!(oware_moves(&Rules::new(Variant::SHEET), &p), "BCDEF");
    assert_eq!(oware_moves(&Rules::new(Variant::ABAPA), &p), "ABCDEF");
    let abapa = Rules::new(Variant::ABAPA);
    let played = abapa
        .play(
            &abapa.game_from(p.clone()),
            mancala_lab::oware::Move { pit: 0 },
        )
        .unwrap();
    assert_eq!(played.captured, 0);
    assert_eq!(
        played.game.position().print(),
        "to_move: North\nscores: 5 0\nnorth: 0 2 2 3 3 2\nsouth: 0 2 6 7 11 5\n"
    );
}

/// O-U1 (O.4.2), the catalog's witness: both rows hold seeds and North's one move is a grand slam.
#[test]
fn oware_no_allowed_move_catalog_witness_matches_the_finding() {
    use mancala_lab::oware::game::Verdict;
    let w = catalog_block(OWARE_CATALOG, "### O-U1 witness (ply");
    let p = oware_witness(&w);
    assert_eq!(
        p.print(),
        "to_move: North\nscores: 24 12\nnorth: 5 0 0 0 0 0\nsouth: 1 1 2 1 2 0\n"
    );
    // By hand: f's five seeds make A..E 2, 2, 3, 2, 3, all captured: no allowed move, with seeds
    // on both rows. The sheet reading gives each side its own row: South 24 + 7, North 12 + 5.
    let end = Rules::new(Variant::SHEET)
        .game_from(p.clone())
        .outcome()
        .unwrap();
    assert_eq!(
        (end.clause, end.winner, end.scores),
        ("O.4.2", Some(mancala_lab::oware::Side::South), [31, 17])
    );
    let strict = Rules::new(Variant::STRICT).game_from(p).outcome().unwrap();
    assert_eq!(
        (strict.clause, strict.verdict),
        ("O.4.2", Verdict::RulesSilent)
    );
}

/// O-R3 (O.6.1): North passes 25 with seeds left; abapa sweeps them to their owners.
#[test]
fn oware_final_sweep_catalog_witness_matches_the_finding() {
    let w = catalog_block(OWARE_CATALOG, "### O-R3 witness (ply");
    let p = oware_witness(&w);
    assert_eq!(
        p.print(),
        "to_move: South\nscores: 8 31\nnorth: 3 1 2 0 1 1\nsouth: 1 0 0 0 0 0\n"
    );
    // By hand: 31 > 24 ends the game (O.6.1) with 9 seeds on the board; swept, South's row (1)
    // and North's (8) go to their owners. North wins either way.
    let north = Some(mancala_lab::oware::Side::North);
    let sheet = Rules::new(Variant::SHEET).game_from(p.clone());
    let end = sheet.outcome().unwrap();
    assert_eq!(
        (end.clause, end.winner, end.scores),
        ("O.6.1", north, [8, 31])
    );
    assert_eq!(sheet.position().pits().iter().sum::<u8>(), 9);
    let abapa = Rules::new(Variant::ABAPA).game_from(p).outcome().unwrap();
    assert_eq!(
        (abapa.clause, abapa.winner, abapa.scores),
        ("O.6.1", north, [9, 39])
    );
}

/// O-R2 (O.6.2): the printed moves bring the witness back without a capture; abapa ends the game
/// at that first return, the sheet plays on.
#[test]
fn oware_repetition_catalog_witness_matches_the_finding() {
    let w = catalog_block(OWARE_CATALOG, "### O-R2 witness (ply");
    let p = oware_witness(&w);
    assert_eq!(
        p.print(),
        "to_move: North\nscores: 23 22\nnorth: 1 1 0 0 0 0\nsouth: 0 0 0 0 1 0\n"
    );
    let line = w.lines().find(|l| l.starts_with("moves ")).unwrap();
    let moves: String = line["moves ".len()..line.find(" bring").unwrap()]
        .split(' ')
        .collect();
    // By hand: every move sows a lone seed into the next pit (O.2.3) and none makes two or three in
    // the opponent's row: f to A, E to F, e to f, F to a, a to b, A to B, b to c, B to C, c to d,
    // C to D, d to e, D to E. North's seeds are back in e and f, South's in E, the scores unchanged.
    assert_eq!(moves, "fEeFaAbBcCdD");
    let sheet = Rules::new(Variant::SHEET);
    let abapa = Rules::new(Variant::ABAPA);
    let replay = |rules: &Rules| {
        let mut game = rules.game_from(p.clone());
        for (i, c) in moves.chars().enumerate() {
            assert!(game.outcome().is_none(), "over before move {i}");
            let (side, mv) = mancala_lab::oware::Move::from_letter(c).unwrap();
            assert_eq!(side, game.position().to_move());
            let played = rules.play(&game, mv).unwrap();
            assert_eq!(played.captured, 0);
            game = played.game;
        }
        game
    };
    let on = replay(&sheet);
    assert_eq!((on.position(), on.outcome()), (&p, None));
    // Abapa ends at the first return and gives each side its row: 23 + 1 and 22 + 2, a draw.
    let end = replay(&abapa).outcome().unwrap();
    assert_eq!(
        (end.clause, end.winner, end.scores),
        ("O.6.2", None, [24, 24])
    );
}

/// Kalah's hunt meets every dynamic finding in a few hundred random games, and each witness
/// shows what its finding says, checked from the printed boards alone.
#[test]
fn kalah_findings_are_found_with_witnesses_that_show_them() {
    let findings = mancala_lab::kalah::inconsistencies::hunt(300, 1);
    let witness = |id: &str| -> String {
        let f = findings.iter().find(|f| f.id == id).unwrap();
        assert!(f.games > 0, "{id} not found in 300 games");
        f.witness.clone().unwrap().1
    };
    // A key's numbers in a printed board, e.g. `scores: 3 5`.
    fn numbers(board: &str, key: &str) -> Vec<u32> {
        let line = board
            .lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("no {key} in {board}"));
        line[key.len()..]
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect()
    }
    // K-S1: the two readings' boards after the move differ by the lone last seed: one seed
    // fewer on the mover's row under empty-capture, one more in a store.
    let w = witness("K-S1");
    let (ours, theirs) = w.split_once("empty-capture:\n").unwrap();
    let ours = ours.split_once("openspiel:\n").unwrap().1;
    let seeds = |b: &str| -> u32 {
        numbers(b, "north:").iter().sum::<u32>() + numbers(b, "south:").iter().sum::<u32>()
    };
    let stores = |b: &str| -> u32 { numbers(b, "scores:").iter().sum() };
    assert_eq!(seeds(ours), seeds(theirs) + 1, "{w}");
    assert_eq!(stores(ours) + 1, stores(theirs), "{w}");
    // K-S2: after the move one row is empty and the other is not.
    let w = witness("K-S2");
    let after = w.split_once("after:\n").unwrap().1;
    let rows = [numbers(after, "north:"), numbers(after, "south:")].map(|r| r.iter().sum::<u32>());
    assert!(rows.contains(&0) && rows.iter().any(|&r| r > 0), "{w}");
    // K-S3: seeds are left on the board and the readings name different results.
    let w = witness("K-S3");
    assert!(seeds(&w) > 0, "{w}");
    let results: Vec<&str> = w.lines().last().unwrap().split("; ").collect();
    let named: Vec<&str> = results
        .iter()
        .map(|r| r.split(": ").nth(1).unwrap())
        .collect();
    assert!(named.iter().any(|r| *r != named[0]), "{w}");
    // K-S4: the pit sown holds more than 2m = 12 seeds.
    let w = witness("K-S4");
    let n: u32 = w
        .split('(')
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(n > 12, "{w}");
}
