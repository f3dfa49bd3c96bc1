"""Every WG01 card's effect through the engine's public API, per /work/shared/spec/wg01.md.

Expected outcomes are worked out by hand from wg01.md's table and rulings and from
rules.md.  Choices are answered by ScriptedAgents in the forms of ruling-format.md
(a square, a card id, ``slot N``, yes/no, a color); every test checks that each scripted
answer was used (no question too many, none too few).
"""

from __future__ import annotations

from collections import Counter

import pytest

from wgdsl.games.world_gainer.agents import BadAnswer

from helpers import (LIB, Action, act, answers_left, board, brk, field_ids, hand, play, pool,
                     refused, stock, stuns)

PLENTY = {"blue": 6, "green": 6, "red": 6}
A_HOME = {"A1": ("A", ["WG-001"]), "A2": ("A", ["WG-001"]), "A3": ("A", ["WG-001"])}


def home(**more):
    field = dict(A_HOME)
    field.update(more)
    return field


def all_used(g):
    assert answers_left(g) == {"A": [], "B": []}


def holder(g, sq):
    return g.state.holder(sq)


# ====================================================================== stats
STATS = {  # id: (color, mark, cost, required, stun) from wg01.md's table
    "WG-001": ("blue", "scissors", 1, 0, 1), "WG-002": ("blue", "scissors", 1, 1, 1),
    "WG-003": ("blue", "scissors", 2, 1, 1), "WG-004": ("blue", "scissors", 3, 1, 1),
    "WG-005": ("blue", "scissors", 2, 1, 1), "WG-006": ("red", "rock", 3, 1, 1),
    "WG-007": ("blue", "scissors", 2, 0, 1), "WG-008": ("blue", "scissors", 4, 2, 1),
    "WG-009": ("red", "rock", 2, 1, 1), "WG-010": ("blue", "scissors", 4, 2, 2),
    "WG-011": ("red", "rock", 3, 1, 1), "WG-012": ("red", "rock", 2, 1, 1),
    "WG-013": ("red", "rock", 3, 1, 1), "WG-014": ("red", "rock", 2, 1, 1),
    "WG-015": ("green", "paper", 3, 1, 1), "WG-016": ("green", "paper", 4, 2, 2),
    "WG-017": ("green", "paper", 2, 1, 1), "WG-018": ("red", "rock", 5, 2, 3),
    "WG-019": ("green", "paper", 3, 1, 1), "WG-020": ("red", "rock", 1, 0, 2),
    "WG-021": ("green", "paper", 2, 1, 1), "WG-022": ("green", "paper", 3, 1, 1),
    "WG-023": ("green", "paper", 1, 0, 1), "WG-024": ("green", "paper", 4, 2, 1),
    "WG-025": ("yellow", "all", 5, 5, 1),
}


def test_all_25_cards_have_the_tables_stats():
    assert sorted(c.id for c in LIB) == sorted(STATS)
    for cid, (color, mark, cost, req, stun) in STATS.items():
        c = LIB[cid]
        assert (c.color, c.mark, c.cost, c.required, c.stun) == (color, mark, cost, req, stun), cid
    assert LIB["WG-025"].unique and not any(LIB[c].unique for c in STATS if c != "WG-025")


@pytest.mark.parametrize("cid", sorted(set(STATS) - {"WG-007"}))  # WG-007 asks: see below
def test_every_card_as_a_stun_gives_its_stun_value_in_its_color(cid):
    color, _, _, _, stun = STATS[cid]
    g = board(standby={"A": [cid]})
    act(g, "exhaust", slot=1)
    assert pool(g, "A") == {color: stun}


@pytest.mark.parametrize("cid", ["WG-010", "WG-016", "WG-018", "WG-020"])
def test_stats_only_cards_have_no_effect_when_played(cid):
    g = board(hands={"A": [cid], "B": ["WG-001"]}, pool={"A": PLENTY},
              stocks={"A": ["WG-002"], "B": ["WG-002"]}, standby={"B": ["WG-001"]})
    play(g, cid, "A1")
    assert field_ids(g, "A1") == [cid]
    assert hand(g, "A") == [] and stock(g, "A") == ["WG-002"]
    assert hand(g, "B") == ["WG-001"] and stuns(g, "B")[0] == "WG-001"
    assert g.state.points("A") == STATS[cid][2]
    all_used(g)


# ====================================================================== WG-001
def test_wg001_may_put_top_card_on_bottom():
    g = board(hands={"A": ["WG-001"]}, pool={"A": PLENTY},
              stocks={"A": ["WG-010", "WG-016", "WG-018"]}, answers={"A": ["yes"]})
    play(g, "WG-001", "A1")
    assert stock(g, "A") == ["WG-016", "WG-018", "WG-010"]
    all_used(g)


def test_wg001_may_leave_top_card():
    g = board(hands={"A": ["WG-001"]}, pool={"A": PLENTY},
              stocks={"A": ["WG-010", "WG-016"]}, answers={"A": ["no"]})
    play(g, "WG-001", "A1")
    assert stock(g, "A") == ["WG-010", "WG-016"]
    all_used(g)


def test_wg001_with_empty_stock_asks_nothing():
    g = board(hands={"A": ["WG-001"]}, pool={"A": PLENTY})
    play(g, "WG-001", "A1")
    assert field_ids(g, "A1") == ["WG-001"]
    all_used(g)


# ====================================================================== WG-002
def test_wg002_draws_one_card():
    g = board(hands={"A": ["WG-002"]}, pool={"A": PLENTY}, stocks={"A": ["WG-010", "WG-016"]})
    play(g, "WG-002", "A1")
    assert hand(g, "A") == ["WG-010"]
    assert stock(g, "A") == ["WG-016"]


def test_wg002_requires_one_blue():
    g = board(hands={"A": ["WG-002"]}, pool={"A": {"red": 3}})
    refused(g, Action("play", "A", card="WG-002", square="A1"))


# ====================================================================== WG-003
def test_wg003_activated_breaks_itself_for_two_blue():
    g = board(field={"A1": ("A", ["WG-003"])}, pool={"A": {"red": 1}})
    assert Action("activate", "A", square="A1") in g.legal_actions()
    act(g, "activate", square="A1")
    assert field_ids(g, "A1") == []
    assert brk(g, "A") == ["WG-003"]
    assert pool(g, "A") == {"red": 1, "blue": 2}


