"""The pretty-printer (wgdsl/lang/fmt.py) and ``wgdsl fmt``."""

from __future__ import annotations

import re
import stat

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies_ast import cards, cardsets
from wgdsl.cli import main
from wgdsl.lang import ast
from wgdsl.lang.fmt import format_card, format_cardset, format_source
from wgdsl.lang.parser import parse
from wgdsl.resources import builtin_cards_path

WG01 = builtin_cards_path().read_text(encoding="utf-8")


def _parse_ok(text: str) -> ast.CardSet:
    cardset, diagnostics = parse(text)
    assert diagnostics == [], "\n".join(d.render(text) for d in diagnostics)
    return cardset


def _body(text: str) -> str:
    """The text after the opening comment block."""
    return text[text.index("card ") :]


# ------------------------------------------------------------------------ WG01
def test_wg01_is_already_in_canonical_form():
    assert format_cardset(_parse_ok(WG01)) == _body(WG01)


def test_format_source_keeps_the_opening_comment_block_of_wg01():
    formatted, warnings = format_source(WG01, "wg01.wg")
    assert formatted == WG01
    assert warnings == []


def test_wg01_round_trips_through_the_printer():
    parsed = _parse_ok(WG01)
    assert _parse_ok(format_cardset(parsed)) == parsed
    assert len(parsed.cards) == 25


# ------------------------------------------------------------------------ canonical spellings
MESSY = """\
card X-1 "試作" en "Prototype" {
  unique  stun 2
  cost 3 color green
  mark paper
  dimension: draw 1 cards
  field when your opponent plays an card from hand: cancel that play
  field when card is seized:
   if opponent has less cards in hand than you: may draw 2 card
  in hand activated during your gain phase: cost: move this to your break
    add 1 red points
  field at start of opponent's turn:
    move every stuns in your standby to bottom of your stock
    enter as copy of a card of cost >= 4 from battle field
  field static:
      this square cannot be traded or seized by an card of cost 1 or more
      this gives points of one chosen color among blue,red
  dimension:
    move every stack in opponent's my field to a empty square on your my field
}
card X-2 "空" {
}
"""

MESSY_CANONICAL = """\
card X-1 "試作" en "Prototype" {
  color green  mark paper  cost 3  stun 2  unique
  dimension:
    draw 1 card
  field when opponent plays a card from hand:
    cancel that play
  field when a card is seized:
    if opponent has fewer cards in hand than you: may draw 2 cards
  in hand activated during your gain phase:
    cost: move this to your break
    add 1 red point
  field at start of opponent's turn:
    move every stun in your standby to bottom of your stock
    enter as a copy of a card of cost 4 or more on battle field
  field static:
    this square cannot be traded or seized by a card of cost 1 or more
    this gives points of one chosen color among blue, red
  dimension:
    move every stack on opponent's my field to an empty square of your my field
}

card X-2 "空" {
}
"""


def test_messy_text_is_printed_in_canonical_spelling():
    parsed = _parse_ok(MESSY)
    assert format_cardset(parsed) == MESSY_CANONICAL
    # the same card: only the order of the stats changed
    again = _parse_ok(MESSY_CANONICAL)
    for before, after in zip(parsed.cards, again.cards):
        assert after.effects == before.effects
        assert sorted(map(repr, after.stats)) == sorted(map(repr, before.stats))


def test_repeated_stats_are_kept_in_the_order_written():
    card = _parse_ok('card X-1 "a" {\n  cost 2  color red  cost 3\n}\n').cards[0]
    assert format_card(card) == 'card X-1 "a" {\n  color red  cost 2  cost 3\n}\n'
    assert card.stat("cost") == 3


def test_operators_other_than_or_less_or_more_are_written_as_symbols():
    text = ('card X-1 "a" {\n  dimension:\n'
            '    exhaust every card of cost < 2\n    exhaust every card of cost = 0\n'
            '    exhaust every card of cost > 9\n}\n')
    assert format_cardset(_parse_ok(text)) == text


