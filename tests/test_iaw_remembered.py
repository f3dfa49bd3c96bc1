"""It's a Wonderful World's remembered state (issue 17) against what it stands for, at every
decision of seeded games at 1, 2, 3 and 5 seats: the current seats kept as seats commit
(``WWState._cur``) against the seats not committed; the public loop's straight path
(``WWState.apply`` and friends) against the kernel's path (``Stepper.apply``) on a twin
given the same actions."""

from __future__ import annotations

import json
import random

import pytest

import wgdsl
from wgdsl.kernel.stepper import Stepper

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
