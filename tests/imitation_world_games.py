"""Imitation World for the tests: the spec's reference decks (imitation-world.md,
"Reference decks", built here from its table, not from the engine) and the game as a
factory another process can import (engine_api_props.check_determinism)."""

import wgdsl


def _ids(a: int, b: int) -> list:
    return [f"IW-{i:03d}" for i in range(a, b + 1)]


REFERENCE = {
    "existence-wall": {"name": "existence-wall", "aga": "IW-001", "cards":
                       _ids(4, 8) + ["IW-014", "IW-016", "IW-020", "IW-023"] + _ids(25, 64)
                       + ["IW-013", "IW-017", "IW-019", "IW-022"] + _ids(105, 111)},
    "fantasy-dreams": {"name": "fantasy-dreams", "aga": "IW-002", "cards":
                       _ids(9, 12) + ["IW-015", "IW-018", "IW-021", "IW-024"] + _ids(65, 104)
                       + ["IW-013", "IW-017", "IW-019", "IW-022"] + _ids(112, 119)},
    "mask-two-faces": {"name": "mask-two-faces", "aga": "IW-003", "cards":
                       _ids(4, 7) + ["IW-014", "IW-016", "IW-020", "IW-023"] + _ids(32, 51)
                       + _ids(9, 12) + ["IW-018", "IW-021"] + _ids(80, 95)
                       + ["IW-013", "IW-017", "IW-019", "IW-022"] + _ids(105, 110)},
}
DECKS = {"A": REFERENCE["existence-wall"], "B": REFERENCE["fantasy-dreams"]}


class WithDecks:
    """The game with the reference decks given explicitly (engine-api's new_state)."""

    def __init__(self, game, decks=None):
        self.game = game
        self.id, self.name, self.seat_range = game.id, game.name, game.seat_range
        self.decks = decks or DECKS

    def new_state(self, seed=0, seats=None, decks=None, cards=None, options=None):
        return self.game.new_state(seed, seats, decks or self.decks, cards, options)


def imitation_world():
    """The game as load_game gives it: its default decks are existence-wall and
    fantasy-dreams (R24.1, read by decks.py)."""
    return wgdsl.load_game("imitation-world")


def two_faces():
    """Both seats with mask-two-faces (the 曖昧 aga: two cost piles)."""
    return WithDecks(wgdsl.load_game("imitation-world"),
                     {"A": "mask-two-faces", "B": "mask-two-faces"})
