"""Numbers and names in card text (docs/language.md, "Numbers"; security S3).

- a literal of thousands of digits (more than int() converts) is an error at the number,
  never a ValueError (the repro files 01, 02, 03, 05, 08, 09);
- every number has a range, checked at the number with the range in the hint
  (`draw 1000000000 cards` would have the engine draw a billion cards);
- a card name with control characters (an escape sequence that retitles the window or
  clears the screen) is an error, and nothing prints the raw characters.
"""

from __future__ import annotations

import pytest

from wgdsl.lang.cards import check_text
from wgdsl.lang.diagnostics import render_all
from wgdsl.lang.parser import parse
from cli_helpers import at, cli, no_traceback

HUGE = "1" + "0" * 4300  # 4,301 digits: more than int() converts (4,300)
HUGE_SHOWN = "100000…000 (4,301 digits)"


# ====================================================================== numbers
CARD = 'card T-001 "a" {{\n  color red  cost 1{stats}\n{effect}}}\n'
NUMBER_SITES = {
    # key: (stats, effect, the line of the number)
    "cost": ("  cost {n}", "", 2),
    "requires": ("  requires {n}", "", 2),
    "stun": ("  stun {n}", "", 2),
    "draw": ("", "  dimension:\n    draw {n} cards\n", 4),
    "add": ("", "  field activated:\n    add {n} red points\n", 4),
    "cost bound": ("", "  dimension:\n    move an opponent's card of cost <= {n} on battle field to owner's break\n", 4),
    "cost or less": ("", "  field static:\n    this square cannot be seized or traded by a card of cost {n} or less\n", 4),
}


def card_with(key: str, n: str) -> str:
    stats, effect, _ = NUMBER_SITES[key]
    text = CARD.format(stats=stats.format(n=n), effect=effect.format(n=n))
    if key == "cost":
        text = text.replace("cost 1  cost", "cost")
    if key == "requires":
        text = text.replace("cost 1  requires", "cost 99  requires")
    return text


def number_at(key: str, n: str) -> tuple[int, int]:
    """Where ``n`` stands in ``card_with(key, n)`` (the last word ``n`` on its line)."""
    line = NUMBER_SITES[key][2]
    text = card_with(key, n).split("\n")[line - 1]
    return line, text.rindex(f" {n}") + 2


@pytest.mark.parametrize("key", NUMBER_SITES)
def test_a_number_of_thousands_of_digits_is_an_error_at_the_number(key):
    text = card_with(key, HUGE)
    cardset, diagnostics = check_text(text, "t.wg")
    (d,) = diagnostics
    assert at(d) == number_at(key, HUGE), d.render(text)
    assert HUGE_SHOWN in d.message
    assert " to " in d.hint  # the allowed range
    assert cardset.cards == ()  # the card is not used
    assert len(render_all(diagnostics, {"t.wg": text})) < 1000


@pytest.mark.parametrize("key", NUMBER_SITES)
def test_a_sound_number_in_each_place_checks_clean(key):
    text = card_with(key, "2")
    assert check_text(text, "t.wg")[1] == []


@pytest.mark.parametrize("repro", [
    # the minimized reproducers of /work/shared/repro, each a 4,301-digit number
    'card WG-011 "x" en "C" {\n  color red  cost ' + HUGE + '\n  field when this is seized: draw 1 card\n}',
    'card P-3 "x" en "C" {\nfield when this leaves field to break: draw ' + HUGE + ' card\n}',
    'card P-2 "" en "" {\nfield static:\n this square cannot be seized by a card of cost ' + HUGE + ' or less\n}',
    'card P-4 "x" en "L" {\nfield activated during your ga phase:\nadd' + HUGE + ' red point\n}',
    'card XX-001 "a" {\n  color red  cost 1\n  field static:\n    this square cannot be seized by a card of cost <= ' + HUGE + '\n}',
    'card XX-001 "a" {\n  color red  cost 1  requires ' + HUGE + '\n}',
])
def test_the_digit_reproducers_give_a_diagnostic(repro, tmp_path):
    path = tmp_path / "r.wg"
    path.write_text(repro, encoding="utf-8")
    for command in ("check", "fmt"):
        result = cli(command, str(path))
        no_traceback(result)
        assert result.exit_code == 1
        assert HUGE_SHOWN in result.stderr
        assert len(result.stderr) < 2000


