"""One GETGEM game in progress: plain data, GETGEM's procedure, and the kernel's hooks.

The state is plain data (:class:`Data`: lists of card ids, dicts, ints); a copy copies its
containers.  Card ids stand for cards: identical cards are interchangeable (GG R14.3).
The deck is kept top last (a draw is ``pop()``) and shown top first.

**Decisions are data here, natively.**  A question (GG R14.3: ``barrier``, ``push``,
``arm_take``, ``arm_discard``, ``take_back``, ``hand_limit``) is the pending entry
``Data.q``: who is asked, the answers, and what continues after the answer (the effect's
stage, the seats still to take a card back...).  So a clone or a resample at a question
copies or re-deals the state as it is, exactly as getgem.md R18.6 describes (a card just
taken by a Steal & Push is a place of its own until the push), and the kernel's
:class:`~wgdsl.kernel.stepper.Stepper` is used for what is every game's: who is current,
the cached legal actions, refusals that change nothing, clone, resample and returns.
Nothing here raises Suspend, so no step is snapshotted (``steps_ask`` is False).

Rule numbers are getgem.md's ("GG R8.5").
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any, Optional

import attrs

from wgdsl.kernel.decision import Answer, Decision, Suspend
from wgdsl.kernel.errors import IllegalAction, RunawayEffects
from wgdsl.kernel.rng import MASK, below, shuffled
from wgdsl.kernel.stepper import Stepper, keep_straight_path

from . import rules
from .cards import ELEMENTS, CardTable

WIN, CAP = "GG R11.4", "GG R15"
QUESTION_RULES = {"barrier": "GG R8.6", "push": "GG R8.4", "arm_take": "GG R8.3",
                  "arm_discard": "GG R8.3", "take_back": "GG R11.3", "hand_limit": "GG R11.5"}
# the word of an answer to each question: `push ID`, `take ID`...
ANSWER_WORD = {"push": "push", "arm_take": "take", "arm_discard": "discard",
               "take_back": "take_back", "hand_limit": "discard"}


@attrs.frozen
class Move:
    """A move of the active seat (GG R18.3): ``use`` (``card``, ``effect`` for a card of
    several, ``target``), ``gem_steal`` (``cards``, ``target``), ``element``, ``end``,
    ``declare`` (``cards``) or ``pass``.  ``str()`` is R18.3's text."""

    kind: str
    card: Optional[str] = None
    effect: Optional[str] = None
    target: Optional[str] = None
    cards: tuple = ()
    element: Optional[str] = None

    def __str__(self) -> str:
        parts = [self.kind]
        if self.card is not None:
            parts.append(self.card)
        if self.effect is not None:
            parts.append(self.effect)
        parts.extend(self.cards)
        if self.element is not None:
            parts.append(self.element)
        if self.target is not None:
            parts.append(self.target)
        return " ".join(parts)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": str(self)}


END = Move("end")
PASS = Move("pass")


class SeatMoves:
    """The moves one seat can ever make in the action phase at a table of ``seats``, made
    once per game object and shared by its states (a Move is immutable): listing the legal
    moves then builds no Move (building them was a tenth of a random game's time).  Every
    part is bounded by the card set (cards x effects x seats; the distinct triples of
    gem ids)."""

    def __init__(self, table: CardTable, seat: str, seats: tuple):
        self.others = [s for s in seats if s != seat]
        self.uses: dict = {}  # card -> ((once per turn, moves), ...) in the card's order
        for card, uses in table.uses.items():
            row = []
            for word, name in uses:
                e = table.effects[name]
                moves = ([Move("use", card, word, t) for t in self.others] if e.selects
                         else [Move("use", card, word)])
                row.append((bool(e.once_per_turn), tuple(moves)))
            self.uses[card] = tuple(row)
        self.element = {e: Move("element", element=e) for e in ELEMENTS}
        self._steals: dict = {}
        # read on every listing: the uses by card, ascending (the order of the moves); the
        # element trades as (element, the ids of its basic gems, the move), in ELEMENTS'
        # order; the gem steals of each multiset of payable gems (bounded: the copies of
        # the set's gems); the declarations by their trio
        self.use_rows = tuple(sorted(self.uses.items()))
        self.trades = tuple((e, tuple(i for i, x in table.gem_elements.items() if x == e),
                             self.element[e]) for e in ELEMENTS)
        self.steals_of: dict = {}
        self._declares: dict = {}
        # the seats after this one in turn order, from its left (GG R1.1, R11.3)
        i = seats.index(seat)
        self.from_left = tuple(seats[(i + k) % len(seats)] for k in range(1, len(seats)))

    def gem_steal(self, trio: tuple) -> list:
        moves = self._steals.get(trio)
        if moves is None:
            moves = self._steals[trio] = [Move("gem_steal", cards=trio, target=t)
                                          for t in self.others]
        return moves

    def gem_steals(self, gems: tuple) -> tuple:
        """Every gem steal (GG R9.1) payable from the payable gems ``gems`` (sorted), in
        the order of rules.gem_steal_payments' triples, seats in turn order."""
        moves = self.steals_of.get(gems)
        if moves is None:
            moves = []
            for trio in sorted(set(combinations(gems, 3))):
                moves.extend(self.gem_steal(trio))
            moves = self.steals_of[gems] = tuple(moves)
        return moves

    def declare(self, trio: tuple) -> Move:
        move = self._declares.get(trio)
        if move is None:
            move = self._declares[trio] = Move("declare", cards=trio)
        return move


