"""It's a Wonderful World's algorithms as pure functions of plain data (IAW R13-R18, R20).

What a designer tunes — the cards and empires — is the game file; what is an algorithm —
how much a player produces, who wins a supremacy, when cubes become krystallium, how a
score adds up and who wins a tie — is here, each function tested against the spec's own
worked examples (tests/test_wonderful_world_rules.py).
"""

from __future__ import annotations

from typing import Iterable, Optional

from .cards import CardTable, per_type_count

#: IAW R14.4: the character a supremacy in each step gives (``choice``: Financier or
#: General, the winner's pick, R14.5)
SUPREMACY_TOKEN = {"MAT": "FIN", "ENE": "GEN", "SCI": "choice", "GLD": "FIN", "EXP": "GEN"}
#: IAW R20.5: solo supremacy needs a production above this (「5つを超えた場合のみ」)
SOLO_SUPREMACY_ABOVE = 5
#: IAW R15.1: cubes on an empire card that become one krystallium
CUBES_PER_KRYSTALLIUM = 5
#: IAW R20.6: (title, Japanese, side-B threshold); side A adds SIDE_A_EXTRA
SOLO_TITLES = (("Living God", "現人神", 100), ("Emperor", "皇帝", 80),
               ("Dictator", "独裁者", 60), ("Rookie", "ルーキー", 0))
SIDE_A_EXTRA = 15


def production(table: CardTable, resource: str, empire: str, side: str,
               constructed: list) -> int:
    """IAW R13.2a: the ``resource`` a player produces in its step: the fixed amounts of the
    empire's side and of every constructed card, plus one per constructed card of type T
    for each ``resource per T`` entry (a card counts itself; copies each produce)."""
    total = sum(n for r, n, _ in table.empires[empire].production[side] if r == resource)
    for ident in constructed:
        for r, n, per in table.developments[ident].production:
            if r != resource:
                continue
            total += n * per_type_count(constructed, table, per) if per else n
    return total


def productions(table: CardTable, empire: str, side: str, constructed: list) -> dict:
    """:func:`production` of every resource at once, in one pass over the constructed
    cards: resource -> amount (a resource produced by nothing is left out: 0)."""
    out: dict = {}
    for r, n, _ in table.empires[empire].production[side]:
        out[r] = out.get(r, 0) + n
    for ident in constructed:
        for r, n, per in table.developments[ident].production:
            out[r] = out.get(r, 0) + (n * per_type_count(constructed, table, per) if per else n)
    return out


def supremacy(resource: str, produced: dict, solo: bool = False) -> tuple[Optional[str], Optional[str]]:
    """IAW R14.1-R14.4, R20.5: (the seat that alone produced the most, at least 1 — in
    solo, more than 5 — and the token it gains: ``FIN``, ``GEN`` or ``choice``), or
    ``(None, None)``."""
    if not produced:
        return None, None
    best = max(produced.values())
    leaders = [s for s, p in produced.items() if p == best]
    floor = SOLO_SUPREMACY_ABOVE + 1 if solo else 1
    if len(leaders) != 1 or best < floor:
        return None, None
    return leaders[0], SUPREMACY_TOKEN[resource]


def convert(cubes: int) -> tuple[int, int]:
    """IAW R15.1-R15.2: (krystallium gained, cubes left) when an empire card holds
    ``cubes``; whenever 5 gather they become one krystallium."""
    return divmod(cubes, CUBES_PER_KRYSTALLIUM)


def score(table: CardTable, constructed: list, empire: str, side: str, generals: int,
          financiers: int) -> dict:
    """IAW R17.5: the four categories and the total.  ``constructed``: the completed
    development cards (a multiset of ids); the empire's side-A VP entry counts like a
    card's (R17.3); characters held are those on the empire card (R17.4)."""
    entries = [e for i in constructed for e in table.developments[i].vp]
    entries += list(table.empires[empire].vp[side])
    fixed = combo = 0
    general, financier = generals, financiers
    for _, n, per in entries:
        if per is None:
            fixed += n
        elif per == "GEN":
            general += n * generals
        elif per == "FIN":
            financier += n * financiers
        else:
            combo += n * per_type_count(constructed, table, per)
    return {"fixed": fixed, "combo": combo, "general": general, "financier": financier,
            "total": fixed + combo + general + financier}


def winners(totals: dict, constructed: dict, characters: dict) -> tuple[tuple, str]:
    """IAW R18: (the winning seats in seat order, the rule that decided): most VP (R18.1);
    tied, most constructed cards (R18.2); tied, most characters held (R18.3); tied, all
    of them (R18.4)."""
    seats = list(totals)
    for key, rule in ((totals, "R18.1"), (constructed, "R18.2"), (characters, "R18.3")):
        best = max(key[s] for s in seats)
        seats = [s for s in seats if key[s] == best]
        if len(seats) == 1:
            return tuple(seats), rule
    return tuple(seats), "R18.4"


def solo_title(total: int, side: str) -> tuple[str, str]:
    """IAW R20.6: (English, Japanese) title of a solo score on ``side``."""
    extra = SIDE_A_EXTRA if side == "A" else 0
    for english, japanese, threshold in SOLO_TITLES[:-1]:
        if total >= threshold + extra:
            return english, japanese
    return SOLO_TITLES[-1][:2]  # below every threshold (a score of 0 included)


def cost_left(table: CardTable, card: str, filled: Iterable[str]) -> list:
    """The kinds of ``card``'s cost spaces still empty when ``filled`` (kinds, a multiset)
    are filled (IAW R10, R11.1: the card completes when this is empty)."""
    left = list(table.developments[card].cost)
    for kind in filled:
        left.remove(kind)
    return left
