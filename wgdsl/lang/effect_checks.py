"""Checks on one effect: does it make sense where it sits, and does each action?

An effect is read top to bottom the way the engine will run it, keeping track of what
the words ``it``, ``that card`` and ``if you do`` can refer to at each line.  Every
problem found is reported (through ``report.error(pos, message, hint)``); checking
goes on after each one.
"""

from __future__ import annotations

from typing import Optional

import attrs

from . import ast
from .vocabulary import cite
from .diagnostics import did_you_mean, one_of

# events that are about a card, which `that card` then names
_CARD_EVENTS = {"leaves", "enters", "seized", "targeted", "plays", "out"}
_TURN_EVENTS = {"turn_start": "start", "turn_end": "end"}
# where a static rule means something (R13.2): the zones its card can be in
_STATIC_PLACES = {
    ast.Untargetable: (("field",), "only cards on the field are targeted (R13.4)"),
    ast.Protected: (("field",), "only a card on the field has a square (R11)"),
    ast.PlayOnto: (("hand",), "a card is played from hand (R7.1)"),
    ast.AnyColor: (("standby", "field"), "points come from stuns and from cards on the field (R6.2)"),
}
_STATIC_TEXT = {
    ast.Untargetable: "`this cannot be targeted`",
    ast.Protected: "`this square cannot be ...`",
    ast.PlayOnto: "`this can be played onto ...`",
    ast.AnyColor: "`this gives points of one chosen color ...`",
}
# the actions after which `it` names a card (the one chosen, looked at, moved or exhausted)
_SETS_IT = (ast.Look, ast.Move, ast.Exhaust, ast.ChooseAction, ast.Turn)
_VERBS = {
    ast.Draw: "draw", ast.Look: "look at", ast.Shuffle: "shuffle", ast.ChooseAction: "choose",
    ast.EnterAsCopy: "enter as a copy", ast.CancelPlay: "cancel that play",
    ast.AddPoints: "add points", ast.Swap: "swap", ast.Modify: "gets",
    ast.PlayerDraws: "the active player draws",
}
_COST_HINT = ("a cost moves or exhausts your own cards, such as `cost: move this to your break` "
              "or `cost: exhaust a ready stun in your standby`")


def check_effect(effect: ast.Effect, names: frozenset[str], report) -> None:
    """Report every problem of one effect of a card."""
    _check_place(effect, report)
    if isinstance(effect, (ast.StaticEffect, ast.Attached)):
        body = _Body(effect, names, report)
        if isinstance(effect, ast.Attached):
            body.filter(effect.filter)
        for rule in effect.rules:
            _check_static(rule, effect.where, report)
            if isinstance(rule, ast.Modify) and not isinstance(rule.target, ast.ThatCard):
                body.selector(rule.target)  # (`that geuda` is told by _check_static)
        return
    body = _Body(effect, names, report)
    if isinstance(effect, ast.Activated):
        phases = report.vocabulary.phases
        if effect.phase is not None and effect.phase not in phases:
            report.error(effect.phase_pos, f"unknown phase `{effect.phase}`",
                         did_you_mean(effect.phase, phases) or
                         "phases are " + one_of(phases) + cite(report.vocabulary.phases_rule))
        if effect.cost is not None:
            _check_cost(effect.cost, report)
            body.action(effect.cost, index=-1)
    elif isinstance(effect, ast.Triggered) and effect.event is not None:
        body.event_filter(effect.event.subject)
        cond = effect.condition
        if isinstance(cond, ast.YouDid):
            report.error(cond.pos, "`if you do` cannot be a trigger's condition",
                         "a trigger's `if` is checked as the event happens, before anything "
                         "is done; write `if you do:` on an action after a `may`")
        elif cond is not None:
            body.condition(cond)
    for index, action in enumerate(effect.actions):
        body.action(action, index)


