"""The rules tables through the engine's public API (R2.3, R4–R6, R8–R12).

Every expected outcome here is worked out by hand from /work/shared/spec/rules.md.
Boards are built directly (tests/helpers.py) and driven with ``Game.apply``.

Cards used for their stats (mark follows color, R2.2; blue = scissors, green = paper,
red = rock, yellow = all), chosen for having no effect in these positions:
WG-001 blue 1 (empty stock: nothing to look at), WG-005 blue 2, WG-007 blue 2,
WG-004 blue 3 (no opposing stun), WG-010 blue 4 (stun 2); WG-023 green 1 (no stock),
WG-017 green 2 (no stock), WG-015 green 3, WG-016 green 4 (stun 2), WG-024 green 4;
WG-020 red 1 (stun 2), WG-014 red 2, WG-011 red 3, WG-018 red 5 (stun 3);
WG-025 yellow 5 (required 5 of one color).
"""

from __future__ import annotations

import itertools

import pytest

from wgdsl.games.world_gainer import rules
from wgdsl.games.world_gainer.state import POINT_COLORS

from helpers import (Action, Game, LIB, act, board, brk, field_ids, hand, play, pool, refused,
                     snapshot, stock, stuns)

PLENTY = {"blue": 6, "green": 6, "red": 6}
A_HOME = {"A1": ("A", ["WG-001"]), "A2": ("A", ["WG-001"]), "A3": ("A", ["WG-001"])}


def holder(g, sq):
    return g.state.holder(sq)


# ====================================================================== R9
def test_r9_empty_square_is_taken():
    g = board(hands={"A": ["WG-010"]}, pool={"A": PLENTY})
    play(g, "WG-010", "A2")
    assert field_ids(g, "A2") == ["WG-010"]
    assert holder(g, "A2") == "A"
    assert g.state.points("A") == 4
    assert hand(g, "A") == []
    assert g.state.played


# ====================================================================== R10
def test_r10_1_beating_mark_replaces_whole_own_stack():
    # A1: blue 1 under blue 4 (scissors); red (rock) beats scissors
    g = board(field={"A1": ("A", ["WG-001", "WG-010"])}, hands={"A": ["WG-020"]},
              pool={"A": PLENTY})
    play(g, "WG-020", "A1")
    assert field_ids(g, "A1") == ["WG-020"]
    assert brk(g, "A") == ["WG-001", "WG-010"]
    assert g.state.points("A") == 1


def test_r10_2_same_mark_cost_above_stack_total_stacks():
    g = board(field={"A1": ("A", ["WG-001", "WG-005"])}, hands={"A": ["WG-010"]},
              pool={"A": PLENTY})
    play(g, "WG-010", "A1")  # blue 4 > total 1 + 2
    assert field_ids(g, "A1") == ["WG-001", "WG-005", "WG-010"]
    assert g.state.points("A") == 7
    assert brk(g, "A") == []


def test_r10_3_same_mark_cost_equal_to_stack_total_is_illegal():
    # the total (3), not the top card's cost (2), is what must be exceeded
    g = board(field={"A1": ("A", ["WG-001", "WG-005"])}, hands={"A": ["WG-004"]},
              pool={"A": PLENTY})
    err = refused(g, Action("play", "A", card="WG-004", square="A1"))
    assert err.rule == "R10.3"


@pytest.mark.parametrize("top, card", [
    ("WG-005", "WG-007"),   # same mark, equal cost 2
    ("WG-010", "WG-001"),   # same mark, lower cost
    ("WG-010", "WG-016"),   # paper loses to scissors
])
def test_r10_3_equal_lower_or_losing_is_illegal(top, card):
    g = board(field={"A1": ("A", [top])}, hands={"A": [card]}, pool={"A": PLENTY})
    err = refused(g, Action("play", "A", card=card, square="A1"))
    assert err.rule == "R10.3"
    assert card not in [a.card for a in g.legal_actions() if a.kind == "play" and a.square == "A1"]


def test_r10_4_own_card_broken_for_a_point_then_square_is_empty():
    g = board(field={"A1": ("A", ["WG-010"])}, hands={"A": ["WG-001"]}, pool={"A": {}})
    act(g, "break_field", square="A1")
    assert pool(g, "A") == {"blue": 1}
    play(g, "WG-001", "A1")  # R9 now: cost 1 paid with the point just made
    assert field_ids(g, "A1") == ["WG-001"]
    assert pool(g, "A") == {}


