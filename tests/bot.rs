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
    // UCI's `go movetime 100` is not ours: the words `go` takes are named.
    assert_eq!(
        got[6],
        "error 'go' takes key=value words (ms=, sims=, depth=, time=, inc=), not 'movetime'"
    );
    // What the search did, then the move.
    assert!(got[7].starts_with("info depth 2 nodes "), "{}", got[7]);
    assert!(got[8].starts_with("bestmove "), "{}", got[8]);
    let mv = &got[8]["bestmove ".len()..];
    assert!(["a", "b", "c", "d", "e", "f"].contains(&mv), "{mv}");
    assert_eq!(got[9], "error 'quit' takes no arguments");
    // Nothing after quit.
    assert_eq!(got.len(), 10);
}

/// The move a bot started with `policy` answers to `go` in the position after `moves`.
fn bestmove<G: Game>(game: &G, policy: &str, moves: &str, go: &str) -> String {
    let got = answers(
        game,
        policy,
        &format!(
            "position startpos{moves}
{go}
"
        ),
    );
    got.last().unwrap().clone()
}

#[test]
fn go_takes_a_budget_for_one_move_and_says_what_the_search_did() {
    let game = oware();
    let got = answers(
        &game,
        "alphabeta:depth=6",
        "go depth=1\ngo depth=3\ngo\ngo depth=3 ms=5\ngo sims=5\ngo time=100 depth=2\n\
         go inc=5\ngo depth=65\n",
    );
    // Depth 1 from the start: each of South's six moves is one node, valued at once.
    assert!(
        got[0].starts_with("info depth 1 nodes 6 value "),
        "{}",
        got[0]
    );
    assert!(got[2].starts_with("info depth 3 nodes "), "{}", got[2]);
    // The budget holds for that move only: the next `go` searches to the policy's depth.
    assert!(got[4].starts_with("info depth 6 nodes "), "{}", got[4]);
    assert_eq!(got[6], "error one budget a move: ms=, sims= or depth=");
    assert!(got[7].contains("unknown setting 'sims'"), "{}", got[7]);
    assert_eq!(
        got[8],
        "error time= sets the move's budget from the clock; leave out depth="
    );
    assert_eq!(got[9], "error inc= goes with time= (the clock)");
    assert!(got[10].contains("1 to 64"), "{}", got[10]);
    // A budget given to `go` plays as the policy with that budget does.
    for (moves, depth) in [("", 3), (" moves C", 4), (" moves C a", 2)] {
        assert_eq!(
            bestmove(
                &game,
                "alphabeta:depth=6",
                moves,
                &format!("go depth={depth}")
            ),
            bestmove(&game, &format!("alphabeta:depth={depth}"), moves, "go"),
            "{moves} at depth {depth}"
        );
    }
    let bao = bao();
    let got = answers(&bao, "mcts", "go sims=7\ngo depth=2\n");
    let sims: Vec<&str> = got[0].split_whitespace().collect();
    assert_eq!(sims[..3], ["info", "sims", "7"], "{}", got[0]);
    let visits: u32 = sims[4].parse().unwrap();
    assert!(
        sims[3] == "visits" && (1..=7).contains(&visits),
        "{}",
        got[0]
    );
    assert!(got[2].contains("unknown setting 'depth'"), "{}", got[2]);
    assert_eq!(
        bestmove(&bao, "mcts", " moves A5>", "go sims=40"),
        bestmove(&bao, "mcts:sims=40", " moves A5>", "go"),
    );
    // Policies that do not search take no budget and say nothing before their move.
    let got = answers(&game, "greedy", "go ms=5\ngo\n");
    assert_eq!(
        got[0],
        "error policy 'greedy' takes no budget (it does not search)"
    );
    assert!(got[1].starts_with("bestmove "), "{got:?}");
    assert_eq!(got.len(), 2);
}

#[test]
fn the_clock_is_spent_a_share_at_a_time() {
    use mancala_lab::bot::clock_budget;
    // A twentieth of the time left and three quarters of the increment...
    assert_eq!(clock_budget(60_000, 0), 3_000);
    assert_eq!(clock_budget(60_000, 2_000), 4_500);
    // ... never more than half of the time left, and at least a millisecond.
    assert_eq!(clock_budget(1_000, 2_000), 500);
    assert_eq!(clock_budget(0, 0), 1);
    let got = answers(&oware(), "alphabeta", "go time=200 inc=40\n");
    assert!(got[0].starts_with("info depth "), "{got:?}");
    assert!(got[1].starts_with("bestmove "), "{got:?}");
}

