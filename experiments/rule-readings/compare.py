#!/usr/bin/env python3
"""Compares stats folders of one game under different readings: rates and mean length, with the
difference to the first reading and its 95% interval (normal approximation, independent samples)."""

import csv
import math
import sys
from pathlib import Path

Z = 1.959963984540054


def load(folder):
    with open(folder / "games.csv", newline="") as f:
        return list(csv.DictReader(f))


def rate(rows, pred):
    n = len(rows)
    k = sum(1 for r in rows if pred(r))
    return k / n, n


def diff_rate(a, b):
    (p1, n1), (p2, n2) = a, b
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    d = p2 - p1
    return d, d - Z * se, d + Z * se


def mean(rows, key):
    xs = [float(r[key]) for r in rows]
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, var / len(xs), len(xs)


def main():
    root = Path(sys.argv[1])
    policy = sys.argv[2] if len(sys.argv) > 2 else "random"
    play = "random games" if policy == "random" else f"games of {policy} against itself"
    for game, readings in (("bao", ["default", "literal-en", "engines"]), ("oware", ["sheet", "abapa"])):
        data = {v: load(root / f"{game}-{v}") for v in readings}
        base = readings[0]
        ends = sorted({r["end_clause"] for rows in data.values() for r in rows})
        print(f"## {game}: {len(data[base])} {play} per reading, seed 1\n")
        print("| measure | " + " | ".join(readings) + " | " + " | ".join(f"{v} − {base} [95% CI]" for v in readings[1:]) + " |")
        print("|---|" + "---|" * (2 * len(readings) - 1))
        measures = [("South win rate", lambda r: r["winner"] == "South")]
        if game == "oware" or any(r["winner"] == "draw" for rows in data.values() for r in rows):
            measures.append(("draw rate", lambda r: r["winner"] == "draw"))
        if any(r["winner"] == "none" for rows in data.values() for r in rows):
            measures.append(("no winner (cut or open)", lambda r: r["winner"] == "none"))
        measures += [(f"ended by {c}", (lambda c: lambda r: r["end_clause"] == c)(c)) for c in ends]
        for name, pred in measures:
            rates = {v: rate(data[v], pred) for v in readings}
            cells = [f"{rates[v][0]:.4f}" for v in readings]
            diffs = []
            for v in readings[1:]:
                d, lo, hi = diff_rate(rates[base], rates[v])
                diffs.append(f"{d:+.4f} [{lo:+.4f}, {hi:+.4f}]")
            print(f"| {name} | " + " | ".join(cells + diffs) + " |")
        means = {v: mean(data[v], "plies") for v in readings}
        cells = [f"{means[v][0]:.2f}" for v in readings]
        diffs = []
        for v in readings[1:]:
            d = means[v][0] - means[base][0]
            se = math.sqrt(means[v][1] + means[base][1])
            diffs.append(f"{d:+.2f} [{d - Z * se:+.2f}, {d + Z * se:+.2f}]")
        print("| mean plies | " + " | ".join(cells + diffs) + " |\n")


if __name__ == "__main__":
    main()