def test_drawing_a_billion_cards_is_an_error_with_the_allowed_range():
    text = card_with("draw", "1000000000")
    (d,) = check_text(text, "t.wg")[1]
    assert at(d) == (4, 10)
    assert d.message == "cannot draw 1000000000 cards"
    assert d.hint.startswith("an effect draws 1 to 40 cards")


@pytest.mark.parametrize("key, good, bad, message", [
    # the ranges of docs/language.md, "Numbers"
    ("cost", (0, 99), (100, 123456789), "cost {} is out of range"),
    ("stun", (1, 99), (100,), "stun value {} is out of range"),
    ("draw", (1, 40), (0, 41, 999999999), "cannot draw {} cards"),
    ("add", (1, 99), (0, 100), "cannot add {} points"),
    ("cost bound", (0, 99), (100,), "cost bound {} is out of range"),
    ("cost or less", (0, 99), (100,), "cost bound {} is out of range"),
])
def test_each_number_has_its_range(key, good, bad, message):
    for n in good:
        assert check_text(card_with(key, str(n)), "t.wg")[1] == [], (key, n)
    for n in bad:
        (d,) = check_text(card_with(key, str(n)), "t.wg")[1]
        assert (at(d), d.message) == (number_at(key, str(n)), message.format(n)), (key, n)


def test_required_cost_is_checked_against_the_cost_and_its_range():
    text = 'card T-001 "a" {\n  color red  cost 100  requires 100\n}\n'
    assert [(at(d), d.message) for d in check_text(text, "t.wg")[1]] == [
        ((2, 19), "cost 100 is out of range"),
        ((2, 33), "required cost 100 is out of range"),
    ]
    text = 'card T-001 "a" {\n  color red  cost 2  requires 3\n}\n'
    assert [d.message for d in check_text(text, "t.wg")[1]] == ["required cost 3 is more than the cost 2"]


def test_leading_zeros_are_not_digits_that_count():
    text = card_with("draw", "0" * 5000 + "2")
    assert check_text(text, "t.wg")[1] == []
    assert parse(text)[0].cards[0].effects[0].actions[0].count == 2


# ====================================================================== control characters
ESCAPES = "\x1b]0;owned-title\x07\x1b[2J"


def test_a_card_name_with_control_characters_is_an_error_at_the_name():
    text = f'card XX-001 "{ESCAPES}" en "x" {{\n  color red  cost 1\n}}\n'
    (d,) = check_text(text, "t.wg")[1]
    assert (at(d), d.message) == ((1, 13), "a card name may not contain control characters")
    assert "\\x1b]0;owned-title\\x07\\x1b[2J" in d.hint
    out = render_all([d], {"t.wg": text})
    assert "\x1b" not in out and "\x07" not in out


def test_an_english_name_with_control_characters_is_an_error_too():
    text = 'card XX-001 "x" en "a\x9bb" {\n  color red  cost 1\n}\n'
    (d,) = check_text(text, "t.wg")[1]
    assert (at(d), d.message) == ((1, 20), "an English name may not contain control characters")


def test_the_terminal_escape_reproducer_never_reaches_the_output(tmp_path):
    path = tmp_path / "S3.wg"
    path.write_text(f'card XX-001 "{ESCAPES}" en "x" {{\n  color red  cost 1\n}}\n', encoding="utf-8")
    for args in (("cards", "--cards", str(path)), ("check", str(path)), ("show", "XX-001", "--cards", str(path))):
        result = cli(*args)
        no_traceback(result)
        assert result.exit_code == 1
        assert "\x1b" not in result.output and "\x07" not in result.output
        assert "a card name may not contain control characters" in result.stderr


def test_the_reference_shows_the_ranges_and_the_real_message():
    from pathlib import Path

    from wgdsl.lang.ast import NUMBER_RANGES

    doc = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    table = doc[doc.index("### Numbers"):doc.index("### Building on another set")]
    rows = {"cost": "| `cost N` |", "stun": "| `stun N` |", "draw": "| `draw N cards` |",
            "add": "| `add N COLOR points` |", "cost bound": "| `of cost <= N`"}
    for key, row in rows.items():
        rng = NUMBER_RANGES[key]
        line = next(ln for ln in table.splitlines() if ln.startswith(row))
        assert f"| {rng.low} to {rng.high} |" in line, (key, line)
    text = 'card X1-001 "a" {\n  color red  cost 1\n  dimension:\n    draw 1000000000 cards\n}\n'
    shown = render_all(check_text(text, "mine.wg")[1], {"mine.wg": text})
    assert "```text\n" + shown + "\n```" in table
