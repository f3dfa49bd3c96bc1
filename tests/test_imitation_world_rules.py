"""Imitation World's rule functions (:mod:`wgdsl.games.imitation_world.rules`) against the
spec's own text: every worked example and every Q&A ruling these functions decide
(../shared/spec/imitation-world.md, cited "IW R17.4" and "Q&A 10"). Each expectation is
worked out by hand from the spec — the IW01 values are copied from its card table, the
outcomes from its answers — never from the program's output.

IW01 values used (the spec's table): IW-004 2/2, IW-005 1/4, IW-006 2/2 (連結攻撃),
IW-007 4/4 (判定時 ATK +2 in barrier and aga judgments), IW-008 3/0, IW-009 1/1, IW-010 2/2
(判定時 DEF +2 as a blocker), IW-012 4/3, IW-013 0/3; IW-014 DEF +2, IW-015 ATK −2, IW-023
ATK +2; agas IW-001 (実存, DEF 6, face up: your geuda DEF +1), IW-002 (幻想, DEF 5), IW-003
(曖昧, DEF 4).
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wgdsl.games.imitation_world import rules
from wgdsl.games.imitation_world.rules import (
    AMBIGUOUS, Aga, CostZone, DeckCard, Fighter, Marks, Placement, Received)
from wgdsl.kernel.errors import IllegalAction

EX, FA = "existence", "fantasy"
SET_FACTIONS = (EX, FA, AMBIGUOUS)  # IW01's factions (IW R3.1)
AGA_EX = Aga("実存の守護者", {EX})        # IW-001
AGA_FA = Aga("幻想の語り部", {FA})        # IW-002
AGA_AMB = Aga("曖昧なる仮面", {AMBIGUOUS})  # IW-003

# the IW01 geuda as judgments see them, with no modifier
IW004, IW005, IW006, IW008, IW009, IW012, IW013 = (
    Fighter(2, 2), Fighter(1, 4), Fighter(2, 2), Fighter(3, 0), Fighter(1, 1), Fighter(4, 3),
    Fighter(0, 3))
IW007_SURVIVAL = Fighter(4, 4)                     # its 判定時 +2 is not for survival judgments
IW007_BARRIER = Fighter(4, 4, judgment_atk=2)      # barrier and aga judgments: ATK 6
IW010_BLOCKER = Fighter(2, 2, judgment_def=2)      # as a blocker: DEF 4
IW010_OTHERWISE = Fighter(2, 2)                    # attacking, or target A


def refused(rule, fn, *args, **kw):
    """Call ``fn``; it must refuse with :class:`IllegalAction` citing ``rule``."""
    with pytest.raises(IllegalAction) as caught:
        fn(*args, **kw)
    assert caught.value.rule == rule, caught.value
    return caught.value


# ================================================================ IW R4: deck construction
def _geuda(n, faction):
    return [DeckCard(f"{faction}-geuda-{i}", "geuda", faction) for i in range(n)]


def existence_wall():
    """The reference deck existence-wall (spec, "Reference decks"): aga IW-001; 49 実存 cards
    (IW-004-008, IW-014 enchant, IW-016 territory, IW-020 eventi, IW-023 object, IW-025-064
    geuda) and 11 曖昧 (IW-013, IW-017 territory, IW-019 and IW-022 eventi, IW-105-111 geuda),
    every name different. Names here are stand-ins except the two the Q&A adds to."""
    ex = [DeckCard("実存の鎧", "enchant", EX), DeckCard("鋼の平原", "territory", EX),
          DeckCard("実存の裁き", "eventi", EX), DeckCard("実存の砲台", "object", EX),
          DeckCard("新兵", "geuda", EX)] + _geuda(44, EX)
    amb = [DeckCard("曖昧な霧", "territory", AMBIGUOUS),
           DeckCard("ツードローちゃんの応援", "eventi", AMBIGUOUS),
           DeckCard("記憶の回収", "eventi", AMBIGUOUS)] + _geuda(8, AMBIGUOUS)
    assert len(ex) == 49 and len(amb) == 11
    return ex + amb


RECRUIT = DeckCard("新兵", "geuda", EX)           # IW-025
MOON_RABBIT = DeckCard("月の兎", "geuda", FA)     # IW-065


def rules_of(problems):
    return [p.rule for p in problems]


def test_q32_the_reference_deck_is_legal_under_the_main_rule():
    assert rules.deck_problems(existence_wall(), AGA_EX) == ()


def test_q32_one_card_fewer_breaks_r4_1():
    deck = existence_wall()[:-1]
    problems = rules.deck_problems(deck, AGA_EX)
    assert rules_of(problems) == ["IW R4.1"]
    assert "59" in problems[0].message and "60" in problems[0].message


def test_q32_a_second_copy_of_a_name_breaks_r4_2_but_the_starter_variant_allows_three():
    deck = existence_wall() + [RECRUIT]
    problems = rules.deck_problems(deck, AGA_EX)
    assert rules_of(problems) == ["IW R4.2"] and "新兵" in problems[0].message
    assert rules.deck_problems(deck, AGA_EX, variant="starter") == ()
    assert rules.deck_problems(existence_wall() + [RECRUIT] * 2, AGA_EX, "starter") == ()
    # a fourth copy is one too many even for the starter variant (IW R4.5: at most 3)
    assert rules_of(rules.deck_problems(existence_wall() + [RECRUIT] * 3, AGA_EX, "starter")) \
        == ["IW R4.2"]


def test_names_count_by_name_whatever_the_card_r4_2():
    # two different cards with one name are one name (IW R4.2); the types differ on purpose
    deck = existence_wall() + [DeckCard("新兵", "object", AMBIGUOUS)]
    assert rules_of(rules.deck_problems(deck, AGA_EX)) == ["IW R4.2"]


def test_starter_variant_needs_thirty_cards_r4_5():
    assert rules.deck_problems(existence_wall()[:30], AGA_EX, "starter") == ()
    assert rules_of(rules.deck_problems(existence_wall()[:29], AGA_EX, "starter")) == ["IW R4.1"]
    with pytest.raises(ValueError, match="IW R4.5"):
        rules.deck_problems(existence_wall(), AGA_EX, "casual")


def test_q32_a_fantasy_card_is_illegal_for_the_existence_aga_and_legal_for_the_ambiguous():
    deck = existence_wall() + [MOON_RABBIT]
    problems = rules.deck_problems(deck, AGA_EX)
    assert rules_of(problems) == ["IW R4.4"] and "月の兎" in problems[0].message
    assert rules.deck_problems(deck, AGA_AMB) == ()


def test_ambiguous_cards_fit_every_aga_r4_4():
    amb = [c for c in existence_wall() if c.faction == AMBIGUOUS]
    fantasy_deck = _geuda(49, FA) + amb
    assert rules.deck_problems(fantasy_deck, AGA_FA) == ()
    # existence-wall under the fantasy aga: every one of its 49 実存 cards is refused
    assert rules_of(rules.deck_problems(existence_wall(), AGA_FA)) == ["IW R4.4"] * 49


def test_an_aga_permitting_two_factions_r3_4():
    both = Aga("two", {EX, FA})
    assert rules.deck_problems(existence_wall() + [MOON_RABBIT], both) == ()
    assert rules_of(rules.deck_problems(existence_wall() + [DeckCard("r", "geuda", "r")], both)) \
        == ["IW R4.4"]


def test_q32_an_aga_among_the_cards_breaks_r4_3_and_no_aga_too():
    deck = existence_wall() + [DeckCard("曖昧なる仮面", "aga", AMBIGUOUS)]
    assert rules_of(rules.deck_problems(deck, AGA_EX)) == ["IW R4.3"]
    assert rules_of(rules.deck_problems(existence_wall(), None)) == ["IW R4.3"]


def test_every_problem_is_reported_in_rule_order():
    deck = existence_wall()[1:] + [RECRUIT, MOON_RABBIT, DeckCard("x", "aga", EX)]
    # 59 + 2 deck cards = 61: size fine; 新兵 twice; an aga; a 幻想 card
    assert rules_of(rules.deck_problems(deck, AGA_EX)) == ["IW R4.2", "IW R4.3", "IW R4.4"]
    deck = existence_wall()[:-5] + [RECRUIT, MOON_RABBIT]
    # 55 + 2 = 57 cards, 新兵 twice, 月の兎 for the 実存 aga
    assert rules_of(rules.deck_problems(deck, AGA_EX)) == ["IW R4.1", "IW R4.2", "IW R4.4"]


# ========================================================= IW R8-R9: the cost zone
def test_q1_the_first_play_fixes_the_unmarked_zone():
    zone = CostZone(unmarked=3)
    zone = rules.after_play(zone, FA, 3)                 # IW-011, 幻想 cost 3
    assert zone == CostZone(piles=[(FA, 3)])
    refused("IW R9.2", rules.after_play, zone, EX, 1)    # IW-004: no 実存 pile, though 3 >= 1
    assert not rules.can_play(zone, EX, 1)
    assert rules.after_play(zone, AMBIGUOUS, 1) == zone  # IW-013: 曖昧 counts the total


def test_q2_a_second_faction_before_any_play():
    markers = rules.markers(AGA_AMB, SET_FACTIONS)
    assert markers == (EX, FA)
    zone = rules.after_placement(CostZone(unmarked=2), Placement(FA, mark=EX), markers)
    assert zone == CostZone(piles=[(EX, 2), (FA, 1)])
    assert rules.after_play(zone, EX, 2) == zone         # IW-005
    assert rules.after_play(zone, FA, 1) == zone         # IW-009
    refused("IW R9.2", rules.after_play, zone, FA, 2)    # IW-010: pile 幻想 has 1 card
    assert rules.after_play(zone, AMBIGUOUS, 3) == zone  # IW-022: 3 cards in total


def test_q3_a_single_faction_aga_keeps_one_pile():
    markers = rules.markers(AGA_EX, SET_FACTIONS)
    assert markers == (EX,)
    zone = CostZone(unmarked=2)
    refused("IW R8.6", rules.after_placement, zone, Placement(FA, mark=EX), markers)
    assert rules.after_placement(zone, Placement(), markers) == CostZone(unmarked=3)
    # the only placement it is offered is the unmarked pile
    assert rules.placements(zone, markers) == (Placement(),)
    # 曖昧 is never a marker, whatever the aga
    for aga in (AGA_EX, AGA_FA, AGA_AMB):
        allowed = rules.markers(aga, SET_FACTIONS)
        assert AMBIGUOUS not in allowed
        err = refused("IW R8.6", rules.after_placement, zone, Placement(AMBIGUOUS, mark=EX),
                      allowed)
        assert "never a marker" in err.reason
        refused("IW R8.6", rules.after_placement, zone, Placement(EX, mark=AMBIGUOUS), allowed)


def test_q5_the_cost_is_a_threshold():
    zone = CostZone(piles=[(EX, 2)])
    for faction, cost in ((EX, 2), (EX, 2), (EX, 1), (EX, 1)):  # IW-005, IW-006, IW-004, IW-014
        zone = rules.after_play(zone, faction, cost)
    assert zone == CostZone(piles=[(EX, 2)])


def test_q22_an_equal_cost_territory_still_fixes_the_cost_zone():
    # B's IW-016 (実存 territory, cost 2) against A's IW-017 (cost 2); B's zone unmarked with 2
    assert rules.territory_play(2, 2) == "both"
    assert rules.after_play(CostZone(unmarked=2), EX, 2) == CostZone(piles=[(EX, 2)])


def test_q21_territory_replacement():
    assert rules.territory_play(2, 2) == "both"        # (a) IW-017 on IW-016
    assert rules.territory_play(3, 2) == "replaces"    # (b) IW-018 on IW-016
    refused("IW R13.2", rules.territory_play, 2, 3)    # then IW-017 on IW-018: 2 < 3
    assert rules.territory_play(2, None) == "enters"


def test_an_unmarked_zone_must_hold_the_cost_and_a_refused_play_fixes_nothing_r9_2_r9_5():
    zone = CostZone(unmarked=1)
    err = refused("IW R9.2", rules.after_play, zone, FA, 2)
    assert "2" in err.reason and "1" in err.reason
    assert zone == CostZone(unmarked=1)
    refused("IW R9.3", rules.after_play, CostZone(piles=[(EX, 1), (FA, 1)]), AMBIGUOUS, 3)


def test_cost_zero_always_holds_and_still_fixes_r9_4():
    assert rules.after_play(CostZone(unmarked=2), EX, 0) == CostZone(piles=[(EX, 2)])
    assert rules.after_play(CostZone(), EX, 0) == CostZone()         # nothing to fix
    marked = CostZone(piles=[(EX, 1)])
    assert rules.after_play(marked, FA, 0) == marked                 # marks nothing


def test_the_first_cost_card_goes_to_the_unmarked_pile_r8_6():
    both = (EX, FA)
    assert rules.placements(CostZone(), both) == (Placement(),)
    refused("IW R8.6", rules.after_placement, CostZone(), Placement(FA, mark=EX), both)
    refused("IW R8.5", rules.after_placement, CostZone(unmarked=1), Placement(EX, mark=EX), both)
    refused("IW R8.6", rules.after_placement, CostZone(unmarked=1), Placement(EX), both)


def test_a_marked_zone_joins_or_opens_a_pile_and_never_changes_a_marker_r8_4_r8_6():
    both = (EX, FA)
    zone = CostZone(piles=[(EX, 2)])
    assert rules.placements(zone, both) == (Placement(EX), Placement(FA))
    assert rules.after_placement(zone, Placement(EX), both) == CostZone(piles=[(EX, 3)])
    assert rules.after_placement(zone, Placement(FA), both) == CostZone(piles=[(EX, 2), (FA, 1)])
    refused("IW R8.4", rules.after_placement, zone, Placement(), both)
    refused("IW R8.4", rules.after_placement, zone, Placement(FA, mark=EX), both)
    # a 実存-only player has one pile it can only join
    assert rules.placements(zone, (EX,)) == (Placement(EX),)
    refused("IW R8.6", rules.after_placement, zone, Placement(FA), (EX,))
    # unmarked with cards, both markers allowed: join, or either way round
    assert rules.placements(CostZone(unmarked=1), both) == (
        Placement(), Placement(EX, mark=FA), Placement(FA, mark=EX))


def test_a_marker_alone_is_no_placement_r8_6():
    both = (EX, FA)
    for zone in (CostZone(), CostZone(unmarked=2), CostZone(piles=[(EX, 1)])):
        refused("IW R8.6", rules.after_placement, zone, Placement(None, mark=EX), both)


def test_the_agas_a_hidden_aga_may_be_r22_5():
    # what the opponent sees of a player of existence-wall: 実存 and 曖昧 cards, a 実存 pile
    owned, zone = {EX, AMBIGUOUS}, CostZone(piles=[(EX, 2)])
    assert [a.name for a in (AGA_EX, AGA_FA, AGA_AMB) if rules.aga_consistent(a, owned, zone)] \
        == [AGA_EX.name, AGA_AMB.name]
    # a 幻想 pile beside it leaves the 曖昧 aga only (IW R8.6)
    two = CostZone(piles=[(EX, 2), (FA, 1)])
    assert [a.name for a in (AGA_EX, AGA_FA, AGA_AMB)
            if rules.aga_consistent(a, {AMBIGUOUS}, two)] == [AGA_AMB.name]
    # an unmarked zone tells nothing (the faction stays hidden until the first play)
    assert all(rules.aga_consistent(a, {AMBIGUOUS}, CostZone(unmarked=3))
               for a in (AGA_EX, AGA_FA, AGA_AMB))


def test_a_cost_zone_is_one_model_or_the_other_r8_4():
    for bad in (dict(unmarked=1, piles=[(EX, 1)]), dict(piles=[(EX, 1), (EX, 2)]),
                dict(piles=[(AMBIGUOUS, 1)]), dict(piles=[(EX, 0)]), dict(unmarked=-1)):
        with pytest.raises(ValueError, match="IW R8"):
            CostZone(**bad)


_faction_or_none = st.sampled_from([None, EX, FA, AMBIGUOUS])


@settings(max_examples=300)
@given(st.data(), st.sampled_from([AGA_EX, AGA_FA, AGA_AMB]))
def test_property_cost_cards_are_never_lost_and_markers_never_change(data, aga):
    """IW R8.3-R8.4, R8.6, R9.1: whatever is placed (a legal placement or any other) and
    played, refused or not, the zone holds one card per accepted placement, a marked zone
    stays marked with its old piles first and none smaller, every marker is one the aga
    permits, and every placement :func:`placements` offers is accepted."""
    allowed = rules.markers(aga, SET_FACTIONS)
    zone, placed = CostZone(), 0
    for _ in range(data.draw(st.integers(0, 25))):
        before = zone
        kind = data.draw(st.sampled_from(["legal", "any", "play"]))
        try:
            if kind == "legal":
                zone = rules.after_placement(
                    zone, data.draw(st.sampled_from(rules.placements(zone, allowed))), allowed)
                placed += 1
            elif kind == "any":
                placement = Placement(data.draw(_faction_or_none), data.draw(_faction_or_none))
                zone = rules.after_placement(zone, placement, allowed)
                placed += 1
            else:
                zone = rules.after_play(zone, data.draw(st.sampled_from(SET_FACTIONS)),
                                        data.draw(st.integers(0, 4)))
        except IllegalAction:
            assert kind != "legal"
            assert zone == before
        assert zone.total == placed
        if before.marked:
            assert zone.marked
            assert [f for f, _ in zone.piles[:len(before.piles)]] == [f for f, _ in before.piles]
            assert all(zone.pile(f) >= n for f, n in before.piles)
        if kind != "play":
            assert {f for f, _ in zone.piles} - {f for f, _ in before.piles} <= set(allowed)


# ==================================================== IW R15-R16: attack, join, block
def test_q6_summoning_sickness_stops_attacking_and_joining_not_blocking():
    sick = Marks(new=True)
    assert rules.attack_refusal(sick).rule == "IW R15.3"
    a_field = {"IW-006": Marks(), "IW-004": sick}
    assert rules.joinable("IW-006", a_field) == ()
    err = refused("IW R15.5", rules.linked_side, "IW-006", True, a_field, ["IW-004"],
                  ["IW-006", "IW-004"])
    assert "summoning sickness" in err.reason
    # B's turn 4: its new mark cleared; and sickness never stops a block (IW R16.4) anyway
    assert rules.block_refusal(sick) is None
    assert rules.block_refusal(Marks()) is None


def test_q7_target_a_must_be_pan():
    assert rules.target_refusal(Marks(pan=False)).rule == "IW R15.3"
    assert rules.target_refusal(Marks(pan=True)) is None


def test_q10_one_attack_per_turn_even_when_ripan_again():
    assert rules.attack_refusal(Marks(pan=True, attacked=True)).rule == "IW R15.3"
    # IW R15.3 ruling: ripāned by an effect, it still has declared its attack
    assert rules.attack_refusal(Marks(pan=False, attacked=True)).rule == "IW R15.3"
    assert rules.attack_refusal(Marks(pan=True)).rule == "IW R15.3"
    assert rules.attack_refusal(Marks()) is None


def test_q25_q27_a_blocker_blocks_once_and_a_pan_geuda_never():
    assert rules.block_refusal(Marks(blocked=True)).rule == "IW R16.2"   # Q&A 25
    assert rules.block_refusal(Marks(pan=True)).rule == "IW R16.2"       # Q&A 27
    # blocking does not pān (IW R16.3): a geuda that blocked attacks in its next turn
    assert rules.attack_refusal(Marks()) is None
    b_field = {"IW-005": Marks(blocked=True), "IW-004": Marks()}
    refused("IW R16.2", rules.blocking_side, ["IW-005"], b_field)
    assert rules.blocking_side(["IW-004"], b_field) == ("IW-004",)
    refused("IW R16.2", rules.blocking_side, ["IW-004", "IW-004"], b_field)
    assert rules.blocking_side([], b_field) == ()


def test_q26_a_linked_side_in_the_players_order():
    a_field = {"IW-006": Marks(), "IW-004": Marks(), "IW-008": Marks(attacked=True)}
    assert rules.joinable("IW-006", a_field) == ("IW-004",)
    assert rules.linked_side("IW-006", True, a_field, ["IW-004"], ["IW-004", "IW-006"]) == (
        "IW-004", "IW-006")
    assert rules.linked_side("IW-006", True, a_field) == ("IW-006",)
    refused("IW R15.5", rules.linked_side, "IW-006", True, a_field, ["IW-004"])  # no order
    refused("IW R15.5", rules.linked_side, "IW-006", True, a_field, ["IW-004"], ["IW-004"])
    refused("IW R15.5", rules.linked_side, "IW-006", True, a_field, ["IW-006"], ["IW-006"])
    refused("IW R15.5", rules.linked_side, "IW-006", True, a_field, ["IW-008"],
            ["IW-006", "IW-008"])
    # a geuda without 連結攻撃 brings nobody along
    refused("IW R15.5", rules.linked_side, "IW-004", False, a_field, ["IW-006"],
            ["IW-004", "IW-006"])
    # the declarer itself must be able to attack
    refused("IW R15.3", rules.linked_side, "IW-008", True, a_field)


def test_where_an_attack_is_judged_r15_4_r16_5_r16_6():
    assert rules.judgment_kind(target_player=False, blockers=0, barriers=5) == "survival"
    assert rules.judgment_kind(True, 2, 0) == "survival"   # a blocked attack never reaches the aga
    assert rules.judgment_kind(True, 0, 1) == "barrier"
    assert rules.judgment_kind(True, 0, 0) == "aga"


# ================================================================ IW R17: survival
def R(received, defence, out):
    return Received(received, defence, out)


def test_r17_7_example_and_q10_front_to_back():
    j = rules.survival_judgment([IW007_SURVIVAL], [IW005, IW004])
    assert (j.attacking_deals, j.defending_deals) == (4, 1 + 2)
    assert j.defending == (R(4, 4, True), R(4 - 4, 2, False))
    assert j.attacking == (R(3, 4, False),)


def test_r17_8_worked_example():
    a_side = [Fighter(2, 2 + 2),     # IW-004 with IW-014: 2/4
              Fighter(2 + 2, 2)]     # IW-006 with IW-023 this turn: 4/2
    b_side = [IW010_BLOCKER, IW008]  # 2/4 as a blocker, 3/0
    j = rules.survival_judgment(a_side, b_side)
    assert (j.attacking_deals, j.defending_deals) == (6, 5)
    assert j.attacking == (R(5, 4, True), R(5 - 4, 2, False))
    assert j.defending == (R(6, 4, True), R(6 - 4, 0, True))
    # "Had B put a blocker of DEF 6 or more in front, IW-008 would receive 0 or less and
    # survive despite its DEF 0"
    j = rules.survival_judgment(a_side, [Fighter(2, 6), IW008])
    assert j.defending[1] == R(0, 0, False)
    assert rules.survival_judgment(a_side, [Fighter(2, 7), IW008]).defending[1] == R(-1, 0, False)
    # "Had IW-010 been the target of an A attack rather than a blocker, its DEF would be 2"
    assert rules.survival_judgment(a_side, [IW010_OTHERWISE]).defending == (R(6, 2, True),)


def test_q8_one_against_one_both_out():
    j = rules.survival_judgment([IW004], [IW010_OTHERWISE])
    assert j.defending == (R(2, 2, True),) and j.attacking == (R(2, 2, True),)


def test_q9_zero_attack_against_zero_defence():
    j = rules.survival_judgment([IW008], [IW013])
    assert j.defending == (R(3, 3, True),)
    assert j.attacking == (R(0, 0, False),)


def test_q11_the_judgment_bonus_of_a_rear_blocker():
    j = rules.survival_judgment([IW007_SURVIVAL], [IW009, IW010_BLOCKER])
    assert j.defending == (R(4, 1, True), R(4 - 1, 4, False))
    assert j.attacking == (R(1 + 2, 4, False),)
    # without its 判定時 +2 it would be out: 3 >= 2
    assert rules.survival_judgment([IW007_SURVIVAL], [IW009, IW010_OTHERWISE]).defending[1] \
        == R(3, 2, True)


def test_q15_a_face_up_aga_adds_its_defence():
    # IW-001 face up: B's geuda have DEF +1 (a continuous modifier, not 判定時)
    j = rules.survival_judgment([IW007_SURVIVAL], [Fighter(1, 4 + 1)])
    assert j.defending == (R(4, 5, False),) and j.attacking == (R(1, 4, False),)
    # with its aga face down the same block puts IW-005 out
    assert rules.survival_judgment([IW007_SURVIVAL], [IW005]).defending == (R(4, 4, True),)


def test_q25_block_where_both_survive():
    j = rules.survival_judgment([IW004], [IW005])
    assert j.defending == (R(2, 4, False),) and j.attacking == (R(1, 2, False),)


def test_q26_linked_side_deals_its_sum_and_receives_front_to_back():
    j = rules.survival_judgment([IW004, IW006], [IW005])
    assert j.defending == (R(4, 4, True),)
    assert j.attacking == (R(1, 2, False), R(1 - 2, 2, False))
    # unblocked, the side's 4 destroys only the top barrier
    b = rules.barrier_judgment([IW004, IW006], 5)
    assert (b.deals, b.defence, b.destroyed, b.barriers_left) == (4, 1, True, 4)


def test_q27_unblocked_or_against_the_panned_blocker():
    b = rules.barrier_judgment([IW004], 5)
    assert (b.deals, b.defence, b.destroyed) == (2, 1, True)
    j = rules.survival_judgment([IW004], [IW010_OTHERWISE])
    assert j.attacking[0].out and j.defending[0].out


def test_q28_both_out_and_the_heavy_knight_gets_no_bonus_in_survival():
    j = rules.survival_judgment([IW012], [IW007_SURVIVAL])
    assert j.defending == (R(4, 4, True),) and j.attacking == (R(4, 3, True),)


def test_iw01_rulings_the_judgment_bonuses_inside_a_side():
    """Spec, "Rulings that follow for IW01 cards": IW-007's +2 counts in barrier and aga
    judgments also as part of a linked side; IW-010's +2 as a blocker also counts in the DEF
    it subtracts for the blockers behind it."""
    b = rules.barrier_judgment([IW004, IW007_BARRIER], 1)    # 2 + (4 + 2) against DEF 5
    assert (b.deals, b.destroyed) == (8, True)
    # IW-009 and IW-007 against IW-001 (DEF 6): 1 + (4 + 2) = 7 >= 6; without the +2, 5 < 6
    assert rules.aga_judgment([IW009, IW007_BARRIER], 6).destroyed
    assert not rules.aga_judgment([IW009, IW007_SURVIVAL], 6).destroyed
    # an attack of 5 on [IW-010 as a blocker, IW-004]: IW-010 receives 5 >= 4, out; IW-004
    # receives 5 - 4 = 1 < 2, stays (without the +2 it would receive 3 >= 2, out)
    five = [Fighter(5, 5)]
    assert rules.survival_judgment(five, [IW010_BLOCKER, IW004]).defending == (
        R(5, 4, True), R(1, 2, False))
    assert rules.survival_judgment(five, [IW010_OTHERWISE, IW004]).defending == (
        R(5, 2, True), R(3, 2, True))


def test_values_floor_once_r2_3_and_q23():
    # Q&A 23: IW-015 on IW-005: ATK 1 − 2 -> 0
    assert Fighter(1 - 2, 4).judged_atk == 0
    # IW R2.3: IW-015's −2 and IW-023's +2 on ATK 1 give 1, in either order, not 2
    assert Fighter(1 - 2 + 2, 2).judged_atk == 1
    # a 判定時 modifier joins the same sum before the floor
    assert Fighter(1 - 2, 2, judgment_atk=2).judged_atk == 1
    assert Fighter(2, -3, judgment_def=2).judged_def == 0
    assert rules.current(-5) == 0 and rules.current(3) == 3


def test_a_judgment_needs_both_sides_r15_6():
    with pytest.raises(ValueError, match="IW R15.6"):
        rules.survival_judgment([], [IW004])
    with pytest.raises(ValueError, match="IW R15.6"):
        rules.survival_judgment([IW004], [])


_fighter = st.builds(Fighter, st.integers(-6, 9), st.integers(-6, 9), st.integers(-3, 3),
                     st.integers(-3, 3))
_side = st.lists(_fighter, min_size=1, max_size=4)


@settings(max_examples=300)
@given(_side, _side)
def test_property_an_attack_of_0_never_makes_a_geuda_out(attacking, defending):
    """IW R17.5: a side that deals 0 (each ATK 0, or below 0 before the floor) outs nobody —
    not even a DEF-0 geuda (the 0/0 note) — and every received value is at most 0."""
    zero = [Fighter(f.atk, f.defence, -f.atk, f.judgment_def) for f in attacking]
    j = rules.survival_judgment(zero, defending)
    assert j.attacking_deals == 0
    assert not any(r.out for r in j.defending)
    assert all(r.received <= 0 for r in j.defending)


@settings(max_examples=300)
@given(_side, _side)
def test_property_values_never_count_below_zero(attacking, defending):
    """IW R2.3, R23.2: every judged value is at least 0; a geuda judges exactly like one whose
    values are its floored sums; and the front geuda of a side receives the other side's
    whole total."""
    j = rules.survival_judgment(attacking, defending)
    assert j.attacking_deals >= 0 and j.defending_deals >= 0
    assert all(r.defence >= 0 for r in j.attacking + j.defending)
    floored = [[Fighter(max(0, f.atk + f.judgment_atk), max(0, f.defence + f.judgment_def))
                for f in side] for side in (attacking, defending)]
    assert rules.survival_judgment(*floored) == j
    assert j.defending[0].received == j.attacking_deals
    assert j.attacking[0].received == j.defending_deals


@settings(max_examples=300)
@given(_side, _side, st.integers(0, 5))
def test_property_more_attack_never_saves_a_geuda(attacking, defending, extra):
    """IW R17.4-R17.5: out iff the received value reaches DEF and 1, received = total − the
    DEF in front; raising the attacking side's total never saves a defender."""
    before = rules.survival_judgment(attacking, defending)
    stronger = [attrs.evolve(attacking[0], judgment_atk=attacking[0].judgment_atk + extra)] \
        + attacking[1:]
    after = rules.survival_judgment(stronger, defending)
    for b, a in zip(before.defending, after.defending):
        assert a.out or not b.out


