"""``wgdsl deck check --game imitation-world DECK...``: each deck (a reference deck's name or
a deck file, IW R4.7) checked against IW R4 (../shared/spec/imitation-world.md), one line
per deck — legal, or illegal followed by each problem at its place with its rule."""

from __future__ import annotations

from typing import Sequence

from wgdsl.games.imitation_world.decks import check_deck, iw01_cards


def check_decks(decks: Sequence[str], variant: str = "main") -> tuple:
    """``(lines, all_legal)`` for ``decks`` under ``variant`` (``"main"``, or ``"starter"``:
    IW R4.5)."""
    cards = iw01_cards()
    lines, legal = [], True
    rule = "main rule IW R4.1-R4.4" if variant == "main" else "starter variant IW R4.5"
    for name in decks:
        deck, problems, _, _ = check_deck(name, cards, variant)
        if not problems:
            lines.append(f"{name}: legal — aga {deck.aga}, {len(deck.cards)} cards ({rule})")
            continue
        legal = False
        lines.append(f"{name}: illegal ({rule})" if deck is not None else
                     f"{name}: not a deck file that can be checked (IW R4.7)")
        for d in problems:
            where = d.path if d.pos.line == 0 else f"{d.path}:{d.pos.line}:{d.pos.col}"
            lines.append(f"  {where}: {d.message}" + (f"; {d.hint}" if d.hint else ""))
    return lines, legal