# ====================================================================== R11.1
def battle(c1, holder_="B", hand_card=None, pool_=None, **kw):
    field = dict(A_HOME)
    field["C1"] = (holder_, c1)
    return board(field=field, hands={"A": [hand_card]}, pool={"A": pool_ or PLENTY}, **kw)


def test_r11_1_beating_mark_seizes_single_card_even_with_lower_cost():
    g = battle(["WG-016"], hand_card="WG-005")  # scissors (2) beats paper (4)
    play(g, "WG-005", "C1")
    assert field_ids(g, "C1") == ["WG-005"] and holder(g, "C1") == "A"
    assert brk(g, "B") == ["WG-016"]


def test_r11_1_same_mark_greater_cost_seizes():
    g = battle(["WG-023"], hand_card="WG-016")  # paper 4 vs paper 1
    play(g, "WG-016", "C1")
    assert field_ids(g, "C1") == ["WG-016"] and holder(g, "C1") == "A"
    assert brk(g, "B") == ["WG-023"]


def test_r11_1_same_mark_equal_cost_is_aiko():
    g = battle(["WG-016"], hand_card="WG-024")  # paper 4 vs paper 4
    play(g, "WG-024", "C1")
    assert field_ids(g, "C1") == [] and holder(g, "C1") is None
    assert brk(g, "A") == ["WG-024"]
    assert brk(g, "B") == ["WG-016"]
    assert g.state.played


@pytest.mark.parametrize("top, card", [
    ("WG-016", "WG-017"),   # same mark, lower cost
    ("WG-010", "WG-016"),   # paper loses to scissors
])
def test_r11_1_lower_or_losing_is_illegal(top, card):
    g = battle([top], hand_card=card)
    err = refused(g, Action("play", "A", card=card, square="C1"))
    assert err.rule == "R11.1"


# ====================================================================== R11.2
# B's stack on C1: red 1 under red 2 (rock), total S = 3, top cost 2
STACK = ["WG-020", "WG-014"]


def test_r11_2_beats_and_cost_above_total_seizes_whole_stack():
    g = battle(STACK, hand_card="WG-016")  # paper 4 > 3
    play(g, "WG-016", "C1")
    assert field_ids(g, "C1") == ["WG-016"] and holder(g, "C1") == "A"
    assert brk(g, "B") == ["WG-014", "WG-020"]


def test_r11_2_beats_and_top_cost_below_cost_up_to_total_trades():
    g = battle(STACK, hand_card="WG-015")  # paper 3: 2 < 3 <= 3
    play(g, "WG-015", "C1")
    assert field_ids(g, "C1") == ["WG-020"] and holder(g, "C1") == "B"
    assert brk(g, "A") == ["WG-015"]
    assert brk(g, "B") == ["WG-014"]
    assert g.state.points("B") == 1


def test_r11_2_beats_with_cost_not_above_top_card_is_illegal_no_aiko_on_stacks():
    g = battle(STACK, hand_card="WG-017")  # paper 2 = top cost 2
    err = refused(g, Action("play", "A", card="WG-017", square="C1"))
    assert err.rule == "R11.2"


@pytest.mark.parametrize("card", ["WG-018",   # same mark (rock), cost 5 > total 3
                                  "WG-010"])  # scissors loses to rock
def test_r11_2_same_mark_or_losing_onto_a_stack_is_illegal(card):
    g = battle(STACK, hand_card=card)
    err = refused(g, Action("play", "A", card=card, square="C1"))
    assert err.rule == "R11.2"


# ====================================================================== R2.3 marks
@pytest.mark.parametrize("top", ["WG-018", "WG-016", "WG-010"])  # rock 5, paper 4, scissors 4
def test_r2_3_all_beats_every_mark(top):
    g = board(field={"A1": ("A", [top])}, hands={"A": ["WG-025"]}, pool={"A": {"red": 5}})
    play(g, "WG-025", "A1")  # R10.1: beats → replace
    assert field_ids(g, "A1") == ["WG-025"]
    assert brk(g, "A") == [top]


