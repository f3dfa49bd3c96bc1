"""It's a Wonderful World ruling cases (wgdsl/tools/rulings_wonderful_world.py): the shipped
cases pass (the spec's two examples among them); a wrong expectation fails with the first
difference; a refusal must be marked, with the rule it cites; a bad case names its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from wgdsl.tools.rulings import CaseProblems, load_case, run_case, run_paths

CASES = Path(__file__).resolve().parents[1] / "examples" / "rulings" / "wonderful-world"
SCIENCE = (CASES / "iaw-science-token-completes-then-score.toml").read_text(encoding="utf-8")


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "case.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_shipped_case_passes():
    results = run_paths([CASES])
    assert len(results) >= 30
    assert [r.line() for r in results if not r.ok] == []


def test_a_wrong_expectation_fails_with_the_first_difference(tmp_path):
    result = run_case(load_case(write(tmp_path, SCIENCE.replace("score = 10", "score = 11"))))
    assert not result.ok and result.message == "P2.score: expected 11, got 10"


def test_a_refusal_must_cite_the_rule_the_case_writes(tmp_path):
    text = SCIENCE.replace('rule = "R10.4"', 'rule = "R10.1"')
    result = run_case(load_case(write(tmp_path, text)))
    assert not result.ok and "citing R10.4, not R10.1" in result.message


def test_a_step_happens_wholly_or_not_at_all(tmp_path):
    # four cubes where three are to place: the fourth is refused, and so the whole step
    text = SCIENCE.replace("count = 3 ", "count = 4 ")
    result = run_case(load_case(write(tmp_path, text)))
    assert not result.ok and "was refused" in result.message


@pytest.mark.parametrize("old, new, message", [
    ("players = 3", "players = 7", "`players` is 1 to 5"),
    ('step = "SCI" ', 'step = "SCIENCE" ', "`step` `SCIENCE` is not valid"),
    ('constructed = ["IAW-006"]', 'constructed = ["IAW-600"]', "unknown card id `IAW-600`"),
    ('kind = "FIN"\nto', 'kind = "FIN"\ncolour = "red"\nto', "unknown key `colour`"),
    ("score = 3", 'score = "three"', "`score` must be a whole number"),
    ("empire_cubes = 4", "empire_cubes = 9", "`empire_cubes` is 0 to 4"),
])
def test_a_bad_case_names_its_line(tmp_path, old, new, message):
    assert old in SCIENCE
    text = SCIENCE.replace(old, new, 1)
    with pytest.raises(CaseProblems) as err:
        load_case(write(tmp_path, text))
    line = next(n for n, l in enumerate(text.split("\n"), 1) if new.split("\n")[-1 if "colour" not in new else 1] in l)
    assert any(f":{line}: " in p and message in p for p in err.value.problems), err.value.problems


def test_a_filled_construction_is_a_bad_case(tmp_path):
    text = SCIENCE.replace('"GLD", "GLD", "GLD"] }]', '"GLD", "GLD", "GLD", "FIN"] }]')
    with pytest.raises(CaseProblems) as err:
        load_case(write(tmp_path, text))
    assert "every space filled: it would have completed (R11.1)" in err.value.problems[0]


def test_simulate_shows_what_a_card_adds_to_production_and_score():
    """Q12: beside an Airship and a Drill Tank, the Sky Fortress adds 3 EXP (itself and the
    two Vehicles) and its two Generals score 2 (IAW R13.2a, R17)."""
    import json

    from click.testing import CliRunner

    from wgdsl.cli import main

    run = CliRunner().invoke(main, ["simulate", "IAW-013", "--game", "wonderful-world",
                                    "--with", "IAW-008", "--with", "IAW-009", "--json"])
    assert run.exit_code == 0, run.output
    doc = json.loads(run.output)
    assert doc["production"]["EXP"] == [2, 5] and doc["production"]["MAT"] == [2, 2]
    assert doc["score"]["general"] == [0, 2] and doc["bonus"] == ["GEN", "GEN"]
    empire = CliRunner().invoke(main, ["simulate", "IAW-E01", "--game", "wonderful-world"])
    assert empire.exit_code == 2 and "an empire card" in empire.output