def test_wg003_only_in_your_gain_phase_and_only_yours():
    g = board(field={"A1": ("A", ["WG-003"])}, phase="standby")
    refused(g, Action("activate", "A", square="A1"))
    assert Action("activate", "A", square="A1") not in g.legal_actions()
    g = board(field={"B1": ("B", ["WG-003"])})
    refused(g, Action("activate", "A", square="B1"))


def test_wg003_covered_cannot_be_activated():
    # R13.3: only top cards' field effects apply
    g = board(field={"A1": ("A", ["WG-003", "WG-010"])})
    refused(g, Action("activate", "A", square="A1"))


def test_wg003_broken_the_usual_way_gives_one_point():
    g = board(field={"A1": ("A", ["WG-003"])})
    act(g, "break_field", square="A1")
    assert pool(g, "A") == {"blue": 1}


# ====================================================================== WG-004
def test_wg004_exhausts_the_chosen_ready_stun_of_the_opponent():
    g = board(hands={"A": ["WG-004"]}, pool={"A": PLENTY},
              standby={"A": ["WG-010"], "B": ["WG-010", "WG-020:exhausted", "WG-018"]},
              answers={"A": ["slot 3"]})
    play(g, "WG-004", "A1")
    assert stuns(g, "B") == ["WG-010", "WG-020:exhausted", "WG-018:exhausted", "", ""]
    assert stuns(g, "A")[0] == "WG-010"
    all_used(g)


def test_wg004_single_ready_stun_is_taken_without_asking():
    g = board(hands={"A": ["WG-004"]}, pool={"A": PLENTY},
              standby={"B": ["WG-020:exhausted", "WG-016"]})
    play(g, "WG-004", "A1")
    assert stuns(g, "B")[:2] == ["WG-020:exhausted", "WG-016:exhausted"]
    all_used(g)


def test_wg004_no_ready_stun_does_nothing():
    g = board(hands={"A": ["WG-004"]}, pool={"A": PLENTY}, standby={"B": ["WG-016:exhausted"]})
    play(g, "WG-004", "A1")
    assert stuns(g, "B")[0] == "WG-016:exhausted"
    all_used(g)


# ====================================================================== WG-005
def test_wg005_cannot_be_chosen_by_wg012():
    g = board(field={"C1": ("B", ["WG-005"]), "C2": ("B", ["WG-014"])},
              hands={"A": ["WG-012"]}, pool={"A": PLENTY})
    play(g, "WG-012", "A1")  # only WG-014 can be chosen: no question
    assert field_ids(g, "C1") == ["WG-005"]
    assert field_ids(g, "C2") == []
    assert brk(g, "B") == ["WG-014"]
    all_used(g)


