//! Hunting rule inconsistencies: positions reached in random play where readings the sources allow
//! lead to different play, where no clause decides, or where one clause's verdict rests on another.
//! `mancala-lab inconsistencies` prints each finding with a witness and its frequency.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::bao::trace::{Event, MoveEnd};
use crate::bao::variant::{HouseKutakatia, HouseLoss, InfiniteMoves, StoreSeedIntoHouse, Variant};
use crate::bao::{position_text, Played, Position, Rules};

/// One kind of finding, with its first (earliest-ply) witness and how many games met it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Our id, e.g. `B-R1`.
    pub id: &'static str,
    /// The clauses involved.
    pub clauses: &'static str,
    /// What differs or is undecided.
    pub summary: &'static str,
    /// Games (of those played) in which it arose at least once.
    pub games: u64,
    /// Plies at which the witness arose, and the witness: position text and what differs.
    pub witness: Option<(usize, String)>,
}

impl Finding {
    fn new(id: &'static str, clauses: &'static str, summary: &'static str) -> Finding {
        Finding {
            id,
            clauses,
            summary,
            games: 0,
            witness: None,
        }
    }

    fn note(&mut self, seen: &mut bool, ply: usize, witness: impl FnOnce() -> String) {
        if !*seen {
            *seen = true;
            self.games += 1;
        }
        if self.witness.as_ref().is_none_or(|(p, _)| ply < *p) {
            self.witness = Some((ply, witness()));
        }
    }
}

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

/// Plays `games` random games (default reading, 5,000-seed move bound) and checks every position.
pub fn bao(games: u64, seed: u64) -> Vec<Finding> {
    let bound = InfiniteMoves::SownLimit(5_000);
    let base = Variant::DEFAULT.with_infinite_moves(bound);
    let readings: [(&'static str, &'static str, &'static str, Variant); 4] = [
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
    let (r5, u3) = (readings.len() + 2, readings.len() + 3);
    let rules = Rules::new(base);
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(g);
        let mut seen = vec![false; findings.len()];
        let mut pos = Position::start();
        // The kutakatia mark the player to move had on their previous turn, if any.
        let mut marks: [Option<crate::bao::Pit>; 2] = [None, None];
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
    }
    findings
}

/// Plays `games` random Oware games under the sheet reading and checks every position.
pub fn oware(games: u64, seed: u64) -> Vec<Finding> {
    use crate::oware::{Rules as OwareRules, Variant as OwareVariant};
    let sheet = OwareRules::new(OwareVariant::SHEET);
    let abapa = OwareRules::new(OwareVariant::ABAPA);
    let lenient = OwareRules::new(OwareVariant {
        no_allowed_move: crate::oware::variant::NoAllowedMove::AllowGrandSlamWithoutCapture,
        ..OwareVariant::SHEET
    });
    let mut findings = vec![
        Finding::new("O-R1", "O.4.1", "a grand slam is available: forbidden (sheet) vs legal capturing nothing (abapa)"),
        Finding::new("O-U1", "O.4.2", "no allowed move while both rows hold seeds: the sheet names no player to take them"),
        Finding::new("O-R2", "O.6.2", "a position repeats since the last capture: abapa ends the game, the sheet plays on"),
        Finding::new("O-R3", "O.6.1", "a player reaches 25 with seeds left on the board: swept to their owners (abapa) or left (sheet)"),
    ];
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(g);
        let mut seen = vec![false; findings.len()];
        let mut game = sheet.new_game();
        for ply in 0..5000 {
            let pos = game.position().clone();
            let ms = sheet.legal_moves(&game);
            let letters = |v: &[crate::oware::Move]| {
                v.iter()
                    .map(|m| m.letter(pos.to_move()))
                    .collect::<String>()
            };
            let other = abapa.legal_moves(&abapa.game_from(pos.clone()));
            if game.outcome().is_none() && letters(&ms) != letters(&other) {
                findings[0].note(&mut seen[0], ply, || {
                    format!(
                        "{}sheet: {} | abapa: {}",
                        pos.print(),
                        letters(&ms),
                        letters(&other)
                    )
                });
            }
            if game.outcome().is_some() {
                break;
            }
            let mv = ms[rng.gen_range(0..ms.len())];
            let next = sheet.play(&game, mv).expect("legal").game;
            let np = next.position();
            // O-U1: the sheet ends the game for want of an allowed move while both rows still hold
            // seeds (every move of the player to move would capture all the opponent's seeds).
            // With one row empty the sheet names the player who takes the seeds, so that case is
            // settled and not reported. The lenient reading's position is the one before any sweep.
            let lenient_next = lenient.play(&game, mv).expect("legal under both").game;
            let before_sweep = lenient_next.position();
            let both_rows = before_sweep.row_seeds(crate::oware::Side::South) > 0
                && before_sweep.row_seeds(crate::oware::Side::North) > 0;
            if next.outcome().is_some_and(|o| o.clause == "O.4.2")
                && both_rows
                && lenient_next.outcome().is_none()
            {
                findings[1].note(&mut seen[1], ply + 1, || before_sweep.print());
            }
            let with_history = abapa.play(&game, mv).map(|p| p.game);
            if with_history
                .as_ref()
                .is_ok_and(|h| h.outcome().is_some_and(|o| o.clause == "O.6.2"))
            {
                findings[2].note(&mut seen[2], ply + 1, || np.print());
            }
            if next.outcome().is_some_and(|o| o.clause == "O.6.1")
                && np.pits().iter().any(|&s| s > 0)
            {
                findings[3].note(&mut seen[3], ply + 1, || np.print());
            }
            game = next;
        }
    }
    findings
}

/// The findings as a Markdown table with witnesses, frequencies per 1,000 games.
pub fn report(game: &str, games: u64, seed: u64, findings: &[Finding]) -> String {
    let mut out = format!(
        "Dynamic findings for {game}: {games} random games, seed {seed} \
         (`mancala-lab inconsistencies --game {game} --games {games} --seed {seed}`)\n\n\
         | id | clauses | finding | games with it | per 1,000 games |\n|---|---|---|---|---|\n"
    );
    for f in findings {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.1} |\n",
            f.id,
            f.clauses,
            f.summary,
            f.games,
            1000.0 * f.games as f64 / games.max(1) as f64
        ));
    }
    for f in findings {
        if let Some((ply, w)) = &f.witness {
            out.push_str(&format!(
                "\n### {} witness (ply {ply})\n\n```\n{w}\n```\n",
                f.id
            ));
        }
    }
    out
}
