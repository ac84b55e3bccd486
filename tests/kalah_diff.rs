//! Kalah's optimized engine against the reference engine: random games under every preset and
//! many boards Kalah(m,n), the two states compared ply by ply (position, legal moves, outcome).

use mancala_lab::game::Game;
use mancala_lab::kalah::fast::FastRules;
use mancala_lab::kalah::variant::PRESETS;
use mancala_lab::kalah::{Move, Rules, Variant};

/// A small deterministic generator (xorshift64*), so that the games do not depend on the crate's.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Plays `games` random games of `variant` on both engines; returns the plies played.
fn agree(variant: Variant, games: usize, rng: &mut Rng) -> usize {
    let reference = Rules::new(variant);
    let fast = FastRules::new(variant);
    let mut plies = 0;
    let mut moves = Vec::new();
    for game in 0..games {
        let mut r = reference.new_game();
        let mut f = fast.new_game();
        loop {
            let context = || format!("{variant}, game {game}, ply {}", r.plies());
            assert_eq!(fast.position(&f), *r.position(), "{}", context());
            assert_eq!(f.outcome(), r.outcome(), "{}", context());
            assert_eq!(f.plies(), r.plies(), "{}", context());
            // The typed interface's keys and scores, which the search policies read.
            assert_eq!(
                Game::key(&fast, &f),
                Game::key(&reference, &r),
                "{}",
                context()
            );
            assert_eq!(
                Game::scores(&fast, &f),
                Game::scores(&reference, &r),
                "{}",
                context()
            );
            fast.legal_moves(&f, &mut moves);
            assert_eq!(moves, reference.legal_moves(&r), "{}", context());
            if moves.is_empty() {
                assert!(r.outcome().is_some(), "{}: no move, no outcome", context());
                break;
            }
            let mv: Move = moves[rng.below(moves.len())];
            let played = reference.play(&r, mv).unwrap();
            let ply = fast.play(&mut f, mv);
            assert_eq!(ply.extra_turn, played.extra_turn, "{}", context());
            assert_eq!(ply.captured, played.captured, "{}", context());
            r = played.state;
            plies += 1;
        }
    }
    plies
}

#[test]
fn the_engines_agree_on_every_preset_and_board() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut plies = 0;
    for (name, preset) in PRESETS {
        for pits in 1..=6 {
            for seeds in [1, 2, 3, 4, 5, 6, 12] {
                let variant = Variant {
                    pits,
                    seeds,
                    ..preset
                };
                plies += agree(variant, 40, &mut rng);
            }
        }
        // The default board at length.
        plies += agree(preset, 400, &mut rng);
        assert!(plies > 0, "{name}");
    }
    assert!(plies > 100_000, "only {plies} plies compared");
}

#[test]
fn a_short_cap_ends_games_alike() {
    let mut rng = Rng(7);
    for cap in [1, 2, 5, 17] {
        let variant: Variant = format!("openspiel:cap={cap}").parse().unwrap();
        agree(variant, 200, &mut rng);
        let variant: Variant = format!("no-sweep:cap={cap},sweep=to-emptier")
            .parse()
            .unwrap();
        agree(variant, 200, &mut rng);
    }
}

/// Both engines through the typed game interface: whole random games give the same rows (moves,
/// plies, scores, winner, end clause) and the same clause events, under every preset and boards
/// from Kalah(1,1) up.
#[test]
fn the_typed_engines_give_the_same_games_and_events() {
    use mancala_lab::playout::play_game;
    use mancala_lab::policy::Policy;
    for (name, preset) in PRESETS {
        for (pits, seeds) in [(6, 4), (1, 1), (3, 3), (6, 6), (4, 12)] {
            let variant = Variant {
                pits,
                seeds,
                ..preset
            };
            let (reference, fast) = (Rules::new(variant), FastRules::new(variant));
            for game in 0..150 {
                let (r_row, r_events) =
                    play_game(&reference, Policy::Random, 5, game, 2000).unwrap();
                let (f_row, f_events) = play_game(&fast, Policy::Random, 5, game, 2000).unwrap();
                assert_eq!(f_row, r_row, "{name} Kalah({pits},{seeds}) game {game}");
                assert_eq!(
                    f_events, r_events,
                    "{name} Kalah({pits},{seeds}) game {game}"
                );
            }
        }
    }
}

