//! The documentation stays true: README.md and docs/*.md are checked command by command.
//!
//! - Every `console` block of README.md and docs/*.md (but the generated docs/performance*.md) runs
//!   with trycmd: each `$ mancala-lab ...` line is run from the project root and what it prints
//!   (standard output and error together) must match the lines below it, where `...` stands for
//!   whole lines and `[..]` for part of a line that varies (times, speeds, the engine picked for
//!   the processor); `? N` before the output expects exit code N; a blank line ends each output
//!   (trycmd takes the last line break before it as layout). Examples may read the project's
//!   files (tests/examples/ holds the positions and transcripts they use) and write only under
//!   `/tmp/`, which the test moves to a folder of its own: it runs copies of the pages in which
//!   `/tmp/` is replaced, with the same line numbers, so a failure names the copy's path and the
//!   page's line (and `TRYCMD=overwrite` would rewrite only the copies: edit the pages).
//! - Every other `mancala-lab` command line of those pages and of docs/performance*.md, in other
//!   fenced blocks (runs too long for a test, tagged `sh`) and in inline code spans (the synopses
//!   of docs/commands.md, the tables of docs/verification.md, and spans that start with a
//!   subcommand and an option, such as `diff --rows`), is checked with `mancala-lab --parse-only`:
//!   the subcommand, every option and its value must be valid. A span may leave out required
//!   arguments (it can be a mention, `mancala-lab perft`); a fenced command may not. Spans use the
//!   synopsis notation: `[...]` an optional part (each is checked with the required parts),
//!   `a|b` alternatives (each checked), capitals a placeholder (`G` each game, `V` each reading
//!   of the game, `P` after `--policy` a policy, any other a number such as 1), `...` repetition.
//! - A block whose info string holds `file=PATH` shows the file PATH as it is.

use mancala_lab::playout::EngineKind;
use mancala_lab::registry::GameKind;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> &'static Path {
    trycmd::cargo::cargo_bin!("mancala-lab")
}

/// README.md and docs/*.md, relative to the project root.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| p.strip_prefix(root()).unwrap().to_path_buf())
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Written by experiments/bench/run.sh (a page per processor class): its commands are
/// parse-checked, its blocks are output.
fn generated(page: &Path) -> bool {
    page == Path::new("docs/performance.md")
        || page
            .to_str()
            .is_some_and(|p| p.starts_with("docs/performance-") && p.ends_with(".md"))
}

/// A fenced block: its info string, the line of its first content line (1-based), its text.
struct Block {
    info: String,
    line: usize,
    text: String,
}

impl Block {
    fn lines(&self) -> Vec<&str> {
        self.text.lines().collect()
    }
}

/// An inline code span and the line it starts on.
struct Span {
    line: usize,
    text: String,
}

/// The fenced blocks and the inline code spans of a markdown page (GitHub's, with tables).
fn parse_markdown(text: &str) -> (Vec<Block>, Vec<Span>) {
    use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let (mut blocks, mut spans) = (Vec::new(), Vec::new());
    let mut open: Option<Block> = None;
    for (event, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                open = Some(Block {
                    info: info.to_string(),
                    line: line_of(range.start) + 1,
                    text: String::new(),
                });
            }
            Event::Text(t) => {
                if let Some(block) = open.as_mut() {
                    block.text.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(open.take()),
            Event::Code(code) => spans.push(Span {
                line: line_of(range.start),
                text: code.to_string(),
            }),
            _ => {}
        }
    }
    (blocks, spans)
}

