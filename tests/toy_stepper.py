"""The toy game of tests/toy_games.py ("Pairs", rules T1-T5 there) written the way a real
game is: an engine that runs a step to its end and asks its question in the middle, on the
kernel's :class:`~wgdsl.kernel.stepper.Stepper`.  The show (T2) is a simultaneous window the
Stepper collects; the scorer's swap (T3) is a question asked inside the show's resolution,
so the Stepper's questions-as-data, windows, clone and resample at a question are all
exercised by tests/engine_api_props.py (tests/test_kernel_stepper.py)."""

from __future__ import annotations

import copy
import random

from toy_games import (CAP_POINTS, HAND, MASK, ROUNDS, WIN_POINTS, Act, Pairs,
                       next_random, parse_listed, rank)
from wgdsl.kernel.decision import Decision, Suspend
from wgdsl.kernel.errors import RunawayEffects
from wgdsl.kernel.stepper import Stepper


class PairsStepper(Stepper):
    turn_rule = "T2"
    window_rule = "T2"
    runaway_rule = "T5"

    def __init__(self, seats: tuple, seed: int):
        super().__init__()
        self.seats = seats
        n = len(seats)
        self.s = {"rng": next_random(seed & MASK), "round": 1, "deck": list(range(1, 8 * n + 6)),
                  "hands": {s: [] for s in seats}, "discard": [], "points": {s: 0 for s in seats},
                  "won": None, "reason": "", "log": []}
        self.answers, self.answered = None, 0
        self.shuffle(self.s["deck"])
        for _ in range(HAND):
            for seat in seats:
                self.draw(seat)

    # ------------------------------------------------------------------ the engine
    def shuffle(self, cards: list) -> None:
        for i in range(len(cards) - 1, 0, -1):
            self.s["rng"] = next_random(self.s["rng"])
            j = (self.s["rng"] >> 33) % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    def draw(self, seat: str) -> None:
        self.s["hands"][seat].append(self.s["deck"].pop())

    def note(self, seat: str, kind: str, text: str) -> None:
        self.s["log"].append({"turn": self.s["round"], "seat": seat, "kind": kind, "text": text})

    def ask(self, seat: str, options: list) -> str:
        if self.answered == len(self.answers):
            raise Suspend(Decision(seat, "choice", "swap a card, or keep", tuple(options), "T3",
                                   private=True))
        answer = self.answers[self.answered]
        self.answered += 1
        return answer

    def _run(self, seat, action, answers: list) -> None:
        self.answers, self.answered = answers, 0
        s = self.s
        shown = [(seat, action[seat].card) for seat in self.seats]
        for seat, c in shown:
            s["hands"][seat].remove(c)
            self.note(seat, "show", f"{seat} shows {c}")
            s["discard"].append(c)
        top = max(rank(c) for _, c in shown)
        best = [seat for seat, c in shown if rank(c) == top]
        if len(best) == 1:
            scorer = best[0]
            s["points"][scorer] += 1
            self.note(scorer, "point", f"{scorer} scores ({s['points'][scorer]})")
            if s["points"][scorer] >= WIN_POINTS:
                s["won"], s["reason"] = (scorer,), "T5"
                return
            answer = self.ask(scorer, [f"swap {c}" for c in sorted(s["hands"][scorer])] + ["keep"])
            if answer != "keep":
                card = int(answer.split()[1])
                s["hands"][scorer].remove(card)
                s["discard"].append(card)
                self.note(scorer, "swap", f"{scorer} discards {card}")
                self.draw(scorer)
        else:
            self.note("", "tie", "a tie for highest: nobody scores")
        for seat in self.seats:
            self.draw(seat)
        if s["round"] >= ROUNDS:
            most = max(s["points"].values())
            s["won"] = tuple(x for x in self.seats if most >= CAP_POINTS and s["points"][x] == most)
            s["reason"] = "T5"
            return
        s["round"] += 1

    # ------------------------------------------------------------------ the Stepper's hooks
    def _over(self) -> bool:
        return self.s["won"] is not None

    def _acting(self) -> tuple:
        return self.seats

    def _legal_of(self, seat: str) -> list:
        return [Act("play", c) for c in sorted(self.s["hands"][seat])]

    def _snapshot(self):
        return copy.deepcopy(self.s)

    def _restore(self, snap) -> None:
        self.s = snap

    def _copy(self) -> "PairsStepper":
        twin = object.__new__(type(self))
        Stepper.__init__(twin)
        twin.seats, twin.s = self.seats, copy.deepcopy(self.s)
        twin.answers, twin.answered = None, 0
        return twin

    def _hidden(self, seat: str) -> list:
        """The cards (each card is a distinct number) ``seat`` cannot see now: named by
        value, not place, so that they are found again in the state before a step."""
        return sorted(self.s["deck"] + [c for other in self.seats if other != seat
                                         for c in self.s["hands"][other]])

    def _redeal(self, seat: str, rnd: random.Random, hidden: list) -> None:
        dealt = list(hidden)
        rnd.shuffle(dealt)
        swap = dict(zip(hidden, dealt))
        s = self.s
        s["deck"] = [swap.get(c, c) for c in s["deck"]]
        s["hands"] = {x: [swap.get(c, c) for c in h] for x, h in s["hands"].items()}

    def _reseed(self, rnd: random.Random) -> None:
        self.s["rng"] = rnd.getrandbits(64)

    # ------------------------------------------------------------------ views
    def observation(self, seat: str) -> dict:
        s = self.s
        q = self.question
        dec = None if q is None else (q.decision.to_dict() if q.decision.seat == seat
                                      else {"seat": q.decision.seat})
        return {"seat": seat, "round": s["round"], "hand": sorted(s["hands"][seat]),
                "committed": str(self.commits[seat]) if seat in self.commits else None,
                "hand_sizes": {x: len(h) for x, h in s["hands"].items()},
                "deck_size": len(s["deck"]), "discard": list(s["discard"]),
                "points": dict(s["points"]), "decision": dec,
                "log": [dict(e) for e in s["log"]]}

    def to_dict(self) -> dict:
        s = self.s
        q = self.question
        return {"seats": list(self.seats), "rng": s["rng"], "round": s["round"],
                "deck": list(s["deck"]), "hands": {x: list(h) for x, h in s["hands"].items()},
                "commits": {x: str(a) for x, a in self.commits.items()},
                "discard": list(s["discard"]), "points": dict(s["points"]),
                "decision": None if q is None else q.decision.to_dict(),
                "winners": list(s["won"] or ()), "reason": s["reason"]}

    @property
    def log(self) -> list:
        return [dict(e) for e in self.s["log"]]

    def winners(self) -> tuple:
        return tuple(self.s["won"] or ())

    def win_reason(self) -> str:
        return self.s["reason"]

    def parse_action(self, seat: str, text: str):
        return parse_listed(self, seat, text)


