//! `textgame::TextGame`, the text-level game the Python package stands on: moves, positions,
//! traces and errors, the reference and optimized engines in agreement.

use mancala_lab::playout::EngineKind;
use mancala_lab::registry::GameKind;
use mancala_lab::textgame::{TextGame, TextGameError};

fn oware(engine: EngineKind) -> TextGame {
    TextGame::new(GameKind::Oware, "sheet", None, Some(engine)).unwrap()
}

/// Worked by hand from the rules: at the start every South pit holds 4 seeds, so all six are
/// legal; C's four seeds go to D, E, F and North's a.
#[test]
fn an_oware_move_by_hand() {
    for engine in [EngineKind::Reference, EngineKind::Optimized] {
        let mut s = oware(engine);
        assert_eq!(s.engine(), engine);
        assert_eq!(s.legal_moves(), ["A", "B", "C", "D", "E", "F"]);
        assert_eq!(
            s.explain("C").unwrap(),
            ["[oware O.2.3] sow 4 from C, last seed in a"]
        );
        s.play("C").unwrap();
        assert_eq!(
            s.position_text(),
            "to_move: North\nscores: 0 0\nnorth: 4 4 4 4 4 5\nsouth: 4 4 0 5 5 5\n"
        );
        assert_eq!(s.moves(), ["C"]);
        assert_eq!(s.legal_moves(), ["a", "b", "c", "d", "e", "f"]);
        assert!(s.ending().is_none());
    }
}

