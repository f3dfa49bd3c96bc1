"""The engine: one API for every caller.

``Game.legal_actions()`` lists every legal action in the current state;
``Game.apply(action)`` performs one (asking the players' agents every choice an effect
needs) or raises :class:`~wgdsl.kernel.errors.IllegalAction` — with the reason and the
rule number — leaving the state untouched.  An agent never sees the game: it is asked
with its seat's :class:`~.view.SeatView` (``Game.view(seat)``), which shows only what that
seat may know.  ``Game.log`` (a
:class:`~wgdsl.kernel.log.EventLog`) records what happened (text lines and JSON); the
same seed and agents give the same log, byte for byte.

Turn structure (R5): start, draw, standby, gain, end.  The start, draw and end phases
need no decision and run by themselves; a game therefore always waits in the active
player's standby or gain phase.

Effects that never end: within one action at most ``MAX_RESOLUTIONS`` effects resolve and
responses nest at most ``MAX_RESPONSE_DEPTH`` deep; past either limit the engine raises
:class:`~wgdsl.kernel.errors.RunawayEffects` naming the repeating chain (docs/language.md,
"Effects that never end").  The check is one counter per resolved effect.
"""

from __future__ import annotations

import weakref
from typing import Callable, NamedTuple, Optional

from wgdsl.kernel.decision import Decision, Suspend
from wgdsl.kernel.errors import IllegalAction, RunawayEffects
from wgdsl.kernel.log import EventLog
from wgdsl.kernel.triggers import next_to_resolve
from wgdsl.lang.cards import CardLibrary

from . import rules
from .interpreter import Ctx, GameEvent, compiled_for, zone_squares
from .state import (OTHER, PLAYERS, POINT_COLORS, SQUARES, STANDBY_SLOTS, GameState, Instance,
                    shuffle)
from .view import SeatView

HIDDEN_ZONES = ("stock", "hand", "standby")  # R1.1, R1.6: what the other player cannot see

ACTION_KINDS = ("set_stun", "discard_stun", "exhaust", "break_stun", "break_field", "play",
                "activate", "next", "end_turn")
# the method that performs each kind (looked up by name on the class when a Game is made,
# so a method replaced on the class before is the one called: Game._handlers)
_HANDLER_NAMES = {kind: "_do_" + kind for kind in ACTION_KINDS}
HAND_SIZE = 7  # R4.1
WIN_POINTS = 15  # R12.2
# effects that never end (docs/language.md): a whole game of WG01 never resolves more than a
# handful of effects in one action; a chain this long only repeats itself
MAX_RESOLUTIONS = 1000  # effects resolved within one action
MAX_RESPONSE_DEPTH = 40  # responses to a targeting/play raised inside responses (R13.5)
_TRACED = 60  # the last resolutions before the limit are recorded to name the cycle
_TRACE_FROM = MAX_RESOLUTIONS - _TRACED
_LOG_KEPT = 40  # log lines of the stopped action kept before the runaway message


class Action(NamedTuple):
    """One thing a player can do.  ``slot`` is 1-based (as players count), ``card`` a card id
    in hand, ``copy`` the square of the card a copying card copies (None: ask).

    A named tuple: actions are built by the hundred thousand in legal_actions()."""

    kind: str
    player: str
    card: Optional[str] = None
    slot: Optional[int] = None
    square: Optional[str] = None
    copy: Optional[str] = None

    def __str__(self) -> str:
        parts = [self.player, self.kind]
        if self.card:
            parts.append(self.card)
        if self.slot is not None:
            parts.append(f"slot {self.slot}")
        if self.square:
            parts.append(self.square)
        if self.copy:
            parts.append(f"copying {self.copy}")
        return " ".join(parts)

    def to_dict(self) -> dict:
        return {k: v for k, v in self._asdict().items() if v is not None}


class Play:
    """A play from hand in progress (R7.2); effects may cancel it (`cancel that play`)."""

    __slots__ = ("card", "square", "cancelled")

    def __init__(self, card, square):
        self.card = card
        self.square = square
        self.cancelled = False


class Pending:
    __slots__ = ("controller", "source", "effect", "event")

    def __init__(self, controller, source, effect, event):
        self.controller = controller
        self.source = source
        self.effect = effect
        self.event = event


def _controller(pend) -> str:
    return pend.controller


def _trigger_kind(pend) -> tuple:
    """Triggers alike (R13.5): the same effect of the same card, from the same zone."""
    return pend.effect.group, pend.source.zone


#: the events the automatic phases emit (_run_automatic_phases)
_PHASE_EVENTS = frozenset({"turn_start", "turn_end"})
# Game.__init__'s facts of the last card set it met (its compiled cards first)
_SET_FACTS: tuple = (None, frozenset(), frozenset(), (frozenset(), frozenset()))


