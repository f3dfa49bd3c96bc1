"""Imitation World's Game object (IW R24.1), built from its game file.

``imitation-world.game`` names :func:`game_from_spec` with ``played by``; loading it reads
the card set it names (IW01 by default) in the game's words, once, into a
:class:`~.cards.CardTable` whose abilities are compiled records (:mod:`.abilities`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import attrs

from wgdsl.kernel.rng import MASK
from wgdsl.lang.cards import card_set_path
from wgdsl.lang.game.rule_functions import rule_function

from . import rules
from .cards import CardTable, table_of
from .decks import REFERENCE_DECKS
from .state import SEATS, IWState, empty_data

DEFAULT_DECKS = {"A": "existence-wall", "B": "fantasy-dreams"}  # R24.1
MAX_TURNS = 500  # R20.6
OPTIONS = ("variant", "first", "max_turns")


@attrs.frozen
class Deck:
    """A deck (R4.7): its ``name``, its ``aga`` id and its ``cards`` (ids, one per copy)."""

    name: str
    aga: str
    cards: tuple


def _compiler():
    """The card language's compiler of Imitation World abilities, when it has one."""
    try:
        from .compile import compile_card
    except ImportError:
        return None
    return compile_card


class ImitationWorld:
    """engine-api.md's Game for Imitation World: ``id``, ``name``, ``seat_range``,
    ``new_state``; ``agents`` (the bots ``wgdsl play --agent`` can name)."""

    id = "imitation-world"
    name = "Imitation World"
    seat_range = (2, 2)
    seats = SEATS
    options = OPTIONS
    deck_names = REFERENCE_DECKS  # the built-in decks new_state takes by name (R4.7)

    def __init__(self, spec=None):
        self.spec = spec
        self._tables: dict = {}
        # reference decks read and validated, by (name, table, variant): reading one was
        # 9/10 of new_state
        self._decks: dict = {}
        self.warnings: tuple = ()
        self.load_file = None
        self.reasons = {"R20.1": "an aga destroyed", "R20.2": "an empty deck at the draw phase",
                        "R20.6": "the turn cap: nobody wins"}
        from wgdsl.kernel.bots import RandomBot

        from .agents import GreedyBot

        # the bots `wgdsl play --agent` can name; the greedy one reads the card set (public)
        self.agents = {"random": RandomBot, "greedy": lambda seed: GreedyBot(seed, self.table())}

    def __repr__(self) -> str:
        return "<ImitationWorld>"

    # ------------------------------------------------------------------ cards and decks
    def table(self, cards: Any = None) -> CardTable:
        """The card table of ``cards`` (a card file; None: the game file's set)."""
        if isinstance(cards, CardTable):
            return cards
        key = None if cards is None else str(cards)
        found = self._tables.get(key)
        if found is None:
            from wgdsl.lang.cards import load_cards
            from wgdsl.lang.vocabulary import Vocabulary

            path = card_set_path(self.spec) if cards is None else Path(cards)
            vocabulary = Vocabulary.from_spec(self.spec) if self.spec is not None else None
            library = load_cards(path, vocabulary)
            found = self._tables[key] = table_of(library, str(path), _compiler())
        return found

    def deck(self, deck: Any, table: CardTable, variant: str = "main") -> Deck:
        """A deck from a :class:`Deck` (or any object with ``aga`` and ``cards``), a dict
        ``{"aga": id, "cards": [ids]}``, or a reference deck's name or a deck file (R4.7,
        read by :mod:`.decks`).  ValueError cites R4 for an illegal deck (R4.6)."""
        cached = self._decks.get(("built", str(deck), id(table), variant)) \
            if isinstance(deck, str) else None
        if cached is not None:
            return cached
        built = self._build_deck(deck, table, variant)
        if isinstance(deck, str) and not Path(deck).exists() and len(self._decks) < 64:
            self._decks[("built", deck, id(table), variant)] = built  # a reference deck
        return built

    def _build_deck(self, deck: Any, table: CardTable, variant: str) -> Deck:
        if isinstance(deck, dict):
            deck = Deck(str(deck.get("name", "deck")), deck["aga"], tuple(deck["cards"]))
        elif isinstance(deck, (str, Path)):
            try:
                from .decks import load_deck
            except ImportError:
                raise ValueError(f"deck {deck!r}: reading decks by name or file needs "
                                 "wgdsl.games.imitation_world.decks (R4.7)") from None
            deck = load_deck(deck, table, variant=variant)
        ids = [deck.aga, *deck.cards]
        missing = sorted({i for i in ids if i not in table})
        if missing:
            raise ValueError(f"deck {getattr(deck, 'name', '')}: cards not in the set: "
                             f"{', '.join(missing)} (R4.7)")
        aga_card = table[deck.aga]
        problems = rules.deck_problems([table[i].deck_card() for i in deck.cards],
                                       aga_card.aga() if aga_card.type == "aga" else None,
                                       variant)
        if aga_card.type != "aga":
            problems += (rules.Problem("IW R4.3", f"{deck.aga} is not an aga"),)
        if problems:
            raise ValueError(f"deck {getattr(deck, 'name', '')} is illegal: "
                             + "; ".join(f"{p.message} ({p.rule})" for p in problems))
        return Deck(getattr(deck, "name", "deck"), deck.aga, tuple(deck.cards))

    # ------------------------------------------------------------------ options
    def check_options(self, options: Optional[dict]) -> tuple:
        values = dict(options or {})
        unknown = [k for k in values if k not in OPTIONS]
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; Imitation World's options are "
                             "variant (main or starter), first (A or B) and max_turns (R24.1)")
        variant = values.get("variant", "main")
        if variant not in rules.VARIANTS:
            raise ValueError(f"option variant: main or starter, not {variant!r} (R4.5)")
        first = values.get("first")
        if first is not None and first not in SEATS:
            raise ValueError(f"option first: A or B, not {first!r} (R5.5)")
        turns = values.get("max_turns", MAX_TURNS)
        if isinstance(turns, str) and turns.isdigit():
            turns = int(turns)
        if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
            raise ValueError(f"option max_turns: a whole number of 1 or more, not "
                             f"{values.get('max_turns')!r} (R20.6)")
        return variant, first, turns

    # ------------------------------------------------------------------ a new game
    def new_state(self, seed: int = 0, seats: Optional[int] = None, decks: Any = None,
                  cards: Any = None, options: Optional[dict] = None) -> IWState:
        """A new game (R24.1) waiting for A's first barrier choice (R5.2)."""
        if seats not in (None, 2):
            raise ValueError(f"Imitation World is played by 2 seats (R1.1), not {seats!r}")
        variant, first, turns = self.check_options(options)
        table = self.table(cards)
        given = dict(DEFAULT_DECKS)
        if isinstance(decks, (list, tuple)) and len(decks) == len(SEATS):
            decks = dict(zip(SEATS, decks))  # in seat order, as World Gainer takes them
        if decks is not None:
            if not isinstance(decks, dict) or set(decks) != set(SEATS):
                raise ValueError("decks= is {\"A\": deck, \"B\": deck} or [deck A, deck B]: "
                                 "a reference deck's "
                                 "name, a deck file or a deck (R24.1)")
            given = decks
        built = {s: self.deck(given[s], table, variant) for s in SEATS}
        cid, owner = [], []
        for s in SEATS:
            for i in (built[s].aga, *built[s].cards):
                cid.append(i)
                owner.append(s)
        d = empty_data(owner, cid, turns)
        for u, s in enumerate(owner):
            if cid[u] == built[s].aga and s not in d.aga:
                d.aga[s] = u
                d.kn[u] = 1 if s == "A" else 2
            else:
                d.deck[s].append(u)
        d.rng = int(seed) & MASK
        d.first = first
        state = IWState(self, table, d)
        state.note("", "setup", f"A plays {built['A'].name}, B plays {built['B'].name}; each "
                                "chooses 5 barriers (R5.2)")
        return state

    def render(self, state: IWState) -> str:
        from .text import render_table

        return render_table(state)


@rule_function("engine")
def game_from_spec(spec, effects: dict) -> ImitationWorld:
    """The Imitation World game of its game file (``played by``)."""
    if effects:
        raise ValueError("Imitation World's abilities are written on its cards, in the card "
                         "language; the game file declares no effect")
    if spec.card_set is None:
        raise ValueError('the Imitation World engine needs its cards (`cards "iw01"`)')
    return ImitationWorld(spec)
