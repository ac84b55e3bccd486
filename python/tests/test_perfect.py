"""The perfect policy from Python: it plays the endgame databases of the folder given, and is
refused, as the command line refuses it, where there are none."""

import os
import pathlib
import subprocess
import sys

import pytest

import mancala_lab
from mancala_lab import bao, kalah, oware

ROOT = pathlib.Path(__file__).resolve().parents[2]
SMALL = "openspiel:pits=4,seeds=3"
#: Kalah(4,3) with the empty capture, whose value is published (Irving, Donkers and Uiterwijk,
#: 2000: the first player wins by 8, experiments/exact-play/README.md).
PUBLISHED = "empty-capture:pits=4,seeds=3"


def binary():
    """The command line built beside the package (`cargo build --release`), if there is one."""
    path = pathlib.Path(os.environ.get("MANCALA_LAB_BIN", ROOT / "target/release/mancala-lab"))
    return path if path.is_file() else None


def run_alone(code, env=None):
    """Runs `code` in a Python process of its own (a process reads one database folder)."""
    full = dict(os.environ)
    full.pop("MANCALA_LAB_DB", None)
    full.update(env or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=full, cwd=ROOT, timeout=300)


@pytest.mark.parametrize("game", ["kalah.Game(variant='" + SMALL + "')", "oware.Game()",
                                  "bao.Game()", "bao.Game(variant='strict')"])
def test_perfect_without_a_database_folder_is_refused(game):
    # No folder given and none in MANCALA_LAB_DB: refused, never the current folder's `db`.
    code = ("import mancala_lab\nfrom mancala_lab import bao, kalah, oware\n"
            f"mancala_lab.batch_playouts({game}, 10, seed=1, policy='perfect')\n")
    done = run_alone(code)
    assert done.returncode != 0
    assert "ValueError" in done.stderr, done.stderr
    assert "policy perfect" in done.stderr or "no endgame databases" in done.stderr, done.stderr


def test_perfect_with_an_empty_folder_names_it(tmp_path):
    code = ("import mancala_lab\nfrom mancala_lab import kalah\n"
            f"mancala_lab.batch_playouts(kalah.Game(variant='{SMALL}'), 10, seed=1, "
            f"policy='perfect', db={str(tmp_path)!r})\n")
    done = run_alone(code)
    assert "ValueError" in done.stderr and "no levels in" in done.stderr, done.stderr
    # The same through the variable.
    code = ("import mancala_lab\nfrom mancala_lab import kalah\n"
            f"mancala_lab.batch_playouts(kalah.Game(variant='{SMALL}'), 10, seed=1, "
            f"policy='perfect')\n")
    done = run_alone(code, {"MANCALA_LAB_DB": str(tmp_path)})
    assert "ValueError" in done.stderr and "no levels in" in done.stderr, done.stderr


def test_perfect_plays_the_databases_of_the_folder_given(tmp_path):
    exe = binary()
    if exe is None:
        pytest.skip("no mancala-lab binary: cargo build --release, or set MANCALA_LAB_BIN")
    db = tmp_path / "db"
    subprocess.run([str(exe), "solve", "--game", "kalah", "--variant", PUBLISHED, "--build",
                    "--seeds", "24", "--db", str(db)], check=True, capture_output=True)
    # Both sides perfect: every game ends South 8 seeds ahead, whatever the draws among equal
    # moves (alphabeta's moves in their place drew 3 games of 10 under the openspiel reading).
    code = ("import mancala_lab\nfrom mancala_lab import kalah\n"
            f"b = mancala_lab.batch_playouts(kalah.Game(variant='{PUBLISHED}'), 10, seed=1, "
            f"policy='perfect', db={str(db)!r})\n"
            "print(sorted(set((b.scores[:, 0] - b.scores[:, 1]).tolist())), "
            "sorted(set(b.winner.tolist())))\n")
    done = run_alone(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[8] [0]"
    # A second folder in the same process is refused, naming the first.
    code += f"mancala_lab.batch_playouts(kalah.Game(variant='{PUBLISHED}'), 1, seed=1, " \
            f"policy='perfect', db={str(tmp_path / 'other')!r})\n"
    done = run_alone(code)
    assert "ValueError" in done.stderr and "already" in done.stderr, done.stderr