# ---------------------------------------------------------------------------- placement
# effect kinds a `dimension` effect cannot be: (what it cannot be, what to write instead)
_NOT_DIMENSION = {
    ast.Activated: ("be activated", "for an effect the player uses while the card is on the "
                                    "field, write `field activated ...:`"),
    ast.StaticEffect: ("be a static rule", "for a rule that holds while the card is on the field, "
                                           "write `field static:` (R13.2)"),
}


def word_at(pos: ast.Pos, word: str) -> ast.Pos:
    """The position of ``word`` where ``pos`` starts (an effect's first keyword)."""
    return ast.Pos(pos.line, pos.col, pos.line, pos.col + len(word))


def _check_place(effect: ast.Effect, report) -> None:
    """Is this kind of effect (triggered, activated, static) possible where it works?"""
    if isinstance(effect, (ast.WhenPlayed, ast.Attached)):
        return
    where = effect.where
    event = getattr(effect, "event", None)
    if where == "dimension":
        if event is not None:
            report.error(event.pos, "dimension effects trigger only when this card enters the field (R13.1)",
                         "for an effect that waits for an event, write `field when ...:` (R13.2); "
                         "for one that happens on entering, write `dimension:` alone")
        elif type(effect) in _NOT_DIMENSION:
            cannot, hint = _NOT_DIMENSION[type(effect)]
            report.error(word_at(effect.pos, "dimension"),
                         "a dimension effect happens once, as this card enters the field (R13.1); "
                         f"it cannot {cannot}", hint)
        return
    if where == "field" or where in report.vocabulary.ability_zones:
        return
    if where in ast.FIELD_ZONES:
        report.error(word_at(effect.pos, "in"), f"`in {where}` is not a place for effects",
                     "effects of a card on any square of the field are written `field ...` (R13.2)")
        return
    if not isinstance(effect, ast.StaticEffect):
        kind = "an activated effect" if isinstance(effect, ast.Activated) else "a triggered effect"
        pos = event.pos if event is not None else word_at(effect.pos, "in")
        report.error(pos, f"a card in your {where} can only have `static` rules, not {kind}",
                     f"a card in your {where} is not in play: effects that wait for events or that "
                     f"the player uses work on the field (R13.2), written `field when ...:` or "
                     f"`field activated ...:`; here write `in {where} static:`")


def _check_static(rule: ast.Static, where: str, report) -> None:
    if isinstance(rule, ast.Modify):
        if rule.until is not None:
            report.error(rule.pos, "a static rule has no duration",
                         "it holds while its card is where the rule works; drop "
                         "`until end of turn` (a duration belongs to an action)")
        if isinstance(rule.target, ast.ThatCard) and where != "attached":
            report.error(rule.target.pos, f"`that {rule.target.noun}` has nothing to refer to "
                         "in a static rule", "only an `attached to ...:` effect has a card it "
                         "is about (the card it is attached to); write `this`, `every ...`")
        if where not in ("field", "attached") and where not in report.vocabulary.ability_zones \
                and where != "dimension" and where not in ast.FIELD_ZONES:
            report.error(rule.pos, f"`gets` means nothing in your {where}",
                         "a card's rules that change stats work on the field"
                         + (" or in " + one_of(report.vocabulary.ability_zones)
                            if report.vocabulary.ability_zones else "")
                         + ": write `field static:`")
        return
    places, why = _STATIC_PLACES[type(rule)]
    reported = where == "dimension" or (where in ast.FIELD_ZONES and where != "field")
    if where not in places and not reported:
        written = " or ".join("`field static:`" if p == "field" else f"`in {p} static:`" for p in places)
        place = "on the field" if where == "field" else f"in your {where}"
        report.error(rule.pos, f"{_STATIC_TEXT[type(rule)]} means nothing {place}",
                     f"{why}; write {written}")
    if isinstance(rule, ast.AnyColor):
        seen = set()
        for color, pos in zip(rule.colors, rule.color_pos or [rule.pos] * len(rule.colors)):
            if color not in report.vocabulary.colors:
                _unknown_point_color(color, pos, report)
            elif color in seen:
                report.error(pos, f"`{color}` is listed twice", "name each color once")
            seen.add(color)


