"""Imitation World's algorithms as pure functions of plain values (rules cited "IW R17.4",
../shared/spec/imitation-world.md; decisions in docs/imitation-world.md).

What a designer tunes — the cards, the phases, the zones — belongs to the game file; what is
an algorithm is here: deck construction (IW R4), the cost zone and its cost condition
(IW R8-R9), who may attack, join a linked attack and block (IW R15-R16), the survival,
barrier destruction and aga destruction judgments (IW R17-R19) and the results (IW R20).

Everything is plain immutable data: a geuda in a judgment is a :class:`Fighter` (numbers), a
faction is a string (``"existence"``, ``"fantasy"``, :data:`AMBIGUOUS`), a deck card is a
:class:`DeckCard` (name, type, faction). No card id and no engine object: the engine
computes the numbers — continuous modifiers, enchants, "until end of turn" effects and the
判定時 (at-judgment) modifiers of the judgment at hand — from the cards' abilities and
passes them in. A refusal of a player's action raises :class:`IllegalAction` with the rule;
a call the rules cannot mean (a judgment with nobody on a side, 6 barriers) raises
``ValueError`` naming the rule it breaks.
"""

from __future__ import annotations

from collections import Counter
from typing import Hashable, Iterable, Optional, Sequence

import attrs

from wgdsl.kernel.errors import IllegalAction

#: IW R3.1-R3.2: the everyone-faction 曖昧; never a cost faction, never a marker
AMBIGUOUS = "ambiguous"
#: IW R2.1: the five types a deck holds; the aga is not one of them (IW R4.3)
DECK_TYPES = ("geuda", "enchant", "territory", "eventi", "object")
#: IW R4.1-R4.2 and the starter variant IW R4.5: (least deck size, most copies of a name)
VARIANTS = {"main": (60, 1), "starter": (30, 3)}
#: IW R18.1, R18.5: a player's barriers, at most
MAX_BARRIERS = 5
#: IW R20.5-R20.6: the two seats
SEATS = ("A", "B")


def current(value: int) -> int:
    """IW R2.3, R23.2: a current value from the sum ``printed + every modifier that
    applies now`` — floored at 0 once, at the end (so −2 then +2 on ATK 1 gives 1)."""
    return value if value > 0 else 0


# ================================================================= IW R4: deck construction
@attrs.frozen
class DeckCard:
    """A card as deck construction sees it (IW R2.2): its Japanese ``name`` (IW R4.2
    compares names, not ids), its ``type`` (IW R2.1; ``"aga"`` for an aga) and its
    ``faction`` (one faction or :data:`AMBIGUOUS`, IW R3.3)."""

    name: str
    type: str
    faction: str


@attrs.frozen
class Aga:
    """An aga (IW R3.4): its ``name`` and the set of factions it ``permits`` — the
    factions written on it; an aga whose set holds :data:`AMBIGUOUS` permits every one."""

    name: str
    permits: frozenset = attrs.field(converter=frozenset)

    def allows(self, faction: str) -> bool:
        """IW R4.4: may a deck card of ``faction`` be in this aga's deck?"""
        return faction == AMBIGUOUS or AMBIGUOUS in self.permits or faction in self.permits


@attrs.frozen
class Problem:
    """One reason a deck is illegal: the ``rule`` it breaks and what is wrong."""

    rule: str
    message: str


