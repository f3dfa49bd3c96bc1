"""GETGEM's actions as text (getgem.md R18.3) and why an action is refused.

:func:`parse_action` reads every form of R18.3's table (card ids in any order) and an
answer written either alone (``push ID``) or as the kernel writes it (``B answer push
ID``); :func:`refusal` says, with the rule, why an action that is not legal now is not.
"""

from __future__ import annotations

from typing import Any

import attrs

from wgdsl.kernel.decision import Answer
from wgdsl.kernel.errors import IllegalAction

from . import rules
from .cards import ELEMENTS

_ANSWER_WORDS = ("barrier", "no_barrier", "push", "take", "discard", "take_back")


def parse_action(state, seat: str, text: str):
    """The action ``text`` stands for (not yet checked for legality: ``apply`` does);
    IllegalAction when it is no form of R18.3."""
    from .state import Move

    words = str(text).split()
    if len(words) >= 3 and words[1] == "answer":
        if words[0] != seat:
            raise IllegalAction(f"`{text}` is {words[0]}'s answer, not {seat}'s", "GG R14.3")
        words = words[2:]
    if not words:
        raise IllegalAction("an empty action; " + _FORMS, "GG R18.3")
    kind, rest = words[0], words[1:]
    q = state.d.q
    if q is not None or kind in _ANSWER_WORDS and kind not in ("take",):
        if kind in _ANSWER_WORDS and (len(rest) == 1 or (not rest and kind in ("barrier",
                                                                                "no_barrier"))):
            return Answer(seat, " ".join(words))
        if q is not None:
            answers = ", ".join(a.option for a in state.legal_actions(q["seat"]))
            raise IllegalAction(f"`{text}`: {q['seat']} is asked `{q['kind']}` now and "
                                f"answers it with one of: {answers}", "GG R14.3")
    if kind == "take" and len(rest) == 1:
        return Answer(seat, " ".join(words))
    if kind == "use" and 1 <= len(rest) <= 3:
        card, tail = rest[0], rest[1:]
        effect = target = None
        if tail and tail[-1] in state.seats:
            target = tail.pop()
        if tail:
            effect = tail.pop()
        if not tail:
            return Move("use", card, effect, target)
    elif kind == "gem_steal" and len(rest) == 4:
        return Move("gem_steal", cards=tuple(sorted(rest[:3])), target=rest[3])
    elif kind == "element" and len(rest) == 1:
        return Move("element", element=rest[0])
    elif kind == "declare" and len(rest) == 3:
        return Move("declare", cards=tuple(sorted(rest)))
    elif kind in ("end", "pass") and not rest:
        return Move(kind)
    raise IllegalAction(f"`{text}` is not a GETGEM action; " + _FORMS, "GG R18.3")


_FORMS = ("the forms are: use ID [EFFECT] [SEAT], gem_steal ID ID ID SEAT, element fire|water|"
          "thunder, end, declare ID ID ID, pass, and the answers barrier, no_barrier, push ID, "
          "take ID, discard ID, take_back ID")


