"""Single-card simulation: play one card on a board and show everything that follows.

Without a board file, :func:`default_board` builds one where the active player (A) can
legally play the card: its cost in the pool, A holding its whole my field (so the battle
field is open, R8.2), cards for both players on the field, in hand, stock, break and
standby so that targets exist.  With a board file (a ruling case's ``[state]`` and
``[answers]``) the card is played there.  Choices the answers do not cover are taken
with the first option, and the output says so: a designer tries a card in a second.
"""

from __future__ import annotations

from typing import Optional

import attrs

from . import rules
from .agents import Agent, BadAnswer
from .cards import CardDef, CardLibrary
from .engine import Action, Game, IllegalAction
from .errors import RunawayEffects
from .state import PLAYERS, SQUARES, GameState

FILLER_FIELD = {"A": ("A1", "A2", "A3"), "B": ("B1", "B2", "B3", "C2")}


class FallbackAgent(Agent):
    """Answers from a script, then the first option; remembers what it defaulted."""

    name = "simulate"

    def __init__(self, answers=()):
        self.answers = list(answers)
        self.position = 0
        self.defaulted: list[str] = []

    def act(self, game, actions):  # pragma: no cover - simulate applies one action itself
        return actions[0]

    def answer(self, game, question):
        if self.position < len(self.answers):
            ans = self.answers[self.position]
            if ans not in question.options:
                raise BadAnswer(f"{question.player}'s answer `{ans}` does not fit "
                                f"\"{question.prompt}\" (options: {', '.join(question.options)})")
            self.position += 1
            return ans
        ans = question.options[0]
        self.defaulted.append(f"{question.player}: \"{question.prompt}\" -> {ans} "
                              f"(options: {', '.join(question.options)})")
        return ans

    def unused(self) -> list[str]:
        return self.answers[self.position:]


def _fillers(library: CardLibrary, card: CardDef) -> list[CardDef]:
    """Cheap cards without field or static effects first (they stay out of the way)."""
    def quiet(c: CardDef) -> bool:
        return all(e.where == "dimension" for e in c.effects)

    pool = [c for c in library if c.id != card.id and not c.unique]
    pool.sort(key=lambda c: (not quiet(c), c.cost, c.id))
    return pool or [card]


def default_board(library: CardLibrary, card: CardDef, seed: int = 0) -> GameState:
    st = GameState.empty(seed)
    st.turn, st.active, st.phase, st.first = 3, "A", "gain", "A"
    fill = _fillers(library, card)
    k = 0

    def nxt() -> CardDef:
        nonlocal k
        c = fill[k % min(len(fill), 4)]
        k += 1
        return c

    for p in PLAYERS:
        for sq in FILLER_FIELD[p]:
            st.put(st.new_instance(p, nxt()), "field", square=sq)
    for p in PLAYERS:
        for _ in range(10):
            st.put(st.new_instance(p, nxt()), "stock")
        for _ in range(2 if p == "A" else 3):
            st.put(st.new_instance(p, nxt()), "hand")
        for _ in range(2):
            st.put(st.new_instance(p, nxt()), "break")
        for slot in range(3 if p == "B" else 2):
            st.put(st.new_instance(p, nxt()), "standby", slot=slot, exhausted=(slot == 2))
    st.put(st.new_instance("A", card), "hand")
    color = card.color if card.color != "yellow" else "red"
    st.players["A"].pool = {color: card.cost} if card.cost else {}
    return st


@attrs.frozen
class Simulation:
    card: CardDef
    square: Optional[str]
    before_text: str
    after_text: str
    log: tuple
    error: Optional[str]  # why the card could not be played, with the rule number
    defaulted: tuple
    unused: tuple
    state: GameState


def _pick_square(game: Game, card: CardDef, square: Optional[str]) -> Optional[str]:
    if square is not None:
        return square
    plays = [a for a in game.legal_actions() if a.kind == "play" and a.card == card.id]
    if not plays:
        return None
    preference = ("C1", "C2", "C3") + tuple(sq for sq in SQUARES if sq[0] != "C")
    order = {sq: i for i, sq in enumerate(preference)}
    return min(plays, key=lambda a: order[a.square]).square


