"""``wgdsl lint``: what a checked card set or game file can never do.

Every warning here is **sound**: it is reported only when the file itself proves it, for
every game the file can be played in.  A warning that would need a guess (how many
points a player can make in a turn, what a game's Python engine reads) is not made.

Card sets (``.wg``), checked first (``wgdsl check``'s errors stop the lint):

* **loops** — chains of effects that can trigger each other without end, from the
  trigger graph of :mod:`wgdsl.lang.loops` (the same warnings ``wgdsl check`` prints;
  ``--graph`` prints the graph itself: which effect's action can raise which event);
* **never true** — ``if you hold fewer squares than you``: a player compared with itself
  is never fewer or more (R1.4, R1.5, R1.1);
* **no such cost** — a filter's cost bound that no card of the set (its includes
  counted) meets: an event about such a card never happens, a choice among such cards
  never has one.  Costs are printed stats (R2.1) and a copy keeps a cost of the set, so
  only the set's costs can be met;
* **never targeted** — ``when ... becomes target`` in a set where nothing targets: only
  an effect that chooses a card on the field, and a copy as it enters, make a target
  (R13.4), and the set has neither.

No card of a checked set is reported as unplayable: a stock has no upper size (R3.1), a
card is allowed in it at least once (R3.2, R3.3), and the top cards of stacks on squares a
player holds give a point each (R6.2) however high the stacks grow, so every cost can be
reached; the stun value is at least 1 and a card can be its own color's stun.

Game files (``.game``), compiled first (``wgdsl check``'s errors stop the lint):

* the game checker's own warnings (``wgdsl check``): counters, options, relations and rule
  functions nothing uses;
* **effect no card does** — an ``effect`` no ``card ... does`` names is never used (every
  game file);
* for a game played by its rounds and phases (no ``played by``): a **zone**, **kind** or
  the **signs** that no step, window or end rule names, and **cards** that no step puts
  into a zone (they never take part).  A game ``played by`` a Python engine reads its
  zones by name there, so these are not reported for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

import attrs

from wgdsl.lang import ast
from wgdsl.lang.diagnostics import Diagnostic
from wgdsl.lang.fmt import fmt_event

CARD_SUFFIX = ".wg"
_BOUND_WORDS = {"<=": "{} or less", ">=": "{} or more", "<": "less than {}", ">": "more than {}",
                "=": "{}"}
GAME_SUFFIX = ".game"


@attrs.define
class Linted:
    """The lint of one file: its diagnostics (errors of ``check`` when it does not check
    clean; else warnings), its text for rendering, and a summary line."""

    path: str
    text: Optional[str]
    diagnostics: list = attrs.Factory(list)
    errors: bool = False
    summary: str = ""
    graph: list = attrs.Factory(list)  # lines of the trigger graph (card sets)


def _warning(path: str, pos: ast.Pos, message: str, hint: str) -> Diagnostic:
    return Diagnostic(path, pos, message, hint, severity="warning")


def _walk(node) -> Iterable:
    """Every attrs node under ``node`` (an AST), with a stack: effects may nest deeply."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (tuple, list)):
            stack.extend(reversed(item))
            continue
        if not attrs.has(type(item)):
            continue
        yield item
        stack.extend(reversed([getattr(item, f.name) for f in attrs.fields(type(item))
                               if not f.name.endswith("pos")]))


# ====================================================================== card sets
def lint_card_text(text: str, path: str, *, graph: bool = False) -> Linted:
    from wgdsl.lang.cards import check_text, load_cards

    cardset, problems = check_text(text, path)
    out = Linted(path, text)
    if any(d.severity == "error" for d in problems):
        out.diagnostics, out.errors = problems, True
        return out
    library = load_cards(path) if Path(path).is_file() else None
    if library is None:
        from wgdsl.lang.cards import library_from_text

        library = library_from_text(text, path)
    own = {c.id for c in cardset.cards}
    included = [c for c in library if c.id not in own]
    found = list(problems)  # the loop warnings of the checker (wgdsl.lang.loops)
    found += _never_true(cardset)
    found += _no_such_cost(cardset, library)
    found += _never_targeted(cardset, library)
    found.sort(key=lambda d: (d.pos.line, d.pos.col))
    out.diagnostics = found
    if graph:
        out.graph = trigger_graph(cardset, included)
    n = len(found)
    out.summary = (f"{path}: {len(cardset.cards)} cards, "
                   + (f"{n} warning{'s' if n != 1 else ''}" if n else "nothing to report"))
    return out


