"""Game files played by an engine (`played by`), with bilingual cards, flags and effects:
what the checker accepts, compiles and refuses.  Positions are found in the text, not
copied from a run."""

from __future__ import annotations

import pytest

from test_game_file import errors, problems, where
from wgdsl.games.getgem import GAME_FILE
from wgdsl.lang.game import compile_text

BASE = '''game tiny "Tiny" {
  seats 2 to 3
  played by "wgdsl.games.tiny.game:build"                 rule T9
  zone hand per seat bag owner
  kind gem {
    stat element none, fire
    flag wild
  }
  effect grab "取る" en "Grab" selects a seat once per turn from "wgdsl.games.tiny.fx:grab" rule T2 {
    ja "カードを取る。"
    en "Take a card."
  }
  card T-1 "炎" en "Fire" gem element fire copies 2
  card T-2 "虹" en "Rainbow" gem element none is wild does grab
}
'''


def test_an_engine_game_compiles_its_cards_effects_and_engine():
    spec, found = problems(BASE)
    assert found == []
    assert spec.engine.module == "wgdsl.games.tiny.game" and spec.engine.function == "build"
    assert spec.engine.kind == "engine"
    assert (spec.phases, spec.ends, spec.setup) == ((), (), ())
    (grab,) = spec.effects
    assert (grab.name, grab.name_ja, grab.name_en) == ("grab", "取る", "Grab")
    assert (grab.text_ja, grab.text_en, grab.rule) == ("カードを取る。", "Take a card.", "T2")
    assert (grab.selects, grab.once_per_turn, grab.response) == (True, True, False)
    assert grab.hook.kind == "effect" and grab.hook.function == "grab"
    fire, rainbow = spec.cards
    assert (fire.name, fire.name_en, fire.copies, fire.flags, fire.effects) == (
        "炎", "Fire", 2, (), ())
    assert rainbow.has("wild") and rainbow.effects == ("grab",)
    assert spec.kind("gem").flags == ("wild",)


def test_the_getgem_file_gives_gg01_as_the_spec_lists_it():
    spec, found = compile_text(GAME_FILE.read_text(encoding="utf-8"), str(GAME_FILE))
    assert [d for d in found if d.severity == "error"] == []
    # ../shared/spec/getgem.md R2.5: 18 gem cards and 12 action cards, plus 3 element cards
    by_kind = {}
    for c in spec.cards:
        by_kind[c.kind] = by_kind.get(c.kind, 0) + c.copies
    assert by_kind == {"gem": 18, "action": 12, "element": 3}
    assert spec.seat_range == (2, 5) and spec.option("max_turns").default == 500
    cursed = [c for c in spec.cards if c.has("curse")]
    assert len(cursed) == 1 and cursed[0].copies == 1 and cursed[0].has("undiscardable")
    assert sum(c.copies for c in spec.cards if c.has("wild")) == 2
    duals = [c for c in spec.cards if len(c.effects) == 2]
    assert sorted(c.copies for c in duals) == [2, 3]
    assert [e.name for e in spec.effects if e.response] == ["barrier"]
    assert [e.name for e in spec.effects if e.once_per_turn] == ["peeping"]
    assert all(c.name_en for c in spec.cards)


def test_an_unknown_flag_or_effect_is_named_with_the_nearest():
    text = BASE.replace("is wild does grab", "is wilde does grob")
    found = errors(text)
    assert [(d.pos.line, d.pos.col) for d in found] == [
        where(text, "card T-2", "wilde"), where(text, "card T-2", "grob")]
    assert "kind `gem` has no flag `wilde`" in found[0].message and "`wild`" in found[0].hint
    assert "unknown effect `grob`" in found[1].message and "`grab`" in found[1].hint


def test_an_effect_needs_both_texts_and_an_english_name():
    text = BASE.replace('    en "Take a card."\n', "").replace('"取る" en "Grab"', '"取る"')
    found = errors(text)
    messages = [d.message for d in found]
    assert "effect `grab` has no English text" in messages
    assert "effect `grab` has no English name" in messages
    assert all(d.pos.line == where(text, "effect grab", "effect")[0] for d in found)


