"""The card table of a GETGEM game file: what the rules need to know of each card id.

The engine never names a card: it knows a card by its kind (``gem``, ``action``,
``element``), its element stat, its flags (``wild``: the rainbow gem; ``curse`` and
``undiscardable``: the cursed gem) and its effects (``does steal_push or barrier``), all
read from the game file (``getgem.game``).  :func:`card_table` checks that a file gives
what the engine needs and says what is missing otherwise (a diagnostic at ``played by``).
"""

from __future__ import annotations

from typing import Optional

import attrs

from wgdsl.lang.game.spec import GameSpec

ELEMENTS = ("fire", "water", "thunder")  # their order in observations (GG R18.4)
ZONES = {"deck": (False, True), "discard": (False, True), "supply": (False, False),
         "hand": (True, False), "front": (True, False)}  # name -> (per seat, pile)


@attrs.frozen
class Card:
    id: str
    name: str
    name_en: str
    kind: str  # "gem", "action" or "element"
    element: Optional[str]  # a basic gem's or an element card's; None otherwise
    wild: bool = False
    curse: bool = False
    undiscardable: bool = False
    effects: tuple = ()  # effect names; a response effect is never a move


@attrs.frozen
class CardTable:
    """Every card of the set (``cards``, by id), the basic cards in play with their copies
    (``basic``: the deck's, hands' and discard pile's, ids in file order), the element
    card of each element, and the effects (``effects``: name -> EffectSpec)."""

    cards: dict
    basic: tuple  # ids, one entry per copy, in file order
    element_card: dict  # element name -> id
    effects: dict
    gems: frozenset
    undiscardable: frozenset
    responders: frozenset  # ids of cards with a response effect (the Barrier)
    # read on every move list, so computed once: a basic gem's element by id, the gems a
    # gem steal may pay with (GG R9.1, R10.4), and each action card's uses as moves: a
    # tuple of (effect word of the move, or None for a card of one effect; effect name)
    # in the card's order, its response effects left out (never a move, GG R7.2)
    gem_elements: dict = attrs.Factory(dict)
    payable: frozenset = frozenset()
    uses: dict = attrs.Factory(dict)

    def is_gem(self, ident: str) -> bool:
        return ident in self.gems

    def basic_element(self, ident: str) -> Optional[str]:
        """The element of a basic gem (fire, water, thunder gem); None for any other."""
        return self.gem_elements.get(ident)


def card_table(spec: GameSpec) -> CardTable:
    """The table of ``spec``'s cards; ValueError says what the engine needs and lacks."""
    for name, (per_seat, pile) in ZONES.items():
        zone = next((z for z in spec.zones if z.name == name), None)
        if zone is None or zone.per_seat != per_seat:
            raise ValueError(f"the GETGEM engine needs a zone `{name}`"
                             f"{' per seat' if per_seat else ' shared'} (getgem.md R1.3-R1.4)")
    cards: dict = {}
    basic: list = []
    element_card: dict = {}
    for c in spec.cards:
        if c.kind not in ("gem", "action", "element"):
            raise ValueError(f"card {c.id}: the GETGEM engine plays cards of kind gem, action "
                             f"and element, not {c.kind}")
        element = c.stat("element")
        element = element if element in ELEMENTS else None
        card = Card(c.id, c.name, c.name_en or c.name, c.kind, element, wild=c.has("wild"),
                    curse=c.has("curse"), undiscardable=c.has("undiscardable"),
                    effects=tuple(c.effects))
        if c.kind == "action" and not c.effects:
            raise ValueError(f"card {c.id}: an action card needs an effect (`does NAME`)")
        if c.kind == "element":
            if element is None or element in element_card or c.copies != 1:
                raise ValueError(f"card {c.id}: one element card of each element, fire, water "
                                 "and thunder (getgem.md R2.6)")
            element_card[element] = c.id
        else:
            basic.extend([c.id] * c.copies)
        cards[c.id] = card
    if sorted(element_card) != sorted(ELEMENTS):
        raise ValueError("the GETGEM engine needs one element card of each element: fire, "
                         "water and thunder (getgem.md R2.6)")
    effects = {e.name: e for e in spec.effects}
    responders = frozenset(i for i, c in cards.items()
                           if any(effects[e].response for e in c.effects))
    gems = frozenset(i for i, c in cards.items() if c.kind == "gem")
    undiscardable = frozenset(i for i, c in cards.items() if c.undiscardable)
    uses = {}
    for i, c in cards.items():
        if c.kind == "action":
            words = [e for e in c.effects if not effects[e].response]
            uses[i] = tuple((e if len(c.effects) > 1 else None, e) for e in words)
    return CardTable(cards, tuple(basic), element_card, effects, gems, undiscardable,
                     responders,
                     gem_elements={i: c.element for i, c in cards.items()
                                   if c.kind == "gem" and c.element is not None},
                     payable=gems - undiscardable, uses=uses)
