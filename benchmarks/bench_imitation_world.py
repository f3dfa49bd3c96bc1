"""Random Imitation World games through the public engine interface, timed beside World
Gainer's (the same loop, rounds interleaved: IW, WG, IW, WG, ...) so that the load of a
shared machine falls on both alike.

    python benchmarks/bench_imitation_world.py                 # 200 games a side, 5 rounds
    python benchmarks/bench_imitation_world.py --games 500 --rounds 9 --seed 7

The loop is a learner's or a search's (../shared/spec/engine-api.md): ``new_state``, then
``current_seats`` / ``legal_actions`` / ``apply`` with a seeded random pick, to the end;
answers to the abilities' questions (order, yes_no, choose) are actions like any other.
Both games play their default decks (IW: existence-wall against fantasy-dreams, IW01 with
its abilities compiled from the card language).  Figures are wall-clock and CPU time
(``time.process_time``, less moved by the other processes of a shared machine); the
medians over rounds are printed last.  ``new_state`` is counted in games/s, not in
µs/action.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import wgdsl  # noqa: E402
from bench_api import _pick_rng  # noqa: E402


def play(game, games: int, seed: int) -> tuple:
    """(games, actions, wall seconds, CPU seconds in the loop, CPU seconds in total)."""
    actions = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    loop = 0.0
    for i in range(games):
        state = game.new_state(seed=seed + i)
        choice = _pick_rng(seed + i).choice
        t = time.process_time()
        while not state.is_terminal():
            seat = state.current_seats()[0]
            state.apply(seat, choice(state.legal_actions(seat)))
            actions += 1
        loop += time.process_time() - t
    return games, actions, time.perf_counter() - wall0, loop, time.process_time() - cpu0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games a side per round")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = ap.parse_args(argv)
    sides = {"imitation-world": wgdsl.load_game("imitation-world"),
             "world-gainer": wgdsl.load_game("world-gainer")}
    for game in sides.values():  # card sets read and compiled outside the timing
        game.new_state(seed=0)
    print(f"Python {sys.version.split()[0]}; {args.games} random games a side per round, "
          f"{args.rounds} rounds interleaved, seeds {args.seed}..{args.seed + args.games - 1}")
    figures: dict = {name: [] for name in sides}
    for r in range(args.rounds):
        for name, game in sides.items():
            g, n, wall, loop, cpu = play(game, args.games, args.seed)
            figures[name].append((g / cpu, loop / n * 1e6, g / wall, n / g))
            print(f"round {r + 1}  {name:<16} {g / cpu:7.1f} games/s (CPU)  "
                  f"{loop / n * 1e6:7.1f} µs/action (CPU)  {g / wall:7.1f} games/s (wall)  "
                  f"{n / g:6.1f} actions/game")
    print()
    for name, rows in figures.items():
        print(f"{name:<16} median {statistics.median(r[0] for r in rows):7.1f} games/s, "
              f"{statistics.median(r[1] for r in rows):7.1f} µs/action (CPU)")
    iw, wg = (statistics.median(r[1] for r in figures[k]) for k in sides)
    print(f"Imitation World costs {iw / wg:.2f}x World Gainer's time per action")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
