#!/usr/bin/env python3
"""Learns Kalah(6,4) (OpenSpiel's ``mancala``) from ``mancala_lab.VectorEnv`` with numpy alone: a
network of one hidden layer (the 15 numbers of the observation seen from the mover, 64 tanh
units, a score for each of the 6 pits) trained by policy gradient (REINFORCE: the outcome of each
game the return of every move in it, a running mean as baseline, an entropy bonus) in games
against random play (``--against-random 0.5``: half of them against itself), its win rate
against random play measured as it learns; then written as a ``net`` policy file that
``mancala-lab match`` plays.

Usage, from the project root, with the package installed (``pip install ./python``), numpy and,
for the plot, matplotlib:
    python3 experiments/learning/train.py [--updates 400] [--envs 256] [--out DIR]
Then the match (experiments/learning/README.md):
    mancala-lab match --game kalah --players net:file=DIR/kalah-net.json random greedy \\
        alphabeta:depth=2 --games 500 --out DIR/match
"""

import argparse
import collections
import csv
import json
import pathlib
import shutil
import subprocess
import sys
import time

import numpy as np

import mancala_lab

#: Seeds a pit can hold are divided by this before the network sees them (folded into the first
#: layer's weights when the net is written, so the file reads the observation as it is).
SCALE = 16.0


class Net:
    """15 -> hidden (tanh) -> 6, with Adam."""

    def __init__(self, rng, hidden, inputs=15, outputs=6):
        self.p = {
            "w1": rng.normal(0, 1 / np.sqrt(inputs), (hidden, inputs)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 0.01, (outputs, hidden)),
            "b2": np.zeros(outputs),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x):
        h = np.tanh(x @ self.p["w1"].T + self.p["b1"])
        return h, h @ self.p["w2"].T + self.p["b2"]

    def step(self, grads, lr, beta1=0.9, beta2=0.999, eps=1e-8):
        self.t += 1
        for k, g in grads.items():
            self.m[k] = beta1 * self.m[k] + (1 - beta1) * g
            self.v[k] = beta2 * self.v[k] + (1 - beta2) * g * g
            mh = self.m[k] / (1 - beta1 ** self.t)
            vh = self.v[k] / (1 - beta2 ** self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + eps)

    def file(self):
        """The net as a ``net`` policy file (the input scale folded into the first layer)."""
        p = self.p
        return {
            "format": "mancala-lab net 1",
            "game": "kalah",
            "view": "mover",
            "layers": [
                {"weights": (p["w1"] / SCALE).tolist(), "bias": p["b1"].tolist(),
                 "activation": "tanh"},
                {"weights": p["w2"].tolist(), "bias": p["b2"].tolist(), "activation": "linear"},
            ],
        }


def features(obs):
    """The observation from the mover's side (the file's ``"view": "mover"``), scaled: the
    mover's row and store first, so that one policy serves both sides."""
    x = obs.copy()
    north = obs[:, 14] == 1
    x[north, :6], x[north, 6:12] = obs[north, 6:12], obs[north, :6]
    x[north, 12], x[north, 13] = obs[north, 13], obs[north, 12]
    return x / SCALE


def masked_softmax(logits, mask):
    z = np.where(mask, logits, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z) * mask
    return e / e.sum(axis=1, keepdims=True)


