"""Every game as an OpenSpiel game (wgdsl/env/openspiel.py): OpenSpiel's own API plays it,
and OpenSpiel's MCTS bot, searching states resampled for what it cannot see, plays it.
Skipped where pyspiel is not installed (`pip install '.[rl]'`; .ci/run installs it).

The strength test (deep profile only: minutes of search) plays MCTS against wgdsl's
random bot and requires the lower end of the 95 % Wilson interval of MCTS's score to be
above one half: MCTS is better than random, with that confidence."""

from __future__ import annotations

import math
import os
import random

import pytest

pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from wgdsl.env.openspiel import load, resampled, same_action  # noqa: E402

DEEP = (os.environ.get("HYPOTHESIS_PROFILE") or "ci") == "deep"


@pytest.mark.parametrize("name, seats", [("world-gainer", None), ("getgem", 3),
                                         ("wonderful-world", 2), ("imitation-world", None)])
def test_openspiels_api_plays_a_game_to_the_engines_returns(name, seats):
    game = load(name, seats=seats, seed=3)
    state = game.new_initial_state()
    rnd = random.Random(3)
    twin = None
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        assert legal == list(range(len(legal))) and legal
        assert state.action_to_string(player, 0) == str(
            state.engine.legal_actions(state.engine.current_seats()[0])[0])
        if twin is None and len(state.engine.log) > 20:
            twin = state.clone()  # a clone goes its own way
            before = twin.engine.to_dict()
        state.apply_action(rnd.choice(legal))
    assert twin is not None and twin.engine.to_dict() == before
    returns = state.engine.returns()
    assert state.returns() == [float(returns[s]) for s in game.seat_names]


def _mcts_game(game, seed: int, mcts_player: int, sims: int) -> float:
    state = game.new_initial_state(seed=seed)
    rnd = random.Random(seed)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=sims,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                       random_state=np.random.RandomState(seed))
    k = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == mcts_player:  # search a state it cannot tell from the true one
            seen = resampled(state, player, seed * 10_000 + k)
            k += 1
            action = same_action(seen, bot.step(seen), state)
        else:
            action = rnd.choice(state.legal_actions())
        state.apply_action(action)
    return state.returns()[mcts_player]


def test_mcts_plays_on_resampled_states():
    game = load("getgem", seats=2)
    score = _mcts_game(game, seed=1, mcts_player=0, sims=4)
    assert score in (0.0, 0.5, 1.0)


def wilson_low(wins: float, n: int, z: float = 1.96) -> float:
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


@pytest.mark.skipif(not DEEP, reason="minutes of search: HYPOTHESIS_PROFILE=deep")
@pytest.mark.parametrize("name, games, sims", [("getgem", 60, 40), ("world-gainer", 24, 30)])
def test_mcts_beats_random_with_95_percent_confidence(name, games, sims):
    game = load(name, seats=2)
    score = sum(_mcts_game(game, seed, seed % 2, sims) for seed in range(games))
    assert wilson_low(score, games) > 0.5, (name, score, games)


def test_the_wilson_bound_is_the_textbook_one():
    # 8 of 10: the 95 % Wilson interval is about [0.490, 0.943]
    assert abs(wilson_low(8, 10) - 0.490) < 0.001
    assert abs(wilson_low(60, 60) - 60 / (60 + 1.96 ** 2)) < 1e-12  # all won: n / (n + z^2)
