"""The invariants of engine-api.md ("Invariants every game must keep", "A simultaneous
window") as Hypothesis properties over random play, for ANY game that satisfies
wgdsl.kernel.api's Game/State protocols.

A game plugs in with a :class:`Subject` (the game, the seat counts to try, its own cap in
actions, where another process finds it).  Each ``check_*`` runs one property under
Hypothesis and raises AssertionError (saying which invariant, at which step, with the seed,
the seats and the actions so far) when the game breaks it:

- :func:`check_refusals` (1): every offered action is accepted; an action not offered (other
  seats' actions, actions of earlier states, garbage) and any action of a seat that is not
  current raise IllegalAction with a reason and a rule, and leave ``to_dict()`` and the log
  unchanged;
- :func:`check_clone` (2): a clone at a random step, then the same actions on both: equal
  ``to_dict()`` and equal logs (the clone is replayed after the original played to the end,
  and the original's end is taken before the clone plays, so a list the two share shows);
- :func:`check_resample` (3): ``resample(seat, s)`` keeps ``observation(seat)``, leaves the
  original alone, re-deals something (``to_dict()`` other than the generator changes over a
  few seeds) when the seat has something hidden, re-seeds the generator (``to_dict()[rng_key]``), and random play from it stays legal to
  the end;
- :func:`check_determinism` (4): seeded games replayed from their actions' ``str()`` through
  ``parse_action`` in another process with another PYTHONHASHSEED give the same log, byte
  for byte (and the same ``to_dict()``);
- :func:`check_ends` (5): every random game ends within the game's cap; at the end no seat is
  current, ``winners()`` are seats, ``win_reason()`` is named, ``returns()`` follows
  :func:`wgdsl.kernel.api.returns_for` (or, for a game ranked by score, names every seat);
  the whole way, a current seat has actions, any other has none, and everything the
  interface returns is JSON;
- :func:`check_window`: in a simultaneous window, no seat's observation depends on what
  another seat committed, and the order of commits never changes the result.

Every check plays whole random games (every seat random, each action drawn from
``legal_actions(seat)`` of a seat drawn from ``current_seats()``).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, Callable, Optional

from hypothesis import HealthCheck, Phase, given, settings as hsettings, strategies as st

from wgdsl.kernel.api import returns_for
from wgdsl.kernel.errors import IllegalAction

# things no game offers as an action: wrong types, unhashable, look-alikes of actions
GARBAGE = (None, "", "nonsense", 0, -1, 10**9, 3.5, (), ("play",), ["play", 1], {"kind": "x"},
           object())


class StepSpy:
    """A mixin for a game's State (``class Spy(StepSpy, TheState)``): for every apply,
    appends (the action stepped, whether a snapshot was promised, whether a question came)
    to the class's ``seen`` list, which the test empties first.  An answer resumes its
    question's step, snapshotted again, so it counts as that step, promised."""

    seen: list = []

    def apply(self, seat, action):
        q = self.question
        promised = q is not None or self._may_ask(seat, action)
        stepped = q.action if q is not None else action
        super().apply(seat, action)
        type(self).seen.append((stepped, promised, self.question is not None))


@dataclass(frozen=True)
class Subject:
    """A game under test.  ``factory`` is ``"module:attribute"``, a callable that returns the
    game, importable from ``path`` (put on sys.path in the other process)."""

    game: Any
    seat_counts: Any  # a strategy of seat counts
    max_actions: Callable[[int], int]  # the game's own cap, in actions, for that many seats
    factory: str = ""
    path: str = ""
    options: Optional[dict] = None
    # the key of to_dict() that holds the random generator's state (None: not shown)
    rng_key: Optional[str] = "rng"
    # does `seat` have something hidden from it in this state? (None: assume it does
    # whenever the game is not over)
    has_hidden: Optional[Callable[[Any, str], bool]] = None
    scored: bool = False  # ranked by score (returns are scores, not returns_for)
    garbage: tuple = GARBAGE
    resample_seeds: int = 4


def find_break(examples: int = 40):
    """Settings for showing a property catches a deliberate break: stop at the first failing
    game, no shrinking (the failure is the point), the same examples every run."""
    return hsettings(max_examples=examples, phases=[Phase.explicit, Phase.generate],
                     database=None, derandomize=True, deadline=None, print_blob=False,
                     suppress_health_check=list(HealthCheck))


