"""Checker: what the grammar cannot say about a card set.

The grammar accepts any word where a color, mark or phase goes, any number where a
cost goes, and any effect in any place.  ``check`` reports, in a designer's words and
with the rule (R-number) behind it, every problem of a parsed set, not only the first:

* a card's stats (R2.1): unknown color or mark, missing color or cost, a stat given
  twice, a required cost above the cost (R6.3), a stun value below 1, a number out of
  its range (``ast.NUMBER_RANGES``), a name with control characters;
* the numbers of effects: ``draw N``, ``add N``, cost bounds, each within its range;
* the set: two cards with one id, ``named "..."`` naming no card of the set;
* each effect (:mod:`wgdsl.lang.effect_checks`): events and rules that cannot happen where
  the effect works (R13), ``it`` / ``that card`` / ``if you do`` / ``cancel that play``
  with nothing to refer to, costs a player cannot pay, copies that are not made on
  entering, unknown phases and point colors, ``owner's`` where cards come from;
* effects that can trigger each other without end (:mod:`wgdsl.lang.loops`): warnings, which
  do not stop a set from loading.
"""

from __future__ import annotations

import attrs

from wgdsl.terminal import has_control, printable

from . import ast
from . import vocabulary as vocab_of
from .collector import collector_paused
from .diagnostics import Diagnostic, did_you_mean, one_of
from .effect_checks import check_effect, word_at
from .loops import find_loops


@attrs.define
class Report:
    """Collects the diagnostics of one file."""

    path: str
    diagnostics: list[Diagnostic] = attrs.Factory(list)
    # the game's words (colors, marks, phases, zones) from its game file
    vocabulary: "vocab_of.Vocabulary" = attrs.field(factory=vocab_of.world_gainer)

    def error(self, pos: ast.Pos, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(self.path, pos, message, hint))


def check(cardset: ast.CardSet, included=(), vocabulary=None) -> list[Diagnostic]:
    """Every semantic problem of a parsed card set (empty when the set is sound).

    ``included``: the card definitions of the sets it includes (their names may be
    referred to; their ids may not be used again)."""
    with collector_paused():
        return _check(cardset, included, vocabulary)


def _check(cardset: ast.CardSet, included, vocabulary) -> list[Diagnostic]:
    report = Report(cardset.path, vocabulary=vocab_of.of(vocabulary))
    names = _interned(frozenset(n for c in (*cardset.cards, *included)
                                for n in (c.name, c.en_name) if n))
    included_ids = {c.id for c in included}
    first_of: dict[str, ast.Card] = {}
    context = (names, report.vocabulary, report.path)  # what each card is checked with
    for card in cardset.cards:
        first = first_of.setdefault(card.id, card)
        if card.id in included_ids:
            report.error(card.pos, f"card id `{card.id}` is already used by an included set",
                         "give the new card an id of your own set (a prefix such as `XP-`)")
        elif first is not card:
            report.error(card.pos, f"card id `{card.id}` is already used on line {first.pos.line}",
                         "give every card its own id")
        report.diagnostics.extend(_card_problems(card, names, report, context))
    if not report.diagnostics:  # a sound set: warn of effects that can trigger themselves
        report.diagnostics.extend(find_loops(cardset, included))
    return report.diagnostics


# The problems of each card checked, by its node: id(card) -> card in _CHECKED, and in
# _CHECKED_AS what it was checked with, the check's (names, vocabulary, path), shared by
# all its cards, or (that, problems) for a card with problems.  The parser gives an
# unchanged card the same node (its cache of cards read), so the language server's re-check
# after an edit checks only the cards edited (or moved); the checks of the whole set (ids,
# loops) are done again.  A sound card adds no object of its own to the cache (two dicts'
# entries): the cyclic garbage collector, which scans every object a check leaves, then
# has none per card to scan, and a check of a sound set leaves too few objects to start
# one of the collector's passes (over the cards just read) inside the check.
_CHECKED: dict[int, ast.Card] = {}
_CHECKED_AS: dict[int, tuple] = {}
_CHECKED_KEPT = 40_000  # it holds the cards: twice the parser's cache of cards read
_last_names: frozenset = frozenset()


def forget_cards() -> None:
    """Empty the cache of cards checked (with the parser's: a cold check)."""
    from .parser import forget_cards as forget_read

    global _last_names
    _CHECKED.clear()
    _CHECKED_AS.clear()
    _last_names = frozenset()
    forget_read()


