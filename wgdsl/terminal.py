"""Text that reaches a terminal: user-written strings made harmless.

Card names, ids and file contents are the user's text; an escape sequence in a card name
(``ESC ] 0 ; title BEL``, ``ESC [ 2 J``) would retitle the window or clear the screen when
printed.  :func:`printable` shows every control character as a visible escape instead
(``\\x1b``), keeping newlines and tabs.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the line/paragraph separators and
# bidirectional overrides that reorder or break what a terminal shows
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character but newline and tab written as an escape."""
    return _CONTROL.sub(_escape, text)


def has_control(text: str) -> bool:
    return _CONTROL.search(text) is not None
