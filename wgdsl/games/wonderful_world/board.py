"""An It's a Wonderful World state from a board written out (a ruling case's ``[state]``,
wonderful-world.md "What a ruling case needs"): taken as printed, then run on through
everything that needs no decision, to the window the board describes."""

from __future__ import annotations

from typing import Optional

import attrs

from .cards import RESOURCES
from .state import Data, Seat, WWState


@attrs.define
class SeatBoard:
    empire: Optional[str] = None
    hand: list = attrs.Factory(list)
    draft: list = attrs.Factory(list)
    picked: Optional[str] = None
    construction: list = attrs.Factory(list)  # (card, [kinds filled])
    constructed: list = attrs.Factory(list)
    empire_cubes: int = 0
    krystallium: int = 0
    financiers: int = 0
    generals: int = 0
    unplaced: int = 0
    science_choice: bool = False
    committed: bool = False
    piles_taken: Optional[int] = None
    swaps_over: bool = False
    look: list = attrs.Factory(list)


@attrs.define
class Board:
    players: int = 3
    empire_side: str = "A"
    round: int = 1
    phase: str = "draft"
    pick: int = 0
    step: Optional[str] = None
    at: str = "produce"
    deck: list = attrs.Factory(list)  # top first
    discard: list = attrs.Factory(list)
    piles: list = attrs.Factory(list)
    seats: dict = attrs.Factory(dict)  # "P1" -> SeatBoard


class BoardError(Exception):
    """The board needs what the set cannot give (a deal from an exhausted deck, R5.7)."""


def state_from_board(game, board: Board) -> WWState:
    names = tuple(f"P{k}" for k in range(1, board.players + 1))
    d = Data()
    d.round, d.phase, d.side = board.round, board.phase, board.empire_side
    d.pick = max(board.pick, 1)
    d.step = RESOURCES.index(board.step) if board.step else 0
    d.deck = list(reversed(board.deck))
    d.discard = list(board.discard)
    d.piles = [list(p) for p in board.piles]
    d.produced, d.supremacy, d.rng, d.log, d.over, d.result = {}, [], 0, [], False, None
    d.players = {}
    for k, seat in enumerate(names, start=1):
        b = board.seats.get(seat) or SeatBoard()
        p = Seat.new(b.empire or f"IAW-E0{k}")
        p.hand, p.draft, p.pick = list(b.hand), list(b.draft), b.picked
        p.building = [(card, list(filled)) for card, filled in b.construction]
        p.built = list(b.constructed)
        p.cubes, p.kry, p.fin, p.gen = b.empire_cubes, b.krystallium, b.financiers, b.generals
        p.unplaced, p.science = b.unplaced, b.science_choice
        p.committed = b.committed or b.picked is not None
        p.look, p.swap_over = list(b.look), b.swaps_over
        p.piles_taken = b.piles_taken if b.piles_taken is not None else \
            (1 if b.hand or b.look else 0)
        d.players[seat] = p
    d.opened, d.opened_discard = None, []  # None: no window opened yet
    state = WWState(game, names, d)
    state.note(None, "board", f"a board: round {d.round}, {d.phase}")
    if d.phase == "over":
        state._end()
        return state
    need = (10 if board.players == 2 else 7) * board.players
    if d.phase == "draft" and board.pick == 0:
        if len(d.deck) < need:
            raise BoardError("deck exhausted (R5.7)")
        state.start_round()
        return state
    if d.phase == "production" and board.at == "produce":
        state._production_step()
        return state
    solo = board.players == 1
    if solo and d.phase == "planning":
        p = d.players[names[0]]
        if p.piles_taken == 0 or (p.piles_taken == 1 and not p.hand and not p.look):
            if not d.piles:
                raise BoardError("no pile left (R20.1)")
            state._take_pile(names[0])
    # a window open from the start: the board as written is what the others see (R21.5)
    d.opened = {s: p.copy() for s, p in d.players.items()}
    d.opened_discard = list(d.discard)
    state._autoplay()
    return state
