"""Cards that parse and read well but ask the engine for something the game does not have
are reported where they say it (issue: "a clear diagnostic, not a crash").

Columns are counted by hand: the action line is indented by four spaces."""

import pytest

from wgdsl.lang.cards import check_text


def card(action_line: str) -> str:
    return f'card XP-1 "t" {{\n  color red  cost 2\n  dimension:\n    {action_line}\n}}\n'


@pytest.mark.parametrize("line, col, message", [
    ("move this to field", 18, "only onto a square"),
    ("shuffle your hand", 13, "only a stock can be shuffled"),
    ("exhaust a card in your hand", 13, "only a stun in a standby can be exhausted"),
    ("move every stack on your hand to owner's break", 25, "the hand holds no stacks"),
    ("swap a card in your hand with this", 10, "only cards on the field change places"),
    ("move a card in your break to opponent's hand", 34, "your card cannot go to opponent's hand"),
    ("look at top card of your hand", 25, "only a stock has a top card"),
])
def test_what_the_engine_cannot_do_is_an_error_at_its_words(line, col, message):
    diagnostics = check_text(card(line), "t.wg")[1]
    assert len(diagnostics) == 1, [d.message for d in diagnostics]
    d = diagnostics[0]
    assert (d.pos.line, d.pos.col) == (4, col)
    assert message in d.message
    assert d.hint  # and says what would be right


@pytest.mark.parametrize("line", [
    "move a card in opponent's hand to owner's break",
    "move a card in opponent's hand to opponent's break",   # the owner's own zone
    "exhaust a ready stun in opponent's standby",
    "move top card of your stock to your standby as ready stun",
    "move every stack on opponent's battle field to owner's break",
    "shuffle your stock",
])
def test_what_the_engine_can_do_is_accepted(line):
    assert check_text(card(line), "t.wg")[1] == []


def test_unknown_actions_and_events_name_the_vocabulary():
    d = check_text(card("teleport this to C1"), "t.wg")[1][0]
    assert (d.pos.line, d.pos.col) == (4, 5) and "unknown action `teleport`" in d.message
    assert "`move`" in d.hint
    text = 'card XP-1 "t" {\n  color red  cost 2\n  field when this dances:\n    draw 1\n}\n'
    d = check_text(text, "t.wg")[1][0]
    assert (d.pos.line, d.pos.col) == (3, 19) and "unknown event `dances`" in d.message
