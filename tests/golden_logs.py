"""Golden logs: 1,000 seeded World Gainer games whose event logs must not change.

Every refactor is held to this gate: the logs of these games stay byte-identical unless a
rule changed, and then the commit that re-records them says which rule and why.

    python tests/golden_logs.py            # check: exit 1 and the games that differ
    python tests/golden_logs.py --record   # re-record tests/golden/wg-games.sha256
    python tests/golden_logs.py --show random 17   # one game's full log, to diff

The games: 500 random-vs-random and 500 greedy-vs-greedy, seeds 0..499, the built-in
decks (blue-red-tempo for A, green-control for B), A first in even seeds, B in odd ones.
For each game the file keeps two SHA-256 digests: of the actions played and the result
(what the rules decided), and of the whole event log (what the log says). A change of log
wording alone keeps the first; a change of rules changes both. The log itself is printed by
``--show`` (run it on two commits and diff the output).
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
    from wgdsl.games.world_gainer.decks import load_deck
    from wgdsl.resources import builtin_decks_dir
    return {p: load_deck(builtin_decks_dir() / name, library)
            for p, name in zip("AB", ("blue-red-tempo.txt", "green-control.txt"))}


def game_texts(library, decks, agent: str, seed: int) -> tuple[str, str]:
    """One golden game as (actions and result, log and result): the texts that are hashed."""
    from wgdsl.tools.play import new_game
    game = new_game(library, decks, (agent, agent), seed, "AB"[seed % 2])
    st = game.state
    actions = []
    while st.winner is None and st.turn <= 1000:  # play.run_to_end, recording each action
        action = game.agents[st.active].act(game.view(st.active), game.legal_actions())
        actions.append(str(action))
        game.apply(action)
    result = f"result: winner={st.winner} rule={st.win_reason} turns={st.turn}\n"
    return "\n".join(actions) + "\n" + result, "\n".join(game.log.lines()) + "\n" + result


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def digests() -> dict[str, str]:
    """``"agent seed"`` -> ``"actions-digest log-digest"`` for every golden game."""
    from wgdsl.lang.cards import load_cards
    library = load_cards()
    decks = _decks(library)
    out = {}
    for agent in AGENTS:
        for seed in SEEDS:
            actions, log = game_texts(library, decks, agent, seed)
            out[f"{agent} {seed}"] = f"{_sha(actions)} {_sha(log)}"
    return out


def read_golden() -> dict[str, str]:
    out = {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            agent, seed, actions, log = line.split()
            out[f"{agent} {seed}"] = f"{actions} {log}"
    return out


def differences(now: dict[str, str], golden: dict[str, str], part: int = 1) -> list[str]:
    """The games whose digest differs: ``part`` 0 compares the actions played, 1 the log."""
    def pick(d, k):
        return d[k].split()[part] if k in d else None
    return [k for k in golden if pick(now, k) != pick(golden, k)] + [k for k in now if k not in golden]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", action="store_true", help="write the current digests as the golden ones")
    ap.add_argument("--show", nargs=2, metavar=("AGENT", "SEED"), help="print one game's log and result")
    args = ap.parse_args(argv)
    if args.show:
        from wgdsl.lang.cards import load_cards
        library = load_cards()
        sys.stdout.write(game_texts(library, _decks(library), args.show[0], int(args.show[1]))[1])
        return 0
    now = digests()
    if args.record:
        GOLDEN.parent.mkdir(exist_ok=True)
        body = "".join(f"{k} {v}\n" for k, v in now.items())
        GOLDEN.write_text("# agent seed sha256(actions + result) sha256(log + result); "
                          "tests/golden_logs.py --record\n" + body,
                          encoding="utf-8")
        print(f"recorded {len(now)} games in {GOLDEN}")
        return 0
    golden = read_golden()
    diff = differences(now, golden)
    if diff:
        moved = differences(now, golden, part=0)
        print(f"{len(diff)} of {len(now)} golden games have another log, {len(moved)} of them "
              f"other actions or results; first: {', '.join(diff[:10])}")
        print(f"see one: python tests/golden_logs.py --show {diff[0]}")
        return 1
    print(f"all {len(now)} golden games have their recorded logs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
