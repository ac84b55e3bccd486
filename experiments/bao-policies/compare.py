#!/usr/bin/env python3
"""Bao under different move policies: reads games.csv of several `mancala-lab stats` runs and prints
win rates, endings (Wilson 95% intervals), game and stage lengths (mean with a normal 95% interval,
and quartiles). Usage: python3 compare.py NAME=GAMES_CSV [NAME=GAMES_CSV ...]"""

import csv
import math
import sys

Z = 1.959963984540054


def wilson(k, n):
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return f"{p:.3f} [{c - h:.3f}, {c + h:.3f}]"


def mean(xs):
    m = sum(xs) / len(xs)
    v = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    h = Z * math.sqrt(v / len(xs))
    return f"{m:.1f} [{m - h:.1f}, {m + h:.1f}]"


def quartiles(xs):
    s = sorted(xs)
    q = lambda f: s[min(len(s) - 1, int(f * len(s)))]
    return f"{q(0.25)} / {q(0.5)} / {q(0.75)} (max {s[-1]})"


def main():
    runs = []
    for arg in sys.argv[1:]:
        name, path = arg.split("=", 1)
        with open(path, newline="") as f:
            runs.append((name, list(csv.DictReader(f))))
    ends = sorted({r["end_clause"] for _, rows in runs for r in rows})
    print("| measure | " + " | ".join(f"{n} ({len(r)} games)" for n, r in runs) + " |")
    print("|---|" + "---|" * len(runs))
    print("| South win rate | " + " | ".join(wilson(sum(r["winner"] == "South" for r in rows), len(rows)) for _, rows in runs) + " |")
    for c in ends:
        print(f"| ended by {c} | " + " | ".join(wilson(sum(r["end_clause"] == c for r in rows), len(rows)) for _, rows in runs) + " |")
    for key in ("plies", "kunamua_plies", "mtaji_plies", "harvests_south", "harvests_north", "seeds_captured_south", "seeds_captured_north", "houses_lost"):
        print(f"| mean {key} | " + " | ".join(mean([float(r[key]) for r in rows]) for _, rows in runs) + " |")
    print("| plies quartiles | " + " | ".join(quartiles([int(r["plies"]) for r in rows]) for _, rows in runs) + " |")
    print("| longest move (seeds) | " + " | ".join(str(max(int(r["longest_move_seeds"]) for r in rows)) for _, rows in runs) + " |")


if __name__ == "__main__":
    main()
