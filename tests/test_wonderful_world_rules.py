"""It's a Wonderful World: the IAW01 set as the game file gives it (every total of the
spec's IAW01 tables), and the rule functions against the spec's own worked examples
(IAW R13.4, R15.2, R17.5 / Q24, Q7, Q8) and rulings (R14, R18, R20)."""

from __future__ import annotations

from collections import Counter

import pytest

from wgdsl.games.wonderful_world import GAME_FILE
from wgdsl.games.wonderful_world import rules
from wgdsl.games.wonderful_world.cards import card_table
from wgdsl.lang.game import compile_text

SPEC, FOUND = compile_text(GAME_FILE.read_text(encoding="utf-8"), str(GAME_FILE))
TABLE = card_table(SPEC)


def test_the_game_file_is_clean_and_holds_the_iaw01_tables():
    assert [d for d in FOUND if d.severity == "error"] == []
    devs = TABLE.developments.values()
    assert len(TABLE.developments) == 32 and len(TABLE.empires) == 5
    assert len(TABLE.deck()) == 150
    # the spec's "Totals (copies counted)" tables and its count of cost spaces
    assert Counter({d.type: 0 for d in devs}) + Counter(
        t for d in devs for t in [d.type] * d.copies) == Counter(
        {"STR": 48, "VEH": 30, "RES": 29, "PRO": 26, "DIS": 17})
    assert Counter(r for d in devs for r in [d.recycle] * d.copies) == Counter(
        {"MAT": 37, "ENE": 30, "SCI": 29, "GLD": 28, "EXP": 26})
    assert Counter(k for d in devs for _ in range(d.copies) for k in d.cost) == Counter(
        {"MAT": 167, "SCI": 140, "ENE": 115, "GLD": 93, "EXP": 73, "KRY": 8, "FIN": 6, "GEN": 4})
    # R4.3: side B is the same for every empire
    assert {e.production["B"] for e in TABLE.empires.values()} == {
        (("MAT", 2, None), ("ENE", 1, None), ("SCI", 1, None))}


def _p(resource, side, **cards):
    return {seat: rules.production(TABLE, resource, "IAW-E01", side, built)
            for seat, built in cards.items()}


def test_production_counts_fixed_and_per_type_entries_as_r13_4_works_it_out():
    # R13.4: side B; P1 has Sky Fortress (EXP per VEH), Airship (EXP 1), Flying Laboratory
    # (SCI 1, EXP 1); P2 has Saucer Wing (EXP 3) and Pirate Hoard (GLD 1, EXP 1)
    p1 = ["IAW-013", "IAW-008", "IAW-011"]
    p2 = ["IAW-012", "IAW-031"]
    assert _p("EXP", "B", P1=p1, P2=p2) == {"P1": 5, "P2": 4}
    assert _p("SCI", "B", P1=p1, P2=p2) == {"P1": 2, "P2": 1}
    assert rules.supremacy("EXP", {"P1": 5, "P2": 4}) == ("P1", "GEN")
    assert rules.supremacy("SCI", {"P1": 2, "P2": 1}) == ("P1", "choice")
    # Robotics: MAT per STR, and a card of the type counts itself (R13.2a)
    assert _p("MAT", "B", P1=["IAW-014", "IAW-001", "IAW-001"])["P1"] == 2 + 2


def test_supremacy_needs_one_seat_alone_with_at_least_one():
    # Q7: 3 players, Materials: 4, 4 and 2 -> nobody (R14.2)
    produced = _p("MAT", "B", P1=["IAW-002"], P2=["IAW-005", "IAW-006"], P3=[])
    assert produced == {"P1": 4, "P2": 4, "P3": 2}
    assert rules.supremacy("MAT", produced) == (None, None)
    # Q8: everyone 0 -> nobody; 1 against 0 wins (R14.3)
    assert rules.supremacy("EXP", {"P1": 0, "P2": 0, "P3": 0}) == (None, None)
    assert rules.supremacy("EXP", {"P1": 1, "P2": 0}) == ("P1", "GEN")
    # R20.5: solo only above 5
    assert rules.supremacy("MAT", {"P1": 5}, solo=True) == (None, None)
    assert rules.supremacy("GLD", {"P1": 6}, solo=True) == ("P1", "FIN")


def test_five_cubes_on_an_empire_become_one_krystallium():
    assert rules.convert(3 + 7) == (2, 0)  # R15.2's example
    assert rules.convert(4) == (0, 4) and rules.convert(5) == (1, 0)


def test_the_score_adds_up_as_q24_works_it_out():
    # R17.5 / Q24: side A, Republic of Europe (1 per GEN); Transit Grid (1 per VEH),
    # Airship x2, Enhanced Soldiers (1 per GEN), Gene Craft (3), El Dorado (3); G 3, F 2
    built = ["IAW-007", "IAW-008", "IAW-008", "IAW-018", "IAW-015", "IAW-028"]
    assert rules.score(TABLE, built, "IAW-E05", "A", generals=3, financiers=2) == {
        "fixed": 6, "combo": 2, "general": 9, "financier": 2, "total": 19}
    # side B: the empire scores nothing
    assert rules.score(TABLE, built, "IAW-E05", "B", 3, 2)["general"] == 3 + 3


@pytest.mark.parametrize("totals, built, chars, expected", [
    ({"P1": 20, "P2": 19}, {"P1": 1, "P2": 9}, {"P1": 0, "P2": 9}, (("P1",), "R18.1")),
    ({"P1": 20, "P2": 20}, {"P1": 5, "P2": 6}, {"P1": 9, "P2": 0}, (("P2",), "R18.2")),
    ({"P1": 20, "P2": 20, "P3": 3}, {"P1": 5, "P2": 5, "P3": 9}, {"P1": 2, "P2": 1, "P3": 0},
     (("P1",), "R18.3")),
    ({"P1": 20, "P2": 20}, {"P1": 5, "P2": 5}, {"P1": 2, "P2": 2}, (("P1", "P2"), "R18.4")),
])
def test_ties_break_by_cards_then_characters_then_are_shared(totals, built, chars, expected):
    assert rules.winners(totals, built, chars) == expected


@pytest.mark.parametrize("total, side, title", [
    (59, "B", "Rookie"), (60, "B", "Dictator"), (99, "B", "Emperor"), (100, "B", "Living God"),
    (74, "A", "Rookie"), (75, "A", "Dictator"), (115, "A", "Living God"),
])
def test_solo_titles_rise_by_15_on_side_a(total, side, title):
    assert rules.solo_title(total, side)[0] == title


def test_cost_left_is_what_completion_waits_for():
    assert rules.cost_left(TABLE, "IAW-023", ["MAT", "MAT", "GLD", "GLD", "GLD"]) == ["FIN"]
    assert rules.cost_left(TABLE, "IAW-002", ["MAT", "MAT", "MAT"]) == []


def test_a_solo_score_below_every_threshold_is_a_rookie_on_either_side():
    assert rules.solo_title(0, "A") == ("Rookie", "ルーキー")
    assert rules.solo_title(14, "A")[0] == rules.solo_title(0, "B")[0] == "Rookie"
