"""Imitation World's action texts (IW R24.2-R24.3): reading them back (``parse_action``)
and saying why one is refused (IW R23.1), citing the first rule that forbids it in the
order of the spec's "Steps": the game is over (R20.4); the wrong seat (R6.4); the phase or
step (R8.1, R10.3, R15.3); a reference that fits no card (R24.3); the cost condition (R9);
the card's text and its targets (R12.1, R14.2); the rule of the action (R8, R12.2, R13.2,
R15.3, R15.5, R16.2)."""

from __future__ import annotations

from typing import Any

from wgdsl.kernel.errors import IllegalAction

from . import rules
from .state import PLAYED, SEATS, Action, _rule, other

FORMS = {  # first word -> the number of words it may have
    "barrier": (2,), "cost": (2, 4, 6), "play": (2, 4), "activate": (2, 4),
    "attack": (3,), "join": (2,), "front": (2,), "block": (2,), "next": (1,), "done": (1,),
    "yes": (1,), "no": (1,), "choose": (2,), "order": (2,),
}


def parse_action(state, seat: str, text: str) -> Action:
    """The action ``text`` writes (R24.2's forms); IllegalAction when it has none of them.
    Whether it is legal now is ``apply``'s question."""
    words = str(text).split()
    if not words or words[0] not in FORMS or len(words) not in FORMS[words[0]]:
        raise IllegalAction(f"`{text}` is no action of Imitation World; the forms are: "
                            "barrier ID, cost ID [to F [mark G]], play ID [on REF | target T], "
                            "activate REF [target T], attack REF player|REF, join REF, "
                            "front REF, block REF, next, done, yes, no, choose X, order ID",
                            "R24.2")
    k = words[0]
    if (k == "cost" and len(words) >= 4 and (words[2] != "to" or (len(words) == 6
                                                                  and words[4] != "mark"))) \
            or (k == "play" and len(words) == 4 and words[2] not in ("on", "target")) \
            or (k == "activate" and len(words) == 4 and words[2] != "target"):
        raise IllegalAction(f"`{text}`: a misplaced word (R24.2)", "R24.2")
    return Action(" ".join(words))


def refusal(state, seat: str, action: Any) -> IllegalAction:
    """Why ``action`` of the current ``seat`` is not legal now (it is not listed)."""
    if isinstance(action, str):
        action = Action(action)
    if not isinstance(action, Action):
        return IllegalAction(f"{action!r} is not an action of Imitation World (R24.2)", "R24.2")
    words = action.text.split()
    try:
        parse_action(state, seat, action.text)
        why = _why(state, seat, words)
    except IllegalAction as err:
        return err
    return why or IllegalAction(f"`{action}` is not one of {seat}'s legal actions now",
                                "R23.1")


def _why(state, seat: str, words: list):
    d = state.d
    k = words[0]
    kind = state.decision_kind()
    if state.question is not None:
        return IllegalAction(f"{seat} must answer {state.question.decision.prompt} first",
                             state.question.decision.rule)
    if k in ("yes", "no", "choose", "order"):
        return IllegalAction("no ability asks a question now", "R21.3")
    if kind == "next":
        return IllegalAction(f"the {d.phase} phase has not run yet: `next` runs it", "R6.1")
    if k == "barrier":
        if kind != "barrier":
            return IllegalAction("barriers are chosen at the setup only", "R5.2")
        return IllegalAction(f"no {words[1]} in {seat}'s deck to choose as a barrier", "R5.2")
    if kind == "barrier":
        return IllegalAction(f"{seat} chooses its barriers first (`barrier ID`)", "R5.2")
    if k == "cost":
        if kind != "cost":
            return IllegalAction("a cost card is placed in the cost phase only, once a turn",
                                 "R8.1")
        if not any(d.cid[u] == words[1] for u in d.hand[seat]):
            return IllegalAction(f"no {words[1]} in {seat}'s hand", "R8.1")
        to = words[3] if len(words) > 3 else None
        mark = words[5] if len(words) > 5 else None
        try:
            rules.after_placement(state.cost_zone(seat), rules.Placement(to, mark),
                                  state.markers[seat])
        except IllegalAction as err:
            return _rule(err)
        return None
    if k in ("play", "activate"):
        if kind != "main":
            return IllegalAction("cards are played and abilities used in the active "
                                 "player's main phases only", "R10.3")
        return _why_play(state, seat, words) if k == "play" else _why_activate(state, seat,
                                                                                words)
    if k == "attack":
        if kind != "attack":
            return IllegalAction("attacks are declared in attack time only", "R15.3")
        return _why_attack(state, seat, words)
    if k in ("join", "done") and kind == "join":
        return IllegalAction(f"{words[1] if len(words) > 1 else ''} cannot join the linked "
                             "attack: it must be another of your geuda that could attack now",
                             "R15.5")
    if k == "front" and kind == "front":
        return IllegalAction(f"{words[1]} is not in the attacking side still to be ordered",
                             "R15.5")
    if k == "block" and kind == "block":
        u = state.find_ref(words[1])
        if u is None or u not in d.setz[other(d.active)]:
            return IllegalAction(f"{words[1]} names none of the defender's geuda", "R24.3")
        if u in d.attack["blockers"]:
            return IllegalAction(f"{words[1]} is already a blocker", "R16.2")
        return _rule(rules.block_refusal(state.marks(u)) or IllegalAction("", "R16.2"))
    if k in ("join", "front", "block", "done"):
        return IllegalAction(f"`{' '.join(words)}` answers no decision waiting now "
                             f"({kind}): nobody is asked", {"join": "R15.5",
                                                            "front": "R15.5"}.get(k, "R6.4"))
    if k == "next":
        return IllegalAction("`next` ends no phase here", "R6.4")
    return None


