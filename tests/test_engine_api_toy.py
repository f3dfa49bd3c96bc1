"""The engine-api properties (tests/engine_api_props.py) on the toy game of
tests/toy_games.py: they hold on it, and each one catches the break it is there for (a
subclass of the toy game with one deliberate defect per test)."""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest
from hypothesis import strategies as st

import engine_api_props as props
from toy_games import Pairs, PairsState, max_actions, rank
from wgdsl.kernel.api import Game, State
from wgdsl.kernel.errors import IllegalAction

HERE = os.path.dirname(os.path.abspath(__file__))
SUBJECT = props.Subject(game=Pairs(), seat_counts=st.integers(2, 4), max_actions=max_actions,
                        factory="toy_games:Pairs", path=HERE)

FIND = props.find_break()


# ------------------------------------------------------------------ the properties hold
@pytest.mark.parametrize("name", sorted(props.ALL))
def test_the_toy_game_keeps_the_property(name):
    props.ALL[name](SUBJECT)


def test_the_toy_game_is_deterministic_across_processes():
    props.check_determinism(SUBJECT)


def test_the_toy_game_has_what_the_properties_need():
    """The properties are not vacuous on it: random games reach every seat count, windows of
    several seats, the pending swap, ties, sole and shared winners, games with no winner."""
    seen = set()
    for seed in range(300):
        walk = props.Walk(SUBJECT, seed, 2 + seed % 3, random.Random(seed))
        walk.run(lambda w, i: seen.add(("window", len(w.state.current_seats())))
                 if w.state.phase == "show" else seen.add(("pending", w.state.phase)))
        seen.add(("winners", len(walk.state.winners())))
        seen.update(("log", e["kind"]) for e in walk.state.log)
    assert {("window", 4), ("window", 2), ("pending", "swap"), ("log", "tie"),
            ("winners", 0), ("winners", 1), ("winners", 2)} <= seen, seen


def test_the_toy_game_satisfies_the_protocols():
    game = Pairs()
    assert isinstance(game, Game) and isinstance(game.new_state(seed=1), State)
    assert game.new_state(seed=1).seats == ("A", "B")  # the smallest count by default


def test_a_refusal_names_the_rule_and_changes_nothing():
    state = Pairs().new_state(seed=3, seats=2)
    before = props.frozen(state)
    with pytest.raises(IllegalAction) as e:
        state.apply("A", "play 99")
    assert e.value.rule == "T2" and "the actions are play" in e.value.reason
    with pytest.raises(IllegalAction, match="no seat 'Z'"):
        state.apply("Z", state.legal_actions("A")[0])
    assert props.frozen(state) == before


# ------------------------------------------------------------------ each break is caught
class SharedClone(PairsState):
    def clone(self):
        new = super().clone()
        new.hands = self.hands  # the defect: the clone shares the hands
        return new


class LeakyHand(PairsState):
    def observation(self, seat):
        obs = super().observation(seat)
        obs["others"] = {s: sorted(h) for s, h in self.hands.items() if s != seat}
        return obs


class LeakyCommit(PairsState):
    def observation(self, seat):
        obs = super().observation(seat)
        obs["commits"] = dict(self.commits)
        return obs


class MutatingRefusal(PairsState):
    def refuse(self, seat, action):
        self.note(seat, "refused", f"{seat} tried {action!r}")  # the defect: logs first
        super().refuse(seat, action)


class UnseededShuffle(PairsState):
    def shuffle(self, cards):
        random.shuffle(cards)  # the defect: the process's generator, not the game's


class ResampleKeepsSeed(PairsState):
    def resample(self, seat, seed):
        new = super().resample(seat, seed)
        new.rng = self.rng  # the defect: the future is the original's
        return new


class ResampleDealsOwnHand(PairsState):
    def unseen(self, seat):
        return super().unseen(seat) + [(self.hands[seat], i)
                                       for i in range(len(self.hands[seat]))]


class NamelessRefusal(PairsState):
    def refuse(self, seat, action):
        try:
            super().refuse(seat, action)
        except IllegalAction:
            raise IllegalAction("no") from None  # the defect: no rule cited


class ResampleOnlyReseeds(PairsState):
    def unseen(self, seat):
        return []  # the defect: nothing is re-dealt, the hidden cards are the real ones


class NeverEnds(PairsState):
    def show(self):  # the shown cards go back to their hands, nobody scores
        for s, c in self.commits.items():
            self.hands[s].append(c)
        self.commits = {}
        self.round += 1


class FirstCommitWinsTies(PairsState):
    def show(self):
        # the defect: shown in commit order, and the first to commit wins a tie
        shown = list(self.commits.items())
        for s, c in shown:
            self.note(s, "show", f"{s} shows {c}")
            self.discard.append(c)
        self.commits = {}
        top = max(rank(c) for _, c in shown)
        self.scorer = next(s for s, c in shown if rank(c) == top)
        self.points[self.scorer] += 1
        self.phase = "swap"


def broken(state_class) -> props.Subject:
    game = Pairs()
    game.state_class = state_class
    return replace(SUBJECT, game=game, factory=f"test_engine_api_toy:{state_class.__name__}Game")


class HashOrderDraws(PairsState):
    def end_round(self):
        # the defect: the seats draw in the order of a set of strings (PYTHONHASHSEED's)
        for s in {s for s in self.seats}:
            self.draw(s)
        self.scorer, self.round = None, self.round + 1
        if self.round > 5:
            self.finish((), "T5")
        else:
            self.phase = "show"


# the factory the other process imports (check_determinism)
def HashOrderDrawsGame():
    game = Pairs()
    game.state_class = HashOrderDraws
    return game


@pytest.mark.parametrize("state_class, check, message", [
    (SharedClone, props.check_clone, "(2) the clone made at action"),
    (MutatingRefusal, props.check_refusals, "(1) refusing"),
    (NamelessRefusal, props.check_refusals, "names no rule"),
    (ResampleOnlyReseeds, props.check_resample, "all deal it as it is"),
    (LeakyHand, props.check_resample, "changed what"),
    (ResampleDealsOwnHand, props.check_resample, "changed what"),
    (ResampleKeepsSeed, props.check_resample, "does not re-seed the generator"),
    (NeverEnds, props.check_ends, "did not end within its own cap"),
    (LeakyCommit, props.check_window, "observation shows what"),
    (FirstCommitWinsTies, props.check_window, "the order of commits changed the result"),
])
def test_a_broken_game_fails_its_property(state_class, check, message):
    with pytest.raises(AssertionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check(broken(state_class), FIND)


def test_an_unseeded_shuffle_fails_determinism():
    with pytest.raises(AssertionError, match=r"\(4\) a new game of the same seed"):
        props.check_determinism(broken(UnseededShuffle), games=3)


def test_an_order_of_hashes_fails_determinism_across_processes():
    """Same in one process (so only the other process can show it)."""
    subject = broken(HashOrderDraws)
    # this process's own hash seed is random: with small odds it orders the set as the
    # other process does; a second seed for the other process makes a miss negligible
    with pytest.raises(AssertionError, match=r"\(4\) seed=\d+ seats=\d: another process"):
        for hashseed in ("12345", "54321", "999"):
            props.check_determinism(subject, games=6, hashseed=hashseed)
