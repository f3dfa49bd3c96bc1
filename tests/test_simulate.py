"""`wgdsl simulate`: one card played on a default or given board, everything shown."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.lang.cards import load_cards
from json_shapes import assert_simulate
from wgdsl.tools.simulate import default_board, parse_answers, parse_step, simulate

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
    assert result.exit_code == 2  # a usage error, as `show` (docs: exit status)
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
    assert data["after"]["field"]["C2"] is None


# ------------------------------------------------------------------ every effect reported
EXPEDITION = ROOT / "examples" / "sets" / "expedition.wg"
XP = load_cards(EXPEDITION)


def _sim_cli(*args):
    return CliRunner().invoke(main, ["simulate", *map(str, args)])


@pytest.mark.parametrize("card_id", [c.id for c in XP])
def test_every_effect_of_the_card_is_reported_in_the_text(card_id):
    args = [card_id, "--cards", EXPEDITION]
    result = _sim_cli(*args)
    assert result.exit_code == 0, result.output
    out = result.output
    report = out[out.index(f"== the effects of {card_id} =="):]
    card = XP[card_id]
    sim = simulate(XP, card_id)
    assert len(sim.effects) >= len(card.effects)
    for eff in sim.effects:
        assert f"- {eff.header} [{eff.status}]" in report
        assert eff.detail in report


@pytest.mark.parametrize("card_id", [c.id for c in LIB])
def test_simulate_json_follows_the_documented_shape(card_id):
    result = _sim_cli(card_id, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert_simulate(doc)
    # the board before the play is data: the card is in A's hand, and A's pool pays it
    assert card_id in doc["before"]["players"]["A"]["hand"]
    assert sum(doc["before"]["players"]["A"]["pool"].values()) == LIB[card_id].cost
    assert len(doc["effects"]) >= len(LIB[card_id].effects)


def test_a_field_effect_waits_for_its_trigger_and_the_suggested_step_fires_it():
    result = _sim_cli("WG-006")
    out = result.output
    assert "- field when this leaves field to break: [waiting]" in out
    assert "it waits for its trigger `when this leaves field to break`" in out
    suggestion = next(line for line in out.splitlines() if "to see it:" in line)
    assert suggestion.strip() == "to see it: wgdsl simulate WG-006 --then 'break_field C1'"
    fired = _sim_cli("WG-006", "--then", "break_field C1")
    assert fired.exit_code == 0, fired.output
    assert "- field when this leaves field to break: [fired]" in fired.output
    # R13.2: Nibiru broken from the field goes to the bottom of its owner's stock
    assert "moves from A's break to the bottom of A's stock" in fired.output


def test_a_turn_trigger_is_fired_by_ending_turns():
    sim = simulate(LIB, "WG-015")  # field at start of your turn
    (eff,) = sim.effects
    assert (eff.status, eff.fire) == ("waiting", ("end_turn", "end_turn"))
    sim = simulate(LIB, "WG-015", then=[parse_step(s) for s in eff.fire])
    assert sim.error is None
    assert sim.effects[0].status == "fired"


def test_an_activated_effect_says_whether_it_can_be_used_now():
    sim = simulate(LIB, "WG-003")  # field activated during your gain phase
    (eff,) = sim.effects
    assert eff.status == "usable" and eff.fire == ("activate C1",)
    used = simulate(LIB, "WG-003", then=[parse_step("activate C1")])
    assert used.effects[0].status == "used"
    assert "+2 blue points" in "\n".join(used.log)
    # on B's turn, and in A's next standby phase, it cannot be used, and the report says why
    later = simulate(LIB, "WG-003", then=[parse_step("end_turn")])
    assert later.effects[0].status == "not usable"
    assert "it is B's turn" in later.effects[0].detail
    later = simulate(LIB, "WG-003", then=[parse_step("end_turn"), parse_step("end_turn")])
    assert later.effects[0].status == "not usable"
    assert "during the gain phase; the board is in the standby phase" in later.effects[0].detail


def test_a_static_effect_says_what_it_changes():
    (eff,) = simulate(LIB, "WG-005").effects
    assert eff.status == "applies" and "cannot be targeted" in eff.detail
    (eff,) = simulate(LIB, "WG-007").effects  # in standby static: not on the field
    assert eff.status == "does not apply" and "standby" in eff.detail


def test_a_copying_card_reports_the_copy_and_the_copied_effects():
    reports = simulate(LIB, "WG-013").effects  # copies WG-001 on A1 by default
    assert reports[0].status == "resolved" and "as a copy of WG-001" in reports[0].detail
    assert reports[1].header.startswith("(as WG-001) dimension:")
    assert reports[1].status == "resolved"


def test_a_refused_card_reports_its_effects_as_not_played():
    result = _sim_cli("WG-006", "--square", "B3")
    assert result.exit_code == 1
    assert "[not played]" in result.output


def test_state_uses_the_square_of_the_cases_play_step():
    case = ROOT / "examples" / "rulings" / "cards" / "wg014-pteranodon-on-opponents-field.toml"
    result = _sim_cli("WG-014", "--state", case)
    assert result.exit_code == 0, result.output
    assert "onto B1 (the square of the case's step 1)" in result.output
    assert "plays WG-014 プテラノドン型宇宙人 onto B1" in result.output
    # --square still wins
    result = _sim_cli("WG-014", "--state", case, "--square", "A1")
    assert "onto A1" in result.output and "step 1" not in result.output.splitlines()[0]


def test_then_steps_parse_and_a_refused_step_is_an_error():
    def fields(step):
        return (step.kind, step.player, step.card, step.slot, step.square)

    assert fields(parse_step("B: play WG-001 c2")) == ("play", "B", "WG-001", None, "C2")
    assert fields(parse_step("b:play WG-001 C2")) == ("play", "B", "WG-001", None, "C2")
    assert parse_step("break field C1").kind == "break_field"
    assert parse_step("exhaust 2").slot == 2
    for bad in ("fly", "exhaust 9", "break_field D4", "play WG-001", "next now"):
        with pytest.raises(ValueError):
            parse_step(bad)
    result = _sim_cli("WG-006", "--then", "exhaust 5")
    assert result.exit_code == 1
    assert "step 1 `exhaust 5` was refused" in result.output
