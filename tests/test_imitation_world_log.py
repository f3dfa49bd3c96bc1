"""Imitation World's log as the engine-api reads it (``log``, ``observation(seat)["log"]``,
``to_dict()["log"]``): the entries are kept as read, per seat, and only the ones written
since the last read are read again (issue 17).  Checked here, in seeded random games
through questions, rewinds, clones and resamples, against each entry read afresh as R24.5
says: a card's id where the seat knew it right after the event, ``?`` elsewhere.  (Seen to
fail on a deliberate break: kept entries never extended; kept entries kept across a
restore, whose log is a new list, for the test of a restore.)"""

from __future__ import annotations

import random

from imitation_world_games import imitation_world
from wgdsl.games.imitation_world.state import BIT, BOTH, SEATS

GAME = imitation_world()


def _plain(state, bit: int = BOTH) -> list:
    out = []
    for turn, seat, kind, text, cards in state.d.log:
        names = [c if (m & bit) or bit == BOTH else "?" for c, m in cards]
        out.append({"turn": turn, "seat": seat, "kind": kind, "text": text.format(*names),
                    "cards": names})
    return out


def _check(state) -> None:
    assert state.log == _plain(state)
    assert state.to_dict()["log"] == _plain(state)
    for s in SEATS:
        assert state.observation(s)["log"] == _plain(state, BIT[s])


def test_kept_log_agrees_with_the_log_read_afresh():
    questions = 0
    for seed in range(8):
        state = GAME.new_state(seed=seed)
        pick = random.Random(f"log {seed}")
        k = 0
        while not state.is_terminal():
            if k % 3 == 0:
                _check(state)
            if k % 41 == 0:
                _check(state.clone())
                for s in SEATS:
                    twin = state.resample(s, seed=k)
                    assert twin.observation(s)["log"] == _plain(twin, BIT[s])
                    assert twin.log == _plain(twin)
            seat = state.current_seats()[0]
            questions += state.question is not None
            state.apply(seat, pick.choice(state.legal_actions(seat)))
            k += 1
        _check(state)
    assert questions >= 5  # answers were given: steps were rewound and run again


def test_a_restored_log_is_read_again():
    """A restore (the Stepper's rewind) gives the state an earlier log as a new list: the
    entries kept of the old one are not read as its own, even once the new log is longer."""
    state = GAME.new_state(seed=2)
    pick = random.Random("restore")
    for _ in range(60):
        seat = state.current_seats()[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    before = state.d.copy()
    state.log  # kept to here
    for _ in range(30):
        seat = state.current_seats()[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    longer = len(state.log)
    state._restore(before)
    state._legal, state._who = {}, None
    other = random.Random("another way")
    while len(state.d.log) <= longer and not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(seat, other.choice(state.legal_actions(seat)))
    assert state.log == _plain(state)


def test_a_read_log_is_the_callers_own():
    state = GAME.new_state(seed=1)
    pick = random.Random("own")
    for _ in range(40):
        seat = state.current_seats()[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    first = state.log
    for e in first:
        e["text"] = "changed"
        e["cards"].append("changed")
    assert state.log == _plain(state)
    view = state.observation("A")["log"]
    view[0]["cards"].append("x")
    assert state.observation("A")["log"] == _plain(state, BIT["A"])