def test_an_engine_game_has_no_rounds_and_effects_need_an_engine():
    with_round = BASE.replace("  zone hand", "  round {\n    phase p {\n      reveal\n    }\n  }\n"
                                            "  zone hand")
    (found,) = [d for d in errors(with_round) if "no `round` block" in d.message]
    assert found.pos.line == where(with_round, "round {", "round")[0]
    without_engine = BASE.replace('  played by "wgdsl.games.tiny.game:build"                 rule T9\n',
                                  "")
    messages = [d.message for d in errors(without_engine)]
    assert "effects need an engine that carries them out" in messages


def test_engine_and_effects_run_only_code_of_wgdsl_games():
    text = BASE.replace('"wgdsl.games.tiny.game:build"', '"os:system"')
    (found,) = errors(text)
    assert "outside the wgdsl.games package" in found.message
    assert (found.pos.line, found.pos.col) == where(text, "played by", '"os:system"')


def test_an_engine_that_does_not_exist_is_a_diagnostic_at_played_by(tmp_path):
    from wgdsl.games.described import check_game_file

    path = tmp_path / "tiny.game"
    path.write_text(BASE, encoding="utf-8")
    game, found, _ = check_game_file(path)
    assert game is None
    messages = {(d.pos.line, d.message) for d in found}
    assert (where(BASE, "played by", "p")[0], "no module `wgdsl.games.tiny.game`") in messages
    assert (where(BASE, "effect grab", "e")[0], "no module `wgdsl.games.tiny.fx`") in messages


LISTS = '''game lists "Lists" {
  seats 1 to 5
  played by "wgdsl.games.tiny.game:build"
  kind development {
    stat type STR, VEH
    stat cost of MAT, ENE, KRY, GEN
    stat produce of MAT, ENE per STR, VEH
    stat vp per STR, VEH, GEN
    stat recycle MAT, ENE
  }
  card T-13 "空中要塞" en "Sky Fortress" development type VEH cost [MAT 3, ENE 3, KRY, MAT] produce [ENE per VEH] vp [] recycle MAT
  card T-14 "x" en "X" development type STR cost [GEN 2] vp [1 per GEN, 2] recycle ENE
}
'''


def test_list_stats_compile_to_entries_counts_merged_in_declared_order():
    spec, found = problems(LISTS)
    assert found == []
    fortress, x = spec.cards
    # MAT 3 and MAT: four MAT spaces, listed in the kind's order (MAT, ENE, KRY)
    assert fortress.stat("cost") == (("MAT", 4, None), ("ENE", 3, None), ("KRY", 1, None))
    assert fortress.stat("produce") == (("ENE", 1, "VEH"),)
    assert fortress.stat("vp") == () and x.stat("produce") == ()  # not given: empty
    assert x.stat("vp") == ((None, 1, "GEN"), (None, 2, None))
    assert fortress.stat_text("cost") == "[MAT 4, ENE 3, KRY]"
    assert spec.kind("development").stat("produce").per == ("STR", "VEH")


@pytest.mark.parametrize("old, new, bad, message", [
    ("cost [GEN 2]", "cost [GEM 2]", "GEM", "`GEM` is not one of cost's words"),
    ("vp [1 per GEN, 2]", "vp [1 per GENERAL]", "GENERAL", "`per GENERAL`: vp counts per"),
    ("vp [1 per GEN, 2]", "vp [MAT]", "MAT]", "`vp` entries are numbers, not `MAT`"),
    ("recycle ENE", "recycle [ENE]", "[ENE]", "`recycle` is one value, not a list"),
    ("cost [GEN 2]", "cost GEN", "GEN", "`cost` is a list: write it in brackets"),
    ("cost [GEN 2]", "cost [GEN per STR]", "STR]", "`cost` has no `per` entries"),
])
def test_a_wrong_list_entry_is_named_at_its_place(old, new, bad, message):
    text = LISTS.replace(old, new)
    (found,) = errors(text)
    assert message in found.message
    assert (found.pos.line, found.pos.col) == where(text, "card T-14", bad)
