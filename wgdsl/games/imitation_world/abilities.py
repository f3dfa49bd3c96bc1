"""Imitation World's abilities as small records the engine runs (IW R21).

A card's abilities are compiled ONCE, when its card set is loaded, into the records below;
the engine (:mod:`.state`) reads their fields during play and never walks a card's text.
The records name no card: a card is "this", "the geuda this enchant is attached to", "your
geuda", "the chosen card".  They are written by the card language's compiler (the words of
docs/language.md, "Imitation World's words") or, in tests, by hand.

Kinds (IW R21.1):

- :class:`Modifier` — 常時 (continuous): ``stat`` (``atk``/``def``) ``+ amount`` for the geuda
  ``who`` names, while the card is on the field (an aga: while face up, IW R19.5; an
  enchant: ``who="attached"``; a territory: "you" is its controller, IW R13.4);
- :class:`JudgmentModifier` — 判定時: this geuda's ``stat + amount`` only while a judgment of
  one of ``kinds`` is computed, and only in ``role`` (IW R21.1, R21.4);
- :class:`Trigger` — 登場時 (``enter``), アウト時 (``out``), ターン開始時 (``turn_start``),
  ターン終了時 (``turn_end``), for ``whose`` turn, with an optional ``condition`` checked
  on trigger and on resolution; ``effect`` is a tuple of :class:`Op`;
- :class:`Activated` — 【起動】: ``cost`` (``"pan"``), a ``choose`` made on activation and
  its ``effect``;
- :class:`OnPlay` — an eventi's effect with its ``choose`` made on play (IW R14.2);
- :class:`Attach` — an enchant's limit: ``onto`` ``"yours"`` or ``"any"`` (IW R12.1).

An :class:`Op` is one instruction: ``draw`` (``who`` ``you``/``active``, ``n``);
``look_top_may_bottom``; ``pan_chosen``; ``chosen_to`` (``zone`` trash/past/hand/
deck_bottom); ``self_to`` (``zone``); ``mod_chosen`` (``stat``, ``n``, until end of turn);
``may`` (``then``: ops run on yes); ``choose`` (``select`` and ``then``: a question as the
ability resolves, IW R21.3).  A :class:`Select` names what may be chosen: ``what``
(``geuda``, ``geuda_or_territory``, ``trash_card``, ``trash_geuda``), ``side``
(``yours``, ``opponent``, ``any``) and ``state`` (``pan``, ``ripan`` or None).
"""

from __future__ import annotations

from typing import Optional

import attrs

TIMINGS = ("enter", "out", "turn_start", "turn_end")
OPS = ("draw", "look_top_may_bottom", "pan_chosen", "chosen_to", "self_to", "mod_chosen",
       "may", "choose")


@attrs.frozen
class Select:
    what: str = "geuda"
    side: str = "any"
    state: Optional[str] = None


@attrs.frozen
class Op:
    op: str
    who: str = "you"
    n: int = 1
    zone: str = ""
    stat: str = ""
    select: Optional[Select] = None
    then: tuple = ()

    def __attrs_post_init__(self):
        if self.op not in OPS:
            raise ValueError(f"unknown ability instruction {self.op!r}; one of {', '.join(OPS)}")


@attrs.frozen
class Condition:
    """``trash_not_empty``: the controller's trash holds a card."""

    kind: str = "trash_not_empty"


@attrs.frozen
class Modifier:
    stat: str
    amount: int
    who: str = "attached"  # this | attached | your_geuda | all_geuda
    faction: Optional[str] = None


@attrs.frozen
class JudgmentModifier:
    stat: str
    amount: int
    kinds: frozenset = frozenset({"survival", "barrier", "aga"})
    role: Optional[str] = None  # None | "blocker" | "attacker"


@attrs.frozen
class Trigger:
    timing: str
    effect: tuple
    whose: str = "yours"  # yours | any
    condition: Optional[Condition] = None

    def __attrs_post_init__(self):
        if self.timing not in TIMINGS:
            raise ValueError(f"unknown timing {self.timing!r}; one of {', '.join(TIMINGS)}")


@attrs.frozen
class Activated:
    effect: tuple
    choose: Optional[Select] = None
    cost: str = "pan"


@attrs.frozen
class OnPlay:
    effect: tuple
    choose: Optional[Select] = None


@attrs.frozen
class Attach:
    onto: str = "any"


@attrs.frozen
class Abilities:
    """One card's compiled abilities, sorted by kind for the engine's reads."""

    modifiers: tuple = ()
    judgment: tuple = ()
    triggers: tuple = ()
    activated: Optional[Activated] = None
    on_play: Optional[OnPlay] = None
    attach: Attach = Attach()

    @classmethod
    def of(cls, records) -> "Abilities":
        mods, judg, trig = [], [], []
        act = play = None
        attach = Attach()
        for r in records:
            if isinstance(r, Modifier):
                mods.append(r)
            elif isinstance(r, JudgmentModifier):
                judg.append(r)
            elif isinstance(r, Trigger):
                trig.append(r)
            elif isinstance(r, Activated):
                act = r
            elif isinstance(r, OnPlay):
                play = r
            elif isinstance(r, Attach):
                attach = r
            else:
                raise ValueError(f"not an ability record: {r!r}")
        return cls(tuple(mods), tuple(judg), tuple(trig), act, play, attach)

    def timed(self, timing: str) -> tuple:
        return tuple(t for t in self.triggers if t.timing == timing)


NONE = Abilities()
