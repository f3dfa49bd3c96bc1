"""Full random-vs-random games with fixed seeds: prints games/s and actions/s (one core).

    python benchmarks/bench_games.py            # 2,000 games
    python benchmarks/bench_games.py --games 20000 --agent greedy
    python benchmarks/bench_games.py --no-log   # without the event log

Games are played through the public API (legal_actions / apply), exactly as
`wgdsl play` does, with the built-in decks (examples/decks).
"""

from __future__ import annotations

import argparse
import time

from wgdsl.games.world_gainer.decks import load_deck
from wgdsl.lang.cards import load_cards
from wgdsl.resources import builtin_decks_dir
from wgdsl.tools.play import new_game, run_to_end


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agent", default="random", choices=["random", "greedy"])
    ap.add_argument("--no-log", action="store_true", help="play without recording the event log")
    args = ap.parse_args()

    library = load_cards()
    decks = {p: load_deck(builtin_decks_dir() / name, library)
             for p, name in zip("AB", ("blue-red-tempo.txt", "green-control.txt"))}
    agents = (args.agent, args.agent)
    actions = turns = 0
    start = time.perf_counter()
    for i in range(args.games):
        game = new_game(library, decks, agents, args.seed + i, "AB"[i % 2], log=not args.no_log)
        actions += run_to_end(game)
        turns += game.state.turn
    elapsed = time.perf_counter() - start
    print(f"{args.games} {args.agent}-vs-{args.agent} games in {elapsed:.2f} s "
          f"({'no log' if args.no_log else 'with event log'})")
    print(f"  games/s    {args.games / elapsed:10.1f}")
    print(f"  actions/s  {actions / elapsed:10.0f}")
    print(f"  actions/game {actions / args.games:8.1f}   turns/game {turns / args.games:6.1f}")


if __name__ == "__main__":
    main()
