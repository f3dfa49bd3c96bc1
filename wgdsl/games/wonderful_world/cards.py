"""The IAW01 card table from the game file: each development card's type, cost spaces,
bonus, production and VP entries and recycle cube (IAW R3), each empire's two sides (R4).

Entries are the game file's list-stat entries ``(word, number, per)``: a production
``("ENE", 1, "VEH")`` is one ENE per constructed Vehicle, a VP ``(None, 1, "GEN")`` one VP
per General held.  No card id appears here: cards are data.
"""

from __future__ import annotations

from typing import Optional

import attrs

from wgdsl.lang.game.spec import GameSpec

RESOURCES = ("MAT", "ENE", "SCI", "GLD", "EXP")  # in production order, IAW R2.1
TYPES = ("STR", "VEH", "RES", "PRO", "DIS")  # IAW R3.2


@attrs.frozen
class Development:
    id: str
    name: str
    name_en: str
    type: str
    cost: tuple  # the kinds of its cost spaces, one entry per space (R3.3)
    bonus: tuple  # FIN / GEN / KRY, one entry per token (R3.4)
    production: tuple  # (resource, n, per type or None), R3.5
    vp: tuple  # (None, n, per word or None), R3.7
    recycle: str  # one resource (R3.6)
    copies: int


@attrs.frozen
class Empire:
    id: str
    name: str
    name_en: str
    production: dict  # side -> ((resource, n, None), ...)
    vp: dict  # side -> VP entries (side B has none in IAW01)


@attrs.frozen
class CardTable:
    developments: dict  # id -> Development
    empires: dict  # id -> Empire
    # every copy of every development card, in file order: made once (new_state's deck)
    _deck: tuple = attrs.field(init=False, eq=False, repr=False)
    #: every id sorts before ``empire`` and holds no space (nor anything below it): then
    #: the texts of the actions sort as their (kind, words...) do and a reference sorts
    #: before ``empire`` (``ID@k`` too), so the legal actions are listed in order unsorted
    plain_ids: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_deck", tuple(
            d.id for d in self.developments.values() for _ in range(d.copies)))
        object.__setattr__(self, "plain_ids", all(
            i < "empire" and min(i) > " " for i in self.developments))

    def deck(self) -> list:
        """Every copy of every development card, in file order (IAW R5.1 shuffles it)."""
        return list(self._deck)


def _spaces(entries: tuple) -> tuple:
    return tuple(word for word, n, _ in entries for _ in range(n))


def card_table(spec: GameSpec) -> CardTable:
    """The table of ``spec``'s cards; ValueError says what a rule needs and lacks."""
    developments: dict = {}
    empires: dict = {}
    for c in spec.cards:
        if c.kind == "development":
            recycle = c.stat("recycle")
            if not c.stat("cost"):
                raise ValueError(f"card {c.id}: a development card has at least one cost space "
                                 "(IAW R3.3)")
            if len(c.stat("vp")) > 1:
                raise ValueError(f"card {c.id}: at most one VP entry (IAW R3.7)")
            developments[c.id] = Development(
                c.id, c.name, c.name_en or c.name, c.stat("type"), _spaces(c.stat("cost")),
                _spaces(c.stat("bonus")), c.stat("produce"), c.stat("vp"), recycle, c.copies)
        elif c.kind == "empire":
            empires[c.id] = Empire(c.id, c.name, c.name_en or c.name,
                                   {"A": c.stat("produce_a"), "B": c.stat("produce_b")},
                                   {"A": c.stat("vp_a"), "B": ()})
        else:
            raise ValueError(f"card {c.id}: It's a Wonderful World plays development and "
                             f"empire cards, not {c.kind}")
    return CardTable(developments, empires)


def per_type_count(constructed: list, table: CardTable, type_: Optional[str]) -> int:
    """How many of ``constructed`` (ids, a multiset) are of ``type_``."""
    return sum(1 for i in constructed if table.developments[i].type == type_)