class PairsOnStepper(Pairs):
    id = "pairs-stepper"
    name = "Pairs (on the kernel's Stepper)"
    state_class = PairsStepper


class OneSeat(Stepper):
    """A one-seat game on the Stepper whose ``_run`` does what its action names (``end``
    ends the game, ``ask`` asks, ``loop`` runs away, ``fail`` breaks, ``go`` does nothing),
    so each path of ``apply`` is seen on each ending.  ``asks`` is what ``_may_ask``
    answers; ``asked``, ``listed`` and ``snaps`` count the calls of ``_may_ask``,
    ``_legal_of`` and ``_snapshot`` (tests/test_kernel_stepper.py,
    tests/test_kernel_fast_paths.py)."""

    seats = ("A",)
    turn_rule = runaway_rule = "T1"
    actions = ("end", "ask", "loop", "fail", "go")

    def __init__(self, asks: bool = False):
        super().__init__()
        self.asks = asks
        self.done, self.ran, self.asked, self.snaps, self.listed = False, [], 0, 0, 0

    def _acting(self):
        return ("A",)

    def _over(self):
        return self.done

    def _legal_of(self, seat):
        self.listed += 1
        return list(self.actions)

    def _may_ask(self, seat, action):
        self.asked += 1
        return self.asks

    def _snapshot(self):
        self.snaps += 1
        return list(self.ran)

    def _restore(self, snap):
        self.ran = snap

    def _run(self, seat, action, answers):
        self.ran.append((seat, action))
        if action == "end":
            self.done = True
        elif action == "ask" and not answers:
            raise Suspend(Decision(seat, "choice", "which?", ("x", "y"), "T2"))
        elif action == "loop":
            raise RunawayEffects("the effects never end")
        elif action == "fail":
            raise ValueError("broken engine")

    def winners(self):
        return ("A",)

    def win_reason(self):
        return "T9"
