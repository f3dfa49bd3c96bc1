"""Decisions as data: a question a game waits on, and the action that answers it.

A game's engine meets a choice in the middle of an action (a "may", a target, the order of
triggers).  For a caller that steps the game from outside (engine-api.md), the choice is
a :class:`Decision` held in the state: its seat is the one ``current_seats()`` names, and
its answers are :class:`Answer` actions in ``legal_actions(seat)``.  An engine stops at a
choice by raising :class:`Suspend` (a BaseException, so no ``except Exception`` of an
effect can swallow it) and the state keeps the decision as plain data.
"""

from __future__ import annotations

from typing import NamedTuple

import attrs


@attrs.frozen
class Decision:
    """``seat`` must choose one of ``options`` (answer strings: a square, ``slot 2``, a
    card id, ``yes``/``no``, a color) for ``prompt``.  ``kind`` is ``"choice"`` or
    ``"yes_no"``; ``rule`` the rule of the game that asks it (an answer that is not an
    option is refused citing it); ``private``: the options name cards hidden from the
    other seats, so they see only that ``seat`` is choosing."""

    seat: str
    kind: str
    prompt: str
    options: tuple
    rule: str = ""
    private: bool = False

    def to_dict(self) -> dict:
        return {"seat": self.seat, "kind": self.kind, "prompt": self.prompt,
                "options": list(self.options), "rule": self.rule}


class Answer(NamedTuple):
    """The action that answers a pending :class:`Decision`: ``str()`` is
    ``"<seat> answer <option>"``, the form a ruling case or a person writes."""

    seat: str
    option: str

    @property
    def kind(self) -> str:
        return "answer"

    def __str__(self) -> str:
        return f"{self.seat} answer {self.option}"

    def to_dict(self) -> dict:
        return {"kind": "answer", "seat": self.seat, "option": self.option}


class Suspend(BaseException):
    """Raised by an engine that meets a decision no in-process agent answers."""

    def __init__(self, decision: Decision):
        super().__init__(decision.prompt)
        self.decision = decision
