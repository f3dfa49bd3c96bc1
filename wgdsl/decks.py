"""Deck (stock) files: reading them and checking them against R3.

A deck file lists a stock, one ``COUNT ID`` per line::

    # blue-red tempo
    3 XX-009     # a comment may follow an entry
    2 XX-012

Blank lines and ``#`` comments are ignored; the same id may appear on several lines
(the counts add up).  :func:`parse_deck` reports every malformed line, unknown id
(with a did-you-mean) and bad count as a :class:`~wgdsl.diagnostics.Diagnostic`
pointing at the offending text.  :func:`validate_deck` checks the construction rules
of R3 (size, copies per *name*, unique cards), each problem citing its rule.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Optional, Union

import attrs

from .ast import NOWHERE, Pos
from .cards import CardLibrary
from .diagnostics import Diagnostic, DiagnosticError, did_you_mean

MIN_CARDS = 40  # R3.1
MIN_CARDS_STARTER = 20  # R3.4
MAX_SAME_NAME = 3  # R3.2
MAX_UNIQUE = 1  # R3.3

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


def parse_deck(text: str, path: str, library: CardLibrary) -> tuple[Deck, list[Diagnostic]]:
    """Read deck text: (the well-formed entries, every problem found)."""
    entries: list[DeckEntry] = []
    problems: list[Diagnostic] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
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
            count = int(count_text)
            if count == 0:
                problems.append(Diagnostic(path, pos(count_m),
                                           "the count must be a positive integer, not 0",
                                           "delete the line to leave the card out"))
                count = None
        elif re.fullmatch(r"[0-9]+", card_id):
            problems.append(Diagnostic(path, Pos(lineno, count_m.start() + 1, lineno,
                                                 id_m.end() + 1),
                                       "the count comes first: `COUNT ID`",
                                       f"write `{card_id} {count_text}`"))
            continue
        else:
            problems.append(Diagnostic(path, pos(count_m),
                                       f"the count must be a positive integer, not `{count_text}`",
                                       "write how many copies, e.g. `3 XX-009`"))
        if card_id not in library:
            problems.append(Diagnostic(path, pos(id_m), f"unknown card id `{card_id}`",
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
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, [Diagnostic(str(path), NOWHERE, "no such deck file")], None
    except IsADirectoryError:
        return None, [Diagnostic(str(path), NOWHERE, "is a directory, not a deck file",
                                 "give a file with one `COUNT ID` per line")], None
    except UnicodeDecodeError as err:
        return None, [Diagnostic(str(path), NOWHERE, f"is not UTF-8 text (byte {err.start})",
                                 "save the deck file as UTF-8")], None
    except OSError as err:
        return None, [Diagnostic(str(path), NOWHERE, f"cannot be read: {err.strerror}")], None
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
