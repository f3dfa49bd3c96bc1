"""The game file as written: frozen nodes that keep where each word was.

The parser (:mod:`.parser`) builds these; the checker (:mod:`.checker`) reads them once,
reports what is wrong at the position of the offending word, and compiles what is right
into a :class:`~wgdsl.lang.game.spec.GameSpec`.  Nothing reads these nodes during play.
Positions are left out of equality, as in the card language's AST.
"""

from __future__ import annotations

from typing import Optional, Union

import attrs

from wgdsl.lang.ast import NOWHERE, Pos

__all__ = ["Pos", "NOWHERE"]


def _pos():
    return attrs.field(default=NOWHERE, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Word:
    """A name as written (a zone, a counter, a sign, a seat, an option...) and where."""

    text: str
    pos: Pos = _pos()


@attrs.frozen
class Number:
    """An amount: a number, or the name of an option (``target``) whose value is used."""

    value: Union[int, str]
    pos: Pos = _pos()


@attrs.frozen
class Label:
    """``rule ID`` at the end of a statement: the rule of the game's rule book it is."""

    rule: str
    pos: Pos = _pos()


# ------------------------------------------------------------------ seats
@attrs.frozen
class Seats:
    low: int
    high: int
    names: tuple  # of Word
    label: Optional[Label]
    pos: Pos = _pos()
    low_pos: Pos = _pos()
    high_pos: Pos = _pos()


@attrs.frozen
class TurnOrder:
    word: Word
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class FirstSeat:
    word: Word
    label: Optional[Label]
    pos: Pos = _pos()


# ------------------------------------------------------------------ cards
@attrs.frozen
class StatDecl:
    """``form``: ``range`` (``low`` to ``high``), ``enum`` (one of ``values``), ``of`` (a
    list of ``values`` with counts, or ``per`` one of ``per``) or ``per`` (numbers, or
    numbers ``per`` one of ``per``)."""

    name: Word
    low: Optional[int] = None  # an integer stat: low to high
    high: Optional[int] = None
    values: tuple = ()  # an enum stat: its values (Word), in order
    form: str = "range"
    per: tuple = ()  # of Word
    pos: Pos = _pos()
    label: Optional["Label"] = None
    # `default by color: blue scissors, ...`: the stat (Word) whose value gives this one's
    # when a card does not, and the pairs (Word, Word) that map it
    default_by: Optional[Word] = None
    defaults: tuple = ()
    default: Optional[int] = None  # `stat stun 1 to 99 default 1`


class Entries(tuple):
    """A card's bracketed list (of :class:`Entry`), with where it is written, brackets
    included (``pos``)."""

    pos: Pos = NOWHERE


@attrs.frozen
class Entry:
    """One entry of a card's list stat: ``MAT 3`` (word, number), ``GEN`` (word alone),
    ``EXP per VEH`` (word, per), ``3`` (number), ``1 per GEN`` (number, per)."""

    word: Optional[Word]
    number: Optional[int]
    per: Optional[Word]
    pos: Pos = _pos()


@attrs.frozen
class Kind:
    name: Word
    stats: tuple  # of StatDecl
    flags: tuple = ()  # of Word: the flags its cards may carry
    pos: Pos = _pos()


@attrs.frozen
class CardStat:
    name: Word
    value: Union[int, str, tuple]  # a tuple of Entry: a bracketed list
    pos: Pos = _pos()
    value_pos: Pos = _pos()


@attrs.frozen
class CardDecl:
    id: Word
    name: str
    kind: Word
    stats: tuple  # of CardStat
    copies: Optional[int]
    label: Optional[Label]
    name_en: Optional[str] = None
    flags: tuple = ()  # of Word (`is wild`)
    effects: tuple = ()  # of Word (`does steal_push or peeping`)
    pos: Pos = _pos()
    name_pos: Pos = _pos()
    name_en_pos: Pos = _pos()
    copies_pos: Pos = _pos()


# ------------------------------------------------------------------ effects
@attrs.frozen
class EffectDecl:
    """``effect NAME "名前" en "Name" TRAITS from "module:function" { ja "…"  en "…" }``."""

    name: Word
    name_ja: str
    name_en: Optional[str]
    traits: tuple  # of Word: `selects a seat`, `once per turn`, `as a response`
    ref: str
    label: Optional[Label]
    texts: tuple  # of (language, text, Pos)
    pos: Pos = _pos()
    ref_pos: Pos = _pos()
    name_en_pos: Pos = _pos()


@attrs.frozen
class PlayedBy:
    """``played by "module:function"``: the engine whose rule functions play the game."""

    ref: str
    label: Optional[Label]
    pos: Pos = _pos()
    ref_pos: Pos = _pos()


# ------------------------------------------------------------------ signs and relations
@attrs.frozen
class Signs:
    names: tuple  # of Word
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class Fact:
    """``rock beats scissors``: one pair of a relation."""

    left: Word
    verb: Word
    right: Word
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class Relation:
    name: Word
    facts: tuple  # of Fact
    pos: Pos = _pos()


# ------------------------------------------------------------------ zones, counters, options
@attrs.frozen
class ZoneDecl:
    name: Word
    words: tuple  # of Word: `per seat`, `shared`, `pile`, `bag`, `hidden`, `owner`, `public`
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class CounterDecl:
    name: Word
    per_seat: bool
    start: int
    label: Optional[Label]
    pos: Pos = _pos()
    start_pos: Pos = _pos()


@attrs.frozen
class OptionDecl:
    name: Word
    low: int
    high: int
    default: int
    label: Optional[Label]
    pos: Pos = _pos()
    low_pos: Pos = _pos()
    high_pos: Pos = _pos()
    default_pos: Pos = _pos()


@attrs.frozen
class HookDecl:
    """``rule NAME from "module:function"``."""

    name: Word
    ref: str
    pos: Pos = _pos()
    ref_pos: Pos = _pos()


# ------------------------------------------------------------------ steps
@attrs.frozen
class Who:
    """Whose: ``each winner``, ``the winner``, ``each seat``, ``the active seat``,
    ``its owner`` (the words, joined with ``_``: ``each_winner``...)."""

    kind: str
    pos: Pos = _pos()


@attrs.frozen
class ZoneRef:
    zone: Word
    who: Optional[Who]
    pos: Pos = _pos()


@attrs.frozen
class Place:
    """Where cards go: ``[top|bottom of] ZONE [of WHO]``."""

    end: Optional[str]
    zone: Word
    who: Optional[Who]
    pos: Pos = _pos()


@attrs.frozen
class Window:
    """``every seat chooses ... at once`` (simultaneous) or ``the active seat chooses ...``;
    ``what`` is ``sign``, ``card`` (a card from ``zone``) or ``top`` (its top card)."""

    every: bool
    what: str
    zone: Optional[Word]
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class Step:
    """One automatic step; ``kind`` says which and the fields used:

    - ``reveal``;
    - ``compare``: ``how`` (``higher``, ``lower``, ``rule``, ``relation``) and ``name``;
    - ``add``: ``amount`` to counter ``name`` of ``who``;
    - ``move``: ``source`` (None: the played cards; else a ZoneRef) to ``place``;
    - ``deal``: ``amount`` (None: all) from ``source`` to zone ``name``;
    - ``draw``: ``amount`` from ``source`` to zone ``name``;
    - ``shuffle``: ``source``;
    - ``put``: every card into zone ``name``.
    """

    kind: str
    label: Optional[Label]
    how: Optional[str] = None
    name: Optional[Word] = None
    amount: Optional[Number] = None
    who: Optional[Who] = None
    source: Optional[ZoneRef] = None
    place: Optional[Place] = None
    pos: Pos = _pos()


@attrs.frozen
class Setup:
    steps: tuple  # of Step
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class Phase:
    name: Word
    label: Optional[Label]
    items: tuple  # of Window and Step, in order
    pos: Pos = _pos()


@attrs.frozen
class Round:
    phases: tuple  # of Phase
    label: Optional[Label]
    pos: Pos = _pos()


# ------------------------------------------------------------------ the end
@attrs.frozen
class Quantity:
    """A seat's counter ``name``, or (``cards``) the number of cards in its zone ``name``."""

    cards: bool
    name: Word
    pos: Pos = _pos()


@attrs.frozen
class Condition:
    """``a seat has N Q`` (``at_least``), ``a seat has no Q`` (``none``), ``after N rounds``
    (``after``)."""

    kind: str
    amount: Optional[Number]
    quantity: Optional[Quantity]
    pos: Pos = _pos()


@attrs.frozen
class Outcome:
    """``that seat wins`` (``that_wins``), ``that seat loses`` (``that_loses``), ``highest
    Q wins`` (``highest``), ``lowest Q wins`` (``lowest``), ``nobody wins`` (``nobody``)."""

    kind: str
    quantity: Optional[Quantity]
    pos: Pos = _pos()


@attrs.frozen
class EndRule:
    condition: Condition
    outcome: Outcome
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class End:
    rules: tuple  # of EndRule
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class Phases:
    """``phases start, draw, ...``: the phases of a turn of a game played by an engine."""

    names: tuple  # of Word
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class CardWords:
    """``nouns from type``, ``states pan, ripan``, ``uses gets, until``...: words of the card
    language for this game's cards.  ``kind``: nouns, states, uses, judgments, field or
    abilities; ``source``: the word stat whose values are the nouns (``nouns from``)."""

    kind: str
    words: tuple  # of Word
    label: Optional[Label]
    source: Optional[Word] = None
    pos: Pos = _pos()


@attrs.frozen
class Limit:
    """``limit play 1 per turn``."""

    name: Word
    count: int
    label: Optional[Label]
    pos: Pos = _pos()
    count_pos: Pos = _pos()


@attrs.frozen
class Pool:
    """``pool points per seat of blue, green ... emptied at end of turn``."""

    name: Word
    per_seat: bool
    words: tuple  # of Word
    emptied: bool
    label: Optional[Label]
    pos: Pos = _pos()


@attrs.frozen
class CardSet:
    """``cards "wg01"``: the game's cards in the card language."""

    ref: str
    label: Optional[Label]
    pos: Pos = _pos()
    ref_pos: Pos = _pos()


@attrs.frozen
class GameFile:
    id: Word
    name: str
    items: tuple
    path: str = "<game>"
    pos: Pos = _pos()
    name_pos: Pos = _pos()
    name_en: Optional[str] = None
