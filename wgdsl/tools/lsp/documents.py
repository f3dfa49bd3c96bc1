"""What the language server knows of one open document, without the protocol.

A document is a card file (``.wg``), a game file (``.game``) or a ruling case (a
``.toml`` with a ``[case]`` table); anything else gets nothing.  :class:`Document` checks
its text (the editor's buffer, never the file on disk) exactly as the commands do, and
answers the editor's questions with plain data that :mod:`.server` turns into protocol
messages:

- :meth:`Document.problems`: what ``wgdsl check`` prints for a card or game file, and what
  ``wgdsl rulings`` reports for a ruling case that cannot be used, each with its range;
- :meth:`Document.hover`: a card's text in Japanese and English (``wgdsl show ID --lang``)
  for a card id or a quoted card name, a rule's text for ``R8.2`` (``wgdsl rules R8.2``);
- :meth:`Document.completions`: the keywords of the language (read from its grammar),
  zones, colors, marks, and the ids and names of the cards of the set;
- :meth:`Document.definition`: the file an ``include "..."`` names, the ``card`` line of a
  card id or of a card named by its name (``named "..."``), through the includes;
- :meth:`Document.formatted`: ``wgdsl fmt`` of a card file.

Includes and a case's ``cards`` are found from the document's own folder with the
commands' rules (wgdsl.lang.cards.include_path; the case loader's); a file the editor has
open is read from its buffer (``read``), any other through wgdsl.files.read_text.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from pathlib import Path
from typing import Callable, Optional

import attrs

from wgdsl.files import MAX_BYTES, Unreadable, read_text
from wgdsl.lang.diagnostics import Diagnostic

from .positions import Lines, word_at

CARD, GAME, CASE = "card file", "game file", "ruling case"
_CASE_TABLE = re.compile(r"^[ \t]*\[[ \t]*case[ \t]*\]", re.M)
_INCLUDE = re.compile(r'^[ \t]*include[ \t]+"([^"\n]*)"', re.M)
# a card's line in a card file (`card XX-001 "名前" en "Name" {`) or a game file
# (`card R-2 "Two" playing-card ...`): its id, then its name
_CARD_LINE = re.compile(r'^[ \t]*card[ \t]+([A-Za-z0-9][A-Za-z0-9.-]*)[ \t]+"([^"\n]*)"'
                        r'(?:[ \t]+en[ \t]+"([^"\n]*)")?', re.M)
_RULE = re.compile(r"R[0-9]+(?:\.[0-9]+)?")
MAX_INCLUDES = 16  # how deep a definition is looked for through includes (as the loader)


# the editor's language ids (editors/vscode/package.json) for a document without a file name
LANGUAGES = {"wgdsl": CARD, "wgdsl-game": GAME}


def kind_of(path: str, text: str, language: str = "") -> Optional[str]:
    """What the document is, from its name (and, for TOML, its ``[case]`` table), or for
    a document not saved yet from the editor's language id."""
    if path.endswith(".wg"):
        return CARD
    if path.endswith(".game"):
        return GAME
    if language in LANGUAGES and not path.endswith(".toml"):
        return LANGUAGES[language]
    if path.endswith(".toml") and _CASE_TABLE.search(text):
        return CASE
    return None


@attrs.frozen
class Problem:
    """A diagnostic placed in the document: protocol range ((line, character) twice),
    ``severity`` error or warning, the message as the command prints it, and ``related``:
    (path, protocol range, message) of problems in other files it stands for."""

    start: tuple
    end: tuple
    severity: str
    message: str
    related: tuple = ()


@attrs.frozen
class CardInfo:
    """A card for hover, completion and definition: id, names, both printed texts."""

    id: str
    name: str
    en_name: Optional[str]
    text: Callable[[str], str]  # lang -> the card as printed text

    def names(self) -> tuple[str, ...]:
        return (self.name,) if not self.en_name or self.en_name == self.name else (self.name, self.en_name)


Reader = Callable[[str], Optional[str]]


def read_file(path: str, what: str = "card file") -> Optional[str]:
    """A file's text read safely, or None (wgdsl.files.read_text)."""
    try:
        return read_text(path, what)
    except Unreadable:
        return None


def message_of(d: Diagnostic) -> str:
    """A diagnostic's message as ``wgdsl check`` prints it, its hint on a line of its own."""
    return d.message + (f"\nhint: {d.hint}" if d.hint else "")


