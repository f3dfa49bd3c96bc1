"""A GETGEM state from a board written out (a ruling case's ``[state]``, getgem.md "What a
ruling case needs"), with its random outcomes scripted instead of drawn.

The board is taken as printed: nothing happens while it is laid out (no check, no hand
limit, no refill); every ``known`` starts empty.  With ``phase = "draw"`` the active seat's
draw (with its refill) is made at once, so the state waits in its action phase.
"""

from __future__ import annotations

from typing import Optional, Protocol

import attrs

from .cards import ELEMENTS
from .state import Data, GGState


@attrs.define
class Board:
    players: int = 2
    active: str = "A"
    turn: Optional[int] = None  # None: the active seat's position (A 1, B 2, ...)
    phase: str = "action"  # "draw" | "action" | "end"
    peeping_used: bool = False
    max_turns: int = 500
    deck: list = attrs.Factory(list)  # ids, top first
    discard: list = attrs.Factory(list)  # ids, oldest first
    hands: dict = attrs.Factory(dict)  # seat -> [ids]
    elements: dict = attrs.Factory(dict)  # seat -> [element names owned]
    declared: dict = attrs.Factory(dict)  # seat -> [ids]


class Chance(Protocol):
    """Every random outcome of a game goes through one when it is given.  It is asked only
    for outcomes with more than one possibility (a hand, or a discard pile, of one id only
    is decided without it), and may raise to stop the run."""

    def take(self, hand: list) -> str:
        """The id taken at random from ``hand`` (the victim's hand, ids ascending)."""

    def shuffle(self, cards: list) -> list:
        """The refilled deck, top first, from the discard pile's ``cards`` (oldest first)."""


def state_from_board(game, board: Board, chance: Optional[Chance] = None) -> GGState:
    """The board as a state of ``game`` (a GETGEM game): the seats ``A``... of
    ``board.players``; the seat that started is the one ``turn - 1`` seats before the
    active one (getgem.md "What a ruling case needs")."""
    names = game.seat_names(game.check_seats(board.players))
    turn = board.turn if board.turn is not None else names.index(board.active) + 1
    d = Data()
    d.turn, d.active, d.phase = turn, board.active, "end" if board.phase == "end" else "action"
    d.first = names[(names.index(board.active) - (turn - 1)) % len(names)]
    d.peeping_used, d.max_turns = board.peeping_used, board.max_turns
    d.deck = list(reversed(board.deck))
    d.discard = list(board.discard)
    d.hands = {s: list(board.hands.get(s, ())) for s in names}
    d.elements = {s: [e for e in ELEMENTS if e in board.elements.get(s, ())] for s in names}
    d.declared = {s: list(board.declared.get(s, ())) for s in names}
    d.known = {v: {h: [] for h in names if h != v} for v in names}
    d.q, d.winner, d.reason, d.over = None, None, "", False
    d.revealed, d.won_hand, d.log, d.rng = [], (), [], 0
    state = GGState(game, names, d, chance)
    state.note("", "board", f"a board: turn {turn}, {board.active} active, {board.phase} phase")
    if board.phase == "draw":
        state.start_turn()
    return state
