"""The effect interpreter: card effects (AST) compiled once into Python closures.

``compile_library(library)`` turns every card's effects into a :class:`CompiledCard`:
closures for its dimension and triggered effects, its activated abilities and flags for
its static rules.  The engine calls them at the timings of R13; nothing here walks the
AST while a game runs.

A compiled action is ``run(ctx)``; ``ctx`` (:class:`Ctx`) carries the game, the
effect's controller, its source card, the triggering event, the card ``it`` refers to
and whether the last ``may`` was done (``if you do``).  Actions also have a
``feasible(ctx)`` test: a ``may`` whose action has no legal option is not asked
(ruling-format: "unless what it offers has no legal option").

Every choice goes through ``game.ask`` (the player's agent); targeting on the field
goes through ``game.target`` so "cannot be targeted" and responses (R13.4, R13.5) apply.
"""

from __future__ import annotations

import weakref
from typing import Callable, Optional

import attrs

from wgdsl.lang import ast
from wgdsl.lang.fmt import fmt_action, fmt_event, fmt_zone

from .state import BATTLE_ROW, HOME_ROW, OTHER, SQUARES

# --------------------------------------------------------------------------- runtime
_HIDDEN = ("stock", "hand", "standby")  # zones the other player cannot see (R1.1, R1.6)



class Ctx:
    """What a resolving effect knows."""

    __slots__ = ("game", "controller", "source", "event", "it", "did")

    def __init__(self, game, controller: str, source, event=None):
        self.game = game
        self.controller = controller
        self.source = source
        self.event = event
        self.it = None
        self.did = False


class GameEvent:
    """Something that happened that effects may wait for."""

    __slots__ = ("kind", "card", "player", "to", "square", "play", "face")

    def __init__(self, kind, card=None, player=None, to=None, square=None, play=None, face=None):
        self.kind = kind
        self.card = card  # the instance the event is about
        self.player = player  # whose turn / who played
        self.to = to  # the zone a card left the field for
        self.square = square  # the square a card left / was on
        self.play = play  # the play being made (for "cancel that play")
        self.face = face  # the definition the card had on the field (for look-back)


Run = Callable[[Ctx], None]
Test = Callable[[Ctx], bool]


@attrs.frozen
class CompiledEffect:
    """One triggered or dimension effect, ready to run."""

    kind: str  # "dimension" or an event kind
    run: Run
    matches: Callable  # (game, listener instance, event) -> bool
    text: str  # for the log: the card and the effect (`WG-xxx name: field effect (when ...)`)
    where: str = "field"
    card: str = ""  # the id of the card whose text this effect is
    label: str = ""  # short, for messages: `dimension` or the event (`when this leaves field`)
    group: int = 0  # equal for effects that cannot be told apart: same card name, same text (R13.5)


@attrs.frozen
class CompiledActivated:
    phase: Optional[str]
    cost: Optional[Run]
    cost_feasible: Test
    run: Run
    text: str


@attrs.frozen
class CompiledCard:
    dimension: tuple[CompiledEffect, ...]
    entry_copy: Optional[Callable]  # (game, controller, source) -> candidate instances
    triggers: dict  # event kind -> tuple[CompiledEffect]
    activated: tuple[CompiledActivated, ...]
    untargetable: bool
    protections: tuple  # ((kinds, op, value), ...)
    play_onto: tuple  # (Zone, ...)
    any_color: Optional[tuple]


# id(library) -> (weak reference to the library, its compiled cards).  The reference is
# weak so that a library nobody uses any more is freed with its entry (reloading a card
# set that keeps changing made this grow by one library per load).
_COMPILED: dict = {}


def compiled_for(library) -> dict:
    """The compiled cards of a library, by card id (compiled on first use, then kept as
    long as the library lives)."""
    key = id(library)
    hit = _COMPILED.get(key)
    if hit is None or hit[0]() is not library:
        compiled = {card.id: compile_card(card) for card in library}
        hit = (weakref.ref(library, lambda _ref, key=key: _forget(key, _ref)), compiled)
        _COMPILED[key] = hit
    return hit[1]


