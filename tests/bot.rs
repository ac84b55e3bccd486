//! The bot protocol: answers to each command, a whole game played through it against our own
//! engine's legal moves, the same answers for the same seed, and bad lines answered, not fatal.

use mancala_lab::bot::serve;
use mancala_lab::game::{Game, Verdict};
use mancala_lab::policy::Policy;

fn oware() -> mancala_lab::oware::fast::FastRules {
    mancala_lab::oware::fast::FastRules::new(mancala_lab::oware::Variant::ABAPA).unwrap()
}

fn bao() -> mancala_lab::bao::fast::FastRules {
    mancala_lab::bao::fast::FastRules::new(mancala_lab::bao::Variant::DEFAULT).unwrap()
}

/// The answers of a bot playing `policy` to the lines of `input`.
fn answers<G: Game>(game: &G, policy: &str, input: &str) -> Vec<String> {
    let mut out = Vec::new();
    serve(
        game,
        policy.parse::<Policy>().unwrap(),
        1,
        input.as_bytes(),
        &mut out,
    )
    .unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn each_command_is_answered() {
    let game = oware();
    // The Oware start: South moves first, pits A to F (Oware notation: South's pits upper case).
    let got = answers(
        &game,
        "alphabeta:depth=2",
        "legal\nposition startpos moves C\nlegal\n\nfrobnicate\nposition startpos moves C C\n\
         position\ngo movetime 100\ngo\nquit now\nquit\nlegal\n",
    );
    assert_eq!(got[0], "legal A B C D E F");
    assert_eq!(got[1], "ok");
    assert_eq!(got[2], "legal a b c d e f");
    assert!(
        got[3].starts_with("error unknown command 'frobnicate'"),
        "{}",
        got[3]
    );
    // A move that is not legal leaves the position as it was (after C: North to move).
    assert_eq!(
        got[4],
        "error move 2 'C' is not legal here (legal: a b c d e f)"
    );
    assert!(
        got[5].starts_with("error expected 'position startpos"),
        "{}",
        got[5]
    );
    // A known command with words after it (as UCI's `go movetime 100`) is named as known.
    assert_eq!(
        got[6],
        "error 'go' takes no arguments (the budget is the policy's: bot --policy)"
    );
    assert!(got[7].starts_with("bestmove "), "{}", got[7]);
    let mv = &got[7]["bestmove ".len()..];
    assert!(["a", "b", "c", "d", "e", "f"].contains(&mv), "{mv}");
    assert_eq!(got[8], "error 'quit' takes no arguments");
    // Nothing after quit.
    assert_eq!(got.len(), 9);
}

/// A whole game through the protocol, the bot's moves played back into it: every move it
/// names is legal in our own engine, and at the end it says how the game ended.
fn plays_a_whole_game<G: Game>(game: &G, policy: &str) {
    let mut s = game.start();
    let mut moves: Vec<String> = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..400 {
        let position = format!("position startpos moves {}\ngo\n", moves.join(" "));
        let got = answers(game, policy, &position);
        assert_eq!(got[0], "ok", "{moves:?}");
        if let Some(end) = got[1].strip_prefix("over ") {
            let e = game.ending(&s).expect("over only at the end");
            assert_eq!(end, format!("{} {}", e.winner(), e.end_clause()));
            assert!(matches!(e.verdict, Verdict::Win(_) | Verdict::Draw));
            return;
        }
        let mv = got[1].strip_prefix("bestmove ").expect(&got[1]);
        game.legal_moves(&s, &mut legal);
        let m = *legal
            .iter()
            .find(|&&m| game.notation(&s, m) == mv)
            .unwrap_or_else(|| panic!("{mv} is not legal"));
        game.play_in_place(&mut s, m).unwrap();
        moves.push(mv.to_string());
    }
    panic!("no end in 400 plies");
}

#[test]
fn a_bot_plays_whole_games_of_both() {
    plays_a_whole_game(&oware(), "search");
    plays_a_whole_game(&bao(), "greedy");
}

#[test]
fn the_same_seed_gives_the_same_answers_and_bad_lines_are_answered() {
    let game = bao();
    let input = "position startpos\ngo\nposition startpos moves A5>\ngo\n";
    let a = answers(&game, "mcts:sims=50", input);
    assert_eq!(a, answers(&game, "mcts:sims=50", input));
    // Not UTF-8, and a line past the limit: an error each, and the bot goes on.
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', mancala_lab::bot::MAX_LINE + 10));
    input.extend(b"\nlegal\n");
    let mut out = Vec::new();
    serve(&game, Policy::Random, 1, &input[..], &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "error not UTF-8 text");
    assert!(
        lines[1].starts_with("error a line of more than"),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("legal "), "{}", lines[2]);
    assert_eq!(lines.len(), 3);
}

/// Commands joined by a carriage return that ends no line (old Mac line ends) are named as such,
/// not answered as one bad command; CRLF line ends are line ends.
#[test]
fn a_lone_carriage_return_is_named() {
    let said = answers(&oware(), "random", "position startpos\rlegal\nlegal\r\n");
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].starts_with("error a carriage return that ends no line"),
        "{said:?}"
    );
    assert_eq!(said[1], "legal A B C D E F");
    let said = answers(&oware(), "random", "position startpos\u{2028}legal\n");
    assert!(
        said[0].starts_with("error a line separator (U+2028) that ends no line"),
        "{said:?}"
    );
}