@functools.lru_cache(maxsize=1)
def card_keywords() -> tuple[str, ...]:
    """The words of the card language: its grammar's keyword terminals."""
    from wgdsl.lang import parser

    return tuple(sorted({w for w in parser.keywords().values() if w[:1].isalpha()}))


@functools.lru_cache(maxsize=1)
def game_keywords() -> tuple[str, ...]:
    """The words of the game-file language: its grammar's keyword terminals."""
    from wgdsl.lang.game.parser import reserved_words

    return tuple(sorted(reserved_words()))


@functools.lru_cache(maxsize=1)
def rulebook():
    from wgdsl.tools.rulebook import builtin

    return builtin()


def _wg_cards(library) -> list[CardInfo]:
    from wgdsl.lang.text import card_text_block

    return [CardInfo(c.id, c.name, c.en_name, functools.partial(card_text_block, c)) for c in library]


def _ast_cards(cards) -> list[CardInfo]:
    from wgdsl.lang.text import card_text_block

    def text(card, lang):
        try:
            return card_text_block(card, lang)
        except Exception:  # a card still being written: its stats alone
            return f"{card.id}  {card.name}"

    return [CardInfo(c.id, c.name, c.en_name, functools.partial(text, c)) for c in cards]


def _spec_cards(spec) -> list[CardInfo]:
    from wgdsl.tools.gamefile import spec_card_text

    return [CardInfo(c.id, c.name, c.name_en, functools.partial(spec_card_text, spec, c))
            for c in spec.cards]