def _effects(cardset: ast.CardSet):
    for card in cardset.cards:
        for effect in card.effects:
            yield card, effect


def _never_true(cardset: ast.CardSet) -> list:
    out = []
    for card, effect in _effects(cardset):
        for node in _walk(effect):
            if isinstance(node, ast.Compare) and node.left == node.right \
                    and node.relation in ("fewer", "more"):
                who = "you" if node.left == "you" else "your opponent"
                out.append(_warning(
                    cardset.path, node.pos,
                    f"this condition never holds: {who} cannot have {node.relation} "
                    f"{node.quantity} than {who}",
                    "compare `you` with `opponent` (`if you hold fewer squares than "
                    "opponent: ...`, docs/language.md section 12)"))
    return out


def _no_such_cost(cardset: ast.CardSet, library) -> list:
    import operator

    ops = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt,
           "=": operator.eq}
    costs = sorted({c.cost for c in library})
    out = []
    for card, effect in _effects(cardset):
        event_filter = None
        if isinstance(effect, ast.Triggered) and effect.event is not None \
                and isinstance(effect.event.subject, ast.Filter):
            event_filter = effect.event.subject
        for node in _walk(effect):
            if not isinstance(node, ast.Filter) or node.cost is None:
                continue
            bound = node.cost
            if any(ops[bound.op](c, bound.value) for c in costs):
                continue
            shown = ", ".join(map(str, costs))
            wanted = _BOUND_WORDS[bound.op].format(bound.value)
            if node is event_filter:
                message = f"this effect never triggers: no card of the set has a cost of {wanted}"
            else:
                message = f"this finds no card: no card of the set has a cost of {wanted}"
            out.append(_warning(cardset.path, bound.pos, message,
                                f"the costs in the set (its includes counted) are {shown}; a "
                                "copy keeps a cost of the set (R2.1)"))
    return out


def _targets(effects: Iterable) -> bool:
    """Can any of ``effects`` make a card a target (R13.4): choose a card on the field,
    or enter as a copy?"""
    for effect in effects:
        for node in _walk(effect):
            if isinstance(node, ast.EnterAsCopy):
                return True
            if isinstance(node, ast.Choose) and node.filter.noun != "stun" and \
                    (node.filter.zone is None or node.filter.zone.is_field):
                return True
    return False


def _never_targeted(cardset: ast.CardSet, library) -> list:
    if _targets(e for c in library for e in c.effects):
        return []
    out = []
    for card, effect in _effects(cardset):
        if isinstance(effect, ast.Triggered) and effect.event is not None \
                and effect.event.kind == "targeted":
            out.append(_warning(
                cardset.path, effect.event.pos,
                f"this effect never triggers: no card of the set makes a target "
                f"(`{fmt_event(effect.event)}`)",
                "a card becomes a target only when an effect chooses it on the field or a "
                "copy copies it (R13.4); no effect of the set does either"))
    return out


def trigger_graph(cardset: ast.CardSet, included) -> list[str]:
    """The trigger graph of :mod:`wgdsl.lang.loops`, one edge a line: ``CARD (event) ->
    CARD (event) by `action```."""
    from wgdsl.lang import loops
    from wgdsl.lang.fmt import fmt_action

    lines = []
    for source, target, actions in loops.trigger_graph(cardset, included):
        acts = dict.fromkeys(f"`{fmt_action(a)}`" for a in actions)
        lines.append(f"{source} -> {target} by {', '.join(acts)}")
    return lines