def refusal(state, seat: str, action: Any) -> IllegalAction:
    """Why ``action`` (of the current ``seat``, not among its legal actions) is refused."""
    from .state import Move

    d = state.d
    table = state.table
    q = d.q
    if q is not None:
        return IllegalAction(f"{seat} must answer `{q['kind']}` with one of: "
                             + ", ".join(str(a.option) for a in state.legal_actions(seat)),
                             "GG R14.3")
    if isinstance(action, Answer):
        return IllegalAction("there is no question to answer now", "GG R14.3")
    if not isinstance(action, Move):
        return IllegalAction(f"{action!r} is not a GETGEM action; {_FORMS}", "GG R18.3")
    hand = d.hands[seat]
    if list(action.cards) != sorted(action.cards):
        shown = attrs.evolve(action, cards=tuple(sorted(action.cards)))
        return IllegalAction(f"an action lists its cards in ascending id order: `{shown}`",
                             "GG R18.3")
    if d.phase == "end" and action.kind not in ("declare", "pass"):
        return IllegalAction(f"the action phase is over: {seat} declares (declare ID ID ID) "
                             "or passes", "GG R11.1")
    if d.phase == "action" and action.kind in ("declare", "pass"):
        return IllegalAction(f"{seat} declares only at the end phase: end the action phase "
                             "first (`end`)", "GG R11.1")
    target = action.target
    if target is not None and target not in state.seats:
        return IllegalAction(f"no seat {target}; the seats are {', '.join(state.seats)}",
                             "GG R1.1")
    if target == seat:
        return IllegalAction(f"{seat} selects another player, never itself", "GG R7.3")
    if action.kind == "use":
        card = table.cards.get(action.card)
        if card is None:
            return IllegalAction(f"no card {action.card} in this set", "GG R2.5")
        if card.kind != "action":
            return IllegalAction(f"{action.card} is not an action card", "GG R2.2")
        if action.card not in hand:
            return IllegalAction(f"{seat} holds no {action.card}", "GG R7.1")
        names = card.effects
        effect = action.effect if action.effect is not None else (names[0] if len(names) == 1
                                                                  else None)
        if effect is None or (action.effect is not None and len(names) == 1):
            return IllegalAction(f"{action.card} has " + (
                f"two effects: name one ({' or '.join(names)})" if len(names) > 1 else
                f"one effect: write `use {action.card}` without one"), "GG R7.2")
        if effect not in names:
            return IllegalAction(f"{action.card} has no effect {effect} (its effects: "
                                 f"{', '.join(names)})", "GG R7.2")
        spec = table.effects[effect]
        if spec.response:
            return IllegalAction(f"{effect} is used only in answer to a selection, never in "
                                 "the action phase", "GG R7.2")
        if spec.once_per_turn and d.peeping_used:
            return IllegalAction(f"{effect} is used once per turn, and it was used this turn",
                                 "GG R8.5")
        if spec.selects and target is None:
            return IllegalAction(f"{effect} selects another player: add a seat", "GG R7.3")
        if not spec.selects and target is not None:
            return IllegalAction(f"{effect} selects no player: no seat is written", "GG R8.3")
    elif action.kind == "gem_steal":
        if target is None:
            return IllegalAction("a gem steal selects another player", "GG R9.1")
        missing = rules.multiset_minus(list(action.cards), hand)
        missing = [c for c in action.cards if action.cards.count(c) > hand.count(c)]
        if missing:
            return IllegalAction(f"{seat}'s hand lacks {' '.join(sorted(set(missing)))}", "GG R9.1")
        if any(not table.is_gem(c) for c in action.cards):
            return IllegalAction("a gem steal discards three gem cards", "GG R9.1")
        if any(c in table.undiscardable for c in action.cards):
            return IllegalAction("the cursed gem can never be discarded", "GG R10.4")
    elif action.kind == "element":
        if action.element not in ELEMENTS:
            return IllegalAction(f"no element {action.element}: fire, water or thunder", "GG R9.2")
        if action.element in d.elements[seat]:
            return IllegalAction(f"{seat} owns the {action.element} element card already", "GG R9.2")
        return IllegalAction(f"the element trade discards two {action.element} gems (never a "
                             "rainbow)", "GG R9.2")
    elif action.kind == "declare":
        if d.declared[seat]:
            return IllegalAction(f"{seat} is declaring already", "GG R11.2")
        if [c for c in action.cards if action.cards.count(c) > hand.count(c)]:
            return IllegalAction(f"{seat} must place 3 cards of its hand", "GG R11.2")
        return IllegalAction("those 3 cards and the element cards owned do not cover fire, "
                             "water and thunder", "GG R11.2")
    return IllegalAction(f"`{action}` is not one of {seat}'s legal actions now", "GG R6.1")


def written_answer(legal: list, written: str):
    """The answer among ``legal`` (a question's Answer actions) that ``written`` names as a
    ruling case or a command line writes it: ``yes`` / ``no`` for ``barrier``, a card id
    for the others (getgem.md "What a ruling case needs"); None when it names none."""
    want = {"yes": "barrier", "no": "no_barrier"}.get(written, written)
    return next((a for a in legal if a.option == want or a.option.split()[-1] == want), None)
