"""PettingZoo environments over mancala-lab's engines: ``env("bao")`` and ``env("oware")``, AEC
environments with action masks (agents ``south`` and ``north``; actions are the games' action
ids, observations their ``observation()`` arrays, docs/python.md). Needs ``pip install
pettingzoo``.
"""

import numbers

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _native

_GAMES = {"bao": ("default", 64, 38), "oware": ("sheet", 6, 15), "kalah": ("openspiel", 6, 15)}
#: A game still on after this many plies is truncated (no winner).
MAX_PLIES = 2000


class MancalaEnv(AECEnv):
    """One game of Bao, Oware or Kalah between ``south`` and ``north``; the winner is rewarded +1, the
    loser -1, a draw 0. ``render_mode="ansi"`` renders the position text, ``"svg"`` the board as
    an SVG diagram (``mancala-lab bao diagram``'s drawing)."""

    metadata = {"render_modes": ["ansi", "svg"], "name": "mancala_lab_v0",
                "is_parallelizable": False}

    def __init__(self, game="bao", variant=None, render_mode=None, max_plies=MAX_PLIES):
        super().__init__()
        if not isinstance(game, str) or game not in _GAMES:
            raise ValueError(f"game {game!r}: expected 'bao', 'oware' or 'kalah'")
        default, actions, size = _GAMES[game]
        self.game, self.variant = game, default if variant is None else variant
        # A reading the game does not have is refused here, with the Rust message.
        _native.State(self.game, self.variant)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode {render_mode!r}: expected None, 'ansi' or 'svg'")
        if not isinstance(max_plies, numbers.Integral) or isinstance(max_plies, bool):
            raise TypeError(f"max_plies: expected an int, not {type(max_plies).__name__}")
        max_plies = int(max_plies)
        if max_plies < 1:
            raise ValueError(f"max_plies {max_plies}: expected at least 1 (no game would have a move)")
        self.render_mode, self.max_plies = render_mode, max_plies
        self.metadata = dict(self.metadata, name=f"mancala_lab_{game}_v0")
        self.possible_agents = ["south", "north"]
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 64.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self._state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _started(self):
        if self._state is None:
            raise RuntimeError("the environment has no game yet: call reset() first")
        return self._state

    def _mover(self):
        return "south" if self._state.to_move() == "South" else "north"

    def observe(self, agent):
        self._started()
        if agent not in self.possible_agents:
            raise ValueError(f"agent {agent!r}: expected 'south' or 'north'")
        mask = np.zeros(self.action_spaces[agent].n, np.int8)
        if agent == self._mover() and not self.terminations[agent]:
            for a, _ in self._state.legal_actions():
                mask[a] = 1
        return {"observation": self._state.observation(), "action_mask": mask}

    def reset(self, seed=None, options=None):
        self._state = _native.State(self.game, self.variant)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._mover()

    def last(self, observe=True):
        self._started()
        return super().last(observe)

    def step(self, action):
        self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        # An int or a numpy integer (not a float or a bool: they are refused with TypeError).
        self._state.play_action(action)
        if self._state.is_over():
            winner = self._state.winner()
            for a in self.agents:
                won = winner is not None and a == winner.lower()
                lost = winner in ("South", "North") and not won
                self.rewards[a] = 1 if won else -1 if lost else 0
                self.terminations[a] = True
        elif len(self._state.moves()) >= self.max_plies:
            self.truncations = {a: True for a in self.agents}
        if not self._state.is_over():
            self.agent_selection = self._mover()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        self._started()
        if self.render_mode == "svg":
            return self._state.svg()
        return self._state.position_text()

    def close(self):
        pass


def raw_env(game="bao", **kwargs):
    """The environment without PettingZoo's checking wrappers."""
    return MancalaEnv(game, **kwargs)


def env(game="bao", **kwargs):
    """The environment of ``game`` ('bao', 'oware' or 'kalah'), wrapped as PettingZoo's classic games
    are (an illegal action ends the game with a penalty; order and bounds are checked)."""
    e = raw_env(game, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
