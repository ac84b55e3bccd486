"""Batch playouts: the games the stats job plays, as numpy arrays."""

import csv
import os
import pathlib
import subprocess

import numpy as np
import pytest

import mancala_lab
from mancala_lab import bao, oware

ROOT = pathlib.Path(__file__).resolve().parents[2]


def binary():
    """The command line built beside the package (`cargo build --release`), if there is one."""
    path = pathlib.Path(os.environ.get("MANCALA_LAB_BIN", ROOT / "target/release/mancala-lab"))
    return path if path.is_file() else None


@pytest.mark.parametrize("game,policy", [(oware.Game(), "random"), (bao.Game(), "greedy"),
                                         (oware.Game(variant="abapa"), "greedy/random")])
def test_a_batch_is_the_stats_jobs_games(game, policy, tmp_path):
    exe = binary()
    if exe is None:
        pytest.skip("no mancala-lab binary: cargo build --release, or set MANCALA_LAB_BIN")
    out = tmp_path / "study"
    subprocess.run([str(exe), "stats", "--game", game.name, "--variant", game.variant,
                    "--policy", policy, "--games", "300", "--seed", "9", "--out", str(out)],
                   check=True, capture_output=True)
    with open(out / "games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    b = mancala_lab.batch_playouts(game, 300, 9, policy=policy)
    assert len(b) == 300
    assert list(b.game) == [int(r["game"]) for r in rows]
    assert list(b.plies) == [int(r["plies"]) for r in rows]
    code = {"South": 0, "North": 1, "draw": 2, "none": -1}
    assert list(b.winner) == [code[r["winner"]] for r in rows]
    assert list(b.end_clause) == [r["end_clause"] for r in rows]
    if game.name == "oware":
        assert b.scores.tolist() == [[int(r["score_south"]), int(r["score_north"])] for r in rows]


def test_engines_and_slices_give_the_same_games():
    g = oware.Game()
    whole = mancala_lab.batch_playouts(g, 2000, 3)
    ref = mancala_lab.batch_playouts(oware.Game(engine="reference"), 2000, 3)
    for field in ("plies", "winner", "end_clause", "scores"):
        assert np.array_equal(getattr(whole, field), getattr(ref, field)), field
    part = mancala_lab.batch_playouts(g, 500, 3, first=1500)
    assert np.array_equal(part.plies, whole.plies[1500:])
    assert list(part.game) == list(range(1500, 2000))


def test_batch_arguments_are_checked():
    g = bao.Game()
    with pytest.raises(ValueError, match="unknown policy"):
        mancala_lab.batch_playouts(g, 10, 1, policy="clever")
    with pytest.raises(ValueError, match=r"max_plies 0: expected 1 to 2\*\*32 - 1"):
        mancala_lab.batch_playouts(g, 10, 1, max_plies=0)
    with pytest.raises(ValueError):
        mancala_lab.batch_playouts(g, -1, 1)
    empty = mancala_lab.batch_playouts(g, 0, 1)
    assert len(empty) == 0 and empty.scores.shape == (0, 2)


def test_ctrl_c_stops_a_batch_under_way():
    import signal
    import sys
    import time

    code = (
        "from mancala_lab import oware, batch_playouts\n"
        "import time\n"
        "start = time.time()\n"
        "try:\n"
        "    batch_playouts(oware.Game(), 10, 1, policy='mcts:sims=50000')\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped after', time.time() - start)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.5)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    assert out.startswith("stopped after"), out
    assert float(out.split()[-1]) < 10, out


def test_too_many_games_for_one_call_is_a_value_error():
    with pytest.raises(ValueError, match="at most 50000000 games a call"):
        mancala_lab.batch_playouts(oware.Game(), 2**40, 1)
    with pytest.raises(TypeError, match="position text"):
        oware.Game().state_from_text(None)


@pytest.mark.parametrize("args,error,says", [
    (("oware", 10, 1), TypeError, "game: expected"),
    ((None, 10, 1), TypeError, "game: expected"),
    ((oware.Game(), "10", 1), TypeError, "n: expected an int"),
    ((oware.Game(), True, 1), TypeError, "n: expected an int"),
    ((oware.Game(), 10, None), TypeError, "seed: expected an int"),
    ((oware.Game(), np.bool_(True), 1), TypeError, "n: expected an int"),
    ((oware.Game(), 10, 1.0), TypeError, "seed: expected an int, not float"),
    ((oware.Game(), 10, 2**64), ValueError, "seed 18446744073709551616"),
    ((oware.Game(), 2**70, 1), ValueError, "n 1180591620717411303424"),
])
def test_batch_argument_types_are_named(args, error, says):
    with pytest.raises(error, match=says):
        mancala_lab.batch_playouts(*args)
    with pytest.raises(ValueError, match="max_plies -1"):
        mancala_lab.batch_playouts(oware.Game(), 3, 1, max_plies=-1)


def test_numpy_integers_are_game_counts_and_seeds():
    plain = mancala_lab.batch_playouts(oware.Game(), 20, 3, max_plies=500, first=5)
    numpy = mancala_lab.batch_playouts(oware.Game(), np.int64(20), np.uint64(3),
                                       max_plies=np.int32(500), first=np.int16(5))
    assert (plain.plies == numpy.plies).all() and (plain.game == numpy.game).all()


@pytest.mark.parametrize("path", ["portable", "scalar"])
def test_every_batch_path_plays_the_same_games(path, monkeypatch):
    want = mancala_lab.batch_playouts(oware.Game(), 500, 4)
    monkeypatch.setenv("MANCALA_LAB_BATCH_PATH", path)
    got = mancala_lab.batch_playouts(oware.Game(), 500, 4)
    assert list(got.plies) == list(want.plies)
    assert list(got.winner) == list(want.winner)


def test_an_unknown_batch_path_is_refused(monkeypatch):
    monkeypatch.setenv("MANCALA_LAB_BATCH_PATH", "neon2")
    with pytest.raises(ValueError, match="MANCALA_LAB_BATCH_PATH: unknown batch path"):
        mancala_lab.batch_playouts(oware.Game(), 10, 1)
