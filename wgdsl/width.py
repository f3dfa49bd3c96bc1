"""Terminal display width: East-Asian wide and fullwidth characters take 2 cells."""

from __future__ import annotations

import unicodedata


def display_width(text: str) -> int:
    """Display cells of ``text``: wide/fullwidth characters 2, combining marks 0."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width
