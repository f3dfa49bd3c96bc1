"""Playing whole games between agents: one game with its log, or many with statistics.

``play_game`` runs one game to its end through the public API (``legal_actions`` /
``apply``); ``play_many`` runs a series with reproducible seeds and gathers win rates,
turns and win conditions.  The CLI's ``wgdsl play`` is a thin layer over these.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Optional, Sequence

import attrs

from .agents import make_agent
from .cards import CardLibrary
from .engine import Game
from .errors import RunawayEffects

WIN_CONDITIONS = {
    "R12.1": "holds all 3 battle-field squares",
    "R12.2": "has 15 points or more",
    "R12.3": "the opponent had to draw from an empty stock",
}
TURN_LIMIT = "turn limit"


@attrs.frozen
class GameResult:
    seed: int
    first: str
    winner: Optional[str]
    reason: str  # an R12 rule number, or "turn limit"
    turns: int
    actions: int


def describe_result(result: GameResult) -> str:
    if result.winner is None:
        return (f"No winner: the game was stopped at the turn limit after {result.turns} turns "
                "(not a rule of the game; raise --max-turns)")
    return (f"Winner: {result.winner} — {WIN_CONDITIONS.get(result.reason, result.reason)} "
            f"({result.reason}), turn {result.turns}")


def new_game(library: CardLibrary, decks: dict, agents: Sequence[str], seed: int, first: str,
             log: bool = True) -> Game:
    players = {"A": make_agent(agents[0], seed * 2 + 1), "B": make_agent(agents[1], seed * 2 + 2)}
    return Game.new(library, decks, seed=seed, first=first, agents=players, log=log)


def run_to_end(game: Game, max_turns: int = 1000) -> int:
    """Drive a game by its agents until it ends or passes ``max_turns``; returns actions."""
    actions = 0
    state = game.state
    while state.winner is None and state.turn <= max_turns:
        legal = game.legal_actions()
        game.apply(game.agents[state.active].act(game, legal))
        actions += 1
    return actions


def play_game(library: CardLibrary, decks: dict, agents: Sequence[str] = ("greedy", "greedy"),
              seed: int = 0, first: str = "A", max_turns: int = 1000,
              log: bool = True) -> tuple[Game, GameResult]:
    try:
        game = new_game(library, decks, agents, seed, first, log)
        actions = run_to_end(game, max_turns)
    except RunawayEffects as err:  # say which game the loop stopped
        raise RunawayEffects(f"the game of seed {seed} ({first} first) was stopped: {err.message}",
                             err.cards, err.cycle) from None
    st = game.state
    result = GameResult(seed, first, st.winner, st.win_reason or TURN_LIMIT,
                        min(st.turn, max_turns), actions)
    return game, result


@attrs.define
class Summary:
    games: int = 0
    wins: Counter = attrs.Factory(Counter)  # "A"/"B"/None -> games
    reasons: Counter = attrs.Factory(Counter)  # rule -> games
    first_wins: int = 0
    turns: int = 0
    actions: int = 0

    def add(self, r: GameResult) -> None:
        self.games += 1
        self.wins[r.winner] += 1
        self.reasons[r.reason] += 1
        self.first_wins += r.winner == r.first
        self.turns += r.turns
        self.actions += r.actions

    def to_dict(self) -> dict:
        g = max(self.games, 1)
        return {
            "games": self.games,
            "win_rate": {p: self.wins[p] / g for p in ("A", "B")},
            "no_winner": self.wins[None] / g,
            "first_player_win_rate": self.first_wins / g,
            "average_turns": self.turns / g,
            "average_actions": self.actions / g,
            "win_conditions": {k: self.reasons[k] / g for k in sorted(self.reasons)},
        }

    def lines(self) -> list[str]:
        d = self.to_dict()
        out = [f"{self.games} games"]
        for p in ("A", "B"):
            out.append(f"  {p} wins      {self.wins[p]:>7}  {d['win_rate'][p]:6.1%}")
        if self.wins[None]:
            out.append(f"  no winner   {self.wins[None]:>7}  {d['no_winner']:6.1%}  (turn limit)")
        out.append(f"  first player wins {d['first_player_win_rate']:6.1%}")
        out.append(f"  average turns     {d['average_turns']:.1f}")
        out.append("  win conditions:")
        for rule in sorted(self.reasons):
            what = WIN_CONDITIONS.get(rule, rule)
            out.append(f"    {rule:<6} {what:<45} {self.reasons[rule]:>7}  "
                       f"{self.reasons[rule] / max(self.games, 1):6.1%}")
        return out


def play_many(library: CardLibrary, decks: dict, agents: Sequence[str], games: int, seed: int = 0,
              first: str = "alternate", max_turns: int = 1000,
              on_game: Optional[Callable[[Game, GameResult], None]] = None,
              keep_logs: bool = False) -> Summary:
    """Play ``games`` games; game ``i`` uses seed ``seed + i``.  ``first`` is A, B or
    ``alternate`` (A in even games, B in odd ones)."""
    summary = Summary()
    for i in range(games):
        who = first if first in ("A", "B") else ("A" if i % 2 == 0 else "B")
        game, result = play_game(library, decks, agents, seed + i, who, max_turns, log=keep_logs)
        summary.add(result)
        if on_game is not None:
            on_game(game, result)
    return summary
