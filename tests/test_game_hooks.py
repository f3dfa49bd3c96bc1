"""Rule functions a game file names (``rule NAME from "MODULE:FUNCTION"``): resolved when
the game is loaded, each problem a diagnostic at the reference; and a game file cannot
reach code outside wgdsl.games (nothing else is imported, not even to find out)."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import pytest

import wgdsl.games
from described_games import RPS
from wgdsl.games.described import DescribedGame, GameFileError, check_game_file, load_game_file
from wgdsl.games.described import hooks as hooks_module
from wgdsl.games.described.program import RuleFunctionError
from wgdsl.games.described.state import Choice
from wgdsl.lang.game import compile_text
from wgdsl.lang.game.rule_functions import rule_function
from wgdsl.lang.game.spec import HookSpec

RPS_TEXT = RPS.read_text(encoding="utf-8")


def with_hook(ref: str) -> str:
    """Rock-paper-scissors comparing by the rule function ``ref`` instead of `beats`."""
    return RPS_TEXT.replace("compare by beats", "compare by rule pick").replace(
        "  signs rock", f'  rule pick from "{ref}"\n  signs rock').replace(
        "  relation beats {\n", "").replace(
        "    rock beats scissors                               rule S3.1\n", "").replace(
        "    scissors beats paper                              rule S3.1\n", "").replace(
        "    paper beats rock                                  rule S3.1\n  }\n", "")


def check(tmp_path, text: str):
    path = tmp_path / "g.game"
    path.write_text(text, encoding="utf-8")
    return check_game_file(path)


def test_a_library_rule_function_decides_the_comparison(tmp_path):
    """odd_one_out: the one seat whose sign nobody else showed scores."""
    game, found, _ = check(tmp_path, with_hook("wgdsl.games.described.library:odd_one_out"))
    assert found == [] and game is not None
    state = game.new_state(seed=0, seats=3)
    for seat, sign in (("A", "rock"), ("B", "rock"), ("C", "paper")):
        state.apply(seat, Choice(seat, sign))
    assert state.to_dict()["counters"]["points"] == {"A": 0, "B": 0, "C": 1}
    for seat, sign in (("A", "rock"), ("B", "paper"), ("C", "scissors")):  # all alone: nobody
        state.apply(seat, Choice(seat, sign))
    assert state.to_dict()["counters"]["points"] == {"A": 0, "B": 0, "C": 1}


@pytest.mark.parametrize("ref, message, hint", [
    ("wgdsl.games.described.libary:odd_one_out", "no module `wgdsl.games.described.libary`",
     "did you mean `wgdsl.games.described.library`?"),
    ("wgdsl.games.nope.rules:f", "no module `wgdsl.games.nope.rules`", "`described`"),
    ("wgdsl.games.described.library:odd_one", "has no function `odd_one`",
     "did you mean `odd_one_out`?"),
    # a function the module defines or imports, but not marked as a rule function
    ("wgdsl.games.described.hooks:resolve_hooks", "is not a rule function", "@rule_function"),
    ("wgdsl.games.described.game:read_source", "is not a rule function", "@rule_function"),
    # a module, not a function
    ("wgdsl.games.described.hooks:importlib", "has no function `importlib`", None),
])
def test_a_missing_or_unfit_rule_function_is_reported_where_it_is_named(tmp_path, ref, message, hint):
    text = with_hook(ref)
    game, found, _ = check(tmp_path, text)
    assert game is None
    (d,) = [d for d in found if d.severity == "error"]
    assert message in d.message and (hint is None or hint in d.hint)
    line = next(i for i, l in enumerate(text.split("\n"), 1) if ref in l)
    assert (d.pos.line, d.pos.col) == (line, text.split("\n")[line - 1].index('"') + 1)
    with pytest.raises(GameFileError, match="is not a rule function|no module|has no function"):
        load_game_file(tmp_path / "g.game")


@pytest.mark.parametrize("ref", ["os:system", "subprocess:run", "builtins:eval",
                                 "wgdsl.cli:main", "wgdsl.games:load_game",
                                 "wgdsl.games.described.library:_key"])
def test_the_checker_refuses_anything_but_a_public_function_of_wgdsl_games(ref):
    spec, found = compile_text(with_hook(ref), "g.game")
    assert spec is None
    assert any("outside the wgdsl.games package" in d.message or "does not name a rule function"
               in d.message for d in found)


def _spec_with(module: str, function: str = "f", kind: str = "compare"):
    spec, _ = compile_text(with_hook("wgdsl.games.described.library:odd_one_out"), "g.game")
    import attrs

    return attrs.evolve(spec, hooks=(HookSpec("pick", module, function, kind),))


def test_resolving_imports_nothing_outside_wgdsl_games(monkeypatch):
    """Even a spec built by hand (not through the checker) naming `os` is refused before
    anything is looked up or imported."""
    def forbidden(*args, **kwargs):
        raise AssertionError(f"looked up {args}")

    monkeypatch.setattr(importlib, "import_module", forbidden)
    monkeypatch.setattr(importlib.util, "find_spec", forbidden)
    for module in ("os", "wgdsl", "wgdsl.gamesx", "wgdslgames.x"):
        found, problems = hooks_module.resolve_hooks(_spec_with(module, "system"))
        assert found == {} and "outside the wgdsl.games package" in problems[0].message


def _decoy(tmp_path, marker):
    """A module that, if it ever ran, would leave ``marker`` behind."""
    folder = tmp_path / "wgdsl" / "games"
    folder.mkdir(parents=True)
    (tmp_path / "wgdsl" / "__init__.py").write_text("")
    (folder / "__init__.py").write_text("")
    (folder / "evil.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\n"
        "from wgdsl.lang.game.rule_functions import rule_function\n"
        "@rule_function('compare')\n"
        "def f(choices):\n    return ()\n")
    return folder


def test_a_module_elsewhere_on_the_path_cannot_stand_in(tmp_path, monkeypatch):
    """A folder on sys.path with its own wgdsl/games/evil.py: wgdsl.games.evil is looked
    for in wgdsl's own package, so it is not found and never runs."""
    marker = tmp_path / "ran"
    _decoy(tmp_path, marker)
    monkeypatch.syspath_prepend(str(tmp_path))
    found, problems = hooks_module.resolve_hooks(_spec_with("wgdsl.games.evil"))
    assert found == {} and "no module `wgdsl.games.evil`" in problems[0].message
    assert not marker.exists()


