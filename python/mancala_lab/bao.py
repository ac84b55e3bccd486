"""Bao la Kiswahili (the rules in the project's spec/bao.md)."""

from typing import Optional

from ._game import Game as _Game


class Game(_Game):
    """Bao under a reading: ``Game(variant="default", infinite="exact")``; ``infinite``
    (``exact`` or ``sown:N``) overrides the reading's definition of an infinite move."""

    name = "bao"
    default_variant = "default"

    def __init__(self, variant: Optional[str] = None, infinite: Optional[str] = None,
                 engine: Optional[str] = None):
        super().__init__(variant, engine, infinite=infinite)
