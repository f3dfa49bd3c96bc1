"""Imitation World bots that see only what a player sees: their seat's observation
(IW R22.4) and legal actions, through a view with ``observation()`` and
``legal_actions()`` (wgdsl.tools.gamefile.SeatView).  ``agents()`` maps a name to a
function of a seed."""

from __future__ import annotations

import random

from wgdsl.kernel.bots import RandomBot


class GreedyBot:
    """Plays what it can, attacks whenever it can: places a cost card every turn (its
    hand's last id, joining a pile, never starting a second faction); plays the playable
    card whose id sorts last (enchants on its own geuda); attacks the player with each
    geuda; blocks with every geuda that can, front first as offered; answers a question
    with its first option, `yes` to a "may"."""

    def __init__(self, seed: int):
        self.rnd = random.Random(seed)

    def act(self, view):
        legal = view.legal_actions()
        obs = view.observation()
        me = obs["seat"]
        texts = [str(a) for a in legal]
        kind = (obs["decision"] or {}).get("kind")
        if kind == "barrier":
            return legal[self.rnd.randrange(len(legal))]
        if kind == "yes_no":
            return legal[texts.index("yes")] if "yes" in texts else legal[0]
        if kind == "cost":
            plain = [a for a, t in zip(legal, texts) if t.startswith("cost") and "mark" not in t]
            return plain[-1] if plain else legal[-1]
        if kind == "main":
            plays = [a for a, t in zip(legal, texts) if t.startswith("play")
                     and (" on " not in t or f" on {me}:" in t)]
            acts = [a for a, t in zip(legal, texts) if t.startswith("activate")
                    and f"target {me}:" in t]
            return (plays or acts or legal)[-1] if (plays or acts) else _next(legal, texts)
        if kind == "attack":
            hits = [a for a, t in zip(legal, texts) if t.startswith("attack")
                    and t.endswith(" player")]
            return hits[0] if hits else _next(legal, texts)
        if kind == "join":
            joins = [a for a, t in zip(legal, texts) if t.startswith("join")]
            return joins[0] if joins else legal[-1]
        if kind == "block":
            blocks = [a for a, t in zip(legal, texts) if t.startswith("block")]
            return blocks[0] if blocks else legal[0]
        return legal[0]


def _next(legal, texts):
    return legal[texts.index("next")] if "next" in texts else legal[-1]


def agents() -> dict:
    """name -> a function of a seed that returns the bot (``wgdsl play --agent``)."""
    return {"random": RandomBot, "greedy": GreedyBot}
