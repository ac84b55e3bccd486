//! Kalah's rule inconsistencies: positions reached in random play where the readings of
//! spec/findings/kalah.md lead to different play, each with the earliest witness met.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::rules::{Rules, State};
use super::variant::{Sweep, Variant};
use super::{Move, Side};
use crate::inconsistencies::Finding;

/// Plays `games` random games of Kalah(6,4) under the `openspiel` reading and checks every
/// position.
pub fn hunt(games: u64, seed: u64) -> Vec<Finding> {
    hunt_with_progress(games, seed, &mut |_| {})
}

/// The position after `mv` under `rules` from `state`'s position (no ply cap), printed.
fn after(rules: &Rules, state: &State, mv: Move) -> String {
    let from = rules.state_from(*state.position());
    rules
        .play(&from, mv)
        .map_or_else(|e| e.to_string(), |p| p.state.position().to_string())
}

/// The winner as words.
fn winner(w: Option<Side>) -> String {
    w.map_or("a draw".into(), |s| format!("{s} wins"))
}

/// [`hunt`], calling `done(g)` after game `g`.
pub fn hunt_with_progress(games: u64, seed: u64, done: &mut dyn FnMut(u64)) -> Vec<Finding> {
    let base = Variant {
        ply_cap: None,
        ..Variant::OPENSPIEL
    };
    let openspiel = Rules::new(base);
    let empty_capture = Rules::new(Variant {
        empty_capture: true,
        ..base
    });
    let starvation = Rules::new(Variant {
        end: super::variant::EndTest::MoverStarved,
        ..base
    });
    let sweeps = [Sweep::ToEmptier, Sweep::None].map(|sweep| Rules::new(Variant { sweep, ..base }));
    let mut findings = vec![
        Finding::new("K-S1", "K.3.2", "a last seed in an empty own pit opposite an empty pit: stays (openspiel) or goes to the store alone (empty-capture)"),
        Finding::new("K-S2", "K.4.1", "a row empties while the player to move still has seeds: the game ends (openspiel) or goes on (starvation)"),
        Finding::new("K-S3", "K.4.2", "the game ends with seeds left and the sweep decides the winner: to their owner (openspiel), to the emptier, or to no one"),
        Finding::new("K-S4", "K.2.3", "a sowing of 13 seeds or more comes back to the emptied pit: sown into (openspiel, ludii), where Oware skips it"),
    ];
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(g);
        let mut seen = [false; 4];
        let mut state = openspiel.new_game();
        for ply in 0.. {
            let moves = openspiel.legal_moves(&state);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            let pos = *state.position();
            let mover = pos.to_move();
            let seeds = pos.pit(mover, mv.pit);
            let letter = mv.letter(mover);
            let ours = after(&openspiel, &state, mv);
            let theirs = after(&empty_capture, &state, mv);
            if ours != theirs {
                findings[0].note(&mut seen[0], ply, || {
                    format!("{pos}move: {letter}\nopenspiel:\n{ours}empty-capture:\n{theirs}")
                });
            }
            if usize::from(seeds) > 2 * usize::from(pos.pits()) {
                findings[3].note(&mut seen[3], ply, || {
                    format!("{pos}move: {letter} ({seeds} seeds)\nafter:\n{ours}")
                });
            }
            let next = openspiel.play(&state, mv).expect("a legal move").state;
            if let Some(outcome) = next.outcome() {
                let end = *next.position();
                if starvation.state_from(end).outcome().is_none() {
                    findings[1].note(&mut seen[1], ply + 1, || {
                        format!(
                            "{pos}move: {letter}\nafter:\n{end}openspiel: the game ends, {}; \
                             starvation: {} plays on",
                            winner(outcome.winner),
                            end.to_move()
                        )
                    });
                }
                let winners: Vec<Option<Side>> = sweeps
                    .iter()
                    .map(|r| r.state_from(end).outcome().and_then(|o| o.winner))
                    .collect();
                if winners.iter().any(|&w| w != outcome.winner) {
                    findings[2].note(&mut seen[2], ply + 1, || {
                        format!(
                            "{end}to-owner: {}; to-emptier: {}; none: {}",
                            winner(outcome.winner),
                            winner(winners[0]),
                            winner(winners[1])
                        )
                    });
                }
            }
            state = next;
        }
        done(g);
    }
    findings
}
