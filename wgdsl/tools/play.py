"""Playing whole games between agents: one game with its log, or many with statistics.

``play_game`` runs one game to its end through the public API (``legal_actions`` /
``apply``); ``play_series`` yields the games of a series one by one (reproducible seeds)
and ``play_many`` gathers their win rates, turns and win conditions.  The CLI's
``wgdsl play`` is a thin layer over these.

A game whose effects never end (:class:`~wgdsl.kernel.errors.RunawayEffects`) is a game result
too: no winner, reason ``runaway effects``, and the engine's message in ``stopped``, so
one such game does not lose a series.  :func:`deck_from_set` builds a legal stock (R3)
out of a card set, for a set that comes without decks.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Iterator, Optional, Sequence

import attrs

from wgdsl.games.world_gainer.agents import RandomAgent, make_agent
from wgdsl.games.world_gainer.engine import Game
from wgdsl.kernel.errors import RunawayEffects
from wgdsl.lang.cards import CardLibrary

WIN_CONDITIONS = {
    "R12.1": "holds all 3 battle-field squares",
    "R12.2": "has 15 points or more",
    "R12.3": "the opponent had to draw from an empty stock",
}
TURN_LIMIT = "turn limit"
RUNAWAY = "runaway effects"
STOPS = {
    TURN_LIMIT: "stopped at the turn limit (--max-turns)",
    RUNAWAY: "stopped: effects that never end",
}


@attrs.frozen
class GameResult:
    seed: int
    first: str
    winner: Optional[str]
    reason: str  # an R12 rule number, "turn limit" or "runaway effects"
    turns: int
    actions: int
    stopped: Optional[str] = None  # why a game without winner was stopped (the engine's message)

    def to_dict(self) -> dict:
        """The game record of docs/json.md."""
        return {"seed": self.seed, "first": self.first, "winner": self.winner,
                "reason": self.reason, "turns": self.turns, "actions": self.actions,
                "stopped": self.stopped}


def describe_result(result: GameResult) -> str:
    if result.reason == RUNAWAY:
        return f"No winner: the game was stopped on turn {result.turns}: {result.stopped}"
    if result.winner is None:
        return (f"No winner: the game was stopped at the turn limit after {result.turns} turns "
                "(not a rule of the game; raise --max-turns)")
    return (f"Winner: {result.winner} — {WIN_CONDITIONS.get(result.reason, result.reason)} "
            f"({result.reason}), turn {result.turns}")


def new_game(library: CardLibrary, decks: dict, agents: Sequence[str], seed: int, first: str,
             log: bool = True, record: Optional[list] = None) -> Game:
    """A game between agents; with ``record`` (a list), every decision they make is
    appended to it as (seat, action text) (:class:`wgdsl.tools.replay.RecordingAgent`)."""
    players = {"A": make_agent(agents[0], seed * 2 + 1), "B": make_agent(agents[1], seed * 2 + 2)}
    if record is not None:
        from .replay import RecordingAgent

        players = {p: RecordingAgent(agent, record) for p, agent in players.items()}
    return Game.new(library, decks, seed=seed, first=first, agents=players, log=log)


def seated(game: Game) -> dict:
    """seat -> (its agent, its view): what each seat decides with (agents see their seat's
    view, never the game)."""
    return {seat: (agent, game.view(seat)) for seat, agent in game.agents.items()}


# the engine's own apply and legal_actions, which Game.play_random does the work of
_ENGINE_APPLY, _ENGINE_LEGAL = Game.apply, Game.legal_actions


def run_to_end(game: Game, max_turns: int = 1000) -> int:
    """Drive a game by its agents until it ends or passes ``max_turns``; returns actions."""
    return _drive(game, max_turns, [0])


def _drive(game: Game, max_turns: int, count: list) -> int:
    """run_to_end, counting in ``count[0]`` as it goes (a game stopped by an exception
    still says how far it got).  Two plain :class:`RandomAgent` seats are stepped by
    :meth:`Game.play_random` (hot path: no ``act`` call and no ``apply`` call an action,
    the same draws from each seat's generator: tests/test_wg_fast_paths.py holds the two
    to the same games), unless the game's ``apply`` or ``legal_actions`` is not the
    engine's own (a subclass's, a test's): then it is called."""
    state = game.state
    agents = game.agents
    legal_actions, apply = game.legal_actions, game.apply
    # (the bound methods' functions: not vars(game), which would give the game a dict
    # of its own and slow every attribute read of it, +13 % instructions)
    if (len(agents) == 2 and all(type(a) is RandomAgent for a in agents.values())
            and getattr(apply, "__func__", None) is _ENGINE_APPLY
            and getattr(legal_actions, "__func__", None) is _ENGINE_LEGAL):
        return game.play_random({seat: agent.rng.getrandbits for seat, agent in agents.items()},
                                max_turns, count)
    seats = seated(game)
    while state.winner is None and state.turn <= max_turns:
        agent, view = seats[state.active]
        apply(agent.act(view, legal_actions()))
        count[0] += 1
    return count[0]


