"""docs/games.md stays true: every ```game example is a game file that checks clean (its
rule functions resolved), the two examples it quotes are the files in examples/games/
word for word, the words it lists are the language's, the sample output is what `wgdsl
play` prints, and its Python example runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli_helpers import cli
from described_games import RPS, WAR
from wgdsl.games.described import check_game_file
from wgdsl.lang.game.parser import reserved_words

DOC = (Path(__file__).resolve().parents[1] / "docs" / "games.md").read_text(encoding="utf-8")
GAMES = re.findall(r"```game\n(.*?)```", DOC, re.S)


def test_the_page_has_its_examples():
    assert len(GAMES) >= 3


@pytest.mark.parametrize("text", GAMES, ids=lambda t: re.search(r"game (\S+)", t).group(1))
def test_each_game_example_checks_clean(tmp_path, text):
    path = tmp_path / "example.game"
    path.write_text(text, encoding="utf-8")
    game, problems, _ = check_game_file(path)
    assert problems == [] and game is not None


@pytest.mark.parametrize("path", [RPS, WAR], ids=lambda p: p.name)
def test_the_examples_are_quoted_word_for_word(path):
    assert path.read_text(encoding="utf-8") in GAMES


def test_the_listed_words_are_the_languages():
    listed = DOC.split("The words of the language are: ", 1)[1].split(". One of them", 1)[0]
    assert [w.strip() for w in listed.replace("\n", " ").split(",")] == sorted(reserved_words())


def test_the_sample_output_is_what_play_prints():
    sample = DOC.split("prints the game as it went:\n\n```\n", 1)[1].split("```", 1)[0]
    printed = cli("play", "--game", RPS).stdout.split("\n")
    shown = [l for l in sample.split("\n") if l and l != "..."]
    assert shown[:-1] == printed[:len(shown) - 1] and shown[-1] in printed


def test_the_python_example_runs(capsys, monkeypatch):
    monkeypatch.chdir(RPS.parents[2])  # the example names its file from the checkout's top
    code = DOC.split("From Python:\n\n```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/games.md", "exec"), {})
    assert "(" in capsys.readouterr().out
