"""English card text, composed from the card language's constructs.

The wording follows the effect column of the WG01 table (``../shared/spec/wg01.md``):
"Choose a ready stun in your opponent's standby and exhaust it.", "When this card is
put into a break from the field, put it on the bottom of its owner's stock."

Rules of composition (each from the language, none from a card):

* a card chosen by the player (``a card ...``, R13.4) reads "choose X and <verb> it";
  a random card, every card, a top card read as the object itself;
* owned filters read "one of your cards", "another of your cards" (``other``), "a random
  card of yours", "every card of yours"; a field row with an owner reads as the squares
  that player holds: "every stack your opponent holds on the battle field" (R1.4);
* zones without an owner: "a break" where a card goes, "hand" where it is found
  ("from hand"), "the field" / "the battle field" for the field's rows (R1.2);
* a second mention of this card is "it".
"""

from __future__ import annotations

from . import ast
from .fmt import with_article
from .text_base import Clause, Rendered, Renderer, plain_action

POSSESSIVE = {"you": "your", "opponent": "your opponent's", "owner": "its owner's"}
PRONOUN = {"you": "yours", "opponent": "your opponent's", "owner": "its owner's"}
HOLDER = {"you": "you hold", "opponent": "your opponent holds", "owner": "its owner holds"}
PLAYER = {"you": "you", "opponent": "your opponent"}

# "that card": the card the triggering event is about
THAT_CARD = {
    "enters": "the card that entered the field",
    "leaves": "the card that left the field",
    "seized": "the card whose square was seized",
    "targeted": "the targeted card",
    "plays": "the played card",
}

LABELS = {"dimension": "Dimension: ", "field": "Field: "}


class Words:
    """A game's words in English card text (World Gainer's unless a game has its own)."""

    zones: dict = {}  # zone -> as written on a card ("past" -> "past zone")
    plurals: dict = {}  # noun -> its plural (else noun + "s")
    states: dict = {}
    values: dict = {}
    stats: dict = {}
    held_field: bool = True  # an owner's field row is the squares they hold (WG R1.4)
    while_in: dict = {}  # a zone whose cards' effects work there -> the lead
    labels = None  # labels by the kind of effect (else by where it works)


class ImitationWorld(Words):
    """Imitation World's words (../shared/spec/imitation-world.md, Glossary)."""

    zones = {"past": "past zone", "set": "set zone", "territory": "territory zone",
             "aga": "aga zone", "cost": "cost zone", "barriers": "barrier zone"}
    plurals = {"geuda": "geuda", "aga": "aga", "eventi": "eventi", "territory": "territories"}
    states = {"pan": "pān", "ripan": "ripān"}
    values = {"existence": "Existence", "fantasy": "Fantasy", "ambiguous": "ambiguous"}
    stats = {"atk": "ATK", "def": "DEF"}
    held_field = False
    while_in = {"aga": "while this card is face up, "}
    judgments = {"survival": "survival judgment", "barrier": "barrier destruction judgment",
                 "aga": "aga destruction judgment"}
    # labels by the kind of effect (IW R21.1)
    labels = {"static": "Continuous: ", "enters": "On entry: ", "out": "When out: ",
              "judgment": "At judgment: ", "activated": "Activated — "}


GAME_WORDS = {"imitation-world": ImitationWorld}


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def or_list(items) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


# ------------------------------------------------------------------------ zones
def zone_np(zone: ast.Zone, w=Words) -> str:
    """A zone as a noun: "your stock", "its owner's break", "the battle field", "a break"."""
    name = w.zones.get(zone.name, zone.name)
    if zone.owner is not None:
        return f"{POSSESSIVE[zone.owner]} {name}"
    if zone.name in ("field", "battle field"):
        return f"the {name}"
    return with_article(name)


def place(zone: ast.Zone, prep: str = "in", w=Words) -> str:
    """Where cards are: "in your standby", "on the field", "your opponent holds on the battle field"."""
    if zone.is_field:
        if w.held_field and zone.owner is not None and zone.name != "my field":
            return f"{HOLDER[zone.owner]} on the {zone.name}"
        return f"on {zone_np(zone, w)}"
    if zone.owner is None:
        return f"{prep} {w.zones.get(zone.name, zone.name)}"  # "in hand", "from hand"
    return f"{prep} {zone_np(zone, w)}"


