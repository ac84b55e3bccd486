#!/usr/bin/env python3
"""Oware under random play: mancala-lab (abapa) against OpenSpiel's own random games.

Usage: python3 compare.py OURS_GAMES_CSV OPENSPIEL_DUMP [OPENSPIEL_CSV_OUT]
OURS_GAMES_CSV is games.csv of `mancala-lab stats --game oware --variant abapa`; OPENSPIEL_DUMP a file
written by experiments/openspiel/dump_games.py. Prints win and draw rates with Wilson 95% intervals
and mean game length with a normal 95% interval for both.
"""

import csv
import math
import sys

Z = 1.959963984540054


def wilson(k, n):
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return p, c - h, c + h


def mean(xs):
    m = sum(xs) / len(xs)
    v = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    h = Z * math.sqrt(v / len(xs))
    return m, m - h, m + h


def ours(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [(r["winner"], int(r["plies"])) for r in rows]


def openspiel(path):
    games = []
    for line in open(path):
        if not line.startswith("game "):
            continue
        tokens = line.split()
        final = tokens.index("final")
        ret = int(tokens[final + 3])
        winner = {1: "South", -1: "North"}.get(ret, "draw")
        games.append((winner, final - 2))
    return games


def main():
    sets = {"mancala-lab abapa": ours(sys.argv[1]), "OpenSpiel oware": openspiel(sys.argv[2])}
    if len(sys.argv) > 3:
        # Also write OpenSpiel's games as a games.csv-like file (winner, plies) for `mancala-lab plot`.
        with open(sys.argv[3], "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["game", "winner", "plies"])
            for i, (winner, plies) in enumerate(sets["OpenSpiel oware"]):
                w.writerow([i, winner, plies])
    print("| measure | " + " | ".join(f"{k} ({len(v)} games)" for k, v in sets.items()) + " |")
    print("|---|" + "---|" * len(sets))
    for who in ("South", "North", "draw"):
        cells = []
        for games in sets.values():
            p, lo, hi = wilson(sum(1 for w, _ in games if w == who), len(games))
            cells.append(f"{p:.4f} [{lo:.4f}, {hi:.4f}]")
        print(f"| {who} {'rate' if who == 'draw' else 'win rate'} | " + " | ".join(cells) + " |")
    cells = []
    for games in sets.values():
        m, lo, hi = mean([p for _, p in games])
        cells.append(f"{m:.2f} [{lo:.2f}, {hi:.2f}]")
    print("| mean plies | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