# ------------------------------------------------------------------------ the round trip
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cardsets)
def test_parse_of_format_gives_back_the_tree(cardset):
    text = format_cardset(cardset)
    assert _parse_ok(text) == cardset


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards)
def test_format_is_idempotent(card):
    once = format_card(card)
    assert format_cardset(_parse_ok(once)) == once


# ------------------------------------------------------------------------ wgdsl fmt
def _run(*args):
    return CliRunner().invoke(main, ["fmt", *args])


def test_fmt_prints_the_formatted_text(tmp_path):
    f = tmp_path / "a.wg"
    f.write_text('card X-1 "a" {\n color red cost 1\n dimension: draw 1 card\n}\n', encoding="utf-8")
    result = _run(str(f))
    assert result.exit_code == 0
    assert result.stdout == 'card X-1 "a" {\n  color red  cost 1\n  dimension:\n    draw 1 card\n}\n'


def test_fmt_without_files_prints_wg01():
    result = _run()
    assert result.exit_code == 0
    assert result.stdout == WG01


def test_fmt_check_lists_the_files_that_would_change(tmp_path):
    good = tmp_path / "good.wg"
    good.write_text('card X-1 "a" {\n  color red\n}\n', encoding="utf-8")
    bad = tmp_path / "bad.wg"
    bad.write_text('card X-1 "a" {\ncolor red\n}\n', encoding="utf-8")
    assert _run("--check", str(good)).exit_code == 0
    result = _run("--check", str(good), str(bad))
    assert result.exit_code == 1
    assert result.stdout == f"{bad}\n"
    assert bad.read_text(encoding="utf-8") == 'card X-1 "a" {\ncolor red\n}\n'


def test_fmt_write_rewrites_in_place_and_keeps_the_opening_comments(tmp_path):
    f = tmp_path / "a.wg"
    f.write_text('# my set\n\n\ncard X-1 "a" {\ncolor red\n}\ncard X-2 "b" {\n}\n', encoding="utf-8")
    result = _run("--write", str(f))
    assert result.exit_code == 0
    assert f.read_text(encoding="utf-8") == (
        '# my set\n\ncard X-1 "a" {\n  color red\n}\n\ncard X-2 "b" {\n}\n'
    )
    assert _run("--check", str(f)).exit_code == 0


def test_fmt_write_refuses_a_file_with_syntax_errors(tmp_path):
    f = tmp_path / "a.wg"
    original = 'card X-1 "a" {\n  dimension: drow 1 card\n}\n'
    f.write_text(original, encoding="utf-8")
    result = _run("--write", str(f))
    assert result.exit_code == 1
    assert "unknown action `drow`" in result.stderr
    assert "did you mean `draw`?" in result.stderr
    assert "Traceback" not in result.stderr
    assert f.read_text(encoding="utf-8") == original


def test_fmt_write_keeps_comments_in_place(tmp_path):
    f = tmp_path / "a.wg"
    f.write_text('card X-1 "a#1" {\n  color red   # the faction\n# about it\n'
                 '  dimension: draw 1 card\n}\n# the end\n', encoding="utf-8")
    result = _run("--write", str(f))
    assert result.exit_code == 0, result.output
    assert f.read_text(encoding="utf-8") == (
        'card X-1 "a#1" {\n'
        '  color red  # the faction\n'
        '  # about it\n'
        '  dimension:\n'
        '    draw 1 card\n'
        '}\n'
        '# the end\n')
    assert _run("--check", str(f)).exit_code == 0


COMMENTED = """\
# my set

include "wg01"   # the base set
# the first card
card X-1 "a#1" en "A" {   # on the header
color red   # the faction
  cost 2
  # about the effect
  dimension: draw 1 card  # draws
  # before the end
}
card X-2 "b" {} # on the brace


# a section

# the third card

card X-3 "c" {
  field static:
    # why
    this cannot be targeted
  field activated during your gain phase:
    # the cost
    cost: move this to your break   # paid first
    add 2 blue points
}
# the end
"""