def seat_moves(game, seats: tuple) -> dict:
    """seat -> its SeatMoves at a table of ``seats``, made once per game object."""
    table = game.seat_moves.get(seats)
    if table is None:
        table = game.seat_moves[seats] = {s: SeatMoves(game.table, s, seats) for s in seats}
    return table


class Data:
    """The whole state of one game as plain values."""

    __slots__ = ("turn", "active", "first", "phase", "peeping_used", "max_turns", "deck",
                 "discard", "hands", "elements", "declared", "known", "q", "winner",
                 "reason", "over", "revealed", "won_hand", "rng", "log")

    def copy(self) -> "Data":
        d = Data.__new__(Data)
        d.turn, d.active, d.first, d.phase = self.turn, self.active, self.first, self.phase
        d.peeping_used, d.max_turns = self.peeping_used, self.max_turns
        d.deck, d.discard = list(self.deck), list(self.discard)
        d.hands = {s: list(h) for s, h in self.hands.items()}
        d.elements = {s: list(e) for s, e in self.elements.items()}
        d.declared = {s: list(c) for s, c in self.declared.items()}
        d.known = {v: {h: list(k) for h, k in row.items()} for v, row in self.known.items()}
        d.q = None if self.q is None else _copy_question(self.q)
        d.winner, d.reason, d.over = self.winner, self.reason, self.over
        d.revealed, d.won_hand = list(self.revealed), self.won_hand
        d.rng = self.rng
        d.log = list(self.log)  # entries are never changed once written
        return d


def _copy_question(q: dict) -> dict:
    out = dict(q)
    if "queue" in out:
        out["queue"] = list(out["queue"])
        out["emptied"] = list(out["emptied"])
    return out


