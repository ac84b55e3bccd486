#!/usr/bin/env python3
"""The ladder's ratings as Markdown tables, with each policy's mean time per move: the seconds its
pairings took (each pairing's stats job, from its manifest's timing) cannot be split between the
two players, so time per move is measured apart: `mancala-lab bot` answering `go` from the start
position and the positions of one game, one thread."""

import csv
import subprocess
import sys
import time
from pathlib import Path

BIN = "target/release/mancala-lab"


def ms_per_move(game, policy, moves=30):
    """Mean milliseconds a `go` takes over the first `moves` plies of a self-played game."""
    proc = subprocess.Popen([BIN, "bot", "--game", game, "--policy", policy],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    played, total, n = [], 0.0, 0
    for _ in range(moves):
        proc.stdin.write("position startpos" + (" moves " + " ".join(played) if played else "") + "\n")
        proc.stdin.flush()
        if proc.stdout.readline().strip() != "ok":
            break
        start = time.perf_counter()
        proc.stdin.write("go\n")
        proc.stdin.flush()
        answer = proc.stdout.readline().split()
        while answer and answer[0] == "info":  # what the search did, before its move
            answer = proc.stdout.readline().split()
        total += time.perf_counter() - start
        if not answer or answer[0] != "bestmove":
            break
        played.append(answer[1])
        n += 1
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return 1000 * total / max(n, 1)


def plot(points, path):
    """Elo (with its interval) against milliseconds a move, one series per game, as SVG; needs
    matplotlib (skipped with a note without it)."""
    try:
        import matplotlib
        matplotlib.use("svg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"(no plot: pip install matplotlib to draw {path})", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for game, rows in points.items():
        xs = [max(ms, 0.001) for _, ms, _, _, _ in rows]
        ys = [elo for _, _, elo, _, _ in rows]
        err = [[elo - lo for _, _, elo, lo, _ in rows], [hi - elo for _, _, elo, _, hi in rows]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, label=game)
        for name, x, y in zip([r[0] for r in rows], xs, ys):
            ax.annotate(name, (x, y), fontsize=6, xytext=(3, 3), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds a move (one thread, log scale)")
    ax.set_ylabel("Elo (random = 0), 95% interval")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})


def main():
    here, out = Path(sys.argv[1]), Path(sys.argv[2])
    # "-opening-K" for a ladder whose games open with K random plies.
    suffix = sys.argv[3] if len(sys.argv) > 3 else ""
    opening = f", {suffix.rsplit('-', 1)[1]} random plies first" if suffix else ""
    points = {}
    for game in ("oware", "bao"):
        with open(here / f"{game}-ratings{suffix}.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        games = rows[0]["games"]
        print(f"## {game}: {games} games per player (each pair both ways), seed 1{opening}\n")
        print("| policy | score | Elo [95% interval] | ms a move |")
        print("|---|---|---|---|")
        points[game] = []
        for r in sorted(rows, key=lambda r: float(r["elo"])):
            ms = ms_per_move(game, r["policy"])
            points[game].append((r["policy"], ms, float(r["elo"]), float(r["elo_low"]),
                                 float(r["elo_high"])))
            print(f"| `{r['policy']}` | {float(r['score']):.3f} | {float(r['elo']):.0f} "
                  f"[{float(r['elo_low']):.0f}, {float(r['elo_high']):.0f}] | {ms:.2f} |")
        print()
    plot(points, here / f"strength{suffix}.svg")


if __name__ == "__main__":
    main()
