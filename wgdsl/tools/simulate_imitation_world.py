"""``wgdsl simulate ID --game imitation-world``: play one card on a board built so that it
can be played, and show the board before and after, every event and the questions its
abilities asked.

The board (IW R24's engine, a ruling case's board, wgdsl.games.imitation_world.board): A's
turn 3, main phase 1; A's aga is an 曖昧 aga of the set (it permits every faction) and A's
cost zone holds as many cards as the card costs, in a pile of its faction; A holds the card;
each player has a geuda without abilities on the field (B a second one, pān, so that a
target A exists), a geuda in the trash and five cards in the deck.  ``--target`` picks the
play's choice (an enchant's geuda, an eventi's or activated ability's target), ``--answers``
answers the questions in order (else their first option, reported), ``--then`` goes on with
engine actions (``next``, ``attack REF player``...).
"""

from __future__ import annotations

from typing import Optional

import attrs

from wgdsl.kernel.errors import IllegalAction


@attrs.define
class Simulation:
    card: str
    action: Optional[str] = None
    refused: Optional[str] = None
    before: str = ""
    after: str = ""
    events: list = attrs.Factory(list)
    defaulted: list = attrs.Factory(list)  # questions answered by their first option


def _plain(table, kind: str = "geuda") -> list:
    """Cards of the set without abilities, cheapest first (the board's extras)."""
    from wgdsl.games.imitation_world.abilities import NONE

    return sorted((c for c in table.cards.values() if c.type == kind and c.abilities == NONE
                   and c.id != "?"), key=lambda c: (c.cost, c.id))


def board_for(game, card_id: str) -> dict:
    table = game.table()
    if card_id not in table.cards:
        from wgdsl.lang.diagnostics import did_you_mean

        hint = did_you_mean(card_id, list(table.cards))
        raise ValueError(f"no card {card_id} in {game.name}'s set" + (f" ({hint})" if hint
                                                                         else ""))
    card = table[card_id]
    if card.type == "aga":
        raise ValueError(f"{card_id} is an aga: it is never played (IW R19.5)")
    agas = [c.id for c in table.agas if "ambiguous" in c.aga().permits]
    aga = agas[0] if agas else next(iter(table.agas)).id
    plain = _plain(table)
    if len(plain) < 6:
        raise ValueError("the set needs six geuda without abilities to build a board")
    pile = ["?"] * max(card.cost, 1)
    cost = ({"unmarked": pile} if card.faction == "ambiguous" or card.faction not in
            table.cost_factions else {card.faction: pile})
    deck = [c.id for c in plain[:5]]
    return {"active": "A", "turn": 3, "phase": "main1", "territory": None, "players": {
        "A": {"aga": aga, "hand": [card_id], "deck": deck, "barriers": ["?"] * 5,
              "cost": cost, "set": [{"card": plain[0].id}], "trash": [plain[2].id]},
        "B": {"aga": aga, "hand": ["?", "?"], "deck": deck, "barriers": ["?"] * 5,
              "set": [{"card": plain[1].id}, {"card": plain[3].id, "state": "pan",
                                              "attacked": True}],
              "trash": [plain[4].id]}}}


def _settle(state, answers: list, sim: Simulation) -> None:
    while not state.is_terminal() and state.question is not None:
        dec = state.question.decision
        if answers:
            given = answers.pop(0)
            option = next((o for o in dec.options if o == given or o.endswith(" " + given)),
                          None)
            if option is None:
                raise ValueError(f"answer {given!r} is not an option of {dec.kind} "
                                 f"({', '.join(dec.options)})")
        else:
            option = dec.options[0]
            sim.defaulted.append(f"{dec.seat} {dec.kind}: {option} (of {', '.join(dec.options)})")
        state.apply(dec.seat, option)


def simulate(game, card_id: str, target: Optional[str] = None, answers: tuple = (),
             then: tuple = ()) -> Simulation:
    """Play ``card_id`` on :func:`board_for`'s board; ValueError for a card that is not
    in the set or an answer that is no option."""
    from wgdsl.games.imitation_world.board import state_from_board
    from wgdsl.games.imitation_world.moves import refusal

    state = state_from_board(game, game.table(), board_for(game, card_id))
    sim = Simulation(card_id, before=game.render(state))
    plays = [str(a) for a in state.legal_actions("A") if str(a).split()[:2] == ["play", card_id]]
    if target is not None:
        plays = [p for p in plays if p.endswith(" " + target)]
    if not plays:
        text = f"play {card_id}" + (f" target {target}" if target else "")
        sim.refused = str(refusal(state, "A", text))
        return sim
    sim.action = plays[0]
    start = len(state.log)
    queue = list(answers)
    state.apply("A", plays[0])
    _settle(state, queue, sim)
    for step in then:
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        try:
            state.apply(seat, state.parse_action(seat, step))
        except IllegalAction as err:
            raise ValueError(f"--then {step!r}: {err}") from None
        _settle(state, queue, sim)
    sim.events = [f"T{e['turn']} {e['seat'] or '-'}  {e['text']}" for e in state.log[start:]]
    sim.after = game.render(state)
    return sim


def text(game, sim: Simulation) -> str:
    card = game.table()[sim.card]
    lines = [f"{sim.card} {card.name} ({card.name_en}): {card.type}, {card.faction}, "
             f"cost {card.cost}" + (f", {card.atk}/{card.defence}" if card.type == "geuda"
                                    else ""), "", "before:", sim.before, ""]
    if sim.refused:
        lines.append(f"cannot be played: {sim.refused}")
        return "\n".join(lines)
    lines.append(f"A: {sim.action}")
    lines += ["   " + e for e in sim.events]
    if sim.defaulted:
        lines += ["", "questions answered by their first option (--answers to choose):"]
        lines += ["   " + q for q in sim.defaulted]
    lines += ["", "after:", sim.after]
    return "\n".join(lines)
