"""Every wgdsl game as an OpenSpiel game registered from Python (``pip install 'wgdsl[rl]'``).

    from wgdsl.env.openspiel import load
    game = load("getgem", seats=3)          # pyspiel.Game ("wgdsl_getgem")
    state = game.new_initial_state()        # seed 0; load(..., seed=N) for another deal

- **Players** are the seats in order (0 = ``A`` or ``P1``); ``current_player()`` is the
  first of ``current_seats()`` (a simultaneous window is taken seat by seat; the engine
  keeps each commit hidden until the last).
- **Actions** are indices into the current seat's legal actions, in engine order:
  ``num_distinct_actions`` is a bound (1024), and ``action_to_string`` gives the
  engine's text.  An index means an action only in its state (search trees keep actions
  per node, so OpenSpiel's MCTS works unchanged).
- **Chance** stays inside the engine (its seeded generator): the game is sampled
  stochastic.  **Hidden information**: :func:`resampled` gives a state the current
  player cannot tell from this one (engine-api ``resample``), so a search can run on it —
  determinized MCTS — and :func:`same_action` maps its choice back by text.
- **Returns** are the engine's ``returns()`` (1/0 or 1/N; scores for games ranked by
  score).
"""

from __future__ import annotations

from typing import Optional

import pyspiel

from wgdsl.games import load_game

MAX_ACTIONS = 1024
MAX_LENGTH = 20_000  # actions: World Gainer's longest random games are a few thousand


def _game_type(name: str, seats: int, scored: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"wgdsl_{name}",
        long_name=f"wgdsl {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.GENERAL_SUM if scored
                 else pyspiel.GameType.Utility.CONSTANT_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=seats,
        min_num_players=seats,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"seed": 0})


class WgdslGame(pyspiel.Game):
    """A wgdsl game at a fixed seat count, as a pyspiel.Game."""

    def __init__(self, name: str, seats: Optional[int], options: Optional[dict], seed: int):
        self.engine = load_game(name)
        self.seats_count, self.engine_options, self.seed = seats, options, seed
        probe = self.engine.new_state(seed=seed, seats=seats, options=options)
        self.seat_names = tuple(probe.seats)
        scored = getattr(self.engine, "id", "") == "wonderful-world"
        n = len(self.seat_names)
        info = pyspiel.GameInfo(num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=0,
                                num_players=n, min_utility=0.0,
                                max_utility=1e6 if scored else 1.0,
                                utility_sum=None if scored else 1.0,
                                max_game_length=MAX_LENGTH)
        super().__init__(_game_type(self.engine.id, n, scored), info, {"seed": seed})

    def new_initial_state(self, seed: Optional[int] = None):
        state = self.engine.new_state(seed=self.seed if seed is None else seed,
                                      seats=self.seats_count, options=self.engine_options)
        return WgdslState(self, state)


class WgdslState(pyspiel.State):
    """One wgdsl state as a pyspiel.State."""

    def __init__(self, game: WgdslGame, engine_state):
        super().__init__(game)
        self.wgame = game
        self.engine = engine_state

    # ------------------------------------------------------------------ pyspiel API
    def current_player(self) -> int:
        if self.engine.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.wgame.seat_names.index(self.engine.current_seats()[0])

    def _seat(self, player: int) -> str:
        return self.wgame.seat_names[player]

    def _legal_actions(self, player: int) -> list:
        seat = self._seat(player)
        legal = self.engine.legal_actions(seat)
        if len(legal) > MAX_ACTIONS:  # pragma: no cover - no game offers so many yet
            raise ValueError(f"{len(legal)} legal actions, more than {MAX_ACTIONS}")
        return list(range(len(legal)))

    def _apply_action(self, action: int) -> None:
        seat = self.engine.current_seats()[0]
        self.engine.apply(seat, self.engine.legal_actions(seat)[action])

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.engine.legal_actions(self._seat(player))[action])

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list:
        if not self.engine.is_terminal():
            return [0.0] * len(self.wgame.seat_names)
        got = self.engine.returns()
        return [float(got[s]) for s in self.wgame.seat_names]

    def __str__(self) -> str:
        return f"wgdsl {self.wgame.engine.id}: " + ", ".join(
            f"{s}" for s in self.engine.current_seats())

    def clone(self):
        return WgdslState(self.wgame, self.engine.clone())

    def __deepcopy__(self, memo):
        return self.clone()


def load(name: str, seats: Optional[int] = None, options: Optional[dict] = None,
         seed: int = 0) -> WgdslGame:
    """A wgdsl game (a built-in id or a game file) as a pyspiel.Game."""
    return WgdslGame(name, seats, options, seed)


def resampled(state: WgdslState, player: int, seed: int) -> WgdslState:
    """A state ``player`` cannot tell from ``state`` (engine-api ``resample``)."""
    return WgdslState(state.wgame, state.engine.resample(state.wgame.seat_names[player], seed))


def same_action(source: WgdslState, action: int, target: WgdslState) -> int:
    """The index in ``target`` of the action ``action`` names in ``source`` (by its text:
    a seat's own legal actions are the same in every state it cannot tell apart)."""
    player = source.current_player()
    text = source.action_to_string(player, action)
    for index in target.legal_actions(player):
        if target.action_to_string(player, index) == text:
            return index
    raise ValueError(f"{text!r} is not legal in the other state")