#[test]
fn a_time_budget_past_the_simulation_cap_says_so() {
    // An hour a move: the tree stops at its 100,000 simulations long before, and says so.
    let got = answers(&oware(), "mcts:solve=false", "go ms=3600000\n");
    assert!(
        got[0].starts_with("info sims 100000 ") && got[0].ends_with(" capped 100000"),
        "{}",
        got[0]
    );
    // A simulation budget is met exactly: no cap to report.
    let got = answers(&oware(), "mcts", "go sims=100\n");
    assert!(!got[0].contains("capped"), "{}", got[0]);
}

#[test]
fn newgame_starts_a_fresh_game_with_draws_of_its_own() {
    let game = oware();
    let input = "position startpos moves C a\ngo\nnewgame\nlegal\ngo\nnewgame\ngo\nnewgame\n\
                 go\nnewgame\ngo\nnewgame\ngo\nnewgame takes nothing\n";
    let got = answers(&game, "random", input);
    assert_eq!(got[2], "ok");
    // Back at the start, South to move.
    assert_eq!(got[3], "legal A B C D E F");
    assert_eq!(got.last().unwrap(), "error 'newgame' takes no arguments");
    // The same answers from the same seed; the first game's answer is a fresh bot's.
    assert_eq!(got, answers(&game, "random", input));
    assert_eq!(
        got[1],
        answers(&game, "random", "position startpos moves C a\ngo\n")[1]
    );
    // Each game draws its own: five random first moves are not all one pit.
    let first: std::collections::BTreeSet<&String> = got
        .iter()
        .skip(4)
        .filter(|l| l.starts_with("bestmove "))
        .collect();
    assert!(first.len() > 1, "{got:?}");
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

/// The Python driver docs/bot.md shows plays a whole game through two bots (where python3 runs).
#[test]
fn the_documented_driver_plays_a_game() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = std::process::Command::new("python3")
        .arg(root.join("experiments/bot/driver.py"))
        .args(["--bin", env!("CARGO_BIN_EXE_mancala-lab")])
        .args(["--south", "alphabeta:depth=2", "--north", "mcts:sims=20"])
        .output();
    let Ok(out) = run else {
        eprintln!("no python3 here: the driver is not run");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("ply 1: South ") && lines[0].contains(", info depth 2 nodes "),
        "{text}"
    );
    assert!(lines[1].starts_with("ply 2: North ") && lines[1].contains(", info sims "));
    let result = lines.last().unwrap();
    assert!(
        ["result: South ", "result: North ", "result: draw "]
            .iter()
            .any(|r| result.starts_with(r)),
        "{text}"
    );
}

#[test]
fn position_text_sets_up_any_position_on_one_line() {
    let game = oware();
    // North to move with a = 2, b = 1 (the north line lists f e d c b a), South A = 3, F = 4:
    // 20 + 18 + 3 + 7 = 48 seeds. North may play a or b; after a (two seeds, into b and c),
    // South may play A or F.
    let text = "to_move: North; scores: 20 18; north: 0 0 0 0 1 2; south: 3 0 0 0 0 4";
    let got = answers(
        &game,
        "alphabeta:depth=4",
        &format!(
            "position text {text}\nlegal\ngo\nposition text {text} moves a\nlegal\n\
             position text to_move: Up\nlegal\nposition text {text} moves c\nlegal\n"
        ),
    );
    assert_eq!(got[0], "ok");
    assert_eq!(got[1], "legal a b");
    assert!(got[2].starts_with("info depth 4 "), "{}", got[2]);
    assert!(
        ["bestmove a", "bestmove b"].contains(&got[3].as_str()),
        "{}",
        got[3]
    );
    assert_eq!(got[4], "ok");
    assert_eq!(got[5], "legal A F");
    // A text that is not a position, or a move not legal from it: named, the position kept.
    assert_eq!(
        got[6],
        "error position text: line 1, column 10: expected 'South' or 'North'"
    );
    assert_eq!(got[7], "legal A F");
    assert_eq!(got[8], "error move 1 'c' is not legal here (legal: a b)");
    assert_eq!(got[9], "legal A F");

    // Bao: the example position file, its lines joined by `;` (comments dropped with them),
    // gives the legal moves the reference engine finds in the file.
    let file = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/examples/bao-capture.txt"),
    )
    .unwrap();
    let reference = mancala_lab::bao::Rules::new(mancala_lab::bao::Variant::DEFAULT);
    let p = reference
        .state_from_text(&file)
        .expect("the example is a position");
    let mut legal = Vec::new();
    Game::legal_moves(&reference, &p, &mut legal);
    let expected: Vec<String> = legal
        .iter()
        .map(|&m| Game::notation(&reference, &p, m))
        .collect();
    let one_line: Vec<&str> = file.lines().map(|l| l.split('#').next().unwrap()).collect();
    let got = answers(
        &bao(),
        "random",
        &format!("position text {}\nlegal\n", one_line.join(";")),
    );
    assert_eq!(
        got,
        ["ok".to_string(), format!("legal {}", expected.join(" "))]
    );
}
