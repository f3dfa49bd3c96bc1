"""The kernel's Stepper (wgdsl/kernel/stepper.py) keeps engine-api.md's invariants for a
game written as an engine that asks in the middle of a step: the toy game of
tests/toy_stepper.py, with a simultaneous window and a question inside its resolution.
Each property is also shown to catch a Stepper-level break."""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest
from hypothesis import strategies as st

import engine_api_props as props
from toy_games import max_actions
from toy_stepper import OneSeat, PairsOnStepper, PairsStepper
from wgdsl.kernel.decision import Answer
from wgdsl.kernel.errors import IllegalAction

HERE = os.path.dirname(os.path.abspath(__file__))
SUBJECT = props.Subject(game=PairsOnStepper(), seat_counts=st.integers(2, 4),
                        max_actions=max_actions, factory="toy_stepper:PairsOnStepper", path=HERE)
FIND = props.find_break()


@pytest.mark.parametrize("name", sorted(props.ALL))
def test_the_stepper_keeps_the_property(name):
    props.ALL[name](SUBJECT)


def test_the_stepper_is_deterministic_across_processes():
    props.check_determinism(SUBJECT)


def _to_question(seed: int) -> PairsStepper:
    rnd = random.Random(seed)
    state = PairsOnStepper().new_state(seed=seed, seats=3)
    while state.question is None and not state.is_terminal():
        for seat in state.current_seats():
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rnd.randrange(len(legal))])
    return state


def test_a_window_hides_commits_and_a_question_stops_its_resolution():
    state = PairsOnStepper().new_state(seed=4, seats=3)
    assert state.current_seats() == ("A", "B", "C")
    a = state.legal_actions("A")[0]
    state.apply("A", a)
    assert state.current_seats() == ("B", "C")
    with pytest.raises(IllegalAction, match="already committed"):
        state.apply("A", state.legal_actions("B")[0])
    assert state.observation("B")["committed"] is None
    assert state.observation("A")["committed"] == str(a)
    state = _to_question(4)
    dec = state.question.decision
    assert state.current_seats() == (dec.seat,)
    assert state.legal_actions(dec.seat)[-1] == Answer(dec.seat, "keep")
    other = next(s for s in state.seats if s != dec.seat)
    assert state.observation(other)["decision"] == {"seat": dec.seat}  # private options


# ------------------------------------------------------------------ breaks are caught
class SharesLog(PairsStepper):
    """A copy that shares the log with the original."""

    def _copy(self):
        twin = super()._copy()
        twin.s["log"] = self.s["log"]
        return twin


class ShowsCommits(PairsStepper):
    def observation(self, seat):
        obs = super().observation(seat)
        obs["commits"] = {s: str(a) for s, a in self.commits.items()}
        return obs


def _broken(cls):
    game = PairsOnStepper()
    game.state_class = cls
    return replace(SUBJECT, game=game)


@pytest.mark.parametrize("cls, check, message", [
    (SharesLog, props.check_clone, r"\(2\)"),
    (ShowsCommits, props.check_window, "observation"),
])
def test_a_broken_stepper_game_is_caught(cls, check, message):
    with pytest.raises(AssertionError, match=message):
        check(_broken(cls), FIND)



def test_listed_actions_are_found_by_identity_before_equality():
    """Listed (the legal actions of a game whose actions compare in Python) looks for the
    very object first, so the Stepper's test of an action applied calls no ``__eq__``
    for the action a bot handed back; an equal action made again is still taken."""
    from wgdsl.kernel.stepper import Listed

    compared = []

    class Noisy:
        def __init__(self, text):
            self.text = text

        def __eq__(self, other):
            compared.append(self.text)
            return isinstance(other, Noisy) and other.text == self.text

        __hash__ = None

    legal = Listed([Noisy("a"), Noisy("b"), Noisy("c")])
    assert legal[2] in legal and compared == []
    assert Noisy("b") in legal and compared  # then equality, as a list's `in`
    assert Noisy("z") not in legal


def test_a_step_said_to_ask_nothing_runs_without_a_snapshot_to_its_end_or_stop():
    """One seat acting, no question pending: a step the game says asks nothing is run
    straight (no snapshot), the legal actions and who acts are worked out again after it,
    a runaway stops the game, and a question it meets is a loud RuntimeError."""
    state = OneSeat()
    state.apply("A", "go")
    assert state.ran == [("A", "go")] and state.snaps == 0
    assert state.legal_actions("A") and state.current_seats() == ("A",)
    state.apply("A", "end")  # who acts and what is legal, worked out again after it
    assert state.ran[-1] == ("A", "end") and state.is_terminal() and state.snaps == 0
    assert state.current_seats() == () and state.legal_actions("A") == []

    stopped = OneSeat()
    stopped.apply("A", "loop")
    assert stopped.stopped == "the effects never end" and stopped.is_terminal()
    with pytest.raises(IllegalAction, match="it stopped"):
        stopped.apply("A", "go")

    with pytest.raises(RuntimeError, match=r"_may_ask said ask asks nothing, yet it asked: which\?"):
        OneSeat().apply("A", "ask")
    with pytest.raises(ValueError, match="broken engine"):
        OneSeat().apply("A", "fail")


def test_a_step_that_may_ask_is_snapshotted_and_its_question_kept():
    """The same steps said to maybe ask: snapshotted, the question kept as data (its seat,
    action and answers), and answering it retraces the step with the answer."""
    state = OneSeat(asks=True)
    state.apply("A", "ask")
    q = state.question
    assert state.snaps == 1 and (q.seat, q.action, q.answers) == ("A", "ask", [])
    assert state.legal_actions("A") == [Answer("A", "x"), Answer("A", "y")]
    state.apply("A", Answer("A", "y"))
    assert state.question is None and state.ran == [("A", "ask")]  # restored, then retraced
    with pytest.raises(ValueError, match="broken engine"):
        state.apply("A", "fail")
    assert state.ran == [("A", "ask")]  # the failed step rolled back to its snapshot
