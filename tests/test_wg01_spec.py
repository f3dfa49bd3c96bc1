"""cards/wg01.wg against the source of truth: the card table of ../shared/spec/wg01.md.

Every card of the table must be in the card file with the same id, name, English
name, color, cost, required cost, stun value and kind letter (D / F / S / —), and the
file must hold no card the table does not list.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wgdsl.lang.cards import load_cards

SPEC = Path(__file__).parents[1].parent / "shared" / "spec" / "wg01.md"
COLUMNS = ("id", "name", "English", "color", "cost", "req", "stun", "kind")

pytestmark = pytest.mark.skipif(
    not SPEC.is_file(), reason=f"the WG01 spec table is not here: {SPEC} (a checkout without ../shared)"
)


def spec_rows() -> dict[str, dict[str, str]]:
    """The spec's card table, one dict per card keyed by the table's own headers."""
    rows = {}
    header = None
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif set(cells[0]) <= {"-"}:
            continue
        else:
            row = dict(zip(header, cells))
            rows[row["id"]] = row
    return rows


@pytest.fixture(scope="module")
def rows():
    found = spec_rows()
    assert set(COLUMNS) <= set(next(iter(found.values()))), "the spec table changed its columns"
    return found


@pytest.fixture(scope="module")
def library():
    return load_cards()


def test_the_spec_lists_25_cards_wg_001_to_wg_025(rows):
    assert list(rows) == [f"WG-{n:03d}" for n in range(1, 26)]


def test_the_card_file_has_exactly_the_spec_cards_in_order(rows, library):
    assert [c.id for c in library] == list(rows)


@pytest.mark.parametrize("card_id", [f"WG-{n:03d}" for n in range(1, 26)])
def test_card_matches_the_spec_row(card_id, rows, library):
    row, card = rows[card_id], library[card_id]
    assert card.name == row["name"]
    assert card.en_name == row["English"]
    assert card.color == row["color"]
    assert card.cost == int(row["cost"])
    assert card.required == int(row["req"])
    assert card.stun == int(row["stun"])
    assert card.kind == row["kind"]


def test_every_mark_follows_its_color_as_r2_2_says(library):
    # WG01 defines no `mark` line, so every mark is its color's (R2.2)
    # R2.2: blue is scissors, green paper, red rock, yellow all (wg01.md's table)
    mark_of_color = {"blue": "scissors", "green": "paper", "red": "rock", "yellow": "all"}
    assert {c.id: c.mark for c in library} == {c.id: mark_of_color[c.color] for c in library}


def test_only_the_laws_of_the_sun_is_unique(library, rows):
    # R3.3 names WG-025 as the unique card; the spec's effect text starts with "Unique."
    unique_in_spec = {i for i, r in rows.items() if r["effect"].startswith("Unique.")}
    assert unique_in_spec == {"WG-025"}
    assert {c.id for c in library if c.unique} == unique_in_spec
