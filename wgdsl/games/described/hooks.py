"""Resolving the rule functions a game file names: the only code a game file may run.

``rule NAME from "wgdsl.games.MODULE:FUNCTION"`` is resolved when the game is loaded, so
a name that is wrong is a diagnostic at the file's line and column (``wgdsl check``), not
an error in the middle of a game.  What a game file can reach is held to the least it
needs:

- the module is named inside the ``wgdsl.games`` package (the checker refuses anything
  else before this runs, and it is refused here again), and is found in that package's
  own folder, so a file elsewhere on ``sys.path`` cannot stand in for it;
- whether the module exists is asked without running it (``importlib.util.find_spec``);
  only an existing module of the package is imported;
- the name must be a function of that module marked with
  :func:`wgdsl.lang.game.rule_functions.rule_function` for the use the game makes of it:
  a helper the module happens to import (``os.system``) or a class is refused.

This is the one module of wgdsl that imports by a name it is given
(tests/test_layers.py names it as the exception).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
from pathlib import Path
from typing import Callable, Optional

import attrs

from wgdsl.lang.diagnostics import Diagnostic, did_you_mean, one_of
from wgdsl.lang.game.rule_functions import MARK, USES
from wgdsl.lang.game.spec import GameSpec, HookSpec

PACKAGE = "wgdsl.games"
_FOLDER = Path(__file__).resolve().parents[1]  # wgdsl/games/


# the key of the engine's rule function (`played by`) among the resolved: no name of the
# file can be it (a name has no space)
ENGINE = "played by"


def resolve_hooks(spec: GameSpec) -> tuple[dict[str, Callable], list[Diagnostic]]:
    """Every rule function ``spec`` names, by name (an effect's by the effect's name, the
    engine's as :data:`ENGINE`), and a diagnostic for each that cannot be used (at the
    position of its reference in the file)."""
    found: dict[str, Callable] = {}
    problems: list[Diagnostic] = []
    hooks = list(spec.hooks) + [e.hook for e in spec.effects]
    if spec.engine is not None:
        hooks.append(attrs.evolve(spec.engine, name=ENGINE))
    for hook in hooks:
        fn, problem = _resolve(hook, spec.path)
        if problem is not None:
            problems.append(problem)
        else:
            found[hook.name] = fn
    return found, problems


def _resolve(hook: HookSpec, path: str) -> tuple[Optional[Callable], Optional[Diagnostic]]:
    def fail(message: str, hint: Optional[str] = None):
        return None, Diagnostic(path, hook.pos, message, hint)

    module, function = hook.module, hook.function
    if not module.startswith(PACKAGE + "."):
        return fail(f"`{module}` is outside the {PACKAGE} package",
                    "a game file may use rule functions of wgdsl.games only")
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):  # a parent package that does not exist
        found = None
    if found is None or found.origin is None:
        return fail(f"no module `{module}`", _nearest_module(module))
    try:
        origin = Path(found.origin).resolve()
    except OSError:  # pragma: no cover - a module found has a path
        origin = None
    if origin is None or _FOLDER not in origin.parents:
        return fail(f"`{module}` is not a module of wgdsl's own {PACKAGE} package",
                    "a game file may use rule functions of the installed wgdsl only")
    try:
        loaded = importlib.import_module(module)
    except Exception as err:  # its own code failed: say so, do not crash the check
        return fail(f"importing `{module}` failed: {type(err).__name__}: {err}",
                    "the module itself is broken; fix it or name another")
    fn = getattr(loaded, function, None)
    marked = _rule_functions(loaded)
    if fn is None or not inspect.isfunction(fn):
        return fail(f"`{module}` has no function `{function}`",
                    did_you_mean(function, marked) or
                    (f"its rule functions are {one_of(sorted(marked))}" if marked else
                     "it has no rule functions"))
    use = getattr(fn, MARK, None)
    if use is None:
        return fail(f"`{module}:{function}` is not a rule function",
                    "only functions marked `@rule_function(USE)` "
                    "(wgdsl.lang.game.rule_functions) may be named by a game file")
    if use != hook.kind:
        return fail(f"`{function}` is a `{use}` rule function; the game uses `{hook.name}` "
                    f"to {hook.kind}", f"a {hook.kind} rule function is "
                    + USES.get(hook.kind, "marked `@rule_function(\"" + hook.kind + "\")`"))
    return fn, None


def _rule_functions(module) -> dict[str, str]:
    return {name: getattr(value, MARK) for name, value in vars(module).items()
            if inspect.isfunction(value) and hasattr(value, MARK)}


def _nearest_module(module: str) -> Optional[str]:
    """``did you mean`` the nearest module of the deepest package of the name that
    exists (without importing anything that does not exist)."""
    parts = module.split(".")
    for depth in range(len(parts) - 1, 1, -1):
        parent = ".".join(parts[:depth])
        try:
            spec = importlib.util.find_spec(parent)
        except (ImportError, ValueError):
            continue
        if spec is None or not spec.submodule_search_locations:
            continue
        names = [m.name for m in pkgutil.iter_modules(spec.submodule_search_locations)]
        guess = did_you_mean(parts[depth], names)
        if guess:
            return guess.replace("`", "`" + parent + ".", 1)
        return f"the modules of `{parent}` are {one_of(sorted(names))}" if names else None
    return None