class Game:
    def __init__(self, state: GameState, library: CardLibrary, agents: Optional[dict] = None,
                 log: bool = True):
        self.state = state
        self.library = library
        self.agents = agents or {}
        self.fx = compiled_for(library)
        # (the set's compiled cards, and the two sets below of them): worked out once per
        # card set, not per game; one set kept, the last (it holds its compiled cards)
        global _SET_FACTS
        facts = _SET_FACTS
        if facts[0] is not self.fx:
            fx = self.fx
            facts = _SET_FACTS = (
                fx,
                frozenset(kind for f in fx.values() for kind in f.triggers),
                frozenset(cid for cid, f in fx.items() if not _PHASE_EVENTS.isdisjoint(f.triggers)),
                (frozenset(cid for cid, f in fx.items()
                           if f.dimension or f.triggers or f.entry_copy is not None),
                 frozenset(cid for cid, f in fx.items() if f.triggers)))
        # the event kinds some card of this set has a trigger for: an event no card
        # listens to skips the walk over the field's top cards (_emit, hot path: the end
        # of every turn emits one, and no WG01 card listens to it)
        self._listened = facts[1]
        # the events the automatic phases emit (R5.1 turn_start, R5.5 turn_end) that some
        # card of the set listens to: only such a trigger can ask a question there
        # (by the card whose face listens: the test is one set lookup per top card)
        self._phase_listeners = facts[2]
        # (the ids of the cards whose entering can start an effect of their own: a
        # dimension effect, a trigger, a copy; the ids of the cards with a trigger): what
        # WGState._play_may_ask reads
        self._play_facts = facts[3]
        # phases_may_ask's answer for the field of version _phases_seen (every change to
        # the field bumps the version; a rollback, which can bring an earlier version
        # back with another field after it, forgets it: WGState._restore)
        self._phases_seen, self._phases_ask = -1, False
        # _field_of's answers for the field of the version it names (forgotten on a
        # rollback like the two above), and each seat's hand index (_hand_index) for the
        # hand of the version it names (a rollback bumps the hands' versions)
        self._field_at: tuple = _NO_FIELD
        self._hands: dict = {q: _STALE for q in PLAYERS}
        # kind -> the function that performs it, looked up once per game (apply's hot
        # path: no getattr and no bound method an action); plain functions of the class,
        # not bound methods, so the game holds no cycle through itself
        cls = type(self)
        self._handlers = {kind: getattr(cls, name) for kind, name in _HANDLER_NAMES.items()}
        self.log = EventLog()
        self._logging = log
        self.pending: list = []
        self._checked_version = -1
        self._resolved = 0  # effects resolved in the current action (runaway limit)
        self._trace: list = []  # the last resolutions before the limit (to name the cycle)
        self._responding: list = []  # the responses now resolving, outermost first
        self._log_mark = 0  # log length when the current action began
        # stepping from outside (api.py): the answers given so far to the current action's
        # questions, and how many of them this run has used; None: agents answer
        self.answers: Optional[list] = None
        self.answered = 0
        # indices of log entries that name a card hidden from the other player (a stun set,
        # a card looked at, a choice among hidden cards): observations show them redacted
        self.private: set = set()
        # called with (source uid, compiled effect) as each triggered or dimension effect
        # starts to resolve: how a tool sees which effects ran (wgdsl simulate)
        self.watch: Optional[Callable] = None
        self._views: dict = {}  # seat -> a weak reference to its SeatView (view())

    # ================================================================== set-up (R4)
    @classmethod
    def new(cls, library: CardLibrary, decks: dict, seed: int = 0, first: str = "A",
            agents: Optional[dict] = None, log: bool = True) -> "Game":
        state = GameState.empty(seed)
        state.first = state.active = first
        by_id = getattr(library, "by_id", library)  # the set's dict itself (hot path)
        uid = state.next_uid
        make = object.__new__
        for p in PLAYERS:
            # new_instance and put(..., "stock") at once: a new instance is in the stock;
            # made without the Python call of its __init__ (80 a game): every field set,
            # the others to Instance's defaults (tests/test_wg_fast_paths.py)
            stock = state.players[p].stock
            for card_id in decks[p]:
                inst = make(Instance)
                inst.uid, inst.owner, inst.base = uid, p, by_id[card_id]
                inst.zone, inst.square, inst.slot, inst.exhausted, inst.copy_of = \
                    "stock", None, None, False, None
                stock.append(inst)
                uid += 1
        state.next_uid = uid
        game = cls(state, library, agents, log)
        for p in PLAYERS:
            me = state.players[p]
            shuffle(state.rng, me.stock)  # R4.1, seeded
            for _ in range(min(HAND_SIZE, len(me.stock))):
                state.draw_top(me)  # move(stock[0], "hand")
        game.note(None, "setup", f"stocks shuffled (seed {seed}); each player draws "
                  f"{HAND_SIZE}; {first} goes first (R4)")
        state.turn, state.phase = 1, "start"
        game._run_automatic_phases()
        return game

    def copy(self) -> "Game":
        """An independent copy of a game between actions (no trigger waiting, no effect
        resolving): the state copied (:meth:`GameState.copy`), the log's entries copied,
        the card set and its compiled effects shared (they never change); no agents."""
        twin = Game(self.state.copy(), self.library, None, self._logging)
        twin.log.entries = list(self.log.entries)
        twin.private = set(self.private)
        return twin

    # ================================================================== queries
    @property
    def over(self) -> bool:
        return self.state.winner is not None

    def agent(self, player: str):
        return self.agents[player]

    def view(self, seat: str) -> SeatView:
        """What ``seat`` may know of this game: the window its agent decides through
        (engine-api.md: agents never see the state).  It reads the game live, so it is
        never out of date.  One per seat while it is in use: the game keeps it by a weak
        reference, because the view holds the game, and a cycle would leave every
        finished game to the garbage collector (with the cycle, ab.py put random series
        at 0.90-0.96 of main)."""
        ref = self._views.get(seat)
        view = ref() if ref is not None else None
        if view is None:
            view = SeatView(self, seat)
            self._views[seat] = weakref.ref(view)
        return view

    def note(self, player: Optional[str], kind: str, text) -> None:
        """A log entry; ``text`` a string, or (function, *arguments) to build it when the
        log is read (EventLog)."""
        if self._logging:  # EventLog.add inlined: called for nearly every action
            self.log.raw.append((self.state.turn, player, kind, text))

    def targetable(self, inst: Instance) -> bool:
        """R13.4: only top cards on the field are targets; "cannot be targeted" refuses."""
        if inst.zone != "field" or self.state.field[inst.square][-1] is not inst:
            return False
        return not self.fx[inst.face.id].untargetable

    def priority_ok(self, player: str, inst_or_def, square: str) -> bool:
        st = self.state
        if rules.priority_allows(player, square, st.holder):
            return True
        # R8.4: a card's own rule may allow it (`in hand static: this can be played onto ...`)
        for zone in self.fx[inst_or_def.id].play_onto:
            if square in zone_squares(zone, player):
                return True
        return False

    def _protected(self, square: str, outcome: str, cost: int) -> bool:
        """A static rule of the square's top card forbids this seize/trade (R11.3)."""
        top = self.state.top(square)
        if top is None:
            return False
        kind = "seized" if outcome == rules.SEIZE else "traded"
        for kinds, op, value in self.fx[top.face.id].protections:
            if kind in kinds and op(cost, value):
                return True
        return False

    def play_outcome(self, player: str, card, square: str, copy_face=None):
        """(outcome, rule, reason) for ``card`` (a CardDef) played onto ``square``.

        What decides it is the field and (player, the face's mark, the card's cost, the
        square) alone (R9-R11 placement, R11.3 the top card's protections): remembered
        per state of the field (``_field_of``'s outcomes dict), since legal_actions lists
        a hand's plays and a greedy bot weighs them, again and again, on one field
        (hot path; tests/test_wg_fast_paths.py holds it to ``_judge_play``)."""
        st = self.state
        cache = self._field_at  # _field_of(player), read inline when the field is the same
        memo = (cache[1][player] if cache[0] == st.field_version else self._field_of(player))[4]
        key = ((copy_face or card).mark, card.cost, square)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = self._judge_play(player, card, square, copy_face)
        return hit

    def _judge_play(self, player: str, card, square: str, copy_face=None):
        """play_outcome worked out from the field (what it remembers)."""
        face = copy_face or card
        outcome, rule, reason = rules.placement(player, face.mark, card.cost, self.state.field[square])
        if outcome in (rules.SEIZE, rules.TRADE) and self._protected(square, outcome, card.cost):
            top = self.state.top(square)
            return rules.ILLEGAL, "R11.3", f"{top.label()} on {square} cannot be {outcome}d by cost {card.cost}"
        return outcome, rule, reason

    def copy_candidates(self, player: str, card) -> list:
        fx = self.fx[card.id]
        if fx.entry_copy is None:
            return []
        return fx.entry_copy(Ctx(self, player, None))

    # ================================================================== legal actions
    def legal_actions(self) -> list[Action]:
        st = self.state
        if st.winner is not None:
            return []
        p = st.active
        me = st.players[p]
        phase = st.phase
        if phase == "standby":
            # (a free slot?, the discard_stun actions of the filled slots, the same then
            # next and end_turn) by the standby's pattern (which slots are empty): made
            # once per pattern, not walked slot by slot every step (hot path; the five
            # slots unpacked, STANDBY_SLOTS, no loop)
            s1, s2, s3, s4, s5 = me.standby
            slots = _SLOTS[p].get((s1 is None, s2 is None, s3 is None, s4 is None, s5 is None))
            if slots is None:
                slots = _slot_facts(p, me.standby)
            cache = self._field_at  # _field_of(p), read inline when the field is the same
            held = cache[1][p] if cache[0] == st.field_version else self._field_of(p)
            tail = 2 if not held[1] else 1  # with next and end_turn, or without
            if not st.stun_set and slots[0]:
                # a set_stun per distinct card in hand, from the hand index (kept as
                # cards are drawn and set: _hand_index)
                hand = self._hands[p]
                if hand[0] != me.hand_v:
                    hand = self._hand_index(p, me)
                out = [*hand[2], *slots[tail]]
            else:
                out = list(slots[tail])
            if tail == 2:
                return out
            # an ability without a phase works here too
            activate = _FIXED[p]["activate"]
            for sq, top in held[1]:
                if self._activatable(p, top):
                    out.append(activate[sq])
        elif phase == "gain":
            fixed = _FIXED[p]  # the actions that name no card are built once (hot path)
            if me.tired:  # a stun may be exhausted: slot by slot
                out = []
                exhaust, brk, discard = fixed["exhaust"], fixed["break_stun"], fixed["discard_stun"]
                for i, s in enumerate(me.standby):
                    if s is not None:
                        if not s.exhausted:
                            out.append(exhaust[i])
                            out.append(brk[i])
                        out.append(discard[i])
            else:  # every stun is ready: its actions by the standby's pattern (_slot_facts)
                s1, s2, s3, s4, s5 = me.standby
                slots = _SLOTS[p].get((s1 is None, s2 is None, s3 is None, s4 is None,
                                       s5 is None))
                if slots is None:
                    slots = _slot_facts(p, me.standby)
                out = list(slots[3])
            cache = self._field_at  # _field_of(p), read inline when the field is the same
            held = cache[1][p] if cache[0] == st.field_version else self._field_of(p)
            if held[1]:  # break_field and activate, square by square
                break_field, activate = fixed["break_field"], fixed["activate"]
                tops = dict(held[1])
                for sq in held[2]:
                    out.append(break_field[sq])
                    top = tops.get(sq)
                    if top is not None and self._activatable(p, top):
                        out.append(activate[sq])
            else:
                out += held[0]
            if not st.played:
                # the cards of the hand, each once, and the cost of the cheapest, from
                # the hand index (_hand_index): a pool that holds less pays for none (hot
                # path: the gain phase's first step, its pool empty, lists no play)
                hand = self._hands[p]
                if hand[0] != me.hand_v:
                    hand = self._hand_index(p, me)
                pool = me.pool
                pool_total = sum(pool.values())
                if pool_total >= hand[5]:
                    self._legal_plays(p, me, pool, held, out, hand[3], pool_total)
        else:
            out = []
        out += _TAIL[p]
        return out

    def forget_caches(self) -> None:
        """Forget what is remembered per version of the field (the win check,
        phases_may_ask, _field_of): a rollback (WGState._restore) can bring an earlier
        version number back with another field after it."""
        self._checked_version = self._phases_seen = -1
        self._field_at = _NO_FIELD

    def _hand_index(self, p: str, me) -> list:
        """``p``'s hand index, worked out from the hand: [the hand's version
        (``hand_v``), card id -> how many of it the hand holds, the set_stun actions (one
        per distinct card id, in first-seen order), the printed cards in the same order,
        their costs, the cheapest cost (_NO_CARD for an empty hand)].  legal_actions reads
        it in every standby and gain step; the draw, a stun set and a play fold their
        card into it (``draw``, ``_hand_leaves``), so that it is worked out again only
        after other changes to the hand (an effect's move, a cancelled play, a
        rollback).  The lists are the
        index's own: a reader copies what it hands out."""
        set_stun = _SET_STUN[p]  # card id -> its set_stun action, made once
        counts: dict = {}
        acts, cards, costs = [], [], []
        hand = me.hand
        for cid in _distinct_ids(hand):  # each id once, in order
            counts[cid] = 0
            act = set_stun.get(cid)
            if act is None:  # a card id not seen yet: its action made once
                act = set_stun[cid] = _action("set_stun", p, cid)
            acts.append(act)
        for inst in hand:
            card = inst.base
            n = counts[card.id]
            if not n:
                cards.append(card)
                costs.append(card.cost)
            counts[card.id] = n + 1
        index = self._hands[p] = [me.hand_v, counts, acts, cards, costs,
                                  min(costs) if costs else _NO_CARD]
        return index

    def _hand_leaves(self, p: str, me, inst: Instance) -> None:
        """``inst``, the first card of its id in ``p``'s hand, leaves the hand (a stun
        set, a play): it is taken out, the hand's version bumped, and the hand index
        follows when it was this hand's (the id leaves it with its only card; with
        another of its id staying, the id is listed where that one is first seen)."""
        cid = inst.base.id
        # the hand index follows when it is this hand's
        index = self._hands[p]
        if index[0] == me.hand_v:
            counts = index[1]
            n = counts[cid]
            set_stun = _SET_STUN[p]
            acts = index[2]
            k = acts.index(set_stun[cid])
            if n == 1:  # the only one of its id: the id leaves the index
                del counts[cid]
                del acts[k]
                del index[3][k]
                costs = index[4]
                cost = costs.pop(k)
                if cost == index[5]:
                    index[5] = min(costs) if costs else _NO_CARD
            else:
                # another of its id stays, later (``inst`` is the first): the id is now
                # listed after the ids first shown between the two
                counts[cid] = n - 1
                earlier = acts[:k]
                shown: list = []
                hand = me.hand
                for x in hand[hand.index(inst) + 1:]:
                    xid = x.base.id
                    if xid == cid:
                        break
                    act = set_stun[xid]
                    if act not in earlier and act not in shown:
                        shown.append(act)
                if shown:
                    m = k + len(shown)
                    acts.insert(m, acts.pop(k))
                    cards = index[3]
                    cards.insert(m, cards.pop(k))
                    costs = index[4]
                    costs.insert(m, costs.pop(k))
            index[0] = me.hand_v + 1
        me.hand.remove(inst)
        me.hand_v += 1

    def _field_of(self, p: str) -> tuple:
        """What legal_actions reads of the field for ``p``, worked out once per state of
        the field (``field_version``) for both players, since the field changes in few
        actions and legal_actions asks in every one (hot path; kept in ``_field_at``:
        (the version, seat -> this answer, the field's top cards that have a trigger with
        their triggers, in square order: what _emit walks)): (``p``'s break_field
        actions, in square order; the (square, top card) of those squares whose top card
        has an activated effect; the squares ``p`` holds; a dict card id -> that card's
        play actions, filled as cards are asked about; a dict (mark, cost, square) -> the
        play's outcome, filled by play_outcome; the squares R8.2 lets ``p`` play onto, as
        ``rules.priority_squares`` lists them)."""
        st = self.state
        cache = self._field_at
        if cache[0] != st.field_version:
            fx = self.fx
            held: dict = {"A": [], "B": []}  # PLAYERS (no comprehension: no frame)
            tops: dict = {"A": [], "B": []}
            listening = []
            for sq, stack in st.field.items():
                if stack:
                    top = stack[-1]
                    owner = stack[0].owner
                    held[owner].append(sq)
                    face = fx[(top.copy_of or top.base).id]  # Instance.face inline
                    if face.activated:
                        tops[owner].append((sq, top))
                    if face.triggers:
                        listening.append((top, face.triggers))
            per = {}
            for q in PLAYERS:
                mine = held[q]
                # (q's break_field actions, R8.2's squares) for the squares q holds, made
                # once per set of squares (_held_facts)
                facts = _HELD[q].get(tuple(mine))
                if facts is None:
                    facts = _held_facts(q, mine)
                per[q] = (facts[0], tops[q], mine, {}, {}, facts[1])
            cache = self._field_at = (st.field_version, per, tuple(listening))
        return cache[1][p]

    def _legal_plays(self, p: str, me, pool: dict, held: tuple, out: list, cards: tuple,
                     pool_total: int) -> None:
        """Append ``p``'s legal plays from hand to ``out``.  Where a card can go depends on
        the field alone (R8 priority, R9-R11 placement, R11.3 protections), so each card's
        plays are worked out once per state of the field (``held``: _field_of's answer);
        only whether the pool pays for it is asked every time.  A card that enters as a
        copy lists the cards it can copy, worked out every time.  ``cards``: the hand's
        distinct printed cards (the hand index's, _hand_index); ``pool_total``: what the pool holds (payment refuses any cost above
        it), both worked out once per call by the caller, not per card (hot path)."""
        plays = held[3]
        for card in cards:
            # rules.can_pay inline (hot path: every card in hand, every gain step)
            if pool_total < card.cost:
                continue
            required = card.required
            if required > 0:
                color = card.color
                if color == "yellow":
                    if not any(pool.get(c, 0) >= required for c in POINT_COLORS):
                        continue
                elif pool.get(color, 0) < required:
                    continue
            acts = plays.get(card.id)
            if acts is None:
                acts = self._plays_of(p, card, held)
                if self.fx[card.id].entry_copy is None:
                    plays[card.id] = acts
            out += acts

    def _plays_of(self, p: str, card, held: tuple) -> list:
        """Every square ``card`` (a CardDef in ``p``'s hand) can be played onto now, as
        play actions (a copying card: one per card it can copy that allows it);
        ``held``: _field_of(p), whose R8.2 squares it reads and whose play outcomes it
        fills (play_outcome inline: the same key, the same judgement)."""
        st = self.state
        field = st.field
        out = []
        cid = card.id
        fx = self.fx[cid]
        # a square R8.2 refuses opens only by the card's own rule (R8.4), which most
        # cards lack: then priority_ok, which asks R8.2 again, is not asked (hot path)
        play_onto = fx.play_onto
        if fx.entry_copy is not None:
            faces = [(c.square, c.face) for c in fx.entry_copy(Ctx(self, p, None))]
            faces = faces or _NO_COPY
        else:
            faces = _NO_COPY
        allowed, memo = held[5], held[4]
        cost = card.cost
        # the card's play actions without a copy, square -> action, made once
        plain = _PLAYS[p].get(cid)
        if plain is None:
            plain = _PLAYS[p][cid] = {sq: _action("play", p, cid, sq) for sq in SQUARES}
        for sq in SQUARES:
            if sq not in allowed and not (play_onto and self.priority_ok(p, card, sq)):
                continue
            empty = not field[sq]  # R9: any card takes an empty square
            for copy_sq, face in faces:
                if not empty:
                    key = ((face or card).mark, cost, sq)
                    outcome = memo.get(key)
                    if outcome is None:
                        outcome = memo[key] = self._judge_play(p, card, sq, face)
                    if outcome[0] == rules.ILLEGAL:
                        continue
                out.append(plain[sq] if copy_sq is None else _action("play", p, cid, sq, copy_sq))
        return out

    def _activatable(self, p: str, inst: Instance) -> bool:
        fx = self.fx[inst.face.id]
        if not fx.activated:
            return False
        ctx = Ctx(self, p, inst)
        return any((a.phase is None or a.phase == self.state.phase) and a.cost_feasible(ctx)
                   for a in fx.activated)

    # ================================================================== apply
    def apply(self, action: Action) -> None:
        """Perform one action, or raise IllegalAction with the state unchanged."""
        st = self.state
        if st.winner is not None:
            raise IllegalAction(f"the game is over: {st.winner} won", "R12")
        handler = self._handlers.get(action.kind)
        if handler is None:
            raise IllegalAction(f"unknown action `{action.kind}`; actions are "
                                + ", ".join(ACTION_KINDS))
        if action.player != st.active:
            raise IllegalAction(f"it is {st.active}'s turn, not {action.player}'s", "R5")
        logged = self._log_mark = len(self.log.raw)
        self._resolved = 0
        try:
            handler(self, action)
        except IllegalAction:
            # a refusal leaves no trace: a question asked before the judgement (R7.2 asks
            # a copy's choice before placement) is taken back from the log too; which
            # answers an agent gave is the caller's to rewind (ScriptedAgent.position)
            del self.log.raw[logged:]
            raise
        if self.pending:
            self._resolve_pending()
        if st.field_version != self._checked_version:  # check_win's own first test, inline
            self.check_win()

    def play_random(self, bits: dict, max_turns: int, count: list) -> int:
        """Play on until the game is won or passes ``max_turns``, each seat picking its
        action uniformly from ``legal_actions()`` as :meth:`RandomAgent.act` picks (``bits``:
        seat -> its generator's ``getrandbits``; the same draws, so the same games), and
        performing it as :meth:`apply` does (tools/play.py's driver for two plain random
        seats; hot path: a random game's every action).  apply's refusals of a wrong action
        are not asked: an action of the list just made is of a known kind and the active
        seat's (a handler still refuses what its own rules refuse, the state untouched).
        Counts the actions in ``count[0]`` as it goes (a game stopped by an exception still
        says how far it got) and returns it."""
        st = self.state
        legal_actions, handlers, raw = self.legal_actions, self._handlers, self.log.raw
        actions = count[0]
        try:
            while st.winner is None and st.turn <= max_turns:
                legal = legal_actions()
                n = len(legal)
                if not n:
                    raise IndexError("no action to choose from")
                draw = bits[st.active]
                k = n.bit_length()
                r = draw(k)
                while r >= n:
                    r = draw(k)
                action = legal[r]
                # apply(action) past its refusals (see above)
                logged = self._log_mark = len(raw)
                self._resolved = 0
                try:
                    handlers[action.kind](self, action)
                except IllegalAction:
                    del raw[logged:]
                    raise
                if self.pending:
                    self._resolve_pending()
                if st.field_version != self._checked_version:
                    self.check_win()
                actions += 1
        finally:
            count[0] = actions
        return actions

    # ---- standby phase (R5.3)
    def _require_phase(self, *phases: str, rule: str) -> None:
        if self.state.phase not in phases:
            raise IllegalAction(f"not allowed in the {self.state.phase} phase "
                                f"(only in the {' or '.join(phases)} phase)", rule)

    def _hand_card(self, p: str, card_id: Optional[str]) -> Instance:
        for inst in self.state.players[p].hand:
            if inst.base.id == card_id:  # Instance.id inline
                return inst
        raise IllegalAction(f"{p} has no {card_id} in hand", "R7.1")

    def _stun(self, p: str, slot: Optional[int]) -> Instance:
        if slot is None or not 1 <= slot <= STANDBY_SLOTS:
            raise IllegalAction(f"standby slots are 1 to {STANDBY_SLOTS}, not {slot}", "R1.1")
        inst = self.state.players[p].standby[slot - 1]
        if inst is None:
            raise IllegalAction(f"{p}'s standby slot {slot} is empty", "R5.3")
        return inst

    def _do_set_stun(self, a: Action) -> None:
        st = self.state
        if st.phase != "standby":
            self._require_phase("standby", rule="R5.3")
        if st.stun_set:
            raise IllegalAction("only one stun may be set per turn", "R5.3")
        p = a.player
        me = st.players[p]
        standby = me.standby
        if None not in standby:
            raise IllegalAction(f"the standby already holds {STANDBY_SLOTS} stuns", "R5.3")
        cid = a.card
        for inst in me.hand:  # _hand_card inline (hot path)
            if inst.base.id == cid:
                break
        else:
            raise IllegalAction(f"{p} has no {cid} in hand", "R7.1")
        st.stun_set = True
        # move(inst, "standby") from hand, at once (hot path: most turns)
        self._hand_leaves(p, me, inst)
        slot = standby.index(None)
        standby[slot] = inst
        inst.zone, inst.slot = "standby", slot
        if self._logging:  # note_private inline; the text is built when the log is read
            raw = self.log.raw
            self.private.add(len(raw))
            raw.append((st.turn, p, "set_stun", (_card_text, "sets {} as a stun in slot {}",
                                                 inst.base, inst.copy_of, inst.slot + 1)))

    def _do_discard_stun(self, a: Action) -> None:
        st = self.state
        if st.phase != "standby" and st.phase != "gain":
            self._require_phase("standby", "gain", rule="R5.3")
        me = st.players[a.player]
        slot = a.slot  # _stun inline when the slot holds a stun (hot path)
        inst = me.standby[slot - 1] if slot is not None and 1 <= slot <= STANDBY_SLOTS else None
        if inst is None:
            inst = self._stun(a.player, slot)  # refused, in its words
        # move(inst, "break") from standby, at once
        me.standby[inst.slot] = None
        inst.zone, inst.slot, inst.exhausted = "break", None, False
        me.break_.append(inst)
        if self._logging:  # note() inline; the text is built only when the log is read
            self.log.raw.append((st.turn, a.player, "discard_stun",
                                 (_card_text, "discards the stun {} (no points, R5.3)",
                                  inst.base, inst.copy_of)))

    # ---- gain phase: points (R6.2)
    def _stun_color(self, p: str, inst: Instance) -> str:
        """A stun's point color; a standby rule may let its controller choose
        (`in standby static: this gives points of one chosen color among ...`).  A stun
        that gives points shows what it is (project decision, docs/rules.md R6.5)."""
        self.state.tell(inst.uid, PLAYERS)
        colors = self.fx[inst.face.id].any_color
        if colors:
            return self.choose_option(p, f"choose the color of {inst.label()}'s points",
                                      list(colors), rule="R6.2")
        return inst.face.color

    def _do_exhaust(self, a: Action) -> None:
        if self.state.phase != "gain":
            self._require_phase("gain", rule="R6.1")
        inst = self._stun(a.player, a.slot)
        if inst.exhausted:
            raise IllegalAction(f"the stun in slot {a.slot} is already exhausted", "R6.2")
        color = self._stun_color(a.player, inst)
        inst.exhausted = True
        self.state.players[a.player].tired = True
        self.add_points(a.player, color, inst.face.stun, quiet=True)
        if self._logging:  # the text is built only for a log
            self.note(a.player, "exhaust", (_card_text, "exhausts {}: +{} {}", inst.base,
                                            inst.copy_of, inst.face.stun, color))

    def _do_break_stun(self, a: Action) -> None:
        self._require_phase("gain", rule="R6.1")
        inst = self._stun(a.player, a.slot)
        if inst.exhausted:
            raise IllegalAction("an exhausted stun gives no point when broken; discard it instead",
                                "R6.2")
        color = self._stun_color(a.player, inst)
        self.move(inst, "break")
        self.add_points(a.player, color, 1, quiet=True)
        if self._logging:  # the text is built only for a log
            self.note(a.player, "break_stun", (_card_text, "breaks the stun {}: +1 {}", inst.base,
                                               inst.copy_of, color))

    def _do_break_field(self, a: Action) -> None:
        self._require_phase("gain", rule="R6.1")
        st = self.state
        if a.square not in st.field:
            raise IllegalAction(f"`{a.square}` is not a square (A1-A3, C1-C3, B1-B3)", "R1.2")
        top = st.top(a.square)
        if top is None or top.owner != a.player:
            raise IllegalAction(f"{a.player} holds no card on {a.square}", "R6.2")
        color = top.face.color
        if self._logging:  # the text is built only for a log
            self.note(a.player, "break_field", (_card_text, "breaks {} from {}: +1 {}", top.base,
                                                top.copy_of, a.square, color))
        self.move(top, "break")
        self.add_points(a.player, color, 1, quiet=True)

    def _do_activate(self, a: Action) -> None:
        st = self.state
        top = st.top(a.square) if a.square in st.field else None
        if top is None or top.owner != a.player:
            raise IllegalAction(f"{a.player} holds no card on {a.square}", "R13.2")
        ctx = Ctx(self, a.player, top)
        usable = [x for x in self.fx[top.face.id].activated
                  if (x.phase is None or x.phase == st.phase) and x.cost_feasible(ctx)]
        if not usable:
            raise IllegalAction(f"{top.label()} has no activated effect usable now", "R13.2")
        ability = usable[0]
        if self._logging:  # the text is built only for a log
            self.note(a.player, "activate", f"activates {top.label()} on {a.square}")
        if ability.cost is not None:
            ability.cost(ctx)
        ability.run(ctx)

    # ---- gain phase: play (R7)
    def _do_play(self, a: Action) -> None:
        st = self.state
        if st.phase != "gain":
            self._require_phase("gain", rule="R7.1")
        if st.played:
            raise IllegalAction("only one card may be played from hand per turn", "R5.4")
        inst = self._hand_card(a.player, a.card)
        card = inst.base
        if a.square not in st.field:
            raise IllegalAction(f"`{a.square}` is not a square (A1-A3, C1-C3, B1-B3)", "R1.2")
        if a.square in self._field_of(a.player)[5]:
            pass  # R8.2's squares as _field_of keeps them (priority_ok's first test)
        elif not self.priority_ok(a.player, card, a.square):  # the card's own rule (R8.4)
            raise IllegalAction(
                f"{a.player} must hold every square of the higher rows before playing onto "
                f"{a.square}", "R8.2")
        pay = rules.payment(st.players[a.player].pool, card.cost, card.required, card.color)
        if pay is None:
            need = f"{card.required} {card.color}" if card.color != "yellow" else f"{card.required} of one color"
            raise IllegalAction(f"{card.id} costs {card.cost} with {need}; the pool has "
                                f"{_pool_text(st.players[a.player].pool)}", "R6.3")
        # R7.2: choices the card needs on play (a copy) come before paying
        copy_from = None
        candidates = self.copy_candidates(a.player, card)
        if a.copy is not None:
            # R13.4: a named copy must be a card it can choose (not an untargetable card, not an empty
            # square), even when there is nothing to choose at all
            copy_from = next((c for c in candidates if c.square == a.copy), None)
            if copy_from is None:
                raise IllegalAction(f"{card.id} cannot copy the card on {a.copy}", "R13.4")
        elif candidates:
            # only copies that make the play legal are options (ruling format: a choice
            # offers its legal options), so a refused play never asks anything
            legal = [c for c in candidates
                     if self.play_outcome(a.player, card, a.square, c.face)[0] != rules.ILLEGAL]
            if not legal:
                _, rule, reason = self.play_outcome(a.player, card, a.square, candidates[0].face)
                raise IllegalAction(f"{card.id} cannot be played onto {a.square}: no card it can "
                                    f"copy makes the play legal (copying {candidates[0].label()}: "
                                    f"{reason})", rule)
            copy_from = self.choose(a.player, f"choose a card for {card.id} to copy", legal,
                                    rule="R7.2")
        face = copy_from.face if copy_from is not None else None
        outcome, rule, reason = self.play_outcome(a.player, card, a.square, face)
        if outcome == rules.ILLEGAL:
            raise IllegalAction(f"{card.id} cannot be played onto {a.square}: {reason}", rule)
        judged_at = st.field_version  # the field this judgement saw
        # ---- from here on the play happens
        st.played = True
        me = st.players[a.player]
        for color, n in pay.items():
            me.pool[color] -= n
            if not me.pool[color]:
                del me.pool[color]
        self._hand_leaves(a.player, me, inst)  # state.take(inst), the hand index following
        inst.zone = "play"
        if self._logging:  # the text is built only for a log
            self.note(a.player, "play", f"plays {card.id} {card.name} onto {a.square}"
                      + (f" as a copy of {copy_from.label()}" if copy_from else ""))
        if copy_from is not None:
            inst.copy_of = copy_from.face
            self.target(copy_from, Ctx(self, a.player, inst))
        play = Play(inst, a.square)
        self._respond(GameEvent("plays", card=inst, player=a.player, play=play))
        if play.cancelled or st.winner is not None:
            # R13.5, `cancel that play`: the card returns to hand, cost paid, play counted
            inst.copy_of = None
            inst.zone = "limbo"
            st.put(inst, "hand")
            if play.cancelled:
                self.note(a.player, "cancelled", f"the play of {card.id} is cancelled; it returns to hand")
            return
        # R13.5 ruling: a response may have changed the board (a swap); the placement is
        # judged on the board as it now is, and an illegal play ends like a cancelled one
        if st.field_version == judged_at and inst.copy_of is face:
            pass  # the board is the one judged above: the same outcome (hot path)
        elif not self.priority_ok(a.player, card, a.square):
            outcome, rule, reason = rules.ILLEGAL, "R8.2", (
                f"{a.player} no longer holds every square of the higher rows")
        else:
            outcome, rule, reason = self.play_outcome(a.player, card, a.square, inst.copy_of)
        if outcome == rules.ILLEGAL:
            inst.copy_of = None
            inst.zone = "limbo"
            st.put(inst, "hand")
            self.note(a.player, "fizzle", f"{card.id} can no longer be placed on {a.square} "
                      f"({reason}, {rule}); it returns to hand")
            return
        self._place(inst, a.square, outcome, a.player)
        self.check_win()
        if st.winner is None and inst.zone == "field":
            self.entered(inst)

    def _place(self, inst: Instance, square: str, outcome: str, player: str) -> None:
        """R9–R11: put a played card onto a square with the outcome the tables give."""
        st = self.state
        stack = st.field[square]
        if outcome == rules.PLACE:
            if self._logging:  # the text is built only for a log
                self.note(player, "place", f"{inst.label()} takes the empty square {square} (R9)")
            self._put_field(inst, square)
        elif outcome == rules.STACK:
            if self._logging:  # the text is built only for a log
                self.note(player, "stack", f"{inst.label()} is stacked on {square} (R10.2)")
            self._put_field(inst, square)
        elif outcome == rules.REPLACE:
            if self._logging:  # the text is built only for a log
                self.note(player, "replace", f"{inst.label()} beats the top card of {square}: "
                          "the stack goes to break (R10.1)")
            self.leave_field(list(stack), "break")
            self._put_field(inst, square)
        elif outcome == rules.SEIZE:
            if self._logging:  # the text is built only for a log
                self.note(player, "seize", f"{inst.label()} seizes {square} (R11)")
            self.leave_field(list(stack), "break", seized=True)
            self._put_field(inst, square)
        elif outcome in (rules.AIKO, rules.TRADE):
            # R11.1 aiko / R11.2 trade: the new card and the top card go to break
            top = stack[-1]
            rule = "R11.1" if outcome == rules.AIKO else "R11.2"
            if self._logging:  # the text is built only for a log
                self.note(player, outcome, f"{outcome} on {square}: {inst.label()} and {top.label()} "
                          f"go to break ({rule})")
            inst.copy_of = None
            inst.zone = "limbo"
            st.put(inst, "break")  # R7.3: it never was on the field
            self.leave_field([top], "break")

    def _put_field(self, inst: Instance, square: str) -> None:
        inst.zone = "limbo"
        copy_of = inst.copy_of
        self.state.put(inst, "field", square=square)
        inst.copy_of = copy_of

    # ---- phases (R5)
    def _do_next(self, a: Action) -> None:
        st = self.state
        if st.phase == "standby":
            st.phase = "gain"
            if self._logging:  # note() inline (hot path: a random game's every other turn)
                self.log.raw.append((st.turn, a.player, "phase", "gain phase"))
            return
        if st.phase == "gain":
            st.phase = "end"
        self._run_automatic_phases()

    def _do_end_turn(self, a: Action) -> None:
        """Pass through the rest of this turn into the next player's standby phase
        (ruling-format `end_turn`): from the start or draw phase, those run first."""
        st = self.state
        if st.phase in ("start", "draw"):
            self._run_automatic_phases()  # into this player's standby phase
            if st.winner is not None:
                return
        if st.phase in ("standby", "gain"):
            st.phase = "end"
        self._run_automatic_phases()

    def phases_may_ask(self) -> bool:
        """Can running the automatic phases (start, draw, end: R5) from here meet a
        question?  Only through an effect they trigger, and they emit nothing but
        ``turn_start`` and ``turn_end`` (a draw emits nothing): so only while a top card of
        the field has a trigger for one of them.  No effect can change the field before
        the first of those triggers resolves, so the field as it is now decides.  (The
        public interface takes its snapshot before a step only when a question can come:
        passing the turn is about half of a random game's steps.)"""
        ids = self._phase_listeners
        if not ids:
            return False
        st = self.state
        version = st.field_version
        if version == self._phases_seen:  # the field as it was when last asked
            return self._phases_ask
        asks = False
        for stack in st.field.values():
            if stack and stack[-1].face.id in ids:
                asks = True
                break
        self._phases_seen, self._phases_ask = version, asks
        return asks

    def _run_automatic_phases(self) -> None:
        """Run start, draw and end phases until a player has a decision (standby).

        Hot path (about half of a random game's actions pass the turn): one pass of
        end, start and draw in a row, the log's entries appended here."""
        st = self.state
        logging = self._logging
        entries = self.log.raw  # texts built when read (EventLog)
        listened = self._phase_listeners  # empty: no card listens to a turn's start or end
        while st.winner is None:
            phase = st.phase
            p = st.active
            if phase == "end":
                # phases_may_ask, its answer for this field read inline
                if listened and (self._phases_ask if self._phases_seen == st.field_version
                                 else self.phases_may_ask()):
                    self._emit(GameEvent("turn_end", player=p))
                if self.pending:
                    self._resolve_pending()
                if st.field_version != self._checked_version:
                    self.check_win()
                if st.winner is not None:
                    return
                st.players[p].pool.clear()  # R5.5
                p = st.active = OTHER[p]
                st.turn += 1
                st.played = st.stun_set = False
                st.phase = phase = "start"
            if phase == "start":
                if logging:
                    entries.append((st.turn, p, "turn", (_start_text, st.turn, p)))
                me = st.players[p]
                if me.tired:  # R5.1 (tired: a stun may be exhausted)
                    for s in me.standby:
                        if s is not None:
                            s.exhausted = False
                    me.tired = False
                # only a top card of the field can listen to the start of a turn: when
                # none does, the event is not built (hot path: every turn)
                if listened and (self._phases_ask if self._phases_seen == st.field_version
                                 else self.phases_may_ask()):
                    self._emit(GameEvent("turn_start", player=p))
                if self.pending:
                    self._resolve_pending()
                if st.field_version != self._checked_version:
                    self.check_win()
                st.phase = phase = "draw"
                if st.winner is not None:
                    return
            if phase == "draw":
                p = st.active
                if st.turn == 1 and p == st.first:
                    self.note(p, "draw", "the first player skips the first draw (R4.2)")
                elif not st.players[p].stock:
                    self.note(p, "draw", f"{p} must draw from an empty stock")
                    self._win(OTHER[p], "R12.3", f"{p} must draw from an empty stock")
                    return
                else:
                    self.draw(p)  # through draw(): a tool may watch it (tests/invariants.py)
                if st.field_version != self._checked_version:
                    self.check_win()
                st.phase = "standby"
                if st.winner is None and logging:
                    entries.append((st.turn, p, "phase", "standby phase"))
            return

    # ================================================================== moving cards
    def draw(self, p: str, by_effect: bool = False) -> Optional[Instance]:
        st = self.state
        me = st.players[p]
        stock = me.stock
        if not stock:
            if by_effect:
                self.note(p, "draw", "draws nothing: the stock is empty (R5.2)")
            return None
        # st.draw_top(me) inline (hot path: every turn): move(stock[0], "hand")
        inst = stock.pop(0)
        inst.zone = "hand"
        me.hand.append(inst)
        # the hand index follows when it was this hand's (_hand_add inline: hot path)
        index = self._hands[p]
        if index[0] == me.hand_v:
            card = inst.base
            cid = card.id
            counts = index[1]
            n = counts.get(cid)
            if n is not None:  # the id is listed already, earlier
                counts[cid] = n + 1
            else:  # listed last: its set_stun action (made once), the card, its cost
                counts[cid] = 1
                act = _SET_STUN[p].get(cid)
                if act is None:
                    act = _SET_STUN[p][cid] = _action("set_stun", p, cid)
                index[2].append(act)
                index[3].append(card)
                cost = card.cost
                index[4].append(cost)
                if cost < index[5]:
                    index[5] = cost
            index[0] = me.hand_v + 1
        me.hand_v += 1
        if st.phase != "start" or by_effect:
            if self._logging:  # the text is built when the log is read
                self.log.raw.append((st.turn, p, "draw", (_draw_text, len(stock))))
        return inst

    def move(self, inst: Instance, zone: str, *, bottom: bool = True, exhausted: bool = False) -> None:
        """Move a card to one of its owner's zones (off the field: fires leave effects)."""
        if inst.zone == "field":
            self.leave_field([inst], zone, bottom=bottom, exhausted=exhausted)
            return
        st = self.state
        if inst.zone == "break" and zone in HIDDEN_ZONES:
            st.tell(inst.uid, PLAYERS)  # it came from a pile both players see
        if zone == "standby":
            slots = st.players[inst.owner].standby
            if None not in slots:
                return
            st.take(inst)
            st.put(inst, "standby", slot=slots.index(None), exhausted=exhausted)
            return
        st.take(inst)
        st.put(inst, zone, bottom=bottom)

    def leave_field(self, cards: list, zone: str, *, seized: bool = False, bottom: bool = True,
                    exhausted: bool = False) -> None:
        """Cards leave the field for ``zone``; each fires its own leave effects (R13.3)."""
        st = self.state
        if len(cards) > 1:  # in square order, bottom first
            cards = sorted(cards, key=lambda c: (_SQUARE_ORDER[c.square],
                                                 st.field[c.square].index(c)))
        events = []
        for inst in cards:
            square, face = inst.square, inst.face
            st.take(inst)
            inst.copy_of = None
            if zone == "standby":
                slots = st.players[inst.owner].standby
                free = next((i for i, s in enumerate(slots) if s is None), None)
                if free is None:
                    st.put(inst, "break")
                    zone_to = "break"
                else:
                    st.put(inst, "standby", slot=free, exhausted=exhausted)
                    zone_to = "standby"
            else:
                st.put(inst, zone, bottom=bottom)
                zone_to = zone
            if zone_to in HIDDEN_ZONES:
                st.tell(inst.uid, PLAYERS)  # it was seen on the field
            events.append(GameEvent("leaves", card=inst, to=zone_to, square=square, face=face))
            if seized:
                events.append(GameEvent("seized", card=inst, to=zone_to, square=square, face=face))
        for ev in events:
            self._emit(ev)

    def place_by_effect(self, inst: Instance, square: str, ctx: Ctx) -> None:
        """An effect puts a card onto an empty square (R13.1: its dimension effect triggers)."""
        st = self.state
        if st.field[square]:
            return
        fx = self.fx[inst.face.id]
        copy_from = None
        if fx.entry_copy is not None:
            candidates = fx.entry_copy(Ctx(self, inst.owner, inst))
            copy_from = self.choose(inst.owner, f"choose a card for {inst.id} to copy",
                                    candidates, rule="R13.4")
        st.take(inst)
        st.put(inst, "field", square=square)
        if copy_from is not None:
            inst.copy_of = copy_from.face
            self.target(copy_from, Ctx(self, inst.owner, inst))
        self.note(ctx.controller, "place", f"{inst.label()} is put onto {square} by an effect")
        self.entered(inst)

    def entered(self, inst: Instance) -> None:
        """A card entered the field: its dimension effects and "enters" triggers."""
        self._emit(GameEvent("enters", card=inst, square=inst.square))

    def swap_squares(self, a: Instance, b: Instance) -> None:
        """The stacks on two cards' squares change places (holders move with them)."""
        st = self.state
        if a.zone != "field" or b.zone != "field" or a.square == b.square:
            return
        sa, sb = a.square, b.square
        st.field[sa], st.field[sb] = st.field[sb], st.field[sa]
        st.field_version += 1
        for inst in st.field[sa]:
            inst.square = sa
        for inst in st.field[sb]:
            inst.square = sb
        self.note(a.owner, "swap", f"the stacks on {sa} and {sb} change places")

    def shuffle_stock(self, p: str) -> None:
        st = self.state
        stock = st.players[p].stock
        st.rng_for_use().shuffle(stock)
        st.shuffled(stock)
        self.note(p, "shuffle", f"{p} shuffles the stock")

    def exhaust_by_effect(self, inst: Instance) -> None:
        if inst.zone == "standby" and not inst.exhausted:
            inst.exhausted = True
            self.state.players[inst.owner].tired = True
            if self._logging:  # the text is built only for a log
                self.note(inst.owner, "exhaust", f"{inst.owner}'s stun {inst.label()} is exhausted by an effect")

    def add_points(self, p: str, color: str, n: int, quiet: bool = False) -> None:
        pool = self.state.players[p].pool
        pool[color] = pool.get(color, 0) + n
        if not quiet:
            if self._logging:  # the text is built only for a log
                self.note(p, "points", f"+{n} {color} points")

    # ================================================================== effects
    def _emit(self, ev: GameEvent) -> None:
        """Queue the effects an event triggers (R13.5: they wait for the current effect)."""
        st = self.state
        kind = ev.kind
        fx = self.fx
        if kind == "enters":
            inst = ev.card
            for eff in fx[inst.face.id].dimension:
                self.pending.append(Pending(inst.owner, inst, eff, ev))
        elif kind in ("leaves", "seized"):
            # look back: the card's own field effects as it was on the field (R13.3)
            inst = ev.card
            for eff in fx[ev.face.id].triggers.get(kind, ()):
                if eff.where == "field" and eff.matches(self, inst, ev):
                    self.pending.append(Pending(inst.owner, inst, eff, ev))
        if kind not in self._listened:
            return
        # the field's top cards that have a trigger, in square order, with their
        # triggers (kept per state of the field by _field_of: hot path, most tops have
        # none and most events come on a field legal_actions has just read)
        cache = self._field_at
        if cache[0] != st.field_version:
            self._field_of(st.active)
            cache = self._field_at
        card = ev.card
        for top, triggers in cache[2]:
            if top is card:
                if kind in ("leaves", "seized"):
                    continue
            effects = triggers.get(kind)
            if effects:
                for eff in effects:
                    if eff.where == "field" and eff.matches(self, top, ev):
                        self.pending.append(Pending(top.owner, top, eff, ev))

    def _respond(self, ev: GameEvent) -> None:
        """R13.5 responses: effects reacting to a play or a targeting resolve at once.

        Each time, the next one is chosen among every response still waiting (R13.5
        rulings on timing); once a play is cancelled, no further response to it resolves."""
        pending = self.pending
        before = len(pending)
        self._emit(ev)
        if len(pending) == before:
            return
        waiting = pending[before:]
        del pending[before:]
        chain = self._responding
        if len(chain) >= MAX_RESPONSE_DEPTH:
            self._runaway(chain + [_step_name(waiting[0])],
                          f"stopped at {MAX_RESPONSE_DEPTH} responses inside responses")
        play = ev.play
        while waiting:
            if play is not None and play.cancelled:
                # R13.5 ruling: a cancelled play no longer exists, so nothing responds to it
                for pend in waiting:
                    self.note(pend.controller, "no_response",
                              f"{self._label(pend.source)}: {pend.effect.text} does not resolve: "
                              f"the play of {play.card.id} is cancelled (R13.5)")
                return
            nxt = self._next_trigger(waiting)
            waiting.remove(nxt)
            chain.append(_step_name(nxt))
            try:
                self._run(nxt)
            finally:
                chain.pop()

    def target(self, inst: Instance, ctx: Ctx) -> None:
        """``inst`` becomes the target of ctx's effect (R13.4); responses resolve now."""
        if inst.zone == "field":
            self.note(ctx.controller, "target", f"targets {inst.label()} on {inst.square}")
            self._respond(GameEvent("targeted", card=inst, square=inst.square))

    def _next_trigger(self, waiting: list) -> Pending:
        """R13.5: the trigger to resolve next among ``waiting`` — the active player's first,
        older and newer alike; their controller chooses which.  Triggers that cannot be told
        apart (same card name, same effect, same zone) are one option, never a question
        (the kernel's rule for every game: :func:`wgdsl.kernel.triggers.next_to_resolve`)."""
        return next_to_resolve(
            waiting, self.state.active, _controller, _trigger_kind,
            lambda x: self._label(x.source),
            lambda seat, options: self.choose_option(
                seat, "choose which of your effects resolves next", options, rule="R13.5"))

    def _resolve_pending(self) -> None:
        st = self.state
        pending = self.pending
        while pending and st.winner is None:
            nxt = pending[0] if len(pending) == 1 else self._next_trigger(pending)
            pending.remove(nxt)
            self._run(nxt)
            self.check_win()
        if st.winner is not None:
            pending.clear()

    def _run(self, pend: Pending) -> None:
        n = self._resolved = self._resolved + 1
        if n > _TRACE_FROM:  # only a chain near the limit pays for recording itself
            self._trace_step(pend, n)
        eff, src = pend.effect, pend.source
        if self.watch is not None:
            self.watch(src.uid, eff)
        if self._logging:  # the card and the effect that resolves (a copy: whose text it is)
            text = eff.text if src.base.id == eff.card else f"{src.id} as {eff.text}"
            self.log.raw.append((self.state.turn, pend.controller, "effect", text))
        eff.run(Ctx(self, pend.controller, src, pend.event))

    def _trace_step(self, pend: Pending, n: int) -> None:
        if n == _TRACE_FROM + 1:
            self._trace = []
        self._trace.append(_step_name(pend))
        if n > MAX_RESOLUTIONS:
            self._runaway(self._trace, f"stopped after {MAX_RESOLUTIONS} effect resolutions "
                                       "in one action")

    def _runaway(self, steps: list, why: str) -> None:
        """Stop an effect chain that never ends: RunawayEffects naming its cycle."""
        cycle, repeats = _cycle(steps)
        path = " → ".join(cycle + [cycle[0]] if repeats else cycle)
        cards = list(dict.fromkeys(step.split(" (", 1)[0] for step in cycle))
        message = (f"effects never end: {path} … {why} (the limit; see docs/language.md, "
                   "\"Effects that never end\")")
        self.pending.clear()
        if self._logging:
            entries = self.log.raw
            keep = self._log_mark + _LOG_KEPT
            if len(entries) > keep:
                left_out = len(entries) - keep
                del entries[keep:]
                self.note(None, "runaway", f"… {left_out} log lines of the repeating chain left out")
            self.note(None, "runaway", message)
        raise RunawayEffects(message, cards, cycle)

    def _label(self, inst: Instance) -> str:
        return inst.square if inst.zone == "field" else inst.id

    # ================================================================== choices
    def choose(self, p: str, prompt: str, cards: list, rule: str = "R13.6"):
        """The player chooses one of ``cards`` (None when there is none; no question when
        there is one).  Answers: a square (field), ``slot N`` (standby) or a card id.
        Cards of the other player's hidden zones that are offered are shown to ``p``."""
        if not cards:
            return None
        labels, by_label = [], {}
        private = False
        for c in cards:
            if c.zone in HIDDEN_ZONES:
                private = True
                if c.owner != p or c.zone == "stock":
                    self.state.tell(c.uid, (p,))
            lab = _card_answer(c)
            if lab not in by_label:  # cards of one id in a hidden zone are the same choice
                by_label[lab] = c
                labels.append(lab)
        if len(labels) == 1:
            return by_label[labels[0]]
        return by_label[self.choose_option(p, prompt, labels, rule=rule, private=private)]

    def choose_square(self, p: str, prompt: str, squares: list) -> Optional[str]:
        if not squares:
            return None
        if len(squares) == 1:
            return squares[0]
        return self.choose_option(p, prompt, list(squares))

    def ask_yes_no(self, p: str, prompt: str) -> bool:
        return self._ask(p, "yes_no", prompt, ["yes", "no"], "R13.6") == "yes"

    def choose_option(self, p: str, prompt: str, options: list, rule: str = "R13.6",
                      private: bool = False) -> str:
        if len(options) == 1:
            return options[0]
        return self._ask(p, "choice", prompt, options, rule, private)

    def _ask(self, p: str, kind: str, prompt: str, options: list, rule: str = "R13.6",
             private: bool = False) -> str:
        agent = self.agents.get(p)
        if agent is not None:
            from .agents import Question

            answer = agent.answer(self.view(p), Question(p, kind, prompt, tuple(options)))
            if answer not in options:
                from .agents import BadAnswer

                raise BadAnswer(f"{p} answered `{answer}` to \"{prompt}\"; expected one of "
                                + ", ".join(options))
        elif self.answers is not None:  # stepped from outside: the answers given so far
            if self.answered == len(self.answers):
                raise Suspend(Decision(p, kind, prompt, tuple(options), rule, private))
            answer = self.answers[self.answered]
            self.answered += 1
        else:
            raise RuntimeError(f"player {p} has no agent to answer: {prompt}")
        if private:
            if self._logging:  # the text is built only for a log
                self.note_private(p, "choice", f"{prompt}: {answer}")
        else:
            if self._logging:  # the text is built only for a log
                self.note(p, "choice", f"{prompt}: {answer}")
        return answer

    def note_private(self, player: Optional[str], kind: str, text) -> None:
        """A log entry that names a card hidden from the other player (``text``: as
        :meth:`note` takes it)."""
        if self._logging:
            self.private.add(len(self.log.raw))
            self.log.raw.append((self.state.turn, player, kind, text))

    # ================================================================== winning (R12)
    def check_win(self) -> None:
        """R12.1/R12.2 for both players; R12.4 when both meet one at once.  Only the field
        decides these, so nothing is recomputed while the field is unchanged."""
        st = self.state
        if st.winner is not None or st.field_version == self._checked_version:
            return
        self._checked_version = st.field_version
        points = {"A": 0, "B": 0}
        battle = {"A": 0, "B": 0}
        for sq, stack in st.field.items():
            if stack:
                owner = stack[0].owner
                for inst in stack:
                    points[owner] += inst.base.cost
                if sq[0] == "C":
                    battle[owner] += 1
        met = {}
        for p in PLAYERS:
            if battle[p] == 3:
                met[p] = ("R12.1", "holds all 3 battle-field squares")
            elif points[p] >= WIN_POINTS:
                met[p] = ("R12.2", f"has {points[p]} points")
        if not met:
            return
        p = st.active if st.active in met else next(iter(met))  # R12.4
        self._win(p, *met[p])

    def _win(self, p: str, rule: str, why: str) -> None:
        st = self.state
        st.winner, st.win_reason = p, rule
        self.pending.clear()
        self.note(p, "win", f"{p} wins: {why} ({rule})")


