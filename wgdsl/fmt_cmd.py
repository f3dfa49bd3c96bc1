"""``wgdsl fmt``: read card files, format them, print, check or rewrite them.

The printing itself is :mod:`wgdsl.lang.fmt`; this module only deals with files and with
what the command reports.  A file is rewritten only when it parses without error
(comments are kept, see :mod:`wgdsl.lang.fmt`), and it is replaced in one step (written
beside it, then renamed over it).  A symlink is written through: the file it names is
replaced, the link stays a link.  The file keeps its permission bits (and its owner
and group where the system allows it).  ``-`` reads standard input (print or
``--check``; there is no file to rewrite).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Sequence

import click

from wgdsl.lang.cards import read_source
from wgdsl.lang.diagnostics import Diagnostic, render_all
from wgdsl.lang.fmt import format_source

from .resources import builtin_cards_path


def _echo(text: str, err: bool = False, nl: bool = True) -> None:
    from .cli import echo

    echo(text, err=err, nl=nl)


def _report(diagnostics: Sequence[Diagnostic], path: str, text) -> None:
    _echo(render_all(diagnostics, {path: text} if text is not None else {}), err=True)


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to the file ``path`` names (through symlinks), keeping its mode."""
    target = Path(os.path.realpath(path))
    old = os.stat(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".fmt", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.chmod(tmp, stat.S_IMODE(old.st_mode))
        if hasattr(os, "chown"):
            try:
                os.chown(tmp, old.st_uid, old.st_gid)
            except OSError:  # only the owner's own group, or root, may be set
                pass
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def run_fmt(files: Sequence[str], *, check_only: bool = False, write: bool = False) -> int:
    """Run the command; returns the exit status (0 fine, 1 something to report)."""
    from .cli import STDIN, STDIN_NAME, _read_stdin

    if check_only and write:
        raise click.UsageError("use --check or --write, not both")
    if write and not files:
        raise click.UsageError("name the files to rewrite: wgdsl fmt --write FILE...")
    if write and STDIN in files:
        raise click.UsageError("--write rewrites files; standard input (`-`) has none: "
                               "use `wgdsl fmt -` to print it formatted")
    paths = list(files) or [str(builtin_cards_path())]
    status = 0
    printed = 0
    for path in paths:
        if path == STDIN:
            path, text, problems = STDIN_NAME, _read_stdin("card file"), []
        else:
            text, problems = read_source(path)
        if text is None:
            _report(problems, path, None)
            status = 1
            continue
        formatted, diagnostics = format_source(text, path)
        if formatted is None:
            _report(diagnostics, path, text)
            _echo(f"{path}: not formatted: fix the syntax errors first", err=True)
            status = 1
            continue
        if check_only:
            if formatted != text:
                _echo(path)
                status = 1
        elif write:
            if formatted != text:
                try:
                    _replace(Path(path), formatted)
                except OSError as err:
                    _echo(f"{path}: error: cannot be rewritten: {err.strerror or err}", err=True)
                    status = 1
                    continue
                _echo(f"formatted {path}", err=True)
        else:
            if printed:
                _echo("")
            _echo(formatted, nl=False)
            printed += 1
    return status
