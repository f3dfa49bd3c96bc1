"""It's a Wonderful World bots that see only their seat's observation and legal actions."""

from __future__ import annotations

import random

from wgdsl.kernel.bots import RandomBot


class GreedyBot:
    """Builds toward points: picks the card with the most VP for its cost, constructs what
    it can afford to finish and recycles the rest onto what it builds, puts every cube on a
    card under construction when one takes it, takes the General at a Science choice."""

    def __init__(self, seed: int, table):
        self.rnd = random.Random(seed)
        self.table = table

    def _value(self, ident: str) -> float:
        card = self.table.developments[ident]
        vp = sum(n * (3 if per else 1) for _, n, per in card.vp)
        produce = sum(n for _, n, _ in card.production)
        return (vp + produce) / len(card.cost)

    def act(self, view):
        legal = view.legal_actions()
        by = {}
        for a in legal:
            by.setdefault(a.kind, []).append(a)
        if "pick" in by:
            return max(by["pick"], key=lambda a: (self._value(a.args[0]), str(a)))
        if "science_bonus" in by:
            return next(a for a in by["science_bonus"] if a.args[0] == "GEN")
        for kind in ("place_character", "place_krystallium"):
            if kind in by:
                return by[kind][0]
        if "place" in by:
            onto = [a for a in by["place"] if a.args[1] != "empire"]
            return (onto or by["place"])[0]
        if "construct" in by or "recycle" in by:
            choices = by.get("construct", []) + by.get("recycle", [])
            best = max(choices, key=lambda a: self._value(a.args[0]))
            if best.kind == "construct" and len(view.observation()["players"][view.observation()["seat"]]["construction"]) < 4:
                return best
            recycle = [a for a in by.get("recycle", []) if a.args[1] != "empire"]
            return (recycle or by.get("recycle") or choices)[0]
        return by.get("done", legal)[0]


def agents(table) -> dict:
    return {"random": RandomBot, "greedy": lambda seed: GreedyBot(seed, table)}
