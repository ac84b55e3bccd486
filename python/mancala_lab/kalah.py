"""Kalah (the rules in the project's spec/kalah.md)."""

from typing import Optional

from ._game import Game as _Game


class Game(_Game):
    """Kalah under a reading: ``Game(variant="openspiel")`` (OpenSpiel's ``mancala``, Kalah(6,4));
    the board is part of the reading, ``Game(variant="empty-capture:pits=6,seeds=5")``."""

    name = "kalah"
    default_variant = "openspiel"

    def __init__(self, variant: Optional[str] = None, engine: Optional[str] = None):
        super().__init__(variant, engine)
