"""The bot every game has: uniform among the legal actions a seat is offered.

It sees only what engine-api.md gives an agent — a view with ``legal_actions()`` (and
``observation()``, which it never needs) — and draws from its own seeded generator, so a
game between random bots is reproducible from its seeds.
"""

from __future__ import annotations

import random


class RandomBot:
    def __init__(self, seed: int):
        self.rnd = random.Random(seed)

    def act(self, view):
        legal = view.legal_actions()
        return legal[self.rnd.randrange(len(legal))]
