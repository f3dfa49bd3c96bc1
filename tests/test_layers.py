"""The package's layers: data flows one way, kernel <- lang <- games <- tools <- cli.

Every module of wgdsl/ is read with :mod:`ast` (nothing is imported or run), every
``import`` and ``from ... import`` in it is resolved to the wgdsl module it names (also the
imports inside functions), and an import against the direction fails the test with the
file, the line and what to do.  The layers (see README, "How it fits together"):

- ``wgdsl/kernel/``: what no game defines; it imports nothing else of wgdsl;
- ``wgdsl/lang/``: the card language; it may import the kernel;
- ``wgdsl/games/<game>/``: one game each; it may import the kernel and the language, never
  another game;
- ``wgdsl/tools/``: what the commands do; it may import the kernel, the language, the games;
- ``wgdsl/env/``: the games for outside libraries (PettingZoo); it may import the kernel,
  the language and the games;
- the command line (``cli.py``, ``fmt_cmd.py``): anything;
- support modules at the top (``resources``, ``files``, ``terminal``, ``width``): anyone
  may import them; they import no layer (only each other);
- the front door, ``wgdsl/__init__.py`` (``wgdsl.load_game``, ``wgdsl.IllegalAction``):
  it may name any layer (lazily, on first use), and no layer imports it but the CLI;
- ``wgdsl/games/__init__.py``, the list of built-in games, may import each game; a game
  never imports another.

A new module at the top of the package fails until it is put in a layer (or, if it is
support or command line, named below).

One module may import by a name it is given: ``wgdsl.games.described.hooks``, which
imports the rule functions a game file names, only from ``wgdsl.games`` (its own checks,
tested in tests/test_game_hooks.py, hold it there).  Any other dynamic import fails.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator, Optional

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "wgdsl"

SUPPORT = {"wgdsl.resources", "wgdsl.files", "wgdsl.terminal", "wgdsl.width"}
CLI = {"wgdsl", "wgdsl.__main__", "wgdsl.cli", "wgdsl.fmt_cmd"}  # the front door is one with the CLI
# the modules allowed to import by a name they are given (see the module docstring)
DYNAMIC_IMPORTS = {"wgdsl.games.described.hooks"}
# each layer and the layers it may import (support modules aside)
ALLOWED = {
    "kernel": {"kernel"},
    "lang": {"kernel", "lang"},
    "games": {"kernel", "lang", "games"},
    "tools": {"kernel", "lang", "games", "tools"},
    "env": {"kernel", "lang", "games", "env"},
    "cli": {"kernel", "lang", "games", "tools", "cli"},
}
NAMES = {"kernel": "the kernel (wgdsl/kernel/)", "lang": "the card language (wgdsl/lang/)",
         "games": "a game (wgdsl/games/)", "tools": "a tool (wgdsl/tools/)",
         "env": "an adapter for outside libraries (wgdsl/env/)",
         "cli": "the command line (cli.py, fmt_cmd.py)", "support": "a support module"}


def layer_of(module: str) -> Optional[str]:
    """``wgdsl.lang.cards`` -> ``lang``; None for a top-level module in no layer."""
    if module in SUPPORT:
        return "support"
    if module in CLI:
        return "cli"
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in ("kernel", "lang", "games", "tools", "env"):
        return parts[1]
    return None


def game_of(module: str) -> Optional[str]:
    parts = module.split(".")
    return parts[2] if len(parts) >= 3 and parts[1] == "games" else None


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST, module: str, is_package: bool,
             known: set[str]) -> Iterator[tuple[int, str]]:
    """``(line, wgdsl module)`` for every import of wgdsl in ``tree``.  ``from X import a``
    names the module ``X.a`` when that is a module (``from wgdsl.lang import ast``), else X."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "wgdsl" or alias.name.startswith("wgdsl."):
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target != "wgdsl" and not target.startswith("wgdsl."):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield node.lineno, sub if sub in known else target


def violations(sources: dict[str, tuple[str, str, bool]]) -> list[str]:
    """``sources``: module name -> (path shown, source text, is a package).  Every import
    against the layers, as ``path:line: message``."""
    known = set(sources)
    problems = []
    for module, (shown, text, is_package) in sorted(sources.items()):
        tree = ast.parse(text, shown)
        mine = layer_of(module)
        if mine is None:
            problems.append(f"{shown}: in no layer: move it into wgdsl/kernel/, lang/, "
                            "games/<game>/ or tools/, or name it in SUPPORT or CLI of "
                            "tests/test_layers.py")
            continue
        for node in ast.walk(tree):
            called = getattr(node, "func", None)
            name = getattr(called, "id", getattr(called, "attr", ""))
            if isinstance(node, ast.Call) and name in ("__import__", "import_module") \
                    and module not in DYNAMIC_IMPORTS:
                problems.append(f"{shown}:{node.lineno}: a dynamic import, which this test cannot "
                                "check: import by name")
        for line, target in imported(tree, module, is_package, known):
            theirs = layer_of(target)
            if target == module or theirs is None:
                continue  # itself, or a module in no layer (reported on its own)
            if mine == "kernel":
                ok = theirs == "kernel"
            elif mine == "support":
                ok = theirs == "support"
            else:
                ok = theirs == "support" or theirs in ALLOWED[mine]
            if ok and mine == theirs == "games" and game_of(module) is not None \
                    and game_of(module) != game_of(target):
                ok = False
            if not ok:
                problems.append(
                    f"{shown}:{line}: {NAMES[mine]} imports {target}, "
                    f"{'another game' if mine == theirs == 'games' else NAMES[theirs]}: "
                    "the layers run kernel <- lang <- games <- tools <- cli (support modules "
                    "import no layer); move the code that needs it up a layer, or what it "
                    "needs down")
    return problems


