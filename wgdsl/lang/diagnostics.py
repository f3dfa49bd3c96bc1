"""Diagnostics: what went wrong, where, and what would be right.

Every error a user can cause is a :class:`Diagnostic`.  It renders as
``path:line:col: error: message``, then the source line, a caret under the offending
text, and a hint when one helps::

    cards/mine.wg:7:29: error: unknown zone `brake`
        dimension: move this to brake
                                ^^^^^
      hint: did you mean `break`?

A line is what the parser counts as one: the text between two ``"\\n"`` (a form feed
or a U+2028 in a comment does not start a new line).  A long line is shown as a window
of :data:`CONTEXT` characters either side of the caret, cut ends marked ``…``, so the
output stays small whatever the line.  Everything printed passes through
:func:`wgdsl.terminal.printable`: an escape sequence in a card file reaches the terminal
as visible text, never as a command.
"""

from __future__ import annotations

import difflib
from typing import Iterable, Optional, Sequence, Union

import attrs

from wgdsl.terminal import printable
from wgdsl.width import display_width

from .ast import NOWHERE, Pos

# characters of source shown on each side of the caret
CONTEXT = 60
# the longest caret drawn under one diagnostic
MAX_CARET = 2 * CONTEXT


def shorten(text: str, limit: int = 60) -> str:
    """``text`` for quoting in a message: at most ``limit`` characters, cut with ``…``
    (a misspelt word or a path can be thousands of characters long)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


class SourceLines:
    """A source text's lines as the parser counts them (split at ``"\\n"`` only).

    The line starts are found once, on first use, so rendering many diagnostics of one
    file costs one pass over the text, not one per diagnostic."""

    def __init__(self, text: str):
        self.text = text
        self._starts: Optional[list[int]] = None

    def __len__(self) -> int:
        return len(self._line_starts())

    def _line_starts(self) -> list[int]:
        if self._starts is None:
            text, starts, at = self.text, [0], self.text.find("\n")
            while at >= 0:
                starts.append(at + 1)
                at = text.find("\n", at + 1)
            self._starts = starts
        return self._starts

    def line(self, number: int) -> Optional[str]:
        """Line ``number`` (1-based) without its line end, or None past the end."""
        starts = self._line_starts()
        if not 1 <= number <= len(starts):
            return None
        start = starts[number - 1]
        end = starts[number] - 1 if number < len(starts) else len(self.text)
        if end > start and self.text[end - 1] == "\r" and number < len(starts):
            end -= 1  # "\r\n" ends the line as a whole
        return self.text[start:end]


def excerpt(line: str, pos: Pos) -> tuple[str, str]:
    """(the source line, the caret line) for ``pos`` on ``line``, both ready to print.

    Only a window around the caret is shown; tabs are shown as one space so that the
    caret stays under its column, and wide characters count two cells."""
    start = min(max(pos.col - 1, 0), len(line))
    stop = start + 1
    if pos.end_line == pos.line and pos.end_col > pos.col:
        stop = start + (pos.end_col - pos.col)
    stop = min(stop, start + MAX_CARET)
    left = max(0, start - CONTEXT)
    right = min(len(line), max(stop, start + 1) + CONTEXT)
    before = printable(line[left:start].replace("\t", " "))
    marked = printable(line[start:min(stop, len(line))].replace("\t", " "))
    after = printable(line[min(stop, len(line)):right].replace("\t", " "))
    head = "…" if left > 0 else ""
    tail = "…" if right < len(line) else ""
    caret = " " * (display_width(head + before)) + "^" * max(1, display_width(marked))
    return head + before + marked + after + tail, caret


@attrs.frozen
class Diagnostic:
    path: str
    pos: Pos
    message: str
    hint: Optional[str] = None
    severity: str = "error"

    def render(self, source: Union[str, SourceLines, None] = None) -> str:
        where = self.path if self.pos == NOWHERE else f"{self.path}:{self.pos.line}:{self.pos.col}"
        out = [printable(f"{where}: {self.severity}: {self.message}")]
        if source is not None and self.pos.line > 0:
            lines = source if isinstance(source, SourceLines) else SourceLines(source)
            text = lines.line(self.pos.line)
            if text is not None:
                shown, caret = excerpt(text, self.pos)
                out.append("    " + shown)
                out.append("    " + caret)
        if self.hint:
            out.append(printable(f"  hint: {self.hint}"))
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
    lines: dict[str, SourceLines] = {}
    out = []
    for d in diagnostics:
        text = sources.get(d.path)
        if text is not None and d.path not in lines:
            lines[d.path] = SourceLines(text)
        out.append(d.render(lines.get(d.path)))
    return "\n".join(out)


def did_you_mean(word: str, choices: Iterable[str]) -> Optional[str]:
    """``did you mean `break`?`` for the closest choice, or None when nothing is close."""
    match = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return f"did you mean `{match[0]}`?" if match else None


def one_of(choices: Iterable[str]) -> str:
    items = [f"`{c}`" for c in choices]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def stray_character(path: str, pos: Pos, found: str, non_ascii_hint: str,
                    written_with: str) -> Diagnostic:
    """A character no word of a language starts with (card files and game files alike): an
    unclosed quote, an invisible character, a letter outside ASCII (``non_ascii_hint``
    says where such names go), or anything else (``written_with``: what the file is made
    of)."""
    first = found[:1]
    if first == '"':
        return Diagnostic(path, pos, "this quoted name is not closed",
                          'a name starts and ends with `"` on the same line')
    if not first.isprintable():
        return Diagnostic(path, pos, f"unexpected character U+{ord(first):04X}",
                          "remove it; only spaces, tabs and line ends separate words")
    if ord(first) > 127:
        return Diagnostic(path, pos, f"unexpected `{shorten(found)}`", non_ascii_hint)
    return Diagnostic(path, pos, f"unexpected character `{shorten(found)}`",
                      f"{written_with} words, numbers, quoted names and `{{ }} : ,`; "
                      "`#` starts a comment")
