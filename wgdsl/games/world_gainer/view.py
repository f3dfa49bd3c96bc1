"""What one seat may know of a game: :class:`SeatView`, the window agents play through.

engine-api.md: "Agents (bots) see only ``observation(seat)`` and ``legal_actions(seat)``,
never the state."  In-process agents decide at every step of a fast loop and are asked in
the middle of actions (``Game._ask``), so building the observation's dict for each
decision would cost more than the game itself.  A view builds nothing in advance: it is a
live, read-only window on the game that answers, when asked, only what its seat may know:

- public facts: turn, phase, who is active and who went first, whether a card was played
  or a stun set this turn, the winner; the field (every stack with its cards, what a copy
  copies, holders and points); both breaks and pools; the card library;
- the seat's own hand and standby (its face-down stuns included);
- of the zones hidden from it (every stock, the other player's hand and face-down stuns)
  their sizes, and the cards it has been shown (``GameState.known``); an unknown card is
  ``None`` where it lies;
- the rule queries a bot needs that depend only on those facts: :meth:`play_outcome` of
  a card onto a square as the field is now, :meth:`payment` of a card from a pool.

What it hands out cannot change the game: card definitions (frozen), tuples, small named
tuples, read-only mappings; never an :class:`~.state.Instance`.  Whether a card is known
is decided by :func:`.board.visible`, as for observations, and :meth:`SeatView.to_dict`,
built from the public methods alone, equals :func:`.board.observation_data` (tests hold
the two equal over random games): what a bot can read is the observation.

One view per seat and game while it is in use (``Game.view(seat)``); it holds only the
game, so it always shows the game as it is now.  That reference is ``_game``,
for this module alone: a bot that reads it sees what its seat may not, and breaks the
contract this class stands for (tests/test_views.py shows its property test catching
such a bot).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping, NamedTuple, Optional, Union

from wgdsl.lang.cards import CardDef, CardLibrary

from . import rules
from .board import visible
from .state import OTHER, PLAYERS, SQUARES

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game


class FieldCard(NamedTuple):
    """A card on the field, as everyone sees it: its printed card, what it copies (R2.4)
    and its owner."""

    card: CardDef
    copy_of: Optional[CardDef]
    owner: str

    @property
    def face(self) -> CardDef:
        """What the card is now: what it copies, else itself (R2.4)."""
        return self.copy_of if self.copy_of is not None else self.card

    @property
    def cost(self) -> int:
        """Its own printed cost, even as a copy (R2.4)."""
        return self.card.cost


# a named tuple made from a tuple at once: its class's __new__ is a Python function
# (hot path: a greedy bot reads its standby, five slots, in most of its gain steps)
_tuple_new = tuple.__new__


class Stun(NamedTuple):
    """A card in a standby slot: ``card`` is None when the viewer does not know it."""

    card: Optional[CardDef]
    exhausted: bool


class SeatView:
    """What ``seat`` may know of ``game``, read live (see the module docstring)."""

    __slots__ = ("_seat", "_game", "__weakref__")  # Game.view keeps views weakly

    seats = PLAYERS

    def __init__(self, game: "Game", seat: str):
        if seat not in PLAYERS:
            raise ValueError(f"no seat {seat!r}; the seats are {', '.join(PLAYERS)}")
        self._seat = seat
        self._game = game  # the engine's game: this module's alone, never a bot's

    def __repr__(self) -> str:
        return f"<SeatView of {self._seat}>"

    # ------------------------------------------------------------------ public facts
    @property
    def seat(self) -> str:
        """The seat this view shows the game to."""
        return self._seat

    @property
    def opponent(self) -> str:
        return OTHER[self._seat]

    @property
    def library(self) -> CardLibrary:
        """Every card's definition (public: a card id says what the card is)."""
        return self._game.library

    @property
    def turn(self) -> int:
        return self._game.state.turn

    @property
    def phase(self) -> str:
        return self._game.state.phase

    @property
    def active(self) -> str:
        return self._game.state.active

    @property
    def first(self) -> str:
        return self._game.state.first

    @property
    def played(self) -> bool:
        """The active player has played a card from hand this turn (R5.4)."""
        return self._game.state.played

    @property
    def stun_set(self) -> bool:
        """The active player has set a stun this turn (R5.3)."""
        return self._game.state.stun_set

    @property
    def winner(self) -> Optional[str]:
        return self._game.state.winner

    @property
    def win_reason(self) -> Optional[str]:
        return self._game.state.win_reason

    # ------------------------------------------------------------------ the field
    def _stack(self, square: str) -> list:
        try:
            return self._game.state.field[square]
        except KeyError:
            raise ValueError(f"no square {square!r}; the squares are "
                             f"{', '.join(SQUARES)}") from None

    def stack(self, square: str) -> tuple:
        """The cards on ``square``, bottom first (R1.4)."""
        return tuple([FieldCard(i.base, i.copy_of, i.owner) for i in self._stack(square)])

    def top(self, square: str) -> Optional[FieldCard]:
        """The top card of ``square``, or None when it is empty."""
        stack = self._stack(square)
        if not stack:
            return None
        i = stack[-1]
        return FieldCard(i.base, i.copy_of, i.owner)

    def holder(self, square: str) -> Optional[str]:
        """Who holds ``square`` (R1.4), or None."""
        try:  # _stack inline (hot path: a greedy bot asks for each play it weighs)
            stack = self._game.state.field[square]
        except KeyError:
            stack = self._stack(square)  # its refusal
        return stack[0].owner if stack else None

    def square_points(self, square: str) -> int:
        """R1.5: the sum of the costs of the cards on ``square``."""
        try:  # _stack inline
            stack = self._game.state.field[square]
        except KeyError:
            stack = self._stack(square)  # its refusal
        return sum([i.base.cost for i in stack])

    def points(self, of: Optional[str] = None) -> int:
        """R1.5: a player's points (the viewer's by default)."""
        return self._game.state.points((self._seat if of is None else self._who(of)))

    def squares_held(self, of: Optional[str] = None) -> int:
        return self._game.state.squares_held((self._seat if of is None else self._who(of)))

    # ------------------------------------------------------------------ the players' zones
    def _who(self, of: Optional[str]) -> str:
        if of is None:
            return self._seat
        if of not in OTHER:
            raise ValueError(f"no seat {of!r}; the seats are {', '.join(PLAYERS)}")
        return of

    def _shown(self, cards: list, zone: str) -> tuple:
        """``cards`` of a zone as the viewer sees them: a card, or None when unknown."""
        if not cards:
            return ()
        # a zone holds its owner's cards only: the viewer's own hand and standby are seen
        # whole, and with nothing shown nothing else is (visible() decides the rest)
        if zone != "stock" and cards[0].owner == self._seat:
            return tuple([i.base for i in cards])
        st = self._game.state
        if not st.known:
            return (None,) * len(cards)
        seat = self._seat
        return tuple([i.base if visible(st, i, seat, zone) else None for i in cards])

    def hand(self, of: Optional[str] = None) -> tuple:
        """A player's hand (the viewer's by default): cards, None for each one unknown
        (the other player's, unless shown)."""
        return self._shown(self._game.state.players[(self._seat if of is None else self._who(of))].hand, "hand")

    def hand_count(self, of: Optional[str] = None) -> int:
        return len(self._game.state.players[(self._seat if of is None else self._who(of))].hand)

    def stock(self, of: Optional[str] = None) -> tuple:
        """A player's stock, top first: None for each card nobody has shown the viewer
        (its own stock too, R1.1)."""
        return self._shown(self._game.state.players[(self._seat if of is None else self._who(of))].stock, "stock")

    def stock_count(self, of: Optional[str] = None) -> int:
        return len(self._game.state.players[(self._seat if of is None else self._who(of))].stock)

    def standby(self, of: Optional[str] = None) -> tuple:
        """A player's standby slots (R1.1), 1 to 5 as positions 0 to 4: None for an empty
        slot, else a :class:`Stun` (its card None when it is the other player's face-down
        stun and was never shown)."""
        slots = self._game.state.players[(self._seat if of is None else self._who(of))].standby
        if of is None or of == self._seat:  # its own stuns: every one seen
            return tuple([None if s is None else _tuple_new(Stun, (s.base, s.exhausted))
                          for s in slots])
        cards = self._shown([s for s in slots if s is not None], "standby")
        out, k = [], 0
        for s in slots:
            if s is None:
                out.append(None)
            else:
                out.append(Stun(cards[k], s.exhausted))
                k += 1
        return tuple(out)

    def break_(self, of: Optional[str] = None) -> tuple:
        """A player's break (R1.1), oldest first: public, every card is face up."""
        return tuple([i.base for i in self._game.state.players[(self._seat if of is None else self._who(of))].break_])

    def pool(self, of: Optional[str] = None) -> Mapping[str, int]:
        """A player's points to spend this turn, by color (R6.1), read-only."""
        return MappingProxyType(self._game.state.players[(self._seat if of is None else self._who(of))].pool)

    # ------------------------------------------------------------------ rule queries
    def _card(self, card: Union[CardDef, str]) -> CardDef:
        if isinstance(card, CardDef):
            return card
        try:
            return self.library[card]
        except KeyError:
            raise ValueError(f"no card {card!r} in this game's set") from None

    def play_outcome(self, card: Union[CardDef, str], square: str,
                     copy: Optional[str] = None) -> tuple:
        """``(outcome, rule, reason)`` of the viewer playing ``card`` (a card or its id)
        onto ``square`` as the field is now: R9–R11 placement and the top card's own
        protections (R11.3); ``rules.ILLEGAL`` when it cannot go there.  ``copy`` is the
        square whose top card a copying card copies (as ``Action.copy``).  Payment (R6.3)
        and the rows' priority (R8.2) are not judged here: ``legal_actions`` does."""
        if not isinstance(card, CardDef):
            card = self._card(card)
        face = None
        if copy is not None:
            top = self.top(copy)
            if top is None:
                raise ValueError(f"nothing on {copy} to copy")
            face = top.face
        # the engine's answer remembered for this field (Game.play_outcome's memo, a
        # function of the field and the key alone), read here when it is there: hot path,
        # a greedy bot weighs every play it may make
        g = self._game
        cache = g._field_at
        if cache[0] == g.state.field_version:
            hit = cache[1][self._seat][4].get(((face or card).mark, card.cost, square))
            if hit is not None:
                return hit
        try:
            return g.play_outcome(self._seat, card, square, face)
        except KeyError:
            self._stack(square)  # says which squares there are
            raise

    def payment(self, card: Union[CardDef, str],
                pool: Optional[Mapping[str, int]] = None) -> Optional[dict]:
        """The points that would pay for ``card`` (R6.3, R6.4): from ``pool`` (color ->
        points; the viewer's own pool by default), or None when it cannot pay."""
        card = self._card(card)
        if pool is None:
            pool = self._game.state.players[self._seat].pool
        return rules.payment(pool, card.cost, card.required, card.color)

    # ------------------------------------------------------------------ as data
    def to_dict(self) -> dict:
        """Everything this view shows, as the plain data of
        :func:`.board.observation_data` (and equal to it): built from the public methods
        alone, so it is what any bot can read."""
        def ident(card):
            return None if card is None else card.id

        field = {}
        for sq in SQUARES:
            stack = self.stack(sq)
            field[sq] = None if not stack else {
                "holder": self.holder(sq),
                "points": self.square_points(sq),
                "cards": [{"id": c.card.id, "copy_of": ident(c.copy_of)} for c in stack],
            }
        players = {}
        for p in PLAYERS:
            players[p] = {
                "points": self.points(p),
                "squares": self.squares_held(p),
                "hand": [ident(c) for c in self.hand(p)],
                "stock": [ident(c) for c in self.stock(p)],
                "break": [c.id for c in self.break_(p)],
                "standby": [None if s is None else {"card": ident(s.card),
                                                    "exhausted": s.exhausted}
                            for s in self.standby(p)],
                "pool": {c: n for c, n in sorted(self.pool(p).items()) if n},
            }
        return {
            "turn": self.turn, "active": self.active, "phase": self.phase,
            "first": self.first, "played": self.played, "stun_set": self.stun_set,
            "winner": self.winner, "win_reason": self.win_reason,
            "field": field, "players": players,
        }
