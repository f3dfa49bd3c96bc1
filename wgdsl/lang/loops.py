"""Effects that can trigger themselves again: the trigger graph of a card set.

A triggered effect (``dimension:`` or ``field when ...:``) is a node.  An edge E → F
means: while E resolves, one of its actions can raise an event F waits for —

* a card put onto an empty square *enters* the field (its own dimension effects and
  every ``when ... enters field`` effect);
* a card moved from the field to a zone *leaves* it (``when ... leaves field [to ZONE]``);
* a card chosen on the field *becomes a target* (``when ... becomes target``), and so
  does the card a copy copies as it enters.

(Plays from hand, seizing and turns are never raised by effects: no edge leads to them.)
Which cards an action can be about is read from its words (``this``, ``a card named
"..."``, ``of cost 2 or less``, ``that card``, ``it``); anything else may be any card.

A cycle of this graph is a chain of effects that may never end.  It is only reported when
the cards it moves can come back: an edge that takes cards from a zone (the hand, the
stock, ...) needs some effect of the cycle to put cards into that zone, otherwise every
round uses a card up and the chain ends with the zone.  Each cycle found is a warning at
the action of the first card of the file on it, naming the cards and the path; the
engine itself stops such a chain at run time (MAX_RESOLUTIONS of
wgdsl.games.world_gainer.engine, raising RunawayEffects).  See docs/language.md, "Effects that never end".
"""

from __future__ import annotations

import operator
from typing import Iterable, Optional

import attrs

from . import ast
from .diagnostics import Diagnostic
from .fmt import fmt_action, fmt_event

FIELD = "field"
OFF_FIELD = frozenset({"hand", "stock", "break", "standby"})
ON_FIELD = frozenset({FIELD})
MAX_CYCLE = 8  # longest cycle searched for
MAX_PATHS = 20000  # paths explored per effect before giving up (a warning, not a proof)
_OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt, "=": operator.eq}


@attrs.frozen
class _Card:
    id: str
    names: frozenset
    cost: int
    effects: tuple
    copier: bool  # enters as a copy of another card: any dimension effect may follow
    own: bool  # written in the file being checked (not an included set)


@attrs.frozen
class _Raise:
    """An event an action can raise: its kind, the cards it can be about (None: any), the
    zones a leaving card goes to, where the moved cards come from (None: nothing moves)."""

    kind: str  # enters | leaves | targeted
    cards: Optional[frozenset]
    to: frozenset = frozenset()
    source: Optional[frozenset] = None
    action: Optional[ast.Action] = None


@attrs.define(eq=False)
class _Node:
    card: _Card
    effect: ast.Triggered
    order: int
    raises: list = attrs.Factory(list)
    puts: set = attrs.Factory(set)  # the zones its moves put cards into
    subject: Optional[frozenset] = None  # the ids its event's card filter can match (None: any)

    @property
    def name(self) -> str:
        event = self.effect.event
        return f"{self.card.id} ({fmt_event(event) if event is not None else 'dimension'})"


def _cards(cardset: ast.CardSet, included: Iterable) -> list[_Card]:
    out = []
    for c in included:
        out.append(_card(c.id, (c.name, c.en_name), c.cost, c.effects, own=False))
    for c in cardset.cards:
        cost = 0
        for stat in reversed(c.stats):  # the last cost written (Card.stat)
            if stat.key == "cost":
                cost = stat.value
                break
        out.append(_card(c.id, (c.name, c.en_name), cost if isinstance(cost, int) else 0,
                         c.effects, own=True))
    return out


def _card(cid, names, cost, effects, own) -> _Card:
    copier = False
    for e in effects:
        if isinstance(e, ast.Triggered) and e.event is None \
                and any(isinstance(a, ast.EnterAsCopy) for a in e.actions):
            copier = True
            break
    return _Card(cid, frozenset([n for n in names if n]), cost, tuple(effects), copier, own)


