"""OpenSpiel games over mancala-lab's engines: ``register()`` makes ``mancala_lab_bao``,
``mancala_lab_oware`` and ``mancala_lab_kalah`` loadable with ``pyspiel.load_game``, their rule
reading a game parameter (``pyspiel.load_game("mancala_lab_bao(variant=default)")``), so that
OpenSpiel's algorithms play them. Needs ``pip install open-spiel``.

Actions are the games' action ids (docs/python.md): Bao 0-63, Oware and Kalah 0-5. Observations
are the states' ``observation()`` arrays; the observation string is the position text. A Kalah
reading with parameters holds commas, which OpenSpiel's game strings cannot: give it as a
dictionary, ``pyspiel.load_game("mancala_lab_kalah", {"variant": "openspiel:pits=4,seeds=3"})``.
"""

import numpy as np
import pyspiel

from . import _native

#: Games end at this many plies at the latest (a draw), as OpenSpiel needs a bound.
MAX_GAME_LENGTH = 2000

_GAMES = {
    # name: (long name, default reading, actions, observation length)
    "bao": ("Bao la Kiswahili (mancala-lab)", "default", 64, 38),
    "oware": ("Oware (mancala-lab)", "sheet", 6, 15),
    "kalah": ("Kalah (mancala-lab)", "openspiel", 6, 15),
}


def _game_type(name):
    long_name, variant, _, _ = _GAMES[name]
    return pyspiel.GameType(
        short_name=f"mancala_lab_{name}",
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"variant": variant},
    )


class _State(pyspiel.State):
    """A game in progress: OpenSpiel's state API over a mancala_lab state."""

    def __init__(self, game, native, reading):
        super().__init__(game)
        # The game's name and reading, (name, variant): what a state set on this one must have.
        super().__setattr__("_reading", reading)
        super().__setattr__("_state", native)
        # Checked at first use against the history: a deserialized state whose pickle lacks
        # its mancala_lab state keeps this one, at the start, whatever its history.
        super().__setattr__("_unchecked", True)

    def __setattr__(self, name, value):
        # OpenSpiel deserializes a state (and clones one) by setting the attributes it pickled
        # (copied) on a new initial state of the game, and its history before (after) them. So a
        # state set here must be of the game's reading; with the history already there, it must
        # be that history's game (it is remade from it). Either way its length, and the move
        # number, are checked against the history at first use.
        if name == "_reading":
            if value != self._reading:
                raise ValueError(f"serialized state: made under {value}, not the game's "
                                 f"{self._reading}")
        elif name == "_state":
            game, variant = self._reading
            made = value.__reduce__()[1] if isinstance(value, _native.State) else None
            if made is None or made[:3] != (game, variant, None) or made[4] is not None:
                raise ValueError(f"serialized state: not a state of {game} under {variant}")
            if self.history():
                value = self._remade(value)
            super().__setattr__("_unchecked", True)
            super().__setattr__("_state", value)
        elif name.startswith("__") or hasattr(type(self), name):
            raise ValueError(f"serialized state: attribute {name!r} would replace the state's own")
        elif name != "_unchecked":
            super().__setattr__(name, value)

    def _remade(self, pickled):
        game, variant = self._reading
        state = _native.State(game, variant)
        for i, (player, action) in enumerate((h.player, h.action) for h in self.full_history()):
            mover = 0 if state.to_move() == "South" else 1
            if player != mover:
                raise ValueError(f"serialized state: action {i + 1} of its history is player "
                                 f"{player}'s, but player {mover} is to move")
            try:
                state.play_action(action)
            except ValueError as e:
                raise ValueError(f"serialized state: action {i + 1} of its history: {e}") from None
        if pickled.moves() != state.moves():
            raise ValueError("serialized state: its moves are not those of its history")
        return state

    @property
    def _native(self):
        if self._unchecked:
            plies = len(self.history())
            if plies != len(self._state.moves()) or plies != self.move_number():
                raise ValueError("serialized state: its moves are not those of its history")
            super().__setattr__("_unchecked", False)
        return self._state

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self._native.to_move() == "South" else 1

    def _legal_actions(self, player):
        if self.is_terminal():
            return []
        return [a for a, _ in self._native.legal_actions()]

    def _apply_action(self, action):
        self._native.play_action(action)

    def _action_to_string(self, player, action):
        for a, notation in self._native.legal_actions():
            if a == action:
                return notation
        return f"action {action}"

    def is_terminal(self):
        return self._native.is_over() or len(self._native.moves()) >= MAX_GAME_LENGTH

    def returns(self):
        winner = self._native.winner()
        if winner == "South":
            return [1.0, -1.0]
        if winner == "North":
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def __str__(self):
        return self._native.position_text()

    def native(self):
        """A copy of the mancala_lab state (legal moves in notation, explain, ...): a move
        played on it does not change this state, whose history OpenSpiel keeps."""
        return self._native.clone()


class _Observer:
    """The observation: the state's ``observation()`` array; the string is the position text."""

    def __init__(self, size):
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state._native.observation()

    def string_from(self, state, player):
        return str(state)


class _Game(pyspiel.Game):
    """A game of OpenSpiel over a mancala_lab game under one reading (its ``variant`` parameter)."""

    #: The game's name in mancala_lab ('bao', 'oware' or 'kalah').
    name = ""

    def __init__(self, params=None):
        long_name, default, actions, _ = _GAMES[self.name]
        params = dict(params or {})
        variant = params.get("variant", default)
        # A reading the game does not have is refused here, with the Rust message.
        _native.State(self.name, variant)
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(self.name), info, params)

    @property
    def variant(self):
        """The reading, a preset of the game (from the game's parameters: an unpickled game has
        no attributes of its own)."""
        return self.get_parameters().get("variant", _GAMES[self.name][1])

    def new_initial_state(self):
        variant = self.variant
        return _State(self, _native.State(self.name, variant), (self.name, variant))

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(_GAMES[self.name][3])


class MancalaLabBaoGame(_Game):
    """Bao la Kiswahili in OpenSpiel (``mancala_lab_bao``)."""

    name = "bao"


class MancalaLabOwareGame(_Game):
    """Oware in OpenSpiel (``mancala_lab_oware``)."""

    name = "oware"


class MancalaLabKalahGame(_Game):
    """Kalah in OpenSpiel (``mancala_lab_kalah``)."""

    name = "kalah"


_registered = False


def register():
    """Registers ``mancala_lab_bao``, ``mancala_lab_oware`` and ``mancala_lab_kalah`` with
    OpenSpiel (once)."""
    global _registered
    if _registered:
        return
    for cls in (MancalaLabBaoGame, MancalaLabOwareGame, MancalaLabKalahGame):
        pyspiel.register_game(_game_type(cls.name), cls)
    _registered = True
