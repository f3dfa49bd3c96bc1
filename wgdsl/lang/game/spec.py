"""A game file compiled: :class:`GameSpec`, frozen plain data with every name resolved.

The checker (:mod:`.checker`) builds one from a game file that has no errors.  It says what
the game is, not how to run it: an engine (``wgdsl.games.described``) turns its steps into
closures once, when the game is loaded.  Every statement that the engine may cite keeps
its ``rule``: the file's ``rule ID``, or ``line N`` when the file gives none.
"""

from __future__ import annotations

from typing import Optional, Union

import attrs

from wgdsl.lang.ast import NOWHERE, Pos

# whose cards or counters a step means (the file's words joined with `_`)
EACH_WINNER, THE_WINNER, EACH_SEAT, ACTIVE_SEAT, ITS_OWNER = (
    "each_winner", "the_winner", "each_seat", "active_seat", "its_owner")
WHO_TEXT = {EACH_WINNER: "each winner", THE_WINNER: "the winner", EACH_SEAT: "each seat",
            ACTIVE_SEAT: "the active seat", ITS_OWNER: "its owner"}
VISIBILITIES = ("hidden", "owner", "public")
PLAYED = "played"  # the zone of the cards chosen in this round (one per seat)


@attrs.frozen
class Amount:
    """A number, or the value of option ``option`` in the game being played."""

    value: int = 0
    option: Optional[str] = None

    def of(self, options) -> int:
        return options[self.option] if self.option is not None else self.value

    def __str__(self) -> str:
        return self.option if self.option is not None else str(self.value)


@attrs.frozen
class StatSpec:
    """An integer stat (``low`` to ``high``) or, with ``values``, one of those words, in
    that order (a comparison by it goes by that order).  A **list** stat (``form`` ``of`` or
    ``per``) is a card's bracketed list of entries ``(word, number, per)``: ``cost [MAT 3,
    GEN]`` -> ``(("MAT", 3, None), ("GEN", 1, None))`` (``of`` without ``per``: counts
    of ``values``, merged, in their declared order); ``produce [ENE per VEH]`` ->
    ``(("ENE", 1, "VEH"),)``; ``vp [1 per GEN]`` -> ``((None, 1, "GEN"),)``.  A card that
    does not give a list stat has ``()``."""

    name: str
    low: int = 0
    high: int = 0
    values: tuple = ()
    form: str = "range"  # "range", "enum", "of" or "per"
    per: tuple = ()
    rule: str = attrs.field(default="", eq=False)
    # `default by color: blue scissors, ...`: a card that does not give this stat has the
    # value its stat `default_by` maps to in ``defaults`` (pairs of words)
    default_by: Optional[str] = None
    defaults: tuple = ()
    # `stat stun 1 to 99 default 1`: the value of a card that does not give the stat
    default: Optional[int] = None

    @property
    def required(self) -> bool:
        """Must every card give it?  A word or number stat with no default."""
        return self.form in ("range", "enum") and self.default is None and self.default_by is None

    def default_for(self, value) -> Optional[str]:
        """The value a card whose stat ``default_by`` is ``value`` has by default."""
        return dict(self.defaults).get(value)

    @property
    def is_list(self) -> bool:
        return self.form in ("of", "per")

    def rank(self, value: Union[int, str]) -> int:
        return self.values.index(value) if self.values else value


def stat_text(value) -> str:
    """A card's stat value as the file writes it (``[MAT 3, ENE per VEH]``)."""
    if not isinstance(value, tuple):
        return str(value)
    parts = []
    for word, number, per in value:
        head = word if word is not None else str(number)
        if word is not None and number != 1:
            head += f" {number}"
        elif word is not None and per is None:
            pass
        parts.append(head + (f" per {per}" if per else ""))
    return "[" + ", ".join(parts) + "]"


@attrs.frozen
class KindSpec:
    name: str
    stats: tuple  # of StatSpec
    flags: tuple = ()  # of str: the flags a card of this kind may carry (`flag wild`)

    def stat(self, name: str) -> Optional[StatSpec]:
        return next((s for s in self.stats if s.name == name), None)


@attrs.frozen
class CardSpec:
    """A card: ``name`` as the file writes it first (Japanese for a bilingual set),
    ``name_en`` its English name (None: one name only), ``flags`` the words of its kind it
    carries (``is wild``), ``effects`` the names of its effects (two or more: its user
    picks one per use)."""

    id: str
    name: str
    kind: str
    stats: tuple  # of (stat name, value), in the kind's order
    copies: int = 1
    name_en: Optional[str] = None
    flags: tuple = ()
    effects: tuple = ()

    def stat(self, name: str):
        return dict(self.stats).get(name)

    def stat_text(self, name: str) -> str:
        return stat_text(self.stat(name))

    def has(self, flag: str) -> bool:
        return flag in self.flags