# ---------------------------------------------------------------------------- what an effect raises
class _Walk:
    """Reads one effect's actions in order, tracking where ``this`` and ``it`` are."""

    def __init__(self, node: _Node, cards: "_Cards"):
        self.node = node
        self.cards = cards
        effect = node.effect
        event = effect.event
        self.event = event
        self.this_at = self._this_at_start(event)
        self.it: tuple = (None, frozenset())  # (cards, where they are)

    @staticmethod
    def _this_at_start(event: Optional[ast.Event]) -> frozenset:
        if event is None or not isinstance(event.subject, ast.This):
            return ON_FIELD  # a dimension effect, or a field effect of a card on the field
        if event.kind == "leaves":
            return frozenset({event.to}) if event.to else OFF_FIELD
        if event.kind == "seized":
            return frozenset({"break"})
        return ON_FIELD

    def matching(self, f: ast.Filter) -> Optional[frozenset]:
        """The ids a filter can match (None: any card)."""
        if f.name is None and f.cost is None:
            return None
        key = (f.name, None if f.cost is None else (f.cost.op, f.cost.value))
        known = self.cards.matched.get(key)
        if known is None:
            known = self.cards.matched[key] = self._matching(f)
        return known

    def _matching(self, f: ast.Filter) -> frozenset:
        found = []
        # a name picks its few cards from the index; a cost alone looks at every card
        for c in self.cards.by_name.get(f.name, ()) if f.name is not None else self.cards.all:
            if f.cost is not None and not _OPS.get(f.cost.op, operator.eq)(c.cost, f.cost.value):
                continue
            found.append(c.id)
        return frozenset(found)

    def selected(self, sel) -> tuple[Optional[frozenset], frozenset]:
        """(the ids ``sel`` can pick, the zones they are in)."""
        if isinstance(sel, ast.This):
            return frozenset({self.node.card.id}), self.this_at
        if isinstance(sel, ast.It):
            return self.it
        if isinstance(sel, ast.ThatCard):
            event = self.event
            if event is None:
                return None, frozenset()
            subject = event.subject
            ids = (frozenset({self.node.card.id}) if isinstance(subject, ast.This)
                   else self.matching(subject) if isinstance(subject, ast.Filter) else None)
            if event.kind == "leaves":
                return ids, frozenset({event.to}) if event.to else OFF_FIELD
            if event.kind == "seized":
                return ids, frozenset({"break"})
            if event.kind == "plays":
                return ids, frozenset({"hand"})
            return ids, ON_FIELD
        if isinstance(sel, (ast.Choose, ast.Random, ast.Every)):
            f = sel.filter
            if f.zone is None:
                where = frozenset({"standby"}) if f.noun == "stun" else ON_FIELD
            else:
                where = ON_FIELD if f.zone.is_field else frozenset({f.zone.name})
            return self.matching(f), where
        if isinstance(sel, ast.Stacks):
            return None, ON_FIELD
        if isinstance(sel, ast.EndCard):
            return None, frozenset({"stock"})
        return None, frozenset()

    def targets(self, sel, action) -> None:
        """R13.4: a card chosen on the field becomes a target."""
        if isinstance(sel, ast.Choose) and sel.filter.noun != "stun":
            ids, where = self.selected(sel)
            if FIELD in where:
                self.node.raises.append(_Raise("targeted", ids, action=action))

    def action(self, action, maybe: bool = False) -> None:
        if isinstance(action, ast.May):
            self.action(action.action, maybe=True)
            return
        if isinstance(action, ast.If):
            self.action(action.action, maybe=True)
            return
        if isinstance(action, ast.Swap):
            self.targets(action.first, action)
            self.targets(action.second, action)
            return
        what = getattr(action, "what", None)
        if what is None or isinstance(action, ast.EnterAsCopy):
            return  # the copy's target is chosen as the card enters (see `enters` below)
        self.targets(what, action)
        ids, where = self.selected(what)
        if isinstance(action, ast.Move):
            dest = action.to
            if isinstance(dest, ast.ToEmptySquare):
                now = ON_FIELD
                self.node.raises.append(_Raise("enters", ids, source=where, action=action))
                if ids is None or not self.cards.copiers.isdisjoint(ids):
                    self.node.raises.append(_Raise("targeted", None, action=action))
            else:
                zone = "stock" if isinstance(dest, ast.ToEnd) else dest.zone.name
                # a full standby sends the card to the break instead
                now = frozenset({zone, "break"}) if zone == "standby" else frozenset({zone})
                if FIELD in where:
                    self.node.raises.append(_Raise("leaves", ids, to=now, source=ON_FIELD,
                                                   action=action))
            self.node.puts.update(now)
        else:
            now = where
        if isinstance(what, ast.This):
            self.this_at = (self.this_at | now) if maybe else now
        if isinstance(action, (ast.Look, ast.Move, ast.Exhaust, ast.ChooseAction)):
            self.it = (ids, (where | now) if maybe else now)


