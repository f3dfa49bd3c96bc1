"""Game state: plain data, no rules.

A :class:`GameState` holds everything the rules look at: both players' zones (R1.1),
the 3×3 field of stacks (R1.2, R1.4), whose turn and which phase it is, the per-turn
limits, the RNG and the winner.  Rules are functions of it (:mod:`.rules`, :mod:`.engine`).

Every physical card is a :class:`Instance` with an identity (``uid``), an owner and a
card definition.  An instance records where it is (``zone`` and ``square``/``slot``) so
the engine can find and move it in O(1); the zone lists are the source of truth for
order (stock top first, break oldest first, stacks bottom first).
"""

from __future__ import annotations

import random
from typing import Iterator, Optional

import attrs

from wgdsl.lang.cards import CardDef

PLAYERS = ("A", "B")
OTHER = {"A": "B", "B": "A"}
PHASES = ("start", "draw", "standby", "gain", "end")
STANDBY_SLOTS = 5
POINT_COLORS = ("blue", "green", "red", "yellow")

# R1.2: squares named from A's side; rows: A's my field, the battle field, B's my field
SQUARES = ("A1", "A2", "A3", "C1", "C2", "C3", "B1", "B2", "B3")
ROWS = {"A": ("A1", "A2", "A3"), "C": ("C1", "C2", "C3"), "B": ("B1", "B2", "B3")}
BATTLE_ROW = ROWS["C"]
HOME_ROW = {"A": ROWS["A"], "B": ROWS["B"]}

ZONES = ("stock", "hand", "standby", "break", "field")


def shuffle(rng: random.Random, cards: list) -> None:
    """``rng.shuffle(cards)``: the same draws, the same order, without a Python call per
    card (random.shuffle asks ``_randbelow(i + 1)`` for each position from the last, and
    _randbelow draws ``getrandbits`` of ``i + 1``'s bit length until it is below ``i + 1``;
    both stocks are shuffled in every game)."""
    bits = rng.getrandbits
    for i in reversed(range(1, len(cards))):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


@attrs.define(slots=True, eq=False)
class Instance:
    """One physical card.  ``face`` is what it currently is (a copy changes it, R2.4)."""

    uid: int
    owner: str
    base: CardDef
    zone: str = "stock"
    square: Optional[str] = None  # when zone == "field"
    slot: Optional[int] = None  # when zone == "standby" (0-based)
    exhausted: bool = False  # when a stun
    copy_of: Optional[CardDef] = None

    @property
    def face(self) -> CardDef:
        return self.copy_of if self.copy_of is not None else self.base

    @property
    def cost(self) -> int:
        # R2.4: a card's cost is always its own printed cost, even as a copy
        return self.base.cost

    @property
    def id(self) -> str:
        return self.base.id

    def label(self) -> str:
        face = self.copy_of  # the face property inline (hot path: most log lines name one)
        if face is not None:
            return f"{self.base.id} (as {face.id} {face.name})"
        face = self.base
        return f"{face.id} {face.name}"


@attrs.define(slots=True, eq=False)
class PlayerState:
    name: str
    stock: list = attrs.Factory(list)  # top first
    hand: list = attrs.Factory(list)
    standby: list = attrs.Factory(lambda: [None] * STANDBY_SLOTS)  # Instance or None
    break_: list = attrs.Factory(list)  # oldest first
    pool: dict = attrs.Factory(dict)  # color -> points (R6.1)
    # bumped by every change to the hand (the engine remembers what it lists of a hand
    # per version: Game._hand_index); a rollback bumps it too
    hand_v: int = 0
    # False only when no stun in the standby is exhausted (then the engine need not look
    # at each: Game.legal_actions, the start phase's readying); whatever exhausts a stun
    # sets it, the start phase clears it, a rollback and a copy set it
    tired: bool = False

    def pool_total(self) -> int:
        return sum(self.pool.values())

    def stuns(self) -> Iterator[Instance]:
        return (s for s in self.standby if s is not None)


