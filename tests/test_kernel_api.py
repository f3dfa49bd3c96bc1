"""The helpers engine-api.md fixes for every game (wgdsl/kernel/api.py).  Every expected
value below is read from the spec's text (../shared/spec/engine-api.md), quoted where it
is used."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wgdsl.kernel.api import Game, State, returns_for, rule_matches, same_number


# "a sole winner gets 1 and every other seat 0"
def test_a_sole_winner_gets_one_and_every_other_seat_zero():
    assert returns_for(("A", "B", "C"), ("B",)) == {"A": 0.0, "B": 1.0, "C": 0.0}
    assert returns_for(("A", "B"), ["A"]) == {"A": 1.0, "B": 0.0}


# "winners who tie share 1 equally"
def test_winners_who_tie_share_one_equally():
    r = returns_for(("A", "B", "C", "D"), ("A", "C"))
    assert r == {"A": 0.5, "B": 0.0, "C": 0.5, "D": 0.0}
    r = returns_for(("A", "B", "C", "D"), ("A", "B", "D"))
    assert r["C"] == 0.0 and r["A"] == r["B"] == r["D"] == pytest.approx(1 / 3)


# "a game that ends with no winner ... gives every seat 1/N"; "the returns sum to 1"
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_no_winner_gives_every_seat_one_over_n(n):
    seats = tuple("ABCDE"[:n])
    r = returns_for(seats, ())
    assert list(r) == list(seats)  # in seat order
    assert all(v == pytest.approx(1 / n) for v in r.values())
    assert sum(r.values()) == pytest.approx(1)


@pytest.mark.parametrize("winners", [(), ("A",), ("A", "B"), ("B", "C", "E")])
def test_the_returns_sum_to_one(winners):
    assert sum(returns_for("ABCDE", winners).values()) == pytest.approx(1)


def test_a_winner_not_among_the_seats_is_a_bug_that_names_it():
    with pytest.raises(ValueError, match=r"\['Z'\] not among the seats"):
        returns_for(("A", "B"), ("Z",))
    with pytest.raises(ValueError, match="no seats"):
        returns_for((), ())
    with pytest.raises(ValueError, match="named twice"):
        returns_for(("A", "A"), ())


# "A ruling case's rule matches when it equals the rule cited or is a prefix of it ending
# at a dot ("R9" matches "R9.2", never "R19")."
@pytest.mark.parametrize("expected, cited", [
    ("R9", "R9"), ("R9", "R9.2"), ("R9", "R9.2.1"), ("R9.2", "R9.2"), ("R9.2", "R9.2.3"),
    ("", ""),
])
def test_a_rule_matches_itself_and_a_rule_under_it(expected, cited):
    assert rule_matches(expected, cited)


@pytest.mark.parametrize("expected, cited", [
    ("R9", "R19"),      # the spec's own counter-example
    ("R1", "R19"),      # a prefix not ending at a dot
    ("R9", "R9a"),
    ("R9.2", "R9"),     # a narrower rule does not match a wider one
    ("R9.2", "R9.21"),
    ("R9", "R8.9"),
    ("R9", ""),
    ("", "R9"),         # no rule named is no match for a rule cited
    ("R9.", "R9.2"),    # "R9." is not a rule; its prefix would end at "R9.."
])
def test_a_rule_does_not_match_a_different_rule(expected, cited):
    assert not rule_matches(expected, cited)


# "Numbers in a case's expectations compare by value (40 equals 40.0)."
@pytest.mark.parametrize("a, b", [
    (40, 40.0), (40.0, 40), (0, -0.0), (0.5, Fraction(1, 2)),
    ({"hp": 40}, {"hp": 40.0}), ([1, 2.0], (1.0, 2)), ("x", "x"), (None, None),
    (True, True),
])
def test_numbers_compare_by_value(a, b):
    assert same_number(a, b)


@pytest.mark.parametrize("a, b", [
    (40, 41), (40, "40"), (True, 1), (1, True), (False, 0),
    ({"hp": 40}, {"hp": 40.0, "x": 1}), ([1, 2], [1]), (None, 0),
])
def test_different_values_do_not_compare_equal(a, b):
    assert not same_number(a, b)


def test_the_protocols_name_every_engine_api_name():
    """The names engine-api.md keeps are all in the protocols."""
    state_names = {"seats", "is_terminal", "current_seats", "legal_actions", "apply", "clone",
                   "observation", "resample", "to_dict", "returns", "winners", "win_reason",
                   "log", "parse_action"}
    game_names = {"id", "name", "seat_range", "new_state"}
    assert state_names <= set(dir(State)) | set(State.__annotations__)
    assert game_names <= set(dir(Game)) | set(Game.__annotations__)
