"""GETGEM's tests, as pure functions of plain data (ids, lists, sets): no state, no engine.

Rule numbers are getgem.md's, cited "GG R10.1".
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterable

from wgdsl.kernel.multiset import common, minus

from .cards import ELEMENTS, CardTable

HAND_LIMIT = 6  # GG R11.5
DECLARED = 3  # cards placed at a declaration, GG R11.2a


def is_cursed(table: CardTable, hand: Iterable[str], declared: Iterable[str]) -> bool:
    """GG R10.3 with R1.6: a seat is cursed while it has a curse card in its hand or among
    its declaration cards."""
    cards = table.cards
    return any(cards[i].curse for i in hand) or any(cards[i].curse for i in declared)


def covers(table: CardTable, counted: Iterable[str], owned: Iterable[str], cursed: bool) -> bool:
    """GG R10.1's test: the elements of the basic gems counted and of the element cards
    owned, ``S``, and the wild gems counted, ``r`` (none when ``cursed``): the three
    elements are covered iff ``3 - |S| <= r``."""
    elements = set(owned)
    wild = 0
    cards = table.cards
    for i in counted:
        c = cards[i]
        if c.kind != "gem":
            continue
        if c.element is not None:
            elements.add(c.element)
        elif c.wild:
            wild += 1
    if cursed:
        wild = 0
    return len(ELEMENTS) - len(elements & set(ELEMENTS)) <= wild


def declarations(table: CardTable, hand: list, owned: Iterable[str], declared: list) -> list:
    """The legal declarations (GG R11.2): each a sorted tuple of 3 ids of ``hand`` that
    with the element cards ``owned`` cover the three elements; the seat is cursed if the
    placed cards or the hand left behind hold a curse card (R1.6: placing it does not free
    the rainbows).  None while the seat is declaring (R11.2c).  Identical cards are one
    declaration (R14.3)."""
    if declared or len(hand) < DECLARED:
        return []
    owned = tuple(owned)
    cursed = is_cursed(table, hand, ())  # the placed cards stay the seat's (R1.6)
    if not covers(table, hand, owned, cursed):
        return []  # no 3 cards of a hand cover what the whole hand does not (issue 17)
    found = []
    for trio in _distinct_combinations(hand, DECLARED):
        if covers(table, trio, owned, cursed):
            found.append(trio)
    return found


def gem_steal_payments(table: CardTable, hand: list) -> list:
    """GG R9.1: the distinct sorted triples of gems of ``hand`` that may be discarded (never
    an undiscardable card)."""
    payable = table.payable
    gems = [i for i in hand if i in payable]
    return _distinct_combinations(gems, 3) if len(gems) >= 3 else []


def element_trades(table: CardTable, hand: list, owned: Iterable[str]) -> list:
    """GG R9.2: the elements the seat can trade for: two basic gems of it in hand, and its
    element card not already owned."""
    of = table.gem_elements
    count: dict = {}
    for i in hand:
        e = of.get(i)
        if e is not None:
            count[e] = count.get(e, 0) + 1
    return [e for e in ELEMENTS if count.get(e, 0) >= 2 and e not in owned]


def discardable(table: CardTable, cards: Iterable[str]) -> list:
    """The distinct ids of ``cards`` that may be discarded (GG R10.4), ascending."""
    return sorted({i for i in cards if i not in table.undiscardable})


def _distinct_combinations(cards: list, k: int) -> list:
    """Every distinct multiset of ``k`` of ``cards`` (identical ids are one), as sorted
    tuples in ascending order."""
    return sorted(set(combinations(sorted(cards), k)))


# the multiset helpers the engine uses under these names
multiset_minus = minus
multiset_and = common
