"""Ruling cases under pytest: ``pytest examples/rulings`` collects every ``*.toml`` ruling
case (of any game) as a test item named after its ``[case] id``.

So ``-k``, ``-x``, ``--junitxml`` and every other pytest habit apply to cases; a failing
case shows its first difference, as ``wgdsl rulings`` prints it, and a bad case file
fails with its problems, each at its line.  Installed with wgdsl (the ``pytest11`` entry
point in pyproject.toml); it collects nothing but files whose text has a ``[case]``
table, so other TOML files (``pyproject.toml``) are left alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wgdsl.tools.rulings import CaseProblems, load_case, run_case

# a ruling case is a few hundred bytes: a larger file is read by load_case, which says why
_SNIFF_BYTES = 64 * 1024


def _is_case(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(_SNIFF_BYTES)
    except OSError:
        return False
    return b"[case]" in head


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".toml" and _is_case(file_path):
        return RulingFile.from_parent(parent, path=file_path)
    return None


class RulingFailure(Exception):
    """A case that ran and failed, or a case file that could not be read."""


class RulingFile(pytest.File):
    def collect(self):
        try:
            case = load_case(self.path)
        except CaseProblems as err:
            yield BadCase.from_parent(self, name=self.path.stem, problems=err.problems)
            return
        yield RulingItem.from_parent(self, name=case.id or self.path.stem, case=case)


class RulingItem(pytest.Item):
    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        result = run_case(self.case)
        if not result.ok:
            raise RulingFailure(result.message)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RulingFailure):
            return f"ruling case {self.name} ({self.path}): {excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.case.id_line - 1 if self.case.id_line else 0, \
            f"ruling case {self.name}"


class BadCase(pytest.Item):
    def __init__(self, *, problems, **kwargs):
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        raise RulingFailure("\n".join(self.problems))

    def repr_failure(self, excinfo, style=None):
        return f"bad ruling case file {self.path}:\n{excinfo.value}"

    def reportinfo(self):
        return self.path, 0, f"bad ruling case {self.name}"
