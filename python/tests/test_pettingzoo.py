"""The PettingZoo environments: PettingZoo's API test, and whole games played by the masks."""

import re

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")

from pettingzoo.test import api_test  # noqa: E402

from mancala_lab import pettingzoo as pz  # noqa: E402


@pytest.mark.parametrize("game", ["bao", "oware", "kalah"])
def test_pettingzoos_api_test(game):
    api_test(pz.env(game), num_cycles=400, verbose_progress=False)


@pytest.mark.parametrize("game", ["bao", "oware", "kalah"])
def test_a_game_played_by_the_masks_ends_with_a_result(game):
    env = pz.env(game, render_mode="ansi")
    rng = np.random.default_rng(5)
    for episode in range(3):
        env.reset(seed=episode)
        total = {a: 0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            total[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0
            env.step(int(rng.choice(legal)))
        assert sorted(total.values()) in ([-1, 1], [0, 0])
        assert env.render().startswith("to_move:")


def test_the_svg_rendering_draws_the_board():
    env = pz.env("oware", render_mode="svg")
    env.reset()
    env.step(2)  # South's C: 4 seeds to D, E, F and North's a (O.2.3)
    svg = env.render()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert re.search(r">\s*North to move\s*<", svg)
    # The counts after C, by hand: South 4 4 0 5 5 5, North a-f 5 4 4 4 4 4.
    counts = [int(t) for t in re.findall(r">\s*(\d+)\s*<", svg)]
    assert sorted(counts[:12]) == sorted([4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4])


def test_a_game_ends_level_where_strict_rules_are_silent(silent_bao_actions):
    env = pz.env("bao", variant="strict")
    env.reset()
    for a in silent_bao_actions:
        obs, _, terminated, _, _ = env.last()
        assert not terminated and obs["action_mask"][a] == 1
        env.step(a)
    _, reward, terminated, _, _ = env.last()
    assert terminated and reward == 0


def test_bad_settings_are_value_errors():
    with pytest.raises(ValueError, match="expected 'bao', 'oware' or 'kalah'"):
        pz.env("chess")
    with pytest.raises(ValueError, match="unknown Oware variant"):
        pz.env("oware", variant="nope")
    with pytest.raises(ValueError, match="render_mode 'rgb_array'"):
        pz.env("oware", render_mode="rgb_array")
    for bad, error in ((0, ValueError), (-1, ValueError), ("x", TypeError), (None, TypeError)):
        with pytest.raises(error, match="max_plies"):
            pz.raw_env("oware", max_plies=bad)
    with pytest.raises(ValueError, match="expected 'bao', 'oware' or 'kalah'"):
        pz.env(["bao"])
    assert pz.raw_env("oware", max_plies=np.int64(5)).max_plies == 5
    env = pz.raw_env("oware", render_mode="ansi")
    for early in (env.render, lambda: env.step(0), env.last):
        with pytest.raises(RuntimeError, match="call reset"):
            early()
    env.reset()
    with pytest.raises(ValueError, match="agent 'nobody'"):
        env.observe("nobody")
    with pytest.raises(TypeError, match="action: expected an action id"):
        env.step(3.5)
