"""``wgdsl check``, ``wgdsl cards`` and ``wgdsl show`` through click's test runner."""

from __future__ import annotations

import unicodedata

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.tools.listing import display_width

GOOD = 'card T-001 "テスト" en "Test" {\n  color green  cost 3  requires 1  stun 2\n  dimension:\n    draw 1 card\n}\n'
BAD = 'card T-001 "a" {\n  color bleu  cost 1\n  dimension: move this to brake\n}\n'


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "good.wg").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bad.wg").write_text(BAD, encoding="utf-8")
    (tmp_path / "empty.wg").write_text("", encoding="utf-8")
    (tmp_path / "latin1.wg").write_bytes('card T-001 "café" {\n}\n'.encode("latin-1"))
    return tmp_path


# ---------------------------------------------------------------------------- check
def test_check_without_files_checks_the_builtin_set():
    result = run("check")
    assert result.exit_code == 0
    assert result.stdout.startswith("ok: 25 cards in ")
    assert result.stdout.rstrip().endswith("wg01.wg")
    assert result.stderr == ""


def test_check_a_clean_file(files):
    result = run("check", str(files / "good.wg"))
    assert result.exit_code == 0
    assert result.stdout == f"ok: 1 cards in {files / 'good.wg'}\n"


def test_check_an_empty_file_is_fine(files):
    result = run("check", str(files / "empty.wg"))
    assert result.exit_code == 0
    assert result.stdout == f"ok: 0 cards in {files / 'empty.wg'}\n"


def test_check_reports_every_problem_on_stderr_and_exits_1(files):
    path = files / "bad.wg"
    result = run("check", str(path))
    assert result.exit_code == 1
    assert result.stdout == ""
    err = result.stderr
    # the checker's color error and the parser's zone error, both with caret and hint
    assert f"{path}:3:27: error: unknown zone `brake`" in err
    assert "did you mean `break`?" in err
    assert f"{path}: 1 error" in err


def test_check_reports_checker_errors_with_caret(files):
    path = files / "c.wg"
    path.write_text('card T-001 "a" {\n  color bleu  cost 1\n}\n', encoding="utf-8")
    result = run("check", str(path))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:4] == [
        f"{path}:2:9: error: unknown color `bleu`",
        "      color bleu  cost 1",
        "            ^^^^",
        "  hint: did you mean `blue`?",
    ]


def test_check_several_files_reports_each_and_fails_if_any_fails(files):
    result = run("check", str(files / "good.wg"), str(files / "bad.wg"))
    assert result.exit_code == 1
    assert f"ok: 1 cards in {files / 'good.wg'}" in result.stdout
    assert f"{files / 'bad.wg'}:3:27" in result.stderr


def test_check_takes_cards_option_like_a_file(files):
    result = run("check", "--cards", str(files / "good.wg"))
    assert result.exit_code == 0
    assert result.stdout == f"ok: 1 cards in {files / 'good.wg'}\n"


@pytest.mark.parametrize("name, where, message", [
    ("missing.wg", "", "no such file"),
    (".", "", "is a directory, not a card file"),
    # the é of `card T-001 "café"` is byte 0xe9 in Latin-1: line 1, column 16
    ("latin1.wg", ":1:16", "is not UTF-8 text"),
])
def test_check_unreadable_input_is_a_diagnostic_not_a_traceback(files, name, where, message):
    path = files / name
    result = run("check", str(path))
    assert result.exit_code == 1
    assert f"{path}{where}: error: {message}" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


# ---------------------------------------------------------------------------- cards
def test_cards_lists_the_builtin_set_with_a_header():
    result = run("cards")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["id", "name", "English", "name", "color", "cost/req", "stun", "kind"]
    assert len(lines) == 26
    assert lines[6].split() == ["WG-006", "ニビル星人", "Nibiruan", "red", "3/1", "1", "F"]
    assert lines[25].split() == ["WG-025", "太陽の法", "The", "Laws", "of", "the", "Sun", "yellow", "5/5", "1", "D"]
    assert lines[10].split()[-1] == "—"  # WG-010 has no effect


def test_cards_columns_line_up_by_display_width():
    lines = run("cards").stdout.splitlines()
    # every row's English name starts at the same terminal column as the header's
    header_col = display_width(lines[0][: lines[0].index("English")])
    for line, english in ((lines[2], "Lunar"), (lines[15], "Centaurian"), (lines[18], "Scorpius")):
        assert display_width(line[: line.index(english)]) == header_col


def test_display_width_counts_wide_characters_as_two():
    assert display_width("WG") == 2
    assert display_width("太陽の法") == 8
    assert display_width("ｶ") == 1  # halfwidth katakana
    assert unicodedata.east_asian_width("α") == "A" and display_width("α") == 1


def test_cards_with_a_card_file(files):
    result = run("cards", "--cards", str(files / "good.wg"))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1].split() == ["T-001", "テスト", "Test", "green", "3/1", "2", "D"]


def test_cards_with_a_broken_card_file_prints_diagnostics(files):
    result = run("cards", "--cards", str(files / "bad.wg"))
    assert result.exit_code == 1
    assert "unknown zone `brake`" in result.stderr
    assert result.stdout == ""


# ---------------------------------------------------------------------------- show
def test_show_prints_stats_and_the_effect_as_written():
    result = run("show", "WG-006")
    assert result.exit_code == 0
    out = result.stdout.splitlines()
    assert out[0] == "WG-006  ニビル星人  (Nibiruan)"
    assert [line.split() for line in out[1:7]] == [
        ["color", "red"], ["mark", "rock"], ["cost", "3"], ["required", "1"], ["stun", "1"], ["kind", "F"],
    ]
    assert "  field when this leaves field to break:" in out
    assert "    move this to bottom of owner's stock" in out


def test_show_keeps_each_line_of_a_multi_line_effect():
    out = run("show", "WG-019").stdout.splitlines()
    start = out.index("  field when opponent plays a card from hand:")
    assert out[start + 1: start + 3] == [
        "    may move a ready stun in your standby to your break",
        "    if you do: cancel that play",
    ]


def test_show_unique_card():
    out = run("show", "WG-025").stdout
    assert "unique" in out and "R3.3" in out


def test_show_accepts_lowercase_ids():
    assert run("show", "wg-013").stdout.startswith("WG-013  トカゲ型宇宙人")


def test_show_unknown_id_suggests_one():
    result = run("show", "WG-6")
    assert result.exit_code == 2  # the command line names what the set does not have
    assert "error: no card `WG-6` in this set" in result.stderr
    assert "did you mean `WG-006`?" in result.stderr


def test_show_with_a_card_file(files):
    result = run("show", "T-001", "--cards", str(files / "good.wg"))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "T-001  テスト  (Test)"
    assert "  dimension:" in result.stdout and "    draw 1 card" in result.stdout


def test_show_from_a_missing_card_file(files):
    result = run("show", "WG-001", "--cards", str(files / "nope.wg"))
    assert result.exit_code == 1
    assert "no such file" in result.stderr


# ---------------------------------------------------------------------------- help
@pytest.mark.parametrize("command", ["check", "cards", "show"])
def test_help_teaches_with_examples(command):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout
    assert f"wgdsl {command}" in result.stdout
    assert "--cards" in result.stdout
