#!/usr/bin/env python3
"""Play random Oware games with OpenSpiel and write every ply for mancala-lab's conformance test.

Usage: python3 dump_games.py [--games N] [--seed S] [--out FILE]
Needs `pip install open-spiel`. Output format (one game per line after the header comments):

    game <index> <ply>... final <south> <north> <return_south>

where each <ply> is MOVE:LEGAL:SOUTH.NORTH -- the move letter played (A-F South, a-f North), the legal
moves before it as a 6-bit mask in hex (bit i = pit i from the mover's left), and both scores after
the move (after OpenSpiel's end-of-game sweep on the last ply).
"""

import argparse
import random
import re
import sys

import pyspiel

SCORE = re.compile(r"Player (\d) score = (\d+)")


def scores(state):
    found = {int(p): int(s) for p, s in SCORE.findall(str(state))}
    return found[0], found[1]


def play_game(game, rng):
    state = game.new_initial_state()
    plies = []
    while not state.is_terminal():
        if state.move_number() >= game.max_game_length() - 1:
            return None  # OpenSpiel refuses to go past its maximum length
        player = state.current_player()
        legal = state.legal_actions()
        mask = sum(1 << a for a in legal)
        action = rng.choice(legal)
        letter = chr((ord("A") if player == 0 else ord("a")) + action)
        state.apply_action(action)
        south, north = scores(state)
        plies.append(f"{letter}:{mask:02x}:{south}.{north}")
    south, north = scores(state)
    return plies, south, north, int(state.returns()[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="-")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    game = pyspiel.load_game("oware")
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")
    out.write(f"# OpenSpiel oware random games: --games {args.games} --seed {args.seed}\n")
    out.write(f"# open_spiel version: {getattr(pyspiel, '__version__', 'unknown')}\n")
    written = skipped = 0
    index = 0
    while written < args.games:
        result = play_game(game, rng)
        index += 1
        if result is None:
            skipped += 1
            continue
        plies, south, north, ret = result
        out.write(f"game {index} {' '.join(plies)} final {south} {north} {ret}\n")
        written += 1
    out.write(f"# games written {written}, skipped at the length limit {skipped}\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
