"""Imitation World's deck files (IW R4.7) and deck construction (IW R4) for the engine and
``wgdsl deck check --game imitation-world``.

A deck file names its aga on one ``aga ID`` line and its cards on ``COUNT ID`` lines, in any
order; ``#`` starts a comment::

    # my deck
    aga ID
    1 ID      # a comment may follow an entry
    1 ID

A reference deck of IW01 (``existence-wall``, ``fantasy-dreams``, ``mask-two-faces``) is
named instead of a path; its file is ``examples/decks/imitation-world/NAME.txt``.
:func:`load_deck` reads one and checks it against IW R4 through
:func:`wgdsl.games.imitation_world.rules.deck_problems` — under the main rule, or the starter
variant (IW R4.5) — and raises :class:`DeckError` for any problem, so that no game starts with
an illegal deck (IW R4.6). Every problem is a diagnostic at its ``file:line:col`` when it has
a place (a line, a card), citing its rule, with what would be right. The cards are the card
language's (``wgdsl.lang.ast.Card``: ``.stat("type")``, ``.stat("faction")``, ``.name``), by
id — :func:`iw01_cards` gives the built-in set's —, a ``CardLibrary``, or the engine's card
table (cards with ``name``, ``type`` and ``faction``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping, Optional, Sequence, Union

import attrs

from wgdsl.files import Unreadable, read_text
from wgdsl.lang.ast import NOWHERE, Pos
from wgdsl.lang.diagnostics import Diagnostic, DiagnosticError, did_you_mean

from . import rules

#: IW R4.7: the reference decks of IW01, built in by name ("Reference decks")
REFERENCE_DECKS = ("existence-wall", "fantasy-dreams", "mask-two-faces")
#: IW R4.1-R4.2, R4.5: the rules a deck problem may cite, by variant (the starter variant's
#: size and copies are its own rule, R4.5)
_STARTER_RULES = {"IW R4.1": "IW R4.5", "IW R4.2": "IW R4.5"}

_TOKEN = re.compile(r"\S+")
#: the largest count a line may give: a slip (or a number of thousands of digits) is refused
#: while reading, before any deck is built from it; a legal deck has 1 of a name (3, starter)
MAX_COUNT = 999
#: a deck file is a few dozen lines: a larger file is refused before it is read
MAX_DECK_BYTES = 1024 * 1024


@attrs.frozen
class Deck:
    """A deck as a game uses it: its ``name`` (a reference deck's, or the file's path), its
    ``aga`` (an id) and its ``cards`` (ids, one per card, in file order)."""

    name: str
    aga: str
    cards: tuple = attrs.field(converter=tuple)


class DeckError(DiagnosticError, ValueError):
    """A deck that cannot be played: a file that cannot be read, a line that is not
    ``aga ID`` / ``COUNT ID``, an unknown id, or an IW R4 problem. ``diagnostics`` holds every
    problem, each at its place with its rule; ``problems`` the IW R4 ones as
    :class:`~wgdsl.games.imitation_world.rules.Problem` s."""

    def __init__(self, diagnostics, sources=None, problems=()):
        self.problems = tuple(problems)
        super().__init__(diagnostics, sources)


@attrs.frozen
class _Card:
    """What deck construction reads of a card (IW R2.2)."""

    name: str
    en_name: str
    type: str
    faction: str


def _known(cards) -> dict:
    """id -> :class:`_Card` from a mapping of id -> the card language's card
    (``ast.Card``, read with ``.stat``), a ``CardLibrary`` (its ``by_id``), or any table of
    cards with ``name``, ``type`` and ``faction`` attributes (its ``cards``)."""
    by_id = getattr(cards, "cards", None)
    if not isinstance(by_id, Mapping):
        by_id = getattr(cards, "by_id", cards)
    out = {}
    for i, c in by_id.items():
        src = getattr(c, "source", c)
        if hasattr(src, "stat"):
            kind, faction = src.stat("type", None), src.stat("faction", None)
        else:
            kind, faction = getattr(c, "type", None), getattr(c, "faction", None)
        en = getattr(c, "en_name", None) or getattr(c, "name_en", None) or c.name
        out[i] = _Card(c.name, en, kind or "", faction or rules.AMBIGUOUS)
    return out


@attrs.frozen
class _Entry:
    count: int
    card_id: str
    pos: Pos  # of the id


def _cut(word: str, most: int = 40, unit: str = "characters") -> str:
    """A word of the file as quoted in a message: a very long one shows its start and length."""
    return word if len(word) <= most else f"{word[:most // 2]}… ({len(word):,} {unit})"


def _unknown(word: str, cards: Mapping) -> str:
    """What an unknown id should have been: the id in other case, the id of a name, or the
    closest id."""
    for known in cards:
        if known.lower() == word.lower():
            return f"did you mean `{known}`? (ids are upper case)"
    named = [i for i, c in cards.items() if word in (c.name, c.en_name)]
    if named:
        return f"`{word}` is the name of {named[0]}; write the id"
    return did_you_mean(word, cards) or f"ids look like `{next(iter(cards), 'SET-001')}`"


def iw01_cards() -> dict:
    """The built-in IW01 set (``cards/iw01.wg``): id -> ``wgdsl.lang.ast.Card``."""
    from wgdsl.lang.cards import load_cards
    from wgdsl.resources import builtin_cards_path

    library = load_cards(builtin_cards_path().with_name("iw01.wg"))
    return {i: c.source for i, c in library.by_id.items()}


def reference_deck_path(name: str) -> Path:
    """The file of the reference deck ``name`` (IW R4.7)."""
    from wgdsl.resources import builtin_decks_dir

    return builtin_decks_dir() / "imitation-world" / f"{name}.txt"


def parse_deck(text: str, path: str, cards: Mapping) -> tuple:
    """Read deck text (IW R4.7): ``(aga, entries, problems)`` — the aga's id and position
    (None if no well-formed ``aga`` line), the well-formed ``COUNT ID`` entries, and every
    problem found as a :class:`Diagnostic` at its line and column. ``cards``: as
    :func:`load_deck` takes them."""
    cards = _known(cards)
    aga: Optional[tuple] = None
    entries: list = []
    problems: list = []
    for lineno, raw in enumerate(text.split("\n"), start=1):
        tokens = list(_TOKEN.finditer(raw.split("#", 1)[0]))
        if not tokens:
            continue

        def pos(first: re.Match, last: Optional[re.Match] = None) -> Pos:
            return Pos(lineno, first.start() + 1, lineno, (last or first).end() + 1)

        def bad(at: Pos, message: str, hint: Optional[str]) -> None:
            problems.append(Diagnostic(path, at, message, hint))

        words = [t.group() for t in tokens]
        if len(words) > 2:
            bad(pos(tokens[2], tokens[-1]), f"a deck line is `aga ID` or `COUNT ID`; "
                f"unexpected `{_cut(words[2])}` after the id", "put notes after a `#`")
            continue
        if len(words) == 1:
            word = words[0]
            if word == "aga":
                hint = "name the aga after it: `aga ID`"
            elif word in cards and cards[word].type == "aga":
                hint = f"write `aga {word}` for the aga"
            elif word in cards:
                hint = f"write `1 {word}` for one copy"
            else:
                hint = "write a count and a card id (`1 ID`), or `aga ID`"
            bad(pos(tokens[0]), "a deck line is `aga ID` or `COUNT ID`; this line has only "
                "one word", hint)
            continue
        head, id_m = tokens
        card_id = id_m.group()
        if head.group() == "aga":
            if card_id not in cards:
                bad(pos(id_m), f"unknown card id `{_cut(card_id)}`",
                    _unknown(card_id, cards))
            elif aga is not None:
                bad(pos(head, id_m), f"a second `aga` line: a player chooses exactly one aga "
                    f"(IW R4.3); line {aga[1].line} names {aga[0]}", "keep one `aga` line")
            else:
                aga = (card_id, pos(id_m))
            continue
        count = _count(head, id_m, pos, bad)
        if count == "swapped":
            continue
        if card_id not in cards:
            bad(pos(id_m), f"unknown card id `{_cut(card_id)}`", _unknown(card_id, cards))
            continue
        if count is not None:
            entries.append(_Entry(count, card_id, pos(id_m)))
    return aga, entries, _fewer_unknowns(problems, path)


UNKNOWN_SHOWN = 3  # unknown ids told one by one; the rest are counted in one problem


def _fewer_unknowns(problems: list, path: str) -> list:
    """A deck of another card set names dozens of unknown ids: the first few are told at
    their places, the rest counted in one problem at the next one's place."""
    unknown = [p for p in problems if p.message.startswith("unknown card id")]
    if len(unknown) <= UNKNOWN_SHOWN + 1:
        return problems
    rest = unknown[UNKNOWN_SHOWN:]
    dropped = {id(p) for p in rest}
    summary = Diagnostic(path, rest[0].pos, f"and {len(rest)} more card ids that are not in "
                         "the card set", "is the deck written for another card set? (`wgdsl "
                         "cards --cards FILE` lists a set's ids)")
    kept = [p for p in problems if id(p) not in dropped]
    kept.insert(kept.index(unknown[UNKNOWN_SHOWN - 1]) + 1, summary)
    return kept


