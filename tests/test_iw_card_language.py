"""Imitation World's cards in the one card language (issue 14): the game file gives the
nouns (`nouns from type`), card states (`states pan, ripan`), what `field` stands for, the
judgments and the constructs its engine carries out (`uses ...`); a word or construct of
another game is an error at its place, in either direction."""

from pathlib import Path

import pytest

from wgdsl.lang import ast
from wgdsl.lang.cards import check_text, load_cards
from wgdsl.lang.game import compile_text

ROOT = Path(__file__).resolve().parent.parent
IW01 = ROOT / "cards" / "iw01.wg"
IW_HEAD = 'game "imitation-world"\n'


def problems_of(text: str, path: str = "mine.wg") -> list[tuple[int, int, str, str]]:
    _, found = check_text(text, path)
    return [(d.pos.line, d.pos.col, d.message, d.hint or "") for d in found]


@pytest.fixture(scope="module")
def iw01():
    return load_cards(IW01)


def effects(library, ident):
    return library[ident].effects


# ---------------------------------------------------------------------------- the AST
def test_iw01_checks_clean():
    _, found = check_text(IW01.read_text(encoding="utf-8"), str(IW01))
    assert found == []


def test_a_choice_then_turning_it_pan(iw01):
    (effect,) = effects(iw01, "IW-011")
    assert effect == ast.Triggered(
        "field", ast.Event("enters", subject=ast.This()),
        (ast.ChooseAction(ast.Choose(ast.Filter(None, ("ripan",), "geuda",
                                                zone=ast.Zone("opponent", "field")))),
         ast.Turn(ast.It(), "pan")))


def test_an_activated_cost_and_a_duration(iw01):
    (effect,) = effects(iw01, "IW-023")
    assert isinstance(effect, ast.Activated)
    assert effect.cost == ast.Turn(ast.This(), "pan")
    assert effect.actions[-1] == ast.Modify(ast.It(), "atk", 2, until="end of turn")


def test_continuous_rules_with_stat_words_and_owners(iw01):
    (plain,) = effects(iw01, "IW-016")
    assert plain == ast.StaticEffect("field", (ast.Modify(
        ast.Every(ast.Filter(None, (), "geuda", values=("existence",))), "def", 1),))
    (tower,) = effects(iw01, "IW-018")
    assert tower.rules == (ast.Modify(
        ast.All(ast.Filter("you", (), "geuda", values=("fantasy",))), "atk", 1),)
    (warden,) = effects(iw01, "IW-001")  # an aga's rule works in its zone (R19.5)
    assert warden.where == "aga" and isinstance(warden, ast.StaticEffect)


def test_judgment_events(iw01):
    (knight,) = effects(iw01, "IW-007")
    assert knight.event == ast.Event("judgment", judgments=("barrier", "aga"))
    assert knight.actions == (ast.Modify(ast.This(), "atk", 2),)
    (beast,) = effects(iw01, "IW-010")
    assert beast.event == ast.Event("judgment", judgments=("survival",), role="blocker")


def test_enchants_eventi_and_a_trigger_condition(iw01):
    (curse,) = effects(iw01, "IW-015")
    assert curse == ast.Attached(ast.Filter(None, (), "geuda"),
                                 (ast.Modify(ast.ThatCard(noun="geuda"), "atk", -2),))
    (armor,) = effects(iw01, "IW-014")
    assert armor.filter.owner == "you"
    (oblivion,) = effects(iw01, "IW-021")
    assert isinstance(oblivion, ast.WhenPlayed)
    assert oblivion.actions[0].what.filter.nouns == ("geuda", "territory")
    assert oblivion.actions[1] == ast.Move(ast.It(), ast.ToZone(ast.Zone("owner", "past")))
    (hourglass,) = effects(iw01, "IW-024")
    assert hourglass.condition == ast.Holds(ast.Zone("you", "trash"), ast.Filter(None, (), "card"))
    (fog,) = effects(iw01, "IW-017")
    assert fog.event == ast.Event("turn_end", player="every")
    assert fog.actions == (ast.PlayerDraws("active", 1),)
    (eater,) = effects(iw01, "IW-012")
    assert eater.event == ast.Event("out", subject=ast.This())


# ---------------------------------------------------------------------------- wrong game
WG_CARD = 'card X-001 "a" {\n  color red  cost 1\n  dimension:\n    %s\n}\n'
IW_CARD = IW_HEAD + 'card X-001 "a" {\n  type geuda  faction fantasy  cost 1\n  %s\n}\n'