def deck_problems(deck: Sequence[DeckCard], aga: Optional[Aga],
                  variant: str = "main") -> tuple:
    """IW R4: every reason ``deck`` with ``aga`` is illegal, as :class:`Problem` s in the
    order R4.1 (size), R4.2 (copies of a name), R4.3 (an aga: exactly one, outside the
    deck), R4.4 (factions the aga permits); ``()`` for a legal deck. ``variant`` is
    ``"main"`` (at least 60 cards, 1 of a name) or ``"starter"`` (IW R4.5: at least 30,
    at most 3 of a name). A name counts every card of that name, whatever the id.

    **Project decision**: an aga in the deck list is one R4.3 problem and does not count
    toward R4.1's size nor R4.4's factions (IW R4.1: "60 cards *and* one aga")."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown deck variant {variant!r}: use one of "
                         f"{', '.join(sorted(VARIANTS))} (IW R4.5)")
    least, most = VARIANTS[variant]
    note = " (starter variant)" if variant == "starter" else ""
    cards = [c for c in deck if c.type in DECK_TYPES]
    out = []
    if len(cards) < least:
        out.append(Problem("IW R4.1", f"the deck has {len(cards)} cards; it needs at least "
                                      f"{least}{note}"))
    for name, n in sorted(Counter(c.name for c in cards).items()):
        if n > most:
            out.append(Problem("IW R4.2", f"{n} cards named {name}; at most {most} of a name"
                                          f"{note}"))
    for c in deck:
        if c.type not in DECK_TYPES:
            out.append(Problem("IW R4.3", f"{c.name} is {_a(c.type)}, not a deck card; the aga "
                                          "is chosen apart from the deck"))
    if aga is None:
        out.append(Problem("IW R4.3", "no aga: each player chooses exactly one"))
        return tuple(out)
    for c in cards:
        if not aga.allows(c.faction):
            allowed = ", ".join(sorted(aga.permits))
            out.append(Problem("IW R4.4", f"{c.name} is {c.faction}; the aga {aga.name} permits "
                                          f"{allowed} and {AMBIGUOUS} cards only"))
    return tuple(out)


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeio" else "a ") + word


# ============================================================ IW R8-R9: the cost zone
@attrs.frozen
class CostZone:
    """A cost zone in IW R8.4's pile model: ``unmarked`` cards in the one pile with no
    marker, or — once marked, for ever — ``piles``: ``(faction, cards)`` pairs in the order
    they were opened, each faction a different cost faction, each pile holding a card."""

    unmarked: int = 0
    piles: tuple = attrs.field(default=(), converter=lambda p: tuple(tuple(x) for x in p))

    def __attrs_post_init__(self):
        factions = [f for f, _ in self.piles]
        if self.unmarked < 0 or (self.piles and self.unmarked):
            raise ValueError("a cost zone is one unmarked pile or marked piles, never both "
                             "(IW R8.4)")
        if len(set(factions)) != len(factions) or AMBIGUOUS in factions:
            raise ValueError(f"markers {factions} must name different cost factions, never "
                             f"{AMBIGUOUS} (IW R8.4, R8.6)")
        if any(n < 1 for _, n in self.piles):
            raise ValueError("a marked pile always holds a card (IW R8.5, R8.6)")

    @property
    def marked(self) -> bool:
        return bool(self.piles)

    @property
    def total(self) -> int:
        """IW R9.3: every cost card, all piles together."""
        return self.unmarked + sum(n for _, n in self.piles)

    def pile(self, faction: str) -> Optional[int]:
        """The cards in pile ``faction``, or None if there is no such pile."""
        return dict(self.piles).get(faction)


def cost_refusal(zone: CostZone, faction: str, cost: int) -> Optional[IllegalAction]:
    """IW R9.2-R9.4: why a card of ``faction`` and ``cost`` cannot be played with ``zone``,
    or None if its cost condition holds. A threshold: nothing is paid (IW R9.1).
    - 曖昧: at least ``cost`` cards in total (IW R9.3);
    - unmarked zone: at least ``cost`` cards in its pile (IW R9.2);
    - marked zone: a pile ``faction`` of at least ``cost`` cards (IW R9.2);
    - cost 0 always holds (IW R9.4)."""
    if cost < 0:
        raise ValueError(f"a cost is an integer >= 0, not {cost} (IW R2.2)")
    if cost == 0:
        return None
    if faction == AMBIGUOUS:
        if zone.total >= cost:
            return None
        return IllegalAction(f"an {AMBIGUOUS} card of cost {cost} needs {cost} cards in the "
                             f"cost zone in total; it holds {zone.total}", "IW R9.3")
    if not zone.marked:
        if zone.unmarked >= cost:
            return None
        return IllegalAction(f"a card of cost {cost} needs {cost} cost cards; the cost zone "
                             f"holds {zone.unmarked}", "IW R9.2")
    have = zone.pile(faction)
    if have is None:
        return IllegalAction(f"the cost zone has no {faction} pile (its piles: "
                             f"{', '.join(f for f, _ in zone.piles)}): a {faction} card cannot "
                             "be played", "IW R9.2")
    if have < cost:
        return IllegalAction(f"a {faction} card of cost {cost} needs {cost} cards in the "
                             f"{faction} pile; it holds {have}", "IW R9.2")
    return None


def can_play(zone: CostZone, faction: str, cost: int) -> bool:
    """IW R9.2-R9.4: does the cost condition of a card of ``faction`` and ``cost`` hold?"""
    return cost_refusal(zone, faction, cost) is None


def after_play(zone: CostZone, faction: str, cost: int) -> CostZone:
    """IW R9.2, R8.5.1, R9.4: the cost zone once a card of ``faction`` and ``cost`` is played
    from hand; raises :class:`IllegalAction` (IW R9.2 / R9.3) if its cost condition fails.
    A cost-faction card played while the zone is unmarked and holds a card fixes the pile to
    its faction (cost 0 included); nothing else changes anything — 曖昧 marks nothing
    (IW R3.2), and nothing is paid (IW R9.1). The aga is not consulted (IW R9.6)."""
    refusal = cost_refusal(zone, faction, cost)
    if refusal is not None:
        raise refusal
    if faction != AMBIGUOUS and not zone.marked and zone.unmarked > 0:
        return CostZone(piles=((faction, zone.unmarked),))
    return zone


def cost_factions(factions: Iterable[str]) -> tuple:
    """IW R3.2: the cost factions of a card set's ``factions`` (all but 曖昧), sorted."""
    return tuple(sorted(set(factions) - {AMBIGUOUS}))


