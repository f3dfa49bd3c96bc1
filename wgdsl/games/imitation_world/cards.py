"""The card table of an Imitation World card set: what the rules read of each card id
(IW R2.2) — type, faction (an aga's: the factions it permits), cost, ATK, DEF, 連結攻撃 —
and its abilities compiled once (:mod:`.abilities`).  The engine never names a card."""

from __future__ import annotations

import attrs

from . import rules
from .abilities import NONE, Abilities


@attrs.frozen
class Card:
    id: str
    name: str
    name_en: str
    type: str
    faction: str
    cost: int = 0
    atk: int = 0
    defence: int = 0
    linked: bool = False
    abilities: Abilities = NONE

    def deck_card(self) -> rules.DeckCard:
        return rules.DeckCard(self.name, self.type, self.faction)

    def aga(self) -> rules.Aga:
        return rules.Aga(self.name, frozenset({self.faction}))


@attrs.frozen
class CardTable:
    path: str
    cards: dict  # id -> Card, in file order
    factions: tuple  # every faction of the set, sorted
    cost_factions: tuple  # all but 曖昧 (IW R3.2), sorted

    def __contains__(self, ident: str) -> bool:
        return ident in self.cards

    def __getitem__(self, ident: str) -> Card:
        return self.cards[ident]

    @property
    def agas(self) -> tuple:
        return tuple(c for c in self.cards.values() if c.type == "aga")

    @property
    def plain_aga(self):
        """The aga a ruling case takes when it names none: the first that permits every
        faction (曖昧, IW R3.4) and has no ability, so that it changes nothing (IW01's is
        the spec's default), else the first without an ability; None when there is none."""
        plain = [c for c in self.agas if c.abilities == NONE]
        return next((c for c in plain if c.faction == rules.AMBIGUOUS),
                    plain[0] if plain else None)


def table_of(library, path: str, compile_abilities=None) -> CardTable:
    """The table of a card library read in Imitation World's words.  ``compile_abilities``
    (card AST -> iterable of ability records) compiles each card's text once; None: the
    cards' stats only (the vanilla game; abilities come from the card language)."""
    cards = {}
    for c in library:
        src = c.source
        kind = src.stat("type", None)
        if kind is None:
            raise ValueError(f"card {c.id}: Imitation World needs a `type` (IW R2.1)")
        faction = src.stat("faction", None) or rules.AMBIGUOUS
        records = compile_abilities(src) if compile_abilities is not None else ()
        cards[c.id] = Card(c.id, c.name, c.en_name, kind, faction, int(src.stat("cost", 0) or 0),
                           int(src.stat("atk", 0) or 0), int(src.stat("def", 0) or 0),
                           bool(src.stat("linked_attack", False)), Abilities.of(records)
                           if records else NONE)
    factions = tuple(sorted({c.faction for c in cards.values()}))
    return CardTable(path, cards, factions, rules.cost_factions(factions))


def with_abilities(table: CardTable, programs: dict) -> CardTable:
    """A copy of ``table`` whose cards have the ability records ``programs`` gives by id
    (tests and tools that try an ability written by hand)."""
    cards = dict(table.cards)
    for ident, records in programs.items():
        cards[ident] = attrs.evolve(cards[ident], abilities=Abilities.of(records))
    return attrs.evolve(table, cards=cards)
