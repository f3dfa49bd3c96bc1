"""``wgdsl simulate ID --game wonderful-world``: what one development card brings.

It's a Wonderful World's cards have no effects (IAW R3.8): a card is its cost, its
construction bonus, its production and its VP.  Simulating one shows them on a board: the
active seat P1 (an empire of the chosen side, by default the first) with the card under
construction, every space filled but one — then the last space filled — and, with the card
constructed beside ``--with`` cards, P1's production in each step and its score by
category, before and after, so a designer sees what the card adds.
"""

from __future__ import annotations

from typing import Optional

import attrs

from wgdsl.games.wonderful_world import rules
from wgdsl.games.wonderful_world.cards import RESOURCES


@attrs.frozen
class CardReport:
    card: str
    text: str  # the card as the game file gives it
    production: dict  # step -> (before, after)
    score: dict  # category -> (before, after)
    bonus: tuple


def simulate(game, card: str, built: tuple = (), empire: Optional[str] = None,
             side: str = "B", generals: int = 0, financiers: int = 0) -> CardReport:
    table = game.table
    if card not in table.developments:
        known = "an empire card: it is not constructed" if card in table.empires else \
            "not in the set; `wgdsl cards --game wonderful-world` lists them"
        raise ValueError(f"{card}: {known}")
    for other in built:
        if other not in table.developments:
            raise ValueError(f"--with {other}: not a development card of the set")
    if side not in ("A", "B"):
        raise ValueError(f"--side: A or B, not {side!r}")
    empire = empire or sorted(table.empires)[0]
    if empire not in table.empires:
        raise ValueError(f"--empire {empire}: the empires are {', '.join(sorted(table.empires))}")
    before, after = list(built), list(built) + [card]
    production = {r: (rules.production(table, r, empire, side, before),
                      rules.production(table, r, empire, side, after)) for r in RESOURCES}
    gen = generals + sum(1 for b in table.developments[card].bonus if b == "GEN")
    fin = financiers + sum(1 for b in table.developments[card].bonus if b == "FIN")
    s0 = rules.score(table, before, empire, side, generals, financiers)
    s1 = rules.score(table, after, empire, side, gen, fin)
    score = {k: (s0[k], s1[k]) for k in s0}
    spec_card = game.spec.card(card)
    from wgdsl.lang.game.spec import stat_text

    text = " ".join(f"{n} {stat_text(v)}" for n, v in spec_card.stats)
    return CardReport(card, text, production, score, table.developments[card].bonus)


def text(game, r: CardReport) -> str:
    d = game.table.developments[r.card]
    lines = [f"{r.card} {d.name} / {d.name_en} x{d.copies}", f"  {r.text}", "",
             "production of P1 in each step, without and with it:"]
    for res, (a, b) in r.production.items():
        lines.append(f"  {res}  {a} -> {b}" + (f"  (+{b - a})" if b != a else ""))
    lines.append("score of P1 at the end, without and with it (its bonus "
                 + (" ".join(r.bonus) if r.bonus else "none") + " kept):")
    for k, (a, b) in r.score.items():
        lines.append(f"  {k:<9} {a} -> {b}" + (f"  (+{b - a})" if b != a else ""))
    return "\n".join(lines)
