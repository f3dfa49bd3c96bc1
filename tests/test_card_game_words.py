"""A card file's words come from its game's file (issue 11): `game "NAME"` at the top of
a card file names the game; a card's stat lines are that game's stats (word stats, number
stats, flags, as its game file declares them), and a word of another game is an error at
its place."""

import shutil
from pathlib import Path

import pytest

from wgdsl.lang.cards import check_text, library_from_text, load_cards
from wgdsl.lang.diagnostics import DiagnosticError
from wgdsl.lang.fmt import format_cardset
from wgdsl.lang.parser import parse

WAR = Path(__file__).resolve().parent.parent / "examples" / "games" / "war.game"


def problems_of(text: str, path: str = "mine.wg") -> list[tuple[int, int, str, str]]:
    _, found = check_text(text, path)
    return [(d.pos.line, d.pos.col, d.message, d.hint or "") for d in found]


def test_getgem_cards_read_getgem_s_stats_and_flags():
    text = 'game "getgem"\ncard T-001 "炎" {\n  element fire  wild\n}\n'
    assert problems_of(text) == []
    cardset, _ = parse(text, "mine.wg")
    (card,) = cardset.cards
    assert [(s.key, s.value) for s in card.stats] == [("element", "fire"), ("wild", True)]


def test_a_word_of_another_game_is_an_error_at_its_place():
    # `color` is World Gainer's; GETGEM's cards have an element
    (problem,) = problems_of('game "getgem"\ncard T-001 "炎" {\n  color red\n}\n')
    line, col, message, hint = problem
    assert (line, col) == (3, 3)
    assert "`color`" in message
    assert "`element`" in hint and "`color`" not in hint


def test_a_word_stat_s_values_are_its_game_s():
    (problem,) = problems_of('game "getgem"\ncard T-001 "炎" {\n  element fyre\n}\n')
    assert problem[:3] == (3, 11, "unknown element `fyre`")
    assert problem[3] == "did you mean `fire`?"


def test_a_stat_with_no_default_is_required():
    (problem,) = problems_of('game "getgem"\ncard T-001 "炎" {\n  wild\n}\n')
    assert problem[2] == "card `T-001` has no element"


def test_without_a_game_line_the_cards_are_world_gainer_s():
    text = 'card T-001 "a" {\n  color red  cost 1\n}\n'
    assert problems_of(text) == []
    assert problems_of('game "world-gainer"\n' + text) == []
    (problem,) = problems_of('game "getgem"\n' + text)
    assert problem[:2] == (3, 3)


@pytest.mark.parametrize("text, expected", [
    ('game "wrld-gainer"\n', (1, 6, "unknown game `wrld-gainer`", "did you mean `world-gainer`?")),
    ('include "wg01"\ngame "world-gainer"\n',
     (2, 1, "the `game` line comes first in a card file, once", "")),
    ('game "/etc/war.game"\n', (1, 6, "", "")),
    ('game "../war.game"\n', (1, 6, "", "")),
])
def test_a_bad_game_line_is_told_at_its_place(text, expected):
    text += 'card T-001 "a" {\n  color red  cost 1\n}\n'
    found = problems_of(text, "sets/mine.wg")
    assert found and found[0][:2] == expected[:2]
    if expected[2]:
        assert found[0][2] == expected[2] and found[0][3].startswith(expected[3])
    else:
        assert "cannot read the cards' game" in found[0][2]


def test_a_game_file_beside_the_cards(tmp_path):
    shutil.copy(WAR, tmp_path / "war.game")
    cards = tmp_path / "deck.wg"
    cards.write_text('game "war.game"\ncard T-001 "7" {\n  rank 7\n}\n', encoding="utf-8")
    library = load_cards(cards)
    assert "T-001" in library
    cards.write_text('game "war.game"\ncard T-001 "7" {\n  rank 7  color red\n}\n',
                     encoding="utf-8")
    with pytest.raises(DiagnosticError) as err:
        load_cards(cards)
    # `color` is World Gainer's, not war's: told at its place, with war's one stat
    (problem,) = err.value.diagnostics
    assert (problem.pos.line, problem.pos.col) == (3, 11)
    assert "`color`" in problem.message and "(`rank`)" in problem.hint


def test_an_included_set_of_another_game_is_refused(tmp_path):
    (tmp_path / "gems.wg").write_text('game "getgem"\ncard T-001 "炎" {\n  element fire\n}\n',
                                      encoding="utf-8")
    main = tmp_path / "mine.wg"
    main.write_text('include "gems.wg"\ncard T-002 "a" {\n  color red  cost 1\n}\n',
                    encoding="utf-8")
    _, found = check_text(main.read_text(encoding="utf-8"), str(main))
    messages = [d.message for d in found]
    assert "these cards are for `getgem`, not `world-gainer`" in messages


