"""The event log: what happened, in order, as text lines and as JSON.

A game appends ``(turn, player, kind, text)`` records.  On its hot path it may append a
record whose text is not built yet: ``text`` is then a tuple ``(function, *arguments)``
and the text is ``function(*arguments)``, built when the log is read (``entries``,
``lines``, ``to_json``): a game played without anyone reading its log never formats it.
The arguments must be values that do not change afterwards (ids, numbers, card
definitions), never a live object whose state the text describes.
"""

from __future__ import annotations

import json


class EventLog:
    """What happened, in order: ``(turn, player, kind, text)`` entries.

    ``raw`` is the list records are appended to (texts maybe not built yet; its length is
    the number of entries); ``entries`` is the same list with every text built."""

    __slots__ = ("raw", "_built", "_last")

    def __init__(self):
        self.raw: list = []
        self._built = 0  # raw[:_built] hold built texts ...
        self._last = None  # ... as long as raw[_built - 1] is still this record

    @property
    def entries(self) -> list:
        raw = self.raw
        n = len(raw)
        start = self._built
        if start and (start > n or raw[start - 1] is not self._last):
            start = 0  # entries were taken back (and maybe others appended): look again
        if start < n:
            for i in range(start, n):
                turn, player, kind, text = raw[i]
                if text.__class__ is not str:
                    raw[i] = (turn, player, kind, text[0](*text[1:]))
            self._last = raw[n - 1]
        elif not n:
            self._last = None
        self._built = n
        return raw

    @entries.setter
    def entries(self, value: list) -> None:
        self.raw = value
        self._built, self._last = 0, None

    def add(self, turn: int, player: str, kind: str, text) -> None:
        self.raw.append((turn, player, kind, text))

    def of_kinds(self, kinds) -> list:
        """The entries whose kind is one of ``kinds`` (a set), their texts built; the
        other entries are left as they are (a reader of a few kinds builds only theirs)."""
        return [(turn, player, kind, text if text.__class__ is str else text[0](*text[1:]))
                for turn, player, kind, text in self.raw if kind in kinds]

    def lines(self) -> list[str]:
        return [f"T{turn:<3} {player or '-'}  {text}" for turn, player, kind, text in self.entries]

    def to_json(self) -> str:
        return json.dumps(
            [{"turn": t, "player": p, "kind": k, "text": x} for t, p, k, x in self.entries],
            ensure_ascii=False,
        )
