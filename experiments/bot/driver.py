#!/usr/bin/env python3
"""A driver of `mancala-lab bot`, reduced to its core: two bots play one Oware game, each told
the moves so far and asked for its move; the moves are also shown as OpenSpiel `oware` action ids.

    python3 experiments/bot/driver.py [--bin PATH] [--south POLICY] [--north POLICY]

Prints one line a ply (`ply 1: South A (action 0), info ...`) and the result.
"""
import argparse
import subprocess


class Bot:
    """One `mancala-lab bot` process, spoken to a line at a time."""

    def __init__(self, binary, policy):
        self.proc = subprocess.Popen(
            [binary, "bot", "--game", "oware", "--variant", "abapa", "--policy", policy],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, line):
        """The `info` lines and the answer to `line`."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        info = []
        answer = self.proc.stdout.readline().strip()
        while answer.startswith("info "):
            info.append(answer[len("info "):])
            answer = self.proc.stdout.readline().strip()
        return info, answer

    def close(self):
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait()


def action_of(move):
    """OpenSpiel's action id of an Oware move: the pit's place from the mover's left, 0 to 5."""
    return ord(move.lower()) - ord("a")


def move_of(action, south_to_move):
    """Our move of an OpenSpiel action id: the pit letter, upper case for South."""
    return chr((ord("A") if south_to_move else ord("a")) + action)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="target/release/mancala-lab")
    parser.add_argument("--south", default="alphabeta:depth=4")
    parser.add_argument("--north", default="mcts:sims=200")
    args = parser.parse_args()
    bots = [Bot(args.bin, args.south), Bot(args.bin, args.north)]
    moves = []
    try:
        while True:
            south = len(moves) % 2 == 0  # abapa: South moves first, then turns alternate
            bot = bots[0 if south else 1]
            _, ok = bot.ask("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            assert ok == "ok", ok
            info, answer = bot.ask("go")
            if answer.startswith("over "):
                print("result:", answer[len("over "):])
                break
            move = answer.split()[1]
            assert move_of(action_of(move), south) == move
            print(f"ply {len(moves) + 1}: {'South' if south else 'North'} {move} "
                  f"(action {action_of(move)}), info {'; '.join(info) or '-'}")
            moves.append(move)
    finally:
        for bot in bots:
            bot.close()


if __name__ == "__main__":
    main()
