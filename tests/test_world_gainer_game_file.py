"""World Gainer described by its game file (issue 11): the frame in
wgdsl/games/world_gainer/world-gainer.game, its engine named by `played by`, and the card
language taking its words (colors, marks and their defaults, phases) from that file."""

from pathlib import Path

import pytest

import wgdsl
from wgdsl.games.described import GameFileError, load_game_file
from wgdsl.lang.cards import check_text, library_from_text
from wgdsl.lang.game import compile_text
from wgdsl.lang.vocabulary import Vocabulary, world_gainer
from wgdsl.resources import world_gainer_game_path

FILE_TEXT = world_gainer_game_path().read_text(encoding="utf-8")

CARD = """card XX-001 "試験" en "Trial" {{
  color {color}  cost 2
}}
"""


def _spec(text: str, path: str = "variant.game"):
    spec, problems = compile_text(text, path)
    assert spec is not None, [str(p) for p in problems]
    return spec


def _errors(text: str, path: str = "variant.game") -> list[str]:
    spec, problems = compile_text(text, path)
    assert spec is None
    return [f"{p.pos.line}:{p.pos.col}: {p.message}" for p in problems if p.severity == "error"]


def _line_of(needle: str, text: str = FILE_TEXT) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_load_game_reads_the_game_file_and_plays():
    game = wgdsl.load_game("world-gainer")
    assert Path(game.spec.path) == world_gainer_game_path()
    assert game.id == "world-gainer" and game.seat_range == (2, 2)
    state = game.new_state(seed=4)
    assert state.seats == ("A", "B")
    steps = 0
    while not state.is_terminal() and steps < 5000:
        seat = state.current_seats()[0]
        state.apply(seat, state.legal_actions(seat)[0])
        steps += 1
    assert state.is_terminal()


def test_the_frame_the_file_declares():
    spec = _spec(FILE_TEXT)
    zones = {z.name: z for z in spec.zones}
    assert zones["standby"].slots == 5 and zones["standby"].per_seat
    assert zones["field"].grid == (3, 3) and zones["field"].stacks and not zones["field"].per_seat
    assert spec.turn_phases == ("start", "draw", "standby", "gain", "end")
    assert spec.limit("set_stun").count == 1 and spec.limit("set_stun").rule == "R5.3"
    mark = spec.stat("mark")
    # R2.2: blue scissors, green paper, red rock, yellow all
    assert dict(mark.defaults) == {"blue": "scissors", "green": "paper", "red": "rock",
                                   "yellow": "all"}
    assert spec.card_set == "wg01" and spec.name_en == "World Gainer"
    points = spec.pool("points")
    # R6.1: each player's pool of colored points; R5.5: lost at the end of the turn
    assert points.words == ("blue", "green", "red", "yellow") and points.per_seat
    assert points.emptied and points.rule == "R6.1"


def test_a_card_of_another_game_is_an_error_at_its_word():
    _, problems = check_text(CARD.format(color="fire"), "mine.wg")
    (problem,) = problems
    assert (problem.pos.line, problem.pos.col) == (2, 9)
    assert problem.message == "unknown color `fire`"
    assert problem.hint == "colors are `blue`, `green`, `red` or `yellow` (R2.2)"


def test_the_colors_come_from_the_game_file():
    variant = FILE_TEXT.replace("stat color blue, green, red, yellow",
                                "stat color blue, green, red, yellow, purple")
    variant = variant.replace("yellow all rule R2.3", "yellow all, purple paper rule R2.3")
    words = Vocabulary.from_spec(_spec(variant))
    assert words.colors[-1] == "purple"
    # the default (World Gainer's file) refuses purple; the variant's words accept it
    _, problems = check_text(CARD.format(color="purple"), "mine.wg")
    assert [p.message for p in problems] == ["unknown color `purple`"]
    _, problems = check_text(CARD.format(color="purple"), "mine.wg", vocabulary=words)
    assert problems == []
    # and the mark a purple card takes by default is the variant's mapping
    library = library_from_text(CARD.format(color="purple"), "mine.wg", vocabulary=words)
    assert library["XX-001"].mark == "paper"


