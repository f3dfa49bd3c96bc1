"""Imitation World bots that see only what a player sees: their seat's observation
(IW R22.4) and legal actions, through a view with ``observation()`` and
``legal_actions()`` (wgdsl.tools.gamefile.SeatView), and the card set (public, as printed).
``agents(table)`` maps a name to a function of a seed."""

from __future__ import annotations

import random

from wgdsl.kernel.bots import RandomBot


class GreedyBot:
    """Builds its cost zone and plays its strongest cards, attacks where it wins:

    - barriers: its costliest cards (a destroyed barrier comes back to the hand later in
      the game, when the cost zone can pay for it);
    - cost: its cheapest card into its pile (never starting a second faction);
    - main: plays the costliest playable card (enchants only on its own geuda; eventi on
      their first target), then uses activated abilities on its own geuda;
    - attack: each geuda that can attacks a pān geuda it outlasts (its ATK ≥ the target's
      DEF, the target's ATK < its DEF), else the player unless a ripān geuda of the
      opponent could block it and survive; a linked attack takes everyone;
    - block: the geuda that survives the attack (DEF above the attacking side's ATK), or, with
      no barrier left, any geuda in front of its aga;
    - questions: `yes` to a "may", the first option otherwise."""

    def __init__(self, seed: int, table):
        self.rnd = random.Random(seed)
        self.table = table

    def _cost(self, ident: str) -> int:
        c = self.table.cards.get(ident)
        return c.cost if c is not None else 0

    def act(self, view):
        legal = view.legal_actions()
        obs = view.observation()
        texts = [str(a) for a in legal]
        by = dict(zip(texts, legal))
        kind = (obs["decision"] or {}).get("kind")
        me = obs["seat"]
        if kind == "barrier":
            return max(legal, key=lambda a: (self._cost(str(a).split()[1]), str(a)))
        if kind == "yes_no":
            return by.get("yes", legal[0])
        if kind == "cost":
            return self._place(obs, me, texts, by)
        if kind == "main":
            return self._main(me, texts, by)
        if kind == "attack":
            return self._attack(obs, me, texts, by)
        if kind == "join":
            joins = [t for t in texts if t.startswith("join")]
            return by[joins[0]] if joins else by["done"]
        if kind == "block":
            return self._block(obs, me, texts, by)
        return legal[0]

    def _place(self, obs, me, texts, by):
        plain = [t for t in texts if t.startswith("cost") and "mark" not in t]
        if not plain:
            return by["next"]
        return by[min(plain, key=lambda t: (self._cost(t.split()[1]), t))]

    def _main(self, me, texts, by):
        plays = [t for t in texts if t.startswith("play")
                 and (" on " not in t or f" on {me}:" in t)]
        if plays:
            return by[max(plays, key=lambda t: (self._cost(t.split()[1]), t))]
        acts = [t for t in texts if t.startswith("activate") and f"target {me}:" in t]
        if acts:
            return by[acts[0]]
        return by["next"]

    def _attack(self, obs, me, texts, by):
        foe = "B" if me == "A" else "A"
        mine = {e["ref"]: e for e in obs["players"][me]["set"]}
        theirs = {e["ref"]: e for e in obs["players"][foe]["set"]}
        attacks = [t for t in texts if t.startswith("attack")]
        for t in attacks:
            _, ref, target = t.split()
            if target != "player":
                a, d = mine[ref], theirs[target]
                if a["atk"] >= d["def"] and d["atk"] < a["def"]:
                    return by[t]
        walls = [e for e in theirs.values() if not e["pan"] and not e["blocked"]
                 and e["type"] == "geuda"]
        for t in attacks:
            if t.endswith(" player"):
                a = mine[t.split()[1]]
                if not any(w["def"] > a["atk"] for w in walls):
                    return by[t]
        return by["next"]

    def _block(self, obs, me, texts, by):
        att = obs["attack"] or {}
        foe = "B" if me == "A" else "A"
        sets = {e["ref"]: e for s in (me, foe) for e in obs["players"][s]["set"]}
        total = sum(sets[r]["atk"] for r in att.get("attackers", []) if r in sets)
        if att.get("blockers"):
            return by["done"]
        blocks = [t for t in texts if t.startswith("block")]
        safe = [t for t in blocks if sets[t.split()[1]]["def"] > total]
        if safe:
            return by[safe[0]]
        if blocks and not obs["players"][me]["barriers"]:
            return by[blocks[0]]
        return by["done"]


def agents(table=None) -> dict:
    """name -> a function of a seed that returns the bot (``wgdsl play --agent``)."""
    return {"random": RandomBot, "greedy": lambda seed: GreedyBot(seed, table)}
