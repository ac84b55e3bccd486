#!/usr/bin/env python3
"""Play random Oware or Kalah games with OpenSpiel and write every ply for mancala-lab's conformance tests.

Usage: python3 dump_games.py [--game oware|kalah] [--games N] [--seed S] [--out FILE]
Needs `pip install open-spiel`. Output format (one game per line after the header comments):

    game <index> <ply>... final <south> <north> <return_south>

where each <ply> is MOVE:LEGAL:SOUTH.NORTH -- the move letter played (A-F South, a-f North), the legal
moves before it as a 6-bit mask in hex (bit i = pit i from the mover's left), and both scores after
the move: Oware's captures (after OpenSpiel's end-of-game sweep on the last ply), Kalah's stores
(OpenSpiel's `mancala`; an extra turn is a ply of the same player). `final` gives the scores the
winner is decided on: for Kalah each player's store and pits (OpenSpiel counts the seeds left in a
row for its owner without moving them).
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


def kalah_board(state):
    """North's pits a-f, South's A-F and the stores (South, North) from `mancala`'s state text."""
    top, middle, bottom = str(state).splitlines()[:3]
    north = [int(x) for x in top.strip("-").split("-")][::-1]
    south = [int(x) for x in bottom.strip("-").split("-")]
    stores = [int(x) for x in middle.split("-") if x]
    return south, north, (stores[1], stores[0])


def kalah_stores(state):
    return kalah_board(state)[2]


def kalah_final(state):
    south, north, (s, n) = kalah_board(state)
    return s + sum(south), n + sum(north)


def play_game(game, rng, kalah=False):
    state = game.new_initial_state()
    plies = []
    while not state.is_terminal():
        if state.move_number() >= game.max_game_length() - 1:
            return None  # OpenSpiel refuses to go past its maximum length
        player = state.current_player()
        legal = state.legal_actions()
        mask = sum(1 << a for a in legal)
        action = rng.choice(legal)
        # Kalah's actions are board indices: South's pits 1-6, North's 8-13.
        pit = action - (1 if player == 0 else 8) if kalah else action
        if kalah:
            mask = sum(1 << (a - (1 if player == 0 else 8)) for a in legal)
        letter = chr((ord("A") if player == 0 else ord("a")) + pit)
        state.apply_action(action)
        south, north = kalah_stores(state) if kalah else scores(state)
        plies.append(f"{letter}:{mask:02x}:{south}.{north}")
    south, north = kalah_final(state) if kalah else scores(state)
    return plies, south, north, int(state.returns()[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["oware", "kalah"], default="oware")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="-")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kalah = args.game == "kalah"
    name = "mancala" if kalah else "oware"
    game = pyspiel.load_game(name)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")
    option = " --game kalah" if kalah else ""
    out.write(f"# OpenSpiel {name} random games:{option} --games {args.games} --seed {args.seed}\n")
    out.write(f"# open_spiel version: {getattr(pyspiel, '__version__', 'unknown')}\n")
    written = skipped = 0
    index = 0
    while written < args.games:
        result = play_game(game, rng, kalah)
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