/// The subcommands `mancala-lab --help` lists.
fn subcommands() -> BTreeSet<String> {
    let out = Command::new(bin()).arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// A `mancala-lab` command line of a page, to parse-check.
struct Documented {
    place: String,
    /// The arguments after `mancala-lab`, in synopsis notation.
    args: String,
    /// Required arguments may be missing (a span mentioning a command).
    partial: bool,
}

/// The arguments after `mancala-lab` (or `cargo run --release --`) at the start of `text`, up to
/// where the shell's next command or a redirection starts.
fn command_args(text: &str) -> Option<&str> {
    let end = [" | ", " > ", " < ", " ; ", "; ", " && "]
        .iter()
        .filter_map(|op| text.find(op))
        .min()
        .unwrap_or(text.len());
    let text = &text[..end];
    if let Some(rest) = text.strip_prefix("cargo run --release") {
        return Some(rest.split_once(" -- ").map_or("", |(_, args)| args));
    }
    let rest = text.strip_prefix("mancala-lab")?;
    (rest.is_empty() || rest.starts_with(' ')).then_some(rest)
}

/// Every command line of every page that is not a `console` example: (commands, examples run).
fn documented_commands() -> (Vec<Documented>, usize) {
    let subcommands = subcommands();
    let (mut commands, mut examples) = (Vec::new(), 0);
    for page in pages() {
        let text = fs::read_to_string(root().join(&page)).unwrap();
        let (blocks, spans) = parse_markdown(&text);
        for block in &blocks {
            let console = block.info.split(',').next() == Some("console");
            for (k, line) in block.lines().into_iter().enumerate() {
                let place = format!("{}:{}", page.display(), block.line + k);
                if console {
                    examples += usize::from(line.starts_with("$ "));
                    continue;
                }
                assert!(
                    !line.starts_with("$ mancala-lab"),
                    "{place}: an example that does not run: tag its block `console`, or drop \
                     the `$ ` of a command too long to run"
                );
                // Also a command in a shell comment (`# after the array: mancala-lab ...`).
                let start = line
                    .match_indices("mancala-lab")
                    .map(|(i, _)| i)
                    .chain(line.find("cargo run --release"))
                    .filter(|&i| i == 0 || matches!(&line[i - 1..i], " " | "/"))
                    .min();
                if let Some(args) = start.and_then(|i| command_args(&line[i..])) {
                    commands.push(Documented {
                        place,
                        args: args.to_string(),
                        partial: false,
                    });
                }
            }
        }
        for span in spans {
            let place = format!("{}:{}", page.display(), span.line);
            let mut words = span.text.split_whitespace();
            let implied = subcommands.contains(words.next().unwrap_or(""))
                && words.next().is_some_and(|w| w.starts_with("--"));
            let text = if implied {
                format!("mancala-lab {}", span.text)
            } else {
                span.text
            };
            if let Some(args) = command_args(&text) {
                commands.push(Documented {
                    place,
                    args: args.to_string(),
                    partial: true,
                });
            }
        }
    }
    (commands, examples)
}

/// Is `word` a placeholder: capitals (and `_`) only, as `N`, `FILE`, `SLURM_ARRAY_TASK_ID`?
fn placeholder(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_uppercase())
        && word.chars().all(|c| c.is_ascii_uppercase() || c == '_')
}

/// `text` with each placeholder word in it replaced by 1: `FILE.svg` is `1.svg`, `K/N` is `1/1`,
/// `sown:N` is `sown:1`; `A6<*` stays. The folders of a merge are named apart (`DIR` is `dir`,
/// `SHARD` is `shard`): a merge into one of its shards is refused.
fn fill(text: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once('\0')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        out.push_str(match word.as_str() {
            "DIR" => "dir",
            "SHARD" => "shard",
            "ADDR" => "127.0.0.1",
            _ if placeholder(&word) => "1",
            _ => &word,
        });
        word.clear();
        if c != '\0' {
            out.push(c);
        }
    }
    out
}

/// The concrete argument lists a synopsis stands for.
fn expand(synopsis: &str) -> Result<Vec<Vec<String>>, String> {
    let synopsis = synopsis.replace("${", "").replace('}', "");
    let words = shlex::split(&synopsis).ok_or("unbalanced quotes")?;
    // Parts: (optional, words); `[--seed S]` is one optional part.
    let mut parts: Vec<(bool, Vec<String>)> = Vec::new();
    let mut open = false;
    for word in words {
        let mut w = word.as_str();
        let starts = w.starts_with('[');
        if starts {
            if open {
                return Err("nested [".into());
            }
            w = &w[1..];
            open = true;
            parts.push((true, Vec::new()));
        } else if !open {
            parts.push((false, Vec::new()));
        }
        let ends = w.ends_with(']');
        if ends {
            if !open {
                return Err("] without [".into());
            }
            w = &w[..w.len() - 1];
        }
        let w = w.strip_suffix("...").unwrap_or(w);
        parts.last_mut().unwrap().1.push(w.to_string());
        if ends {
            open = false;
        }
    }
    if open {
        return Err("[ without ]".into());
    }
    let optional: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].0).collect();
    // The required parts alone, then with each optional part.
    let mut choices: Vec<Option<usize>> = vec![None];
    choices.extend(optional.iter().map(|&i| Some(i)));
    let mut lines = Vec::new();
    for choice in choices {
        let words: Vec<String> = parts
            .iter()
            .enumerate()
            .filter(|(i, (opt, _))| !opt || Some(*i) == choice)
            .flat_map(|(_, (_, w))| w.clone())
            .collect();
        lines.extend(alternatives(&words));
    }
    Ok(lines)
}

