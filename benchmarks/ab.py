"""A/B benchmark of two revisions, interleaved in one run (the machine is shared and noisy).

    python benchmarks/ab.py                         # HEAD against the working tree
    python benchmarks/ab.py --base main~3 --rounds 7 --agent greedy
    python benchmarks/ab.py --base HEAD --head HEAD~1 --games 500 -- --no-log
    python benchmarks/ab.py --base main~2 --bench api   # through the public interface
    python benchmarks/ab.py --bench parse --games 2000  # card files: parse + check

Each revision is checked out into a temporary git worktree (the working tree itself for
``--head .``, the default), and its own ``benchmarks/bench_games.py`` runs in a fresh
process with that tree first on ``sys.path``: A, B, A, B, ... for ``--rounds`` rounds. The
report gives each side's games/s (cards/s for ``--bench parse``) per round, the medians, and B/A. The speed gate of a
refactor is "B/A not below 0.95".

Arguments after ``--`` go to bench_games.py (``--no-log``, ``--seed``).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_RATE = re.compile(r"games/s\s+([0-9.]+)")


def _tree(rev: str, tmp: Path, name: str) -> Path:
    if rev == ".":
        return REPO
    path = tmp / name
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(path), rev],
                   check=True)
    return path


# what each benchmark script is run with and how its games/s are read
_BENCHES = {
    "games": ("bench_games.py", lambda games, agent: ["--games", str(games), "--agent", agent],
              _RATE),
    "api": ("bench_api.py", lambda games, agent: ["--games", str(games), "--rounds", "1",
                                                  "--no-peer"],
            re.compile(r"wgdsl\s+([0-9.]+) games/s")),
    # card files read: parse + check, cards per CPU second (--games is the number of cards)
    "parse": ("bench_parse.py", lambda games, agent: ["--cards", str(games), "--repeat", "1"],
              re.compile(r"parse \+ check\s+[0-9.]+\s+[0-9,]+\s+[0-9.]+\s+([0-9,.]+)")),
}


def _run(tree: Path, games: int, agent: str, extra: list[str], bench: str = "games") -> float:
    script, args, rate = _BENCHES[bench]
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, str(tree / "benchmarks" / script),
                          *args(games, agent), *extra],
                         cwd=tree, env=env, capture_output=True, text=True)
    m = rate.search(out.stdout)
    if out.returncode != 0 or not m:
        sys.exit(f"{script} failed in {tree}:\n{out.stdout}{out.stderr}")
    return float(m.group(1).replace(",", ""))


def main() -> int:
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="HEAD", help="revision A (default HEAD)")
    ap.add_argument("--head", default=".", help="revision B (default: the working tree, '.')")
    ap.add_argument("--rounds", type=int, default=5, help="A/B pairs (default 5)")
    ap.add_argument("--games", type=int, default=1000,
                    help="games per run (default 1000); cards per run for --bench parse")
    ap.add_argument("--agent", default="random", choices=["random", "greedy"])
    ap.add_argument("--bench", default="games", choices=sorted(_BENCHES),
                    help="games: bench_games.py (in-process bots, the fast path); api: "
                         "bench_api.py (random play through the public interface)")
    args = ap.parse_args(argv)
    # what a run counts: cards read (per CPU second) for parse, games for the others
    unit, what = (("cards/s", f"{args.games} cards a run") if args.bench == "parse"
                  else ("games/s", f"{args.agent}, {args.games} games a run"))
    with tempfile.TemporaryDirectory(prefix="wgdsl-ab-") as tmp:
        trees = {}
        try:
            trees["A"] = _tree(args.base, Path(tmp), "a")
            trees["B"] = _tree(args.head, Path(tmp), "b")
            rates: dict[str, list[float]] = {"A": [], "B": []}
            for r in range(args.rounds):
                for side in ("AB" if r % 2 == 0 else "BA"):
                    rates[side].append(_run(trees[side], args.games, args.agent, extra, args.bench))
                print(f"round {r + 1}: A {rates['A'][-1]:8.1f}  B {rates['B'][-1]:8.1f} {unit}",
                      flush=True)
        finally:
            for tree in trees.values():
                if tree != REPO:
                    subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                                   check=False)
    a, b = statistics.median(rates["A"]), statistics.median(rates["B"])
    print(f"A = {args.base}: median {a:.1f} {unit} ({what})")
    print(f"B = {'working tree' if args.head == '.' else args.head}: median {b:.1f} {unit}")
    print(f"B/A = {b / a:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
