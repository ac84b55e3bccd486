"""Stats studies from Python: ``run_study`` runs, resumes and finishes the study of a folder, the
same four files (games.csv, clauses.csv, summary.csv, manifest.json) as ``mancala-lab stats``."""

import numbers
import os
import shlex
import sys
from typing import Iterable, Optional

#: The whole-number options, each with its smallest and largest value.
_NUMBERS = {
    "games": (0, 2**64 - 1),
    "seed": (0, 2**64 - 1),
    "max_plies": (0, 2**32 - 1),
    "opening": (0, 2**32 - 1),
    "threads": (1, 64),
}


def _number(name: str, value):
    """``value`` checked as the whole-number option ``name`` (None: not given)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected an int, not {type(value).__name__}")
    low, high = _NUMBERS[name]
    if not low <= int(value) <= high:
        raise ValueError(f"{name} {int(value)}: expected {low} to {high}")
    return int(value)


def _text(name: str, value):
    """``value`` checked as the text option ``name`` (None: not given)."""
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name}: expected a str, not {type(value).__name__}")
    return value


def _flag(name: str, value) -> bool:
    """``value`` checked as the yes-or-no option ``name``."""
    if not isinstance(value, bool):
        raise TypeError(f"{name}: expected True or False, not {type(value).__name__}")
    return value


def run_study(out, *, game: Optional[str] = None, variant: Optional[str] = None,
              engine: Optional[str] = None, games: Optional[int] = None,
              seed: Optional[int] = None, policy: Optional[str] = None,
              south: Optional[str] = None, north: Optional[str] = None,
              max_plies: Optional[int] = None, opening: Optional[int] = None,
              shard: Optional[str] = None, threads: Optional[int] = None,
              resume: bool = False, force: bool = False, no_space_check: bool = False,
              command: Optional[Iterable[str]] = None) -> dict:
    """Runs the study the options describe into the folder ``out`` (or, with ``resume=True``,
    continues the one there), on every core without holding the interpreter.

    The options are those of ``mancala-lab stats``, with its defaults: ``game`` (bao),
    ``variant``, ``engine``, ``games`` (1000), ``seed`` (1), ``policy`` (random), ``south``,
    ``north``, ``max_plies`` (2000), ``opening`` (0), ``shard`` (``"K/N"``), ``threads`` (1 to
    64; all cores), ``resume``, ``force``, ``no_space_check``. The manifest records ``command``
    (a list of words) as the command that started the study (default: this Python process's
    command line). Ctrl-C stops the study between chunks of games with every row whole and
    raises ``KeyboardInterrupt``; ``resume=True`` goes on from there. An option of the wrong
    type raises ``TypeError``, a bad value or a folder that cannot be used ``ValueError``, each
    naming the option. Returns ``finished`` (whether every game is played), ``games_done`` and
    ``total`` (the folder's games) and, for a finished study, its job (``game``, ``variant``,
    ``engine``, ``policy``, ``seed``, ``games``, ``max_plies``, ``opening``, ``shard``,
    ``threads``) and range (``first_game``, ``end_game``).
    """
    from . import _native

    path = os.fsdecode(os.fspath(out))
    if command is None:
        command = [shlex.quote(w) for w in [sys.executable, *sys.argv]]
    elif isinstance(command, (str, bytes)):
        raise TypeError("command: expected a list of words, not one string")
    options = dict(
        game=_text("game", game), variant=_text("variant", variant),
        engine=_text("engine", engine), policy=_text("policy", policy),
        south=_text("south", south), north=_text("north", north), shard=_text("shard", shard),
        games=_number("games", games), seed=_number("seed", seed),
        max_plies=_number("max_plies", max_plies), opening=_number("opening", opening),
        threads=_number("threads", threads), resume=_flag("resume", resume),
        force=_flag("force", force), no_space_check=_flag("no_space_check", no_space_check),
    )
    words = [_text("command", w) for w in command]
    return _native.run_study(path, command=words, **options)
