"""Effects that never end (docs/language.md): the engine stops a chain that repeats itself
at a documented limit and raises RunawayEffects naming the cards and the cycle; every
command reports it cleanly.  The cards are the reproducers of /work/shared/repro
(13, 19, 22) and small variants; none of them can end by itself, so any answer other
than the error would be a hang.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import wgdsl.games.world_gainer.engine as engine
from wgdsl.cli import main
from wgdsl.games.world_gainer.agents import Agent
from wgdsl.games.world_gainer.engine import Action, Game
from wgdsl.games.world_gainer.state import PLAYERS, GameState
from wgdsl.kernel.errors import RunawayEffects
from wgdsl.lang.cards import library_from_text
from loop_cards import TWO_CARDS

SELF_MOVE = '''card LQ-001 "q" en "Q" {
  color red  cost 1  requires 0
  dimension:
    move this to an empty square of your my field
}
'''
LEAVE_AND_RETURN = '''card LP-001 "loop" en "Loop" {
  color red  cost 1  requires 0
  dimension:
    move this to owner's break
  field when this leaves field:
    move this to an empty square of your my field
}
'''
ECHO = '''card RR-001 "echo" en "Echo" {
  color red  cost 1
  field when your other card on field becomes target:
    choose an your other card on field
}
'''
# a chain that ends: each copy in hand puts the next one onto the field
GIFT = '''card GF-001 "gift" en "Gift" {
  color red  cost 1
  dimension:
    move a card named "gift" in your hand to an empty square of field
}
'''
DRAW_MANY = '''card DR-001 "d" en "D" {
  color red  cost 1  requires 0
  dimension:
    draw 40 cards
}
'''


class First(Agent):
    """Answers every question with its first option (a loop asks the same ones forever)."""

    def answer(self, view, question):
        return question.options[0]


def library(text: str, tmp_path: Path):
    path = tmp_path / "set.wg"
    path.write_text('include "wg01"\n\n' + text, encoding="utf-8")
    return library_from_text(path.read_text(encoding="utf-8"), str(path))


def game(lib, field=None, hands=None, stocks=None, active="A", pool=None, log=True) -> Game:
    st = GameState.empty(0)
    st.turn, st.phase, st.active = 3, "gain", active
    for sq, (holder, cards) in (field or {}).items():
        for cid in cards:
            st.put(st.new_instance(holder, lib[cid]), "field", square=sq)
    for p, cards in (hands or {}).items():
        for cid in cards:
            st.put(st.new_instance(p, lib[cid]), "hand")
    for p, cards in (stocks or {}).items():
        for cid in cards:
            st.put(st.new_instance(p, lib[cid]), "stock")
    st.players[active].pool = pool or {"red": 5}
    return Game(st, lib, {p: First() for p in PLAYERS}, log=log)


def runaway(g: Game, action: Action) -> RunawayEffects:
    start = time.perf_counter()
    with pytest.raises(RunawayEffects) as info:
        g.apply(action)
    assert time.perf_counter() - start < 1.0, "the limit must stop the chain within a second"
    return info.value


# ---------------------------------------------------------------------------- the engine
def test_a_card_that_re_enters_forever_is_stopped_and_named(tmp_path):
    g = game(library(SELF_MOVE, tmp_path), hands={"A": ["LQ-001"]})
    err = runaway(g, Action("play", "A", card="LQ-001", square="A1"))
    assert err.cards == ("LQ-001",)
    assert err.cycle == ("LQ-001 (dimension)",)
    assert err.message.startswith("effects never end: LQ-001 (dimension) → LQ-001 (dimension) …")
    assert f"stopped after {engine.MAX_RESOLUTIONS} effect resolutions in one action" in err.message
    assert "docs/language.md" in err.message


def test_leaving_and_coming_back_is_a_cycle_of_two_effects(tmp_path):
    g = game(library(LEAVE_AND_RETURN, tmp_path), hands={"A": ["LP-001"]})
    err = runaway(g, Action("play", "A", card="LP-001", square="A1"))
    assert err.cycle == ("LP-001 (dimension)", "LP-001 (when this leaves field)")
    assert "LP-001 (dimension) → LP-001 (when this leaves field) → LP-001 (dimension)" in err.message


def test_two_cards_that_send_a_card_back_and_forth(tmp_path):
    # repro 22: WG-020 enters, the gate sends it to the break, the revive brings it back
    g = game(library(TWO_CARDS, tmp_path), field={"A1": ("A", ["LP-001"]), "A2": ("A", ["LP-002"])},
             hands={"A": ["WG-020"]})
    err = runaway(g, Action("play", "A", card="WG-020", square="A3"))
    assert set(err.cards) == {"LP-001", "LP-002"}
    assert sorted(err.cycle) == ["LP-001 (when your other card enters field)",
                                 "LP-002 (when your other card leaves field to break)"]


def test_responses_inside_responses_are_stopped_before_python_recursion_fails(tmp_path):
    # B's mantid targets A's echo on C1; A's other echo responds by targeting it again, ...
    g = game(library(ECHO, tmp_path), active="B",
             field={"C1": ("A", ["RR-001"]), "A1": ("A", ["RR-001"])}, hands={"B": ["WG-012"]})
    err = runaway(g, Action("play", "B", card="WG-012", square="B1"))
    assert err.cards == ("RR-001",)
    assert f"stopped at {engine.MAX_RESPONSE_DEPTH} responses inside responses" in err.message


def test_the_log_of_a_stopped_action_is_cut_and_ends_with_the_message(tmp_path):
    g = game(library(SELF_MOVE, tmp_path), hands={"A": ["LQ-001"]})
    err = runaway(g, Action("play", "A", card="LQ-001", square="A1"))
    kinds = [kind for _, _, kind, _ in g.log.entries]
    assert len(kinds) < 100
    assert kinds[-2:] == ["runaway", "runaway"]
    assert "log lines of the repeating chain left out" in g.log.entries[-2][3]
    assert g.log.entries[-1][3] == err.message


def test_the_limit_counts_one_action_and_a_chain_below_it_ends_normally(tmp_path, monkeypatch):
    lib = library(GIFT, tmp_path)
    monkeypatch.setattr(engine, "MAX_RESOLUTIONS", 4)
    monkeypatch.setattr(engine, "_TRACE_FROM", 0)
    # the played gift and three more from hand: 4 resolutions, the last finds no gift left
    g = game(lib, hands={"A": ["GF-001"] * 4})
    g.apply(Action("play", "A", card="GF-001", square="A1"))
    assert [g.state.top(sq).id for sq in ("A1", "A2", "A3", "C1")] == ["GF-001"] * 4
    # a fifth would be one resolution too many
    g = game(lib, hands={"A": ["GF-001"] * 5})
    with pytest.raises(RunawayEffects):
        g.apply(Action("play", "A", card="GF-001", square="A1"))


def test_the_count_starts_again_with_each_action(tmp_path, monkeypatch):
    lib = library(GIFT, tmp_path)
    monkeypatch.setattr(engine, "MAX_RESOLUTIONS", 2)
    monkeypatch.setattr(engine, "_TRACE_FROM", 0)
    g = game(lib, hands={"A": ["GF-001", "GF-001"], "B": ["GF-001", "GF-001"]},
             stocks={"A": ["WG-020"], "B": ["WG-020"]}, pool={"red": 1})
    g.apply(Action("play", "A", card="GF-001", square="A1"))  # 2 resolutions
    g.apply(Action("end_turn", "A"))
    g.apply(Action("next", "B"))
    g.state.players["B"].pool = {"red": 1}
    g.apply(Action("play", "B", card="GF-001", square="B1"))  # 2 more, in a new action
    assert g.state.squares_held("B") == 2 and g.state.squares_held("A") == 2


def test_a_long_draw_stops_when_the_stock_is_empty(tmp_path):
    # R5.2 ruling: an effect's draw from an empty stock draws nothing; it is said once, and
    # the rest of the count is not tried (the checker caps a draw at 40, see
    # test_card_numbers; `draw 1000000000 cards` is an error there)
    g = game(library(DRAW_MANY, tmp_path), hands={"A": ["DR-001"]}, stocks={"A": ["WG-020"] * 3})
    start = time.perf_counter()
    g.apply(Action("play", "A", card="DR-001", square="A1"))
    assert time.perf_counter() - start < 1.0
    assert len(g.state.players["A"].hand) == 3 and g.state.players["A"].stock == []
    texts = [text for _, _, _, text in g.log.entries]
    assert texts.count("draws nothing: the stock is empty (R5.2)") == 1
    assert g.state.winner is None  # an effect's draw never loses the game (R5.2, R12.3)


# ---------------------------------------------------------------------------- the commands
def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


LOOP_CASE = '''[case]
id = "loop-case"
cards = "loop.wg"
[state.A]
hand = ["LP-001"]
pool = ["red"]
[state.field]
A2 = { holder = "A", cards = ["WG-020"] }
A3 = { holder = "A", cards = ["WG-020"] }
[[step]]
action = "play"
card = "LP-001"
square = "A1"
'''
GOOD_CASE = '''[case]
id = "still-runs"
[state.A]
hand = ["WG-020"]
pool = ["red"]
[[step]]
action = "play"
card = "WG-020"
square = "A1"
[expect.field]
A1 = { holder = "A", cards = ["WG-020"] }
'''


def cli(*args):
    start = time.perf_counter()
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert time.perf_counter() - start < 10
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_rulings_reports_the_looping_case_and_runs_the_others(tmp_path):
    write(tmp_path, "loop.wg", 'include "wg01"\n\n' + LEAVE_AND_RETURN)
    write(tmp_path, "a-loop.toml", LOOP_CASE)
    write(tmp_path, "b-good.toml", GOOD_CASE)
    result = cli("rulings", tmp_path)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("FAIL loop-case: step 1 (A play LP-001 A1): effects never end: "
                               "LP-001 (dimension) → LP-001 (when this leaves field)")
    assert lines[1] == "PASS still-runs"
    assert lines[-1] == "1 passed, 1 failed"
    assert "Traceback" not in result.output


def test_play_reports_the_game_stopped_by_the_loop(tmp_path):
    cards = write(tmp_path, "loop.wg", 'include "wg01"\n\n' + LEAVE_AND_RETURN)
    deck = write(tmp_path, "deck.txt", "3 LP-001\n" + "".join(
        f"3 WG-0{n:02d}\n" for n in (1, 2, 3, 4, 5, 6, 9, 12, 20, 11, 13, 14)) + "1 WG-018\n")
    for games in ("1", "5"):
        result = cli("play", "--cards", cards, "--deck", deck, "--agent", "random",
                     "--games", games)
        assert result.exit_code == 1
        assert "Traceback" not in result.output
        assert "was stopped: effects never end: LP-001" in result.output


def test_simulate_prints_the_message_and_fails(tmp_path):
    # repro 13: on an empty field the card comes back onto the first empty square each time
    write(tmp_path, "loop.wg", 'include "wg01"\n\n' + LEAVE_AND_RETURN)
    state = write(tmp_path, "state.toml", '[case]\nid = "s"\ncards = "loop.wg"\n'
                  '[state.A]\nhand = ["LP-001"]\npool = ["red"]\n')
    result = cli("simulate", "LP-001", "--state", state)
    assert result.exit_code == 1
    assert ("error: effects never end: LP-001 (dimension) → LP-001 (when this leaves field)"
            in result.output)
    assert "Traceback" not in result.output


def test_simulate_of_a_billion_draws_ends(tmp_path):
    cards = write(tmp_path, "draw.wg", DRAW_MANY)
    result = cli("simulate", "DR-001", "--cards", cards)
    assert result.exit_code == 0
    assert "draws nothing: the stock is empty (R5.2)" in result.output
