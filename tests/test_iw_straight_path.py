"""Imitation World's public loop has a straight path (IWState.apply, legal_actions and
_find_who for the common case: between steps, the action listed) beside the kernel's
(issue 17).  Here both paths play the same seeded games, a state stepped by the kernel's
path being a subclass that gives a hook of its own (so __init_subclass__ hands it the
kernel's methods): every legal list, question, log, to_dict and refusal must be the same.
(Seen to fail on a deliberate break: the straight path's inline _may_ask taking `next`
from main 2 as quiet gives a RuntimeError "_may_ask said next asks nothing"; an apply that
forgets to drop the kept lists lets a stale listed action through (the engine then
finds no such card in the hand).)"""

from __future__ import annotations

import json
import random

import pytest

from imitation_world_games import imitation_world
from wgdsl.games.imitation_world.state import IWState, Action
from wgdsl.kernel.errors import IllegalAction
from wgdsl.kernel.stepper import Stepper

GAME = imitation_world()


class KernelPath(IWState):
    """The same game stepped by the kernel's path (a hook of its own: the same _may_ask)."""

    def _may_ask(self, seat, action):
        return super()._may_ask(seat, action)

    def _copy(self):
        return KernelPath(self.game, self.table, self.d.copy(), dict(self.markers))


def test_a_subclass_with_hooks_of_its_own_takes_the_kernel_path():
    assert KernelPath.apply is IWState._apply_kernel
    assert KernelPath._find_who is Stepper._find_who
    assert IWState.apply is not IWState._apply_kernel


def _play(state, seed: int, trace: list) -> None:
    pick = random.Random(f"straight {seed}")
    k = 0
    while not state.is_terminal():
        seat = state.current_seats()[0]
        legal = state.legal_actions(seat)
        trace.append((seat, [str(a) for a in legal], state.decision_kind()))
        if k % 7 == 3:  # a refusal: another seat, then an action not listed
            foe = "B" if seat == "A" else "A"
            trace.append(("other", [str(a) for a in state.legal_actions(foe)]))
            for bad in ((foe, legal[0]), (seat, Action("attack A:NOPE player"))):
                before = json.dumps(state.to_dict(), sort_keys=True)
                with pytest.raises(IllegalAction) as info:
                    state.apply(*bad)
                trace.append(("refused", info.value.rule, str(info.value)))
                assert json.dumps(state.to_dict(), sort_keys=True) == before
        a = pick.choice(legal)
        # now and then the action's text, as a person types it
        state.apply(seat, str(a) if k % 5 == 1 else a)
        k += 1
    trace.append(("end", state.winners(), state.win_reason(), state.log))


def test_both_paths_play_the_same_games():
    asked = 0
    for seed in range(12):
        fast = GAME.new_state(seed=seed)
        slow = KernelPath(fast.game, fast.table, fast.d.copy())
        t1, t2 = [], []
        _play(fast, seed, t1)
        _play(slow, seed, t2)
        assert t1 == t2, f"game {seed}"
        asked += sum(1 for t in t1 if len(t) == 3 and t[2] in ("yes_no", "choose", "order"))
    assert asked, "no question in 12 games: the test lost part of its subject"
