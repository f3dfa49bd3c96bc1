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
        face = self.face
        if self.copy_of is not None:
            return f"{self.base.id} (as {face.id} {face.name})"
        return f"{face.id} {face.name}"


@attrs.define(slots=True, eq=False)
class PlayerState:
    name: str
    stock: list = attrs.Factory(list)  # top first
    hand: list = attrs.Factory(list)
    standby: list = attrs.Factory(lambda: [None] * STANDBY_SLOTS)  # Instance or None
    break_: list = attrs.Factory(list)  # oldest first
    pool: dict = attrs.Factory(dict)  # color -> points (R6.1)

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
        elif zone == "break":
            p.break_.append(inst)
        elif zone == "standby":
            assert slot is not None and p.standby[slot] is None
            p.standby[slot] = inst
            inst.slot, inst.exhausted = slot, exhausted
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
        elif zone == "break":
            p.break_.remove(inst)
        elif zone == "standby":
            p.standby[inst.slot] = None
        elif zone == "field":
            self.field_version += 1
            self.field[inst.square].remove(inst)
        inst.zone, inst.square, inst.slot, inst.exhausted = "limbo", None, None, False

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
