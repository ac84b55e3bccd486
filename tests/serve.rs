//! `serve`: the built program started on a free port and asked over HTTP, with a plain HTTP/1.1
//! client written here. Where the command line answers the same question (`explain`, `replay`,
//! the games `--game` takes), its answer is run beside the server's and compared.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_mancala-lab");

/// A running `mancala-lab serve --port 0`, killed when dropped.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`, from the first line the server prints.
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start mancala-lab serve");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // mancala-lab serve: http://127.0.0.1:PORT/ (Ctrl-C stops it)
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| {
                let _ = child.kill();
                panic!("no URL in the server's first line: {first:?}")
            })
            .to_string();
        Server { child, addr }
    }

    fn get(&self, path: &str) -> Reply {
        http(&self.addr, "GET", path, None, b"")
    }

    /// A POST of `body` as JSON.
    fn post(&self, path: &str, body: &Value) -> Reply {
        http(
            &self.addr,
            "POST",
            path,
            Some("application/json"),
            body.to_string().as_bytes(),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON; every answer of the API is JSON, errors too.
    fn json(&self) -> Value {
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "{self:?}"
        );
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The message of an error answer with status `status`.
    fn error(&self, status: u16) -> String {
        assert_eq!(self.status, status, "{}", self.text());
        let body = self.json();
        body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error message: {body}"))
            .to_string()
    }
}

/// One request on its own connection (`Connection: close`), the answer read to its end.
fn http(addr: &str, method: &str, path: &str, content_type: Option<&str>, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(300)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(kind) = content_type {
        head.push_str(&format!("Content-Type: {kind}\r\n"));
    }
    head.push_str("\r\n");
    // The server may answer (413) and close before it has read a large body: a failed write is
    // not the answer, what comes back is.
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body));
    let mut raw = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
            Err(e) if !raw.is_empty() && e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("{method} {path}: {e}"),
        }
    }
    parse_reply(&raw).unwrap_or_else(|| {
        panic!(
            "{method} {path}: not an HTTP answer: {}",
            String::from_utf8_lossy(&raw)
        )
    })
}

fn parse_reply(raw: &[u8]) -> Option<Reply> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let rest = &raw[end + 4..];
    let chunked = headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    let body = if chunked {
        dechunk(rest)?
    } else {
        match headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        {
            Some((_, len)) => {
                let len: usize = len.parse().ok()?;
                rest.get(..len)?.to_vec()
            }
            None => rest.to_vec(),
        }
    };
    Some(Reply {
        status,
        headers,
        body,
    })
}

fn dechunk(mut rest: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let eol = rest.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&rest[..eol]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        rest = &rest[eol + 2..];
        if size == 0 {
            return Some(body);
        }
        body.extend_from_slice(rest.get(..size)?);
        rest = rest.get(size + 2..)?;
    }
}