def _forget(key: int, ref) -> None:
    hit = _COMPILED.get(key)
    if hit is not None and hit[0] is ref:
        del _COMPILED[key]


# --------------------------------------------------------------------------- helpers
def _who(owner: Optional[str], ctx: Ctx) -> Optional[str]:
    if owner == "you":
        return ctx.controller
    if owner == "opponent":
        return OTHER[ctx.controller]
    return None


_OPS = {
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "=": lambda a, b: a == b,
}


def zone_squares(zone: ast.Zone, ctx_controller: str) -> tuple[str, ...]:
    """The squares a field zone names, relative to the effect's controller."""
    if zone.name == "battle field":
        return BATTLE_ROW
    if zone.name == "my field":
        if zone.owner == "you":
            return HOME_ROW[ctx_controller]
        if zone.owner == "opponent":
            return HOME_ROW[OTHER[ctx_controller]]
        return HOME_ROW["A"] + HOME_ROW["B"]
    return SQUARES


def _zone_cards(zone: ast.Zone) -> Callable[[Ctx], list]:
    """Cards in a zone: top cards for field zones (R13.3), stuns for standby."""
    name = zone.name
    if zone.is_field:
        holder_filter = zone.owner if name != "my field" else None

        def field_cards(ctx):
            st = ctx.game.state
            want = _who(holder_filter, ctx)
            out = []
            for sq in zone_squares(zone, ctx.controller):
                stack = st.field[sq]
                if stack and (want is None or stack[0].owner == want):
                    out.append(stack[-1])
            return out

        return field_cards
    attr = {"hand": "hand", "stock": "stock", "break": "break_", "standby": "standby"}[name]

    def zone_cards(ctx):
        players = ctx.game.state.players
        want = _who(zone.owner, ctx)
        order = (want,) if want else (ctx.controller, OTHER[ctx.controller])
        out = []
        for p in order:
            cards = getattr(players[p], attr)
            out.extend(c for c in cards if c is not None)
        return out

    return zone_cards


def _card_tests(f: ast.Filter) -> list:
    """The filter's own tests ``(ctx, card) -> bool``: owner, states, name, cost."""
    tests = []
    if f.owner is not None:
        owner = f.owner
        tests.append(lambda ctx, c: c.owner == _who(owner, ctx))
    for state in f.states:
        if state == "ready":
            tests.append(lambda ctx, c: c.zone == "standby" and not c.exhausted)
        elif state == "exhausted":
            tests.append(lambda ctx, c: c.zone == "standby" and c.exhausted)
        elif state == "other":
            tests.append(lambda ctx, c: c is not ctx.source)
    if f.name is not None:
        name = f.name
        tests.append(lambda ctx, c: c.face.name == name or c.face.en_name == name)
    if f.cost is not None:
        op, value = _OPS[f.cost.op], f.cost.value
        tests.append(lambda ctx, c: op(c.cost, value))
    return tests


def compile_filter(f: ast.Filter) -> Callable[[Ctx], list]:
    """All cards a filter matches (a list, in zone order)."""
    zone = f.zone or (ast.Zone(None, "standby") if f.noun == "stun" else ast.Zone(None, "field"))
    source = _zone_cards(zone)
    tests = _card_tests(f)

    def matching(ctx):
        cards = source(ctx)
        if tests:
            cards = [c for c in cards if all(t(ctx, c) for t in tests)]
        return cards

    return matching


def card_matches(f: ast.Filter) -> Callable:
    """A predicate ``(ctx, card) -> bool`` for event subjects (``your other card on field``)."""
    zone = f.zone
    in_zone: Callable = lambda ctx, c: True
    if zone is not None:
        if zone.is_field:
            squares_of = zone

            def in_zone(ctx, c):
                if c.zone != "field":
                    return False
                want = _who(squares_of.owner, ctx) if squares_of.name != "my field" else None
                if want is not None and c.owner != want:
                    return False
                return c.square in zone_squares(squares_of, ctx.controller)
        else:
            zname = "break" if zone.name == "break" else zone.name
            zowner = zone.owner

            def in_zone(ctx, c):
                want = _who(zowner, ctx)
                return (want is None or c.owner == want) and (
                    c.zone == zname or zname == "hand")  # a played card has just left the hand
    tests = [in_zone] + _card_tests(f)
    return lambda ctx, c: all(t(ctx, c) for t in tests)