@pytest.mark.parametrize("card", ["WG-018", "WG-016", "WG-010"])
def test_r2_3_every_mark_loses_to_all(card):
    g = battle(["WG-025"], hand_card=card)
    err = refused(g, Action("play", "A", card=card, square="C1"))
    assert err.rule == "R11.1"


def test_r2_3_all_against_all_is_same_aiko():
    g = battle(["WG-025"], hand_card="WG-025", pool_={"green": 5})
    play(g, "WG-025", "C1")  # same mark, equal cost 5 → aiko
    assert field_ids(g, "C1") == []
    assert brk(g, "A") == ["WG-025"] and brk(g, "B") == ["WG-025"]


def test_r2_3_all_against_own_all_is_same_so_not_a_replace():
    g = board(field={"A1": ("A", ["WG-025"])}, hands={"A": ["WG-025"]}, pool={"A": {"red": 5}})
    err = refused(g, Action("play", "A", card="WG-025", square="A1"))
    assert err.rule == "R10.3"  # same, 5 ≤ 5


@pytest.mark.parametrize("card, top, beats", [
    ("WG-020", "WG-010", True),   # rock beats scissors
    ("WG-010", "WG-016", True),   # scissors beats paper
    ("WG-016", "WG-020", True),   # paper beats rock
    ("WG-010", "WG-020", False),
    ("WG-016", "WG-010", False),
    ("WG-020", "WG-016", False),
])
def test_r2_3_rock_paper_scissors(card, top, beats):
    g = battle([top], hand_card=card)
    if beats:
        play(g, card, "C1")
        assert holder(g, "C1") == "A"
    else:
        refused(g, Action("play", "A", card=card, square="C1"))


# ====================================================================== R8 priority
def test_r8_2_battle_field_needs_every_my_field_square():
    g = board(field={"A1": ("A", ["WG-001"]), "A2": ("A", ["WG-001"])},
              hands={"A": ["WG-010"]}, pool={"A": PLENTY})
    err = refused(g, Action("play", "A", card="WG-010", square="C1"))
    assert err.rule == "R8.2"
    refused(g, Action("play", "A", card="WG-010", square="B1"))
    plays = {a.square for a in g.legal_actions() if a.kind == "play"}
    assert plays == {"A1", "A2", "A3"}  # A1/A2: blue 4 stacks on blue 1 (R10.2)
    play(g, "WG-010", "A3")


def test_r8_2_my_field_squares_are_all_open_and_battle_opens_when_held():
    g = board(field=A_HOME, hands={"A": ["WG-010"]}, pool={"A": PLENTY})
    plays = {a.square for a in g.legal_actions() if a.kind == "play"}
    # blue 4 stacks on each blue 1 (R10.2) and may take the battle field now
    assert plays == {"A1", "A2", "A3", "C1", "C2", "C3"}
    refused(g, Action("play", "A", card="WG-010", square="B2"))
    play(g, "WG-010", "C2")
    assert holder(g, "C2") == "A"


def test_r8_1_rows_rank_from_each_players_side():
    # B's my field is B1-B3: with it held, B may play onto the battle field, not A's row
    g = board(field={"B1": ("B", ["WG-001"]), "B2": ("B", ["WG-001"]), "B3": ("B", ["WG-001"])},
              hands={"B": ["WG-020"]}, pool={"B": PLENTY}, active="B")
    refused(g, Action("play", "B", card="WG-020", square="A1"))
    play(g, "WG-020", "C3")
    assert holder(g, "C3") == "B"


def test_r8_3_lower_rows_stay_held_but_closed_when_a_higher_square_is_lost():
    # A3 is now B's (e.g. by WG-014): A keeps C1 and its points, cannot play on C2 / C1
    field = {"A1": ("A", ["WG-001"]), "A2": ("A", ["WG-001"]), "A3": ("B", ["WG-020"]),
             "C1": ("A", ["WG-001"])}
    g = board(field=field, hands={"A": ["WG-010"]}, pool={"A": PLENTY})
    assert holder(g, "C1") == "A"
    assert g.state.points("A") == 3
    assert refused(g, Action("play", "A", card="WG-010", square="C2")).rule == "R8.2"
    assert refused(g, Action("play", "A", card="WG-010", square="C1")).rule == "R8.2"
    plays = {a.square for a in g.legal_actions() if a.kind == "play"}
    assert plays == {"A1", "A2"}  # A3: scissors loses to B's rock


