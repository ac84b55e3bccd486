//! The typed game interface: the reference and optimized engines of each game, in lock step ply by
//! ply, give the same legal moves (in order, with the same notation), the same figures for every
//! move (every clause event of the reference engine's trace included), the same random draws and
//! the same ending.

use mancala_lab::game::{game_keys, Draw, Game, Ply, PlyFacts, Silent};

/// What a ply did; every clause its trace logs must be one the engines count (clauses.csv).
fn facts<S>(ply: Result<Ply<S>, Silent>, counted: &[&str]) -> Result<PlyFacts, Silent> {
    ply.map(|p| all_counted(p.facts, counted))
}

fn all_counted(facts: PlyFacts, counted: &[&str]) -> PlyFacts {
    for (clause, _) in facts.events.iter() {
        assert!(
            counted.contains(&clause),
            "{clause} is traced but not counted"
        );
    }
    facts
}

/// Plays games `0..games` of `seed` on both engines, comparing everything the interface says.
fn lockstep<A, B>(a: &A, b: &B, seed: u64, games: u64, max_plies: u32)
where
    A: Game,
    B: Game<Move = A::Move>,
{
    assert_eq!(a.counted_events(), b.counted_events());
    let (mut ma, mut mb) = (Vec::new(), Vec::new());
    for game in 0..games {
        let keys = game_keys(seed, game);
        let (mut sa, mut sb) = (a.start(), b.start());
        for ply in 0..max_plies {
            let at = format!("game {game}, ply {ply}");
            a.legal_moves(&sa, &mut ma);
            b.legal_moves(&sb, &mut mb);
            assert_eq!(ma, mb, "{at}: legal moves");
            assert_eq!(a.to_move(&sa), b.to_move(&sb), "{at}");
            assert_eq!(a.key(&sa), b.key(&sb), "{at}: Zobrist key");
            assert_eq!(a.evaluate(&sa), b.evaluate(&sb), "{at}: evaluation");
            for &mv in &ma {
                assert_eq!(a.notation(&sa, mv), b.notation(&sb, mv), "{at}: {mv:?}");
                let counted = a.counted_events();
                assert_eq!(
                    facts(a.play(&sa, mv), counted),
                    facts(b.play(&sb, mv), counted),
                    "{at}: {mv:?}"
                );
            }
            assert_eq!(a.max_capture(&sa), b.max_capture(&sb), "{at}: max capture");
            if ma.is_empty() {
                assert_eq!(a.ending(&sa), b.ending(&sb), "{at}: ending");
                assert!(a.ending(&sa).is_some(), "{at}: no move, yet not over");
                break;
            }
            let draw = Draw::new(keys, ply);
            let ra = a.play_random(&mut sa, draw).expect("a legal move");
            let rb = b.play_random(&mut sb, draw).expect("a legal move");
            let counted = a.counted_events();
            let ra = ra.map(|(m, f)| (m, all_counted(f, counted)));
            let rb = rb.map(|(m, f)| (m, all_counted(f, counted)));
            assert_eq!(ra, rb, "{at}: random move");
            assert_eq!(a.scores(&sa), b.scores(&sb), "{at}: scores");
        }
    }
}

#[test]
fn bao_engines_agree_through_the_typed_interface() {
    use mancala_lab::bao::fast::FastRules;
    use mancala_lab::bao::variant::{InfiniteMoves, Variant};
    use mancala_lab::bao::Rules;
    let bounded = InfiniteMoves::SownLimit(3000);
    for variant in [
        Variant::DEFAULT.with_infinite_moves(bounded),
        Variant::LITERAL_EN.with_infinite_moves(bounded),
        Variant::ENGINES.with_infinite_moves(bounded),
    ] {
        lockstep(
            &Rules::new(variant),
            &FastRules::new(variant).unwrap(),
            3,
            60,
            400,
        );
    }
}

