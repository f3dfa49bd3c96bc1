"""Random play through the public engine interface, timed beside OpenSpiel's backgammon.

    python benchmarks/bench_api.py                  # 300 games a side, 5 interleaved rounds
    python benchmarks/bench_api.py --games 1000 --rounds 9 --seed 7
    python benchmarks/bench_api.py --no-peer        # World Gainer alone
    python benchmarks/bench_api.py --profile        # cProfile of World Gainer's loop instead
    python benchmarks/bench_api.py --game getgem --seats 2 --seats 5 --no-peer
                                                    # another game, at 2 and at 5 seats

What a learner, a search or a sweep pays per action, so the loop is exactly theirs
(../shared/spec/engine-api.md)::

    game = wgdsl.load_game("world-gainer")
    state = game.new_state(seed=i)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, rng.choice(legal))       # rng: a seeded random.Random

Answers to the engine's questions are actions like any other, so they count as actions.
``benchmarks/bench_games.py`` measures the in-process fast path instead (agents called
from inside the engine: no decision surfaced as data, no snapshot per action).

The peer is OpenSpiel's C++ backgammon driven from Python the same way:
``state.legal_actions()``, a chance node's ``state.chance_outcomes()`` sampled with a
seeded ``random.Random``, ``state.apply_action``.  It runs when ``pyspiel`` imports
(``pip install open_spiel``, or ``pip install -e '.[rl]'``); World Gainer and the peer
alternate round by round (wgdsl, peer, wgdsl, peer, ...) so that the load of this shared
machine falls on both alike.  The ratio printed is the peer's microseconds per action
over World Gainer's: 1 or more means World Gainer is at least as fast per action.

Game ``i`` of a round uses seed ``--seed + i`` for the game and a picker seeded from it,
so every round plays the same games (the same number of actions).  ``new_state`` /
``new_initial_state`` is timed apart and left out of the per-action figures; games/s
includes it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Callable, Optional

import wgdsl

PEER = "backgammon"
PEER_HINT = ("pip install open_spiel  (or pip install -e '.[rl]'; a manylinux wheel for "
             "CPython 3.11+ on x86-64/aarch64, with numpy and scipy)")


@dataclass
class Round:
    """One side's figures for one round."""

    games: int
    actions: int  # every apply / apply_action
    decisions: int  # the actions a seat chose (the peer's chance outcomes left out)
    setup: float  # seconds in new_state / new_initial_state
    play: float  # seconds in the loop, set-up left out

    @property
    def us_per_action(self) -> float:
        return self.play / self.actions * 1e6

    @property
    def us_per_decision(self) -> float:
        return self.play / self.decisions * 1e6

    def line(self, name: str) -> str:
        total = self.setup + self.play
        return (f"{name:<11} {self.games / total:8.1f} games/s {self.actions / self.play:10,.0f} "
                f"actions/s {self.us_per_action:7.2f} µs/action   "
                f"new state {self.setup / self.games * 1e6:7.1f} µs   "
                f"{self.actions / self.games:6.1f} actions/game")


def _pick_rng(seed: int) -> random.Random:
    # a stream of its own, not the game's generator (which is seeded with ``seed`` too)
    return random.Random(f"pick {seed}")


def play_wgdsl(game, games: int, seed: int, seats: Optional[int] = None) -> Round:
    """``games`` random games of a wgdsl game (World Gainer unless ``--game``) through the
    public interface, at ``seats`` seats (None: the game's default)."""
    actions = 0
    setup = play = 0.0
    clock = time.perf_counter
    for i in range(games):
        t0 = clock()
        state = game.new_state(seed=seed + i, seats=seats)
        t1 = clock()
        choice = _pick_rng(seed + i).choice
        n = 0
        while not state.is_terminal():
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, choice(legal))
            n += 1
        t2 = clock()
        setup += t1 - t0
        play += t2 - t1
        actions += n
    return Round(games, actions, actions, setup, play)


def play_peer(game, games: int, seed: int) -> Round:
    """``games`` random games of OpenSpiel's backgammon, driven from Python alike."""
    actions = decisions = 0
    setup = play = 0.0
    clock = time.perf_counter
    for i in range(games):
        t0 = clock()
        state = game.new_initial_state()
        t1 = clock()
        rng = _pick_rng(seed + i)
        choice, uniform = rng.choice, rng.random
        n = chosen = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample(state.chance_outcomes(), uniform()))
            else:
                state.apply_action(choice(state.legal_actions()))
                chosen += 1
            n += 1
        t2 = clock()
        setup += t1 - t0
        play += t2 - t1
        actions += n
        decisions += chosen
    return Round(games, actions, decisions, setup, play)