def _count(head: re.Match, id_m: re.Match, pos, bad):
    """The count of a ``COUNT ID`` line, None after reporting a bad one, or ``"swapped"``
    for ``ID COUNT``."""
    text = head.group()
    if re.fullmatch(r"[0-9]+", text):
        digits = text.lstrip("0") or "0"
        # compared as text first: int() refuses more than 4,300 digits
        count = int(digits) if len(digits) <= len(str(MAX_COUNT)) else MAX_COUNT + 1
        if count == 0:
            bad(pos(head), "the count must be a positive integer, not 0",
                "delete the line to leave the card out")
            return None
        if count > MAX_COUNT:
            bad(pos(head), f"the count {_cut(text, unit='digits')} is too large: a count is at "
                f"most {MAX_COUNT}", "a deck holds one card of a name (IW R4.2; three in the "
                "starter variant, IW R4.5)")
            return None
        return count
    if re.fullmatch(r"[0-9]+", id_m.group()):
        bad(pos(head, id_m), "the count comes first: `COUNT ID`",
            f"write `{_cut(id_m.group())} {_cut(text)}`")
        return "swapped"
    bad(pos(head), f"the count must be a positive integer, not `{_cut(text)}`",
        "write `1 ID` for one copy, or `aga ID` for the aga")
    return None


