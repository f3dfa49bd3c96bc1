"""Card text rendered from the DSL (wgdsl/lang/text.py), against hand-written references.

The references were written by hand from the meaning of each card in
../shared/spec/wg01.md: the Japanese in the style of the printed texts the rulebook
quotes (「このカードがブレイクに置かれた場合ストックの一番下に戻す。」, 「フィールドのカードを
1枚選ぶ。選んだカードのコピーとしてフィールドに出る。」), the English close to the spec's
effect column.  They are not output of the program.
"""

from __future__ import annotations

import attrs
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings

from strategies_ast import cards
from wgdsl.cli import main
from wgdsl.lang import ast
from wgdsl.lang.cards import load_cards
from wgdsl.lang.parser import parse
from wgdsl.lang.text import card_text_block, render_effect, render_effect_text

JA = {
    "WG-001": "【ディメンション】あなたのストックの一番上のカードを見る。"
              "そのカードをあなたのストックの一番下に戻してもよい。",
    "WG-002": "【ディメンション】カードを1枚引く。",
    "WG-003": "【フィールド】あなたのゲインフェイズに使用できる。"
              "このカードをあなたのブレイクに置くことで、青のポイントを2獲得する。",
    "WG-004": "【ディメンション】相手のスタンバイにある横向きでないスタンを1枚選び、横向きにする。",
    "WG-005": "【フィールド】このカードは効果の対象にならない。",
    "WG-006": "【フィールド】このカードがフィールドからブレイクに置かれた場合、ストックの一番下に戻す。",
    "WG-007": "このカードがスタンバイにある間、生み出すポイントは、そのつど青・緑・赤のうち好きな1色になる。",
    "WG-008": "【ディメンション】あなたのストックにある「月面派遣軍・曹長」を1枚選び、"
              "あなたのマイフィールドの空いているマスに置いてもよい。その後、あなたのストックをシャッフルする。",
    "WG-009": "【ディメンション】相手の手札にあるカードをランダムに1枚選び、持ち主のブレイクに置く。",
    "WG-010": "",
    "WG-011": "【フィールド】このカードのマスが奪われた場合、カードを1枚引く。",
    "WG-012": "【ディメンション】バトルフィールドにある相手のコスト2以下のカードを1枚選び、持ち主のブレイクに置く。",
    "WG-013": "【ディメンション】フィールドのカードを1枚選ぶ。選んだカードのコピーとしてフィールドに出る。",
    "WG-014": "このカードが手札にある間、獲得の優先度に関係なく相手のマイフィールドに置くことができる。",
    "WG-015": "【フィールド】あなたのターンの開始時、あなたのブレイクにあるカードを1枚選び、"
              "あなたのストックの一番下に戻してもよい。",
    "WG-016": "",
    "WG-017": "【ディメンション】あなたのストックの一番上のカードを横向きでないスタンとしてあなたのスタンバイに置く。",
    "WG-018": "",
    "WG-019": "【フィールド】相手が手札からカードを使用した場合、あなたのスタンバイにある横向きでないスタンを"
              "1枚選び、あなたのブレイクに置いてもよい。そうした場合、その使用を無効にする。",
    "WG-020": "",
    "WG-021": "【ディメンション】あなたのブレイクにあるカードを1枚選び、手札に加える。",
    "WG-022": "【フィールド】フィールドにあるあなたの他のカードが何らかの効果の対象になった場合、"
              "このカードの位置と対象になったカードの位置を入れ替える。",
    "WG-023": "【ディメンション】あなたが獲得しているマスが相手より少ない場合、カードを1枚引く。",
    "WG-024": "【フィールド】コスト2以下のカードでは、このカードのあるマスを奪うことも相殺することもできない。",
    "WG-025": "【ディメンション】相手が獲得しているバトルフィールドのマスにあるすべてのカードを持ち主のブレイクに置く。",
}