def _why_play(state, seat: str, words: list):
    d = state.d
    ident = words[1]
    if not any(d.cid[u] == ident for u in d.hand[seat]):
        return IllegalAction(f"no {ident} in {seat}'s hand", "R24.3")
    c = state.table[ident]
    if c.type not in PLAYED:
        return IllegalAction(f"{ident} is {c.type}: never played", "R10.1")
    refusal = rules.cost_refusal(state.cost_zone(seat), c.faction, c.cost)
    if refusal is not None:
        return _rule(refusal)
    if c.type == "enchant":
        if len(words) != 4 or words[2] != "on":
            return IllegalAction(f"an enchant is played onto a geuda: `play {ident} on REF`",
                                 "R12.1")
        g = state.find_ref(words[3])
        if g is None or state.card(g).type != "geuda":
            return IllegalAction(f"{words[3]} names no geuda on the field", "R24.3")
        if c.abilities.attach.onto == "yours" and d.owner[g] != seat:
            return IllegalAction(f"{ident} is played only onto one of your geuda", "R12.1")
        if g in d.ench:
            return IllegalAction(f"{words[3]} already has an enchant (one per geuda)", "R12.2")
        return None
    if c.type == "eventi":
        op = c.abilities.on_play
        if op is not None and op.choose is not None:
            opts = state.options(seat, op.choose)
            if not opts:
                return IllegalAction(f"{ident} has no legal target now", "R14.2")
            if len(words) != 4 or words[2] != "target":
                return IllegalAction(f"{ident} needs its target: `play {ident} target T`",
                                     "R14.2")
            return IllegalAction(f"{words[3]} is not a target of {ident}: one of "
                                 f"{', '.join(opts)}", "R14.2")
    if len(words) > 2:
        return IllegalAction(f"{ident} takes no `{words[2]}`", "R24.2")
    if c.type == "territory" and d.terr is not None:
        try:
            rules.territory_play(c.cost, state.card(d.terr).cost)
        except IllegalAction as err:
            return _rule(err)
    return None


def _why_activate(state, seat: str, words: list):
    d = state.d
    u = state.find_ref(words[1])
    if u is None or u not in d.setz[seat]:
        return IllegalAction(f"{words[1]} names none of {seat}'s set-zone cards", "R24.3")
    act = state.card(u).abilities.activated
    if act is None:
        return IllegalAction(f"{words[1]} has no activated ability", "R21.1")
    if u in d.pan:
        return IllegalAction(f"{words[1]} is pān: its cost (pān) cannot be paid", "R21.1")
    if act.choose is not None:
        opts = state.options(seat, act.choose)
        if not opts:
            return IllegalAction(f"{words[1]}'s ability has no legal choice", "R21.1")
        return IllegalAction(f"choose one of {', '.join(opts)}: `activate {words[1]} target T`",
                             "R21.1")
    return IllegalAction(f"`activate {words[1]}` takes no target", "R24.2")


def _why_attack(state, seat: str, words: list):
    d = state.d
    u = state.find_ref(words[1])
    if u is None or u not in d.setz[seat] or state.card(u).type != "geuda":
        return IllegalAction(f"{words[1]} names none of {seat}'s geuda", "R24.3")
    refusal = rules.attack_refusal(state.marks(u))
    if refusal is not None:
        return _rule(refusal)
    if words[2] != "player":
        t = state.find_ref(words[2])
        if t is None or t not in d.setz[other(seat)] or state.card(t).type != "geuda":
            return IllegalAction(f"{words[2]} names no geuda of the opponent's field", "R15.3")
        return _rule(rules.target_refusal(state.marks(t)) or IllegalAction("", "R15.3"))
    return None


__all__ = ["parse_action", "refusal", "SEATS"]
