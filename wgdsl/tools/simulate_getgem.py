"""``wgdsl simulate ID --game getgem``: use one GETGEM card on a board and show what follows.

Without a board, :func:`default_board` lays one out where the active seat ``A`` can use the
card: ``A`` holds it and one basic gem of each element, every other seat three cards, the
discard pile two, the deck the rest (shuffled by the seed); cards are chosen by what they
are (kind, element, effects), never by id.  The card is used on the target (default: the
next seat) with its effect (default: its first), and every question is answered from the
answers given, in order, or with its first answer — reported, so a designer sees which.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional

import attrs

from wgdsl.games.getgem.board import Board, state_from_board
from wgdsl.games.getgem.moves import written_answer
from wgdsl.games.getgem.state import Move
from wgdsl.kernel.errors import IllegalAction
from wgdsl.kernel.rng import MASK, shuffled


@attrs.frozen
class Simulation:
    card: str
    effect: Optional[str]
    target: Optional[str]
    before: str  # the table before, as text
    after: str
    events: tuple  # log entries (dicts) from the use on
    defaulted: tuple  # (seat, question kind, answer taken) for each question not answered
    data: dict  # to_dict() after
    refused: str = ""  # why the use was refused ("" when it was not)


def default_board(game, card: str, seats: int, seed: int) -> Board:
    table = game.table
    pool = Counter(table.basic)
    names = game.seat_names(seats)
    hands = {s: [] for s in names}

    def take(pick) -> Optional[str]:
        found = next((i for i in sorted(pool) if pool[i] and pick(i)), None)
        if found is not None:
            pool[found] -= 1
        return found

    hands["A"].append(take(lambda i: i == card))
    for element in ("fire", "water", "thunder"):
        gem = take(lambda i, e=element: table.basic_element(i) == e)
        if gem:
            hands["A"].append(gem)
    for s in names[1:]:  # a gem, a wild or cursed gem if any is left, an action card
        for pick in (lambda i: table.basic_element(i) is not None,
                     lambda i: table.is_gem(i) and table.basic_element(i) is None,
                     lambda i: table.cards[i].kind == "action"):
            got = take(pick)
            if got:
                hands[s].append(got)
    rest = sorted(pool.elements())
    shuffled(int(seed) & MASK, rest)
    discard = [c for c in (rest.pop(), rest.pop()) if not table.cards[c].curse]
    return Board(players=seats, active="A", turn=1, phase="action", deck=rest,
                 discard=discard, hands=hands)


def simulate(game, card: str, seats: int = 2, effect: Optional[str] = None,
             target: Optional[str] = None, answers: tuple = (), seed: int = 0) -> Simulation:
    """Use ``card`` for ``A`` on the default board; ValueError for a card that cannot be
    used (unknown, not an action card, an effect it does not have)."""
    table = game.table
    c = table.cards.get(card)
    if c is None:
        raise ValueError(f"no card {card} in {game.name}'s set; its cards are "
                         + ", ".join(sorted(table.cards)))
    if c.kind != "action":
        raise ValueError(f"{card} ({c.name_en}) is a {c.kind} card: it has no effect to use; "
                         "it counts at a declaration or a victory check (GG R10.1)")
    usable = [e for e in c.effects if not table.effects[e].response]
    if effect is None:
        effect = usable[0] if usable else None
    if effect not in c.effects:
        raise ValueError(f"{card} has no effect {effect!r}; its effects are {', '.join(c.effects)}")
    spec = table.effects[effect]
    if spec.response:
        raise ValueError(f"{effect} is only used in answer to a selection (GG R7.2); to see it, "
                         f"simulate a card that selects a seat holding {card}")
    state = state_from_board(game, default_board(game, card, seats, seed))
    state.d.rng = (int(seed) * 0x9E3779B97F4A7C15) & MASK
    if spec.selects:
        target = target or state.left_of("A")
    else:
        target = None
    before = game.render(state)
    start = len(state.d.log)
    move = Move("use", card, effect if len(c.effects) > 1 else None, target)
    refused = ""
    defaulted = []
    queue = list(answers)
    try:
        state.apply("A", move)
    except IllegalAction as err:
        refused = str(err)
    while not refused and state.d.q is not None:
        q = state.d.q
        legal = state.legal_actions(q["seat"])
        if queue:
            written = queue.pop(0)
            answer = written_answer(legal, written)
            if answer is None:
                raise ValueError(f"answer {written!r} to {q['seat']}'s `{q['kind']}` is not one "
                                 f"of: {', '.join(a.option for a in legal)}")
            state.apply(q["seat"], answer)
        else:
            defaulted.append((q["seat"], q["kind"], legal[0].option))
            state.apply(q["seat"], legal[0])
    return Simulation(card, effect, target, before, game.render(state),
                      tuple(state.log[start:]), tuple(defaulted), state.to_dict(), refused)


def text(game, sim: Simulation) -> str:
    table = game.table
    c = table.cards[sim.card]
    lines = [f"{sim.card} {c.name} / {c.name_en}"]
    for name in c.effects:
        e = table.effects[name]
        lines.append(f"  {e.name_ja} / {e.name_en} ({e.rule}): {e.text_en}")
        lines.append(f"    {e.text_ja}")
    lines += ["", "before:", sim.before, ""]
    if sim.refused:
        lines.append(f"refused: {sim.refused}")
        return "\n".join(lines)
    lines.append("what happens:")
    lines += [f"  {e['text']}" for e in sim.events]
    for seat, kind, answer in sim.defaulted:
        lines.append(f"  (no answer given: {seat}'s `{kind}` took its first answer, {answer})")
    lines += ["", "after:", sim.after]
    return "\n".join(lines)
