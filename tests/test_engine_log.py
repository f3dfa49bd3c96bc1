"""The event log says what an effect did not do, and why: each effect that resolves (card
and effect), each optional step declined or not offered, each condition not met and each
action that finds no card.  Only the wording of the log is at stake here: the same game
is played whether the log is kept or not."""

from __future__ import annotations

from helpers import LIB, act, board, play
from wgdsl.games.world_gainer.agents import ScriptedAgent
from wgdsl.games.world_gainer.engine import Action, Game
from wgdsl.games.world_gainer.state import GameState
from wgdsl.lang.cards import library_from_text
from wgdsl.tools.play import play_game


def texts(g) -> list[str]:
    return [text for _, _, _, text in g.log.entries]


def test_a_resolving_effect_names_its_card_and_which_effect():
    g = board(field={"A1": ("A", ["WG-020"]), "A2": ("A", ["WG-020"]), "A3": ("A", ["WG-020"]),
                     "C1": ("B", ["WG-006"])},
              hands={"A": ["WG-016"]}, pool={"A": {"green": 4}})
    play(g, "WG-016", "C1")  # paper seizes rock: WG-006 leaves for B's break
    assert "WG-006 ニビル星人: field effect (when this leaves field to break)" in texts(g)


def test_a_copy_resolving_its_copied_effect_says_so():
    g = board(field={"C1": ("B", ["WG-006"])}, hands={"A": ["WG-013"]},
              stocks={"A": ["WG-001"]}, pool={"A": {"red": 3}})
    play(g, "WG-013", "A1", copy="C1")
    act(g, "break_field", square="A1")
    assert "WG-013 as WG-006 ニビル星人: field effect (when this leaves field to break)" in texts(g)


def test_a_declined_may_is_logged():
    g = board(hands={"A": ["WG-001"]}, stocks={"A": ["WG-010"]}, pool={"A": {"blue": 1}},
              answers={"A": ["no"]})
    play(g, "WG-001", "A1")
    assert "WG-001 ウンモ星人: declined: may move it to bottom of your stock" in texts(g)


def test_a_may_without_a_legal_option_is_logged_as_not_offered():
    g = board(hands={"A": ["WG-008"]}, stocks={"A": ["WG-010"]}, pool={"A": {"blue": 4}})
    play(g, "WG-008", "A1")  # no sergeant in the stock: the may is not asked
    assert ('WG-008 月面派遣軍・隊長: not offered: may move a card named "月面派遣軍・曹長" in your '
            "stock to an empty square of your my field (it has no legal option)") in texts(g)
    assert g.agents["A"].asked == []


def test_a_condition_not_met_is_logged_with_the_numbers():
    g = board(field={"C1": ("B", ["WG-020"])}, hands={"A": ["WG-023"]}, stocks={"A": ["WG-010"]},
              pool={"A": {"green": 1}})
    play(g, "WG-023", "A1")  # A holds 1 square, B holds 1: not fewer
    assert ("WG-023 エササニ星人: not done: if you hold fewer squares than opponent: draw 1 card "
            "(not met: A holds 1 square, B holds 1 square)") in texts(g)


def test_an_action_that_finds_no_card_is_logged_with_why():
    g = board(hands={"A": ["WG-004"]}, standby={"B": ["WG-010:exhausted"]}, pool={"A": {"blue": 3}})
    play(g, "WG-004", "A1")
    assert ("WG-004 火星・タコ型: nothing to do: exhaust a ready stun in opponent's standby "
            "(no card matches)") in texts(g)


def test_a_choice_whose_cards_cannot_be_targeted_says_so():
    g = board(field={"A1": ("A", ["WG-020"]), "A2": ("A", ["WG-020"]), "A3": ("A", ["WG-020"]),
                     "C1": ("B", ["WG-005"])},
              hands={"A": ["WG-012"]}, pool={"A": {"red": 2}})
    play(g, "WG-012", "C2")
    assert ("WG-012 カマキリ型宇宙人: nothing to do: move an opponent's card of cost 2 or less on "
            "battle field to owner's break (the cards that match cannot be targeted (R13.4))"
            ) in texts(g)


def test_a_card_with_no_empty_square_to_go_to_stays_and_the_log_says_so(tmp_path):
    lib = library_from_text('card LQ-001 "q" en "Q" {\n  color red  cost 1\n  dimension:\n'
                            '    move this to an empty square of your my field\n}\n',
                            str(tmp_path / "q.wg"))
    st = GameState.empty(0)
    st.turn, st.phase = 3, "gain"
    for sq in ("A1", "A2", "A3"):
        st.put(st.new_instance("A", lib["LQ-001"]), "field", square=sq)
    st.put(st.new_instance("A", lib["LQ-001"]), "hand")
    st.players["A"].pool = {"red": 1}
    g = Game(st, lib, {"A": ScriptedAgent(), "B": ScriptedAgent()})
    g.apply(Action("play", "A", card="LQ-001", square="C1"))
    log = texts(g)
    assert "LQ-001 q stays where it is: no empty square of your my field" in log
    assert not any("moves from C1 to C1" in line for line in log)


def test_the_log_does_not_change_the_game():
    decks = {p: [c.id for c in LIB if not c.unique] * 2 for p in "AB"}
    for seed in range(3):
        with_log, r1 = play_game(LIB, decks, ("random", "random"), seed, "A", log=True)
        without, r2 = play_game(LIB, decks, ("random", "random"), seed, "A", log=False)
        assert r1 == r2
        assert without.log.entries == [] and with_log.log.entries
