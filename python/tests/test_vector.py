"""Vector environments (``mancala_lab.VectorEnv``): game by game against the package's scalar
states, against OpenSpiel's ``mancala`` and ``oware`` on random actions, and their refusals."""

import numpy as np
import pytest

import mancala_lab
from mancala_lab import _native


def legal_choice(rng, mask):
    """A random legal action id per environment."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


def scalar_mask(state, count):
    mask = np.zeros(count, dtype=bool)
    if not state.is_over():
        for action, _ in state.legal_actions():
            mask[action] = True
    return mask


@pytest.mark.parametrize("game,variant", [
    ("kalah", "openspiel"), ("kalah", "empty-capture:pits=4,seeds=5"),
    ("kalah", "starvation:pits=3,seeds=2"), ("oware", "abapa"), ("oware", "sheet"),
    ("bao", "default"),
])
def test_each_environment_is_the_scalar_game(game, variant):
    n = 12
    env = mancala_lab.VectorEnv(game, n, variant, max_plies=400, threads=2)
    obs, info = env.reset(seed=3)
    states = [_native.State(game, variant) for _ in range(n)]
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):
        for i, s in enumerate(states):
            np.testing.assert_array_equal(obs[i], s.observation())
            np.testing.assert_array_equal(info["action_mask"][i], scalar_mask(s, env.action_count))
            assert info["to_move"][i] == (0 if s.to_move() == "South" else 1)
        actions = legal_choice(rng, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(actions)
        finals = iter(info["final_observation"])
        for i, s in enumerate(states):
            mover = 0 if s.to_move() == "South" else 1
            assert info["mover"][i] == mover
            s.play_action(int(actions[i]))
            want = {"South": [1, -1], "North": [-1, 1]}.get(s.winner(), [0, 0])
            np.testing.assert_array_equal(info["rewards"][i], want)
            assert reward[i] == want[mover]
            assert terminated[i] == s.is_over()
            assert truncated[i] == (not s.is_over() and len(s.moves()) >= 400)
            if terminated[i] or truncated[i]:
                ended += 1
                np.testing.assert_array_equal(next(finals), s.observation())
                states[i] = _native.State(game, variant)
        assert next(finals, None) is None
    assert ended > 0


def test_games_are_dealt_in_environment_order_and_threads_change_nothing():
    def run(threads):
        env = mancala_lab.VectorEnv("kalah", 50, opening=4, threads=threads)
        obs, info = env.reset(seed=9)
        rng = np.random.default_rng(0)
        trace = [obs.copy()]
        for _ in range(120):
            obs, reward, term, trunc, info = env.step(legal_choice(rng, info["action_mask"]))
            trace += [obs.copy(), reward.copy(), term.copy(), info["final_observation"].copy()]
        return trace, env.games(), env.plies()

    one, games, plies = run(1)
    assert games.max() > 50
    # Games are dealt one by one to the environments whose game ended, in order.
    assert sorted(games.tolist()) == sorted(set(games.tolist()))
    for threads in (2, 3):
        other, g, p = run(threads)
        np.testing.assert_array_equal(g, games)
        np.testing.assert_array_equal(p, plies)
        for a, b in zip(one, other):
            np.testing.assert_array_equal(a, b)


def test_bad_input_is_refused_with_its_name_and_plays_nothing():
    env = mancala_lab.VectorEnv("oware", 4)
    with pytest.raises(ValueError, match="step before reset"):
        env.step([0, 0, 0, 0])
    obs, info = env.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions: shape \(3,\), expected \(4,\)"):
        env.step([0, 0, 0])
    with pytest.raises(TypeError, match="actions: expected integer action ids"):
        env.step(np.zeros(4))
    # Pit A is empty after South sows it; North's a is not South's to play.
    obs, _, _, _, info = env.step([0, 0, 0, 0])
    with pytest.raises(ValueError, match=r"actions\[2\] = 9: not a legal action there"):
        env.step([0, 0, 9, 0])
    with pytest.raises(ValueError, match=r"actions\[0\] = -1"):
        env.step([-1, 0, 0, 0])
    # Nothing was played: the games are where they were.
    np.testing.assert_array_equal(env.plies(), [1, 1, 1, 1])
    for kwargs, error, words in [
        ({"game": "chess", "num_envs": 2}, ValueError, "game 'chess'"),
        ({"game": "kalah", "num_envs": 0}, ValueError, "num_envs 0"),
        ({"game": "kalah", "num_envs": 2.5}, TypeError, "num_envs: expected an int"),
        ({"game": "kalah", "num_envs": 2, "max_plies": 0}, ValueError, "max_plies 0"),
        ({"game": "kalah", "num_envs": 2, "threads": 65}, ValueError, "threads 65"),
        ({"game": "kalah", "num_envs": 2, "variant": "nope"}, ValueError, "variant: "),
        ({"game": "oware", "num_envs": 2, "variant": "strict"}, ValueError, "engine 'reference'"),
    ]:
        with pytest.raises(error, match=words):
            mancala_lab.VectorEnv(**kwargs)


def test_arrays_held_elsewhere_are_never_written_again():
    env = mancala_lab.VectorEnv("kalah", 8)
    obs, info = env.reset(seed=1)
    kept = obs
    first = obs.copy()
    obs, *_ = env.step(np.zeros(8, dtype=np.int64) + 2)
    assert obs is not kept
    np.testing.assert_array_equal(kept, first)


pyspiel = None
try:
    import pyspiel  # noqa: F811
except ImportError:
    pass


@pytest.mark.skipif(pyspiel is None, reason="open-spiel is not installed")
@pytest.mark.parametrize("game,theirs", [("kalah", "mancala"), ("oware", "oware")])
def test_random_actions_play_openspiels_games(game, theirs):
    # OpenSpiel's mancala numbers the pits of the whole board (South 1-6, North 8-13); ours
    # count from the mover's left. Its oware numbers them as we do.
    offset = {"kalah": (1, 8), "oware": (0, 0)}[game]
    n = 16
    spiel = pyspiel.load_game(theirs)
    env = mancala_lab.VectorEnv(game, n, "openspiel" if game == "kalah" else "abapa")
    obs, info = env.reset(seed=0)
    states = [spiel.new_initial_state() for _ in range(n)]
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(400):
        for i, s in enumerate(states):
            player = s.current_player()
            assert info["to_move"][i] == player
            ours = [a + offset[player] for a in np.flatnonzero(info["action_mask"][i])]
            assert ours == s.legal_actions()
        actions = legal_choice(rng, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(actions)
        for i, s in enumerate(states):
            s.apply_action(int(actions[i]) + offset[s.current_player()])
            assert terminated[i] == s.is_terminal()
            if s.is_terminal():
                ends += 1
                np.testing.assert_array_equal(info["rewards"][i], s.returns())
                states[i] = spiel.new_initial_state()
    assert ends > 20
