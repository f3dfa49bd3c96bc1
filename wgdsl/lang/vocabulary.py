"""The words a card language takes from its game file: :class:`Vocabulary`.

A card file is written for a game.  Which colors and marks a card may have, which phases an
effect may name (``during your gain phase``) and which zones there are is not the card
language's to decide: the game file says it (``stat color blue, green, red, yellow``,
``stat mark ... default by color: ...``, ``phases start, draw, ...``, ``zone ...``), and the
checker reads it from here, citing the rule the game file gives each declaration
(``rule R2.2``).  A word of another game (``color fire`` in a World Gainer card) is then an
error at its place, with the game's own words as the hint.

:func:`world_gainer` is the vocabulary of the built-in World Gainer game file, read once per
process: the default of every card file (the card language began with that game).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

import attrs

from wgdsl.resources import world_gainer_game_path


@attrs.frozen
class Vocabulary:
    """``game``: the game file's id; each word list comes with the rule that declares it."""

    game: str
    colors: tuple
    colors_rule: str
    marks: tuple
    marks_rule: str
    mark_of_color: dict = attrs.field(eq=False)
    phases: tuple
    phases_rule: str
    zones: tuple
    path: str = ""

    @classmethod
    def from_spec(cls, spec) -> "Vocabulary":
        """The vocabulary of a compiled game file (:class:`~wgdsl.lang.game.spec.GameSpec`).
        ValueError when the file lacks what the card language needs (its stat ``color``)."""
        color = spec.stat("color")
        if color is None or not color.values:
            raise ValueError(f"{spec.path}: the card language needs a word stat `color` "
                             "(`stat color blue, green, red, yellow`)")
        mark = spec.stat("mark")
        return cls(
            game=spec.id, colors=tuple(color.values), colors_rule=color.rule,
            marks=tuple(mark.values) if mark is not None else (),
            marks_rule=mark.rule if mark is not None else "",
            mark_of_color=dict(mark.defaults) if mark is not None and mark.default_by == "color"
            else {},
            phases=tuple(spec.turn_phases), phases_rule=spec.phases_rule,
            zones=tuple(z.name for z in spec.zones), path=spec.path)

    def default_mark(self, color: str) -> str:
        return self.mark_of_color.get(color, "")


def cite(rule: str) -> str:
    """`` (R2.2)`` for a hint's end, or nothing when the game file gives no rule."""
    return f" ({rule})" if rule else ""


@lru_cache(maxsize=1)
def world_gainer() -> Vocabulary:
    """The vocabulary of World Gainer's game file (wgdsl/games/world_gainer/)."""
    from wgdsl.lang.diagnostics import DiagnosticError

    from .game import compile_text, read_source

    path = world_gainer_game_path()
    text, problems = read_source(path)
    spec = None
    if text is not None:
        spec, problems = compile_text(text, str(path))
    if spec is None:  # the package's own file: a broken install, not a user's mistake
        raise DiagnosticError([p for p in problems if p.severity == "error"],
                              {str(path): text} if text is not None else {})
    return Vocabulary.from_spec(spec)


def of(vocabulary: Optional[Vocabulary]) -> Vocabulary:
    """``vocabulary``, or World Gainer's when None."""
    return vocabulary if vocabulary is not None else world_gainer()
