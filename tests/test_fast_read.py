"""The faster ways of reading card files give exactly what the plain ways give.

- the reader's lexer (wgdsl.lang.parser._Lexer) gives Lark's basic lexer's tokens: types,
  values and every position;
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wgdsl.lang.parser import _lark, _lexer
from wgdsl.resources import builtin_cards_path


def _tokens(tokens) -> list[tuple]:
    return [(t.type, str(t), t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos)
            for t in tokens]


def _same_tokens(text: str) -> None:
    assert _tokens(_lexer().tokens(text)) == _tokens(_lark().lex(text))


# pieces of card text, and characters the lexer must report or skip
_PIECES = st.sampled_from([
    "card", " ", "  ", "\t", "\n", "\r\n", "\n  ", "# a comment", "{", "}", ":", ",", "<=",
    "WG-001", '"名前"', '"a\nb"', '"', "en", "draw", "1", "99999999999999999999", "cost",
    "color", "red", "opponent's", "opponents", "field", "when", "this", "enters", "@", "é",
    "\x00", "\f", "Zq", "dimension", "static", "x_y'z", "#",
])


@given(st.lists(_PIECES, max_size=40).map("".join))
def test_lexer_gives_larks_tokens(text):
    _same_tokens(text)


def test_lexer_gives_larks_tokens_on_the_builtin_set():
    _same_tokens(builtin_cards_path().read_text(encoding="utf-8"))
