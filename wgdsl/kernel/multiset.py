"""Multisets of card ids as plain lists: what a hand holds, what a seat knows of one.

Identical cards are interchangeable in every game wgdsl plays, so a hand is a list of ids
and these are the operations the games need on it (ascending order where a result is
shown).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable


def minus(items: list, removed: Iterable[str]) -> list:
    """``items`` without one copy of each of ``removed`` (those it has), in its order."""
    out = list(items)
    for r in removed:
        if r in out:
            out.remove(r)
    return out


def common(a: Iterable[str], b: Iterable[str]) -> list:
    """The multiset intersection of ``a`` and ``b``, ascending."""
    return sorted((Counter(a) & Counter(b)).elements())
