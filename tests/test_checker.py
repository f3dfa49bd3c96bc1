"""The checker: each semantic error at its exact line:col, in designer terms.

Every card text below is written out line by line, so the expected columns can be
counted by hand: column 1 is the first character of a line.
"""

from __future__ import annotations

import pytest

from wgdsl.lang.cards import check_text
from wgdsl.resources import builtin_cards_path
from cli_helpers import at

HEAD = 'card T-001 "テスト" en "Test" {\n  color red  cost 2  requires 1\n'


def card(*lines: str) -> str:
    """A card T-001 whose effect lines start at line 3."""
    return HEAD + "".join(line + "\n" for line in lines) + "}\n"


def problems(text: str):
    cardset, diagnostics = check_text(text, "t.wg")
    assert cardset is not None
    return diagnostics


def only(text: str):
    """The one diagnostic ``text`` has (syntax errors would fail here too)."""
    found = problems(text)
    assert len(found) == 1, "\n".join(d.render(text) for d in found)
    return found[0]


def assert_clean(text: str):
    found = problems(text)
    assert found == [], "\n".join(d.render(text) for d in found)


# ---------------------------------------------------------------------------- sound sets
def test_the_builtin_wg01_set_is_clean():
    assert_clean(builtin_cards_path().read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", ["", "\n\n", "# nothing yet\n", "  # indented comment\n\n# more\n"])
def test_an_empty_card_set_is_fine(text):
    cardset, diagnostics = check_text(text, "t.wg")
    assert cardset.cards == ()
    assert diagnostics == []


def test_a_plain_card_is_clean():
    assert_clean(card())


# ---------------------------------------------------------------------------- stats (R2.1)
def test_unknown_color_points_at_the_word_and_suggests_the_color():
    d = only('card T-001 "a" {\n  color bleu  cost 2\n}\n')
    assert at(d) == (2, 9)
    assert (d.pos.end_line, d.pos.end_col) == (2, 13)
    assert d.message == "unknown color `bleu`"
    assert d.hint == "did you mean `blue`?"


def test_unknown_color_with_nothing_close_lists_the_colors():
    d = only('card T-001 "a" {\n  color purple  cost 2\n}\n')
    assert at(d) == (2, 9)
    assert "`blue`, `green`, `red` or `yellow`" in d.hint and "R2.2" in d.hint


def test_unknown_mark_suggests_the_mark():
    d = only('card T-001 "a" {\n  color red  mark rok  cost 2\n}\n')
    assert at(d) == (2, 19)
    assert d.message == "unknown mark `rok`"
    assert d.hint == "did you mean `rock`?"


def test_the_four_marks_are_known():
    for mark in ("rock", "paper", "scissors", "all"):
        assert_clean(f'card T-001 "a" {{\n  color red  mark {mark}  cost 2\n}}\n')


def test_missing_color_points_at_the_card_id():
    d = only('card T-001 "a" {\n  cost 2\n}\n')
    assert at(d) == (1, 6)
    assert d.message == "card `T-001` has no color"
    assert "R2.1" in d.hint


def test_missing_cost_points_at_the_card_id():
    d = only('card T-001 "a" {\n  color red\n}\n')
    assert at(d) == (1, 6)
    assert d.message == "card `T-001` has no cost"
    assert "R2.1" in d.hint


def test_a_card_without_stats_misses_both():
    found = problems('card T-001 "a" {\n}\n')
    assert [d.message for d in found] == ["card `T-001` has no color", "card `T-001` has no cost"]


def test_required_cost_above_the_cost_cites_r2_1_and_r6_3():
    d = only('card T-001 "a" {\n  color red  cost 2  requires 3\n}\n')
    assert at(d) == (2, 31)
    assert d.message == "required cost 3 is more than the cost 2"
    assert "R2.1" in d.hint and "R6.3" in d.hint


def test_required_cost_equal_to_the_cost_is_fine():
    assert_clean('card T-001 "a" {\n  color yellow  cost 5  requires 5\n}\n')


def test_stun_value_zero_is_an_error():
    d = only('card T-001 "a" {\n  color red  cost 2  stun 0\n}\n')
    assert at(d) == (2, 27)
    assert d.message == "stun value 0 is less than 1"


def test_a_stat_given_twice_points_at_the_second_and_names_the_first():
    d = only('card T-001 "a" {\n  color red  cost 2\n  cost 3\n}\n')
    assert at(d) == (3, 3)
    assert d.message == "`cost` is given twice"
    assert "line 2, column 14" in d.hint


def test_a_stat_repeated_on_one_line():
    d = only('card T-001 "a" {\n  color red  color blue  cost 1\n}\n')
    assert at(d) == (2, 14)
    assert d.message == "`color` is given twice"


# ---------------------------------------------------------------------------- the set
def test_duplicate_id_points_at_the_second_card_and_names_the_first_line():
    text = ('card T-001 "a" {\n  color red  cost 1\n}\n'
            'card T-001 "b" {\n  color red  cost 1\n}\n')
    d = only(text)
    assert at(d) == (4, 6)
    assert d.message == "card id `T-001` is already used on line 1"


def test_a_third_copy_of_an_id_is_reported_too():
    one = 'card T-001 "a" {\n  color red  cost 1\n}\n'
    found = problems(one * 3)
    assert [at(d) for d in found] == [(4, 6), (7, 6)]
    assert all("line 1" in d.message for d in found)


NAMED = (
    'card T-001 "隊長" en "Captain" {\n'
    '  color blue  cost 4  requires 2\n'
    '  dimension:\n'
    '    may move a card named {name} in your stock to an empty square of your my field\n'
    '}\n'
    'card T-002 "曹長" en "Sergeant" {\n'
    '  color blue  cost 1\n'
    '}\n'
)


def test_named_card_missing_from_the_set_suggests_a_name():
    d = only(NAMED.replace("{name}", '"Sergent"'))
    assert at(d) == (4, 27)
    assert d.message == 'no card in this set is named "Sergent"'
    assert d.hint == "did you mean `Sergeant`?"


@pytest.mark.parametrize("name", ['"曹長"', '"Sergeant"'])
def test_named_accepts_the_name_or_the_english_name(name):
    assert_clean(NAMED.replace("{name}", name))


# ---------------------------------------------------------------------------- where effects work (R13)
def test_dimension_with_an_event_says_write_field_when():
    d = only(card("  dimension when this leaves field:", "    draw 1 card"))
    assert at(d) == (3, 18)
    assert "R13.1" in d.message
    assert "write `field when ...:`" in d.hint


def test_dimension_with_a_turn_event():
    d = only(card("  dimension at start of your turn:", "    draw 1 card"))
    assert at(d) == (3, 16)
    assert d.message.startswith("dimension effects trigger only when this card enters the field")


def test_dimension_cannot_be_activated():
    d = only(card("  dimension activated:", "    draw 1 card"))
    assert at(d) == (3, 3)
    assert (d.pos.end_line, d.pos.end_col) == (3, 12)
    assert "cannot be activated" in d.message and "R13.1" in d.message
    assert "`field activated ...:`" in d.hint


def test_dimension_cannot_be_static_and_the_rule_is_not_reported_again():
    d = only(card("  dimension static:", "    this cannot be targeted"))
    assert at(d) == (3, 3)
    assert "cannot be a static rule" in d.message
    assert "`field static:`" in d.hint


def test_in_standby_allows_only_static_rules_turn_event():
    d = only(card("  in standby at start of your turn:", "    draw 1 card"))
    assert at(d) == (3, 17)
    assert d.message == "a card in your standby can only have `static` rules, not a triggered effect"
    assert "`in standby static:`" in d.hint and "R13.2" in d.hint


def test_in_hand_allows_only_static_rules_play_event():
    d = only(card("  in hand when opponent plays a card from hand:", "    draw 1 card"))
    assert at(d) == (3, 16)
    assert d.message == "a card in your hand can only have `static` rules, not a triggered effect"


@pytest.mark.parametrize("event", [
    "when this becomes target", "when opponent plays a card from hand", "at start of your turn",
    "at end of opponent's turn", "when this leaves field",
])
def test_no_event_reaches_a_card_in_standby_and_dimension_takes_none(event):
    # "  in standby " is 13 characters, "  dimension " 12: the event starts after `when `/`at `
    first = event.split()[0]
    d = only(card(f"  in standby {event}:", "    draw 1 card"))
    assert at(d) == (3, 14 + len(first) + 1)
    assert "can only have `static` rules" in d.message
    d = only(card(f"  dimension {event}:", "    draw 1 card"))
    assert at(d) == (3, 13 + len(first) + 1)
    assert "R13.1" in d.message


def test_in_hand_cannot_be_activated():
    d = only(card("  in hand activated:", "    draw 1 card"))
    assert at(d) == (3, 3)
    assert d.message == "a card in your hand can only have `static` rules, not an activated effect"


def test_in_hand_without_event_is_not_a_dimension_effect():
    d = only(card("  in hand:", "    draw 1 card"))
    assert at(d) == (3, 3)
    assert "only have `static` rules" in d.message


def test_a_field_row_is_not_a_place_for_effects():
    d = only(card("  in battle field static:", "    this cannot be targeted"))
    assert at(d) == (3, 3)
    assert d.message == "`in battle field` is not a place for effects"
    assert "`field ...`" in d.hint


def test_in_field_is_the_same_as_field():
    assert_clean(card("  in field static:", "    this cannot be targeted"))


def test_untargetable_means_nothing_in_hand():
    d = only(card("  in hand static:", "    this cannot be targeted"))
    assert at(d) == (4, 5)
    assert d.message == "`this cannot be targeted` means nothing in your hand"
    assert "R13.4" in d.hint and "`field static:`" in d.hint


def test_play_onto_belongs_in_hand():
    d = only(card("  field static:", "    this can be played onto opponent's my field ignoring priority"))
    assert at(d) == (4, 5)
    assert d.message == "`this can be played onto ...` means nothing on the field"
    assert "`in hand static:`" in d.hint


def test_square_protection_means_nothing_in_standby():
    d = only(card("  in standby static:", "    this square cannot be seized by a card of cost 2 or less"))
    assert at(d) == (4, 5)
    assert "means nothing in your standby" in d.message


# ---------------------------------------------------------------------------- if you do, it, that card
def test_if_you_do_without_may():
    d = only(card("  dimension:", "    draw 1 card", "    if you do: draw 1 card"))
    assert at(d) == (5, 5)
    assert (d.pos.end_line, d.pos.end_col) == (5, 14)
    assert d.message == "`if you do` has no `may` before it in this effect"


def test_if_you_do_before_the_may_is_still_an_error():
    d = only(card("  dimension:", "    if you do: draw 1 card", "    may draw 1 card"))
    assert at(d) == (4, 5)


def test_if_you_do_inside_the_may_itself():
    d = only(card("  dimension:", "    may if you do: draw 1 card"))
    assert at(d) == (4, 9)


def test_if_you_do_after_may_is_fine():
    assert_clean(card("  dimension:", "    may draw 1 card", "    if you do: draw 1 card"))


def test_it_before_anything_was_chosen():
    d = only(card("  dimension:", "    move it to your hand"))
    assert at(d) == (4, 10)
    assert d.message == "`it` does not refer to anything yet"


def test_draw_does_not_make_it_refer_to_the_drawn_card():
    d = only(card("  dimension:", "    draw 1 card", "    move it to your standby"))
    assert at(d) == (5, 10)


@pytest.mark.parametrize("first", [
    "    look at top card of your stock",
    "    choose a card on field",
    "    exhaust a ready stun in opponent's standby",
    "    move a card in your break to your hand",
])
def test_it_after_look_choose_exhaust_or_move_is_fine(first):
    assert_clean(card("  dimension:", first, "    may move it to bottom of owner's stock"))


def test_that_card_in_a_dimension_effect():
    d = only(card("  dimension:", "    move that card to owner's break"))
    assert at(d) == (4, 10)
    assert d.message == "`that card` has nothing to refer to: a dimension effect has no event"


def test_that_card_at_start_of_turn():
    d = only(card("  field at start of your turn:", "    move that card to your hand"))
    assert at(d) == (4, 10)
    assert d.message == "`that card` has nothing to refer to: `start of your turn` is not about a card"


def test_that_card_at_end_of_opponents_turn():
    d = only(card("  field at end of opponent's turn:", "    move that card to your hand"))
    assert "`end of opponent's turn` is not about a card" in d.message


def test_that_card_in_an_activated_effect():
    d = only(card("  field activated:", "    move that card to your hand"))
    assert d.message.endswith("an activated effect has no event")


def test_that_card_after_a_card_event_is_fine():
    assert_clean(card("  field when your other card on field becomes target:", "    swap this with that card"))


# ---------------------------------------------------------------------------- cancel, phases, colors
def test_cancel_that_play_outside_a_plays_event():
    d = only(card("  field when this is seized:", "    cancel that play"))
    assert at(d) == (4, 5)
    assert d.message == "`cancel that play` has no play to cancel"
    assert "R13.5" in d.hint


def test_cancel_that_play_after_a_play_is_fine():
    assert_clean(card("  field when opponent plays a card from hand:", "    cancel that play"))


def test_unknown_phase_suggests_one():
    d = only(card("  field activated during your gian phase:", "    draw 1 card"))
    assert at(d) == (3, 31)
    assert d.message == "unknown phase `gian`"
    assert d.hint == "did you mean `gain`?"


def test_unknown_phase_with_nothing_close_lists_the_phases_of_r5():
    d = only(card("  field activated during your upkeep phase:", "    draw 1 card"))
    assert d.hint == "phases are `start`, `draw`, `standby`, `gain` or `end` (R5)"


def test_unknown_point_color_in_add_points():
    d = only(card("  field activated during your gain phase:", "    add 2 bleu points"))
    assert at(d) == (4, 11)
    assert d.message == "unknown point color `bleu`"
    assert d.hint == "did you mean `blue`?"


def test_unknown_point_color_among_chosen_colors():
    d = only(card("  in standby static:", "    this gives points of one chosen color among blue, grene"))
    assert at(d) == (4, 55)
    assert d.message == "unknown point color `grene`"
    assert d.hint == "did you mean `green`?"


# ---------------------------------------------------------------------------- owner's
def test_owners_as_the_zone_cards_come_from():
    d = only(card("  dimension:", "    move a card in owner's break to your hand"))
    assert at(d) == (4, 20)
    assert (d.pos.end_line, d.pos.end_col) == (4, 27)
    assert d.message == "`owner's` only fits a destination"


def test_owners_as_a_card_owner():
    d = only(card("  dimension:", "    move an owner's card on field to your hand"))
    assert at(d) == (4, 13)


def test_owners_in_an_event():
    d = only(card("  field when owner's card leaves field:", "    draw 1 card"))
    assert at(d) == (3, 14)


def test_owners_as_a_destination_is_fine_and_only_the_source_is_reported():
    d = only(card("  dimension:", "    move every stack on owner's battle field to owner's break"))
    assert at(d) == (4, 25)


# ---------------------------------------------------------------------------- costs
ACTIVATED = "  field activated during your gain phase:"


def test_draw_is_not_a_cost():
    d = only(card(ACTIVATED, "    cost: draw 1 card", "    add 2 red points"))
    assert at(d) == (4, 11)
    assert d.message == "`draw` is not a cost you can pay"


def test_an_optional_cost():
    d = only(card(ACTIVATED, "    cost: may move this to your break", "    add 2 red points"))
    assert at(d) == (4, 11)
    assert d.message == "a cost cannot be optional"


def test_a_cost_paid_with_cards_that_may_not_be_yours():
    d = only(card(ACTIVATED, "    cost: move a card on field to your break", "    add 2 red points"))
    assert at(d) == (4, 16)
    assert d.message == "a cost must be paid with your own cards"


def test_a_cost_paid_with_the_opponents_hand():
    d = only(card(ACTIVATED, "    cost: move a card in opponent's hand to owner's break", "    add 1 red point"))
    assert at(d) == (4, 16)


def test_a_cost_that_gives_cards_to_the_opponent():
    d = only(card(ACTIVATED, "    cost: move this to opponent's hand", "    add 2 red points"))
    assert at(d) == (4, 24)
    assert d.message == "your card cannot go to opponent's hand"


@pytest.mark.parametrize("cost", [
    "    cost: move this to your break",
    "    cost: exhaust a ready stun in your standby",
    "    cost: move a card in your hand to your break",
    "    cost: move a card in your standby to your break",
])
def test_costs_you_pay_yourself_are_fine(cost):
    assert_clean(card(ACTIVATED, cost, "    add 2 red points"))


# ---------------------------------------------------------------------------- enter as a copy
def test_copy_in_a_field_effect():
    d = only(card("  field when this is seized:", "    enter as a copy of a card on field"))
    assert at(d) == (4, 5)
    assert d.message == "`enter as a copy of` must be the first action of a `dimension:` effect"
    assert "R7.2" in d.hint


def test_copy_as_the_second_action():
    d = only(card("  dimension:", "    draw 1 card", "    enter as a copy of a card on field"))
    assert at(d) == (5, 5)


def test_copy_inside_may():
    d = only(card("  dimension:", "    may enter as a copy of a card on field"))
    assert at(d) == (4, 9)


def test_copy_first_in_a_dimension_effect_is_fine():
    assert_clean(card("  dimension:", "    enter as a copy of a card on field"))


# ---------------------------------------------------------------------------- destinations
def test_only_a_standby_holds_stuns():
    d = only(card("  dimension:", "    move top card of your stock to your hand as ready stun"))
    assert at(d) == (4, 36)
    assert d.message == "only a standby holds stuns, not the hand"


def test_only_the_field_has_squares():
    d = only(card("  dimension:", "    move a card in your break to an empty square of your hand"))
    assert at(d) == (4, 53)
    assert d.message == "the hand has no squares"


# ---------------------------------------------------------------------------- all at once
def test_every_problem_is_reported_in_source_order():
    text = (
        'card T-001 "a" {\n'
        '  color bleu  cost 1  requires 2\n'
        '  dimension when this is seized:\n'
        '    move it to your hand\n'
        '}\n'
        'card T-001 "b" {\n'
        '  color red  cost 1  stun 0\n'
        '}\n'
    )
    found = problems(text)
    assert [at(d) for d in found] == [(2, 9), (2, 32), (3, 18), (4, 10), (6, 6), (7, 27)]
    assert [d.message.split(" ")[0] for d in found] == [
        "unknown", "required", "dimension", "`it`", "card", "stun"]


def test_rendered_diagnostic_has_path_line_col_caret_and_hint():
    text = 'card T-001 "a" {\n  color bleu  cost 2\n}\n'
    d = only(text)
    assert d.render(text).splitlines() == [
        "t.wg:2:9: error: unknown color `bleu`",
        "      color bleu  cost 2",
        "            ^^^^",
        "  hint: did you mean `blue`?",
    ]
