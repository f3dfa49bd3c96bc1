"""docs/language.md: every ```wg example is a card set that parses and checks clean.

Examples that quote a WG01 card must say exactly what cards/wg01.wg says, so the
reference never drifts from the built-in set.  The card text shown in "Write your first
card" must be what ``wgdsl show --lang`` prints.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wgdsl.lang.cards import check_text
from wgdsl.lang.fmt import format_source
from wgdsl.lang.parser import parse
from wgdsl.lang.text import card_text_block
from wgdsl.resources import builtin_cards_path

DOC = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
WG01_TEXT = builtin_cards_path().read_text(encoding="utf-8")
WG01 = {c.id: c for c in parse(WG01_TEXT)[0].cards}
EXAMPLES = re.findall(r"```wg\n(.*?)```", DOC, re.S)


def test_the_reference_has_examples():
    assert len(EXAMPLES) >= 25


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: re.search(r"card (\S+)", e).group(1))
def test_each_example_parses_and_checks(example):
    cardset, diagnostics = parse(example)
    assert diagnostics == []
    assert cardset.cards
    for card in cardset.cards:
        if card.id in WG01:
            assert card == WG01[card.id], f"{card.id} differs from cards/wg01.wg"
        else:
            # checked inside WG01 so that `named "..."` can name its cards
            _, problems = check_text(WG01_TEXT + "\n" + example, "example.wg")
            assert [p.message for p in problems] == []
    # examples are written in the house layout
    formatted, _ = format_source(example)
    assert formatted == example


def test_first_card_text_is_what_show_prints():
    first = next(e for e in EXAMPLES if "X1-001" in e)
    card = parse(first)[0].cards[0]
    assert card_text_block(card, "en") in DOC
    assert card_text_block(card, "ja") in DOC
