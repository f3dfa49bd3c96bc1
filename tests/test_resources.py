"""The grammar and the built-in cards are found in a checkout and in an installed wheel.

Nothing is built here: the wheel's layout is what pyproject.toml's force-include says,
and wgdsl/resources.py is pointed at such a layout in a temporary directory.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from wgdsl import resources

ROOT = Path(__file__).resolve().parents[1]


def test_grammar_and_builtin_cards_resolve_to_files():
    assert resources.grammar_path().is_file()
    assert resources.grammar_path().name == "wgdsl.lark"
    assert resources.builtin_cards_path().is_file()
    assert resources.builtin_cards_path().name == "wg01.wg"


def test_the_wheel_carries_grammar_and_cards_where_resources_looks():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert include["grammar"] == "wgdsl/_data/grammar"
    assert include["cards"] == "wgdsl/_data/cards"
    assert (ROOT / "grammar" / "wgdsl.lark").is_file()
    assert (ROOT / "cards" / "wg01.wg").is_file()


def test_packaged_data_is_preferred(tmp_path, monkeypatch):
    package = tmp_path / "site" / "wgdsl"
    (package / "_data" / "grammar").mkdir(parents=True)
    (package / "_data" / "cards").mkdir(parents=True)
    monkeypatch.setattr(resources, "_PACKAGE", package)
    assert resources.grammar_path() == package / "_data" / "grammar" / "wgdsl.lark"
    assert resources.builtin_cards_path() == package / "_data" / "cards" / "wg01.wg"


def test_neither_layout_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(resources, "_PACKAGE", tmp_path / "nowhere" / "wgdsl")
    with pytest.raises(FileNotFoundError, match="pip install"):
        resources.grammar_path()