def cost_phrase(cost: ast.CostBound) -> str:
    return {
        "<=": f"of cost {cost.value} or less",
        ">=": f"of cost {cost.value} or more",
        "<": f"of cost less than {cost.value}",
        ">": f"of cost greater than {cost.value}",
    }.get(cost.op, f"of cost {cost.value}")


def noun_words(f: ast.Filter, w=Words, plural: bool = False) -> str:
    """The filter's nouns: "geuda", "geuda or territory" ("cards" in the plural)."""
    if plural:
        return " or ".join(w.plurals.get(n, n + "s") for n in f.nouns)
    return " or ".join(f.nouns)


def filter_np(f: ast.Filter, det: str = "a", prep: str = "in", w=Words) -> str:
    """A card filter with its determiner: ``a`` (one the player picks), ``random``,
    ``every``, or none (``all``: "your Fantasy geuda", a rule's plural)."""
    other = "other" in f.states
    states = [w.states.get(s, s) for s in f.states if s != "other"]
    states += [w.values.get(v, v) for v in f.values]
    if det == "all":
        head = " ".join(([POSSESSIVE[f.owner]] if f.owner is not None else [])
                        + (["other"] if other else []) + states + [noun_words(f, w, True)])
    elif det == "a" and f.owner is not None:
        head = f"{'another' if other else 'one'} of {POSSESSIVE[f.owner]} " + " ".join(
            states + [noun_words(f, w, True)])
    else:
        core = " ".join(states + [noun_words(f, w)])
        if det == "a":
            head = f"another {core}" if other else with_article(core)
        else:
            head = f"{'a random' if det == 'random' else 'every'} {'other ' if other else ''}{core}"
            if f.owner is not None:
                head += f" of {PRONOUN[f.owner]}"
    parts = [head]
    if f.name is not None:
        parts.append(f'named "{f.name}"')
    if f.cost is not None:
        parts.append(cost_phrase(f.cost))
    if f.zone is not None:
        parts.append(place(f.zone, prep, w))
    return " ".join(parts)