def _interned(names: frozenset) -> frozenset:
    """The last check's set of names when it is equal (a card's problems are reused only
    when the set's names are the same, compared once)."""
    global _last_names
    if names == _last_names:
        return _last_names
    _last_names = names
    return names


def _card_problems(card: ast.Card, names: frozenset, report: Report, context: tuple):
    """The problems of one card by itself (its names, stats, effects), found or known
    (a list, or ``()``).  ``context``: (``names``, the report's vocabulary and path), one
    tuple for the whole check."""
    key = id(card)
    if _CHECKED.get(key) is card:
        known = _CHECKED_AS[key]
        if known is context:  # (a card checked earlier in this check: its id used twice)
            return ()
        if len(known) == 2:
            known, problems = known
        else:
            problems = ()
        if known is context or (known[0] is names and known[1] is report.vocabulary
                                and known[2] == report.path):
            return problems
    own = Report(report.path, vocabulary=report.vocabulary)
    _check_names(card, own)
    _check_stats(card, own)
    for effect in card.effects:
        check_effect(effect, names, own)
        numbers, zones, words = _kinds_of_nodes(effect)  # walked once for the checks below
        _check_numbers(numbers, own)
        _check_zones(effect, zones, own)
        _check_words(words, own)
    if len(_CHECKED) >= _CHECKED_KEPT:
        _CHECKED.clear()
        _CHECKED_AS.clear()
    _CHECKED[key] = card
    problems = own.diagnostics
    _CHECKED_AS[key] = (context, problems) if problems else context
    return problems


def _check_names(card: ast.Card, report: Report) -> None:
    for name, pos, what in ((card.name, card.name_pos, "a card name"),
                            (card.en_name, card.en_name_pos, "an English name")):
        if name and has_control(name):
            report.error(pos, f"{what} may not contain control characters",
                         f'remove them from "{printable(name)}" (shown escaped): control '
                         "characters such as escape or bell would reach a terminal as "
                         "commands, not as text")


def _out_of_range(report: Report, key: str, value: int, pos: ast.Pos) -> None:
    rng = ast.NUMBER_RANGES[key]
    if value is not None and rng.low <= value <= rng.high:
        return  # (the message is written only for a number out of range)
    problem = ast.number_problem(key, value, str(value))
    if problem:
        report.error(pos, *problem)


def _kinds_of_nodes(root) -> tuple[list, list, list]:
    """The nodes below ``root`` that :func:`_check_numbers`, :func:`_check_zones` and
    :func:`_check_words` look at, each list in the order of a walk with a stack (not recursion: ``may may ... draw 1``
    may be hundreds deep)."""
    numbers: list = []
    zones: list = []
    words: list = []
    stack: list = [root]
    pop, push, extend = stack.pop, stack.append, stack.extend
    info_of = _INFO
    while stack:
        node = pop()
        kind = type(node)
        if kind is tuple:
            extend(node)
            continue
        info = info_of.get(kind, info_of)
        if info is info_of:  # a type not seen yet
            info = info_of[kind] = _type_info(kind)
        if info is None:  # not a node
            continue
        names, role = info
        if role:
            if role & _NUMBER:
                numbers.append(node)
            if role & _ZONE:
                zones.append(node)
            if role & _WORD:
                words.append(node)
        for name in names:
            push(getattr(node, name))
    return numbers, zones, words


# AST node type -> (the names of its fields that may hold nodes, its roles below); None
# for a type that is no node.  A field whose annotation is a word or a number (`str`,
# `Optional[str]`, `tuple[str, ...]`, ...) holds no node and is not walked.
_INFO: dict = {}
_LEAF_FIELDS = frozenset({"str", "int", "bool", "Optional[str]", "Optional[int]",
                          "tuple[str, ...]", "Union[str, int, bool]"})
_NUMBER, _ZONE, _WORD = 1, 2, 4
_NUMBER_NODES = (ast.Draw, ast.PlayerDraws, ast.Modify, ast.AddPoints, ast.CostBound)


def _type_info(kind: type):
    if not attrs.has(kind):
        return None
    names = tuple(f.name for f in attrs.fields(kind)
                  if not f.name.endswith("pos") and f.type not in _LEAF_FIELDS)
    role = ((_NUMBER if issubclass(kind, _NUMBER_NODES) else 0)
            | (_ZONE if kind is ast.Zone else 0) | (_WORD if kind in _WORD_NODES else 0))
    return names, role