def test_every_comment_stays_beside_what_it_was_beside():
    formatted, diagnostics = format_source(COMMENTED)
    assert diagnostics == []
    assert formatted == """\
# my set

include "wg01"  # the base set

# the first card
card X-1 "a#1" en "A" {  # on the header
  color red  cost 2  # the faction
  # about the effect
  dimension:
    draw 1 card  # draws
  # before the end
}

card X-2 "b" {
}  # on the brace

# a section

# the third card

card X-3 "c" {
  field static:
    # why
    this cannot be targeted
  field activated during your gain phase:
    # the cost
    cost: move this to your break  # paid first
    add 2 blue points
}
# the end
"""
    assert format_source(formatted) == (formatted, [])
    assert _parse_ok(formatted) == _parse_ok(COMMENTED)


def _with_comments(text: str, data) -> tuple[str, list[str]]:
    """``text`` with comments drawn by Hypothesis: at line ends and on lines of their own
    (any indentation, blank lines around), each with a unique tag."""
    out, tags = [], []
    for n, line in enumerate(text.split("\n")):
        if data.draw(st.booleans(), label=f"comment above {n}"):
            tag = f"#c{len(tags)}"
            tags.append(tag)
            blank = data.draw(st.sampled_from(["", "\n", "\n\n"]), label="blank")
            out.append(blank + data.draw(st.sampled_from(["", "  ", "\t"])) + tag + " note")
        if line.strip() and data.draw(st.booleans(), label=f"comment after {n}"):
            tag = f"#c{len(tags)}"
            tags.append(tag)
            line += data.draw(st.sampled_from([" ", "   ", "\t"])) + tag
        out.append(line)
    return "\n".join(out), tags


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cardsets, st.data())
def test_fmt_keeps_every_comment_and_is_idempotent(cardset, data):
    text, tags = _with_comments(format_cardset(cardset), data)
    formatted, diagnostics = format_source(text)
    assert diagnostics == [], text
    # the cards are unchanged, every comment is there once, and fmt(fmt(x)) == fmt(x)
    assert _parse_ok(formatted) == cardset
    for tag in tags:
        assert len(re.findall(re.escape(tag) + r"\b", formatted)) == 1, (tag, text, formatted)
    assert format_source(formatted) == (formatted, [])


def test_fmt_write_through_a_symlink_keeps_the_link_and_the_mode(tmp_path):
    real = tmp_path / "real.wg"
    real.write_text('card X-1 "a" {\ncolor red\n}\n', encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.wg"
    link.symlink_to(real)
    result = _run("--write", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and link.resolve() == real
    assert real.read_text(encoding="utf-8") == 'card X-1 "a" {\n  color red\n}\n'
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.wg", "real.wg"]  # no temp file left


def test_fmt_reads_standard_input():
    messy = 'card X-1 "a" {\ncolor red  # c\n}\n'
    result = CliRunner().invoke(main, ["fmt", "-"], input=messy)
    assert result.exit_code == 0, result.output
    assert result.stdout == 'card X-1 "a" {\n  color red  # c\n}\n'
    result = CliRunner().invoke(main, ["fmt", "--check", "-"], input=messy)
    assert (result.exit_code, result.stdout) == (1, "<stdin>\n")
    result = CliRunner().invoke(main, ["fmt", "--check", "-"], input='card X-1 "a" {\n}\n')
    assert result.exit_code == 0
    result = CliRunner().invoke(main, ["fmt", "--write", "-"], input=messy)
    assert result.exit_code == 2 and "standard input" in result.stderr


def test_fmt_reports_a_missing_file():
    result = _run("--check", "no/such.wg")
    assert result.exit_code == 1
    assert "no/such.wg: error: no such file" in result.stderr


def test_fmt_write_needs_files_and_excludes_check():
    assert _run("--write").exit_code == 2
    assert _run("--write", "--check", "a.wg").exit_code == 2
