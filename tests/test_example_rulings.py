"""Every ruling case shipped in examples/rulings/ passes (and each says where it comes from)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wgdsl.tools.rulings import load_case, run_case, run_paths

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "rulings"
CASES = sorted(EXAMPLES.rglob("*.toml"))


def test_there_are_example_cases():
    assert len(CASES) >= 40


@pytest.mark.parametrize("path", CASES, ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_example_case_passes(path):
    case = load_case(path)
    assert case.source and case.question and case.answer, "a case says its source, question and answer"
    result = run_case(case)
    assert result.ok, result.message


def test_example_case_ids_are_unique():
    results = run_paths([EXAMPLES])
    assert all(r.case_id is not None for r in results), [r.line() for r in results if r.case_id is None]
