"""Agents: who makes a player's decisions.

Every decision goes through one interface: ``act(view, actions)`` picks the next action
among ``actions`` (the seat's legal actions), and ``answer(view, question)`` answers a
question an effect asks (a :class:`Question` lists its options as answer strings: a
square, a card id, ``slot N``, ``yes``/``no`` or a color).  ``view`` is the deciding
seat's :class:`~.view.SeatView`: what that seat may know and nothing more (engine-api.md:
agents never see the state).  The engine asks with it (``Game.view(seat)``); a tool that
drives a game passes the acting seat's.  A view keeps a reference to the game for its
own use (``_game``); an agent that reads it cheats.

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
from .engine import WIN_POINTS
from .state import BATTLE_ROW
from .view import SeatView


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

    def act(self, view: SeatView, actions: Sequence):  # pragma: no cover - interface
        raise NotImplementedError

    def answer(self, view: SeatView, question: Question) -> str:  # pragma: no cover - interface
        raise NotImplementedError


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits

    # rng.choice(seq) is seq[_randbelow(len(seq))], and _randbelow(n) draws getrandbits(k)
    # (k = n's bit length) until it is below n: the very numbers randrange(len(seq)) draws.
    # Done here with the generator's C method (hot path: two Python calls an action fewer),
    # the same games.
    def act(self, view, actions):
        n = len(actions)
        if not n:
            raise IndexError("no action to choose from")
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return actions[r]

    def answer(self, view, question):
        return self.rng.choice(question.options)


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

    def act(self, view, actions):
        if not self.actions:
            raise ScriptExhausted("no scripted action left")
        want = self.actions.pop(0)
        return want

    def answer(self, view, question):
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


# the outcomes after which the played card holds its square
_TAKES = (rules.PLACE, rules.STACK, rules.SEIZE, rules.REPLACE)


class GreedyAgent(Agent):
    """Prefers wins, then points, then seizing (issue spec); otherwise develops.

    In the standby phase it sets the hand card least worth playing as a stun; in the
    gain phase it looks for the best play it could afford with everything it could
    still generate, then generates exactly what that play needs.  It reads nothing but
    its view: its choice is the same in every state its seat cannot tell apart
    (tests/test_views.py).
    """

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    # -------------------------------------------------------------- actions
    def act(self, view, actions):
        kinds: dict = {}  # kind -> its actions, in order (no empty list made per action)
        for a in actions:
            same = kinds.get(a.kind)
            if same is None:
                kinds[a.kind] = [a]
            else:
                same.append(a)
        if view.phase == "standby":
            return self._standby(view, kinds)
        if "play" in kinds:
            best = self._best_play(view, kinds["play"])
            if best is not None:
                return best
        # generate points toward an affordable good play
        step = self._generate(view, kinds)
        if step is not None:
            return step
        return kinds["next"][0]

    def _standby(self, view, kinds):
        if "set_stun" in kinds:
            hand = {a.card: view.library[a.card] for a in kinds["set_stun"]}
            # keep the card most worth playing; stun the one with the best stun value/cost
            pick = max(kinds["set_stun"], key=lambda a: (hand[a.card].stun, -hand[a.card].cost,
                                                          a.card))
            stuns = sum(1 for s in view.standby() if s is not None)
            if stuns < 4 or view.hand_count() > 4:
                return pick
        return kinds["next"][0]

    def _best_play(self, view, plays):
        """The play with the best score (the first of equals), if a fresh draw of its
        random part still scores it above 0; else None.  A score is the play's value
        plus a random number in [0, 1): one draw per play, in order, then one for the
        best (the agent's random sequence is part of its reproducible games)."""
        me = view.seat
        points = view.points()
        battle = sum(1 for sq in BATTLE_ROW if view.holder(sq) == me)
        rng = self.rng
        best = best_score = best_value = None
        for a in plays:
            value = self._play_value(view, a, points, battle)
            score = value + rng.random()
            if best is None or score > best_score:
                best, best_score, best_value = a, score, value
        return best if best_value + rng.random() > 0 else None

    def _play_value(self, view, action, points: int, battle: int) -> float:
        """What a play is worth: 1000 when it wins (R12.2 points, R12.1 the battle
        row), 10 a point it gains, 8 a point it takes from the opponent, 20 a seizure.
        ``points`` and ``battle`` are the seat's points and battle squares now."""
        card = view.library[action.card]
        square = action.square
        outcome = view.play_outcome(card, square, action.copy)[0]
        gained = card.cost
        lost_opp = 0
        if outcome == rules.REPLACE:
            gained -= view.square_points(square)
        elif outcome == rules.SEIZE:
            lost_opp = view.square_points(square)
        elif outcome in (rules.AIKO, rules.TRADE):
            gained, lost_opp = 0, view.top(square).cost
        if square in BATTLE_ROW:  # after the play the square is the seat's iff the card took it
            battle += (outcome in _TAKES) - (view.holder(square) == view.seat)
        value = 0.0
        if points + gained >= WIN_POINTS or battle == 3:
            value += 1000
        value += 10 * gained + 8 * lost_opp
        if outcome == rules.SEIZE:
            value += 20
        return value

    def _generate(self, view, kinds):
        """Exhaust stuns when an affordable play would follow (never break cards)."""
        if view.played or "exhaust" not in kinds:
            return None
        standby = view.standby()
        potential = dict(view.pool())
        for s in standby:
            if s is not None and not s.exhausted:
                potential[s.card.color] = potential.get(s.card.color, 0) + s.card.stun
        for card in view.hand():
            if view.payment(card, potential) is not None and view.payment(card) is None:
                # exhaust a stun of the needed color first
                for a in kinds["exhaust"]:
                    s = standby[a.slot - 1]
                    if s.card.color == card.color or card.color == "yellow":
                        return a
                return kinds["exhaust"][0]
        return None

    # -------------------------------------------------------------- questions
    def answer(self, view, question):
        opts = question.options
        if question.kind == "yes_no":
            return "yes"
        return opts[self.rng.randrange(len(opts))]


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int) -> Agent:
    return AGENTS[name](seed)