def win_rate_vs_random(net, games, seed):
    """The net (its best legal pit) against random play, half its games as South: wins, draws
    and losses over ``games`` games."""
    n = 256
    env = mancala_lab.VectorEnv("kalah", n)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    learner = np.arange(n) % 2        # the side the net plays in each environment
    results = []
    while len(results) < games:
        mask = info["action_mask"]
        _, logits = net.forward(features(obs))
        best = np.where(mask, logits, -np.inf).argmax(axis=1)
        random = (rng.random(mask.shape) * mask).argmax(axis=1)
        actions = np.where(info["to_move"] == learner, best, random)
        obs, _, terminated, truncated, info = env.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            results.append(info["rewards"][i, learner[i]])
    results = np.array(results[:games])
    return (results > 0).mean(), (results == 0).mean(), (results < 0).mean()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=400)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--steps", type=int, default=128, help="steps a rollout")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--against-random", type=float, default=1.0,
                        help="share of the environments where the net plays random play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-every", type=int, default=25)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--out", default="out/learning")
    parser.add_argument("--force", action="store_true", help="replace what --out holds")
    parser.add_argument("--cli", default="target/release/mancala-lab",
                        help="the command line the match runs on (cargo build --release)")
    parser.add_argument("--match-games", type=int, default=500,
                        help="games of each pairing each way in the final match (0: no match)")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    if out.exists() and any(out.iterdir()):
        if not args.force:
            sys.exit(f"train.py: {out} holds files already: choose another --out, or --force "
                     "to replace them")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    if args.match_games and not pathlib.Path(args.cli).is_file():
        sys.exit(f"train.py: --cli {args.cli}: no such program (cargo build --release, or "
                 "--match-games 0 for no match)")
    rng = np.random.default_rng(args.seed)
    net = Net(rng, args.hidden)
    n = args.envs
    env = mancala_lab.VectorEnv("kalah", n)
    obs, info = env.reset(seed=args.seed)
    episode = np.zeros(n, dtype=np.int64)
    # The environments whose net plays random play, and the side it takes in each.
    versus_random = np.arange(n) < int(args.against_random * n)
    side = np.arange(n) % 2
    baseline, games, curve = 0.0, 0, []
    started = time.perf_counter()
    for update in range(args.updates + 1):
        if update % args.eval_every == 0 or update == args.updates:
            w, d, l = win_rate_vs_random(net, args.eval_games, seed=10_000 + update)
            curve.append((update, games, w, d, l))
            print(f"update {update:4d}: {games:8d} games played; against random: "
                  f"won {w:.3f}, drawn {d:.3f}, lost {l:.3f}", flush=True)
            if update == args.updates:
                break
        # A rollout: every environment steps `steps` times, the net's moves sampled from its
        # policy; its opponent is itself (self-play) or, in the environments of
        # `--against-random`, random play, whose moves are not learned from.
        xs, acts, masks, movers, eps, learned = [], [], [], [], [], []
        outcome = {}
        for _ in range(args.steps):
            x, mask = features(obs), info["action_mask"]
            _, logits = net.forward(x)
            p = masked_softmax(logits, mask)
            a = (p.cumsum(axis=1) > rng.random((n, 1))).argmax(axis=1)
            random_move = (rng.random(mask.shape) * mask).argmax(axis=1)
            ours = ~versus_random | (info["to_move"] == side)
            a = np.where(ours, a, random_move)
            xs.append(x), acts.append(a), masks.append(mask), movers.append(info["to_move"])
            eps.append(episode.copy()), learned.append(ours)
            obs, _, terminated, truncated, info = env.step(a)
            for i in np.flatnonzero(terminated | truncated):
                outcome[(i, episode[i])] = info["rewards"][i]
                episode[i] += 1
                games += 1
        # Every move of a game that ended in the rollout, its return the game's outcome for
        # the mover (moves of games still under way are left out).
        X = np.concatenate(xs)
        A = np.concatenate(acts)
        M = np.concatenate(masks)
        mover = np.concatenate(movers)
        env_index = np.tile(np.arange(n), args.steps)
        E = np.concatenate(eps)
        R = np.array([outcome[(i, e)][m] if (i, e) in outcome else np.nan
                      for i, e, m in zip(env_index, E, mover)])
        keep = ~np.isnan(R) & np.concatenate(learned)
        X, A, M, R = X[keep], A[keep], M[keep], R[keep]
        baseline = 0.9 * baseline + 0.1 * R.mean()
        adv = R - baseline
        h, logits = net.forward(X)
        p = masked_softmax(logits, M)
        # Gradient of -adv * log p(a): (p - onehot(a)) * adv through the layers.
        g = p.copy()
        g[np.arange(len(A)), A] -= 1
        g *= adv[:, None]
        # An entropy bonus keeps the policy exploring: the gradient of -H over the logits.
        logp = np.log(np.where(M, p, 1.0))
        entropy = -(p * logp).sum(axis=1, keepdims=True)
        g += args.entropy * p * (logp + entropy)
        g /= len(A)
        grads = {"w2": g.T @ h, "b2": g.sum(axis=0)}
        gh = (g @ net.p["w2"]) * (1 - h * h)
        grads["w1"] = gh.T @ X
        grads["b1"] = gh.sum(axis=0)
        net.step(grads, args.lr)
    path = out / "kalah-net.json"
    path.write_text(json.dumps(net.file()))
    with open(out / "learning.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["update", "games", "won", "drawn", "lost"])
        w.writerows(curve)
    print(f"net written to {path}; learning curve to {out / 'learning.csv'} "
          f"({time.perf_counter() - started:.0f} s)")
    plot(curve, out)
    if args.match_games:
        match(args, path, out)


def plot(curve, out):
    """The learning curve as an SVG, if matplotlib is installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)")
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([c[1] for c in curve], [c[2] for c in curve], marker="o")
    ax.set_xlabel("games played")
    ax.set_ylabel("won against random")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.set_title("Kalah(6,4): a 15-64-6 network learning from VectorEnv")
    fig.tight_layout()
    # No date in the file: the same run writes the same bytes.
    fig.savefig(out / "learning.svg", metadata={"Date": None})
    print(f"plot written to {out / 'learning.svg'}")


def match(args, net_file, out):
    """`mancala-lab match` of the net against random, greedy and alphabeta (both sides, four
    random opening plies so that the deterministic players meet in varied positions); the net's
    results against each, printed and written to win_rates.csv."""
    net = f"net:file={net_file}"
    command = [args.cli, "match", "--game", "kalah", "--players", net, "random", "greedy",
               "alphabeta:depth=2", "alphabeta:depth=4", "--games", str(args.match_games),
               "--opening", "4", "--out", str(out / "match")]
    print("$ " + " ".join(command), flush=True)
    ran = subprocess.run(command, capture_output=True, text=True)
    if ran.returncode != 0:
        sys.exit(f"train.py: the match failed:\n{ran.stderr}")
    # The ratings table the match ends with.
    print("\n".join(ran.stdout.splitlines()[-6:]))
    tally = collections.defaultdict(lambda: [0, 0, 0])
    with open(out / "match" / "games.csv") as f:
        for row in csv.DictReader(f):
            if net not in (row["south"], row["north"]):
                continue
            side = "South" if row["south"] == net else "North"
            other = row["north"] if side == "South" else row["south"]
            i = 0 if row["winner"] == side else 1 if row["winner"] == "draw" else 2
            tally[other][i] += 1
    with open(out / "win_rates.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["opponent", "games", "won", "drawn", "lost"])
        for other, (won, drawn, lost) in tally.items():
            games = won + drawn + lost
            w.writerow([other, games, f"{won / games:.3f}", f"{drawn / games:.3f}",
                        f"{lost / games:.3f}"])
            print(f"the net against {other}: {games} games, won {won / games:.3f}, "
                  f"drawn {drawn / games:.3f}, lost {lost / games:.3f}")
    print(f"match written to {out / 'match'} (ratings.csv: Elo); results to "
          f"{out / 'win_rates.csv'}")


if __name__ == "__main__":
    main()