# --------------------------------------------------------------------------- selectors
def _no_such_card(ctx) -> str:
    return "there is no such card"


def _no_match(ctx) -> str:
    return "no card matches"


def _empty_stock(ctx) -> str:
    return "the stock is empty"


class Sel:
    """A compiled selector: ``candidates`` (what could be meant) and ``pick`` (decide);
    ``why`` says, for the log, why it found no card (called only then)."""

    __slots__ = ("candidates", "pick", "single", "why")

    def __init__(self, candidates, pick, single=True, why=_no_such_card):
        self.candidates = candidates
        self.pick = pick
        self.single = single
        self.why = why


def compile_selector(sel, prompt: str) -> Sel:
    if isinstance(sel, ast.This):
        def this(ctx):
            return [ctx.source] if ctx.source is not None else []
        return Sel(this, this)
    if isinstance(sel, ast.It):
        def it(ctx):
            return [ctx.it] if ctx.it is not None else []
        return Sel(it, it)
    if isinstance(sel, ast.ThatCard):
        def that(ctx):
            card = ctx.event.card if ctx.event is not None else None
            return [card] if card is not None else []
        return Sel(that, that)
    if isinstance(sel, ast.EndCard):
        zone, end = sel.zone, sel.end

        def end_card(ctx):
            p = _who(zone.owner, ctx) or ctx.controller
            stock = ctx.game.state.players[p].stock
            if not stock:
                return []
            return [stock[0] if end == "top" else stock[-1]]
        return Sel(end_card, end_card, why=_empty_stock)
    if isinstance(sel, ast.Stacks):
        zone = sel.zone

        def stacks(ctx):
            st = ctx.game.state
            want = _who(zone.owner, ctx) if zone.name != "my field" else None
            out = []
            for sq in zone_squares(zone, ctx.controller):
                stack = st.field[sq]
                if stack and (want is None or stack[0].owner == want):
                    out.extend(stack)
            return out
        return Sel(stacks, stacks, single=False, why=lambda ctx: "there is no stack there")
    if isinstance(sel, ast.Every):
        every = compile_filter(sel.filter)
        return Sel(every, every, single=False, why=_no_match)
    if isinstance(sel, ast.Random):
        matching = compile_filter(sel.filter)

        def random_pick(ctx):
            cards = matching(ctx)
            if not cards:
                return []
            return [cards[ctx.game.state.rng_for_use().randrange(len(cards))]]
        return Sel(matching, random_pick, why=_no_match)
    if isinstance(sel, ast.Choose):
        matching = compile_filter(sel.filter)
        on_field = (sel.filter.zone or ast.Zone(None, "field")).is_field and sel.filter.noun != "stun"

        if on_field:
            def targetable(ctx):
                g = ctx.game
                return [c for c in matching(ctx) if g.targetable(c)]

            def choose_target(ctx):
                chosen = ctx.game.choose(ctx.controller, prompt, targetable(ctx))
                if chosen is None:
                    return []
                ctx.game.target(chosen, ctx)  # R13.4/R13.5: responses resolve at once
                return [chosen]

            def why_none(ctx):
                if matching(ctx):
                    return "the cards that match cannot be targeted (R13.4)"
                return "no card matches"
            return Sel(targetable, choose_target, why=why_none)

        def choose(ctx):
            chosen = ctx.game.choose(ctx.controller, prompt, matching(ctx))
            return [] if chosen is None else [chosen]
        return Sel(matching, choose, why=_no_match)
    raise TypeError(f"unknown selector {sel!r}")  # pragma: no cover - the checker rejects


# --------------------------------------------------------------------------- actions
class Act:
    __slots__ = ("run", "feasible")

    def __init__(self, run: Run, feasible: Test):
        self.run = run
        self.feasible = feasible


def _where(card) -> str:
    if card.zone == "field":
        return card.square
    if card.zone == "standby":
        return f"{card.owner}'s standby slot {card.slot + 1}"
    if card.zone == "stock":
        return f"{card.owner}'s stock"
    return f"{card.owner}'s {card.zone}"


