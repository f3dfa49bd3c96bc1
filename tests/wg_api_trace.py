"""World Gainer's public interface, byte for byte: 300 seeded random games through
``wgdsl.load_game("world-gainer")`` whose trace must not change (issue 17's gate for the
interface, beside tests/golden_logs.py's in-process games).

    python tests/wg_api_trace.py             # check: exit 1 and the first game that differs
    python tests/wg_api_trace.py --record    # re-record tests/golden/wg-api-trace.sha256
    python tests/wg_api_trace.py --show 17   # one game's trace, to diff between commits

Game ``i`` is ``new_state(seed=i)`` (A first in even games, B in odd ones) played by
picks of ``random.Random(f"pick {i}")``, as benchmarks/bench_api.py plays.  Every step
writes the seat, the texts of its legal actions (answers to questions included) and the
action applied; every 7th step a refused apply by the seat not acting, and one of an
action not listed (a card nobody holds), each with its message; every 23rd step the
state's ``to_dict()``, a clone's ``to_dict()`` and legal list, ``legal_actions`` asked
twice, and both seats' observations; every 61st step a ``resample``'s ``to_dict()``.
The end writes ``winners()``, ``win_reason()``, ``returns()`` and the log.  The file
keeps one SHA-256 digest per game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden" / "wg-api-trace.sha256"
GAMES = 300


def _refused(state, seat, action) -> str:
    from wgdsl.kernel.errors import IllegalAction
    try:
        state.apply(seat, action)
    except IllegalAction as err:
        return f"refused {action}: {err} [{err.rule}]"
    return f"TAKEN {action}"


def _dump(data) -> str:
    return json.dumps(data, sort_keys=True, default=str)


def game_trace(game, i: int) -> list[str]:
    """The lines of game ``i``'s trace."""
    from wgdsl.games.world_gainer.engine import Action

    state = game.new_state(seed=i, options={"first": "AB"[i % 2]})
    pick = random.Random(f"pick {i}")
    out = []
    step = 0
    while not state.is_terminal():
        seat = state.current_seats()[0]
        legal = state.legal_actions(seat)
        out.append(f"{step} {seat}: " + " | ".join(map(str, legal)))
        if step % 7 == 3:
            other = "B" if seat == "A" else "A"
            out.append(_refused(state, other, legal[0]))
            out.append(_refused(state, seat, Action("play", seat, card="NO-CARD", square="C2")))
            out.append(_refused(state, seat, "not an action"))
            again = state.legal_actions(seat)
            out.append("same after refusals" if again == legal else "CHANGED after refusals")
        if step % 23 == 5:
            out.append("dict " + _dump(state.to_dict()))
            twin = state.clone()
            out.append("clone " + _dump(twin.to_dict()))
            out.append("clone legal " + " | ".join(map(str, twin.legal_actions(seat))))
            out.append("twice " + " | ".join(map(str, state.legal_actions(seat))))
            for s in ("A", "B"):
                out.append(f"obs {s} " + _dump(state.observation(s)))
        if step % 61 == 11:
            out.append("resample " + _dump(state.resample(seat, step).to_dict()))
        action = pick.choice(legal)
        out.append(f"-> {action}")
        state.apply(seat, action)
        step += 1
    out.append(f"end {state.winners()} {state.win_reason()} {_dump(state.returns())}")
    out.append("log " + _dump(state.log))
    return out


def digests(games: int = GAMES) -> list[str]:
    import wgdsl
    game = wgdsl.load_game("world-gainer")
    return [hashlib.sha256("\n".join(game_trace(game, i)).encode()).hexdigest()
            for i in range(games)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", action="store_true", help="re-record the digests")
    ap.add_argument("--show", type=int, metavar="I", help="print game I's trace")
    args = ap.parse_args()
    if args.show is not None:
        import wgdsl
        print("\n".join(game_trace(wgdsl.load_game("world-gainer"), args.show)))
        return 0
    got = digests()
    if args.record:
        GOLDEN.write_text("\n".join(got) + "\n")
        print(f"recorded {len(got)} games in {GOLDEN}")
        return 0
    want = GOLDEN.read_text().split()
    bad = [i for i, (a, b) in enumerate(zip(got, want)) if a != b]
    if bad or len(got) != len(want):
        print(f"{len(bad)} of {len(want)} games differ; first: {bad[:10]} "
              f"(diff `--show I` between commits)")
        return 1
    print(f"all {len(got)} games byte-identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
