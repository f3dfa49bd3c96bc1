"""Every wgdsl game as a PettingZoo AEC environment (``pip install 'wgdsl[pettingzoo]'``).

One adapter over engine-api.md serves every game wgdsl describes::

    from wgdsl.env.pettingzoo import env
    e = env("getgem", seats=4)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

- **Agents** are the game's seats (``A``, ``B``... or ``P1``...); ``agent_selection`` is
  the first of ``current_seats()`` (a simultaneous window is taken seat by seat: the
  engine keeps each commit hidden from the others until the last, so nothing leaks).
- **Actions** are indices into the seat's legal actions, in the order
  ``legal_actions(seat)`` gives them: ``Discrete(max_actions)`` with ``action_mask``
  marking the first ``len(legal)`` indices.  The meaning of an index changes with the
  state; ``info["actions"]`` holds the legal actions' text for agents that want names.
- **Observations** are ``{"observation", "action_mask"}``: ``observation`` is the seat's
  engine-api observation as UTF-8 JSON bytes, zero-padded to ``observation_bytes``
  (``Box(0, 255, (n,), uint8)``) — game-independent; an agent decodes it with
  :func:`decode`.  A game whose observation outgrows the box is an error naming the size
  to give instead.
- **Rewards** are ``returns()`` when the game ends (1/0 for games won, scores for games
  ranked by score), 0 before.
"""

from __future__ import annotations

import json
from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from wgdsl.games import load_game

OBSERVATION_BYTES = 1 << 16
MAX_ACTIONS = 1024


def decode(observation: np.ndarray) -> dict:
    """The engine-api observation inside an ``observation`` array of this environment."""
    raw = bytes(observation).rstrip(b"\0")
    return json.loads(raw.decode("utf-8"))


class WgdslEnv(AECEnv):
    """A wgdsl game as an AEC environment (see the module docstring)."""

    metadata = {"name": "wgdsl", "is_parallelizable": False, "render_modes": ["ansi"]}

    def __init__(self, game: str = "world-gainer", seats: Optional[int] = None,
                 options: Optional[dict] = None, render_mode: Optional[str] = None,
                 max_actions: int = MAX_ACTIONS, observation_bytes: int = OBSERVATION_BYTES):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: None or 'ansi', not {render_mode!r}")
        self.game = load_game(game)
        self.seats_count, self.options = seats, options
        self.render_mode = render_mode
        self.max_actions, self.observation_bytes = max_actions, observation_bytes
        probe = self.game.new_state(seed=0, seats=seats, options=options)
        self.possible_agents = list(probe.seats)
        self.metadata = dict(self.metadata, name=f"wgdsl_{self.game.id}")
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, 255, (observation_bytes,), np.uint8),
                "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
            }) for a in self.possible_agents}
        self.state = None

    def __str__(self) -> str:
        return self.metadata["name"]

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC
    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self.state = self.game.new_state(seed=0 if seed is None else int(seed),
                                         seats=self.seats_count, options=self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _legal(self, agent: str) -> list:
        legal = self.state.legal_actions(agent)
        if len(legal) > self.max_actions:
            raise ValueError(f"{self.game.name} offers {len(legal)} actions here, more than "
                             f"max_actions={self.max_actions}: make the environment with a "
                             "larger max_actions")
        return legal

    def _select(self) -> None:
        if self.state.is_terminal():
            return
        self.agent_selection = self.state.current_seats()[0]
        for a in self.agents:
            self.infos[a] = {"actions": [str(x) for x in self._legal(a)]} \
                if a == self.agent_selection else {}

    def observe(self, agent: str) -> dict:
        raw = json.dumps(self.state.observation(agent), sort_keys=True,
                         ensure_ascii=False).encode("utf-8")
        if len(raw) > self.observation_bytes:
            raise ValueError(f"{self.game.name}'s observation is {len(raw):,} bytes, more than "
                             f"observation_bytes={self.observation_bytes:,}: make the "
                             "environment with a larger observation_bytes")
        observation = np.zeros(self.observation_bytes, np.uint8)
        observation[:len(raw)] = np.frombuffer(raw, np.uint8)
        mask = np.zeros(self.max_actions, np.int8)
        if not self.state.is_terminal() and agent == self.agent_selection:
            mask[:len(self._legal(agent))] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal(agent)
        index = int(action)
        if not 0 <= index < len(legal):
            raise ValueError(f"action {index} is not legal for {agent}: the mask allows 0 to "
                             f"{len(legal) - 1}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.state.apply(agent, legal[index])
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: float(returns[a]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {} for a in self.agents}
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi" or self.state is None:
            return None
        render = getattr(self.game, "render", None)
        if render is not None:
            return render(self.state)
        return json.dumps(self.state.to_dict(), ensure_ascii=False, indent=1)

    def close(self) -> None:
        self.state = None


def env(game: str = "world-gainer", **kwargs) -> WgdslEnv:
    """A wgdsl game (a built-in id or a game file) as a PettingZoo AEC environment."""
    return WgdslEnv(game, **kwargs)
