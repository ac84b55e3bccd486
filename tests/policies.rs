//! The search policies: alphabeta gives a plain minimax's values (with and without its
//! transposition table), both search policies find a move that wins at once, no policy returns
//! an illegal move, and policy texts read back as written.

use mancala_lab::game::{game_keys, Draw, Game, Verdict};
use mancala_lab::policy::alphabeta::{self, Searcher, WIN};
use mancala_lab::policy::{choose, mcts, Policy, Scratch};
use mancala_lab::side::Side;
use proptest::prelude::*;

/// The value of `s` to `depth` plies for South, by plain minimax over every move (South takes
/// the largest value, North the smallest, whoever moved last, so that a player who moves again
/// keeps its side): a win is worth [`WIN`] less the plies to reach it, a draw or a point the
/// rules leave open 0, and a position at depth 0 the game's evaluation (South's point of view).
fn minimax_south<G: Game>(game: &G, s: &G::State, depth: u32, ply: u32) -> i32 {
    if let Some(e) = game.ending(s) {
        return match e.verdict {
            Verdict::Win(Side::South) => WIN - ply as i32,
            Verdict::Win(Side::North) => -(WIN - ply as i32),
            _ => 0,
        };
    }
    let mut moves = Vec::new();
    game.legal_moves(s, &mut moves);
    if depth == 0 || moves.is_empty() {
        return game.evaluate(s);
    }
    let values = moves.iter().map(|&mv| match game.play(s, mv) {
        Err(_) => 0,
        Ok(p) => minimax_south(game, &p.state, depth - 1, ply + 1),
    });
    match game.to_move(s) {
        Side::South => values.max().unwrap(),
        Side::North => values.min().unwrap(),
    }
}

/// [`minimax_south`] from the side of `side`.
fn minimax_for<G: Game>(game: &G, side: Side, s: &G::State, depth: u32, ply: u32) -> i32 {
    let v = minimax_south(game, s, depth, ply);
    if side == Side::South {
        v
    } else {
        -v
    }
}

/// The value of `s` to `depth` plies for the player to move.
fn minimax<G: Game>(game: &G, s: &G::State, depth: u32, ply: u32) -> i32 {
    minimax_for(game, game.to_move(s), s, depth, ply)
}

/// States of random games of `seed`: every `every`-th ply of games `0..games`, the last state
/// of each game included.
fn states<G: Game>(game: &G, seed: u64, games: u64, every: u32) -> Vec<G::State> {
    let mut out = Vec::new();
    for i in 0..games {
        let keys = game_keys(seed, i);
        let mut s = game.start();
        for ply in 0..2000 {
            if ply % every == 0 {
                out.push(s.clone());
            }
            match game.play_random(&mut s, Draw::new(keys, ply)) {
                Some(Ok(_)) => {}
                _ => break,
            }
        }
        out.push(s);
    }
    out
}

fn bao() -> mancala_lab::bao::fast::FastRules {
    use mancala_lab::bao::variant::{InfiniteMoves, Variant};
    mancala_lab::bao::fast::FastRules::new(
        Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(3000)),
    )
    .unwrap()
}

fn oware() -> mancala_lab::oware::fast::FastRules {
    mancala_lab::oware::fast::FastRules::new(mancala_lab::oware::Variant::SHEET).unwrap()
}

/// Alphabeta's value, with and without its table, is minimax's, on states of random games; with
/// the table, also for each child right after its parent, when the table holds the bounds the
/// parent's search left on it.
fn alphabeta_is_minimax<G: Game>(game: &G, depth: u32, games: u64, every: u32) {
    let mut with = Searcher::new();
    for (i, s) in states(game, 7, games, every).iter().enumerate() {
        let want = minimax(game, s, depth, 0);
        assert_eq!(with.value(game, s, depth), want, "state {i}, with table");
        let mut without = Searcher::<G>::without_table();
        assert_eq!(without.value(game, s, depth), want, "state {i}, no table");
        let children = children_of(game, s);
        // The grandchildren first: the parent's search leaves upper bounds on them.
        for (mv, child) in &children {
            for (reply, grandchild) in children_of(game, child) {
                let want = minimax(game, &grandchild, depth - 2, 0);
                let found = with.value(game, &grandchild, depth - 2);
                assert_eq!(found, want, "state {i}, moves {mv:?} {reply:?}");
            }
        }
        // Then each child, to its depth and one less (an entry of another depth must not
        // answer).
        for (mv, child) in &children {
            for d in [depth - 1, depth - 2] {
                let want = minimax(game, child, d, 0);
                assert_eq!(
                    with.value(game, child, d),
                    want,
                    "state {i}, move {mv:?}, depth {d}"
                );
            }
        }
    }
}

