"""Golden logs: 1,000 seeded World Gainer games whose event logs must not change.

Every refactor is held to this gate: the logs of these games stay byte-identical unless a
rule changed, and then the commit that re-records them says which rule and why.

    python tests/golden_logs.py            # check: exit 1 and the games that differ
    python tests/golden_logs.py --record   # re-record tests/golden/wg-games.sha256
    python tests/golden_logs.py --show random 17   # one game's full log, to diff

The games: 500 random-vs-random and 500 greedy-vs-greedy, seeds 0..499, the built-in
decks (blue-red-tempo for A, green-control for B), A first in even seeds, B in odd ones.
For each game the file keeps the SHA-256 of its log lines and its result; the log itself
is printed by ``--show`` (run it on two commits and diff the output).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden" / "wg-games.sha256"
AGENTS = ("random", "greedy")
SEEDS = range(500)


def _decks(library):
    from wgdsl.decks import load_deck
    from wgdsl.resources import builtin_decks_dir
    return {p: load_deck(builtin_decks_dir() / name, library)
            for p, name in zip("AB", ("blue-red-tempo.txt", "green-control.txt"))}


def game_text(library, decks, agent: str, seed: int) -> str:
    """One golden game's log and result, as the text that is hashed."""
    from wgdsl.play import play_game
    game, result = play_game(library, decks, (agent, agent), seed, "AB"[seed % 2])
    lines = game.log.lines()
    lines.append(f"result: winner={result.winner} rule={result.reason} turns={result.turns} "
                 f"actions={result.actions}")
    return "\n".join(lines) + "\n"


def digests() -> dict[str, str]:
    from wgdsl.cards import load_cards
    library = load_cards()
    decks = _decks(library)
    return {f"{agent} {seed}": hashlib.sha256(game_text(library, decks, agent, seed).encode()).hexdigest()
            for agent in AGENTS for seed in SEEDS}


def read_golden() -> dict[str, str]:
    out = {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            agent, seed, digest = line.split()
            out[f"{agent} {seed}"] = digest
    return out


def differences(now: dict[str, str], golden: dict[str, str]) -> list[str]:
    return [k for k in golden if now.get(k) != golden[k]] + [k for k in now if k not in golden]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", action="store_true", help="write the current digests as the golden ones")
    ap.add_argument("--show", nargs=2, metavar=("AGENT", "SEED"), help="print one game's log and result")
    args = ap.parse_args(argv)
    if args.show:
        from wgdsl.cards import load_cards
        library = load_cards()
        sys.stdout.write(game_text(library, _decks(library), args.show[0], int(args.show[1])))
        return 0
    now = digests()
    if args.record:
        GOLDEN.parent.mkdir(exist_ok=True)
        body = "".join(f"{k} {v}\n" for k, v in now.items())
        GOLDEN.write_text("# agent seed sha256(log + result); tests/golden_logs.py --record\n" + body,
                          encoding="utf-8")
        print(f"recorded {len(now)} games in {GOLDEN}")
        return 0
    diff = differences(now, read_golden())
    if diff:
        print(f"{len(diff)} of {len(now)} golden games differ, first: {', '.join(diff[:10])}")
        print(f"see one: python tests/golden_logs.py --show {diff[0]}")
        return 1
    print(f"all {len(now)} golden games have their recorded logs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