@attrs.frozen
class EffectSpec:
    """An effect cards may have (``does NAME``): its names and text in both languages, what
    the rules must know of it (``selects``: its user selects another seat; ``once_per_turn``;
    ``response``: only used in answer to a selection, never as a move) and the rule
    function (``hook``, of use ``effect``) that carries it out."""

    name: str
    name_ja: str
    name_en: str
    text_ja: str
    text_en: str
    rule: str
    hook: "HookSpec"
    selects: bool = False
    once_per_turn: bool = False
    response: bool = False


@attrs.frozen
class ZoneSpec:
    """``per_seat``: one for each seat (else one shared); ``ordered``: a pile (it has a top
    and a bottom) rather than a bag; ``visibility``: ``hidden`` (nobody sees the cards),
    ``owner`` (its seat does) or ``public``."""

    name: str
    per_seat: bool
    ordered: bool
    visibility: str
    slots: int = 0  # `slots N`: N places in a row (0: no places)
    grid: tuple = ()  # `grid R by C`: (rows, columns) of places
    stacks: bool = False  # each place holds a stack of cards
    rows: tuple = ()  # `rows battle, my`: the words cards name the grid's rows by
    rule: str = attrs.field(default="", eq=False)

    @property
    def capacity(self) -> Optional[int]:
        """How many cards the zone holds: one per place (``slots N``, ``grid R by C``)
        unless its places hold stacks; None: no limit."""
        if self.stacks:
            return None
        if self.slots:
            return self.slots
        if self.grid:
            return self.grid[0] * self.grid[1]
        return None


@attrs.frozen
class PoolSpec:
    """``pool NAME [per seat] of WORDS [emptied at end of turn]``: an amount of each word,
    held by each seat (or by the table), for an engine's rules; ``emptied``: back to 0 at
    the end of every turn."""

    name: str
    per_seat: bool
    words: tuple
    emptied: bool
    rule: str = attrs.field(default="", eq=False)


@attrs.frozen
class CardWordsSpec:
    """``nouns from type``, ``states pan, ripan``, ``uses gets, until``...: the card
    language's words of this game (``kind``: nouns, states, uses, judgments, field or
    abilities); ``source``: the word stat the nouns are the values of (``nouns from``)."""

    kind: str
    words: tuple
    rule: str = ""
    source: str = ""


@attrs.frozen
class LimitSpec:
    """``limit play 1 per turn``: a seat takes its engine's action ``name`` at most
    ``count`` times in a turn."""

    name: str
    count: int
    rule: str


@attrs.frozen
class CounterSpec:
    name: str
    start: int = 0


@attrs.frozen
class OptionSpec:
    name: str
    low: int
    high: int
    default: int


@attrs.frozen
class HookSpec:
    """``rule NAME from "MODULE:FUNCTION"``: resolved when the game is loaded.  ``pos`` is
    where the reference is written, for the diagnostic when it cannot be resolved."""

    name: str
    module: str
    function: str
    kind: str  # what the game uses it for: "compare", "effect", "engine"
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class RelationSpec:
    """``rock beats scissors``...: the pairs (left, right) of a relation over signs or
    card ids."""

    name: str
    pairs: frozenset

    def holds(self, left: str, right: str) -> bool:
        return (left, right) in self.pairs


@attrs.frozen
class ZoneRef:
    """A zone, and for a zone per seat whose (a :data:`WHO_TEXT` key; None: each seat's).
    ``end``: ``top`` or ``bottom`` where cards go into a pile (None: the top)."""

    zone: str
    who: Optional[str] = None
    end: Optional[str] = None


@attrs.frozen
class Window:
    """Who chooses (every seat at once, or the active seat) and what: ``sign``, ``card``
    (one the seat sees in ``zone``) or ``top`` (the top card of ``zone``)."""

    every: bool
    what: str
    zone: Optional[str]
    rule: str
    text: str