class Walk:
    """One random game: ``seed``, ``seats``, the ``(seat, action)`` pairs taken so far."""

    def __init__(self, subject: Subject, seed: int, seats: int, rnd: random.Random):
        self.subject, self.seed, self.seats, self.rnd = subject, seed, seats, rnd
        self.state = subject.game.new_state(seed=seed, seats=seats, options=subject.options)
        self.taken: list = []
        self.seen: list = []  # actions offered earlier (to other seats, in other states)

    def where(self) -> str:
        return (f"seed={self.seed} seats={self.seats} after {len(self.taken)} actions "
                f"{[(s, str(a)) for s, a in self.taken[-12:]]}")

    def fail(self, what: str) -> AssertionError:
        return AssertionError(f"{what} ({self.where()})")

    def choose(self, state=None):
        """A random current seat and one of its legal actions, checking (5)'s shape."""
        state = state or self.state
        current = tuple(state.current_seats())
        if not current:
            raise self.fail("not terminal, yet no seat is current")
        seat = self.rnd.choice(current)
        legal = list(state.legal_actions(seat))
        if not legal:
            raise self.fail(f"current seat {seat} has no legal action")
        return seat, self.rnd.choice(legal)

    def step(self, seat, action, state=None) -> None:
        state = state or self.state
        try:
            state.apply(seat, action)
        except IllegalAction as e:
            raise self.fail(f"(1) offered action {action} of {seat} refused: {e}") from e
        if state is self.state:
            self.taken.append((seat, action))

    def run(self, on_step: Optional[Callable[["Walk", int], None]] = None, state=None) -> None:
        """Random play to the end (of ``state``, by default the walk's own), calling
        ``on_step(walk, i)`` before each action; fails past the game's cap."""
        state = state or self.state
        cap = self.subject.max_actions(self.seats)
        for i in range(cap + 1):
            if state.is_terminal():
                return
            if on_step:
                on_step(self, i)
            seat, action = self.choose(state)
            if state is self.state and len(self.seen) < 200:
                self.seen.append(action)
            self.step(seat, action, state)
        raise self.fail(f"(5) the game did not end within its own cap of {cap} actions")


