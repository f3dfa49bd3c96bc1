"""Which waiting ability resolves next: one rule for every game with triggered abilities.

World Gainer (R13.5) and Imitation World (IW R21.2) resolve the abilities that wait, one at
a time, by the same rule: all waiting abilities — older and newer alike — are taken the
active seat's first, then the other's; that seat picks which of its own goes next, while
two or more of them can be told apart.  Abilities of the same kind (the same card and the
same ability, as each game tells kinds apart) are one option, never a question.

The games differ only in what a "kind" is and how an option is written; they pass those,
and the question itself (``ask(seat, options) -> option``), which each game asks its own
way (an answer from a bot, a scripted answer, a Suspend for the kernel's Stepper).
"""

from __future__ import annotations

from typing import Callable, Hashable, Sequence, TypeVar

W = TypeVar("W")


def next_to_resolve(waiting: Sequence[W], active: str, seat_of: Callable[[W], str],
                    kind_of: Callable[[W], Hashable], label_of: Callable[[W], str],
                    ask: Callable[[str, list], str]) -> W:
    """The ability of ``waiting`` (not empty) that resolves next.  The options asked are
    the labels of the kinds waiting, in the order first met; the first ability of the kind
    picked resolves."""
    mine = [w for w in waiting if seat_of(w) == active] or list(waiting)
    first = mine[0]
    if len(mine) == 1:
        return first
    options: dict = {}  # label -> the first waiting ability of the kind it names
    kinds = set()
    for w in mine:
        kind = kind_of(w)
        if kind in kinds:
            continue
        kinds.add(kind)
        options.setdefault(label_of(w), w)
    if len(options) == 1:
        return first
    return options[ask(seat_of(first), list(options))]
