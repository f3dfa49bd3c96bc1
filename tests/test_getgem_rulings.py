"""GETGEM ruling cases (wgdsl/tools/rulings_getgem.py): the shipped cases pass; a case
fails on a wrong expectation, an answer or random entry left over or missing, a refused
step not marked illegal; a bad case names its line and is not run."""

from __future__ import annotations

from pathlib import Path

import pytest

from wgdsl.tools.rulings import CaseProblems, load_case, run_case, run_paths

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "examples" / "rulings" / "getgem"
PUSH = (CASES / "gg-push-the-curse-spoils-check.toml").read_text(encoding="utf-8")


def run_text(tmp_path, text: str):
    path = tmp_path / "case.toml"
    path.write_text(text, encoding="utf-8")
    return run_case(load_case(path))


def problems(tmp_path, text: str) -> list:
    path = tmp_path / "case.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseProblems) as err:
        load_case(path)
    return err.value.problems


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


def test_every_shipped_getgem_case_passes():
    results = run_paths([CASES])
    assert len(results) >= 18
    assert [r.line() for r in results if not r.ok] == []


def test_a_wrong_expectation_fails_with_the_first_difference(tmp_path):
    result = run_text(tmp_path, PUSH.replace('hand = ["GG-001", "GG-006"]',
                                             'hand = ["GG-001", "GG-007"]'))
    assert not result.ok
    assert result.message == "A.hand: expected [GG-001, GG-007] but was [GG-001, GG-006]"


def test_answers_and_random_entries_must_be_used_exactly(tmp_path):
    extra = run_text(tmp_path, PUSH.replace('A = ["GG-005"]', 'A = ["GG-005", "GG-006"]'))
    assert not extra.ok and extra.message == "left unused: A: [GG-006]"
    missing = run_text(tmp_path, PUSH.replace('A = ["GG-005"]', "A = []"))
    assert not missing.ok and "A is asked `push`" in missing.message
    wrong = run_text(tmp_path, PUSH.replace('A = ["GG-005"]', 'A = ["GG-007"]'))
    assert not wrong.ok and "answer `GG-007` to `push` is not one of" in wrong.message
    no_take = run_text(tmp_path, PUSH.replace('take = ["GG-001"]', "take = []"))
    assert not no_take.ok and "found no `[random] take` entry left" in no_take.message
    bad_take = run_text(tmp_path, PUSH.replace('take = ["GG-001"]', 'take = ["GG-003"]'))
    assert not bad_take.ok and "GG-003, is not in the hand" in bad_take.message


def test_a_refused_step_must_be_marked_and_an_accepted_one_must_not(tmp_path):
    text = PUSH.replace('effect = "steal_push"', 'effect = "peeping"')  # GG-010 has no peeping
    result = run_text(tmp_path, text)
    assert not result.ok and result.message.startswith("step use GG-010 peeping B by A was refused")
    marked = PUSH.replace('target = "B"\n', 'target = "B"\nexpect = "illegal"\n', 1)
    result = run_text(tmp_path, marked)
    assert not result.ok and "accepted, but the case expects it to be refused" in result.message


@pytest.mark.parametrize("old, new, needle, message", [
    ('players = 2', 'players = 6', "players = 6", "`players` is 2 to 5, not 6"),
    ('[state.B]', '[state.Q]', "[state.Q]", "unknown key `Q`"),
    ('hand = ["GG-010", "GG-005", "GG-006"]', 'hand = ["GG-010", "GG-005", "GG-060"]',
     'hand = ["GG-010", "GG-005", "GG-060"]', "unknown card id `GG-060`"),
    ('declared = ["GG-003"]', 'declared = ["GG-003", "GG-006", "GG-007", "GG-008"]',
     "declared = [", "at most 3 declaration cards"),
    ('effect = "steal_push"', 'effect = "steel_push"', 'effect = "steel_push"',
     "an effect `steel_push` is not valid"),
    ('A = ["GG-005"]', 'A = ["maybe"]', 'A = ["maybe"]', "answer `maybe` is neither yes, no nor a card id"),
    ('A = { B = ["GG-002"', 'A = { A = ["GG-002"', 'A = { A =', "`A` is paired with itself"),
    ('turn = 6 ', 'turn = 600 ', "turn = 600", "`turn` 600 is beyond `max_turns` 500"),
])
def test_a_bad_case_names_its_line(tmp_path, old, new, needle, message):
    assert old in PUSH
    text = PUSH.replace(old, new, 1)
    found = problems(tmp_path, text)
    line = line_of(text, needle)
    assert any(f":{line}: " in p and message in p for p in found), found


def test_too_many_copies_and_an_element_owned_twice_are_bad_cases(tmp_path):
    text = PUSH.replace('hand = ["GG-010", "GG-005", "GG-006"]',
                        'hand = ["GG-010", "GG-005", "GG-005"]\nelements = ["fire"]')
    text = text.replace('declared = ["GG-003"]', 'declared = ["GG-003"]\nelements = ["fire"]')
    found = " ".join(problems(tmp_path, text))
    assert "GG-005 appears 2 times on the board, but the set has 1" in found
    assert "the fire element card is owned by A already" in found
