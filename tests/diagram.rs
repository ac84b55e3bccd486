//! Board diagrams (`bao diagram`, `oware diagram`, `explain --svg`): the SVG holds every pit's
//! count at its pit and the move's steps with their clauses, and a real browser draws it.

mod browser;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use browser::chromium;

fn run(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The text nodes of an SVG: position and content.
fn texts(svg: &str) -> Vec<(i32, i32, String)> {
    let attr = |tag: &str, name: &str| -> i32 {
        let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        tag[at..].split('"').next().unwrap().parse().unwrap()
    };
    svg.split("<text")
        .skip(1)
        .map(|part| {
            let (tag, rest) = part.split_once('>').unwrap();
            let content = rest.split("</text>").next().unwrap().trim().to_string();
            (attr(tag, "x"), attr(tag, "y"), content)
        })
        .collect()
}

/// The count drawn nearest each pit name: what a reader pairs with the pit.
fn counts_by_pit(svg: &str, names: &[String]) -> Vec<(String, String)> {
    let nodes = texts(svg);
    names
        .iter()
        .map(|name| {
            let &(x, y, _) = nodes.iter().find(|n| &n.2 == name).unwrap();
            let count = nodes
                .iter()
                .filter(|n| n.2.parse::<u8>().is_ok())
                .min_by_key(|n| (n.0 - x).pow(2) + (n.1 - y).pow(2))
                .unwrap();
            (name.clone(), count.2.clone())
        })
        .collect()
}

/// A mtaji position with many distinct counts (the B-R1 witness of spec/findings/bao.md).
const BAO: &str = "to_move: South
stores: 0 0
houses: owned lost
b: 0 0 0 1 1 1 1 1
a: 0 2 11 1 1 2 4 0
A: 0 1 0 3 24 0 1 0
B: 1 0 1 1 0 2 1 3
";

#[test]
fn a_bao_diagram_shows_each_pit_count_at_its_pit() {
    let svg = run(&["bao", "diagram", "--position", "-", "--out", "-"], BAO);
    // Read off the position text by hand: b and a rows are written 8..1, A and B rows 1..8.
    let rows = [
        ('b', "0 0 0 1 1 1 1 1", true),
        ('a', "0 2 11 1 1 2 4 0", true),
        ('A', "0 1 0 3 24 0 1 0", false),
        ('B', "1 0 1 1 0 2 1 3", false),
    ];
    let mut names = Vec::new();
    let mut want = Vec::new();
    for (row, counts, reversed) in rows {
        for (i, c) in counts.split(' ').enumerate() {
            let number = if reversed { 8 - i } else { i + 1 };
            names.push(format!("{row}{number}"));
            want.push((format!("{row}{number}"), c.to_string()));
        }
    }
    assert_eq!(counts_by_pit(&svg, &names), want);
    let all = texts(&svg);
    let has = |s: &str| all.iter().any(|t| t.2 == s);
    assert!(has("South to move (mtaji stage)"), "{all:?}");
    assert!(has("house owned") && has("house lost"));
}

#[test]
fn a_bao_move_diagram_lists_the_steps_with_their_clauses() {
    let start = run(&["bao", "start"], "");
    let svg = run(
        &[
            "bao",
            "diagram",
            "--position",
            "-",
            "--move",
            "A6<*",
            "--out",
            "-",
        ],
        &start,
    );
    // Worked by hand from spec/bao.md: the store seed makes A6 three (2.1.2), the kutakata takes
    // them (2.3) and sows them towards A1 (1.3): A5, A4, A3; A3 was empty, so the move ends (1.5.4).
    let steps: Vec<String> = texts(&svg)
        .into_iter()
        .map(|t| t.2)
        .filter(|t| t.starts_with(|c: char| c.is_ascii_digit()) && t.contains(". [bao"))
        .collect();
    assert_eq!(
        steps,
        [
            "1. [bao 2.3] kutakata from A6",
            "2. [bao 2.1.2] store seed into A6 (now 3)",
            "3. [bao 2.3] take 3 from A6",
            "4. [bao 1.3] sow 3 anticlockwise from A5 to A3 (now 1)",
            "5. [bao 1.5.4] move ends: last seed in an empty pit",
        ]
    );
    // explain --svg draws the same picture.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-diagram-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("explain.svg");
    run(
        &[
            "bao",
            "explain",
            "--position",
            "-",
            "A6<*",
            "--svg",
            file.to_str().unwrap(),
        ],
        &start,
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), svg);
}

