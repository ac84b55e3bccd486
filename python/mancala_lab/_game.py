"""The game object shared by both games, and batch playouts."""

import numbers
import os
from dataclasses import dataclass
from typing import List, Optional

import numpy as np

from . import _native


class Game:
    """A game under one rule reading, played by one engine.

    ``variant`` is a preset of the game's readings (Bao: ``default``, ``literal-en``,
    ``engines``, ``strict``; Oware: ``sheet``, ``abapa``, ``strict``; Kalah: ``openspiel``,
    ``empty-capture``, ``starvation``, ``sweep-to-emptier``, ``no-sweep``, each with
    parameters after a colon, ``openspiel:pits=4,seeds=3``); ``engine`` is
    ``"optimized"`` (the default where it plays the reading) or ``"reference"`` (the engine
    that reads like the rules). A reading the game does not have raises ``ValueError``.
    """

    #: The game's name, as the command line writes it.
    name = ""
    #: The reading a game gets when none is named.
    default_variant = ""

    def __init__(self, variant: Optional[str] = None, engine: Optional[str] = None, **reading):
        self.variant = self.default_variant if variant is None else variant
        self.reading = reading
        # Checked now: a bad reading fails here, not at the first state.
        self.engine = self.new_initial_state_with(engine).engine()

    def new_initial_state_with(self, engine: Optional[str]) -> _native.State:
        return _native.State(self.name, self.variant, engine=engine, **self.reading)

    def new_initial_state(self) -> _native.State:
        """The start of a game."""
        return self.new_initial_state_with(self.engine)

    def state_from_text(self, position: str) -> _native.State:
        """A game from a position in the game's text format (``mancala-lab bao start``)."""
        if not isinstance(position, str):
            raise TypeError(f"position: expected the position text, a str, not {type(position).__name__}")
        return _native.State(self.name, self.variant, engine=self.engine, position=position,
                             **self.reading)

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.reading.items() if v is not None)
        return f"{type(self).__module__}.Game(variant={self.variant!r}{extra}, engine={self.engine!r})"


@dataclass
class Batch:
    """The games of one batch, one entry per game, in game order."""

    #: Game numbers (``first`` to ``first + n - 1``).
    game: np.ndarray
    #: Plies played.
    plies: np.ndarray
    #: 0 South won, 1 North won, 2 a draw, -1 no result (cut at the ply limit, or a point the
    #: reading leaves open).
    winner: np.ndarray
    #: The clause that ended each game (``ply-limit`` for a game cut short), as strings.
    end_clause: np.ndarray
    #: South's and North's scores, one row per game.
    scores: np.ndarray

    def __len__(self) -> int:
        return len(self.plies)


def batch_playouts(game: Game, n: int, seed: int, policy: str = "random",
                   max_plies: int = 2000, first: int = 0, db=None) -> Batch:
    """Plays games ``first .. first + n`` of ``seed`` under ``policy`` (as ``mancala-lab stats
    --policy`` reads it, South's and North's as ``P/Q``) on every core, and returns them as numpy
    arrays: the very games ``mancala-lab stats`` plays with the same seed and policy.

    ``db`` is the folder of the endgame databases (``mancala-lab solve --build --db DIR``) that
    the ``perfect`` policy reads; without it, the folder ``MANCALA_LAB_DB`` names. A ``perfect``
    policy with neither, or with a folder holding no levels of the game and reading, raises
    ``ValueError``; one process reads one folder."""
    if not isinstance(game, Game):
        raise TypeError(f"game: expected a mancala_lab.bao.Game, oware.Game or kalah.Game, "
                        f"not {type(game).__name__}")
    checked = {}
    for name, value, low, top in (("n", n, 0, 2**64), ("seed", seed, 0, 2**64),
                                  ("first", first, 0, 2**64), ("max_plies", max_plies, 1, 2**32)):
        # Any integer (numpy's too), not a bool.
        if not isinstance(value, numbers.Integral) or isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name}: expected an int, not {type(value).__name__}")
        value = int(value)
        if not low <= value < top:
            raise ValueError(f"{name} {value}: expected {low} to 2**{top.bit_length() - 1} - 1")
        checked[name] = value
    n, seed, first, max_plies = checked["n"], checked["seed"], checked["first"], checked["max_plies"]
    if not isinstance(policy, str):
        raise TypeError(f"policy: expected a policy text such as 'random', not {type(policy).__name__}")
    if db is not None and not isinstance(db, (str, os.PathLike)):
        raise TypeError(f"db: expected a folder (str or path), not {type(db).__name__}")
    plies, winner, codes, south, north, clauses = _native.batch_playouts(
        game.name, game.variant, n, seed, policy, engine=game.engine, max_plies=max_plies,
        first=first, db=None if db is None else os.fspath(db), **game.reading)
    names = np.array(clauses if clauses else [""], dtype=str)
    return Batch(
        game=np.arange(first, first + n, dtype=np.uint64),
        plies=plies,
        winner=winner,
        end_clause=names[codes] if n else np.array([], dtype=str),
        scores=np.stack([south, north], axis=1),
    )
