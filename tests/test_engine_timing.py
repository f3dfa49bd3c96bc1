"""R13.5's rulings on timing and ruling-format's `end_turn`, through the engine's API.

Expected outcomes are worked out from /work/shared/spec/rules.md (R13.5 "Rulings on
timing") and ruling-format.md, not from the engine's output.
"""

from __future__ import annotations

from helpers import Action, Game, act, board, brk, field_ids, hand, play, stock, stuns
from wgdsl.games.world_gainer.agents import ScriptedAgent
from wgdsl.games.world_gainer.state import PLAYERS, GameState
from wgdsl.lang.cards import library_from_text


def asked(g, p):
    return [(q.kind, q.options) for q in g.agents[p].asked]


def all_used(g):
    assert {p: g.agents[p].remaining() for p in PLAYERS} == {"A": [], "B": []}


# ---------------------------------------------------------------------------- end_turn
def test_end_turn_from_the_start_phase_runs_into_the_next_players_standby():
    g = board(phase="start", stocks={"A": ["WG-001"], "B": ["WG-018", "WG-002"]},
              standby={"A": ["WG-010:exhausted"]})
    act(g, "end_turn")
    st = g.state
    assert (st.active, st.phase, st.turn) == ("B", "standby", 4)
    assert hand(g, "A") == ["WG-001"]  # A's draw phase ran
    assert stuns(g, "A")[0] == "WG-010"  # A's start phase readied it (R5.1)
    assert hand(g, "B") == ["WG-018"] and stock(g, "B") == ["WG-002"]


def test_end_turn_from_the_draw_phase_runs_into_the_next_players_standby():
    g = board(phase="draw", stocks={"A": ["WG-001"], "B": ["WG-018"]})
    act(g, "end_turn")
    assert (g.state.active, g.state.phase) == ("B", "standby")
    assert hand(g, "A") == ["WG-001"] and hand(g, "B") == ["WG-018"]


def test_end_turn_from_the_draw_phase_with_an_empty_stock_ends_the_game():
    g = board(phase="draw", stocks={"B": ["WG-018"]})
    act(g, "end_turn")
    assert g.state.winner == "B" and g.state.win_reason == "R12.3"
    assert g.state.active == "A"


# ---------------------------------------------------------------------------- order of triggers
def test_alike_triggers_are_not_ordered_by_a_question():
    # two WG-019 on the field respond to one play: same name, effect and zone
    g = board(field={"C1": ("B", ["WG-019"]), "B1": ("B", ["WG-019"])},
              standby={"B": ["WG-010", "WG-016"]}, hands={"A": ["WG-020"]}, pool={"A": ["red"]},
              answers={"B": ["no", "no"]})
    play(g, "WG-020", "A1")
    assert [kind for kind, _ in asked(g, "B")] == ["yes_no", "yes_no"]
    assert field_ids(g, "A1") == ["WG-020"]
    all_used(g)


def test_triggers_that_can_be_told_apart_are_ordered_by_their_controller():
    # A plays WG-023 (paper) onto its own WG-006 (rock): WG-006 leaves (its effect) and
    # WG-023 enters (its dimension effect); A has fewer squares than B and an empty stock
    g = board(field={"A1": ("A", ["WG-006"]), "C1": ("B", ["WG-020"]), "C2": ("B", ["WG-020"])},
              hands={"A": ["WG-023"]}, pool={"A": ["green"]}, answers={"A": ["WG-006"]})
    play(g, "WG-023", "A1")
    assert asked(g, "A") == [("choice", ("WG-006", "A1"))]
    # WG-006 first: it goes to the stock bottom, and WG-023 then draws it
    assert hand(g, "A") == ["WG-006"] and stock(g, "A") == []
    all_used(g)


def test_the_other_order_gives_the_other_outcome():
    g = board(field={"A1": ("A", ["WG-006"]), "C1": ("B", ["WG-020"]), "C2": ("B", ["WG-020"])},
              hands={"A": ["WG-023"]}, pool={"A": ["green"]}, answers={"A": ["A1"]})
    play(g, "WG-023", "A1")
    assert hand(g, "A") == [] and stock(g, "A") == ["WG-006"]