# ========================================================= IW R18-R19: barriers, the aga
def test_barrier_defence_by_count_r18_1():
    assert rules.barrier_defences(5) == (1, 2, 3, 4, 5)
    assert rules.barrier_defences(4) == (2, 3, 4, 5)
    assert rules.barrier_defences(1) == (5,)
    for bad in (0, 6):
        with pytest.raises(ValueError, match="IW R18"):
            rules.barrier_defences(bad)


def test_q12_top_barrier_only_and_no_accumulation():
    first = rules.barrier_judgment([IW004], 5)            # ATK 2 against DEF 1
    assert (first.destroyed, first.barriers_left, first.aga_face_up) == (True, 4, False)
    for attacker in (IW009, IW005):                      # ATK 1 against the new top, DEF 2
        j = rules.barrier_judgment([attacker], first.barriers_left)
        assert (j.deals, j.defence, j.destroyed, j.barriers_left) == (1, 2, False, 4)


def test_q13_excess_is_lost():
    j = rules.barrier_judgment([IW007_BARRIER], 5)
    assert (j.deals, j.defence, j.destroyed, j.barriers_left) == (4 + 2, 1, True, 4)


def test_q14_the_last_barrier_flips_the_aga_and_the_attack_ends_there():
    j = rules.barrier_judgment([IW007_BARRIER], 1)       # 6 against DEF 5
    assert (j.deals, j.defence, j.destroyed, j.barriers_left, j.aga_face_up) == (6, 5, True, 0,
                                                                                True)
    # the next attacks are aga judgments against IW-003 (DEF 4)
    assert rules.judgment_kind(True, 0, j.barriers_left) == "aga"
    assert not rules.aga_judgment([IW004], 4).destroyed  # 2 < 4
    win = rules.aga_judgment([IW012], 4)                 # 4 >= 4
    assert (win.deals, win.defence, win.destroyed) == (4, 4, True)
    result = rules.aga_destroyed("B")
    assert (result.winners, result.reason, result.returns) == (("A",), "R20.1",
                                                               {"A": 1.0, "B": 0.0})