def _unknown_point_color(color: str, pos: ast.Pos, report) -> None:
    colors = report.vocabulary.colors
    report.error(pos, f"unknown point color `{color}`",
                 did_you_mean(color, colors) or
                 "points have the colors of the cards that give them: " + one_of(colors) + " (R6.2)")


# ---------------------------------------------------------------------------- costs
def _check_cost(action: ast.Action, report) -> None:
    """An activated effect's ``cost:`` must be something its controller pays alone."""
    if isinstance(action, ast.May):
        report.error(action.pos, "a cost cannot be optional",
                     "drop `may`: the player pays the cost to use the effect")
    elif isinstance(action, ast.If):
        report.error(action.pos, "a cost cannot be conditional",
                     "drop `if ...:`: the player pays the cost to use the effect")
    elif isinstance(action, (ast.Move, ast.Exhaust, ast.Turn)):
        if not _yours(action.what):
            report.error(action.what.pos, "a cost must be paid with your own cards",
                         "say whose cards pay it: `this`, `your ...` or `... in your ...`; " + _COST_HINT)
        # a cost moving your card to the opponent's zones is reported by the general
        # rule that cards only go to their owner's zones (_Body.owner_of_destination)
    else:
        report.error(action.pos, f"`{_VERBS[type(action)]}` is not a cost you can pay", _COST_HINT)


def _yours(sel: ast.Selector) -> bool:
    if isinstance(sel, ast.This):
        return True
    if isinstance(sel, (ast.Choose, ast.Random, ast.Every, ast.All)):
        f = sel.filter
        return f.owner == "you" or (f.owner is None and f.zone is not None and f.zone.owner == "you")
    if isinstance(sel, (ast.Stacks, ast.EndCard)):
        return sel.zone.owner == "you"
    return False


