"""Positions between wgdsl and an editor.

wgdsl counts a line as the text between two ``"\\n"`` and a column in characters (code
points), from 1; the language server protocol counts lines from 0 and columns in the
code units of the encoding agreed at ``initialize``: UTF-16 unless the editor offers
another.  A Japanese card name is one UTF-16 unit a character, but a character outside
the Basic Multilingual Plane (an emoji, a rare kanji) is two, so the two columns differ
after it.  :class:`Lines` converts both ways for one text.

A line is split at ``"\\n"`` only, as the parser does (a ``"\\r"`` before it belongs to the
line end); pygls' own helpers split at every Unicode line break (a U+2028 in a comment, a
form feed), which would shift every line below one.
"""

from __future__ import annotations

import bisect
from typing import Optional

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def units(text: str, encoding: str = UTF16) -> int:
    """The length of ``text`` in the encoding's code units."""
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class Lines:
    """One text's lines, and positions converted between wgdsl and the protocol."""

    def __init__(self, text: str, encoding: str = UTF16):
        self.text = text
        self.encoding = encoding
        self.starts = [0]
        at = text.find("\n")
        while at >= 0:
            self.starts.append(at + 1)
            at = text.find("\n", at + 1)

    def line(self, index: int) -> str:
        """Line ``index`` (0-based) without its line end ("" past the end)."""
        if not 0 <= index < len(self.starts):
            return ""
        start = self.starts[index]
        end = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.text)
        if end > start and self.text[end - 1] == "\r" and index + 1 < len(self.starts):
            end -= 1
        return self.text[start:end]

    def __len__(self) -> int:
        return len(self.starts)

    def to_lsp(self, line: int, col: int) -> tuple[int, int]:
        """wgdsl's 1-based (line, column in characters) as the protocol's (line,
        character), clamped to the text."""
        index = min(max(line - 1, 0), len(self.starts) - 1)
        text = self.line(index)
        chars = min(max(col - 1, 0), len(text))
        return index, units(text[:chars], self.encoding)

    def offset(self, line: int, character: int) -> int:
        """The offset in the text of the protocol's (line, character); a character past
        the line's end is its end, a line past the text the text's end."""
        if line >= len(self.starts):
            return len(self.text)
        text = self.line(max(line, 0))
        start = self.starts[max(line, 0)]
        if self.encoding == UTF32:
            return start + min(character, len(text))
        count = 0
        for i, ch in enumerate(text):
            if count >= character:
                return start + i
            count += units(ch, self.encoding)
        return start + len(text)

    def from_offset(self, offset: int) -> tuple[int, int]:
        """The protocol's (line, character) of an offset in the text."""
        index = bisect.bisect_right(self.starts, offset) - 1
        start = self.starts[index]
        return index, units(self.text[start:offset], self.encoding)

    def end(self) -> tuple[int, int]:
        """The protocol position just after the last character."""
        return self.from_offset(len(self.text))

    def span(self, line: int, col: int, end_line: int = 0, end_col: int = 0,
             ) -> tuple[tuple[int, int], tuple[int, int]]:
        """The protocol range of a wgdsl position: ``end_col`` is one past the last
        character (as diagnostics give it).  No end: one character at the column; no line
        at all (line 0, a problem of the whole file): the first line."""
        if line <= 0:
            return (0, 0), (0, units(self.line(0), self.encoding))
        start = self.to_lsp(line, col)
        if end_line > line or (end_line == line and end_col > col):
            return start, self.to_lsp(end_line, end_col)
        text = self.line(start[0])
        chars = min(max(col - 1, 0), len(text))
        return start, (start[0], start[1] + units(text[chars:chars + 1], self.encoding))

    def line_span(self, line: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The protocol range of line ``line`` (1-based) from its first word to its end."""
        if line <= 0:
            return self.span(0, 0)
        text = self.line(line - 1)
        first = len(text) - len(text.lstrip())
        return self.to_lsp(line, first + 1), self.to_lsp(line, len(text) + 1)


def word_at(text: str, index: int, allowed) -> Optional[tuple[int, int]]:
    """The (start, end) of the run of ``allowed`` characters (a predicate) around
    ``index`` in ``text``, or None."""
    start = index
    while start > 0 and allowed(text[start - 1]):
        start -= 1
    end = index
    while end < len(text) and allowed(text[end]):
        end += 1
    return (start, end) if end > start else None
