"""Holding a game's straight path (its own is_terminal, legal_actions and apply for the
public loop's common case, issue 17) to the kernel's path over the same game.

``fast`` is the game's state as it is; ``slow`` a subclass of it with the kernel's
methods back (so every hook is called).  :func:`play_both` steps the two with the same
picks to the end of the game, asserting at every step the same terminal flag, the same
current seats and every seat's same legal list, and every ``every``th step the same
``probe(state, seat, legal)`` (refusals, clones, ...).  :func:`play_twins` steps a state
and a twin with shortcuts of its own taken out (or put in) alike, by the actions' texts.
"""

from __future__ import annotations

import random
from typing import Callable

from wgdsl.kernel.decision import Answer
from wgdsl.kernel.errors import IllegalAction


def play_both(fast, slow, rnd: random.Random, probe: Callable, every: int) -> int:
    """Step ``fast`` and ``slow`` alike to the end; returns how many steps answered a
    question (a test asserts there were some: the questions were stepped too)."""
    questions = n = 0
    while True:
        assert fast.is_terminal() == slow.is_terminal()
        if fast.is_terminal():
            return questions
        assert fast.current_seats() == slow.current_seats()
        seat = fast.current_seats()[0]
        legal = fast.legal_actions(seat)
        assert [fast.legal_actions(s) for s in fast.seats] \
            == [slow.legal_actions(s) for s in slow.seats]
        if n % every == 0:
            assert probe(fast, seat, legal) == probe(slow, seat, legal)
        questions += isinstance(legal[0], Answer)
        action = legal[rnd.randrange(len(legal))]
        fast.apply(seat, action)
        slow.apply(seat, action)
        n += 1


def play_twins(first, twin, rnd: random.Random, check: Callable) -> None:
    """Step ``first`` and ``twin`` alike to the end, a seat picked among the current ones
    (simultaneous windows included) and its action given to ``twin`` by its text
    (``parse_action``: the twin's own action objects); ``check(first, twin)`` before every
    step and at the end."""
    while True:
        check(first, twin)
        if first.is_terminal():
            return
        seat = rnd.choice(first.current_seats())
        legal = first.legal_actions(seat)
        k = rnd.randrange(len(legal))
        first.apply(seat, legal[k])
        twin.apply(seat, twin.parse_action(seat, str(legal[k])))


def outcome(fn: Callable) -> tuple:
    """What a call did: its value, or the refusal's text and rule (no traceback)."""
    try:
        return ("ok", fn())
    except IllegalAction as err:
        return ("refused", str(err), err.rule)


def wrong_applies(state, seat: str, legal: list, wrong: list, with_log: bool = False) -> list:
    """Each wrong ``(who, action)`` applied on a clone of ``state`` whose list for ``seat``
    is kept (as in the loop), then ``legal[-1]`` applied on a clone with no list asked for
    (the action is checked all the same): each one's outcome and the clone's ``to_dict()``
    (and log, ``with_log``)."""
    seen = []
    for who, action in wrong:
        twin = state.clone()
        twin.legal_actions(seat)  # the straight path's list is kept, as in the loop
        seen.append(outcome(lambda: twin.apply(who, action)))
        seen.append(twin.to_dict())
        if with_log:
            seen.append(twin.log)
    twin = state.clone()
    seen.append(outcome(lambda: twin.apply(seat, legal[-1])))
    seen.append(twin.to_dict())
    return seen