def _always(ctx):
    return True


def _describe_selector(sel) -> str:
    if isinstance(sel, (ast.Choose, ast.Random)):
        f = sel.filter
        where = f" in {_zone_words(f.zone)}" if f.zone else ""
        return f"a {'random ' if isinstance(sel, ast.Random) else ''}{f.noun}{where}"
    return "a card"


def _zone_words(zone: Optional[ast.Zone]) -> str:
    if zone is None:
        return "the field"
    owner = {"you": "your ", "opponent": "the opponent's ", "owner": "its owner's "}.get(zone.owner, "")
    return f"{owner}{zone.name}"


def _by(ctx) -> str:
    return ctx.source.label() if ctx.source is not None else "the effect"


def _nothing(ctx, text: str, sel: Sel) -> None:
    """Log an action that finds no card, and why (only when the game keeps a log)."""
    game = ctx.game
    if game._logging:
        game.note(ctx.controller, "nothing", f"{_by(ctx)}: nothing to do: {text} ({sel.why(ctx)})")


def compile_action(action) -> Act:
    text = fmt_action(action)  # for the log: the action as the card says it
    if isinstance(action, ast.Draw):
        n = action.count

        def draw(ctx):
            game = ctx.game
            stock = game.state.players[ctx.controller].stock
            # at most the cards the stock holds: once it is empty every further draw draws
            # nothing (R5.2 ruling), said once in the log (`draw 1000000000 cards` ends at once)
            for _ in range(n):
                empty = not stock
                game.draw(ctx.controller, by_effect=True)
                if empty:
                    break
        return Act(draw, lambda ctx: bool(ctx.game.state.players[ctx.controller].stock))

    if isinstance(action, ast.Look):
        sel = compile_selector(action.what, "look at a card")

        def look(ctx):
            cards = sel.pick(ctx)
            if cards:
                ctx.it = cards[0]
                ctx.game.state.tell(cards[0].uid, (ctx.controller,))
                ctx.game.note_private(ctx.controller, "look", f"looks at {cards[0].label()}")
            else:
                _nothing(ctx, text, sel)
        return Act(look, lambda ctx: bool(sel.candidates(ctx)))

    if isinstance(action, ast.Move):
        sel = compile_selector(action.what, f"choose {_describe_selector(action.what)} to move")
        dest, dest_feasible = compile_dest(action.to)
        end = action.to.end if isinstance(action.to, ast.ToEnd) else None

        def move(ctx):
            cards = sel.pick(ctx)
            if not cards:
                _nothing(ctx, text, sel)
                return
            game = ctx.game
            for card in cards:
                ctx.it = card
                where = _where(card)
                from_zone = card.zone
                if not dest(ctx, card):
                    continue  # it stayed where it was (no empty square): said by dest
                to = _where(card)
                if end is not None and card.zone == "stock":
                    to = f"the {end} of {to}"
                if from_zone in _HIDDEN and card.zone in _HIDDEN:
                    # from one hidden zone to another: only its mover sees which card
                    game.state.tell(card.uid, (ctx.controller,))
                    game.note_private(ctx.controller, "move",
                                      f"{card.label()} moves from {where} to {to}")
                else:
                    game.note(ctx.controller, "move", f"{card.label()} moves from {where} to {to}")

        def feasible(ctx):
            cards = sel.candidates(ctx)
            return bool(cards) and dest_feasible(ctx, cards[0])
        return Act(move, feasible)

    if isinstance(action, ast.Exhaust):
        sel = compile_selector(action.what, "choose a stun to exhaust")

        def exhaust(ctx):
            cards = sel.pick(ctx)
            if not cards:
                _nothing(ctx, text, sel)
            for card in cards:
                ctx.it = card
                ctx.game.exhaust_by_effect(card)
        return Act(exhaust, lambda ctx: bool(sel.candidates(ctx)))

    if isinstance(action, ast.Shuffle):
        zone = action.zone

        def shuffle(ctx):
            p = _who(zone.owner, ctx) or ctx.controller
            ctx.game.shuffle_stock(p)
        return Act(shuffle, _always)

    if isinstance(action, ast.ChooseAction):
        sel = compile_selector(action.what, f"choose {_describe_selector(action.what)}")

        def choose(ctx):
            cards = sel.pick(ctx)
            ctx.it = cards[0] if cards else None
            if not cards:
                _nothing(ctx, text, sel)
        return Act(choose, lambda ctx: bool(sel.candidates(ctx)))

    if isinstance(action, ast.EnterAsCopy):
        # done as the card enters (R7.2); nothing is left to do when the effect resolves
        return Act(lambda ctx: None, _always)

    if isinstance(action, ast.CancelPlay):
        def cancel(ctx):
            play = ctx.event.play if ctx.event is not None else None
            if play is not None:
                play.cancelled = True
                ctx.game.note(ctx.controller, "cancel", f"cancels the play of {play.card.label()}")
        return Act(cancel, lambda ctx: ctx.event is not None and ctx.event.play is not None)

    if isinstance(action, ast.AddPoints):
        n, color = action.count, action.color

        def add(ctx):
            ctx.game.add_points(ctx.controller, color, n)
        return Act(add, _always)

    if isinstance(action, ast.Swap):
        first = compile_selector(action.first, "choose a card to swap")
        second = compile_selector(action.second, "choose a card to swap with")

        def swap(ctx):
            a = first.pick(ctx)
            b = second.pick(ctx) if a else []
            if a and b:
                ctx.game.swap_squares(a[0], b[0])
            else:
                _nothing(ctx, text, second if a else first)

        def feasible(ctx):
            a, b = first.candidates(ctx), second.candidates(ctx)
            return bool(a) and bool(b) and a[0].zone == "field" and b[0].zone == "field"
        return Act(swap, feasible)

    if isinstance(action, ast.May):
        inner = compile_action(action.action)

        def may(ctx):
            ctx.did = False
            game = ctx.game
            if not inner.feasible(ctx):
                if game._logging:  # ruling-format: no legal option, not asked, counts as `no`
                    game.note(ctx.controller, "not_offered",
                              f"{_by(ctx)}: not offered: {text} (it has no legal option)")
                return
            who = ctx.source.label() if ctx.source is not None else "effect"
            if game.ask_yes_no(ctx.controller, f"{who}: use the optional (may) effect?"):
                inner.run(ctx)
                ctx.did = True
            elif game._logging:
                game.note(ctx.controller, "declined", f"{_by(ctx)}: declined: {text}")
        return Act(may, inner.feasible)

    if isinstance(action, ast.If):
        cond = compile_condition(action.condition)
        why = _why_not(action.condition)
        inner = compile_action(action.action)

        def if_(ctx):
            if cond(ctx):
                inner.run(ctx)
            elif ctx.game._logging:
                ctx.game.note(ctx.controller, "condition",
                              f"{_by(ctx)}: not done: {text} ({why(ctx)})")
        return Act(if_, lambda ctx: cond(ctx) and inner.feasible(ctx))

    raise TypeError(f"unknown action {action!r}")  # pragma: no cover - the checker rejects


