"""Deck (stock) files: reading them and checking them against R3.

A deck file lists a stock, one ``COUNT ID`` per line::

    # blue-red tempo
    3 XX-009     # a comment may follow an entry
    2 XX-012

Blank lines and ``#`` comments are ignored; the same id may appear on several lines
(the counts add up).  A count is a whole number from 1 to :data:`MAX_COUNT` (999): no
legal stock holds more than 3 cards of a name (R3.2), so a larger count is a slip and is
refused while reading, at its line and column, before any stock is built from it.  A
deck file may have at most 1 MB (:data:`MAX_DECK_BYTES`).  :func:`parse_deck` reports every malformed line, unknown id
(with a did-you-mean) and bad count as a :class:`~wgdsl.lang.diagnostics.Diagnostic`
pointing at the offending text.  :func:`validate_deck` checks the construction rules
of R3 (size, copies per *name*, unique cards), each problem citing its rule.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Optional, Union

import attrs

from wgdsl.files import Unreadable, read_text
from wgdsl.lang.ast import NOWHERE, Pos
from wgdsl.lang.cards import CardLibrary
from wgdsl.lang.diagnostics import Diagnostic, DiagnosticError, did_you_mean

MIN_CARDS = 40  # R3.1
MIN_CARDS_STARTER = 20  # R3.4
MAX_SAME_NAME = 3  # R3.2
MAX_UNIQUE = 1  # R3.3
# The largest count a deck line may give.  A legal stock has at most MAX_SAME_NAME cards of
# a name, so any count above that is refused by R3.2; this bound only keeps a slip (or a
# 4,301-digit number, more than int() reads) from becoming a stock of a billion cards.
MAX_COUNT = 999
# A deck file is a few dozen lines; reading one of megabytes takes seconds, so a larger
# file is refused before it is read.
MAX_DECK_BYTES = 1024 * 1024

_TOKEN = re.compile(r"\S+")


@attrs.frozen
class DeckEntry:
    count: int
    card_id: str
    pos: Pos  # of the id


@attrs.frozen
class Deck:
    path: str
    entries: tuple[DeckEntry, ...]

    def ids(self) -> list[str]:
        """The stock as ids, each entry expanded ``count`` times, in file order."""
        return [e.card_id for e in self.entries for _ in range(e.count)]


def _strip_comment(line: str) -> str:
    at = line.find("#")
    return line if at < 0 else line[:at]


def unknown_id_hint(word: str, library: CardLibrary) -> str:
    """A hint for an unknown card id: the id meant, or what ids look like."""
    def loose(s: str) -> str:  # case and look-alike characters (O/0, I/l/1) aside
        return s.upper().translate(str.maketrans("OIL", "011"))

    for known in library.by_id:
        if known.lower() == word.lower():
            return f"did you mean `{known}`? (ids are upper case)"
        if loose(known) == loose(word):
            return f"did you mean `{known}`?"
    named = [c.id for c in library if word in (c.name, c.en_name)]
    if named:
        return f"`{word}` is the name of {named[0]}; write the id"
    return did_you_mean(word, library.by_id) or \
        f"the card set {library.path} has ids like `{next(iter(library.by_id), 'XX-001')}`"


def _cut(word: str, most: int = 40, unit: str = "characters") -> str:
    """A word of the file as quoted in a message: a very long one shows its start and length."""
    return word if len(word) <= most else f"{word[:most // 2]}… ({len(word):,} {unit})"


def parse_deck(text: str, path: str, library: CardLibrary) -> tuple[Deck, list[Diagnostic]]:
    """Read deck text: (the well-formed entries, every problem found)."""
    entries: list[DeckEntry] = []
    problems: list[Diagnostic] = []
    # lines as diagnostics count them: at "\n" only (splitlines also splits at U+2028,
    # a form feed, ..., which would shift every later line number)
    for lineno, raw in enumerate(text.split("\n"), start=1):
        body = _strip_comment(raw)
        tokens = list(_TOKEN.finditer(body))
        if not tokens:
            continue

        def pos(m: re.Match) -> Pos:
            return Pos(lineno, m.start() + 1, lineno, m.end() + 1)

        if len(tokens) != 2:
            first, last = tokens[0], tokens[-1]
            span = Pos(lineno, first.start() + 1, lineno, last.end() + 1)
            if len(tokens) == 1:
                word = first.group()
                hint = (f"write `1 {word}` for one copy" if word in library
                        else "write a count and a card id, e.g. `3 XX-009`")
                problems.append(Diagnostic(path, span, "a deck line is `COUNT ID`; "
                                           "this line has only one word", hint))
            else:
                problems.append(Diagnostic(
                    path, Pos(lineno, tokens[2].start() + 1, lineno, last.end() + 1),
                    f"a deck line is `COUNT ID`; unexpected `{tokens[2].group()}` after the id",
                    "put notes after a `#`"))
            continue
        count_m, id_m = tokens
        count_text, card_id = count_m.group(), id_m.group()
        count: Optional[int] = None
        if re.fullmatch(r"[0-9]+", count_text):
            digits = count_text.lstrip("0") or "0"
            # compared as text first: int() refuses more than 4,300 digits
            count = int(digits) if len(digits) <= len(str(MAX_COUNT)) else MAX_COUNT + 1
            if count == 0:
                problems.append(Diagnostic(path, pos(count_m),
                                           "the count must be a positive integer, not 0",
                                           "delete the line to leave the card out"))
                count = None
            elif count > MAX_COUNT:
                problems.append(Diagnostic(
                    path, pos(count_m),
                    f"the count {_cut(count_text, unit='digits')} is too large: a count is at "
                    f"most {MAX_COUNT}",
                    f"write how many copies, e.g. `3 XX-009`; a stock holds at most "
                    f"{MAX_SAME_NAME} cards of a name (R3.2)"))
                count = None
        elif re.fullmatch(r"[0-9]+", card_id):
            problems.append(Diagnostic(path, Pos(lineno, count_m.start() + 1, lineno,
                                                 id_m.end() + 1),
                                       "the count comes first: `COUNT ID`",
                                       f"write `{_cut(card_id)} {_cut(count_text)}`"))
            continue
        else:
            problems.append(Diagnostic(path, pos(count_m),
                                       f"the count must be a positive integer, not "
                                       f"`{_cut(count_text)}`",
                                       "write how many copies, e.g. `3 XX-009`"))
        if card_id not in library:
            problems.append(Diagnostic(path, pos(id_m), f"unknown card id `{_cut(card_id)}`",
                                       unknown_id_hint(card_id, library)))
            continue
        if count is not None:
            entries.append(DeckEntry(count, card_id, pos(id_m)))
    return Deck(path, tuple(entries)), problems


def validate_deck(deck: Deck, library: CardLibrary, *, starter: bool = False) -> list[Diagnostic]:
    """R3: every stock-construction problem of a well-formed deck."""
    problems: list[Diagnostic] = []
    total = sum(e.count for e in deck.entries)
    minimum = MIN_CARDS_STARTER if starter else MIN_CARDS
    if total < minimum:
        rule = "R3.4" if starter else "R3.1"
        what = "a starter stock" if starter else "a stock"
        hint = (f"add {minimum - total} more" if starter else
                f"add {minimum - total} more, or check it as a 20-card starter stock with --starter")
        problems.append(Diagnostic(deck.path, NOWHERE,
                                   f"{what} has at least {minimum} cards, this one has {total} ({rule})",
                                   hint))
    name_total: Counter = Counter()
    id_total: Counter = Counter()
    for entry in deck.entries:
        name_total[library[entry.card_id].name] += entry.count
        id_total[entry.card_id] += entry.count
    # each problem is reported once, at the line where the count crosses its limit
    by_name: Counter = Counter()
    by_id: Counter = Counter()
    reported: set = set()
    for entry in deck.entries:
        card = library[entry.card_id]
        by_name[card.name] += entry.count
        by_id[card.id] += entry.count
        if card.unique and by_id[card.id] > MAX_UNIQUE and card.id not in reported:
            reported.add(card.id)
            problems.append(Diagnostic(
                deck.path, entry.pos,
                f"{card.id} `{card.name}` is unique: at most {MAX_UNIQUE} in a stock, "
                f"this one has {id_total[card.id]} (R3.3)",
                "keep a single copy"))
        elif by_name[card.name] > MAX_SAME_NAME and card.name not in reported:
            reported.add(card.name)
            same = sorted({e.card_id for e in deck.entries if library[e.card_id].name == card.name})
            hint = (f"{', '.join(same)} share this name and count together"
                    if len(same) > 1 else f"lower the count to {MAX_SAME_NAME}")
            problems.append(Diagnostic(
                deck.path, entry.pos,
                f"at most {MAX_SAME_NAME} cards of the same name in a stock (R3.2): "
                f"`{card.name}` has {name_total[card.name]}",
                hint))
    return problems


def read_deck(path: Union[str, Path], library: CardLibrary) -> tuple[Optional[Deck], list[Diagnostic], Optional[str]]:
    """(deck, problems, text) for a deck file; the deck is None when it cannot be read."""
    try:
        text = read_text(path, "deck file", max_bytes=MAX_DECK_BYTES)
    except Unreadable as err:
        where = Pos(err.line, err.col, err.line, err.col + 1) if err.line else NOWHERE
        hint = err.hint
        if hint == "give a deck file":
            hint = "a deck file is text with one `COUNT ID` per line"
        message = "no such deck file" if err.message == "no such file" else err.message
        return None, [Diagnostic(str(path), where, message, hint)], None
    deck, problems = parse_deck(text, str(path), library)
    return deck, problems, text


def check_deck(path: Union[str, Path], library: CardLibrary, *, starter: bool = False) -> tuple[Optional[Deck], list[Diagnostic], dict]:
    """Every problem of a deck file, syntax and R3: (deck, diagnostics, sources)."""
    deck, problems, text = read_deck(path, library)
    sources = {str(path): text} if text is not None else {}
    if deck is not None and not problems:
        problems = validate_deck(deck, library, starter=starter)
    return deck, problems, sources


def load_deck(path: Union[str, Path], library: CardLibrary, *, validate: bool = False,
              starter: bool = False) -> list[str]:
    """The ids of a deck file, expanded (``3 XX-009`` gives three ``XX-009``), in file order.

    Raises :class:`DiagnosticError` for a file that cannot be read or has malformed
    lines or unknown ids; with ``validate=True`` also for R3 problems.
    """
    deck, problems, text = read_deck(path, library)
    if deck is not None and not problems and validate:
        problems = validate_deck(deck, library, starter=starter)
    if problems:
        raise DiagnosticError(problems, {str(path): text} if text is not None else {})
    return deck.ids()