def test_r8_3_empty_higher_square_also_closes_lower_rows():
    field = {"A1": ("A", ["WG-001"]), "A2": ("A", ["WG-001"]), "C2": ("A", ["WG-001"])}
    g = board(field=field, hands={"A": ["WG-010"]}, pool={"A": PLENTY})
    refused(g, Action("play", "A", card="WG-010", square="C1"))
    play(g, "WG-010", "A3")
    assert holder(g, "C2") == "A"


# ====================================================================== R6 payment
def test_r6_3_required_color_must_be_in_pool():
    g = board(hands={"A": ["WG-010"]}, pool={"A": {"red": 6}})  # blue 4, 2 required blue
    assert refused(g, Action("play", "A", card="WG-010", square="A1")).rule == "R6.3"
    g = board(hands={"A": ["WG-010"]}, pool={"A": {"blue": 1, "red": 5}})
    assert refused(g, Action("play", "A", card="WG-010", square="A1")).rule == "R6.3"
    assert not [a for a in g.legal_actions() if a.kind == "play"]


def test_r6_3_total_cost_must_be_in_pool():
    g = board(hands={"A": ["WG-010"]}, pool={"A": {"blue": 3}})
    assert refused(g, Action("play", "A", card="WG-010", square="A1")).rule == "R6.3"


def test_r6_3_required_points_then_any_color():
    g = board(hands={"A": ["WG-010"]}, pool={"A": {"blue": 2, "red": 2}})
    play(g, "WG-010", "A1")
    assert pool(g, "A") == {}


def test_r6_3_required_counts_points_not_stuns():
    # one Bigfoot stun (value 2) pays the 2 required blue of a Bigfoot
    g = board(hands={"A": ["WG-010"]}, standby={"A": ["WG-010", "WG-020"]})
    act(g, "exhaust", slot=1)
    act(g, "exhaust", slot=2)
    assert pool(g, "A") == {"blue": 2, "red": 2}
    play(g, "WG-010", "A1")
    assert pool(g, "A") == {}


def test_r6_can_pay_says_what_payment_finds():
    """legal_actions asks rules.can_pay of every card in hand instead of building the
    payment: they must agree on every pool (R6.3, R6.4: yellow's required points of one
    color), here every pool of 0-3 points of each color (a color at 0: absent or 0),
    every cost 0-7, required 0-4, each color.  Broken on purpose (a yellow card's required
    points looked for in yellow alone), this fails."""
    for counts in itertools.product(range(4), repeat=len(POINT_COLORS)):
        for pool in ({c: n for c, n in zip(POINT_COLORS, counts) if n},
                     dict(zip(POINT_COLORS, counts))):
            total = sum(pool.values())
            for cost, required, color in itertools.product(range(8), range(5), POINT_COLORS):
                found = rules.payment(pool, cost, required, color) is not None
                assert rules.can_pay(pool, total, cost, required, color) == found, \
                    (pool, cost, required, color)


def test_r6_4_yellow_required_five_red_works():
    g = board(hands={"A": ["WG-025"]}, pool={"A": {"red": 5}})
    play(g, "WG-025", "A1")
    assert field_ids(g, "A1") == ["WG-025"]
    assert pool(g, "A") == {}


@pytest.mark.parametrize("p", [{"red": 4, "blue": 1}, {"red": 4, "blue": 2},
                               {"red": 2, "green": 2, "blue": 2}])
def test_r6_4_yellow_required_mixed_colors_is_refused(p):
    g = board(hands={"A": ["WG-025"]}, pool={"A": p})
    assert refused(g, Action("play", "A", card="WG-025", square="A1")).rule == "R6.3"


def test_r6_4_yellow_required_any_one_color():
    for color in ("blue", "green", "red"):
        g = board(hands={"A": ["WG-025"]}, pool={"A": {color: 5, "blue" if color != "blue" else "red": 1}})
        play(g, "WG-025", "A1")
        assert sum(pool(g, "A").values()) == 1


def test_r6_5_points_left_after_paying_stay_in_pool():
    g = board(hands={"A": ["WG-020"]}, pool={"A": {"red": 3}})
    play(g, "WG-020", "A1")
    assert pool(g, "A") == {"red": 2}


