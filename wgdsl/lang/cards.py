"""Card definitions: the checked AST of a card set turned into plain card data.

``load_cards(path)`` parses and checks a ``.wg`` file and returns a :class:`CardLibrary`
(or raises :class:`~wgdsl.lang.diagnostics.DiagnosticError` with every problem found).  A
:class:`CardDef` holds a card's stats as the rules use them (R2.1) and its effects as
the AST wrote them; the interpreter compiles those once per library.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from pathlib import Path
from typing import Iterator, Optional, Union

import attrs

from wgdsl.files import Unreadable, exists, read_text
from wgdsl.resources import builtin_cards_path

from . import ast
from . import vocabulary as vocab_of
from .diagnostics import Diagnostic, DiagnosticError, shorten

# the kinds the spec's table shows: D dimension, F field, S static outside the field
KIND_LETTERS = {"dimension": "D", "field": "F", "played": "P", "attached": "A"}


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
    game: str = attrs.field(default="world-gainer", eq=False, repr=False)  # its words' game

    @property
    def kind(self) -> str:
        """``D``, ``F``, ``S`` (static outside the field), combinations, or ``—``."""
        letters = []
        for eff in self.effects:
            letter = KIND_LETTERS.get(eff.where, "S")
            if letter not in letters:
                letters.append(letter)
        return "".join(letters) or "—"


def card_def(card: ast.Card, vocabulary: Optional[vocab_of.Vocabulary] = None) -> CardDef:
    """A checked card's data; its mark, when it gives none, its color's in the game's
    vocabulary (R2.2: `default by color` in the game file; World Gainer's by default)."""
    stats = {s.key: s.value for s in card.stats}  # the last value of each (Card.stat)
    color = stats.get("color", "")
    words = vocab_of.of(vocabulary)
    return CardDef(
        id=card.id,
        name=card.name,
        en_name=card.en_name or card.name,
        color=color,
        mark=stats.get("mark", None) or words.default_mark(color),
        cost=stats.get("cost", 0),
        required=stats.get("requires", 0),
        stun=stats.get("stun", 1),
        unique=bool(stats.get("unique", False)),
        effects=card.effects,
        source=card,
        game=words.game,
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
    """The text of a card file, or a diagnostic saying why it cannot be read.

    Read with :func:`wgdsl.files.read_text`: a FIFO, a device, a directory, a file too
    large or a name the system refuses is a message, never a hang; a byte-order mark is
    accepted, and text that is not UTF-8 is reported at its line and column."""
    try:
        return read_text(path, "card file"), []
    except Unreadable as err:
        return None, [_unreadable(str(path), err)]


def _unreadable(path: str, err: Unreadable) -> Diagnostic:
    pos = ast.Pos(err.line, err.col, err.line, err.col + 1) if err.line else ast.NOWHERE
    return Diagnostic(path, pos, err.message, err.hint)


# `include "NAME"`: the name of a built-in set (cards/NAME.wg)
_BUILTIN_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
# how many sets deep includes may go (a set that includes a set that includes ...)
MAX_INCLUDE_DEPTH = 16
_INCLUDE_HINT = ('write a built-in set\'s name (`include "wg01"`) or the path of a .wg file in '
                 'this file\'s folder or below it (`include "sets/base.wg"`)')


def builtin_sets() -> list[str]:
    """The names of the built-in card sets (``wg01``)."""
    return sorted(p.stem for p in builtin_cards_path().parent.glob("*.wg"))


def card_set_path(spec) -> Optional[Path]:
    """The card set a game file names (``cards "wg01"``): a built-in set's file, or the
    file beside the game file; None when the game file names none."""
    if spec is None or spec.card_set is None:
        return None
    name = spec.card_set
    if name.removesuffix(".wg") in builtin_sets():
        return builtin_cards_path().with_name(name.removesuffix(".wg") + ".wg")
    return Path(spec.path).parent / name


def _realpath(path: Union[str, Path]) -> Optional[str]:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):  # a name the system refuses, a NUL byte
        return None


def include_path(target: str, including: str) -> tuple[Optional[str], Optional[tuple[str, str]]]:
    """Where ``include "TARGET"`` in the file ``including`` points, or why it may not:
    (path, None) or (None, (message, hint)).

    A bare name is a built-in set (``cards/NAME.wg``).  Anything else is a path relative
    to the including file that ends in ``.wg`` and, once symlinks are followed, lies in
    that file's folder or below it; an absolute path, ``../`` out of the folder, a
    symlink out of it, or a file that is not ``.wg`` is refused.  The refusal never
    reads the target, so nothing of it is shown."""
    cannot = f"cannot include `{shorten(target)}`"
    if "/" not in target and "\\" not in target and not target.endswith(".wg"):
        names = builtin_sets()
        known = "built-in sets: " + ", ".join(f"`{n}`" for n in names)
        if not _BUILTIN_NAME.fullmatch(target):
            return None, (f"{cannot}: not the name of a built-in set",
                          f"{known}; any other set is included by the path of a .wg file "
                          "in this file's folder or below it")
        if target not in names:
            return None, (f"{cannot}: there is no built-in set `{shorten(target)}`", known)
        return str(builtin_cards_path().parent / f"{target}.wg"), None
    if not target.endswith(".wg") and not (os.path.isabs(target) or target.startswith("\\")
                                           or re.match(r"[A-Za-z]:", target)):
        return None, (f"{cannot}: only card files (`.wg`) can be included", _INCLUDE_HINT)
    return beside(target, including, "an include", cannot, _INCLUDE_HINT,
                  "an included set must be in the including file's folder or below it; "
                  "copy it there, or include a built-in set by its name")


def beside(target: str, including: str, what: str, cannot: str, hint: str,
           outside_hint: str) -> tuple[Optional[str], Optional[tuple[str, str]]]:
    """``target``, a path relative to the file ``including`` that, once symlinks are
    followed, lies in that file's folder or below it; or why not (an absolute path, ``../``
    out of the folder, a symlink out of it).  Nothing is read."""
    if os.path.isabs(target) or target.startswith("\\") or re.match(r"[A-Za-z]:", target):
        return None, (f"{cannot}: {what} path is relative to this file, not absolute", hint)
    folder = os.path.dirname(including)
    joined = os.path.join(folder, target)
    base, full = _realpath(folder or "."), _realpath(joined)
    if base is None or full is None:
        return None, (f"{cannot}: not a file name the system accepts", hint)
    if os.path.commonpath([base, full]) != base:
        return None, (f"{cannot}: it is outside this file's folder (symlinks followed)",
                      outside_hint)
    return joined, None


def _included(cardset: ast.CardSet, path: str, stack: tuple,
              vocabulary=None) -> tuple[list, list, dict, list]:
    """The card definitions a set includes (in order), with problems, their sources, and
    the files read (for the cache)."""
    defs: list[CardDef] = []
    problems: list[Diagnostic] = []
    sources: dict = {}
    files: list = []
    for inc in cardset.includes:
        where = ast.Pos(inc.pos.line, inc.pos.col, inc.pos.end_line, inc.pos.end_col)
        shown = shorten(inc.target)
        target, refused = include_path(inc.target, path)
        if refused:
            problems.append(Diagnostic(path, where, *refused))
            continue
        real = _realpath(target)
        if real in stack:
            problems.append(Diagnostic(path, where, f"`{shown}` includes this file again",
                                       "sets may not include each other in a circle"))
            continue
        if len(stack) >= MAX_INCLUDE_DEPTH:
            problems.append(Diagnostic(
                path, where, f"cannot include `{shown}`: includes are nested more than "
                f"{MAX_INCLUDE_DEPTH} sets deep",
                f"a set may include sets that include others, at most {MAX_INCLUDE_DEPTH} deep; "
                "include the sets you need from fewer levels"))
            continue
        try:
            text = read_text(target, "card file")
        except Unreadable as err:
            if not exists(target) and err.message == "no such file":
                problems.append(Diagnostic(
                    path, where, f"cannot include `{shown}`: there is no card set {shorten(target, 200)}",
                    _INCLUDE_HINT))
                continue
            reason = f"it {err.message}" if err.message.startswith("is ") else err.message
            problems.append(Diagnostic(path, where, f"cannot include `{shown}`: {reason}",
                                       err.hint))
            continue
        try:
            library, read = _load_text(target, real, text, stack, vocabulary)
        except DiagnosticError as err:
            problems.append(Diagnostic(path, where, f"the included set `{shown}` has errors",
                                       "they are listed below it"))
            problems.extend(err.diagnostics)
            sources.update(err.sources)
            continue
        files.extend(read)
        defs.extend(library)
    return defs, problems, sources, files


def check_text(text: str, path: str = "<input>", _stack: Optional[tuple] = None,
               vocabulary: Optional[vocab_of.Vocabulary] = None
               ) -> tuple[Optional[ast.CardSet], list[Diagnostic]]:
    """Parse and check card-set text: (card set, every diagnostic found).  ``vocabulary``:
    the words of the game the cards are for (default: World Gainer's)."""
    if _stack is None:
        real = _realpath(path) if exists(path) else None
        _stack = (real,) if real else ()
    cardset, diagnostics, _, _, _ = _check(text, path, _stack, vocabulary)
    return cardset, diagnostics


def _check(text: str, path: str, stack: tuple, vocabulary=None):
    """``stack``: the real paths of the files being read, outermost first (this one last
    when it is a file)."""
    from .checker import check
    from .parser import parse

    cardset, diagnostics = parse(text, path, vocabulary)
    # the set's own `game` line may name its game: its includes are read in its words
    vocabulary = cardset.vocabulary
    included, problems, sources, files = _included(cardset, path, stack, vocabulary)
    own = diagnostics + check(cardset, included, vocabulary)
    own.sort(key=lambda d: (d.pos.line, d.pos.col))
    return cardset, problems + own, included, sources, files


def library_from_text(text: str, path: str = "<input>", _stack: tuple = (),
                      vocabulary: Optional[vocab_of.Vocabulary] = None) -> CardLibrary:
    return _library(text, path, _stack, vocabulary)[0]


def _library(text: str, path: str, stack: tuple, vocabulary=None) -> tuple[CardLibrary, list]:
    cardset, diagnostics, included, sources, files = _check(text, path, stack, vocabulary)
    if any(d.severity == "error" for d in diagnostics):  # warnings do not stop a set
        raise DiagnosticError(diagnostics, {**sources, path: text})
    by_id = {c.id: c for c in included}
    by_id.update((c.id, card_def(c, cardset.vocabulary)) for c in cardset.cards)
    return CardLibrary(path, by_id), files


# Loaded sets, most recently used last: (path as given, real path) -> (the files read as
# (real path, text), library).  One entry per file and at most _CACHE_SIZE of them, so
# reloading a file that keeps changing replaces its entry instead of adding one each time.
_CACHE: "OrderedDict[tuple[str, str], tuple[tuple, CardLibrary]]" = OrderedDict()
_CACHE_SIZE = 16


def load_cards(path: Union[str, Path, None] = None,
               vocabulary: Optional[vocab_of.Vocabulary] = None) -> CardLibrary:
    """Load and check a card set (default: the built-in WG01 set), with its includes, in
    the words of ``vocabulary``'s game (default: World Gainer's game file)."""
    p = str(path) if path is not None else str(builtin_cards_path())
    text, problems = read_source(p)
    if text is None:
        raise DiagnosticError(problems)
    return _load_text(p, _realpath(p) or p, text, (), vocabulary)[0]


def _load_text(path: str, real: str, text: str, stack: tuple,
               vocabulary=None) -> tuple[CardLibrary, list]:
    """The library of ``text`` (the file ``path``), from the cache when neither it nor
    any file it includes has changed; and the files read, as (real path, text)."""
    key = (path, real, vocabulary)
    hit = _CACHE.get(key)
    if hit is not None and hit[0][0][1] == text and all(_same(f, t) for f, t in hit[0][1:]):
        _CACHE.move_to_end(key)
        return hit[1], list(hit[0])
    library, files = _library(text, path, stack + (real,), vocabulary)
    read = ((real, text), *files)
    _CACHE[key] = (read, library)
    _CACHE.move_to_end(key)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return library, list(read)


def _same(real: str, text: str) -> bool:
    try:
        return read_text(real, "card file") == text
    except Unreadable:
        return False