def test_a_module_found_outside_the_package_folder_is_not_run(tmp_path, monkeypatch):
    """Were the package's search path ever widened, a module found outside wgdsl/games/ is
    refused before it is imported."""
    marker = tmp_path / "ran"
    folder = _decoy(tmp_path, marker)
    monkeypatch.setattr(wgdsl.games, "__path__", list(wgdsl.games.__path__) + [str(folder)])
    monkeypatch.delitem(sys.modules, "wgdsl.games.evil", raising=False)
    found, problems = hooks_module.resolve_hooks(_spec_with("wgdsl.games.evil"))
    assert found == {} and "not a module of wgdsl's own" in problems[0].message
    assert not marker.exists()


def test_a_module_that_fails_to_import_is_a_diagnostic(monkeypatch):
    def broken(name):
        raise RuntimeError("boom")

    monkeypatch.setattr(hooks_module.importlib, "import_module", broken)
    _, problems = hooks_module.resolve_hooks(_spec_with("wgdsl.games.described.library", "majority"))
    assert "importing `wgdsl.games.described.library` failed: RuntimeError: boom" in problems[0].message


def test_a_rule_function_of_another_use_is_refused():
    _, problems = hooks_module.resolve_hooks(
        _spec_with("wgdsl.games.described.library", "majority", kind="score"))
    assert "is a `compare` rule function" in problems[0].message


def test_a_use_must_be_known():
    with pytest.raises(ValueError, match="unknown use"):
        rule_function("score")


def test_a_rule_function_that_returns_no_seats_is_a_clear_error():
    spec, _ = compile_text(with_hook("wgdsl.games.described.library:odd_one_out"), "g.game")
    game = DescribedGame(spec, {"pick": lambda choices: 7})
    state = game.new_state(seed=0, seats=2)
    state.apply("A", Choice("A", "rock"))
    with pytest.raises(RuleFunctionError, match="returned 7; a compare rule function returns seats"):
        state.apply("B", Choice("B", "rock"))