def test_r5_5_pool_cleared_at_end_of_turn():
    g = board(pool={"A": {"red": 3}}, stocks={"B": ["WG-001"]})
    act(g, "end_turn")
    assert g.state.active == "B" and g.state.phase == "standby"
    assert pool(g, "A") == {}


def test_r6_1_points_only_in_gain_phase():
    g = board(phase="standby", standby={"A": ["WG-010"]}, field={"A1": ("A", ["WG-001"])})
    assert refused(g, Action("exhaust", "A", slot=1)).rule == "R6.1"
    refused(g, Action("break_stun", "A", slot=1))
    refused(g, Action("break_field", "A", square="A1"))


# ====================================================================== R6.2 sources
@pytest.mark.parametrize("card, color, value", [
    ("WG-001", "blue", 1), ("WG-010", "blue", 2), ("WG-016", "green", 2),
    ("WG-018", "red", 3), ("WG-020", "red", 2),
])
def test_r6_2_exhaust_gives_stun_value_in_its_color(card, color, value):
    g = board(standby={"A": ["", card]})
    act(g, "exhaust", slot=2)
    assert pool(g, "A") == {color: value}
    assert stuns(g, "A") == ["", card + ":exhausted", "", "", ""]
    assert refused(g, Action("exhaust", "A", slot=2)).rule == "R6.2"


@pytest.mark.parametrize("card, color", [("WG-010", "blue"), ("WG-018", "red"),
                                         ("WG-001", "blue")])
def test_r6_2_breaking_a_ready_stun_gives_one_point(card, color):
    g = board(standby={"A": [card]})
    act(g, "break_stun", slot=1)
    assert pool(g, "A") == {color: 1}
    assert stuns(g, "A") == [""] * 5
    assert brk(g, "A") == [card]


def test_r6_2_exhausted_stun_cannot_be_broken_for_points_only_discarded():
    g = board(standby={"A": ["WG-018:exhausted"]})
    assert refused(g, Action("break_stun", "A", slot=1)).rule == "R6.2"
    assert not [a for a in g.legal_actions() if a.kind == "break_stun"]
    act(g, "discard_stun", slot=1)
    assert pool(g, "A") == {}
    assert brk(g, "A") == ["WG-018"]


def test_r6_2_break_field_top_card_gives_one_point_rest_stays_held():
    g = board(field={"A1": ("A", ["WG-020", "WG-018"])})
    act(g, "break_field", square="A1")
    assert pool(g, "A") == {"red": 1}  # cost 5 card, still 1 point
    assert field_ids(g, "A1") == ["WG-020"] and holder(g, "A1") == "A"
    assert brk(g, "A") == ["WG-018"]
    act(g, "break_field", square="A1")
    assert pool(g, "A") == {"red": 2}
    assert field_ids(g, "A1") == []


def test_r6_2_cannot_break_opponents_or_empty_square():
    g = board(field={"C1": ("B", ["WG-018"])})
    refused(g, Action("break_field", "A", square="C1"))
    refused(g, Action("break_field", "A", square="A1"))
    refused(g, Action("break_field", "A", square="Z9"))


def test_r6_2_stun_color_is_its_card_color():
    g = board(standby={"A": ["WG-016", "WG-014"]})
    act(g, "exhaust", slot=1)
    act(g, "break_stun", slot=2)
    assert pool(g, "A") == {"green": 2, "red": 1}


# ====================================================================== R5.3 stuns
def test_r5_3_one_stun_per_turn():
    g = board(phase="standby", hands={"A": ["WG-010", "WG-018"]})
    act(g, "set_stun", card="WG-010")
    assert stuns(g, "A") == ["WG-010", "", "", "", ""]
    assert hand(g, "A") == ["WG-018"]
    assert refused(g, Action("set_stun", "A", card="WG-018")).rule == "R5.3"
    assert not [a for a in g.legal_actions() if a.kind == "set_stun"]


def test_r5_3_at_most_five_stuns():
    g = board(phase="standby", hands={"A": ["WG-010"]}, standby={"A": ["WG-001"] * 5})
    assert refused(g, Action("set_stun", "A", card="WG-010")).rule == "R5.3"


