"""Imitation World's abilities compiled from the card language (docs/language.md, section
17, "A game's words, and Imitation World's") into the engine's records (:mod:`.abilities`),
once per card set, when it is loaded: no AST is walked during play.

:func:`compile_card` reads one card's effects; what it does not know how to carry out is a
ValueError naming the card and the construct (the card set is then not played, rather than
played wrongly).  The patterns are the language's constructs, never a card's id or name.
"""

from __future__ import annotations

from typing import Optional

from wgdsl.lang import ast

from .abilities import (Activated, Attach, Condition, JudgmentModifier, Modifier, OnPlay, Op,
                        Select, Trigger)

EVENTS = {"enters": "enter", "out": "out", "turn_start": "turn_start", "turn_end": "turn_end"}
WHOSE = {"you": "yours", "every": "any", "opponent": "opponent", None: "yours"}


class Unsupported(ValueError):
    pass


def compile_card(card) -> list:
    """The ability records of ``card`` (an ``ast.Card`` read in Imitation World's words)."""
    out = []
    for eff in card.effects:
        try:
            out.extend(_effect(eff))
        except Unsupported as err:
            raise ValueError(f"card {card.id}: the Imitation World engine cannot carry out "
                             f"{err}") from None
    return out


def _effect(eff) -> list:
    if isinstance(eff, ast.StaticEffect):
        return [_modifier(r) for r in eff.rules]
    if isinstance(eff, ast.Attached):
        f = eff.filter
        return [Attach("yours" if f.owner == "you" else "any")] + [
            _modifier(r, attached=True) for r in eff.rules]
    if isinstance(eff, ast.WhenPlayed):
        select, rest = _leading_choice(eff.actions)
        return [OnPlay(_ops(rest), choose=select)]
    if isinstance(eff, ast.Activated):
        cost = eff.cost
        if not (isinstance(cost, ast.Turn) and isinstance(cost.what, ast.This)
                and cost.state == "pan"):
            raise Unsupported(f"the activation cost {cost!r} (only `turn this pan`)")
        select, rest = _leading_choice(eff.actions)
        return [Activated(_ops(rest), choose=select)]
    if isinstance(eff, ast.Triggered):
        ev = eff.event
        if ev is None:
            raise Unsupported("`dimension:` (World Gainer's; write `field when this enters "
                              "field:`)")
        if ev.kind == "judgment":
            mods = []
            for a in eff.actions:
                if not (isinstance(a, ast.Modify) and isinstance(a.target, ast.This)):
                    raise Unsupported(f"{a!r} at judgment (only `this gets STAT +N`)")
                mods.append(JudgmentModifier(a.stat, a.amount, frozenset(ev.judgments), ev.role))
            return mods
        timing = EVENTS.get(ev.kind)
        if timing is None:
            raise Unsupported(f"the event {ev.kind!r}")
        if timing in ("enter", "out") and not isinstance(ev.subject, ast.This):
            raise Unsupported(f"the event {ev.kind!r} of anything but this card")
        return [Trigger(timing, _ops(eff.actions), whose=WHOSE.get(ev.player, "yours"),
                        condition=_condition(eff.condition))]
    raise Unsupported(f"the effect {type(eff).__name__}")


def _modifier(rule, attached: bool = False) -> Modifier:
    if not isinstance(rule, ast.Modify) or rule.until is not None:
        raise Unsupported(f"the rule {rule!r} (only `SELECTOR gets STAT +N`)")
    t = rule.target
    if attached or isinstance(t, ast.ThatCard):
        return Modifier(rule.stat, rule.amount, who="attached")
    if isinstance(t, ast.This):
        return Modifier(rule.stat, rule.amount, who="this")
    if isinstance(t, (ast.All, ast.Every)):
        f = t.filter
        if f.noun != "geuda" or f.states or f.alternatives or len(f.values) > 1:
            raise Unsupported(f"the modified cards {f!r} (geuda, optionally yours and of a "
                              "faction)")
        return Modifier(rule.stat, rule.amount,
                        who="your_geuda" if f.owner == "you" else "all_geuda",
                        faction=f.values[0] if f.values else None)
    raise Unsupported(f"the target {t!r} of a modifier")


