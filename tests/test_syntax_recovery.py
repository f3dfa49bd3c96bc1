"""Syntax errors: every error of a card is reported, in time linear in the text, and each
is shown with a bounded excerpt of its line, lines counted as the parser counts them."""

from __future__ import annotations

import time

import pytest

from wgdsl.lang import ast
from wgdsl.lang.cards import check_text
from wgdsl.lang.diagnostics import CONTEXT, Diagnostic, render_all
from wgdsl.lang.parser import parse


def syntax(text: str):
    return parse(text, "t.wg")


def found(diagnostics) -> list[tuple[tuple[int, int], str]]:
    return [((d.pos.line, d.pos.col), d.message) for d in diagnostics]


# ---------------------------------------------------------------------------- every error of a card
def test_a_card_with_three_broken_lines_gives_three_diagnostics():
    text = ('card T-001 "a" {\n'                            # 1
            '  colr red  cost 1\n'                          # 2
            '  dimension:\n'                                # 3
            '    drow 1 card\n'                             # 4
            '    move this to brake\n'                      # 5
            '}\n')
    cardset, diagnostics = syntax(text)
    assert found(diagnostics) == [
        ((2, 3), "unknown keyword `colr`"),
        ((4, 5), "unknown action `drow`"),
        ((5, 18), "unknown zone `brake`"),
    ]
    assert [d.hint for d in diagnostics] == [
        "did you mean `color`?", "did you mean `draw`?", "did you mean `break`?"]
    assert cardset.cards == ()  # a card with syntax errors is not read


def test_the_actions_of_a_broken_effect_header_are_not_errors_too():
    text = ('card T-001 "a" {\n'
            '  color red  cost 1\n'
            '  dimenson:\n'                                 # 3: the only error
            '    draw 1 card\n'
            '    may move a card in your break to your hand\n'
            '}\n'
            'card T-002 "b" {\n'
            '  color red  cost 1\n'
            '}\n')
    cardset, diagnostics = syntax(text)
    assert found(diagnostics) == [((3, 3), "unknown keyword `dimenson`")]
    assert [c.id for c in cardset.cards] == ["T-002"]


def test_static_rules_and_cost_lines_after_a_broken_header_are_read_in_their_place():
    text = ('card T-001 "a" {\n'
            '  color red  cost 1\n'
            '  field statc:\n'                              # 3
            '    this cannot be targeted\n'
            '    this cannot be targetd\n'                  # 5
            '  field activatd:\n'                           # 6
            '    cost: move this to your break\n'
            '    add 2 blue points\n'
            '}\n')
    assert found(syntax(text)[1]) == [
        ((3, 9), "unknown keyword `statc`"),
        ((5, 20), "unknown word `targetd`"),
        ((6, 9), "unknown keyword `activatd`"),
    ]


def test_a_bad_character_a_missing_brace_and_the_cards_after_them():
    text = ('card T-001 "a" {\n'
            '  color red  cost 1\n'
            '  dimension: @ draw 1 card\n'                  # 3
            '    drow 2 cards\n'                            # 4
            'card T-002 "b" {\n'                            # 5: T-001 is not closed
            '  color red  cost 1\n'
            '}\n')
    cardset, diagnostics = syntax(text)
    assert found(diagnostics) == [
        ((3, 14), "unexpected character `@`"),
        ((4, 5), "unknown action `drow`"),
        ((5, 1), "card `T-001` is not closed before the next card"),
    ]
    assert [c.id for c in cardset.cards] == ["T-002"]


def test_one_error_per_line():
    text = 'card T-001 "a" {\n  colr red  cost x @ Y\n  color red  cost 1\n}\n'
    assert found(syntax(text)[1]) == [((2, 3), "unknown keyword `colr`")]


