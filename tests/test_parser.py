"""The parser: syntax errors at exact positions, recovery, and no crash on any input."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wgdsl.lang import ast
from wgdsl.lang.cards import check_text
from wgdsl.lang.parser import parse
from wgdsl.resources import builtin_cards_path
from cli_helpers import at

WG01 = builtin_cards_path().read_text(encoding="utf-8")


def syntax(text: str):
    cardset, diagnostics = parse(text, "t.wg")
    return cardset, diagnostics


def one_error(text: str):
    cardset, diagnostics = syntax(text)
    assert len(diagnostics) == 1, "\n".join(d.render(text) for d in diagnostics)
    return diagnostics[0]


# ---------------------------------------------------------------------------- misspellings
def test_misspelt_zone_brake_suggests_break():
    text = 'card T-001 "a" {\n  color red  cost 1\n  dimension: move this to brake\n}\n'
    d = one_error(text)
    assert at(d) == (3, 27)
    assert (d.pos.end_line, d.pos.end_col) == (3, 32)
    assert d.message == "unknown zone `brake`"
    assert d.hint == "did you mean `break`?"


def test_misspelt_zone_inside_a_filter():
    d = one_error('card T-001 "a" {\n  color red  cost 1\n  dimension: move a card in brake to your hand\n}\n')
    assert at(d) == (3, 29)
    assert d.message == "unknown zone `brake`"


def test_misspelt_action():
    d = one_error('card T-001 "a" {\n  color red  cost 1\n  dimension: drw 1 card\n}\n')
    assert at(d) == (3, 14)
    assert d.message == "unknown action `drw`"
    assert d.hint == "did you mean `draw`?"


def test_misspelt_event():
    d = one_error('card T-001 "a" {\n  color red  cost 1\n  field when this leavs field:\n    draw 1 card\n}\n')
    assert at(d) == (3, 19)
    assert d.message == "unknown event `leavs`"
    assert d.hint == "did you mean `leaves`?"


def test_misspelt_stat_keyword():
    d = one_error('card T-001 "a" {\n  colr red  cost 1\n}\n')
    assert at(d) == (2, 3)
    assert d.message == "unknown keyword `colr`"
    assert d.hint == "did you mean `color`?"


def test_a_real_keyword_in_the_wrong_place():
    d = one_error('card T-001 "a" {\n  color red  cost 1\n  dimension: move this to draw\n}\n')
    assert at(d) == (3, 27)
    assert d.message == "expected a zone, found `draw`"


def test_uppercase_keyword():
    d = one_error('card T-001 "a" {\n  Color red  cost 1\n}\n')
    assert at(d) == (2, 3)
    assert (d.pos.end_line, d.pos.end_col) == (2, 8)
    assert d.message == "keywords are lowercase: `Color`"
    assert d.hint == "write `color`"


def test_uppercase_effect_keyword_before_a_colon():
    d = one_error('card T-001 "a" {\n  color red  cost 1\n  DIMENSION: draw 1 card\n}\n')
    assert at(d) == (3, 3)
    assert d.message == "keywords are lowercase: `DIMENSION`"


def test_capitalised_color_word():
    d = one_error('card T-001 "a" {\n  color Red  cost 1\n}\n')
    assert at(d) == (2, 9)
    assert d.message == "words are lowercase: `Red`"


def test_card_id_without_a_dash():
    d = one_error('card T001 "a" {\n  color red  cost 1\n}\n')
    assert at(d) == (1, 6)
    assert d.message == "`T001` is not a card id"


# ---------------------------------------------------------------------------- characters
def test_unexpected_character():
    d = one_error('card T-001 "a" {\n  color red  cost 1 @\n}\n')
    assert at(d) == (2, 21)
    assert d.message == "unexpected character `@`"
    assert "`#` starts a comment" in d.hint


def test_unclosed_quoted_name():
    d = one_error('card T-001 "ニビル星人 {\n  color red  cost 1\n}\n')
    assert at(d) == (1, 12)
    assert d.message == "this quoted name is not closed"


def test_name_without_quotes():
    d = one_error('card T-001 ニビル星人 {\n  color red  cost 1\n}\n')
    assert at(d) == (1, 12)
    assert d.message == "unexpected `ニ`"
    assert "double quotes" in d.hint


# ---------------------------------------------------------------------------- missing braces
def test_missing_closing_brace_at_the_end_of_the_file():
    d = one_error('card T-001 "a" {\n  color red  cost 1\n  dimension: draw 1 card\n\n')
    assert at(d) == (3, 25)
    assert d.message == "the file ends inside a card"
    assert "`}`" in d.hint


def test_missing_closing_brace_before_the_next_card_names_the_open_card():
    text = ('card T-001 "a" {\n  color red  cost 1\n  dimension: draw 1 card\n\n'
            'card T-002 "b" {\n  color red  cost 1\n}\n')
    cardset, diagnostics = syntax(text)
    assert [at(d) for d in diagnostics] == [(5, 1)]
    assert diagnostics[0].message == "card `T-001` is not closed before the next card"
    # the next card is still read
    assert [c.id for c in cardset.cards] == ["T-002"]


# ---------------------------------------------------------------------------- recovery
FOUR = (
    'card T-001 "a" {\n'              # 1
    '  color red  cost 1\n'           # 2
    '}\n'                             # 3
    'card T-002 "b" {\n'              # 4
    '  color red  cost 1\n'           # 5
    '  dimension: move this to brake\n'  # 6
    '}\n'                             # 7
    'card T-003 "c" {\n'              # 8
    '  colr red  cost 1\n'            # 9
    '}\n'                             # 10
    'card T-004 "d" {\n'              # 11
    '  color red  cost 1\n'           # 12
    '}\n'                             # 13
)


def test_errors_in_two_different_cards_are_both_reported():
    cardset, diagnostics = syntax(FOUR)
    assert [(at(d), d.message) for d in diagnostics] == [
        ((6, 27), "unknown zone `brake`"),
        ((9, 3), "unknown keyword `colr`"),
    ]


def test_the_sound_cards_around_broken_ones_are_still_read():
    cardset, _ = syntax(FOUR)
    assert [c.id for c in cardset.cards] == ["T-001", "T-004"]


def test_check_text_reports_syntax_and_checker_errors_together_in_order():
    text = FOUR.replace("card T-004", "card T-001")
    _, diagnostics = check_text(text, "t.wg")
    assert [at(d) for d in diagnostics] == [(6, 27), (9, 3), (11, 6)]
    assert diagnostics[2].message == "card id `T-001` is already used on line 1"


# ---------------------------------------------------------------------------- positions and the AST
def test_equal_cards_written_differently_are_equal_asts_with_different_positions():
    a = 'card T-001 "a" {\n  color red  cost 1\n  dimension: draw 1 card\n}\n'
    b = ('# a comment\n\ncard   T-001  "a"  {\n  color red\n  cost 1   # same\n'
         '  dimension:\n      draw 1 card\n}\n')
    (sa, da), (sb, db) = parse(a), parse(b)
    assert da == db == []
    assert sa == sb
    assert sa.cards[0].effects[0].pos != sb.cards[0].effects[0].pos


def test_an_effect_ends_at_its_last_action_not_on_the_next_line():
    text = 'card T-001 "a" {\n  color red  cost 1\n  dimension:\n    draw 1 card   # two\n    draw 1 card\n}\n'
    effect = parse(text)[0].cards[0].effects[0]
    assert effect.pos == ast.Pos(3, 3, 5, 16)


def test_wg01_positions_of_words_the_checker_names():
    cards = {c.id: c for c in parse(WG01)[0].cards}
    # WG-003 line 23: "  field activated during your gain phase:"
    assert cards["WG-003"].effects[0].phase_pos == ast.Pos(23, 31, 23, 35)
    # WG-008 line 55: '    may move a card named "月面派遣軍・曹長" in your stock ...'
    named = cards["WG-008"].effects[0].actions[0].action.what.filter
    assert named.name_pos == ast.Pos(55, 27, 55, 37)



def test_a_position_is_four_named_numbers_that_copy_and_pickle_whole():
    import copy
    import pickle

    pos = parse(WG01)[0].cards[0].effects[0].pos
    assert type(pos) is ast.Pos
    assert (pos.line, pos.col, pos.end_line, pos.end_col) == tuple(pos)
    assert str(pos) == f"{pos.line}:{pos.col}"
    assert repr(ast.Pos(3, 3, 5, 16)) == "Pos(line=3, col=3, end_line=5, end_col=16)"
    assert ast.Pos() == ast.NOWHERE == ast.Pos(0, 0, 0, 0)
    assert ast.Pos(end_col=4, line=1) == ast.Pos(1, 0, 0, 4)
    for again in (copy.copy(pos), copy.deepcopy(pos), pickle.loads(pickle.dumps(pos))):
        assert type(again) is ast.Pos and again == pos and again.end_col == pos.end_col
    # the AST around them copies and pickles as well (a card set sent to a worker)
    cards = parse(WG01)[0]
    assert pickle.loads(pickle.dumps(cards)).cards[7].effects[0].pos == cards.cards[7].effects[0].pos


# ---------------------------------------------------------------------------- never a crash
def _assert_diagnostics_are_sound(text, diagnostics):
    lines = max(1, len(text.splitlines()))
    for d in diagnostics:
        assert d.message
        assert d.pos == ast.NOWHERE or 1 <= d.pos.line <= lines + 1
        d.render(text)  # rendering never fails either


def test_empty_file_and_comment_only_files_have_no_cards_and_no_errors():
    for text in ("", "\n", "# a comment", "# one\n# two\n\n   \n"):
        cardset, diagnostics = parse(text)
        assert cardset.cards == () and diagnostics == []


def test_random_bytes_never_raise():
    rng = random.Random(20240501)
    for _ in range(300):
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(300)))
        text = raw.decode("utf-8", errors="replace")
        cardset, diagnostics = check_text(text, "r.wg")
        _assert_diagnostics_are_sound(text, diagnostics)


def test_truncations_of_wg01_never_raise():
    for end in range(0, len(WG01), 97):
        text = WG01[:end]
        cardset, diagnostics = check_text(text, "cut.wg")
        _assert_diagnostics_are_sound(text, diagnostics)
        assert cardset is not None


def test_a_card_nested_hundreds_deep_is_a_diagnostic():
    text = 'card T-001 "a" {\n  dimension: ' + "may " * 3000 + "draw 1 card\n}\n"
    cardset, diagnostics = check_text(text)
    # at the first `may` too deep (the 101st), no longer at the card's `card`
    assert [(at(d), d.message) for d in diagnostics] == [((2, 414), "this card is nested too deeply to read")]


def _nested(depth: int, first: str = "may ") -> str:
    """An action ``depth`` `may` / `if` deep: both kinds by turns, the first ``first``."""
    return "".join(_nesting(depth, first)) + "draw 1 card"


def _nesting(depth: int, first: str = "may ") -> list:
    kinds = [first, "if you hold fewer points than opponent: " if first == "may " else "may "]
    return [kinds[i % 2] for i in range(depth)]


def test_the_nesting_limit_is_an_explicit_depth():
    """`may` and `if` nest at most parser.MAX_DEPTH deep: that deep reads and checks
    clean; one more is an error at the first one too deep, which names the limit, and the
    cards after it are read."""
    from wgdsl.lang.parser import MAX_DEPTH

    head = 'card T-001 "a" {\n  color red  cost 1  requires 0  stun 1\n  dimension: '
    after = 'card T-002 "b" {\n  color red  cost 1  requires 0  stun 1\n}\n'
    for first in ("may ", "if you hold fewer points than opponent: "):
        cardset, diagnostics = check_text(head + _nested(MAX_DEPTH, first) + "\n}\n")
        assert diagnostics == [] and len(cardset.cards) == 1
        deeper = head + _nested(MAX_DEPTH + 1, first) + "\n  draw 1 card\n}\n"
        cardset, diagnostics = check_text(deeper + after)
        assert [c.id for c in cardset.cards] == ["T-002"]
        (d,) = diagnostics
        pieces = _nesting(MAX_DEPTH + 1, first)
        column = len("  dimension: ") + len("".join(pieces[:-1])) + 1
        word = pieces[-1].split()[0]
        assert (at(d), d.message) == ((3, column), "this card is nested too deeply to read")
        assert (d.pos.end_line, d.pos.end_col) == (3, column + len(word))
        assert f"at most {MAX_DEPTH} deep" in d.hint and f"this `{word}` is {MAX_DEPTH + 1} deep" in d.hint


def test_no_nesting_overflows_the_stack():
    """Reading and checking take a bounded stack whatever the nesting: with only 600
    frames to spare, a card at the limit and one 10,000 deep are read and checked
    (the second reported), not a RecursionError."""
    import sys

    from wgdsl.lang.parser import MAX_DEPTH

    def depth():
        frame, n = sys._getframe(), 0
        while frame is not None:
            frame, n = frame.f_back, n + 1
        return n

    texts = ['card T-001 "a" {\n  dimension: ' + _nested(n) + "\n}\n" for n in (MAX_DEPTH, 10_000)]
    check_text(texts[0])  # the parser and the checker built outside the limit
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(depth() + 600)
    try:
        results = [check_text(text) for text in texts]
    finally:
        sys.setrecursionlimit(before)
    assert [len(cs.cards) for cs, _ in results] == [1, 0]
    assert [d.message for d in results[1][1]] == ["this card is nested too deeply to read"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_any_text_gives_diagnostics_not_exceptions(text):
    cardset, diagnostics = check_text(text, "h.wg")
    assert cardset is not None
    _assert_diagnostics_are_sound(text, diagnostics)


KEYWORDISH = st.sampled_from(
    ["card", "T-1", '"n"', "{", "}", "\n", "color", "red", "cost", "2", "dimension", ":", "field",
     "when", "this", "leaves", "move", "it", "to", "your", "break", "may", "if", "you", "do",
     "draw", "1", "card", "in", "hand", "static", "activated", "a", "#", "Color", "@", "  "]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(KEYWORDISH, max_size=60))
def test_near_miss_programs_give_diagnostics_not_exceptions(words):
    text = " ".join(words)
    cardset, diagnostics = check_text(text, "k.wg")
    _assert_diagnostics_are_sound(text, diagnostics)


def test_a_game_stat_too_long_to_be_a_number_is_a_diagnostic():
    """A number stat of a game's own (Imitation World's `atk`) has no range in the card
    language; one too long to read is reported, not a KeyError (found by
    tests/test_reader_fast_path.py)."""
    from wgdsl.lang import vocabulary

    text = 'card X-1 "x" {\n  type geuda  atk 1234567890\n}\n'
    cardset, diagnostics = parse(text, "t.wg", vocabulary._builtin("imitation-world"))
    assert cardset.cards == ()
    assert [(at(d), d.message) for d in diagnostics] == [
        ((2, 19), "`atk` 1234567890 is too long to be a number")]
    assert "at most 9 digits" in diagnostics[0].hint


def test_the_rules_built_as_constants_are_what_their_methods_give():
    # the reader sets these rules' values without calling their methods
    # (parser._CONSTANT_RULES): each must be the method's value, whatever it is given
    from wgdsl.lang.parser import _CONSTANT_RULES, _ToAst

    assert _CONSTANT_RULES
    to_ast = _ToAst()
    for name, value in _CONSTANT_RULES.items():
        assert getattr(to_ast, name)(None, []) == value, name