class _Cards:
    """The cards with the indexes the walk asks: by name, and the ids of the copiers
    (looking through every card for each filter made the check quadratic in the set)."""

    def __init__(self, cards: list[_Card]):
        self.all = cards
        self.by_name: dict[str, list[_Card]] = {}
        for c in cards:
            for name in c.names:
                self.by_name.setdefault(name, []).append(c)
        self.copiers = frozenset(c.id for c in cards if c.copier)
        self.matched: dict = {}  # (name, (op, value)) -> the ids a filter matches


def _nodes(cards: list[_Card]) -> list[_Node]:
    nodes = []
    index = _Cards(cards)
    for card in cards:
        for effect in card.effects:
            if not isinstance(effect, ast.Triggered):
                continue
            if effect.where != "dimension" and effect.where != "field":
                continue
            node = _Node(card, effect, len(nodes))
            walk = _Walk(node, index)
            if effect.event is not None and isinstance(effect.event.subject, ast.Filter):
                node.subject = walk.matching(effect.event.subject)
            for action in effect.actions:
                walk.action(action)
            nodes.append(node)
    return nodes


# ---------------------------------------------------------------------------- edges
def _about(ids: Optional[frozenset], card: _Card) -> bool:
    return ids is None or card.id in ids


def _overlap(a: Optional[frozenset], b: Optional[frozenset]) -> bool:
    return a is None or b is None or bool(a & b)


def _triggers(raised: _Raise, node: _Node, copiers: frozenset) -> bool:
    """Can ``raised`` trigger ``node``?  (``copiers``: the ids of the cards that enter as
    a copy, :func:`_copier_ids`.)"""
    event = node.effect.event
    if event is None:  # a dimension effect: its own card enters, or a copy of it does
        if raised.kind != "enters":
            return False
        return _about(raised.cards, node.card) or not copiers.isdisjoint(raised.cards)
    if event.kind != raised.kind:
        return False
    if event.kind == "leaves" and event.to is not None and event.to not in raised.to:
        return False
    subject = event.subject
    if isinstance(subject, ast.This):
        return _about(raised.cards, node.card)
    if isinstance(subject, ast.Filter):
        return _overlap(raised.cards, node.subject)
    return False


def _copier_ids(cards: list[_Card]) -> frozenset:
    """The ids whose card (the last one of that id, as a lookup by id finds it) enters as a
    copy: an event about one of them may start any dimension effect."""
    by_id = {c.id: c for c in cards}
    return frozenset(i for i, c in by_id.items() if c.copier)


def _order(node: _Node) -> int:
    return node.order


class _Edges(dict):
    """node -> {next node: [the raises that lead there]}, each node's edges worked out the
    first time they are asked for (the loop finder asks only for the nodes of its cycles:
    a set whose effects can all target any card has edges quadratic in its size)."""

    def __init__(self, nodes: list[_Node], copiers: frozenset):
        super().__init__()
        self.nodes = nodes
        self.copiers = copiers
        self.waiting: Optional[dict] = None  # the index below, made on first use

    def _index(self) -> None:
        # the nodes an event of each kind can trigger at all, in the nodes' order (a
        # dimension effect waits for its card to enter); and those of them that wait for
        # their own card (`this`, a dimension effect), by card id, and the others: an event
        # about a few cards looks only at their nodes and the others (comparing every raise
        # with every node made the check quadratic in the set)
        self.waiting: dict[str, list[_Node]] = {}
        self.own: dict[tuple, list[_Node]] = {}
        self.others: dict[str, list[_Node]] = {}
        for m in self.nodes:
            event = m.effect.event
            kind = "enters" if event is None else event.kind
            self.waiting.setdefault(kind, []).append(m)
            if event is None or isinstance(event.subject, ast.This):
                self.own.setdefault((kind, m.card.id), []).append(m)
            else:
                self.others.setdefault(kind, []).append(m)

    def __missing__(self, n: _Node) -> dict:
        if self.waiting is None:
            self._index()
        out = self[n] = {}
        copiers = self.copiers
        for raised in n.raises:
            kind, ids = raised.kind, raised.cards
            candidates = self.waiting.get(kind, ())
            if ids is None or len(ids) >= len(candidates) or (
                    kind == "enters" and not copiers.isdisjoint(ids)):
                pass  # about any card, or many: every node of the kind
            else:
                candidates = list(self.others.get(kind, ()))
                for i in ids:
                    candidates.extend(self.own.get((kind, i), ()))
                candidates.sort(key=_order)
            for m in candidates:
                if _triggers(raised, m, copiers):
                    out.setdefault(m, []).append(raised)
        return out