EN = {
    "WG-001": "Dimension: Look at the top card of your stock. "
              "You may put it on the bottom of your stock.",
    "WG-002": "Dimension: Draw 1 card.",
    "WG-003": "Field: During your gain phase, you may put this card into your break "
              "to add 2 blue points.",
    "WG-004": "Dimension: Choose a ready stun in your opponent's standby and exhaust it.",
    "WG-005": "Field: This card cannot be targeted by effects.",
    "WG-006": "Field: When this card is put into a break from the field, "
              "put it on the bottom of its owner's stock.",
    "WG-007": "While this card is in your standby, the points it gives are of one color "
              "of your choice each time: blue, green or red.",
    "WG-008": 'Dimension: You may choose a card named "月面派遣軍・曹長" in your stock and put it '
              "onto an empty square of your my field. Then shuffle your stock.",
    "WG-009": "Dimension: Put a random card in your opponent's hand into its owner's break.",
    "WG-010": "",
    "WG-011": "Field: When this card's square is seized, draw 1 card.",
    "WG-012": "Dimension: Choose one of your opponent's cards of cost 2 or less on the battle "
              "field and put it into its owner's break.",
    "WG-013": "Dimension: Choose a card on the field. This card enters the field as a copy of it.",
    "WG-014": "While this card is in your hand, it can be played onto your opponent's my field "
              "regardless of field priority.",
    "WG-015": "Field: At the start of your turn, you may choose a card in your break and put it "
              "on the bottom of your stock.",
    "WG-016": "",
    "WG-017": "Dimension: Put the top card of your stock into your standby as a ready stun.",
    "WG-018": "",
    "WG-019": "Field: When your opponent plays a card from hand, you may choose a ready stun in "
              "your standby and put it into your break. If you do, cancel that play.",
    "WG-020": "",
    "WG-021": "Dimension: Choose a card in your break and put it into your hand.",
    "WG-022": "Field: When another of your cards on the field becomes the target of an effect, "
              "swap the stacks on this card's square and the targeted card's square.",
    "WG-023": "Dimension: If you hold fewer squares than your opponent, draw 1 card.",
    "WG-024": "Field: The square this card is on cannot be seized or traded by a card of cost "
              "2 or less.",
    "WG-025": "Dimension: Put every card of every stack your opponent holds on the battle field "
              "into its owner's break.",
}

LIBRARY = load_cards()


def test_the_references_cover_all_25_cards():
    assert sorted(JA) == sorted(EN) == [c.id for c in LIBRARY]


@pytest.mark.parametrize("card_id", sorted(JA))
def test_japanese_text_of_each_wg01_card(card_id):
    assert render_effect_text(LIBRARY[card_id], "ja") == JA[card_id]


@pytest.mark.parametrize("card_id", sorted(EN))
def test_english_text_of_each_wg01_card(card_id):
    assert render_effect_text(LIBRARY[card_id], "en") == EN[card_id]


def test_the_ast_card_renders_like_the_card_definition():
    card = LIBRARY["WG-006"]
    assert render_effect_text(card.source, "ja") == render_effect_text(card, "ja")


def test_labels_can_be_left_out():
    effect = LIBRARY["WG-002"].effects[0]
    assert render_effect(effect, "ja", labels=False) == "カードを1枚引く。"
    assert render_effect(effect, "en", labels=False) == "Draw 1 card."


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        render_effect_text(LIBRARY["WG-002"], "fr")


# ------------------------------------------------------------------------ composition
def _effects(body: str):
    cardset, diagnostics = parse(f'card X-1 "試作" {{\n  color red  cost 1\n{body}}}\n')
    assert diagnostics == []
    return cardset.cards[0]


def _both(body: str) -> tuple[str, str]:
    card = _effects(body)
    return render_effect_text(card, "ja"), render_effect_text(card, "en")


def test_every_card_and_turn_end():
    ja, en = _both("  field at end of opponent's turn:\n"
                   "    exhaust every ready stun in your standby\n")
    assert ja == "【フィールド】相手のターンの終了時、あなたのスタンバイにある横向きでないスタンをすべて横向きにする。"
    assert en == ("Field: At the end of your opponent's turn, "
                  "exhaust every ready stun in your standby.")


def test_another_card_entering_and_the_card_it_names():
    ja, en = _both("  field when a card enters field:\n    move that card to owner's hand\n")
    assert ja == "【フィールド】カードがフィールドに出た場合、フィールドに出たカードを持ち主の手札に戻す。"
    assert en == ("Field: When a card enters the field, "
                  "put the card that entered the field into its owner's hand.")


