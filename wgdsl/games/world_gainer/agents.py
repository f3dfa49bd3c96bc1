"""Agents: who makes a player's decisions.

Every decision goes through one interface: ``act(game, actions)`` picks the next action
from ``game.legal_actions()``, and ``answer(game, question)`` answers a question an
effect asks (a :class:`Question` lists its options as answer strings: a square, a card
id, ``slot N``, ``yes``/``no`` or a color).

- :class:`RandomAgent` picks uniformly with its own seeded RNG (reproducible).
- :class:`GreedyAgent` prefers a winning play, then the play that gains most points,
  then seizing; it generates just the points a play it wants needs.
- :class:`ScriptedAgent` answers from a list (ruling cases) and fails loudly on a
  question it has no valid answer for.
"""

from __future__ import annotations

import random
from typing import Sequence

import attrs

from . import rules


@attrs.frozen
class Question:
    player: str
    kind: str  # "yes_no" or "choice"
    prompt: str
    options: tuple


class AgentError(Exception):
    """A scripted answer was missing or invalid for the question asked."""


class BadAnswer(AgentError):
    pass


class ScriptExhausted(AgentError):
    pass


class Agent:
    name = "agent"

    def act(self, game, actions: Sequence):  # pragma: no cover - interface
        raise NotImplementedError

    def answer(self, game, question: Question) -> str:  # pragma: no cover - interface
        raise NotImplementedError


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, game, actions):
        return actions[self.rng.randrange(len(actions))]

    def answer(self, game, question):
        return question.options[self.rng.randrange(len(question.options))]


class ScriptedAgent(Agent):
    """Answers questions from a list, in order; ``position`` is the next answer's index."""

    name = "scripted"

    def __init__(self, answers: Sequence[str] = (), actions: Sequence = ()):
        self.answers = [str(a) for a in answers]
        self.position = 0
        self.actions = list(actions)
        self.asked: list = []

    def remaining(self) -> list[str]:
        return self.answers[self.position:]

    def act(self, game, actions):
        if not self.actions:
            raise ScriptExhausted("no scripted action left")
        want = self.actions.pop(0)
        return want

    def answer(self, game, question):
        self.asked.append(question)
        if self.position >= len(self.answers):
            raise ScriptExhausted(
                f"{question.player} has no answer left for \"{question.prompt}\" "
                f"(options: {', '.join(question.options)})")
        ans = self.answers[self.position]
        if ans not in question.options:
            raise BadAnswer(
                f"{question.player}'s answer `{ans}` does not fit \"{question.prompt}\" "
                f"(options: {', '.join(question.options)})")
        self.position += 1
        return ans


class GreedyAgent(Agent):
    """Prefers wins, then points, then seizing (issue spec); otherwise develops.

    In the standby phase it sets the hand card least worth playing as a stun; in the
    gain phase it looks for the best play it could afford with everything it could
    still generate, then generates exactly what that play needs.
    """

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    # -------------------------------------------------------------- actions
    def act(self, game, actions):
        st = game.state
        kinds = {}
        for a in actions:
            kinds.setdefault(a.kind, []).append(a)
        if st.phase == "standby":
            return self._standby(game, kinds)
        if "play" in kinds:
            best = max(kinds["play"], key=lambda a: self._score_play(game, a))
            if self._score_play(game, best) > 0:
                return best
        # generate points toward an affordable good play
        step = self._generate(game, kinds)
        if step is not None:
            return step
        return kinds["next"][0]

    def _standby(self, game, kinds):
        if "set_stun" in kinds:
            hand = {a.card: game.library[a.card] for a in kinds["set_stun"]}
            # keep the card most worth playing; stun the one with the best stun value/cost
            pick = max(kinds["set_stun"], key=lambda a: (hand[a.card].stun, -hand[a.card].cost,
                                                          a.card))
            stuns = sum(1 for s in game.state.players[game.state.active].standby if s is not None)
            if stuns < 4 or len(game.state.players[game.state.active].hand) > 4:
                return pick
        return kinds["next"][0]

    def _score_play(self, game, action) -> float:
        st = game.state
        p = action.player
        card = game.library[action.card]
        face = None
        if action.copy is not None:
            face = st.top(action.copy).face
        outcome, _, _ = game.play_outcome(p, card, action.square, face)
        gained = card.cost
        lost_opp = 0
        stack = st.field[action.square]
        if outcome == rules.REPLACE:
            gained -= sum(i.cost for i in stack)
        elif outcome == rules.SEIZE:
            lost_opp = sum(i.cost for i in stack)
        elif outcome in (rules.AIKO, rules.TRADE):
            gained, lost_opp = 0, stack[-1].cost
        my_points = st.points(p) + gained
        battle_after = sum(1 for sq in ("C1", "C2", "C3")
                           if (sq == action.square and outcome in (rules.PLACE, rules.STACK,
                                                                     rules.SEIZE, rules.REPLACE))
                           or (sq != action.square and st.holder(sq) == p))
        score = 0.0
        if my_points >= 15 or battle_after == 3:
            score += 1000
        score += 10 * gained + 8 * lost_opp
        if outcome == rules.SEIZE:
            score += 20
        score += self.rng.random()
        return score

    def _generate(self, game, kinds):
        """Exhaust stuns when an affordable play would follow (never break cards)."""
        st = game.state
        p = st.active
        if st.played or "exhaust" not in kinds:
            return None
        me = st.players[p]
        potential = dict(me.pool)
        for s in me.standby:
            if s is not None and not s.exhausted:
                potential[s.face.color] = potential.get(s.face.color, 0) + s.face.stun
        for inst in me.hand:
            card = inst.base
            if rules.payment(potential, card.cost, card.required, card.color) is not None \
                    and rules.payment(me.pool, card.cost, card.required, card.color) is None:
                # exhaust a stun of the needed color first
                for a in kinds["exhaust"]:
                    s = me.standby[a.slot - 1]
                    if s.face.color == card.color or card.color == "yellow":
                        return a
                return kinds["exhaust"][0]
        return None

    # -------------------------------------------------------------- questions
    def answer(self, game, question):
        opts = question.options
        if question.kind == "yes_no":
            return "yes"
        return opts[self.rng.randrange(len(opts))]


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int) -> Agent:
    return AGENTS[name](seed)
