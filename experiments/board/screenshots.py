"""Screenshots of the board page of `mancala-lab serve`, one a game, for docs/board.md.

    python3 experiments/board/screenshots.py [OUT_DIR]      (default: docs/)

Needs the release binary (cargo build --release), Chromium at /usr/bin/chromium and the
`playwright` package from PyPI (it drives the installed Chromium; it downloads no browser).
"""

import pathlib
import subprocess
import sys

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = ROOT / "target/release/mancala-lab"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# A move played in each game, so that its explanation shows beside the board.
SHOWN = {
    "bao": ("tests/examples/bao-capture.txt", "a5", "a5<"),
    "oware": (None, "C", None),
    "kalah": (None, "C", None),
}


def main():
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    server = subprocess.Popen([str(BIN), "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    url = server.stdout.readline().split()[2]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1300, "height": 900})
            for game, (start, pit, choice) in SHOWN.items():
                page.goto(f"{url}?game={game}")
                page.wait_for_selector("#board svg circle.pit-hit.legal")
                if start:
                    page.fill("#position-text", (ROOT / start).read_text())
                    page.click("#set-position")
                    page.wait_for_timeout(300)
                page.click(f"circle.pit-hit[data-pit='{pit}']")
                if choice:
                    page.click(f"button.choice:text-is('{choice}')")
                page.wait_for_selector("li.step")
                page.locator("li.step").first.click()
                page.wait_for_timeout(200)
                page.screenshot(path=str(out / f"board-{game}.png"))
                print(f"wrote {out / f'board-{game}.png'}")
            browser.close()
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
