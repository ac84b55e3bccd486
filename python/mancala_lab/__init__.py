"""Bao la Kiswahili, Oware and Kalah from Python, on mancala-lab's engines.

``mancala_lab.bao.Game``, ``mancala_lab.oware.Game`` and ``mancala_lab.kalah.Game`` are the
games under a rule reading; their states play moves in the games' canonical notation, print
positions in the project's position text, and explain a move by the rule clauses it applies. ``batch_playouts`` plays many
games at Rust speed and returns numpy arrays; ``run_study`` runs a resumable stats study; ``VectorEnv`` steps
thousands of games at once by arrays of actions, for learning programs. No rule is written here: everything is the Rust
crate's (docs/python.md).
"""

from ._native import State
from ._game import Batch, Game, batch_playouts
from .study import run_study
from .vector import VectorEnv
from . import bao, kalah, oware

__all__ = ["Batch", "Game", "State", "VectorEnv", "bao", "batch_playouts", "kalah", "oware", "run_study"]