/// A move that is not legal is refused with the legal ones named, and changes nothing.
#[test]
fn an_illegal_move_changes_nothing() {
    let mut s = oware(EngineKind::Optimized);
    let before = s.position_text();
    let e = s.play("a").unwrap_err();
    assert!(matches!(e, TextGameError::Illegal { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "move 'a' is not legal here (legal: A B C D E F)"
    );
    assert!(s.explain("G").is_err());
    assert_eq!(s.position_text(), before);
    assert!(s.moves().is_empty());
}

/// Readings: the optimized engine where it plays the reading, else the reference; what a game
/// does not have is refused.
#[test]
fn readings_pick_their_engine_or_are_refused() {
    let strict = TextGame::new(GameKind::Oware, "strict", None, None).unwrap();
    assert_eq!(strict.engine(), EngineKind::Reference);
    assert!(TextGame::new(GameKind::Oware, "strict", None, Some(EngineKind::Optimized)).is_err());
    let bao = TextGame::new(GameKind::Bao, "default", Some("sown:100"), None).unwrap();
    assert_eq!(bao.engine(), EngineKind::Optimized);
    for (game, variant, infinite) in [
        (GameKind::Oware, "sheet", Some("exact")),
        (GameKind::Bao, "nope", None),
        (GameKind::Bao, "default", Some("sometimes")),
    ] {
        let e = TextGame::new(game, variant, infinite, None).unwrap_err();
        assert!(matches!(e, TextGameError::Reading(_)), "{e:?}");
    }
}

/// The two engines of each game, through text games, along random games: the same legal moves,
/// positions, scores and endings at every ply; and every trace replays.
#[test]
fn both_engines_agree_through_text_games() {
    for (game, variant) in [(GameKind::Bao, "default"), (GameKind::Oware, "abapa")] {
        for g in 0..30u64 {
            let mut a = TextGame::new(game, variant, None, Some(EngineKind::Reference)).unwrap();
            let mut b = TextGame::new(game, variant, None, Some(EngineKind::Optimized)).unwrap();
            let mut x = g.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for ply in 0..400 {
                let legal = a.legal_moves();
                assert_eq!(legal, b.legal_moves(), "{game} game {g} ply {ply}");
                assert_eq!(a.position_text(), b.position_text());
                assert_eq!(a.scores(), b.scores());
                assert_eq!(a.ending(), b.ending());
                if legal.is_empty() {
                    assert!(a.ending().is_some());
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let mv = &legal[(x % legal.len() as u64) as usize];
                if ply % 37 == 0 {
                    assert!(!a.explain(mv).unwrap().is_empty());
                }
                a.play(mv).unwrap();
                b.play(mv).unwrap();
            }
        }
    }
}

/// A position text gives a game from there, printed back as it was read.
#[test]
fn a_game_from_a_position_text() {
    let start = TextGame::new(GameKind::Bao, "default", None, None).unwrap();
    let text = start.position_text();
    let again = start.from_position(&text).unwrap();
    assert_eq!(again.position_text(), text);
    assert_eq!(again.legal_moves(), start.legal_moves());
    let mut o = oware(EngineKind::Optimized);
    o.play("C").unwrap();
    let there = o.from_position(&o.position_text()).unwrap();
    assert_eq!(there.position_text(), o.position_text());
    assert!(there.moves().is_empty());
    // Its trace replays from that position: a got a fifth seed from C.
    assert_eq!(
        there.explain("a").unwrap(),
        ["[oware O.2.3] sow 5 from a, last seed in f"]
    );
    let e = start.from_position("north: 1 2 3").unwrap_err();
    assert!(matches!(e, TextGameError::Position(_)), "{e:?}");
}

/// Many games at once: the rows one engine plays game by game, in game order, on any number of
/// threads.
#[test]
fn parallel_playouts_are_the_sequential_ones() {
    use mancala_lab::playout::Play;
    use mancala_lab::policy::Policy;
    for (game, variant) in [(GameKind::Bao, "default"), (GameKind::Oware, "sheet")] {
        let engine = TextGame::new(game, variant, None, None)
            .unwrap()
            .playout_engine();
        for policy in [Policy::Random, Policy::Greedy] {
            let play = Play::new(policy, 2000);
            let mut one = Vec::new();
            engine
                .play(play, 5, 10..700, |row, _| one.push(row))
                .unwrap();
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let rows = pool
                    .install(|| engine.play_parallel(play, 5, 10..700))
                    .unwrap();
                assert_eq!(rows.len(), one.len());
                // Oware's batch engine leaves stage plies, which Oware rows do not have, at 0.
                for (a, b) in rows.iter().zip(&one) {
                    assert_eq!(
                        (a.game, a.plies, a.winner(), a.end_clause(), a.scores),
                        (b.game, b.plies, b.winner(), b.end_clause(), b.scores),
                        "{game} {policy} {threads} threads"
                    );
                }
            }
        }
    }
}

/// Action ids by hand: Oware's are the mover's pits from its left; the observation lists pits
/// A-F, a-f, the scores and the mover.
#[test]
fn oware_actions_and_observation_by_hand() {
    let mut s = oware(EngineKind::Optimized);
    assert_eq!(s.action_count(), 6);
    let ids: Vec<(u32, String)> = s.legal_actions();
    assert_eq!(
        ids,
        ["A", "B", "C", "D", "E", "F"]
            .iter()
            .enumerate()
            .map(|(i, m)| (i as u32, m.to_string()))
            .collect::<Vec<_>>()
    );
    s.play_action(2).unwrap();
    assert_eq!(s.moves(), ["C"]);
    let want: Vec<f32> = vec![
        4.0, 4.0, 0.0, 5.0, 5.0, 5.0, 5.0, 4.0, 4.0, 4.0, 4.0, 4.0, 0.0, 0.0, 1.0,
    ];
    assert_eq!(s.observation(), want);
    // North's c is action 2 too; an id with no legal move is refused.
    assert_eq!(s.legal_actions()[2], (2, "c".to_string()));
    let e = s.play_action(6).unwrap_err();
    assert_eq!(
        e.to_string(),
        "move 'action 6' is not legal here (legal: 0 1 2 3 4 5)"
    );
}

/// Bao's action ids: distinct, below 64 and sorted at every ply of random games; playing an id
/// is playing its move. The start position by the rules (spec/bao.md 1.1): 22 seeds in each
/// store, 10 on each side's board, both houses owned, South to move.
#[test]
fn bao_actions_are_distinct_and_play_their_move() {
    let start = TextGame::new(GameKind::Bao, "default", None, None).unwrap();
    let o = start.observation();
    assert_eq!(o.len(), 38);
    assert_eq!(o[..16].iter().sum::<f32>(), 10.0);
    assert_eq!(o[16..32].iter().sum::<f32>(), 10.0);
    assert_eq!(&o[32..], &[22.0, 22.0, 1.0, 1.0, 0.0, 0.0]);
    for g in 0..20u64 {
        let mut a = start.clone();
        let mut b = start.clone();
        let mut x = g * 7919 + 1;
        while a.ending().is_none() && a.moves().len() < 300 {
            let legal = a.legal_actions();
            let ids: Vec<u32> = legal.iter().map(|(i, _)| *i).collect();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
            assert!(ids.iter().all(|&i| i < 64));
            let names: Vec<String> = legal.iter().map(|(_, n)| n.clone()).collect();
            let mut sorted = names.clone();
            sorted.sort();
            let mut want = a.legal_moves();
            want.sort();
            assert_eq!(sorted, want);
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (id, mv) = &legal[(x >> 33) as usize % legal.len()];
            a.play_action(*id).unwrap();
            b.play(mv).unwrap();
            assert_eq!(a.position_text(), b.position_text());
            assert_eq!(a.observation(), b.observation());
        }
    }
}

/// A diagram draws where the game stands, whichever engine plays, and a move's steps as the
/// reference engine traces them; by hand: after South's C, North's a holds 5 seeds and sows them
/// into b to f. An illegal move is refused and the game does not change.
#[test]
fn a_diagram_draws_the_game_and_a_move() {
    let drawn: Vec<[String; 2]> = [EngineKind::Reference, EngineKind::Optimized]
        .into_iter()
        .map(|engine| {
            let mut s = oware(engine);
            s.play("C").unwrap();
            let board = s.diagram(None).unwrap();
            assert!(board.contains("North to move"), "{board}");
            let mv = s.diagram(Some("a")).unwrap();
            assert!(mv.contains("North plays a"));
            assert!(
                mv.contains("[oware O.2.3] sow 5 from a, last seed in f"),
                "{mv}"
            );
            assert!(matches!(
                s.diagram(Some("A")),
                Err(TextGameError::Illegal { .. })
            ));
            assert_eq!(s.moves(), ["C"]);
            [board, mv]
        })
        .collect();
    assert_eq!(drawn[0], drawn[1]);
}

/// A game from a position keeps the text it started from (what a Python pickle stores).
#[test]
fn a_game_from_a_position_keeps_its_start() {
    let start = oware(EngineKind::Optimized);
    assert_eq!(start.start_text(), None);
    let text = "to_move: North\nscores: 0 0\nnorth: 4 4 4 4 4 5\nsouth: 4 4 0 5 5 5\n";
    let mut s = start.from_position(text).unwrap();
    s.play("a").unwrap();
    assert_eq!(s.start_text(), Some(text));
}

/// Under Bao's `strict` reading a move can reach the one point the rules leave open (2.1.2
/// against 1.3, spec/bao.md): the game stops there with no result, in the position before that
/// move, which is recorded; nothing more is legal, and the moves replayed stop it again (how a
/// pickled state comes back).
#[test]
fn a_move_the_rules_are_silent_on_ends_the_game_without_a_result() {
    // spec: bao 2.1.2
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut found = 0;
    for _ in 0..2000 {
        let mut s = TextGame::new(GameKind::Bao, "strict", None, None).unwrap();
        while s.ending().is_none() && s.moves().len() < 600 {
            let legal = s.legal_moves();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mv = legal[(x % legal.len() as u64) as usize].clone();
            let before = s.position_text();
            s.play(&mv).unwrap();
            let Some(end) = s.ending().filter(|e| e.winner() == "none") else {
                continue;
            };
            assert_eq!(end.end_clause(), "silent:2.1.2");
            assert_eq!(s.position_text(), before);
            assert_eq!(s.moves().last(), Some(&mv));
            assert!(s.legal_moves().is_empty() && s.legal_actions().is_empty());
            assert!(matches!(s.play(&mv), Err(TextGameError::Illegal { .. })));
            let mut again = TextGame::new(GameKind::Bao, "strict", None, None).unwrap();
            for m in s.moves() {
                again.play(m).unwrap();
            }
            assert_eq!(again.ending(), s.ending());
            assert_eq!(again.position_text(), before);
            assert!(s.diagram(None).is_ok());
            found += 1;
        }
        if found == 3 {
            return;
        }
    }
    panic!("only {found} strict games of 2000 stopped where the rules are silent");
}

/// A perfect player without databases plays no game under its name: the library's playouts
/// refuse it before any game, whichever front end asks (no database folder is named here, and
/// Bao has no databases at all).
#[test]
fn the_perfect_policy_without_databases_plays_no_game() {
    use mancala_lab::playout::Play;
    use mancala_lab::policy::Players;
    if std::env::var_os(mancala_lab::policy::perfect::DB_VARIABLE).is_some() {
        eprintln!("MANCALA_LAB_DB is set: the case of no folder named is not run");
        return;
    }
    for (game, variant, says) in [
        (
            GameKind::Kalah,
            "openspiel:pits=4,seeds=3",
            "no folder of endgame databases",
        ),
        (GameKind::Oware, "sheet", "no folder of endgame databases"),
        (GameKind::Bao, "default", "no endgame databases"),
    ] {
        let engine = TextGame::new(game, variant, None, None)
            .unwrap()
            .playout_engine();
        let players: Players = "perfect/random".parse().unwrap();
        let e = engine
            .play_parallel(Play::new(players, 2000), 1, 0..10)
            .unwrap_err();
        assert!(e.contains(says), "{game:?}: {e}");
        let mut seen = 0;
        let e = engine
            .play(Play::new(players, 2000), 1, 0..10, |_, _| seen += 1)
            .unwrap_err();
        assert!(e.contains(says), "{game:?}: {e}");
        assert_eq!(seen, 0);
    }
    // Below the front ends' check, the playout loop itself: a game of an unprepared perfect
    // player is an error naming why, not a game of other moves, nor a stop.
    let kalah = mancala_lab::kalah::fast::FastRules::new(mancala_lab::kalah::Variant::OPENSPIEL);
    let players: Players = "perfect/random".parse().unwrap();
    let e = mancala_lab::playout::play_game(&kalah, players, 1, 0, 2000).unwrap_err();
    assert!(e.contains("no folder of endgame databases"), "{e}");
}

/// Every legal move of random games of each game is played from a pit of the diagram (the
/// board page makes those pits clickable), and the pits are the game's: 32 for Bao, 12 for Oware,
/// 2m for Kalah(m,n).
#[test]
fn every_legal_move_starts_at_a_pit_of_the_diagram() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for (game, variant, pits) in [
        (GameKind::Bao, "default", 32),
        (GameKind::Oware, "sheet", 12),
        (GameKind::Kalah, "openspiel", 12),
        (GameKind::Kalah, "openspiel:pits=3,seeds=2", 6),
    ] {
        for _ in 0..20 {
            let mut g = TextGame::new(game, variant, None, None).unwrap();
            assert_eq!(g.pit_places().len(), pits, "{game:?} {variant}");
            for _ in 0..300 {
                let legal = g.legal_moves_by_pit();
                if legal.is_empty() {
                    break;
                }
                for (mv, pit) in &legal {
                    let pit = pit
                        .as_deref()
                        .unwrap_or_else(|| panic!("{game:?}: {mv} has no pit"));
                    assert!(mv.starts_with(pit), "{mv} from {pit}");
                }
                let (mv, _) = &legal[rng.gen_range(0..legal.len())];
                g.play(&mv.clone()).unwrap();
            }
        }
    }
}

/// A game's transcript replays to the same moves (the board page's export and import).
#[test]
fn a_games_transcript_replays_to_its_moves() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for (game, variant) in [
        (GameKind::Bao, "default"),
        (GameKind::Oware, "abapa"),
        (GameKind::Kalah, "openspiel:pits=4,seeds=3"),
    ] {
        for _ in 0..20 {
            let start = TextGame::new(game, variant, None, None).unwrap();
            let mut g = start.clone();
            for _ in 0..rng.gen_range(0..120) {
                let legal = g.legal_moves();
                if legal.is_empty() {
                    break;
                }
                g.play(&legal[rng.gen_range(0..legal.len())].clone())
                    .unwrap();
            }
            let text = g.transcript();
            let back = start.from_transcript(&text).unwrap();
            assert_eq!(back.moves(), g.moves(), "{game:?}:\n{text}");
            assert_eq!(back.position_text(), g.position_text());
        }
    }
    // A fault is placed at its line and column, as replay places it.
    let oware = TextGame::new(GameKind::Oware, "sheet", None, None).unwrap();
    let fault = oware.from_transcript("1. C d\n2. C a\n").unwrap_err();
    assert_eq!((fault.line, fault.column), (2, 4));
    assert!(fault.message.starts_with("ply 3 'C' is illegal"), "{fault}");
}
