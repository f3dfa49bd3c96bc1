"""A game described by a game file: :class:`DescribedGame` and :func:`load_game_file`.

Loading reads the file (wgdsl.files: never a hang, never a huge read), parses and checks
it (wgdsl.lang.game), resolves the rule functions it names (:mod:`.hooks`) and compiles
its steps into closures (:mod:`.program`), once.  ``new_state`` then only lays out a
fresh :class:`~wgdsl.games.described.state.Table` and runs the setup.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Union

from wgdsl.lang.diagnostics import Diagnostic, DiagnosticError
from wgdsl.lang.game import compile_text, read_source
from wgdsl.lang.game.spec import PLAYED, GameSpec

from .hooks import ENGINE, resolve_hooks
from .program import compile_program
from wgdsl.kernel.rng import MASK

from .state import DescribedState, Table


class GameFileError(DiagnosticError, ValueError):
    """A game file that cannot be played: its diagnostics, rendered with the file's lines."""


class DescribedGame:
    """A game from a game file (engine-api.md's Game): ``id``, ``name``, ``seat_range``,
    ``options`` (the names of its variants) and :meth:`new_state`."""

    def __init__(self, spec: GameSpec, hooks: dict, warnings: tuple = ()):
        self.spec = spec
        self.id = spec.id
        self.name = spec.name
        self.seat_range = tuple(spec.seat_range)
        self.options = tuple(o.name for o in spec.options)
        self.warnings = tuple(warnings)
        self.program = compile_program(spec, hooks)

    def __repr__(self) -> str:
        return f"<DescribedGame {self.id} from {self.spec.path}>"

    def _options(self, given: Optional[dict]) -> dict:
        values = {o.name: o.default for o in self.spec.options}
        for name, value in dict(given or {}).items():
            if name not in values:
                raise ValueError(f"unknown option {name!r}; {self.name}'s options are "
                                 + (", ".join(values) or "none"))
            option = self.spec.option(name)
            if isinstance(value, bool) or not isinstance(value, int):
                try:
                    value = int(str(value), 10)
                except ValueError:
                    raise ValueError(f"option {name}: a whole number from {option.low} to "
                                     f"{option.high}, not {value!r}") from None
            if not option.low <= value <= option.high:
                raise ValueError(f"option {name}: {option.low} to {option.high}, not {value}")
            values[name] = value
        return values

    def seat_names(self, count: int) -> tuple:
        """The seats of a game of ``count`` seats, in turn order."""
        names = self.spec.seat_names[:count]
        return names if self.spec.clockwise else names[:1] + names[:0:-1]

    def new_state(self, seed: int = 0, seats: Optional[int] = None, decks: Any = None,
                  cards: Any = None, options: Optional[dict] = None) -> DescribedState:
        """A new game: ``seats`` a count within ``seat_range`` (default the fewest);
        ``options`` the game's variants by name (``{"rounds": 10}``).  A game file carries
        its own cards: ``decks`` and ``cards`` are not used."""
        low, high = self.seat_range
        if decks is not None or cards is not None:
            raise ValueError(f"{self.name} carries its own cards (in {self.spec.path}): "
                             "decks= and cards= are not used")
        count = low if seats is None else seats
        if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
            span = f"{low}" if low == high else f"{low} to {high}"
            raise ValueError(f"{self.name} is played by {span} seats ({self.spec.seats_rule}), "
                             f"not {seats}")
        values = self._options(options)
        names = self.seat_names(count)
        spec = self.spec
        t = Table()
        t.round, t.phase, t.active = 0, 0, 0
        t.rng = int(seed) & MASK
        t.zones = {}
        for z in spec.zones:
            for owner in (names if z.per_seat else (None,)):
                t.zones[(z.name, owner)] = []
        for seat in names:
            t.zones[(PLAYED, seat)] = []
        t.defs = [i for i, c in enumerate(spec.cards) for _ in range(c.copies)]
        t.known = [0] * len(t.defs)
        t.counters = {c.name: dict.fromkeys(names, c.start) for c in spec.counters}
        t.choices, t.winners, t.result, t.log = {}, None, None, []
        state = DescribedState(self, names, values, t)
        if spec.first is None:
            t.active = state.below(count)
            state.note("", "setup", f"{names[t.active]} is drawn to be the first active seat")
        else:
            t.active = names.index(spec.first)
        for run in self.program.setup:
            run(state)
        state._start_round(1)
        state._advance()
        return state


def check_game_file(path: Union[str, Path]) -> tuple[Optional[DescribedGame], list[Diagnostic],
                                                     Optional[str]]:
    """(the game or None, every diagnostic, the file's text or None): what ``wgdsl check``
    reports.  The game is None when there is an error; warnings come with a game."""
    text, problems = read_source(path)
    if text is None:
        return None, problems, None
    return (*check_game_text(text, str(path)), text)


def check_game_text(text: str, path: str) -> tuple[Optional[DescribedGame], list[Diagnostic]]:
    """(the game or None, every diagnostic) of the game file ``text``, named ``path`` in
    the diagnostics: :func:`check_game_file` for text already read (an editor's buffer)."""
    spec, problems = compile_text(text, path)
    if spec is None:
        return None, problems
    hooks, unresolved = resolve_hooks(spec)
    problems = sorted(unresolved + problems, key=lambda d: (d.pos.line, d.pos.col))
    if unresolved:
        return None, problems
    if spec.engine is not None:
        return _engine_game(spec, hooks, problems)
    return DescribedGame(spec, hooks, warnings=tuple(problems)), problems


def _engine_game(spec: GameSpec, hooks: dict, problems: list):
    """A game file with ``played by``: its engine's rule function builds the game from the
    spec.  The engine refuses a spec it cannot play (a zone it needs is missing, a card
    whose effects it cannot carry out) with a ValueError: reported at ``played by``."""
    effects = {e.name: hooks[e.name] for e in spec.effects}
    try:
        game = hooks[ENGINE](spec, effects)
    except ValueError as err:
        problem = Diagnostic(spec.path, spec.engine.pos, str(err),
                             "the engine needs this of its game file (docs/games.md)")
        return None, sorted(problems + [problem], key=lambda d: (d.pos.line, d.pos.col))
    game.warnings = tuple(problems)
    # how the engine reads a variant of its file (engine-api's ``new_state(cards=PATH)``)
    # without importing the loader, which lives with the described games
    game.load_file = load_game_file
    return game, problems


def load_game_file(path: Union[str, Path]) -> DescribedGame:
    """The game of the game file at ``path``; :class:`GameFileError` (a ValueError whose
    message is the file's diagnostics, with positions) when it has errors."""
    game, problems, text = check_game_file(path)
    if game is None:
        raise GameFileError([d for d in problems if d.severity == "error"],
                            {str(path): text} if text is not None else {})
    return game
