"""`wgdsl explore`: every line from a ruling case's board (wgdsl/tools/explore.py).

The boards below are small enough to walk by hand; the expected counts are worked out
from the rules (docs/rules.md) in each test's docstring, not read off the program."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.tools import explore as ex

ROOT = Path(__file__).resolve().parents[1]

# A's gain phase of turn 3, nothing in hand, one ready Dogon (WG-020, stun 2) in standby;
# B has a card to draw on its turn.
STUN_BOARD = """\
[case]
id = "one-stun"
[state.A]
standby = ["WG-020"]
[state.B]
stock = ["WG-001"]
"""

# A plays the Ummite (WG-001: look at the top card of your stock; you may put it on the
# bottom).
UMMITE = """\
[case]
id = "ummite"
[state.A]
hand = ["WG-001"]
pool = ["blue"]
stock = [{stock}]
[answers]
A = ["yes"]
[[step]]
action = "play"
card = "WG-001"
square = "A1"
[expect.A]
stock = [{expect}]
"""


def write(tmp_path, text: str, name: str = "case.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(*args):
    return CliRunner().invoke(main, ["explore", *args])


# ------------------------------------------------------------------ counted by hand
def test_the_turn_of_one_stun_has_three_outcomes(tmp_path):
    """A's gain phase with one ready stun: A may exhaust it (+2), break it (+1), discard it,
    or none, then end the turn (`next` or `end_turn`, which both reach B's standby phase).
    The pool empties at the end of the turn (R5.5), so at B's turn the board is one of:
    the stun ready (next, end_turn: 2 lines), exhausted (exhaust then next/end_turn: 2),
    in the break (break / discard / exhaust-then-discard, each then next/end_turn: 6)."""
    result = ex.explore_case(write(tmp_path, STUN_BOARD))
    assert result.limit.kind == ex.END_OF_TURN and result.complete
    assert len(result.outcomes) == 3
    by_slot = {}
    for o in result.outcomes:
        slot = o.data["players"]["A"]["standby"][0]
        state = "break" if slot is None else ("exhausted" if slot["exhausted"] else "ready")
        by_slot[state] = o
        assert o.data["turn"] == 4 and o.data["active"] == "B" and o.stop is None
    assert {k: o.lines for k, o in by_slot.items()} == {"ready": 2, "exhausted": 2, "break": 6}
    assert by_slot["break"].data["players"]["A"]["break"] == ["WG-020"]
    # root, exhausted (+2), broken (+1), discarded (+0), exhausted then discarded (+2),
    # and the three boards of B's turn
    assert result.states == 8


def test_merging_equal_states_walks_fewer(tmp_path):
    """Without merging, each of the 10 lines keeps its own end (5 states inside + 10
    ends); merged, the same three outcomes come from 8 states."""
    path = write(tmp_path, STUN_BOARD)
    merged = ex.explore_case(path)
    apart = ex.explore_case(path, merge=False)
    assert apart.states == 15 and merged.states == 8
    assert merged.merged > 0 and apart.merged == 0
    assert sorted(ex.canonical(o.data) for o in merged.outcomes) == \
        sorted(ex.canonical(o.data) for o in apart.outcomes)


def test_depth_one(tmp_path):
    """One action deep: next and end_turn reach the same board of B's turn; exhaust,
    break and discard each leave another: 4 outcomes from 5 lines."""
    result = ex.explore_case(write(tmp_path, STUN_BOARD), ex.Limit(ex.DEPTH, 1))
    assert len(result.outcomes) == 4
    assert sorted(o.lines for o in result.outcomes) == [1, 1, 1, 2]


def test_the_steps_branch_on_the_answer_and_check_finds_the_other(tmp_path):
    """The Ummite asks A `may`: yes puts WG-010 under WG-016, no keeps it on top.  The
    case expects `yes`; --check shows the `no` outcome and exits 1."""
    path = write(tmp_path, UMMITE.format(stock='"WG-010", "WG-016"',
                                         expect='"WG-016", "WG-010"'))
    result = ex.explore_case(path)
    assert result.limit.kind == ex.END_OF_STEPS
    stocks = {tuple(o.data["players"]["A"]["stock"]): o for o in result.outcomes}
    assert set(stocks) == {("WG-016", "WG-010"), ("WG-010", "WG-016")}
    yes, no = stocks[("WG-016", "WG-010")], stocks[("WG-010", "WG-016")]
    assert yes.meets and yes.case_line and not no.case_line
    assert no.difference.startswith("A.stock: expected [WG-016, WG-010]")
    assert yes.examples == [["A play WG-001 A1", "A answer yes"]]
    res = run(path, "--check")
    assert res.exit_code == 1
    assert f"[{no.number}] differs: A.stock" in res.output
    assert "do not meet the expectation" in res.stderr


def test_one_reachable_outcome_passes_the_check(tmp_path):
    """With a one-card stock, yes and no leave the same board: one outcome, two lines."""
    path = write(tmp_path, UMMITE.format(stock='"WG-010"', expect='"WG-010"'))
    result = ex.explore_case(path)
    assert len(result.outcomes) == 1 and result.outcomes[0].lines == 2
    res = run(path, "--check")
    assert res.exit_code == 0, res.output
    assert "every outcome meets the expectation" in res.stderr


def test_a_refused_step_ends_its_line(tmp_path):
    """Without the blue point the Ummite cannot be paid (R6): the line stops there."""
    path = write(tmp_path, UMMITE.format(stock='"WG-010"', expect='"WG-010"')
                 .replace('pool = ["blue"]', "pool = []"))
    result = ex.explore_case(path)
    [o] = result.outcomes
    assert o.stop.startswith("step 1 (A play WG-001 A1) was refused") and "R6" in o.stop
    assert run(path, "--check").exit_code == 1


# ------------------------------------------------------------------ the bound
def test_the_bound_is_said(tmp_path):
    path = write(tmp_path, STUN_BOARD)
    result = ex.explore_case(path, max_states=3)
    assert not result.complete and result.states <= 3 + 5
    res = run(path, "--max-states", "3")
    assert res.exit_code == 0 and "INCOMPLETE: the bound" in res.stdout
    assert "stopped at the bound of 3 states" in res.stderr
    assert json.loads(run(path, "--max-states", "3", "--json").stdout)["complete"] is False
    res = run(write(tmp_path, UMMITE.format(stock='"WG-010", "WG-016"', expect='"WG-010"'),
                    "u.toml"), "--check", "--max-states", "1")
    assert res.exit_code == 1 and "not proven" in res.stderr


def test_a_long_walk_reports_its_progress(tmp_path, monkeypatch):
    monkeypatch.setattr(ex, "PROGRESS_SECONDS", 0.0)
    res = run(write(tmp_path, STUN_BOARD))
    progress = [line for line in res.stderr.splitlines() if line.startswith("explore: ")]
    assert progress and all(" states, " in line for line in progress)
    assert "explore: " not in res.stdout


# ------------------------------------------------------------------ output
def test_json_lists_outcomes_lines_and_what_differs(tmp_path):
    path = write(tmp_path, UMMITE.format(stock='"WG-010", "WG-016"', expect='"WG-016", "WG-010"'))
    res = run(path, "--json")
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert doc["case"] == "ummite" and doc["complete"] and len(doc["outcomes"]) == 2
    assert "players.A.stock" in doc["differing_paths"]
    for o in doc["outcomes"]:
        assert o["line_count"] == 1 and len(o["lines"]) == 1
        assert o["differs"]["players.A.stock"] in (["WG-016", "WG-010"], ["WG-010", "WG-016"])
        assert o["meets_expect"] == (o["differs"]["players.A.stock"] == ["WG-016", "WG-010"])


def test_the_text_tree(tmp_path):
    res = run(write(tmp_path, UMMITE.format(stock='"WG-010", "WG-016"', expect='"WG-010"')))
    lines = res.output.splitlines()
    assert "the case's board" in lines
    assert any(line.endswith("A play WG-001 A1") for line in lines)
    assert sum("A answer" in line and "→ [" in line for line in lines) == 2


def test_a_shipped_case_of_each_game_explores():
    """A GETGEM and an It's a Wonderful World case: their own runners build the board;
    a case with no question has one outcome, the one the case expects."""
    for case in ("examples/rulings/wonderful-world/iaw-conversion-at-five.toml",
                 "examples/rulings/getgem/gg-element-already-owned.toml"):
        result = ex.explore_case(str(ROOT / case))
        assert result.outcomes and all(o.case_line or o.stop for o in result.outcomes[:1])
        assert run(str(ROOT / case), "--check").exit_code == 0, case


def test_a_getgem_choice_branches():
    """GG Q&A: who takes back what is a choice; every answer is an outcome of its own."""
    result = ex.explore_case(str(ROOT / "examples/rulings/getgem/gg-take-back-choice.toml"))
    assert len(result.outcomes) > 1
    assert sum(o.meets for o in result.outcomes) == 1


def test_imitation_worlds_trigger_order_has_both_ends():
    """IW Q&A 19 (R21.2, R7.3, R20.2): A orders IW-002 and IW-024 at the start of turn 5.
    IW-002 first and IW-024's `yes`: A survives the draw phase (the case's own answers);
    IW-024 first and `yes`: IW-002 draws the card IW-024 put back and the draw phase finds
    an empty deck, A loses (R20.2); `no` leaves the deck empty, A loses too."""
    result = ex.explore_case(str(ROOT / "examples/rulings/imitation-world/"
                                        "iw-start-of-turn-order.toml"))
    (own,) = [o for o in result.outcomes if o.case_line]
    assert own.meets
    lost = [o for o in result.outcomes if o.data.get("winner") == "B"]
    assert lost and all(o.data["reason"] == "R20.2" for o in lost)
    lines = [" ; ".join(line) for o in lost for line in o.examples]
    assert any("A order IW-024" in x and "A yes" in x for x in lines), lines
    assert any("A no" in x for x in lines), lines


def test_imitation_worlds_linked_attack_explores_to_the_case():
    """IW Q&A 26 (R15.5): the attack step is planned by the runner (join, then front) and
    its line meets the case; a deck-check case has no board to explore."""
    # Q&A 6 (R15.3, R15.5): a new geuda cannot join; that step is refused by the runner
    # as a whole (no action text of the engine says so), and the case expects it
    for name in ("iw-linked-attack", "iw-summoning-sickness"):
        case = ROOT / f"examples/rulings/imitation-world/{name}.toml"
        result = ex.explore_case(str(case))
        assert any(o.case_line and o.meets for o in result.outcomes), name
        assert run(str(case), "--check").exit_code == 0, name
    with pytest.raises(ex.ExploreError, match="no board to explore"):
        ex.explore_case(str(ROOT / "examples/rulings/imitation-world/iw-deck-check.toml"))


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("args, message", [
    (["--depth", "0"], "--depth"),
    (["--depth", "2", "--to", "end-of-turn"], "exclude each other"),
    (["--check", "--depth", "2"], "--check"),
    (["--check", "--to", "end-of-turn"], "--check"),
    (["--max-states", "0"], "--max-states"),
    (["--to", "somewhere"], "--to"),
])
def test_a_wrong_command_line_exits_2(tmp_path, args, message):
    res = run(write(tmp_path, STUN_BOARD), *args)
    assert res.exit_code == 2 and message in res.output


def test_a_bad_case_is_reported_with_its_line(tmp_path):
    res = run(write(tmp_path, STUN_BOARD.replace("standby", "standbye")))
    assert res.exit_code == 1 and "case.toml:4:" in res.stderr and "standby" in res.stderr
    res = run(str(tmp_path / "missing.toml"))
    assert res.exit_code == 1 and "missing.toml" in res.stderr
    res = run(write(tmp_path, "[case\n", "broken.toml"))
    assert res.exit_code == 1 and "broken.toml:1" in res.stderr
