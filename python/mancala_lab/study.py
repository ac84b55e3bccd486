"""Stats studies from Python: ``run_study`` runs, resumes and finishes the study of a folder, the
same four files (games.csv, clauses.csv, summary.csv, manifest.json) as ``mancala-lab stats``."""

import os
import shlex
import sys
from typing import Iterable, Optional


def run_study(out, *, command: Optional[Iterable[str]] = None, **options) -> dict:
    """Runs the study ``options`` describe into the folder ``out`` (or, with ``resume=True``,
    continues the one there), on every core without holding the interpreter.

    The options are those of ``mancala-lab stats`` as keywords: ``game``, ``variant``,
    ``engine``, ``games``, ``seed``, ``policy``, ``south``, ``north``, ``max_plies``,
    ``opening``, ``shard``, ``threads``, ``resume``, ``force``, ``no_space_check``. The manifest
    records ``command`` as the command that started the study (default: this Python process's
    command line). Ctrl-C stops the study between games with every row whole and raises
    ``KeyboardInterrupt``; ``resume=True`` goes on from there. A bad option, or a folder that
    cannot be used, raises ``ValueError`` naming the option. Returns ``finished`` (whether every
    game is played), ``games_done`` and, for a finished study, its range and job.
    """
    from . import _native

    if command is None:
        command = [shlex.quote(w) for w in [sys.executable, *sys.argv]]
    return _native.run_study(os.fspath(out), command=list(command), **options)
