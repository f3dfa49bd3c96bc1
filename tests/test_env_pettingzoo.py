"""Every game as a PettingZoo AEC environment (wgdsl/env/pettingzoo.py) passes PettingZoo's
own api_test and seed_test.  Skipped where pettingzoo is not installed (`pip install
'.[pettingzoo]'`; .ci/run installs it and runs this file)."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from wgdsl.env.pettingzoo import decode, env  # noqa: E402

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
GAMES = [("world-gainer", None), ("getgem", 2), ("getgem", 5), ("wonderful-world", 3),
         ("wonderful-world", 1), (str(ROOT / "examples/games/rock-paper-scissors.game"), 3),
         ("imitation-world", None)]


@pytest.mark.parametrize("game, seats", GAMES)
def test_pettingzoos_own_api_and_seed_tests_pass(game, seats):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its style advice (agent names, Box observations)
        api_test(env(game, seats=seats), num_cycles=200)
        seed_test(lambda: env(game, seats=seats), num_cycles=50)


def test_the_observation_is_the_seats_own_and_the_mask_its_legal_actions():
    e = env("getgem", seats=3)
    e.reset(seed=4)
    agent = e.agent_selection
    obs, reward, terminated, truncated, info = e.last()
    seen = decode(obs["observation"])
    assert seen == e.state.observation(agent) and seen["seat"] == agent
    assert int(obs["action_mask"].sum()) == len(info["actions"]) == len(e.state.legal_actions(agent))
    other = next(a for a in e.agents if a != agent)
    assert e.observe(other)["action_mask"].sum() == 0  # only the current seat may act
    with pytest.raises(ValueError, match="is not legal for"):
        e.step(len(info["actions"]))


def test_rewards_are_the_games_returns_at_the_end():
    e = env("wonderful-world", seats=2)
    e.reset(seed=1)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        e.step(None if terminated or truncated else
               e.action_space(agent).sample(obs["action_mask"]))
    # It's a Wonderful World ranks by score: the returns are the scores (IAW R22.5)
    assert total == {a: float(v) for a, v in e.state.returns().items()}


def test_a_too_small_observation_box_says_what_to_give():
    e = env("world-gainer", observation_bytes=64)
    with pytest.raises(ValueError, match="larger observation_bytes"):
        e.reset(seed=0)
        e.last()
