"""One Imitation World game in progress (IW R1-R24): plain data and the engine.

**Data.**  Every physical card is a number (a *uid*); ``Data.cid[uid]`` is its card id and
``Data.owner[uid]`` its owner (IW R1.5), ``Data.kn[uid]`` a bit mask of the seats that know
it (IW R22.3: 1 = A, 2 = B).  Zones are lists of uids (decks top first); a set zone's marks
are sets of uids (pān, new, attacked, blocked, IW R1.6-R1.7); an enchant hangs on its geuda
in ``ench``.  A copy copies these containers (no deep copy).

**Decisions.**  The decisions of R24.2 that belong to the turn (barrier, cost, main,
attack, join, front, block) are the state's own data: its phase, step and attack record.
The questions abilities ask while they resolve (order, yes_no, choose; IW R21.2-R21.3) are
asked in the middle of the engine's run: stepped from outside, a question with no answer
yet stops the action (:class:`~wgdsl.kernel.decision.Suspend`) and the kernel's
:class:`~wgdsl.kernel.stepper.Stepper` keeps it as data, retracing the action with one
answer more when it comes (docs/architecture.md).

Rules are cited without the "IW " prefix (``R15.3``), as ruling cases write them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Optional

import attrs

from wgdsl.kernel.decision import Answer, Decision, Suspend
from wgdsl.kernel.errors import IllegalAction, RunawayEffects
from wgdsl.kernel.rng import MASK, below, shuffled
from wgdsl.kernel.stepper import Stepper, keep_straight_path
from wgdsl.kernel.triggers import next_to_resolve

from . import rules
from .abilities import Select

SEATS = ("A", "B")
BIT = {"A": 1, "B": 2}
BOTH = 3
WHOLE = 4  # not a seat: the whole state (to_dict) sees every card
PHASES = ("start", "ripan", "draw", "cost", "main1", "battle", "main2", "end")
_AUTO = frozenset(("start", "ripan", "draw", "end"))  # the phases that ask no decision
PLAYED = ("geuda", "enchant", "territory", "eventi", "object")
BARRIERS = 5  # R5.2
OPENING_HAND = 5  # R5.6
DRAW = 2  # R7.3


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def _seat_of(waiting: tuple) -> str:
    """The controller of a waiting ability (seat, uid, ability index)."""
    return waiting[0]


def _rule(err: IllegalAction) -> IllegalAction:
    """A refusal of rules.py ("IW R9.2") as ruling cases cite it ("R9.2")."""
    return IllegalAction(err.reason, err.rule.removeprefix("IW "))


class GameOver(Exception):
    """Raised inside a run when a win condition is met: nothing more happens (R20.4)."""


class Action:
    """An action of R24.2: equal iff their texts are (R24.3); ``kind`` is its first word.

    One object per text: ``Action(text)`` hands back the one made first (actions are
    frozen), so two actions are equal iff they are the same object, and a list's ``in``
    (the Stepper's test of an action applied) compares them in C, with no ``__eq__``
    called.  The legal actions of a state repeat the same few hundred texts game after
    game; the table of them is never emptied (an action a caller kept must stay equal to
    the one listed again)."""

    __slots__ = ("text", "kind", "words")

    def __new__(cls, text: str) -> "Action":
        a = _ACTIONS.get(text)
        if a is None:  # its first word and its words, read once
            a = _ACTIONS[text] = object.__new__(cls)
            object.__setattr__(a, "text", text)
            object.__setattr__(a, "kind", text.split(" ", 1)[0])
            object.__setattr__(a, "words", tuple(text.split()))
        return a

    def __setattr__(self, name: str, value: Any) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __reduce__(self) -> tuple:  # a copy or a pickle is the same object again
        return Action, (self.text,)

    def __repr__(self) -> str:
        return f"Action(text={self.text!r})"

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text}


# text -> Action: every action there is (see Action)
_ACTIONS: dict = {}
_new = object.__new__
_set_text, _set_kind, _set_words = Action.text.__set__, Action.kind.__set__, Action.words.__set__


def _actions_of(texts: list, found: list) -> list:
    """The actions of ``texts``, given ``found``: the known ones, None for a text not met
    yet (made here, as :class:`Action` makes it, without a call of it per text)."""
    for k, a in enumerate(found):
        if a is None:
            t = texts[k]
            a = _ACTIONS.get(t)  # (a list may hold one new text twice)
            if a is None:
                a = _ACTIONS[t] = _new(Action)
                _set_text(a, t)
                _set_kind(a, t.split(" ", 1)[0])
                _set_words(a, tuple(t.split()))
            found[k] = a
    return found


@attrs.frozen
class IWDecision(Decision):
    """A question an ability asks (R24.2: order, yes_no, choose): ``card`` is the card whose
    ability asks (None for ``order``)."""

    card: Optional[str] = None


NEXT, DONE = Action("next"), Action("done")
# the kernel's (current seats, acting seats, terminal) between steps of a game not over, by
# the seat that acts, and by the active seat when its opponent blocks (IWState._find_who)
_WHO = {s: ((s,), (s,), False) for s in SEATS}
_WHO_FOE = {s: _WHO[other(s)] for s in SEATS}
_OTHER = {"A": "B", "B": "A"}  # other(), read inline on the hot paths
# " ".join(["{}"] * n): a text's places for n cards (the attackers, the blockers)
_PLACES = tuple(" ".join(["{}"] * n) for n in range(8))
# the kinds of action whose step never meets a question (IWState._may_ask)
_QUIET = frozenset(("block", "cost", "barrier"))
# the hooks the public loop's straight path (IWState.apply, legal_actions, _find_who)
# reads inline or skips (it calls only _run): a subclass that gives its own is stepped by
# the kernel's path
_BYPASSED = ("_find_who", "_acting", "_legal_of", "_may_ask", "_run")
_NEXT_ONLY = [NEXT]  # shared: the Stepper hands out copies, never this list


class _Reads:
    """What the engine reads of a card table again and again, by card id: each card's
    type, its 常時 modifiers (only cards that have some), and what may ask a question
    (R21.2-R21.3): a play, the アウト時 and turn abilities.  Made once per table
    (:func:`_reads_of`)."""

    __slots__ = ("type", "mods", "out", "turn", "play_asks", "played", "act", "hand", "roles",
                 "barrier")

    def __init__(self, table):
        cards = table.cards
        self.type = {i: c.type for i, c in cards.items()}
        # id -> the Action `barrier ID` (the setup's choice, R5.2)
        self.barrier = {i: Action(f"barrier {i}") for i in cards}
        # id -> (type, faction, cost, `play ID`) of the cards played from the hand
        self.played = {i: (c.type, c.faction, c.cost, f"play {i}") for i, c in cards.items()
                       if c.type in PLAYED}
        # cost-zone shape -> {id: what a card of the hand gives in main (see _main_texts)}
        self.hand: dict = {}
        # id -> its activated ability (R21.1), for the ids with one
        self.act = {i: c.abilities.activated for i, c in cards.items()
                    if c.abilities.activated is not None}
        self.mods = {i: c.abilities.modifiers for i, c in cards.items() if c.abilities.modifiers}
        # id -> does one of its アウト時 (out) / turn abilities ask as it resolves
        self.out = _listeners(cards, ("out",))
        self.turn = _listeners(cards, ("turn_start", "turn_end"))
        # id -> the lists of the field index (_Field) a card of that id is kept in, for
        # the ids in one at least
        self.roles = {i: roles for i in cards if (roles := tuple(
            name for name, ids in (("turn", self.turn), ("out", self.out),
                                   ("mods", self.mods), ("act", self.act)) if i in ids))}
        # the ids whose play may ask: its own 登場時 abilities, or an eventi's effect (only
        # the played card's abilities start on a play, R21.6; one card's are never ordered)
        self.play_asks = frozenset(
            i for i, c in cards.items()
            if any(t.timing == "enter" and _asks(t.effect) for t in c.abilities.triggers)
            or (c.abilities.on_play is not None and _asks(c.abilities.on_play.effect)))


def _asks(ops: tuple) -> bool:
    """May running ``ops`` ask a question (``may``, ``choose``, a look at the top card)?"""
    return any(o.op in ("may", "choose", "look_top_may_bottom") or _asks(o.then) for o in ops)


def _listeners(cards: dict, timings: tuple) -> dict:
    """id -> whether one of its abilities of ``timings`` may ask, for the ids with one."""
    out = {}
    for i, c in cards.items():
        ts = [t for t in c.abilities.triggers if t.timing in timings]
        if ts:
            out[i] = any(_asks(t.effect) for t in ts)
    return out


class _Field:
    """The field index: the set-zone cards each hot reading needs, by seat, in set-zone
    order, kept as cards enter and leave a set zone (IWState._entered_setz,
    _leave_field) instead of the zones being scanned again at each reading (issue 17):
    ``turn`` the cards of ids with a turn ability, ``out`` with an アウト時 ability,
    ``mods`` with 常時 modifiers (as (modifiers, seat, uid), :meth:`IWState._mod_sources`'s
    entries), ``act`` with an activated ability.  Made from the zones when first read
    after a new state, a restore or a resample (IWState._field)."""

    __slots__ = ("turn", "out", "mods", "act")

    def __init__(self):
        self.turn, self.out = {"A": [], "B": []}, {"A": [], "B": []}
        self.mods, self.act = {"A": [], "B": []}, {"A": [], "B": []}


_ZONES: dict = {}  # (faction, cards) pairs, or the unmarked count -> rules.CostZone
_HOLDS: dict = {}  # (zone shape, faction, cost) -> does the cost condition hold (R9)
_TAILS: dict = {}  # (zone shape, markers) -> the placements' texts (R8.6)
_PLACED: set = set()  # (zone shape, to, mark, markers) of placements found legal (R8.6)
_FIXES: dict = {}  # (zone shape, faction, cost) -> does a play fix the pile (R9.2)
_READS: dict = {}  # id(table) -> (table, its _Reads); the table is kept so ids stay unique


def _reads_of(table) -> _Reads:
    found = _READS.get(id(table))
    if found is None or found[0] is not table:
        if len(_READS) > 256:
            _READS.clear()
        found = _READS[id(table)] = (table, _Reads(table))
    return found[1]


class Data:
    """The whole state of one game as plain values (see the module docstring)."""

    __slots__ = ("turn", "active", "first", "phase", "step", "hold", "setup_seat", "cid",
                 "owner", "kn", "deck", "hand", "barriers", "cun", "cpiles", "aga", "aga_up",
                 "setz", "pan", "new", "attacked", "blocked", "ench", "terr", "terr_ctrl",
                 "trash", "past", "eot", "attack", "rng", "max_turns", "winner", "reason",
                 "over", "log")

    def copy(self) -> "Data":
        d = Data.__new__(Data)
        d.turn, d.active, d.first, d.phase = self.turn, self.active, self.first, self.phase
        d.step, d.hold, d.setup_seat = self.step, self.hold, self.setup_seat
        d.cid, d.owner, d.kn = list(self.cid), self.owner, list(self.kn)
        d.deck, d.hand = _per_seat(self.deck), _per_seat(self.hand)
        d.barriers, d.cun = _per_seat(self.barriers), _per_seat(self.cun)
        c = self.cpiles
        d.cpiles = {"A": {f: p[:] for f, p in c["A"].items()} if c["A"] else {},
                    "B": {f: p[:] for f, p in c["B"].items()} if c["B"] else {}}
        d.aga, d.aga_up = self.aga, dict(self.aga_up)
        d.setz = _per_seat(self.setz)
        d.pan, d.new = set(self.pan), set(self.new)
        d.attacked, d.blocked = set(self.attacked), set(self.blocked)
        d.ench = dict(self.ench)
        d.terr, d.terr_ctrl = self.terr, self.terr_ctrl
        d.trash, d.past = _per_seat(self.trash), _per_seat(self.past)
        d.eot = list(self.eot)
        a = self.attack
        d.attack = None if a is None else {k: (list(v) if isinstance(v, list) else v)
                                           for k, v in a.items()}
        d.rng, d.max_turns = self.rng, self.max_turns
        d.winner, d.reason, d.over = self.winner, self.reason, self.over
        d.log = list(self.log)  # entries are tuples, never changed once written
        return d


def _per_seat(zones: dict) -> dict:
    """A copy of a seat -> list map (every one has the keys of SEATS, in that order)."""
    return {"A": zones["A"][:], "B": zones["B"][:]}


def empty_data(owner: list, cid: list, max_turns: int) -> Data:
    d = Data.__new__(Data)
    d.turn, d.active, d.first, d.phase, d.step, d.hold = 1, "A", None, "setup", None, False
    d.setup_seat = "A"
    d.cid, d.owner, d.kn = cid, owner, [0] * len(cid)
    d.deck = {s: [] for s in SEATS}
    d.hand = {s: [] for s in SEATS}
    d.barriers = {s: [] for s in SEATS}
    d.cun = {s: [] for s in SEATS}
    d.cpiles = {s: {} for s in SEATS}
    d.aga, d.aga_up = {}, {s: False for s in SEATS}
    d.setz = {s: [] for s in SEATS}
    d.pan, d.new, d.attacked, d.blocked = set(), set(), set(), set()
    d.ench = {}
    d.terr, d.terr_ctrl = None, None
    d.trash = {s: [] for s in SEATS}
    d.past = {s: [] for s in SEATS}
    d.eot = []
    d.attack = None
    d.rng, d.max_turns = 0, max_turns
    d.winner, d.reason, d.over = None, "", False
    d.log = []
    return d


def _static(mods: tuple, s: str, su: int, uid: int, owner: str, geuda: bool,
            faction: str) -> tuple:
    """(ATK, DEF) the 常時 modifiers ``mods`` of card ``su`` (controlled by ``s``) add to
    card ``uid`` (owned by ``owner``; a geuda or not; of ``faction``), R21.1."""
    atk = dfn = 0
    for m in mods:
        if m.who == "attached":
            continue
        if m.faction is not None and faction != m.faction:
            continue
        if (m.who == "this" and su == uid) or (geuda and (
                m.who == "all_geuda" or (m.who == "your_geuda" and owner == s))):
            if m.stat == "atk":
                atk += m.amount
            elif m.stat == "def":
                dfn += m.amount
    return atk, dfn


class IWState(Stepper):
    """engine-api.md's State for Imitation World (IW R24)."""

    turn_rule = "R6.4"
    window_rule = "R6.4"
    runaway_rule = "R20.6"

    def __init__(self, game, table, data: Data, markers: Optional[dict] = None):
        super().__init__()
        self.game = game
        self.table = table
        self._cards = table.cards
        r = _reads_of(table)
        self._type, self._mods, self._out = r.type, r.mods, r.out
        self._turn, self._play_asks, self._played = r.turn, r.play_asks, r.played
        self._act, self._hand, self._roles = r.act, r.hand, r.roles
        self.seats = SEATS
        self.d = data
        # seat -> the markers its aga permits (R8.6); fixed for a game (agas never change,
        # except in a resample, which recomputes them)
        self.markers = markers if markers is not None else self._markers()
        self._answers: list = []
        self._asked = 0
        self._wait: list = []
        # seat -> (set zone, _refs, REF -> uid) of the last asked: a zone of the same uids
        # has the same REFs while no card's id changes (only _redeal changes one, and
        # forgets these)
        self._refc: dict = {}
        # seat -> the shape of its cost zone (_zone_key), kept until a card enters or
        # leaves a cost zone
        self._zk: dict = {}
        # the field index (_Field), or None: made from the zones when first read
        self._fx: Optional[_Field] = None
        # a list kept to be read off by the next listing: (the attack, its number of
        # blockers, the block list) of the last block listed, or (the attack, None, the
        # uids that can block) as _after_front found them; in the setup, (a seat's deck
        # list, its length, its barrier list) of the last barrier list.  (One attribute
        # for both: an IWState is kept under 30 attributes, past which CPython 3.11 reads
        # every attribute of it off the fast path; a 30th cost +4 % an action.)
        self._listc: Optional[tuple] = None
        # (the agas' faces and the territory, _mod_sources) of the last, while the field
        # index's mods lists are the same (_mod_sources)
        self._modc: Optional[tuple] = None
        # bit -> (the log list, its entries read by that bit's seat): see _events
        self._logs: dict = {}

    def _markers(self) -> dict:
        out = {}
        for s in SEATS:
            uid = self.d.aga.get(s)
            if uid is None:
                out[s] = ()
            else:
                out[s] = rules.markers(self.table[self.d.cid[uid]].aga(), self.table.factions)
        return out

    # ================================================================== cards and refs
    def card(self, uid: int):
        return self._cards[self.d.cid[uid]]

    def ref(self, uid: int) -> str:
        """R24.3: ``A:ID``, or ``A:ID@2`` when that set zone holds several of the id (read
        from :meth:`_refs`); a card no longer there is ``A:ID`` while exactly one card of
        its id is (as log texts name a card that has just left)."""
        d = self.d
        s = d.owner[uid]
        found = self._refs(s).get(uid)
        if found is not None:
            return found
        ident = d.cid[uid]
        if [d.cid[u] for u in d.setz[s]].count(ident) == 1:
            return f"{s}:{ident}"
        raise ValueError(f"card {uid} is not in {s}'s set zone")

    def _refs(self, s: str) -> dict:
        """uid -> REF (R24.3) of every card of ``s``'s set zone, at once (the map is kept
        while the zone and its ids are the same; do not change it)."""
        zone = self.d.setz[s]
        kept = self._refc.get(s)
        if kept is not None:
            old = kept[0]
            if old == zone:  # a card's id changes only in _redeal
                return kept[1]
            # one card more at the end, or one card fewer, of an id no other card there
            # has: the kept maps with that one REF added or taken out (the others keep
            # theirs, R24.3); anything else is read afresh
            n = len(zone)
            if n == len(old) + 1 and zone[:-1] == old:
                u = zone[-1]
                ref = s + ":" + self.d.cid[u]
                back = kept[2]
                if ref not in back and ref + "@1" not in back:
                    refs = dict(kept[1])
                    refs[u] = ref
                    back = dict(back)
                    back[ref] = u
                    self._refc[s] = (zone[:], refs, back)
                    return refs
            elif n == len(old) - 1:
                for u in old:
                    if u not in zone:
                        break
                refs = kept[1]
                ref = refs[u]
                if "@" not in ref:
                    rest = old[:]
                    rest.remove(u)
                    if rest == zone:
                        refs = dict(refs)
                        del refs[u]
                        back = dict(kept[2])
                        del back[ref]
                        self._refc[s] = (rest, refs, back)
                        return refs
        cid = self.d.cid
        refs = self._refs_of(s, zone, [cid[u] for u in zone])
        self._refc[s] = (zone[:], refs, dict(zip(refs.values(), refs)))
        return refs

    @staticmethod
    def _refs_of(s: str, zone: list, ids: list) -> dict:
        head = s + ":"
        if len(set(ids)) == len(ids):  # the usual case: no id twice
            return dict(zip(zone, [head + i for i in ids]))
        out = {}
        seen: dict = {}
        for u, ident in zip(zone, ids):
            if ids.count(ident) == 1:
                out[u] = f"{s}:{ident}"
            else:
                k = seen[ident] = seen.get(ident, 0) + 1
                out[u] = f"{s}:{ident}@{k}"
        return out

    def find_ref(self, text: str) -> Optional[int]:
        """The set-zone card a REF names (R24.3), or None."""
        if ":" not in text:
            return None
        s, rest = text.split(":", 1)
        if s not in SEATS:
            return None
        kept = self._refc.get(s)  # a REF as _refs writes it (every listed action's)
        if kept is None or kept[0] != self.d.setz[s]:
            self._refs(s)
            kept = self._refc[s]
        u = kept[2].get(text)
        if u is not None:
            return u
        ident, _, k = rest.partition("@")
        d = self.d
        same = [u for u in d.setz[s] if d.cid[u] == ident]
        if not k:
            return same[0] if len(same) == 1 else None
        if not k.isdigit() or not 1 <= int(k) <= len(same) or len(same) < 2:
            return None
        return same[int(k) - 1]

    def where(self, uid: int) -> str:
        d = self.d
        s = d.owner[uid]
        for zone in ("deck", "hand", "barriers", "trash", "past", "setz", "cun"):
            if uid in getattr(d, zone)[s]:
                return zone
        if uid in d.ench.values():
            return "enchant"
        if uid == d.terr:
            return "territory"
        if any(uid in p for p in d.cpiles[s].values()):
            return "cost"
        if d.aga.get(s) == uid:
            return "aga"
        return "?"

    # ================================================================== log
    def note(self, seat: str, kind: str, text: str, cards: tuple = ()) -> None:
        """An event; ``text`` has one ``{}`` per card of ``cards`` (uids), shown to a seat
        as the id or as ``?`` as that seat knew the card right after the event (R24.5)."""
        d = self.d
        if cards:
            cid, kn = d.cid, d.kn
            if len(cards) == 1:
                u = cards[0]
                cards = ((cid[u], kn[u]),)
            else:
                cards = tuple([(cid[u], kn[u]) for u in cards])
        d.log.append((d.turn, seat, kind, text, cards))

    @staticmethod
    def _event(entry, bit: int = BOTH) -> tuple:
        """A log entry as seat ``bit`` reads it (BOTH: every id): (turn, seat, kind, its
        text with the cards' ids or ``?``, those names)."""
        turn, seat, kind, text, cards = entry
        if not cards:  # a text with no card: format() only undoes its doubled braces
            return turn, seat, kind, text.format() if "{" in text or "}" in text else text, ()
        names = tuple([c if (m & bit) or bit == BOTH else "?" for c, m in cards])
        return turn, seat, kind, text.format(*names), names

    def _events(self, bit: int) -> list:
        """:meth:`_event` of every entry of the log, kept per ``bit`` while the log is the
        same list (entries are only appended to it; a copy, a restore and a resample give
        the state a new list): the entries written since the last call are read alone.
        Do not change the list."""
        log = self.d.log
        kept = self._logs.get(bit)
        if kept is None or kept[0] is not log or len(kept[1]) > len(log):
            kept = self._logs[bit] = (log, [])
        done = kept[1]
        n = len(done)
        if n < len(log):
            event = self._event
            done += [event(e, bit) for e in log[n:]]
        return done

    @property
    def log(self) -> list:
        return [{"turn": t, "seat": s, "kind": k, "text": x, "cards": list(n)}
                for t, s, k, x, n in self._events(BOTH)]

    def log_view(self, seat: str) -> list:
        return [{"turn": t, "seat": s, "kind": k, "text": x, "cards": list(n)}
                for t, s, k, x, n in self._events(BIT[seat])]

    # ================================================================== moves of cards
    def _remove(self, uid: int) -> None:
        """Take ``uid`` out of wherever it is (not the aga: it never moves)."""
        d = self.d
        s = d.owner[uid]
        for zs in d.setz.values():  # first: most cards moved are geuda out of a judgment
            if uid in zs:  # (no cost zone changes: _zk, the zones' shapes, stays)
                self._leave_field(uid, zs)
                return
        if self._zk:  # (a cost zone may lose it)
            self._zk = {}
        for zone in (d.hand[s], d.deck[s], d.barriers[s], d.trash[s], d.cun[s]):
            if uid in zone:
                zone.remove(uid)
                return
        for g, e in list(d.ench.items()):
            if e == uid:
                del d.ench[g]
                return
        if d.terr == uid:
            d.terr = d.terr_ctrl = None
            return
        for p in d.cpiles[s].values():
            if uid in p:
                p.remove(uid)
                return
        raise AssertionError(f"card {uid} is nowhere")  # pragma: no cover

    def _leave_field(self, uid: int, zs: list) -> None:
        """A set-zone card leaves: its marks go, its enchant goes to its owner's trash
        (R11.3, R12.4)."""
        d = self.d
        zs.remove(uid)
        fx = self._fx
        if fx is not None:  # the field index follows (see _Field)
            names = self._roles.get(d.cid[uid])
            if names:
                s = "A" if zs is d.setz["A"] else "B"
                for name in names:
                    if name == "mods":
                        fx.mods[s].remove((self._mods[d.cid[uid]], s, uid))
                    else:
                        getattr(fx, name)[s].remove(uid)
        d.pan.discard(uid)
        d.new.discard(uid)
        d.attacked.discard(uid)
        d.blocked.discard(uid)
        e = d.ench.pop(uid, None)
        if e is not None:
            d.trash[d.owner[e]].append(e)
            d.kn[e] = BOTH
            self.note(d.owner[e], "trash", "{} goes to " + d.owner[e] + "'s trash with its geuda",
                      (e,))
        if d.eot:  # (until end of turn modifiers: seldom any)
            d.eot = [m for m in d.eot if m[0] != uid]

    def _field(self) -> _Field:
        """The field index (:class:`_Field`) made from the set zones as they are."""
        fx = self._fx = _Field()
        for s in SEATS:
            for u in self.d.setz[s]:
                self._index(fx, s, u)
        return fx

    def _index(self, fx: _Field, s: str, uid: int) -> None:
        """``uid``, last in ``s``'s set zone, into the field index's lists."""
        i = self.d.cid[uid]
        for name in self._roles.get(i, ()):
            if name == "mods":
                fx.mods[s].append((self._mods[i], s, uid))
            else:
                getattr(fx, name)[s].append(uid)

    def _to(self, uid: int, zone: str) -> None:
        """Move ``uid`` to its owner's ``zone`` (trash, past, hand, deck_bottom)."""
        d = self.d
        self._remove(uid)
        s = d.owner[uid]
        if zone == "trash":
            d.trash[s].append(uid)
            d.kn[uid] = BOTH
        elif zone == "past":
            d.past[s].append(uid)
            d.kn[uid] = BOTH
        elif zone == "hand":
            d.hand[s].append(uid)
            d.kn[uid] |= BIT[s]
        elif zone == "deck_bottom":
            d.deck[s].append(uid)
        else:  # pragma: no cover - the ability records are checked when built
            raise ValueError(f"no zone {zone!r}")

    def draw(self, seat: str, n: int) -> int:
        """R7.3, R20.3: draw up to ``n``; an empty deck draws nothing."""
        d = self.d
        deck, hand, kn, bit = d.deck[seat], d.hand[seat], d.kn, BIT[seat]
        k = rules.drawn(len(deck), n)
        text = seat + " draws {}"
        for _ in range(k):
            uid = deck.pop(0)
            hand.append(uid)
            kn[uid] |= bit
            self.note(seat, "draw", text, (uid,))
        return k

    # ================================================================== values
    def raw(self, uid: int, stat: str) -> int:
        """R2.3: printed value plus every modifier that applies now, not floored."""
        atk, dfn = self._stats(uid)
        return atk if stat == "atk" else dfn if stat == "def" else 0

    def _mod_sources(self) -> list:
        """(modifiers, controller, uid) of the cards whose 常時 modifiers apply now (R21.1,
        R19.5): set-zone cards (the field index's), face-up agas, the territory (its
        controller's); only ids with modifiers count.  Kept while those are the same (do
        not change the list)."""
        d = self.d
        fx = self._fx or self._field()
        ma, mb = fx.mods["A"], fx.mods["B"]
        rest = (d.aga_up["A"], d.aga_up["B"], d.terr, d.terr_ctrl)
        kept = self._modc
        if kept is not None and kept[0] == ma and kept[1] == mb and kept[2] == rest:
            return kept[3]
        cid, mods = d.cid, self._mods
        out = []
        for s, zone in (("A", ma), ("B", mb)):
            out += zone
            a = d.aga.get(s)
            if a is not None and d.aga_up[s]:
                ms = mods.get(cid[a])
                if ms is not None:
                    out.append((ms, s, a))
        if d.terr is not None:
            ms = mods.get(cid[d.terr])
            if ms is not None:
                out.append((ms, d.terr_ctrl, d.terr))
        # with each card's printed values plus these sources' modifiers, as _stats reads
        # them (its cache: a card's id and owner do not change while the sources are kept)
        self._modc = (ma[:], mb[:], rest, out, {})
        return out

    def _stats(self, uid: int, sources: Optional[list] = None) -> tuple:
        """(ATK, DEF) of ``uid`` as :meth:`raw` gives them, in one pass over the modifiers
        (``sources``: :meth:`_mod_sources` of the state as it is, if already known)."""
        d = self.d
        cid = d.cid
        mods = self._mods
        if mods:  # a card set with 常時 modifiers
            if sources is None:
                sources = self._mod_sources()
            kept = self._modc  # (.., the sources, uid -> printed + 常時 (ATK, DEF))
            found = kept[4].get(uid) if kept[3] is sources else None
            if found is None:
                c = self._cards[cid[uid]]
                atk, dfn = c.atk, c.defence
                owner = d.owner[uid]
                geuda = c.type == "geuda"
                faction = c.faction
                for ms, s, su in sources:
                    a, b = _static(ms, s, su, uid, owner, geuda, faction)
                    atk, dfn = atk + a, dfn + b
                if kept[3] is sources:
                    kept[4][uid] = (atk, dfn)
            else:
                atk, dfn = found
            e = d.ench.get(uid)
            if e is not None:
                for m in mods.get(cid[e], ()):
                    if m.who == "attached":
                        if m.stat == "atk":
                            atk += m.amount
                        elif m.stat == "def":
                            dfn += m.amount
        else:
            c = self._cards[cid[uid]]
            atk, dfn = c.atk, c.defence
        for u, st, n in d.eot:
            if u == uid:
                if st == "atk":
                    atk += n
                elif st == "def":
                    dfn += n
        return atk, dfn

    def value(self, uid: int, stat: str) -> int:
        return rules.current(self.raw(uid, stat))

    def aga_def(self, seat: str) -> int:
        return self.card(self.d.aga[seat]).defence

    def _judged(self, us: list, kind: str, role: str, sources: Optional[list] = None) -> list:
        """(judged ATK, judged DEF) of each card of ``us``, in order, in a judgment of
        ``kind`` as ``role``: what a :class:`rules.Fighter` of its values and 判定時
        modifiers (R21.1, R21.4) gives as ``judged_atk`` and ``judged_def`` (``sources``:
        see :meth:`_stats`).  One call per side of a judgment (issue 17)."""
        stats, cards, cid = self._stats, self._cards, self.d.cid
        out = []
        for uid in us:
            atk, dfn = stats(uid, sources)
            for m in cards[cid[uid]].abilities.judgment:
                if kind in m.kinds and (m.role is None or m.role == role):
                    if m.stat == "atk":
                        atk += m.amount
                    else:
                        dfn += m.amount
            out.append((atk if atk > 0 else 0, dfn if dfn > 0 else 0))  # R2.3: floored once
        return out

    def marks(self, uid: int) -> rules.Marks:
        d = self.d
        return rules.Marks(uid in d.pan, uid in d.new, uid in d.attacked, uid in d.blocked)

    def _zone_key(self, seat: str):
        """The shape of ``seat``'s cost zone: its (faction, cards) piles, or the number of
        cards of its unmarked pile (kept until a card enters or leaves a cost zone:
        _place_cost, _play's fixing, _remove)."""
        key = self._zk.get(seat)
        if key is None:
            d = self.d
            piles = d.cpiles[seat]
            key = self._zk[seat] = (tuple([(f, len(p)) for f, p in piles.items()]) if piles
                                    else len(d.cun[seat]))
        return key

    def cost_zone(self, seat: str) -> rules.CostZone:
        key = self._zone_key(seat)
        zone = _ZONES.get(key)
        if zone is None:  # a zone is a frozen value: one per shape, made once
            zone = _ZONES[key] = (rules.CostZone(piles=key) if isinstance(key, tuple)
                                  else rules.CostZone(unmarked=key))
        return zone

    # ================================================================== who acts
    def _over(self) -> bool:
        return self.d.over

    def defender(self) -> str:
        return other(self.d.active)

    def _acting(self) -> tuple:
        d = self.d
        if d.phase == "setup":
            return (d.setup_seat,)
        a = d.attack
        if a is not None and a["stage"] == "block":
            return (other(d.active),)
        return (d.active,)

    def decision_kind(self) -> Optional[str]:
        """R24.2's kind of the decision waited on (None once the game is over)."""
        d = self.d
        if d.over:
            return None
        if self.question is not None:
            return self.question.decision.kind
        if d.phase == "setup":
            return "barrier"
        if d.hold:
            return "next"
        if d.phase in ("main1", "main2"):
            return "main"
        if d.phase == "battle":
            a = d.attack
            return "attack" if a is None else a["stage"]
        return d.phase  # cost

    # ================================================================== legal actions
    def _legal_of(self, seat: str) -> list:
        d = self.d
        ph = d.phase  # decision_kind() between steps (no question, not over), the most
        # frequent first: main, battle (attack, block, join, front), setup, next, cost
        if (ph == "main1" or ph == "main2") and not d.hold:
            texts = self._main_texts(seat)
            texts.append("next")
        elif ph == "battle" and not d.hold and d.attack is None:
            texts = self._attack_texts(seat)
            texts.append("next")
        elif ph == "setup":  # `barrier ID` sorts as its ID does: the ids, sorted
            deck = d.deck[seat]
            kept = self._listc
            if kept is not None and kept[0] is deck and kept[1] == len(deck) + 1:
                # one barrier chosen from this deck since the list kept (_barrier): the
                # same list, less its action if no card of its id is left in the deck
                cid = d.cid
                gone = cid[d.barriers[seat][-1]]
                legal = kept[2]
                if gone not in map(cid.__getitem__, deck):
                    legal = legal[:]
                    legal.remove(_reads_of(self.table).barrier[gone])
            else:
                legal = list(map(_reads_of(self.table).barrier.__getitem__,
                                 sorted(set(map(d.cid.__getitem__, deck)))))
            self._listc = (deck, len(deck), legal)
            return legal
        elif d.hold:
            return _NEXT_ONLY
        elif ph == "cost":
            texts = self._cost_texts(seat)
            texts.append("next")
        else:
            kind = d.attack["stage"] if ph == "battle" else ph
            refs = self._refs(seat)
            if kind == "join":
                texts = [f"join {refs[u]}" for u in self._joinable()]
                texts.append("done")
            elif kind == "front":
                texts = [f"front {refs[u]}" for u in self._unordered()]
            else:  # block
                a = d.attack
                kept = self._listc
                n = len(a["blockers"])
                if kept is not None and kept[0] is a and kept[1] == n - 1:
                    # one `block` taken since the list kept: the same list without it
                    # (a block changes nothing else, R16.2)
                    legal = kept[2][:]
                    gone = _ACTIONS.get("block " + refs[a["blockers"][-1]])
                    if gone in legal:
                        legal.remove(gone)
                    self._listc = (a, n, legal)
                    return legal
                # the blockers _after_front found as it asked for blocks, if no block yet
                can = kept[2] if kept is not None and kept[0] is a and kept[1] is None \
                    and not n else self._can_block()
                texts = [f"block {refs[u]}" for u in can]
                texts.append("done")
                texts.sort()
                legal = list(map(_ACTIONS.get, texts))
                if None in legal:  # a text not met yet
                    legal = _actions_of(texts, legal)
                self._listc = (a, n, legal)
                return legal
        texts.sort()  # R24.4 (an action's text is its str)
        # a plain list: its `in` compares the shared actions in C (see Action)
        legal = list(map(_ACTIONS.get, texts))
        if None in legal:  # a text not met yet (no exception raised and caught: issue 17)
            return _actions_of(texts, legal)
        return legal

    # ------------------------------------------------------ the public loop's path
    # The kernel's is_terminal (through _find_who), legal_actions and apply for the common
    # case (between steps, the action listed) without the hooks' calls: the loop of a
    # learner or a sweep pays them once per action (issue 17).  Anything else (a question
    # pending, the game over, an action not listed or given as a text, an apply with no
    # list asked for) goes to the kernel's path, which says what is wrong in its own
    # words.  tests/test_iw_straight_path.py holds both paths to the same lists, logs,
    # questions and refusals.
    def __init_subclass__(cls, **kwargs):
        """A subclass that gives hooks of its own (a test's spy, a broken variant) is
        stepped by the kernel's path, which calls them: the straight path does not."""
        super().__init_subclass__(**kwargs)
        keep_straight_path(cls, IWState, _BYPASSED, {"apply": IWState._apply_kernel,
                                                     "_find_who": Stepper._find_who})

    def _find_who(self) -> tuple:
        """The kernel's (current seats, acting seats, terminal), read straight off the
        state between steps (:meth:`_acting`, inline)."""
        if self.question is None and self.stopped is None:
            d = self.d
            if not d.over:
                if d.phase == "setup":
                    return _WHO[d.setup_seat]
                a = d.attack
                if a is not None and a["stage"] == "block":
                    return _WHO_FOE[d.active]
                return _WHO[d.active]
        return Stepper._find_who(self)

    def legal_actions(self, seat: str) -> list:
        legal = self._legal.get(seat)  # kept for the current seats only (the Stepper's)
        if legal is not None:
            return legal[:]
        q = self.question
        if q is not None:
            if seat != q.decision.seat:
                return []
            return [Action(o) for o in q.decision.options]
        who = self._who  # current_seats(), inline
        if who is None:
            who = self._who = self._find_who()
        if seat not in who[0]:
            return []
        legal = self._legal[seat] = self._legal_of(seat)
        return legal[:]

    def apply(self, seat: str, action: Any) -> None:
        # the kernel keeps a seat's list only for a current seat between steps, so a list
        # kept means: no question, the game neither over nor stopped, ``seat`` acts
        legal = self._legal.get(seat)
        if legal is None:
            return self._apply_kernel(seat, action)
        try:
            listed = action in legal  # (a text is no listed Action: the kernel's path)
        except Exception:  # an unhashable or incomparable thing is no action
            listed = False
        if not listed:
            return self._apply_kernel(seat, action)
        kind = action.kind  # _may_ask, inline for its quiet cases
        if kind == "next":
            d = self.d
            asks = d.hold or (d.phase == "main2" and self._may_ask(seat, action))
        elif kind in _QUIET:
            asks = False
        elif kind == "play":
            asks = action.words[1] in self._play_asks
        elif kind == "attack" or kind == "done":  # asks only if a card there listens to an
            fx = self._fx or self._field()  # out (_may_ask's first test, inline)
            asks = bool(self._out and (fx.out["A"] or fx.out["B"])) \
                and self._may_ask(seat, action)
        else:
            asks = self._may_ask(seat, action)
        if asks:
            self._resume(seat, action, [], self._snapshot())
            return
        self._legal = {}
        self._who = None
        # _run's body, inline (no answers: the step cannot ask)
        self._answers, self._asked = (), 0
        if self._wait:  # left by a run stopped at a question
            self._wait = []
        try:
            self._do(seat, action)
            d = self.d
            if not d.hold and d.phase in _AUTO:  # (what _advance would return at once)
                self._advance()
        except GameOver:
            pass
        except Suspend as stop:
            raise self._broken_promise(seat, action, stop) from None
        except RunawayEffects as err:
            self.stopped = err.message

    def _apply_kernel(self, seat: str, action: Any) -> None:
        """The kernel's apply, an action's text read as the Action and an action answering
        the pending question as its Answer."""
        if isinstance(action, str):
            action = Action(action)
        q = self.question
        if q is not None and isinstance(action, Action) and seat == q.decision.seat:
            if action.text not in q.decision.options:
                raise IllegalAction(f"{seat} must answer {q.decision.prompt} with one of: "
                                    f"{', '.join(q.decision.options)}, not `{action}`",
                                    q.decision.rule)
            action = Answer(seat, action.text)
        Stepper.apply(self, seat, action)

    def _cost_texts(self, seat: str) -> list:
        d = self.d
        markers = self.markers[seat]
        key = (self._zone_key(seat), markers)
        tails = _TAILS.get(key)
        if tails is None:  # R8.6's placements: a value of the zone's shape and the markers
            tails = _TAILS[key] = [str(p) for p in
                                   rules.placements(self.cost_zone(seat), markers)]
        out = []
        for i in set(map(d.cid.__getitem__, d.hand[seat])):
            for tail in tails:
                out.append(f"cost {i} {tail}" if tail else f"cost {i}")
        return out

    def _playable(self, seat: str, c) -> bool:
        return rules.cost_refusal(self.cost_zone(seat), c.faction, c.cost) is None

    def _main_texts(self, seat: str) -> list:
        d = self.d
        out = []
        zkey = self._zk.get(seat)  # _zone_key's kept shape, inline
        if zkey is None:
            zkey = self._zone_key(seat)
        cards = self._cards
        cid = d.cid
        refs = None
        # what each id of the hand gives, for this cost-zone shape: False (not played from
        # the hand, or its cost does not hold, R9), its one text (a geuda, an object), or
        # True (a territory, an enchant, an eventi: the board decides)
        seen = self._hand.get(zkey)
        if seen is None:
            if len(self._hand) > 4096:  # a bound (a game meets a few dozen shapes)
                self._hand.clear()
            seen = self._hand[zkey] = {}
        for i in set(map(cid.__getitem__, d.hand[seat])):
            r = seen.get(i)
            if r is None:
                r = seen[i] = self._hand_entry(seat, zkey, i)
            if r is False:
                continue
            if r is not True:
                out.append(r)
                continue
            kind, _, _, text = self._played[i]
            c = cards[i]
            if kind == "territory":
                if self._territory_fits(c):
                    out.append(text)
            elif kind == "enchant":
                if refs is None:
                    refs = {**self._refs("A"), **self._refs("B")}
                for g in self._attachable(seat, c):
                    out.append(f"play {i} on {refs[g]}")
            else:  # eventi
                op = c.abilities.on_play
                if op is None or op.choose is None:
                    out.append(text)
                else:
                    for t in self.options(seat, op.choose):
                        out.append(f"play {i} target {t}")
        pan, acts = d.pan, self._act
        fx = self._fx or self._field()
        for u in fx.act[seat]:  # the set zone's cards with an activated ability
            if u in pan:
                continue
            act = acts[cid[u]]
            if refs is None:
                refs = {**self._refs("A"), **self._refs("B")}
            if act.choose is None:
                out.append(f"activate {refs[u]}")
            else:
                for t in self.options(seat, act.choose):
                    out.append(f"activate {refs[u]} target {t}")
        return out

    def _hand_entry(self, seat: str, zkey, i: str):
        """What card id ``i`` of ``seat``'s hand gives in main for the cost zone's shape
        ``zkey`` (see :meth:`_main_texts`)."""
        p = self._played.get(i)
        if p is None:  # not a card played from the hand
            return False
        kind, faction, cost, text = p
        key = (zkey, faction, cost)
        ok = _HOLDS.get(key)
        if ok is None:  # R9: does the cost condition hold (a value of the three)
            ok = _HOLDS[key] = rules.can_play(self.cost_zone(seat), faction, cost)
        if not ok:
            return False
        return text if kind == "geuda" or kind == "object" else True

    def _territory_fits(self, c) -> bool:
        """R13.2: may territory ``c`` be played against the one in the zone?"""
        d = self.d
        try:
            rules.territory_play(c.cost, None if d.terr is None else self.card(d.terr).cost)
        except IllegalAction:
            return False
        return True

    def _attachable(self, seat: str, c) -> list:
        d = self.d
        sides = (seat,) if c.abilities.attach.onto == "yours" else SEATS
        types, cid, ench = self._type, d.cid, d.ench
        return [g for s in sides for g in d.setz[s]
                if types[cid[g]] == "geuda" and g not in ench]

    def _attackers(self, seat: str) -> list:
        """R15.3 (rules.attack_refusal): the geuda of ``seat`` that are ripān, not new and
        have not declared an attack this turn."""
        d = self.d
        types, cid = self._type, d.cid
        pan, new, attacked = d.pan, d.new, d.attacked
        return [u for u in d.setz[seat] if u not in pan and u not in new
                and u not in attacked and types[cid[u]] == "geuda"]

    def _attack_texts(self, seat: str) -> list:
        d = self.d
        attackers = self._attackers(seat)
        if not attackers:
            return []
        foe = _OTHER[seat]
        types, cid, pan = self._type, d.cid, d.pan
        targets = [u for u in d.setz[foe] if u in pan and types[cid[u]] == "geuda"]
        kept = self._refc.get(seat)  # _refs's kept map, inline
        mine = kept[1] if kept is not None and kept[0] == d.setz[seat] else self._refs(seat)
        if not targets:
            return [f"attack {mine[u]} player" for u in attackers]
        kept = self._refc.get(foe)
        theirs = kept[1] if kept is not None and kept[0] == d.setz[foe] else self._refs(foe)
        targets = ["player"] + [theirs[u] for u in targets]
        return [f"attack {mine[u]} {t}" for u in attackers for t in targets]

    def _joinable(self) -> list:
        a = self.d.attack
        return [u for u in self._attackers(self.d.active) if u not in a["side"]]

    def _unordered(self) -> list:
        a = self.d.attack
        return [u for u in a["side"] if u not in a["order"]]

    def _can_block(self) -> list:
        """R16.2-R16.4 (rules.block_refusal): the defender's ripān geuda that have not
        blocked this turn and are not blocking already."""
        d = self.d
        a = d.attack
        types, cid = self._type, d.cid
        pan, blocked, blockers = d.pan, d.blocked, a["blockers"]
        return [u for u in d.setz[_OTHER[d.active]] if u not in pan and u not in blocked
                and u not in blockers and types[cid[u]] == "geuda"]

    # ================================================================== choices
    def options(self, seat: str, sel: Select) -> list:
        """The answers a choice offers ``seat`` (REFs, ``territory``, trash ids), sorted."""
        d = self.d
        if sel.what in ("trash_card", "trash_geuda"):
            ids = {d.cid[u] for u in d.trash[seat]
                   if sel.what == "trash_card" or self.card(u).type == "geuda"}
            return sorted(ids)
        sides = {"yours": (seat,), "opponent": (other(seat),), "any": SEATS}[sel.side]
        out = []
        types, cid, pan, state = self._type, d.cid, d.pan, sel.state
        for s in sides:
            refs = self._refs(s)  # a set zone's cards are its seat's own: ref() is refs[u]
            for u in d.setz[s]:
                if types[cid[u]] != "geuda":
                    continue
                if state == "pan" and u not in pan:
                    continue
                if state == "ripan" and u in pan:
                    continue
                out.append(refs[u])
        if sel.what == "geuda_or_territory" and d.terr is not None:
            out.append("territory")
        return sorted(out)

    def chosen_uid(self, seat: str, text: str) -> Optional[int]:
        d = self.d
        if text == "territory":
            return d.terr
        if ":" in text:
            return self.find_ref(text)
        for u in d.trash[seat]:
            if d.cid[u] == text:
                return u
        return None

    def ask(self, seat: str, kind: str, options: list, card: Optional[str], rule: str,
            prompt: str) -> str:
        """A question (R21.2-R21.3): one option is taken without asking; else the next
        scripted answer of this run, or Suspend."""
        if len(options) == 1:
            return options[0]
        i = self._asked
        if i < len(self._answers):
            self._asked += 1
            return self._answers[i]
        raise Suspend(IWDecision(seat, kind, prompt, tuple(options), rule, card=card))

    # ================================================================== running a step
    def _may_ask(self, seat: str, action: Any) -> bool:
        """Can ``step`` meet an ability's question?  Only where abilities trigger or
        resolve: a play of a card whose own abilities ask, an activation, an attack's
        judgment when a card of the set zones listens to an out (アウト時), the end phase
        and the next turn's start (``next`` from main 2) when one listens to a turn, or a
        phase set up by a ruling case.  A question comes from an ability whose effect asks,
        or from the order of two waiting abilities of one seat with different ids (R21.2;
        :func:`~wgdsl.kernel.triggers.next_to_resolve` asks nothing of one id's)."""
        if not isinstance(action, Action):
            return True
        kind = action.kind
        d = self.d
        if kind == "next":
            if d.hold:
                return True
            if d.phase != "main2":
                return False
            listen = self._turn
            if not listen:
                return False
            # the turn's end and the next one's start: set zones, face-up agas, the
            # territory (no card enters the field while abilities that ask nothing resolve)
            # (only the cards of ids that listen: _listening passes over the others)
            fx = self._fx or self._field()
            ta, tb = fx.turn["A"], fx.turn["B"]
            sources = [("A", u) for u in ta] + [("B", u) for u in tb] if ta or tb else []
            for s in SEATS:
                if d.aga_up[s] and s in d.aga:
                    sources.append((s, d.aga[s]))
            if d.terr is not None:
                sources.append((d.terr_ctrl, d.terr))
            return self._listening(listen, sources)
        if kind == "play":
            return action.words[1] in self._play_asks  # `play ID ...`
        if kind == "block":  # a blocker is added; the judgment waits for `done`
            return False
        if kind in ("attack", "done", "join", "front"):
            # a judgment may follow: an out geuda's アウト時 abilities (the only ones that
            # wait during a judgment), read from the field index
            listen = self._out
            if not listen:
                return False
            fx = self._fx or self._field()  # the cards that listen, in the field index
            oa, ob = fx.out["A"], fx.out["B"]
            if not oa and not ob:
                return False  # the usual case: no card there listens
            return self._listening(listen, [("A", u) for u in oa] + [("B", u) for u in ob])
        return kind not in ("cost", "barrier")

    def _listening(self, listen: dict, sources: list) -> bool:
        """May the abilities ``listen`` names of the cards ``sources`` ((controller, uid)
        pairs) ask, should they all wait at once: one asks as it resolves, or one seat's
        are of two ids (their order is asked, R21.2)?"""
        cid = self.d.cid
        first: dict = {}
        for s, u in sources:
            i = cid[u]
            asks = listen.get(i)
            if asks is None:
                continue
            if asks or first.setdefault(s, i) != i:
                return True
        return False

    def _run(self, seat: str, action: Any, answers: list) -> None:
        self._answers, self._asked = answers, 0
        if self._wait:  # left by a run stopped at a question
            self._wait = []
        try:
            self._do(seat, action)
            d = self.d
            if not d.hold and d.phase in _AUTO:  # (what _advance would return at once)
                self._advance()
        except GameOver:
            pass

    def _do(self, seat: str, action: Action) -> None:
        words = action.words
        kind = words[0]
        d = self.d
        # the kinds in the order of how often random games take them
        if kind == "next":
            self._next(seat)
        elif kind == "play":
            self._play(seat, words)
        elif kind == "attack":
            self._declare(seat, words)
        elif kind == "block":
            d.attack["blockers"].append(self.find_ref(words[1]))
        elif kind == "done":
            if d.attack["stage"] == "join":
                d.attack["stage"] = "front"
                self._after_join(done=True)
            else:
                self._block_done()
        elif kind == "cost":
            self._place_cost(seat, words)
        elif kind == "barrier":
            self._barrier(seat, words[1])
        elif kind == "activate":
            self._activate(seat, words)
        elif kind == "join":
            d.attack["side"].append(self.find_ref(words[1]))
            self._after_join()
        elif kind == "front":
            d.attack["order"].append(self.find_ref(words[1]))
            self._after_front()
        else:  # pragma: no cover - only listed actions reach here
            raise AssertionError(action)

    def _next(self, seat: str) -> None:
        d = self.d
        if d.hold:
            d.hold = False
            return
        ph = d.phase
        if ph == "cost":
            self.note(seat, "cost", seat + " places no cost card")
            d.phase = "main1"
        elif ph == "main1":
            d.phase = "main2" if self._no_battle() else "battle"
            if d.phase == "battle":
                d.step = "attack"
        elif ph == "battle":
            d.phase, d.step = "main2", None
        elif ph == "main2":
            d.phase = "end"

    def _no_battle(self) -> bool:
        d = self.d
        return d.turn == 1 and d.active == d.first

    def _advance(self) -> None:
        """Run everything that needs no decision (R7, the end phase, R20.6) up to the next
        decision or the end of the game."""
        d = self.d
        while not d.hold:
            ph = d.phase
            if ph not in _AUTO:  # a decision's phase (cost, main, battle) or setup
                return
            if ph == "start":
                self.note(d.active, "turn", f"turn {d.turn}: {d.active}'s turn begins")
                d.new.clear()
                d.attacked.clear()
                d.blocked.clear()  # R1.7, R7.1
                if self._turn:  # (ids with a turn ability in the card set)
                    self._trigger_turn("turn_start")
                    if self._wait:
                        self._resolve()
                d.phase = "ripan"
            elif ph == "ripan":
                d.pan.difference_update(d.setz[d.active])  # R7.2: only the active player's
                d.phase = "cost" if self._no_battle() else "draw"
            elif ph == "draw":
                result = rules.draw_phase_loss(d.active, len(d.deck[d.active]))
                if result is not None:
                    self.note(d.active, "lose", f"{d.active}'s deck is empty at the draw "
                                                "phase: " + d.active + " loses (R20.2)")
                    self._end(result)
                self.draw(d.active, DRAW)
                d.phase = "cost"
            elif ph == "end":
                if self._turn:
                    self._trigger_turn("turn_end")
                    if self._wait:
                        self._resolve()
                d.eot = []  # R21.5
                cap = rules.turn_cap(d.turn, d.max_turns)
                if cap is not None:
                    self.note("", "cap", f"turn {d.turn} has ended: the game stops (R20.6)")
                    self._end(cap)
                d.turn += 1
                d.active = _OTHER[d.active]
                d.phase, d.step = "start", None

    def _end(self, result: rules.Result) -> None:
        d = self.d
        d.over = True
        d.winner = result.winners[0] if result.winners else None
        d.reason = result.reason
        for s in SEATS:  # R22.2: both agas are shown
            if s in d.aga:
                d.kn[d.aga[s]] = BOTH
        raise GameOver()

    # ================================================================== setup (R5)
    def _barrier(self, seat: str, ident: str) -> None:
        d = self.d
        uid = next(u for u in d.deck[seat] if d.cid[u] == ident)
        d.deck[seat].remove(uid)
        d.barriers[seat].append(uid)
        d.kn[uid] = BIT[seat]
        self.note(seat, "barrier", seat + " chooses barrier {}", (uid,))
        if len(d.barriers[seat]) < BARRIERS:
            return
        if seat == "A":
            d.setup_seat = "B"
            return
        for s in SEATS:  # R5.4
            d.rng = shuffled(d.rng, d.deck[s])
        first = d.first
        if first is None:  # R5.5
            d.rng, k = below(d.rng, 2)
            first = SEATS[k]
        d.first = d.active = first
        self.note("", "setup", f"the decks are shuffled; {first} plays first")
        for s in (first, other(first)):
            self.draw(s, OPENING_HAND)
        d.turn, d.phase, d.setup_seat = 1, "start", None

    # ================================================================== cost (R8)
    def _place_cost(self, seat: str, words: list) -> None:
        d = self.d
        ident = words[1]
        to = words[3] if len(words) > 3 else None
        mark = words[5] if len(words) > 5 else None
        key = (self._zone_key(seat), to, mark, self.markers[seat])
        if key not in _PLACED:  # R8.6 (a listed placement always passes: checked once)
            rules.after_placement(self.cost_zone(seat), rules.Placement(to, mark),
                                  self.markers[seat])
            _PLACED.add(key)
        uid = self._in_hand(seat, ident)
        d.hand[seat].remove(uid)
        d.kn[uid] = BIT[seat]
        foe = BIT[_OTHER[seat]]
        for u in d.hand[seat]:  # R22.3: the opponent cannot tell which card went
            d.kn[u] &= ~foe
        self._zk = {}  # the zone's shape changes
        if to is None:
            d.cun[seat].append(uid)
            where = "the unmarked pile"
        elif mark is not None:
            d.cpiles[seat] = {mark: d.cun[seat], to: [uid]}
            d.cun[seat] = []
            where = f"a new {to} pile (the old pile is marked {mark})"
        else:
            d.cpiles[seat].setdefault(to, []).append(uid)
            where = f"the {to} pile"
        self.note(seat, "cost", seat + " puts {} into " + where, (uid,))
        d.phase = "main1"

    def _in_hand(self, seat: str, ident: str) -> int:
        """The first card of id ``ident`` in ``seat``'s hand."""
        cid = self.d.cid
        for u in self.d.hand[seat]:
            if cid[u] == ident:
                return u
        raise AssertionError(f"no {ident} in {seat}'s hand")  # pragma: no cover

    # ================================================================== plays (R10-R14)
    def _play(self, seat: str, words: list) -> None:
        d = self.d
        ident = words[1]
        c = self._cards[ident]
        zkey = self._zk.get(seat)  # _zone_key's kept shape, inline
        key = (self._zone_key(seat) if zkey is None else zkey, c.faction, c.cost)
        fixes = _FIXES.get(key)
        if fixes is None:  # a value of the zone's shape, the faction and the cost
            zone = self.cost_zone(seat)
            fixes = _FIXES[key] = rules.after_play(zone, c.faction, c.cost) != zone
        if fixes:  # R9.2 fixing by play
            d.cpiles[seat] = {c.faction: d.cun[seat]}
            d.cun[seat] = []
            self._zk = {}
            self.note(seat, "mark", f"{seat}'s cost zone becomes its {c.faction} pile (R9.2)")
        uid = self._in_hand(seat, ident)
        d.hand[seat].remove(uid)
        d.kn[uid] = BOTH
        if c.type in ("geuda", "object"):
            d.setz[seat].append(uid)
            if self._fx is not None and ident in self._roles:  # the field index follows
                self._index(self._fx, seat, uid)
            if c.type == "geuda":
                d.new.add(uid)
            self.note(seat, "play", seat + " plays {}", (uid,))
            if c.abilities.triggers:  # (_entered finds nothing to wait otherwise)
                self._entered(uid, seat)
        elif c.type == "enchant":
            g = self.find_ref(words[3])
            d.ench[g] = uid
            self.note(seat, "play", seat + " plays {} onto {}", (uid, g))
        elif c.type == "territory":
            self._territory(seat, uid, c)
        else:
            self.note(seat, "play", seat + " plays {}", (uid,))
            op = c.abilities.on_play
            chosen = None
            if op is not None and op.choose is not None:
                chosen = self.chosen_uid(seat, words[3])
            d.trash[seat].append(uid)  # R14.1: resolves, then to the trash
            if op is not None:
                self._run_ops(op.effect, seat, uid, chosen)
            d.trash[seat].remove(uid)
            d.trash[seat].append(uid)
        if self._wait:  # (_resolve returns at once otherwise)
            self._resolve()

    def _territory(self, seat: str, uid: int, c) -> None:
        d = self.d
        there = None if d.terr is None else self.card(d.terr).cost
        how = rules.territory_play(c.cost, there)
        self.note(seat, "play", seat + " plays {}", (uid,))
        if how != "enters":
            old = d.terr
            self._to(old, "trash")
            self.note(d.owner[old], "trash", "{} goes to its owner's trash (R13.3)", (old,))
        if how == "both":
            d.trash[seat].append(uid)
            self.note(seat, "trash", "{} goes to its owner's trash too: equal cost (R13.3)",
                      (uid,))
            return
        d.terr, d.terr_ctrl = uid, seat
        self._entered(uid, seat)

    def _activate(self, seat: str, words: list) -> None:
        d = self.d
        uid = self.find_ref(words[1])
        act = self.card(uid).abilities.activated
        chosen = self.chosen_uid(seat, words[3]) if len(words) > 3 else None
        d.pan.add(uid)  # its cost: pān (R21.1)
        self.note(seat, "activate", seat + " uses {}", (uid,))
        self._run_ops(act.effect, seat, uid, chosen)
        self._resolve()

    # ================================================================== battle (R15-R19)
    def _declare(self, seat: str, words: list) -> None:
        d = self.d
        uid = self.find_ref(words[1])
        target = words[2]
        tuid = None if target == "player" else self.find_ref(target)
        if not self._cards[d.cid[uid]].linked:  # alone: _after_join's end, straight
            d.attack = {"stage": "front", "side": [uid], "order": [uid], "target": tuid,
                        "blockers": []}
            self._after_front()
            return
        d.attack = {"stage": "join", "side": [uid], "order": [], "target": tuid,
                    "blockers": []}
        if self._joinable():
            return  # join questions (R15.5)
        d.attack["stage"] = "front"
        self._after_join(done=True)

    def _after_join(self, done: bool = False) -> None:
        a = self.d.attack
        if not done and self._joinable():
            return
        a["stage"] = "front"
        if len(a["side"]) == 1:
            a["order"] = list(a["side"])
        self._after_front()

    def _after_front(self) -> None:
        d = self.d
        a = d.attack
        left = self._unordered() if len(a["order"]) < len(a["side"]) else ()
        if len(left) == 1:
            a["order"].append(left[0])
            left = []
        if left:
            return
        for u in a["order"]:  # R15.3, R15.5: the declaration is complete
            d.pan.add(u)
            d.attacked.add(u)
        n = len(a["order"])
        side = _PLACES[n] if n < 8 else " ".join(["{}"] * n)
        if a["target"] is None:
            self.note(d.active, "attack", d.active + " attacks " + _OTHER[d.active] + " with "
                      + side, tuple(a["order"]))
            a["stage"] = "block"
            can = self._can_block()
            if can:  # R16.2: skipped when nothing can block
                # kept for the block list (_legal_of): nothing changes before it is asked
                self._listc = (a, None, can)
                return
            self._judge()
        else:
            self.note(d.active, "attack", d.active + " attacks {} with " + side,
                      (a["target"],) + tuple(a["order"]))
            self._judge()

    def _block_done(self) -> None:
        a = self.d.attack
        blockers = a["blockers"]
        self.d.blocked.update(blockers)  # R16.2: one block per turn
        if blockers:
            foe, n = _OTHER[self.d.active], len(blockers)
            self.note(foe, "block", foe + " blocks with "
                      + (_PLACES[n] if n < 8 else " ".join(["{}"] * n)), tuple(blockers))
        self._judge()

    def _judge(self) -> None:
        d = self.d
        a = d.attack
        attacker, foe = d.active, _OTHER[d.active]
        # (plain loops, not comprehensions: their lists hold a card or two, issue 17)
        side = []
        zone = d.setz[attacker]
        for u in a["order"]:
            if u in zone:
                side.append(u)
        src = self._mod_sources() if self._mods else None  # the same for every fighter
        target = a["target"]
        if target is not None or a["blockers"]:
            zone = d.setz[foe]
            if target is not None:
                defending = [target] if target in zone else []
            else:
                defending = []
                for u in a["blockers"]:
                    if u in zone:
                        defending.append(u)
            if not side or not defending:  # R15.6
                self.note(attacker, "judgment", "the attack ends with no judgment (R15.6)")
            else:
                role_d = "blocker" if target is None else "target"
                dealt, taken, res_a, res_d = rules.survival_numbers(
                    self._judged(side, "survival", "attacker", src),
                    self._judged(defending, "survival", role_d, src))
                out = []
                for u, r in zip(side, res_a):
                    if r[2]:
                        out.append(u)
                for u, r in zip(defending, res_d):
                    if r[2]:
                        out.append(u)
                self.note(attacker, "judgment", f"survival judgment: {dealt} "
                          f"against {taken}")
                for u in out:  # R17.6: at once, then アウト時
                    self._to(u, "trash")
                    self.note(d.owner[u], "out", "{} is out", (u,))
                for u in out:
                    for i, t in enumerate(self.card(u).abilities.triggers):
                        if t.timing == "out" and self._holds(t, d.owner[u]):
                            self._waiting.append((d.owner[u], u, i))
        elif not side:
            self.note(attacker, "judgment", "the attack ends with no judgment (R15.6)")
        elif d.barriers[foe]:
            total = 0
            for p in self._judged(side, "barrier", "attacker", src):
                total += p[0]
            res = rules.barrier_result(total, len(d.barriers[foe]))
            self.note(attacker, "judgment", f"barrier judgment: {res.deals} against "
                      f"{res.defence}: " + ("destroyed" if res.destroyed else "it stands"))
            if res.destroyed:
                b = d.barriers[foe].pop(0)
                d.hand[foe].append(b)  # R18.3, unseen (R22.2)
                self.note(foe, "barrier", "a barrier of " + foe + " goes to its hand: {}", (b,))
                if not d.barriers[foe]:
                    d.aga_up[foe] = True
                    d.kn[d.aga[foe]] = BOTH
                    self.note(foe, "aga", foe + "'s aga {} turns face up (R19.1)",
                              (d.aga[foe],))
        else:
            total = 0
            for p in self._judged(side, "aga", "attacker", src):
                total += p[0]
            res = rules.aga_result(total, self.raw(d.aga[foe], "def"))
            self.note(attacker, "judgment", f"aga judgment: {res.deals} against {res.defence}")
            if res.destroyed:
                d.attack = None
                self.note(foe, "lose", foe + "'s aga is destroyed: " + attacker + " wins (R20.1)")
                self._end(rules.aga_destroyed(foe))
        d.attack = None
        d.step = "attack"
        if self._wait:
            self._resolve()

    # ================================================================== abilities (R21)
    @property
    def _waiting(self) -> list:
        w = getattr(self, "_wait", None)
        if w is None:
            w = self._wait = []
        return w

    def _holds(self, trig, seat: str) -> bool:
        cond = trig.condition
        if cond is None:
            return True
        if cond.kind == "trash_not_empty":
            return bool(self.d.trash[seat])
        return False  # pragma: no cover

    def _entered(self, uid: int, seat: str) -> None:
        for i, t in enumerate(self.card(uid).abilities.triggers):
            if t.timing == "enter" and self._holds(t, seat):
                self._waiting.append((seat, uid, i))

    def _trigger_turn(self, timing: str) -> None:
        d = self.d
        listen, cid = self._turn, d.cid  # the ids with a turn_start or turn_end ability
        if not listen:
            return
        sources = []
        fx = self._fx or self._field()
        for s in SEATS:  # cards of other ids left out (the field index's, in zone order)
            for u in fx.turn[s]:
                sources.append((s, u))
            if d.aga_up[s] and s in d.aga and cid[d.aga[s]] in listen:
                sources.append((s, d.aga[s]))
        if d.terr is not None and cid[d.terr] in listen:
            sources.append((d.terr_ctrl, d.terr))
        for s, u in sources:
            for i, t in enumerate(self.card(u).abilities.triggers):
                whose = t.whose == "any" or (s == d.active) == (t.whose == "yours")
                if t.timing == timing and whose and self._holds(t, s):
                    self._waiting.append((s, u, i))

    def _resolve(self) -> None:
        """R21.2: the waiting abilities, the active player's first; each player orders
        their own while two of them can be told apart."""
        wait = self._wait
        if not wait:
            return
        d = self.d
        cid = d.cid

        def ask(seat: str, options: list) -> str:  # R24.2: `order ID`, sorted (R24.4)
            return self.ask(seat, "order", sorted(options), None, "R21.2",
                            f"which of {seat}'s waiting abilities resolves next")

        while wait:
            # the kernel's rule (WG R13.5 without responses): the active player's first,
            # each orders their own; the same ability of the same id is not asked
            entry = next_to_resolve(wait, d.active, _seat_of, lambda w: (cid[w[1]], w[2]),
                                    lambda w: f"order {cid[w[1]]}", ask)
            wait.remove(entry)
            s, uid, i = entry
            trig = self.card(uid).abilities.triggers[i]
            if not self._holds(trig, s):
                continue
            self.note(s, "ability", "{}'s ability resolves", (uid,))
            self._run_ops(trig.effect, s, uid, None)

    def _run_ops(self, ops: tuple, seat: str, src: int, chosen: Optional[int]) -> None:
        d = self.d
        for op in ops:
            k = op.op
            if k == "draw":
                self.draw(d.active if op.who == "active" else seat, op.n)
            elif k == "look_top_may_bottom":
                deck = d.deck[seat]
                if not deck:
                    continue
                top = deck[0]
                d.kn[top] |= BIT[seat]
                self.note(seat, "look", seat + " looks at the top card of its deck: {}", (top,))
                if len(deck) > 1 and self.ask(seat, "yes_no", ["no", "yes"], d.cid[src],
                                              "R21.3", "put it on the bottom?") == "yes":
                    deck.append(deck.pop(0))
                    self.note(seat, "move", seat + " puts {} on the bottom of its deck", (top,))
            elif k == "pan_chosen":
                if chosen is not None and any(chosen in z for z in d.setz.values()):
                    d.pan.add(chosen)
                    self.note(seat, "pan", "{} turns pān", (chosen,))
            elif k == "chosen_to":
                if chosen is not None:
                    self._to(chosen, op.zone)
                    self.note(seat, "move", "{} goes to " + d.owner[chosen] + "'s "
                              + op.zone.replace("_", " "), (chosen,))
            elif k == "self_to":
                self._to(src, op.zone)
                self.note(seat, "move", "{} goes to " + d.owner[src] + "'s " + op.zone, (src,))
            elif k == "mod_chosen":
                if chosen is not None:
                    d.eot.append((chosen, op.stat, op.n))
                    self.note(seat, "modify", "{} has " + op.stat.upper() + f" {op.n:+d} until "
                              "end of turn", (chosen,))
            elif k == "may":
                first = op.then[0] if op.then else None
                if first is not None and first.op == "choose" \
                        and not self.options(seat, first.select):
                    continue
                if self.ask(seat, "yes_no", ["no", "yes"], d.cid[src], "R21.3",
                            f"use {d.cid[src]}'s ability?") == "yes":
                    self._run_ops(op.then, seat, src, chosen)
            elif k == "choose":
                opts = self.options(seat, op.select)
                if not opts:
                    continue
                pick = self.ask(seat, "choose", [f"choose {o}" for o in opts], d.cid[src],
                                "R21.3", f"a choice of {d.cid[src]}")
                self._run_ops(op.then, seat, src, self.chosen_uid(seat, pick.split()[1]))

    # ================================================================== Stepper hooks
    def _snapshot(self) -> Data:
        return self.d.copy()

    def _restore(self, snap: Data) -> None:
        self.d = snap.copy()
        self._wait = []
        self._refc = {}
        self._fx = self._listc = self._modc = None
        self._zk = {}

    def _game_over(self) -> IllegalAction:
        """R20.4: nothing happens once the game has ended."""
        won = self.winners()
        return IllegalAction(f"the game is over ({' and '.join(won) or 'nobody'} won, "
                             f"{self.win_reason()}): nothing more happens", "R20.4")

    def _copy(self) -> "IWState":
        return IWState(self.game, self.table, self.d.copy(), dict(self.markers))

    def _refusal(self, seat: str, action: Any) -> IllegalAction:
        from .moves import refusal

        return refusal(self, seat, action)

    def parse_action(self, seat: str, text: str):
        from .moves import parse_action

        return parse_action(self, seat, text)

    # ================================================================== hidden information
    def _hidden(self, seat: str) -> dict:
        d = self.d
        bit = BIT[seat]
        out = {}
        for p in SEATS:
            places = []
            for zone in (d.hand[p], d.deck[p], d.barriers[p], d.cun[p],
                         *d.cpiles[p].values()):
                places += [u for u in zone if not d.kn[u] & bit]
            out[p] = places
        return out

    def _redeal(self, seat: str, rnd: random.Random, hidden: dict) -> None:
        """R22.5: the unknown cards of each player swap identities among themselves; the
        opponent's hidden aga is drawn among the consistent agas; the log is ``seat``'s
        view."""
        d = self.d
        for p, uids in hidden.items():
            ids = [d.cid[u] for u in uids]
            ids.sort()
            rnd.shuffle(ids)
            for u, i in zip(uids, ids):
                d.cid[u] = i
        foe = other(seat)
        a = d.aga.get(foe)
        if a is not None and not d.kn[a] & BIT[seat]:
            owned = {self.card(u).faction for u, o in enumerate(d.owner)
                     if o == foe and u != a}
            zone = self.cost_zone(foe)
            fits = [c.id for c in self.table.agas
                    if rules.aga_consistent(c.aga(), owned, zone)]
            d.cid[a] = fits[rnd.randrange(len(fits))]
            self.markers = self._markers()
        bit = BIT[seat]
        d.log = [(t, s, k, x, tuple((c if m & bit else "?", m) for c, m in cards))
                 for t, s, k, x, cards in d.log]
        self._legal = {}
        self._who = None
        self._refc = {}
        self._fx = self._listc = self._modc = None
        self._zk = {}

    def _reseed(self, rnd: random.Random) -> None:
        self.d.rng = rnd.getrandbits(64) & MASK

    # ================================================================== results
    def winners(self) -> tuple:
        return (self.d.winner,) if self.d.winner is not None else ()

    def win_reason(self) -> str:
        return self.d.reason if self.d.over else ""

    def returns(self) -> dict:
        if self.d.over and not self.d.winner:
            return {"A": 0.5, "B": 0.5}
        return super().returns()

    # ================================================================== views
    def _ids(self, uids, bit: int) -> list:
        """Card ids as ``bit``'s seat knows them (``?`` otherwise); bit WHOLE: every id."""
        d = self.d
        if bit == WHOLE:
            return [d.cid[u] for u in uids]
        return [d.cid[u] if d.kn[u] & bit else "?" for u in uids]

    def _set_entries(self, s: str) -> list:
        d = self.d
        out = []
        for u in d.setz[s]:
            c = self.card(u)
            e = d.ench.get(u)
            geuda = c.type == "geuda"
            out.append({"ref": self.ref(u), "card": c.id, "type": c.type, "pan": u in d.pan,
                        "new": u in d.new, "attacked": u in d.attacked,
                        "blocked": u in d.blocked,
                        "enchant": None if e is None else d.cid[e],
                        "enchant_owner": None if e is None else d.owner[e],
                        "atk": self.value(u, "atk") if geuda else None,
                        "def": self.value(u, "def") if geuda else None})
        return out

    def _cost_view(self, s: str, bit: int) -> dict:
        d = self.d
        if d.cpiles[s]:
            return {f: self._ids(p, bit) for f, p in d.cpiles[s].items()}
        return {"unmarked": self._ids(d.cun[s], bit)}

    def _player(self, s: str, bit: int, own: bool) -> dict:
        d = self.d
        known = sorted(d.cid[u] for u in d.hand[s] if d.kn[u] & bit or bit == WHOLE)
        hand = known + ["?"] * (len(d.hand[s]) - len(known))
        a = d.aga.get(s)
        out = {"aga": (d.cid[a] if a is not None and (d.kn[a] & bit or bit == WHOLE)
                       else "hidden"),
               "aga_face_up": d.aga_up[s], "hand": hand, "deck": self._ids(d.deck[s], bit),
               "barriers": self._ids(d.barriers[s], bit), "cost": self._cost_view(s, bit),
               "set": self._set_entries(s), "trash": [d.cid[u] for u in d.trash[s]],
               "past": [d.cid[u] for u in d.past[s]]}
        if own:
            out["deck_list"] = sorted(d.cid[u] for u, o in enumerate(d.owner) if o == s)
        return out

    def step_name(self) -> Optional[str]:
        """``"attack"`` or ``"block"`` in the battle phase (R24.2's observation), else None."""
        d = self.d
        if d.over or d.phase != "battle" or d.hold:
            return None
        a = d.attack
        return "block" if a is not None and a["stage"] == "block" else "attack"

    def _decision_view(self) -> Optional[dict]:
        d = self.d
        kind = self.decision_kind()
        if kind is None:
            return None
        card = None
        if self.question is not None:
            card = self.question.decision.card
        return {"kind": kind, "seat": self.current_seats()[0], "card": card}

    def _attack_view(self) -> Optional[dict]:
        a = self.d.attack
        if a is None:
            return None
        side = a["order"] if a["order"] else a["side"]
        return {"attackers": [self.ref(u) for u in side],
                "target": "player" if a["target"] is None else self.ref(a["target"]),
                "blockers": [self.ref(u) for u in a["blockers"]]}

    def _result(self) -> Optional[dict]:
        d = self.d
        if not d.over:
            return None
        return {"winners": list(self.winners()), "reason": d.reason, "returns": self.returns()}

    def observation(self, seat: str) -> dict:
        if seat not in SEATS:
            raise ValueError(f"no seat {seat!r}; the seats are A, B")
        d = self.d
        bit = BIT[seat]
        t = None if d.terr is None else {"card": d.cid[d.terr], "controller": d.terr_ctrl}
        return {"seat": seat, "turn": d.turn, "active": d.active, "first": d.first,
                "phase": "over" if d.over else d.phase,
                "step": self.step_name(),
                "decision": self._decision_view(), "attack": self._attack_view(),
                "territory": t,
                "players": {s: self._player(s, bit, s == seat) for s in SEATS},
                "log": self.log_view(seat), "result": self._result()}

    def to_dict(self) -> dict:
        d = self.d
        players = {}
        for s in SEATS:
            p = self._player(s, WHOLE, True)
            p["aga"] = d.cid[d.aga[s]] if s in d.aga else None
            p["known"] = {str(u): d.kn[u] for u, o in enumerate(d.owner) if o == s}
            players[s] = p
        return {"turn": d.turn, "active": d.active, "first": d.first, "phase": d.phase,
                "step": d.step, "hold": d.hold, "setup_seat": d.setup_seat, "over": d.over,
                "winner": d.winner, "reason": d.reason, "max_turns": d.max_turns,
                "decision": self._decision_view(), "attack": self._attack_view(),
                "territory": None if d.terr is None else {"card": d.cid[d.terr],
                                                          "controller": d.terr_ctrl},
                "until_end_of_turn": [[self.d.cid[u], s, n] for u, s, n in d.eot],
                "players": players, "rng": d.rng, "log": self.log}

    # plain reads for tools and the ruling-case runner
    def hand(self, s: str) -> list:
        return sorted(self.d.cid[u] for u in self.d.hand[s])

    @property
    def turn(self) -> int:
        return self.d.turn

    @property
    def active(self) -> str:
        return self.d.active

    @property
    def phase(self) -> str:
        return "over" if self.d.over else self.d.phase

    def conservation_problem(self) -> Optional[str]:
        """R23.5: every card in exactly one place, each player owning their aga and deck
        list; barriers never above 5; no out geuda on the field (None: all hold)."""
        d = self.d
        seen = Counter()
        for s in SEATS:
            for zone in (d.deck[s], d.hand[s], d.barriers[s], d.cun[s], d.setz[s], d.trash[s],
                         d.past[s], *d.cpiles[s].values()):
                seen.update(zone)
                for u in zone:
                    if d.owner[u] != s:
                        return f"card {u} of {d.owner[u]} is in {s}'s zones"
            if s in d.aga:
                seen[d.aga[s]] += 1
            if len(d.barriers[s]) > BARRIERS:
                return f"{s} has {len(d.barriers[s])} barriers"
        seen.update(d.ench.values())
        if d.terr is not None:
            seen[d.terr] += 1
        for u in range(len(d.owner)):
            if seen[u] != 1:
                return f"card {u} ({d.cid[u]}) is in {seen[u]} places"
        for g in d.ench:
            if not any(g in z for z in d.setz.values()):
                return f"an enchant hangs on card {g}, which is not in a set zone"
        return None
