"""Imitation World's deck files and deck construction (wgdsl.games.imitation_world.decks,
IW R4; ../shared/spec/imitation-world.md) and the shape of its ruling cases
(examples/rulings/imitation-world, "What a ruling case needs").

Expectations come from the spec's text: the reference decks' contents from "Reference
decks", the verdicts of Q&A 32 from its answer, the IW01 factions from the card tables.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.games.imitation_world.decks import (
    REFERENCE_DECKS, DeckError, check_deck, deck_problems, iw01_cards, load_deck,
    reference_deck_path)

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "examples" / "rulings" / "imitation-world"


@pytest.fixture(scope="module")
def cards():
    return iw01_cards()


def ids(a, b):
    return [f"IW-{i:03d}" for i in range(a, b + 1)]


# the spec's table "Reference decks": aga, and the 60 cards by faction
SPEC_DECKS = {
    "existence-wall": ("IW-001", {
        "existence": ids(4, 8) + ["IW-014", "IW-016", "IW-020", "IW-023"] + ids(25, 64),
        "ambiguous": ["IW-013", "IW-017", "IW-019", "IW-022"] + ids(105, 111)}),
    "fantasy-dreams": ("IW-002", {
        "fantasy": ids(9, 12) + ["IW-015", "IW-018", "IW-021", "IW-024"] + ids(65, 104),
        "ambiguous": ["IW-013", "IW-017", "IW-019", "IW-022"] + ids(112, 119)}),
    "mask-two-faces": ("IW-003", {
        "existence": ids(4, 7) + ["IW-014", "IW-016", "IW-020", "IW-023"] + ids(32, 51),
        "fantasy": ids(9, 12) + ["IW-018", "IW-021"] + ids(80, 95),
        "ambiguous": ["IW-013", "IW-017", "IW-019", "IW-022"] + ids(105, 110)}),
}
SPEC_COUNTS = {"existence-wall": {"existence": 49, "ambiguous": 11},
               "fantasy-dreams": {"fantasy": 48, "ambiguous": 12},
               "mask-two-faces": {"existence": 28, "fantasy": 22, "ambiguous": 10}}


@pytest.mark.parametrize("name", REFERENCE_DECKS)
def test_reference_decks_are_the_spec_s_and_legal(name, cards):
    deck = load_deck(name, cards)
    aga, by_faction = SPEC_DECKS[name]
    assert deck.name == name and deck.aga == aga
    assert sorted(deck.cards) == sorted(i for v in by_faction.values() for i in v)
    assert len(deck.cards) == 60 == len(set(deck.cards))
    found = {}
    for i in deck.cards:
        found[cards[i].stat("faction")] = found.get(cards[i].stat("faction"), 0) + 1
    assert found == SPEC_COUNTS[name]
    assert deck_problems(deck.aga, deck.cards, cards) == ()
    # a path works as well as the name
    assert load_deck(reference_deck_path(name), cards).cards == deck.cards


def rules_of(problems):
    return sorted(p.rule for p in problems)


def test_q_and_a_32_variations(cards):
    """Q&A 32 (iw-deck-check): each variation of existence-wall and the spec's verdict."""
    aga, _ = SPEC_DECKS["existence-wall"]
    wall = list(load_deck("existence-wall", cards).cards)
    assert deck_problems(aga, wall, cards) == ()
    fewer = list(wall)
    fewer.remove("IW-064")
    assert rules_of(deck_problems(aga, fewer, cards)) == ["IW R4.1"]
    assert rules_of(deck_problems(aga, wall + ["IW-025"], cards)) == ["IW R4.2"]
    assert deck_problems(aga, wall + ["IW-025", "IW-025"], cards, "starter") == ()
    assert rules_of(deck_problems(aga, wall + ["IW-025"] * 3, cards, "starter")) == ["IW R4.5"]
    assert rules_of(deck_problems(aga, wall + ["IW-065"], cards)) == ["IW R4.4"]
    assert deck_problems("IW-003", wall + ["IW-065"], cards) == ()
    assert rules_of(deck_problems(aga, wall + ["IW-002"], cards)) == ["IW R4.3"]
    # the starter variant's size: 30 cards (R4.5), and the main rule's 60 (R4.1)
    assert deck_problems(aga, wall[:30], cards, "starter") == ()
    assert rules_of(deck_problems(aga, wall[:29], cards, "starter")) == ["IW R4.5"]
    assert rules_of(deck_problems(aga, wall[:30], cards)) == ["IW R4.1"]
    # no aga, or an aga line naming a deck card: R4.3
    assert rules_of(deck_problems(None, wall, cards)) == ["IW R4.3"]
    assert rules_of(deck_problems("IW-004", wall, cards)) == ["IW R4.3"]


