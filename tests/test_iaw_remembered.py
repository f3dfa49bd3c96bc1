"""It's a Wonderful World's remembered state (issue 17) against what it stands for, at every
decision of seeded games at 1, 2, 3 and 5 seats: the current seats kept as seats commit
(``WWState._cur``) against the seats not committed; the public loop's straight path
(``WWState.apply`` and friends) against the kernel's path (``Stepper.apply``) on a twin
given the same actions; each seat as the open window found it (copied at its first change
only) against the seat copied whole at the opening; the log's entries kept as templates
until read against the texts formatted as they were written."""

from __future__ import annotations

import json
import random

import pytest

import wgdsl
from wgdsl.games.wonderful_world.state import Seat, WWState
from wgdsl.kernel.stepper import Stepper

from straight_path import play_twins

GAME = wgdsl.load_game("wonderful-world")
CASES = [(1, 4), (2, 7), (2, 8), (3, 9), (5, 10)]


def _whole(state) -> str:
    return json.dumps([state.to_dict(), state.log], sort_keys=True, default=str)


@pytest.mark.parametrize("seats, seed", CASES)
def test_the_current_seats_kept_are_the_uncommitted_ones(seats, seed):
    state = GAME.new_state(seed=seed, seats=seats)
    rnd = random.Random(seed)
    while True:
        d = state.d
        plain = () if d.over else tuple(s for s in state.seats if not d.players[s].committed)
        assert state.current_seats() == plain
        assert state.is_terminal() == d.over
        for seat in state.seats:
            assert [str(a) for a in state.legal_actions(seat)] == \
                   [str(a) for a in state._legal_now(seat)], seat
        if state.is_terminal():
            break
        seat = rnd.choice(state.current_seats())
        state.apply(seat, rnd.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("seats, seed", CASES)
def test_the_straight_path_is_the_kernels(seats, seed):
    fast = GAME.new_state(seed=seed, seats=seats)
    kernel = GAME.new_state(seed=seed, seats=seats)
    rnd = random.Random(seed)
    while not fast.is_terminal():
        assert not Stepper.is_terminal(kernel)
        assert Stepper.current_seats(kernel) == fast.current_seats()
        seat = rnd.choice(fast.current_seats())
        legal = fast.legal_actions(seat)
        assert Stepper.legal_actions(kernel, seat) == legal
        k = rnd.randrange(len(legal))
        fast.apply(seat, legal[k])
        Stepper.apply(kernel, seat, kernel.parse_action(seat, str(legal[k])))
        assert _whole(fast) == _whole(kernel)
    assert Stepper.is_terminal(kernel)


# ------------------------------------------------------------------ windows: copy on write
class FullSnapshots(WWState):
    """Also keeps every seat as a window found it, copied whole at the opening (as the
    engine did before it copied a seat at its first change only)."""

    full: dict = {}

    def _autoplay(self, seats=None):
        if seats is None and self.d.opened == {}:  # a window has just opened
            self.full = {s: p.copy() for s, p in self.d.players.items()}
        super()._autoplay(seats)


def _seat(p) -> dict:
    return {k: getattr(p, k) for k in Seat.__slots__ if k != "pick_at"}


@pytest.mark.parametrize("seats, seed", CASES)
def test_a_seat_as_the_window_found_it_is_the_whole_copy(seats, seed):
    """At every decision, each seat as the open window found it (copied at its first
    change, or its commit taken back) is the seat copied whole at the opening; at the end,
    the last window's."""
    start = GAME.new_state(seed=seed, seats=seats)
    state = FullSnapshots(start.game, start.seats, start.d)
    state.full = {s: p.copy() for s, p in state.d.players.items()}  # the first window's
    rnd = random.Random(seed)
    while True:
        for s in state.seats:
            assert _seat(state._opened(s)) == _seat(state.full[s]), (s, state.d.phase)
        if state.is_terminal():
            break
        seat = rnd.choice(state.current_seats())
        state.apply(seat, rnd.choice(state.legal_actions(seat)))


# ------------------------------------------------------------------ the log: texts made when read
class EagerLog(WWState):
    """Formats every log entry's text when it is written (as the engine did before)."""

    def note(self, seat, kind, text):
        if isinstance(text, tuple):
            text = text[0].format(*text[1:])
        super().note(seat, kind, text)


@pytest.mark.parametrize("seats, seed", CASES)
def test_the_log_read_is_the_log_written_at_once(seats, seed):
    """At every decision the log, and each seat's entries waiting for the close (R7.4),
    read from the entries kept as templates are those formatted as they were written."""
    lazy = GAME.new_state(seed=seed, seats=seats)
    start = GAME.new_state(seed=seed, seats=seats)
    eager = EagerLog(start.game, start.seats, start.d)
    eager.d.log = [(e["turn"], e["seat"], e["kind"], e["text"]) for e in start.log]

    def same(lazy, eager):
        assert lazy.log == eager.log
        assert lazy.log_of({"pick", "empire", "complete"}) == eager.log_of({"pick", "empire", "complete"})
        assert [p["pending_log"] for p in lazy.to_dict()["players"].values()] == \
               [p["pending_log"] for p in eager.to_dict()["players"].values()]

    play_twins(lazy, eager, random.Random(seed), same)
    assert any(isinstance(e[3], tuple) for e in lazy.d.log)  # (templates were kept)
