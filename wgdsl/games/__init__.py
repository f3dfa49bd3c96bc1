"""The games wgdsl plays, each in its own folder, and :func:`load_game`.

A game is an object with ``id``, ``name``, ``seat_range`` and ``new_state(...)``
(wgdsl.kernel.api.Game, engine-api.md).  Built-in games are found by id here; each is
imported only when asked for (``import wgdsl`` stays light).  Any other game is a game
file (``.game``, docs/games.md), played by :mod:`wgdsl.games.described`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Union


_LOADED: dict = {}


def _world_gainer():
    """World Gainer: its game file names its engine (``played by``) and its card set;
    read once per process."""
    if "world-gainer" not in _LOADED:
        from wgdsl.games.described import load_game_file
        from wgdsl.resources import world_gainer_game_path

        _LOADED["world-gainer"] = load_game_file(world_gainer_game_path())
    return _LOADED["world-gainer"]


def _getgem():
    """GETGEM: its game file names its engine (``played by``); read once per process."""
    if "getgem" not in _LOADED:
        from wgdsl.games.described import load_game_file
        from wgdsl.games.getgem import GAME_FILE

        _LOADED["getgem"] = load_game_file(GAME_FILE)
    return _LOADED["getgem"]


def _wonderful_world():
    """It's a Wonderful World: its game file names its engine; read once per process."""
    if "wonderful-world" not in _LOADED:
        from wgdsl.games.described import load_game_file
        from wgdsl.games.wonderful_world import GAME_FILE

        _LOADED["wonderful-world"] = load_game_file(GAME_FILE)
    return _LOADED["wonderful-world"]


def _imitation_world():
    """Imitation World: its game file names its engine; read once per process."""
    if "imitation-world" not in _LOADED:
        from wgdsl.games.described import load_game_file
        from wgdsl.games.imitation_world import GAME_FILE

        _LOADED["imitation-world"] = load_game_file(GAME_FILE)
    return _LOADED["imitation-world"]


# id -> a function that imports the game and returns it
BUILTIN = {
    "world-gainer": _world_gainer,
    "getgem": _getgem,
    "wonderful-world": _wonderful_world,
    "imitation-world": _imitation_world,
}


def is_game_file(name: Union[str, Path]) -> bool:
    """Does ``name`` look like the path of a game file rather than a built-in id?"""
    text = str(name)
    return text.endswith(".game") or os.sep in text or "/" in text or Path(text).is_file()


def load_game(name: Union[str, Path]):
    """The game ``name``: a built-in id such as ``"world-gainer"``, or the path of a game
    file (``examples/games/war.game``).  ValueError names the games there are; a game file
    with errors raises ``wgdsl.games.described.GameFileError`` (a ValueError whose message
    is the file's diagnostics, each at its line and column)."""
    found = BUILTIN.get(str(name))
    if found is not None:
        return found()
    if is_game_file(name):
        from wgdsl.games.described import load_game_file

        return load_game_file(name)
    raise ValueError(f"unknown game {str(name)!r}; the built-in games are: {', '.join(BUILTIN)}, "
                     "or give the path of a game file (FILE.game, docs/games.md)")