def _fixed_actions(p: str) -> dict:
    slots = range(1, STANDBY_SLOTS + 1)
    return {
        **{kind: tuple(Action(kind, p, slot=i) for i in slots)
           for kind in ("exhaust", "break_stun", "discard_stun")},
        **{kind: {sq: Action(kind, p, square=sq) for sq in SQUARES}
           for kind in ("break_field", "activate")},
        "next": Action("next", p),
        "end_turn": Action("end_turn", p),
    }


_FIXED = {p: _fixed_actions(p) for p in PLAYERS}
_TAIL = {p: (_FIXED[p]["next"], _FIXED[p]["end_turn"]) for p in PLAYERS}  # every list ends so
_SQUARE_ORDER = {sq: i for i, sq in enumerate(SQUARES)}
_ROW_RANKS = {p: rules.row_ranks(p) for p in PLAYERS}  # R8.1, each seat's rows in order
_NAMED: dict = {}  # actions naming a card, built on first use
# each seat's squares held (a tuple, in square order) -> _held_facts' answer, made once
_HELD: dict = {p: {} for p in PLAYERS}
# each seat's standby pattern (each slot: is it empty?) -> _slot_facts' answer, made once
_SLOTS: dict = {p: {} for p in PLAYERS}


def _slot_facts(p: str, standby: list) -> tuple:
    """What legal_actions lists of ``standby`` by its slots' pattern (which are filled):
    (whether a slot is free; ``p``'s discard_stun actions of the filled slots, in slot
    order; the same then next and end_turn; the gain phase's exhaust, break_stun and
    discard_stun actions, slot by slot, when every stun is ready)."""
    fixed = _FIXED[p]
    exhaust, brk, discard = fixed["exhaust"], fixed["break_stun"], fixed["discard_stun"]
    filled = [i for i, s in enumerate(standby) if s is not None]
    discards = tuple([discard[i] for i in filled])
    gain = tuple([a for i in filled for a in (exhaust[i], brk[i], discard[i])])
    facts = _SLOTS[p][tuple([s is None for s in standby])] = (
        None in standby, discards, discards + _TAIL[p], gain)
    return facts


