"""Where the grammar, the built-in card set and the rules reference are.

In a checkout they sit at the top of the repository (``grammar/``, ``cards/``,
``docs/rules.md``).  An installed wheel carries copies inside the package
(``wgdsl/_data/``, see pyproject.toml), so ``pip install .`` works from any directory.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    checkout = _PACKAGE.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(
        f"wgdsl cannot find its {name}/ directory (looked in {packaged} and {checkout}); "
        "reinstall the package with `pip install .`"
    )


def grammar_path() -> Path:
    return _data_dir("grammar") / "wgdsl.lark"


def builtin_decks_dir() -> Path:
    """The example decks (``examples/decks``), shipped in the wheel as ``_data/decks``."""
    packaged = _PACKAGE / "_data" / "decks"
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / "examples" / "decks"


def builtin_cards_path() -> Path:
    """The built-in set: ``cards/wg01.wg``."""
    return _data_dir("cards") / "wg01.wg"


def rules_reference_path() -> Path:
    """World Gainer's rules reference: ``docs/rules.md``, shipped as ``_data/docs/rules.md``."""
    return _data_dir("docs") / "rules.md"


def world_gainer_game_path() -> Path:
    """World Gainer's game file (inside the package, beside its engine)."""
    return builtin_game_files()["world-gainer"]


def builtin_game_files() -> dict:
    """The built-in games' files by game id (inside the package, beside their engines)."""
    games = _PACKAGE / "games"
    return {"world-gainer": games / "world_gainer" / "world-gainer.game",
            "getgem": games / "getgem" / "getgem.game",
            "wonderful-world": games / "wonderful_world" / "wonderful-world.game",
            "imitation-world": games / "imitation_world" / "imitation-world.game"}