def markers(aga: Aga, factions: Iterable[str]) -> tuple:
    """IW R8.6: the markers a player with ``aga`` may set, among a card set's ``factions``:
    the cost factions the aga permits (every one for an 曖昧 aga), sorted."""
    return tuple(f for f in cost_factions(factions) if aga.allows(f))


def aga_consistent(aga: Aga, owned: Iterable[str], zone: CostZone) -> bool:
    """IW R22.5: could ``aga`` be the hidden aga of a player who owns cards of the factions
    ``owned`` (IW R4.4) and whose cost zone is ``zone`` (its markers, IW R8.6)? ``resample``
    draws the opponent's hidden aga among the agas of the set for which this holds."""
    return all(aga.allows(f) for f in owned) and all(aga.allows(f) for f, _ in zone.piles)


@attrs.frozen
class Placement:
    """Where a cost card goes (IW R8.6, R24.2): ``to`` None — the unmarked pile
    (``cost ID``); ``to`` F alone — marked zone, pile F, joined or opened (``cost ID to F``);
    ``to`` F with ``mark`` G — an unmarked zone starts a second faction: its pile becomes G
    and the card opens F (``cost ID to F mark G``)."""

    to: Optional[str] = None
    mark: Optional[str] = None

    def __str__(self) -> str:
        if self.to is None:
            return ""
        return f"to {self.to}" + (f" mark {self.mark}" if self.mark else "")


def placements(zone: CostZone, allowed: Sequence[str]) -> tuple:
    """IW R8.6: every legal :class:`Placement` of one cost card in ``zone`` for a player who
    may set the markers ``allowed`` (:func:`markers`), sorted by their text."""
    allowed = tuple(sorted(set(allowed)))
    if not zone.marked:
        found = [Placement()]
        if zone.unmarked > 0:
            found += [Placement(f, g) for f in allowed for g in allowed if f != g]
    else:
        found = [Placement(f) for f in sorted({f for f, _ in zone.piles} | set(allowed))]
    return tuple(sorted(found, key=str))