def test_the_formatter_keeps_the_game_line():
    text = 'game "getgem"\n\ncard T-001 "炎" {\n  wild  element fire\n}\n'
    cardset, problems = parse(text, "mine.wg")
    assert problems == []
    assert format_cardset(cardset) == text  # another game's stats keep their written order
    library = library_from_text(text, "mine.wg")
    assert "T-001" in library


def test_zones_are_the_game_s():
    # `discard` is a zone of GETGEM's file (not a word of World Gainer's grammar): read as a
    # zone where a zone may stand
    text = ('game "getgem"\ncard T-001 "炎" {\n  element fire\n  dimension:\n'
            '    move this to discard\n    move a card in your hand to bottom of owner\'s stock\n}\n')
    (problem,) = problems_of(text)
    assert problem[:3] == (6, 43, "unknown zone `stock`")
    assert problem[3] == "the zones of `getgem` are `deck`, `discard`, `supply`, `hand` or `front`"
    # a World Gainer card cannot name GETGEM's zone: it is not a zone there
    (problem,) = problems_of('card T-001 "a" {\n  color red  cost 1\n  dimension:\n'
                             '    move this to discard\n}\n')
    assert problem[:2] == (4, 18)


# ---------------------------------------------------------------------------- property
from hypothesis import given, settings, strategies as st  # noqa: E402

from wgdsl.lang.game import compile_text  # noqa: E402
from wgdsl.lang.vocabulary import Vocabulary  # noqa: E402

# words no keyword of either language uses (a stat of a game may be any such word)
_NAMES = ("atk", "hp", "power", "faction", "element", "rarity", "speed", "luck", "tier")
_VALUES = ("ember", "frost", "gale", "stone")


@st.composite
def games_and_cards(draw):
    """A game file declaring some word stats, number stats and flags, and a card giving
    some of them in any order (each at most once), with one undeclared word maybe."""
    names = draw(st.lists(st.sampled_from(_NAMES), min_size=1, max_size=6, unique=True))
    kinds = {n: draw(st.sampled_from(("word", "number", "flag"))) for n in names}
    decl = []
    for n, how in kinds.items():
        if how == "word":
            decl.append(f"    stat {n} {', '.join(_VALUES)}")
        elif how == "number":
            decl.append(f"    stat {n} 0 to 99 default 0")
    flags = [n for n, how in kinds.items() if how == "flag"]
    if flags:
        decl.append(f"    flag {', '.join(flags)}")
    game = ('game tiny "Tiny" {\n  seats 2\n  played by "wgdsl.games.x:y"\n'
            '  kind card {\n' + "\n".join(decl) + "\n  }\n}\n")
    given_names = draw(st.lists(st.sampled_from(names), unique=True))
    parts, expected = [], []
    for n in given_names:
        if kinds[n] == "word":
            value = draw(st.sampled_from(_VALUES))
            parts.append(f"{n} {value}")
            expected.append((n, value))
        elif kinds[n] == "number":
            value = draw(st.integers(0, 99))
            parts.append(f"{n} {value}")
            expected.append((n, value))
        else:
            parts.append(n)
            expected.append((n, True))
    stray = draw(st.one_of(st.none(), st.sampled_from([w for w in _NAMES if w not in names]
                                                       or ["zzz"])))
    return game, kinds, parts, expected, stray


@settings(max_examples=150, deadline=None)
@given(games_and_cards())
def test_a_card_s_stats_are_read_as_its_game_declares_them(case):
    game, kinds, parts, expected, stray = case
    spec, problems = compile_text(game, "tiny.game")
    assert spec is not None, [str(p) for p in problems]
    words = Vocabulary.from_spec(spec)
    line = "  ".join(parts)
    if stray is not None:
        line = (line + "  " if line else "") + stray
    text = f'card T-001 "a" {{\n  {line}\n}}\n' if line else 'card T-001 "a" {\n}\n'
    cardset, found = parse(text, "mine.wg", words)
    if stray is None:
        assert found == []
        (card,) = cardset.cards
        assert [(s.key, s.value) for s in card.stats] == expected
    else:
        # the undeclared word is the one error, at its own column
        (problem,) = found
        assert (problem.pos.line, problem.pos.col) == (2, 3 + line.rindex(stray))
        assert cardset.cards == ()
