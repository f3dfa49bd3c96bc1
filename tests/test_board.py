"""The text board: orientation per viewer, square contents, wide characters."""

from __future__ import annotations

import pytest

from wgdsl.games.world_gainer.board import fit, render_board, text_width
from wgdsl.games.world_gainer.state import GameState
from wgdsl.lang.cards import load_cards


@pytest.fixture(scope="module")
def lib():
    return load_cards()


@pytest.fixture
def state(lib):
    s = GameState.empty(0)
    s.turn, s.phase, s.active = 4, "gain", "B"

    def put(owner, cid, zone, **kw):
        s.put(s.new_instance(owner, lib[cid]), zone, **kw)

    put("A", "WG-005", "field", square="C1")          # blue 2
    put("A", "WG-015", "field", square="C1")          # green 3 on top: 2 cards, 5 pts
    put("A", "WG-009", "field", square="A1")
    put("B", "WG-006", "field", square="B3")
    put("B", "WG-010", "standby", slot=1, exhausted=True)
    put("B", "WG-020", "standby", slot=3)
    put("A", "WG-001", "hand")
    for _ in range(3):
        put("B", "WG-002", "hand")
    for _ in range(7):
        put("B", "WG-002", "stock")
    put("B", "WG-012", "break")
    s.players["B"].pool = {"red": 2, "blue": 1}
    return s


def grid_rows(text):
    """The first line of each square row: the square names, left to right."""
    rows = []
    for line in text.splitlines():
        if line.startswith("| ") and line.count("|") == 4:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(c[:2] in {f"{r}{n}" for r in "ABC" for n in "123"} for c in cells):
                rows.append([c[:2] for c in cells])
    return rows


def test_width_counts_wide_characters_as_two():
    assert text_width("WG-009") == 6
    assert text_width("グレイ") == 6
    assert text_width("ケンタウロス α 星人") == 2 * 6 + 3 + 2 * 2
    assert text_width(fit("ケンタウロス α 星人", 9)) == 9
    assert fit("グレイ", 5) == "グレ~"
    assert fit("グレイ", 4) == "グ~ "  # never half a wide character: padded instead


def test_viewer_A_sees_own_my_field_at_the_bottom(state):
    assert grid_rows(render_board(state, "A")) == [
        ["B1", "B2", "B3"], ["C1", "C2", "C3"], ["A1", "A2", "A3"]]


def test_viewer_B_sees_the_board_turned_around(state):
    assert grid_rows(render_board(state, "B")) == [
        ["A3", "A2", "A1"], ["C3", "C2", "C1"], ["B3", "B2", "B1"]]


def test_every_grid_line_has_the_same_display_width(state):
    for viewer in "AB":
        lines = [ln for ln in render_board(state, viewer).splitlines() if ln[:1] in "|+"]
        assert len({text_width(ln) for ln in lines}) == 1


def test_square_shows_holder_top_card_stack_size_and_points(state):
    text = render_board(state, "A")
    lines = text.splitlines()
    # the C1 cell: holder A, top card WG-015 (the green card on top), 2 cards, 2+3 points
    i = next(n for n, ln in enumerate(lines) if "| C1  held by A" in ln)
    assert "WG-015 ケンタウロス" in lines[i + 1].split("|")[1]
    assert "2 cards, 5 pts" in lines[i + 2].split("|")[1]
    assert "B3  held by B" in text and "1 card, 3 pts" in text
    assert "C2" in text and "empty" in text


def test_players_standby_sizes_pool_and_status(state):
    text = render_board(state, "A")
    first, *rest = text.splitlines()
    assert first == "Turn 4 | B to play | gain phase"
    b_line = next(ln for ln in rest if ln.startswith("B (to play)"))
    assert "3 points" in b_line and "hand 3" in b_line and "stock 7" in b_line
    assert "break 1" in b_line and "pool 3 (blue 1, red 2)" in b_line
    a_line = next(ln for ln in rest if ln.startswith("A (waiting)"))
    assert "7 points, 2 squares" in a_line and "pool 0" in a_line
    assert "standby 1:-  2:WG-010 exhausted  3:-  4:WG-020 ready  5:-" in text
    # the viewer's own hand is listed, the opponent's only counted
    assert "hand: WG-001 ウンモ星人" in text and "WG-002 月面" not in text
    # opponent above the grid, viewer below
    assert text.index("B (to play)") < text.index("+---") < text.index("A (waiting)")


def test_winner_is_shown(state):
    state.winner, state.win_reason = "A", "holds the whole battle field (R12.1)"
    assert "*** A wins (holds the whole battle field (R12.1)) ***" in render_board(state)


def test_bad_viewer(state):
    with pytest.raises(ValueError):
        render_board(state, "C")
