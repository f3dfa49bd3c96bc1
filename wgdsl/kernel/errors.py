"""Errors that cross module boundaries: raised by the engine, reported by every command.

They name no game: a game's engine raises them with its own reasons and rule numbers."""

from __future__ import annotations

from typing import Sequence


class RunawayEffects(Exception):
    """A chain of effects that would never end was stopped (see docs/language.md, "Effects
    that never end").  ``cards`` names the cards whose effects formed the chain, in the order
    they last resolved; ``cycle`` describes the repeating part; ``message`` is the whole
    sentence a command prints."""

    def __init__(self, message: str, cards: Sequence[str] = (), cycle: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        self.cards = tuple(cards)
        self.cycle = tuple(cycle)


class IllegalAction(Exception):
    """An action the rules refuse; the state is unchanged."""

    def __init__(self, reason: str, rule: str = ""):
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)
