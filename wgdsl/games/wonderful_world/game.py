"""It's a Wonderful World's Game object (IAW R22.5), built from its game file."""

from __future__ import annotations

from typing import Any, Optional

from wgdsl.kernel.rng import MASK, below, shuffled
from wgdsl.lang.game.rule_functions import rule_function
from wgdsl.lang.game.spec import GameSpec

from .cards import card_table
from .state import Data, Seat, WWState

MIN_DECK = {1: 40, 2: 80}  # R5.7 (3-5 players: 28 a player)
SOLO_PILES, PILE_SIZE = 8, 5  # R20.1


class WonderfulWorld:
    """engine-api.md's Game: ``id``, ``name``, ``seat_range``, ``new_state``; ``agents``,
    ``reasons`` and ``render`` for the tools."""

    def __init__(self, spec: GameSpec, effects: dict):
        self.spec = spec
        self.id = spec.id
        self.name = spec.name
        self.table = card_table(spec)
        self.seat_range = tuple(spec.seat_range)  # (1, 5): one seat is solo (IAW R20)
        self.options = ("empire_side", "empires")
        self.warnings: tuple = ()
        self.reasons = {"R18.1": "most VP", "R18.2": "tie broken by constructed cards",
                        "R18.3": "tie broken by characters", "R18.4": "shared victory",
                        "R20.6": "solo: a title"}
        from .agents import agents

        self.agents = agents(self.table)
        self.load_file = None

    def __repr__(self) -> str:
        return f"<WonderfulWorld {self.id} from {self.spec.path}>"

    def new_state(self, seed: int = 0, seats: Optional[int] = None, decks: Any = None,
                  cards: Any = None, options: Optional[dict] = None) -> WWState:
        low, high = self.seat_range
        count = low if seats is None else seats
        if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
            raise ValueError(f"{self.name} is played by {low} to {high} seats (IAW R1.1), "
                             f"not {seats!r}")
        if decks is not None or cards is not None:
            raise ValueError(f"{self.name} plays its whole set: decks= and cards= do not apply "
                             "(IAW R22.5)")
        values = dict(options or {})
        unknown = [k for k in values if k not in self.options]
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; the options are empire_side "
                             "(\"A\" or \"B\") and empires (a list of empire ids)")
        side = values.get("empire_side", "A")
        if side not in ("A", "B"):
            raise ValueError(f"option empire_side: \"A\" or \"B\", not {side!r} (IAW R4.2)")
        names = tuple(self.spec.seat_names[:count])
        deck = self.table.deck()
        need = MIN_DECK.get(count, 28 * count)
        if len(deck) < need:
            raise ValueError(f"{count} players need a deck of {need} cards; this set has "
                             f"{len(deck)} (IAW R5.7)")
        rng = shuffled(int(seed) & MASK, deck)
        empires = values.get("empires")
        ids = sorted(self.table.empires)
        if empires is None:
            pool = list(ids)
            empires = []
            for _ in names:  # R4.1: dealt at random by the game seed
                rng, k = below(rng, len(pool))
                empires.append(pool.pop(k))
        elif (not isinstance(empires, (list, tuple)) or len(empires) != count
              or len(set(empires)) != count or any(e not in ids for e in empires)):
            raise ValueError(f"option empires: {count} distinct empire ids of {', '.join(ids)} "
                             "(IAW R4.1)")
        d = Data()
        d.round, d.phase, d.pick, d.step, d.side = 1, "draft", 1, 0, side
        d.deck, d.discard = deck, []
        d.players = {s: Seat.new(e) for s, e in zip(names, empires)}
        d.produced, d.supremacy, d.opened, d.opened_discard = {}, [], {}, []
        d.rng, d.log, d.over, d.result = rng, [], False, None
        d.piles = []
        if count == 1:  # R20.1: pile 1 is the top 5 cards, pile 2 the next 5, ...
            d.piles = [[d.deck.pop() for _ in range(PILE_SIZE)] for _ in range(SOLO_PILES)]
        state = WWState(self, names, d)
        state.note(None, "setup", f"{count} player{'s' if count > 1 else ''}, side {side}; empires: "
                   + ", ".join(f"{s} {e}" for s, e in zip(names, empires)))
        state.start_round()
        return state

    def render(self, state: WWState) -> str:
        lines = []
        for seat, p in state.d.players.items():
            score = state.d.result["scores"][seat] if state.d.result else None
            lines.append(f"{seat} {p.empire}: constructed {' '.join(sorted(p.built)) or '-'}; "
                         f"under construction {len(p.building)}; cubes {p.cubes}, krystallium "
                         f"{p.kry}, financiers {p.fin}, generals {p.gen}"
                         + (f"; {score} VP" if score is not None else ""))
        return "\n".join(lines)


@rule_function("engine")
def game_from_spec(spec: GameSpec, effects: dict) -> WonderfulWorld:
    """The game of a wonderful-world game file (``played by``)."""
    return WonderfulWorld(spec, effects)