def test_q16_the_aga_falls_to_a_judgment_bonus():
    assert not rules.aga_judgment([IW004], 6).destroyed  # IW-001: 2 < 6
    j = rules.aga_judgment([IW007_BARRIER], 6)
    assert (j.deals, j.destroyed) == (6, True)


def test_q33_the_last_barrier_of_a_player_with_a_face_down_aga():
    j = rules.barrier_judgment([IW007_BARRIER], 1)       # A's IW-031 at DEF 5
    assert (j.deals, j.defence, j.destroyed, j.aga_face_up) == (6, 5, True, True)


def test_the_aga_is_attacked_only_with_no_barrier_and_face_up_r19_2():
    with pytest.raises(ValueError, match="IW R19.2"):
        rules.aga_judgment([IW007_BARRIER], 6, barriers=1)
    with pytest.raises(ValueError, match="IW R19.2"):
        rules.aga_judgment([IW007_BARRIER], 6, face_up=False)
    # an attack of 0 destroys nothing, even an aga of DEF 0 (IW R19.2: T >= 1)
    assert not rules.aga_judgment([IW013], 0).destroyed
    assert rules.aga_judgment([IW009], -2).defence == 0


@settings(max_examples=300)
@given(_side, st.integers(1, 5))
def test_property_one_barrier_at_most_per_attack(attacking, barriers):
    """IW R18.2-R18.4: an attack destroys the top barrier iff its total reaches 6 − n, and
    never more than one; the aga turns face up exactly when none is left."""
    j = rules.barrier_judgment(attacking, barriers)
    assert j.destroyed == (rules.side_attack(attacking) >= 6 - barriers)
    assert j.barriers_left == barriers - j.destroyed
    assert j.aga_face_up == (j.barriers_left == 0)


# ====================================================================== IW R20: results
def test_q17_deck_out_at_the_draw_phase():
    assert rules.draw_phase_loss("B", 1) is None
    assert rules.drawn(1, 2) == 1
    result = rules.draw_phase_loss("B", 0)
    assert (result.winners, result.reason, result.returns) == (("A",), "R20.2",
                                                               {"A": 1.0, "B": 0.0})


def test_q18_an_effect_draws_nothing_from_an_empty_deck():
    assert rules.drawn(0, 2) == 0
    assert rules.drawn(5, 2) == 2


def test_the_turn_cap_is_a_draw_r20_6():
    assert rules.turn_cap(499, 500) is None
    result = rules.turn_cap(500, 500)
    assert (result.winners, result.reason, result.returns) == ((), "R20.6",
                                                               {"A": 0.5, "B": 0.5})
    with pytest.raises(ValueError, match="IW R1.1"):
        rules.aga_destroyed("C")
