#!/usr/bin/env python3
"""Tabulates the summary.csv of each strong-play run: per game, one row per policy with South's win
rate, the draw rate, the mean length and the commonest endings, each with its 95% interval."""

import csv
import sys
from pathlib import Path


def summary(folder):
    with open(folder / "summary.csv", newline="") as f:
        return {r["metric"]: r for r in csv.DictReader(f)}


def distinct(folder):
    """Distinct games, as far as games.csv tells them apart (every field but the index): a lower
    bound. Deterministic policies replay few games; their intervals then overstate the sample."""
    with open(folder / "games.csv", newline="") as f:
        rows = list(csv.reader(f))[1:]
    return len({tuple(r[1:]) for r in rows})


def cell(s, metric, digits):
    r = s.get(metric)
    if r is None:
        return "0"
    v, lo, hi = (float(r[k]) for k in ("value", "ci_low", "ci_high"))
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def plot(runs_by_game, policies, path):
    """South's win rate and the mean length per policy, both games, with 95% intervals, as SVG;
    needs matplotlib (skipped with a note without it)."""
    try:
        import matplotlib
        matplotlib.use("svg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"(no plot: pip install matplotlib to draw {path})", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    xs = range(len(policies))
    for k, (game, runs) in enumerate(runs_by_game.items()):
        for ax, metric in zip(axes, ("south_win_rate", "mean_plies")):
            v = [float(runs[p][metric]["value"]) for p in policies]
            lo = [float(runs[p][metric]["ci_low"]) for p in policies]
            hi = [float(runs[p][metric]["ci_high"]) for p in policies]
            shift = [x + (k - 0.5) * 0.2 for x in xs]
            ax.errorbar(shift, v, yerr=[[a - b for a, b in zip(v, lo)], [b - a for a, b in zip(v, hi)]],
                        fmt="o", capsize=3, label=game)
    axes[0].axhline(0.5, color="grey", linewidth=0.5)
    axes[0].set_ylabel("South's win rate (95% interval)")
    axes[1].set_ylabel("mean plies (95% interval)")
    for ax in axes:
        ax.set_xticks(list(xs))
        ax.set_xticklabels(policies, rotation=45, ha="right", fontsize=7)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})


def main():
    root, opening, policies = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    runs_by_game = {}
    for game in ("bao", "oware"):
        folder = {p: root / f"{game}-{p.replace(':', '-').replace(',', '-').replace('=', '-')}"
                  for p in policies}
        runs = {p: summary(folder[p]) for p in policies}
        runs_by_game[game] = runs
        games = runs[policies[0]]["games"]["value"]
        ends = sorted({m for s in runs.values() for m in s if m.startswith("ended_by_")})
        after = f", after {opening} random plies" if opening else ""
        print(f"## {game}: {games} games of each policy against itself{after}, seed 1\n")
        head = ["policy", "distinct games", "South win rate", "draw rate", "mean plies"] + [e[len("ended_by_"):] for e in ends]
        print("| " + " | ".join(head) + " |")
        print("|---" * len(head) + "|")
        for p in policies:
            s = runs[p]
            row = [f"`{p}`", str(distinct(folder[p])), cell(s, "south_win_rate", 3), cell(s, "draw_rate", 3),
                   cell(s, "mean_plies", 1)] + [cell(s, e, 3) for e in ends]
            print("| " + " | ".join(row) + " |")
        print()
    name = f"strong-play-opening-{opening}.svg" if opening else "strong-play.svg"
    plot(runs_by_game, policies, Path(__file__).parent / name)


if __name__ == "__main__":
    main()