def _held_facts(q: str, held: list) -> tuple:
    """(``q``'s break_field actions for the squares ``held``, in order; the squares R8.2
    lets ``q`` play onto: rules.priority_squares from the squares ``q`` holds)."""
    brk = _FIXED[q]["break_field"]
    mine = set(held)
    allowed: list = []
    for row in _ROW_RANKS[q]:
        allowed += row
        if not mine.issuperset(row):
            break
    facts = _HELD[q][tuple(held)] = (tuple([brk[sq] for sq in held]), frozenset(allowed))
    return facts

# what _field_of keeps of no field (a new game's, after a rollback): no version is -1
_NO_FIELD = (-1, None, ())
# the hand index of a hand not indexed yet (Game._hand_index): its version is never a hand's
_STALE = (-1,)
_NO_CARD = 1 << 30  # the hand index's cheapest cost for an empty hand: no pool reaches it

# the set_stun actions of each seat by card id: a lookup by the id alone, without the
# key tuple _action builds (legal_actions lists one per distinct card in hand every
# standby phase)
_SET_STUN: dict = {p: {} for p in PLAYERS}
# each seat's plays without a copy: card id -> square -> its action (_plays_of)
_PLAYS: dict = {p: {} for p in PLAYERS}
_NO_COPY = ((None, None),)  # _plays_of's faces of a card that copies nothing


