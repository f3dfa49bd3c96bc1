"""Test helpers for the engine: build a board directly, drive it, compare snapshots.

``board(...)`` sets a position up the way a ruling case's ``[state]`` does (nothing
triggers while it is set up) and returns a :class:`~wgdsl.games.world_gainer.engine.Game`
whose players answer from :class:`~wgdsl.games.world_gainer.agents.ScriptedAgent` lists.
``snapshot(game)`` is the whole state as plain data, so a refused action can be checked
to change nothing.
"""

from __future__ import annotations

from typing import Optional

from wgdsl.games.world_gainer.agents import ScriptedAgent
from wgdsl.games.world_gainer.engine import Action, Game  # noqa: F401  (re-exported for tests)
from wgdsl.games.world_gainer.state import PLAYERS, SQUARES, GameState
from wgdsl.kernel.errors import IllegalAction  # noqa: F401  (re-exported for tests)
from wgdsl.lang.cards import load_cards

LIB = load_cards()


def _pool(spec) -> dict:
    """A pool from a dict {color: n} or a list of colors (ruling-format style)."""
    if spec is None:
        return {}
    if isinstance(spec, dict):
        return {c: n for c, n in spec.items() if n}
    out: dict = {}
    for c in spec:
        out[c] = out.get(c, 0) + 1
    return out


def board(field: Optional[dict] = None, hands: Optional[dict] = None,
          stocks: Optional[dict] = None, standby: Optional[dict] = None,
          breaks: Optional[dict] = None, pool: Optional[dict] = None,
          answers: Optional[dict] = None, phase: str = "gain", active: str = "A",
          turn: int = 3, played: bool = False, stun_set: bool = False, seed: int = 0,
          first: str = "A") -> Game:
    """A game in the given position.

    - ``field``: ``{"C1": ("B", ["WG-001", "WG-008"])}`` (holder, cards bottom → top)
    - ``hands`` / ``breaks``: ``{"A": ["WG-006"]}``; ``stocks``: top first
    - ``standby``: ``{"A": ["WG-009", "WG-009:exhausted", ""]}`` (slot 1 first)
    - ``pool``: ``{"A": {"red": 2}}`` or ``{"A": ["red", "red"]}``
    - ``answers``: ``{"A": ["C1", "yes"]}`` for the ScriptedAgents
    """
    st = GameState.empty(seed)
    st.turn, st.phase, st.active, st.first = turn, phase, active, first
    st.played, st.stun_set = played, stun_set

    def new(owner, cid):
        return st.new_instance(owner, LIB[cid])

    for sq, (holder, cards) in (field or {}).items():
        for cid in cards:
            st.put(new(holder, cid), "field", square=sq)
    for p, cards in (hands or {}).items():
        for cid in cards:
            st.put(new(p, cid), "hand")
    for p, cards in (stocks or {}).items():
        for cid in cards:
            st.put(new(p, cid), "stock")  # appended: the list is top first
    for p, cards in (breaks or {}).items():
        for cid in cards:
            st.put(new(p, cid), "break")
    for p, slots in (standby or {}).items():
        for i, entry in enumerate(slots):
            if not entry:
                continue
            cid, _, state = entry.partition(":")
            st.put(new(p, cid), "standby", slot=i, exhausted=(state == "exhausted"))
    for p, spec in (pool or {}).items():
        st.players[p].pool = _pool(spec)
    agents = {p: ScriptedAgent((answers or {}).get(p, ())) for p in PLAYERS}
    return Game(st, LIB, agents)


# ---------------------------------------------------------------------- driving
def play(g: Game, card: str, square: str, player: Optional[str] = None,
         copy: Optional[str] = None) -> None:
    g.apply(Action("play", player or g.state.active, card=card, square=square, copy=copy))


def act(g: Game, kind: str, player: Optional[str] = None, **kw) -> None:
    g.apply(Action(kind, player or g.state.active, **kw))


def refused(g: Game, action: Action) -> IllegalAction:
    """Apply an action that must be refused; check nothing changed; return the error."""
    before = snapshot(g)
    try:
        g.apply(action)
    except IllegalAction as err:
        after = snapshot(g)
        assert after == before, "a refused action changed the state"
        return err
    raise AssertionError(f"{action} was accepted")


def answers_left(g: Game) -> dict:
    return {p: g.agents[p].remaining() for p in PLAYERS}


# ---------------------------------------------------------------------- inspecting
def ids(cards) -> list:
    return [c.id for c in cards]


def field_ids(g: Game, square: str) -> list:
    return [c.id for c in g.state.field[square]]


def hand(g: Game, p: str) -> list:
    return sorted(ids(g.state.players[p].hand))


def stock(g: Game, p: str) -> list:
    return ids(g.state.players[p].stock)


def brk(g: Game, p: str) -> list:
    return sorted(ids(g.state.players[p].break_))


def stuns(g: Game, p: str) -> list:
    """Slot 1 first: "" for an empty slot, "ID" ready, "ID:exhausted"."""
    out = []
    for s in g.state.players[p].standby:
        out.append("" if s is None else s.id + (":exhausted" if s.exhausted else ""))
    return out


def pool(g: Game, p: str) -> dict:
    return {c: n for c, n in g.state.players[p].pool.items() if n}


def _inst(i) -> tuple:
    return (i.uid, i.owner, i.base.id, i.zone, i.square, i.slot, i.exhausted,
            i.copy_of.id if i.copy_of is not None else None)


def snapshot(g: Game) -> dict:
    """Everything the rules can see, as plain data (for before/after comparisons)."""
    st = g.state
    players = {}
    for p in PLAYERS:
        ps = st.players[p]
        players[p] = {
            "stock": [_inst(i) for i in ps.stock],
            "hand": [_inst(i) for i in ps.hand],
            "standby": [None if s is None else _inst(s) for s in ps.standby],
            "break": [_inst(i) for i in ps.break_],
            "pool": {c: n for c, n in ps.pool.items() if n},
        }
    return {
        "players": players,
        "field": {sq: [_inst(i) for i in st.field[sq]] for sq in SQUARES},
        "turn": st.turn, "active": st.active, "phase": st.phase,
        "played": st.played, "stun_set": st.stun_set, "first": st.first,
        "winner": st.winner, "win_reason": st.win_reason, "next_uid": st.next_uid,
        "rng": st.rng.getstate(),
        "pending": len(g.pending),
        "answers": {p: getattr(g.agents.get(p), "position", None) for p in PLAYERS},
    }
