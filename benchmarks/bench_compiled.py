"""How far does a compiled kernel get?  The hot modules compiled with Cython, A/B against pure Python.

    python benchmarks/bench_compiled.py                   # 5 rounds of every benchmark
    python benchmarks/bench_compiled.py --rounds 3 --games 300 --bench games --bench greedy
    python benchmarks/bench_compiled.py --keep /tmp/wgdsl-compiled   # keep the compiled copy
    python benchmarks/bench_compiled.py --build-only --keep /tmp/c   # then: cd /tmp/c && pytest ...

The checkout is copied into a temporary directory (never compiled in place), and the
modules of ``MODULES`` (the hot ones by cProfile of bench_games.py, bench_api.py and
bench_parse.py: World Gainer's engine, the kernel, the card reader) are compiled there
by Cython in pure-Python mode: the ``.py`` sources as they are, no ``.pyx``, the
extension modules built next to them (``build_ext --inplace``), so ``import wgdsl`` from
the copy loads them ahead of the ``.py`` files.  Needs Cython 3 and a C compiler
(``pip install cython``; gcc and the Python headers).

Then each benchmark runs in a fresh process, pure (this checkout) and compiled (the copy)
in turn, A/B/B/A, for ``--rounds`` rounds, exactly as ``benchmarks/ab.py`` runs two
revisions: ``games`` (bench_games.py, random bots, event log on), ``nolog`` (the same
without the log), ``greedy`` (greedy bots), ``api`` (bench_api.py, random play through
the public interface) and ``parse`` (bench_parse.py, cards read per CPU second).  Prints
each round, the medians and compiled/pure.  Asserts nothing about time.

``--callgrind N`` counts instead of timing (the machine's load moves timed figures by up
to 50 %): instructions per game of bench_games.py under valgrind, pure and compiled, for
the game benchmarks (``games``, ``nolog``, ``greedy``), as benchmarks/callgrind_games.py
does; the count repeats to the instruction.  Compiled code's instructions are not its
time (fewer, but not always cheaper ones), so read both.

``--directives`` passes Cython compiler directives (``binding=False``,
``annotation_typing=False``...), to see what they change.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import REPO, _run  # noqa: E402  (benchmarks/ is not a package)
from callgrind_games import _count  # noqa: E402

# The modules compiled: where cProfile finds the time (World Gainer's engine, its state,
# rules, interpreter, agents and view; the kernel; the card reader).  Not its public
# interface, world_gainer/api.py: it holds the game file's rule function (`played by`),
# and wgdsl/games/described/hooks.py accepts only what inspect.isfunction accepts, which a
# compiled function is not (Cython's cyfunction).
MODULES = [
    "wgdsl/games/world_gainer/engine.py",
    "wgdsl/games/world_gainer/state.py",
    "wgdsl/games/world_gainer/rules.py",
    "wgdsl/games/world_gainer/interpreter.py",
    "wgdsl/games/world_gainer/agents.py",
    "wgdsl/games/world_gainer/view.py",
    "wgdsl/games/world_gainer/board.py",
    "wgdsl/kernel/api.py",
    "wgdsl/kernel/stepper.py",
    "wgdsl/kernel/decision.py",
    "wgdsl/kernel/log.py",
    "wgdsl/kernel/multiset.py",
    "wgdsl/kernel/rng.py",
    "wgdsl/kernel/triggers.py",
    "wgdsl/lang/parser.py",
]

# what each benchmark is: ab.py's bench, its --games, the agent, the extra arguments
BENCHES = {
    "games": ("games", "random", []),
    "nolog": ("games", "random", ["--no-log"]),
    "greedy": ("games", "greedy", []),
    "api": ("api", "random", []),
    "parse": ("parse", "random", []),
}
UNITS = {"parse": "cards/s"}


def copy_tree(dest: Path) -> Path:
    """A copy of the checkout's files (no .git, no caches, no build output) at ``dest``."""
    skip = shutil.ignore_patterns(".git", "__pycache__", "*.pyc", "*.so", "*.c", "build",
                                  "dist", "*.egg-info", ".hypothesis", ".pytest_cache")
    shutil.copytree(REPO, dest, ignore=skip)
    return dest


def compile_modules(root: Path, modules: list[str], directives: dict | None = None,
                    jobs: int = 2, compiler: str = "cython") -> list[Path]:
    """Compile ``modules`` (paths under ``root``) with Cython (or mypyc) into extension
    modules beside their sources; returns the built files.  Raises whatever the compiler
    raises."""
    from setuptools import Distribution, Extension

    old = Path.cwd()
    os.chdir(root)
    try:
        if compiler == "mypyc":  # mypy must accept the modules first
            from mypyc.build import mypycify
            built = mypycify([*modules, "--ignore-missing-imports", "--follow-imports=silent"])
        else:
            from Cython.Build import cythonize
            built = cythonize([Extension(m[:-3].replace("/", "."), [m]) for m in modules],
                              language_level=3, nthreads=jobs, quiet=True,
                              compiler_directives=directives or {})
        dist = Distribution({"ext_modules": built, "script_name": "setup.py"})
        cmd = dist.get_command_obj("build_ext")
        cmd.inplace = True
        cmd.parallel = jobs
        cmd.build_temp = str(root / "build" / "temp")
        dist.run_command("build_ext")
        return [Path(root, cmd.get_ext_fullpath(e.name)) for e in built]
    finally:
        os.chdir(old)