def test_wg005_cannot_be_copied_by_wg013_yours_or_the_opponents():
    g = board(field={"C1": ("B", ["WG-005"]), "A2": ("A", ["WG-005"])},
              hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    refused(g, Action("play", "A", card="WG-013", square="A1", copy="C1"))
    refused(g, Action("play", "A", card="WG-013", square="A1", copy="A2"))
    plays = [a for a in g.legal_actions() if a.kind == "play"]
    assert plays and all(a.copy is None for a in plays)


def test_wg005_can_still_be_seized():
    g = board(field=home(C1=("B", ["WG-005"])), hands={"A": ["WG-020"]}, pool={"A": PLENTY})
    play(g, "WG-020", "C1")  # rock beats scissors
    assert holder(g, "C1") == "A"


# ====================================================================== WG-006
def test_wg006_seized_goes_to_stock_bottom():
    g = board(field=home(C1=("B", ["WG-006"])), hands={"A": ["WG-016"]}, pool={"A": PLENTY},
              stocks={"B": ["WG-010"]})
    play(g, "WG-016", "C1")  # paper beats rock
    assert stock(g, "B") == ["WG-010", "WG-006"]
    assert brk(g, "B") == []


def test_wg006_aiko_opponents_goes_to_stock_bottom_played_one_stays_in_break():
    g = board(field=home(C1=("B", ["WG-006"])), hands={"A": ["WG-006"]}, pool={"A": PLENTY},
              stocks={"A": ["WG-010"], "B": ["WG-010"]})
    play(g, "WG-006", "C1")  # rock 3 vs rock 3: aiko
    assert field_ids(g, "C1") == []
    assert stock(g, "B") == ["WG-010", "WG-006"] and brk(g, "B") == []
    assert brk(g, "A") == ["WG-006"] and stock(g, "A") == ["WG-010"]  # R7.3


def test_wg006_traded_goes_to_stock_bottom():
    # B: red 1 under WG-006 (total 4, top 3); green 4 beats rock, 3 < 4 <= 4 → trade
    g = board(field=home(C1=("B", ["WG-020", "WG-006"])), hands={"A": ["WG-016"]},
              pool={"A": PLENTY})
    play(g, "WG-016", "C1")
    assert field_ids(g, "C1") == ["WG-020"] and holder(g, "C1") == "B"
    assert stock(g, "B") == ["WG-006"] and brk(g, "B") == []
    assert brk(g, "A") == ["WG-016"]


def test_wg006_played_and_broken_by_trade_stays_in_break():
    # B: blue 1 under blue 2 (total 3, top 2); rock 3 beats scissors, 2 < 3 <= 3 → trade
    g = board(field=home(C1=("B", ["WG-001", "WG-005"])), hands={"A": ["WG-006"]},
              pool={"A": PLENTY})
    play(g, "WG-006", "C1")
    assert brk(g, "A") == ["WG-006"] and stock(g, "A") == []
    assert field_ids(g, "C1") == ["WG-001"] and brk(g, "B") == ["WG-005"]


def test_wg006_broken_for_a_point_goes_to_stock_bottom():
    g = board(field={"A1": ("A", ["WG-006"])}, stocks={"A": ["WG-010"]})
    act(g, "break_field", square="A1")
    assert pool(g, "A") == {"red": 1}
    assert stock(g, "A") == ["WG-010", "WG-006"] and brk(g, "A") == []


def test_wg006_covered_leaves_by_replace_goes_to_stock_bottom():
    g = board(field={"A1": ("A", ["WG-006", "WG-018"])}, hands={"A": ["WG-016"]},
              pool={"A": PLENTY})
    play(g, "WG-016", "A1")  # R10.1: paper beats rock, the whole stack goes
    assert stock(g, "A") == ["WG-006"]
    assert brk(g, "A") == ["WG-018"]


def test_wg006_removed_by_wg025_covered_or_top_goes_to_stock_bottom():
    g = board(field={"C1": ("B", ["WG-006", "WG-018"]), "C2": ("B", ["WG-006"])},
              hands={"A": ["WG-025"]}, pool={"A": {"red": 5}})
    play(g, "WG-025", "A1")
    assert field_ids(g, "C1") == [] and field_ids(g, "C2") == []
    assert stock(g, "B") == ["WG-006", "WG-006"]
    assert brk(g, "B") == ["WG-018"]


def test_wg006_cost_3_cannot_be_chosen_by_wg012():
    # WG-012 chooses cost 2 or less: a WG-006 (cost 3) is never its target
    g = board(field={"C1": ("B", ["WG-006"])}, hands={"A": ["WG-012"]}, pool={"A": PLENTY})
    play(g, "WG-012", "A1")
    assert field_ids(g, "C1") == ["WG-006"]
    all_used(g)


def test_wg006_from_hand_by_wg009_stays_in_break():
    g = board(hands={"A": ["WG-009"], "B": ["WG-006"]}, pool={"A": PLENTY})
    play(g, "WG-009", "A1")
    assert brk(g, "B") == ["WG-006"] and stock(g, "B") == []


@pytest.mark.parametrize("how", ["discard_stun", "break_stun"])
def test_wg006_from_standby_stays_in_break(how):
    g = board(standby={"A": ["WG-006"]})
    act(g, how, slot=1)
    assert brk(g, "A") == ["WG-006"] and stock(g, "A") == []


def test_wg006_cancelled_play_returns_to_hand_not_stock():
    g = board(field={"C1": ("B", ["WG-019"])}, standby={"B": ["WG-020"]},
              hands={"A": ["WG-006"]}, pool={"A": PLENTY}, answers={"B": ["yes"]})
    play(g, "WG-006", "A1")
    assert hand(g, "A") == ["WG-006"] and stock(g, "A") == []
    all_used(g)


# ====================================================================== WG-007
@pytest.mark.parametrize("color", ["blue", "green", "red"])
def test_wg007_stun_points_of_the_chosen_color(color):
    g = board(standby={"A": ["WG-007", "WG-007"]}, answers={"A": [color, "red"]})
    act(g, "exhaust", slot=1)
    act(g, "break_stun", slot=2)
    expected = Counter({color: 1}) + Counter({"red": 1})
    assert pool(g, "A") == dict(expected)
    all_used(g)


def test_wg007_color_choice_offers_blue_green_red():
    g = board(standby={"A": ["WG-007"]}, answers={"A": ["yellow"]})
    with pytest.raises(BadAnswer, match="yellow"):  # yellow is not among its colors
        act(g, "exhaust", slot=1)
    q = g.agents["A"].asked[0]
    assert sorted(q.options) == ["blue", "green", "red"]


def test_wg007_on_the_field_is_just_blue():
    g = board(field={"A1": ("A", ["WG-007"])})
    act(g, "break_field", square="A1")
    assert pool(g, "A") == {"blue": 1}
    all_used(g)


def test_wg007_choice_pays_a_required_cost():
    # WG-016: cost 4, 2 green required
    g = board(standby={"A": ["WG-007", "WG-007", "WG-020"]}, hands={"A": ["WG-016"]},
              answers={"A": ["blue", "green"]})
    act(g, "exhaust", slot=1)
    act(g, "exhaust", slot=2)
    act(g, "exhaust", slot=3)
    refused(g, Action("play", "A", card="WG-016", square="A1"))  # 1 blue, 1 green, 2 red
    g2 = board(standby={"A": ["WG-007", "WG-007", "WG-020"]}, hands={"A": ["WG-016"]},
               answers={"A": ["green", "green"]})
    act(g2, "exhaust", slot=1)
    act(g2, "exhaust", slot=2)
    act(g2, "exhaust", slot=3)
    play(g2, "WG-016", "A1")
    assert field_ids(g2, "A1") == ["WG-016"]
    all_used(g2)


# ====================================================================== WG-008
def test_wg008_places_sergeant_from_stock_which_draws_after_the_shuffle():
    drawn = set()
    for seed in range(12):
        stock_cards = ["WG-010", "WG-002", "WG-016", "WG-018", "WG-020", "WG-014"]
        g = board(hands={"A": ["WG-008"]}, pool={"A": PLENTY}, stocks={"A": stock_cards},
                  answers={"A": ["yes", "A2"]}, seed=seed)
        play(g, "WG-008", "A1")
        assert field_ids(g, "A1") == ["WG-008"] and field_ids(g, "A2") == ["WG-002"]
        assert len(g.state.players["A"].hand) == 1
        rest = [c for c in stock_cards if c != "WG-002"]
        assert sorted(hand(g, "A") + stock(g, "A")) == sorted(rest)
        drawn.add(hand(g, "A")[0])
        kinds = [k for _, p, k, _ in g.log.entries if k in ("shuffle", "draw")]
        assert kinds == ["shuffle", "draw"]  # the Sergeant draws after the shuffle
        all_used(g)
    # drawing before the shuffle would always draw WG-010, the top card
    assert len(drawn) > 1


def test_wg008_may_decline_but_still_shuffles():
    g = board(hands={"A": ["WG-008"]}, pool={"A": PLENTY},
              stocks={"A": ["WG-010", "WG-002", "WG-016"]}, answers={"A": ["no"]})
    play(g, "WG-008", "A1")
    assert field_ids(g, "A2") == [] and field_ids(g, "A3") == []
    assert sorted(stock(g, "A")) == ["WG-002", "WG-010", "WG-016"]
    assert "shuffle" in [k for _, _, k, _ in g.log.entries]
    all_used(g)


def test_wg008_without_a_sergeant_in_stock_asks_nothing():
    # Sergeants in hand and break are not "in your stock"
    g = board(hands={"A": ["WG-008", "WG-002"]}, pool={"A": PLENTY}, stocks={"A": ["WG-010"]},
              breaks={"A": ["WG-002"]})
    play(g, "WG-008", "A1")
    assert [field_ids(g, s) for s in ("A2", "A3")] == [[], []]
    all_used(g)


def test_wg008_without_an_empty_my_field_square_asks_nothing():
    g = board(field={"A2": ("A", ["WG-001"]), "A3": ("A", ["WG-001"])},
              hands={"A": ["WG-008"]}, pool={"A": PLENTY}, stocks={"A": ["WG-002"]})
    play(g, "WG-008", "A1")
    assert stock(g, "A") == ["WG-002"]
    all_used(g)


# ====================================================================== WG-009
def test_wg009_puts_the_opponents_only_hand_card_into_break():
    g = board(hands={"A": ["WG-009", "WG-010"], "B": ["WG-016"]}, pool={"A": PLENTY})
    play(g, "WG-009", "A1")
    assert hand(g, "B") == [] and brk(g, "B") == ["WG-016"]
    assert hand(g, "A") == ["WG-010"]


def test_wg009_random_card_from_opponents_hand():
    seen = set()
    for seed in range(12):
        g = board(hands={"A": ["WG-009"], "B": ["WG-016", "WG-018", "WG-010"]},
                  pool={"A": PLENTY}, seed=seed)
        play(g, "WG-009", "A1")
        assert len(g.state.players["B"].hand) == 2 and len(brk(g, "B")) == 1
        assert sorted(hand(g, "B") + brk(g, "B")) == ["WG-010", "WG-016", "WG-018"]
        seen.add(brk(g, "B")[0])
        all_used(g)
    assert len(seen) > 1


def test_wg009_empty_hand_does_nothing():
    g = board(hands={"A": ["WG-009"]}, pool={"A": PLENTY})
    play(g, "WG-009", "A1")
    assert brk(g, "B") == []


# ====================================================================== WG-011
def test_wg011_draws_when_its_square_is_seized():
    g = board(field=home(C1=("B", ["WG-011"])), hands={"A": ["WG-016"]}, pool={"A": PLENTY},
              stocks={"B": ["WG-010", "WG-018"]})
    play(g, "WG-016", "C1")
    assert brk(g, "B") == ["WG-011"]
    assert hand(g, "B") == ["WG-010"] and stock(g, "B") == ["WG-018"]


def test_wg011_seized_by_same_mark_higher_cost_draws():
    g = board(field=home(C1=("B", ["WG-011"])), hands={"A": ["WG-018"]}, pool={"A": PLENTY},
              stocks={"B": ["WG-010"]})
    play(g, "WG-018", "C1")  # rock 5 > rock 3
    assert hand(g, "B") == ["WG-010"]


def test_wg011_aiko_does_not_draw():
    g = board(field=home(C1=("B", ["WG-011"])), hands={"A": ["WG-011"]}, pool={"A": PLENTY},
              stocks={"A": ["WG-001"], "B": ["WG-010"]})
    play(g, "WG-011", "C1")
    assert field_ids(g, "C1") == []
    assert hand(g, "B") == [] and hand(g, "A") == []


def test_wg011_trade_does_not_draw():
    g = board(field=home(C1=("B", ["WG-020", "WG-011"])), hands={"A": ["WG-016"]},
              pool={"A": PLENTY}, stocks={"B": ["WG-010"]})
    play(g, "WG-016", "C1")  # total 4, top 3: trade
    assert brk(g, "B") == ["WG-011"] and hand(g, "B") == []


def test_wg011_other_routes_do_not_draw():
    g = board(field={"A1": ("A", ["WG-011"]), "A2": ("A", ["WG-011"]), "C1": ("B", ["WG-011"])},
              hands={"A": ["WG-016"]}, pool={"A": PLENTY}, stocks={"A": ["WG-010"]})
    act(g, "break_field", square="A1")  # broken for a point
    play(g, "WG-016", "A2")  # replaced by its owner's own card (R10.1)
    assert hand(g, "A") == []
    g = board(field={"C1": ("B", ["WG-011"])}, hands={"A": ["WG-025"]}, pool={"A": {"red": 5}},
              stocks={"B": ["WG-010"]})
    play(g, "WG-025", "A1")  # removed by an effect
    assert brk(g, "B") == ["WG-011"] and hand(g, "B") == []


# ====================================================================== WG-012
def test_wg012_removes_a_cheap_opponents_battle_field_card():
    g = board(field={"C1": ("B", ["WG-014"]), "C2": ("B", ["WG-016"]), "B1": ("B", ["WG-020"]),
                     "C3": ("A", ["WG-001"])},
              hands={"A": ["WG-012"]}, pool={"A": PLENTY})
    play(g, "WG-012", "A1")  # C1 is the only choice: B1 is not the battle field, C3 is A's
    assert field_ids(g, "C1") == [] and brk(g, "B") == ["WG-014"]
    assert field_ids(g, "C2") == ["WG-016"] and field_ids(g, "B1") == ["WG-020"]
    assert field_ids(g, "C3") == ["WG-001"]
    all_used(g)


def test_wg012_asks_when_several_and_takes_only_the_top_card():
    g = board(field={"C1": ("B", ["WG-020", "WG-014"]), "C2": ("B", ["WG-023"])},
              hands={"A": ["WG-012"]}, pool={"A": PLENTY}, answers={"A": ["C1"]})
    play(g, "WG-012", "A1")
    assert field_ids(g, "C1") == ["WG-020"] and holder(g, "C1") == "B"
    assert field_ids(g, "C2") == ["WG-023"]
    assert brk(g, "B") == ["WG-014"]
    all_used(g)


def test_wg012_nothing_to_choose():
    g = board(field={"C1": ("B", ["WG-016"])}, hands={"A": ["WG-012"]}, pool={"A": PLENTY})
    play(g, "WG-012", "A1")
    assert field_ids(g, "C1") == ["WG-016"]
    all_used(g)


# ====================================================================== WG-013
def test_wg013_copies_color_mark_and_keeps_cost_3():
    g = board(field={"C1": ("B", ["WG-016"])}, hands={"A": ["WG-013"]},
              pool={"A": {"red": 1, "green": 2}})
    play(g, "WG-013", "A1", copy="C1")  # paid as itself: cost 3, 1 red required
    inst = g.state.top("A1")
    assert inst.id == "WG-013"
    assert (inst.face.color, inst.face.mark) == ("green", "paper")
    assert inst.cost == 3 and g.state.points("A") == 3
    assert pool(g, "A") == {}
    g = board(field={"C1": ("B", ["WG-016"])}, hands={"A": ["WG-013"]}, pool={"A": {"green": 4}})
    refused(g, Action("play", "A", card="WG-013", square="A1", copy="C1"))  # not green 2 req


def test_wg013_placement_is_judged_with_the_copied_mark():
    # own red 1 on A1: as paper the copy beats rock → replace; as rock it would stack
    g = board(field={"A1": ("A", ["WG-020"]), "C1": ("B", ["WG-016"]), "C2": ("B", ["WG-018"])},
              hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "A1", copy="C1")
    assert field_ids(g, "A1") == ["WG-013"] and brk(g, "A") == ["WG-020"]
    g = board(field={"A1": ("A", ["WG-020"]), "C1": ("B", ["WG-016"]), "C2": ("B", ["WG-018"])},
              hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "A1", copy="C2")
    assert field_ids(g, "A1") == ["WG-020", "WG-013"]


def test_wg013_copy_uses_its_own_cost_3_for_seize_aiko_and_illegal():
    # as a blue (scissors) card of cost 3 onto B's single blue cards
    g = board(field=home(C1=("B", ["WG-007"])), hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "C1", copy="C1")  # 3 > 2: seize
    assert holder(g, "C1") == "A" and g.state.top("C1").face.id == "WG-007"
    g = board(field=home(C1=("B", ["WG-004"])), hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "C1", copy="C1")  # 3 = 3: aiko
    assert field_ids(g, "C1") == [] and brk(g, "A") == ["WG-013"] and brk(g, "B") == ["WG-004"]
    g = board(field=home(C1=("B", ["WG-010"])), hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    refused(g, Action("play", "A", card="WG-013", square="C1", copy="C1"))  # 3 < 4


def test_wg013_copied_dimension_effect_triggers_for_its_controller():
    g = board(field={"B1": ("B", ["WG-002"])}, hands={"A": ["WG-013"]}, pool={"A": PLENTY},
              stocks={"A": ["WG-010"], "B": ["WG-016"]})
    play(g, "WG-013", "A1", copy="B1")
    assert hand(g, "A") == ["WG-010"] and hand(g, "B") == []


def test_wg013_copy_asked_when_not_given():
    g = board(field={"C1": ("B", ["WG-016"]), "C2": ("B", ["WG-018"])},
              hands={"A": ["WG-013"]}, pool={"A": PLENTY}, answers={"A": ["C1"]})
    play(g, "WG-013", "A1")
    assert g.state.top("A1").face.id == "WG-016"
    all_used(g)


def test_wg013_enters_as_itself_when_nothing_can_be_chosen():
    g = board(hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "A1")
    inst = g.state.top("A1")
    assert inst.face.id == "WG-013" and inst.face.mark == "rock"
    g = board(field={"C1": ("B", ["WG-005"])}, hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "A1")
    assert g.state.top("A1").face.id == "WG-013"
    all_used(g)


def test_wg013_leaving_the_field_is_a_plain_wg013_again():
    g = board(field={"C1": ("B", ["WG-016"])}, hands={"A": ["WG-013"]}, pool={"A": {"red": 3}})
    play(g, "WG-013", "A1", copy="C1")
    act(g, "break_field", square="A1")
    assert pool(g, "A") == {"green": 1}  # its color on the field was green
    inst = g.state.players["A"].break_[0]
    assert inst.face.id == "WG-013"


def test_wg013_copying_wg006_returns_to_stock_bottom():
    g = board(field={"C1": ("B", ["WG-006"])}, hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "A1", copy="C1")
    act(g, "break_field", square="A1")
    assert stock(g, "A") == ["WG-013"] and brk(g, "A") == []


def test_wg013_refused_play_changes_nothing():
    # onto C1 (B's blue 4): as a copy of a blue card its cost 3 is too low (R11.1); as a
    # copy of paper it loses.  Some card can be chosen, so it cannot enter as itself.
    g = board(field=home(C1=("B", ["WG-010"]), B2=("B", ["WG-016"])),
              hands={"A": ["WG-013"]}, pool={"A": PLENTY}, answers={"A": ["B2"]})
    refused(g, Action("play", "A", card="WG-013", square="C1", copy="B2"))
    refused(g, Action("play", "A", card="WG-013", square="C1", copy="C1"))
    assert not [a for a in g.legal_actions() if a.kind == "play" and a.square == "C1"]
    # without a named copy, the choice offers only copies that make the play legal
    # (ruling format: a choice offers its legal options); none does, so the play is
    # refused before anything is asked, and nothing changes (R7.1)
    g.agents["A"].answers = []
    refused(g, Action("play", "A", card="WG-013", square="C1"))
    assert g.agents["A"].asked == []


def test_wg013_only_copies_that_make_the_play_legal_are_offered():
    # onto B's blue WG-010 on C1 (cost 4): copying the red WG-020 on A1 beats it (rock >
    # scissors); copying a blue card would need cost above 4; so A1 is the only option
    g = board(field=home(A1=("A", ["WG-020"]), C1=("B", ["WG-010"]), B2=("B", ["WG-016"])),
              hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "C1")
    assert g.agents["A"].asked == []
    assert holder(g, "C1") == "A" and field_ids(g, "C1") == ["WG-013"]


# ====================================================================== WG-014
def test_wg014_onto_opponents_my_field_ignoring_priority():
    g = board(hands={"A": ["WG-014"]}, pool={"A": PLENTY})
    play(g, "WG-014", "B2")
    assert holder(g, "B2") == "A" and field_ids(g, "B2") == ["WG-014"]


def test_wg014_only_the_opponents_my_field_and_only_itself():
    g = board(hands={"A": ["WG-014", "WG-009"]}, pool={"A": PLENTY})
    assert refused(g, Action("play", "A", card="WG-014", square="C1")).rule == "R8.2"
    assert refused(g, Action("play", "A", card="WG-009", square="B1")).rule == "R8.2"
    squares = {a.square for a in g.legal_actions() if a.kind == "play" and a.card == "WG-014"}
    assert squares == {"A1", "A2", "A3", "B1", "B2", "B3"}


def test_wg014_r9_to_r11_still_decide():
    g = board(field={"B1": ("B", ["WG-010"]), "B2": ("B", ["WG-016"])},
              hands={"A": ["WG-014"]}, pool={"A": PLENTY})
    refused(g, Action("play", "A", card="WG-014", square="B2"))  # rock loses to paper
    play(g, "WG-014", "B1")  # rock beats scissors: seize
    assert holder(g, "B1") == "A" and brk(g, "B") == ["WG-010"]


def test_wg014_blocks_the_opponent_from_the_battle_field_until_taken_back():
    field = {"B1": ("A", ["WG-014"]), "B2": ("B", ["WG-001"]), "B3": ("B", ["WG-001"]),
             "C3": ("B", ["WG-001"])}
    g = board(field=field, hands={"B": ["WG-016", "WG-020"]}, pool={"B": PLENTY}, active="B")
    assert holder(g, "C3") == "B"  # R8.3: kept
    assert refused(g, Action("play", "B", card="WG-020", square="C1")).rule == "R8.2"
    assert {a.square for a in g.legal_actions() if a.kind == "play"} <= {"B1", "B2", "B3"}
    play(g, "WG-016", "B1")  # paper beats rock: B takes it back
    assert holder(g, "B1") == "B"
    g.state.played = False
    play(g, "WG-020", "C1")
    assert holder(g, "C1") == "B"


# ====================================================================== WG-015
def test_wg015_start_of_turn_may_put_a_break_card_on_stock_bottom():
    g = board(field={"A1": ("A", ["WG-015"])}, active="B", stocks={"A": ["WG-010"]},
              breaks={"A": ["WG-016", "WG-018"]}, answers={"A": ["yes", "WG-018"]})
    act(g, "end_turn")  # B ends: A's start phase, then A draws
    assert g.state.active == "A"
    assert brk(g, "A") == ["WG-016"]
    assert hand(g, "A") == ["WG-010"] and stock(g, "A") == ["WG-018"]
    all_used(g)


def test_wg015_may_decline():
    g = board(field={"A1": ("A", ["WG-015"])}, active="B", stocks={"A": ["WG-010"]},
              breaks={"A": ["WG-016"]}, answers={"A": ["no"]})
    act(g, "end_turn")
    assert brk(g, "A") == ["WG-016"] and stock(g, "A") == []
    all_used(g)


def test_wg015_empty_break_asks_nothing_and_not_on_opponents_turn():
    g = board(field={"A1": ("A", ["WG-015"])}, active="B", stocks={"A": ["WG-010"]})
    act(g, "end_turn")
    all_used(g)
    g = board(field={"A1": ("A", ["WG-015"])}, active="A", stocks={"B": ["WG-010"]},
              breaks={"A": ["WG-016"]})
    act(g, "end_turn")  # B's start: A's WG-015 does nothing
    assert brk(g, "A") == ["WG-016"]
    all_used(g)


def test_wg015_in_hand_or_covered_does_nothing():
    g = board(field={"A1": ("A", ["WG-015", "WG-016"])}, hands={"A": ["WG-015"]}, active="B",
              stocks={"A": ["WG-010"]}, breaks={"A": ["WG-016"]})
    act(g, "end_turn")
    assert brk(g, "A") == ["WG-016"]
    all_used(g)


# ====================================================================== WG-017
def test_wg017_top_of_stock_becomes_a_ready_stun():
    g = board(hands={"A": ["WG-017"]}, pool={"A": {"green": 2}},
              stocks={"A": ["WG-018", "WG-010"]}, standby={"A": ["WG-020:exhausted"]})
    play(g, "WG-017", "A1")
    assert stuns(g, "A") == ["WG-020:exhausted", "WG-018", "", "", ""]
    assert stock(g, "A") == ["WG-010"]
    act(g, "exhaust", slot=2)  # ready: usable at once
    assert pool(g, "A") == {"red": 3}


def test_wg017_full_standby_or_empty_stock_does_nothing():
    g = board(hands={"A": ["WG-017"]}, pool={"A": PLENTY}, stocks={"A": ["WG-018"]},
              standby={"A": ["WG-001"] * 5})
    play(g, "WG-017", "A1")
    assert stock(g, "A") == ["WG-018"]
    g = board(hands={"A": ["WG-017"]}, pool={"A": PLENTY})
    play(g, "WG-017", "A1")
    assert stuns(g, "A") == [""] * 5


# ====================================================================== WG-019
def wg019_board(answers, standby=("WG-020",), **kw):
    return board(field={"C1": ("B", ["WG-019"])}, standby={"B": list(standby)},
                 hands={"A": ["WG-010", "WG-020"]}, pool={"A": {"blue": 4, "red": 2}},
                 answers={"B": answers}, **kw)


def test_wg019_cancels_a_play_cost_stays_paid_play_counts():
    g = wg019_board(["yes"])
    play(g, "WG-010", "A1")
    assert field_ids(g, "A1") == []
    assert hand(g, "A") == ["WG-010", "WG-020"]
    assert sum(pool(g, "A").values()) == 2  # the cost 4 stays paid (R6.3: which 4 is
    # the engine's choice)
    assert stuns(g, "B")[0] == "" and brk(g, "B") == ["WG-020"]
    assert g.state.played
    assert refused(g, Action("play", "A", card="WG-020", square="A1")).rule == "R5.4"
    all_used(g)


def test_wg019_may_decline():
    g = wg019_board(["no"])
    play(g, "WG-010", "A1")
    assert field_ids(g, "A1") == ["WG-010"] and stuns(g, "B")[0] == "WG-020"
    all_used(g)


def test_wg019_chooses_which_ready_stun():
    g = wg019_board(["yes", "slot 3"], standby=("WG-020", "WG-010:exhausted", "WG-018"))
    play(g, "WG-010", "A1")
    assert stuns(g, "B") == ["WG-020", "WG-010:exhausted", "", "", ""]
    assert brk(g, "B") == ["WG-018"]
    all_used(g)


def test_wg019_without_a_ready_stun_is_not_asked():
    g = wg019_board([], standby=("WG-020:exhausted",))
    play(g, "WG-010", "A1")
    assert field_ids(g, "A1") == ["WG-010"]
    all_used(g)


def test_wg019_ignores_its_controllers_own_plays_and_effect_placements():
    g = board(field={"C1": ("A", ["WG-019"]), "A1": ("A", ["WG-001"]), "A2": ("A", ["WG-001"]),
                     "A3": ("A", ["WG-001"])},
              standby={"A": ["WG-020"]}, hands={"A": ["WG-010"]}, pool={"A": PLENTY})
    play(g, "WG-010", "C2")
    assert field_ids(g, "C2") == ["WG-010"]
    # B's WG-019 and A's Captain placing a Sergeant: that is no play from hand
    g = board(field={"C1": ("B", ["WG-019"])}, standby={"B": ["WG-020"]},
              hands={"A": ["WG-008"]}, pool={"A": PLENTY}, stocks={"A": ["WG-002"]},
              answers={"A": ["yes", "A2"], "B": ["no"]})
    play(g, "WG-008", "A1")  # B is asked once, about the Captain
    assert field_ids(g, "A2") == ["WG-002"]
    all_used(g)


def test_wg019_covered_does_nothing():
    g = board(field={"C1": ("B", ["WG-019", "WG-016"])}, standby={"B": ["WG-020"]},
              hands={"A": ["WG-010"]}, pool={"A": PLENTY})
    play(g, "WG-010", "A1")
    assert field_ids(g, "A1") == ["WG-010"]
    all_used(g)


# ====================================================================== WG-021
def test_wg021_chosen_break_card_to_hand():
    g = board(hands={"A": ["WG-021"]}, pool={"A": PLENTY}, breaks={"A": ["WG-010", "WG-016"]},
              answers={"A": ["WG-016"]})
    play(g, "WG-021", "A1")
    assert hand(g, "A") == ["WG-016"] and brk(g, "A") == ["WG-010"]
    all_used(g)


def test_wg021_single_or_no_break_card_asks_nothing():
    g = board(hands={"A": ["WG-021"]}, pool={"A": PLENTY}, breaks={"A": ["WG-010"], "B": ["WG-016"]})
    play(g, "WG-021", "A1")
    assert hand(g, "A") == ["WG-010"] and brk(g, "B") == ["WG-016"]
    g = board(hands={"A": ["WG-021"]}, pool={"A": PLENTY}, breaks={"B": ["WG-016"]})
    play(g, "WG-021", "A1")
    assert hand(g, "A") == [] and brk(g, "B") == ["WG-016"]
    all_used(g)


# ====================================================================== WG-022
def test_wg022_swaps_when_another_of_its_cards_is_targeted_effect_still_applies():
    g = board(field={"C1": ("B", ["WG-022"]), "C2": ("B", ["WG-020", "WG-014"])},
              hands={"A": ["WG-012"]}, pool={"A": PLENTY})
    play(g, "WG-012", "A1")  # targets C2's WG-014; the stacks swap, then WG-014 goes
    assert field_ids(g, "C2") == ["WG-022"] and holder(g, "C2") == "B"
    assert field_ids(g, "C1") == ["WG-020"] and holder(g, "C1") == "B"
    assert brk(g, "B") == ["WG-014"]
    all_used(g)


def test_wg022_not_when_itself_is_targeted():
    g = board(field={"C1": ("B", ["WG-022"]), "C2": ("B", ["WG-016"])},
              hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "A1", copy="C1")
    assert field_ids(g, "C1") == ["WG-022"] and field_ids(g, "C2") == ["WG-016"]


def test_wg022_reacts_to_a_copy_choice_and_the_copy_still_applies():
    g = board(field={"C1": ("B", ["WG-022"]), "C2": ("B", ["WG-016"])},
              hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    play(g, "WG-013", "A1", copy="C2")
    assert field_ids(g, "C1") == ["WG-016"] and field_ids(g, "C2") == ["WG-022"]
    assert g.state.top("A1").face.id == "WG-016"


def test_wg022_only_its_controllers_cards():
    # A's WG-022 does not react to A's WG-012 targeting B's card
    g = board(field={"C3": ("A", ["WG-022"]), "C1": ("B", ["WG-014"])},
              hands={"A": ["WG-012"]}, pool={"A": PLENTY})
    play(g, "WG-012", "A1")
    assert field_ids(g, "C3") == ["WG-022"] and field_ids(g, "C1") == []


def test_wg022_not_for_cards_off_the_field():
    g = board(field={"C1": ("B", ["WG-022"])}, standby={"B": ["WG-020"]},
              hands={"A": ["WG-004"]}, pool={"A": PLENTY})
    play(g, "WG-004", "A1")  # targets B's stun: no swap
    assert field_ids(g, "C1") == ["WG-022"] and stuns(g, "B")[0] == "WG-020:exhausted"


def test_wg022_does_not_react_to_wg025():
    g = board(field={"C1": ("B", ["WG-022"]), "C2": ("B", ["WG-014"]), "B1": ("B", ["WG-023"])},
              hands={"A": ["WG-025"]}, pool={"A": {"red": 5}})
    play(g, "WG-025", "A1")
    assert field_ids(g, "C1") == [] and field_ids(g, "C2") == []
    assert field_ids(g, "B1") == ["WG-023"]
    assert brk(g, "B") == ["WG-014", "WG-022"]


# ====================================================================== WG-023
def test_wg023_draws_when_holding_fewer_squares():
    g = board(field={"B1": ("B", ["WG-001"]), "B2": ("B", ["WG-001"])},
              hands={"A": ["WG-023"]}, pool={"A": PLENTY}, stocks={"A": ["WG-010"]})
    play(g, "WG-023", "A1")  # A 1 < B 2
    assert hand(g, "A") == ["WG-010"]


def test_wg023_no_draw_when_equal_after_it_is_placed():
    g = board(field={"B1": ("B", ["WG-001"])},
              hands={"A": ["WG-023"]}, pool={"A": PLENTY}, stocks={"A": ["WG-010"]})
    play(g, "WG-023", "A1")  # A 1 = B 1
    assert hand(g, "A") == []


# ====================================================================== WG-024
@pytest.mark.parametrize("card", ["WG-001", "WG-005", "WG-007"])  # scissors, cost 1 and 2
def test_wg024_cannot_be_seized_by_cost_2_or_less(card):
    g = board(field=home(C1=("B", ["WG-024"])), hands={"A": [card]}, pool={"A": PLENTY})
    err = refused(g, Action("play", "A", card=card, square="C1"))
    assert err.rule == "R11.3"
    assert not [a for a in g.legal_actions() if a.kind == "play" and a.square == "C1"]


def test_wg024_can_be_seized_by_cost_3():
    g = board(field=home(C1=("B", ["WG-024"])), hands={"A": ["WG-004"]}, pool={"A": PLENTY})
    play(g, "WG-004", "C1")
    assert holder(g, "C1") == "A" and brk(g, "B") == ["WG-024"]


def test_wg024_copy_of_cost_3_can_seize_it():
    g = board(field=home(C1=("B", ["WG-024"]), B1=("B", ["WG-005"]), B2=("B", ["WG-007"])),
              hands={"A": ["WG-013"]}, pool={"A": PLENTY})
    refused(g, Action("play", "A", card="WG-013", square="C1", copy="B1"))  # WG-005 untargetable
    play(g, "WG-013", "C1", copy="B2")  # scissors, cost 3
    assert holder(g, "C1") == "A"



# ====================================================================== WG-025
def test_wg025_clears_every_stack_the_opponent_holds_on_the_battle_field():
    g = board(field={"C1": ("B", ["WG-020", "WG-014"]), "C2": ("B", ["WG-016"]),
                     "C3": ("A", ["WG-001"]), "B1": ("B", ["WG-010"])},
              hands={"A": ["WG-025"]}, pool={"A": {"red": 5}})
    play(g, "WG-025", "A1")
    assert [field_ids(g, s) for s in ("C1", "C2")] == [[], []]
    assert field_ids(g, "C3") == ["WG-001"] and field_ids(g, "B1") == ["WG-010"]
    assert brk(g, "B") == ["WG-014", "WG-016", "WG-020"]
    assert g.state.points("B") == 4


def test_wg025_seizes_any_mark_then_clears_the_rest():
    g = board(field=home(C1=("B", ["WG-018"]), C2=("B", ["WG-016"])),
              hands={"A": ["WG-025"]}, pool={"A": {"blue": 5}})
    play(g, "WG-025", "C1")
    assert field_ids(g, "C1") == ["WG-025"] and holder(g, "C1") == "A"
    assert field_ids(g, "C2") == []
    assert brk(g, "B") == ["WG-016", "WG-018"]


def test_wg025_cannot_seize_a_stack_it_cannot_exceed():
    # beats the top card, but cost 5 ≤ top cost 5: illegal (R11.2)
    g = board(field=home(C1=("B", ["WG-020", "WG-018"])), hands={"A": ["WG-025"]},
              pool={"A": {"red": 5}})
    assert refused(g, Action("play", "A", card="WG-025", square="C1")).rule == "R11.2"


def test_wg025_emptied_battle_square_is_not_held_so_no_win():
    g = board(field=home(C1=("B", ["WG-016"]), C2=("A", ["WG-001"]), C3=("A", ["WG-001"])),
              hands={"A": ["WG-025"]}, pool={"A": {"red": 5}})
    play(g, "WG-025", "A1")  # all beats A's own scissors: replace (R10.1)
    assert field_ids(g, "A1") == ["WG-025"]
    assert field_ids(g, "C1") == []
    assert g.state.winner is None


# ====================================================================== more copies
def test_wg013_copy_takes_an_activated_effect():
    g = board(field={"C1": ("B", ["WG-003"])}, hands={"A": ["WG-013"]}, pool={"A": {"red": 3}})
    play(g, "WG-013", "A1", copy="C1")
    act(g, "activate", square="A1")
    assert field_ids(g, "A1") == [] and brk(g, "A") == ["WG-013"]
    assert pool(g, "A") == {"blue": 2}
    assert field_ids(g, "C1") == ["WG-003"]


def test_wg013_copy_takes_a_static_field_effect():
    # A's copy of WG-024 (paper, cost 3) on C1 cannot be seized by B's cost-2 scissors
    g = board(field=home(B1=("B", ["WG-024"]), B2=("B", ["WG-001"]), B3=("B", ["WG-001"])),
              hands={"A": ["WG-013"], "B": ["WG-005", "WG-004"]},
              pool={"A": {"red": 3}, "B": PLENTY}, stocks={"B": ["WG-010"]})
    play(g, "WG-013", "C1", copy="B1")
    act(g, "end_turn")
    act(g, "next")
    assert (g.state.active, g.state.phase) == ("B", "gain")
    assert refused(g, Action("play", "B", card="WG-005", square="C1")).rule == "R11.3"
    play(g, "WG-004", "C1")  # cost 3 may seize it
    assert holder(g, "C1") == "B" and brk(g, "A") == ["WG-013"]


def test_wg022_on_my_field_swaps_into_the_battle_field_and_effect_follows_the_target():
    g = board(field={"B1": ("B", ["WG-022"]), "C2": ("B", ["WG-014"])},
              hands={"A": ["WG-012"]}, pool={"A": PLENTY})
    play(g, "WG-012", "A1")
    assert field_ids(g, "C2") == ["WG-022"] and field_ids(g, "B1") == []
    assert brk(g, "B") == ["WG-014"]


def test_wg019_cancels_a_copy_which_returns_to_hand_as_itself():
    g = board(field={"C1": ("B", ["WG-019"])}, standby={"B": ["WG-020"]},
              hands={"A": ["WG-013"]}, pool={"A": {"red": 3}}, answers={"B": ["yes"]})
    play(g, "WG-013", "A1", copy="C1")
    assert field_ids(g, "A1") == [] and hand(g, "A") == ["WG-013"]
    assert g.state.players["A"].hand[0].face.id == "WG-013"
    assert pool(g, "A") == {} and g.state.played
    all_used(g)


def test_wg014_works_for_b_onto_as_my_field():
    g = board(hands={"B": ["WG-014"]}, pool={"B": PLENTY}, active="B")
    assert refused(g, Action("play", "B", card="WG-014", square="C2")).rule == "R8.2"
    play(g, "WG-014", "A3")
    assert holder(g, "A3") == "B"


def test_wg022_reacts_to_its_own_controllers_effect_too():
    # A's WG-013 copies A's own C2 card: A's WG-022 on C1 swaps with it, the copy applies
    g = board(field=home(C1=("A", ["WG-022"]), C2=("A", ["WG-018"])), hands={"A": ["WG-013"]},
              pool={"A": {"red": 3}})
    play(g, "WG-013", "C3", copy="C2")  # empty C3: A holds the whole battle field
    assert field_ids(g, "C1") == ["WG-018"] and field_ids(g, "C2") == ["WG-022"]
    assert g.state.top("C3").face.id == "WG-018"
    assert g.state.winner == "A" and g.state.win_reason == "R12.1"


def test_r13_5_two_alike_start_triggers_are_not_ordered_by_a_question():
    # R13.5 ruling: same card name, same effect, same zone (the field): no order question
    g = board(field={"A1": ("A", ["WG-015"]), "A2": ("A", ["WG-015"])}, active="B",
              stocks={"A": ["WG-010"]}, breaks={"A": ["WG-016", "WG-018"]},
              answers={"A": ["yes", "WG-016", "yes"]})
    act(g, "end_turn")
    assert stock(g, "A") == ["WG-016", "WG-018"] and hand(g, "A") == ["WG-010"]
    assert brk(g, "A") == []
    assert [q.kind for q in g.agents["A"].asked] == ["yes_no", "choice", "yes_no"]
    all_used(g)
