"""The PettingZoo environments: PettingZoo's API test, and whole games played by the masks."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")

from pettingzoo.test import api_test  # noqa: E402

from mancala_lab import pettingzoo as pz  # noqa: E402


@pytest.mark.parametrize("game", ["bao", "oware"])
def test_pettingzoos_api_test(game):
    api_test(pz.env(game), num_cycles=400, verbose_progress=False)


@pytest.mark.parametrize("game", ["bao", "oware"])
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


def test_bad_settings_are_value_errors():
    with pytest.raises(ValueError, match="expected 'bao' or 'oware'"):
        pz.env("chess")
    with pytest.raises(ValueError, match="unknown Oware variant"):
        pz.env("oware", variant="nope")
