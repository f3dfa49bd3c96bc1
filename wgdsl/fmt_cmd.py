"""``wgdsl fmt``: read card files, format them, print, check or rewrite them.

The printing itself is :mod:`wgdsl.fmt`; this module only deals with files and with
what the command reports.  A file is rewritten only when it parses without error and
formatting it loses nothing but layout (comments outside the opening block would be
lost, so such a file is refused), and it is replaced in one step (written beside it,
then renamed over it).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Sequence

import click

from .cards import read_source
from .diagnostics import Diagnostic, render_all
from .fmt import format_source
from .resources import builtin_cards_path


def _report(diagnostics: Sequence[Diagnostic], path: str, text) -> None:
    click.echo(render_all(diagnostics, {path: text} if text is not None else {}), err=True)


def _replace(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".fmt", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def run_fmt(files: Sequence[str], *, check_only: bool = False, write: bool = False) -> int:
    """Run the command; returns the exit status (0 fine, 1 something to report)."""
    if check_only and write:
        raise click.UsageError("use --check or --write, not both")
    if write and not files:
        raise click.UsageError("name the files to rewrite: wgdsl fmt --write FILE...")
    paths = list(files) or [str(builtin_cards_path())]
    status = 0
    printed = 0
    for path in paths:
        text, problems = read_source(path)
        if text is None:
            _report(problems, path, None)
            status = 1
            continue
        formatted, diagnostics = format_source(text, path)
        if formatted is None:
            _report(diagnostics, path, text)
            click.echo(f"{path}: not formatted: fix the syntax errors first", err=True)
            status = 1
            continue
        if check_only:
            if formatted != text:
                click.echo(path)
                status = 1
        elif write:
            if diagnostics:
                _report(diagnostics, path, text)
                click.echo(f"{path}: not rewritten: it has comments that formatting would drop",
                           err=True)
                status = 1
            elif formatted != text:
                _replace(Path(path), formatted)
                click.echo(f"formatted {path}", err=True)
        else:
            if diagnostics:
                _report(diagnostics, path, text)
            if printed:
                click.echo("")
            click.echo(formatted, nl=False)
            printed += 1
    return status