def compile_dest(dest):
    """(move(ctx, card), feasible(ctx, card)) for a destination."""
    if isinstance(dest, ast.ToEnd):
        bottom = dest.end == "bottom"

        def to_end(ctx, card):
            ctx.game.move(card, "stock", bottom=bottom)
            return True
        return to_end, lambda ctx, card: True

    if isinstance(dest, ast.ToEmptySquare):
        zone = dest.zone

        def empty_squares(ctx):
            st = ctx.game.state
            return [sq for sq in zone_squares(zone, ctx.controller) if not st.field[sq]]

        def to_square(ctx, card):
            squares = empty_squares(ctx)
            square = ctx.game.choose_square(ctx.controller, "choose an empty square", squares)
            if square is None:
                if ctx.game._logging:
                    ctx.game.note(ctx.controller, "nothing", f"{card.label()} stays where it is: "
                                  f"no empty square of {fmt_zone(zone)}")
                return False
            ctx.game.place_by_effect(card, square, ctx)
            return True
        return to_square, lambda ctx, card: bool(empty_squares(ctx))

    assert isinstance(dest, ast.ToZone)
    name, as_stun = dest.zone.name, dest.as_stun
    if name == "standby":
        exhausted = as_stun == "exhausted"

        def to_standby(ctx, card):
            ctx.game.move(card, "standby", exhausted=exhausted)
            return True

        def has_slot(ctx, card):
            return any(s is None for s in ctx.game.state.players[card.owner].standby)
        return to_standby, has_slot
    zone = {"break": "break", "hand": "hand", "stock": "stock"}.get(name, name)

    def to_zone(ctx, card):
        ctx.game.move(card, zone)
        return True
    return to_zone, lambda ctx, card: True