def after_placement(zone: CostZone, placement: Placement, allowed: Sequence[str]) -> CostZone:
    """IW R8.5-R8.6: the cost zone once one card is put into it as ``placement`` says;
    raises :class:`IllegalAction` for a placement IW R8.6 does not offer (R8.5.2's two
    markers must differ; a new marker must be one the aga permits, never 曖昧). Existing
    piles never change their marker (IW R8.4), and cards never move between piles
    (IW R8.3)."""
    if placement.to is None and placement.mark is not None:
        raise IllegalAction(f"a marker {placement.mark} goes with a second pile: "
                            "`cost ID to F mark G`", "IW R8.6")
    for f in (placement.to, placement.mark):
        if f is None or (f == placement.to and zone.pile(f) is not None):
            continue  # joining a pile that exists sets no marker
        if f not in allowed:
            why = (f"{AMBIGUOUS} is never a marker" if f == AMBIGUOUS
                   else "the aga does not permit it")
            raise IllegalAction(f"no pile can be marked {f}: {why}; markers allowed: "
                                f"{', '.join(allowed) or 'none'}", "IW R8.6")
    if not zone.marked:
        if placement.to is None:
            return CostZone(unmarked=zone.unmarked + 1)
        if placement.mark is None:
            raise IllegalAction("the cost zone is unmarked: a card joins its pile (`cost ID`), "
                                "or starts a second faction naming both markers "
                                "(`cost ID to F mark G`)", "IW R8.6")
        if zone.unmarked == 0:
            raise IllegalAction("the cost zone is empty: its first card goes to the unmarked "
                                "pile (`cost ID`)", "IW R8.6")
        if placement.mark == placement.to:
            raise IllegalAction(f"a second faction needs two different markers, not "
                                f"{placement.to} twice", "IW R8.5")
        return CostZone(piles=((placement.mark, zone.unmarked), (placement.to, 1)))
    if placement.to is None or placement.mark is not None:
        raise IllegalAction("the cost zone is marked: name the pile the card joins or opens "
                            "(`cost ID to F`); markers never change", "IW R8.4")
    if zone.pile(placement.to) is None:
        return CostZone(piles=zone.piles + ((placement.to, 1),))
    return CostZone(piles=tuple((f, n + (f == placement.to)) for f, n in zone.piles))


# ================================================= IW R13: a territory against the one there
def territory_play(cost: int, there: Optional[int]) -> str:
    """IW R13.2-R13.3: what playing a territory of ``cost`` does when the territory zone
    holds one of cost ``there`` (None: empty), whoever played it: ``"enters"`` (empty zone),
    ``"replaces"`` (higher cost: the old one goes to its owner's trash), ``"both"`` (equal
    cost: both go to their owners' trashes; the new one never takes effect, but it was
    played — its faction fixed the cost zone). Lower cost raises :class:`IllegalAction`."""
    if there is None:
        return "enters"
    if cost < there:
        raise IllegalAction(f"a territory of cost {cost} cannot replace one of cost {there}: "
                            "it needs a cost at least as high", "IW R13.2")
    return "replaces" if cost > there else "both"


# ======================================== IW R15-R16: who may attack, join and block
@attrs.frozen
class Marks:
    """A geuda's state as attack and block time read it (IW R1.6-R1.7): ``pan``, and its
    per-turn marks ``new`` (put onto the field this turn), ``attacked``, ``blocked``."""

    pan: bool = False
    new: bool = False
    attacked: bool = False
    blocked: bool = False


def attack_refusal(geuda: Marks) -> Optional[IllegalAction]:
    """IW R15.3: why ``geuda`` cannot declare an attack now, or None: it must be ripān,
    not new (召喚酔い) and not have declared an attack this turn — ripāning it again gives
    no second attack (the limit counts declarations)."""
    if geuda.attacked:
        return IllegalAction("this geuda has already declared an attack this turn (one per "
                             "turn)", "IW R15.3")
    if geuda.new:
        return IllegalAction("this geuda was put onto the field this turn: it cannot declare "
                             "an attack (summoning sickness)", "IW R15.3")
    if geuda.pan:
        return IllegalAction("this geuda is pān: only a ripān geuda declares an attack",
                             "IW R15.3")
    return None


def target_refusal(target: Marks) -> Optional[IllegalAction]:
    """IW R15.3: why a geuda of the opponent's set zone cannot be target A, or None: it
    must be pān at the moment of the declaration."""
    if not target.pan:
        return IllegalAction("target A is a pān geuda of the opponent's field; this one is "
                             "ripān (attack the player instead)", "IW R15.3")
    return None


def block_refusal(geuda: Marks) -> Optional[IllegalAction]:
    """IW R16.2-R16.4: why ``geuda`` cannot block, or None: it must be ripān and not have
    blocked this turn; being new does not matter (IW R16.4)."""
    if geuda.blocked:
        return IllegalAction("this geuda has already blocked this turn (one block per turn)",
                             "IW R16.2")
    if geuda.pan:
        return IllegalAction("this geuda is pān: only a ripān geuda blocks", "IW R16.2")
    return None


def joinable(declarer: Hashable, geuda: dict) -> tuple:
    """IW R15.5: the keys of ``geuda`` (key -> :class:`Marks`, the player's geuda) that may
    join a linked attack declared by ``declarer``: every other geuda that could declare an
    attack now, in ``geuda``'s order."""
    return tuple(k for k, m in geuda.items() if k != declarer and attack_refusal(m) is None)


