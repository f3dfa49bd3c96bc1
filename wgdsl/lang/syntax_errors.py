"""Syntax errors: Lark's exceptions turned into diagnostics a card designer can act on.

Lark reports terminal names (``RBRACE``, ``WORD``) and the terminals it expected.  Here
they become the designer's words: ``unknown zone `brake``` with ``did you mean
`break`?``, ``card `X-1` is not closed``, ``keywords are lowercase: `Color```.  The
kind of word that was wanted (zone, action, event, ...) is read off the set of
keywords the parser would have accepted at that point.
"""

from __future__ import annotations

import difflib
import re
from typing import Iterable, Optional

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .ast import Pos
from .diagnostics import Diagnostic, one_of, shorten, stray_character

_DESCRIBED = {
    "CARD_ID": "a card id such as `XX-001`",
    "STRING": 'a quoted name such as `"新しい星人"`',
    "WORD": "a word",
    "INT": "a number",
    "_NL": "the end of the line",
    "CMP": "a comparison (`<=`, `<`, `>=`, `>`, `=`)",
    "$END": "the end of the file",
    "SIGNED": "a change such as `+2` or `-1`",
}
# the game's own words (read as these where they may stand): told by the game's words,
# never as terminal names
_GAME_WORDS = frozenset({"ZONE_WORD", "NOUN_WORD", "STATE_WORD", "VALUE_WORD"})

ZONES = ("hand", "stock", "standby", "break", "field", "battle field", "my field")
ACTIONS = ("draw", "look", "move", "exhaust", "shuffle", "choose", "enter", "cancel",
           "add", "swap", "may", "if")
EVENTS = ("leaves", "enters", "is", "becomes", "start", "end", "plays")
EFFECT_WORDS = ("dimension", "field", "in", "activated", "static", "when", "at", "during")

# the category of a keyword, for "unknown <category> `word`" (a stat's name, from the
# game's vocabulary, is a keyword too)
_CATEGORY = {w: "keyword" for w in EFFECT_WORDS}
_CATEGORY.update({w: "action" for w in ACTIONS})
_CATEGORY.update({w: "event" for w in EVENTS})
_CATEGORY.update({w: "zone" for w in ("hand", "stock", "standby", "break", "battle", "my")})

_ID_HINT = "a card id is capitals and digits around a dash, such as `XX-001`"
_STAT_TERMINALS = ("STAT_WORD", "STAT_NUMBER", "STAT_FLAG")


def _statement_hint(stats) -> str:
    return ("a card holds stat lines (" + one_of(stats) + ") and effects "
            "(`dimension:`, `field when ...:`, `in hand static:`)")


# how far around an error the text is looked at (a bound, so that reporting an error
# costs the same on a 20-character line and on a 2 MB one)
_LOOK = 200


def keywords_of(terminals) -> dict[str, str]:
    """Keyword terminal names and their words (``DRAW`` -> ``draw``)."""
    return {t.name: t.pattern.value for t in terminals if t.pattern.type == "str"}


def syntax_diagnostic(path: str, text: str, err: UnexpectedInput, keywords: dict[str, str],
                      open_card: Optional[str] = None, stats: tuple = (),
                      nouns: tuple = (), game: str = "") -> Diagnostic:
    """The diagnostic for one Lark parse error in ``text``.

    ``keywords``: :func:`keywords_of` the parser's terminals; ``open_card``: the id of
    the card being read, if any (named when the next card starts before it is closed);
    ``stats``: the names of the game's stats, in the game file's order (a stat's name is
    read as a ``STAT_*`` terminal: where one is expected, these are the words)."""
    if isinstance(err, UnexpectedCharacters):
        return bad_character(path, text, err.pos_in_stream, err.line, err.column,
                             set(keywords.values()) | set(stats))
    if isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END"
    ):
        return _early_end(path, text, _expected(err.expected, keywords, stats))
    assert isinstance(err, UnexpectedToken)
    return _bad_token(path, err, keywords, open_card, stats, nouns, game)


# ---------------------------------------------------------------------------- characters
def bad_character(path: str, text: str, offset: int, line: int, column: int,
                  keywords: set[str]) -> Diagnostic:
    """The diagnostic for a character no word of the language starts with, at ``offset``
    (line ``line``, column ``column``)."""
    line_start = offset - (column - 1)
    window_start = max(line_start, offset - _LOOK)
    # the card id slot: `card X "..."`, `card wg-001 "..."`
    in_id = re.search(r"\scard[ \t]+(\S*)$",
                      (" " if window_start == line_start else "x") + text[window_start:offset])
    rest = text[offset:offset + _LOOK]
    if in_id:
        start = column - len(in_id.group(1))
        found = in_id.group(1) + re.match(r"\S*", rest).group(0)
        return Diagnostic(path, Pos(line, start, line, start + len(found)),
                          f"`{shorten(found)}` is not a card id",
                          _ID_HINT)
    word = re.match(r"[A-Za-z][A-Za-z0-9_']*", rest)
    found = word.group(0) if word else rest[:1]
    pos = Pos(line, column, line, column + len(found))
    if word and not found.islower():
        lower = found.lower()
        if lower in keywords:
            return Diagnostic(path, pos, f"keywords are lowercase: `{found}`", f"write `{lower}`")
        return Diagnostic(path, pos, f"words are lowercase: `{shorten(found)}`",
                          f"write `{shorten(lower)}`; only card ids (`XX-001`) and quoted names use capitals")
    return stray_character(path, pos, found, 'names go in double quotes, such as `"新しい星人"`',
                           "cards are written with")


