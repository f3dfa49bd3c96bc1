"""The card language's abstract syntax tree.

Every node is a frozen attrs class (a position, :class:`Pos`, a named tuple).  Nodes
carry a source position (``pos``; a few
also carry the position of one word inside them, ``*_pos``) that is left out of
equality and hashing, so two trees that say the same thing compare equal
wherever they were written (the pretty-printer's round-trip property relies on this).

The vocabulary is generic: zones, selectors, events, actions, conditions and static
rules.  No card id or card name appears here; cards are data (``cards/*.wg``).
"""

from __future__ import annotations

from operator import itemgetter as _itemgetter
from typing import Optional, Union

import attrs


class Pos(tuple):
    """A 1-based line and column in a source file: ``line``, ``col``, ``end_line``,
    ``end_col`` (all 0: :data:`NOWHERE`).

    A tuple of its four numbers, with their names: a card holds some seventeen
    positions, and a tuple is made in one step where a frozen attrs class sets each
    field in turn (positions were a twentieth of the instructions of reading a card)."""

    __slots__ = ()

    def __new__(cls, line: int = 0, col: int = 0, end_line: int = 0, end_col: int = 0):
        return _tuple_new(cls, (line, col, end_line, end_col))

    def __getnewargs__(self):  # (copy and pickle: the four numbers, not one tuple)
        return tuple(self)

    line = property(_itemgetter(0), doc="the first character's line")
    col = property(_itemgetter(1), doc="the first character's column")
    end_line = property(_itemgetter(2), doc="the line of the character after the last")
    end_col = property(_itemgetter(3), doc="the column of the character after the last")

    def __str__(self) -> str:
        return f"{self[0]}:{self[1]}"

    def __repr__(self) -> str:
        return f"Pos(line={self[0]!r}, col={self[1]!r}, end_line={self[2]!r}, end_col={self[3]!r})"


# a position made from its four numbers as one tuple, without the call to Pos.__new__
# (the parser's: ``_tuple_new(Pos, (line, col, end_line, end_col))``)
_tuple_new = tuple.__new__


NOWHERE = Pos()


def _pos():
    return attrs.field(default=NOWHERE, eq=False, repr=False, kw_only=True)


# ------------------------------------------------------------------------ numbers
@attrs.frozen
class NumberRange:
    """The values a number in card text may take, and why (docs/language.md, "Numbers")."""

    low: int
    high: int
    message: str  # the error, ``{}`` standing for the number as written
    hint: str


# Every number in card text, by the construct that holds it.  The checker reports a value
# outside its range; the parser reports a literal too long to be a number at all.
NUMBER_RANGES = {
    "cost": NumberRange(0, 99, "cost {} is out of range", "a card's cost is 0 to 99 (R2.1): two digits, as printed on a card"),
    "requires": NumberRange(0, 99, "required cost {} is out of range",
                            "the required cost is 0 to the card's cost, and a cost is at most 99 (R2.1, R6.3)"),
    "stun": NumberRange(1, 99, "stun value {} is out of range",
                        "a stun value is 1 to 99 (R2.1, R6.2): two digits, as printed on a card"),
    "draw": NumberRange(1, 40, "cannot draw {} cards",
                        "an effect draws 1 to 40 cards: 40 is a whole stock of the smallest legal "
                        "size (R3.1), and drawing from an empty stock draws nothing (R5.2)"),
    "add": NumberRange(1, 99, "cannot add {} points", "an effect adds 1 to 99 points to its controller's pool (R6.1)"),
    "modifier": NumberRange(1, 99, "a change of {} is out of range",
                            "a stat changes by +1 to +99 or -1 to -99 (`gets atk +2`)"),
    "cost bound": NumberRange(0, 99, "cost bound {} is out of range",
                              "a bound on a card's cost is 0 to 99, the costs a card can have (R2.1)"),
}
# A literal longer than this (leading zeros aside) is out of every range above; the parser
# reports it without turning it into a number.
MAX_DIGITS = 9


def number_text(digits: str) -> str:
    """A number as written, shortened when it is long: ``100000…000 (4,301 digits)``."""
    if len(digits) <= 20:
        return digits
    return f"{digits[:6]}…{digits[-3:]} ({len(digits):,} digits)"