class Document:
    """One open document: its text, what it is, and what was learnt checking it."""

    def __init__(self, path: str, text: str, encoding: str = "utf-16",
                 read: Optional[Reader] = None, language: str = ""):
        self.path = path
        self.text = text
        self.kind = kind_of(path, text, language)
        self.lines = Lines(text, encoding)
        self._read = read or (lambda p: None)
        self.cards: list[CardInfo] = []  # the set's cards, as last checked
        # the words of the cards' game, as last checked (None: World Gainer's)
        self.vocabulary = None
        self.set_file: Optional[str] = None  # a case's card set (or game) file
        self.declared: tuple[str, ...] = ()  # a game file's own names (zones, counters...)

    def read(self, path: str) -> Optional[str]:
        text = self._read(path)
        return text if text is not None else read_file(path)

    # ------------------------------------------------------------------ problems
    def problems(self) -> list[Problem]:
        if self.kind == CARD:
            return self._card_problems()
        if self.kind == GAME:
            return self._game_problems()
        if self.kind == CASE:
            return self._case_problems()
        return []

    def _too_large(self, what: str, limit: int) -> Optional[list[Problem]]:
        size = len(self.text.encode("utf-8", "surrogatepass"))
        if size <= limit:
            return None
        start, end = self.lines.span(0, 0)
        return [Problem(start, end, "error", f"is {size:,} bytes; a {what} may have at most "
                                             f"{limit:,}\nhint: split the {what} into smaller files")]

    def _placed(self, diagnostics: list[Diagnostic]) -> list[Problem]:
        """The diagnostics of this file placed; those of other files (an included set's
        errors) go with the diagnostic of this file before them, as related information."""
        out: list[Problem] = []
        foreign: dict[int, list] = {}
        for d in diagnostics:
            if d.path == self.path:
                p = d.pos
                start, end = self.lines.span(p.line, p.col, p.end_line, p.end_col)
                out.append(Problem(start, end, d.severity, message_of(d)))
            else:
                foreign.setdefault(len(out) - 1, []).append(d)
        for index, ds in foreign.items():
            related = tuple(self._elsewhere(d) for d in ds)
            if index < 0:  # nothing of this file before them: at the top of the file
                start, end = self.lines.span(0, 0)
                out.insert(0, Problem(start, end, "error", "the files this one includes have "
                                                           "errors", related))
                continue
            out[index] = attrs.evolve(out[index], related=out[index].related + related)
        return out

    def _elsewhere(self, d: Diagnostic) -> tuple:
        text = self.read(d.path) if d.path else None
        lines = Lines(text or "", self.lines.encoding)
        p = d.pos
        return (d.path, lines.span(p.line, p.col, p.end_line, p.end_col),
                f"{d.severity}: {message_of(d)}")

    def _card_problems(self) -> list[Problem]:
        from wgdsl.lang.cards import check_text

        big = self._too_large(CARD, MAX_BYTES)
        if big:
            return big
        cardset, diagnostics = check_text(self.text, self.path)
        if cardset is not None:
            self.cards = _ast_cards(cardset.cards) + self._included_cards(cardset)
            self.vocabulary = cardset.vocabulary
        self.cards += self._written_cards()
        return self._placed(diagnostics)

    def _written_cards(self) -> list[CardInfo]:
        """The cards of this file the checker could not read (a syntax error in them), as
        written: their ids and names still complete and their source shows on hover."""
        known = {c.id for c in self.cards}
        out = []
        for m in _CARD_LINE.finditer(self.text):
            if m.group(1) in known:
                continue
            end = self.text.find("\n}", m.end()) if self.kind == CARD else -1
            block = self.text[m.start():end + 2 if end >= 0 else self.text.find("\n", m.end())]
            shown = block.strip() + "\n(as written: it has errors)"
            out.append(CardInfo(m.group(1), m.group(2), m.group(3), lambda lang, t=shown: t))
            known.add(m.group(1))
        return out

    def _included_cards(self, cardset) -> list[CardInfo]:
        from wgdsl.lang.cards import include_path, load_cards
        from wgdsl.lang.diagnostics import DiagnosticError

        out: list[CardInfo] = []
        for inc in cardset.includes:
            target, refused = include_path(inc.target, self.path)
            if refused:
                continue
            try:
                out += _wg_cards(load_cards(target))
            except (DiagnosticError, OSError, ValueError):
                continue
        return out

    def _game_problems(self) -> list[Problem]:
        from wgdsl.games.described import check_game_text
        from wgdsl.lang.game import MAX_GAME_BYTES

        big = self._too_large(GAME, MAX_GAME_BYTES)
        if big:
            return big
        game, diagnostics = check_game_text(self.text, self.path)
        spec = getattr(game, "spec", None)
        if spec is None:
            self.cards = self._written_cards()
        else:
            self.cards = _spec_cards(spec)
            self.declared = tuple(sorted({z.name for z in spec.zones} | {c.name for c in spec.counters}
                                         | {k.name for k in spec.kinds} | set(spec.signs)
                                         | {o.name for o in spec.options}))
        return self._placed(diagnostics)

    def _case_problems(self) -> list[Problem]:
        from wgdsl.tools.rulings import MAX_CASE_BYTES, CaseProblems, load_case_text

        big = self._too_large(CASE, MAX_CASE_BYTES)
        if big:
            return big
        try:
            case = load_case_text(self.text, self.path)
        except CaseProblems as err:
            return [self._case_problem(p) for p in err.problems]
        except Exception as err:  # a loader bug: said as `wgdsl rulings` says it
            start, end = self.lines.span(0, 0)
            return [Problem(start, end, "error", f"wgdsl failed while loading this case: "
                                                 f"{type(err).__name__}: {err}")]
        library = getattr(case, "library", None)
        if library is not None:
            self.cards, self.set_file = _wg_cards(library), library.path
        else:
            spec = case.game.spec
            self.cards, self.set_file = _spec_cards(spec), str(spec.path)
        return []

    def _default_case_cards(self) -> None:
        """A case that cannot be loaded (and had no set at its last check) gets its game's
        built-in cards when first asked."""
        if self.kind != CASE or self.cards:
            return
        try:
            data = tomllib.loads(self.text)
            game = data.get("case", {}).get("game", "world-gainer")
        except (tomllib.TOMLDecodeError, ValueError, RecursionError, AttributeError):
            game = "world-gainer"
        try:
            if game in ("getgem", "wonderful-world"):
                from wgdsl.games import load_game

                spec = load_game(game).spec
                self.cards, self.set_file = _spec_cards(spec), str(spec.path)
            else:
                from wgdsl.lang.cards import load_cards

                library = load_cards()
                self.cards, self.set_file = _wg_cards(library), library.path
        except Exception:  # nothing to offer rather than a broken server
            pass

    def _case_problem(self, text: str) -> Problem:
        """A problem as ``wgdsl rulings`` words it, ``path:LINE[:COL]: message``, placed."""
        from wgdsl.terminal import printable

        line = col = 0
        for prefix in (self.path, printable(self.path)):
            if text.startswith(prefix + ":"):
                m = re.match(r":(\d+)(?::(\d+))?: ", text[len(prefix):])
                if m:
                    line, col = int(m.group(1)), int(m.group(2) or 0)
                    text = text[len(prefix) + m.end():]
                else:
                    text = text[len(prefix) + 1:].lstrip()
                break
        start, end = self.lines.span(line, col) if col else self.lines.line_span(line)
        return Problem(start, end, "error", text)

    # ------------------------------------------------------------------ words at a place
    def _at(self, line: int, character: int) -> tuple[str, int]:
        """(the line's text, the cursor's index in it)."""
        offset = self.lines.offset(line, character)
        return self.lines.line(line), offset - self.lines.starts[min(line, len(self.lines) - 1)]

    def _token(self, line: int, character: int) -> Optional[str]:
        text, i = self._at(line, character)
        span = word_at(text, i, lambda c: c.isascii() and (c.isalnum() or c in "-._"))
        return text[span[0]:span[1]].strip(".") if span else None

    def _quoted(self, line: int, character: int) -> Optional[tuple[str, int, int]]:
        """The quoted string the cursor is in: (its text, start, end index in the line)."""
        text, i = self._at(line, character)
        for m in re.finditer(r'"([^"\n]*)"', text):
            if m.start() < i < m.end():
                return m.group(1), m.start(1), m.end(1)
        return None

    def card(self, key: str) -> Optional[CardInfo]:
        """The set's card with this id, or with this name (either language)."""
        for c in self.cards:
            if c.id == key:
                return c
        for c in self.cards:
            if key in c.names():
                return c
        return None

    # ------------------------------------------------------------------ hover
    def hover(self, line: int, character: int) -> Optional[str]:
        """Markdown: the card's text in Japanese and English, or a rule's text."""
        self._default_case_cards()
        token = self._token(line, character)
        if token and token.split(":")[0]:
            card = self.card(token.split(":")[0])
            if card is not None:
                return _card_markdown(card)
            if _RULE.fullmatch(token) and self._world_gainer_rule(line, character, token):
                return _rule_markdown(token)
        quoted = self._quoted(line, character)
        if quoted:
            card = self.card(quoted[0])
            if card is not None:
                return _card_markdown(card)
        return None

    def _world_gainer_rule(self, line: int, character: int, token: str) -> bool:
        """Whether ``R8.2`` here cites World Gainer's rules reference: not in a game file
        (its rules are its own), not in a case of another game, not after ``GG``."""
        if self.kind == GAME or (self.kind == CASE and (self.set_file or "").endswith(".game")):
            return False
        text, i = self._at(line, character)
        start = text.rfind(token, 0, i + len(token))
        return not re.search(r"[A-Z]{2,}[ \t]*$", text[:max(start, 0)])

    # ------------------------------------------------------------------ completion
    def completions(self, line: int, character: int) -> list[tuple[str, str, str, str]]:
        """(label, kind, detail, text to insert) for the place: inside quotes the cards'
        names (and ids in a ruling case), elsewhere the language's words and the ids."""
        self._default_case_cards()
        text, i = self._at(line, character)
        in_quotes = text[:i].count('"') % 2 == 1
        out: list[tuple[str, str, str, str]] = []
        if in_quotes:
            if self.kind == CASE:
                out += [(c.id, "card", c.name, c.id) for c in self.cards]
            for c in self.cards:
                out += [(n, "card", c.id, n) for n in c.names()]
            return out
        if self.kind == CASE:
            return [(c.id, "card", c.name, f'"{c.id}"') for c in self.cards]
        if self.kind == CARD:
            from wgdsl.lang.ast import ZONE_NAMES
            from wgdsl.lang.vocabulary import world_gainer

            # the words of the cards' game (its game file's), World Gainer's by default
            words = self.vocabulary or world_gainer()
            out += [(w, "keyword", "keyword", w) for w in card_keywords()]
            out += [(w, "keyword", "stat", w) for w in words.stats if w not in card_keywords()]
            out += [(z, "zone", "zone", z) for z in ZONE_NAMES if " " in z]
            out += [(z, "zone", "zone", z) for z in words.zones if z not in card_keywords()]
            out += [(w, "value", "color", w) for w in words.colors]
            out += [(w, "value", "mark", w) for w in words.marks]
            out += [(w, "value", "phase", w) for w in words.phases if w not in card_keywords()]
            # its nouns, card states, stat words and judgments (docs/language.md section 17)
            out += [(w, "value", "noun", w) for w in words.nouns if w not in card_keywords()]
            out += [(w, "value", "card state", w) for w in words.states
                    if w not in card_keywords()]
            out += [(w, "value", stat, w) for stat, values in words.values.items()
                    if stat not in ("color", "mark") for w in values if w not in words.nouns]
            out += [(w, "value", "judgment", w) for w in words.judgments if w not in words.nouns]
        elif self.kind == GAME:
            out += [(w, "keyword", "keyword", w) for w in game_keywords()]
            out += [(w, "value", "declared in this file", w) for w in self.declared]
        else:
            return []
        out += [(c.id, "card", c.name, c.id) for c in self.cards]
        for c in self.cards:
            out += [(f'"{n}"', "card", c.id, f'"{n}"') for n in c.names()]
        return out

    # ------------------------------------------------------------------ definition
    def definition(self, line: int, character: int) -> Optional[tuple[str, tuple, tuple]]:
        """(path, protocol start, end) of what the place refers to."""
        self._default_case_cards()
        text, _ = self._at(line, character)
        m = _INCLUDE.match(text)
        if m and self.kind == CARD:
            from wgdsl.lang.cards import include_path

            target, refused = include_path(m.group(1), self.path)
            return (target, (0, 0), (0, 0)) if target and not refused else None
        if self.kind == CASE and re.match(r"[ \t]*cards[ \t]*=", text) and self.set_file:
            return self.set_file, (0, 0), (0, 0)
        token = self._token(line, character)
        keys = []
        if token:
            keys.append(token.split(":")[0])
        quoted = self._quoted(line, character)
        if quoted:
            keys.append(quoted[0])
        if self.kind == CARD:
            files = [(self.path, self.text)]
        elif self.kind == GAME:
            files = [(self.path, self.text)]
        elif self.kind == CASE and self.set_file:
            files = [(self.set_file, self.read(self.set_file) or "")]
        else:
            return None
        for key in keys:
            found = self._find_card(key, files)
            if found:
                return found
        return None

    def _find_card(self, key: str, files: list) -> Optional[tuple[str, tuple, tuple]]:
        """The card line of the card ``key`` (an id, or a name) in the files, breadth
        first through their includes (as the loader reads them, at most 16 deep)."""
        from wgdsl.lang.cards import include_path

        seen: set = set()
        depth = 0
        while files and depth <= MAX_INCLUDES:
            later = []
            for path, text in files:
                real = os.path.realpath(path)
                if real in seen:
                    continue
                seen.add(real)
                for m in _CARD_LINE.finditer(text):
                    group = 1 if m.group(1) == key else 2 if m.group(2) == key else \
                        3 if m.group(3) == key else 0
                    if group:
                        lines = Lines(text, self.lines.encoding)
                        return (path, lines.from_offset(m.start(group)),
                                lines.from_offset(m.end(group)))
                if not path.endswith(".wg"):
                    continue
                for inc in _INCLUDE.finditer(text):
                    target, refused = include_path(inc.group(1), path)
                    if target and not refused:
                        later.append((target, self.read(target) or ""))
            files, depth = later, depth + 1
        return None

    # ------------------------------------------------------------------ formatting
    def formatted(self) -> tuple[Optional[str], str]:
        """(``wgdsl fmt`` of a card file, or None; why not, when None)."""
        if self.kind != CARD:
            return None, "only card files (.wg) have a canonical layout (wgdsl fmt)"
        from wgdsl.lang.fmt import format_source

        formatted, diagnostics = format_source(self.text, self.path)
        if formatted is None:
            return None, f"{Path(self.path).name}: not formatted: fix the syntax errors first"
        return formatted, ""


def _card_markdown(card: CardInfo) -> str:
    texts = dict.fromkeys(card.text(lang) for lang in ("ja", "en"))  # once when the same
    return "\n\n".join(f"```text\n{text}\n```" for text in texts)


def _rule_markdown(token: str) -> Optional[str]:
    from wgdsl.tools.rulebook import UnknownRule, render_rule

    try:
        book = rulebook()
        return f"```text\n{render_rule(book, book.find(token))}\n```"
    except (UnknownRule, OSError, ValueError):
        return None
