#!/usr/bin/env python3
"""Tabulates the Kalah first-player runs (run.sh): per reading, per board Kalah(6,n) and policy,
South's and North's win rates, the draw rate and South's edge (South's win rate less North's)
with 95% intervals; draws the edges as an SVG (no plotting library needed).

Usage: table.py OUT SVG READING... -- POLICY..."""

import csv
import math
import sys
from pathlib import Path

COLOURS = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e"]


def summary(folder):
    with open(folder / "summary.csv", newline="") as f:
        return {r["metric"]: r for r in csv.DictReader(f)}


def distinct(folder):
    """Distinct games, told apart by the hash of their moves."""
    with open(folder / "games.csv", newline="") as f:
        reader = csv.DictReader(f)
        return len({r["moves_hash"] for r in reader})


def edge(s):
    """South's win rate less North's, with a 95% interval (normal approximation to the
    difference of two shares of one multinomial sample)."""
    n = float(s["games"]["value"])
    south = float(s["south_win_rate"]["value"])
    north = float(s["north_win_rate"]["value"])
    d = south - north
    half = 1.96 * math.sqrt(max(south + north - d * d, 0.0) / n)
    return d, d - half, d + half


def rate(s, metric):
    r = s[metric]
    return f"{float(r['value']):.3f} [{float(r['ci_low']):.3f}, {float(r['ci_high']):.3f}]"


def folder_of(root, reading, n, policy):
    name = policy.replace(":", "-").replace(",", "-").replace("=", "-")
    return root / f"{reading}-{n}-{name}"


def svg(points, readings, policies, path):
    """One panel per reading: South's edge against n, one series per policy, 95% intervals."""
    w, h, left, top, gap = 210, 260, 60, 40, 20
    lows = [lo for p in points.values() for (_, lo, _) in p]
    highs = [hi for p in points.values() for (_, _, hi) in p]
    y0, y1 = min(0.0, math.floor(min(lows) * 10) / 10), math.ceil(max(highs) * 10) / 10
    width = left + len(readings) * (w + gap) + 150
    y = lambda v: top + h - (v - y0) / (y1 - y0) * h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{top + h + 60}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="18" font-size="13">Kalah(6,n): South\'s win rate less North\'s, '
           'each policy playing itself (95% intervals)</text>']
    for k, reading in enumerate(readings):
        x0 = left + k * (w + gap)
        x = lambda n: x0 + 20 + (n - 3) * (w - 40) / 3
        out.append(f'<rect x="{x0}" y="{top}" width="{w}" height="{h}" fill="none" stroke="#999"/>')
        out.append(f'<text x="{x0 + w / 2}" y="{top + h + 32}" text-anchor="middle">{reading}</text>')
        out.append(f'<line x1="{x0}" x2="{x0 + w}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#bbb"/>')
        for n in (3, 4, 5, 6):
            out.append(f'<text x="{x(n):.1f}" y="{top + h + 15}" text-anchor="middle">n={n}</text>')
        for j, policy in enumerate(policies):
            c = COLOURS[j % len(COLOURS)]
            series = points[(reading, policy)]
            shift = (j - (len(policies) - 1) / 2) * 5
            path_d = " ".join(f"{'M' if i == 0 else 'L'}{x(n) + shift:.1f},{y(v):.1f}"
                              for i, (n, (v, _, _)) in enumerate(zip((3, 4, 5, 6), series)))
            out.append(f'<path d="{path_d}" fill="none" stroke="{c}" stroke-width="1.5"/>')
            for n, (v, lo, hi) in zip((3, 4, 5, 6), series):
                px = x(n) + shift
                out.append(f'<line x1="{px:.1f}" x2="{px:.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" '
                           f'stroke="{c}"/>')
                out.append(f'<circle cx="{px:.1f}" cy="{y(v):.1f}" r="2.5" fill="{c}"/>')
    for t in range(int(round((y1 - y0) * 10)) + 1):
        v = y0 + t / 10
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:+.1f}</text>')
    lx = left + len(readings) * (w + gap)
    for j, policy in enumerate(policies):
        c = COLOURS[j % len(COLOURS)]
        out.append(f'<rect x="{lx}" y="{top + 10 + 18 * j}" width="10" height="10" fill="{c}"/>')
        out.append(f'<text x="{lx + 16}" y="{top + 19 + 18 * j}">{policy}</text>')
    out.append("</svg>")
    Path(path).write_text("\n".join(out) + "\n")


def main():
    args = sys.argv[1:]
    root, picture = Path(args[0]), args[1]
    split = args.index("--")
    readings, policies = args[2:split], args[split + 1:]
    points = {}
    print("# Kalah's first-player advantage\n")
    print("Each policy plays itself on Kalah(6,n), seed 1, under each reading (spec/kalah.md);")
    print("South moves first. South's edge is South's win rate less North's, its 95% interval a")
    print("normal approximation. Distinct games are told apart by the hash of their moves.\n")
    for reading in readings:
        print(f"## {reading}\n")
        print("| n | policy | games | distinct | South wins | North wins | draws | South's edge |")
        print("|---|---|---|---|---|---|---|---|")
        for policy in policies:
            points[(reading, policy)] = []
        for n in (3, 4, 5, 6):
            for policy in policies:
                folder = folder_of(root, reading, n, policy)
                s = summary(folder)
                d, lo, hi = edge(s)
                points[(reading, policy)].append((d, lo, hi))
                print(f"| {n} | `{policy}` | {int(float(s['games']['value']))} | {distinct(folder)} | "
                      f"{rate(s, 'south_win_rate')} | {rate(s, 'north_win_rate')} | "
                      f"{rate(s, 'draw_rate')} | {d:+.3f} [{lo:+.3f}, {hi:+.3f}] |")
        print()
    svg(points, readings, policies, picture)


if __name__ == "__main__":
    main()