/// Two plies worked by hand from the start of Kalah(6,4): South's C sows its 4 seeds into D, E,
/// F and South's store, a sowing (K.2.1) and an extra turn (K.2.4); South's A then sows into
/// B-E, the last seed in E, which held 5: a sowing alone.
#[test]
fn a_ply_reports_its_clauses_on_both_engines() {
    use mancala_lab::game::Game;
    fn events<G: Game<Move = Move>>(engine: &G) -> Vec<Vec<(&'static str, u32)>> {
        let mut s = engine.start();
        [Move { pit: 2 }, Move { pit: 0 }]
            .into_iter()
            .map(|mv| {
                let facts = engine.play_in_place(&mut s, mv).unwrap();
                facts.events.iter().collect()
            })
            .collect()
    }
    let expected = vec![vec![("K.2.1", 1), ("K.2.4", 1)], vec![("K.2.1", 1)]];
    assert_eq!(events(&Rules::new(Variant::OPENSPIEL)), expected);
    assert_eq!(events(&FastRules::new(Variant::OPENSPIEL)), expected);
}

/// The stats job's random games on the word board (`kalah::playout::RandomGames`) and on every
/// path of the batch engine this processor runs are the games the reference engine plays one by
/// one with the same draws: the same games.csv rows and clause events, under every preset, on
/// boards from Kalah(1,1) to Kalah(6,12) (laps of 13 seeds and more among them), cut at ply
/// limits; one at a time and side by side (`play_range`, which gives them in game order).
#[test]
fn the_word_board_and_the_batch_paths_play_the_reference_engines_random_games() {
    use mancala_lab::batch::BatchPath;
    use mancala_lab::kalah::batch::Batch;
    use mancala_lab::kalah::playout::RandomGames;
    use mancala_lab::playout::play_game;
    use mancala_lab::policy::Policy;
    let boards = [
        (6, 4),
        (6, 6),
        (1, 1),
        (1, 12),
        (2, 7),
        (3, 5),
        (4, 3),
        (5, 9),
        (6, 12),
    ];
    let paths = BatchPath::available_paths();
    for (name, preset) in PRESETS {
        for (pits, seeds) in boards {
            let variant = Variant {
                pits,
                seeds,
                ..preset
            };
            let reference = Rules::new(variant);
            let random = RandomGames::new(variant);
            for max_plies in [2000, 9, 1] {
                let mut side_by_side = Vec::new();
                random.play_range(5, 3..150, max_plies, &mut |p| {
                    side_by_side.push((p.row(), p.events()))
                });
                let on_paths: Vec<Vec<_>> = paths
                    .iter()
                    .map(|&path| {
                        let batch = Batch::new(variant, 5, max_plies).with_path(path).unwrap();
                        let mut got = Vec::new();
                        batch.play_in_order(3..150, |p| got.push((p.row(), p.events())));
                        got
                    })
                    .collect();
                for game in 0..150 {
                    let want = play_game(&reference, Policy::Random, 5, game, max_plies).unwrap();
                    let context =
                        format!("{name} Kalah({pits},{seeds}), game {game}, max_plies {max_plies}");
                    assert_eq!(random.play(5, game, max_plies), want, "{context}");
                    if game >= 3 {
                        let i = game as usize - 3;
                        assert_eq!(side_by_side[i], want, "{context}, side by side");
                        for (path, got) in paths.iter().zip(&on_paths) {
                            assert_eq!(got[i], want, "{context}, batch path {path}");
                        }
                    }
                }
                assert_eq!(side_by_side.len(), 147);
                assert!(on_paths.iter().all(|got| got.len() == 147));
            }
        }
    }
}
