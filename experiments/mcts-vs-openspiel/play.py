#!/usr/bin/env python3
"""Play mancala-lab's bot against OpenSpiel's C++ MCTSBot at Oware (abapa), sides alternating.

Usage:
    python3 play.py [--games N] [--seed S] [--ours POLICY] [--sims N | --ms T] [--bin PATH]

Our side is `mancala-lab bot --game oware --variant abapa --policy POLICY` (the line protocol of
docs/bot.md); OpenSpiel's is `pyspiel.MCTSBot` with a one-rollout random evaluator, UCT constant
2 and solving, given `--sims` simulations a move or `--ms` milliseconds (its max_wall_clock_time).
Game i has our bot South when i is even, North when odd. Prints both players' results, our score
with a 95% interval, and each side's simulations per second where the budget is a count.
Needs `pip install open-spiel` and a release build (`cargo build --release`).
"""

import argparse
import math
import subprocess
import sys
import time

import pyspiel


class Ours:
    """mancala-lab's bot, driven through its line protocol."""

    def __init__(self, binary, policy):
        self.proc = subprocess.Popen(
            [binary, "bot", "--game", "oware", "--variant", "abapa", "--policy", policy],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.seconds = 0.0
        self.moves = 0

    def ask(self, line):
        """The answer to `line`: its last line (a `go` first says what the search did on `info`
        lines)."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        while answer.startswith("info "):
            answer = self.proc.stdout.readline().strip()
        return answer

    def move(self, letters):
        answer = self.ask("position startpos" + (" moves " + " ".join(letters) if letters else ""))
        if answer != "ok":
            raise RuntimeError(f"bot refused the position: {answer}")
        start = time.perf_counter()
        answer = self.ask("go")
        self.seconds += time.perf_counter() - start
        self.moves += 1
        if not answer.startswith("bestmove "):
            raise RuntimeError(f"bot gave no move: {answer}")
        return answer.split()[1]

    def close(self):
        self.ask("quit") if self.proc.poll() is None else None
        self.proc.wait()


def letter(player, action):
    return chr((ord("A") if player == 0 else ord("a")) + action)


def play(game, ours, theirs, ours_side):
    """One game; returns (our points, plies, their seconds, their moves)."""
    state = game.new_initial_state()
    letters = []
    seconds = 0.0
    moves = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == ours_side:
            mv = ours.move(letters)
            action = ord(mv.upper()) - ord("A")
            if action not in state.legal_actions():
                raise RuntimeError(f"our move {mv} is not legal for OpenSpiel after {letters}")
        else:
            start = time.perf_counter()
            action = theirs.step(state)
            seconds += time.perf_counter() - start
            moves += 1
        letters.append(letter(player, action))
        state.apply_action(action)
    ret = state.returns()[ours_side]
    return (1.0 if ret > 0 else 0.0 if ret < 0 else 0.5), len(letters), seconds, moves


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ours", default="mcts:sims=1000")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--sims", type=int, default=1000)
    budget.add_argument("--ms", type=float)
    p.add_argument("--bin", default="target/release/mancala-lab")
    args = p.parse_args()
    game = pyspiel.load_game("oware")
    ours = Ours(args.bin, args.ours)
    scores, plies = [], 0
    their_seconds, their_moves = 0.0, 0
    wins = {"South": [0, 0, 0], "North": [0, 0, 0]}  # our wins, draws, losses by our side
    for i in range(args.games):
        evaluator = pyspiel.RandomRolloutEvaluator(1, args.seed * 100003 + i)
        if args.ms is not None:
            theirs = pyspiel.MCTSBot(game, evaluator, 2.0, 10**7, 1000, True,
                                     args.seed * 7919 + i, False,
                                     pyspiel.ChildSelectionPolicy.UCT, args.ms / 1000.0)
        else:
            theirs = pyspiel.MCTSBot(game, evaluator, 2.0, args.sims, 1000, True,
                                     args.seed * 7919 + i, False)
        side = i % 2
        s, n, secs, moves = play(game, ours, theirs, side)
        scores.append(s)
        plies += n
        their_seconds += secs
        their_moves += moves
        name = "South" if side == 0 else "North"
        wins[name][0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
        print(f"game {i}: ours {name}, {['lost', 'drew', 'won'][int(s * 2)]} in {n} plies",
              file=sys.stderr, flush=True)
    ours.close()
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / max(n - 1, 1))
    half = 1.96 * sd / math.sqrt(n)
    theirs_text = f"--ms {args.ms:g}" if args.ms is not None else f"--sims {args.sims}"
    print(f"ours: {args.ours}; OpenSpiel MCTSBot: {theirs_text} (uct_c 2, one random rollout, solve)")
    print(f"games: {n}, seed {args.seed}, mean plies {plies / n:.1f}")
    for side, (w, d, l) in wins.items():
        print(f"  ours as {side}: {w} won, {d} drawn, {l} lost")
    print(f"our score: {mean:.4f} [{max(0.0, mean - half):.4f}, {min(1.0, mean + half):.4f}] (95%)")
    print(f"seconds a move: ours {ours.seconds / max(ours.moves, 1) * 1000:.2f} ms, "
          f"OpenSpiel {their_seconds / max(their_moves, 1) * 1000:.2f} ms")
    if args.ms is None and args.ours.startswith("mcts:sims="):
        our_sims = int(args.ours.split("=")[1].split(",")[0])
        ours_rate = our_sims * ours.moves / max(ours.seconds, 1e-9)
        their_rate = args.sims * their_moves / max(their_seconds, 1e-9)
        print(f"simulations a second (at most, a solved root stops early): ours {ours_rate:,.0f}, "
              f"OpenSpiel {their_rate:,.0f}, ratio {ours_rate / their_rate:.1f}")


if __name__ == "__main__":
    main()
