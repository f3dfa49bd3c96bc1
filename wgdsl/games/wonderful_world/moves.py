"""Why an It's a Wonderful World action is refused (IAW R22.2, in its order): the window
does not offer it (R7.1), a bare card reference fits two cards (R22.4), then the action's
own conditions (R8.2, R9.1, R10.1-R10.4, R12.1, R13.2, R14.5, R9.3)."""

from __future__ import annotations

from typing import Any

from wgdsl.kernel.errors import IllegalAction

from .cards import RESOURCES

OFFERED = {  # R7.1's table
    "draft": ("pick",),
    "planning": ("construct", "recycle", "place_krystallium", "place_character",
                 "discard_construction", "swap", "keep", "done"),
    "production": ("place", "place_krystallium", "place_character", "discard_construction",
                   "science_bonus", "done"),
}
ARITY = {"swap": 2, "keep": 1, "pick": 1, "construct": 1, "recycle": 2, "place": 2, "place_krystallium": 2,
         "place_character": 2, "discard_construction": 1, "science_bonus": 1, "done": 0}


def refusal(state, seat: str, action: Any) -> IllegalAction:
    from .state import Act

    d = state.d
    p = d.players[seat]
    if not isinstance(action, Act) or action.kind not in ARITY:
        return IllegalAction(f"{action!r} is not an action of this game; the actions are "
                             + ", ".join(ARITY), "R22.4")
    if action.kind not in OFFERED[d.phase]:
        return IllegalAction(f"the {d.phase} window offers {', '.join(OFFERED[d.phase])}, not "
                             f"{action.kind}", "R7.1")
    if len(action.args) != ARITY[action.kind]:
        return IllegalAction(f"`{action}`: {action.kind} takes {ARITY[action.kind]} "
                             "parameter(s)", "R22.4")
    refs = dict(state.refs(seat))
    for arg in action.args:
        bare = [r for r in refs if r.startswith(arg + "@")]
        if "@" not in arg and arg not in refs and len(bare) > 1:
            return IllegalAction(f"{arg} fits {len(bare)} of {seat}'s cards under "
                                 f"construction: write {' or '.join(bare)}", "R22.4")
    kind, args = action.kind, action.args
    solo = len(state.seats) == 1
    if kind in ("swap", "keep") and not solo:
        return IllegalAction(f"{kind} is solo play's (IAW R20.3)", "R7.1")
    if solo and p.look and kind != "keep":
        return IllegalAction("between a swap and its keep only `keep` is possible", "R20.3")
    if kind == "swap":
        return IllegalAction("a swap needs two cards of the hand, a card in the deck, and no "
                             "card of this hand constructed or recycled yet", "R20.3")
    if kind == "keep":
        return IllegalAction(f"{args[0]} is not among the cards looked at", "R20.3")
    if solo and kind in ("construct", "recycle") and args[0] not in p.hand:
        return IllegalAction(f"{args[0]} is not in {seat}'s hand", "R9.1")
    if kind == "pick":
        return IllegalAction(f"{args[0]} is not in {seat}'s hand", "R8.2")
    if kind in ("construct", "recycle") and args[0] not in p.draft:
        return IllegalAction(f"{args[0]} is not in {seat}'s draft area", "R9.1")
    if kind == "recycle":
        return IllegalAction(f"a recycle cube goes on the empire or on a card under "
                             f"construction with an empty space of its kind, not {args[1]}",
                             "R10.1")
    if kind == "place":
        if args[0] != RESOURCES[d.step] or not p.unplaced:
            return IllegalAction(f"{seat} has no {args[0]} cube to place", "R13.2")
        return IllegalAction(f"a {args[0]} cube goes on the empire or on an empty {args[0]} "
                             f"space of a card under construction, not {args[1]}", "R10.1")
    if kind == "place_krystallium":
        if not p.kry:
            return IllegalAction(f"{seat} has no krystallium on its empire", "R10.2")
        return IllegalAction("krystallium fills an empty resource or KRY space of a card under "
                             "construction, never a FIN or GEN space", "R10.2")
    if kind == "place_character":
        return IllegalAction(f"{seat} has no such token, or {args[1]} has no empty space of "
                             "its kind", "R10.3")
    if kind == "discard_construction":
        return IllegalAction(f"{args[0]} is not one of {seat}'s cards under construction",
                             "R12.1")
    if kind == "science_bonus":
        return IllegalAction(f"{seat} has no Science choice pending", "R14.5")
    if p.unplaced:
        return IllegalAction(f"{seat} still has {p.unplaced} cube(s) to place", "R10.4")
    if p.science:
        return IllegalAction(f"{seat} must first choose its Science token", "R14.5")
    if solo:
        return IllegalAction(f"{seat} must play both piles of the round, every card "
                             "constructed or recycled", "R20.3")
    return IllegalAction(f"{seat}'s draft area still holds cards", "R9.3")