def _sample(outcomes: list, u: float) -> int:
    """The outcome whose share of [0, 1) holds ``u`` (the probabilities sum to 1)."""
    for action, p in outcomes:
        u -= p
        if u < 0.0:
            return action
    return outcomes[-1][0]  # rounding left u a hair above the last share


def load_peer() -> Optional[object]:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game(PEER)


def profile(game, games: int, seed: int, top: int = 30) -> None:
    """cProfile of World Gainer's loop: the functions by own time, then by cumulative."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    r = play_wgdsl(game, games, seed)
    prof.disable()
    print(f"cProfile of {games} World Gainer games through the public interface "
          f"({r.actions} actions; profiled, so several times slower than timed)")
    stats = pstats.Stats(prof).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main(argv: Optional[list] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="games a side per round (default 300)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    ap.add_argument("--no-peer", action="store_true", help="time the wgdsl game alone")
    ap.add_argument("--game", default="world-gainer",
                    help="the wgdsl game: a built-in id or a game file (default world-gainer)")
    ap.add_argument("--seats", type=int, action="append", default=None,
                    help="seats per game (default: the game's default); repeat to time several "
                         "counts, interleaved round by round")
    ap.add_argument("--profile", action="store_true",
                    help="print a cProfile of World Gainer's loop (--games games) and stop")
    args = ap.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        ap.error("--games and --rounds must be at least 1")

    t0 = time.perf_counter()
    try:
        game = wgdsl.load_game(args.game)
        for count in args.seats or [None]:
            game.new_state(seed=args.seed, seats=count)  # the cards are compiled once, here
    except ValueError as err:
        ap.error(str(err))
    warm = time.perf_counter() - t0
    if args.profile:
        profile(game, args.games, args.seed)
        return 0

    peer = None if args.no_peer else load_peer()
    print(f"{game.name}; Python {sys.version.split()[0]}; {args.games} random games a side per round, "
          f"{args.rounds} round(s), seeds {args.seed}..{args.seed + args.games - 1}")
    print(f"load_game + first new_state (card set parsed and compiled): {warm * 1e3:.0f} ms, "
          "not counted below")
    if peer is None and not args.no_peer:
        print(f"peer: pyspiel does not import, so World Gainer runs alone; to time it beside "
              f"OpenSpiel's {PEER}: {PEER_HINT}")

    ours: list[Round] = []
    theirs: list[Round] = []
    sides: list[tuple[str, Callable[[], Round], list]] = []
    by_seats: dict = {}
    for count in args.seats or [None]:
        name = "wgdsl" if count is None else f"{count} seats"
        by_seats[name] = []
        sides.append((name, lambda c=count: play_wgdsl(game, args.games, args.seed, c),
                      by_seats[name]))
    ours = next(iter(by_seats.values()))
    if peer is not None:
        sides.append((PEER, lambda: play_peer(peer, args.games, args.seed), theirs))
    for k in range(args.rounds):
        for name, run, out in sides:
            r = run()
            out.append(r)
            print(f"round {k + 1}  {r.line(name)}")

    print()
    for name, rounds in by_seats.items():
        best = min(rounds, key=lambda r: r.us_per_action)
        print(f"{name:<11} best {best.us_per_action:.2f} µs/action, median "
              f"{statistics.median(r.us_per_action for r in rounds):.2f}; games/s median "
              f"{statistics.median(r.games / (r.setup + r.play) for r in rounds):.1f}; "
              f"new_state median {statistics.median(r.setup / r.games * 1e6 for r in rounds):.0f} µs")
    if theirs:
        pbest = min(theirs, key=lambda r: r.us_per_action)
        print(f"{PEER:<11} best {pbest.us_per_action:.2f} µs/action, median "
              f"{statistics.median(r.us_per_action for r in theirs):.2f} "
              f"({pbest.actions - pbest.decisions} of its {pbest.actions} actions are chance "
              f"outcomes; {pbest.us_per_decision:.2f} µs per chosen move)")
        ratios = [p.us_per_action / w.us_per_action for w, p in zip(ours, theirs)]
        by_decision = [p.us_per_decision / w.us_per_decision for w, p in zip(ours, theirs)]
        print(f"ratio {PEER} µs/action ÷ wgdsl µs/action: median "
              f"{statistics.median(ratios):.2f} (rounds: {' '.join(f'{x:.2f}' for x in ratios)}); "
              "1 or more: World Gainer at least as fast per action")
        print(f"      counting only chosen moves (the peer's chance outcomes left out): median "
              f"{statistics.median(by_decision):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