# ---------------------------------------------------------------------------- cancelled plays
def test_a_cancelled_play_gets_no_further_response():
    g = board(field={"C1": ("B", ["WG-019"]), "B1": ("B", ["WG-019"])},
              standby={"B": ["WG-010", "WG-016"]}, hands={"A": ["WG-020"]}, pool={"A": ["red"]},
              answers={"B": ["yes", "slot 1"]})
    play(g, "WG-020", "A1")
    assert hand(g, "A") == ["WG-020"] and g.state.played
    assert brk(g, "B") == ["WG-010"] and stuns(g, "B")[:2] == ["", "WG-016"]
    assert [kind for kind, _ in asked(g, "B")] == ["yes_no", "choice"]
    texts = [text for _, _, _, text in g.log.entries]
    assert any("does not resolve: the play of WG-020 is cancelled (R13.5)" in t for t in texts)
    all_used(g)


def test_a_declined_response_leaves_the_next_one_its_question():
    g = board(field={"C1": ("B", ["WG-019"]), "B1": ("B", ["WG-019"])},
              standby={"B": ["WG-010", "WG-016"]}, hands={"A": ["WG-020"]}, pool={"A": ["red"]},
              answers={"B": ["no", "yes", "slot 2"]})
    play(g, "WG-020", "A1")
    assert hand(g, "A") == ["WG-020"] and brk(g, "B") == ["WG-016"]
    all_used(g)


# ---------------------------------------------------------------------------- the board changes
def test_a_swap_makes_the_copy_illegal_there_and_it_ends_like_a_cancelled_play():
    g = board(field={"A1": ("A", ["WG-020"]), "A2": ("A", ["WG-020"]), "A3": ("A", ["WG-020"]),
                     "C1": ("B", ["WG-022"]), "C2": ("B", ["WG-010"])},
              hands={"A": ["WG-013"]}, pool={"A": {"red": 4}})
    play(g, "WG-013", "C1", copy="C2")
    assert field_ids(g, "C1") == ["WG-010"] and field_ids(g, "C2") == ["WG-022"]  # swapped
    assert hand(g, "A") == ["WG-013"] and g.state.players["A"].hand[0].copy_of is None
    assert g.state.played and sum(g.state.players["A"].pool.values()) == 1


RESPONDER = '''include "wg01"

card TT-001 "堀" en "Moat" {
  color green  cost 3  requires 1
  field when opponent plays a card from hand:
    move an opponent's card on my field to owner's break
}
'''


def test_a_response_that_breaks_field_priority_makes_the_play_end_like_a_cancelled_one(tmp_path):
    # R8.2 is judged again on the board as it now is: A no longer holds all its my field
    lib = library_from_text(RESPONDER, str(tmp_path / "moat.wg"))
    st = GameState.empty(0)
    st.turn, st.phase = 3, "gain"
    for sq in ("A1", "A2", "A3"):
        st.put(st.new_instance("A", lib["WG-020"]), "field", square=sq)
    st.put(st.new_instance("B", lib["TT-001"]), "field", square="B1")
    st.put(st.new_instance("A", lib["WG-018"]), "hand")
    st.players["A"].pool = {"red": 5}
    g = Game(st, lib, {"A": ScriptedAgent(), "B": ScriptedAgent(["A1"])})
    g.apply(Action("play", "A", card="WG-018", square="C1"))
    assert [c.id for c in st.players["A"].hand] == ["WG-018"]
    assert st.field["C1"] == [] and st.field["A1"] == [] and st.played
    assert st.players["A"].pool == {}
    assert any("R8.2" in text for _, _, _, text in g.log.entries)


def test_a_copy_of_a_card_leaves_with_that_cards_leave_effect():
    g = board(field={"C1": ("B", ["WG-006"])}, hands={"A": ["WG-013"]},
              stocks={"A": ["WG-001"]}, pool={"A": {"red": 3}})
    play(g, "WG-013", "A1", copy="C1")
    act(g, "break_field", square="A1")
    assert stock(g, "A") == ["WG-001", "WG-013"] and brk(g, "A") == []


def test_wg017_puts_the_stun_into_the_lowest_empty_slot_without_asking():
    g = board(hands={"A": ["WG-017"]}, stocks={"A": ["WG-018"]},
              standby={"A": ["WG-010:exhausted", "", "WG-020"]}, pool={"A": ["green", "green"]})
    play(g, "WG-017", "A1")
    assert stuns(g, "A") == ["WG-010:exhausted", "WG-018", "WG-020", "", ""]
    assert asked(g, "A") == []
