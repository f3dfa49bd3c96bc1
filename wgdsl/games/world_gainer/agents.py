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
_REPLACE, _SEIZE, _LOSE_BOTH = rules.REPLACE, rules.SEIZE, (rules.AIKO, rules.TRADE)


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
    # Hot path (a greedy game asks about 80 times): the actions of a kind are picked out
    # with a comprehension when they are needed, not grouped by kind every time.
    def act(self, view, actions):
        if view.phase == "standby":
            return self._standby(view, actions)
        if view.played:  # (R5.4: no play is left this turn, and nothing to generate for)
            return _first_next(actions)
        plays = [a for a in actions if a.kind == "play"]
        if plays:
            best = self._best_play(view, plays)
            if best is not None:
                return best
        # generate points toward an affordable good play
        step = self._generate(view, actions)
        if step is not None:
            return step
        return _first_next(actions)

    def _standby(self, view, actions):
        # (the hand's size first: when it decides, the standby is not read)
        if view.hand_count() > 4 or sum(1 for s in view.standby() if s is not None) < 4:
            # keep the card most worth playing; stun the one with the best stun value/cost
            # (the first of equals, as max() picks)
            lib = view.library
            pick = pick_key = None
            for a in actions:
                if a.kind == "set_stun":
                    card = lib[a.card]
                    key = (card.stun, -card.cost, a.card)
                    if pick is None or key > pick_key:
                        pick, pick_key = a, key
            if pick is not None:
                return pick
        return _first_next(actions)

    def _best_play(self, view, plays):
        """The play with the best score (the first of equals), if a fresh draw of its
        random part still scores it above 0; else None.  A score is the play's value
        plus a random number in [0, 1): one draw per play, in order, then one for the
        best (the agent's random sequence is part of its reproducible games)."""
        me = view.seat
        points = view.points()
        battle = 0
        mine = {}  # battle square -> does the seat hold it now
        for sq in BATTLE_ROW:
            held = mine[sq] = view.holder(sq) == me
            if held:
                battle += 1
        draw = self.rng.random
        best = best_score = best_value = None
        if type(self)._play_value is not GreedyAgent._play_value:  # a subclass's values
            value_of = self._play_value
            for a in plays:
                value = value_of(view, a, points, battle)
                score = value + draw()
                if best is None or score > best_score:
                    best, best_score, best_value = a, score, value
            return best if best_value + draw() > 0 else None
        # _play_value written out (hot path: a greedy game weighs ~87 plays, and the
        # method, the view's library and seat and the holders are Python calls each): the
        # same arithmetic in the same order (tests/test_wg_fast_paths.py plays both ways)
        lib = view.library
        outcome_of = view.play_outcome
        for a in plays:
            card = lib[a.card]
            square = a.square
            outcome = outcome_of(card, square, a.copy)[0]
            gained = card.cost
            lost_opp = 0
            if outcome == _REPLACE:
                gained -= view.square_points(square)
            elif outcome == _SEIZE:
                lost_opp = view.square_points(square)
            elif outcome in _LOSE_BOTH:
                gained, lost_opp = 0, view.top(square).cost
            after = battle
            if square in mine:
                after += (outcome in _TAKES) - mine[square]
            value = 0.0
            if points + gained >= WIN_POINTS or after == 3:
                value += 1000
            value += 10 * gained + 8 * lost_opp
            if outcome == _SEIZE:
                value += 20
            score = value + draw()
            if best is None or score > best_score:
                best, best_score, best_value = a, score, value
        return best if best_value + draw() > 0 else None

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

    def _generate(self, view, actions):
        """Exhaust stuns when an affordable play would follow (never break cards)."""
        if view.played:
            return None
        exhausts = [a for a in actions if a.kind == "exhaust"]
        if not exhausts:
            return None
        standby = view.standby()
        pool = view.pool()
        potential = dict(pool)
        for s in standby:
            if s is not None and not s.exhausted:
                potential[s.card.color] = potential.get(s.card.color, 0) + s.card.stun
        # rules.can_pay is whether rules.payment (view.payment) finds points: the totals
        # once, not a payment built twice for every card in hand
        total = sum(pool.values())
        more = sum(potential.values())
        can_pay = rules.can_pay
        for card in view.hand():
            cost, required, color = card.cost, card.required, card.color
            if (can_pay(potential, more, cost, required, color)
                    and not can_pay(pool, total, cost, required, color)):
                # exhaust a stun of the needed color first
                for a in exhausts:
                    s = standby[a.slot - 1]
                    if s.card.color == color or color == "yellow":
                        return a
                return exhausts[0]
        return None

    # -------------------------------------------------------------- questions
    def answer(self, view, question):
        opts = question.options
        if question.kind == "yes_no":
            return "yes"
        return opts[self.rng.randrange(len(opts))]


def _first_next(actions):
    """The first ``next`` action of ``actions`` (a legal list ends with next and end_turn:
    looked for there first)."""
    if len(actions) > 1 and actions[-2].kind == "next":
        return actions[-2]
    for a in actions:
        if a.kind == "next":
            return a
    raise KeyError("next")


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int) -> Agent:
    return AGENTS[name](seed)