def play_game(library: CardLibrary, decks: dict, agents: Sequence[str] = ("greedy", "greedy"),
              seed: int = 0, first: str = "A", max_turns: int = 1000,
              log: bool = True, record: Optional[list] = None) -> tuple[Game, GameResult]:
    """One game to its end (a win, the turn limit, or effects that never end); ``record``:
    see :func:`new_game`."""
    game = new_game(library, decks, agents, seed, first, log, record)
    st = game.state
    count = [0]
    try:
        actions = _drive(game, max_turns, count)
    except RunawayEffects as err:
        return game, GameResult(seed, first, None, RUNAWAY, min(st.turn, max_turns), count[0],
                                stopped=err.message)
    result = GameResult(seed, first, st.winner, st.win_reason or TURN_LIMIT,
                        min(st.turn, max_turns), actions,
                        stopped=None if st.winner is not None else STOPS[TURN_LIMIT])
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
        """The ``summary`` object of docs/json.md."""
        g = max(self.games, 1)
        return {
            "games": self.games,
            "wins": {"A": self.wins["A"], "B": self.wins["B"], "none": self.wins[None]},
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
            out.append(f"  no winner   {self.wins[None]:>7}  {d['no_winner']:6.1%}  (stopped)")
        out.append(f"  first player wins {d['first_player_win_rate']:6.1%}")
        out.append(f"  average turns     {d['average_turns']:.1f}")
        out.append("  win conditions:")
        for rule in sorted(self.reasons):
            what = WIN_CONDITIONS.get(rule) or STOPS.get(rule, rule)
            out.append(f"    {rule:<6} {what:<45} {self.reasons[rule]:>7}  "
                       f"{self.reasons[rule] / max(self.games, 1):6.1%}")
        return out


def first_player(first: str, index: int) -> str:
    """Who goes first in game ``index`` of a series: ``first``, or alternating A, B, ..."""
    return first if first in ("A", "B") else ("A" if index % 2 == 0 else "B")


def play_series(library: CardLibrary, decks: dict, agents: Sequence[str], games: int,
                seed: int = 0, first: str = "alternate", max_turns: int = 1000,
                keep_logs: bool = False,
                record: Optional[list] = None) -> Iterator[tuple[Game, GameResult]]:
    """The games of a series as they finish; game ``i`` uses seed ``seed + i``; ``record``
    (for one game): see :func:`new_game`."""
    for i in range(games):
        yield play_game(library, decks, agents, seed + i, first_player(first, i), max_turns,
                        log=keep_logs, record=record)


def play_many(library: CardLibrary, decks: dict, agents: Sequence[str], games: int, seed: int = 0,
              first: str = "alternate", max_turns: int = 1000,
              on_game: Optional[Callable[[Game, GameResult], None]] = None,
              keep_logs: bool = False) -> Summary:
    """Play ``games`` games; game ``i`` uses seed ``seed + i``.  ``first`` is A, B or
    ``alternate`` (A in even games, B in odd ones)."""
    summary = Summary()
    for game, result in play_series(library, decks, agents, games, seed, first, max_turns,
                                    keep_logs):
        summary.add(result)
        if on_game is not None:
            on_game(game, result)
    return summary


# ------------------------------------------------------------------ decks for a set
def deck_from_set(library: CardLibrary, size: int, first_ids: Sequence[str] = ()) -> Optional[list[str]]:
    """A legal stock of ``size`` cards from the set (R3): the cards of ``first_ids`` first
    (a set's own cards before the ones it includes), then the others in set order, each
    as many times as R3.2 (3 of a name) and R3.3 (a unique card once) allow.  None when
    the set cannot fill it."""
    from wgdsl.games.world_gainer.decks import MAX_SAME_NAME, MAX_UNIQUE

    wanted = [library[i] for i in first_ids if i in library]
    order = wanted + [c for c in library if c.id not in set(first_ids)]
    ids: list[str] = []
    per_name: Counter = Counter()
    for card in order:
        room = MAX_SAME_NAME - per_name[card.name]
        if card.unique:
            room = min(room, MAX_UNIQUE)
        n = max(0, min(room, size - len(ids)))
        ids += [card.id] * n
        per_name[card.name] += n
        if len(ids) == size:
            return ids
    return None


def deck_capacity(library: CardLibrary) -> int:
    """The largest legal stock the set can make alone (R3.2, R3.3)."""
    from wgdsl.games.world_gainer.decks import MAX_SAME_NAME, MAX_UNIQUE

    per_name: Counter = Counter()
    total = 0
    for card in library:
        room = MAX_SAME_NAME - per_name[card.name]
        if card.unique:
            room = min(room, MAX_UNIQUE)
        room = max(0, room)
        per_name[card.name] += room
        total += room
    return total


def deck_lines(ids: Sequence[str]) -> list[str]:
    """A stock as deck-file lines (``3 XX-001``), in order of first appearance."""
    counts = Counter(ids)
    return [f"{counts[i]} {i}" for i in dict.fromkeys(ids)]
