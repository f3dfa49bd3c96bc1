"""GETGEM bots that see only what a player sees: their seat's observation (getgem.md
R18.4) and legal actions, through a view with ``observation()`` and ``legal_actions()``
(wgdsl.tools.gamefile.SeatView).  ``AGENTS`` maps a name to a function of a seed.
"""

from __future__ import annotations

import random

from wgdsl.kernel.bots import RandomBot

from wgdsl.kernel.decision import Answer


class GreedyBot:
    """Plays toward a declaration: declares whenever it can; trades for an element card it
    lacks; uses a Barrier whenever it holds one; steals (cards, then a gem steal) from the
    seat with the most cards; keeps gems at the hand limit, the arm and the push and hands
    back an action card; takes back action cards first.  Ties go to the first listed."""

    def __init__(self, seed: int, table):
        self.rnd = random.Random(seed)
        self.table = table  # the card set: public, as printed on the cards

    def act(self, view):
        legal = view.legal_actions()
        obs = view.observation()
        if isinstance(legal[0], Answer):
            return self._answer(obs, legal)
        by_kind: dict = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if "declare" in by_kind:
            return by_kind["declare"][0]
        if "element" in by_kind:
            return by_kind["element"][0]
        sizes = obs["hand_sizes"]
        richest = max((s for s in obs["seats"] if s != obs["seat"]), key=lambda s: sizes[s])
        for kind in ("use", "gem_steal"):
            aimed = [a for a in by_kind.get(kind, ()) if a.target in (richest, None)
                     and a.effect != "peeping" and sizes[richest] > 0]
            if kind == "gem_steal" and len(obs["hand"]) < 7:
                continue  # gems are kept for a declaration unless the hand is full
            if aimed:
                return aimed[self.rnd.randrange(len(aimed))]
        return by_kind.get("end", by_kind.get("pass", legal))[0]

    def _answer(self, obs: dict, legal: list):
        options = [a.option for a in legal]
        if "barrier" in options:
            return legal[options.index("barrier")]
        kind = obs["question"]["kind"]
        cards = [(o.split()[-1], a) for o, a in zip(options, legal)]
        is_gem = self.table.is_gem
        if kind in ("arm_take", "take_back"):  # a gem into the hand first
            ranked = sorted(cards, key=lambda c: not is_gem(c[0]))
        else:  # away from the hand: an action card first, a curse before any gem
            ranked = sorted(cards, key=lambda c: (is_gem(c[0]) and not self.table.cards[c[0]].curse))
        return ranked[0][1]


def agents(table) -> dict:
    """name -> a function of a seed that returns the bot (``wgdsl play --agent``)."""
    return {"random": RandomBot, "greedy": lambda seed: GreedyBot(seed, table)}
