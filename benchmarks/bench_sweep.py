"""Games/s of a sweep (`wgdsl sweep`) on 1 and 2 local workers and on a local Ray with 2.

    python benchmarks/bench_sweep.py                    # 600 World Gainer random games a run
    python benchmarks/bench_sweep.py --game getgem --games 2000 --rounds 3
    python benchmarks/bench_sweep.py --no-ray
    python benchmarks/bench_sweep.py --per-game         # a sweep's game against the loop
    python benchmarks/bench_sweep.py --per-game --game getgem --seats 5 --games 300

Each round sweeps the same games into a fresh directory on each backend, in turn
(interleaved, so a busy machine weighs on every backend alike): the local pool with 1
worker (played in this process, no pool), with 2 worker processes, and a local Ray with 2
workers (`pip install 'wgdsl[sweep]'`).  The pool's figures include starting its
processes; Ray is started once before the rounds (its start-up is printed apart) so its
figure is the steady state.  Prints the median games/s of each, the speed-up of 2 workers
over 1, and Ray's overhead per game against the 2-worker pool:
1/rate(Ray) - 1/rate(pool), in ms of wall time per game.  Every run's records are
checked equal, so the backends played the same games.

``--per-game`` times one process's games instead, in ms per game, round by round in
turn: ``bench_api.py``'s public loop (``new_state``, ``current_seats``,
``legal_actions``, a seeded ``random.Random`` picks, ``apply``) on the sweep's seeds;
the sweep's own loop (its bots, each given a SeatView) without the record, on the
sweep's games; and ``sweep.play_game``, the same games with their records.  It prints
the medians, what the record adds (play_game less the sweep's loop) and play_game over
the public loop.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import wgdsl
from wgdsl.tools import sweep as S


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="world-gainer")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--shard-size", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--agent", default="random")
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--per-game", action="store_true",
                    help="ms per game: the public loop, the sweep's loop, play_game")
    ap.add_argument("--seats", type=int, action="append", default=[],
                    help="seat counts (the game's smallest when not given)")
    args = ap.parse_args()
    if args.per_game:
        per_game(args)
        return

    game = wgdsl.load_game(args.game)
    sweep = S.plan(game, args.game, args.games, seed=0, agents=(args.agent,),
                   shard_size=args.shard_size, seats=tuple(args.seats))
    backends = [("pool, 1 worker", "local", 1), ("pool, 2 workers", "local", 2)]
    ray = None
    if not args.no_ray:
        try:
            import ray
        except ImportError:
            print("Ray is not installed (pip install 'wgdsl[sweep]'): its figure is left out")
    if ray is not None:
        start = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
        print(f"local Ray started in {time.perf_counter() - start:.1f} s (not counted below)")
        backends.append(("Ray, 2 workers", "ray", 2))
    rates: dict = {name: [] for name, _, _ in backends}
    first = None
    work = Path(tempfile.mkdtemp(prefix="bench-sweep-"))
    try:
        for r in range(args.rounds):
            for name, backend, workers in backends:
                out = work / f"{r}-{backend}-{workers}"
                start = time.perf_counter()
                S.run(sweep, out, backend, workers)
                rates[name].append(args.games / (time.perf_counter() - start))
                records = sorted(S.read_records(out), key=lambda x: x["index"])
                if first is None:
                    first = records
                assert records == first, f"{name} played other games"
                shutil.rmtree(out)
            print(f"round {r + 1}: " + ", ".join(f"{n} {v[-1]:.0f}" for n, v in rates.items()))
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if ray is not None:
            ray.shutdown()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.games} games of {args.game} ({args.agent}), shards of {args.shard_size}, "
          f"{args.rounds} interleaved rounds, {os.cpu_count()} CPUs, load average {load} "
          "(a load above the CPUs leaves a second worker nothing to run on); median games/s:")
    med = {n: statistics.median(v) for n, v in rates.items()}
    for n, v in med.items():
        print(f"  {n:<16} {v:8.1f} games/s")
    one, two = med["pool, 1 worker"], med["pool, 2 workers"]
    print(f"  speed-up of 2 workers over 1: {two / one:.2f}x")
    if "Ray, 2 workers" in med:
        extra = 1000 * (1 / med["Ray, 2 workers"] - 1 / two)
        print(f"  Ray's overhead against the 2-worker pool: {extra:+.2f} ms per game")


def per_game(args) -> None:
    """ms per game of the public loop, the sweep's loop and play_game, interleaved."""
    from wgdsl.tools.gamefile import SeatView, make_bots

    game = wgdsl.load_game(args.game)
    sweep = S.plan(game, args.game, args.games, seed=0, agents=(args.agent,),
                   shard_size=args.shard_size, seats=tuple(args.seats))
    configs, decks = S.configurations(sweep), S.deck_cards(sweep)
    games = range(args.games)

    def public_loop() -> None:
        for i in games:
            seed = S.game_seed(sweep.seed, i)
            state = S.new_state(game, sweep, configs[i % len(configs)], seed, decks)
            choice = random.Random(f"pick {seed}").choice
            while not state.is_terminal():
                seat = state.current_seats()[0]
                state.apply(seat, choice(state.legal_actions(seat)))

    def sweep_loop() -> None:
        for i in games:
            cfg, seed = configs[i % len(configs)], S.game_seed(sweep.seed, i)
            state = S.new_state(game, sweep, cfg, seed, decks)
            bots = make_bots(game, cfg.agents, seed, tuple(state.seats))
            views = {s: SeatView(state, s) for s in state.seats}
            while not state.is_terminal():
                seat = state.current_seats()[0]
                state.apply(seat, bots[seat].act(views[seat]))

    def play_game() -> None:
        for i in games:
            S.play_game(game, sweep, i, configs, decks)

    sides = {"public loop": public_loop, "sweep's loop": sweep_loop, "play_game": play_game}
    play_game()  # what the first game compiles and reads once, left out
    ms: dict = {name: [] for name in sides}
    for r in range(args.rounds):
        for name, run in sides.items():
            start = time.perf_counter()
            run()
            ms[name].append((time.perf_counter() - start) / args.games * 1000)
        print(f"round {r + 1}: " + ", ".join(f"{n} {v[-1]:.2f}" for n, v in ms.items()))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.games} games of {args.game} ({args.agent}), {args.rounds} interleaved "
          f"rounds, load average {load}; median ms per game:")
    med = {n: statistics.median(v) for n, v in ms.items()}
    for n, v in med.items():
        print(f"  {n:<13} {v:8.3f} ms/game")
    extra = med["play_game"] - med["sweep's loop"]
    print(f"  the record adds {extra:+.3f} ms a game; "
          f"play_game / public loop {med['play_game'] / med['public loop']:.2f}")


if __name__ == "__main__":
    main()
