"""The faster ways of reading card files give exactly what the plain ways give.

- the reader's lexer (wgdsl.lang.parser._Lexer) gives Lark's basic lexer's tokens: types,
  values and every position;
- a card built while it is parsed (wgdsl.lang.parser._Builder) is the card the plain way
  gives (Lark's tree, then a walk): every node and every position, and the same
  diagnostics;
- a file checked again after an edit (its unchanged cards from the caches of cards read
  and checked, moved when lines were added or taken above them) gives exactly the set
  and the diagnostics of a fresh check.
"""

from __future__ import annotations

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies_ast import cardsets
from wgdsl.lang import parser
from wgdsl.lang.cards import check_text
from wgdsl.lang.checker import forget_cards
from wgdsl.lang.fmt import format_cardset
from wgdsl.lang.parser import _lark, _lexer, parse
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


# ------------------------------------------------------------------------ cards built while parsed
def _everything(node):
    """A node as nested tuples of every field, positions included (AST equality leaves
    positions out)."""
    if isinstance(node, tuple):
        return tuple(_everything(n) for n in node)
    if attrs.has(type(node)):
        return (type(node).__name__,) + tuple(_everything(getattr(node, f.name))
                                              for f in attrs.fields(type(node)))
    return node


def _read_both_ways(text: str, monkeypatch) -> None:
    forget_cards()
    built, built_problems = parse(text, "x.wg")
    forget_cards()
    with monkeypatch.context() as m:
        m.setattr(parser, "_MAX_NESTED", -1)  # every card the plain way
        plain, plain_problems = parse(text, "x.wg")
    assert _everything(built) == _everything(plain)
    assert built_problems == plain_problems


def test_built_cards_are_the_plain_ones_on_the_builtin_set(monkeypatch):
    _read_both_ways(builtin_cards_path().read_text(encoding="utf-8"), monkeypatch)


def test_built_cards_through_larks_own_child_filters_are_the_same(monkeypatch):
    """A rule whose child filter is of a kind the builder does not know is built through
    Lark's filter itself: forced for every rule, the cards are the same."""
    text = builtin_cards_path().read_text(encoding="utf-8")
    forget_cards()
    known = parse(text, "x.wg")
    forget_cards()
    with monkeypatch.context() as m:
        m.setattr(parser, "_included", lambda expansion, make_filter: None)
        m.setattr(parser._BUILDING, "made", None)  # the callbacks made afresh
        own = parse(text, "x.wg")
    parser._BUILDING.made = None  # and again without the forced filters
    assert _everything(own[0]) == _everything(known[0]) and own[1] == known[1]


_EDITS = st.sampled_from(["", "draw 99999999999999999999999", "may may may draw 1", "@",
                          "cost 2", "field when this enters field:", "}", "color bleu",
                          "move this to your hand"])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(cardsets, st.data())
def test_built_cards_are_the_plain_ones(monkeypatch, cardset, data):
    lines = format_cardset(cardset).split("\n")
    for _ in range(data.draw(st.integers(0, 3), label="edits")):
        at = data.draw(st.integers(0, len(lines)), label="line")
        lines.insert(at, "    " + data.draw(_EDITS, label="edit"))
    _read_both_ways("\n".join(lines), monkeypatch)


def test_a_card_nested_deeper_than_the_builder_goes_is_read_the_plain_way(monkeypatch):
    deep = "may " * (parser._MAX_NESTED + 5)
    _read_both_ways(f'card X-1 "x" {{\ncolor red cost 1\ndimension:\n    {deep}draw 1\n}}\n',
                    monkeypatch)
    too_deep = "may " * 3000
    text = f'card X-1 "x" {{\ncolor red cost 1\ndimension:\n    {too_deep}draw 1\n}}\n'
    cardset, problems = parse(text)
    assert cardset.cards == () and "nested too deeply" in problems[0].message


# ------------------------------------------------------------------------ re-checks from the caches
_LINES = st.sampled_from(["", "# a note", "    draw 99999999999999999999999", "    @",
                          "    cost 2", "    color bleu", "}", "card X-9 \"x\" {",
                          "    move this to your hand", "  field when this enters field:"])


def _edited(text: str, data) -> str:
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        at = data.draw(st.integers(0, len(lines)), label="line")
        if lines and data.draw(st.booleans(), label="take a line away"):
            del lines[min(at, len(lines) - 1)]
        else:
            lines.insert(at, data.draw(_LINES, label="line added"))
    return "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cardsets, st.data())
def test_a_recheck_after_an_edit_is_a_fresh_check(cardset, data):
    before = format_cardset(cardset)
    after = _edited(before, data)
    forget_cards()
    check_text(before, "x.wg")
    if data.draw(st.booleans(), label="an edit in between"):
        check_text(_edited(before, data), "x.wg")
    again, again_problems = check_text(after, "x.wg")
    forget_cards()
    fresh, fresh_problems = check_text(after, "x.wg")
    assert _everything(again) == _everything(fresh)
    assert again_problems == fresh_problems


def test_a_card_moved_down_is_read_and_checked_where_it_is_now():
    text = 'card X-1 "x" {\ncolor red cost 1 cost 2\n}\n'
    forget_cards()
    first, first_problems = check_text(text, "x.wg")
    moved, moved_problems = check_text("\n\n" + text, "x.wg")
    assert moved.cards[0].pos.line == first.cards[0].pos.line + 2
    assert [p.pos.line for p in moved_problems] == [p.pos.line + 2 for p in first_problems]
    assert "line 4" in moved_problems[0].hint
