//! Bao's rule inconsistencies: positions reached in random play where readings the sources allow
//! lead to different play, where no clause decides, or where one clause's verdict rests on another.
//! Where random play meets a finding in no game, the catalog gives a witness built by search
//! instead, checked here every time the catalog is written, or the reason none can exist.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::inconsistencies::{Constructed, Finding, WitnessError};

use super::trace::{Event, MoveEnd};
use super::variant::{HouseKutakatia, HouseLoss, InfiniteMoves, StoreSeedIntoHouse, Variant};
use super::{position_text, MoveKind, MoveText, Played, Position, Rules};

/// The legal moves of `pos` under `rules` with each move's resulting position, as text.
fn play_out(rules: &Rules, pos: &Position) -> Vec<(String, String)> {
    played(rules, pos)
        .into_iter()
        .map(|(m, p)| (m, position_text::print(&p.position)))
        .collect()
}

/// The legal moves of `pos` in notation, each with what playing it gives.
fn played(rules: &Rules, pos: &Position) -> Vec<(String, Played)> {
    rules
        .legal_moves(pos)
        .into_iter()
        .map(|m| {
            let played = rules.play(pos, m).expect("legal");
            (m.notation(pos.to_move(), played.kind), played)
        })
        .collect()
}

/// The first difference between two readings' moves and results, described.
fn difference(
    a: &[(String, String)],
    b: &[(String, String)],
    names: (&str, &str),
) -> Option<String> {
    let moves = |v: &[(String, String)]| {
        v.iter()
            .map(|(m, _)| m.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if moves(a) != moves(b) {
        return Some(format!(
            "legal moves: {}: {} | {}: {}",
            names.0,
            moves(a),
            names.1,
            moves(b)
        ));
    }
    a.iter()
        .zip(b)
        .find(|(x, y)| x.1 != y.1)
        .map(|(x, y)| format!("after {}: {}:\n{}{}:\n{}", x.0, names.0, x.1, names.1, y.1))
}

/// A reading the Bao findings compare with the default: id, clauses, what differs, the variant.
type Reading = (&'static str, &'static str, &'static str, Variant);

/// The Bao findings, none seen yet: first one per reading compared with `base`, then B-U1, B-U2,
/// B-R5 and B-U3.
fn bao_catalog(base: Variant) -> ([Reading; 4], Vec<Finding>) {
    let readings: [Reading; 4] = [
        (
            "B-R1",
            "3.2, 4.2.1.1",
            "house lost at the first mtaji harvest (EN, CS, FR) vs only when emptied (NL)",
            Variant {
                house_loss: HouseLoss::EmptiedOnly,
                ..base
            },
        ),
        (
            "B-R2",
            "5.1.1.1, 3.2",
            "owned house exempt from kutakatia vs exempt only with six or more",
            Variant {
                house_kutakatia: HouseKutakatia::ExemptWhileOwnedWithSix,
                ..base
            },
        ),
        (
            "B-R3",
            "2.1.2, 1.3, 4.2.2.3.1",
            "store seed into a house of five: play it out vs stop (a sowing of one seed)",
            Variant {
                store_seed_into_house: StoreSeedIntoHouse::Stop,
                ..base
            },
        ),
        (
            "B-R4",
            "1.5.6",
            "infinite move = more than 5,000 seeds sown vs a 500-seed cut-off",
            base.with_infinite_moves(InfiniteMoves::SownLimit(500)),
        ),
    ];
    let mut findings: Vec<Finding> = readings
        .iter()
        .map(|(id, c, s, _)| Finding::new(id, c, s))
        .collect();
    findings.push(Finding::new(
        "B-U1",
        "5.1, 1.2.2",
        "kutakatia leaves the player to move without any legal move: a loss no clause intends",
    ));
    findings.push(Finding::new(
        "B-U2",
        "1.5.6, 1.2.2",
        "every move of the player to move is infinite: lost by the definition chosen at the start",
    ));
    findings.push(Finding::new(
        "B-R5",
        "5.1",
        "kutakatia lasting one move (ours) vs two moves of the blocked player: different legal moves",
    ));
    findings.push(Finding::new(
        "B-U3",
        "1.2.1",
        "a harvest empties the opponent's front row mid-move: the winner is clear, but whether the harvest is sown and the move goes on is unstated",
    ));
    (readings, findings)
}

/// Plays `games` random games (default reading, 5,000-seed move bound) and checks every position;
/// adds the built witnesses of B-R2 and B-U2 (checked again here) and why B-U1 has none.
pub fn hunt(games: u64, seed: u64) -> Result<Vec<Finding>, WitnessError> {
    hunt_with_progress(games, seed, &mut |_| {})
}

/// [`hunt`], calling `done(g)` after game `g`.
pub fn hunt_with_progress(
    games: u64,
    seed: u64,
    done: &mut dyn FnMut(u64),
) -> Result<Vec<Finding>, WitnessError> {
    let bound = InfiniteMoves::SownLimit(5_000);
    let base = Variant::DEFAULT.with_infinite_moves(bound);
    let (readings, mut findings) = bao_catalog(base);
    let (r5, u3) = (readings.len() + 2, readings.len() + 3);
    let rules = Rules::new(base);
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(g);
        let mut seen = vec![false; findings.len()];
        let mut pos = Position::start();
        // The kutakatia mark the player to move had on their previous turn, if any.
        let mut marks: [Option<super::Pit>; 2] = [None, None];
        for ply in 0..2000 {
            let moves = played(&rules, &pos);
            let mid_move_end = moves.iter().find(|(_, p)| {
                p.trace
                    .iter()
                    .any(|s| matches!(s.event, Event::End(MoveEnd::GameOver)))
            });
            if let Some((mv, _)) = mid_move_end {
                findings[u3].note(&mut seen[u3], ply, || {
                    format!(
                        "{}{mv} empties the opponent's front row with a harvest",
                        position_text::print(&pos)
                    )
                });
            }
            let me = pos.to_move().index();
            if let (Some(old), None) = (marks[me], pos.blocked()) {
                // Carry last turn's mark over (a two-move reading) and compare the legal moves.
                let mut setup = pos.to_setup();
                setup.blocked = Some(old);
                if let Ok(carried) = Position::from_setup(setup) {
                    let (a, b) = (rules.legal_moves(&pos), rules.legal_moves(&carried));
                    if a != b {
                        findings[r5].note(&mut seen[r5], ply, || {
                            format!(
                                "{}one move: {} legal | two moves ({} still blocked): {} legal",
                                position_text::print(&pos),
                                a.len(),
                                old.name(pos.to_move()),
                                b.len()
                            )
                        });
                    }
                }
            }
            marks[me] = pos.blocked();
            let here: Vec<(String, String)> = moves
                .into_iter()
                .map(|(m, p)| (m, position_text::print(&p.position)))
                .collect();
            for (i, (_, _, _, v)) in readings.iter().enumerate() {
                let other = play_out(&Rules::new(*v), &pos);
                if let Some(diff) = difference(&here, &other, ("default", findings[i].id)) {
                    findings[i].note(&mut seen[i], ply, || {
                        format!("{}{diff}", position_text::print(&pos))
                    });
                }
            }
            if here.is_empty() {
                if let Some(pit) = pos.blocked() {
                    let mut unblocked = pos.to_setup();
                    unblocked.blocked = None;
                    if let Ok(free) = Position::from_setup(unblocked) {
                        if !rules.legal_moves(&free).is_empty() {
                            let k = readings.len();
                            findings[k].note(&mut seen[k], ply, || {
                                format!(
                                    "{}(without the mark on {} there would be moves)",
                                    position_text::print(&pos),
                                    pit.name(pos.to_move())
                                )
                            });
                        }
                    }
                }
                if rules.outcome(&pos).is_some_and(|o| o.clause == "1.5.6") {
                    let k = readings.len() + 1;
                    findings[k].note(&mut seen[k], ply, || position_text::print(&pos));
                }
                break;
            }
            let (_, next) = &here[rng.gen_range(0..here.len())];
            pos = position_text::parse(next).expect("printed positions parse");
        }
        done(g);
    }
    findings[1].constructed = Some(house_kutakatia_witness(&rules, &Rules::new(readings[1].3))?);
    findings[readings.len()].impossible = Some(NO_KUTAKATIA_DEADLOCK);
    findings[readings.len() + 1].constructed = Some(all_infinite_witness(&rules)?);
    Ok(findings)
}

/// The moves from the start that reach the B-R2 witness. Random play almost never keeps a house
/// of five or fewer seeds (left by the house tax, 2.3.2) owned into mtaji; a depth-first search from
/// random games, pruning every line that lost that house or refilled it to six, found this one.
const HOUSE_KUTAKATIA_LINE: &str = "A7>* a6>* A6>* a8>* A8>* a7>* A7>* a8>* A8>* a5<* A5> a3<* \
A8> a2< A6>* a2< A5> a2<* A8> a3< A7<* a3> A5>* a3> A7>* a1< A5> a7>* A8> a2< A6> a1< A5> a2< \
A8>+ a6< A8> a2< A8> a2< A3> a3< A1< a2<";

/// B-R2 witness: replays [`HOUSE_KUTAKATIA_LINE`] and shows the move the two readings write apart.
fn house_kutakatia_witness(rules: &Rules, six: &Rules) -> Result<Constructed, WitnessError> {
    let fail = |why: String| WitnessError { id: "B-R2", why };
    let mut pos = Position::start();
    let plies: Vec<&str> = HOUSE_KUTAKATIA_LINE.split_whitespace().collect();
    for (i, m) in plies.iter().enumerate() {
        let text = MoveText::parse(m).map_err(|e| fail(format!("ply {}: {m}: {e}", i + 1)))?;
        pos = rules
            .play_text(&pos, &text)
            .map_err(|e| fail(format!("ply {}: {e}", i + 1)))?
            .1
            .position;
    }
    let (here, there) = (play_out(rules, &pos), play_out(six, &pos));
    let diff = difference(&here, &there, ("default", "B-R2"))
        .ok_or_else(|| fail("the two readings agree on every move".into()))?;
    let (mv, after) = there
        .iter()
        .zip(&here)
        .find(|(a, b)| a != b)
        .map(|(a, _)| a.clone())
        .ok_or_else(|| fail("no move differs".into()))?;
    Ok(Constructed {
        text: format!(
            "{}{diff}\nafter {mv} under B-R2:\n{after}reached from the start in {} plies \
             (default reading): {}",
            position_text::print(&pos),
            plies.len(),
            plies.join(" ")
        ),
        reachable: true,
    })
}

/// Why B-U1 has no witness (the tests check both steps on positions of random play).
pub const NO_KUTAKATIA_DEADLOCK: &str = "No position can show it, under the exact definition of \
an infinite move or any seed bound of 1,024 or more (5,000 here). (1) The marked player is always \
in mtaji: 5.1 marks a pit P only when its owner has no capture start, and the other player's harvest \
of P needs the pit facing P to hold seeds (2.2.1; in mtaji 1.4: the last seed lands in a non-empty \
pit), so in kunamua a store seed into P would harvest that pit (2.2.1): a capture start after all. (2) In mtaji only a pit of \
two or more seeds starts a move (3.3.1). If P holds one seed the mark forbids nothing. If it holds \
more, 5.1.1.3 leaves another front pit R of two or more, whose kutakata passes the start rules (3.5; \
3.5.2 does not apply, P being filled) and ends: no sowing of it empties P, since a kuendelea ending \
in P stops there (5.2), and the sowings run on around the 16 pits, so every 16 seeds sown put one in \
P: fewer than 16 x 64 = 1,024 seeds are sown. So a mark never takes away a player's last move \
(a player with no pit of two or more has none either way, and loses by 3.3.2). A mark kept for two \
moves can (the B-R5 witness).";

/// The B-U2 witness, built by search: relays that never end were followed, and each state met was
/// turned around the ring until one front pit alone held two or more seeds and both of its starts
/// proved infinite. North's front seeds face only South's empty front pits, so South cannot harvest.
const ALL_INFINITE: &str = "to_move: South
stores: 0 0
houses: lost lost
b: 4 3 3 3 3 3 3 3
a: 1 0 0 0 1 0 1 0
A: 0 1 3 1 0 1 0 1
B: 3 0 1 2 7 0 1 15
";

/// B-U2 witness: checks that every start of [`ALL_INFINITE`] is infinite, by the exact definition
/// and by the 5,000-seed bound, and says which starts there are.
fn all_infinite_witness(bounded: &Rules) -> Result<Constructed, WitnessError> {
    let fail = |why: String| WitnessError { id: "B-U2", why };
    let pos = position_text::parse(ALL_INFINITE).map_err(|e| fail(e.to_string()))?;
    let exact = Rules::new(bounded.variant.with_infinite_moves(InfiniteMoves::Exact));
    let starts: Vec<String> = bounded
        .draw_slots(&pos)
        .0
        .iter()
        .map(|m| m.notation(pos.to_move(), MoveKind::Kutakata))
        .collect();
    for (name, rules) in [("exact", &exact), ("5,000 seeds", bounded)] {
        let (legal, infinite) = rules.legal_moves_and_infinite(&pos);
        let clause = rules.outcome(&pos).map(|o| o.clause);
        if !legal.is_empty() || infinite == 0 || clause != Some("1.5.6") {
            return Err(fail(format!(
                "{name}: {} legal, {infinite} infinite, end {clause:?}",
                legal.len()
            )));
        }
    }
    Ok(Constructed {
        text: format!(
            "{ALL_INFINITE}starts: {}; each is infinite by the exact definition (its in-move state \
             comes back) and by the 5,000-seed bound, so {} loses (1.5.6, 1.2.2)",
            starts.join(" "),
            pos.to_move()
        ),
        reachable: false,
    })
}