def test_r5_3_new_stun_takes_lowest_empty_slot_and_slots_keep_positions():
    g = board(phase="standby", hands={"A": ["WG-010"]},
              standby={"A": ["WG-020", "", "WG-018:exhausted"]})
    act(g, "set_stun", card="WG-010")
    assert stuns(g, "A") == ["WG-020", "WG-010", "WG-018:exhausted", "", ""]
    act(g, "discard_stun", slot=1)  # standby phase: discard allowed, no points
    assert stuns(g, "A") == ["", "WG-010", "WG-018:exhausted", "", ""]
    assert pool(g, "A") == {}


def test_r5_3_stun_only_set_in_standby_phase():
    g = board(phase="gain", hands={"A": ["WG-010"]})
    refused(g, Action("set_stun", "A", card="WG-010"))


def test_r5_3_discard_in_gain_phase_gives_no_points():
    g = board(standby={"A": ["WG-018"]})
    act(g, "discard_stun", slot=1)
    assert pool(g, "A") == {}
    assert brk(g, "A") == ["WG-018"]


def test_r5_3_set_stun_needs_the_card_in_hand():
    g = board(phase="standby", hands={"A": ["WG-010"]})
    refused(g, Action("set_stun", "A", card="WG-018"))


# ====================================================================== R5.4
def test_r5_4_one_play_per_turn():
    g = board(hands={"A": ["WG-010", "WG-020"]}, pool={"A": PLENTY})
    play(g, "WG-010", "A1")
    assert refused(g, Action("play", "A", card="WG-020", square="A2")).rule == "R5.4"
    assert not [a for a in g.legal_actions() if a.kind == "play"]


def test_r5_4_play_only_in_gain_phase():
    g = board(phase="standby", hands={"A": ["WG-020"]}, pool={"A": PLENTY})
    refused(g, Action("play", "A", card="WG-020", square="A1"))


def test_r5_4_limit_resets_next_turn():
    g = board(hands={"A": ["WG-020"], "B": ["WG-020"]}, pool={"B": PLENTY}, played=True,
              stocks={"B": ["WG-001"]})
    act(g, "end_turn")
    act(g, "next")  # B: standby → gain
    play(g, "WG-020", "B1")
    assert holder(g, "B1") == "B"


def test_only_the_active_player_acts():
    g = board(hands={"B": ["WG-020"]}, pool={"B": PLENTY})
    refused(g, Action("play", "B", card="WG-020", square="B1"))
    refused(g, Action("next", "B"))


# ====================================================================== R5 phases
def test_r5_phases_next_and_end_turn():
    g = board(phase="standby", stocks={"A": ["WG-001"], "B": ["WG-010", "WG-016"]})
    act(g, "next")
    assert g.state.phase == "gain" and g.state.active == "A"
    act(g, "next")  # gain → end → B's start, draw, standby
    assert (g.state.active, g.state.phase, g.state.turn) == ("B", "standby", 4)
    assert hand(g, "B") == ["WG-010"]  # R5.2: draw 1 from the top
    assert stock(g, "B") == ["WG-016"]


def test_r5_1_start_readies_active_players_stuns_only():
    g = board(standby={"A": ["WG-010:exhausted"], "B": ["WG-016:exhausted"]},
              stocks={"A": ["WG-001"], "B": ["WG-001"]})
    act(g, "end_turn")
    assert stuns(g, "B")[0] == "WG-016"
    assert stuns(g, "A")[0] == "WG-010:exhausted"


# ====================================================================== R4 setup
DECK = [c.id for c in LIB if c.id != "WG-025"] + ["WG-010"] * 16  # 24 + 16 = 40


def new_game(seed, first="A"):
    return Game.new(LIB, {"A": list(DECK), "B": list(DECK)}, seed=seed, first=first,
                    agents={})


def test_r4_1_seven_cards_each_and_first_player_skips_first_draw():
    g = new_game(5)
    st = g.state
    assert (st.active, st.phase, st.turn) == ("A", "standby", 1)
    for p in "AB":
        assert len(st.players[p].hand) == 7
        assert len(st.players[p].stock) == 33
        assert sorted(hand(g, p) + stock(g, p)) == sorted(DECK)
    act(g, "end_turn")
    assert (st.active, st.phase, st.turn) == ("B", "standby", 2)
    assert len(st.players["B"].hand) == 8  # B's first turn does draw
    act(g, "end_turn")
    assert len(st.players["A"].hand) == 8  # A's second turn draws