/// The command line run with `args`.
fn cli(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn games_lists_every_game_and_no_perfect_player_without_databases() {
    let server = Server::start(&[]);
    let reply = server.get("/api/games");
    assert_eq!(reply.status, 200, "{}", reply.text());
    let games = reply.json();
    let names: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bao", "oware", "kalah"]);
    let oware = &games["games"][1];
    assert_eq!(oware["default_variant"], "sheet");
    assert_eq!(oware["presets"], json!(["sheet", "abapa", "strict"]));
    assert_eq!(games["databases"], false);
    let policies: Vec<&str> = games["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(policies.contains(&"mcts"), "{policies:?}");
    assert!(!policies.contains(&"perfect"), "{policies:?}");
}

/// The steps of a Bao capture are the lines `bao explain` prints, clause and text, and the
/// position after it is the one `explain` prints.
#[test]
fn a_bao_capture_is_explained_as_explain_prints_it() {
    let path = "tests/examples/bao-capture.txt";
    let printed = cli(&["bao", "explain", "--position", path, "a5<"]);
    assert!(printed.status.success(), "{printed:?}");
    let printed = String::from_utf8(printed.stdout).unwrap();
    let expected: Vec<(String, String)> = printed
        .lines()
        .filter_map(|l| l.strip_prefix("  ["))
        .map(|l| {
            let (clause, text) = l.split_once("] ").unwrap();
            (clause.to_string(), text.to_string())
        })
        .collect();
    assert!(expected.len() > 2, "{printed}");
    assert!(
        expected.iter().any(|(_, text)| text.starts_with("capture")),
        "{printed}"
    );
    let position_after: String = printed
        .lines()
        .skip_while(|l| *l != "resulting position:")
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();

    let server = Server::start(&[]);
    let reply = server.post(
        "/api/explain",
        &json!({"game": "bao", "start": read(path), "move": "a5<"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let explained = reply.json();
    let steps: Vec<(String, String)> = explained["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["clause"].as_str().unwrap().to_string(),
                s["text"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(steps, expected);
    assert_eq!(explained["by"], "North");
    assert!(printed.starts_with("a5< by North"), "{printed}");
    assert_eq!(explained["after"]["position"], position_after.as_str());
    assert_eq!(explained["after"]["to_move"], "South");
    // The capture's step names the pits it takes from and into.
    let capture = explained["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["clause"] == "bao 1.4.2")
        .expect("a capture step");
    assert_eq!(capture["pits"], json!(["A4", "a5"]));
}

/// A transcript's fault: 422 with the line and column `replay` reports for the same text.
#[test]
fn a_transcript_fault_has_the_line_and_column_replay_reports() {
    let text = "# a comment, then two good plies\n1. C f\n2. A a\n3. B  g\n";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("faulty.txt");
    std::fs::write(&file, text).unwrap();
    let replayed = cli(&["oware", "replay", file.to_str().unwrap()]);
    assert_eq!(replayed.status.code(), Some(2), "{replayed:?}");
    let stderr = String::from_utf8(replayed.stderr).unwrap();
    // mancala-lab: FILE: line L, column C: ...
    let at = stderr.find("line ").expect(&stderr);
    let (line, rest) = stderr[at + 5..].split_once(", column ").expect(&stderr);
    let column = rest.split(':').next().unwrap();
    let (line, column): (u64, u64) = (line.parse().unwrap(), column.parse().unwrap());
    assert_eq!(line, 4, "{stderr}");

    let server = Server::start(&[]);
    let reply = server.post("/api/transcript", &json!({"game": "oware", "text": text}));
    let message = reply.error(422);
    let body = reply.json();
    assert_eq!(
        (body["line"].as_u64(), body["column"].as_u64()),
        (Some(line), Some(column))
    );
    assert!(
        stderr.trim_end().ends_with(&message),
        "{stderr} / {message}"
    );
    // Without the fault the transcript replays to its end.
    let good = server.post(
        "/api/transcript",
        &json!({"game": "oware", "text": "1. C f\n2. A a\n"}),
    );
    assert_eq!(good.status, 200, "{}", good.text());
    assert_eq!(good.json()["moves"], json!(["C", "f", "A", "a"]));
}

/// Bodies the server cannot read: 400 (not JSON, or not of the request's shape), 415 (not sent
/// as JSON), 413 (over 64 KiB); each a JSON error.
#[test]
fn malformed_wrongly_typed_and_oversized_bodies_are_refused() {
    let server = Server::start(&[]);
    let broken = http(
        &server.addr,
        "POST",
        "/api/state",
        Some("application/json"),
        b"{\"game\": \"oware\",",
    );
    assert!(!broken.error(400).is_empty());
    let unknown_field = server.post("/api/state", &json!({"game": "oware", "colour": "red"}));
    assert!(
        unknown_field.error(400).contains("colour"),
        "{}",
        unknown_field.text()
    );
    let missing = server.post("/api/explain", &json!({"game": "oware"}));
    assert!(missing.error(400).contains("move"), "{}", missing.text());
    let plain = http(
        &server.addr,
        "POST",
        "/api/state",
        Some("text/plain"),
        br#"{"game": "oware"}"#,
    );
    assert!(!plain.error(415).is_empty());
    let huge = json!({"game": "oware", "start": " ".repeat(70 * 1024)});
    let reply = server.post("/api/state", &huge);
    assert!(reply.error(413).contains("65536"), "{}", reply.text());
    // The server goes on.
    assert_eq!(server.get("/api/games").status, 200);
}

/// An unknown game: 422 in the library's words, naming the games `--game` takes.
#[test]
fn an_unknown_game_is_refused_in_the_command_lines_words() {
    let clap = cli(&["perft", "--game", "chess", "--depth", "1"]);
    assert_eq!(clap.status.code(), Some(2));
    let clap = String::from_utf8(clap.stderr).unwrap();
    let possible = clap
        .split("[possible values: ")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .expect(&clap);
    let server = Server::start(&[]);
    for (path, body) in [
        ("/api/state", json!({"game": "chess"})),
        ("/api/explain", json!({"game": "chess", "move": "e4"})),
        ("/api/transcript", json!({"game": "chess", "text": ""})),
    ] {
        let message = server.post(path, &body).error(422);
        assert_eq!(
            message,
            format!("unknown game 'chess' (known: {possible})"),
            "{path}"
        );
    }
    let message = server.get("/api/clause?game=chess&id=1").error(422);
    assert!(message.starts_with("unknown game 'chess'"), "{message}");
}

#[test]
fn an_illegal_move_is_refused() {
    let server = Server::start(&[]);
    // North's pit at the start, South to move.
    let start = read("tests/examples/oware-position.txt");
    let message = server
        .post(
            "/api/explain",
            &json!({"game": "oware", "start": start, "move": "a"}),
        )
        .error(422);
    assert!(message.contains("'a'"), "{message}");
    let message = server
        .post("/api/state", &json!({"game": "oware", "moves": ["C", "C"]}))
        .error(422);
    assert!(message.starts_with("move 2: "), "{message}");
    // `play` refuses it too.
    let played = cli(&[
        "oware",
        "play",
        "--position",
        "tests/examples/oware-position.txt",
        "a",
    ]);
    assert_eq!(played.status.code(), Some(2), "{played:?}");
}

/// A clause's title and text are the spec's, whichever way its id is written; an unknown one is
/// 404.
#[test]
fn a_clause_has_its_text_from_the_spec() {
    let server = Server::start(&[]);
    let spec = read("spec/oware.md");
    let reply = server.get("/api/clause?game=oware&id=O.4.2");
    assert_eq!(reply.status, 200, "{}", reply.text());
    let clause = reply.json();
    assert_eq!(clause["game"], "oware");
    assert_eq!(clause["id"], "O.4.2");
    assert_eq!(clause["title"], "No allowed move");
    let text = clause["text"].as_str().unwrap();
    assert!(!text.trim().is_empty());
    let first = text.lines().find(|l| l.len() > 20).unwrap();
    assert!(spec.contains(first), "{first}");
    assert!(spec.contains("No allowed move"));
    // As a trace or an ending writes it.
    for id in ["oware%20O.4.2", "silent:O.4.2"] {
        let again = server
            .get(&format!("/api/clause?game=oware&id={id}"))
            .json();
        assert_eq!(again, clause, "{id}");
    }
    let message = server.get("/api/clause?game=oware&id=O.99").error(404);
    assert!(message.contains("O.99"), "{message}");
    assert!(!server.get("/api/clause?game=oware").error(400).is_empty());
}

/// A move whose Oware readings differ: South's capture of North's a leaves North only a grand
/// slam. The sheet forbids it, so the game ends at once (O.4.2, each side takes its row); abapa
/// lets it be played, capturing nothing, and the game goes on; strict leaves the end open.
#[test]
fn readings_of_a_move_where_the_grand_slam_rule_matters_differ() {
    let server = Server::start(&[]);
    let start = "to_move: South\nscores: 15 18\nnorth: 0 0 0 8 0 1\nsouth: 1 1 1 1 1 1\n";
    let reply = server.post(
        "/api/readings",
        &json!({"game": "oware", "start": start, "move": "F"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let readings = reply.json();
    let readings = readings["readings"].as_array().unwrap();
    let by: Vec<(&str, &str)> = readings
        .iter()
        .map(|r| {
            (
                r["variant"].as_str().unwrap(),
                r["outcome"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        by,
        [
            ("sheet", "same"),
            ("abapa", "different"),
            ("strict", "different")
        ]
    );
    assert_eq!(readings[0]["ending"]["clause"], "O.4.2");
    assert_eq!(readings[0]["ending"]["winner"], "North");
    assert_eq!(readings[1]["ending"], Value::Null);
    assert_eq!(readings[1]["clause"], "oware O.4.2");
    assert_eq!(readings[2]["ending"]["clause"], "silent:O.4.2");
    // Abapa's position is the board after the capture, North to play its grand slam.
    let abapa = readings[1]["position"].as_str().unwrap();
    assert!(abapa.contains("north: 0 0 0 8 0 0"), "{abapa}");
    let legal = server.post(
        "/api/state",
        &json!({"game": "oware", "variant": "abapa", "start": start, "moves": ["F"]}),
    );
    assert_eq!(
        legal.json()["legal"],
        json!([{"notation": "c", "pit": "c"}])
    );
}

/// The routes `router` declares (src/cli/serve.rs): each path and its method.
fn declared_routes() -> Vec<(String, String)> {
    let source = read("src/cli/serve.rs");
    let router = &source[source.find("pub fn router").expect("fn router")..];
    let router = &router[..router.find("\n}\n").expect("the end of fn router")];
    let mut routes = Vec::new();
    for part in router.split(".route(").skip(1) {
        let path = part.split('"').nth(1).unwrap().to_string();
        let after = &part[part.find(',').unwrap() + 1..];
        let method = after.trim_start().split('(').next().unwrap().to_string();
        routes.push((path, method));
    }
    routes
}

/// The OpenAPI document is JSON, names every route the router has and no other, and each
/// operation it names is served.
#[test]
fn the_openapi_document_lists_every_route() {
    let server = Server::start(&[]);
    let reply = server.get("/api/openapi.json");
    assert_eq!(reply.status, 200);
    let doc = reply.json();
    assert_eq!(
        doc,
        serde_json::from_str::<Value>(&read("docs/openapi.json")).unwrap()
    );
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let routes = declared_routes();
    assert!(routes.len() >= 11, "{routes:?}");
    assert!(routes.contains(&("/api/policy".to_string(), "post".to_string())));
    let paths = doc["paths"].as_object().unwrap();
    for (path, method) in &routes {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} is not in docs/openapi.json"
        );
    }
    let mut documented = Vec::new();
    for (path, operations) in paths {
        for method in operations.as_object().unwrap().keys() {
            documented.push((path.clone(), method.clone()));
        }
    }
    documented.sort();
    let mut declared = routes.clone();
    declared.sort();
    assert_eq!(documented, declared);
    // Each is served: neither the fallback's 404 nor 405.
    for (path, method) in &routes {
        let reply = match method.as_str() {
            "get" => server.get(path),
            _ => server.post(path, &json!({})),
        };
        assert!(
            reply.status != 404 && reply.status != 405,
            "{method} {path}: {}",
            reply.status
        );
    }
    assert_eq!(
        server.get("/api/nothing").error(404),
        "no such page or endpoint"
    );
    // Every error answer of an operation is documented with the error body.
    for (path, method) in &routes {
        let responses = &doc["paths"][path][method]["responses"];
        assert!(responses.get("200").is_some(), "{method} {path}");
        if method == "post" {
            for status in ["400", "413", "415", "422", "500"] {
                assert!(responses.get(status).is_some(), "{method} {path}: {status}");
            }
        }
    }
    let busy = &doc["components"]["responses"]["Busy"];
    assert!(busy["headers"].get("Retry-After").is_some(), "{busy}");
}

#[test]
fn a_perfect_player_needs_databases() {
    let server = Server::start(&[]);
    let message = server
        .post(
            "/api/policy",
            &json!({"game": "oware", "policy": "perfect"}),
        )
        .error(422);
    assert!(message.contains("--db"), "{message}");
    let message = server
        .post("/api/values", &json!({"game": "oware"}))
        .error(422);
    assert!(message.contains("--db"), "{message}");
    // Another policy plays.
    let reply = server.post(
        "/api/policy",
        &json!({"game": "oware", "policy": "random", "seed": 3}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let chosen = reply.json();
    assert!(
        ["A", "B", "C", "D", "E", "F"].contains(&chosen["move"].as_str().unwrap()),
        "{chosen}"
    );
}

/// More searches at once than the server's 2 slots: the others get 503 with Retry-After, and
/// the server answers afterwards. Each search is alphabeta given 1.5 s, which it spends (an
/// `mcts:ms=` search stops sooner, at its 100,000 simulations).
#[test]
fn searches_beyond_the_slots_are_503_with_retry_after() {
    let server = Server::start(&[]);
    const AT_ONCE: usize = 5;
    let barrier = Arc::new(Barrier::new(AT_ONCE));
    let threads: Vec<_> = (0..AT_ONCE)
        .map(|_| {
            let addr = server.addr.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let body = json!({"game": "oware", "policy": "alphabeta:ms=1500"}).to_string();
                barrier.wait();
                http(
                    &addr,
                    "POST",
                    "/api/policy",
                    Some("application/json"),
                    body.as_bytes(),
                )
            })
        })
        .collect();
    let replies: Vec<Reply> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 503),
        "{statuses:?}"
    );
    assert!(statuses.contains(&503), "{statuses:?}");
    assert!(statuses.contains(&200), "{statuses:?}");
    for reply in &replies {
        if reply.status == 503 {
            let wait = reply.header("retry-after").expect("Retry-After");
            assert!(wait.parse::<u32>().is_ok(), "{wait}");
            assert!(reply.error(503).contains("slot"), "{}", reply.text());
        } else {
            assert!(reply.json()["move"].is_string(), "{}", reply.text());
        }
    }
    // The slots are free again.
    assert_eq!(server.get("/api/games").status, 200);
    let reply = server.post(
        "/api/policy",
        &json!({"game": "oware", "policy": "mcts:ms=10"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
}