def _check_numbers(nodes: list, report: Report) -> None:
    """``draw N``, ``add N`` and cost bounds within their ranges (``ast.NUMBER_RANGES``)."""
    for node in nodes:
        if isinstance(node, (ast.Draw, ast.PlayerDraws)):
            _out_of_range(report, "draw", node.count, node.count_pos)
        elif isinstance(node, ast.Modify):
            _out_of_range(report, "modifier", abs(node.amount), node.amount_pos)
        elif isinstance(node, ast.AddPoints):
            _out_of_range(report, "add", node.count, node.count_pos)
        elif isinstance(node, ast.CostBound):
            _out_of_range(report, "cost bound", node.value, node.value_pos)


def _check_zones(effect: ast.Effect, nodes: list, report: Report) -> None:
    """Every zone an effect names is one of its game's (the game file's `zone`s; World
    Gainer's field rows count as its field)."""
    words = report.vocabulary

    def unknown(name: str, pos: ast.Pos) -> None:
        if not words.has_zone(name):
            report.error(pos, f"unknown zone `{name}`",
                         did_you_mean(name, words.zones) or
                         f"the zones of `{words.game}` are " + one_of(words.zones))

    if effect.where not in ("dimension", "field", "played", "attached"):
        unknown(effect.where, effect.pos)
    event = getattr(effect, "event", None)
    if event is not None and event.to is not None:
        unknown(event.to, event.pos)
    for node in nodes:
        if type(node) is ast.Zone:
            unknown(node.name, node.pos)


# the construct of the card language (vocabulary.FEATURES) each node stands for, when it
# is not of the core every game has
_FEATURE_OF = {
    ast.Exhaust: "exhaust", ast.Shuffle: "shuffle", ast.EnterAsCopy: "copy",
    ast.CancelPlay: "cancel", ast.AddPoints: "add", ast.Swap: "swap", ast.Stacks: "stacks",
    ast.ToEmptySquare: "squares", ast.Compare: "compare", ast.Untargetable: "untargetable",
    ast.Protected: "protect", ast.PlayOnto: "onto", ast.AnyColor: "chosen",
    ast.Turn: "turn", ast.Modify: "gets", ast.PlayerDraws: "active", ast.Holds: "holds",
    ast.WhenPlayed: "played", ast.Attached: "attached",
}
# the nodes _check_words looks at (the rest name no construct or word of a game)
_WORD_NODES = frozenset(_FEATURE_OF) | {ast.Event, ast.Triggered, ast.Filter, ast.ToZone,
                                        ast.ThatCard}
_EVENT_FEATURES = {"seized": "seized", "targeted": "targeted", "plays": "plays", "out": "out",
                   "judgment": "judgment"}


def _check_words(nodes: list, report: Report) -> None:
    """Every construct, noun, card state, stat and judgment an effect names is its game's
    (the game file's `uses`, `nouns`, `states`, stats and `judgments`)."""
    if not nodes:
        return
    words = report.vocabulary
    game = words.game
    nouns = ("card", *words.nouns)
    uses = words.uses
    for node in nodes:
        kind = type(node)
        # the constructs beyond the core that the node itself uses, each at its place (a
        # position is worked out only for a construct the game lacks)
        feature = _FEATURE_OF.get(kind)
        if feature is not None and feature not in uses:
            _not_used(report, game, feature, node.pos)
        if kind is ast.Modify:
            if node.until is not None and "until" not in uses:
                _not_used(report, game, "until", node.pos)
        elif kind is ast.Event:
            if node.kind in _EVENT_FEATURES and _EVENT_FEATURES[node.kind] not in uses:
                _not_used(report, game, _EVENT_FEATURES[node.kind], node.pos)
            if node.player == "every" and "every" not in uses:
                _not_used(report, game, "every", node.pos)
        elif kind is ast.Triggered:
            if node.where == "dimension" and "dimension" not in uses:
                _not_used(report, game, "dimension", word_at(node.pos, "dimension"))
            if node.condition is not None and "if" not in uses:
                _not_used(report, game, "if", node.condition.pos)
        elif kind is ast.Filter:
            if node.values and "values" not in uses:
                _not_used(report, game, "values", (node.value_pos or (node.pos,))[0])
            if node.alternatives and "or" not in uses:
                _not_used(report, game, "or", (node.noun_pos[1:] or (node.pos,))[0])
        # the words it names
        if kind is ast.Filter:
            for i, noun in enumerate(node.nouns):
                if noun not in nouns:
                    pos = node.noun_pos[i] if i < len(node.noun_pos) else node.pos
                    _unknown_word(report, "noun", noun, pos, nouns, "nouns")
            for i, state in enumerate(node.states):
                if state != "other" and state not in words.states:
                    pos = node.state_pos[i] if i < len(node.state_pos) else node.pos
                    _unknown_word(report, "card state", state, pos, words.states, "states")
        elif kind is ast.ToZone and node.as_stun and node.as_stun not in words.states:
            _unknown_word(report, "card state", node.as_stun, node.pos, words.states, "states")
        elif kind is ast.Turn and node.state != "other" and node.state not in words.states:
            _unknown_word(report, "card state", node.state, node.state_pos, words.states, "states")
        elif kind is ast.ThatCard and node.noun not in nouns:
            _unknown_word(report, "noun", node.noun, node.pos, nouns, "nouns")
        elif kind is ast.Modify and words.stats.get(node.stat) != "number":
            numbers = [k for k, how in words.stats.items() if how == "number"]
            report.error(node.stat_pos, f"`{node.stat}` is not a number stat of `{game}`'s cards",
                         did_you_mean(node.stat, numbers) or
                         (f"a card's numbers are " + one_of(numbers) if numbers else
                          f"`{game}`'s cards have no number stats"))
        elif kind is ast.Event and node.kind == "judgment":
            for i, judgment in enumerate(node.judgments):
                if judgment not in words.judgments:
                    pos = node.judgments_pos[i] if i < len(node.judgments_pos) else node.pos
                    _unknown_word(report, "judgment", judgment, pos, words.judgments, "judgments")


