"""Card sets as text for a terminal: the ``wgdsl cards`` table and ``wgdsl show``.

Japanese names take two terminal columns per character, so columns are aligned by
display width (``unicodedata.east_asian_width``: wide and fullwidth characters count
2, combining marks 0), not by ``len``.  Cells are made printable first
(:func:`wgdsl.terminal.printable`: a control character in a card name is shown as
``\x1b``), so the columns line up with what the terminal shows.  ``show`` prints each effect exactly as the
card file wrote it, cut out of the source by the effect's position.
"""

from __future__ import annotations

import re
import textwrap
from typing import Optional, Sequence

from wgdsl.lang.ast import Effect
from wgdsl.lang.cards import CardDef, CardLibrary
from wgdsl.lang.diagnostics import did_you_mean
from wgdsl.lang.vocabulary import for_game
from wgdsl.terminal import printable
from wgdsl.width import display_width

TABLE_HEADER = ("id", "name", "English name", "color", "cost/req", "stun", "kind")




def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def table(rows: Sequence[Sequence[str]], gap: str = "  ") -> str:
    """Rows as aligned columns (the last column is not padded)."""
    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [pad(cell, widths[i]) for i, cell in enumerate(row[:-1])] + [row[-1]]
        lines.append(gap.join(cells).rstrip())
    return "\n".join(lines)


def card_row(card: CardDef) -> tuple[str, ...]:
    return (card.id, card.name, card.en_name, card.color, f"{card.cost}/{card.required}",
            str(card.stun), card.kind)


def cards_table(library: CardLibrary) -> str:
    """One line per card: World Gainer's id, name, English name, color, cost/required,
    stun, kind; a set of another game (``game "imitation-world"``): id, names, that game's
    stats as the cards write them (in the order first written), and how many effects."""
    cards = list(library)
    if all(c.game == "world-gainer" for c in cards):
        return table([TABLE_HEADER] + [card_row(c) for c in cards])
    written: dict = {}  # stat name -> None, in the order first written
    for c in cards:
        for s in c.source.stats:
            written.setdefault(s.key)
    # in the order the game file declares them, when it can be read
    words, _ = for_game(cards[0].game, library.path)
    declared = [k for k in words.stats if k in written] if words is not None else []
    stats = declared + [k for k in written if k not in declared]
    header = ("id", "name", "English name", *stats, "effects")
    return table([header] + [
        (c.id, c.name, c.en_name, *(_cell(c.source.stat(k)) for k in stats),
         str(len(c.effects)) if c.effects else "—")
        for c in cards])


def _cell(value) -> str:
    """A stat as a table cell: a flag is ``yes``, a stat a card does not write is empty."""
    if value is True:
        return "yes"
    return "" if value is None or value is False else str(value)


def find_card(library: CardLibrary, card_id: str) -> tuple[Optional[CardDef], Optional[str]]:
    """The card with this id (any letter case), or None and a "did you mean" hint.

    ``XX-6`` and ``XX-06`` suggest ``XX-006``: the number counts, not its zeros.
    """
    wanted = card_id.upper()
    card = library.get(card_id) or library.get(wanted)
    if card is not None:
        return card, None
    split = re.fullmatch(r"(.*?)-0*(\d+)", wanted)
    if split:
        for c in library:
            other = re.fullmatch(r"(.*?)-0*(\d+)", c.id)
            if other and other.groups() == split.groups():
                return None, f"did you mean `{c.id}`?"
    return None, did_you_mean(wanted, [c.id for c in library])


def effect_source(effect: Effect, source: str) -> str:
    """The effect's text as written in ``source``, dedented."""
    pos = effect.pos
    # lines as the parser counts them: at "\n" only (splitlines also splits at U+2028)
    lines = [x.rstrip("\r") for x in source.split("\n")[pos.line - 1: pos.end_line]]
    if not lines:
        return ""
    if len(lines) == 1:
        lines[0] = lines[0][: pos.end_col - 1]
    else:
        lines[-1] = lines[-1][: pos.end_col - 1]
    # keep the first line where it stood so the lines below keep their indentation
    lines[0] = " " * (pos.col - 1) + lines[0][pos.col - 1:]
    return textwrap.dedent("\n".join(line.rstrip() for line in lines))


def show_card(card: CardDef, source: str, path: str) -> str:
    """A card's stats, then each effect as its card file wrote it."""
    if card.game != "world-gainer":  # another game's stats, as the card writes them
        stats = [(s.key, _cell(s.value)) for s in card.source.stats]
        stats.append(("effects", str(len(card.effects)) if card.effects else "—"))
        return _shown(card, stats, source, path)
    stats = [
        ("color", card.color),
        ("mark", card.mark),
        ("cost", str(card.cost)),
        ("required", str(card.required)),
        ("stun", str(card.stun)),
        ("kind", card.kind),
    ]
    if card.unique:
        stats.append(("unique", "yes (at most one in a stock, R3.3)"))
    return _shown(card, stats, source, path)


def _shown(card: CardDef, stats: list, source: str, path: str) -> str:
    out = [f"{card.id}  {card.name}  ({card.en_name})"]
    out += ["  " + line for line in table(stats).splitlines()]
    for effect in card.effects:
        out.append("")
        out += ["  " + line for line in effect_source(effect, source).splitlines()]
    out.append("")
    out.append(f"  written at {path}:{card.source.pos.line}")
    return "\n".join(out)
