"""The event log: what happened in a game, in order, as text lines and as JSON."""

from __future__ import annotations

import json


class EventLog:
    """What happened, in order: ``(turn, player, kind, text)`` entries."""

    def __init__(self):
        self.entries: list = []

    def add(self, turn: int, player: str, kind: str, text: str) -> None:
        self.entries.append((turn, player, kind, text))

    def lines(self) -> list[str]:
        return [f"T{turn:<3} {player or '-'}  {text}" for turn, player, kind, text in self.entries]

    def to_json(self) -> str:
        return json.dumps(
            [{"turn": t, "player": p, "kind": k, "text": x} for t, p, k, x in self.entries],
            ensure_ascii=False,
        )