/// The states the legal moves of `s` reach (a move the rules leave open left out).
fn children_of<G: Game>(game: &G, s: &G::State) -> Vec<(G::Move, G::State)> {
    let mut moves = Vec::new();
    game.legal_moves(s, &mut moves);
    moves
        .into_iter()
        .filter_map(|mv| game.play(s, mv).ok().map(|p| (mv, p.state)))
        .collect()
}

#[test]
fn alphabeta_gives_minimax_values_for_oware() {
    alphabeta_is_minimax(&oware(), 5, 12, 7);
}

fn kalah(variant: &str) -> mancala_lab::kalah::fast::FastRules {
    mancala_lab::kalah::fast::FastRules::new(variant.parse().unwrap())
}

/// Kalah's extra turns (the same player moving again) among the plies searched.
#[test]
fn alphabeta_gives_minimax_values_for_kalah() {
    alphabeta_is_minimax(&kalah("openspiel"), 5, 12, 5);
    alphabeta_is_minimax(&kalah("empty-capture:pits=4,seeds=3"), 6, 12, 3);
}

#[test]
fn alphabeta_gives_minimax_values_for_bao() {
    alphabeta_is_minimax(&bao(), 3, 6, 9);
}

/// The move alphabeta plays has the best minimax value among the moves, and ties go where the
/// draw says (two draws can pick different moves of equal value).
fn alphabeta_plays_a_best_move<G: Game>(game: &G, depth: u32) {
    let settings = alphabeta::Settings {
        limit: alphabeta::Limit::Depth(depth),
    };
    let mut searcher = Searcher::new();
    let mut moves = Vec::new();
    for (i, s) in states(game, 11, 6, 11).iter().enumerate() {
        game.legal_moves(s, &mut moves);
        if moves.is_empty() {
            continue;
        }
        let value = |mv| match game.play(s, mv) {
            Err(_) => 0,
            Ok(p) => minimax_for(game, game.to_move(s), &p.state, depth - 1, 1),
        };
        let best = moves.iter().map(|&mv| value(mv)).max().unwrap();
        for d in 0..4 {
            let draw = Draw::new(game_keys(3, i as u64), d);
            let mv = searcher.best_move(game, s, settings, draw, None).unwrap();
            assert_eq!(value(mv), best, "state {i}: {mv:?}");
        }
    }
}

#[test]
fn alphabeta_plays_a_best_move_in_every_game() {
    alphabeta_plays_a_best_move(&oware(), 3);
    alphabeta_plays_a_best_move(&bao(), 2);
    alphabeta_plays_a_best_move(&kalah("openspiel"), 4);
}

/// States of random games in which some legal move wins at once and some other does not.
fn winning_chances<G: Game>(game: &G, games: u64) -> Vec<(G::State, Vec<G::Move>)> {
    let mut found = Vec::new();
    let mut moves = Vec::new();
    for s in states(game, 5, games, 1) {
        game.legal_moves(&s, &mut moves);
        let mover = game.to_move(&s);
        let wins: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                game.play(&s, mv).is_ok_and(|p| {
                    game.ending(&p.state).map(|e| e.verdict) == Some(Verdict::Win(mover))
                })
            })
            .collect();
        if !wins.is_empty() && wins.len() < moves.len() {
            found.push((s, wins));
        }
    }
    found
}

/// Both search policies take a win that is there, in every such state of random games.
fn searches_take_a_win<G: Game>(game: &G, games: u64) {
    let chances = winning_chances(game, games);
    assert!(chances.len() >= 5, "only {} states", chances.len());
    let policies = [
        "alphabeta:depth=1",
        "alphabeta:depth=3",
        "mcts:sims=300",
        "search",
    ];
    for (i, (s, wins)) in chances.iter().enumerate() {
        for text in policies {
            let policy: Policy = text.parse().unwrap();
            let mut played = s.clone();
            let draw = Draw::new(game_keys(1, i as u64), 0);
            let (mv, _) = choose(game, policy, &mut played, draw, &mut Scratch::default())
                .unwrap()
                .unwrap();
            assert!(wins.contains(&mv), "state {i}, {text}: {mv:?} of {wins:?}");
        }
    }
}

#[test]
fn search_policies_take_a_win_in_oware() {
    searches_take_a_win(&oware(), 40);
}

#[test]
fn search_policies_take_a_win_in_bao() {
    searches_take_a_win(&bao(), 40);
}

