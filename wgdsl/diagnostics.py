"""Diagnostics: what went wrong, where, and what would be right.

Every error a user can cause is a :class:`Diagnostic`.  It renders as
``path:line:col: error: message``, then the source line, a caret under the offending
text, and a hint when one helps::

    cards/mine.wg:7:29: error: unknown zone `brake`
        dimension: move this to brake
                                ^^^^^
      hint: did you mean `break`?
"""

from __future__ import annotations

import difflib
from typing import Iterable, Optional, Sequence

import attrs

from .ast import NOWHERE, Pos


@attrs.frozen
class Diagnostic:
    path: str
    pos: Pos
    message: str
    hint: Optional[str] = None
    severity: str = "error"

    def render(self, source: Optional[str] = None) -> str:
        where = self.path if self.pos == NOWHERE else f"{self.path}:{self.pos.line}:{self.pos.col}"
        out = [f"{where}: {self.severity}: {self.message}"]
        if source is not None and self.pos.line > 0:
            lines = source.splitlines()
            if self.pos.line <= len(lines):
                text = lines[self.pos.line - 1].expandtabs(1)
                width = 1
                if self.pos.end_line == self.pos.line and self.pos.end_col > self.pos.col:
                    width = self.pos.end_col - self.pos.col
                out.append("    " + text)
                out.append("    " + " " * (self.pos.col - 1) + "^" * width)
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


class DiagnosticError(Exception):
    """Raised with every diagnostic found when input cannot be used."""

    def __init__(self, diagnostics: Sequence[Diagnostic], sources: Optional[dict] = None):
        self.diagnostics = list(diagnostics)
        self.sources = dict(sources or {})
        super().__init__(self.render())

    def render(self) -> str:
        return render_all(self.diagnostics, self.sources)


def render_all(diagnostics: Iterable[Diagnostic], sources: Optional[dict] = None) -> str:
    sources = sources or {}
    return "\n".join(d.render(sources.get(d.path)) for d in diagnostics)


def did_you_mean(word: str, choices: Iterable[str]) -> Optional[str]:
    """``did you mean `break`?`` for the closest choice, or None when nothing is close."""
    match = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return f"did you mean `{match[0]}`?" if match else None


def one_of(choices: Iterable[str]) -> str:
    items = [f"`{c}`" for c in choices]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
