"""Card text rendered from the card language, as it would be printed on the card.

``render_effect_text(card, "ja")`` gives each effect of a card as one line of printed
text, in the rulebook's Japanese style or in English close to the WG01 table::

    【フィールド】このカードがフィールドからブレイクに置かれた場合、ストックの一番下に戻す。
    Field: When this card is put into a break from the field, put it on the bottom of its owner's stock.

The text is composed from the generic constructs (zones, selectors, filters, events,
actions, conditions, static rules); no card is rendered by a template of its own.  The
words of each language are in :mod:`wgdsl.lang.text_en` and :mod:`wgdsl.lang.text_ja`,
the shape they share in :mod:`wgdsl.lang.text_base`.  ``card_text_block`` adds the card's
id, names and stats (what ``wgdsl show --lang`` and ``wgdsl cards --text`` print).
"""

from __future__ import annotations

from typing import Union

from . import ast
from .cards import CardDef, card_def
from .text_base import Renderer

LANGS = ("ja", "en")

COLOR_JA = {"blue": "青", "green": "緑", "red": "赤", "yellow": "黄"}
MARK_JA = {"rock": "グー", "scissors": "チョキ", "paper": "パー", "all": "グチパ"}


def _renderer(lang: str, game: str = "world-gainer") -> Renderer:
    if lang == "ja":
        from .text_ja import Japanese

        return Japanese(game)
    if lang == "en":
        from .text_en import English

        return English(game)
    raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")


def render_effect(effect: ast.Effect, lang: str = "ja", labels: bool = True,
                  game: str = "world-gainer") -> str:
    """One effect as printed text, with its kind label (【フィールド】 / "Field: ") unless
    ``labels`` is false, in the words of the cards' ``game``."""
    return _renderer(lang, game).effect(effect, labels=labels)


def render_effect_text(card: Union[CardDef, ast.Card], lang: str = "ja", labels: bool = True) -> str:
    """Every effect of a card, one line each ("" for a card without effects)."""
    game = getattr(card, "game", "world-gainer")
    return "\n".join(render_effect(e, lang, labels, game) for e in card.effects)


def stats_text(card: CardDef, lang: str = "ja") -> str:
    """``赤・グー  スタンコスト3  必須スタンコスト1  スタン値1`` / ``red, rock  cost 3  required 1  stun 1``;
    another game's stats as its card writes them (in Japanese, with the words known)."""
    if not card.color and card.source is not None and card.source.stats:
        return _other_stats(card.source, lang)
    if lang == "ja":
        parts = [f"{COLOR_JA.get(card.color, card.color)}・{MARK_JA.get(card.mark, card.mark)}",
                 f"スタンコスト{card.cost}", f"必須スタンコスト{card.required}", f"スタン値{card.stun}"]
        if card.unique:
            parts.append("ユニーク")
    else:
        parts = [f"{card.color}, {card.mark}", f"cost {card.cost}", f"required {card.required}",
                 f"stun {card.stun}"]
        if card.unique:
            parts.append("unique")
    return "  ".join(parts)


# Imitation World's stat words and stats in Japanese (../shared/spec/imitation-world.md)
STAT_WORDS_JA = {"aga": "アガ", "geuda": "ゲウダ", "enchant": "エンチャント", "territory": "テリトリー",
                 "eventi": "イベンティ", "object": "オブジェクト", "existence": "実存",
                 "fantasy": "幻想", "ambiguous": "曖昧"}
STATS_JA = {"cost": "コスト", "atk": "攻撃力", "def": "防御力", "linked_attack": "連結攻撃"}


def _other_stats(card: ast.Card, lang: str) -> str:
    """``geuda, existence  cost 1  atk 2  def 2`` / ``ゲウダ・実存  コスト1  攻撃力2  防御力2``:
    a card's word stats first, then its numbers and flags, as written."""
    words = [str(s.value) for s in card.stats if isinstance(s.value, str)]
    rest = [s for s in card.stats if not isinstance(s.value, str)]
    if lang == "ja":
        parts = ["・".join(STAT_WORDS_JA.get(w, w) for w in words)] if words else []
        parts += [STATS_JA.get(s.key, s.key) + ("" if s.value is True else str(s.value))
                  for s in rest]
    else:
        parts = [", ".join(words)] if words else []
        parts += [s.key.replace("_", " ") if s.value is True else f"{s.key} {s.value}"
                  for s in rest]
    return "  ".join(parts)


def card_text_block(card: Union[CardDef, ast.Card], lang: str = "ja") -> str:
    """A card as a reader sees it: id and name, stats, then the rendered effect text."""
    if isinstance(card, ast.Card):
        card = card_def(card)
    if lang == "ja":
        title = f"{card.id}  {card.name}"
    else:
        title = f"{card.id}  {card.en_name}" + (f"  ({card.name})" if card.en_name != card.name else "")
    lines = [title, stats_text(card, lang)]
    text = render_effect_text(card, lang)
    if text:
        lines.append(text)
    return "\n".join(lines)