def deck_problems(aga: Optional[str], ids: Sequence[str], cards: Mapping,
                  variant: str = "main") -> tuple:
    """IW R4: every reason the deck of ``ids`` (a multiset of known ids) with the aga ``aga``
    (an id, or None for none) is illegal under ``variant`` (``"main"`` or ``"starter"``), as
    :class:`~wgdsl.games.imitation_world.rules.Problem` s; ``()`` for a legal deck. A size or
    copies problem of the starter variant cites IW R4.5, its own rule. An ``aga`` that is
    not an aga is an IW R4.3 problem."""
    cards = _known(cards)
    deck = [rules.DeckCard(cards[i].name, cards[i].type, cards[i].faction) for i in ids]
    found = None
    extra = []
    if aga is not None:
        card = cards[aga]
        if card.type == "aga":
            found = rules.Aga(card.name, {card.faction})
        else:
            extra.append(rules.Problem("IW R4.3", f"the aga line names {card.name}, a card of "
                                       f"type {card.type}, not an aga"))
    out = list(rules.deck_problems(deck, found, variant))
    if extra:  # the "no aga" problem rules.deck_problems reported is this one
        out = [p for p in out if not (p.rule == "IW R4.3" and p.message.startswith("no aga"))]
        out += extra
    if variant == "starter":
        out = [attrs.evolve(p, rule=_STARTER_RULES.get(p.rule, p.rule)) for p in out]
    return tuple(out)


_HINTS = {
    "IW R4.1": "a deck has at least 60 cards besides its aga (the starter variant, "
               "--variant starter, needs 30)",
    "IW R4.2": "keep one card of each name (the starter variant, --variant starter, allows 3)",
    "IW R4.3": "the aga goes on the one `aga ID` line, never among the cards",
    "IW R4.4": "take the card out, or choose an aga that permits its faction (an ambiguous "
               "aga permits every faction)",
    "IW R4.5": "the starter variant needs at least 30 cards and allows at most 3 of a name",
}