def _why_unplayable(game: Game, card: CardDef) -> str:
    st = game.state
    p = st.active
    if st.phase != "gain":
        return f"cards are played in the gain phase, and this board is in the {st.phase} phase (R7.1)"
    if st.played:
        return "the active player has already played a card from hand this turn (R5.4)"
    if rules.payment(st.players[p].pool, card.cost, card.required, card.color) is None:
        return (f"the pool cannot pay cost {card.cost} with {card.required} {card.color} "
                "(R6.3); add points to `pool`")
    reasons = []
    for sq in SQUARES:
        if not game.priority_ok(p, card, sq):
            continue
        outcome, rule, reason = game.play_outcome(p, card, sq)
        if outcome == rules.ILLEGAL:
            reasons.append(f"{sq}: {reason} ({rule})")
    if not reasons:
        return "no square is open to it by field priority (R8.2)"
    return "no square takes it: " + "; ".join(reasons)


def simulate(library: CardLibrary, card_id: str, *, state: Optional[GameState] = None,
             answers: Optional[dict] = None, square: Optional[str] = None,
             seed: int = 0) -> Simulation:
    from .board import render_board

    card = library[card_id]
    if state is None:
        state = default_board(library, card, seed)
    agents = {p: FallbackAgent((answers or {}).get(p, ())) for p in PLAYERS}
    game = Game(state, library, agents)
    p = state.active
    if not any(i.id == card.id for i in state.players[p].hand):
        state.put(state.new_instance(p, card), "hand")
    before_text = render_board(state, p)
    chosen = _pick_square(game, card, square)
    error = None
    if chosen is None:
        error = f"{card.id} cannot be played on this board: {_why_unplayable(game, card)}"
    else:
        try:
            game.apply(Action("play", p, card=card.id, square=chosen))
        except IllegalAction as err:
            error = f"{card.id} cannot be played onto {chosen}: {err.reason}" + (
                f" ({err.rule})" if err.rule else "")
        except BadAnswer as err:
            error = str(err)
        except RunawayEffects as err:
            error = err.message
    return Simulation(
        card=card, square=chosen, before_text=before_text,
        after_text=render_board(game.state, p), log=tuple(game.log.lines()), error=error,
        defaulted=tuple(d for a in agents.values() for d in a.defaulted),
        unused=tuple(f"{pl}: {', '.join(a.unused())}" for pl, a in agents.items() if a.unused()),
        state=game.state,
    )


def parse_answers(values) -> dict:
    """``A=C1,A=yes,B=no`` (and repeated options) -> {"A": ["C1", "yes"], "B": ["no"]}."""
    out: dict = {p: [] for p in PLAYERS}
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            who, sep, ans = item.partition("=")
            who = who.strip().upper()
            if not sep or who not in PLAYERS or not ans.strip():
                raise ValueError(f"`{item}` is not PLAYER=ANSWER (e.g. A=C1, B=no, A=slot 2)")
            out[who].append(ans.strip())
    return out


def to_json_dict(sim: Simulation) -> dict:
    st = sim.state
    return {
        "card": sim.card.id,
        "square": sim.square,
        "played": sim.error is None,
        "error": sim.error,
        "log": list(sim.log),
        "defaulted_answers": list(sim.defaulted),
        "unused_answers": list(sim.unused),
        "after": {
            "winner": st.winner,
            "win_reason": st.win_reason,
            "field": {sq: {"holder": st.holder(sq), "cards": [i.id for i in st.field[sq]]}
                      for sq in SQUARES if st.field[sq]},
            "players": {p: {
                "hand": [i.id for i in st.players[p].hand],
                "stock_count": len(st.players[p].stock),
                "break": [i.id for i in st.players[p].break_],
                "standby": [None if s is None else s.id + (":exhausted" if s.exhausted else "")
                            for s in st.players[p].standby],
                "pool": dict(st.players[p].pool),
                "points": st.points(p),
            } for p in PLAYERS},
        },
        "before_board": sim.before_text.splitlines(),
        "after_board": sim.after_text.splitlines(),
    }