def test_r4_2_first_player_may_be_b():
    g = new_game(5, first="B")
    assert g.state.active == "B"
    assert len(g.state.players["B"].hand) == 7


def test_r4_1_seeded_shuffle_is_reproducible():
    a, b = new_game(11), new_game(11)
    for p in "AB":
        assert hand(a, p) == hand(b, p) and stock(a, p) == stock(b, p)
    orders = {tuple(stock(new_game(s), "A")) for s in range(5)}
    assert len(orders) > 1  # the seed matters
    assert stock(new_game(3), "A") != DECK[7:]  # and the stock is shuffled


# ====================================================================== R12 winning
def test_r12_1_holding_all_three_battle_squares_wins_after_the_play():
    field = dict(A_HOME)
    field.update({"C1": ("A", ["WG-001"]), "C2": ("A", ["WG-001"])})
    g = board(field=field, hands={"A": ["WG-020"]}, pool={"A": PLENTY})
    play(g, "WG-020", "C3")
    assert g.state.winner == "A" and g.state.win_reason == "R12.1"
    assert g.over and g.legal_actions() == []
    with pytest.raises(Exception):
        act(g, "next")


def test_r12_2_fifteen_points_wins():
    field = {"A1": ("A", ["WG-018"]), "A2": ("A", ["WG-020", "WG-014", "WG-018"])}  # 5 + 8
    g = board(field=field, hands={"A": ["WG-014"]}, pool={"A": PLENTY})
    play(g, "WG-014", "A3")  # 15
    assert g.state.winner == "A" and g.state.win_reason == "R12.2"


def test_r12_2_fourteen_points_does_not_win():
    field = {"A1": ("A", ["WG-018"]), "A2": ("A", ["WG-020", "WG-014", "WG-018"])}
    g = board(field=field, hands={"A": ["WG-020"]}, pool={"A": PLENTY})
    play(g, "WG-020", "A3")  # 14
    assert g.state.winner is None


def test_r12_2_points_in_any_row_count():
    field = {"A1": ("A", ["WG-018"]), "A2": ("A", ["WG-018"]), "A3": ("A", ["WG-001"])}
    g = board(field=field, hands={"A": ["WG-010"]}, pool={"A": PLENTY})
    play(g, "WG-010", "C2")  # 5 + 5 + 1 + 4
    assert g.state.winner == "A" and g.state.win_reason == "R12.2"


def test_r12_3_must_draw_from_empty_stock_loses():
    g = board(stocks={"A": ["WG-001"]})  # B's stock is empty
    act(g, "end_turn")
    assert g.state.winner == "A" and g.state.win_reason == "R12.3"


def test_r12_3_through_setup_with_seven_card_decks():
    deck = ["WG-010"] * 7
    g = Game.new(LIB, {"A": deck, "B": deck}, seed=0, agents={})
    assert g.state.winner is None  # A skips the first draw
    act(g, "end_turn")
    assert g.state.winner == "A" and g.state.win_reason == "R12.3"


def test_r12_checked_after_any_action_not_only_plays():
    field = {"B1": ("B", ["WG-018"]), "B2": ("B", ["WG-018"]), "B3": ("B", ["WG-018"])}
    g = board(field=field, standby={"A": ["WG-001"]})
    act(g, "exhaust", slot=1)
    assert g.state.winner == "B" and g.state.win_reason == "R12.2"


def test_r12_4_both_meet_a_condition_the_active_player_wins():
    field = dict(A_HOME)
    field.update({"C1": ("A", ["WG-001"]), "C2": ("A", ["WG-001"]),
                  "B1": ("B", ["WG-018"]), "B2": ("B", ["WG-018"]), "B3": ("B", ["WG-018"])})
    g = board(field=field, hands={"A": ["WG-020"]}, pool={"A": PLENTY})
    play(g, "WG-020", "C3")
    assert g.state.winner == "A"