def _where(problem: rules.Problem, entries: Sequence[_Entry], cards: Mapping,
           aga: Optional[tuple]) -> Pos:
    """The place of ``problem`` in the file: the line of the card it is about (the line where
    a name's copies exceed the limit), the aga line, or nowhere (the deck as a whole)."""
    if problem.message.startswith("the aga line") and aga is not None:
        return aga[1]
    seen: dict = {}
    for e in entries:
        name = cards[e.card_id].name
        seen[name] = seen.get(name, 0) + e.count
        if problem.rule in ("IW R4.3", "IW R4.4") and problem.message.startswith(f"{name} is "):
            return e.pos
        if (f"named {name};" in problem.message
                and seen[name] > rules.VARIANTS["starter" if "starter" in problem.message
                                                else "main"][1]):
            return e.pos
    return NOWHERE


def read_deck(name_or_path: Union[str, Path]) -> tuple:
    """``(text, path)`` of a reference deck's name or a deck file; raises :class:`DeckError`
    when it cannot be read (no such file: the reference decks are named)."""
    name = str(name_or_path)
    path = reference_deck_path(name) if name in REFERENCE_DECKS else Path(name)
    try:
        return read_text(path, "deck file", max_bytes=MAX_DECK_BYTES), str(path)
    except Unreadable as err:
        where = Pos(err.line, err.col, err.line, err.col + 1) if err.line else NOWHERE
        hint = err.hint
        if err.message == "no such file":
            close = did_you_mean(name, REFERENCE_DECKS)
            hint = (close + " (a reference deck)" if close else
                    f"give a deck file (`aga ID`, then `COUNT ID` lines) or a reference deck: "
                    f"{', '.join(REFERENCE_DECKS)}")
        elif hint == "give a deck file":
            hint = "a deck file is text: one `aga ID` line and `COUNT ID` lines"
        message = "no such deck file" if err.message == "no such file" else err.message
        raise DeckError([Diagnostic(name, where, message, hint)]) from None


def check_deck(name_or_path: Union[str, Path], cards: Mapping, variant: str = "main") -> tuple:
    """Every problem of a deck, its lines and IW R4: ``(deck, diagnostics, sources,
    problems)``; ``deck`` is None unless the file reads and every line is well formed, and
    then ``diagnostics`` are the IW R4 ``problems`` at their places."""
    if variant not in rules.VARIANTS:
        raise ValueError(f"unknown deck variant {variant!r}: use one of "
                         f"{', '.join(rules.VARIANTS)} (IW R4.5)")
    cards = _known(cards)
    try:
        text, path = read_deck(name_or_path)
    except DeckError as err:
        return None, err.diagnostics, {}, ()
    aga, entries, diagnostics = parse_deck(text, path, cards)
    sources = {path: text}
    if diagnostics:
        return None, diagnostics, sources, ()
    ids = [e.card_id for e in entries for _ in range(e.count)]
    problems = deck_problems(aga[0] if aga else None, ids, cards, variant)
    diagnostics = [Diagnostic(path, _where(p, entries, cards, aga), f"{p.message} ({p.rule})",
                              _HINTS.get(p.rule)) for p in problems]
    name = str(name_or_path)
    return Deck(name, aga[0] if aga else "", ids), diagnostics, sources, problems


def load_deck(name_or_path: Union[str, Path], cards: Mapping, variant: str = "main") -> Deck:
    """The deck a reference name (``existence-wall``, ...) or a deck file names, legal under
    IW R4 for ``variant`` (``"main"`` or ``"starter"``, IW R4.5); raises :class:`DeckError`
    (a ValueError) with every problem, each citing its rule (IW R4.6: no game starts with an
    illegal deck). ``cards``: id -> card (:func:`iw01_cards` for IW01), a ``CardLibrary``, or a
    table whose ``cards`` have ``name``, ``type`` and ``faction``."""
    deck, diagnostics, sources, problems = check_deck(name_or_path, cards, variant)
    if diagnostics:
        raise DeckError(diagnostics, sources, problems)
    return deck
