"""Shared fixtures of the package's tests."""

import functools
import random

import pytest

from mancala_lab import _native


@pytest.fixture
def silent_bao_actions():
    """The action ids of a strict Bao game that stops where the rules are silent (found once)."""
    return list(_silent_bao_game())


@functools.cache
def _silent_bao_game():
    """The action ids of a random Bao game under the `strict` reading that stops where the rules
    are silent (2.1.2 against 1.3, the one point open under `strict`; about 1 random game in
    200 gets there)."""
    rng = random.Random(11)
    for _ in range(3000):
        s = _native.State("bao", "strict")
        actions = []
        while not s.is_over() and len(actions) < 600:
            a = rng.choice(s.legal_actions())[0]
            s.play_action(a)
            actions.append(a)
        if s.winner() == "none":
            assert s.end_clause() == "silent:2.1.2"
            return tuple(actions)
    raise AssertionError("no strict game of 3000 stopped where the rules are silent")
