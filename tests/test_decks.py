"""Deck files: syntax errors with positions, R3 construction rules, the example decks."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.games.world_gainer.decks import check_deck, load_deck, parse_deck, read_deck, validate_deck
from wgdsl.lang.cards import load_cards
from wgdsl.lang.diagnostics import DiagnosticError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "decks"


@pytest.fixture(scope="module")
def lib():
    return load_cards()


def write(tmp_path, text, name="deck.txt"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def legal_40():
    # 13 different cards x 3 + 1 = 40, no name over 3, no unique card
    ids = [f"WG-{n:03d}" for n in range(1, 14)]
    return "".join(f"3 {i}\n" for i in ids) + "1 WG-014\n"


def test_load_expands_counts_and_skips_comments(tmp_path, lib):
    p = write(tmp_path, "# a deck\n\n2 WG-009   # grey\n  1 WG-006\n1 WG-009\n")
    assert load_deck(p, lib) == ["WG-009", "WG-009", "WG-006", "WG-009"]


def test_unknown_id_has_position_and_did_you_mean(tmp_path, lib):
    p = write(tmp_path, "3 WG-009\n2 WG-0O6\n")
    with pytest.raises(DiagnosticError) as err:
        load_deck(p, lib)
    [d] = err.value.diagnostics
    assert (d.pos.line, d.pos.col) == (2, 3)
    assert "unknown card id `WG-0O6`" in d.message
    assert "WG-006" in d.hint
    assert err.value.render().startswith(f"{p}:2:3: error: unknown card id")


def test_lowercase_id_suggests_the_id(tmp_path, lib):
    _, problems = parse_deck("1 wg-012\n", "d", lib)
    assert problems[0].hint.startswith("did you mean `WG-012`?")


@pytest.mark.parametrize("line, col, words", [
    ("0 WG-001", 1, "positive integer, not 0"),
    ("-2 WG-001", 1, "positive integer, not `-2`"),
    ("two WG-001", 1, "positive integer, not `two`"),
    ("2.5 WG-001", 1, "positive integer, not `2.5`"),
    ("WG-001 2", 1, "count comes first"),
    ("WG-001", 1, "only one word"),
    ("2 WG-001 extra", 10, "unexpected `extra`"),
])
def test_bad_lines(lib, line, col, words):
    _, problems = parse_deck("1 WG-002\n" + line + "\n", "d", lib)
    assert len(problems) == 1
    assert problems[0].pos.line == 2 and problems[0].pos.col == col
    assert words in problems[0].message


def test_every_bad_line_is_reported(lib):
    _, problems = parse_deck("0 WG-001\nx WG-002\n1 WG-999\n", "d", lib)
    assert [d.pos.line for d in problems] == [1, 2, 3]


def test_legal_deck_passes(lib):
    deck, problems = parse_deck(legal_40(), "d", lib)
    assert problems == []
    assert validate_deck(deck, lib) == []
    assert len(deck.ids()) == 40


def test_too_few_cards_R3_1(lib):
    deck, _ = parse_deck("3 WG-001\n3 WG-002\n", "d", lib)
    [d] = validate_deck(deck, lib)
    assert "at least 40" in d.message and "6" in d.message and "(R3.1)" in d.message


def test_starter_needs_20_R3_4(lib):
    text = "".join(f"3 WG-{n:03d}\n" for n in range(1, 7)) + "1 WG-007\n"  # 19
    deck, _ = parse_deck(text, "d", lib)
    [d] = validate_deck(deck, lib, starter=True)
    assert "at least 20" in d.message and "(R3.4)" in d.message
    deck, _ = parse_deck(text + "1 WG-008\n", "d", lib)
    assert validate_deck(deck, lib, starter=True) == []
    assert validate_deck(deck, lib) != []  # 20 is not enough for a full stock


def test_four_of_a_name_over_two_lines_R3_2(lib):
    deck, _ = parse_deck(legal_40().replace("3 WG-009\n", "2 WG-009\n") + "2 WG-009\n", "d", lib)
    [d] = validate_deck(deck, lib)
    assert "(R3.2)" in d.message and "has 4" in d.message
    assert d.pos.line == 15  # the line that crosses the limit


def test_same_name_counts_across_ids_R3_2(tmp_path):
    # R3.2 is by name: two ids with one name (different art) count together
    src = (Path(__file__).resolve().parent.parent / "cards" / "wg01.wg").read_text(encoding="utf-8")
    start = src.index("card WG-009 ")
    end = src.index("\n}\n", start) + 3
    alt = src[start:end].replace("card WG-009 ", "card WG-909 ", 1)
    cards = write(tmp_path, src + "\n" + alt, "alt.wg")
    lib2 = load_cards(cards)
    assert lib2["WG-909"].name == lib2["WG-009"].name
    deck, _ = parse_deck(legal_40().replace("3 WG-009\n", "2 WG-009\n2 WG-909\n"), "d", lib2)
    [d] = validate_deck(deck, lib2)
    assert "(R3.2)" in d.message and "WG-009" in d.hint and "WG-909" in d.hint


def test_unique_at_most_once_R3_3(lib):
    deck, _ = parse_deck(legal_40() + "1 WG-025\n", "d", lib)
    assert validate_deck(deck, lib) == []
    deck, _ = parse_deck(legal_40() + "2 WG-025\n", "d", lib)
    [d] = validate_deck(deck, lib)
    assert "unique" in d.message and "(R3.3)" in d.message


def test_validate_option_of_load_deck(tmp_path, lib):
    p = write(tmp_path, "3 WG-001\n")
    assert load_deck(p, lib) == ["WG-001"] * 3
    with pytest.raises(DiagnosticError, match="R3.1"):
        load_deck(p, lib, validate=True)


def test_missing_file(tmp_path, lib):
    _, problems, _ = check_deck(tmp_path / "nope.txt", lib)
    assert "no such deck file" in problems[0].message


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_example_decks_are_legal(path, lib):
    deck, problems, _ = check_deck(path, lib)
    assert problems == []
    assert len(deck.ids()) >= 40


def test_examples_cover_all_colors_and_the_unique_card(lib):
    decks = [load_deck(p, lib) for p in sorted(EXAMPLES.glob("*.txt"))]
    assert len(decks) >= 3
    assert any({lib[i].color for i in d} == {"blue", "green", "red", "yellow"} for d in decks)
    assert any(any(lib[i].unique for i in d) for d in decks)


def test_cli_deck_check(tmp_path):
    runner = CliRunner()
    good = write(tmp_path, legal_40(), "good.txt")
    res = runner.invoke(main, ["deck", "check", str(good)])
    assert res.exit_code == 0 and "ok" in res.output and "40 cards" in res.output
    bad = write(tmp_path, "3 WG-001\n4 WG-002\n", "bad.txt")
    res = runner.invoke(main, ["deck", "check", str(bad)])
    assert res.exit_code == 1
    assert "R3.1" in res.output and f"{bad}:2:3: error:" in res.output and "R3.2" in res.output
    assert "Traceback" not in res.output
    starter = write(tmp_path, "".join(f"2 WG-{n:03d}\n" for n in range(1, 11)), "s.txt")
    assert runner.invoke(main, ["deck", "check", str(starter)]).exit_code == 1
    assert runner.invoke(main, ["deck", "check", "--starter", str(starter)]).exit_code == 0
    res = runner.invoke(main, ["deck", "check", str(write(tmp_path, "1 WG-0099\n", "u.txt"))])
    assert res.exit_code == 1 and "did you mean `WG-009`?" in res.output


# ---------------------------------------------------------------- counts no deck can hold
LONG = "1" * 4301  # one digit more than int() reads from text


@pytest.mark.parametrize("count, shown", [(LONG, "(4,301 digits)"), ("1000", "1000"),
                                          ("0" * 5000 + "1000", "digits")])
def test_a_count_larger_than_any_stock_is_a_positioned_error(lib, count, shown):
    _, problems = parse_deck(f"1 WG-002\n  {count} WG-001\n", "d", lib)
    [d] = problems
    assert (d.pos.line, d.pos.col) == (2, 3)
    assert "too large" in d.message and shown in d.message and "at most 999" in d.message
    assert "R3.2" in d.hint
    assert len(d.message) < 200  # the number is not copied whole


def test_the_largest_count_is_read_and_left_to_R3(lib):
    deck, problems = parse_deck("999 WG-001\n0003 WG-002\n", "d", lib)
    assert problems == []
    assert [e.count for e in deck.entries] == [999, 3]
    [d] = validate_deck(deck, lib)[-1:]
    assert "(R3.2)" in d.message


def test_a_long_count_written_after_the_id(lib):
    _, problems = parse_deck(f"WG-001 {LONG}\n", "d", lib)
    [d] = problems
    assert "count comes first" in d.message and len(d.hint) < 100


def test_a_long_count_and_unknown_id_are_both_reported(lib):
    # reproducer 06: a 4,301-digit count before an unknown id
    _, problems = parse_deck(f"{LONG} WG\n", "d", lib)
    assert [(d.pos.col, "too large" in d.message) for d in problems] == [(1, True), (4303, False)]
    assert "unknown card id `WG`" in problems[1].message


def test_cli_play_with_a_long_count_is_an_error_not_a_traceback(tmp_path):
    deck = write(tmp_path, f"{LONG} WG-001\n")
    res = CliRunner().invoke(main, ["play", "--deck", str(deck)])
    assert res.exit_code == 1
    assert f"{deck}:1:1: error: the count 1111" in res.output and "Traceback" not in res.output


# ---------------------------------------------------------------- files that are no deck
def _problem(path, lib):
    deck, problems, text = read_deck(path, lib)
    assert deck is None and text is None
    [d] = problems
    return d


def test_a_fifo_is_refused_without_blocking(tmp_path, lib):
    import os

    fifo = tmp_path / "deck.txt"
    os.mkfifo(fifo)
    d = _problem(fifo, lib)
    assert d.message == "is a FIFO (named pipe), not a deck file" and "COUNT ID" in d.hint


def test_a_device_is_refused():
    d = _problem("/dev/zero", load_cards())
    assert d.message == "is a device, not a deck file"


def test_a_directory_is_refused(tmp_path, lib):
    assert _problem(tmp_path, lib).message == "is a directory, not a deck file"


def test_a_name_too_long_for_the_system(tmp_path, lib):
    d = _problem(tmp_path / ("d" * 300 + ".txt"), lib)
    assert d.message == "the file name is too long for the operating system"


def test_bytes_that_are_not_utf8_are_reported_at_line_and_column(tmp_path, lib):
    p = tmp_path / "deck.txt"
    p.write_bytes(b"3 WG-001\n3 WG-\xff02\n")
    d = _problem(p, lib)
    assert (d.pos.line, d.pos.col) == (2, 6) and "not UTF-8" in d.message
    assert d.render().startswith(f"{p}:2:6: error: is not UTF-8 text")


def test_cli_deck_check_of_dev_zero():
    res = CliRunner().invoke(main, ["deck", "check", "/dev/zero"])
    assert res.exit_code == 1 and "/dev/zero: error: is a device, not a deck file" in res.output


def test_a_deck_file_over_a_megabyte_is_refused_before_reading(tmp_path, lib):
    p = tmp_path / "deck.txt"
    p.write_text("1 WG-001\n" * 120_000)  # 1,080,000 bytes: reading it took seconds
    d = _problem(p, lib)
    assert d.message == "is 1,080,000 bytes; a deck file may have at most 1,048,576"