@attrs.define(slots=True, eq=False)
class GameState:
    players: dict  # "A"/"B" -> PlayerState
    field: dict  # square -> list[Instance], bottom first; [] = empty
    turn: int = 1
    active: str = "A"
    phase: str = "start"
    played: bool = False  # played a card from hand this turn (R5.4)
    stun_set: bool = False  # set a stun this turn (R5.3)
    first: str = "A"
    seed: int = 0
    rng: random.Random = attrs.Factory(random.Random)
    winner: Optional[str] = None
    win_reason: Optional[str] = None
    next_uid: int = 1
    field_version: int = 0  # bumped by every change to the field (cheap win checks)
    # uid -> the seats (a frozenset) that know a card while it is in a zone hidden from
    # them (a card that left the field for a hand or a stock, a card looked at or offered
    # in a choice, a stun that gave its points); the owner always knows its hand and standby
    known: dict = attrs.Factory(dict)
    # while an action runs step by step (wgdsl.games.world_gainer.api): the snapshot it
    # would be rolled back to; None in the in-process fast path
    snap: Optional["Snapshot"] = None

    @classmethod
    def empty(cls, seed: int = 0) -> "GameState":
        return cls(
            players={p: PlayerState(p) for p in PLAYERS},
            field={sq: [] for sq in SQUARES},
            seed=seed,
            rng=random.Random(seed),
        )

    # ------------------------------------------------------------------ building
    def new_instance(self, owner: str, card: CardDef) -> Instance:
        inst = Instance(self.next_uid, owner, card)
        self.next_uid += 1
        return inst

    def put(self, inst: Instance, zone: str, *, square: Optional[str] = None,
            slot: Optional[int] = None, exhausted: bool = False, bottom: bool = True) -> None:
        """Place an instance that is in no zone yet (board set-up and the engine's moves)."""
        p = self.players[inst.owner]
        inst.zone, inst.square, inst.slot, inst.exhausted = zone, None, None, False
        if zone == "stock":
            if bottom:
                p.stock.append(inst)
            else:
                p.stock.insert(0, inst)
        elif zone == "hand":
            p.hand.append(inst)
            p.hand_v += 1
        elif zone == "break":
            p.break_.append(inst)
        elif zone == "standby":
            assert slot is not None and p.standby[slot] is None
            p.standby[slot] = inst
            inst.slot, inst.exhausted = slot, exhausted
            if exhausted:
                p.tired = True
        elif zone == "field":
            assert square is not None
            self.field_version += 1
            self.field[square].append(inst)
            inst.square = square
        else:  # pragma: no cover - programming error
            raise ValueError(zone)

    def take(self, inst: Instance) -> None:
        """Remove an instance from wherever it is (it must be put somewhere next)."""
        p = self.players[inst.owner]
        zone = inst.zone
        if zone == "stock":
            p.stock.remove(inst)
        elif zone == "hand":
            p.hand.remove(inst)
            p.hand_v += 1
        elif zone == "break":
            p.break_.remove(inst)
        elif zone == "standby":
            p.standby[inst.slot] = None
        elif zone == "field":
            self.field_version += 1
            self.field[inst.square].remove(inst)
        inst.zone, inst.square, inst.slot, inst.exhausted = "limbo", None, None, False

    # what take() then put() would do, made at once (Game.new's deal; the engine's draw,
    # stun set and stun discarded do the same inline): a stock or hand card has no square,
    # no slot and no exhaustion (put cleared them)
    def draw_top(self, p: PlayerState) -> Instance:
        """The top card of ``p``'s stock goes to ``p``'s hand (R5.2); it is returned."""
        inst = p.stock.pop(0)
        inst.zone = "hand"
        p.hand.append(inst)
        p.hand_v += 1
        return inst

    # ------------------------------------------------------------------ randomness
    def rng_for_use(self) -> random.Random:
        """The generator, about to be drawn from: a snapshot being kept saves its state
        first (only then: saving it costs more than the action that rarely needs it)."""
        snap = self.snap
        if snap is not None and snap.rng_state is None:
            snap.rng_state = self.rng.getstate()
        return self.rng

    def tell(self, uid: int, seats) -> None:
        """The ``seats`` now know card ``uid`` (see ``known``)."""
        known = self.known.get(uid)
        if known is None:
            self.known[uid] = frozenset(seats)
        elif not known.issuperset(seats):  # (a stun exhausted again is known already)
            self.known[uid] = known.union(seats)

    def shuffled(self, cards) -> None:
        """A pile was shuffled: nobody knows where its cards are any more."""
        known = self.known
        if known:
            for inst in cards:
                known.pop(inst.uid, None)

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> "Snapshot":
        """What this state is, cheaply: the zone lists (copies of lists of the same
        instances), the flags instances carry, the scalars; the generator's state only
        once it is drawn from (:meth:`rng_for_use`).  :meth:`restore` puts it back.
        (Hot path of the public loop: about 17 a random game.  A player whose ``tired``
        is False has no stun exhausted, so its flags are not read; the field's stacks are
        copied by ``list.copy`` in C, the copies' faces read in the same loop.)"""
        players = []
        for p in self.players.values():
            standby = p.standby
            players.append((p.stock[:], p.hand[:], standby[:], p.break_[:], p.pool.copy(),
                            [s is not None and s.exhausted for s in standby] if p.tired
                            else None))
        field = list(map(list.copy, self.field.values()))
        copies = [(inst, inst.copy_of) for stack in field for inst in stack
                  if inst.copy_of is not None]
        return Snapshot(players, field, copies,
                        (self.turn, self.active, self.phase, self.played, self.stun_set,
                         self.first, self.winner, self.win_reason, self.next_uid,
                         self.field_version),
                        self.known.copy())

    def restore(self, snap: "Snapshot") -> None:
        """Put back what :meth:`snapshot` saw.  The snapshot stays whole (what it holds is
        copied back, never handed over), so the step that runs again from here after an
        answer keeps it (``WGState._retake``: no second snapshot).  A stock, hand or break
        list that holds the same cards in the same order as the snapshot's is left as it
        is, its cards' flags unread: a card in such a list has that zone's flags (no square,
        no slot, not exhausted, no copy: every move that puts a card there sets them, and
        no question comes between), so only a list that differs is copied back with its
        cards' flags set (hot path: at an answer, a step rolled back has moved a card or
        two, and a stock holds some thirty).  The standby's and the field's flags change
        in place (exhaustion, copies), so they are always set."""
        for p, (stock, hand, standby, break_, pool, exhausted) in zip(self.players.values(),
                                                                       snap.players):
            if p.stock != stock:  # (lists of instances: the same instance, or unequal)
                p.stock = stock[:]
                for inst in stock:
                    inst.zone, inst.square, inst.slot, inst.exhausted, inst.copy_of = \
                        "stock", None, None, False, None
            if p.hand != hand:
                p.hand = hand[:]
                for inst in hand:
                    inst.zone, inst.square, inst.slot, inst.exhausted, inst.copy_of = \
                        "hand", None, None, False, None
            if p.break_ != break_:
                p.break_ = break_[:]
                for inst in break_:
                    inst.zone, inst.square, inst.slot, inst.exhausted, inst.copy_of = \
                        "break", None, None, False, None
            p.standby, p.pool = standby[:], pool.copy()
            p.hand_v += 1
            p.tired = True
            for i, inst in enumerate(standby):
                if inst is not None:
                    inst.zone, inst.square, inst.slot, inst.exhausted, inst.copy_of = \
                        "standby", None, i, exhausted is not None and exhausted[i], None
        field = self.field
        for (sq, _), stack in zip(field.items(), snap.field):
            field[sq] = stack[:]
            for inst in stack:
                inst.zone, inst.square, inst.slot, inst.exhausted, inst.copy_of = \
                    "field", sq, None, False, None
        for inst, copy_of in snap.copies:
            inst.copy_of = copy_of
        (self.turn, self.active, self.phase, self.played, self.stun_set, self.first,
         self.winner, self.win_reason, self.next_uid, self.field_version) = snap.scalars
        self.known = snap.known.copy()
        if snap.rng_state is not None:
            self.rng.setstate(snap.rng_state)

    def copy(self) -> "GameState":
        """An independent copy of a state between actions (every instance is in a zone):
        new instances, the same card definitions, the generator copied."""
        memo: dict = {}
        def twin(inst):
            if inst is None:
                return None
            c = memo.get(inst)
            if c is None:
                c = memo[inst] = Instance(inst.uid, inst.owner, inst.base, inst.zone, inst.square,
                                          inst.slot, inst.exhausted, inst.copy_of)
            return c

        players = {}
        for name, p in self.players.items():
            players[name] = PlayerState(name, [twin(i) for i in p.stock], [twin(i) for i in p.hand],
                                        [twin(i) for i in p.standby],
                                        [twin(i) for i in p.break_], dict(p.pool), tired=True)
        field = {sq: [twin(i) for i in stack] for sq, stack in self.field.items()}
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return GameState(players, field, self.turn, self.active, self.phase, self.played,
                         self.stun_set, self.first, self.seed, rng, self.winner, self.win_reason,
                         self.next_uid, self.field_version, self.known.copy(), None)

    # ------------------------------------------------------------------ derived facts
    def holder(self, square: str) -> Optional[str]:
        """R1.4: the owner of a stack's cards holds its square."""
        stack = self.field[square]
        return stack[0].owner if stack else None

    def top(self, square: str) -> Optional[Instance]:
        stack = self.field[square]
        return stack[-1] if stack else None

    def square_points(self, square: str) -> int:
        """R1.5: the sum of the costs of every card in the stack."""
        return sum(i.cost for i in self.field[square])

    def points(self, player: str) -> int:
        """R1.5: the sum over the squares the player holds."""
        total = 0
        for stack in self.field.values():
            if stack and stack[0].owner == player:
                for inst in stack:
                    total += inst.cost
        return total

    def squares_held(self, player: str) -> int:
        return sum(1 for stack in self.field.values() if stack and stack[0].owner == player)

    def all_instances(self) -> Iterator[Instance]:
        for p in self.players.values():
            yield from p.stock
            yield from p.hand
            yield from (s for s in p.standby if s is not None)
            yield from p.break_
        for stack in self.field.values():
            yield from stack


class Snapshot:
    """A state as :meth:`GameState.snapshot` saw it (plain lists of the same instances)."""

    __slots__ = ("players", "field", "copies", "scalars", "known", "rng_state")

    def __init__(self, players, field, copies, scalars, known):
        self.players = players
        self.field = field
        self.copies = copies
        self.scalars = scalars
        self.known = known
        self.rng_state = None
