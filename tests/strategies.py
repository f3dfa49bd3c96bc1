"""Hypothesis strategies for games: legal stocks, seeds, and whole games driven by draws.

    from strategies import legal_decks, seeds, games, play_game, DrawAgent

- :func:`legal_deck` / :func:`legal_decks` build stocks that obey R3 for *any*
  :class:`~wgdsl.lang.cards.CardLibrary`: at least 40 cards (R3.1), both stocks the same
  size, at most 3 cards of one NAME — ids sharing a name count together (R3.2) —, a
  unique card at most once (R3.3).
- :data:`seeds` are engine seeds.
- :class:`DrawAgent` is an agent whose every decision is a Hypothesis draw: ``act``
  draws from ``game.legal_actions()`` (a kind, weighted so that games develop, then an
  action of that kind), ``answer`` draws from ``question.options``.  It records every
  decision so a game can be replayed exactly (:class:`ReplayAgent`).
- :func:`play_game` runs a game step by step, at most ``max_steps`` actions, with hooks
  before each step (the offered actions) and after it (a :class:`Step`: offered, action,
  snapshot before).  :func:`games` bundles a library, decks, seed and first player into
  a :class:`GameSetup`.

Games stay bounded (``max_steps``) so examples are fast; the profiles in conftest.py
choose the bound (``GAME_STEPS``).
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Callable, Optional

import attrs
from hypothesis import strategies as st

from wgdsl.games.world_gainer.engine import Game
from wgdsl.kernel.errors import IllegalAction
from wgdsl.lang.cards import CardLibrary, load_cards

MIN_STOCK = 40  # R3.1
MAX_SAME_NAME = 3  # R3.2
MAX_UNIQUE = 1  # R3.3

# How many actions one generated game may take.  conftest.py sets it per profile
# (ci: short games; deep: long enough for most games to reach a win).
GAME_STEPS = int(os.environ.get("WGDSL_GAME_STEPS", "0")) or None


def game_steps(default: int = 200) -> int:
    return GAME_STEPS or default


seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.sampled_from(("A", "B"))


# ------------------------------------------------------------------------ decks (R3)
def stock_capacity(library: CardLibrary) -> int:
    """The largest stock R3 allows from this library (names ×3, unique ids ×1)."""
    by_name: dict[str, int] = {}
    for card in library:
        room = MAX_UNIQUE if card.unique else MAX_SAME_NAME
        by_name[card.name] = min(MAX_SAME_NAME, by_name.get(card.name, 0) + room)
    return sum(by_name.values())


def is_legal_stock(ids: list, library: CardLibrary, minimum: int = MIN_STOCK) -> bool:
    """R3 checked from scratch (independent of wgdsl.games.world_gainer.decks)."""
    names = Counter(library[i].name for i in ids)
    counts = Counter(ids)
    return (len(ids) >= minimum
            and all(n <= MAX_SAME_NAME for n in names.values())
            and all(counts[i] <= MAX_UNIQUE for i in counts if library[i].unique))


@st.composite
def legal_deck(draw, library: CardLibrary, size: int, minimum: int = MIN_STOCK,
               prefer: Optional[frozenset] = None):
    """One stock of exactly ``size`` ids obeying R3; cards drawn one at a time from
    those that still fit (so every draw is valid and shrinking stays inside R3).
    With ``prefer``, those ids are taken while they fit (a concentrated stock: the same
    cards meet more often), the others after."""
    if size < minimum or size > stock_capacity(library):
        raise ValueError(f"no legal stock of {size} cards from {library.path}")
    ids = [c.id for c in library]
    left_name: dict = {c.name: MAX_SAME_NAME for c in library}
    left_id: dict = {c.id: MAX_UNIQUE for c in library if c.unique}
    deck: list = []
    while len(deck) < size:
        fits = [i for i in ids
                if left_name[library[i].name] > 0 and left_id.get(i, 1) > 0]
        if prefer:
            fits = [i for i in fits if i in prefer] or fits
        # capacity >= size guarantees a fitting card exists
        cid = draw(st.sampled_from(fits))
        deck.append(cid)
        left_name[library[cid].name] -= 1
        if cid in left_id:
            left_id[cid] -= 1
    return deck


@st.composite
def legal_decks(draw, library: CardLibrary, max_size: int = 50, minimum: int = MIN_STOCK):
    """``{"A": ids, "B": ids}``: two R3-legal stocks of the same size (R3.1), each either
    spread over the library or concentrated on a few favourite cards."""
    cap = stock_capacity(library)
    top = min(max_size, cap)
    if top < minimum:
        raise ValueError(f"{library.path} cannot make a {minimum}-card stock (at most {cap})")
    size = draw(st.integers(min_value=minimum, max_value=top))
    ids = [c.id for c in library]
    decks = {}
    for p in ("A", "B"):
        prefer = None
        if draw(st.booleans()):  # concentrated on a few favourite cards
            prefer = frozenset(draw(st.lists(st.sampled_from(ids), min_size=1,
                                             max_size=max(1, len(ids) // 2), unique=True)))
        decks[p] = draw(legal_deck(library, size, minimum, prefer))
    return decks


# ------------------------------------------------------------------------ agents
# A decision is drawn in two steps: an action kind (weighted), then one action of that
# kind (uniform), so a kind's chance does not grow with how many actions it has (five
# stuns would otherwise mean five times the discards).  The "tempo" weights make games
# develop while every legal action keeps a chance; "uniform" games are chaotic.  Plays
# come first: Hypothesis favours the first option when it generates (and shrinks toward
# it), and passes first made four games in five end by deck-out (R12.3); plays first,
# about half end by R12.1 or R12.2.
KIND_ORDER = ("play", "exhaust", "set_stun", "activate", "break_field", "break_stun",
              "discard_stun", "next", "end_turn")
STYLES = {
    "tempo": {"end_turn": 1, "next": 6, "discard_stun": 1, "break_stun": 2, "break_field": 1,
              "activate": 3, "set_stun": 15, "exhaust": 20, "play": 30},
    "uniform": {k: 1 for k in KIND_ORDER},
}
BUSY_NEXT = 2  # tempo: "next" is rarer while there is something to set, exhaust or play


def kind_weights(style: str, kinds: list) -> list:
    """The kinds present, each repeated by its weight, in KIND_ORDER (unknown kinds last)."""
    weights = dict(STYLES[style])
    if style == "tempo" and {"set_stun", "exhaust", "play"} & set(kinds):
        weights["next"] = BUSY_NEXT
    out = []
    for kind in KIND_ORDER:
        if kind in kinds:
            out.extend([kind] * weights[kind])
    out.extend(k for k in kinds if k not in weights)
    return out


class DrawAgent:
    """Both players' decisions drawn with ``data.draw``; every decision is recorded in
    ``transcript`` as ``("act", Action)`` or ``("answer", option)``.  The style (tempo or
    uniform, see STYLES) is drawn once per game unless given."""

    name = "draw"

    def __init__(self, data, style: Optional[str] = None, transcript: Optional[list] = None):
        self.data = data
        self.style = style or data.draw(st.sampled_from(("tempo", "tempo", "uniform")),
                                        label="style")
        self.transcript = transcript if transcript is not None else []

    def act(self, view, actions):
        actions = list(actions)
        kinds = list(dict.fromkeys(a.kind for a in actions))
        kind = self.data.draw(st.sampled_from(kind_weights(self.style, kinds)))
        choice = self.data.draw(st.sampled_from([a for a in actions if a.kind == kind]))
        self.transcript.append(("act", choice))
        return choice

    def answer(self, view, question):
        choice = self.data.draw(st.sampled_from(question.options))
        self.transcript.append(("answer", choice))
        return choice


class ReplayAgent:
    """Replays a :class:`DrawAgent` transcript, decision for decision."""

    name = "replay"

    def __init__(self, transcript: list):
        self.script = list(transcript)
        self.position = 0

    def _next(self, kind: str):
        if self.position >= len(self.script):
            raise AssertionError(f"replay diverged: an extra {kind} was asked")
        got_kind, value = self.script[self.position]
        if got_kind != kind:
            raise AssertionError(f"replay diverged at decision {self.position}: "
                                 f"expected {got_kind}, the engine asked for {kind}")
        self.position += 1
        return value

    def act(self, view, actions):
        return self._next("act")

    def answer(self, view, question):
        value = self._next("answer")
        if value not in question.options:
            raise AssertionError(f"replay diverged at decision {self.position - 1}: `{value}` "
                                 f"is not an option of {question.options}")
        return value


# ------------------------------------------------------------------------ games
@attrs.define
class GameSetup:
    library: CardLibrary
    decks: dict
    seed: int
    first: str

    def new(self, agent, log: bool = True) -> Game:
        return Game.new(self.library, self.decks, seed=self.seed, first=self.first,
                        agents={"A": agent, "B": agent}, log=log)


@st.composite
def games(draw, library: Optional[CardLibrary] = None, max_size: int = 50):
    """A :class:`GameSetup`: library (default: built-in WG01), legal decks, seed, first."""
    library = library if library is not None else load_cards()
    return GameSetup(library, draw(legal_decks(library, max_size)), draw(seeds), draw(players))


@attrs.frozen
class Step:
    """One step of a driven game: what was offered, what was done, the state before."""

    number: int
    offered: list  # game.legal_actions() before the step
    action: object
    before: object  # snapshot(game) before the step, or None


OnStep = Callable[[Game, Step], None]


def play_game(game: Game, agent, max_steps: int, on_step: Optional[OnStep] = None,
              snapshot: Optional[Callable] = None, before_step: Optional[Callable] = None) -> int:
    """Drive ``game`` with ``agent`` until it is over or ``max_steps`` actions were taken.

    ``before_step(game, offered)`` runs before each step is chosen (``offered`` is
    ``game.legal_actions()``); an offered action that apply() refuses is an AssertionError; ``on_step(game, step)`` after
    it (``step.before`` is ``snapshot(game)`` taken just before the action, when a
    snapshot function is given).  Returns the number of steps taken."""
    steps = 0
    while not game.over and steps < max_steps:
        offered = game.legal_actions()
        if before_step is not None:
            before_step(game, offered)
        action = agent.act(game.view(game.state.active), offered)
        before = snapshot(game) if snapshot is not None else None
        try:
            game.apply(action)
        except IllegalAction as err:
            if action in offered:
                raise AssertionError(f"legal_actions() offered {action}, and apply() refused "
                                     f"it: {err}") from err
            raise
        steps += 1
        if on_step is not None:
            on_step(game, Step(steps, offered, action, before))
    return steps