# ---------------------------------------------------------------------------- actions
@attrs.define
class _Body:
    """Walks an effect's actions in order, knowing what ``it`` and ``that card`` mean."""

    effect: ast.Effect
    names: frozenset[str]
    report: object
    has_it: bool = False  # something was chosen, looked at, moved or exhausted
    seen_may: bool = False

    @property
    def event(self) -> Optional[ast.Event]:
        return getattr(self.effect, "event", None)

    def action(self, action: ast.Action, index: int, nested: bool = False) -> None:
        if isinstance(action, ast.May):
            self.action(action.action, index, nested=True)
            self.seen_may = True
            return
        if isinstance(action, ast.If):
            cond = action.condition
            if isinstance(cond, ast.YouDid) and not self.seen_may:
                self.report.error(
                    ast.Pos(action.pos.line, action.pos.col, cond.pos.end_line, cond.pos.end_col),
                    "`if you do` has no `may` before it in this effect",
                    "`if you do:` runs only when the player did the `may` action before it (R13.6); "
                    "make an earlier action a `may`, or drop `if you do:`")
            self.action(action.action, index, nested=True)
            return
        if isinstance(action, ast.EnterAsCopy) and (
            nested or index != 0 or self.effect.where != "dimension"
            or not isinstance(self.effect, ast.Triggered)
        ):
            self.report.error(action.pos, "`enter as a copy of` must be the first action of a `dimension:` effect",
                              "the copy is chosen as the card is played, before it is placed (R7.2, R2.4)")
        if isinstance(action, ast.CancelPlay) and (self.event is None or self.event.kind != "plays"):
            self.report.error(action.pos, "`cancel that play` has no play to cancel",
                              "it works in an effect that waits for a play, such as "
                              "`field when opponent plays a card from hand:` (R13.5)")
        if isinstance(action, ast.AddPoints) and action.color not in self.report.vocabulary.colors:
            _unknown_point_color(action.color, action.color_pos, self.report)
        if isinstance(action, ast.Modify):
            self.modify(action)
        if isinstance(action, ast.Turn) and action.state == "other":
            self.report.error(action.state_pos, "`other` is not a state a card is turned to",
                              "turn it into one of the game's card states: "
                              + one_of(self.report.vocabulary.states))
        for sel in _selectors(action):
            self.selector(sel)
        if isinstance(action, ast.Move):
            self.destination(action.to)
            self.owner_of_destination(action)
        self.engine_can(action)
        if isinstance(action, _SETS_IT):
            self.has_it = True

    def modify(self, action: ast.Modify) -> None:
        """An action's change of a stat lasts until its duration, or, in an effect at a
        judgment, while that judgment is computed."""
        event = self.event
        judging = event is not None and event.kind == "judgment"
        if judging and action.until is not None:
            self.report.error(action.pos, "a change at a judgment lasts while the judgment "
                              "is computed", "drop `until end of turn`")
        elif not judging and action.until is None:
            self.report.error(action.pos, "this change has no duration",
                              "an effect's change of a stat lasts for a time: write "
                              "`until end of turn` after it, or make it a rule that holds "
                              "while the card is on the field (`field static:`)")

    def condition(self, cond) -> None:
        if isinstance(cond, ast.Holds):
            self.filter(cond.filter)
            _source_zone(cond.zone, self.report)

    def engine_can(self, action: ast.Action) -> None:
        """What parses and reads well but asks the engine for something the game lacks."""
        error = self.report.error
        words = self.report.vocabulary
        decks = words.decks
        deck = decks[0] if decks else "deck"
        rule = words.zone_rules.get(deck, "")  # World Gainer's stock: R1.1
        if isinstance(action, ast.Shuffle) and action.zone.name not in decks:
            error(action.zone.pos, f"only a {deck} can be shuffled, not the {action.zone.name}",
                  f"the {deck} is the one ordered, hidden pile{cite(rule)}: write `shuffle your {deck}`")
        if isinstance(action, ast.Exhaust):
            f = getattr(action.what, "filter", None)
            if f is not None and (f.noun != "stun" or (f.zone is not None and f.zone.name != "standby")):
                error(action.what.pos, "only a stun in a standby can be exhausted",
                      "write `exhaust a ready stun in opponent's standby` (R1.6)")
        if isinstance(action, ast.Swap):
            for sel in (action.first, action.second):
                f = getattr(sel, "filter", None)
                if f is not None and f.zone is not None and not f.zone.is_field:
                    error(sel.pos, f"only cards on the field change places, not cards in the {f.zone.name}",
                          "`swap` exchanges the stacks on two squares: choose a card `on field`")
        for sel in _selectors(action):
            if isinstance(sel, ast.Stacks) and not sel.zone.is_field:
                error(sel.zone.pos, f"the {sel.zone.name} holds no stacks",
                      "stacks are on the field's squares (R1.4): `every stack on opponent's battle field`")
            if isinstance(sel, ast.EndCard) and sel.zone.name not in decks:
                error(sel.zone.pos, f"only a {deck} has a {sel.end} card, not the {sel.zone.name}",
                      f"write `{sel.end} card of your {deck}` ({rule + ': ' if rule else ''}the "
                      f"{deck} is ordered, top and bottom)")
        if isinstance(action, ast.Move) and isinstance(action.to, ast.ToZone) and action.to.zone.is_field:
            error(action.to.pos, f"a card is put onto the {action.to.zone.name} only onto a square",
                  "write `to an empty square of your my field` (R9)")

    def owner_of_destination(self, action: ast.Move) -> None:
        """Cards only ever go to their owner's zones (R1.1); say so where the text disagrees."""
        dest = action.to
        if not isinstance(dest, (ast.ToZone, ast.ToEnd)) or dest.zone.owner not in ("you", "opponent"):
            return
        owner = _known_owner(action.what)
        if owner is not None and owner != dest.zone.owner:
            whose = "your" if owner == "you" else "your opponent's"
            written = "your" if dest.zone.owner == "you" else "opponent's"
            self.report.error(dest.zone.pos,
                              f"{whose} card cannot go to {written} {dest.zone.name}",
                              "every card stays its owner's: it goes to its owner's zones (R1.1); "
                              f"write `owner's {dest.zone.name}`")

    def selector(self, sel: ast.Selector) -> None:
        if isinstance(sel, ast.It) and not self.has_it:
            self.report.error(sel.pos, "`it` does not refer to anything yet",
                              "`it` is the card this effect last chose, looked at, moved or exhausted; "
                              "choose one first (`choose a card on field`) or say which card")
        elif isinstance(sel, ast.ThatCard):
            if isinstance(self.effect, ast.Attached):
                return  # the card it is attached to
            why = self._no_card_reason()
            if why:
                self.report.error(sel.pos, f"`that card` has nothing to refer to: {why}",
                                  "`that card` is the card a `when` event is about (the card that "
                                  "leaves, enters, is seized, becomes a target or is played); "
                                  "write `this` for this card")
        elif isinstance(sel, (ast.Choose, ast.Random, ast.Every, ast.All)):
            self.filter(sel.filter)
        elif isinstance(sel, (ast.Stacks, ast.EndCard)):
            _source_zone(sel.zone, self.report)

    def _no_card_reason(self) -> Optional[str]:
        event = self.event
        if event is not None:
            if event.kind in _CARD_EVENTS:
                return None
            whose = "your" if event.player == "you" else "opponent's"
            return f"`{_TURN_EVENTS.get(event.kind, '?')} of {whose} turn` is not about a card"
        if self.effect.where == "dimension":
            return "a dimension effect has no event"
        if isinstance(self.effect, ast.WhenPlayed):
            return "a `when played:` effect has no event"
        return "an activated effect has no event" if isinstance(self.effect, ast.Activated) else "no event"

    def event_filter(self, subject) -> None:
        if isinstance(subject, ast.Filter):
            self.filter(subject)

    def filter(self, f: ast.Filter) -> None:
        if f.name is not None and f.name not in self.names:
            self.report.error(f.name_pos, f'no card in this set is named "{f.name}"',
                              did_you_mean(f.name, self.names)
                              or "`named` takes a card's name exactly as its `card` line writes it")
        if f.owner == "owner":
            _owner_not_source(word_at(f.pos, "owner's"), self.report)
        if f.zone is not None:
            _source_zone(f.zone, self.report)

    def destination(self, dest: ast.Dest) -> None:
        if isinstance(dest, ast.ToZone) and dest.as_stun and dest.zone.name != "standby":
            self.report.error(dest.pos, f"only a standby holds stuns, not the {dest.zone.name}",
                              "write `to your standby as ready stun` (R1.6)")
        if isinstance(dest, ast.ToEmptySquare) and not dest.zone.is_field:
            self.report.error(dest.zone.pos, f"the {dest.zone.name} has no squares",
                              "squares are on the field: `my field`, `battle field` or `field` (R1.2)")


def _known_owner(sel: ast.Selector) -> Optional[str]:
    """Whose card a selector picks ("you"/"opponent"), when the text says so."""
    if isinstance(sel, ast.This):
        return "you"
    f = getattr(sel, "filter", None)
    if f is not None:
        if f.owner in ("you", "opponent"):
            return f.owner
        zone = f.zone
    else:
        zone = getattr(sel, "zone", None)
    if zone is not None and zone.owner in ("you", "opponent") and zone.name != "my field":
        return zone.owner
    return None


def _source_zone(zone: ast.Zone, report) -> None:
    if zone.owner == "owner":
        _owner_not_source(word_at(zone.pos, "owner's"), report)


def _owner_not_source(pos: ast.Pos, report) -> None:
    report.error(pos, "`owner's` only fits a destination",
                 "`owner's` is the owner of the card being moved (`to owner's break`); to say "
                 "where cards come from, write `your` or `opponent's`, or nothing for either player's")


def _selectors(action: ast.Action) -> tuple[ast.Selector, ...]:
    if isinstance(action, ast.Swap):
        return (action.first, action.second)
    if isinstance(action, ast.Modify):
        return (action.target,)
    what = getattr(action, "what", None)
    return () if what is None else (what,)