def number_problem(key: str, value: Optional[int], digits: str) -> Optional[tuple[str, str]]:
    """(message, hint) when ``value`` (None: too long to convert) is outside ``key``'s range."""
    rng = NUMBER_RANGES[key]
    if value is not None and rng.low <= value <= rng.high:
        return None
    return rng.message.format(number_text(digits)), rng.hint


# ------------------------------------------------------------------------ zones
# Owners as written: "your" -> "you", "opponent's" -> "opponent", "owner's" -> "owner",
# nothing -> None (either player).
ZONE_NAMES = ("hand", "stock", "standby", "break", "field", "battle field", "my field")
FIELD_ZONES = ("field", "battle field", "my field")


@attrs.frozen
class Zone:
    owner: Optional[str]
    name: str
    pos: Pos = _pos()

    @property
    def is_field(self) -> bool:
        return self.name in FIELD_ZONES


# ------------------------------------------------------------------------ filters
@attrs.frozen
class CostBound:
    """A bound on a card's cost: ``of cost <= 2`` / ``of cost 2 or less``."""

    op: str  # one of <= >= < > =
    value: int
    pos: Pos = _pos()
    value_pos: Pos = _pos()  # the number alone


@attrs.frozen
class Filter:
    """Which cards: ``your ready stun in your standby``, ``card of cost <= 2 on battle field``."""

    owner: Optional[str]
    states: tuple[str, ...]  # "ready", "exhausted", "other"
    noun: str  # "card" or "stun"
    name: Optional[str] = None
    cost: Optional[CostBound] = None
    zone: Optional[Zone] = None
    pos: Pos = _pos()
    name_pos: Pos = _pos()  # the quoted name after ``named``
    # the game's stat words the cards have (`existence geuda`: a card whose faction is
    # existence; Vocabulary.value_stat names the stat), and more nouns joined by `or`
    # (`geuda or territory`: a card that is any of them)
    values: tuple[str, ...] = ()
    alternatives: tuple[str, ...] = ()
    noun_pos: tuple[Pos, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)
    state_pos: tuple[Pos, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)
    value_pos: tuple[Pos, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

    @property
    def nouns(self) -> tuple[str, ...]:
        """The noun and its alternatives."""
        return (self.noun, *self.alternatives)


# ------------------------------------------------------------------------ selectors
@attrs.frozen
class This:
    pos: Pos = _pos()


@attrs.frozen
class It:
    """The card most recently chosen, looked at or moved by this effect."""

    pos: Pos = _pos()


@attrs.frozen
class ThatCard:
    """The card the triggering event is about (the played card, the targeted card); in an
    ``attached to ...:`` effect, the card this one is attached to (``that geuda``)."""

    pos: Pos = _pos()
    noun: str = "card"  # as written: `that card`, `that geuda`


@attrs.frozen
class Choose:
    """``a <filter>``: the controller chooses one matching card (on the field: targets, R13.4)."""

    filter: Filter
    pos: Pos = _pos()


@attrs.frozen
class Random:
    """``a random <filter>``: one matching card at random (never a target)."""

    filter: Filter
    pos: Pos = _pos()


@attrs.frozen
class Every:
    """``every <filter>``: all matching cards (not a target)."""

    filter: Filter
    pos: Pos = _pos()


@attrs.frozen
class Stacks:
    """``every stack on <zone>``: every card of every stack there (not a target)."""

    zone: Zone
    pos: Pos = _pos()


@attrs.frozen
class EndCard:
    """``top card of <zone>`` / ``bottom card of <zone>`` (a stock)."""

    end: str  # "top" | "bottom"
    zone: Zone
    pos: Pos = _pos()


@attrs.frozen
class All:
    """``your geuda`` (a filter with no article, in a modifier): every matching card, as
    ``every``, in the plural a rule is written in (``your geuda get def +1``)."""

    filter: Filter
    pos: Pos = _pos()


Selector = Union[This, It, ThatCard, Choose, Random, Every, Stacks, EndCard, All]


# ------------------------------------------------------------------------ destinations
@attrs.frozen
class ToZone:
    """``to your hand``, ``to owner's break``, ``to your standby as ready stun``."""

    zone: Zone
    as_stun: Optional[str] = None  # "ready" | "exhausted" for a standby
    pos: Pos = _pos()


@attrs.frozen
class ToEnd:
    """``to top of your stock`` / ``to bottom of owner's stock``."""

    end: str
    zone: Zone
    pos: Pos = _pos()


@attrs.frozen
class ToEmptySquare:
    """``to an empty square of your my field`` (the controller chooses the square)."""

    zone: Zone
    pos: Pos = _pos()


Dest = Union[ToZone, ToEnd, ToEmptySquare]


# ------------------------------------------------------------------------ conditions
@attrs.frozen
class YouDid:
    """``if you do``: the preceding ``may`` was accepted and done."""

    pos: Pos = _pos()


@attrs.frozen
class Compare:
    """``you hold fewer squares than opponent``."""

    left: str  # "you" | "opponent"
    relation: str  # "fewer" | "more"  ("less" is read as "fewer")
    quantity: str  # "squares" | "points" | "cards in hand"
    right: str
    pos: Pos = _pos()


@attrs.frozen
class Holds:
    """``your trash holds a card``: the zone holds at least one card the filter matches."""

    zone: Zone
    filter: Filter
    pos: Pos = _pos()


Condition = Union[YouDid, Compare, Holds]


# ------------------------------------------------------------------------ actions
@attrs.frozen
class Draw:
    count: int
    pos: Pos = _pos()
    count_pos: Pos = _pos()  # the number alone


@attrs.frozen
class Look:
    what: Selector
    pos: Pos = _pos()


@attrs.frozen
class Move:
    what: Selector
    to: Dest
    pos: Pos = _pos()


@attrs.frozen
class Exhaust:
    what: Selector
    pos: Pos = _pos()


@attrs.frozen
class Shuffle:
    zone: Zone
    pos: Pos = _pos()


@attrs.frozen
class ChooseAction:
    """``choose <selector>``: make the choice now, then refer to it as ``it``."""

    what: Selector
    pos: Pos = _pos()


@attrs.frozen
class EnterAsCopy:
    """``enter as copy of <selector>``: this card enters the field as a copy (own cost, R2.4)."""

    what: Selector
    pos: Pos = _pos()


@attrs.frozen
class CancelPlay:
    """``cancel that play``: the triggering play from hand is cancelled (R13.5 response)."""

    pos: Pos = _pos()


@attrs.frozen
class AddPoints:
    count: int
    color: str
    pos: Pos = _pos()
    color_pos: Pos = _pos()
    count_pos: Pos = _pos()  # the number alone


@attrs.frozen
class Swap:
    """``swap this with that card``: the stacks on the two cards' squares change places."""

    first: Selector
    second: Selector
    pos: Pos = _pos()


@attrs.frozen
class May:
    action: "Action"
    pos: Pos = _pos()


@attrs.frozen
class If:
    condition: Condition
    action: "Action"
    pos: Pos = _pos()


@attrs.frozen
class Turn:
    """``turn it pan``: the card(s) turned into a card state of the game (IW's pān/ripān)."""

    what: Selector
    state: str
    pos: Pos = _pos()
    state_pos: Pos = _pos()


@attrs.frozen
class Modify:
    """``this gets atk +2`` / ``your geuda get def +1`` / ``it gets atk +2 until end of
    turn``: ``amount`` added to the number stat ``stat`` of the cards ``target`` picks.

    As a static rule (``field static:``, ``in aga static:``, ``attached to ...:``) it holds
    while its card is where the rule works; as an action it lasts ``until`` (``"end of
    turn"``), or, in an ``at judgment ...:`` effect, while that judgment is computed."""

    target: Selector
    stat: str
    amount: int
    until: Optional[str] = None
    pos: Pos = _pos()
    stat_pos: Pos = _pos()
    amount_pos: Pos = _pos()


@attrs.frozen
class PlayerDraws:
    """``the active player draws 1 card``: a player other than the controller draws."""

    player: str  # "active"
    count: int
    pos: Pos = _pos()
    count_pos: Pos = _pos()


Action = Union[
    Draw, Look, Move, Exhaust, Shuffle, ChooseAction, EnterAsCopy, CancelPlay, AddPoints, Swap, May, If,
    Turn, Modify, PlayerDraws,
]


# ------------------------------------------------------------------------ events
@attrs.frozen
class Event:
    """What a triggered effect waits for.

    kind: "enters" | "leaves" | "seized" | "targeted" | "turn_start" | "turn_end" | "plays"
          | "out" | "judgment"
    subject: This or a Filter for card events; None for turn events
    player: "you" | "opponent" for turn and play events ("every" for every turn's)
    to: the zone name a "leaves field to ZONE" event names, if any
    judgments: the kinds of judgment ("survival", "barrier", ...) of a "judgment" event
    role: "attacker" | "blocker": the part this card has in it (`when this is blocker`)
    """

    kind: str
    subject: Union[This, Filter, None] = None
    player: Optional[str] = None
    to: Optional[str] = None
    pos: Pos = _pos()
    judgments: tuple[str, ...] = ()
    role: Optional[str] = None
    judgments_pos: tuple[Pos, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)


# ------------------------------------------------------------------------ static rules
@attrs.frozen
class Untargetable:
    pos: Pos = _pos()


@attrs.frozen
class Protected:
    """``this square cannot be seized or traded by a card of cost <= 2`` (R11)."""

    kinds: tuple[str, ...]  # "seized", "traded"
    cost: CostBound
    pos: Pos = _pos()


@attrs.frozen
class PlayOnto:
    """``this can be played onto opponent's my field ignoring priority`` (R8.4)."""

    zone: Zone
    pos: Pos = _pos()


@attrs.frozen
class AnyColor:
    """``this gives points of one chosen color among blue, green, red``."""

    colors: tuple[str, ...]
    pos: Pos = _pos()
    color_pos: tuple[Pos, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)


Static = Union[Untargetable, Protected, PlayOnto, AnyColor, Modify]


# ------------------------------------------------------------------------ effects
@attrs.frozen
class Triggered:
    """``dimension:`` (event None: on entering the field) or ``field when <event>:``."""

    where: str  # "dimension" | "field" | a zone name ("hand", "standby", ...)
    event: Optional[Event]
    actions: tuple[Action, ...]
    pos: Pos = _pos()
    # `at EVENT if CONDITION:`: checked as the event happens and again as it resolves
    condition: Optional[Condition] = None


@attrs.frozen
class Activated:
    """``field activated during your gain phase:`` with an optional ``cost:`` line."""

    where: str
    phase: Optional[str]
    cost: Optional[Action]
    actions: tuple[Action, ...]
    pos: Pos = _pos()
    phase_pos: Pos = _pos()  # the phase word of ``during your PHASE phase``


@attrs.frozen
class StaticEffect:
    where: str
    rules: tuple[Static, ...]
    pos: Pos = _pos()


@attrs.frozen
class WhenPlayed:
    """``when played:``: an eventi's effect, done once as the card is played (IW R14);
    its choices are made as it is played."""

    actions: tuple[Action, ...]
    pos: Pos = _pos()
    where = "played"  # (not a field) where the effect works, as other effects say it


@attrs.frozen
class Attached:
    """``attached to your geuda:``: an enchant (IW R12).  ``filter``: the cards it may be
    played onto (and stays attached to); ``rules``: static rules about that card (``that
    geuda gets def +2``), which hold while it is attached."""

    filter: Filter
    rules: tuple[Static, ...]
    pos: Pos = _pos()
    where = "attached"


Effect = Union[Triggered, Activated, StaticEffect, WhenPlayed, Attached]


# ------------------------------------------------------------------------ cards
@attrs.frozen
class Stat:
    """One stat as written: key in color, mark, cost, requires, stun, unique."""

    key: str
    value: Union[str, int, bool]
    pos: Pos = _pos()
    value_pos: Pos = _pos()  # the value alone (``bleu`` in ``color bleu``)


@attrs.frozen
class Card:
    id: str
    name: str
    en_name: Optional[str]
    stats: tuple[Stat, ...]
    effects: tuple[Effect, ...]
    pos: Pos = _pos()
    name_pos: Pos = _pos()  # the quoted name
    en_name_pos: Pos = _pos()  # the quoted English name

    def stat(self, key: str, default=None):
        """The last value written for ``key`` (the checker reports repeats)."""
        for s in reversed(self.stats):
            if s.key == key:
                return s.value
        return default


@attrs.frozen
class Include:
    """``include "wg01"``: the cards of another set come first (a built-in name or a path)."""

    target: str
    pos: Pos = _pos()


@attrs.frozen
class GameLine:
    """``game "imitation-world"``: the game whose words the cards are written in."""

    name: str
    pos: Pos = _pos()


@attrs.frozen
class CardSet:
    cards: tuple[Card, ...]
    path: str = attrs.field(default="<input>", eq=False)
    includes: tuple[Include, ...] = ()
    game: Optional[GameLine] = None
    # the words the set was read in (wgdsl.lang.vocabulary.Vocabulary): its game's
    vocabulary: object = attrs.field(default=None, eq=False, repr=False)