/// Each choice among the alternatives (`a|b`) and placeholders of `words`.
fn alternatives(words: &[String]) -> Vec<Vec<String>> {
    let mut lines: Vec<Vec<String>> = vec![Vec::new()];
    for (i, word) in words.iter().enumerate() {
        let option = if i > 0 { words[i - 1].as_str() } else { "" };
        // `--players P Q`: the k-th placeholder after --players, a policy of its own.
        let player = (0..i)
            .rev()
            .find(|&j| !placeholder(&words[j]))
            .filter(|&j| words[j] == "--players")
            .map(|j| i - j - 1);
        let choices: Vec<String> = if let Some(k) = player.filter(|_| placeholder(word)) {
            vec![["random", "greedy", "search"][k % 3].into()]
        } else if placeholder(word) && option == "--game" {
            vec!["bao".into(), "oware".into()]
        } else if placeholder(word)
            && ["--policy", "--south", "--north", "--judge"].contains(&option)
        {
            vec!["random".into()]
        } else if placeholder(word) && option == "--variant" {
            vec![word.clone()] // filled below, once the game is known
        } else {
            word.split('|').map(fill).collect()
        };
        lines = lines
            .into_iter()
            .flat_map(|line| {
                choices.iter().map(move |c| {
                    let mut l = line.clone();
                    l.push(c.clone());
                    l
                })
            })
            .collect();
    }
    // `--variant V`: each reading of the line's game.
    lines
        .into_iter()
        .flat_map(|line| {
            let named = |g: &GameKind| {
                line.first().is_some_and(|w| w == g.name())
                    || line
                        .windows(2)
                        .any(|w| w[0] == "--game" && w[1] == g.name())
            };
            let game = GameKind::ALL.into_iter().find(named).unwrap_or_default();
            let presets: &[&str] = match game {
                GameKind::Bao => &mancala_lab::bao::variant::PRESET_NAMES,
                GameKind::Oware => &mancala_lab::oware::variant::PRESET_NAMES,
                GameKind::Kalah => &mancala_lab::kalah::variant::PRESET_NAMES,
            };
            // `diff`, `perft` and `solve` run the optimized engine: only the readings it plays.
            let diff = line
                .first()
                .is_some_and(|w| w == "diff" || w == "perft" || w == "solve");
            let presets: Vec<&str> = presets
                .iter()
                .copied()
                .filter(|p| {
                    !diff || mancala_lab::registry::engine(game, p, EngineKind::Optimized).is_ok()
                })
                .collect();
            let at = (1..line.len()).find(|&i| line[i - 1] == "--variant" && placeholder(&line[i]));
            match at {
                None => vec![line],
                Some(at) => presets
                    .iter()
                    .map(|p| {
                        let mut l = line.clone();
                        l[at] = p.to_string();
                        l
                    })
                    .collect(),
            }
        })
        .collect()
}

/// `mancala-lab --parse-only ARGS`: `Err` with what it printed if the arguments are refused
/// (missing required arguments pass when `partial`).
fn parse_check(args: &[String], partial: bool) -> Result<(), String> {
    let out = Command::new(bin())
        .arg("--parse-only")
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let missing = stderr.contains("the following required arguments were not provided");
    if out.status.success() || (partial && missing) {
        Ok(())
    } else {
        Err(format!("exit {:?}: {}", out.status.code(), stderr.trim()))
    }
}

/// Every failure of the documented commands, with where they are written.
fn parse_failures(commands: &[Documented]) -> (Vec<String>, usize) {
    let (mut failures, mut lines) = (Vec::new(), 0);
    for c in commands {
        match expand(&c.args) {
            Err(e) => failures.push(format!("{}: `{}`: {e}", c.place, c.args.trim())),
            Ok(expanded) => {
                for args in expanded {
                    lines += 1;
                    if let Err(e) = parse_check(&args, c.partial) {
                        failures.push(format!(
                            "{}: `mancala-lab {}`: {e}",
                            c.place,
                            args.join(" ")
                        ));
                    }
                }
            }
        }
    }
    (failures, lines)
}

#[test]
fn every_documented_command_parses() {
    let (commands, _) = documented_commands();
    let (failures, lines) = parse_failures(&commands);
    eprintln!(
        "{} documented commands parse-checked ({lines} command lines after expansion)",
        commands.len()
    );
    assert!(
        failures.is_empty(),
        "documented commands refused:\n{}",
        failures.join("\n")
    );
    assert!(
        commands.len() > 30,
        "too few commands found: the extraction broke"
    );
}