#[test]
fn oware_engines_agree_through_the_typed_interface() {
    use mancala_lab::oware::fast::FastRules;
    use mancala_lab::oware::{Rules, Variant};
    for variant in [Variant::SHEET, Variant::ABAPA] {
        lockstep(
            &Rules::new(variant),
            &FastRules::new(variant).unwrap(),
            5,
            150,
            2000,
        );
    }
}

#[test]
fn a_planted_difference_is_caught() {
    // The optimized Oware engine under another reading than the reference: the check must fail.
    use mancala_lab::oware::fast::FastRules;
    use mancala_lab::oware::{Rules, Variant};
    let caught = std::panic::catch_unwind(|| {
        lockstep(
            &Rules::new(Variant::SHEET),
            &FastRules::new(Variant::ABAPA).unwrap(),
            5,
            150,
            2000,
        )
    });
    assert!(caught.is_err());
}

/// `play_checked` on an engine: `illegal` (a move the rules forbid in `state`) is refused as
/// such, `legal` is played as `play` plays it, and once random game 0 of seed 2 has ended every
/// move is refused with the clause that ended it; never a panic.
fn checked_play<G: Game>(g: &G, state: &G::State, legal: G::Move, illegal: G::Move) {
    use mancala_lab::game::PlayError;
    assert_eq!(
        g.play_checked(state, illegal).err(),
        Some(PlayError::Illegal)
    );
    let Ok(checked) = g.play_checked(state, legal) else {
        panic!("a legal move refused")
    };
    let trusted = g.play(state, legal).ok().unwrap();
    assert_eq!(g.key(&checked.state), g.key(&trusted.state));
    let mut s = g.start();
    let keys = game_keys(2, 0);
    let mut ply = 0;
    while g.ending(&s).is_none() {
        assert!(ply < 5000, "random game 0 of seed 2 ends");
        g.play_random(&mut s, Draw::new(keys, ply))
            .unwrap()
            .unwrap();
        ply += 1;
    }
    let clause = g.ending(&s).unwrap().clause;
    for mv in [legal, illegal] {
        assert_eq!(
            g.play_checked(&s, mv).err(),
            Some(PlayError::GameOver(clause))
        );
    }
}

#[test]
fn a_move_from_outside_is_checked_before_it_is_played() {
    {
        use mancala_lab::bao::board::{Hand, Pit};
        use mancala_lab::bao::variant::{InfiniteMoves, Variant};
        use mancala_lab::bao::{fast::FastRules, Move, Rules};
        // Bao 1.5.2 (tests/bao_rules.rs c1_5_2): the opening moves are the four kutakata from A6
        // and A7; a kutakata from A1 is none of them.
        let variant = Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(3000));
        let (a6, a1) = (Pit::front(6), Pit::front(1));
        let mv = |pit, hand| Move {
            pit,
            hand,
            play_house: false,
        };
        let (legal, illegal) = (mv(a6, Hand::Left), mv(a1, Hand::Right));
        let reference = Rules::new(variant);
        checked_play(&reference, &reference.start(), legal, illegal);
        let fast = FastRules::new(variant).unwrap();
        checked_play(&fast, &fast.start(), legal, illegal);
    }
    {
        use mancala_lab::oware::{fast::FastRules, Move, Rules, Variant};
        // Oware O.2.3: a move empties a non-empty pit of the mover. After A (South) and a
        // (North, whose four seeds stay in North's row), South's A is empty.
        fn after_two<G: Game<Move = Move>>(g: &G) -> G::State {
            let mut s = g.start();
            for pit in [0, 0] {
                s = g.play(&s, Move { pit }).ok().unwrap().state;
            }
            s
        }
        let reference = Rules::new(Variant::ABAPA);
        checked_play(
            &reference,
            &after_two(&reference),
            Move { pit: 1 },
            Move { pit: 0 },
        );
        let fast = FastRules::new(Variant::ABAPA).unwrap();
        checked_play(&fast, &after_two(&fast), Move { pit: 1 }, Move { pit: 0 });
    }
}
