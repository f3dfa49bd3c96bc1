"""The rules tables as pure functions: marks (R2.3), field priority (R8), placement
outcomes (R9–R11), cost payment (R6.3–R6.4).

Nothing here mutates game state; the engine asks and then acts.
"""

from __future__ import annotations

from typing import Optional, Sequence

from .state import BATTLE_ROW, HOME_ROW, OTHER, POINT_COLORS

# R2.3: rock beats scissors, scissors beats paper, paper beats rock; "all" beats the three
BEATS = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock"),
         ("all", "rock"), ("all", "paper"), ("all", "scissors")}


# compare_marks as a table: (a, b) -> +1 / -1 for the pairs of BEATS (absent: 0)
_VS = {**{(a, b): 1 for a, b in BEATS}, **{(b, a): -1 for a, b in BEATS}}


def compare_marks(a: str, b: str) -> int:
    """+1 when mark ``a`` beats ``b``, -1 when it loses, 0 when they are the same (R2.3)."""
    if a == b:
        return 0
    if (a, b) in BEATS:
        return 1
    if (b, a) in BEATS:
        return -1
    return 0


# ------------------------------------------------------------------------ R8
def row_ranks(player: str) -> tuple[tuple[str, ...], ...]:
    """R8.1: the rows in the order ``player`` must take them."""
    return (HOME_ROW[player], BATTLE_ROW, HOME_ROW[OTHER[player]])


def priority_allows(player: str, square: str, holder) -> bool:
    """R8.2: ``player`` may play onto ``square`` only when holding every square of every
    higher row.  ``holder`` maps a square to its holder (or None)."""
    for row in row_ranks(player):
        if square in row:
            return True
        for sq in row:
            if holder(sq) != player:
                return False
    return False  # pragma: no cover - every square is in a row


def priority_squares(player: str, holder) -> list[str]:
    """R8.2 for every square at once (what ``priority_allows`` says of each): the squares
    of each row up to and including the first row ``player`` does not wholly hold."""
    out: list[str] = []
    for row in row_ranks(player):
        out.extend(row)
        for sq in row:
            if holder(sq) != player:
                return out
    return out


# ------------------------------------------------------------------------ R9–R11
PLACE = "place"  # R9: empty square
REPLACE = "replace"  # R10.1: own square, beats the top card: the stack goes, the card is placed
STACK = "stack"  # R10.2: own square, same mark, cost above the stack total
SEIZE = "seize"  # R11.1/R11.2: the opponent's stack goes, P holds the square
AIKO = "aiko"  # R11.1: same mark, same cost, single card: both go to break
TRADE = "trade"  # R11.2: the new card and the top card go; the rest stays
ILLEGAL = "illegal"


def placement(player: str, mark: str, cost: int, stack: Sequence) -> tuple[str, Optional[str], str]:
    """The outcome of ``player`` putting a card of ``mark``/``cost`` onto a square holding
    ``stack`` (instances bottom first, or empty).

    Returns ``(outcome, rule, reason)``; ``reason`` explains an illegal outcome.
    """
    if not stack:
        return PLACE, "R9", ""
    top = stack[-1]
    # Instance.face and Instance.cost inline (hot path: every listed play, every play a
    # greedy agent weighs): the face is the copy, else the printed card; the cost is
    # always the printed card's (R2.4)
    face = top.copy_of
    top_mark = (face if face is not None else top.base).mark
    top_cost = top.base.cost
    total = 0
    for inst in stack:
        total += inst.base.cost
    vs = _VS.get((mark, top_mark), 0)  # compare_marks(mark, top_mark)
    if stack[0].owner == player:  # R10: a square P holds
        if vs > 0:
            return REPLACE, "R10.1", ""
        if vs == 0:
            if cost > total:
                return STACK, "R10.2", ""
            return ILLEGAL, "R10.3", (
                f"same mark: stacking needs a cost above the stack's total {total} (cost {cost})")
        return ILLEGAL, "R10.3", f"{mark} loses to the top card's {top_mark}"
    # R11: a square the opponent holds
    if len(stack) == 1:
        if vs > 0:
            return SEIZE, "R11.1", ""
        if vs == 0:
            if cost > top_cost:
                return SEIZE, "R11.1", ""
            if cost == top_cost:
                return AIKO, "R11.1", ""
            return ILLEGAL, "R11.1", f"same mark and cost {cost} is below the card's cost {top_cost}"
        return ILLEGAL, "R11.1", f"{mark} loses to {top_mark}"
    if vs > 0:
        if cost > total:
            return SEIZE, "R11.2", ""
        if cost > top_cost:
            return TRADE, "R11.2", ""
        return ILLEGAL, "R11.2", (
            f"a stack is taken with a cost above its total {total} or traded with a cost above "
            f"its top card's {top_cost} (cost {cost}); no aiko on stacks")
    if vs == 0:
        return ILLEGAL, "R11.2", "a stack can only be seized or traded by a mark that beats its top card"
    return ILLEGAL, "R11.2", f"{mark} loses to {top_mark}"


# ------------------------------------------------------------------------ R6
def can_pay(pool: dict, total: int, cost: int, required: int, color: str) -> bool:
    """Whether :func:`payment` finds points for the cost (``total``: what ``pool`` holds
    in all): the pool holds the cost, and ``required`` points of the card's color (of one
    color for a yellow card).  Once the required points are taken, the rest of the pool
    pays the rest whatever its colors, so nothing else can refuse it (legal_actions asks
    this of every card in hand; payment builds the spending too)."""
    if total < cost:
        return False
    if required <= 0:
        return True
    if color == "yellow":
        return any(pool.get(c, 0) >= required for c in POINT_COLORS)
    return pool.get(color, 0) >= required


def payment(pool: dict, cost: int, required: int, color: str) -> Optional[dict]:
    """Which points pay ``cost`` with ``required`` points of ``color`` (R6.3), or None.

    Yellow cards take their required points in any ONE color (R6.4).  The engine picks
    the points and never asks: required points first, then the other colors in a fixed
    order (so the outcome is the same for the same pool).
    """
    if sum(pool.values()) < cost:
        return None
    if required <= 0:
        req_color = None
    elif color == "yellow":
        options = [c for c in POINT_COLORS if pool.get(c, 0) >= required]
        if not options:
            return None
        # the color with the most points, ties in the fixed order
        req_color = max(options, key=lambda c: (pool.get(c, 0), -POINT_COLORS.index(c)))
    else:
        if pool.get(color, 0) < required:
            return None
        req_color = color
    spend: dict = {}
    left = dict(pool)
    if req_color is not None:
        spend[req_color] = required
        left[req_color] -= required
    rest = cost - required
    order = [c for c in POINT_COLORS if c != req_color] + ([req_color] if req_color else [])
    for c in order:
        if rest <= 0:
            break
        take = min(rest, left.get(c, 0))
        if take:
            spend[c] = spend.get(c, 0) + take
            left[c] -= take
            rest -= take
    return spend if rest <= 0 else None