def _not_used(report: Report, game: str, feature: str, pos: ast.Pos) -> None:
    report.error(pos, f"{vocab_of.FEATURES[feature]} is not in `{game}`'s cards",
                 f"`{game}`'s engine does not carry it out: its game file's `uses` "
                 f"line does not name `{feature}` (docs/language.md, \"A game's words\")")


def _unknown_word(report: Report, what: str, word: str, pos: ast.Pos, known, kind: str) -> None:
    words = report.vocabulary
    game = words.game
    report.error(pos, f"unknown {what} `{word}`",
                 did_you_mean(word, known) or
                 (f"the {what}s of `{game}`'s cards are " + one_of(known) if known else
                  f"`{game}`'s cards have no {what}s")
                 + ("" if did_you_mean(word, known) else
                    vocab_of.cite(words.word_rules.get(kind, ""))))


def _check_stats(card: ast.Card, report: Report) -> None:
    words = report.vocabulary
    seen: dict[str, ast.Stat] = {}
    last: dict[str, ast.Stat] = {}  # the stat that counts for each key (the last written)
    for stat in card.stats:
        first = seen.setdefault(stat.key, stat)
        last[stat.key] = stat
        if first is not stat:
            report.error(stat.pos, f"`{stat.key}` is given twice",
                         f"it was first given at line {first.pos.line}, column {first.pos.col}; "
                         "a card states each stat once")
        values = words.values.get(stat.key)
        if values and stat.value not in values:
            report.error(stat.value_pos, f"unknown {stat.key} `{stat.value}`",
                         did_you_mean(stat.value, values) or
                         f"{stat.key}s are " + one_of(values) +
                         vocab_of.cite(words.rules.get(stat.key, "")))
        elif stat.key == "stun" and stat.value < 1:
            report.error(stat.value_pos, f"stun value {stat.value} is less than 1",
                         "an exhausted stun gives its stun value in points (R6.2), at least 1; "
                         "leave `stun` out for the usual 1 (R2.1)")
        elif stat.key in ("cost", "stun"):
            _out_of_range(report, stat.key, stat.value, stat.value_pos)
    for key in words.required:
        if key not in seen:
            example = f"`{key} {_example_value(words, key)}`"
            report.error(card.pos, f"card `{card.id}` has no {key}",
                         f"every card has a {key}{vocab_of.cite(words.cards_rule)}: "
                         f"add {example} to its stat line")
    if "cost" in seen and "requires" in seen:
        cost_value, required = last["cost"].value, last["requires"].value
        if required > cost_value:
            report.error(last["requires"].value_pos,
                         f"required cost {required} is more than the cost {cost_value}",
                         "the required cost is the part of the cost paid in the card's own color, "
                         "so it is 0 to the cost (R2.1, R6.3)")
            return
    if "requires" in seen:
        requires = last["requires"]
        _out_of_range(report, "requires", requires.value, requires.value_pos)


def _example_value(words, key: str) -> str:
    """A value to show in a hint: the game file's first for a word stat."""
    if words.stats.get(key) == "number":
        return "2"
    return words.values[key][0] if words.values.get(key) else "x"