def _edges(nodes: list[_Node], cards: list[_Card]) -> dict:
    """node -> {next node: [the raises that lead there]}, every node's."""
    edges = _Edges(nodes, _copier_ids(cards))
    for n in nodes:
        edges[n]  # noqa: B018 (worked out on first use)
    return edges


class _Hub:
    """A vertex of the reachability graph that stands for a set of nodes (see
    :func:`_reach_graph`)."""

    __slots__ = ("succ",)

    def __init__(self):
        self.succ: list = []


def _reach_graph(nodes: list[_Node], copiers: frozenset) -> dict:
    """The trigger graph for reachability only, in size linear in the set's: vertex ->
    its successors.  Each raise leads to one hub shared by the raises alike (same kind,
    cards and zones), and that hub to the nodes the raise can trigger, partly through
    hubs of their own (every node of a kind, every node waiting for any card, every node
    whose event's card filter matches the same cards).  A node reaches another through
    hubs exactly when it does in the graph of :func:`_edges`, so both have the same
    strongly connected components among the nodes.  (``copiers``: :func:`_copier_ids`.)"""
    every: dict = {}  # (kind, zone) -> hub of every node an event of that kind can trigger
    dimension = _Hub()  # every dimension effect (an entering copy may start any)
    any_card: dict = {}  # (kind, zone) -> hub of the nodes whose filter matches any card
    own: dict = {}  # (kind, zone, id) -> the nodes waiting for that card, hubs of filters
    filters: dict = {}  # (kind, zone, ids) -> hub of the nodes whose filter matches ids
    for m in nodes:
        event = m.effect.event
        if event is None:
            key = ("enters", None)
            dimension.succ.append(m)
        else:
            subject = event.subject
            if not isinstance(subject, (ast.This, ast.Filter)):
                continue  # triggered by no raise
            key = (event.kind, event.to if event.kind == "leaves" else None)
        hub = every.get(key)
        if hub is None:
            hub = every[key] = _Hub()
        hub.succ.append(m)
        if event is None or isinstance(event.subject, ast.This):
            own.setdefault((*key, m.card.id), []).append(m)
        elif m.subject is None:
            hub = any_card.get(key)
            if hub is None:
                hub = any_card[key] = _Hub()
            hub.succ.append(m)
        else:
            hub = filters.get((*key, m.subject))
            if hub is None:
                hub = filters[(*key, m.subject)] = _Hub()
                for i in m.subject:
                    own.setdefault((*key, i), []).append(hub)
            hub.succ.append(m)
    graph: dict = {}
    raised_hubs: dict = {}
    for n in nodes:
        succ = graph[n] = []
        for raised in n.raises:
            kind, ids = raised.kind, raised.cards
            sig = (kind, raised.to if kind == "leaves" else None, ids)
            hub = raised_hubs.get(sig)
            if hub is None:
                hub = raised_hubs[sig] = _Hub()
                zones = (None, *raised.to) if kind == "leaves" else (None,)
                found: dict = {}  # (ordered, without repeats)
                if ids is None:
                    for zone in zones:
                        found[every.get((kind, zone))] = None
                else:
                    if kind == "enters" and not copiers.isdisjoint(ids):
                        found[dimension] = None
                    for zone in zones:
                        found[any_card.get((kind, zone))] = None
                        for i in ids:
                            for m in own.get((kind, zone, i), ()):
                                found[m] = None
                found.pop(None, None)
                hub.succ = list(found)
            succ.append(hub)
    for hub in (*every.values(), dimension, *any_card.values(), *filters.values(),
                *raised_hubs.values()):
        graph[hub] = hub.succ
    return graph


