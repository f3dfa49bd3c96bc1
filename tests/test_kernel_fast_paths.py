"""The kernel's fast paths of the public interface (issue 17): a game whose steps never
ask (``Stepper.steps_ask`` False), the legal actions kept per state and handed out as
copies, the refusal of an answer a game words itself (``_stray_answer``), the events of a
few kinds read without the whole log (``log_of``), and the random generator's fingerprint
(``wgdsl.kernel.rng.fingerprint``).  Each test fails when its fast path is broken on
purpose (said in the commit that adds it)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

import wgdsl
from toy_stepper import OneSeat
from wgdsl.kernel.decision import Answer
from wgdsl.kernel.errors import IllegalAction
from wgdsl.kernel.rng import MASK, below, fingerprint, shuffled

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WAR = os.path.join(ROOT, "examples", "games", "war.game")
RPS = os.path.join(ROOT, "examples", "games", "rock-paper-scissors.game")


class NeverAsks(OneSeat):
    """One seat; its steps never ask (``steps_ask`` False), and ``_may_ask`` (``asked``)
    counts the times it is called anyway, answering True: were it asked, every step would
    be snapshotted.  Action ``ask`` raises Suspend all the same (a game that broke its
    word)."""

    steps_ask = False
    actions = ("go", "ask", "end")

    def __init__(self):
        super().__init__(asks=True)


def test_a_game_whose_steps_never_ask_is_never_asked_nor_snapshotted():
    state = NeverAsks()
    for _ in range(3):
        state.apply("A", "go")
    state.apply("A", "end")
    assert state.ran == [("A", "go")] * 3 + [("A", "end")] and state.is_terminal()
    assert state.asked == 0 and state.snaps == 0


def test_a_step_of_a_game_that_never_asks_that_asks_is_a_loud_error():
    with pytest.raises(RuntimeError, match=r"NeverAsks._may_ask said ask asks nothing, yet it "
                                           r"asked: which\?"):
        NeverAsks().apply("A", "ask")


def test_the_legal_actions_are_listed_once_per_state_and_handed_out_as_copies():
    """A bot may change the list it is given (remove what it tried, sort it): the state's
    own list, which ``apply`` checks against, stays as it was."""
    state = NeverAsks()
    for _ in range(2):  # the list as first made, then as kept
        given = state.legal_actions("A")
        given.remove("go")
        given.append("cheat")
    again = state.legal_actions("A")
    assert again == ["go", "ask", "end"] and again is not given
    assert state.listed == 1  # one listing for the state, however often it is asked
    with pytest.raises(IllegalAction):
        state.apply("A", "cheat")
    state.apply("A", "go")
    assert state.legal_actions("A") == ["go", "ask", "end"] and state.listed == 2
    assert state.legal_actions("B") == []  # not a current seat


def _walk(state, rnd, stop=None):
    """Random actions until the end (or until ``stop(state)`` holds)."""
    while not state.is_terminal() and not (stop and stop(state)):
        seat = state.current_seats()[0]
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    return state


def test_getgem_words_the_refusal_of_an_answer_it_did_not_ask_for():
    """GETGEM keeps its questions as its own data (the kernel sees none pending), so the
    refusal of a stray answer names its question, or says there is none, citing GG R14.3
    (the kernel's own wording would say there is no question while GETGEM asks one)."""
    game = wgdsl.load_game("getgem")
    state = game.new_state(seed=1)
    seat = state.current_seats()[0]
    with pytest.raises(IllegalAction, match="there is no question to answer now") as err:
        state.apply(seat, Answer(seat, "push X"))
    assert err.value.rule == "GG R14.3"
    asked = None
    for seed in range(200):
        state = _walk(game.new_state(seed=seed), random.Random(seed),
                      stop=lambda s: s.pending_decision() is not None)
        if state.pending_decision() is not None:
            asked = state
            break
    assert asked is not None, "no game of 200 met a question"
    q = asked.pending_decision()
    before = asked.to_dict()
    with pytest.raises(IllegalAction, match=f"must answer `{q.kind}` with one of") as err:
        asked.apply(q.seat, Answer(q.seat, "no such answer"))
    assert err.value.rule == "GG R14.3" and asked.to_dict() == before


@pytest.mark.parametrize("game_id, seats", [("world-gainer", 2), ("getgem", 3),
                                            ("wonderful-world", 2), (WAR, 2), (RPS, 2),
                                            ("imitation-world", 2)])
def test_log_of_gives_the_events_of_those_kinds_as_the_log_does(game_id, seats):
    game = wgdsl.load_game(game_id)
    for seed in range(2):
        state = _walk(game.new_state(seed=seed, seats=seats), random.Random(seed))
        # the kinds, from the same game played again (reading this one's log, or copying
        # it, may build texts a log keeps unbuilt)
        kinds = {e["kind"] for e in _walk(game.new_state(seed=seed, seats=seats),
                                          random.Random(seed)).log}
        assert len(kinds) >= 2
        sets = (set(sorted(kinds)[::2]), kinds, {"no such kind"}, set())
        read = [state.log_of(some) for some in sets]  # before the log is read whole
        log = state.log
        for some, events in zip(sets, read):
            assert events == [e for e in log if e["kind"] in some]
        assert state.log == log  # reading some kinds changed nothing


def test_the_fingerprint_of_a_generator_is_its_state():
    a, b = random.Random(5), random.Random(5)
    assert fingerprint(a) == fingerprint(b) and len(fingerprint(a)) == 16
    int(fingerprint(a), 16)
    a.random()
    assert fingerprint(a) != fingerprint(b)
    b.random()
    assert fingerprint(a) == fingerprint(b)
    a.gauss(0, 1)  # leaves a second Gaussian pending: part of the state
    b.setstate(a.getstate()[:2] + (None,))
    assert a.getstate()[1] == b.getstate()[1] and fingerprint(a) != fingerprint(b)
    prints = {fingerprint(random.Random(seed)) for seed in range(200)}
    assert len(prints) == 200


def test_the_fingerprint_is_the_same_in_another_process():
    code = ("import random; from wgdsl.kernel.rng import fingerprint; r = random.Random(11); "
            "r.gauss(0, 1); print(fingerprint(r))")
    seen = set()
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=ROOT)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True)
        seen.add(out.stdout.strip())
    r = random.Random(11)
    r.gauss(0, 1)
    assert seen == {fingerprint(r)}


def test_world_gainer_shows_its_generator_by_its_fingerprint():
    state = wgdsl.load_game("world-gainer").new_state(seed=3)
    twin = state.clone()
    assert state.to_dict()["rng"] == twin.to_dict()["rng"] == fingerprint(state.game.state.rng)
    state.game.state.rng.random()
    assert state.to_dict()["rng"] != twin.to_dict()["rng"]


def _shuffled_by_below(x: int, cards: list) -> int:
    """Fisher-Yates from the end with each index drawn by ``below``: what
    ``rng.shuffled`` writes out in its loop."""
    for i in range(len(cards) - 1, 0, -1):
        x, j = below(x, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return x


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 40, 61])
def test_shuffled_draws_as_below_does(size):
    """``shuffled``'s written-out draws give the permutation and the next state that
    ``below`` gives, seed by seed (shown failing with the index drawn as ``z % i``, and
    with the first mixing step's shift 30 made 31)."""
    for seed in range(300):
        x = (seed * 0x9E3779B97F4A7C15 + size) & MASK
        fast, plain = list(range(size)), list(range(size))
        assert shuffled(x, fast) == _shuffled_by_below(x, plain)
        assert fast == plain
