"""Rule functions any game file may name: small algorithms a list of pairs cannot say.

Name one in a game file with ``rule NAME from "wgdsl.games.described.library:FUNCTION"``
and use it as ``compare by rule NAME`` (docs/games.md, "Rule functions").  Each is pure:
it reads the choices it is given and returns the seats that win.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping

from wgdsl.lang.game.rule_functions import rule_function


def _key(choice) -> str:
    """A sign is itself; a card counts by its id."""
    return choice if isinstance(choice, str) else choice.id


@rule_function("compare")
def odd_one_out(choices: Mapping) -> tuple:
    """The one seat whose choice nobody else made; nobody when no seat, or more than one,
    stands alone (with two seats, two different choices are both alone: nobody wins)."""
    counts = Counter(_key(c) for c in choices.values())
    alone = [seat for seat, c in choices.items() if counts[_key(c)] == 1]
    return tuple(alone) if len(alone) == 1 else ()


@rule_function("compare")
def majority(choices: Mapping) -> tuple:
    """The seats that made the most common choice, when one choice is more common than
    every other; nobody on a tie for most common."""
    counts = Counter(_key(c) for c in choices.values())
    if not counts:
        return ()
    ranked = counts.most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return ()
    best = ranked[0][0]
    return tuple(seat for seat, c in choices.items() if _key(c) == best)
