"""The games wgdsl plays, each in its own folder, and :func:`load_game`.

A game is an object with ``id``, ``name``, ``seat_range`` and ``new_state(...)``
(wgdsl.kernel.api.Game, engine-api.md).  Built-in games are found by id here; each is
imported only when asked for (``import wgdsl`` stays light).
"""

from __future__ import annotations


def _world_gainer():
    from wgdsl.games.world_gainer.api import GAME

    return GAME


# id -> a function that imports the game and returns it
BUILTIN = {
    "world-gainer": _world_gainer,
}


def load_game(name: str):
    """The game ``name`` (a built-in id such as ``"world-gainer"``).  ValueError names the
    games there are."""
    found = BUILTIN.get(str(name))
    if found is None:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(BUILTIN)} "
                         "(game files of your own come with the game-file format)")
    return found()