def test_the_phases_of_effects_come_from_the_game_file():
    card = ('card XX-002 "試験" {\n  color red  cost 1\n'
            '  field activated during your harvest phase:\n    draw 1 card\n}\n')
    _, problems = check_text(card, "mine.wg")
    assert [p.message for p in problems] == ["unknown phase `harvest`"]
    assert problems[0].hint.endswith("(R5)")
    variant = FILE_TEXT.replace("phases start, draw, standby, gain, end",
                                "phases start, draw, standby, harvest, end")
    _, problems = check_text(card, "mine.wg", vocabulary=Vocabulary.from_spec(_spec(variant)))
    assert problems == []


def test_the_engine_refuses_a_frame_it_cannot_play(tmp_path):
    variant = FILE_TEXT.replace("phases start, draw, standby, gain, end",
                                "phases start, draw, standby, harvest, end")
    path = tmp_path / "variant.game"
    path.write_text(variant, encoding="utf-8")
    with pytest.raises(GameFileError) as err:
        load_game_file(path)
    (problem,) = err.value.diagnostics
    assert problem.pos.line == _line_of('played by "', variant)
    assert "`phases start, draw, standby, gain, end`" in problem.message


def test_the_engine_refuses_a_pool_it_does_not_keep(tmp_path):
    variant = FILE_TEXT.replace("pool points per seat of blue, green, red, yellow emptied "
                                "at end of turn", "pool points per seat of blue, green, red, "
                                "yellow")
    assert variant != FILE_TEXT
    path = tmp_path / "variant.game"
    path.write_text(variant, encoding="utf-8")
    with pytest.raises(GameFileError) as err:
        load_game_file(path)
    (problem,) = err.value.diagnostics
    assert "emptied at end of turn` (R6.1, R5.5)" in problem.message


def test_a_variant_with_its_own_card_file_plays_it(tmp_path):
    (tmp_path / "mine.wg").write_text('include "wg01"\n' + CARD.format(color="red"),
                                      encoding="utf-8")
    path = tmp_path / "variant.game"
    path.write_text(FILE_TEXT.replace('cards "wg01"', 'cards "mine.wg"'), encoding="utf-8")
    game = load_game_file(path)
    assert "XX-001" in game._library(None)


@pytest.mark.parametrize("old, new, expected", [
    ("default by color:", "default by colour:", "`colour` is not another word stat"),
    (", yellow all rule R2.3", " rule R2.3", "`mark` has no default for `yellow` of `color`"),
    ("blue scissors,", "blue stone,", "`stone` is not a value of `mark`"),
    ('cards "wg01"', 'cards "../elsewhere.wg"', "is not a card set's name"),
    ("limit set_stun 1 per turn", "limit set_stun 0 per turn", "a limit is 1 to"),
    ("limit set_stun 1 per turn", "limit set_stun 1 per turn\n  limit set_stun 2 per turn",
     "the limit of `set_stun` is given twice"),
    ("zone standby per seat slots 5 owner", "zone standby per seat slots 0 owner",
     "a zone has 1 to 100 places"),
    ("zone break per seat pile public", "zone break per seat pile stacks public",
     "`stacks` are the stacks of a zone's places"),
    ("of blue, green, red, yellow emptied", "of blue, green, blue, yellow emptied",
     "`blue` is listed twice"),
])
def test_frame_mistakes_are_told_at_their_place(old, new, expected):
    assert old in FILE_TEXT
    errors = _errors(FILE_TEXT.replace(old, new))
    assert any(expected in e for e in errors), errors
    line = _line_of(new.splitlines()[-1], FILE_TEXT.replace(old, new))
    assert any(e.startswith(f"{line}:") for e in errors if expected in e), errors


def test_engine_words_need_an_engine():
    text = ('game tiny "Tiny" {\n  seats 2\n  phases one, two\n'
            '  round {\n    phase one {\n      every seat chooses a sign at once\n    }\n  }\n'
            '  signs a, b\n  end {\n    after 3 rounds: nobody wins\n  }\n}\n')
    errors = _errors(text)
    assert errors[0].startswith("3:") and "`phases` is for a game played by an engine" in errors[0]


def test_the_default_vocabulary_is_world_gainer_s_file():
    words = world_gainer()
    assert words.game == "world-gainer"
    assert Path(words.path) == world_gainer_game_path()
    assert words.phases_rule == "R5" and words.rules["color"] == "R2.2"