def write(tmp_path, text, name="deck.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def wall_text(extra=""):
    return reference_deck_path("existence-wall").read_text(encoding="utf-8") + extra


def test_deck_file_problems_are_at_their_place(tmp_path, cards):
    # the reference file has 66 lines (66 is its last card); the extra lines follow
    path = write(tmp_path, wall_text("1 IW-065\n1 IW-025  # a second 新兵\n"))
    with pytest.raises(DeckError) as caught:
        load_deck(path, cards)
    assert isinstance(caught.value, ValueError)
    got = [(d.pos.line, d.pos.col, d.message.rsplit("(", 1)[-1]) for d in caught.value.diagnostics]
    assert got == [(68, 3, "IW R4.2)"), (67, 3, "IW R4.4)")]
    assert rules_of(caught.value.problems) == ["IW R4.2", "IW R4.4"]


@pytest.mark.parametrize("line, col, message, hint", [
    ("IW-004", 1, "this line has only one word", "write `1 IW-004` for one copy"),
    ("IW-001", 1, "this line has only one word", "write `aga IW-001` for the aga"),
    ("1 IW-04", 3, "unknown card id `IW-04`", "did you mean `IW-104`?"),
    ("1 iw-004", 3, "unknown card id `iw-004`", "did you mean `IW-004`? (ids are upper case)"),
    ("1 実存の歩兵", 3, "unknown card id `実存の歩兵`", "`実存の歩兵` is the name of IW-004; write the id"),
    ("IW-005 1", 1, "the count comes first: `COUNT ID`", "write `1 IW-005`"),
    ("0 IW-005", 1, "the count must be a positive integer, not 0", None),
    ("x IW-005", 1, "the count must be a positive integer, not `x`", None),
    ("1 IW-005 extra", 10, "unexpected `extra` after the id", "put notes after a `#`"),
    ("aga IW-002", 1, "a second `aga` line", "keep one `aga` line"),
])
def test_malformed_lines(tmp_path, cards, line, col, message, hint):
    path = write(tmp_path, wall_text(line + "\n"))
    with pytest.raises(DeckError) as caught:
        load_deck(path, cards)
    (d,) = caught.value.diagnostics
    assert (d.pos.line, d.pos.col) == (67, col)
    assert message in d.message
    if hint is not None:
        assert d.hint == hint


def test_no_aga_line_and_a_wrong_aga(tmp_path, cards):
    body = "".join(f"1 {i}\n" for i in load_deck("existence-wall", cards).cards)
    with pytest.raises(DeckError, match=r"no aga.*\(IW R4\.3\)"):
        load_deck(write(tmp_path, body), cards)
    with pytest.raises(DeckError) as caught:
        load_deck(write(tmp_path, "aga IW-004\n" + body), cards)
    (d,) = caught.value.diagnostics
    assert (d.pos.line, d.pos.col) == (1, 5) and "(IW R4.3)" in d.message


def test_unknown_name_and_variant(cards):
    with pytest.raises(DeckError, match="did you mean `existence-wall`"):
        load_deck("existance-wall", cards)
    with pytest.raises(ValueError, match="unknown deck variant"):
        load_deck("existence-wall", cards, variant="casual")
    deck, diagnostics, _, _ = check_deck("existence-wall", cards, "starter")
    assert deck is not None and diagnostics == []


def test_a_deck_of_another_card_set_is_told_in_a_few_lines(cards):
    # existence-wall names 61 ids (an aga and 60 cards, IW R4.7); with a set that has
    # only IW-001, IW-004 and IW-005 of them, 58 are unknown: three are told at their
    # places, the others counted in one problem
    few = {k: cards[k] for k in ("IW-001", "IW-004", "IW-005")}
    with pytest.raises(DeckError) as caught:
        load_deck("existence-wall", few)
    unknown = [d for d in caught.value.diagnostics if d.message.startswith("unknown card id")]
    assert [d.message for d in unknown] == [f"unknown card id `IW-{i:03d}`"
                                            for i in (6, 7, 8)]
    (more,) = [d for d in caught.value.diagnostics if d.message.startswith("and ")]
    assert more.message == "and 55 more card ids that are not in the card set"


# ------------------------------------------------------------------ the command line
def test_cli_deck_check(tmp_path):
    runner = CliRunner()
    ok = runner.invoke(main, ["deck", "check", "--game", "imitation-world", *REFERENCE_DECKS])
    assert ok.exit_code == 0, ok.output
    assert [line.split(":")[0] for line in ok.output.splitlines()] == list(REFERENCE_DECKS)
    assert all(": legal" in line for line in ok.output.splitlines())
    bad = write(tmp_path, wall_text("1 IW-025\n"))
    out = runner.invoke(main, ["deck", "check", "--game", "imitation-world", "existence-wall",
                               bad])
    assert out.exit_code == 1
    assert "existence-wall: legal" in out.output
    assert f"{bad}: illegal" in out.output and f"{bad}:67:3:" in out.output
    assert "(IW R4.2)" in out.output
    broken = runner.invoke(main, ["deck", "check", "--game", "imitation-world", "nosuch"])
    assert broken.exit_code == 1
    assert broken.output.splitlines()[0] == "nosuch: not a deck file that can be checked (IW R4.7)"
    assert "reference deck: existence-wall" in broken.output
    starter = runner.invoke(main, ["deck", "check", "--game", "imitation-world",
                                   "--variant", "starter", bad])
    assert starter.exit_code == 0 and "legal" in starter.output
# ------------------------------------------------------------------ the ruling cases
CASE_KEYS = {"case", "state", "answers", "step", "deck_check", "expect"}
CASE_HEADER = {"id", "game", "source", "question", "answer", "cards"}


def case_files():
    return sorted(CASES.glob("*.toml"))


def test_ruling_cases_are_well_formed():
    files = case_files()
    assert len(files) >= 33 + 1  # one per Q&A entry, and rules cards' cases
    seen = set()
    for f in files:
        data = tomllib.loads(f.read_text(encoding="utf-8"))
        assert set(data) <= CASE_KEYS, (f.name, set(data) - CASE_KEYS)
        case = data["case"]
        assert set(case) <= CASE_HEADER, (f.name, set(case) - CASE_HEADER)
        assert case["game"] == "imitation-world", f.name
        assert case["id"] == f.stem, f.name
        assert case["id"] not in seen
        seen.add(case["id"])
        for key in ("source", "question", "answer"):
            assert case.get(key), (f.name, key)
        assert data.get("step") or data.get("deck_check"), f.name
        assert data.get("expect") or data.get("deck_check"), f.name
        for step in data.get("step", []):
            assert "rule" not in step or step.get("expect") == "illegal", f.name
        for check in data.get("deck_check", []):
            assert check["expect"] in ("legal", "illegal"), f.name


# the spec's Q&A ids, in order (section "Q&A rulings")
QA_IDS = [
    "iw-cost-fixed-by-first-play", "iw-second-faction-before-any-play",
    "iw-single-faction-aga-one-pile", "iw-one-cost-card-per-turn", "iw-cost-is-a-threshold",
    "iw-summoning-sickness", "iw-target-a-must-be-pan", "iw-one-against-one-both-out",
    "iw-zero-attack-against-zero-defence", "iw-multi-block-front-to-back",
    "iw-judgment-bonus-of-a-rear-blocker", "iw-barrier-top-only-no-accumulation",
    "iw-barrier-excess-is-lost", "iw-last-barrier-flips-the-aga", "iw-face-up-aga-ability",
    "iw-aga-destroyed-with-judgment-bonus", "iw-deck-out-at-draw-phase",
    "iw-effect-draw-from-empty-deck", "iw-start-of-turn-order", "iw-first-turn-restrictions",
    "iw-territory-replacement", "iw-equal-cost-territory-still-fixes-cost",
    "iw-one-enchant-per-geuda", "iw-territory-is-on-both-fields", "iw-block-does-not-pan",
    "iw-linked-attack", "iw-panned-geuda-cannot-block", "iw-out-versus-sent-to-trash",
    "iw-ripan-only-for-the-active-player", "iw-object-activation",
    "iw-fog-draws-for-the-active-player", "iw-deck-check", "iw-hidden-information",
]


def test_every_q_and_a_entry_has_its_case():
    have = {f.stem for f in case_files()}
    assert len(QA_IDS) == 33
    assert [i for i in QA_IDS if i not in have] == []
    cards = [f.stem for f in case_files() if f.stem.startswith("iw-card-")]
    for stem in cards:
        assert stem[len("iw-card-"):][:6] in {f"IW-{i:03d}" for i in range(1, 25)}, stem


def test_cards_as_a_library_or_a_table_of_plain_cards(cards):
    """load_deck reads the card language's cards, a CardLibrary, or the engine's table
    (``cards``: id -> an object with name, type and faction)."""
    from types import SimpleNamespace

    from wgdsl.lang.cards import load_cards
    from wgdsl.resources import builtin_cards_path

    library = load_cards(builtin_cards_path().with_name("iw01.wg"))
    plain = {i: SimpleNamespace(name=c.name, name_en=c.en_name, type=c.stat("type"),
                                faction=c.stat("faction")) for i, c in cards.items()}
    table = SimpleNamespace(cards=plain)
    want = load_deck("fantasy-dreams", cards)
    assert load_deck("fantasy-dreams", library) == want == load_deck("fantasy-dreams", table)
    assert rules_of(deck_problems("IW-002", list(want.cards) + ["IW-004"], table)) == ["IW R4.4"]
