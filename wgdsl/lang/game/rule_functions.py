"""Rule functions: the pure Python a game file may name (``rule NAME from "MODULE:FUNCTION"``).

A game file is declarative where a designer would change it; what is a table or an
algorithm (a hand test, a scoring formula, who beats whom by a rule too long for a list)
is a pure function in a module of the ``wgdsl.games`` package, marked with
:func:`rule_function` and the use it is for.  Loading a game file resolves each name it
gives and refuses a function that is not marked, or marked for another use, so a game file
can reach no other code (``wgdsl.games.described.hooks``).

The uses, and what the function is given and returns:

``compare``
    ``fn(choices)``: ``choices`` maps each seat that chose, in turn order from the
    active seat, to its choice (a sign, as a string, or the card chosen, a
    :class:`~wgdsl.lang.game.spec.CardSpec`: ``id``, ``name``, ``kind``, ``stat(name)``);
    returns the seats that win the comparison (none, one or several).

``effect``
    ``fn(ctx)``: carries out one effect of a card (``effect NAME ... from "..."``); ``ctx``
    is the effect context of the engine that plays the game (its module documents it).

``engine``
    ``fn(spec, effects)``: the game object (engine-api.md's Game) of a game file with
    ``played by``; ``spec`` is its :class:`~wgdsl.lang.game.spec.GameSpec`, ``effects``
    maps each effect's name to its resolved rule function.
"""

from __future__ import annotations

from typing import Callable

# use -> what a function of that use is given and returns (for messages)
USES = {
    "compare": "fn(choices: {seat: sign or card}) -> the seats that win",
    "effect": "fn(ctx: the engine's effect context) -> None",
    "engine": "fn(spec: GameSpec, effects: {name: function}) -> the game",
}
MARK = "__wgdsl_rule__"


def rule_function(use: str) -> Callable:
    """Mark a pure function as a rule function a game file may name for ``use``."""
    if use not in USES:
        raise ValueError(f"unknown use {use!r} of a rule function; the uses are {', '.join(USES)}")

    def mark(fn: Callable) -> Callable:
        setattr(fn, MARK, use)
        return fn

    return mark