def test_an_imitation_world_noun_in_a_world_gainer_card():
    assert problems_of(WG_CARD % "choose a geuda on field") == [
        (4, 14, "unknown noun `geuda`", "the nouns of `world-gainer`'s cards are `card` or `stun`")]


def test_a_world_gainer_noun_and_state_in_an_imitation_world_card():
    found = problems_of(IW_CARD % "field when this enters field:\n    choose a ready stun in your hand")
    assert [(line, col, message) for line, col, message, _ in found] == [
        (5, 14, "unknown card state `ready`"), (5, 20, "unknown noun `stun`")]
    assert found[1][3].startswith("the nouns of `imitation-world`'s cards are `card`, `aga`, `geuda`")


def test_a_misspelt_noun_has_a_did_you_mean():
    (problem,) = problems_of(IW_CARD % "when played:\n    choose a gueda on opponent's field")
    assert problem == (5, 14, "unknown noun `gueda`", "did you mean `geuda`?")


def test_a_construct_the_game_does_not_use_is_refused_at_its_place():
    # World Gainer's engine has no `is out` event; Imitation World's has no `exhaust`
    (problem,) = problems_of('card X-001 "a" {\n  color red  cost 1\n  field when this is out:\n'
                             '    draw 1 card\n}\n')
    assert problem[:3] == (3, 14, "the event `is out` is not in `world-gainer`'s cards")
    found = problems_of(IW_CARD % "field when this enters field:\n    exhaust a card in your set")
    assert (5, 5, "the action `exhaust` is not in `imitation-world`'s cards") in \
        [p[:3] for p in found]


def test_stats_judgments_and_durations_are_checked():
    found = problems_of(IW_CARD % "field at judgment survivl:\n    this gets attack +2")
    assert [p[2:] for p in found] == [
        ("unknown judgment `survivl`", "did you mean `survival`?"),
        ("`attack` is not a number stat of `imitation-world`'s cards", "did you mean `atk`?")]
    (problem,) = problems_of(IW_CARD % "field when this enters field:\n    this gets atk +2")
    assert problem[:3] == (5, 5, "this change has no duration")
    (problem,) = problems_of(IW_CARD % "field static:\n    this gets atk +2 until end of turn")
    assert problem[:3] == (5, 5, "a static rule has no duration")


def test_world_gainer_s_engine_refuses_a_card_it_was_not_checked_for(iw01):
    from wgdsl.games.world_gainer.interpreter import compile_card

    with pytest.raises(ValueError, match=r"card IW-011 uses `turn`"):
        compile_card(iw01["IW-011"])


# ---------------------------------------------------------------------------- game file
GAME = ('game toy "t" {\n  seats 2\n  played by "wgdsl.games.world_gainer.api:game_from_spec"\n'
        '  kind card {\n    stat type unit, spell\n  }\n%s}\n')


@pytest.mark.parametrize("line, expected", [
    ("  nouns from kind\n", (7, 14, "`kind` is not a word stat of the game's cards")),
    ("  uses gets, untill\n", (7, 14, "unknown construct `untill` of the card language")),
    ("  states up, down\n  states up\n", (8, 3, "`states` is given twice")),
    ("  field hand\n", (7, 9, "unknown zone `hand`")),
])
def test_the_game_file_s_card_words_are_checked(line, expected):
    _, problems = compile_text(GAME % line, "toy.game")
    errors = [(p.pos.line, p.pos.col, p.message) for p in problems if p.severity == "error"]
    assert errors == [expected]


def test_the_game_file_s_nouns_come_from_a_stat():
    spec, problems = compile_text(GAME % "  nouns from type\n  states up, down\n", "toy.game")
    assert [p for p in problems if p.severity == "error"] == []
    from wgdsl.lang.vocabulary import Vocabulary

    words = Vocabulary.from_spec(spec)
    assert (words.nouns, words.noun_stat, words.states) == (("unit", "spell"), "type", ("up", "down"))


# ---------------------------------------------------------------------------- text, fmt, editor
@pytest.mark.parametrize("ident, lang, expected", [
    # the spec's effect column (../shared/spec/imitation-world.md, IW01), as card text
    ("IW-011", "en", "On entry: Choose a ripān geuda on your opponent's field. Turn it pān."),
    ("IW-011", "ja", "【登場時】相手の場のリパーン状態のゲウダを1枚選ぶ。そのカードをパーンする。"),
    ("IW-014", "en", "Play this card onto one of your geuda. That geuda gets DEF +2."),
    ("IW-014", "ja", "あなたのゲウダにつける。そのゲウダの防御力+2。"),
    ("IW-010", "ja", "【判定時】このカードがブロッカーである生存判定では、防御力+2。"),
    ("IW-017", "en", "At the end of every turn, the active player draws 1 card."),
    ("IW-018", "ja", "【常時】あなたの幻想のゲウダの攻撃力+1。"),
    ("IW-023", "en", "Activated — Turn this card pān: choose a geuda on your field. "
                     "It gets ATK +2 until end of turn."),
    ("IW-001", "en", "Continuous: While this card is face up, your geuda get DEF +1."),
])
def test_card_text_in_both_languages(iw01, ident, lang, expected):
    from wgdsl.lang.text import render_effect_text

    assert render_effect_text(iw01[ident], lang) == expected


