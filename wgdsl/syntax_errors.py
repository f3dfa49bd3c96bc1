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
from .diagnostics import Diagnostic, one_of

_DESCRIBED = {
    "CARD_ID": "a card id such as `XX-001`",
    "STRING": 'a quoted name such as `"新しい星人"`',
    "WORD": "a word",
    "INT": "a number",
    "_NL": "the end of the line",
    "CMP": "a comparison (`<=`, `<`, `>=`, `>`, `=`)",
    "$END": "the end of the file",
}

ZONES = ("hand", "stock", "standby", "break", "field", "battle field", "my field")
STATS = ("color", "mark", "cost", "requires", "stun", "unique")
ACTIONS = ("draw", "look", "move", "exhaust", "shuffle", "choose", "enter", "cancel",
           "add", "swap", "may", "if")
EVENTS = ("leaves", "enters", "is", "becomes", "start", "end", "plays")
EFFECT_WORDS = ("dimension", "field", "in", "activated", "static", "when", "at", "during")

# the category of a keyword, for "unknown <category> `word`"
_CATEGORY = {w: "keyword" for w in STATS + EFFECT_WORDS}
_CATEGORY.update({w: "action" for w in ACTIONS})
_CATEGORY.update({w: "event" for w in EVENTS})
_CATEGORY.update({w: "zone" for w in ("hand", "stock", "standby", "break", "battle", "my")})

_ID_HINT = "a card id is capitals and digits around a dash, such as `XX-001`"
_STATEMENT_HINT = (
    "a card holds stat lines (" + one_of(STATS) + ") and effects "
    "(`dimension:`, `field when ...:`, `in hand static:`)"
)


def syntax_diagnostic(path: str, text: str, err: UnexpectedInput, terminals) -> Diagnostic:
    """The diagnostic for one Lark parse error in ``text``."""
    keywords = {t.name: t.pattern.value for t in terminals if t.pattern.type == "str"}
    if isinstance(err, UnexpectedCharacters):
        return _bad_character(path, text, err, set(keywords.values()))
    if isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END"
    ):
        return _early_end(path, text, _expected(err.expected, keywords))
    assert isinstance(err, UnexpectedToken)
    return _bad_token(path, text, err, keywords)


# ---------------------------------------------------------------------------- characters
def _bad_character(path: str, text: str, err: UnexpectedCharacters, keywords: set[str]) -> Diagnostic:
    rest = text[err.pos_in_stream:]
    in_id = re.search(r"(?:^|\s)card[ \t]+(\S*)$", text[: err.pos_in_stream])
    if in_id:  # the card id slot: `card X "..."`, `card wg-001 "..."`
        start = err.column - len(in_id.group(1))
        found = in_id.group(1) + re.match(r"\S*", rest).group(0)
        return Diagnostic(path, Pos(err.line, start, err.line, start + len(found)),
                          f"`{found}` is not a card id",
                          _ID_HINT)
    word = re.match(r"[A-Za-z][A-Za-z0-9_']*", rest)
    found = word.group(0) if word else rest[:1]
    pos = Pos(err.line, err.column, err.line, err.column + len(found))
    if word and not found.islower():
        lower = found.lower()
        if lower in keywords:
            return Diagnostic(path, pos, f"keywords are lowercase: `{found}`", f"write `{lower}`")
        return Diagnostic(path, pos, f"words are lowercase: `{found}`",
                          f"write `{lower}`; only card ids (`XX-001`) and quoted names use capitals")
    if found == '"':
        return Diagnostic(path, pos, "this quoted name is not closed",
                          'a name starts and ends with `"` on the same line')
    if not found.isprintable():
        return Diagnostic(path, pos, f"unexpected character U+{ord(found):04X}",
                          "remove it; only spaces, tabs and line ends separate words")
    if ord(found) > 127:
        return Diagnostic(path, pos, f"unexpected `{found}`",
                          'names go in double quotes, such as `"新しい星人"`')
    return Diagnostic(path, pos, f"unexpected character `{found}`",
                      "cards are written with words, numbers, quoted names and `{ } : ,`; "
                      "`#` starts a comment")


# ---------------------------------------------------------------------------- end of file
def _early_end(path: str, text: str, expected) -> Diagnostic:
    literals, described = expected
    lines = text.rstrip().splitlines() or [""]  # just after the last thing written
    last = len(lines[-1]) + 1
    pos = Pos(len(lines), last, len(lines), last + 1)
    if "}" in literals:
        return Diagnostic(path, pos, "the file ends inside a card",
                          "close the card with `}` on its own line")
    return Diagnostic(path, pos, "the file ends too early", _expect_hint(literals, described))