def package_sources(root: Path = PACKAGE) -> dict[str, tuple[str, str, bool]]:
    out = {}
    for path in sorted(root.rglob("*.py")):
        if "_data" in path.relative_to(root).parts:
            continue
        shown = str(path.relative_to(root.parent))
        text = path.read_text(encoding="utf-8")
        out[module_name(path, root)] = (shown, text, path.name == "__init__.py")
    return out


def test_every_import_of_the_package_follows_the_layers():
    sources = package_sources()
    assert "wgdsl.games.world_gainer.engine" in sources and "wgdsl.kernel.errors" in sources
    problems = violations(sources)
    assert not problems, "\n".join(problems)


def test_the_test_reads_the_imports_it_checks():
    """The engine's imports of the kernel and the language are seen (so an empty result
    above means the imports were read, not missed)."""
    sources = package_sources()
    shown, text, _ = sources["wgdsl.games.world_gainer.engine"]
    found = {t for _, t in imported(ast.parse(text), "wgdsl.games.world_gainer.engine", False,
                                    set(sources))}
    assert {"wgdsl.kernel.errors", "wgdsl.kernel.log", "wgdsl.lang.cards",
            "wgdsl.games.world_gainer.rules", "wgdsl.games.world_gainer.agents"} <= found


def _with(module: str, text: str, is_package: bool = False) -> dict:
    sources = package_sources()
    shown = module.replace(".", "/") + ("/__init__.py" if is_package else ".py")
    sources[module] = (shown, text, is_package)
    return sources


@pytest.mark.parametrize("module, text, expected", [
    # the language may not import a game: relative, absolute, inside a function
    ("wgdsl.lang.bad", "from ..games.world_gainer.state import SQUARES\n",
     "wgdsl/lang/bad.py:1: the card language (wgdsl/lang/) imports "
     "wgdsl.games.world_gainer.state, a game"),
    ("wgdsl.lang.bad", "def f():\n    from wgdsl.games.world_gainer import rules\n",
     "wgdsl/lang/bad.py:2: the card language (wgdsl/lang/) imports "
     "wgdsl.games.world_gainer.rules, a game"),
    ("wgdsl.lang.bad", "import wgdsl.tools.play\n",
     "imports wgdsl.tools.play, a tool"),
    # the kernel imports nothing else of wgdsl, not even support modules
    ("wgdsl.kernel.bad", "from ..lang import ast\n",
     "the kernel (wgdsl/kernel/) imports wgdsl.lang.ast"),
    ("wgdsl.kernel.bad", "from wgdsl.terminal import printable\n",
     "the kernel (wgdsl/kernel/) imports wgdsl.terminal, a support module"),
    # a game never imports a tool, the command line, or another game
    ("wgdsl.games.world_gainer.bad", "from wgdsl.tools.rulings import load_case\n", "a tool"),
    ("wgdsl.games.world_gainer.bad", "from ... import cli\n", "the command line"),
    ("wgdsl.games.other.bad", "from ..world_gainer.state import OTHER\n", "another game"),
    # a tool never imports the command line
    ("wgdsl.tools.bad", "from ..cli import echo\n", "wgdsl.cli, the command line"),
    # support modules import no layer
    ("wgdsl.bad_support", "from .lang.cards import load_cards\n", "in no layer"),
    ("wgdsl.terminal", "from .lang.diagnostics import Diagnostic\n",
     "a support module imports wgdsl.lang"),
    # an import this test cannot follow
    ("wgdsl.lang.bad", "import importlib\nimportlib.import_module('wgdsl.games')\n",
     "a dynamic import"),
])
def test_an_import_against_the_layers_is_reported(module, text, expected):
    problems = violations(_with(module, text))
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize("module, text", [
    ("wgdsl.lang.ok",
     "from ..kernel.errors import RunawayEffects\nfrom . import ast\nfrom ..files import read_text\n"),
    ("wgdsl.games.world_gainer.ok",
     "from wgdsl.lang.cards import CardLibrary\nfrom .state import OTHER\n"),
    ("wgdsl.tools.ok",
     "from wgdsl.games.world_gainer.engine import Game\nfrom wgdsl.kernel.log import EventLog\n"),
    ("wgdsl.kernel.ok", "from .errors import IllegalAction\nimport json\n"),
])
def test_an_import_along_the_layers_is_not_reported(module, text):
    shown = module.replace(".", "/") + ".py"
    assert [p for p in violations(_with(module, text)) if p.startswith(shown)] == []