def test_r12_checked_after_an_effect():
    # A: 8 on A1, 2 on C1 (kept by R8.3); the Captain brings 4 → 14, the Sergeant it
    # places from the stock brings the 15th point: A wins when that effect resolves
    field = {"A1": ("A", ["WG-020", "WG-014", "WG-018"]), "C1": ("A", ["WG-014"])}
    g = board(field=field, hands={"A": ["WG-008"]}, pool={"A": PLENTY},
              stocks={"A": ["WG-002", "WG-010"]}, answers={"A": ["yes"]})
    play(g, "WG-008", "A2")
    assert field_ids(g, "A3") == ["WG-002"]
    assert g.state.winner == "A" and g.state.win_reason == "R12.2"


# ====================================================================== refusals
def test_refused_actions_leave_everything_unchanged():
    g = board(field={"A1": ("A", ["WG-010"]), "C1": ("B", ["WG-016"])},
              hands={"A": ["WG-020", "WG-025"]}, standby={"A": ["WG-018:exhausted", "WG-001"]},
              pool={"A": {"red": 2}}, stocks={"A": ["WG-001"]})
    before = snapshot(g)
    for a in [Action("play", "A", card="WG-025", square="A2"),      # R6.4 pool
              Action("play", "A", card="WG-020", square="C1"),      # R8.2
              Action("play", "A", card="WG-018", square="A2"),      # not in hand
              Action("play", "A", card="WG-020", square="X1"),      # no such square
              Action("break_stun", "A", slot=1),                    # exhausted
              Action("exhaust", "A", slot=3),                       # empty slot
              Action("exhaust", "A", slot=9),
              Action("break_field", "A", square="C1"),              # B's card
              Action("set_stun", "A", card="WG-020"),               # gain phase
              Action("activate", "A", square="A1"),                 # no activated effect
              Action("play", "B", card="WG-020", square="B1"),      # not B's turn
              Action("fly", "A")]:
        refused(g, a)
    assert snapshot(g) == before


def test_every_legal_action_listed_is_accepted():
    field = dict(A_HOME)
    field.update({"C1": ("B", ["WG-016"]), "C2": ("B", ["WG-020", "WG-014"])})
    base = dict(field=field, hands={"A": ["WG-010", "WG-015", "WG-018", "WG-005"]},
                standby={"A": ["WG-018", "WG-001:exhausted"]}, pool={"A": PLENTY},
                stocks={"A": ["WG-001"], "B": ["WG-001"]})
    actions = board(**base).legal_actions()
    assert actions
    for a in actions:
        board(**base).apply(a)  # none raises


def test_r7_2_a_won_game_ends_before_the_dimension_effect():
    field = {"A1": ("A", ["WG-018"]), "A2": ("A", ["WG-020", "WG-014", "WG-018"]),
             "A3": ("A", ["WG-020"])}  # 5 + 8 + 1
    g = board(field=field, hands={"A": ["WG-002"]}, pool={"A": PLENTY},
              stocks={"A": ["WG-010"]})
    play(g, "WG-002", "C1")  # 15: A wins; the Sergeant's draw never happens
    assert g.state.winner == "A" and g.state.win_reason == "R12.2"
    assert hand(g, "A") == [] and stock(g, "A") == ["WG-010"]


def test_r5_2_ruling_effect_draw_from_empty_stock_draws_nothing():
    g = board(hands={"A": ["WG-002"]}, pool={"A": PLENTY})
    play(g, "WG-002", "A1")
    assert g.state.winner is None and hand(g, "A") == []


def test_an_activated_ability_without_a_phase_is_listed_and_usable_in_the_standby_phase():
    """legal_actions() offers exactly what apply() accepts: an ability with no `during`
    clause works whenever its controller may act (R13.2), the standby phase included."""
    from pathlib import Path

    from wgdsl.games.world_gainer.state import GameState
    from wgdsl.lang.cards import library_from_text

    lib = library_from_text(Path(LIB.path).read_text(encoding="utf-8") + '''
card XP-50 "いつでも" en "Any Time" {
  color blue  cost 2  requires 1
  field activated:
    cost: move this to your break
    add 1 blue point
}
''', "t.wg")
    st = GameState.empty(0)
    st.turn, st.phase = 3, "standby"
    st.put(st.new_instance("A", lib["XP-50"]), "field", square="A1")
    game = Game(st, lib, {})
    assert Action("activate", "A", square="A1") in game.legal_actions()
    game.apply(Action("activate", "A", square="A1"))
    assert st.field["A1"] == [] and st.players["A"].pool == {"blue": 1}
