"""`wgdsl simulate`: one card played on a default or given board, everything shown."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cards import load_cards
from wgdsl.cli import main
from wgdsl.simulate import default_board, parse_answers, simulate

ROOT = Path(__file__).resolve().parents[1]
LIB = load_cards()


@pytest.mark.parametrize("card_id", [c.id for c in LIB])
def test_every_wg01_card_can_be_played_on_its_default_board(card_id):
    sim = simulate(LIB, card_id)
    assert sim.error is None, sim.error
    # fillers never share the card's id, so the played card has left A's hand
    assert card_id not in [i.id for i in sim.state.players["A"].hand]
    assert any(f"plays {card_id}" in line for line in sim.log)


def test_default_board_opens_the_battle_field_and_pays_the_cost():
    st = default_board(LIB, LIB["WG-025"])
    # R8.2: A holds its whole my field, so the battle field is open
    assert [st.holder(sq) for sq in ("A1", "A2", "A3")] == ["A", "A", "A"]
    # WG-025 is yellow: its 5 required points come in one color (R6.4)
    assert sum(st.players["A"].pool.values()) == 5
    assert len(st.players["A"].pool) == 1


def test_mantid_removes_the_cheap_opponent_card_from_the_battle_field():
    before = default_board(LIB, LIB["WG-012"])
    victim = before.top("C2")
    assert victim.owner == "B" and victim.cost <= 2
    sim = simulate(LIB, "WG-012")
    assert sim.square == "C1"  # the battle field is preferred
    assert sim.state.field["C2"] == []
    assert victim.id in [i.id for i in sim.state.players["B"].break_]


def test_unanswered_choices_take_the_first_option_and_are_reported():
    sim = simulate(LIB, "WG-001")  # "may move it to the bottom": a yes/no question
    assert any("yes" in d for d in sim.defaulted)
    sim = simulate(LIB, "WG-001", answers={"A": ["no"]})
    assert sim.defaulted == ()


def test_parse_answers():
    assert parse_answers(["A=C1,B=no", "A=slot 2"]) == {"A": ["C1", "slot 2"], "B": ["no"]}
    with pytest.raises(ValueError, match="PLAYER=ANSWER"):
        parse_answers(["C1"])


def test_cli_simulate_default_board_prints_before_log_after():
    result = CliRunner().invoke(main, ["simulate", "WG-012"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index("== before ==") < out.index("== what happened ==") < out.index("== after ==")
    assert "moves from C2 to B's break" in out


def test_cli_simulate_with_state_plays_there_and_shows_the_response():
    case = ROOT / "examples" / "rulings" / "cards" / "wg019-vega-female-cancels-play.toml"
    result = CliRunner().invoke(main, ["simulate", "WG-016", "--state", str(case), "--square", "A1"])
    assert result.exit_code == 0, result.output
    assert "cancel" in result.output  # B's WG-019 answered "yes" from the case's [answers]


def test_cli_simulate_refused_play_names_the_rule():
    # on the default board A holds A1-A3: C1 is open, but B3 is behind B's my field (R8.2)
    result = CliRunner().invoke(main, ["simulate", "WG-020", "--square", "B3"])
    assert result.exit_code == 1
    assert "R8.2" in result.output


def test_cli_simulate_unknown_card_suggests_a_close_id():
    result = CliRunner().invoke(main, ["simulate", "WG-0012"])
    assert result.exit_code == 1
    assert "no card `WG-0012`" in result.output and "did you mean" in result.output


def test_cli_simulate_bad_answers_is_a_usage_error():
    result = CliRunner().invoke(main, ["simulate", "WG-012", "--answers", "C1"])
    assert result.exit_code == 2
    assert "PLAYER=ANSWER" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_simulate_json():
    result = CliRunner().invoke(main, ["simulate", "WG-012", "--json"])
    data = json.loads(result.output)
    assert data["played"] is True and data["square"] == "C1"
    assert "C2" not in data["after"]["field"]
