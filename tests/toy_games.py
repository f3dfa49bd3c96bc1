"""A small game written straight against the engine-api protocol (wgdsl/kernel/api.py), a
fixture for tests/engine_api_props.py: it has what the properties must handle and nothing
else, so a property that passes here and fails on a real game points at the real game.

"Pairs", 2-4 seats (T-numbers are its rules, cited by refusals):

- T1 Set-up: the deck is cards 1..8N+5 (card c has rank (c+1)//2, so ranks come in pairs;
  enough cards that the deck never runs out: 3N dealt, at most N+1 drawn in each of 5 rounds);
  it is shuffled by the game's generator and every seat is dealt 3 cards.  Hands are seen
  by their owner only; hand sizes, the discard pile and the points are public; the deck is
  seen by nobody.
- T2 Show (a simultaneous window): every seat commits one card of its hand face down.  When
  the last has committed, all are shown (in seat order) and go to the discard pile; the one
  highest rank scores a point; a tie for highest scores nobody.
- T3 Swap (a pending "may" of one seat): the scorer may discard one card of its hand to
  draw one ("swap N"), or "keep".
- T4 Draw: every seat draws a card.
- T5 End: a seat with 3 points wins at once (after T2); after round 5 the seats with the
  most points share the win if they have 2 points, else nobody wins (the round cap).

The state is plain data (lists, dicts, ints; the generator is one int), so clone copies it
and to_dict shows it; resample re-deals the cards a seat cannot see (the deck, the other
hands, the other seats' commits: none of them was ever shown to it) and re-seeds.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from wgdsl.kernel.api import returns_for
from wgdsl.kernel.errors import IllegalAction

ROUNDS = 5  # T5
CAP_POINTS = 2  # T5: the fewest points that win at the round cap
WIN_POINTS = 3  # T5
HAND = 3  # T1
MASK = (1 << 64) - 1


def next_random(x: int) -> int:
    """One step of a 64-bit linear congruential generator (Knuth's MMIX constants)."""
    return (x * 6364136223846793005 + 1442695040888963407) & MASK


class Act(NamedTuple):
    kind: str  # "play", "swap", "keep"
    card: int = 0

    def __str__(self) -> str:
        return self.kind if self.kind == "keep" else f"{self.kind} {self.card}"


def rank(card: int) -> int:
    return (card + 1) // 2


class PairsState:
    def __init__(self, seats: tuple, seed: int):
        self.seats = seats
        self.rng = next_random(seed & MASK)
        self.round = 1
        self.phase = "show"  # "show" (T2), "swap" (T3), "over"
        self.deck = list(range(1, (HAND + ROUNDS) * len(seats) + ROUNDS + 1))
        self.shuffle(self.deck)
        self.hands = {s: [self.deck.pop() for _ in range(HAND)] for s in seats}
        self.commits: dict = {}
        self.discard: list = []
        self.points = {s: 0 for s in seats}
        self.scorer: Optional[str] = None
        self.won: tuple = ()
        self.reason = ""
        self.log: list = []

    # ---------------------------------------------------------------- chance
    def randbelow(self, n: int) -> int:
        self.rng = next_random(self.rng)
        return (self.rng >> 33) % n

    def shuffle(self, cards: list) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self.randbelow(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    def draw(self, seat: str) -> None:
        self.hands[seat].append(self.deck.pop())
        self.note(seat, "draw", f"{seat} draws a card")

    def note(self, seat: str, kind: str, text: str) -> None:
        self.log.append({"turn": self.round, "seat": seat, "kind": kind, "text": text})

    # ---------------------------------------------------------------- the protocol
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def current_seats(self) -> tuple:
        if self.phase == "show":
            return tuple(s for s in self.seats if s not in self.commits)
        if self.phase == "swap":
            return (self.scorer,)
        return ()

    def legal_actions(self, seat: str) -> list:
        if seat not in self.current_seats():
            return []
        kind = "play" if self.phase == "show" else "swap"
        acts = [Act(kind, c) for c in sorted(self.hands[seat])]
        return acts + [Act("keep")] if kind == "swap" else acts

    def refuse(self, seat, action) -> None:
        """Validate before anything changes (T-rules in the order the rules give them)."""
        if self.phase == "over":
            raise IllegalAction("the game is over", "T5")
        if seat not in self.seats:
            raise IllegalAction(f"no seat {seat!r}: the seats are {', '.join(self.seats)}", "T1")
        if seat not in self.current_seats():
            rule = "T2" if self.phase == "show" else "T3"
            raise IllegalAction(f"{seat} has nothing to do now", rule)
        try:
            ok = action in self.legal_actions(seat)
        except TypeError:  # an unhashable or incomparable thing is no action
            ok = False
        if not ok:
            raise IllegalAction(f"{action!r} is not an action of {seat} now; the actions are "
                                f"{', '.join(map(str, self.legal_actions(seat)))}",
                                "T2" if self.phase == "show" else "T3")

    def apply(self, seat, action) -> None:
        self.refuse(seat, action)
        if self.phase == "show":
            self.hands[seat].remove(action.card)
            self.commits[seat] = action.card
            if len(self.commits) == len(self.seats):
                self.show()
        else:
            if action.kind == "swap":
                self.hands[seat].remove(action.card)
                self.discard.append(action.card)
                self.note(seat, "swap", f"{seat} discards {action.card}")
                self.draw(seat)
            self.end_round()

    def show(self) -> None:
        shown = [(s, self.commits[s]) for s in self.seats]  # T2: in seat order
        for s, c in shown:
            self.note(s, "show", f"{s} shows {c}")
            self.discard.append(c)
        self.commits = {}
        top = max(rank(c) for _, c in shown)
        best = [s for s, c in shown if rank(c) == top]
        if len(best) > 1:
            self.note("", "tie", "a tie for highest: nobody scores")
            return self.end_round()
        self.scorer = best[0]
        self.points[self.scorer] += 1
        self.note(self.scorer, "point", f"{self.scorer} scores ({self.points[self.scorer]})")
        if self.points[self.scorer] >= WIN_POINTS:
            return self.finish((self.scorer,), "T5")
        self.phase = "swap"

    def end_round(self) -> None:
        self.scorer = None
        for s in self.seats:
            self.draw(s)
        if self.round >= ROUNDS:
            top = max(self.points.values())
            won = tuple(s for s in self.seats if top >= CAP_POINTS and self.points[s] == top)
            return self.finish(won, "T5")
        self.round += 1
        self.phase = "show"

    def finish(self, won: tuple, reason: str) -> None:
        self.phase, self.won, self.reason = "over", won, reason
        self.note("", "end", f"the game ends: {', '.join(won) or 'no winner'}")

    def clone(self) -> "PairsState":
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.deck, new.discard, new.log = list(self.deck), list(self.discard), list(self.log)
        new.hands = {s: list(h) for s, h in self.hands.items()}
        new.commits, new.points = dict(self.commits), dict(self.points)
        return new

    def observation(self, seat: str) -> dict:
        return {"seat": seat, "round": self.round, "phase": self.phase,
                "hand": sorted(self.hands[seat]), "committed": self.commits.get(seat),
                "hand_sizes": {s: len(h) for s, h in self.hands.items()},
                "deck_size": len(self.deck), "discard": list(self.discard),
                "points": dict(self.points), "scorer": self.scorer,
                "log": [dict(e) for e in self.log]}

    def unseen(self, seat: str) -> list:
        """Where the cards ``seat`` cannot see lie: (container, key) pairs, in a fixed order."""
        places = [(self.deck, i) for i in range(len(self.deck))]
        for s in self.seats:
            if s != seat:
                places += [(self.hands[s], i) for i in range(len(self.hands[s]))]
        return places + [(self.commits, s) for s in self.seats if s != seat and s in self.commits]

    def resample(self, seat: str, seed: int) -> "PairsState":
        new = self.clone()
        new.rng = next_random((seed ^ 0x5DEECE66D) & MASK)
        places = new.unseen(seat)
        cards = [box[key] for box, key in places]
        new.shuffle(cards)
        for (box, key), card in zip(places, cards):
            box[key] = card
        return new

    def to_dict(self) -> dict:
        return {"seats": list(self.seats), "rng": self.rng, "round": self.round,
                "phase": self.phase, "deck": list(self.deck),
                "hands": {s: list(h) for s, h in self.hands.items()},
                "commits": dict(self.commits), "discard": list(self.discard),
                "points": dict(self.points), "scorer": self.scorer,
                "winners": list(self.won), "reason": self.reason, "log": list(self.log)}

    def returns(self) -> dict:
        return returns_for(self.seats, self.won)

    def winners(self) -> tuple:
        return self.won

    def win_reason(self) -> str:
        return self.reason

    def parse_action(self, seat: str, text: str) -> Act:
        return parse_listed(self, seat, text)


class Pairs:
    id = "pairs"
    name = "Pairs"
    seat_range = (2, 4)
    state_class = PairsState

    def new_state(self, seed=0, seats=None, decks=None, cards=None, options=None):
        n = self.seat_range[0] if seats is None else seats
        if not self.seat_range[0] <= n <= self.seat_range[1]:
            raise ValueError(f"Pairs takes 2 to 4 seats, not {n}")
        return self.state_class(tuple("ABCD"[:n]), seed)


def parse_listed(state, seat: str, text: str):
    """The legal action of ``seat`` whose text is ``text`` (the toy games' parse_action)."""
    for act in state.legal_actions(seat):
        if str(act) == text:
            return act
    raise IllegalAction(f"{text!r} is not an action of {seat} now", "T2")


def max_actions(seats: int) -> int:
    """The game's own cap in actions: 5 rounds of one commit per seat and one swap."""
    return ROUNDS * (seats + 1)