def test_the_stats_line_is_the_game_s(iw01):
    from wgdsl.lang.text import card_text_block

    assert card_text_block(iw01["IW-006"], "ja").splitlines()[1] == \
        "ゲウダ・実存  コスト2  攻撃力2  防御力2  連結攻撃"
    assert card_text_block(iw01["IW-006"], "en").splitlines()[1] == \
        "geuda, existence  cost 2  atk 2  def 2  linked attack"


def test_iw01_is_in_canonical_form_and_formats_back_to_the_same_cards():
    from wgdsl.lang.fmt import format_source
    from wgdsl.lang.parser import parse

    text = IW01.read_text(encoding="utf-8")
    formatted, problems = format_source(text, str(IW01))
    assert problems == [] and formatted == text
    assert parse(formatted)[0].cards == parse(text)[0].cards


def test_the_editor_completes_the_game_s_words(tmp_path):
    from wgdsl.tools.lsp.documents import Document

    path = tmp_path / "mine.wg"
    text = IW_CARD % "field when this enters field:\n    draw 1 card"
    doc = Document(str(path), text)
    assert doc.problems() == []  # (the editor checks a buffer before it completes in it)
    labels = {label for label, *_ in doc.completions(5, 4)}
    assert {"geuda", "territory", "pan", "ripan", "existence", "survival", "trash"} <= labels
    assert "stun" not in {label for label, kind, *_ in doc.completions(5, 4) if kind != "keyword"}


# ---------------------------------------------------------------------------- issue 11 leftovers
def test_a_grid_s_rows_are_the_game_file_s():
    from wgdsl.lang.vocabulary import world_gainer

    words = world_gainer()
    assert words.grids == {"field": ("battle", "my")}  # `rows battle, my` in its game file
    assert words.has_zone("battle field") and words.has_zone("my field")
    assert not words.has_zone("home field")
    _, problems = compile_text(GAME % "  zone table shared pile public rows left, right\n",
                               "toy.game")
    assert [(p.pos.line, p.message) for p in problems if p.severity == "error"] == [
        (7, "`rows` names the rows of a grid")]


def test_a_missing_stat_s_example_is_the_game_s():
    (problem,) = problems_of(IW_HEAD + 'card X-001 "a" {\n  faction fantasy\n}\n')
    assert problem[2:] == ("card `X-001` has no type",
                           "every card has a type (R2.1): add `type aga` to its stat line")
    (problem,) = problems_of('card X-001 "a" {\n  cost 1\n}\n')
    assert problem[3] == "every card has a color (R2.1): add `color blue` to its stat line"


def test_that_geuda_is_only_an_enchant_s():
    (problem,) = problems_of(IW_CARD % "field static:\n    that geuda gets def +1")
    assert problem[:3] == (5, 5, "`that geuda` has nothing to refer to in a static rule")
    (problem,) = problems_of(IW_CARD % "when played:\n    move that card to owner's trash")
    assert problem[:3] == (5, 10, "`that card` has nothing to refer to: a `when played:` "
                                  "effect has no event")


def test_dimension_is_world_gainers_and_refused_in_an_imitation_world_card(tmp_path):
    # `dimension:` is World Gainer's effect as its card enters the field (R13.1); an IW
    # card writes `field when this enters field:` (IW01's IW-009, IW-011)
    path = tmp_path / "d.wg"
    path.write_text('game "imitation-world"\n'
                    'card IW-900 "テスト" en "Test" {\n'
                    '  type geuda  faction existence  cost 1  atk 1  def 1\n'
                    '  dimension:\n'
                    '    draw 1 card\n'
                    '}\n', encoding="utf-8")
    _, found = check_text(path.read_text(encoding="utf-8"), str(path))
    problems = [p for p in found if p.severity == "error"]
    assert len(problems) == 1
    assert problems[0].message.startswith("the effect `dimension:`")
    assert (problems[0].pos.line, problems[0].pos.col, problems[0].pos.end_col) == (4, 3, 12)