def linked_side(declarer: Hashable, linked: bool, geuda: dict, joiners: Sequence = (),
                front: Optional[Sequence] = None) -> tuple:
    """IW R15.3, R15.5: the attacking side, front to back, when ``declarer`` (which has
    連結攻撃 iff ``linked``) declares an attack and ``joiners`` join; ``geuda`` maps keys to
    :class:`Marks` for the player's geuda. ``front``: the order of the whole side, front
    first (the declarer need not be in front); not needed for a side of one. Raises
    :class:`IllegalAction`: the declarer cannot attack (R15.3); a geuda without 連結攻撃
    brings nobody (R15.5); a joiner that is the declarer, named twice or unable to declare an
    attack now (R15.5); an order that is not the side (R15.5). The engine then turns every
    geuda of the side pān and marks it attacked; the side has one target."""
    refusal = attack_refusal(geuda[declarer])
    if refusal is not None:
        raise refusal
    joiners = tuple(joiners)
    if joiners and not linked:
        raise IllegalAction("only a geuda with 連結攻撃 (linked attack) brings other geuda "
                            "into its attack", "IW R15.5")
    seen = {declarer}
    for k in joiners:
        if k in seen:
            raise IllegalAction(f"{k} is already in the attacking side", "IW R15.5")
        why = attack_refusal(geuda[k])
        if why is not None:
            raise IllegalAction(f"{k} cannot join the linked attack: {why.reason}", "IW R15.5")
        seen.add(k)
    side = (declarer,) + joiners
    if front is None:
        if len(side) > 1:
            raise IllegalAction("a linked side of several geuda needs its front-to-back order",
                                "IW R15.5")
        return side
    front = tuple(front)
    if len(front) != len(side) or set(front) != set(side):
        raise IllegalAction(f"the order {list(front)} must name each geuda of the side "
                            f"{sorted(map(str, side))} once", "IW R15.5")
    return front


def blocking_side(blockers: Sequence, geuda: dict) -> tuple:
    """IW R16.2: the blockers, front first, as declared at once; ``geuda`` maps keys to the
    defender's :class:`Marks`. Raises :class:`IllegalAction` for a geuda named twice or one
    that cannot block. ``()`` is no block."""
    seen = set()
    for k in blockers:
        if k in seen:
            raise IllegalAction(f"{k} is already a blocker", "IW R16.2")
        refusal = block_refusal(geuda[k])
        if refusal is not None:
            raise refusal
        seen.add(k)
    return tuple(blockers)


def judgment_kind(target_player: bool, blockers: int, barriers: int) -> str:
    """IW R15.4, R16.5-R16.6, R19.2: the judgment an attack goes to: ``"survival"`` for
    target A or a blocked attack (never the barriers then, IW R16.5), else ``"barrier"``
    while the defender has a barrier, else ``"aga"``."""
    if not target_player or blockers > 0:
        return "survival"
    _check_barriers(barriers, least=0)
    return "barrier" if barriers > 0 else "aga"


# ================================================ IW R17-R19: the three judgments
@attrs.frozen
class Fighter:
    """A geuda in a judgment, as numbers (IW R17.2): ``atk`` and ``defence`` are its printed
    value plus every modifier that applies now, *not* floored (they may be below 0);
    ``judgment_atk`` and ``judgment_def`` are the 判定時 modifiers that apply in the
    judgment at hand (IW R21.1, R21.4), which the engine computes from the cards (a bonus
    "in barrier and aga judgments" only there, one "as a blocker" only for a blocker). The
    judged values add all of them and floor once (IW R2.3)."""

    atk: int
    defence: int
    judgment_atk: int = 0
    judgment_def: int = 0

    @property
    def judged_atk(self) -> int:
        return current(self.atk + self.judgment_atk)

    @property
    def judged_def(self) -> int:
        return current(self.defence + self.judgment_def)


@attrs.frozen
class Received:
    """What one geuda of a side receives in a survival judgment (IW R17.4-R17.5): the
    ``received`` value (below 0 for a rear geuda well covered), its judged ``defence``, and
    whether it is ``out``."""

    received: int
    defence: int
    out: bool


