"""`wgdsl lint`: what a checked card set or game file can never do (wgdsl/tools/lint.py).

Each crafted file below has exactly the dead part named in its test, worked out from the
card text and the rules; the built-in sets and games have none."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from loop_cards import TWO_CARDS

ROOT = Path(__file__).resolve().parents[1]
RPS = (ROOT / "examples/games/rock-paper-scissors.game").read_text(encoding="utf-8")
GETGEM = (ROOT / "wgdsl/games/getgem/getgem.game").read_text(encoding="utf-8")

CARD = 'card {id} "{id}" en "{id}" {{\n  color red  cost {cost}\n{body}}}\n'


def card(ident: str, body: str, cost: int = 1) -> str:
    return CARD.format(id=ident, cost=cost, body=body)


def lint(tmp_path, name: str, text: str, *args):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["lint", str(path), *args])


def warnings(result) -> list[str]:
    return [line.split(": warning: ", 1)[1] for line in result.stderr.splitlines()
            if ": warning: " in line]


def test_a_condition_of_a_player_against_itself_never_holds(tmp_path):
    text = card("LT-001", "  dimension:\n    if you hold fewer squares than you: draw 1 card\n")
    res = lint(tmp_path, "a.wg", text)
    assert res.exit_code == 0
    assert warnings(res) == ["this condition never holds: you cannot have fewer squares than you"]
    assert "a.wg:4:8: warning" in res.stderr  # the condition, where the file writes it
    assert "a.wg: 1 cards, 1 warning" in res.output


def test_against_the_opponent_it_is_fine(tmp_path):
    text = card("LT-001", "  dimension:\n    if you hold fewer squares than opponent: draw 1 card\n")
    res = lint(tmp_path, "a.wg", text)
    assert res.exit_code == 0 and warnings(res) == [] and "nothing to report" in res.output


def test_cost_bounds_no_card_meets(tmp_path):
    """The set's costs are 1 and 3: an event about a card of cost 9 or more never
    happens; a choice among cards of cost 0 or less never has one; `3 or more` is met."""
    text = (card("LT-001", "  field when a card of cost 9 or more enters field:\n"
                           "    draw 1 card\n")
            + card("LT-002", "  dimension:\n    move an opponent's card of cost 0 or less on "
                             "battle field to owner's break\n"
                             "  field when a card of cost 3 or more enters field:\n"
                             "    draw 1 card\n", cost=3))
    res = lint(tmp_path, "c.wg", text)
    assert warnings(res) == [
        "this effect never triggers: no card of the set has a cost of 9 or more",
        "this finds no card: no card of the set has a cost of 0 or less"]
    assert "c.wg:3:21:" in res.stderr and "c.wg:9:29:" in res.stderr
    assert "the costs in the set (its includes counted) are 1, 3" in res.stderr


def test_an_included_set_brings_its_costs(tmp_path):
    """With WG01 included (costs up to 5), `cost 5 or more` is met."""
    text = 'include "wg01"\n' + card("LT-001", "  field when a card of cost 5 or more enters "
                                               "field:\n    draw 1 card\n")
    assert warnings(lint(tmp_path, "i.wg", text)) == []


def test_becomes_target_in_a_set_where_nothing_targets(tmp_path):
    target = card("LT-003", "  field when this becomes target:\n    draw 1 card\n")
    res = lint(tmp_path, "t.wg", target)
    assert warnings(res) == ["this effect never triggers: no card of the set makes a target "
                             "(`when this becomes target`)"]
    chooser = card("LT-004", "  dimension:\n    move an opponent's card on battle field to "
                             "owner's break\n")
    assert warnings(lint(tmp_path, "t2.wg", target + chooser)) == []
    copier = card("LT-005", "  dimension:\n    enter as a copy of a card on field\n")
    assert warnings(lint(tmp_path, "t3.wg", target + copier)) == []


def test_loops_are_the_trigger_graphs_cycles(tmp_path):
    res = lint(tmp_path, "l.wg", TWO_CARDS, "--graph")
    [w] = warnings(res)
    assert w.startswith("these effects can trigger each other without end: LP-001")
    graph = [line.strip() for line in res.output.splitlines() if " -> " in line]
    assert any(line.startswith("LP-001 (when your other card enters field) -> LP-002")
               for line in graph)
    assert any(line.startswith("LP-002 (when your other card leaves field to break) -> LP-001")
               for line in graph)


def test_a_set_with_errors_is_not_linted(tmp_path):
    res = lint(tmp_path, "e.wg", card("LT-001", "  dimension:\n    move this to brake\n"))
    assert res.exit_code == 1 and "unknown zone `brake`" in res.stderr
    assert "has errors" in res.stderr
    res = CliRunner().invoke(main, ["lint", str(tmp_path / "none.wg")])
    assert res.exit_code == 1 and "none.wg" in res.stderr


# ------------------------------------------------------------------ game files
def test_unused_zone_kind_and_signs_of_a_game(tmp_path):
    text = RPS.replace("  counter points start 0", "  zone attic shared pile hidden\n"
                       "  kind token {\n    stat size 1 to 3\n  }\n  counter points start 0")
    res = lint(tmp_path, "r.game", text)
    assert res.exit_code == 0
    assert warnings(res) == ["the zone `attic` is never used", "the kind `token` is never used"]


def test_the_game_checkers_warnings_are_kept(tmp_path):
    text = RPS.replace("  counter points start 0", "  counter spare start 0\n"
                       "  counter points start 0")
    assert warnings(lint(tmp_path, "r.game", text)) == ["counter `spare` is never used"]


def test_an_effect_no_card_does(tmp_path):
    marker = '  effect barrier "バリア"'
    extra = ('  effect shield "盾" en "Shield" as a response from '
             '"wgdsl.games.getgem.effects:barrier" rule R8.6 {\n    ja "盾"\n    en "Shield"\n  }\n')
    text = GETGEM.replace(marker, extra + marker)
    res = lint(tmp_path, "g.game", text)
    assert warnings(res) == ["no card does the effect `shield`: it is never used"]
    assert "played by an engine" in res.output


@pytest.mark.parametrize("path", [
    "cards/wg01.wg", "examples/sets/expedition.wg", "examples/games/war.game",
    "examples/games/rock-paper-scissors.game", "wgdsl/games/getgem/getgem.game",
    "wgdsl/games/wonderful_world/wonderful-world.game"])
def test_the_built_in_sets_and_games_have_nothing_to_report(path):
    res = CliRunner().invoke(main, ["lint", str(ROOT / path)])
    assert res.exit_code == 0 and warnings(res) == [], res.stderr
    assert "nothing to report" in res.output
