//! Oware's rule inconsistencies: positions reached in random play where the sheet and abapa
//! readings lead to different play, or where no clause decides.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::inconsistencies::Finding;

/// Plays `games` random Oware games under the sheet reading and checks every position.
pub fn hunt(games: u64, seed: u64) -> Vec<Finding> {
    hunt_with_progress(games, seed, &mut |_| {})
}

/// [`hunt`], calling `done(g)` after game `g`.
pub fn hunt_with_progress(games: u64, seed: u64, done: &mut dyn FnMut(u64)) -> Vec<Finding> {
    use super::{Rules as OwareRules, Variant as OwareVariant};
    let sheet = OwareRules::new(OwareVariant::SHEET);
    let abapa = OwareRules::new(OwareVariant::ABAPA);
    let lenient = OwareRules::new(OwareVariant {
        no_allowed_move: super::variant::NoAllowedMove::AllowGrandSlamWithoutCapture,
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
        // The moves since the last capture: moves[j] leads from game.since_capture[j] to the next.
        let mut moves: Vec<char> = Vec::new();
        for ply in 0..5000 {
            let pos = game.position().clone();
            let ms = sheet.legal_moves(&game);
            let letters = |v: &[super::Move]| {
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
            let played = sheet.play(&game, mv).expect("legal");
            let next = played.game;
            let np = next.position();
            // O-U1: the sheet ends the game for want of an allowed move while both rows still hold
            // seeds (every move of the player to move would capture all the opponent's seeds).
            // With one row empty the sheet names the player who takes the seeds, so that case is
            // settled and not reported. The lenient reading's position is the one before any sweep.
            let lenient_next = lenient.play(&game, mv).expect("legal under both").game;
            let before_sweep = lenient_next.position();
            let both_rows = before_sweep.row_seeds(super::Side::South) > 0
                && before_sweep.row_seeds(super::Side::North) > 0;
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
                // The witness is the position that comes back, with the moves that bring it back.
                // (The earliest witness of a game is a second occurrence, which the sheet plays on
                // from unswept; a third one, which the sheet ends and sweeps, comes later.)
                findings[2].note(&mut seen[2], ply + 1, || {
                    let Some(first) = game.since_capture.iter().position(|p| p == np) else {
                        return np.print();
                    };
                    let cycle: Vec<String> = moves[first..]
                        .iter()
                        .chain(std::iter::once(&mv.letter(pos.to_move())))
                        .map(|c| c.to_string())
                        .collect();
                    format!(
                        "{}moves {} bring this position back without a capture: abapa ends the \
                         game here (O.6.2), the sheet plays on",
                        np.print(),
                        cycle.join(" ")
                    )
                });
            }
            if played.captured > 0 {
                moves.clear();
            } else {
                moves.push(mv.letter(pos.to_move()));
            }
            if next.outcome().is_some_and(|o| o.clause == "O.6.1")
                && np.pits().iter().any(|&s| s > 0)
            {
                findings[3].note(&mut seen[3], ply + 1, || np.print());
            }
            game = next;
        }
        done(g);
    }
    findings
}