const OWARE: &str = "to_move: South
scores: 10 12
north: 1 2 1 2 0 3
south: 4 0 5 2 6 0
";

#[test]
fn an_oware_move_diagram_circles_the_captured_pits() {
    let svg = run(
        &[
            "oware",
            "diagram",
            "--position",
            "-",
            "--move",
            "E",
            "--out",
            "-",
        ],
        OWARE,
    );
    let names: Vec<String> = "ABCDEFabcdef".chars().map(String::from).collect();
    // The north line is written f..a.
    let want = [
        ("A", "4"),
        ("B", "0"),
        ("C", "5"),
        ("D", "2"),
        ("E", "6"),
        ("F", "0"),
        ("a", "3"),
        ("b", "0"),
        ("c", "2"),
        ("d", "1"),
        ("e", "2"),
        ("f", "1"),
    ]
    .map(|(p, n)| (p.to_string(), n.to_string()));
    assert_eq!(counts_by_pit(&svg, &names), want);
    // By hand: E's six seeds go to F, a, b, c, d, e; e (3), d (2) and c (3) are taken, b (1) is not.
    let nodes = texts(&svg);
    let centre = |name: &str| {
        let &(x, y, _) = nodes.iter().find(|n| n.2 == name).unwrap();
        (x - 26, y - 28)
    };
    let ringed: Vec<&str> = ["a", "b", "c", "d", "e", "f"]
        .into_iter()
        .filter(|p| {
            let (x, y) = centre(p);
            svg.contains(&format!(r#"<circle cx="{x}" cy="{y}" r="40""#))
        })
        .collect();
    assert_eq!(ringed, ["c", "d", "e"]);
}

/// The RGB pixels of an SVG file as headless Chromium draws it, and the image width.
fn render(browser: &Path, svg: &Path, dir: &Path) -> (Vec<u8>, usize) {
    let png = svg.with_extension("png");
    let status = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=900,600",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", svg.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|px| px[..3].to_vec())
        .collect();
    (rgb, info.width as usize)
}

#[test]
fn chromium_draws_the_board_and_its_counts() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = run(&["bao", "start"], "");
    // The same position with one seed moved from A6 to A7 (A6 2 -> 1, A7 2 -> 3).
    let changed = start.replace("A: 0 0 0 0 6 2 2 0", "A: 0 0 0 0 6 1 3 0");
    assert_ne!(changed, start);
    let mut images = Vec::new();
    for (name, pos) in [("start", &start), ("changed", &changed)] {
        let svg = dir.join(format!("{name}.svg"));
        let text = run(&["bao", "diagram", "--position", "-", "--out", "-"], pos);
        std::fs::write(&svg, text).unwrap();
        images.push(render(&browser, &svg, &dir));
    }
    let (a, width) = &images[0];
    let (b, _) = &images[1];
    let white = a.chunks(3).filter(|p| p.iter().all(|&c| c > 245)).count();
    let pixels = a.len() / 3;
    assert!(white < pixels * 3 / 4, "mostly blank: {white} of {pixels}");
    // Where each pit is drawn, read off the SVG (the pit name sits at its lower right).
    let nodes = texts(&run(
        &["bao", "diagram", "--position", "-", "--out", "-"],
        &start,
    ));
    let box_differs = |name: &str| {
        let &(x, y, _) = nodes.iter().find(|n| n.2 == name).unwrap();
        let (cx, cy) = ((x - 20) as usize, (y - 22) as usize);
        (cy - 12..cy + 12).any(|row| {
            (cx - 12..cx + 12).any(|col| {
                let i = 3 * (row * width + col);
                a[i..i + 3] != b[i..i + 3]
            })
        })
    };
    assert!(box_differs("A6") && box_differs("A7"));
    assert!(!box_differs("A5") && !box_differs("B1") && !box_differs("a6"));
}