# ---------------------------------------------------------------------------- cycles
def _can_repeat(cycle: list[_Node], edges: dict) -> bool:
    """Every move of the cycle takes cards from a zone some effect of the cycle refills."""
    puts = set()
    for n in cycle:
        puts |= n.puts
    for i, n in enumerate(cycle):
        m = cycle[(i + 1) % len(cycle)]
        if not any(r.source is None or (r.source & puts) for r in edges[n][m]):
            return False
    return True


def _shortest_cycle(start: _Node, edges: dict, allowed: set) -> Optional[list[_Node]]:
    """The shortest cycle through ``start`` (within ``allowed``) whose cards can come back."""
    explored = 0
    for length in range(1, MAX_CYCLE + 1):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in edges[node]:
                explored += 1
                if explored > MAX_PATHS:
                    return None
                if len(path) == length:
                    if nxt is start and _can_repeat(path, edges):
                        return path
                    continue
                if nxt in allowed and nxt not in path:
                    stack.append((nxt, path + [nxt]))
    return None


def _components(nodes: list[_Node], edges: dict) -> dict:
    """Tarjan's strongly connected components: node -> component number."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    comp: dict = {}
    counter = [0, 0]  # nodes visited, components found

    def visit(root):
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                number = counter[1]  # the components found so far
                counter[1] += 1
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp[member] = number
                    if member is node:
                        break

    for n in nodes:
        if n not in index:
            visit(n)
    return comp


def trigger_graph(cardset: ast.CardSet, included: Iterable = ()) -> list[tuple]:
    """The set's trigger graph: ``(effect, effect, actions)`` for each edge, an effect named
    ``CARD (event)`` and ``actions`` the actions of the first that can raise the second's
    event (``wgdsl lint --graph``)."""
    cards = _cards(cardset, included)
    nodes = _nodes(cards)
    edges = _edges(nodes, cards)
    return [(n.name, m.name, tuple(r.action for r in raises))
            for n in nodes for m, raises in edges[n].items()]


def find_loops(cardset: ast.CardSet, included: Iterable = ()) -> list[Diagnostic]:
    """A warning for each chain of effects of ``cardset`` that can trigger itself forever."""
    cards = _cards(cardset, included)
    nodes = _nodes(cards)
    if not any(n.raises for n in nodes):
        return []
    copiers = _copier_ids(cards)
    comp = _components(nodes, _reach_graph(nodes, copiers))
    edges = _Edges(nodes, copiers)  # those of the nodes on cycles, as the search asks
    members: dict = {}
    for n in nodes:
        members.setdefault(comp[n], set()).add(n)
    covered: set = set()
    out = []
    for n in nodes:
        if not n.card.own or n in covered:
            continue
        group = members[comp[n]]
        if len(group) == 1 and not any(_triggers(r, n, edges.copiers) for r in n.raises):
            continue  # alone, and no edge to itself
        cycle = _shortest_cycle(n, edges, group)
        if cycle is None:
            continue
        covered.update(cycle)
        out.append(_warning(cardset.path, cycle, edges))
    return out


def _warning(path: str, cycle: list[_Node], edges: dict) -> Diagnostic:
    first, second = cycle[0], cycle[1 % len(cycle)]
    raised = edges[first][second][0]
    action = raised.action
    steps = " → ".join(n.name for n in cycle + [first])
    what = {"enters": "puts a card onto the field", "leaves": "takes a card off the field",
            "targeted": "targets a card"}[raised.kind]
    if len(cycle) == 1:
        message = f"this effect can trigger itself without end: {steps}"
    else:
        message = f"these effects can trigger each other without end: {steps}"
    then = "this effect again" if len(cycle) == 1 else f"{second.name}, and so on round the chain"
    hint = (f"`{fmt_action(action)}` {what}, which triggers {then}; if nothing ends it, a game "
            "stops it at the engine's limit of effect resolutions in one action. End it with a "
            "condition (`if ...:`), or move cards where they do not trigger it again "
            "(docs/language.md, \"Effects that never end\")")
    return Diagnostic(path, action.pos, message, hint, severity="warning")