/// A hand-built Oware position (worked by hand, sheet reading): South has 24 and two moves, A
/// (one seed into B: no capture) and F (one seed into North's a, which then holds 2: captured,
/// 26, more than half of 48, a win by O.6.1).
#[test]
fn mcts_takes_the_capture_that_wins_a_hand_built_oware_position() {
    use mancala_lab::oware::position::Position;
    let text = "to_move: South\nscores: 24 20\nnorth: 1 0 0 0 0 1\nsouth: 1 0 0 0 0 1\n";
    let p = Position::parse(text).unwrap();
    let game = oware();
    let s = game.game(p.pits(), [24, 20], 0);
    for text in ["mcts:sims=50", "mcts:sims=1000,c=0.5", "alphabeta:depth=2"] {
        let mut played = s.clone();
        let (mv, facts) = choose(
            &game,
            text.parse().unwrap(),
            &mut played,
            Draw::new([1, 2], 0),
            &mut Scratch::default(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(game.notation(&s, mv), "F", "{text}");
        assert_eq!(facts.seeds_captured, 2, "{text}");
        let ending = game.ending(&played).unwrap();
        assert_eq!(ending.verdict, Verdict::Win(mancala_lab::side::Side::South));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every policy returns one of the legal moves, in states of random games of both games.
    #[test]
    fn policies_return_legal_moves(seed in any::<u64>(), plies in 0u32..120) {
        let policies = ["random", "greedy", "search", "alphabeta:depth=2", "mcts:sims=30"];
        fn check<G: Game>(game: &G, seed: u64, plies: u32, policies: &[&str]) -> Result<(), TestCaseError> {
            let keys = game_keys(seed, 0);
            let mut s = game.start();
            for ply in 0..plies {
                if !matches!(game.play_random(&mut s, Draw::new(keys, ply)), Some(Ok(_))) {
                    break;
                }
            }
            let mut legal = Vec::new();
            game.legal_moves(&s, &mut legal);
            for text in policies {
                let mut played = s.clone();
                let draw = Draw::new(keys, plies);
                match choose(game, text.parse().unwrap(), &mut played, draw, &mut Scratch::default()) {
                    None => prop_assert!(legal.is_empty(), "{text}: no move of {legal:?}"),
                    Some(Ok((mv, _))) => prop_assert!(legal.contains(&mv), "{text}: {mv:?}"),
                    Some(Err(_)) => {}
                }
            }
            Ok(())
        }
        check(&oware(), seed, plies, &policies)?;
        check(&bao(), seed, plies, &policies)?;
    }
}

#[test]
fn policy_texts_read_back_as_written() {
    for text in [
        "random",
        "greedy",
        "search",
        "alphabeta:depth=4",
        "alphabeta:depth=64",
        "alphabeta:ms=50",
        "mcts:sims=1000",
        "mcts:ms=20",
        "mcts:sims=10,c=0.5",
        "mcts:sims=10,solve=false",
    ] {
        let p: Policy = text.parse().unwrap();
        assert_eq!(p.to_string(), text);
    }
    // Defaults are written out; a default exploration constant is not.
    assert_eq!(
        "alphabeta".parse::<Policy>().unwrap().to_string(),
        "alphabeta:depth=4"
    );
    assert_eq!(
        "mcts".parse::<Policy>().unwrap().to_string(),
        "mcts:sims=1000"
    );
    assert_eq!(
        "mcts:c=2,sims=5".parse::<Policy>().unwrap().to_string(),
        "mcts:sims=5"
    );
    assert_eq!(
        "mcts:c=2".parse::<Policy>().unwrap(),
        Policy::Mcts(mcts::Settings::DEFAULT)
    );
    // One text for one value: -0 is 0, and no constant needs hundreds of digits.
    for (text, canonical) in [
        ("mcts:sims=5,c=-0", "mcts:sims=5,c=0"),
        ("mcts:sims=5,c=0.0", "mcts:sims=5,c=0"),
        ("mcts:sims=5,c=1e-3", "mcts:sims=5,c=0.001"),
        ("mcts:sims=5,c=1E2", "mcts:sims=5,c=100"),
    ] {
        assert_eq!(text.parse::<Policy>().unwrap().to_string(), canonical);
    }
    for (text, message) in [
        ("alpha", "unknown policy 'alpha'"),
        ("random:x=1", "policy 'random' takes no settings"),
        ("alphabeta:", "expected key=value, found ''"),
        ("alphabeta:depth", "expected key=value, found 'depth'"),
        (
            "alphabeta:sims=3",
            "unknown setting 'sims' (known: depth, ms)",
        ),
        (
            "alphabeta:depth=0",
            "'depth=0': expected a depth in plies, 1 to 64",
        ),
        ("alphabeta:depth=65", "depth=65"),
        ("alphabeta:depth=2,ms=5", "give 'depth' or 'ms', not both"),
        ("mcts:sims=1,sims=2", "'sims' given twice"),
        ("mcts:sims=100001", "simulations per move, 1 to 100000"),
        ("mcts:ms=0", "milliseconds per move"),
        ("mcts:c=-1", "'c=-1': expected an exploration constant"),
        ("mcts:c=NaN", "'c=NaN'"),
        (
            "mcts:c=5e-324",
            "expected an exploration constant, 0 or 0.001 to 100",
        ),
        ("mcts:c=0.0009", "'c=0.0009'"),
        ("mcts:c=100.5", "'c=100.5'"),
        ("mcts:c=inf", "'c=inf'"),
        ("mcts:solve=yes", "'solve=yes': expected true or false"),
    ] {
        let e = text.parse::<Policy>().unwrap_err().to_string();
        assert!(e.contains(message), "{text}: {e}");
    }
}

/// Plays the only legal move until the game ends; the moves made.
fn play_out<G: Game>(game: &G, s: &mut G::State) -> u32 {
    let (mut moves, mut plies) = (Vec::new(), 0);
    while game.ending(s).is_none() {
        game.legal_moves(s, &mut moves);
        assert_eq!(moves.len(), 1, "one move a ply");
        *s = game.play(s, moves[0]).unwrap().state;
        plies += 1;
    }
    plies
}

/// The O-DB1 witness (spec/findings/oware.md), worked by hand: South holds A=1 and F=1, North's
/// row is empty, 23 each captured. Every ply has one move and none captures; the start comes
/// back every 12 plies, and the sheet ends the game at its 4th occurrence (36 plies) with each
/// side taking its row: South 25, North 23. Both engines say the history ended it and that 23
/// each had been captured before the sweep; a game no repetition ended says nothing.
#[test]
fn a_repetition_end_gives_the_seeds_captured_before_its_sweep() {
    use mancala_lab::oware::position::Position;
    let text = "to_move: South\nscores: 23 23\nnorth: 0 0 0 0 0 0\nsouth: 1 0 0 0 0 1\n";
    let p = Position::parse(text).unwrap();
    let fast = oware();
    let mut s = fast.game(p.pits(), [23, 23], 0);
    assert_eq!(fast.history_end(&s), None);
    assert_eq!(play_out(&fast, &mut s), 36);
    assert_eq!(fast.ending(&s).unwrap().clause, "O.6.2");
    assert_eq!(fast.scores(&s), [25, 23]);
    assert_eq!(fast.history_end(&s), Some([23, 23]));

    let reference = mancala_lab::oware::rules::Rules::new(mancala_lab::oware::Variant::SHEET);
    let mut g = reference.game_from(p);
    assert_eq!(play_out(&reference, &mut g), 36);
    assert_eq!(reference.scores(&g), [25, 23]);
    assert_eq!(reference.history_end(&g), Some([23, 23]));

    // A game won by 25 captured seeds (the hand-built position of the test above) is no
    // repetition's.
    let text = "to_move: South\nscores: 24 20\nnorth: 1 0 0 0 0 1\nsouth: 1 0 0 0 0 1\n";
    let p = Position::parse(text).unwrap();
    let s = fast.game(p.pits(), [24, 20], 0);
    let mut moves = Vec::new();
    fast.legal_moves(&s, &mut moves);
    let f = moves
        .into_iter()
        .find(|&m| fast.notation(&s, m) == "F")
        .unwrap();
    let won = Game::play(&fast, &s, f).unwrap().state;
    assert_eq!(fast.ending(&won).unwrap().clause, "O.6.1");
    assert_eq!(fast.history_end(&won), None);
}

#[test]
fn mcts_scores_repetitions_by_the_rules_or_as_the_databases_do() {
    let p: Policy = "mcts:sims=10,repetition=databases".parse().unwrap();
    assert_eq!(p.to_string(), "mcts:sims=10,repetition=databases");
    assert_eq!(
        "mcts:repetition=rules"
            .parse::<Policy>()
            .unwrap()
            .to_string(),
        "mcts:sims=1000"
    );
    let err = "mcts:repetition=shared".parse::<Policy>().unwrap_err();
    assert!(err.to_string().contains("rules or databases"), "{err}");
}
