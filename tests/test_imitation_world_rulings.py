"""Imitation World's ruling cases (imitation-world.md, "What a ruling case needs"): the
spec's Example 1 and Example 2 as written there (tests/imitation_world/), run by
`wgdsl rulings`; Example 2 with IW-002's and IW-024's abilities written by hand as ability
records (the card language's compiler writes the same records from the cards' text); bad
case files refused at their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from wgdsl.games.imitation_world.abilities import Condition, Op, Select, Trigger
from wgdsl.games.imitation_world.cards import with_abilities
from wgdsl.tools.rulings import CaseProblems, load_case, load_case_text, run_case

HERE = Path(__file__).parent / "imitation_world"
EXAMPLE1 = HERE / "example1-multi-block.toml"
EXAMPLE2 = HERE / "example2-start-of-turn-order.toml"

# IW-002: ターン開始時 of your turn, only while face up: draw 1 card (mandatory).
# IW-024: ターン開始時 of your turn, if your trash holds a card: you may put this card into
# your past zone. If you do, choose a card in your trash and put it on the bottom of your deck.
PROGRAMS = {
    "IW-002": [Trigger("turn_start", (Op("draw", n=1),))],
    "IW-024": [Trigger("turn_start", (Op("may", then=(
        Op("self_to", zone="past"),
        Op("choose", select=Select("trash_card"), then=(Op("chosen_to", zone="deck_bottom"),)),
    )),), condition=Condition("trash_not_empty"))],
}


def test_example_1_passes():
    result = run_case(load_case(EXAMPLE1))
    assert result.ok, result.message


def test_example_1_fails_on_a_wrong_expectation():
    text = EXAMPLE1.read_text().replace('trash = ["IW-005"]', 'trash = ["IW-004"]')
    result = run_case(load_case_text(text, EXAMPLE1))
    assert not result.ok
    assert result.message.startswith("B.trash: expected ['IW-004'] but was ['IW-005']")


def _with_programs(path: Path, text: str | None = None):
    case = load_case(path) if text is None else load_case_text(text, path)
    case.table = with_abilities(case.table, PROGRAMS)
    return case


def test_example_2_passes_with_the_abilities():
    result = run_case(_with_programs(EXAMPLE2))
    assert result.ok, result.message


def test_example_2_in_the_other_order_loses_at_the_draw_phase():
    text = EXAMPLE2.read_text().replace('A = ["IW-002", "yes"]', 'A = ["IW-024", "yes"]')
    text = text.replace('winner = "none"', 'winner = "B"\nwin_reason = "R20.2"')
    text = text.split("[expect.A]")[0].replace('turn = 5\nphase = "cost"',
                                                'turn = 5\nphase = "over"')
    result = run_case(_with_programs(EXAMPLE2, text))
    assert result.ok, result.message


def test_example_2_passes_from_the_cards_text():
    result = run_case(load_case(EXAMPLE2))
    assert result.ok, result.message


def test_example_2_without_the_abilities_is_a_deck_out():
    case = load_case(EXAMPLE2)
    case.table = with_abilities(case.table, {"IW-002": [], "IW-024": []})
    result = run_case(case)
    assert not result.ok
    assert result.message == "winner: expected none but was B"


def test_a_missing_answer_fails_the_case():
    text = EXAMPLE2.read_text().replace('A = ["IW-002", "yes"]', 'A = ["IW-002"]')
    result = run_case(_with_programs(EXAMPLE2, text))
    assert not result.ok
    assert result.message.startswith("A is asked IW-024's yes_no")


def test_an_answer_that_is_no_option_fails_the_case():
    text = EXAMPLE2.read_text().replace('A = ["IW-002", "yes"]', 'A = ["IW-099", "yes"]')
    result = run_case(_with_programs(EXAMPLE2, text))
    assert not result.ok
    assert result.message.startswith('A\'s answer 1 "IW-099" is not an option')


@pytest.mark.parametrize("old, new, problem", [
    ('aga = "IW-001"', 'aga = "IW-004"', "IW-004 is geuda, not aga"),
    ('phase = "battle"', 'phase = "batle"', "a phase `batle` is not valid"),
    ('set = [{ card = "IW-007" }]', 'set = [{ card = "IW-999" }]', "unknown card id `IW-999`"),
    ('blockers = ["IW-005", "IW-004"]', 'blokers = ["IW-005"]', "unknown key `blokers`"),
    ('[state.A]', '[state.A]\nbarriers = 6', "a player has 0 to 5"),
])
def test_a_bad_case_file_is_refused_at_its_line(old, new, problem):
    text = EXAMPLE1.read_text()
    assert old in text
    bad = text.replace(old, new, 1)
    with pytest.raises(CaseProblems) as err:
        load_case_text(bad, EXAMPLE1)
    line = next(i for i, row in enumerate(bad.splitlines(), 1) if new.splitlines()[-1] in row)
    assert any(f":{line}:" in p and problem in p for p in err.value.problems), \
        err.value.problems


def test_the_command_prints_one_line_per_case(tmp_path):
    from click.testing import CliRunner

    from wgdsl.cli import main

    out = CliRunner().invoke(main, ["rulings", str(EXAMPLE1)])
    assert out.output.splitlines() == ["PASS iw-multi-block-front-to-back", "1 passed, 0 failed"]
    assert out.exit_code == 0


CASES = sorted((Path(__file__).parent.parent / "examples/rulings/imitation-world").glob("*.toml"))


@pytest.mark.skipif(not CASES, reason="the IW ruling cases are not on this branch")
def test_every_iw_ruling_case_passes_with_the_hand_built_abilities():
    from imitation_world_programs import PROGRAMS

    failed = []
    for path in CASES:
        case = load_case(path)
        case.table = with_abilities(case.table, PROGRAMS)
        result = run_case(case)
        if not result.ok:
            failed.append(result.line())
    assert not failed, failed


def test_a_deck_check_removing_what_the_deck_lacks_is_a_bad_file():
    text = ('[case]\nid = "iw-x"\ngame = "imitation-world"\n\n[[deck_check]]\n'
            'reference = "existence-wall"\nremove = ["IW-065"]\nexpect = "illegal"\n')
    with pytest.raises(CaseProblems) as err:
        load_case_text(text, HERE / "x.toml")
    assert any(":7:" in p and "holds no (more) copy" in p for p in err.value.problems), \
        err.value.problems


def test_deck_checks_of_the_spec_run():
    text = ('[case]\nid = "iw-deck"\ngame = "imitation-world"\n\n'
            '[[deck_check]]\nreference = "existence-wall"\nexpect = "legal"\n\n'
            '[[deck_check]]\nreference = "existence-wall"\nremove = ["IW-064"]\n'
            'expect = "illegal"\nrule = "R4.1"\n\n'
            '[[deck_check]]\nreference = "existence-wall"\nadd = ["IW-065"]\n'
            'expect = "illegal"\nrule = "R4.2"\n')
    result = run_case(load_case_text(text, HERE / "x.toml"))
    assert not result.ok
    assert result.message == "deck check 3: expected a problem citing R4.2 but found R4.4"


def test_a_case_without_aga_takes_the_sets_plain_aga_which_for_iw01_is_the_specs_default():
    # "What a ruling case needs": `aga` defaults to IW-003, the 曖昧 aga with no ability;
    # the runner finds it in the card set (no card id in the package)
    import wgdsl

    table = wgdsl.load_game("imitation-world").table(None)
    assert table.plain_aga.id == "IW-003"
    assert {c.id for c in table.agas} == {"IW-001", "IW-002", "IW-003"}
