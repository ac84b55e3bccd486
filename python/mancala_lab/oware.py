"""Oware (the rules in the project's spec/oware.md)."""

from typing import Optional

from ._game import Game as _Game


class Game(_Game):
    """Oware under a reading: ``Game(variant="sheet")`` (``abapa`` is OpenSpiel's)."""

    name = "oware"
    default_variant = "sheet"

    def __init__(self, variant: Optional[str] = None, engine: Optional[str] = None):
        super().__init__(variant, engine)