class English(Renderer):
    def __init__(self, game: str = "world-gainer") -> None:
        super().__init__(game)
        self.w = GAME_WORDS.get(game, Words)

    # ---- leads and labels
    def label(self, where: str) -> str:
        return LABELS.get(where, "")

    def condition_lead(self, condition: ast.Condition) -> str:
        return f"if {self.condition(condition)}, "

    def attached_to(self, eff: ast.Attached) -> str:
        self.last = None
        return f"play this card onto {filter_np(eff.filter, w=self.w)}"

    def while_in(self, where: str) -> str:
        if where in self.w.while_in:
            self.last = "this"
            return self.w.while_in[where]
        self.last = "this"
        if where in ("field", "battle field"):
            return f"while this card is on the {where}, "
        if where == "my field":
            return "while this card is on your my field, "
        return f"while this card is in your {where}, "

    def this(self) -> str:
        text = "it" if self.last == "this" else "this card"
        self.last = "this"
        return text

    def subject(self, subject) -> str:
        if isinstance(subject, ast.This):
            return self.this()
        self.last = None
        return filter_np(subject)

    def event_lead(self, ev: ast.Event) -> str:
        if ev.kind in ("turn_start", "turn_end"):
            which = "start" if ev.kind == "turn_start" else "end"
            whose = "every" if ev.player == "every" else POSSESSIVE[ev.player]
            return f"at the {which} of {whose} turn, "
        if ev.kind == "judgment":
            names = getattr(self.w, "judgments", {})
            kinds = or_list(names.get(k, k + " judgment") for k in ev.judgments)
            if ev.role is None:
                return f"in {with_article(kinds)}, "
            self.last = "this"
            return f"in {with_article(kinds)} in which this card is {with_article(ev.role)}, "
        if ev.kind == "plays":
            verb = "play" if ev.player == "you" else "plays"
            return f"when {PLAYER[ev.player]} {verb} {filter_np(ev.subject, prep='from')}, "
        if ev.kind == "seized":
            if isinstance(ev.subject, ast.This):
                self.last = "this"
                return "when this card's square is seized, "
            return f"when the square of {self.subject(ev.subject)} is seized, "
        subject = self.subject(ev.subject)
        if ev.kind == "leaves":
            if ev.to is None:
                return f"when {subject} leaves the field, "
            to = ast.Zone(None, ev.to)
            into = "onto" if to.is_field else "into"
            return f"when {subject} is put {into} {zone_np(to)} from the field, "
        if ev.kind == "enters":
            return f"when {subject} enters the field, "
        if ev.kind == "out":
            return f"when {subject} is out, "
        return f"when {subject} becomes the target of an effect, "

    # ---- selectors
    def selector(self, sel: ast.Selector, gen: bool = False) -> tuple[tuple[str, ...], str, str]:
        """(sentences before, words before the verb, the noun) for a selector.

        A chosen card (``a card ...``) is "choose X and" before the verb and "it" after;
        with ``gen`` (the card is named inside a phrase: "a copy of it") the choice is a
        sentence of its own.
        """
        if isinstance(sel, ast.This):
            return (), "", self.this()
        if isinstance(sel, ast.It):
            return (), "", "it"
        if isinstance(sel, ast.ThatCard):
            if sel.noun != "card":
                return (), "", f"that {sel.noun}"
            return (), "", THAT_CARD.get(self.event.kind if self.event else "", "that card")
        self.last = None
        w = self.w
        if isinstance(sel, ast.Choose):
            choice = f"choose {filter_np(sel.filter, w=w)}"
            return ((choice,), "", "it") if gen else ((), choice + " and ", "it")
        if isinstance(sel, ast.Random):
            return (), "", filter_np(sel.filter, "random", w=w)
        if isinstance(sel, ast.Every):
            return (), "", filter_np(sel.filter, "every", w=w)
        if isinstance(sel, ast.All):
            return (), "", filter_np(sel.filter, "all", w=w)
        if isinstance(sel, ast.Stacks):
            return (), "", f"every card of every stack {place(sel.zone, w=w)}"
        return (), "", f"the {sel.end} card of {zone_np(sel.zone, w)}"

    def square_of(self, sel: ast.Selector) -> tuple[tuple[str, ...], str]:
        pre, _, noun = self.selector(sel, gen=True)
        if noun == "it":
            return pre, "its square"
        if noun.startswith(("this card", "the targeted card", "the played card")):
            return pre, f"{noun}'s square"
        return pre, f"the square of {noun}"

    # ---- destinations
    def dest(self, dest: ast.Dest) -> str:
        w = self.w
        if isinstance(dest, ast.ToZone):
            into = "onto" if dest.zone.is_field else "into"
            text = f"{into} {zone_np(dest.zone, w)}"
            if dest.as_stun:
                text += f" as {with_article(dest.as_stun + ' stun')}"
            return text
        if isinstance(dest, ast.ToEnd):
            return f"on the {dest.end} of {zone_np(dest.zone, w)}"
        return f"onto an empty square of {zone_np(dest.zone, w)}"

    # ---- actions
    def _verb(self, sel: ast.Selector, verb: str, rest: str = "") -> Rendered:
        pre, before, noun = self.selector(sel)
        text = f"{before}{verb} {noun}" + (f" {rest}" if rest else "")
        return Rendered(Clause(text, "you may " + text), pre)

    def simple_action(self, act: ast.Action) -> Rendered:
        if isinstance(act, ast.Draw):
            text = f"draw {act.count} card" + ("" if act.count == 1 else "s")
        elif isinstance(act, ast.Look):
            return self._verb(act.what, "look at")
        elif isinstance(act, ast.Move):
            pre, before, noun = self.selector(act.what)
            text = f"{before}put {noun} {self.dest(act.to)}"
            return Rendered(Clause(text, "you may " + text), pre)
        elif isinstance(act, ast.Exhaust):
            return self._verb(act.what, "exhaust")
        elif isinstance(act, ast.Shuffle):
            text = f"shuffle {zone_np(act.zone, self.w)}"
        elif isinstance(act, ast.ChooseAction):
            text = "choose " + self.chosen(act.what)
        elif isinstance(act, ast.EnterAsCopy):
            # this card is named after the sentence choosing the copied card, if any
            if isinstance(act.what, ast.Choose):
                pre, _, noun = self.selector(act.what, gen=True)
                me = self.this()
            else:
                me = self.this()
                pre, _, noun = self.selector(act.what, gen=True)
            copy = f"the field as a copy of {noun}"
            return Rendered(Clause(f"{me} enters {copy}", f"{me} may enter {copy}"), pre)
        elif isinstance(act, ast.CancelPlay):
            text = "cancel that play"
        elif isinstance(act, ast.AddPoints):
            text = f"add {act.count} {act.color} point" + ("" if act.count == 1 else "s")
        elif isinstance(act, ast.Swap):
            pre1, first = self.square_of(act.first)
            pre2, second = self.square_of(act.second)
            text = f"swap the stacks on {first} and {second}"
            return Rendered(Clause(text, "you may " + text), pre1 + pre2)
        elif isinstance(act, ast.Turn):
            return self._verb(act.what, "turn", self.w.states.get(act.state, act.state))
        elif isinstance(act, ast.Modify):
            text = self.modify(act)
        elif isinstance(act, ast.PlayerDraws):
            text = f"the {act.player} player draws {act.count} card" + ("" if act.count == 1 else "s")
        else:
            raise TypeError(f"not an action: {act!r}")
        return Rendered(Clause(text, "you may " + text))

    def modify(self, mod: ast.Modify) -> str:
        """"your Fantasy geuda get ATK +1", "it gets ATK +2 until end of turn"."""
        _, _, noun = self.selector(mod.target, gen=True)
        verb = "get" if isinstance(mod.target, ast.All) else "gets"
        until = f" until {mod.until}" if mod.until else ""
        return f"{noun} {verb} {self.w.stats.get(mod.stat, mod.stat)} {mod.amount:+d}{until}"

    def chosen(self, sel: ast.Selector) -> str:
        """What ``choose`` names: the filter itself for a choice, not "choose ... and"."""
        if isinstance(sel, ast.Choose):
            self.last = None
            return filter_np(sel.filter, w=self.w)
        return self.selector(sel)[2]

    def condition(self, cond: ast.Condition) -> str:
        if isinstance(cond, ast.YouDid):
            return "you do"
        if isinstance(cond, ast.Holds):
            return f"{zone_np(cond.zone, self.w)} holds {filter_np(cond.filter, w=self.w)}"
        left = PLAYER[cond.left]
        if cond.quantity == "squares":
            verb = "hold" if cond.left == "you" else "holds"
        else:
            verb = "have" if cond.left == "you" else "has"
        return f"{left} {verb} {cond.relation} {cond.quantity} than {PLAYER[cond.right]}"

    def if_clause(self, condition: ast.Condition, inner: Clause) -> Clause:
        lead = f"if {self.condition(condition)}, "
        return Clause(lead + inner.plain, lead + inner.optional_form, inner.optional)

    def then(self, sentence: str) -> str:
        return "then " + sentence

    # ---- activated effects
    def activated(self, eff: ast.Activated, leads: list[str]) -> list[str]:
        """"During your gain phase, you may put this card into your break to add 2 blue points."."""
        lead = "".join(leads) + (f"during your {eff.phase} phase, " if eff.phase else "")
        first, *rest = eff.actions
        if self.w.labels is not None and eff.cost is not None:
            # IW's 【起動】COST: EFFECT
            cost = self.action(eff.cost)
            r1 = self.action(first)
            head = [*cost.pre, *r1.pre, f"{lead}{cost.clause.plain}: {r1.clause.text}"]
            return head + self.body(rest, [])
        if eff.cost is None:
            r1 = self.action(first)
            # an activated effect is always optional: "you may <first action>"
            words = r1.clause.text if isinstance(first, ast.If) else r1.clause.optional_form
            return [*r1.pre, lead + words] + self.body(rest, [])
        cost = self.action(eff.cost)
        r1 = self.action(first)
        if plain_action(first) and not r1.pre:
            head = [*cost.pre, f"{lead}{cost.clause.optional_form} to {r1.clause.plain}"]
        else:
            then = [*r1.pre, r1.clause.text]
            then[0] = "if you do, " + then[0]
            head = [*cost.pre, lead + cost.clause.optional_form, *then]
        return head + self.body(rest, [])

    # ---- statics
    def static(self, rule: ast.Static) -> str:
        if isinstance(rule, ast.Modify):
            return self.modify(rule)
        me = self.this()
        if isinstance(rule, ast.Untargetable):
            return f"{me} cannot be targeted by effects"
        if isinstance(rule, ast.Protected):
            kinds = or_list(dict.fromkeys(rule.kinds))
            return f"the square {me} is on cannot be {kinds} by a card {cost_phrase(rule.cost)}"
        if isinstance(rule, ast.PlayOnto):
            return f"{me} can be played onto {zone_np(rule.zone)} regardless of field priority"
        if isinstance(rule, ast.AnyColor):
            return (f"the points {me} gives are of one color of your choice each time: "
                    f"{or_list(rule.colors)}")

        raise TypeError(f"not a static rule: {rule!r}")

    def finish(self, sentences: list[str]) -> str:
        return " ".join(cap(s) + "." for s in sentences)
