"""The pytest plugin (wgdsl/tools/pytest_plugin.py): `pytest DIR` collects the ruling cases
there as items named after their ids; -k selects; a failing case shows its first
difference; a bad case file fails with its problems at their lines; JUnit XML names them;
TOML files that are no ruling case are left alone."""

from __future__ import annotations

from pathlib import Path

pytest_plugins = ["pytester"]

CASES = Path(__file__).resolve().parents[1] / "examples" / "rulings" / "getgem"


def _cases(pytester):
    good = (CASES / "gg-countdown-2p.toml").read_text(encoding="utf-8")
    pytester.makefile(".toml", **{
        "good": good,
        "wrong": good.replace('id = "gg-countdown-2p"', 'id = "gg-wrong"')
                     .replace("turn = 10\n", "turn = 11\n"),
        "bad": good.replace('id = "gg-countdown-2p"', 'id = "gg-bad"')
                   .replace("players = 2", "players = 9"),
        "pyproject": '[project]\nname = "x"\n',
    })


def test_cases_are_items_and_report_their_first_difference(pytester):
    _cases(pytester)
    result = pytester.runpytest("-p", "no:cacheprovider", "--junitxml=out.xml")
    result.assert_outcomes(passed=1, failed=2)
    out = result.stdout.str()
    assert "ruling case gg-wrong" in out and "turn: expected 11 but was 10" in out
    assert "bad ruling case file" in out and "`players` is 2 to 5, not 9" in out
    bad = (pytester.path / "bad.toml").read_text(encoding="utf-8").split("\n")
    line = next(n for n, text in enumerate(bad, 1) if text.startswith("players = 9"))
    assert f"bad.toml:{line}: [state]" in out  # the problem at the line of `players`
    xml = (pytester.path / "out.xml").read_text(encoding="utf-8")
    assert 'name="gg-countdown-2p"' in xml and 'name="gg-wrong"' in xml


def test_k_selects_cases_by_id(pytester):
    _cases(pytester)
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "countdown")
    result.assert_outcomes(passed=1)
