"""Reading TOML with positions: where each table, key and array item of a parsed file is
written, and problems as ``path:LINE:COL: message``.

Ruling cases (of every game) are TOML; tomllib gives data without positions, so a case's
problem ("`slot` must be 1 to 5") could not say where it is.  :class:`TomlLines` walks the
text tomllib has just accepted and finds the line of any path in the parsed data, only
when a problem asks.  The rest are the messages' shared pieces: TOML type names, values cut
to a readable length, tomllib's own errors and integers too long for ``int()`` located.
"""

from __future__ import annotations

import bisect
import re
import sys
import tomllib
from typing import Any, Optional

from wgdsl.terminal import printable

# walks the text tomllib has just parsed (so it is valid TOML) and notes where each table
# header, key and array item is written, by its path in the parsed data: ("state", "A",
# "hand", 2) is the third id of `[state.A] hand`, ("step", 0, "card") the `card` of the
# first [[step]].  A path not written (a missing key) falls back to the nearest written
# table above it.
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_BASIC_STR = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_ML_BASIC_STR = re.compile(r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*""""{0,2}')
_ML_LITERAL_STR = re.compile(r"'''[\s\S]*?'''(?:'{0,2})")
_SCALAR = re.compile(r"[^,\]}\r\n#]*")


class TomlLines:
    """The line of every table, key and array item of a valid TOML text."""

    def __init__(self, text: str):
        self.text = text
        self._offsets: Optional[dict[tuple, int]] = None  # found when first asked
        self._counts: dict[tuple, int] = {}  # arrays of tables: how many so far
        self._starts: list[int] = []

    @property
    def offsets(self) -> dict[tuple, int]:
        """Where each path is written (an offset in the text); the text is scanned only
        when a problem asks, so a valid case costs nothing."""
        if self._offsets is None:
            self._offsets = {}
            self._starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
            try:
                self._document()
            except (IndexError, ValueError, AttributeError, RecursionError):  # pragma: no cover
                pass  # only a guide to the lines: what was found so far is kept
        return self._offsets

    def line(self, path: tuple) -> int:
        """The line of ``path``, or of the nearest enclosing table written; 0 if none."""
        offsets = self.offsets
        for k in range(len(path), 0, -1):
            offset = offsets.get(tuple(path[:k]))
            if offset is not None:
                return bisect.bisect_right(self._starts, offset)
        return 0

    # ------------------------------------------------------------ the scanner
    def _skip(self, i: int, newlines: bool = False) -> int:
        t, n = self.text, len(self.text)
        while i < n:
            c = t[i]
            if c in " \t" or (newlines and c in "\r\n"):
                i += 1
            elif newlines and c == "#":
                j = t.find("\n", i)
                i = n if j < 0 else j
            else:
                break
        return i

    def _key(self, i: int) -> tuple[list, int]:
        """A (dotted) key at ``i``: [(name, offset), ...] and where it ends."""
        t = self.text
        parts = []
        while True:
            i = self._skip(i)
            if t[i] == '"':
                j = _BASIC_STR.match(t, i).end()
                name = tomllib.loads("k = " + t[i:j])["k"]
            elif t[i] == "'":
                j = t.index("'", i + 1) + 1
                name = t[i + 1:j - 1]
            else:
                j = _BARE_KEY.match(t, i).end()
                name = t[i:j]
            parts.append((name, i))
            i = self._skip(j)
            if i < len(t) and t[i] == ".":
                i += 1
                continue
            return parts, i

    def _note_key(self, base: tuple, parts: list) -> tuple:
        path = base
        for name, offset in parts:
            path += (name,)
            self._offsets.setdefault(path, offset)
        return path

    def _document(self) -> None:
        t, n = self.text, len(self.text)
        table: tuple = ()
        i = 0
        while True:
            before = i
            i = self._skip(i, newlines=True)
            if i >= n:
                return
            if t[i] == "[":
                start = i
                many = t.startswith("[[", i)
                parts, i = self._key(i + (2 if many else 1))
                i += 2 if many else 1
                table = self._header(parts, many, start)
            else:
                parts, i = self._key(i)
                path = self._note_key(table, parts)
                i = self._skip(self._skip(i) + 1)  # past `=`
                i = self._value(i, path)
            if i <= before:  # pragma: no cover - valid TOML always moves on
                raise ValueError("the scanner is stuck")

    def _header(self, parts: list, many: bool, offset: int) -> tuple:
        path: tuple = ()
        for k, (name, _) in enumerate(parts):
            path += (name,)
            self._offsets.setdefault(path, offset)
            if many and k == len(parts) - 1:
                count = self._counts.get(path, 0)
                self._counts[path] = count + 1
                path += (count,)
                self._offsets[path] = offset
            elif path in self._counts:  # [a.b] below [[a]]: the last a
                path += (self._counts[path] - 1,)
        return path

    def _value(self, i: int, path: tuple) -> int:
        t = self.text
        if t.startswith('"""', i):
            return _ML_BASIC_STR.match(t, i).end()
        if t[i] == '"':
            return _BASIC_STR.match(t, i).end()
        if t.startswith("'''", i):
            return _ML_LITERAL_STR.match(t, i).end()
        if t[i] == "'":
            return t.index("'", i + 1) + 1
        if t[i] == "[":
            i, k = i + 1, 0
            while True:
                i = self._skip(i, newlines=True)
                if t[i] == "]":
                    return i + 1
                self._offsets[path + (k,)] = i
                i = self._skip(self._value(i, path + (k,)), newlines=True)
                k += 1
                if t[i] == ",":
                    i += 1
                elif t[i] != "]":  # pragma: no cover - valid TOML has one or the other
                    raise ValueError("the scanner is stuck")
        if t[i] == "{":
            i += 1
            while True:
                i = self._skip(i, newlines=True)
                if t[i] == "}":
                    return i + 1
                parts, i = self._key(i)
                key = self._note_key(path, parts)
                i = self._skip(self._skip(i) + 1)  # past `=`
                i = self._skip(self._value(i, key), newlines=True)
                if t[i] == ",":
                    i += 1
                elif t[i] != "}":  # pragma: no cover - valid TOML has one or the other
                    raise ValueError("the scanner is stuck")
        return _SCALAR.match(t, i).end()


# what long_number steps over whole: comments, strings, bare words (keys, ids, true);
# and the numbers it looks at
_TOKEN = re.compile("|".join((r"#[^\n]*", _ML_BASIC_STR.pattern, _BASIC_STR.pattern,
                              _ML_LITERAL_STR.pattern, r"'[^'\n]*'", r"[A-Za-z_][A-Za-z0-9_-]*",
                              r"[+-]?[0-9][0-9_]*")))


def long_number(text: str, limit: int) -> Optional[tuple[int, int, int]]:
    """(line, column, digits) of the first integer in TOML ``text`` with more than
    ``limit`` digits — the one ``int()`` refuses — skipping strings, comments, keys and
    floats; None if there is none."""
    for m in _TOKEN.finditer(text):
        number = m.group()
        if not ("0" <= number[0] <= "9" or number[0] in "+-"):
            continue
        digits = len(number) - number.count("_") - (number[0] in "+-")
        if digits <= limit:
            continue
        after = text[m.end():m.end() + 1]
        is_key = text[m.end():m.end() + 64].lstrip(" \t")[:1] == "="
        if is_key or after in (".", "e", "E", ":", "-"):  # a key, a float, a date or time
            continue
        start = m.start()
        line = text.count("\n", 0, start) + 1
        col = start - (text.rfind("\n", 0, start) + 1) + 1
        return line, col, digits
    return None



# the TOML types a case holds, named as messages say them; bool before int, since
# isinstance(True, int) holds
_TYPES = ((bool, "true or false"), (int, "an integer"), (float, "a number with a fraction"),
          (str, "a string"), (list, "a list"), (dict, "a table"))
TYPE_NAMES = dict(_TYPES)


def type_name(value: Any) -> str:
    for kind, name in _TYPES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


_SHOWN = 60  # a value quoted in a message is cut to about this many characters


def cut(text: str) -> str:
    """``text`` as quoted in a message: a very long value shows its start and its length."""
    if len(text) <= _SHOWN:
        return text
    return f"{text[:_SHOWN // 2]}… ({len(text):,} characters)"


def shown(value: Any) -> str:
    """A value as written in a message (repr for strings, like TOML; booleans as TOML
    writes them): cut when long."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = len(str(abs(value)))
        if digits > _SHOWN:
            return f"{'-' if value < 0 else ''}{str(abs(value))[:_SHOWN // 2]}… ({digits:,} digits)"
        return str(value)
    return cut(repr(value))



def located(path: str, line: int, text: str, col: int = 0) -> str:
    """A problem as reported: ``path:LINE: text`` (``path:LINE:COL:``, or ``path:`` when
    the problem has no place in the file), control characters made visible."""
    where = path + (f":{line}" if line else "") + (f":{col}" if line and col else "")
    return printable(f"{where}: {text}")


_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"\s*\(at end of document\)$")


def toml_problem(err: tomllib.TOMLDecodeError, text: str, path: str) -> str:
    msg = str(err)
    m = _TOML_AT.search(msg)
    if m:
        return located(path, int(m.group(1)), f"invalid TOML: {msg[:m.start()]}", int(m.group(2)))
    m = _TOML_END.search(msg)
    if m:
        return located(path, len(text.splitlines()) or 1,
                        f"invalid TOML at the end of the file: {msg[:m.start()]}")
    return located(path, 0, f"invalid TOML: {msg}")


def number_problem(text: str, path: str) -> str:
    """The problem of a TOML integer too long for ``int()`` (tomllib raises a plain
    ValueError for it, with no position)."""
    limit = sys.get_int_max_str_digits() or 4300
    found = long_number(text, limit)
    if found is None:
        return located(path, 0, f"a number in the file has more than {limit:,} digits, more "
                                 "than can be read", )
    line, col, digits = found
    return located(path, line, f"a number of {digits:,} digits is too long to read: numbers "
                                f"have at most {limit:,} digits (turns, seeds, slots and counts "
                                "are small numbers)", col)
