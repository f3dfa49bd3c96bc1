"""The example game files as games (factories another process can import, for
tests/engine_api_props.py's check_determinism), and what the tests read off them."""

from __future__ import annotations

from collections import Counter
from math import factorial
from pathlib import Path

from wgdsl.games.described import load_game_file

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "games"
RPS = EXAMPLES / "rock-paper-scissors.game"
WAR = EXAMPLES / "war.game"
HANDS = Path(__file__).resolve().parent / "games" / "hands.game"


def rock_paper_scissors():
    return load_game_file(RPS)


def war():
    return load_game_file(WAR)


def hands():
    return load_game_file(HANDS)


def all_cards(state) -> Counter:
    """Every card id in the game as the spec lists it, copies counted."""
    return Counter({c.id: c.copies for c in state.spec.cards})


def cards_in_play(data: dict) -> Counter:
    """Every card id in a to_dict(): the zones (shared or per seat) and the played cards."""
    found: Counter = Counter()
    for cards in list(data["zones"].values()) + [data["played"]]:
        for pile in (cards.values() if isinstance(cards, dict) else [cards]):
            found.update(pile)
    return found


def has_hidden(state, seat: str) -> bool:
    """Something ``seat`` cannot see that a re-deal would change with near certainty: the
    cards its observation shows as None can be laid out in at least 50 ways (so four
    resamples all dealing them as they are is a one-in-six-million chance), or another
    seat has committed in an open window.  Read from observation and to_dict only."""
    if state.to_dict()["commits"].keys() - {seat}:
        return True
    seen, whole = state.observation(seat), state.to_dict()
    hidden: Counter = Counter()
    for name in seen["zones"]:
        for shown, true in zip(_piles(seen["zones"][name]), _piles(whole["zones"][name])):
            hidden.update(t for s, t in zip(shown, true) if s is None)
    for shown, true in zip(_piles(seen["played"]), _piles(whole["played"])):
        hidden.update(t for s, t in zip(shown, true) if s is None)
    ways = factorial(sum(hidden.values()))
    for n in hidden.values():
        ways //= factorial(n)
    return ways >= 50


def _piles(cards):
    return [cards[k] for k in sorted(cards)] if isinstance(cards, dict) else [cards]