def dump(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def frozen(state) -> tuple:
    """What a refusal must not change: the whole state and the log, as text."""
    return dump(state.to_dict()), dump(list(state.log))


def _given(subject: Subject, prop, settings=None):
    # the walk's choices come from a generator seeded by Hypothesis, not from st.randoms():
    # a whole game draws thousands of numbers, more than Hypothesis lets one example hold
    @given(seed=st.integers(0, 2**32 - 1), seats=subject.seat_counts,
           walk_seed=st.integers(0, 2**32 - 1))
    def run(seed, seats, walk_seed):
        prop(Walk(subject, seed, seats, random.Random(walk_seed)))

    if settings is not None:
        run = settings(run)
    run()


# --------------------------------------------------------------------- (1) refusals
def refusals_at(walk: Walk, i: int) -> None:
    st_ = walk.state
    pool = list(walk.subject.garbage) + walk.seen[-40:]
    for seat in st_.seats:
        pool += list(st_.legal_actions(seat))
    before = frozen(st_)
    for _ in range(3):
        seat = walk.rnd.choice(st_.seats)
        legal = st_.legal_actions(seat)
        action = walk.rnd.choice(pool)
        try:
            offered = any(action == a for a in legal)
        except Exception:
            offered = False
        if offered:
            continue
        try:
            st_.apply(seat, action)
        except IllegalAction as e:
            if not (isinstance(e.rule, str) and e.rule and e.reason):
                raise walk.fail(f"(1) refusing {action!r} for {seat} names no rule or no reason "
                                f"(rule={e.rule!r}, reason={e.reason!r})") from e
        except Exception as e:  # a traceback for a wrong action is a bug too
            raise walk.fail(f"(1) {action!r} for {seat} raised {type(e).__name__}: {e}, "
                            "not IllegalAction") from e
        else:
            raise walk.fail(f"(1) {action!r} for {seat} was accepted though not offered")
        if frozen(st_) != before:
            raise walk.fail(f"(1) refusing {action!r} for {seat} changed the state or the log")


def check_refusals(subject: Subject, settings=None) -> None:
    _given(subject, lambda w: w.run(refusals_at), settings)


# --------------------------------------------------------------------- (2) clone
def clone_prop(walk: Walk) -> None:
    at = walk.rnd.randrange(walk.subject.max_actions(walk.seats))
    box = {}

    def on_step(w, i):
        if i == at:
            box["clone"], box["from"] = w.state.clone(), len(w.taken)

    walk.run(on_step)
    if "clone" not in box:  # the game ended before: clone at the end
        box["clone"], box["from"] = walk.state.clone(), len(walk.taken)
    clone = box["clone"]
    # the original's end, taken before the clone plays: a list the two share then shows
    # as the clone's actions landing in the original too
    end_dict, end_log = dump(walk.state.to_dict()), dump(list(walk.state.log))
    for seat, action in walk.taken[box["from"]:]:
        try:
            clone.apply(seat, action)
        except IllegalAction as e:
            raise walk.fail(f"(2) the clone made at action {box['from']} refused {action} of "
                            f"{seat}, which the original took: {e}") from e
    if dump(clone.to_dict()) != end_dict or dump(walk.state.to_dict()) != end_dict:
        raise walk.fail(f"(2) a clone made at action {box['from']} and given the same actions "
                        "has another to_dict() (or playing it changed the original)")
    if dump(list(clone.log)) != end_log or dump(list(walk.state.log)) != end_log:
        raise walk.fail(f"(2) a clone made at action {box['from']} and given the same actions "
                        "has another log")


def check_clone(subject: Subject, settings=None) -> None:
    _given(subject, clone_prop, settings)


# --------------------------------------------------------------------- (3) resample
def resample_at(walk: Walk, i: int) -> None:
    if walk.rnd.random() > 0.25:
        return
    subject, st_ = walk.subject, walk.state
    seat = walk.rnd.choice(st_.seats)
    seen_by_seat = dump(st_.observation(seat))
    before = dump(st_.to_dict())
    states, dicts, rngs = [], set(), set()
    for k in range(subject.resample_seeds):
        seed = walk.rnd.randrange(2**32) * subject.resample_seeds + k  # distinct seeds
        other = st_.resample(seat, seed)
        if dump(st_.to_dict()) != before:
            raise walk.fail(f"(3) resample({seat}, {seed}) changed the original state")
        if dump(other.observation(seat)) != seen_by_seat:
            raise walk.fail(f"(3) resample({seat}, {seed}) changed what {seat} observes")
        d = other.to_dict()
        if subject.rng_key is not None:
            rngs.add(dump(d.pop(subject.rng_key)))
        dicts.add(dump(d))
        states.append(other)
    hidden = (subject.has_hidden(st_, seat) if subject.has_hidden else not st_.is_terminal())
    mine = st_.to_dict()
    if subject.rng_key is not None:
        mine.pop(subject.rng_key)
    if hidden and dicts == {dump(mine)}:
        raise walk.fail(f"(3) {subject.resample_seeds} resamples for {seat}, who has something "
                        "hidden, all deal it as it is (the generator aside)")
    if subject.rng_key is not None:
        original = dump(st_.to_dict()[subject.rng_key])
        if original in rngs or len(rngs) < len(states):
            raise walk.fail(f"(3) resample({seat}, ·) does not re-seed the generator: the "
                            "future is leaked")
    # play from one of them stays legal to the end
    walk.run(state=walk.rnd.choice(states))


def check_resample(subject: Subject, settings=None) -> None:
    _given(subject, lambda w: w.run(resample_at), settings)


# --------------------------------------------------------------------- (4) determinism
_CHILD = r"""
import importlib, json, sys
job = json.load(sys.stdin)
module, _, attr = job["factory"].partition(":")
game = getattr(importlib.import_module(module), attr)()
out = []
for g in job["games"]:
    state = game.new_state(seed=g["seed"], seats=g["seats"], options=job["options"])
    try:
        for k, (seat, text) in enumerate(g["actions"]):
            state.apply(seat, state.parse_action(seat, text))
    except Exception as e:
        out.append(["refused", f"action {k} ({seat}: {text}): {type(e).__name__}: {e}"])
        continue
    out.append([json.dumps(list(state.log), sort_keys=True, ensure_ascii=False),
                json.dumps(state.to_dict(), sort_keys=True, ensure_ascii=False)])
json.dump(out, sys.stdout)
"""


def check_determinism(subject: Subject, games: int = 12, seed: int = 0,
                      hashseed: str = "12345") -> None:
    """Random games here; the same seeds and actions (as text, read back by parse_action)
    in another process with PYTHONHASHSEED=``hashseed``: the same logs and states."""
    assert subject.factory, "check_determinism needs Subject.factory"
    rnd = random.Random(seed)
    lo, hi = subject.game.seat_range
    jobs, here = [], []
    for k in range(games):
        walk = Walk(subject, rnd.randrange(2**32), lo + k % (hi - lo + 1), rnd)
        walk.run()
        actions = []
        replay = subject.game.new_state(seed=walk.seed, seats=walk.seats,
                                        options=subject.options)
        for s, a in walk.taken:
            try:
                parsed = replay.parse_action(s, str(a))
                replay.apply(s, parsed)
            except IllegalAction as e:
                raise walk.fail(f"(4) a new game of the same seed, in this process, refused "
                                f"{str(a)!r} of {s}: {e}") from e
            if parsed != a:
                raise walk.fail(f"(4) parse_action({s!r}, {str(a)!r}) gives {parsed!r}, not {a!r}")
            actions.append([s, str(a)])
        if frozen(replay) != frozen(walk.state):
            raise walk.fail("(4) a new game of the same seed given the same actions, in this "
                            "process, ends in another state or log")
        jobs.append({"seed": walk.seed, "seats": walk.seats, "actions": actions})
        here.append((dump(list(walk.state.log)), dump(walk.state.to_dict())))
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (subject.path, env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(
        {"factory": subject.factory, "options": subject.options, "games": jobs}),
        capture_output=True, text=True, env=env, timeout=120)
    if done.returncode:
        raise AssertionError(f"(4) the replay in another process failed:\n{done.stderr[-2000:]}")
    there = json.loads(done.stdout)
    assert len(there) == len(jobs), "(4) the other process replayed another number of games"
    for job, (log_here, dict_here), (log_there, dict_there) in zip(jobs, here, there):
        if log_there == "refused":
            raise AssertionError(f"(4) seed={job['seed']} seats={job['seats']}: another process "
                                 f"(another PYTHONHASHSEED) refused {dict_there}")
        if log_here != log_there:
            raise AssertionError(f"(4) seed={job['seed']} seats={job['seats']}: another process "
                                 "(another PYTHONHASHSEED) gives another log for the same actions")
        if dict_here != dict_there:
            raise AssertionError(f"(4) seed={job['seed']} seats={job['seats']}: another process "
                                 "gives another to_dict() for the same actions")


# --------------------------------------------------------------------- (5) the end
def shape_at(walk: Walk, i: int) -> None:
    st_ = walk.state
    current = set(st_.current_seats())
    if not current <= set(st_.seats):
        raise walk.fail(f"(5) current_seats() {sorted(current)} are not all seats")
    for seat in st_.seats:
        if seat not in current and list(st_.legal_actions(seat)):
            raise walk.fail(f"(5) {seat} is not current but has legal actions")
    json.dumps(st_.to_dict())
    for seat in st_.seats:
        json.dumps(st_.observation(seat))


def end_prop(walk: Walk) -> None:
    walk.run(shape_at)
    st_, seats = walk.state, tuple(walk.state.seats)
    if tuple(st_.current_seats()):
        raise walk.fail("(5) a terminal state has current seats")
    for seat in seats:
        if list(st_.legal_actions(seat)):
            raise walk.fail(f"(5) {seat} has legal actions at the end")
    winners = tuple(st_.winners())
    if not set(winners) <= set(seats) or len(set(winners)) != len(winners):
        raise walk.fail(f"(5) winners() {winners} are not distinct seats")
    if not isinstance(st_.win_reason(), str) or not st_.win_reason():
        raise walk.fail("(5) win_reason() names no rule at the end")
    returns = st_.returns()
    if walk.subject.scored:
        if set(returns) != set(seats):
            raise walk.fail(f"(5) returns() {returns} is not one number per seat")
    elif returns != returns_for(seats, winners):
        raise walk.fail(f"(5) returns() {returns} for winners {winners}; engine-api.md's "
                        f"convention gives {returns_for(seats, winners)}")
    for event in st_.log:
        missing = {"turn", "seat", "kind", "text"} - set(event)
        if missing:
            raise walk.fail(f"(5) a log event lacks {sorted(missing)}: {event}")
    json.dumps(list(st_.log))


def check_ends(subject: Subject, settings=None) -> None:
    _given(subject, end_prop, settings)


# --------------------------------------------------------------------- windows
def window_at(walk: Walk, i: int) -> None:
    st_ = walk.state
    current = list(st_.current_seats())
    if len(current) < 2:
        return
    # no observation depends on another seat's pending commit
    for seat in current:
        legal = list(st_.legal_actions(seat))
        if len(legal) < 2:
            continue
        a1, a2 = walk.rnd.sample(legal, 2)
        c1, c2 = st_.clone(), st_.clone()
        c1.apply(seat, a1)
        c2.apply(seat, a2)
        for other in st_.seats:
            if other != seat and c1.current_seats() and \
                    dump(c1.observation(other)) != dump(c2.observation(other)):
                raise walk.fail(f"window: {other}'s observation shows what {seat} committed "
                                f"({a1} or {a2})")
    # the order of commits never changes the result
    picks = {seat: walk.rnd.choice(list(st_.legal_actions(seat))) for seat in current}
    results = set()
    for order in (current, current[::-1], walk.rnd.sample(current, len(current))):
        c = st_.clone()
        for seat in order:
            try:
                c.apply(seat, picks[seat])
            except IllegalAction as e:
                raise walk.fail(f"window: {picks[seat]} of {seat}, legal when the window "
                                f"opened, refused after others committed (order {order})") from e
        results.add((dump(c.to_dict()), dump(list(c.log))))
    if len(results) > 1:
        raise walk.fail(f"window: the order of commits changed the result ({picks})")


def check_window(subject: Subject, settings=None) -> None:
    _given(subject, lambda w: w.run(window_at), settings)


ALL = {"refusals": check_refusals, "clone": check_clone, "resample": check_resample,
       "ends": check_ends, "window": check_window}