def _action(kind: str, p: str, card: str, square: Optional[str] = None,
            copy: Optional[str] = None) -> Action:
    key = (kind, p, card, square, copy)
    act = _NAMED.get(key)
    if act is None:
        act = _NAMED[key] = Action(kind, p, card=card, square=square, copy=copy)
    return act


def _step_name(pend: Pending) -> str:
    """One resolution, as a runaway message names it: ``XX-001 (dimension)``."""
    eff = pend.effect
    card = pend.source.id if pend.source is not None else eff.card
    if eff.card and eff.card != card:
        card = f"{card} as {eff.card}"
    return f"{card} ({eff.label or eff.kind})"


def _cycle(steps: list) -> tuple[list, bool]:
    """The shortest repeating part of ``steps`` (and True), or every distinct step (False)."""
    n = len(steps)
    for period in range(1, n // 2 + 1):
        if all(steps[i] == steps[i + period] for i in range(n - period)):
            return list(steps[:period]), True
    return list(dict.fromkeys(steps)), False


def _card_answer(inst: Instance) -> str:
    if inst.zone == "field":
        return inst.square
    if inst.zone == "standby":
        return f"slot {inst.slot + 1}"
    return inst.id


def _distinct_ids(cards) -> list[str]:
    return list(dict.fromkeys([c.base.id for c in cards]))




# texts of log records built when the log is read (wgdsl.kernel.log.EventLog): the
# functions, and what they are given, are fixed when the record is made
def _start_text(turn: int, p: str) -> str:
    return f"turn {turn}: {p}'s start phase"


def _draw_text(left: int) -> str:
    return f"draws a card ({left} left)"


def _card_text(template: str, base, copy_of, *rest) -> str:
    """``template`` with the card's label (Instance.label of a card whose printed card is
    ``base`` and copy ``copy_of``) then ``rest`` in its ``{}``s."""
    if copy_of is not None:
        label = f"{base.id} (as {copy_of.id} {copy_of.name})"
    else:
        label = f"{base.id} {base.name}"
    return template.format(label, *rest)


def _pool_text(pool: dict) -> str:
    if not pool:
        return "no points"
    return ", ".join(f"{n} {c}" for c, n in pool.items())
