"""Helpers shared by the tests of the command line and of diagnostics."""

from __future__ import annotations

import traceback

from click.testing import CliRunner

from wgdsl.cli import main


def cli(*args):
    """Run ``wgdsl ARGS`` in-process (click's runner); the result has exit_code and output."""
    return CliRunner().invoke(main, [str(a) for a in args])


def no_traceback(result) -> None:
    """The CLI either finished or exited; anything else is a crash."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError("the CLI crashed:\n" + "".join(
            traceback.format_exception(result.exception)) + "\noutput:\n" + result.output)
    assert "Traceback" not in result.output


def at(d) -> tuple[int, int]:
    """Where a diagnostic points: (line, column)."""
    return (d.pos.line, d.pos.col)