# ---------------------------------------------------------------------------- end of file
def _early_end(path: str, text: str, expected) -> Diagnostic:
    literals, described = expected
    # just after the last thing written; lines are counted as the parser counts them
    written = len(text.rstrip())
    line = text.count("\n", 0, written) + 1
    col = written - (text.rfind("\n", 0, written) + 1) + 1
    pos = Pos(line, col, line, col + 1)
    if "}" in literals:
        return Diagnostic(path, pos, "the file ends inside a card",
                          "close the card with `}` on its own line")
    return Diagnostic(path, pos, "the file ends too early", _expect_hint(literals, described))


# ---------------------------------------------------------------------------- tokens
def _bad_token(path: str, err: UnexpectedToken, keywords: dict[str, str],
               open_card: Optional[str], stats: tuple = (), nouns: tuple = (),
               game: str = "") -> Diagnostic:
    tok: Token = err.token
    literals, described = _expected(err.expected, keywords, stats)
    expected = set(literals)
    found = str(tok)
    shown = shorten(found)
    if tok.type == "_NL":
        pos = Pos(err.line, err.column, err.line, err.column + 1)
        return Diagnostic(path, pos, "this line ends too early", _expect_hint(literals, described))
    pos = Pos(tok.line, tok.column, tok.end_line, tok.end_column)
    if tok.type == "CARD" and "}" in expected:
        return Diagnostic(path, pos, f"card `{open_card or '?'}` is not closed before the next card",
                          "end each card with `}` on its own line")
    if tok.type == "CARD_ID" and "card" in expected:
        return Diagnostic(path, pos, f"unexpected card id `{shown}`",
                          'a card starts with `card ID "name" {`')
    if not re.fullmatch(r"[a-z][a-z_']*", found):
        return Diagnostic(path, pos, f"unexpected `{shown}`", _expect_hint(literals, described))
    context = _context(expected, stats)
    match = _closest(found, literals)
    if "NOUN_WORD" in err.expected and match is None and tok.type == "WORD" and nouns:
        # a noun of another game (`geuda` in a World Gainer card), or a misspelt one
        return Diagnostic(path, pos, f"unknown noun `{shown}`",
                          f"did you mean `{_closest(found, nouns)}`?" if _closest(found, nouns)
                          else f"the nouns of `{game}`'s cards are " + one_of(nouns))
    if found in keywords.values() or found in stats:  # a real keyword in the wrong place
        wanted = {"statement": "a stat or an effect"}.get(context, _article(context))
        return Diagnostic(path, pos, f"expected {wanted}, found `{shown}`",
                          f"did you mean `{match}`?" if match else
                          _context_hint(context, literals, described, stats))
    if match:
        what = "keyword" if match in stats else _CATEGORY.get(match, "word")
        if match == "field":
            what = "zone" if context == "zone" else "keyword"
        return Diagnostic(path, pos, f"unknown {what} `{shown}`", f"did you mean `{match}`?")
    what = {"statement": "keyword", "card definition": "word", "card": "word"}.get(context, context)
    if not literals and described:
        hint = _ID_HINT if "CARD_ID" in err.expected else None
        return Diagnostic(path, pos, f"expected {' or '.join(described)}, found `{shown}`", hint)
    return Diagnostic(path, pos, f"unknown {what} `{shown}`",
                      _context_hint(context, literals, described, stats))


def _context(expected: set[str], stats: tuple = ()) -> str:
    """What kind of word the parser wanted, judged from the keywords it would accept."""
    if expected & {"leaves", "enters", "becomes"} or {"this", "start", "end"} <= expected:
        return "event"
    if {"hand", "stock"} <= expected:
        return "zone"
    if expected & set(stats):
        return "statement"
    if {"draw", "move"} <= expected:
        return "action"
    if {"this", "every"} <= expected:
        return "card"
    if "card" in expected:
        return "card definition"
    return "word"


def _context_hint(context: str, literals, described, stats: tuple = ()) -> Optional[str]:
    if context == "zone":
        return "zones are " + one_of(ZONES)
    if context == "action":
        return "actions are " + one_of(ACTIONS)
    if context == "statement":
        return _statement_hint(stats)
    if context == "card definition":
        return 'a card starts with `card ID "name" {`'
    if context == "card":
        return ("say which card: `this`, `it`, `that card`, `a card ...`, `a random card ...`, "
                "`every card ...` or `top card of ...` (whose card goes after the article: "
                "`an opponent's card`)")
    return _expect_hint(literals, described)


def _article(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _closest(word: str, choices: Iterable[str]) -> Optional[str]:
    match = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return match[0] if match else None


def _expected(expected, keywords: dict[str, str],
              stats: tuple = ()) -> tuple[list[str], list[str]]:
    """Split Lark's expected terminal names into keywords and described terminals (a
    ``STAT_*`` terminal is the names of the game's stats)."""
    literals, described = set(), []
    for name in sorted(expected):
        if name in _STAT_TERMINALS:
            literals.update(stats)
        elif name in keywords:
            literals.add(keywords[name])
        elif name not in _GAME_WORDS:
            described.append(_DESCRIBED.get(name, name.lower()))
    return sorted(literals), described


def _expect_hint(literals, described) -> Optional[str]:
    items = [f"`{w}`" for w in literals] + list(described)
    if not items:
        return None
    if len(items) > 12:
        items = items[:12] + ["..."]
    return "expected " + (items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1])
