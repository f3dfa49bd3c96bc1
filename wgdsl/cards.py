"""Card definitions: the checked AST of a card set turned into plain card data.

``load_cards(path)`` parses and checks a ``.wg`` file and returns a :class:`CardLibrary`
(or raises :class:`~wgdsl.diagnostics.DiagnosticError` with every problem found).  A
:class:`CardDef` holds a card's stats as the rules use them (R2.1) and its effects as
the AST wrote them; the interpreter compiles those once per library.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Optional, Union

import attrs

from . import ast
from .diagnostics import Diagnostic, DiagnosticError
from .resources import builtin_cards_path

COLORS = ("blue", "green", "red", "yellow")
MARKS = ("rock", "paper", "scissors", "all")
# R2.2: a card's mark follows its color unless its definition says otherwise
MARK_OF_COLOR = {"blue": "scissors", "green": "paper", "red": "rock", "yellow": "all"}
# the kinds the spec's table shows: D dimension, F field, S static outside the field
KIND_LETTERS = {"dimension": "D", "field": "F"}


@attrs.frozen
class CardDef:
    id: str
    name: str
    en_name: str
    color: str
    mark: str
    cost: int
    required: int
    stun: int
    unique: bool
    effects: tuple[ast.Effect, ...]
    source: ast.Card = attrs.field(eq=False, repr=False)

    @property
    def kind(self) -> str:
        """``D``, ``F``, ``S`` (static outside the field), combinations, or ``—``."""
        letters = []
        for eff in self.effects:
            letter = KIND_LETTERS.get(eff.where, "S")
            if letter not in letters:
                letters.append(letter)
        return "".join(letters) or "—"


def card_def(card: ast.Card) -> CardDef:
    color = card.stat("color", "")
    return CardDef(
        id=card.id,
        name=card.name,
        en_name=card.en_name or card.name,
        color=color,
        mark=card.stat("mark", MARK_OF_COLOR.get(color, "")),
        cost=card.stat("cost", 0),
        required=card.stat("requires", 0),
        stun=card.stat("stun", 1),
        unique=bool(card.stat("unique", False)),
        effects=card.effects,
        source=card,
    )


@attrs.frozen
class CardLibrary:
    """The cards of one set, by id, in the order they were written."""

    path: str
    by_id: dict[str, CardDef]

    def __iter__(self) -> Iterator[CardDef]:
        return iter(self.by_id.values())

    def __len__(self) -> int:
        return len(self.by_id)

    def __contains__(self, card_id: str) -> bool:
        return card_id in self.by_id

    def __getitem__(self, card_id: str) -> CardDef:
        return self.by_id[card_id]

    def get(self, card_id: str) -> Optional[CardDef]:
        return self.by_id.get(card_id)

    def by_name(self, name: str) -> list[CardDef]:
        return [c for c in self.by_id.values() if c.name == name or c.en_name == name]


def read_source(path: Union[str, Path]) -> tuple[Optional[str], list[Diagnostic]]:
    """The text of a card file, or a diagnostic saying why it cannot be read."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8"), []
    except FileNotFoundError:
        return None, [Diagnostic(str(path), ast.NOWHERE, "no such file")]
    except IsADirectoryError:
        return None, [Diagnostic(str(path), ast.NOWHERE, "is a directory, not a card file",
                                 "give a .wg file")]
    except UnicodeDecodeError as err:
        return None, [Diagnostic(str(path), ast.NOWHERE,
                                 f"is not UTF-8 text (byte {err.start})",
                                 "save the card file as UTF-8")]
    except OSError as err:
        return None, [Diagnostic(str(path), ast.NOWHERE, f"cannot be read: {err.strerror}")]


def include_path(target: str, including: str) -> Path:
    """Where ``include "TARGET"`` points: a bare name is a built-in set (``cards/NAME.wg``),
    anything else a path relative to the including file."""
    if "/" not in target and "\\" not in target and not target.endswith(".wg"):
        return builtin_cards_path().parent / f"{target}.wg"
    return Path(including).parent / target


def _included(cardset: ast.CardSet, path: str, stack: tuple) -> tuple[list, list, dict]:
    """The card definitions a set includes (in order), with problems and their sources."""
    defs: list[CardDef] = []
    problems: list[Diagnostic] = []
    sources: dict = {}
    for inc in cardset.includes:
        target = include_path(inc.target, path)
        where = ast.Pos(inc.pos.line, inc.pos.col, inc.pos.end_line, inc.pos.end_col)
        if not target.is_file():
            problems.append(Diagnostic(
                path, where, f"cannot include `{inc.target}`: there is no card set {target}",
                "write a built-in set's name (`include \"wg01\"`) or a path relative to this file"))
            continue
        if target.resolve() in stack:
            problems.append(Diagnostic(path, where, f"`{inc.target}` includes this file again",
                                       "sets may not include each other in a circle"))
            continue
        try:
            library = _load(target, stack)
        except DiagnosticError as err:
            problems.append(Diagnostic(path, where, f"the included set `{inc.target}` has errors",
                                       "they are listed below it"))
            problems.extend(err.diagnostics)
            sources.update(err.sources)
            continue
        defs.extend(library)
    return defs, problems, sources


def check_text(text: str, path: str = "<input>", _stack: tuple = ()) -> tuple[Optional[ast.CardSet], list[Diagnostic]]:
    """Parse and check card-set text: (card set, every diagnostic found)."""
    cardset, diagnostics, _, _ = _check(text, path, _stack)
    return cardset, diagnostics


def _check(text: str, path: str, stack: tuple):
    from .checker import check
    from .parser import parse

    cardset, diagnostics = parse(text, path)
    included, problems, sources = _included(cardset, path, stack)
    own = diagnostics + check(cardset, included)
    own.sort(key=lambda d: (d.pos.line, d.pos.col))
    return cardset, problems + own, included, sources


def library_from_text(text: str, path: str = "<input>", _stack: tuple = ()) -> CardLibrary:
    cardset, diagnostics, included, sources = _check(text, path, _stack)
    if any(d.severity == "error" for d in diagnostics):  # warnings do not stop a set
        raise DiagnosticError(diagnostics, {**sources, path: text})
    by_id = {c.id: c for c in included}
    by_id.update((c.id, card_def(c)) for c in cardset.cards)
    return CardLibrary(path, by_id)


_CACHE: dict[tuple[str, float], CardLibrary] = {}


def load_cards(path: Union[str, Path, None] = None) -> CardLibrary:
    """Load and check a card set (default: the built-in WG01 set), with its includes."""
    return _load(Path(path) if path is not None else builtin_cards_path(), ())


def _load(p: Path, stack: tuple) -> CardLibrary:
    key = (str(p.resolve()), p.stat().st_mtime if p.exists() else 0.0)
    if key in _CACHE:
        return _CACHE[key]
    text, problems = read_source(p)
    if text is None:
        raise DiagnosticError(problems)
    library = library_from_text(text, str(p), stack + (p.resolve(),))
    _CACHE[key] = library
    return library