def test_leaving_the_field_without_a_zone_and_a_cost_comparison():
    ja, en = _both("  field when this leaves field:\n"
                   "    if opponent has more cards in hand than you: draw 2 cards\n")
    assert ja == "【フィールド】このカードがフィールドを離れた場合、相手の手札があなたより多い場合、カードを2枚引く。"
    assert en == ("Field: When this card leaves the field, "
                  "if your opponent has more cards in hand than you, draw 2 cards.")


def test_an_activated_effect_without_a_cost_or_phase():
    ja, en = _both("  field activated:\n    add 1 red point\n")
    assert ja == "【フィールド】いつでも使用できる。赤のポイントを1獲得する。"
    assert en == "Field: You may add 1 red point."


def test_a_copy_of_a_random_card_and_a_choice():
    ja, en = _both("  dimension:\n    choose an opponent's card on battle field\n"
                   "    enter as a copy of a random card in your hand\n")
    assert ja == ("【ディメンション】バトルフィールドにある相手のカードを1枚選ぶ。"
                  "あなたの手札にあるカードをランダムに1枚選ぶ。選んだカードのコピーとしてフィールドに出る。")
    assert en == ("Dimension: Choose one of your opponent's cards on the battle field. "
                  "This card enters the field as a copy of a random card in your hand.")


def test_protection_from_one_kind_and_costs_as_symbols():
    ja, en = _both("  field static:\n    this square cannot be seized by a card of cost < 3\n")
    assert ja == "【フィールド】コスト3未満のカードでは、このカードのあるマスを奪うことはできない。"
    assert en == "Field: The square this card is on cannot be seized by a card of cost less than 3."


# ------------------------------------------------------------------------ any card renders
def _names(node):
    """The card names a tree quotes (``named "..."``)."""
    if isinstance(node, tuple):
        for item in node:
            yield from _names(item)
    elif attrs.has(type(node)):
        if isinstance(node, ast.Filter) and node.name is not None:
            yield node.name
        for field in attrs.fields(type(node)):
            yield from _names(getattr(node, field.name))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards)
def test_every_card_the_language_can_write_renders(card):
    for lang, end in (("ja", "。"), ("en", ".")):
        for effect in card.effects:
            text = render_effect(effect, lang)
            assert text.endswith(end)
            for name in _names(effect):
                text = text.replace(name, "")
            assert "None" not in text  # no missing word printed as None
        card_text_block(card, lang)


# ------------------------------------------------------------------------ blocks and CLI
def test_card_text_block_in_both_languages():
    card = LIBRARY["WG-025"]
    assert card_text_block(card, "ja") == (
        "WG-025  太陽の法\n"
        "黄・グチパ  スタンコスト5  必須スタンコスト5  スタン値1  ユニーク\n" + JA["WG-025"]
    )
    assert card_text_block(card, "en") == (
        "WG-025  The Laws of the Sun  (太陽の法)\n"
        "yellow, all  cost 5  required 5  stun 1  unique\n" + EN["WG-025"]
    )


def test_a_card_without_effects_is_its_stats():
    assert card_text_block(LIBRARY["WG-010"], "ja") == (
        "WG-010  ビッグフット\n青・チョキ  スタンコスト4  必須スタンコスト2  スタン値2"
    )


def test_show_lang_prints_the_rendered_card():
    result = CliRunner().invoke(main, ["show", "WG-006", "--lang", "ja"])
    assert result.exit_code == 0
    assert result.output == (
        "WG-006  ニビル星人\n赤・グー  スタンコスト3  必須スタンコスト1  スタン値1\n" + JA["WG-006"] + "\n"
    )


def test_show_lang_refuses_an_unknown_language():
    result = CliRunner().invoke(main, ["show", "WG-006", "--lang", "fr"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_cards_text_prints_every_card():
    result = CliRunner().invoke(main, ["cards", "--text", "--lang", "en"])
    assert result.exit_code == 0
    blocks = result.output.rstrip("\n").split("\n\n")
    assert len(blocks) == 25
    assert blocks[5] == (
        "WG-006  Nibiruan  (ニビル星人)\nred, rock  cost 3  required 1  stun 1\n" + EN["WG-006"]
    )
