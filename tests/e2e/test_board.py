"""The board page of `mancala-lab serve` in headless Chromium, driven by clicks and key presses.

Every expected value comes from the command line (`explain`, `replay`, `play`, `solve`, a position
file's refusal), a front end independent of the page and its API.
"""

import os
import pathlib
import subprocess

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("MANCALA_LAB_BIN", ROOT / "target/release/mancala-lab"))
CHROMIUM = os.environ.get("MANCALA_LAB_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
GRAND_SLAM = "to_move: South\nscores: 19 24\nnorth: 0 0 0 0 1 1\nsouth: 1 0 0 0 0 2\n"
ENDGAME = "to_move: South\nscores: 20 22\nnorth: 0 0 0 1 1 0\nsouth: 2 0 0 0 1 1\n"


def cli(*args, stdin=None):
    """The command line's output (and its standard error) for `args`."""
    done = subprocess.run([str(BIN), *args], capture_output=True, text=True, input=stdin,
                          cwd=ROOT, timeout=120)
    return done.stdout, done.stderr


class Server:
    """`mancala-lab serve --port 0` with `extra` options, its URL read from its first line."""

    def __init__(self, *extra):
        self.proc = subprocess.Popen([str(BIN), "serve", "--port", "0", *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("mancala-lab serve: http://"), line + self.proc.stderr.read()
        self.url = line.split()[2]

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def server():
    if not BIN.is_file():
        pytest.skip("no mancala-lab binary: cargo build --release, or set MANCALA_LAB_BIN")
    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("MANCALA_LAB_REQUIRE_BROWSER"):
            pytest.fail(f"no Chromium at {CHROMIUM}")
        pytest.skip("no Chromium (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield open_game(pg, server.url, "bao")
    assert errors == [], errors
    context.close()


def open_game(pg, url, game):
    pg.goto(f"{url}?game={game}")
    pg.wait_for_selector("#board svg circle.pit-hit.legal")
    return pg


def set_position(pg, text):
    pg.fill("#position-text", text)
    pg.click("#set-position")
    settled(pg)


def settled(pg):
    """Waits until the page has the server's answer for the last game it asked for."""
    expect(pg.locator("body")).not_to_have_attribute("data-pending", "1")


def steps(pg):
    return [" ".join(li.split()) for li in pg.locator("li.step").all_inner_texts()]


def position(pg):
    return pg.input_value("#position-text")


def test_a_bao_capture_played_by_clicks_is_explained_as_explain_does(page):
    start = (ROOT / "tests/examples/bao-capture.txt").read_text()
    set_position(page, start)
    expect(page.locator("#status")).to_contain_text("North to move")
    page.click("circle.pit-hit[data-pit='a5']")
    # a5 offers its legal moves, exactly: the sowing's two directions.
    choices = page.locator("button.choice")
    expect(choices.first).to_be_visible()
    legal = cli("bao", "moves", "--position", "tests/examples/bao-capture.txt")[0].split()
    assert sorted(choices.all_inner_texts()) == sorted(m for m in legal if m.startswith("a5"))
    page.click("button.choice:text-is('a5<')")
    page.wait_for_selector("li.step")
    out, _ = cli("bao", "explain", "--position", "tests/examples/bao-capture.txt", "a5<")
    want = [" ".join(l.strip().replace("[", "").replace("]", "").split())
            for l in out.splitlines() if l.startswith("  [")]
    assert steps(page) == want
    # The step's clause id opens the clause's text; selecting the step marks its pits.
    page.locator("li.step").nth(2).click()
    marked = page.eval_on_selector_all("circle.pit-hit.marked", "els => els.map(e => e.dataset.pit)")
    assert sorted(marked) == ["A4", "a5"]
    page.locator("li.step").nth(2).locator("button.clause-id").click()
    expect(page.locator("#clause-title")).to_contain_text("bao 1.4.2")
    # The resulting position is explain's.
    after = out.split("resulting position:\n")[1].split("# result")[0]
    assert position(page) == after


def test_back_and_forward_through_a_replayed_transcript(page, server):
    open_game(page, server.url, "oware")
    page.click("#import summary")
    page.fill("#transcript-text", (ROOT / "tests/examples/oware-game.txt").read_text())
    page.click("#load-transcript")
    expect(page.locator("#ply-shown")).to_have_text("ply 4 of 4")
    start = cli("oware", "start")[0]
    page.locator("#board").focus()
    for key, ply, moves in [("ArrowLeft", 3, "C f A"), ("ArrowLeft", 2, "C f"), ("Home", 0, ""),
                            ("ArrowRight", 1, "C"), ("End", 4, "C f A a")]:
        page.keyboard.press(key)
        expect(page.locator("#ply-shown")).to_have_text(f"ply {ply} of 4")
        if moves:
            want = cli("oware", "play", "--position", "-", *moves.split(), stdin=start)[0]
            want = want.split("# result")[0]
        else:
            want = start
        expect(page.locator("#position-text")).to_have_value(want)
    # The buttons do what the keys do.
    page.click("#back")
    expect(page.locator("#ply-shown")).to_have_text("ply 3 of 4")
    page.click("#forward")
    expect(page.locator("#ply-shown")).to_have_text("ply 4 of 4")


def test_a_transcript_with_a_fault_shows_its_line_and_column(page, server, tmp_path):
    open_game(page, server.url, "oware")
    text = "1. C d\n2. C a\n"
    (tmp_path / "bad.txt").write_text(text)
    _, err = cli("oware", "replay", str(tmp_path / "bad.txt"))
    said = err.strip().split(f"{tmp_path / 'bad.txt'}: ", 1)[1]
    assert said.startswith("line 2, column 4: ")
    page.click("#import summary")
    page.fill("#transcript-text", text)
    page.click("#load-transcript")
    expect(page.locator("#transcript-error")).to_have_text(said)


def test_switching_the_reading_changes_a_moves_result(page, server):
    open_game(page, server.url, "oware")
    set_position(page, GRAND_SLAM)
    expect(page.locator("#status")).to_contain_text("South to move")
    # Under the sheet F is a grand slam, forbidden: not a legal pit.
    assert cli("oware", "moves", "--position", "-", stdin=GRAND_SLAM)[0].split() == ["A"]
    expect(page.locator("circle.pit-hit.legal[data-pit='F']")).to_have_count(0)
    page.select_option("#preset", "abapa")
    expect(page.locator("circle.pit-hit.legal[data-pit='F']")).to_have_count(1)
    page.click("circle.pit-hit[data-pit='F']")
    page.wait_for_selector("li.step")
    out, _ = cli("oware", "explain", "--variant", "abapa", "--position", "-", "F", stdin=GRAND_SLAM)
    assert position(page) == out.split("resulting position:\n")[1].split("# result")[0]
    # Side by side: the sheet does not play it.
    rows = page.locator("#readings-table tbody tr")
    expect(rows.first).to_contain_text("abapa")
    sheet = page.locator("#readings-table tr:has(td:text-is('sheet'))")
    expect(sheet).to_contain_text("not legal")


def test_a_game_against_mcts_to_its_end(page, server):
    open_game(page, server.url, "kalah")
    page.fill("#parameters", "pits=3,seeds=2")
    page.keyboard.press("Tab")
    page.select_option("#policy", "mcts")
    page.fill("#budget", "sims=200")
    page.select_option("#policy-side", "North")
    for _ in range(60):
        if page.locator("p.ending").count():
            break
        expect(page.locator("#status")).to_contain_text("South to move", timeout=15000)
        if page.locator("p.ending").count():
            break
        page.locator("circle.pit-hit.legal").first.click()
        page.wait_for_timeout(200)
    expect(page.locator("p.ending")).to_be_visible()
    # The end names its clause: one of Kalah's end clauses.
    assert "kalah K." in page.inner_text("p.ending")
    assert "mcts:sims=200 played" in page.inner_text("#policy-info")


def test_the_editor_refuses_an_impossible_position(page, server, tmp_path):
    open_game(page, server.url, "oware")
    bad = "to_move: South\nscores: 19 24\nnorth: 0 0 0 0 1 1\nsouth: 9 0 0 0 0 2\n"
    (tmp_path / "bad.txt").write_text(bad)
    _, err = cli("oware", "moves", "--position", str(tmp_path / "bad.txt"))
    said = err.strip().split(f"{tmp_path / 'bad.txt'}: ", 1)[1]
    set_position(page, bad)
    expect(page.locator("#position-error")).to_contain_text(said)
    # The game shown is unchanged.
    expect(page.locator("#position-text")).to_have_value(bad)
    expect(page.locator("#status")).to_contain_text("South to move")


def test_an_oware_endgames_move_values_from_a_small_database(browser, tmp_path):
    if not BIN.is_file():
        pytest.skip("no mancala-lab binary")
    db = tmp_path / "db"
    subprocess.run([str(BIN), "solve", "--game", "oware", "--build", "--seeds", "6", "--db",
                    str(db)], check=True, capture_output=True)
    (tmp_path / "end.txt").write_text(ENDGAME)
    out, _ = cli("solve", "--game", "oware", "--db", str(db), "--position", str(tmp_path / "end.txt"))
    line = next(l for l in out.splitlines() if l.startswith("move values: "))
    want = {m: int(v) for m, v in (p.split() for p in line[len("move values: "):].split(", "))}
    s = Server("--db", str(db))
    try:
        context = browser.new_context(viewport={"width": 1300, "height": 1000})
        pg = open_game(context.new_page(), s.url, "oware")
        set_position(pg, ENDGAME)
        expect(pg.locator("#status")).to_contain_text("South to move")
        pg.check("#show-values")
        pg.wait_for_selector("text.value")
        shown = pg.eval_on_selector_all(
            "text.value", "els => els.map(e => [e.dataset.move, e.textContent])")
        assert {m: int(v) for m, v in shown} == want
        context.close()
    finally:
        s.stop()


def test_a_reading_that_cannot_play_the_game_so_far_changes_nothing(page, server):
    open_game(page, server.url, "oware")
    set_position(page, GRAND_SLAM)
    page.select_option("#preset", "abapa")
    expect(page.locator("circle.pit-hit.legal[data-pit='F']")).to_have_count(1)
    page.click("circle.pit-hit[data-pit='F']")
    expect(page.locator("#ply-shown")).to_have_text("ply 1 of 1")
    shown = position(page)
    # Under the sheet the grand slam F is no move: refused with the server's words, the reading
    # control set back, the game as it was.
    page.select_option("#preset", "sheet")
    expect(page.locator("#error")).to_contain_text("move 1")
    expect(page.locator("#preset")).to_have_value("abapa")
    expect(page.locator("#ply-shown")).to_have_text("ply 1 of 1")
    assert position(page) == shown
    expect(page.locator("#moves")).to_have_text("F")


def test_a_bao_move_the_strict_reading_leaves_open_ends_the_game_with_its_clause(page):
    witness = ("to_move: South\nstores: 18 18\nhouses: owned owned\nb: 3 2 0 1 1 0 0 0\n"
               "a: 1 0 0 7 0 0 0 0\nA: 0 0 1 0 5 0 0 0\nB: 0 0 0 1 1 0 2 3\n")
    page.select_option("#preset", "strict")
    set_position(page, witness)
    expect(page.locator("#status")).to_contain_text("South to move")
    page.click("circle.pit-hit[data-pit='A5']")
    page.click("button.choice:text-is('A5<*')")
    # The game stops there, no result, naming the silent clause (spec/findings/bao.md, B-R3).
    expect(page.locator("p.ending")).to_contain_text("silent:2.1.2")
    expect(page.locator("li.step")).to_have_count(1)
    expect(page.locator("li.step")).to_contain_text("bao 2.1.2")
    rows = page.locator("#readings-table tr:has(td:text-is('default'))")
    expect(rows).to_contain_text("a different result")
