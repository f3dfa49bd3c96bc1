"""Instructions per game, counted by valgrind's callgrind: a speed figure that the load
of a shared machine does not move (timed figures do, by up to 50 %).

    python benchmarks/callgrind_games.py                    # HEAD against the working tree
    python benchmarks/callgrind_games.py --base HEAD~1 --games 50 --agent greedy
    python benchmarks/callgrind_games.py -- --no-log        # arguments for bench_games.py
    python benchmarks/callgrind_games.py --bench api        # through the public interface
    python benchmarks/callgrind_games.py --no-gc            # the cyclic collector off (steadier)

``--bench api`` counts ``benchmarks/bench_api.py``'s loop instead (World Gainer alone, one
round: what a learner or a sweep pays, snapshots and decisions as data included);
``--bench api -- --game imitation-world`` counts another game's loop (arguments after
``--`` go to the script).

For each revision (checked out into a temporary git worktree as ab.py does; the working
tree too, as a snapshot of its tracked files: counted in place, where the modules' byte
code is already compiled among other differences, the same code read 1.2 % fewer
instructions a game than from a fresh checkout) ``benchmarks/bench_games.py`` runs under
``valgrind --tool=callgrind`` twice, with 1 game and with ``--games`` games (same seeds);
the difference of the two counts, divided by the games the second run played more, is
the cost of a game alone (start-up, reading the cards and the decks, and what the first
game compiles once are left out).  The four runs go in parallel;
each takes minutes (valgrind runs Python some 50 times slower).  Needs ``valgrind`` on PATH.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ab import REPO, _tree

_COLLECTED = re.compile(r"Collected\s*:\s*([0-9]+)")


# the script run with Python's cyclic collector off from its first line (--no-gc)
_NO_GC = ("import gc, runpy, sys; gc.disable(); sys.argv = sys.argv[1:]; "
          "sys.path.insert(0, sys.argv[0].rpartition('/')[0]); "
          "runpy.run_path(sys.argv[0], run_name='__main__')")


def _count(tree: Path, games: int, agent: str, extra: list[str], out: Path,
           bench: str = "games", no_gc: bool = False) -> int:
    if bench == "api":
        args = ["bench_api.py", "--games", str(games), "--rounds", "1", "--no-peer"]
    else:
        args = ["bench_games.py", "--games", str(games), "--agent", agent]
    python = [sys.executable, "-c", _NO_GC] if no_gc else [sys.executable]
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *python,
           str(tree / "benchmarks" / args[0]), *args[1:], *extra]
    # a fixed hash seed: the order of sets of strings, and with it the count, repeats
    env = {"PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
           "PATH": "/usr/bin:/bin:/usr/local/bin"}
    run = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    m = _COLLECTED.search(run.stderr)
    if run.returncode != 0 or not m:
        sys.exit(f"callgrind failed in {tree}:\n{run.stdout}{run.stderr}")
    return int(m.group(1))


def _snapshot() -> str:
    """A commit of the working tree's tracked files as they are (``git stash create``,
    which changes nothing; HEAD when nothing is changed), so that both sides are counted
    from checkouts alike.  Untracked files are not in it: said on stderr."""
    made = subprocess.run(["git", "-C", str(REPO), "stash", "create"], check=True,
                          capture_output=True, text=True).stdout.strip()
    untracked = subprocess.run(["git", "-C", str(REPO), "ls-files", "--others",
                                "--exclude-standard", "--", "wgdsl", "benchmarks"],
                               check=True, capture_output=True, text=True).stdout.split()
    if untracked:
        print(f"note: untracked files are not counted (git add them to count them): "
              f"{', '.join(untracked[:5])}{' ...' if len(untracked) > 5 else ''}",
              file=sys.stderr)
    return made or "HEAD"


def main() -> int:
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="HEAD", help="revision A (default HEAD)")
    ap.add_argument("--head", default=".", help="revision B (default: the working tree, '.')")
    ap.add_argument("--games", type=int, default=50, help="games counted (default 50)")
    ap.add_argument("--agent", default="random", choices=["random", "greedy"])
    ap.add_argument("--bench", default="games", choices=["games", "api"],
                    help="games: bench_games.py's in-process loop (default); api: bench_api.py's "
                         "loop through the public interface (random play)")
    ap.add_argument("--no-gc", action="store_true",
                    help="run with Python's cyclic collector off: whether one more collector "
                         "pass (about 15 M instructions) falls between the 1-game and the "
                         "N-game run moves the count by up to 0.8 M a game, even between "
                         "trees that play the same games; off, the count follows the code")
    args = ap.parse_args(argv)
    if args.games < 2:
        sys.exit("--games must be at least 2 (one game is the baseline subtracted)")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not on PATH (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="wgdsl-cg-") as tmp:
        trees = {}
        try:
            trees["A"] = _tree(args.base, Path(tmp), "a")
            trees["B"] = _tree(_snapshot() if args.head == "." else args.head, Path(tmp), "b")
            jobs = [(side, n) for side in "AB" for n in (1, args.games)]
            with ThreadPoolExecutor(len(jobs)) as pool:
                counts = dict(zip(jobs, pool.map(
                    lambda job: _count(trees[job[0]], job[1], args.agent, extra,
                                       Path(tmp) / f"{job[0]}-{job[1]}.out", args.bench,
                                       args.no_gc),
                    jobs)))
        finally:
            for tree in trees.values():
                if tree != REPO:
                    subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force",
                                    str(tree)], check=False)
    per_game = {side: (counts[side, args.games] - counts[side, 1]) / (args.games - 1)
                for side in "AB"}
    for side, rev in (("A", args.base), ("B", "working tree" if args.head == "." else args.head)):
        print(f"{side} = {rev}: {per_game[side] / 1e6:8.2f} M instructions/game "
              f"({'public interface, random' if args.bench == 'api' else args.agent}, "
              f"{args.games} games{', collector off' if args.no_gc else ''})")
    print(f"B/A = {per_game['B'] / per_game['A']:.3f} (instructions; below 1 is faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