/// The check can fail: misspelt options, unknown readings and bad values are caught.
#[test]
fn the_parse_check_refuses_bad_commands() {
    let bad = [
        ("diff --game bao --gmaes 50", false),
        ("diff --game bao --variant sheet", false),
        ("oware moves --position FILE --variant default", false),
        ("stats --shard 3/2", false),
        ("diff --game bao --infinite sown:0", false),
        ("perft --game chess --depth 1", true),
        ("coverage [--game bao|owar]", true),
        ("stats [--threads 0]", true),
        ("diff --game G --variant V --games N --first -1", true),
        ("bao moves", false),
        // Options that do not go together, seen only by the command's own check.
        ("diff --game bao --batch", false),
        ("diff --game oware --infinite exact", false),
        ("diff --game bao --variant strict", false),
        (
            "stats --game bao --variant strict --engine optimized",
            false,
        ),
        ("stats --resume --game bao --variant abapa", false),
        ("stats --resume --variant nonsense", false),
        ("bench --seconds 0", false),
        ("perft --game bao --variant strict --depth 1", false),
        ("perft --game oware --depth 0", false),
        ("plot --bin 0 --out q.svg a=x.csv", false),
        ("plot --out q.svg games.csv", false),
        ("plot --out q.svg a=- b=-", false),
        ("bao explain --position p.txt A6<* --svg -", false),
        ("oware explain --position p.txt C --svg -", false),
        ("bao play --position p.txt Z9", false),
        ("oware play --position p.txt Z", false),
        ("bao diagram --position p.txt --move Z9 --out d.svg", false),
        (
            "oware diagram --position p.txt --move CC --out d.svg",
            false,
        ),
        ("bao cutoffs --csv -", false),
        ("bao cutoffs --limits 5,5", false),
        // Folders that exist where the test runs.
        ("stats merge --out src src tests", false),
        ("stats merge --out out src src", false),
    ];
    for (args, partial) in bad {
        let c = Documented {
            place: "test".into(),
            args: args.into(),
            partial,
        };
        let (failures, _) = parse_failures(&[c]);
        assert!(!failures.is_empty(), "`{args}` was not refused");
    }
    let good = Documented {
        place: "test".into(),
        args: "stats --game G --variant V [--shard 1/2] [--engine reference]".into(),
        partial: false,
    };
    let (failures, lines) = parse_failures(&[good]);
    assert_eq!(failures, Vec::<String>::new());
    // 7 readings of the two games x (alone, with --shard, with --engine reference).
    assert_eq!(lines, 21);
    // A resumed job takes its game from the manifest: any game's reading passes.
    for args in [
        "stats --resume --variant abapa",
        "stats --resume --variant literal-en",
    ] {
        let args: Vec<String> = args.split(' ').map(String::from).collect();
        assert_eq!(parse_check(&args, false), Ok(()));
    }
}

/// Copies of the pages with `/tmp/` moved to a folder of the test's own, removed at the end.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn console_examples_run() {
    let scratch =
        Scratch(std::env::temp_dir().join(format!("mancala-lab-docs-{}", std::process::id())));
    let tmp = scratch.0.join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    let cases = trycmd::TestCases::new();
    cases.register_bin("mancala-lab", bin());
    let (_, examples) = documented_commands();
    for page in pages().into_iter().filter(|p| !generated(p)) {
        let text = fs::read_to_string(root().join(&page)).unwrap();
        let (blocks, _) = parse_markdown(&text);
        for block in blocks.iter().filter(|b| b.info.starts_with("console")) {
            // trycmd reads the last line break of an output as layout: a blank line stands for it.
            let lines = block.lines();
            for (k, line) in lines.iter().enumerate().skip(1) {
                assert!(
                    !line.starts_with("$ ") || lines[k - 1].is_empty(),
                    "{}:{}: end the output above with a blank line",
                    page.display(),
                    block.line + k
                );
            }
            assert!(
                lines.last().is_some_and(|l| l.is_empty()),
                "{}:{}: end the block's last output with a blank line",
                page.display(),
                block.line
            );
            for (k, line) in lines.iter().enumerate() {
                let Some(command) = line.strip_prefix("$ ") else {
                    continue;
                };
                let words = shlex::split(command).unwrap_or_default();
                for w in words.windows(2) {
                    assert!(
                        !matches!(
                            w[0].as_str(),
                            "--out" | "--csv" | "--update" | "--svg" | "--db"
                        ) || w[1] == "-"
                            || w[1].starts_with("/tmp/"),
                        "{}:{}: an example writes {} {}: write under /tmp/ in examples",
                        page.display(),
                        block.line + k,
                        w[0],
                        w[1]
                    );
                }
            }
        }
        let copy = scratch.0.join(&page);
        fs::create_dir_all(copy.parent().unwrap()).unwrap();
        let mut text = text.replace("/tmp/", &format!("{}/", tmp.display()));
        if mutation_run() {
            text = without_coverage_examples(&text);
        }
        fs::write(&copy, text).unwrap();
        cases.case(copy);
    }
    eprintln!("{examples} console examples run");
    assert!(
        examples > 10,
        "too few examples found: the extraction broke"
    );
    cases.run();
}

