#!/usr/bin/env python3
"""Random playouts per second in OpenSpiel's C++ engine (Oware, or Kalah: OpenSpiel's `mancala`),
for comparison with mancala-lab.

Drives OpenSpiel's C++ rollout loop through an MCTS bot with one simulation per step and a
RandomRolloutEvaluator of 1,000 rollouts: each step plays 1,000 whole random games from the start
(or one ply in) in C++, with no Python in the loop.
Usage: python3 bench_playouts.py [--game oware|kalah] [--seconds S]
Needs `pip install open-spiel`. Prints playouts/s; plies/s uses the mean game length of random
OpenSpiel games measured here with Python-driven play (that part is not timed).
"""

import argparse
import random
import time

import pyspiel


def mean_length(game, games, seed):
    rng = random.Random(seed)
    total = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        total += state.move_number()
    return total / games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=["oware", "kalah"], default="oware")
    args = parser.parse_args()
    name = {"oware": "oware", "kalah": "mancala"}[args.game]
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    batch = 1000
    evaluator = pyspiel.RandomRolloutEvaluator(batch, args.seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1, 100, False, args.seed, False)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        bot.step(state)
        done += batch
    elapsed = time.perf_counter() - start
    length = mean_length(game, 2000, args.seed)
    rate = done / elapsed
    print(f"openspiel {name} (C++ random rollouts): {rate:.0f} playouts/s, "
          f"{rate * length:.0f} plies/s (mean random game length {length:.1f} plies)")


if __name__ == "__main__":
    main()