# ---------------------------------------------------------------------------- tokens
def _bad_token(path: str, text: str, err: UnexpectedToken, keywords: dict[str, str]) -> Diagnostic:
    tok: Token = err.token
    literals, described = _expected(err.expected, keywords)
    expected = set(literals)
    found = str(tok)
    if tok.type == "_NL":
        pos = Pos(err.line, err.column, err.line, err.column + 1)
        return Diagnostic(path, pos, "this line ends too early", _expect_hint(literals, described))
    pos = Pos(tok.line, tok.column, tok.end_line, tok.end_column)
    if tok.type == "CARD" and "}" in expected:
        open_card = _open_card(text, tok.start_pos)
        return Diagnostic(path, pos, f"card `{open_card}` is not closed before the next card",
                          "end each card with `}` on its own line")
    if tok.type == "CARD_ID" and "card" in expected:
        return Diagnostic(path, pos, f"unexpected card id `{found}`",
                          'a card starts with `card ID "name" {`')
    if not re.fullmatch(r"[a-z][a-z_']*", found):
        return Diagnostic(path, pos, f"unexpected `{found}`", _expect_hint(literals, described))
    context = _context(expected)
    match = _closest(found, literals)
    if found in keywords.values():  # a real keyword in the wrong place
        wanted = {"statement": "a stat or an effect"}.get(context, _article(context))
        return Diagnostic(path, pos, f"expected {wanted}, found `{found}`",
                          f"did you mean `{match}`?" if match else _context_hint(context, literals, described))
    if match:
        what = _CATEGORY.get(match, "word")
        if match == "field":
            what = "zone" if context == "zone" else "keyword"
        return Diagnostic(path, pos, f"unknown {what} `{found}`", f"did you mean `{match}`?")
    what = {"statement": "keyword", "card definition": "word", "card": "word"}.get(context, context)
    if not literals and described:
        hint = _ID_HINT if "CARD_ID" in err.expected else None
        return Diagnostic(path, pos, f"expected {' or '.join(described)}, found `{found}`", hint)
    return Diagnostic(path, pos, f"unknown {what} `{found}`", _context_hint(context, literals, described))


def _context(expected: set[str]) -> str:
    """What kind of word the parser wanted, judged from the keywords it would accept."""
    if expected & {"leaves", "enters", "becomes"} or {"this", "start", "end"} <= expected:
        return "event"
    if {"hand", "stock"} <= expected:
        return "zone"
    if "color" in expected:
        return "statement"
    if {"draw", "move"} <= expected:
        return "action"
    if {"this", "every"} <= expected:
        return "card"
    if "card" in expected:
        return "card definition"
    return "word"


def _context_hint(context: str, literals, described) -> Optional[str]:
    if context == "zone":
        return "zones are " + one_of(ZONES)
    if context == "action":
        return "actions are " + one_of(ACTIONS)
    if context == "statement":
        return _STATEMENT_HINT
    if context == "card definition":
        return 'a card starts with `card ID "name" {`'
    if context == "card":
        return ("say which card: `this`, `it`, `that card`, `a card ...`, `a random card ...`, "
                "`every card ...` or `top card of ...` (whose card goes after the article: "
                "`an opponent's card`)")
    return _expect_hint(literals, described)


def _article(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _open_card(text: str, offset: int) -> str:
    """The id of the last card started before ``offset``."""
    ids = re.findall(r"^\s*card\s+(\S+)", text[:offset], re.M)
    return ids[-1] if ids else "?"


def _closest(word: str, choices: Iterable[str]) -> Optional[str]:
    match = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return match[0] if match else None


def _expected(expected, keywords: dict[str, str]) -> tuple[list[str], list[str]]:
    """Split Lark's expected terminal names into keywords and described terminals."""
    literals, described = set(), []
    for name in sorted(expected):
        if name in keywords:
            literals.add(keywords[name])
        else:
            described.append(_DESCRIBED.get(name, name.lower()))
    return sorted(literals), described


def _expect_hint(literals, described) -> Optional[str]:
    items = [f"`{w}`" for w in literals] + list(described)
    if not items:
        return None
    if len(items) > 12:
        items = items[:12] + ["..."]
    return "expected " + (items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1])