# ---------------------------------------------------------------------------- linear time, bounded output
def test_five_thousand_errors_are_reported_quickly():
    # 85 s before: every error re-parsed the text after it and rendered by splitting the
    # whole text into lines again
    one_card = 'card T-001 "n" {\n  color red  cost 1\n  dimension:\n' + "    drow 1 card\n" * 5000 + "}\n"
    many_cards = "".join(f'card T-{i:04d} "n" {{\n  colr red  cost 1\n}}\n' for i in range(5000))
    for text in (one_card, many_cards):
        start = time.perf_counter()
        _, diagnostics = check_text(text, "t.wg")
        out = render_all(diagnostics, {"t.wg": text})
        elapsed = time.perf_counter() - start
        assert len(diagnostics) == 5000
        assert out.count("error:") == 5000
        assert elapsed < 15, f"{elapsed:.1f} s for 5,000 errors"


def test_a_long_one_line_file_gives_output_independent_of_its_length():
    # each `card` opens a card inside the one before: formerly one error per card, each
    # printing the whole 1.6 MB line (23 GB of output)
    text = 'card A-1 "a" { ' * 110_000
    assert len(text) > 1_600_000
    _, diagnostics = check_text(text, "t.wg")
    out = render_all(diagnostics, {"t.wg": text})
    assert len(diagnostics) <= 3
    assert len(out) < 2_000


def test_a_long_line_is_shown_as_a_window_around_the_caret():
    stats = "  color red" + "  cost 1" * 700       # a 5,611-character line, sound so far
    text = 'card T-001 "a" {\n' + stats + "  brake  cost 1  " + "cost 2  " * 700 + "\n}\n"
    (d,) = syntax(text)[1]
    assert (d.pos.line, d.pos.col, d.message) == (2, len(stats) + 3, "unknown keyword `brake`")
    shown, caret = d.render(text).splitlines()[1:3]
    assert shown == "    …" + stats[-(CONTEXT - 2):] + "  brake  cost 1  " + "cost 2  " * 6 + "co…"
    assert caret == "    " + " " * (1 + CONTEXT) + "^^^^^"


def test_the_window_marks_both_cut_ends_and_keeps_the_caret_in_place():
    text = "a" * 500 + "WORD" + "b" * 500 + "\n"
    d = Diagnostic("t.wg", ast.Pos(1, 501, 1, 505), "m")
    _, shown, caret = d.render(text).splitlines()
    assert shown == "    …" + "a" * CONTEXT + "WORD" + "b" * CONTEXT + "…"
    assert caret == "    " + " " * (1 + CONTEXT) + "^^^^"


# ---------------------------------------------------------------------------- what a line is
@pytest.mark.parametrize("breaker", ["\f", "\v", "\x1c", "\x85", "\u2028", "\u2029"])
def test_line_breaks_other_than_newline_do_not_shift_the_shown_line(breaker):
    # Lark counts lines by "\n" only; str.splitlines() also splits at these
    text = (f'# a comment {breaker} with a break {breaker} inside\n'
            'card T-001 "a" {\n'
            '  colr red  cost 1\n'
            '}\n')
    _, diagnostics = syntax(text)
    (d,) = diagnostics
    assert (d.pos.line, d.pos.col) == (3, 3)
    assert d.render(text).splitlines()[1:3] == ["      colr red  cost 1", "      ^^^^"]


def test_the_end_of_the_file_is_found_by_newlines_only():
    text = 'card T-001 "a" {\n  color red  cost 1  # end \u2028 of \u2028 text\n'
    (d,) = syntax(text)[1]
    assert d.message == "the file ends inside a card"
    assert (d.pos.line, d.pos.col) == (2, len("  color red  cost 1  # end \u2028 of \u2028 text") + 1)


def test_control_characters_in_a_shown_line_are_escaped():
    text = 'card T-001 "a" {\n  colr red  cost 1  # \x1b]0;title\x07\x1b[2J\n}\n'
    out = render_all(syntax(text)[1], {"t.wg": text})
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b]0;title\\x07\\x1b[2J" in out