# ====================================================================== game files
def lint_game_file(path: str) -> Linted:
    from wgdsl.lang.game import compile_text, read_source
    from wgdsl.lang.game.parser import parse

    text, problems = read_source(path)
    out = Linted(path, text)
    if text is None:
        out.diagnostics, out.errors = problems, True
        return out
    spec, problems = compile_text(text, path)
    if spec is None:
        out.diagnostics, out.errors = problems, True
        return out
    game, _ = parse(text, path)
    found = list(problems)
    found += _unused_effects(game, path)
    engine = any(type(i).__name__ == "PlayedBy" for i in game.items)
    if not engine:
        found += _unused_names(game, path)
    found.sort(key=lambda d: (d.pos.line, d.pos.col))
    out.diagnostics = found
    n = len(found)
    out.summary = (f"{path}: game {spec.id}" + (" (played by an engine: zones, counters and "
                                                "options not checked)" if engine else "")
                   + ", " + (f"{n} warning{'s' if n != 1 else ''}" if n else "nothing to report"))
    return out


def _items(game, cls_name: str) -> list:
    return [i for i in game.items if type(i).__name__ == cls_name]


def _unused_effects(game, path: str) -> list:
    done = {w.text for card in _items(game, "CardDecl") for w in card.effects}
    return [_warning(path, e.name.pos, f"no card does the effect `{e.name.text}`: it is never used",
                     f"give it to a card (`card ID ... does {e.name.text}`) or remove it")
            for e in _items(game, "EffectDecl") if e.name.text not in done]


def _unused_names(game, path: str) -> list:
    """Zones, kinds and signs nothing names; cards no step puts anywhere (a game played by
    its rounds and phases).  Counters, options, relations and rule functions nothing uses
    are the game checker's own warnings (wgdsl.lang.game.checker), kept as they are."""
    from wgdsl.lang.game import ast as gast

    zones: set = set()
    signs = put = False
    for node in _walk(tuple(game.items)):
        if isinstance(node, (gast.ZoneRef, gast.Place)):
            zones.add(node.zone.text)
        elif isinstance(node, gast.Window):
            if node.zone is not None:
                zones.add(node.zone.text)
            signs = signs or node.what == "sign"
        elif isinstance(node, gast.Step):
            if node.name is not None and node.kind in ("deal", "draw", "put"):
                zones.add(node.name.text)
            put = put or node.kind == "put"
        elif isinstance(node, gast.Quantity) and node.cards:
            zones.add(node.name.text)
    kinds = {c.kind.text for c in _items(game, "CardDecl")}
    out = []

    def unused(decls, used, what, hint):
        for d in decls:
            if d.name.text not in used:
                out.append(_warning(path, d.name.pos, f"the {what} `{d.name.text}` is never used",
                                    hint))

    unused(_items(game, "ZoneDecl"), zones, "zone",
           "no step, window or end rule names it: remove it, or move cards there")
    unused(_items(game, "Kind"), kinds, "kind", "no card is of this kind")
    for s in _items(game, "Signs"):
        if not signs:
            out.append(_warning(path, s.pos, "the signs are never chosen",
                                "no window is `chooses a sign`"))
    cards = _items(game, "CardDecl")
    if cards and not put:
        out.append(_warning(path, cards[0].pos, "no step puts the cards into a zone: they "
                                                "never take part in the game",
                            "add `put every card into ZONE` to the setup"))
    return out


# ====================================================================== the command
def lint_paths(paths: list, *, graph: bool = False) -> list[Linted]:
    """Lint each path (card sets by default; ``.game`` files as game files)."""
    from wgdsl.lang.cards import read_source

    out = []
    for path in paths:
        if path.endswith(GAME_SUFFIX):
            out.append(lint_game_file(path))
            continue
        text, problems = read_source(path)
        if text is None:
            out.append(Linted(path, None, problems, errors=True))
            continue
        out.append(lint_card_text(text, path, graph=graph))
    return out
