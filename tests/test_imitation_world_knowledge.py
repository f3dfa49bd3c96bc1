"""IW R22.3-R22.4: what each seat's observation shows — knowledge per card and seat."""

from __future__ import annotations

import wgdsl
from wgdsl.games.imitation_world.board import state_from_board

GAME = wgdsl.load_game("imitation-world")


def board(**a_player):
    return {"active": "A", "turn": 3, "phase": "cost", "territory": None, "players": {
        "A": {"aga": "IW-001", "hand": ["IW-004", "IW-005"], "deck": ["IW-025", "IW-026"],
              "barriers": ["IW-027"], "cost": {"existence": ["IW-028"]}, **a_player},
        "B": {"aga": "IW-002", "hand": ["IW-065"], "barriers": ["?"] * 5}}}


def test_a_card_leaving_a_hand_face_down_blurs_the_whole_hand_for_the_opponent():
    state = state_from_board(GAME, GAME.table(), board())
    for u in state.d.hand["A"]:  # B saw both cards enter A's hand (say, from a trash)
        state.d.kn[u] |= 2
    assert state.observation("B")["players"]["A"]["hand"] == ["IW-004", "IW-005"]
    state.apply("A", "cost IW-005 to existence")
    seen = state.observation("B")["players"]["A"]
    assert seen["hand"] == ["?"]  # it cannot tell which card went
    assert seen["cost"] == {"existence": ["?", "?"]}  # the marker and the size only
    mine = state.observation("A")["players"]["A"]
    assert mine["hand"] == ["IW-004"] and sorted(mine["cost"]["existence"]) == ["IW-005",
                                                                                  "IW-028"]
    assert state.log_view("B")[-1]["text"] == "A puts ? into the existence pile"
    assert state.log_view("A")[-1]["text"] == "A puts IW-005 into the existence pile"


def test_hidden_zones_show_as_question_marks_to_the_opponent_only():
    state = state_from_board(GAME, GAME.table(), board())
    a_by_b = state.observation("B")["players"]["A"]
    assert a_by_b["aga"] == "hidden" and a_by_b["barriers"] == ["?"]
    assert a_by_b["deck"] == ["?", "?"] and "deck_list" not in a_by_b
    a_by_a = state.observation("A")["players"]["A"]
    assert a_by_a["aga"] == "IW-001" and a_by_a["barriers"] == ["IW-027"]
    assert a_by_a["deck"] == ["?", "?"]  # nobody knows the deck's order (R22.1)
    assert a_by_a["deck_list"] == sorted(["IW-001", "IW-004", "IW-005", "IW-025", "IW-026",
                                          "IW-027", "IW-028"])


def test_a_destroyed_last_barrier_goes_to_hand_unseen_and_the_aga_turns_face_up():
    b = board()
    b["phase"] = "battle"
    b["players"]["B"] = {"aga": "IW-002", "barriers": ["IW-070"]}
    b["players"]["A"]["set"] = [{"card": "IW-063"}]  # 7/6
    state = state_from_board(GAME, GAME.table(), b)
    state.apply("A", "attack A:IW-063 player")
    b_by_a = state.observation("A")["players"]["B"]
    assert b_by_a["hand"] == ["?"] and b_by_a["barriers"] == []
    assert b_by_a["aga"] == "IW-002" and b_by_a["aga_face_up"]
    assert state.observation("B")["players"]["B"]["hand"] == ["IW-070"]