_QUANTITY_WORDS = {"squares": ("holds", "square", "squares"), "points": ("has", "point", "points"),
                   "cards in hand": ("has", "card in hand", "cards in hand")}


def _why_not(cond) -> Callable[[Ctx], str]:
    """For the log: why a condition is not met (called only then)."""
    if isinstance(cond, ast.YouDid):
        return lambda ctx: "the optional step before it was not done"
    verb, one, many = _QUANTITY_WORDS.get(cond.quantity, ("has", cond.quantity, cond.quantity))

    def why(ctx):
        st = ctx.game.state
        me, them = ctx.controller, OTHER[ctx.controller]
        if cond.quantity == "squares":
            a, b = st.squares_held(me), st.squares_held(them)
        elif cond.quantity == "points":
            a, b = st.points(me), st.points(them)
        else:
            a, b = len(st.players[me].hand), len(st.players[them].hand)
        return (f"not met: {me} {verb} {a} {one if a == 1 else many}, "
                f"{them} {verb} {b} {one if b == 1 else many}")
    return why


def compile_condition(cond) -> Test:
    if isinstance(cond, ast.YouDid):
        return lambda ctx: ctx.did
    assert isinstance(cond, ast.Compare)
    quantity = cond.quantity

    def amount(ctx, who):
        p = ctx.controller if who == "you" else OTHER[ctx.controller]
        st = ctx.game.state
        if quantity == "squares":
            return st.squares_held(p)
        if quantity == "points":
            return st.points(p)
        return len(st.players[p].hand)

    left, right = cond.left, cond.right
    if cond.relation == "fewer":
        return lambda ctx: amount(ctx, left) < amount(ctx, right)
    return lambda ctx: amount(ctx, left) > amount(ctx, right)


def compile_body(actions) -> Run:
    acts = [compile_action(a) for a in actions]

    def body(ctx):
        for act in acts:
            act.run(ctx)
    return body


# --------------------------------------------------------------------------- events
def compile_event_match(event: ast.Event) -> Callable:
    """``(game, listener, game_event) -> bool``: does this event concern the listener?"""
    kind = event.kind
    if kind in ("turn_start", "turn_end", "plays"):
        rel = event.player
        subject = card_matches(event.subject) if isinstance(event.subject, ast.Filter) else None

        def player_match(game, listener, ev):
            mine = ev.player == listener.owner
            if (rel == "you") != mine:
                return False
            if subject is not None:
                return subject(Ctx(game, listener.owner, listener, ev), ev.card)
            return True
        return player_match
    if isinstance(event.subject, ast.This):
        to = event.to

        def this_match(game, listener, ev):
            if ev.card is not listener:
                return False
            return to is None or ev.to == to
        return this_match
    subject = card_matches(event.subject)
    to = event.to

    def filter_match(game, listener, ev):
        if to is not None and ev.to != to:
            return False
        return subject(Ctx(game, listener.owner, listener, ev), ev.card)
    return filter_match


# --------------------------------------------------------------------------- cards
def _effect_text(card, effect) -> str:
    """The log's line for an effect that resolves: the card, and which of its effects."""
    text = f"{card.id} {card.name}: {effect.where} effect"
    event = getattr(effect, "event", None)
    return f"{text} ({fmt_event(event)})" if event is not None else text


def _effect_label(effect) -> str:
    event = getattr(effect, "event", None)
    return fmt_event(event) if event is not None else effect.where


