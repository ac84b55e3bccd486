#!/usr/bin/env python3
"""Speed of the Python package, each figure against a baseline measured in the same run:

1. Python-level play: random Oware (abapa) games stepped from Python, ours (legal_moves, play)
   against OpenSpiel's Python API (legal_actions, apply_action) on its `oware`, in plies a second.
2. Batch playouts: `batch_playouts` against the Rust `mancala-lab stats` job (end to end, CSV
   included) on the same games, in games a second.

Usage, from the project root, with the package installed (`pip install ./python`), the command
line built (`cargo build --release`) and, for the first figure, `pip install open-spiel`:
    python3 experiments/python-bench/run.py [--seconds S] [--games N]
"""

import argparse
import pathlib
import random
import subprocess
import tempfile
import time

import mancala_lab
from mancala_lab import oware

ROOT = pathlib.Path(__file__).resolve().parents[2]


def steps(play_one, seconds):
    """Plies a second of `play_one` (which plays one game and returns its plies)."""
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        plies += play_one()
    return plies / (time.perf_counter() - start)


def ours(rng):
    game = oware.Game(variant="abapa")

    def play_one():
        s, n = game.new_initial_state(), 0
        moves = s.legal_moves()
        while moves:
            s.play(rng.choice(moves))
            n += 1
            moves = s.legal_moves()
        return n
    return play_one


def openspiel(rng):
    import pyspiel
    game = pyspiel.load_game("oware")

    def play_one():
        s, n = game.new_initial_state(), 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        return n
    return play_one


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--games", type=int, default=1_000_000)
    a = ap.parse_args()
    rng = random.Random(1)
    print(f"python-level random Oware (abapa) play, {a.seconds:g} s each:")
    mine = steps(ours(rng), a.seconds)
    print(f"  mancala_lab (legal_moves, play)        {mine:12,.0f} plies/s")
    try:
        theirs = steps(openspiel(rng), a.seconds)
        print(f"  OpenSpiel (legal_actions, apply_action) {theirs:11,.0f} plies/s")
        print(f"  ratio {mine / theirs:.2f}x")
    except ImportError:
        print("  OpenSpiel: not measured (pip install open-spiel)")
    print(f"batch playouts, {a.games:,} random Oware (sheet) games, seed 1:")
    start = time.perf_counter()
    b = mancala_lab.batch_playouts(oware.Game(), a.games, 1)
    batch = len(b) / (time.perf_counter() - start)
    print(f"  batch_playouts                          {batch:12,.0f} games/s")
    exe = ROOT / "target/release/mancala-lab"
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run([str(exe), "stats", "--game", "oware", "--games", str(a.games), "--seed",
                        "1", "--out", out + "/study"], check=True, capture_output=True)
        job = a.games / (time.perf_counter() - start)
    print(f"  the stats job (CSV included)            {job:12,.0f} games/s")
    print(f"  ratio {batch / job:.2f}x")


if __name__ == "__main__":
    main()