@attrs.frozen
class Step:
    """An automatic step (the fields used by each ``kind`` are those of
    :class:`wgdsl.lang.game.ast.Step`, resolved): ``how``/``name`` for ``compare``,
    ``amount``/``name``/``who`` for ``add``, ``source``/``dest`` for ``move``, ``deal``,
    ``draw`` and ``shuffle`` (``source`` None: the played cards), ``name`` for ``put``."""

    kind: str
    rule: str
    text: str
    how: Optional[str] = None
    name: Optional[str] = None
    amount: Optional[Amount] = None
    who: Optional[str] = None
    source: Optional[ZoneRef] = None
    dest: Optional[ZoneRef] = None


@attrs.frozen
class Phase:
    name: str
    window: Optional[Window]
    steps: tuple  # of Step, after the window
    rule: str


@attrs.frozen
class Quantity:
    """A seat's counter ``name``, or (``cards``) the number of cards in its zone ``name``."""

    cards: bool
    name: str

    def __str__(self) -> str:
        return f"cards in {self.name}" if self.cards else self.name


@attrs.frozen
class EndRule:
    """``condition``: ``at_least`` (a seat has ``amount`` of ``quantity``), ``none`` (a seat
    has no ``quantity``) or ``after`` (``amount`` rounds have been played); ``outcome``:
    ``that_wins``, ``that_loses``, ``highest``/``lowest`` (of ``by``) or ``nobody``."""

    condition: str
    outcome: str
    rule: str
    text: str
    amount: Optional[Amount] = None
    quantity: Optional[Quantity] = None
    by: Optional[Quantity] = None


@attrs.frozen
class GameSpec:
    """A game as its file describes it, every name checked and resolved."""

    id: str
    name: str
    path: str
    seat_range: tuple  # (fewest, most)
    seat_names: tuple  # enough for the most seats, in the order named
    clockwise: bool  # turn order: as named (else the reverse)
    first: Optional[str]  # the first active seat; None: drawn at random
    seats_rule: str
    kinds: tuple  # of KindSpec
    cards: tuple  # of CardSpec
    signs: tuple  # of str
    relations: tuple  # of RelationSpec
    zones: tuple  # of ZoneSpec
    counters: tuple  # of CounterSpec
    options: tuple  # of OptionSpec
    hooks: tuple  # of HookSpec
    setup: tuple  # of Step
    phases: tuple  # of Phase
    ends: tuple  # of EndRule
    rules: tuple  # of (rule, statement text), every rule the file names, in file order
    effects: tuple = ()  # of EffectSpec
    # `played by`: the rule function (of use "engine") that builds the game's engine from
    # this spec; None: the game is played by its rounds and phases (wgdsl.games.described)
    engine: Optional[HookSpec] = None
    name_en: Optional[str] = None
    turn_phases: tuple = ()  # `phases a, b`: a turn's phases (a game played by an engine)
    phases_rule: str = ""
    limits: tuple = ()  # of LimitSpec
    pools: tuple = ()  # of PoolSpec
    # `cards "wg01"`: the game's cards in the card language: the path of the .wg file
    card_set: Optional[str] = None
    card_set_rule: str = ""
    card_words: tuple = ()  # of CardWordsSpec, each kind at most once

    def words_of(self, kind: str) -> Optional[CardWordsSpec]:
        """The ``kind`` words the game file declares (``nouns``, ``states``...), or None."""
        return next((w for w in self.card_words if w.kind == kind), None)

    def pool(self, name: str) -> Optional[PoolSpec]:
        return next((p for p in self.pools if p.name == name), None)

    def limit(self, name: str) -> Optional[LimitSpec]:
        return next((lim for lim in self.limits if lim.name == name), None)

    def stat(self, name: str) -> Optional[StatSpec]:
        """The stat ``name`` of the first kind that has one."""
        for kind in self.kinds:
            found = kind.stat(name)
            if found is not None:
                return found
        return None

    def zone(self, name: str) -> ZoneSpec:
        return next(z for z in self.zones if z.name == name)

    def kind(self, name: str) -> KindSpec:
        return next(k for k in self.kinds if k.name == name)

    def relation(self, name: str) -> RelationSpec:
        return next(r for r in self.relations if r.name == name)

    def hook(self, name: str) -> HookSpec:
        return next(h for h in self.hooks if h.name == name)

    def effect(self, name: str) -> EffectSpec:
        return next(e for e in self.effects if e.name == name)

    def card(self, ident: str) -> CardSpec:
        return next(c for c in self.cards if c.id == ident)

    def option(self, name: str) -> OptionSpec:
        return next(o for o in self.options if o.name == name)

    def rule_text(self, rule: str) -> str:
        """What the statements citing ``rule`` say (joined with ``; ``)."""
        return "; ".join(dict.fromkeys(t for r, t in self.rules if r == rule))
