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
        total += time.perf_counter() - start
        if not answer or answer[0] != "bestmove":
            break
        played.append(answer[1])
        n += 1
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return 1000 * total / max(n, 1)


def main():
    here, out = Path(sys.argv[1]), Path(sys.argv[2])
    for game in ("oware", "bao"):
        with open(here / f"{game}-ratings.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        games = rows[0]["games"]
        print(f"## {game}: {games} games per player (each pair both ways), seed 1\n")
        print("| policy | score | Elo [95% interval] | ms a move |")
        print("|---|---|---|---|")
        for r in sorted(rows, key=lambda r: float(r["elo"])):
            ms = ms_per_move(game, r["policy"])
            print(f"| `{r['policy']}` | {float(r['score']):.3f} | {float(r['elo']):.0f} "
                  f"[{float(r['elo_low']):.0f}, {float(r['elo_high']):.0f}] | {ms:.2f} |")
        print()


if __name__ == "__main__":
    main()
