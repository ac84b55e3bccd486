#!/usr/bin/env python3
"""Environment steps a second of ``mancala_lab.VectorEnv``, each figure against baselines
measured in the same run:

1. ``VectorEnv.step`` on N games (default 4096) of Kalah(6,4), Oware (abapa) and Bao, each on 1
   thread and on every core; the actions (a legal one per game, drawn with numpy) are chosen
   outside the timed call, as a learning loop's policy would choose them.
2. OpenSpiel from Python on the same N games (Kalah: its ``mancala``; Oware: its ``oware``):
   a) its Python ``apply_action`` loop as an environment steps, state by state: the action
      applied, then the next state's legal actions, observation tensor and, at an end, returns
      (the new game started in its place);
   b) pyspiel's C++ states stepped from Python with ``apply_action`` alone.

Usage, from the project root, with the package installed (``pip install ./python``) and
``pip install open-spiel`` for the baselines:
    python3 experiments/python-bench/vector.py [--seconds S] [--envs N]
Figures go in docs/python.md ("Vector environments") with the processor they ran on.
"""

import argparse
import os
import platform
import time

import numpy as np

import mancala_lab

# numpy's BLAS threads may spin beside the environment's; this script uses no BLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def processor():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def ours(game, n, threads, seconds):
    """Steps a second of VectorEnv.step alone, random legal actions."""
    env = mancala_lab.VectorEnv(game, n, threads=threads)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    mask = info["action_mask"]
    timed, steps, end = 0.0, 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        actions = (rng.random(mask.shape) * mask).argmax(1)
        start = time.perf_counter()
        _, _, _, _, info = env.step(actions)
        timed += time.perf_counter() - start
        mask = info["action_mask"]
        steps += n
    return steps / timed


def openspiel(name, n, seconds, full):
    """Steps a second of N pyspiel states stepped from Python, with the environment's work
    (``full``) or apply_action alone."""
    import pyspiel

    game = pyspiel.load_game(name)
    states = [game.new_initial_state() for _ in range(n)]
    rng = np.random.default_rng(0)
    legal = [s.legal_actions() for s in states]
    timed, steps, end = 0.0, 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        picks = [a[int(r * len(a))] for a, r in zip(legal, rng.random(n))]
        start = time.perf_counter()
        for i, s in enumerate(states):
            s.apply_action(picks[i])
            if s.is_terminal():
                if full:
                    s.returns()
                s = states[i] = game.new_initial_state()
            if full:
                legal[i] = s.legal_actions()
                s.observation_tensor()
        timed += time.perf_counter() - start
        if not full:
            legal = [s.legal_actions() for s in states]
        steps += n
    return steps / timed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=4096)
    args = parser.parse_args()
    n, cores = args.envs, os.cpu_count()
    print(f"processor: {processor()}, {cores} cores; N = {n} environments; "
          f"{args.seconds} s a figure")
    try:
        import pyspiel  # noqa: F401
        spiel = True
    except ImportError:
        spiel = False
        print("open-spiel is not installed: no OpenSpiel baselines (pip install open-spiel)")
    for game, theirs in [("kalah", "mancala"), ("oware", "oware"), ("bao", None)]:
        one = ours(game, n, 1, args.seconds)
        every = ours(game, n, 0, args.seconds)
        print(f"{game}: VectorEnv.step, 1 thread {one:14,.0f} steps/s")
        print(f"{game}: VectorEnv.step, {cores} threads {every:13,.0f} steps/s")
        if spiel and theirs:
            loop = openspiel(theirs, n, args.seconds, full=True)
            bare = openspiel(theirs, n, args.seconds, full=False)
            print(f"{game}: OpenSpiel '{theirs}', Python loop as an environment "
                  f"{loop:12,.0f} steps/s (VectorEnv {every / loop:,.0f}x)")
            print(f"{game}: OpenSpiel '{theirs}', pyspiel apply_action alone "
                  f"{bare:13,.0f} steps/s (VectorEnv {every / bare:,.0f}x)")


if __name__ == "__main__":
    main()