@attrs.frozen
class Survival:
    """A survival judgment (IW R17): what each side deals (``attacking_deals``,
    ``defending_deals``, IW R17.3) and what each geuda of each side receives, front first."""

    attacking_deals: int
    defending_deals: int
    attacking: tuple
    defending: tuple


def side_attack(side: Sequence[Fighter]) -> int:
    """IW R17.3: a side's total attack ``T``: the sum of its geuda's judged ATK."""
    return sum(f.judged_atk for f in side)


def receive(side: Sequence[Fighter], dealt: int) -> tuple:
    """IW R17.4-R17.5: ``side`` (front first) receives ``dealt``: the geuda at position i
    receives ``dealt`` minus the judged DEF of the geuda in front of it, and is out iff
    that is at least its DEF and at least 1 (the 0/0 note; nothing is out by 0 or less).
    No damage is kept (IW R17.7): the result is all there is."""
    return tuple([Received(*r) for r in _received([f.judged_def for f in side], dealt)])


def _received(defences: Sequence[int], dealt: int) -> list:
    """:func:`receive` on the judged DEFs alone: a (received, defence, out) triple each."""
    out, covered = [], 0
    for d in defences:
        r = dealt - covered
        out.append((r, d, r >= d and r >= 1))
        covered += d
    return out


def survival_judgment(attacking: Sequence[Fighter], defending: Sequence[Fighter]) -> Survival:
    """IW R17: the attacking side (the attacker, or a linked side front first) against the
    defending side (target A, or the blockers front first), both judged together from values
    fixed before anything moves (IW R17.6). The engine then moves every out geuda to its
    owner's trash at once, with its enchant, and only then triggers アウト時 abilities."""
    a, d, ra, rd = survival_numbers([(f.judged_atk, f.judged_def) for f in attacking],
                                    [(f.judged_atk, f.judged_def) for f in defending])
    return Survival(a, d, tuple([Received(*r) for r in ra]),
                    tuple([Received(*r) for r in rd]))


def survival_numbers(attacking: Sequence[tuple], defending: Sequence[tuple]) -> tuple:
    """:func:`survival_judgment` on each geuda's (judged ATK, judged DEF) pair (what a
    :class:`Fighter`'s ``judged_atk`` and ``judged_def`` give), with no value object: (what
    the attacking side deals, what the defending side deals, the attacking side's
    (received, defence, out) triples front first, the defending side's)."""
    if not attacking or not defending:
        raise ValueError("a survival judgment needs a geuda on each side; an attack whose "
                         "side or target has left the field ends with no judgment (IW R15.6)")
    a = d = 0
    for p in attacking:
        a += p[0]
    for p in defending:
        d += p[0]
    return (a, d, _received([p[1] for p in attacking], d),
            _received([p[1] for p in defending], a))


def _check_barriers(barriers: int, least: int = 1) -> None:
    if not least <= barriers <= MAX_BARRIERS:
        raise ValueError(f"{barriers} barriers: a player has {least} to {MAX_BARRIERS} here "
                         "(IW R18.1, R18.5)")


def barrier_defences(barriers: int) -> tuple:
    """IW R18.1: the DEF of each barrier, top first, when a player has ``barriers`` of them
    (1-5): the k-th from the top has 5 − n + k — (1, 2, 3, 4, 5) for 5, (2, 3, 4, 5) for 4.
    A barrier's DEF is its position's, never its card's."""
    _check_barriers(barriers)
    return tuple(5 - barriers + k for k in range(1, barriers + 1))


@attrs.frozen
class BarrierJudgment:
    """IW R18.2-R18.6, R19.1: the side ``deals`` against the top barrier's ``defence``;
    ``destroyed`` or not; ``barriers_left``; ``aga_face_up``: the aga turns face up now."""

    deals: int
    defence: int
    destroyed: bool
    barriers_left: int
    aga_face_up: bool


def barrier_judgment(attacking: Sequence[Fighter], barriers: int) -> BarrierJudgment:
    """IW R18.2-R18.6: an unblocked attack on a player with ``barriers`` (1-5) is judged
    against the top barrier only: destroyed iff the side's total attack (判定時 included) is
    at least its DEF ``6 − barriers``. One barrier per attack: attack beyond its DEF is lost
    and a barrier that stands keeps nothing. When none is left the aga turns face up and
    the attack ends there (IW R19.1, R19.3). The engine puts the destroyed barrier into its
    owner's hand."""
    if not attacking:
        raise ValueError("a barrier destruction judgment needs an attacking geuda (IW R15.6)")
    return barrier_result(side_attack(attacking), barriers)


