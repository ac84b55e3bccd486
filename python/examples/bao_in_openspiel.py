"""A complete example: Bao in OpenSpiel, its MCTS bot against random play, then a numpy study of
South's advantage under each Bao reading.

    python3 python/examples/bao_in_openspiel.py [GAMES] [SIMULATIONS] [PLAYOUTS]
"""

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import mancala_lab
from mancala_lab import bao, openspiel


def mcts_against_random(games, simulations, seed=1):
    """OpenSpiel's MCTS bot (South in even games, North in odd ones) against random play: its
    score (1 a win, 0.5 a draw)."""
    openspiel.register()
    game = pyspiel.load_game("mancala_lab_bao(variant=default)")
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    points = 0.0
    for g in range(games):
        side = g % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == side:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        points += (state.returns()[side] + 1) / 2
    return points / games


def readings_study(playouts, seed=1):
    """South's win rate over random games under each Bao reading, with a 95% interval."""
    rows = []
    for variant in ("default", "literal-en", "engines"):
        b = mancala_lab.batch_playouts(bao.Game(variant=variant), playouts, seed)
        p = (b.winner == 0).mean()
        half = 1.96 * np.sqrt(p * (1 - p) / len(b))
        rows.append((variant, p, half, b.plies.mean()))
    return rows


if __name__ == "__main__":
    games, sims, playouts = (int(x) for x in (sys.argv[1:] + ["10", "100", "100000"][len(sys.argv) - 1:]))
    print(f"MCTS ({sims} simulations) against random, {games} Bao games: "
          f"score {mcts_against_random(games, sims):.2f}")
    for variant, p, half, plies in readings_study(playouts):
        print(f"{variant:>10}: South wins {p:.3f} +- {half:.3f}, {plies:.1f} plies on average")