class GGState(Stepper):
    """engine-api.md's State for GETGEM (getgem.md R18).  It is also the effect context
    the rule functions of :mod:`.effects` are given (its ``user``, ``target``, ``stage``,
    ``answer``, ``data`` and move methods)."""

    turn_rule = "GG R4.4"
    window_rule = "GG R4.4"
    runaway_rule = CAP
    steps_ask = False  # questions are the state's own data (the module docstring)

    def __init__(self, game, seats: tuple, data: Data, chance=None):
        super().__init__()
        self.game = game
        self.table: CardTable = game.table
        self.seats = seats
        self._mine = seat_moves(game, seats)
        self.d = data
        self.chance = chance  # a ruling case's scripted outcomes (board.py), or None
        # the effect being carried out (only inside a step)
        self.user = self.target = self.stage = self.answer = None
        self.data: dict = {}
        self._nullified = False

    # ------------------------------------------------------------------ seats
    def left_of(self, seat: str) -> str:
        """GG R1.1: the next seat in turn order."""
        return self._mine[seat].from_left[0]

    def right_of(self, seat: str) -> str:
        i = self.seats.index(seat)
        return self.seats[i - 1]

    # ------------------------------------------------------------------ log and knowledge
    def note(self, seat: str, kind: str, text: str, *args) -> None:
        """A log entry; with ``args``, ``text`` is a template (``str.format``'s ``{}``)
        filled when the log is read (issue 17: most entries are never read in a sweep)."""
        d = self.d
        d.log.append((d.turn, seat, kind, text, args))

    def _forget(self, h: str, card: str) -> None:
        """GG R14.4 (a): ``card`` left ``h``'s hand face up."""
        for v, row in self.d.known.items():
            if v != h and card in row[h]:
                row[h].remove(card)

    def _learn_all(self, h: str, card: str) -> None:
        """GG R14.4 (b): ``card`` entered ``h``'s hand face up."""
        for v, row in self.d.known.items():
            if v != h:
                row[h].append(card)

    def _blur(self, v: str, h: str) -> None:
        """``v`` saw a card leave ``h``'s hand without seeing which: one copy of each
        distinct id it knew there is no longer sure (GG R14.4 (d), (e))."""
        row = self.d.known[v]
        if row[h]:
            row[h] = sorted((Counter(row[h]) - Counter(set(row[h]))).elements())

    # ------------------------------------------------------------------ zone moves
    def _random_index(self, n: int) -> int:
        self.d.rng, k = below(self.d.rng, n)
        return k

    def _take_random_from(self, victim: str, taker: str) -> Optional[str]:
        """GG R14.2: a uniform card of ``victim``'s hand into ``taker``'s (None: empty)."""
        hand = self.d.hands[victim]
        if not hand:
            return None
        ids = sorted(hand)
        if len(set(ids)) == 1:
            card = ids[0]
        elif self.chance is not None:
            card = self.chance.take(ids)
        else:
            card = ids[self._random_index(len(ids))]
        hand.remove(card)
        self.d.hands[taker].append(card)
        known = self.d.known
        if card in known[taker][victim]:
            known[taker][victim].remove(card)
        known[victim][taker].append(card)
        for v in self.seats:
            if v not in (taker, victim):
                self._blur(v, victim)
        return card

    def _discard_from_hand(self, seat: str, card: str) -> None:
        self.d.hands[seat].remove(card)
        self.d.discard.append(card)
        self._forget(seat, card)

    def _refill(self) -> None:
        """GG R13.1: the discard pile, shuffled, becomes the deck (nothing if it is empty)."""
        pile = self.d.discard
        if not pile:
            return
        cards = list(pile)
        if len(set(cards)) > 1:
            if self.chance is not None:
                top_first = self.chance.shuffle(list(cards))
                cards = list(reversed(top_first))
            else:
                self.d.rng = shuffled(self.d.rng, cards)
        self.d.discard = []
        self.d.deck = cards
        self.note("", "refill", "the discard pile ({} cards) is shuffled into the deck", len(cards))

    def _draw(self, seat: str) -> Optional[str]:
        """GG R5.1 with R13: refill an empty deck first; nothing when both are empty;
        refill at once when the last card is drawn."""
        if not self.d.deck:
            self._refill()
            if not self.d.deck:
                self.note(seat, "draw", f"{seat} draws nothing: the deck and the discard pile "
                                        "are empty")
                return None
        d = self.d
        card = d.deck.pop()
        d.hands[seat].append(card)
        d.log.append((d.turn, seat, "draw", "{} draws {}", (seat, card)))  # note(), inline
        if not d.deck:
            self._refill()
        return card

    # ------------------------------------------------------------------ effect context
    def ask(self, kind: str, options: list, stage: str, **data) -> bool:
        """Pose question ``kind`` to the effect's user with ``options`` (card ids); False
        (nothing asked) when there is none (GG R7.5)."""
        if not options:
            return False
        self.d.q = {"kind": kind, "seat": self.user, "options": tuple(options),
                    "effect": self._effect, "user": self.user, "target": self.target,
                    "stage": stage, "data": dict(data)}
        return True

    def take_random(self) -> Optional[str]:
        card = self._take_random_from(self.target, self.user)
        if card is None:
            self.note(self.user, "take", "{} takes nothing: {}'s hand is empty", self.user,
                      self.target)
        else:
            self.note(self.user, "take", "{} takes {} at random from {}", self.user, card,
                      self.target)
        return card

    def swap_hands(self) -> None:
        a, b = self.user, self.target
        d = self.d
        gave_a, gave_b = list(d.hands[a]), list(d.hands[b])
        d.hands[a], d.hands[b] = gave_b, gave_a
        d.known[a][b] = sorted(gave_a)
        d.known[b][a] = sorted(gave_b)
        for v in self.seats:
            if v not in (a, b):
                row = d.known[v]
                row[a], row[b] = row[b], row[a]
        self.note(a, "exchange", f"{a} and {b} swap hands ({len(gave_a)} and {len(gave_b)} "
                                 f"cards): {a} gets {_ids(gave_b)}, {b} gets {_ids(gave_a)}")

    def look(self) -> None:
        hand = sorted(self.d.hands[self.target])
        self.d.known[self.user][self.target] = list(hand)
        self.note(self.user, "look", f"{self.user} looks at {self.target}'s hand: {_ids(hand)}")

    def draw(self) -> None:
        self._draw(self.user)

    def arm_choices(self) -> list:
        """The distinct ids of the discard pile other than the Arm being used (its last
        card, GG R8.3)."""
        return sorted(set(self.d.discard[:-1]))

    def take_from_discard(self, card: str) -> None:
        pile = self.d.discard
        pile.pop(pile.index(card))  # the oldest copy (GG R8.3)
        self.d.hands[self.user].append(card)
        self._learn_all(self.user, card)
        self.note(self.user, "arm", "{} takes {} from the discard pile", self.user, card)

    def discard_choices(self) -> list:
        return rules.discardable(self.table, self.d.hands[self.user])

    def discard(self, card: str) -> None:
        self._discard_from_hand(self.user, card)
        self.note(self.user, "discard", "{} discards {}", self.user, card)

    def push_choices(self, taken: Optional[str]) -> list:
        return self._push_options(self.user, taken)

    def _push_options(self, user: str, taken: Optional[str]) -> list:
        """GG R8.4: the distinct ids of ``user``'s hand once the one card just ``taken`` is
        set aside (another copy of it may be pushed)."""
        hand = list(self.d.hands[user])
        if taken is not None:
            hand.remove(taken)
        return sorted(set(hand))

    def give(self, card: str) -> None:
        """GG R8.4's push of ``card`` from the user to the target, with GG R14.4 (e)."""
        p, r = self.user, self.target
        d = self.d
        d.hands[p].remove(card)
        d.hands[r].append(card)
        d.known[p][r].append(card)
        taken = self.data.get("taken")
        row = d.known[r][p]
        if card in row and not (card == taken and row.count(card) == 1):
            row.remove(card)
        for v in self.seats:
            if v not in (p, r):
                self._blur(v, p)
        self.note(p, "push", "{} pushes {} to {}", p, card, r)

    def nullify(self) -> None:
        self._nullified = True

    # ------------------------------------------------------------------ the procedure
    def _use(self, seat: str, m: Move) -> None:
        """GG R7.4: the card to the discard pile, the selection, the Barrier window, then
        the effect."""
        d = self.d
        names = self.table.cards[m.card].effects
        effect = m.effect if m.effect is not None else names[0]
        self._discard_from_hand(seat, m.card)
        if self.table.effects[effect].once_per_turn:
            d.peeping_used = True
        if len(names) > 1:
            if m.target:
                self.note(seat, "use", "{} uses {} ({}) on {}", seat, m.card, effect, m.target)
            else:
                self.note(seat, "use", "{} uses {} ({})", seat, m.card, effect)
        elif m.target:
            self.note(seat, "use", "{} uses {} on {}", seat, m.card, m.target)
        else:
            self.note(seat, "use", "{} uses {}", seat, m.card)
        if self.table.effects[effect].selects:
            target = m.target
            options = ("barrier", "no_barrier") if any(
                i in self.table.responders for i in d.hands[target]) else ("no_barrier",)
            d.q = {"kind": "barrier", "seat": target, "options": options, "effect": effect,
                   "user": seat, "target": target, "card": m.card, "stage": None, "data": {},
                   "dual": len(names) > 1}
            return
        self._run_effect(effect, seat, m.target, None, None, {})

    def _run_effect(self, effect: str, user: str, target: Optional[str], stage, answer,
                    data: dict) -> None:
        self._effect = effect
        self.user, self.target, self.stage, self.answer, self.data = (user, target, stage,
                                                                       answer, data)
        try:
            self.game.effect_functions[effect](self)
        finally:
            self.user = self.target = self.stage = self.answer = None
            self.data = {}

    def _barrier_answer(self, q: dict, yes: bool) -> None:
        target = q["seat"]
        if yes:
            card = min(i for i in self.d.hands[target] if i in self.table.responders)
            self._discard_from_hand(target, card)
            response = next(e for e in self.table.cards[card].effects
                            if self.table.effects[e].response)
            self.note(target, "barrier", f"{target} uses {card} ({response}): "
                                         f"{q['user']}'s {q['card']} is nullified")
            self._nullified = False
            self._run_effect(response, target, q["user"], None, None, {})
            if self._nullified:
                return
        else:
            self.note(target, "barrier", "{} uses no Barrier", target)
        self._run_effect(q["effect"], q["user"], q["target"], None, None, {})

    def _gem_steal(self, seat: str, m: Move) -> None:
        for c in m.cards:
            self._discard_from_hand(seat, c)
        self.note(seat, "gem_steal", f"{seat} discards {_ids(m.cards)} to steal from {m.target}")
        card = self._take_random_from(m.target, seat)
        if card is None:
            self.note(seat, "take", "{} takes nothing: {}'s hand is empty", seat, m.target)
        else:
            self.note(seat, "take", "{} takes {} at random from {}", seat, card, m.target)

    def _element_trade(self, seat: str, m: Move) -> None:
        e = m.element
        gem = next(i for i in sorted(self.d.hands[seat]) if self.table.basic_element(i) == e)
        for _ in range(2):
            self._discard_from_hand(seat, gem)
        owner = next((s for s in self.seats if e in self.d.elements[s]), None)
        if owner is not None:
            self.d.elements[owner].remove(e)
        self.d.elements[seat].append(e)
        source = "the supply" if owner is None else f"{owner}'s front"
        self.note(seat, "element", f"{seat} discards {gem} {gem} and takes the {e} element "
                                   f"card from {source}")

    def _declare(self, seat: str, m: Move) -> None:
        for c in m.cards:
            self.d.hands[seat].remove(c)
            self._forget(seat, c)
            self.d.declared[seat].append(c)
        self.note(seat, "declare", f"{seat} declares victory with {_ids(m.cards)}")

    def _end_phase(self) -> None:
        """GG R11 after the declaration point: take-backs, checks, hand limit, next turn."""
        declared = self.d.declared
        queue = [s for s in self._mine[self.d.active].from_left if declared[s]]
        self._take_backs(queue, [])

    def _take_backs(self, queue: list, emptied: list) -> None:
        while queue:
            seat = queue[0]
            options = tuple(sorted(set(self.d.declared[seat])))
            self.d.q = {"kind": "take_back", "seat": seat, "options": options,
                        "queue": queue, "emptied": emptied}
            return
        self._checks(emptied)

    def _take_back(self, q: dict, card: str) -> None:
        seat = q["seat"]
        self.d.declared[seat].remove(card)
        self.d.hands[seat].append(card)
        self._learn_all(seat, card)
        left = len(self.d.declared[seat])
        self.note(seat, "take_back", f"{seat} takes back {card} ({left} declaration card"
                                     f"{'' if left == 1 else 's'} left)")
        emptied = list(q["emptied"]) + ([seat] if left == 0 else [])
        self._take_backs(list(q["queue"][1:]), emptied)

    def _checks(self, emptied: list) -> None:
        """GG R11.4, R12.5: each seat whose last declaration card came back shows its hand,
        in seat order from the active seat's left; the first that covers wins."""
        for seat in emptied:
            hand = sorted(self.d.hands[seat])
            self.d.revealed.append(seat)
            for v in self.seats:
                if v != seat:
                    self.d.known[v][seat] = list(hand)
            cursed = rules.is_cursed(self.table, hand, ())
            won = rules.covers(self.table, hand, self.d.elements[seat], cursed)
            owned = ", ".join(self.d.elements[seat]) or "none"
            self.note(seat, "check", f"{seat} shows {_ids(hand)} (elements owned: {owned}): "
                                     + ("the three gems are there" if won else "not all three"))
            if won:
                d = self.d
                d.winner, d.reason, d.over, d.won_hand = seat, WIN, True, tuple(hand)
                d.phase = "end"
                self.note(seat, "win", "{} wins ({})", seat, WIN)
                return
        self._hand_limit()

    def _hand_limit(self) -> None:
        seat = self.d.active
        hand = self.d.hands[seat]
        if len(hand) > rules.HAND_LIMIT:
            options = tuple(rules.discardable(self.table, hand))
            if options:
                self.d.q = {"kind": "hand_limit", "seat": seat, "options": options,
                            "left": len(hand) - rules.HAND_LIMIT}
                return
        self._next_turn()

    def _next_turn(self) -> None:
        d = self.d
        if d.turn >= d.max_turns:
            d.over, d.reason, d.phase = True, CAP, "end"
            self.note("", "cap", f"turn {d.turn} was the last (max_turns {d.max_turns}): "
                                 f"nobody wins ({CAP})")
            return
        d.turn += 1
        d.active = active = self._mine[d.active].from_left[0]  # left_of()
        d.phase, d.peeping_used = "action", False
        d.log.append((d.turn, active, "turn", "turn {}: {}", (d.turn, active)))  # note()
        self._draw(active)

    def start_turn(self) -> None:
        """The first turn's beginning (GG R3, R5): the active seat draws."""
        self.note(self.d.active, "turn", "turn {}: {}", self.d.turn, self.d.active)
        self._draw(self.d.active)

    # ------------------------------------------------------------------ Stepper hooks
    def _stray_answer(self, seat: str, action: Any) -> IllegalAction:
        """The kernel's Stepper knows only the questions it retraces; GETGEM's are its own
        data, so an answer that is not one of the pending question's (or an answer when
        nothing is asked) is refused by :meth:`_refusal`, naming the question and GG
        R14.3, instead of being told there is no question."""
        return self._refusal(seat, action)

    def _not_current(self, seat: str, acting: tuple) -> IllegalAction:
        q = self.d.q
        if q is None:
            return super()._not_current(seat, acting)
        return IllegalAction(f"{q['seat']} is answering the question `{q['kind']}`; {seat} "
                             "cannot act until it has answered", "GG R14.3")

    def _over(self) -> bool:
        return self.d.over

    def _acting(self) -> tuple:
        q = self.d.q
        return (q["seat"],) if q is not None else (self.d.active,)

    def _find_who(self) -> tuple:
        """The kernel's (current seats, acting seats, terminal), ``_over`` read inline
        (hot path: once per action of the public loop)."""
        if not self.d.over and self.stopped is None and self.question is None:
            acting = self._acting()
            if len(acting) == 1:
                return acting, acting, False
        return super()._find_who()

    def _may_ask(self, seat: str, action: Any) -> bool:
        return False  # (steps_ask says so for every step: the Stepper does not ask)

    # ---------------------------------------------------------- the public loop's path
    # The kernel's is_terminal, legal_actions and apply, for GETGEM's only case between
    # steps (one seat acting: the active seat, or the seat its pending question asks; the
    # game neither over nor stopped) without the kernel's hooks' calls: the loop of a
    # learner or a sweep pays them once per action (issue 17).  Anything else (the game
    # over or stopped, a seat not current, an action not listed, an apply with no list
    # asked for) goes to the kernel's, which says what is wrong in its own words.
    # tests/test_getgem_straight.py holds both paths to the same lists, logs and errors.
    def __init_subclass__(cls, **kwargs):
        """A subclass that gives hooks of its own (a test's broken engine, a spy) is
        stepped by the kernel's path, which calls them: the straight path does not."""
        super().__init_subclass__(**kwargs)
        keep_straight_path(cls, GGState, _BYPASSED,
                           {name: getattr(Stepper, name)
                            for name in ("is_terminal", "legal_actions", "apply")})

    def is_terminal(self) -> bool:
        who = self._who
        if who is None:
            d = self.d
            if not d.over and self.stopped is None and self.question is None:
                q = d.q
                seat = q["seat"] if q is not None else d.active
                who = _WHO.get(seat)
                self._who = who if who is not None else _who_of(seat)
                return False
            who = self._who = self._find_who()
        return who[2]

    def legal_actions(self, seat: str) -> list:
        legal = self._legal.get(seat)
        if legal is not None:
            return legal[:]
        d = self.d
        if not d.over and self.stopped is None and self.question is None:
            q = d.q
            if seat == (q["seat"] if q is not None else d.active):
                legal = self._legal[seat] = self._legal_of(seat)
                return legal[:]
        return Stepper.legal_actions(self, seat)

    def apply(self, seat: str, action: Any) -> None:
        # the kernel keeps a seat's list only for a current seat between steps, so a list
        # kept means: the game neither over nor stopped, ``seat`` the one acting seat
        legal = self._legal.get(seat)
        if legal is None:
            return Stepper.apply(self, seat, action)
        for listed in legal:  # the very object first (a bot hands one back), in C's order
            if listed is action:
                break
        else:  # an equal action made again, or a refusal: the kernel's path
            return Stepper.apply(self, seat, action)
        self._legal = {}
        self._who = None
        try:
            self._run(seat, action, ())
        except Suspend as stop:  # pragma: no cover - GETGEM's steps never ask
            raise self._broken_promise(seat, action, stop) from None
        except RunawayEffects as err:  # pragma: no cover - nothing in GETGEM runs away
            self.stopped = err.message

    def _legal_of(self, seat: str) -> list:
        q = self.d.q
        if q is not None:
            word = ANSWER_WORD.get(q["kind"])
            return [Answer(seat, o if word is None else f"{word} {o}") for o in q["options"]]
        if self.d.phase == "end":
            declare = self._mine[seat].declare
            return [declare(trio) for trio in self._declarations(seat)] + [PASS]
        return self._moves(seat)

    def _declarations(self, seat: str) -> list:
        d = self.d
        return rules.declarations(self.table, d.hands[seat], d.elements[seat], d.declared[seat])

    def _moves(self, seat: str) -> list:
        """The action phase's moves (GG R6.1), in a fixed order: each action card's uses
        (cards ascending, effects in the card's order, seats in turn order), the gem steals,
        the element trades, ``end``."""
        d = self.d
        hand = d.hands[seat]
        mine = self._mine[seat]
        out = []
        peeped = d.peeping_used
        for card, row in mine.use_rows:  # (rules: the action cards of the hand, ascending)
            if card in hand:
                for once, moves in row:
                    if not (once and peeped):
                        out += moves
        payable = self.table.payable  # rules.gem_steal_payments, read by gem multiset
        gems = [i for i in hand if i in payable]
        if len(gems) >= 3:
            gems.sort()
            out += mine.gem_steals(tuple(gems))
        owned = d.elements[seat]  # rules.element_trades, each element's gems counted in C
        for e, ids, move in mine.trades:
            if e not in owned:
                if (hand.count(ids[0]) if len(ids) == 1
                        else sum(hand.count(i) for i in ids)) >= 2:
                    out.append(move)
        out.append(END)
        return out

    def _run(self, seat: str, action: Any, answers: list) -> None:
        d = self.d
        q = d.q
        if q is not None:
            d.q = None
            option = action.option
            kind = q["kind"]
            if kind == "barrier":
                self._barrier_answer(q, option == "barrier")
            elif kind == "take_back":
                self._take_back(q, option.split()[-1])
            elif kind == "hand_limit":
                card = option.split()[-1]
                self._discard_from_hand(seat, card)
                self.note(seat, "discard", "{} discards {} (hand limit)", seat, card)
                self._hand_limit()
            else:
                self._run_effect(q["effect"], q["user"], q["target"], q["stage"],
                                 option.split()[-1], q["data"])
            return
        m: Move = action
        if m.kind == "use":
            self._use(seat, m)
        elif m.kind == "gem_steal":
            self._gem_steal(seat, m)
        elif m.kind == "element":
            self._element_trade(seat, m)
        elif m.kind == "end":
            d.phase = "end"
            d.log.append((d.turn, seat, "end", "{} ends the action phase", (seat,)))  # note()
        elif m.kind == "declare":
            self._declare(seat, m)
            self._end_phase()
        else:  # pass
            d.log.append((d.turn, seat, "pass", "{} does not declare", (seat,)))  # note()
            self._end_phase()

    def _snapshot(self) -> Data:  # pragma: no cover - never asked (steps_ask is False)
        return self.d.copy()

    def _restore(self, snap: Data) -> None:  # pragma: no cover
        self.d = snap.copy()

    def _copy(self) -> "GGState":
        twin = GGState(self.game, self.seats, self.d.copy(), self.chance)
        return twin

    def _refusal(self, seat: str, action: Any) -> IllegalAction:
        from .moves import refusal

        return refusal(self, seat, action)

    # ------------------------------------------------------------------ hidden information
    def _hidden(self, seat: str) -> dict:
        """GG R18.6: the deck, and each other hand minus what ``seat`` knows of it (a card
        just taken by a pending Steal & Push is a place of its own: hidden from ``seat``
        unless ``seat`` is its taker or victim)."""
        d = self.d
        held = {}
        taken = None
        q = d.q
        if q is not None and q["kind"] == "push" and q["data"].get("taken") is not None \
                and seat not in (q["user"], q["target"]):
            taken = (q["user"], q["data"]["taken"])
        for h in self.seats:
            if h == seat:
                continue
            hand = list(d.hands[h])
            if taken is not None and taken[0] == h:
                hand.remove(taken[1])
            held[h] = (rules.multiset_and(hand, d.known[seat][h]),
                       len(hand) - len(rules.multiset_and(hand, d.known[seat][h])))
        return {"held": held, "taken": taken}

    def _redeal(self, seat: str, rnd: random.Random, hidden: dict) -> None:
        """GG R18.6 on a copy: the hidden cards dealt again into the same places, then every
        other seat's knowledge cut to what is true and the pending question's answers
        recomputed from the new hands.

        A pending question says something of the asked seat's hand that the hand sizes do
        not: ``arm_discard`` and ``hand_limit`` are asked only when that hand holds a card
        that may be discarded (GG R14.3).  A deal that contradicts it is one ``seat`` can
        tell from this state (its observation shows the question), so it is dealt again:
        rejection keeps the deal uniform over the deals consistent with what ``seat``
        sees, and the true deal is one of them, so the loop ends."""
        d = self.d
        taken = hidden["taken"]
        pool = list(d.deck)
        for h, (kept, _count) in hidden["held"].items():
            hand = list(d.hands[h])
            if taken is not None and taken[0] == h:
                hand.remove(taken[1])
            pool.extend(rules.multiset_minus(hand, kept))
        if taken is not None:
            pool.append(taken[1])
        pool.sort()  # the same pool in any order of hands gives the same deal
        q = d.q
        must_discard = (q["seat"] if q is not None and q["kind"] in ("arm_discard", "hand_limit")
                        and q["seat"] != seat else None)
        while True:
            deal = list(pool)
            rnd.shuffle(deal)
            hands = {h: list(kept) + [deal.pop() for _ in range(count)]
                     for h, (kept, count) in hidden["held"].items()}
            card = None
            if taken is not None:  # the place of the card just taken (getgem.md R18.6)
                card = deal.pop()
                hands[taken[0]].append(card)
            if must_discard is None or rules.discardable(self.table, hands[must_discard]):
                break
        d.hands.update(hands)
        d.deck = deal
        if taken is not None:
            d.q = q = dict(q, data=dict(q["data"], taken=card))
        for x in self.seats:
            if x == seat:
                continue
            for y in self.seats:
                if y != x:
                    d.known[x][y] = rules.multiset_and(d.known[x][y], d.hands[y])
        if q is not None:  # answers that depend on a re-dealt hand
            kind = q["kind"]
            if kind == "barrier":
                has = any(i in self.table.responders for i in d.hands[q["seat"]])
                q["options"] = ("barrier", "no_barrier") if has else ("no_barrier",)
            elif kind == "push":
                q["options"] = tuple(self._push_options(q["user"], q["data"].get("taken")))
            elif kind in ("arm_discard", "hand_limit"):
                q["options"] = tuple(rules.discardable(self.table, d.hands[q["seat"]]))
        self._legal = {}
        self._who = None

    def _reseed(self, rnd: random.Random) -> None:
        self.d.rng = rnd.getrandbits(64) & MASK

    # ------------------------------------------------------------------ results
    def winners(self) -> tuple:
        return (self.d.winner,) if self.d.winner is not None else ()

    def win_reason(self) -> str:
        return self.d.reason if self.d.over else ""

    # ------------------------------------------------------------------ views
    def question_view(self) -> Optional[dict]:
        q = self.d.q
        if q is None:
            return None
        out = {"kind": q["kind"], "seat": q["seat"]}
        if q["kind"] == "barrier":
            out.update(by=q["user"], card=q["card"], effect=q["effect"] if q["dual"] else None)
        elif q["kind"] == "hand_limit":
            out["left"] = q["left"]
        return out

    def _public(self) -> dict:
        d = self.d
        return {
            "seats": list(self.seats), "turn": d.turn, "active": d.active,
            "max_turns": d.max_turns, "phase": d.phase, "peeping_used": d.peeping_used,
            "over": d.over, "winner": d.winner, "current": list(self.current_seats()),
            "question": self.question_view(),
            "hand_sizes": {s: len(d.hands[s]) for s in self.seats},
            "deck_size": len(d.deck), "discard": list(d.discard),
            "supply": [e for e in ELEMENTS if not any(e in d.elements[s] for s in self.seats)],
            "fronts": {s: {"elements": [e for e in ELEMENTS if e in d.elements[s]],
                           "declared": sorted(d.declared[s])} for s in self.seats},
        }

    def observation(self, seat: str) -> dict:
        if seat not in self.seats:
            raise ValueError(f"no seat {seat!r}; the seats are {', '.join(self.seats)}")
        out = {"seat": seat, **self._public(), "hand": sorted(self.d.hands[seat]),
               "known": {h: sorted(self.d.known[seat][h]) for h in self.seats if h != seat}}
        return out

    def to_dict(self) -> dict:
        d = self.d
        out = self._public()
        out.update(deck=list(reversed(d.deck)), hands={s: sorted(d.hands[s]) for s in self.seats},
                   known={v: {h: sorted(d.known[v][h]) for h in self.seats if h != v}
                          for v in self.seats},
                   first=d.first, revealed=list(d.revealed), rng=d.rng,
                   pending=None if d.q is None else _jsonable(d.q))
        if d.over:
            out["match_points"] = self.match_points()
            out["next_first"] = self.next_first()
        return out

    def match_points(self) -> dict:
        """GG R16.1 / R16.5: the winner's 10 - 3 x the wild gems in its winning hand."""
        points = dict.fromkeys(self.seats, 0)
        if self.d.winner is not None:
            wild = sum(1 for i in self.d.won_hand if self.table.cards[i].wild)
            points[self.d.winner] = 10 - 3 * wild
        return points

    def next_first(self) -> str:
        """GG R16.2: the winner's right neighbour; after no winner the same first seat."""
        return self.right_of(self.d.winner) if self.d.winner is not None else self.d.first

    @property
    def log(self) -> list:
        return [_entry(e) for e in self.d.log]

    def log_of(self, kinds) -> list:
        return [_entry(e) for e in self.d.log if e[2] in kinds]

    def parse_action(self, seat: str, text: str):
        from .moves import parse_action

        return parse_action(self, seat, text)

    # ------------------------------------------------------------------ plain reads
    # (for the ruling-case runner and tools: copies, never the state's own lists)
    def hands(self) -> dict:
        return {s: sorted(self.d.hands[s]) for s in self.seats}

    def declared(self) -> dict:
        return {s: sorted(self.d.declared[s]) for s in self.seats}

    def elements(self) -> dict:
        return {s: [e for e in ELEMENTS if e in self.d.elements[s]] for s in self.seats}

    def deck(self) -> list:
        return list(reversed(self.d.deck))

    def discard_pile(self) -> list:
        """Oldest first (GG R1.3).  Not ``discard()``: that is the effect context's move."""
        return list(self.d.discard)

    def supply(self) -> list:
        """The element names nobody owns, in the order fire, water, thunder."""
        owned = {e for s in self.seats for e in self.d.elements[s]}
        return [e for e in ELEMENTS if e not in owned]

    def known(self, v: str, h: str) -> list:
        return sorted(self.d.known[v][h])

    @property
    def turn(self) -> int:
        return self.d.turn

    @property
    def active(self) -> str:
        return self.d.active

    @property
    def phase(self) -> str:
        """``"action"`` or ``"end"`` (the declaration point and what follows it)."""
        return self.d.phase

    @property
    def peeping_used(self) -> bool:
        return self.d.peeping_used

    @property
    def revealed(self) -> list:
        """The seats whose hands a victory check showed, in order (GG R11.4)."""
        return list(self.d.revealed)

    def pending_decision(self) -> Optional[Decision]:
        """The question waiting for its answer as a kernel Decision (``kind``: R14.3's name;
        ``options``: the answers as ``legal_actions`` words them; ``rule``: the rule that
        asks it), or None at a move point or once the game is over.  GETGEM keeps its
        questions as its own data (the module docstring), so the kernel's
        ``Stepper.question`` is always None here; this is the public way to read one."""
        q = self.d.q
        if q is None:
            return None
        word = ANSWER_WORD.get(q["kind"])
        options = tuple(o if word is None else f"{word} {o}" for o in q["options"])
        return Decision(q["seat"], q["kind"], f"{q['seat']}: {q['kind']}", options,
                        QUESTION_RULES[q["kind"]])


#: the hooks the straight path reads inline (a subclass changing one is stepped by the kernel)
_BYPASSED = ("_find_who", "_acting", "_over", "_may_ask")
#: seat -> the kernel's (current seats, acting seats, terminal) while that seat alone acts
_WHO: dict = {}


def _who_of(seat: str) -> tuple:
    who = _WHO.get(seat)
    if who is None:
        who = _WHO[seat] = ((seat,), (seat,), False)
    return who


def _entry(e: tuple) -> dict:
    """A log entry as the log shows it, from the tuple :meth:`GGState.note` keeps."""
    turn, seat, kind, text, args = e
    return {"turn": turn, "seat": seat, "kind": kind,
            "text": text.format(*args) if args else text}


def _ids(cards) -> str:
    return " ".join(sorted(cards)) if cards else "nothing"


def _jsonable(q: dict) -> dict:
    out = {}
    for k, v in q.items():
        out[k] = list(v) if isinstance(v, tuple) else v
    return out
