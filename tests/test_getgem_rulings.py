"""GETGEM ruling cases (wgdsl/tools/rulings_getgem.py): the shipped cases pass and cover
every Q&A ruling and every card of GG01; a case fails on a wrong expectation (with the
first difference), an answer or random entry left over, missing or impossible, a refused
step not marked illegal, an illegal step accepted or one whose refusal changed anything;
a bad case names its line and is not run; `[case] game` picks the format."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.kernel.errors import IllegalAction
from wgdsl.tools.rulings import CaseProblems, load_case, run_case, run_paths

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "examples" / "rulings" / "getgem"
PUSH = (CASES / "gg-push-the-curse-spoils-check.toml").read_text(encoding="utf-8")
REFILL = (CASES / "gg-deck-runs-out-5p.toml").read_text(encoding="utf-8")
WORLD_GAINER = ROOT / "examples" / "rulings" / "cards" / "wg019-vega-female-cancels-play.toml"


def write(tmp_path, text: str, name: str = "case.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run_text(tmp_path, text: str):
    return run_case(load_case(write(tmp_path, text)))


def problems(tmp_path, text: str) -> list:
    with pytest.raises(CaseProblems) as err:
        load_case(write(tmp_path, text))
    return err.value.problems


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


def changed(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# ---------------------------------------------------------------- the shipped cases
def test_every_shipped_getgem_case_passes():
    results = run_paths([CASES])
    assert len(results) >= 45
    assert [r.line() for r in results if not r.ok] == []


def test_the_cases_cover_every_q_and_a_ruling_and_every_card():
    """getgem.md: a case per Q&A ruling (its source cites `GG Q&A n`) and at least one per
    card of GG01 (ids `gg001-…` to `gg013-…`)."""
    cited, cards = set(), set()
    for path in CASES.glob("*.toml"):
        case = load_case(path)
        for numbers in re.findall(r"GG Q&A ([0-9, ]+)", case.source):
            cited |= {int(n) for n in re.findall(r"[0-9]+", numbers)}
        m = re.match(r"gg(\d{3})-", case.id)
        if m:
            cards.add(int(m.group(1)))
    assert cited == set(range(1, 31))
    assert cards == set(range(1, 14))


def test_a_mix_of_world_gainer_and_getgem_cases_runs_in_one_call(tmp_path):
    getgem = write(tmp_path, PUSH, "gg.toml")
    results = run_paths([WORLD_GAINER, getgem])
    assert [r.line() for r in results] == ["PASS wg019-vega-female-cancels-play",
                                           "PASS gg-push-the-curse-spoils-check"]
    out = CliRunner().invoke(main, ["rulings", str(WORLD_GAINER), str(getgem)])
    assert out.exit_code == 0 and out.output.strip().endswith("2 passed, 0 failed")


# ---------------------------------------------------------------- failing cases
def test_a_wrong_expectation_fails_with_the_first_difference(tmp_path):
    result = run_text(tmp_path, changed(PUSH, 'hand = ["GG-001", "GG-006"]',
                                        'hand = ["GG-001", "GG-007"]'))
    assert not result.ok
    assert result.message == "A.hand: expected [GG-001, GG-007] but was [GG-001, GG-006]"
    # two wrong expectations: the first in the table's order is reported
    both = changed(changed(PUSH, "turn = 7", "turn = 8"), 'deck = ["GG-006"]', 'deck = []')
    assert run_text(tmp_path, both).message == "turn: expected 8 but was 7"
    knows = changed(PUSH, 'B = { A = ["GG-001"] }', 'B = { A = [] }')
    assert run_text(tmp_path, knows).message == "knows.B.A: expected [] but was [GG-001]"
    deck = changed(PUSH, 'deck = ["GG-006"]', 'deck = ["GG-007"]')
    assert run_text(tmp_path, deck).message == "table.deck: expected [GG-007] but was [GG-006]"


def test_results_of_a_game_not_over_are_a_difference(tmp_path):
    text = changed(PUSH, "over = false", "over = false\nmatch_points = { A = 0 }")
    assert run_text(tmp_path, text).message == "match_points: the game is not over"


def test_answers_must_be_used_exactly(tmp_path):
    extra = run_text(tmp_path, changed(PUSH, 'A = ["GG-005"]', 'A = ["GG-005", "GG-006"]'))
    assert not extra.ok and extra.message == "left unused: A: [GG-006]"
    missing = run_text(tmp_path, changed(PUSH, 'A = ["GG-005"]', "A = []"))
    assert not missing.ok and missing.message == (
        "A is asked `push` (push GG-005, push GG-006) and has no answer left in [answers]")
    wrong = run_text(tmp_path, changed(PUSH, 'A = ["GG-005"]', 'A = ["GG-007"]'))
    assert not wrong.ok and wrong.message == (
        "A's answer `GG-007` to `push` is not one of: push GG-005, push GG-006")
    # B's barrier question has one answer (no GG-010): it uses no entry, so one is left over
    unasked = run_text(tmp_path, changed(PUSH, 'A = ["GG-005"]', 'A = ["GG-005"]\nB = ["no"]'))
    assert not unasked.ok and unasked.message == "left unused: B: [no]"


def test_random_entries_must_be_used_exactly(tmp_path):
    no_take = run_text(tmp_path, changed(PUSH, 'take = ["GG-001"]', "take = []"))
    assert not no_take.ok and "found no `[random] take` entry left" in no_take.message
    bad_take = run_text(tmp_path, changed(PUSH, 'take = ["GG-001"]', 'take = ["GG-003"]'))
    assert not bad_take.ok and "GG-003, is not in the hand" in bad_take.message
    extra_take = run_text(tmp_path, changed(PUSH, 'take = ["GG-001"]',
                                            'take = ["GG-001", "GG-002"]'))
    assert not extra_take.ok and extra_take.message == "left unused: take: [GG-002]"
    extra_deck = run_text(tmp_path, changed(REFILL, 'shuffle = [["GG-001", "GG-006"]]',
                                            'shuffle = [["GG-001", "GG-006"], ["GG-001"]]'))
    assert not extra_deck.ok and extra_deck.message == "left unused: shuffle: 1 deck(s)"
    not_the_pile = run_text(tmp_path, changed(REFILL, 'shuffle = [["GG-001", "GG-006"]]',
                                              'shuffle = [["GG-001", "GG-001"]]'))
    assert not not_the_pile.ok and "is not the discard pile's cards" in not_the_pile.message
    no_deck = run_text(tmp_path, changed(REFILL, 'shuffle = [["GG-001", "GG-006"]]',
                                         "shuffle = []"))
    assert not no_deck.ok and "found no `[random] shuffle` entry left" in no_deck.message


def test_a_refused_step_must_be_marked_and_an_accepted_one_must_not(tmp_path):
    text = changed(PUSH, 'effect = "steal_push"', 'effect = "peeping"')  # GG-010 has none
    result = run_text(tmp_path, text)
    assert not result.ok and result.message.startswith("step use GG-010 peeping B by A was refused")
    marked = changed(PUSH, 'target = "B"\n', 'target = "B"\nexpect = "illegal"\n')
    result = run_text(tmp_path, marked)
    assert not result.ok and "accepted, but the case expects it to be refused" in result.message
    # B may not move in A's turn (GG R4.4): refused, nothing taken or pushed, so B's
    # check at the end of the turn wins (the spec's example 2 without its push)
    by_b = changed(PUSH, 'action = "use"\n', 'action = "use"\nplayer = "B"\nexpect = "illegal"\n')
    assert run_text(tmp_path, by_b).message == "winner: expected none but was B"


def test_a_refusal_that_changed_the_state_fails_the_case(tmp_path, monkeypatch):
    """getgem.md: a refused step leaves to_dict() as it was; an engine that changes it
    before refusing is caught (here one that discards A's first card, then refuses)."""
    from wgdsl.games.getgem.state import GGState

    apply = GGState.apply

    def faulty(self, seat, action):
        if str(action).startswith("use GG-010 peeping"):
            self.d.discard.append(self.d.hands[seat].pop(0))
            raise IllegalAction("no peeping on GG-010", "GG R7.2")
        return apply(self, seat, action)

    monkeypatch.setattr(GGState, "apply", faulty)
    text = changed(PUSH, "[[step]]\n", '[[step]]\naction = "use"\ncard = "GG-010"\n'
                   'effect = "peeping"\ntarget = "B"\nexpect = "illegal"\n\n[[step]]\n')
    result = run_text(tmp_path, text)
    assert not result.ok and "was refused (" in result.message
    assert result.message.endswith("but the state changed")


# ---------------------------------------------------------------- bad cases
@pytest.mark.parametrize("old, new, needle, message", [
    ('players = 2', 'players = 6', "players = 6", "`players` is 2 to 5, not 6"),
    ('players = 2', 'players = "2"', 'players = "2"', "`players` must be an integer, not a string"),
    ('[state.B]', '[state.Q]', "[state.Q]", "unknown key `Q`"),
    ('[expect.table]', '[expect.tabel]', "[expect.tabel]", "unknown key `tabel` (did you mean `table`?)"),
    ('[random]', '[randon]', "[randon]", "unknown key `randon` (did you mean `random`?)"),
    ('declared = ["GG-003"]', 'declared = ["GG-003"]\nhnad = []', "hnad", "(did you mean `hand`?)"),
    ('hand = ["GG-010", "GG-005", "GG-006"]', 'hand = ["GG-010", "GG-005", "GG-060"]',
     'hand = ["GG-010", "GG-005", "GG-060"]', "unknown card id `GG-060`"),
    ('declared = ["GG-003"]', 'declared = ["GG-003", "GG-006", "GG-007", "GG-008"]',
     "declared = [", "at most 3 declaration cards"),
    ('declared = ["GG-003"]', 'declared = ["GG-003"]\nelements = ["earth"]', "earth",
     "an element `earth` is not valid"),
    ('active = "A"', 'active = "C"', 'active = "C"', "a seat `C` is not valid (one of A, B)"),
    ('turn = 6 ', 'turn = 6\nphase = "start"', 'phase = "start"', "the phase `start` is not valid"),
    ('turn = 6 ', 'turn = 6\nphase = "draw"\npeeping_used = true', "peeping_used = true",
     '`peeping_used = true` with `phase = "draw"`'),
    ('turn = 6 ', 'turn = 600 ', "turn = 600", "`turn` 600 is beyond `max_turns` 500"),
    ('effect = "steal_push"', 'effect = "steel_push"', 'effect = "steel_push"',
     "an effect `steel_push` is not valid"),
    ('card = "GG-010"', 'crad = "GG-010"', "[[step]]", "`use` needs `card`"),
    ('card = "GG-010"', 'card = "GG-010"\nelement = "fire"', 'element = "fire"',
     "unknown key `element` (`use` takes card, effect, target)"),
    ('target = "B"\n', 'target = "B"\nexpect = "legal"\n', 'expect = "legal"',
     '`expect` is "illegal" or absent'),
    ('action = "end_turn"', 'action = "end-turn"', 'action = "end-turn"',
     "(did you mean `end_turn`?)"),
    ('A = ["GG-005"]', 'A = ["maybe"]', 'A = ["maybe"]',
     "answer `maybe` is neither yes, no nor a card id"),
    ('A = ["GG-005"]', 'A = ["GG-05"]', 'A = ["GG-05"]', "(did you mean `GG-005`?)"),
    ('A = { B = ["GG-002"', 'A = { A = ["GG-002"', 'A = { A =', "`A` is paired with itself"),
    ('take = ["GG-001"]', 'take = ["GG-001"]\nshuffle = [["GG-002",\n  "GG-0O2"]]', '"GG-0O2"',
     "unknown card id `GG-0O2`"),
])
def test_a_bad_case_names_its_line(tmp_path, old, new, needle, message):
    text = changed(PUSH, old, new)
    found = problems(tmp_path, text)
    line = line_of(text, needle)
    assert any(f":{line}: " in p and message in p for p in found), found


def test_too_many_copies_and_an_element_owned_twice_are_bad_cases(tmp_path):
    text = changed(PUSH, 'hand = ["GG-010", "GG-005", "GG-006"]',
                   'hand = ["GG-010", "GG-005", "GG-005"]\nelements = ["fire"]')
    text = changed(text, 'declared = ["GG-003"]', 'declared = ["GG-003"]\nelements = ["fire"]')
    found = problems(tmp_path, text)
    # each at the place it is written: the second GG-005, B's fire
    assert any(f":{line_of(text, 'GG-005', )}: [state.A] hand: GG-005 appears 2 times on the "
               "board, but the set has 1" in p for p in found), found
    fire = text.split("\n").index('elements = ["fire"]', line_of(text, "[state.B]")) + 1
    assert any(f":{fire}: [state.B]: the fire element card is owned by A already" in p
               for p in found), found


def test_an_unknown_game_is_one_problem_naming_the_games(tmp_path):
    found = problems(tmp_path, changed(PUSH, 'game = "getgem"', 'game = "get-gem"'))
    assert found == [f"{tmp_path / 'case.toml'}:3: [case]: `game` `get-gem` is not a game of "
                     "the ruling cases (did you mean `getgem`? the games are world-gainer, "
                     "getgem, wonderful-world, imitation-world; without `game` a case is World "
                     "Gainer's)"]
    found = problems(tmp_path, changed(PUSH, 'game = "getgem"', "game = 7"))
    assert len(found) == 1 and "`game` must be a string, not an integer `7`" in found[0]


def test_a_bad_case_is_reported_by_the_command_and_not_run(tmp_path):
    bad = write(tmp_path, changed(PUSH, 'turn = 6 ', 'turn = "six" '), "bad.toml")
    good = write(tmp_path, PUSH, "good.toml")
    out = CliRunner().invoke(main, ["rulings", str(bad), str(good)])
    assert out.exit_code != 0
    assert f"ERROR {bad}:11: [state]: `turn` must be an integer, not a string `'six'`" in out.output
    assert "PASS gg-push-the-curse-spoils-check" in out.output
    assert "Traceback" not in out.output
    assert out.output.strip().endswith("1 passed, 1 failed")
