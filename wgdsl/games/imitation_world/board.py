"""A board as a ruling case prints it (imitation-world.md, "What a ruling case needs",
"The board"): an :class:`~.state.IWState` in the middle of a game, taken as printed —
nothing triggers, nothing is checked for a win, no deck is checked against IW R4.

``board`` is plain data: ``active``, ``turn``, ``phase``, ``max_turns``, ``territory``
(``None`` or ``(card, controller)``) and ``players``: seat -> ``aga``, ``hand``, ``deck``
(top first), ``barriers`` (ids top first, ``"?"`` for an anonymous card), ``cost``
(``{"unmarked": [ids]}`` or ``{faction: [ids]}``), ``set`` (entries with ``card``,
``state``, ``new``, ``attacked``, ``blocked``, ``enchant``, ``enchant_owner``), ``trash``,
``past``."""

from __future__ import annotations

import attrs

from .cards import Card
from .state import BIT, BOTH, SEATS, IWState, empty_data, other

ANONYMOUS = "?"


def with_anonymous(table):
    """``table`` with the anonymous card ``?`` (no name, type or faction: only ever a
    cost card, a barrier or an unknown card in a hand or deck)."""
    if ANONYMOUS in table.cards:
        return table
    cards = dict(table.cards)
    cards[ANONYMOUS] = Card(ANONYMOUS, ANONYMOUS, ANONYMOUS, "anonymous", "ambiguous")
    return attrs.evolve(table, cards=cards)


def state_from_board(game, table, board: dict) -> IWState:
    table = with_anonymous(table)
    cid, owner, place = [], [], []

    def new(ident: str, seat: str, zone: str) -> int:
        cid.append(ident)
        owner.append(seat)
        place.append(zone)
        return len(cid) - 1

    players = board["players"]
    zones = {}
    for s in SEATS:
        p = players[s]
        z = zones[s] = {}
        z["aga"] = new(p["aga"] if "aga" in p else table.plain_aga.id, s, "aga")
        for key in ("hand", "deck", "barriers", "trash", "past"):
            z[key] = [new(i, s, key) for i in p.get(key, ())]
        cost = p.get("cost") or {"unmarked": []}
        z["cost"] = {f: [new(i, s, "cost") for i in ids] for f, ids in cost.items()}
        z["set"] = []
        for e in p.get("set", ()):
            u = new(e["card"], s, "set")
            ench = None
            if e.get("enchant"):
                ench = new(e["enchant"], e.get("enchant_owner") or s, "enchant")
            z["set"].append((u, e, ench))
    terr = None
    if board.get("territory"):
        card, ctrl = board["territory"]
        terr = (new(card, ctrl, "territory"), ctrl)
    d = empty_data(owner, cid, board.get("max_turns", 500))
    active = board.get("active", "A")
    turn = board.get("turn", 3 if active == "A" else 4)
    d.turn, d.active = turn, active
    d.first = active if turn % 2 == 1 else other(active)
    d.setup_seat = None
    phase = board.get("phase", "main1")
    d.phase = phase
    d.hold = phase in ("start", "ripan", "draw", "end")
    d.step = "attack" if phase == "battle" else None
    for u, zone in enumerate(place):
        s = owner[u]
        d.kn[u] = BIT[s] if zone in ("hand", "barriers", "cost", "aga") else (
            0 if zone == "deck" else BOTH)
    for s in SEATS:
        z = zones[s]
        d.aga[s] = z["aga"]
        d.deck[s], d.hand[s], d.barriers[s] = z["deck"], z["hand"], z["barriers"]
        d.trash[s], d.past[s] = z["trash"], z["past"]
        if "unmarked" in z["cost"]:
            d.cun[s] = z["cost"]["unmarked"]
        else:
            d.cpiles[s] = z["cost"]
        for u, e, ench in z["set"]:
            d.setz[s].append(u)
            if e.get("state") == "pan":
                d.pan.add(u)
            for mark, marks in (("new", d.new), ("attacked", d.attacked),
                                ("blocked", d.blocked)):
                if e.get(mark):
                    marks.add(u)
            if ench is not None:
                d.ench[u] = ench
        if not d.barriers[s]:  # IW R19.1: derived
            d.aga_up[s] = True
            d.kn[d.aga[s]] = BOTH
    if terr is not None:
        d.terr, d.terr_ctrl = terr
    return IWState(game, table, d)
