"""Vector environments: N games of one reading stepped at once by an array of actions, in the
shape of Gymnasium's vector API (``reset``, ``step``), for learning programs (docs/python.md)."""

import numbers
from typing import Optional

import numpy as np

from . import _native

#: The reading each game gets when none is named.
DEFAULT_VARIANTS = {"bao": "default", "oware": "abapa", "kalah": "openspiel"}


def _count(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected an int, not {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} {value}: expected at least {low}")
    return int(value)


class VectorEnv:
    """``num_envs`` games of ``game`` (``"bao"``, ``"oware"`` or ``"kalah"``) under ``variant``,
    stepped at once on ``threads`` threads (0: one per core) without holding the interpreter.

    ``reset(seed)`` starts game i of the seed in environment i; ``step(actions)`` plays one
    action id per environment and restarts every game that ended with the next game of the seed
    (same-step auto-reset: ``info["final_observation"]`` holds the last observations of the games
    that ended or were cut, one row each in environment order, ``terminated | truncated``).
    The reward of a step is the mover's: +1 when its move won the game, -1 when it lost, 0
    otherwise; ``info["rewards"]`` has South's and North's. A game may open with ``opening``
    random plies (the game's own draws for its number); ``max_plies`` cuts a game (truncated).
    An action that is not legal (``info["action_mask"]``) raises ``ValueError``, nothing played.
    """

    def __init__(self, game: str, num_envs: int, variant: Optional[str] = None, *,
                 engine: Optional[str] = None, max_plies: int = 2000, opening: int = 0,
                 threads: int = 0):
        if not isinstance(game, str) or game not in DEFAULT_VARIANTS:
            raise ValueError(f"game {game!r}: expected 'bao', 'oware' or 'kalah'")
        if variant is None:
            variant = DEFAULT_VARIANTS[game]
        if not isinstance(variant, str):
            raise TypeError(f"variant: expected a reading's name, a str, not {type(variant).__name__}")
        self.num_envs = _count("num_envs", num_envs, 1)
        max_plies = _count("max_plies", max_plies, 1)
        opening = _count("opening", opening, 0)
        threads = _count("threads", threads, 0)
        self.game, self.variant = game, variant
        self._env = _native.VectorEnv(game, variant, self.num_envs, engine=engine,
                                      max_plies=max_plies, opening=opening, threads=threads)
        #: Numbers in one observation (the game's ``state.observation()``).
        self.observation_size = self._env.observation_size
        #: Action ids of the game (6 for Oware and Kalah, 64 for Bao).
        self.action_count = self._env.action_count
        self._started = False

    def reset(self, seed: int = 0):
        """Starts game i of ``seed`` in environment i: ``(observations, info)``."""
        seed = _count("seed", seed, 0)
        obs, _, _, _, masks, _, to_move, _, _ = self._env.reset(seed)
        self._started = True
        return obs, {"action_mask": masks, "to_move": to_move}

    def step(self, actions):
        """Plays ``actions[i]`` in environment i: ``(observations, rewards, terminated,
        truncated, info)``, every array with one row per environment."""
        if not self._started:
            raise ValueError("step before reset: call reset(seed) first")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions: shape {a.shape}, expected ({self.num_envs},): one per environment")
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions: expected integer action ids, not {a.dtype}")
        obs, rewards, terminated, truncated, masks, finals, to_move, mover, reward = self._env.step(
            a.astype(np.int64, copy=False))
        info = {
            "action_mask": masks,
            "to_move": to_move,
            "mover": mover,
            "rewards": rewards,
            "final_observation": finals,
        }
        return obs, reward, terminated, truncated, info

    def plies(self) -> np.ndarray:
        """Plies played in each environment's current game."""
        return self._env.plies()

    def games(self) -> np.ndarray:
        """The game number of the seed each environment plays."""
        return self._env.games()

    def __repr__(self) -> str:
        return f"mancala_lab.VectorEnv({self.game!r}, {self.num_envs}, {self.variant!r})"