def _select(f) -> Select:
    zone = f.zone
    if zone is not None and zone.name == "trash" and zone.owner == "you":
        return Select("trash_geuda" if f.noun == "geuda" else "trash_card")
    if zone is None or zone.name != "field":
        raise Unsupported(f"a choice among {f!r} (the field or your trash)")
    nouns = (f.noun,) + tuple(f.alternatives)
    if nouns == ("geuda",):
        what = "geuda"
    elif set(nouns) == {"geuda", "territory"}:
        what = "geuda_or_territory"
    else:
        raise Unsupported(f"a choice of {' or '.join(nouns)}")
    side = {"you": "yours", "opponent": "opponent", None: "any"}[zone.owner]
    state = f.states[0] if f.states else None
    return Select(what, side, state)


def _leading_choice(actions) -> tuple:
    """An eventi's or activated ability's choice, made as it is played (R14.2, R21.1)."""
    if actions and isinstance(actions[0], ast.ChooseAction):
        return _select(actions[0].what.filter), tuple(actions[1:])
    return None, tuple(actions)


def _condition(cond) -> Optional[Condition]:
    if cond is None:
        return None
    if isinstance(cond, ast.Holds) and cond.zone.name == "trash" and cond.zone.owner == "you" \
            and cond.filter.noun == "card":
        return Condition("trash_not_empty")
    raise Unsupported(f"the condition {cond!r}")


def _dest(to) -> str:
    if isinstance(to, ast.ToZone) and to.zone.name in ("trash", "past", "hand"):
        return to.zone.name
    if isinstance(to, ast.ToEnd) and to.end == "bottom" and to.zone.name == "deck":
        return "deck_bottom"
    raise Unsupported(f"the destination {to!r}")


def _ops(actions) -> tuple:
    out = []
    actions = list(actions)
    i = 0
    while i < len(actions):
        a = actions[i]
        nxt = actions[i + 1] if i + 1 < len(actions) else None
        if isinstance(a, ast.Draw):
            out.append(Op("draw", n=a.count))
        elif isinstance(a, ast.PlayerDraws) and a.player == "active":
            out.append(Op("draw", who="active", n=a.count))
        elif isinstance(a, ast.Look) and isinstance(a.what, ast.EndCard) \
                and a.what.end == "top" and a.what.zone.name == "deck" \
                and isinstance(nxt, ast.May) and isinstance(nxt.action, ast.Move) \
                and isinstance(nxt.action.what, ast.It) and _dest(nxt.action.to) == "deck_bottom":
            out.append(Op("look_top_may_bottom"))
            i += 1
        elif isinstance(a, ast.ChooseAction):
            rest = _ops(actions[i + 1:])
            out.append(Op("choose", select=_select(a.what.filter), then=rest))
            break
        elif isinstance(a, ast.Turn) and isinstance(a.what, ast.It) and a.state == "pan":
            out.append(Op("pan_chosen"))
        elif isinstance(a, ast.Modify) and isinstance(a.target, ast.It) \
                and a.until == "end of turn":
            out.append(Op("mod_chosen", stat=a.stat, n=a.amount))
        elif isinstance(a, ast.Move) and isinstance(a.what, ast.It):
            out.append(Op("chosen_to", zone=_dest(a.to)))
        elif isinstance(a, ast.Move) and isinstance(a.what, ast.This):
            out.append(Op("self_to", zone=_dest(a.to)))
        elif isinstance(a, ast.Move) and isinstance(a.what, ast.Choose):
            out.append(Op("choose", select=_select(a.what.filter),
                          then=(Op("chosen_to", zone=_dest(a.to)),)))
        elif isinstance(a, ast.May) and isinstance(nxt, ast.If) \
                and isinstance(nxt.condition, ast.YouDid):
            out.append(Op("may", then=_ops([a.action, nxt.action])))
            i += 1
        elif isinstance(a, ast.May):
            out.append(Op("may", then=_ops([a.action])))
        else:
            raise Unsupported(f"the action {type(a).__name__}")
        i += 1
    return tuple(out)
