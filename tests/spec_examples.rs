//! The worked examples of spec/bao.md (spec/examples/list.txt, drawn by spec/examples/make.sh):
//! each committed picture is byte for byte what `bao diagram` draws now, each move's trace cites
//! the clauses the list names, and each picture is shown in spec/bao.md under its clause.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What an example's picture shows.
#[derive(Debug, PartialEq)]
enum Picture {
    /// The position with the move's path drawn on it.
    Move,
    /// The position the move leaves, without a path.
    After,
}

/// One line of spec/examples/list.txt.
#[derive(Debug)]
struct Example {
    name: String,
    position: String,
    mv: String,
    /// Clause ids the move's trace must cite; the first is the one the example is shown under.
    clauses: Vec<String>,
    picture: Picture,
}

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/examples")
}

fn examples() -> Vec<Example> {
    let path = examples_dir().join("list.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let list: Vec<Example> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [name, position, mv, clauses, picture] = fields[..] else {
                panic!("list.txt line {}: expected 5 fields: {line}", i + 1)
            };
            let picture = match picture {
                "move" => Picture::Move,
                "after" => Picture::After,
                other => panic!("list.txt line {}: unknown picture '{other}'", i + 1),
            };
            Example {
                name: name.to_string(),
                position: position.to_string(),
                mv: mv.to_string(),
                clauses: clauses.split(',').map(str::to_string).collect(),
                picture,
            }
        })
        .collect();
    assert!(!list.is_empty(), "list.txt names no example");
    list
}

/// Runs the binary in spec/examples (where the list's file names are relative to) and returns
/// its standard output, panicking with its standard error when it fails.
fn run(args: &[&str], stdin: Option<&[u8]>) -> Vec<u8> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(args)
        .current_dir(examples_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin.unwrap_or_default()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "mancala-lab {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The SVG the example's command draws now, as make.sh runs it.
fn draw(example: &Example) -> Vec<u8> {
    let (position, mv) = (example.position.as_str(), example.mv.as_str());
    match example.picture {
        Picture::Move => run(
            &[
                "bao",
                "diagram",
                "--position",
                position,
                "--move",
                mv,
                "--out",
                "-",
            ],
            None,
        ),
        Picture::After => {
            let after = run(&["bao", "play", "--position", position, mv], None);
            run(
                &["bao", "diagram", "--position", "-", "--out", "-"],
                Some(&after),
            )
        }
    }
}

#[test]
fn each_picture_is_what_the_command_draws_now() {
    let mut stale = Vec::new();
    for example in examples() {
        let path = examples_dir().join(format!("{}.svg", example.name));
        let committed = std::fs::read(&path).unwrap_or_default();
        if committed != draw(&example) {
            stale.push(example.name);
        }
    }
    assert!(
        stale.is_empty(),
        "pictures differ from what `bao diagram` draws now: {stale:?}; \
         redraw them with spec/examples/make.sh (after cargo build --release) and look at them"
    );
}

#[test]
fn each_move_cites_the_clauses_of_its_example() {
    for example in examples() {
        let text = String::from_utf8(run(
            &[
                "bao",
                "explain",
                "--position",
                &example.position,
                &example.mv,
            ],
            None,
        ))
        .unwrap();
        for clause in &example.clauses {
            assert!(
                text.contains(&format!("[bao {clause}]")),
                "{}: {} does not cite {clause}:\n{text}",
                example.name,
                example.mv
            );
        }
    }
}

/// The text of spec/bao.md's entry for `id`, from its heading to the next heading.
fn section<'a>(spec: &'a str, id: &str) -> &'a str {
    let heading = format!("### bao {id} — ");
    let start = spec
        .find(&heading)
        .unwrap_or_else(|| panic!("spec/bao.md has no heading '{heading}'"));
    let body = &spec[start + heading.len()..];
    let end = body.find("\n#").map_or(body.len(), |i| i + 1);
    &body[..end]
}

#[test]
fn each_picture_is_shown_under_its_clause() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = std::fs::read_to_string(root.join("spec/bao.md")).unwrap();
    let list = examples();
    for example in &list {
        let link = format!("](examples/{}.svg)", example.name);
        assert!(
            section(&spec, &example.clauses[0]).contains(&link),
            "spec/bao.md shows no {link} under bao {}",
            example.clauses[0]
        );
    }
    // Every picture the spec shows, and every file in spec/examples, belongs to a listed example.
    let names: BTreeSet<String> = list.iter().map(|e| format!("{}.svg", e.name)).collect();
    let positions: BTreeSet<&str> = list.iter().map(|e| e.position.as_str()).collect();
    for shown in spec.split("](examples/").skip(1) {
        let file = &shown[..shown.find(')').expect("a closed link")];
        assert!(
            names.contains(file),
            "spec/bao.md shows {file}, not in list.txt"
        );
    }
    for entry in std::fs::read_dir(examples_dir()).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let used = names.contains(&file)
            || positions.contains(file.as_str())
            || file == "list.txt"
            || file == "make.sh";
        assert!(
            used,
            "spec/examples/{file} belongs to no example of list.txt"
        );
    }
}