# R13.5: triggers of the same card name and the same effect text cannot be told apart; one
# number per (name, effect) across every compiled set (the AST compares without positions)
_GROUPS: dict = {}


def _group(card, effect) -> int:
    return _GROUPS.setdefault((card.name, effect), len(_GROUPS) + 1)


def _entering(game, listener, event) -> bool:
    """A dimension effect's match: it is queued only for the card that entered (R13.1)."""
    return True


def _not_world_gainer(card) -> Optional[str]:
    """The first construct of another game (docs/language.md, "Imitation World's words")
    in ``card``, named; None when it has none.  World Gainer's checker refuses them in its
    cards (its vocabulary does not use them); a card built otherwise stops here."""
    stack: list = [card.effects]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(node)
            continue
        if not attrs.has(type(node)):
            continue
        if type(node).__name__ in _OTHER_GAMES:
            return _OTHER_GAMES[type(node).__name__]
        if isinstance(node, ast.Event) and (node.kind in ("out", "judgment") or node.player == "every"):
            return f"the event `{node.kind}`" if node.player != "every" else "`every turn`"
        if isinstance(node, ast.Filter) and (node.values or node.alternatives):
            return "a filter's stat words or `or`"
        if isinstance(node, ast.Triggered) and node.condition is not None:
            return "a trigger's condition"
        if isinstance(node, ast.ThatCard) and node.noun != "card":
            return f"`that {node.noun}`"
        stack.extend(getattr(node, f.name) for f in attrs.fields(type(node))
                     if not f.name.endswith("pos"))
    return None


_OTHER_GAMES = {"Turn": "`turn`", "Modify": "`gets`", "PlayerDraws": "`the active player draws`",
                "Holds": "`holds`", "WhenPlayed": "`when played:`", "Attached": "`attached to`",
                "All": "a filter without an article"}


def compile_card(card) -> CompiledCard:
    foreign = _not_world_gainer(card)
    if foreign is not None:
        raise ValueError(f"card {card.id} uses {foreign}, which World Gainer's engine does not "
                         "carry out: read its cards with World Gainer's words (`wgdsl check` "
                         "refuses it there)")
    dimension, triggers, activated = [], {}, []
    entry_copy = None
    untargetable, protections, play_onto, any_color = False, [], [], None
    for eff in card.effects:
        if isinstance(eff, ast.Triggered):
            run = compile_body(eff.actions)
            about = dict(where=eff.where, card=card.id, label=_effect_label(eff),
                         group=_group(card, eff))
            if eff.event is None:
                dimension.append(CompiledEffect("dimension", run, _entering,
                                                _effect_text(card, eff), **about))
                for a in eff.actions:
                    if isinstance(a, ast.EnterAsCopy) and entry_copy is None:
                        entry_copy = compile_selector(a.what, "choose a card to copy").candidates
            else:
                triggers.setdefault(eff.event.kind, []).append(
                    CompiledEffect(eff.event.kind, run, compile_event_match(eff.event),
                                   _effect_text(card, eff), **about))
        elif isinstance(eff, ast.Activated):
            cost = compile_action(eff.cost) if eff.cost is not None else None
            activated.append(CompiledActivated(
                phase=eff.phase,
                cost=cost.run if cost else None,
                cost_feasible=cost.feasible if cost else _always,
                run=compile_body(eff.actions),
                text=_effect_text(card, eff),
            ))
        elif isinstance(eff, ast.StaticEffect):
            for rule in eff.rules:
                if isinstance(rule, ast.Untargetable):
                    untargetable = True
                elif isinstance(rule, ast.Protected):
                    protections.append((frozenset(rule.kinds), _OPS[rule.cost.op], rule.cost.value))
                elif isinstance(rule, ast.PlayOnto):
                    play_onto.append(rule.zone)
                elif isinstance(rule, ast.AnyColor):
                    any_color = rule.colors
    return CompiledCard(
        dimension=tuple(dimension),
        entry_copy=entry_copy,
        triggers={k: tuple(v) for k, v in triggers.items()},
        activated=tuple(activated),
        untargetable=untargetable,
        protections=tuple(protections),
        play_onto=tuple(play_onto),
        any_color=any_color,
    )