/// Whether mutants are meeting the whole suite (experiments/mutants/run.sh sets
/// `MANCALA_LAB_MUTATION_RUN`): the `coverage` examples are not run then. What they print changes
/// with changes of no behaviour, which would count every such mutant caught: the recorded
/// mutation figures go stale with any change to a mutated file, and the verdict counts the
/// `// spec:` annotations, which a mutant that replaces a function's body deletes. (The command
/// reads the source text and runs no engine code, so no mutant's behaviour shows in it.)
fn mutation_run() -> bool {
    std::env::var_os("MANCALA_LAB_MUTATION_RUN").is_some()
}

/// `text` with each `mancala-lab coverage` example marked `? skipped`, which trycmd does not run
/// (a status the example gives is replaced).
fn without_coverage_examples(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        out.push(line.to_string());
        i += 1;
        let Some(command) = line.strip_prefix("$ ") else {
            continue;
        };
        let words = shlex::split(command).unwrap_or_default();
        let mut words = words.iter().skip_while(|w| w.contains('='));
        if !(words.next().is_some_and(|w| w == "mancala-lab")
            && words.next().is_some_and(|w| w == "coverage"))
        {
            continue;
        }
        while i < lines.len() && lines[i].starts_with("> ") {
            out.push(lines[i].to_string());
            i += 1;
        }
        if i < lines.len() && lines[i].starts_with("? ") {
            i += 1;
        }
        out.push("? skipped".to_string());
    }
    out.join("\n")
}

#[test]
fn only_coverage_examples_are_skipped() {
    let page =
        "```console\n$ mancala-lab coverage --game bao --quiet\ncoverage bao: 64/64 PASS\n\n\
                $ mancala-lab coverage\n> --game oware\n? failed\ncoverage oware: FAIL\n\n\
                $ mancala-lab oware start\ncoverage bao: x\n\n```\n";
    assert_eq!(
        without_coverage_examples(page),
        "```console\n$ mancala-lab coverage --game bao --quiet\n? skipped\ncoverage bao: 64/64 PASS\n\n\
         $ mancala-lab coverage\n> --game oware\n? skipped\ncoverage oware: FAIL\n\n\
         $ mancala-lab oware start\ncoverage bao: x\n\n```\n"
    );
}

#[test]
fn blocks_that_show_a_file_match_it() {
    let mut shown = 0;
    for page in pages() {
        let text = fs::read_to_string(root().join(&page)).unwrap();
        let (blocks, _) = parse_markdown(&text);
        for block in blocks {
            let Some(path) = block
                .info
                .split_whitespace()
                .find_map(|w| w.strip_prefix("file="))
            else {
                continue;
            };
            let file = fs::read_to_string(root().join(path))
                .unwrap_or_else(|e| panic!("{}:{}: {path}: {e}", page.display(), block.line));
            assert_eq!(
                block.text,
                file,
                "{}:{}: the block differs from {path}",
                page.display(),
                block.line
            );
            shown += 1;
        }
    }
    assert!(shown > 0);
}

/// The crate's description in Cargo.toml names the games the command line's help names, and each
/// game has its name there.
#[test]
fn the_crates_description_names_every_game() {
    let games = |text: &str| -> String {
        let (_, rest) = text.split_once("mancala games (").unwrap();
        rest.split(')').next().unwrap().to_string()
    };
    let toml = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let description = toml
        .lines()
        .find_map(|l| l.strip_prefix("description = "))
        .unwrap();
    let help = Command::new(bin()).arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let named = games(description);
    assert_eq!(named, games(help.lines().next().unwrap()));
    let names = [
        (GameKind::Bao, "Bao la Kiswahili"),
        (GameKind::Oware, "Oware"),
        (GameKind::Kalah, "Kalah"),
    ];
    assert_eq!(names.map(|(g, _)| g), GameKind::ALL);
    assert_eq!(named, names.map(|(_, n)| n).join(", "));
}

/// The README is the front door: short enough to read (detail goes to docs/).
#[test]
fn the_readme_stays_under_250_lines() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines < 250,
        "README.md has {lines} lines; move detail to docs/"
    );
}
