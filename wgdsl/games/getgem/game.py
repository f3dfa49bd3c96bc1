"""GETGEM's Game object (getgem.md R18.1–R18.2), built from its game file.

``getgem.game`` names :func:`game_from_spec` with ``played by``; loading the file (any
copy of it, a designer's variant set included) builds the card table once and checks that
the file gives what the engine needs.
"""

from __future__ import annotations

from typing import Any, Optional

from wgdsl.kernel.rng import MASK, shuffled
from wgdsl.lang.game.rule_functions import rule_function
from wgdsl.lang.game.spec import GameSpec

from .cards import card_table
from .state import CAP, WIN, Data, GGState

DEAL = 4  # GG R3.2


class GetgemGame:
    """engine-api.md's Game for GETGEM: ``id``, ``name``, ``seat_range``, ``new_state``;
    ``agents`` (the bots ``wgdsl play --agent`` can name), ``reasons`` and ``render``."""

    def __init__(self, spec: GameSpec, effects: dict):
        self.spec = spec
        self.id = spec.id
        self.name = spec.name
        self.seat_range = tuple(spec.seat_range)
        self.table = card_table(spec)
        missing = [e for e in self.table.effects if e not in effects]
        if missing:  # pragma: no cover - the loader resolves every effect it lists
            raise ValueError(f"effects without a rule function: {', '.join(missing)}")
        self.effect_functions = dict(effects)
        # seats -> {seat: its SeatMoves}, built on first use and shared by every state of
        # this game (bounded: 4 tables of 2-5 seats)
        self.seat_moves: dict = {}
        self.options = ("first", "max_turns")
        self.warnings: tuple = ()
        # set by the game-file loader that built this game: reads a variant file
        # (new_state(cards=PATH)); GameFileError (a ValueError) when it has errors
        self.load_file = _no_loader
        self.reasons = {WIN: "a victory check: the three gems", CAP: "the turn cap: nobody wins"}
        from .agents import agents

        self.agents = agents(self.table)

    def __repr__(self) -> str:
        return f"<GetgemGame {self.id} from {self.spec.path}>"

    def seat_names(self, count: int) -> tuple:
        return tuple(self.spec.seat_names[:count])

    def check_seats(self, seats: Any) -> int:
        low, high = self.seat_range
        count = low if seats is None else seats
        if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
            raise ValueError(f"{self.name} is played by {low} to {high} seats (GG R1.1), "
                             f"not {seats!r}")
        return count

    def check_options(self, options: Optional[dict], names: tuple) -> tuple:
        """(first seat, max_turns) from ``options`` (GG R18.2); ValueError otherwise."""
        values = dict(options or {})
        unknown = [k for k in values if k not in self.options]
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; {self.name}'s options are first "
                             "(a seat) and max_turns (a whole number)")
        first = values.get("first", names[0])
        if first not in names:
            raise ValueError(f"option first: one of the seats {', '.join(names)}, not {first!r}")
        spec = self.spec.option("max_turns")
        turns = values.get("max_turns", spec.default)
        if isinstance(turns, str):
            try:
                turns = int(turns, 10)
            except ValueError:
                turns = None
        if isinstance(turns, bool) or not isinstance(turns, int) or not spec.low <= turns <= spec.high:
            raise ValueError(f"option max_turns: a whole number from {spec.low} to {spec.high}, "
                             f"not {values.get('max_turns')!r} (GG R15)")
        return first, turns

    def new_state(self, seed: int = 0, seats: Optional[int] = None, decks: Any = None,
                  cards: Any = None, options: Optional[dict] = None) -> GGState:
        """A new game set up by GG R3 from ``seed``, waiting in the first player's action
        phase after its draw (GG R18.2).  ``cards``: a game file of a variant set (a copy
        of getgem.game), or None for this one."""
        if decks is not None:
            raise ValueError(f"{self.name} plays with its whole set: there are no decks "
                             "(decks= must be None, GG R18.2)")
        if cards is not None:
            other = self.load_file(cards)
            if not isinstance(other, GetgemGame):
                raise ValueError(f"cards={cards!r} is not a GETGEM game file")
            return other.new_state(seed, seats, None, None, options)
        count = self.check_seats(seats)
        names = self.seat_names(count)
        first, turns = self.check_options(options, names)
        d = Data()
        d.turn, d.active, d.first, d.phase = 1, first, first, "action"
        d.peeping_used, d.max_turns = False, turns
        pile = list(self.table.basic)
        d.rng = shuffled(int(seed) & MASK, pile)
        d.hands = {s: [] for s in names}
        order = names[names.index(first):] + names[:names.index(first)]
        for _ in range(DEAL):  # GG R3.2: one at a time from the first player, from the top
            for s in order:
                d.hands[s].append(pile.pop(0))
        d.deck = list(reversed(pile))  # kept top last
        d.discard = []
        d.elements = {s: [] for s in names}
        d.declared = {s: [] for s in names}
        d.known = {v: {h: [] for h in names if h != v} for v in names}
        d.q, d.winner, d.reason, d.over = None, None, "", False
        d.revealed, d.won_hand, d.log = [], (), []
        state = GGState(self, names, d)
        state.note("", "setup", f"{count} seats; {first} plays first; each seat is dealt "
                                f"{DEAL} cards; {len(d.deck)} cards in the deck")
        state.start_turn()
        return state

    def render(self, state: GGState) -> str:
        from .text import render_table

        return render_table(state)


def _no_loader(path):
    raise ValueError("this GETGEM was not loaded from a game file: cards= is not available")


@rule_function("engine")
def game_from_spec(spec: GameSpec, effects: dict) -> GetgemGame:
    """The GETGEM game of a game file (``played by``)."""
    return GetgemGame(spec, effects)