def barrier_result(total: int, barriers: int) -> BarrierJudgment:
    """:func:`barrier_judgment` of a side whose total attack (:func:`side_attack`) is
    ``total``: the top barrier's DEF is ``6 − barriers`` (:func:`barrier_defences`)."""
    _check_barriers(barriers)
    top = 6 - barriers
    left = barriers - 1 if total >= top else barriers
    return BarrierJudgment(total, top, total >= top, left, left == 0)


@attrs.frozen
class AgaJudgment:
    """IW R19.2: the side ``deals`` against the aga's ``defence``; ``destroyed`` or not."""

    deals: int
    defence: int
    destroyed: bool


def aga_judgment(attacking: Sequence[Fighter], aga_defence: int, barriers: int = 0,
                 face_up: bool = True) -> AgaJudgment:
    """IW R19.2-R19.4: an unblocked target-B attack on a player with no barrier and a
    face-up aga: the aga is destroyed iff the side's total attack (判定時 included) is at
    least the aga's DEF (``aga_defence``: printed plus modifiers, floored here, IW R2.3) and
    at least 1. No damage is kept. Any other attack is not an aga judgment (ValueError):
    the aga is attacked only so (IW R19.2)."""
    if not attacking:
        raise ValueError("an aga destruction judgment needs an attacking geuda (IW R15.6)")
    if barriers or not face_up:
        raise ValueError("the aga can be attacked only when its player has 0 barriers and it "
                         f"is face up; here {barriers} barriers, face "
                         f"{'up' if face_up else 'down'} (IW R19.2)")
    return aga_result(side_attack(attacking), aga_defence)


def aga_result(total: int, aga_defence: int) -> AgaJudgment:
    """:func:`aga_judgment` of a side whose total attack (:func:`side_attack`) is
    ``total``, on an aga that may be attacked."""
    d = current(aga_defence)
    return AgaJudgment(total, d, total >= d and total >= 1)


# ======================================================== IW R20: winning and losing
@attrs.frozen
class Result:
    """A finished game (IW R20.5-R20.6, engine-api): ``winners``, ``reason`` (the
    ``win_reason()``: ``"R20.1"``, ``"R20.2"`` or ``"R20.6"``) and ``returns`` (seat ->
    value, constant-sum)."""

    winners: tuple
    reason: str
    returns: dict = attrs.field(eq=True, hash=False)


def _other(seat: str) -> str:
    if seat not in SEATS:
        raise ValueError(f"unknown seat {seat!r}: Imitation World has seats A and B (IW R1.1)")
    return SEATS[1 - SEATS.index(seat)]


def _lost(loser: str, reason: str) -> Result:
    winner = _other(loser)
    return Result((winner,), reason, {winner: 1.0, loser: 0.0})


def aga_destroyed(defender: str) -> Result:
    """IW R20.1, R20.4: the player whose aga is destroyed loses at once; the opponent
    wins."""
    return _lost(defender, "R20.1")


def drawn(deck: int, wanted: int) -> int:
    """IW R7.3, R20.3: how many cards a draw of ``wanted`` takes from a deck of ``deck``:
    as many as there are (an effect's draw from an empty deck draws nothing and loses
    nothing)."""
    return max(0, min(deck, wanted))


def draw_phase_loss(active: str, deck: int) -> Optional[Result]:
    """IW R7.3, R20.2: at the start of ``active``'s draw phase a deck of 0 loses the game
    (and nothing more happens, IW R20.4); a deck of 1 or more does not (with 1 the player
    draws it and plays on). The first player's turn 1 has no draw phase, so no check
    (IW R6.2): the engine does not call this then."""
    return _lost(active, "R20.2") if deck <= 0 else None


def turn_cap(turn: int, max_turns: int) -> Optional[Result]:
    """IW R20.6 (engine safety): when turn ``turn`` has ended and it is turn ``max_turns``
    or later, the game ends with no winner and 0.5 each; otherwise None."""
    if turn >= max_turns:
        return Result((), "R20.6", {s: 0.5 for s in SEATS})
    return None