def _directives(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        out[key] = {"True": True, "False": False}.get(value, value)
    return out


def _check_compiled(tree: Path, module: str) -> None:
    """Fail loudly unless ``import wgdsl`` from ``tree`` loads ``module`` (a path) compiled."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    name = module[:-3].replace("/", ".")
    out = subprocess.run([sys.executable, "-c", f"import {name} as m; print(m.__file__)"],
                         cwd=tree, env=env, capture_output=True, text=True)
    if not out.stdout.strip().endswith(".so"):
        sys.exit(f"the copy in {tree} does not load {name} compiled: {out.stdout}{out.stderr}")


def _callgrind(tree: Path, benches: list[str], games: int) -> int:
    """Instructions per game, pure and compiled, for each game benchmark of ``benches``."""
    from concurrent.futures import ThreadPoolExecutor

    print(f"instructions per game (callgrind, {games} games less 1, start-up left out):")
    print(f"  {'benchmark':9} {'pure M':>9} {'compiled M':>11}  compiled/pure")
    with tempfile.TemporaryDirectory(prefix="wgdsl-cg-") as tmp:
        for name in benches:
            _, agent, extra = BENCHES[name]
            jobs = [(side, n) for side in ("pure", "compiled") for n in (1, games)]
            trees = {"pure": REPO, "compiled": tree}
            with ThreadPoolExecutor(2) as pool:
                counts = dict(zip(jobs, pool.map(
                    lambda job: _count(trees[job[0]], job[1], agent, extra,
                                       Path(tmp) / f"{name}-{job[0]}-{job[1]}.out"), jobs)))
            per = {side: (counts[side, games] - counts[side, 1]) / (games - 1) / 1e6
                   for side in trees}
            print(f"  {name:9} {per['pure']:9.2f} {per['compiled']:11.2f}  "
                  f"{per['compiled'] / per['pure']:13.3f}", flush=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5, help="pure/compiled pairs (default 5)")
    ap.add_argument("--games", type=int, default=500,
                    help="games per run (the parse benchmark reads 4x as many cards)")
    ap.add_argument("--bench", action="append", choices=sorted(BENCHES),
                    help="a benchmark to run (repeat; default all)")
    ap.add_argument("--directives", nargs="*", default=[], metavar="NAME=VALUE",
                    help="Cython compiler directives, e.g. binding=False")
    ap.add_argument("--compiler", default="cython", choices=["cython", "mypyc"],
                    help="cython (default) or mypyc (compiles only what mypy accepts)")
    ap.add_argument("--module", action="append", metavar="PATH",
                    help="compile these modules instead of the default list (repeat)")
    ap.add_argument("--keep", type=Path, metavar="DIR",
                    help="build the compiled copy in DIR and keep it; if DIR exists already, "
                         "use the copy built there before (compiling takes minutes)")
    ap.add_argument("--callgrind", type=int, metavar="N",
                    help="count instructions per game (N games, under valgrind) instead of timing")
    ap.add_argument("--build-only", action="store_true", help="build the copy and stop")
    args = ap.parse_args()
    benches = args.bench or list(BENCHES)

    tmp = None
    reuse = args.keep is not None and args.keep.exists()
    if reuse:
        tree = args.keep
    elif args.keep:
        tree = copy_tree(args.keep)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="wgdsl-compiled-")
        tree = copy_tree(Path(tmp.name) / "wgdsl")
    try:
        modules = args.module or MODULES
        t0 = time.perf_counter()
        if reuse:
            built = sorted(tree.glob("wgdsl/**/*.so"))
            print(f"using the {len(built)} compiled modules in {tree}")
        else:
            built = compile_modules(tree, modules, _directives(args.directives),
                                    compiler=args.compiler)
            print(f"compiled {len(built)} modules with {args.compiler} in {time.perf_counter() - t0:.0f} s "
                  f"into {tree}" + (f" (directives {' '.join(args.directives)})"
                                    if args.directives else ""))
        _check_compiled(tree, modules[0])
        if args.build_only:
            return 0
        if args.callgrind:
            return _callgrind(tree, [b for b in benches if BENCHES[b][0] == "games"],
                              args.callgrind)
        rates: dict[str, dict[str, list[float]]] = {b: {"pure": [], "compiled": []} for b in benches}
        sides = {"pure": REPO, "compiled": tree}
        for r in range(args.rounds):
            for name in benches:
                bench, agent, extra = BENCHES[name]
                games = args.games * 4 if bench == "parse" else args.games
                for side in (("pure", "compiled") if r % 2 == 0 else ("compiled", "pure")):
                    rates[name][side].append(_run(sides[side], games, agent, extra, bench))
                print(f"round {r + 1} {name:7} pure {rates[name]['pure'][-1]:9.1f}  "
                      f"compiled {rates[name]['compiled'][-1]:9.1f} "
                      f"{UNITS.get(name, 'games/s')}", flush=True)
    finally:
        if tmp is not None:
            tmp.cleanup()

    print(f"\nmedians of {args.rounds} rounds (pure = {REPO}, compiled = {len(built)} modules); "
          "compiled/pure: the median of the rounds' ratios (each round's pair ran back to back)")
    print(f"  {'benchmark':9} {'pure':>9} {'compiled':>9}  compiled/pure  (rounds)")
    for name in benches:
        p, c = rates[name]["pure"], rates[name]["compiled"]
        ratios = [b / a for a, b in zip(p, c)]
        print(f"  {name:9} {statistics.median(p):9.1f} {statistics.median(c):9.1f}  "
              f"{statistics.median(ratios):13.2f}  ({' '.join(f'{x:.2f}' for x in ratios)}) "
              f"{UNITS.get(name, 'games/s')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
