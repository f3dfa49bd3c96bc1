"""Ruling cases: the loader's problems (each kind), the runner's verdicts, the CLI."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.tools.rulings import CaseProblems, build_state, load_case, run_case, run_paths

ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path, text, name="case.toml"):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def problems(tmp_path, text):
    with pytest.raises(CaseProblems) as err:
        load_case(write(tmp_path, text))
    return err.value.problems


HEAD = """
[case]
id = "t"
"""

# R10.2: A stacks WG-006 (cost 3, rock) on its own WG-009 (cost 2, rock): 3 > 2
STACK_CASE = HEAD + """
[state.A]
standby = ["WG-020", "WG-009"]
hand = ["WG-006", "WG-001"]

[state.field]
A1 = { holder = "A", cards = ["WG-009"] }

[[step]]
action = "exhaust"
slot = 1
[[step]]
action = "exhaust"
slot = 2
[[step]]
action = "play"
card = "WG-006"
square = "A1"
"""


# ---------------------------------------------------------------- loading: problems
def test_toml_syntax_error_has_line_and_column(tmp_path):
    path = tmp_path / "case.toml"
    [p] = problems(tmp_path, '[case]\nid = "x"\nsource = \n')
    assert p.startswith(f"{path}:3:10: invalid TOML")


def test_unknown_card_id_with_did_you_mean(tmp_path):
    [p] = problems(tmp_path, HEAD + '[state.A]\nhand = ["WG-0009"]\n')
    assert "[state.A] hand" in p and "unknown card id `WG-0009`" in p and "WG-009" in p


def test_unknown_square(tmp_path):
    [p] = problems(tmp_path, HEAD + '[state.field]\nD1 = { holder = "A", cards = ["WG-009"] }\n')
    assert "unknown square `D1`" in p


def test_unknown_square_in_a_step_and_lowercase(tmp_path):
    [p] = problems(tmp_path, HEAD + '[[step]]\naction = "break_field"\nsquare = "c1"\n')
    assert "unknown square `c1`" in p and "C1" in p


@pytest.mark.parametrize("text, where, bad, good", [
    ('[casee]\nid = "t"\n', "top level", "casee", "case"),
    (HEAD + 'questoin = "?"\n', "[case]", "questoin", "question"),
    (HEAD + '[state]\nphse = "gain"\n', "[state]", "phse", "phase"),
    (HEAD + '[state.A]\nhnad = []\n', "[state.A]", "hnad", "hand"),
    (HEAD + '[state.field]\nC1 = { holdr = "A", cards = ["WG-009"] }\n', "C1", "holdr", "holder"),
    (HEAD + '[[step]]\naction = "next"\nplayr = "A"\n', "[[step]] 1", "playr", "player"),
    (HEAD + '[expect]\nwiner = "A"\n', "[expect]", "winer", "winner"),
    (HEAD + '[expect.A]\nhand_cont = 1\n', "[expect.A]", "hand_cont", "hand_count"),
    (HEAD + '[answers]\nAA = []\n', "[answers]", "AA", "A"),
])
def test_unknown_key_at_every_level(tmp_path, text, where, bad, good):
    found = problems(tmp_path, text)
    assert any(where in p and f"unknown key `{bad}`" in p and f"`{good}`" in p for p in found), found


@pytest.mark.parametrize("text, words", [
    (HEAD + '[state]\nturn = "3"\n', "`turn` must be an integer"),
    (HEAD + '[state]\nplayed = 1\n', "`played` must be true or false"),
    (HEAD + '[state]\nactive = "C"\n', "`active` `C` is not valid"),
    (HEAD + '[state.A]\nhand = "WG-009"\n', "`hand` must be a list"),
    (HEAD + '[state.A]\npool = 2\n', "`pool` must be a list of colors"),
    (HEAD + '[state.A]\npool = ["purple"]\n', "color `purple` is not valid"),
    (HEAD + '[[step]]\naction = "exhaust"\nslot = "1"\n', "`slot` must be an integer"),
    (HEAD + '[[step]]\naction = "exhaust"\nslot = 0\n', "`slot` must be 1 to 5"),
    (HEAD + '[[step]]\naction = "exhuast"\nslot = 1\n', "action `exhuast` is not valid"),
    (HEAD + '[[step]]\naction = "play"\ncard = "WG-009"\n', "`play` needs `square`"),
    (HEAD + '[[step]]\naction = "next"\nslot = 1\n', "`next` does not take `slot`"),
    (HEAD + '[[step]]\naction = "next"\nexpect = "refused"\n', "can only be \"illegal\""),
    (HEAD + '[step]\naction = "next"\n', "write [[step]]"),
    (HEAD + '[answers]\nA = ["C1", 2]\n', 'write "slot 2"'),
    (HEAD + '[answers]\nA = ["maybe"]\n', "answer `maybe` is not a square"),
    (HEAD + '[answers]\nA = ["slot 6"]\n', "standby slots are 1 to 5"),
    (HEAD + '[answers]\nA = ["slot1"]\n', "did you mean `slot 1`?"),
    (HEAD + '[answers]\nB = ["WG-0O6"]\n', "did you mean `WG-006`?"),
    (HEAD + '[expect]\nwinner = "nobody"\n', "`winner` `nobody` is not valid"),
    (HEAD + '[expect.A]\npool = "0"\n', "`pool` must be a number or a list of colors"),
    (HEAD + '[expect.A]\npoints = 2.5\n', "`points` must be an integer"),
    (HEAD + '[expect.field]\nC1 = "gone"\n', "a square is \"empty\" or a table"),
    ('[state]\nturn = 3\n', "missing [case]"),
    ('[case]\nsource = "x"\n', "missing `id`"),
])
def test_wrong_types_and_values(tmp_path, text, words):
    found = problems(tmp_path, text)
    assert any(words in p for p in found), found


def test_more_than_five_standby_entries_is_impossible(tmp_path):
    [p] = problems(tmp_path, HEAD + '[state.A]\nstandby = ["WG-009", "", "", "", "", "WG-006"]\n')
    assert "6 entries" in p and "5 slots" in p


def test_bad_exhausted_marker(tmp_path):
    [p] = problems(tmp_path, HEAD + '[state.A]\nstandby = ["WG-009:exausted"]\n')
    assert "only `exhausted`" in p


def test_stack_needs_a_well_formed_holder(tmp_path):
    found = problems(tmp_path, HEAD + '[state.field]\nC1 = { holder = "a", cards = ["WG-009"] }\n'
                     'C2 = { cards = ["WG-009"] }\nC3 = { holder = "B", cards = [] }\n')
    assert any("C1" in p and "`holder` `a` is not valid" in p for p in found)
    assert any("C2" in p and "missing `holder`" in p for p in found)
    assert any("C3" in p and "`cards` is empty" in p for p in found)


def test_every_problem_of_a_file_is_listed(tmp_path):
    found = problems(tmp_path, HEAD + '[state]\nphase = "gane"\n[state.A]\nhand = ["WG-999"]\n')
    assert len(found) == 2


def test_card_set_path_is_relative_to_the_case_file(tmp_path):
    src = (ROOT / "cards" / "wg01.wg").read_text(encoding="utf-8")
    write(tmp_path, src + '\ncard XX-001 "テスト" en "Test" {\n  color red  cost 1  requires 0\n}\n',
          "sets/mine.wg")
    case = load_case(write(tmp_path, HEAD + 'cards = "../sets/mine.wg"\n[state.A]\nhand = ["XX-001"]\n',
                           "cases/c.toml"))
    assert "XX-001" in case.library
    [p] = problems(tmp_path, HEAD + 'cards = "nope.wg"\n')
    assert "no card set file `nope.wg`" in p


def test_broken_card_set_is_a_problem_not_a_traceback(tmp_path):
    write(tmp_path, 'card X {\n', "bad.wg")
    [p] = problems(tmp_path, HEAD + 'cards = "bad.wg"\n')
    assert "the card set `bad.wg` has errors" in p


def test_duplicate_case_ids_across_files(tmp_path):
    write(tmp_path, HEAD, "a/one.toml")
    write(tmp_path, HEAD, "b/two.toml")
    results = run_paths([tmp_path])
    assert [r.ok for r in results] == [True, False]
    assert results[1].case_id is None
    assert "id `t` is already used by" in results[1].message and "one.toml" in results[1].message


# ---------------------------------------------------------------- the board
def test_state_is_built_as_printed(tmp_path):
    case = load_case(write(tmp_path, HEAD + """
        [state]
        active = "B"
        phase = "standby"
        turn = 4
        seed = 7
        [state.B]
        stock = ["WG-001", "WG-002"]
        standby = ["", "WG-009:exhausted", "WG-010"]
        break = ["WG-012", "WG-006"]
        pool = ["red", "red", "blue"]
        [state.field]
        C1 = { holder = "B", cards = ["WG-001", "WG-008"] }
        """))
    st = build_state(case)
    assert (st.active, st.phase, st.turn, st.seed) == ("B", "standby", 4, 7)
    b = st.players["B"]
    assert [c.id for c in b.stock] == ["WG-001", "WG-002"]
    assert b.standby[0] is None and b.standby[1].exhausted and not b.standby[2].exhausted
    assert [c.id for c in b.break_] == ["WG-012", "WG-006"]
    assert b.pool == {"red": 2, "blue": 1}
    assert [c.id for c in st.field["C1"]] == ["WG-001", "WG-008"]
    assert {c.owner for c in st.field["C1"]} == {"B"} and st.holder("C1") == "B"
    assert st.rng.random() == __import__("random").Random(7).random()


# ---------------------------------------------------------------- running
def run(tmp_path, text):
    return run_case(load_case(write(tmp_path, text)))


def test_passing_case(tmp_path):
    r = run(tmp_path, STACK_CASE + """
        [expect]
        winner = "none"
        [expect.A]
        hand = ["WG-001"]
        points = 5
        pool = 0
        standby = ["WG-020:exhausted", "WG-009:exhausted"]
        [expect.field]
        A1 = { holder = "A", cards = ["WG-009", "WG-006"] }
        A2 = "empty"
        """)
    assert r.ok, r.message
    assert r.line() == "PASS t"


def test_first_difference_is_reported_readably(tmp_path):
    r = run(tmp_path, STACK_CASE + '[expect.A]\nhand = ["WG-001", "WG-006"]\npoints = 9\n')
    assert not r.ok
    assert r.message == "A.hand: expected [WG-001, WG-006] but was [WG-001]"
    r = run(tmp_path, STACK_CASE + '[expect.field]\nA1 = { holder = "A", cards = ["WG-006"] }\n')
    assert r.message == "field.A1: expected A holds [WG-006] but was A holds [WG-009, WG-006]"
    r = run(tmp_path, STACK_CASE + '[expect.A]\nstandby = ["WG-020", "WG-009:exhausted"]\n')
    assert r.message.startswith("A.standby: expected [WG-020, WG-009:exhausted, \"\", \"\", \"\"]")


def test_refused_step_fails_unless_expected(tmp_path):
    text = HEAD + '[state.A]\nhand = ["WG-006"]\n[[step]]\naction = "play"\ncard = "WG-006"\nsquare = "A1"\n'
    r = run(tmp_path, text)
    assert not r.ok and "step 1 (A play WG-006 A1) was refused" in r.message and "R6.3" in r.message
    assert run(tmp_path, text + 'expect = "illegal"\n').ok


def test_accepted_step_marked_illegal_fails(tmp_path):
    r = run(tmp_path, STACK_CASE + 'expect = "illegal"\n')
    assert not r.ok and "was accepted" in r.message


REFUSED_AFTER_A_QUESTION = HEAD + """
    [state.A]
    hand = ["WG-001"]
    stock = ["WG-010", "WG-016"]
    pool = ["blue"]

    [answers]
    A = ["yes"]

    [[step]]              # (patched below) asks A a yes/no question, then is refused
    action = "break_field"
    square = "C1"
    expect = "illegal"

    [[step]]              # WG-001's "may" gets the same answer: the top card goes down
    action = "play"
    card = "WG-001"
    square = "A1"

    [expect.A]
    stock = ["WG-016", "WG-010"]
    """


def _refuse_after_asking(monkeypatch, mutate=False):
    from wgdsl.games.world_gainer.agents import Question
    from wgdsl.games.world_gainer.engine import Game
    from wgdsl.kernel.errors import IllegalAction

    real = Game.apply

    def apply(self, action):
        if action.kind == "break_field":
            self.agents[action.player].answer(
                self.view(action.player), Question(action.player, "yes_no", "really?", ("yes", "no")))
            if mutate:
                self.state.players[action.player].pool["red"] = 1
            raise IllegalAction("refused after asking", "R6.2")
        return real(self, action)

    monkeypatch.setattr(Game, "apply", apply)


def test_refused_step_consumes_no_answers(tmp_path, monkeypatch):
    # an action may ask before the engine refuses it; the runner gives the answer back
    _refuse_after_asking(monkeypatch)
    r = run(tmp_path, REFUSED_AFTER_A_QUESTION)
    assert r.ok, r.message


def test_refused_step_that_changes_the_state_fails(tmp_path, monkeypatch):
    _refuse_after_asking(monkeypatch, mutate=True)
    r = run(tmp_path, REFUSED_AFTER_A_QUESTION)
    assert not r.ok
    assert r.message.startswith("step 1 (A break_field C1) was refused") and "state changed" in r.message


def test_engine_crash_is_a_failure_not_a_traceback(tmp_path, monkeypatch):
    from wgdsl.games.world_gainer.engine import Game

    def apply(self, action):
        raise KeyError("boom")

    monkeypatch.setattr(Game, "apply", apply)
    r = run(tmp_path, HEAD + '[[step]]\naction = "next"\n')
    assert not r.ok and "engine failed: KeyError" in r.message


def test_unused_answers_fail(tmp_path):
    r = run(tmp_path, STACK_CASE + '[answers]\nA = ["yes"]\n')
    assert not r.ok and r.message == "answers left unused: A: [yes]"


def test_missing_answer_fails(tmp_path):
    # WG-001's "may" asks A: no answer scripted
    r = run(tmp_path, HEAD + """
        [state.A]
        hand = ["WG-001"]
        stock = ["WG-002", "WG-003"]
        pool = ["blue"]
        [[step]]
        action = "play"
        card = "WG-001"
        square = "A1"
        """)
    assert not r.ok and "step 1" in r.message and "no answer left" in r.message


def test_invalid_answer_fails(tmp_path):
    r = run(tmp_path, HEAD + """
        [state.A]
        hand = ["WG-001"]
        stock = ["WG-002", "WG-003"]
        pool = ["blue"]
        [answers]
        A = ["C1"]
        [[step]]
        action = "play"
        card = "WG-001"
        square = "A1"
        """)
    assert not r.ok and "`C1`" in r.message


def test_stock_expectations(tmp_path):
    base = HEAD + '[state.A]\nstock = ["WG-001", "WG-002", "WG-003"]\n'
    assert run(tmp_path, base + '[expect.A]\nstock_top = "WG-001"\nstock_bottom = "WG-003"\n'
               'stock_count = 3\nstock = ["WG-001", "WG-002", "WG-003"]\n').ok
    r = run(tmp_path, base + '[expect.A]\nstock_bottom = "WG-001"\n')
    assert r.message == "A.stock_bottom: expected WG-001 but was WG-003"
    r = run(tmp_path, base + '[expect.A]\nstock = ["WG-003", "WG-002", "WG-001"]\n')
    assert r.message.startswith("A.stock: expected [WG-003, WG-002, WG-001] but was [WG-001, WG-002, WG-003]")


def test_field_expectation_may_name_only_the_holder_or_only_the_cards(tmp_path):
    assert run(tmp_path, STACK_CASE + '[expect.field]\nA1 = { holder = "A" }\n').ok
    assert run(tmp_path, STACK_CASE + '[expect.field]\nA1 = { cards = ["WG-009", "WG-006"] }\n').ok
    r = run(tmp_path, STACK_CASE + '[expect.field]\nA1 = { holder = "B" }\n')
    assert r.message == "field.A1: expected B holds but was A holds"
    r = run(tmp_path, STACK_CASE + '[expect.field]\nA2 = { holder = "A" }\n')
    assert r.message == "field.A2: expected A holds but was empty"


def test_winner_expectation(tmp_path):
    r = run(tmp_path, STACK_CASE + '[expect]\nwinner = "A"\n')
    assert r.message == "winner: expected A but was none"


def test_pool_as_number_or_colors(tmp_path):
    base = HEAD + '[state.A]\npool = ["red", "blue", "red"]\n'
    assert run(tmp_path, base + '[expect.A]\npool = 3\n').ok
    assert run(tmp_path, base + '[expect.A]\npool = ["red", "red", "blue"]\n').ok
    r = run(tmp_path, base + '[expect.A]\npool = ["red"]\n')
    assert r.message == "A.pool: expected [red] but was [blue, red, red]"


def test_cli_prints_a_line_per_case_and_counts(tmp_path):
    write(tmp_path, STACK_CASE.replace('id = "t"', 'id = "good"') + '[expect.A]\npoints = 5\n', "1.toml")
    write(tmp_path, STACK_CASE.replace('id = "t"', 'id = "bad"') + '[expect.A]\npoints = 4\n', "2.toml")
    write(tmp_path, '[case\n', "3.toml")
    res = CliRunner().invoke(main, ["rulings", str(tmp_path)])
    lines = res.output.splitlines()
    assert lines[0] == "PASS good"
    assert lines[1] == "FAIL bad: A.points: expected 4 but was 5"
    assert lines[2].startswith(f"ERROR {tmp_path / '3.toml'}:1:")
    assert lines[-1] == "1 passed, 2 failed"
    assert res.exit_code == 1 and "Traceback" not in res.output
    ok = CliRunner().invoke(main, ["rulings", str(tmp_path / "1.toml")])
    assert ok.exit_code == 0 and ok.output.splitlines()[-1] == "1 passed, 0 failed"
    missing = CliRunner().invoke(main, ["rulings", str(tmp_path / "nope")])
    assert missing.exit_code == 1 and "ERROR" in missing.output
