"""The game-file language: a game's frame declared, not programmed (docs/games.md).

``game.lark`` is the grammar; :mod:`.parser` reads a file into :mod:`.ast` nodes with
syntax diagnostics; :mod:`.checker` reports what else is wrong and compiles a sound file
into a :class:`~.spec.GameSpec` (frozen plain data); :mod:`.rule_functions` marks the pure
Python functions a game file may name.  An engine that plays any spec is
``wgdsl.games.described``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

from wgdsl.files import Unreadable, read_text

from ..ast import NOWHERE, Pos
from ..diagnostics import Diagnostic
from .spec import GameSpec

SUFFIX = ".game"


def compile_text(text: str, path: str = "<game>") -> tuple[Optional[GameSpec], list[Diagnostic]]:
    """The spec of the game file ``text`` and every problem found (syntax first: a file
    with a syntax error is not checked further).  The spec is None when there is an error;
    warnings come with a spec."""
    from .checker import compile_game
    from .parser import parse

    game, problems = parse(text, path)
    if game is None:
        return None, problems
    return compile_game(game, text)


# A game file is a few kilobytes (World Gainer's whole frame, a few hundred lines); reading
# runs at about 50 µs a line, so a file of megabytes would take tens of seconds: refused
# above this size, with the reason.
MAX_GAME_BYTES = 256 * 1024


def read_source(path: Union[str, Path]) -> tuple[Optional[str], list[Diagnostic]]:
    """The text of a game file, or a diagnostic saying why it cannot be read (a directory,
    a FIFO, a file larger than :data:`MAX_GAME_BYTES`, text that is not UTF-8:
    wgdsl.files.read_text)."""
    try:
        return read_text(path, "game file", max_bytes=MAX_GAME_BYTES), []
    except Unreadable as err:
        pos = Pos(err.line, err.col, err.line, err.col + 1) if err.line else NOWHERE
        hint = err.hint
        if hint and hint.startswith("split the"):  # too large: a game file has no includes
            hint = ("a game file is a few kilobytes (one game's seats, zones, rounds and "
                    "cards); is this the file you meant?")
        return None, [Diagnostic(str(path), pos, err.message, hint)]
