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

/// A driver's input: the lines given up to the first `quit`, then that `quit` and what follows
/// (or the end of input) only once the bot has answered every command before it: `quit` and the
/// end of input stop a search under way, as a driver that goes away does.
struct Held {
    data: std::io::Cursor<Vec<u8>>,
    hold_at: usize,
    answered: std::sync::mpsc::Receiver<()>,
}

impl std::io::Read for Held {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = std::io::BufRead::fill_buf(self)?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.data.get_ref()[self.data.position() as usize..][..n]);
        self.data.set_position(self.data.position() + n as u64);
        Ok(n)
    }
}

impl std::io::BufRead for Held {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        let at = self.data.position() as usize;
        if at == self.hold_at {
            let _ = self.answered.recv();
        }
        let end = if at < self.hold_at {
            self.hold_at
        } else {
            self.data.get_ref().len()
        };
        Ok(&self.data.get_ref()[at..end])
    }
    fn consume(&mut self, n: usize) {
        self.data.set_position(self.data.position() + n as u64)
    }
}

/// The bot's output, which says when it holds `expected` answers (lines other than `info`).
struct Answers {
    out: Vec<u8>,
    expected: usize,
    answered: Option<std::sync::mpsc::Sender<()>>,
}

impl std::io::Write for Answers {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.extend_from_slice(buf);
        let text = String::from_utf8_lossy(&self.out);
        if text.lines().filter(|l| !l.starts_with("info")).count() >= self.expected {
            self.answered.take();
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a bot playing `policy` writes to the lines of `input` (bytes), its first `quit` and
/// the end of input held back until each line before them but `stop` and blank ones has its
/// answer.
fn serve_held<G: Game>(game: &G, policy: Policy, input: &[u8]) -> String {
    let mut hold_at = 0;
    let mut expected = 0;
    for line in input.split_inclusive(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        if text.trim() == "quit" {
            break;
        }
        hold_at += line.len();
        if !text.trim().is_empty() && text.trim() != "stop" {
            expected += 1;
        }
    }
    let (answered, held) = std::sync::mpsc::channel();
    let input = Held {
        data: std::io::Cursor::new(input.to_vec()),
        hold_at,
        answered: held,
    };
    let mut out = Answers {
        out: Vec::new(),
        expected,
        answered: (expected > 0).then_some(answered),
    };
    serve(game, policy, 1, 60_000, input, &mut out).unwrap();
    String::from_utf8(out.out).unwrap()
}

/// The answers of a bot playing `policy` to the lines of `input`.
fn answers<G: Game>(game: &G, policy: &str, input: &str) -> Vec<String> {
    serve_held(game, policy.parse::<Policy>().unwrap(), input.as_bytes())
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
    let out = serve_held(&game, Policy::Random, &input);
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

/// The bot binary serving `args`, its standard input and output piped.
fn spawn_bot(args: &[&str]) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .arg("bot")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Whether `child` exits within a minute (a search of depth 40 from the Oware start runs for
/// days): its status, or `None` after the minute, the child then killed.
fn exits_soon(child: &mut std::process::Child) -> Option<std::process::ExitStatus> {
    for _ in 0..600 {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    None
}

#[test]
fn stop_ends_a_search_with_the_best_move_so_far() {
    use std::io::{BufRead, Write};
    let mut bot = spawn_bot(&["--game", "oware", "--policy", "alphabeta"]);
    let mut input = bot.stdin.take().unwrap();
    let mut output = std::io::BufReader::new(bot.stdout.take().unwrap());
    writeln!(input, "go depth=40").unwrap();
    // Let the search complete a few depths, then stop it.
    std::thread::sleep(std::time::Duration::from_millis(500));
    writeln!(input, "stop").unwrap();
    let mut info = String::new();
    output.read_line(&mut info).unwrap();
    let mut best = String::new();
    output.read_line(&mut best).unwrap();
    assert!(
        info.starts_with("info depth ") && info.trim_end().ends_with(" stopped"),
        "{info}"
    );
    // A depth completed before the stop: its best move, not the first legal move by default.
    let depth: u32 = info.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!((1..40).contains(&depth), "{info}");
    assert!(best.starts_with("bestmove "), "{best}");
    // A stop with no search under way has no answer; the bot goes on.
    writeln!(input, "stop\nlegal").unwrap();
    let mut legal = String::new();
    output.read_line(&mut legal).unwrap();
    assert_eq!(legal, "legal A B C D E F\n");
    // The next search is not stopped by the stop before it.
    writeln!(input, "go depth=2").unwrap();
    let mut info = String::new();
    output.read_line(&mut info).unwrap();
    assert!(info.starts_with("info depth 2 nodes "), "{info}");
    assert!(!info.contains("stopped"), "{info}");
    drop(input);
    assert!(exits_soon(&mut bot).is_some_and(|s| s.success()));
}

#[test]
fn the_end_of_input_and_quit_end_a_search() {
    use std::io::Write;
    for last in ["", "quit\n"] {
        let mut bot = spawn_bot(&["--game", "oware", "--policy", "alphabeta"]);
        let mut input = bot.stdin.take().unwrap();
        write!(input, "go depth=40\n{last}").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        drop(input);
        let status = exits_soon(&mut bot);
        assert!(status.is_some_and(|s| s.success()), "{last:?}: {status:?}");
    }
}

#[test]
fn a_search_is_capped_in_time_whatever_its_budget() {
    use std::io::{BufRead, Write};
    for policy in ["alphabeta", "mcts:sims=100000"] {
        let mut bot = spawn_bot(&["--game", "oware", "--policy", policy, "--max-ms", "300"]);
        let mut input = bot.stdin.take().unwrap();
        let mut output = std::io::BufReader::new(bot.stdout.take().unwrap());
        let budget = if policy == "alphabeta" {
            "depth=64"
        } else {
            ""
        };
        writeln!(input, "go {budget}").unwrap();
        let mut info = String::new();
        output.read_line(&mut info).unwrap();
        assert!(info.trim_end().ends_with(" stopped"), "{policy}: {info}");
        let mut best = String::new();
        output.read_line(&mut best).unwrap();
        assert!(best.starts_with("bestmove "), "{policy}: {best}");
        if policy.starts_with("mcts") {
            // The move visited most by the simulations run, not the first legal move unvisited.
            let visits: u32 = info.split_whitespace().nth(4).unwrap().parse().unwrap();
            assert!(visits > 0, "{info}");
        }
        drop(input);
        assert!(exits_soon(&mut bot).is_some());
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(["bot", "--game", "oware", "--max-ms", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-ms"));
}

/// A driver killed mid-search (SIGKILL: no chance to say `quit`) leaves no bot running.
#[cfg(unix)]
#[test]
fn a_bot_whose_driver_dies_exits() {
    let dir = std::env::temp_dir().join(format!("mancala-lab-bot-driver-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The driver: starts the bot reading a pipe the driver alone holds open, asks for a deep
    // search, writes the bot's pid, and waits; then it is killed.
    let script = format!(
        "mkfifo '{d}/in'; '{bin}' bot --game oware --policy alphabeta < '{d}/in' > /dev/null & \
         echo $! > '{d}/pid.tmp'; mv '{d}/pid.tmp' '{d}/pid'; exec 3> '{d}/in'; \
         echo 'go depth=40' >&3; exec sleep 600",
        d = dir.display(),
        bin = env!("CARGO_BIN_EXE_mancala-lab")
    );
    let mut driver = std::process::Command::new("sh")
        .args(["-c", &script])
        .spawn()
        .unwrap();
    let pid_file = dir.join("pid");
    let mut waited = 0;
    while !pid_file.exists() && waited < 300 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        waited += 1;
    }
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let alive = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    };
    assert!(alive(pid), "the bot is searching");
    driver.kill().unwrap();
    driver.wait().unwrap();
    let mut gone = false;
    for _ in 0..600 {
        if !alive(pid) {
            gone = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    if !gone {
        let _ = std::process::Command::new("kill")
            .arg(pid.to_string())
            .status();
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(gone, "bot {pid} still runs a minute after its driver died");
}

#[test]
fn the_perfect_policy_without_databases_is_refused_before_any_answer() {
    // No database folder named for the library: refused, as the command line refuses.
    let game = mancala_lab::kalah::fast::FastRules::new(mancala_lab::kalah::Variant::OPENSPIEL);
    let policy: Policy = "perfect".parse().unwrap();
    let (_keep, held) = std::sync::mpsc::channel::<()>();
    let input = Held {
        data: std::io::Cursor::new(b"go\n".to_vec()),
        hold_at: 3,
        answered: held,
    };
    let mut out = Vec::new();
    let e = serve(&game, policy, 1, 60_000, input, &mut out).unwrap_err();
    assert!(e.to_string().contains("policy perfect"), "{e}");
    assert!(out.is_empty());
    // The command line: an empty folder named in MANCALA_LAB_DB.
    let empty = std::env::temp_dir().join(format!("mancala-lab-bot-nodb-{}", std::process::id()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .env(mancala_lab::policy::perfect::DB_VARIABLE, &empty)
        .args(["bot", "--game", "kalah", "--policy", "perfect"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no levels in"));
    assert!(out.stdout.is_empty());
}
