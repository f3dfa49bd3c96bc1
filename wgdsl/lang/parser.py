"""Parser: card-language text -> AST (:mod:`wgdsl.lang.ast`), or diagnostics.

One LALR parser is built from ``grammar/wgdsl.lark`` the first time it is needed and
kept.  Lark's tree is turned into frozen AST nodes by :class:`_ToAst`.  Syntax errors
become :class:`~wgdsl.lang.diagnostics.Diagnostic` s that name the offending word in the
designer's terms ("unknown zone `brake`; did you mean `break`?", see
:mod:`wgdsl.lang.syntax_errors`).  After a syntax error the parser resumes at the next card,
so one run reports the errors of every broken card, not just the first.
"""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict
from functools import lru_cache
from operator import itemgetter
from typing import Optional

import attrs
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_analysis import Shift as _SHIFT

from wgdsl.resources import grammar_path

from . import ast
from . import vocabulary as vocab_of
from .collector import collector_paused
from .diagnostics import Diagnostic
from .syntax_errors import bad_character, keywords_of, syntax_diagnostic


class _KeepBadChars:
    """Lark post-lexer that keeps the grammar's ``BAD_CHAR`` terminal, which no rule uses:
    the reader reports such a character instead of the lexer stopping at it."""

    always_accept = ("BAD_CHAR",)

    def process(self, stream):
        return stream


_OPTIONS = dict(parser="lalr", lexer="basic", propagate_positions=True,
                maybe_placeholders=True)


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The one LALR parser of the card language, built once per process
    (:func:`cached_lark`)."""
    return cached_lark(grammar_path().read_text(encoding="utf-8"), "grammar.json", _KeepBadChars)


def cached_lark(grammar: str, name: str, postlex) -> Lark:
    """An LALR parser of ``grammar`` (the card language's or the game files').

    Building one (analysing the grammar) takes 0.15 to 0.5 s, so the analysis is kept in
    the user's cache directory (:func:`_cache_file`, file ``name``) and read back on the
    next start.  The cache is JSON, never pickle: a file anyone could have written there is
    only data, at worst a parser that is rebuilt.  It is used only when its first line is
    the hash of this grammar, these options and the Lark and Python versions.
    ``postlex`` is the post-lexer's class (an object is not cached)."""
    key = _cache_key(grammar)
    path = _cache_file(name)
    if path:
        cached = _read_cache(path, key, postlex)
        if cached is not None:
            return cached
    parser = Lark(grammar, postlex=postlex(), **_OPTIONS)
    if path:
        _write_cache(path, key, parser)
    return parser


def _cache_key(grammar: str) -> str:
    import hashlib
    import sys

    import lark

    h = hashlib.sha256()
    for part in (grammar, repr(sorted(_OPTIONS.items())), lark.__version__, sys.version,
                 str(_CACHE_FORMAT)):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


# bump when the layout of the cache file changes
_CACHE_FORMAT = 1
# a grammar analysis is about 200 KB; anything far larger is not one
_CACHE_MAX_BYTES = 4 * 1024 * 1024


def _cache_file(name: str = "grammar.json") -> Optional[str]:
    """``$XDG_CACHE_HOME/wgdsl/NAME`` (else ``~/.cache/...``), or None when the folder
    cannot be made (the parser is then built every time)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "wgdsl")
    try:
        os.makedirs(folder, exist_ok=True)
    except (OSError, ValueError):
        return None
    return os.path.join(folder, name)


def _to_json(value):
    """Lark's serialized parser as JSON-able data: tuples and dicts are tagged so that they
    come back as they were (JSON has no tuples, and its object keys are only strings)."""
    if isinstance(value, tuple):
        return {"t": [_to_json(v) for v in value]}
    if isinstance(value, list):
        return [_to_json(v) for v in value]
    if isinstance(value, dict):
        return {"d": [[_to_json(k), _to_json(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _from_json(obj: dict):
    if "t" in obj:
        return tuple(obj["t"])
    return dict(obj["d"])


def _read_cache(path: str, key: str, postlex=_KeepBadChars) -> Optional[Lark]:
    import json

    from wgdsl.files import Unreadable, read_text

    try:
        text = read_text(path, "cache file", max_bytes=_CACHE_MAX_BYTES)
    except Unreadable:
        return None
    first, _, body = text.partition("\n")
    if first != key:
        return None
    try:
        data = json.loads(body, object_hook=_from_json)
        return Lark._load_from_dict(data["data"], data["memo"], postlex=postlex())
    except Exception:  # a damaged or foreign file: only data, so build afresh
        return None


def _write_cache(path: str, key: str, parser: Lark) -> None:
    import json
    import tempfile

    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        # the post-lexer is an object, given again when the cache is read
        data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
        body = json.dumps(_to_json({"data": data, "memo": memo}), separators=(",", ":"))
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".grammar-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(key + "\n" + body)
            os.replace(tmp, path)  # readers see the old file or the whole new one
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, TypeError, ValueError):
        pass  # no cache: the next run builds the parser again


# a position from its four numbers, made without a call of Pos.__new__ (ast._tuple_new)
_Pos = ast.Pos
_new_pos = ast._tuple_new


def _pos(meta) -> ast.Pos:
    try:
        if meta.empty:
            return ast.NOWHERE
    except AttributeError:  # (getattr(meta, "empty", True), without the call)
        return ast.NOWHERE
    return _new_pos(_Pos, (meta.line, meta.column, meta.end_line, meta.end_column))


def _tpos(tok: Token) -> ast.Pos:
    return _new_pos(_Pos, (tok.line, tok.column, tok.end_line, tok.end_column))


def _span(meta, last) -> ast.Pos:
    """From the start of ``meta`` to the end of node ``last``.

    A rule that ends with a line end (``body: (action _NL)+``) would otherwise end on
    the next line, after its indentation and any comment; this keeps an effect's
    position on the text that says it.
    """
    if getattr(meta, "empty", True):
        return ast.NOWHERE
    end = getattr(last, "pos", ast.NOWHERE)
    if end == ast.NOWHERE:
        return _pos(meta)
    return _new_pos(_Pos, (meta.line, meta.column, end[2], end[3]))


def _unquote(tok: Token) -> str:
    return str(tok)[1:-1]


def _words(children) -> str:
    return " ".join(str(c) for c in children if isinstance(c, Token))


class _ToAst:
    """Lark tree -> AST.  Method names follow the grammar's rule and alias names.

    Each method gets the node's position (``meta``) and its children, already
    transformed.  (A plain bottom-up walk: Lark's ``Transformer`` with ``v_args(meta=True)``
    re-wraps the method on every node and visits every token, which made it a third of
    the parse time.)
    """

    def __init__(self) -> None:
        # numbers too long to convert: (key, token); the card holding one is not read
        self.too_large: list[tuple[str, Token]] = []

    def number(self, tok: Token, key: str) -> int:
        """An INT token as a number.  A literal of more than ``ast.MAX_DIGITS`` digits
        (which ``int()`` might even refuse: Python converts at most 4,300) is noted in
        :attr:`too_large` and read as 0; its card is then reported, not used."""
        digits = str(tok).lstrip("0")
        if len(digits) > ast.MAX_DIGITS:
            self.too_large.append((key, tok))
            return 0
        return int(digits or "0")

    def transform(self, tree: Tree):
        children = [self.transform(c) if isinstance(c, Tree) else c for c in tree.children]
        return getattr(self, tree.data)(tree.meta, children)

    # ---- set and cards
    def start(self, meta, children):
        return tuple(children)

    def include(self, meta, children):
        return ast.Include(_unquote(children[0]), pos=_tpos(children[0]))

    def game_line(self, meta, children):
        return ast.GameLine(_unquote(children[0]), pos=_tpos(children[0]))

    def card(self, meta, children):
        card_id, name, en_name, *items = children
        stats: list = []
        effects = []
        for item in items:  # a stat line's stats (a tuple) or an effect
            if isinstance(item, tuple):
                stats += item
            else:
                effects.append(item)
        return ast.Card(
            str(card_id),
            _unquote(name),
            _unquote(en_name) if en_name is not None else None,
            tuple(stats),
            tuple(effects),
            pos=_tpos(card_id),
            name_pos=_tpos(name),
            en_name_pos=_tpos(en_name) if en_name is not None else ast.NOWHERE,
        )

    def stats(self, meta, children):
        return tuple(children)

    def stat_word(self, meta, children):
        key, value = children
        return ast.Stat(str(key), str(value), pos=_pos(meta), value_pos=_tpos(value))

    def stat_number(self, meta, children):
        key, value = children
        return ast.Stat(str(key), self.number(value, str(key)), pos=_pos(meta),
                        value_pos=_tpos(value))

    def stat_flag(self, meta, children):
        return ast.Stat(str(children[0]), True, pos=_pos(meta), value_pos=_pos(meta))

    # ---- effects
    def where_dimension(self, meta, children):
        return "dimension"

    def where_field(self, meta, children):
        return "field"

    def where_zone(self, meta, children):
        return children[0]

    def trigger(self, meta, children):
        event, condition = children
        return event if condition is None else (event, condition)

    def during(self, meta, children):
        return (str(children[0]), _tpos(children[0]))

    def cost_line(self, meta, children):
        return children[0]

    def body(self, meta, children):
        return tuple(children)

    def triggered(self, meta, children):
        where, event, actions = children
        if type(event) is tuple:  # `at EVENT if CONDITION:`
            event, condition = event
            return ast.Triggered(where, event, actions, pos=_span(meta, actions[-1]),
                                 condition=condition)
        return ast.Triggered(where, event, actions, pos=_span(meta, actions[-1]))

    def when_played(self, meta, children):
        actions = children[-1]
        return ast.WhenPlayed(actions, pos=_span(meta, actions[-1]))

    def attached(self, meta, children):
        filt, *rules = children
        return ast.Attached(filt, tuple(rules), pos=_span(meta, rules[-1]))

    def activated(self, meta, children):
        where, during, cost, actions = children
        phase, phase_pos = during if during is not None else (None, ast.NOWHERE)
        return ast.Activated(where, phase, cost, actions, pos=_span(meta, actions[-1]),
                             phase_pos=phase_pos)

    def static_effect(self, meta, children):
        where, *rules = children
        return ast.StaticEffect(where, tuple(rules), pos=_span(meta, rules[-1]))

    # ---- events
    def ev_leaves(self, meta, children):
        subject, to = children
        return ast.Event("leaves", subject=subject, to=to, pos=_pos(meta))

    def ev_enters(self, meta, children):
        return ast.Event("enters", subject=children[0], pos=_pos(meta))

    def ev_seized(self, meta, children):
        return ast.Event("seized", subject=children[0], pos=_pos(meta))

    def ev_targeted(self, meta, children):
        return ast.Event("targeted", subject=children[0], pos=_pos(meta))

    def ev_turn_start(self, meta, children):
        return ast.Event("turn_start", player=children[0], pos=_pos(meta))

    def ev_turn_end(self, meta, children):
        return ast.Event("turn_end", player=children[0], pos=_pos(meta))

    def ev_plays(self, meta, children):
        player, filt = children
        return ast.Event("plays", subject=filt, player=player, pos=_pos(meta))

    def ev_out(self, meta, children):
        return ast.Event("out", subject=children[0], pos=_pos(meta))

    def ev_judgment(self, meta, children):
        *kinds, role = children
        return ast.Event("judgment", judgments=tuple(str(k) for k in kinds), role=role,
                         pos=_pos(meta), judgments_pos=tuple(_tpos(k) for k in kinds))

    def role(self, meta, children):
        return str(children[0])

    def subj_this(self, meta, children):
        return ast.This(pos=_pos(meta))

    def subj_filter(self, meta, children):
        return children[-1]

    # ---- actions
    def draw(self, meta, children):
        count = next(c for c in children if isinstance(c, Token) and c.type == "INT")
        return ast.Draw(self.number(count, "draw"), pos=_pos(meta), count_pos=_tpos(count))

    def look(self, meta, children):
        return ast.Look(children[0], pos=_pos(meta))

    def move(self, meta, children):
        return ast.Move(children[0], children[1], pos=_pos(meta))

    def exhaust(self, meta, children):
        return ast.Exhaust(children[0], pos=_pos(meta))

    def shuffle(self, meta, children):
        return ast.Shuffle(children[0], pos=_pos(meta))

    def choose(self, meta, children):
        return ast.ChooseAction(children[0], pos=_pos(meta))

    def enter_copy(self, meta, children):
        return ast.EnterAsCopy(children[-1], pos=_pos(meta))

    def cancel_play(self, meta, children):
        return ast.CancelPlay(pos=_pos(meta))

    def add_points(self, meta, children):
        count, color = [c for c in children if isinstance(c, Token) and c.type in ("INT", "WORD")]
        return ast.AddPoints(self.number(count, "add"), str(color), pos=_pos(meta),
                             color_pos=_tpos(color), count_pos=_tpos(count))

    def swap(self, meta, children):
        return ast.Swap(children[0], children[1], pos=_pos(meta))

    def may(self, meta, children):
        return ast.May(children[0], pos=_pos(meta))

    def if_(self, meta, children):
        return ast.If(children[0], children[1], pos=_pos(meta))

    def turn(self, meta, children):
        what, (_, state, state_pos) = children
        return ast.Turn(what, state, pos=_pos(meta), state_pos=state_pos)

    def player_draws(self, meta, children):
        count = next(c for c in children if isinstance(c, Token) and c.type == "INT")
        return ast.PlayerDraws("active", self.number(count, "draw"), pos=_pos(meta),
                               count_pos=_tpos(count))

    def modifier(self, meta, children):
        target, stat, amount, until = children
        digits = str(amount)
        value = self.number(Token.new_borrow_pos("INT", digits[1:], amount), "modifier")
        return ast.Modify(target, str(stat), -value if digits[0] == "-" else value, until,
                          pos=_pos(meta), stat_pos=_tpos(stat), amount_pos=_tpos(amount))

    def until(self, meta, children):
        return "end of turn"

    # ---- selectors
    def sel_this(self, meta, children):
        return ast.This(pos=_pos(meta))

    def sel_it(self, meta, children):
        return ast.It(pos=_pos(meta))

    def sel_that(self, meta, children):
        if children:  # `that geuda`
            return ast.ThatCard(pos=_pos(meta), noun=str(children[0]))
        return ast.ThatCard(pos=_pos(meta))

    def modifier_all(self, meta, children):
        filt, stat, amount = children
        return self.modifier(meta, [ast.All(filt, pos=filt.pos), stat, amount, None])

    def sel_choose(self, meta, children):
        return ast.Choose(children[-1], pos=_pos(meta))

    def sel_random(self, meta, children):
        return ast.Random(children[-1], pos=_pos(meta))

    def sel_every(self, meta, children):
        return ast.Every(children[-1], pos=_pos(meta))

    def sel_stacks(self, meta, children):
        return ast.Stacks(children[-1], pos=_pos(meta))

    def sel_top(self, meta, children):
        end, zone = children
        return ast.EndCard(end, zone, pos=_pos(meta))

    def filter(self, meta, children):
        owner = children[0]
        nouns, named, cost, place = children[-4:]
        words = children[1:-4]  # ("state" | "value", word, position), as written
        states = [w for w in words if w[0] == "state"]
        values = [w for w in words if w[0] == "value"]
        name, name_pos = named if named is not None else (None, ast.NOWHERE)
        return ast.Filter(
            owner=owner,
            states=tuple(s[1] for s in states),
            noun=nouns[0][1],
            name=name,
            cost=cost,
            zone=place,
            pos=_pos(meta),
            name_pos=name_pos,
            values=tuple(v[1] for v in values),
            alternatives=tuple(n[1] for n in nouns[1:]),
            noun_pos=tuple(n[2] for n in nouns),
            state_pos=tuple(s[2] for s in states),
            value_pos=tuple(v[2] for v in values),
        )

    def state(self, meta, children):
        return ("state", str(children[0]), _tpos(children[0]))

    def value(self, meta, children):
        return ("value", str(children[0]), _tpos(children[0]))

    def nouns(self, meta, children):
        return children  # ("noun", word, position) each

    def noun(self, meta, children):
        tok = children[0]
        word = str(tok) if tok.type == "NOUN_WORD" else str(tok).rstrip("s")
        return ("noun", word, _tpos(tok))

    def named(self, meta, children):
        return (_unquote(children[0]), _tpos(children[0]))

    def cost_cmp(self, meta, children):
        op, value = children
        return ast.CostBound(str(op), self.number(value, "cost bound"), pos=_pos(meta),
                             value_pos=_tpos(value))

    def cost_or(self, meta, children):
        value, less_more = children
        return ast.CostBound("<=" if less_more == "less" else ">=",
                             self.number(value, "cost bound"), pos=_pos(meta), value_pos=_tpos(value))

    def less_more(self, meta, children):
        return str(children[0])

    def place(self, meta, children):
        return children[0]

    # ---- zones and destinations
    def zone(self, meta, children):
        owner, name = children
        return ast.Zone(owner, name, pos=_pos(meta))

    def own_you(self, meta, children):
        return "you"

    def own_opponent(self, meta, children):
        return "opponent"

    def own_owner(self, meta, children):
        return "owner"

    def zone_name(self, meta, children):
        return _words(children)

    def top_bottom(self, meta, children):
        return str(children[0])

    def dest_zone(self, meta, children):
        owner, name, state = children
        zone = ast.Zone(owner, name, pos=_pos(meta))
        return ast.ToZone(zone, as_stun=state[1] if state else None, pos=_pos(meta))

    def dest_end(self, meta, children):
        end, zone = children
        return ast.ToEnd(end, zone, pos=_pos(meta))

    def dest_square(self, meta, children):
        return ast.ToEmptySquare(children[-1], pos=_pos(meta))

    # ---- conditions
    def cond_did(self, meta, children):
        return ast.YouDid(pos=_pos(meta))

    def cond_holds(self, meta, children):
        zone, filt = children
        return ast.Holds(zone, filt, pos=_pos(meta))

    def cond_compare(self, meta, children):
        left, relation, quantity, right = children
        relation = "fewer" if relation == "less" else relation
        return ast.Compare(left, relation, quantity, right, pos=_pos(meta))

    def more_fewer(self, meta, children):
        return str(children[0])

    def quantity(self, meta, children):
        return _words(children)

    def player_you(self, meta, children):
        return "you"

    def player_opponent(self, meta, children):
        return "opponent"

    def player_every(self, meta, children):
        return "every"

    # ---- statics
    def st_untargetable(self, meta, children):
        return ast.Untargetable(pos=_pos(meta))

    def st_protect(self, meta, children):
        kinds, cost = children
        return ast.Protected(kinds, cost, pos=_pos(meta))

    def protect_kinds(self, meta, children):
        return tuple(children)

    def protect(self, meta, children):
        return str(children[0])

    def st_play_onto(self, meta, children):
        return ast.PlayOnto(children[0], pos=_pos(meta))

    def st_any_color(self, meta, children):
        return ast.AnyColor(tuple(str(c) for c in children), pos=_pos(meta),
                            color_pos=tuple(_tpos(c) for c in children))


# ---------------------------------------------------------------------------- AST while parsing
class _Built:
    """What a rule of a card gives while it is parsed: its AST value (``value``), the
    children an inlined ``_rule`` hands to its parent, and its position as Lark's
    ``propagate_positions`` would give its tree (from its first token to its last;
    ``empty`` when it holds none).  Its position fields are those of a Lark ``Meta``, so
    :class:`_ToAst`'s methods take it as their ``meta``."""

    __slots__ = ("value", "children", "empty", "line", "column", "end_line", "end_column")


# how many `may` / `if` a card may hold and still be built while it is parsed; a card
# with more is read again the plain way (Lark's tree, then a walk: the builder's
# reference, which the tests take for every card by setting this to -1).  How deep they
# nest is bounded apart (MAX_DEPTH), so the walk's recursion is bounded too.
_MAX_NESTED = 40


class _Builder(_ToAst):
    """The card's AST built as the LALR parser reduces each rule, with no tree and no
    second walk: Lark's parser is given these callbacks in place of its tree builder's.
    Children are filtered as Lark's tree builder does (its own child filters), positions
    are Lark's ``propagate_positions`` (first and last child with a position, tokens
    included), so each method of :class:`_ToAst` gets the same ``meta`` and children."""

    def __init__(self) -> None:
        super().__init__()
        self.nested = 0

    def may(self, meta, children):
        self.nested += 1
        return super().may(meta, children)

    def if_(self, meta, children):
        self.nested += 1
        return super().if_(meta, children)

    def callbacks(self, rules) -> dict:
        """rule -> the callable that builds its node from the values reduced (its
        children as the LALR parser holds them)."""
        from lark.parse_tree_builder import maybe_create_child_filter

        def identity(children):
            return children

        out = {}
        for rule in rules:
            options = rule.options
            name = rule.alias or options.template_source or rule.origin.name
            make_filter = maybe_create_child_filter(rule.expansion, options.keep_all_tokens,
                                                    False, options.empty_indices)
            expand_single = options.expand1 and not rule.alias
            if name.startswith("_"):  # inlined: its children go to its parent
                method = None
            elif expand_single:  # `?item`: its one child stands for it
                method = getattr(self, name, None)
            else:
                method = getattr(self, name)
            include = _included(rule.expansion, make_filter)
            if include is None:  # a filter of a kind not known here: through itself
                child_filter = make_filter(identity) if make_filter is not None else identity
            else:
                child_filter = None
            out[rule] = _callback(rule.expansion, include, child_filter, method, expand_single,
                                  _CONSTANT_RULES.get(name, _NOT_CONSTANT))
        return out


# the rules whose value is always the same word, whatever their position and children:
# the callbacks of their one-token forms set it without calling the method
# (tests/test_parser.py holds each to its method)
_CONSTANT_RULES = {
    "where_dimension": "dimension", "where_field": "field", "own_you": "you",
    "own_opponent": "opponent", "own_owner": "owner", "player_you": "you",
    "player_opponent": "opponent", "player_every": "every",
}
_NOT_CONSTANT = object()


def _included(expansion, make_filter):
    """What Lark's child filter for a rule keeps of its children: ([(index, expand, Nones
    before it)], Nones after the last), the ``to_include`` it was made with; None when the
    filter is of a kind not known here (the rule is then built through the filter itself)."""
    from lark.parse_tree_builder import ChildFilterLALR, ChildFilterLALR_NoPlaceholders

    if make_filter is None:  # every child kept as it is
        return [(i, False, 0) for i in range(len(expansion))], 0
    if make_filter.func is ChildFilterLALR and len(make_filter.args) == 2:
        to_include, append_none = make_filter.args
        return [(i, bool(x), n) for i, x, n in to_include], append_none
    if make_filter.func is ChildFilterLALR_NoPlaceholders and len(make_filter.args) == 1:
        return [(i, bool(x), 0) for i, x in make_filter.args[0]], 0
    return None


def _one_child(include) -> bool:
    """Does the rule always keep exactly one child, itself (no ``_rule`` spliced in, no
    placeholder)?"""
    kept, append_none = include
    return len(kept) == 1 and not kept[0][1] and not kept[0][2] and not append_none


def _callback(expansion, include, child_filter, method, expand_single: bool,
              constant=_NOT_CONSTANT, general: bool = False):
    """The build callback of one rule: its children filtered as Lark's tree builder does
    (with ``include``, the filter worked out when the grammar is read; else through
    ``child_filter``, Lark's own), its position that of its first and last child with one
    (Lark's ``propagate_positions``), its value ``method``'s (None: an inlined ``_rule``,
    whose children go to its parent), or ``constant`` when given (a rule whose method
    always gives that value).  ``general``: the general build, for any rule."""
    if include is None:
        kept, append_none = [], 0
        plain = every = False
    else:
        kept, append_none = include
        if expand_single and _one_child(include):  # that one child stands for the rule
            return itemgetter(kept[0][0])
        if general:
            pass
        elif len(expansion) == 1 and expansion[0].is_term and not append_none \
                and all(not expand and not nones for _, expand, nones in kept):
            return _token_callback(bool(kept), method, constant)
        elif method is None and not expand_single and not append_none \
                and kept == [(0, True, 0), (1, False, 0)] and len(expansion) >= 2 \
                and not expansion[0].is_term and not expansion[1].is_term \
                and all(sym.is_term for sym in expansion[2:]):
            return _list_callback(expansion[-1].is_term,
                                  _callback(expansion, include, child_filter, method, False,
                                            general=True))
        plain = not append_none and all(not expand and not nones for _, expand, nones in kept)
        every = plain and len(kept) == len(expansion)  # every child kept as it is
    keep = tuple(i for i, _, _ in kept)
    # the scans for the first and last child with a position stop at a token (it has one)
    size = len(expansion)
    terms = [i for i, sym in enumerate(expansion) if sym.is_term]
    first_scan = tuple(range(terms[0] + 1 if terms else size))
    last_scan = tuple(range(size - 1, terms[-1] - 1 if terms else -1, -1))
    # (the scans' common cases: the rule starts or ends with a token; it keeps one child)
    first_term = size > 0 and expansion[0].is_term
    last_term = size > 0 and expansion[-1].is_term
    one = keep[0] if plain and len(keep) == 1 else None
    pick = itemgetter(*keep) if plain and len(keep) >= 2 else None  # (no comprehension)
    if include is not None and not general and not expand_single and size > 0 \
            and (method is not None or all(not expand for _, expand, _ in kept)):
        # the children at fixed places, placeholders (-1) between, an inlined `_rule`'s
        # children spliced in at -2 - its place
        slots: list = []
        for i, expand, nones in kept:
            slots += [-1] * nones + [-2 - i if expand else i]
        return _plain_callback(tuple(slots + [-1] * append_none), every, method, first_term,
                               last_term, first_scan, last_scan)

    def build(raw):
        if child_filter is not None:
            children = child_filter(raw)
        elif every:
            children = raw
        elif one is not None:
            children = [raw[one]]
        elif pick is not None:
            children = list(pick(raw))
        elif plain:  # (it keeps none)
            children = []
        else:  # Lark's ChildFilterLALR
            children = []
            for i, expand, nones in kept:
                if nones:
                    children += [None] * nones
                if expand:
                    if children:
                        children += raw[i].children
                    else:  # left recursion: its list goes on growing
                        children = raw[i].children
                else:
                    children.append(raw[i])
            if append_none:
                children += [None] * append_none
        if expand_single and len(children) == 1:
            return children[0]  # `?rule`: its one child stands for it (same span)
        node = _Built()
        if first_term:
            first = raw[0]
        else:
            first = None
            for i in first_scan:
                c = raw[i]
                if c.__class__ is not _Built or not c.empty:
                    first = c
                    break
        if first is None:
            node.empty = True
        else:
            if last_term:
                last = raw[-1]
            else:
                for i in last_scan:
                    last = raw[i]
                    if last.__class__ is not _Built or not last.empty:
                        break
            node.empty = False
            node.line = first.line
            node.column = first.column
            node.end_line = last.end_line
            node.end_column = last.end_column
        if method is None:
            node.children = children
            node.value = None
        elif len(children) == 1:
            c = children[0]
            node.value = method(node, [c.value if c.__class__ is _Built else c])
        elif len(children) == 2:  # (no comprehension: a call of its own in Python 3.11)
            c, d = children
            node.value = method(node, [c.value if c.__class__ is _Built else c,
                                       d.value if d.__class__ is _Built else d])
        else:
            values = []
            for c in children:
                values.append(c.value if c.__class__ is _Built else c)
            node.value = method(node, values)
        return node
    return build


def _plain_callback(slots: tuple, every: bool, method, first_term: bool, last_term: bool,
                    first_scan: tuple, last_scan: tuple):
    """:func:`_callback`'s build for a rule whose children stand at fixed places:
    ``slots`` the raw indices of its children in order, -1 for a placeholder (None),
    ``-2 - i`` for the children of the inlined ``_rule`` at ``i`` spliced in (only for a
    rule with a method: an inlined rule's own list is the general build's);
    ``every``: all its children kept as they are.  The general build's position (its
    first and last child with one) and value, with fewer branches on what the rule is
    like taken at each reduction, and the children's values picked for a one- or
    two-child rule without a list made first."""
    Built = _Built
    count = len(slots)
    nones = any(i < 0 for i in slots)  # (a placeholder or a spliced `_rule`)
    one = count == 1 and not nones
    two = count == 2 and not nones
    a = slots[0] if one or two else None
    b = slots[1] if two else None
    pick = itemgetter(*slots) if count >= 2 and not nones else None

    def build(raw):
        node = Built()
        if first_term:
            first = raw[0]
        else:
            first = None
            for i in first_scan:
                c = raw[i]
                if c.__class__ is not Built or not c.empty:
                    first = c
                    break
        if first is None:
            node.empty = True
        else:
            if last_term:
                last = raw[-1]
            else:
                for i in last_scan:
                    last = raw[i]
                    if last.__class__ is not Built or not last.empty:
                        break
            node.empty = False
            node.line = first.line
            node.column = first.column
            node.end_line = last.end_line
            node.end_column = last.end_column
        if method is None:  # an inlined `_rule`: its children go to its parent
            if every:
                node.children = raw
            elif one:
                node.children = [raw[a]]
            elif pick is not None:
                node.children = list(pick(raw))
            else:
                children = []
                for i in slots:
                    children.append(raw[i] if i >= 0 else None)
                node.children = children
            node.value = None
        elif one:
            c = raw[a]
            node.value = method(node, [c.value if c.__class__ is Built else c])
        elif two:
            c = raw[a]
            d = raw[b]
            node.value = method(node, [c.value if c.__class__ is Built else c,
                                       d.value if d.__class__ is Built else d])
        else:
            values = []
            for i in slots:
                if i >= 0:
                    c = raw[i]
                    values.append(c.value if c.__class__ is Built else c)
                elif i == -1:
                    values.append(None)
                else:  # an inlined `_rule`'s children
                    for c in raw[-2 - i].children:
                        values.append(c.value if c.__class__ is Built else c)
            node.value = method(node, values)
        return node
    return build


def _token_callback(keep: bool, method, constant):
    """:func:`_callback`'s build for a rule of one token (``zone_name: "hand"``, ``owner:
    "your"``, ``_art: "a"``), the token kept as its child (``keep``) or left out: its
    position is the token's."""
    Built = _Built

    def build(raw):
        tok = raw[0]
        node = Built()
        node.empty = False
        node.line = tok.line
        node.column = tok.column
        node.end_line = tok.end_line
        node.end_column = tok.end_column
        if method is None:
            node.children = raw if keep else []
            node.value = None
        elif constant is not _NOT_CONSTANT:
            node.value = constant
        else:
            node.value = method(node, raw if keep else [])
        return node
    return build


def _list_callback(last_term: bool, plain_build):
    """:func:`_callback`'s build for a list rule that Lark inlines, one item longer
    (``__card_star: __card_star item``, ``__body_plus: __body_plus action _NL``): the
    list's node itself, the item appended to its children (which Lark's filter extends
    in place as well), its end moved to the new last child with a position; through
    ``plain_build`` (the general build) when the list has no position yet."""
    Built = _Built

    def build(raw):
        node = raw[0]
        if node.__class__ is not Built or node.empty:
            return plain_build(raw)
        item = raw[1]
        node.children.append(item)
        if last_term:
            last = raw[-1]
        elif item.__class__ is not Built or not item.empty:
            last = item
        else:
            return node
        node.end_line = last.end_line
        node.end_column = last.end_column
        return node
    return build


# ---------------------------------------------------------------------------- cards read before
# The cards read cleanly, most recently used last: the reader's words' number, the column of
# `card` and the card's text up to its `}`, as one string (_card_key) -> its AST (its card
# node, whose id is on the line it was read on), or (its AST, that line) when the node's
# position says otherwise.  The language server reads a file again on every edit; its
# unchanged cards come from here.  (A string key and the node alone: no object of the
# cache's own per card for the cyclic garbage collector to scan, where a key tuple and an
# (AST, line) tuple were two of the ≈ 36 a card read leaves.)
_CARDS: "OrderedDict[str, object]" = OrderedDict()
_CARDS_KEPT = 20_000  # a 10,000-card file twice over; an entry is a few KB
# the first line, after a card's `card`, that starts with `}` (its own `}` when it reads
# cleanly: every item of a card ends with a line end)
_CLOSE = re.compile(r"\n[\t \f]*\}")
_CARDS_LOCK = threading.Lock()  # the language server checks in a thread of its own


def _card_key(words_key: int, column: int, segment: str) -> str:
    """The cache's key of a card's text ``segment`` (from its ``card``) read in the words
    numbered ``words_key`` at ``column``: the two numbers, then the text."""
    return f"{words_key} {column} {segment}"


def _card_entry(node, line: int):
    """The cache's entry of card ``node`` read on ``line``: the node itself when its
    position is on that line."""
    pos = getattr(node, "pos", None)
    if pos is not None and pos.__class__ is ast.Pos and pos[0] == line:
        return node
    return (node, line)


# the reader's words (_Reader.words) met so far, each with a number of its own
_WORDS_KEYS: dict = {}


def forget_cards() -> None:
    """Empty the cache of cards read (a benchmark's cold reading, a test's fresh one)."""
    with _CARDS_LOCK:
        _CARDS.clear()


def _move(node, lines: int):
    """``node`` (a card, or any AST node) with every position ``lines`` lines further down."""
    if isinstance(node, ast.Pos):
        if node == ast.NOWHERE:
            return node
        return ast.Pos(node.line + lines, node.col, node.end_line + lines, node.end_col)
    if isinstance(node, tuple):
        return tuple(_move(n, lines) for n in node)
    fields = _FIELDS.get(type(node))
    if fields is None:
        fields = _FIELDS[type(node)] = (tuple(f.name for f in attrs.fields(type(node)))
                                        if attrs.has(type(node)) else ())
    if not fields:
        return node
    return attrs.evolve(node, **{name: _move(getattr(node, name), lines) for name in fields})


_FIELDS: dict = {}


class _CardParser:
    """Lark's LALR parser state machine (``ParserState.feed_token``) in a tighter loop, for
    the cards built while parsed: the same parse table, the same reductions, the same
    ``UnexpectedToken`` (token, expected terminals) on a token it cannot take, and
    ``choices()`` as Lark's interactive parser's.  The table is Lark's flattened
    (:func:`_flat_table`): a shift or a goto is the next state (an ``int``), a reduction
    the rule's (length, callback, name)."""

    __slots__ = ("rows", "end_state", "state_stack", "value_stack")

    def __init__(self, table):
        self.rows, start_state, self.end_state = table
        self.state_stack = [start_state]
        self.value_stack: list = []

    def choices(self) -> dict:
        return self.rows[self.state_stack[-1]]

    def feed_token(self, token: Token):
        state_stack, value_stack = self.state_stack, self.value_stack
        rows = self.rows
        kind = token.type
        while True:
            found = rows[state_stack[-1]].get(kind)
            if found.__class__ is int:  # shift
                state_stack.append(found)
                value_stack.append(token)
                return None
            if found is None:
                row = rows[state_stack[-1]]
                raise UnexpectedToken(token, {s for s in row.keys() if s.isupper()},
                                      state=self, interactive_parser=None)
            size, callback, name = found
            if size:
                children = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                children = []
            value = callback(children)
            state_stack.append(rows[state_stack[-1]][name])
            value_stack.append(value)
            if kind == "$END" and state_stack[-1] == self.end_state:
                return value

    def reduce_to(self, token: Token, rule: str):
        """Take the reductions :meth:`feed_token` takes on ``token`` up to the first of rule
        ``rule`` (the parser is not used after it): that rule's value.  When the parser
        reduces no such rule on ``token``: :meth:`feed_token`'s answer."""
        state_stack, value_stack = self.state_stack, self.value_stack
        rows = self.rows
        kind = token.type
        while True:
            found = rows[state_stack[-1]].get(kind)
            if found is None or found.__class__ is int:
                return self.feed_token(token)
            value = self.reduce(found)
            if found[2] == rule:
                return value
            state_stack.append(rows[state_stack[-1]][found[2]])
            value_stack.append(value)

    def reduce(self, found):
        """The value of the reduction ``found`` (length, callback, rule name), its children
        taken off the stacks (the goto is the caller's).  (:meth:`feed_token` does the same
        inline: it is the reader's inner loop.)"""
        size, callback, _ = found
        if size:
            value_stack = self.value_stack
            children = value_stack[-size:]
            del self.state_stack[-size:]
            del value_stack[-size:]
        else:
            children = []
        return callback(children)

    def feed_rule(self, lookahead: str, name: str, value) -> bool:
        """Take rule ``name`` read whole (``value``, a :class:`_Built`) where the parser
        would shift terminal ``lookahead``, the first of what the rule reads: reduce as
        :meth:`feed_token` does on seeing ``lookahead``, then go to the state the rule's
        own reduction would have led to (the state that shifts ``lookahead`` is the one
        the rule's reduction returns to).  False when the parser refuses ``lookahead`` here;
        the reductions it takes on ``lookahead`` are then done, so feeding the token itself
        raises the ``UnexpectedToken`` it would have raised (the same state, the same
        expected terminals)."""
        state_stack, value_stack = self.state_stack, self.value_stack
        rows = self.rows
        while True:
            row = rows[state_stack[-1]]
            found = row.get(lookahead)
            if found.__class__ is int:  # where it would shift: the rule instead
                goto = row.get(name)
                if goto is None:
                    return False
                state_stack.append(goto)
                value_stack.append(value)
                return True
            if found is None:
                return False
            reduced = self.reduce(found)
            state_stack.append(rows[state_stack[-1]][found[2]])
            value_stack.append(reduced)


def _flat_table(conf, reduce: dict):
    """Lark's parse table (``conf``) as (rows, start state, end state): ``rows[state]`` maps
    a terminal or rule name to the next state (shift, goto) or to ``reduce[rule]``."""
    rows = [None] * (max(conf.states) + 1)
    for state, row in conf.states.items():
        rows[state] = {kind: (arg if action is _SHIFT else reduce[arg])
                       for kind, (action, arg) in row.items()}
    return rows, conf.start_state, conf.end_state


# the builder and parse table of each thread (the language server reads in a thread of
# its own; a builder keeps what it found in the card being read)
_BUILDING = threading.local()


def _building(lark: Lark):
    """(builder, flat parse table, :func:`_header_states`) of the cards built while
    parsed, made once per thread
    (compiling the rules' callbacks takes tens of milliseconds)."""
    made = getattr(_BUILDING, "made", None)
    if made is not None and made[0] is lark:
        return made[1], made[2], made[3]
    conf = lark.parse_interactive().parser_state.parse_conf
    builder = _Builder()
    rules = list(conf.callbacks)  # the grammar's rules (no terminal has a callback)
    callbacks = builder.callbacks(rules)
    reduce = {rule: (len(rule.expansion), callbacks[rule], rule.origin.name) for rule in rules}
    table = _flat_table(conf, reduce)
    header = _header_states(table) if lark is _lark() else None
    _BUILDING.made = (lark, builder, table, header)
    return builder, table, header


def _header_states(table) -> Optional[dict]:
    """The parser's states after a card's header line (``card ID "NAME" [en "NAME"] {`` and
    its line end), with and without ``en``: {with en?: (state stack, token types)}, for
    the fast path (:meth:`_Reader.fast_header`).  None when reading a header reduces a
    rule (the states alone would then not say where the parser is): no fast path."""
    out = {}
    for with_en, sample in ((True, 'card X-1 "x" en "y" {\n'), (False, 'card X-1 "x" {\n')):
        tokens = list(_lark().lex(sample))
        parser = _CardParser(table)
        for tok in tokens:
            parser.feed_token(tok)
        if len(parser.value_stack) != len(tokens) or any(
                a is not b for a, b in zip(parser.value_stack, tokens)):
            return None
        out[with_en] = (tuple(parser.state_stack), tuple(t.type for t in tokens))
    return out


# ---------------------------------------------------------------------------- parsing
def parse(text: str, path: str = "<input>", vocabulary=None
          ) -> tuple[Optional[ast.CardSet], list[Diagnostic]]:
    """Parse a card set.  Returns (card set, syntax diagnostics).  ``vocabulary``: the
    words of the cards' game (its stats; default: World Gainer's).

    Every syntax error is reported, not only the first: after an error the reader skips
    the rest of that line and goes on with the next one (see :class:`_Reader`).  A card
    with an error is left out of the card set; the cards around it are read as usual.
    """
    with collector_paused():
        reader = _Reader(text, path, vocab_of.of(vocabulary), given=vocabulary is not None)
        reader.read()
    includes = tuple(n for n in reader.nodes if isinstance(n, ast.Include))
    game = next((n for n in reader.nodes if isinstance(n, ast.GameLine)), None)
    cards = tuple(n for n in reader.nodes if isinstance(n, ast.Card))
    return ast.CardSet(cards, path=path, includes=includes, game=game,
                       vocabulary=reader.vocabulary), reader.diagnostics


# What the parser has read just before a line of each kind.  After a syntax error inside a
# card, the next line is read as the continuation of one of these (the first that reads it
# without an error), so that one broken line does not make the lines after it errors too.
_CONTEXTS = {
    "body": 'card X-1 "x" {\ndimension:\ndraw 1\n',         # an action, a stat or an effect
    "static": 'card X-1 "x" {\nfield static:\nthis cannot be targeted\n',   # a static rule
    "activated": 'card X-1 "x" {\nfield activated:\n',     # a `cost:` line
    "after card": 'card X-1 "x" {\n}\n',                    # between cards
}


_str_new = str.__new__


def _new_token(kind: str, value: str, start_pos: int, line: int, column: int, end_line: int,
               end_column: int, end_pos: int) -> Token:
    """``Token(kind, value, start_pos, line, column, end_line, end_column, end_pos)``, the
    same token made without Lark's checks of its arguments (its constructor takes a
    third of a microsecond more: a class method and ``super()``)."""
    tok = _str_new(Token, value)
    tok.type = kind
    tok.start_pos = start_pos
    tok.value = value
    tok.line = line
    tok.column = column
    tok.end_line = end_line
    tok.end_column = end_column
    tok.end_pos = end_pos
    return tok


# Lark's tokens are strings with these fields (else: Lark's constructor, and its lexer)
_TOKEN_FIELDS = (getattr(Token, "__slots__", None) == ("type", "start_pos", "value", "line", "column",
                                                       "end_line", "end_column", "end_pos")
                 and Token.__mro__[1] is str)
if not _TOKEN_FIELDS:
    _new_token = getattr(Token, "_future_new", Token)  # noqa: F811


class _Lexer:
    """The card language's tokens, exactly as Lark's basic lexer gives them (types, values,
    positions), in a tighter loop: one compiled pattern, keywords by a dictionary lookup,
    lines counted only in the tokens that can hold a line end.  (Lark's lexer was a third
    of the reading time; its own is used whenever its tables are not of this plain shape,
    and for the rest of a text where no pattern matches, which it reports.)"""

    def __init__(self, lark: Lark):
        self.lark = lark
        basic = lark._build_lexer()
        scanner = basic.scanner
        self.ignore = basic.ignore_types
        self.newline = basic.newline_types
        callbacks = dict(basic.callback)
        self.keywords: Optional[dict] = None
        unless = callbacks.pop("WORD", None)
        if unless is not None and hasattr(unless, "scanner"):
            terms = unless.scanner.terminals
            if all(t.pattern.type == "str" and not t.pattern.flags for t in terms):
                self.keywords = {t.pattern.value: t.name for t in terms}
        # the plain shape: one pattern, no callback but the keywords' (else Lark's own)
        self.match = scanner._mres[0].match if len(scanner._mres) == 1 else None
        if callbacks or self.keywords is None or set(self.ignore) & set(basic.callback) \
                or not _TOKEN_FIELDS \
                or "WORD" in self.ignore or "WORD" in self.newline:  # (fill's words)
            self.match = None
        # one ignored terminal that holds no line end (blanks): the pattern skips a run of
        # it before a token itself, a match a token instead of one more for the blanks
        # before it (a run is one such token to Lark too, and no other terminal starts
        # with what it matches, so the tokens are the same)
        ignored = [t for t in basic.terminals if t.name in self.ignore]
        if self.match is not None and len(ignored) == 1 and not set(self.ignore) & set(self.newline):
            pattern = self.match.__self__
            self.match = re.compile(f"(?:{ignored[0].pattern.to_regexp()})?(?:{pattern.pattern})",
                                    pattern.flags).match

    def tokens(self, text: str) -> "_Tokens":
        """The tokens of ``text`` (:class:`_Tokens`)."""
        return _Tokens(self, text)


class _Tokens:
    """The tokens of one text, from :class:`_Lexer`, lexed a line at a time into
    :attr:`buffer` (:meth:`fill`); :meth:`seek` moves on to a later place (a card read from
    the cache is not lexed)."""

    def __init__(self, lexer: _Lexer, text: str):
        self.lexer = lexer
        self.text = text
        self.pos, self.line, self.line_start = 0, 1, 0
        # Lark's lexer's tokens: from the start when the lexer is not of the plain shape,
        # else once no pattern matched
        self.lark_tokens = None if lexer.match is not None else iter(lexer.lark.lex(text))
        # the tokens lexed and not yet read, the next one last
        self.buffer: list = []

    def __iter__(self):
        return self

    def __next__(self) -> Token:
        if not self.buffer:
            self.fill()
            if not self.buffer:
                raise StopIteration
        return self.buffer.pop()

    def seekable(self) -> bool:
        return self.lark_tokens is None

    def seek(self, pos: int, line: int, line_start: int) -> None:
        """Go on at ``pos``, the start of nothing but whole tokens, on ``line`` (which
        starts at ``line_start``); the tokens lexed before are dropped."""
        self.pos, self.line, self.line_start = pos, line, line_start
        self.buffer.clear()

    def fill(self) -> None:
        """Lex into the empty :attr:`buffer` the tokens up to the end of the line (its
        line end included), or a ``card`` alone when it comes first (its card may be
        read from the cache, unlexed), or the next token of Lark's lexer; nothing at the
        end of the text."""
        if self.lark_tokens is not None:
            tok = next(self.lark_tokens, None)
            if tok is not None:
                self.buffer.append(tok)
            return
        lexer, text = self.lexer, self.text
        match, ignore, newline, keywords = lexer.match, lexer.ignore, lexer.newline, lexer.keywords
        pos, line, line_start = self.pos, self.line, self.line_start
        end_of_text = len(text)
        str_new = _str_new
        out: list = []
        try:
            while pos < end_of_text:
                m = match(text, pos)
                if m is None:  # Lark's lexer, from the start, goes on here and reports it
                    if out:
                        break
                    self.lark_tokens = tokens = iter(lexer.lark.lex(text))
                    for tok in tokens:
                        if tok.start_pos >= pos:
                            out.append(tok)
                            break
                    break
                kind = m.lastgroup
                end = m.end()
                if kind == "WORD":  # (most tokens: a keyword or a word, on one line)
                    value = m.group(kind)
                    kind = keywords.get(value, kind)
                else:
                    if kind in ignore:
                        if kind in newline:
                            value = m.group()
                            if "\n" in value:
                                line += value.count("\n")
                                line_start = pos + value.rindex("\n") + 1
                        pos = end
                        continue
                    value = m.group(kind)
                    if kind in newline and "\n" in value:
                        pos = end - len(value)  # the token's start, after the blanks skipped
                        column = pos - line_start + 1
                        start_line = line
                        line += value.count("\n")
                        line_start = pos + value.rindex("\n") + 1
                        out.append(_new_token(kind, value, pos, start_line, column, line,
                                              end - line_start + 1, end))
                        pos = end
                        if kind == "_NL":
                            break
                        continue
                pos = end - len(value)  # the token's start, after the blanks skipped
                column = pos - line_start + 1
                tok = str_new(Token, value)  # (_new_token, without the call)
                tok.type = kind
                tok.start_pos = pos
                tok.value = value
                tok.line = line
                tok.column = column
                tok.end_line = line
                tok.end_column = column + end - pos
                tok.end_pos = end
                out.append(tok)
                pos = end
                if kind == "CARD" and len(out) == 1:  # (not `draw 1 card`)
                    break
        finally:
            self.pos, self.line, self.line_start = pos, line, line_start
            out.reverse()
            self.buffer.extend(out)


@lru_cache(maxsize=1)
def _lexer() -> _Lexer:
    return _Lexer(_lark())


@lru_cache(maxsize=None)
def _context_tokens(kind: str) -> tuple[Token, ...]:
    return tuple(_lark().lex(_CONTEXTS[kind]))


@lru_cache(maxsize=1)
def keywords() -> dict[str, str]:
    """The card language's keyword terminals and their words (``DRAW`` -> ``draw``)."""
    return keywords_of(_lark().terminals)


_keywords = keywords


# the words that start an effect header, and `static` in one
_HEADER_WORDS = frozenset({"DIMENSION", "FIELD", "IN", "STATIC", "WHEN", "ATTACHED"})
_STATIC_HEADERS = frozenset({"STATIC", "ATTACHED"})
# tokens inside a card that need more than being fed to the parser
_CARD_SPECIAL = frozenset({"CARD_ID", "BAD_CHAR", "CARD", "RBRACE", "$END", "MAY", "IF"})
# the tokens that end a run of a line's tokens fed straight from the lexer's buffer
# (_Reader.run_line): those but `card` (special only as a line's first), and a `{` (after
# which a stat may stand)
_RUN_STOP = (_CARD_SPECIAL - {"CARD"}) | {"LBRACE"}
# the terminals besides words and line ends that _Reader.lex_line makes as it feeds them
# (none of them holds a line break or is one of _RUN_STOP)
_LEX_SIMPLE = frozenset({"INT", "SIGNED", "STRING", "CMP", "COLON", "COMMA"})
# the actions that hold another action (`may draw 1`, `if you do: draw 1`), and how deep
# they may nest: the reader counts them (_Reader.too_deep), so that neither it nor the
# checker, which walks a card's actions recursively, meets Python's recursion limit
_NESTING = frozenset({"MAY", "IF"})
MAX_DEPTH = 100


def _end_token(text: str, last: Optional[Token]) -> Token:
    if last is None:
        return Token("$END", "", 0, 1, 1)
    return _new_token("$END", "", last.start_pos, last.line, last.column, last.end_line,
                      last.end_column, last.end_pos)  # (Token.new_borrow_pos)


_STAT_TERMINALS = {"word": "STAT_WORD", "number": "STAT_NUMBER", "flag": "STAT_FLAG"}
# the terminal of a stat line's first stat, by the group that matched last (_stat_pattern)
_FIRST_STAT = {2: "STAT_WORD", 4: "STAT_NUMBER", 5: "STAT_FLAG"}
_A_WORD = re.compile(r"[a-z][a-z_']*")

# ---------------------------------------------------------------------------- the fast path
# Half of a card's tokens are on its header line, its stat lines and its closing `}`.  The
# reader reads such a line whole with one pattern when it is plainly well formed, builds
# the nodes the parser would build (same values, same positions) and gives the parser the
# state it would have reached (_Reader.fast_header, fast_stats, fast_close); anything else
# (an error, a comment inside the line, unusual spacing, a number too long) is left to the
# tokens, so the diagnostics are the plain path's.  The other lines' tokens after their
# first are fed to the parser in one loop straight from the lexer's buffer
# (_Reader.run_line), up to a token that needs more.  tests/test_reader_fast_path.py reads
# texts both ways.  False: every line token by token, each through _Reader.next.
_FAST_LINES = True
_BLANKS = r"[ \t\f]"  # the grammar's WS_INLINE, ignored between tokens
# the grammar's _NL (line ends, each with the next line's indentation, and comments)
_LINE_END_TEXT = r"(?:\r?\n[\t ]*|#[^\n]*)+"
# after `card`: `ID "NAME" [en "NAME"] {` and the line end (the grammar's CARD_ID, STRING)
_HEADER = re.compile(
    rf'{_BLANKS}*([A-Z][A-Z0-9]*-[A-Z0-9]+){_BLANKS}*("[^"\n]*")'
    rf'(?:{_BLANKS}*(en){_BLANKS}*("[^"\n]*"))?{_BLANKS}*(\{{){_BLANKS}*({_LINE_END_TEXT})')
_LINE_END = re.compile(rf"{_BLANKS}*({_LINE_END_TEXT})")
# a card's `card` after what may stand between cards (blanks, one line end): _Reader.next_card
# (the line end an atomic group, as long as the lexer's _NL: no `card` inside a comment)
_NEXT_CARD = re.compile(rf"{_BLANKS}*((?>{_LINE_END_TEXT}))?{_BLANKS}*card(?![a-z_'])")


@lru_cache(maxsize=16)
def _stat_pattern(stats: tuple):
    """The ``match`` of one stat of a stat line in the words ``stats`` ((name, terminal)
    pairs): group 1 and 2 a word stat and its value (a word, whatever it spells), 3 and 4
    a number stat and its digits, 5 a flag; a blank or a line end after it.  Only names
    that the lexer reads as one word take part (else their lines take the tokens' path).
    None when the game has no such stat."""
    names: dict = {"STAT_WORD": [], "STAT_NUMBER": [], "STAT_FLAG": []}
    for name, terminal in stats:
        if _A_WORD.fullmatch(name):
            names[terminal].append(re.escape(name))
    if not any(names.values()):
        return None
    never = "(?!)"  # a kind the game has no stat of

    def alt(kind):
        return "|".join(names[kind]) or never
    return re.compile(
        rf"{_BLANKS}*(?:({alt('STAT_WORD')}){_BLANKS}+([a-z][a-z_']*)"
        rf"|({alt('STAT_NUMBER')}){_BLANKS}+([0-9]+)"
        rf"|({alt('STAT_FLAG')}))(?=[ \t\f\r\n#])").match


class _Reader:
    """Reads a card set token by token, each card (and each ``include``) with a parser
    of its own, and goes on after every syntax error.

    - Outside a card, an error skips to the next line that starts a card.
    - Inside a card, an error skips the rest of its line; the next line is read as a
      continuation of the card (:data:`_CONTEXTS`) and so is every line after it, until
      the card's ``}``, or until a line that starts with ``card`` (the open card is then
      reported as not closed).
    - A character that no word starts with (``@``, a capital letter outside an id) is
      reported like a syntax error on its line.

    At most one error is reported per line, and every token is read a bounded number
    of times, so the time taken grows with the length of the text, however many errors
    it holds.
    """

    def __init__(self, text: str, path: str, vocabulary, given: bool = False,
                 fast: Optional[bool] = None):
        self.text = text
        # read header lines, stat lines and `}` lines whole (fast_header, ...)
        self.fast = _FAST_LINES if fast is None else fast
        self.header = None  # _header_states
        self.path = path
        self.lark = _lark()
        self.keywords = _keywords()
        self.given = given  # the caller said which game's words (a `game` line must agree)
        self.use(vocabulary)
        self.seen_include = False
        self.in_card = False
        self.stat_may_follow = False  # a stat may stand at the next token
        self.stat_value: Optional[str] = None  # the next token is a stat's value
        self.ahead: Optional[Token] = None  # a token peeked at, not yet read
        self.stream = _lexer().tokens(text)
        self.buffer = self.stream.buffer  # its tokens lexed, not yet read
        self.pushed: list[tuple[Token, bool]] = []
        self.at_line_start = True
        self.last: Optional[Token] = None
        self.nodes: list = []
        self.diagnostics: list[Diagnostic] = []
        self.seen_card = False
        self.static = False  # the last effect header read is a `static` one
        self.builder: Optional[_Builder] = None  # builds cards while they are parsed
        self.building = None

    # ---- tokens
    def next(self) -> tuple[Token, bool]:
        """The next token and whether it is the first one on its line; ``$END`` at the end."""
        if self.pushed:
            return self.pushed.pop()
        tok = self.ahead
        if tok is not None:
            self.ahead = None
        else:
            buffer = self.buffer
            if not buffer:
                self.stream.fill()
                if not buffer:
                    return _end_token(self.text, self.last), False
            tok = buffer.pop()
        first = self.at_line_start
        if self.in_card:
            if self.stat_value is None and not first and not self.stat_may_follow:
                if tok.type == "LBRACE":  # (stat_token's common case, without the call)
                    self.stat_may_follow = True
            else:
                tok = self.stat_token(tok, first)
        kind = tok.type
        self.at_line_start = kind == "_NL"
        if kind in _HEADER_WORDS:
            self.static = kind in _STATIC_HEADERS or (self.static and not first)
        self.last = tok
        return tok, first

    def use(self, vocabulary) -> None:
        """Read the cards in ``vocabulary``'s words (its stats' names on stat lines, its
        zones where a zone may stand)."""
        self.vocabulary = vocabulary
        # the zones that are not keywords already (World Gainer's all are)
        keywords = frozenset(self.keywords.values())
        self.zones = frozenset(vocabulary.zones) - keywords
        # the game's words that are not keywords: word -> the terminals it may be read as,
        # in this order where the parser takes several (World Gainer has none)
        game_words: dict = {}
        values = ([v for stat, vs in vocabulary.values.items() if stat != vocabulary.noun_stat
                   for v in vs] if "values" in vocabulary.uses else [])
        for terminal, words in (("NOUN_WORD", vocabulary.nouns), ("STATE_WORD", vocabulary.states),
                                ("VALUE_WORD", values), ("ZONE_WORD", self.zones)):
            for word in words:
                if word not in keywords:
                    game_words.setdefault(word, []).append(terminal)
        self.own_words = {w: tuple(t) for w, t in game_words.items()}
        # the game's stats: name -> the terminal its name is read as on a stat line
        self.stats = {name: _STAT_TERMINALS[how] for name, how in vocabulary.stats.items()}
        self.stat_names = tuple(vocabulary.stats)
        # what reading a card depends on besides its text (the cache's key)
        self.words = (tuple(sorted(self.own_words.items())), tuple(sorted(self.stats.items())))
        # the same as a number, for the cache's keys (hashed twice a card: a number's hash is
        # itself, the words' are a walk of their tuples)
        with _CARDS_LOCK:
            self.words_key = _WORDS_KEYS.setdefault(self.words, len(_WORDS_KEYS))
        self.one_stat = _stat_pattern(self.words[1])

    def raw_next(self) -> Optional[Token]:
        """The lexer's next token (the one peeked at, if any)."""
        if self.ahead is not None:
            tok, self.ahead = self.ahead, None
            return tok
        buffer = self.buffer
        if not buffer:
            self.stream.fill()
            if not buffer:
                return None
        return buffer.pop()

    def peek_colon(self) -> bool:
        """Is the lexer's next token a ``:``?  (``cost:`` starts an activated effect's cost
        line, not the stat ``cost``.)"""
        if self.ahead is None:
            self.ahead = self.raw_next()
        return self.ahead is not None and self.ahead.type == "COLON"

    def stat_token(self, tok: Token, first: bool) -> Token:
        """``tok`` as the grammar's stat terminals read it: a stat's name where a stat may
        stand (a line's start, after ``{``, after another stat) becomes ``STAT_WORD``,
        ``STAT_NUMBER`` or ``STAT_FLAG`` by the game's vocabulary; a word stat's value is a
        ``WORD`` even when it is spelt like a keyword."""
        value = self.stat_value
        if value is not None:
            self.stat_value = None
            self.stat_may_follow = True
            if value == "STAT_WORD" and tok.type != "WORD" and _A_WORD.fullmatch(tok.value):
                tok.type = "WORD"  # (the lexer's token, read by nothing else yet)
            return tok
        may = first or self.stat_may_follow
        self.stat_may_follow = tok.type == "LBRACE"
        if may:
            terminal = self.stats.get(tok.value)
            if terminal is not None and not self.peek_colon():
                if terminal == "STAT_FLAG":
                    self.stat_may_follow = True
                else:
                    self.stat_value = terminal
                tok.type = terminal
                return tok
        return tok

    def game_word(self, parser, tok: Token) -> Token:
        """``tok`` as the parser should read it: a word naming one of the game's nouns,
        card states, stat words or zones, where one may stand, is a ``NOUN_WORD``,
        ``STATE_WORD``, ``VALUE_WORD`` or ``ZONE_WORD``."""
        if tok.type == "WORD":
            terminals = self.own_words.get(tok.value)
            if terminals:
                choices = parser.choices()
                for terminal in terminals:
                    if terminal in choices:
                        return Token.new_borrow_pos(terminal, tok.value, tok)
        return tok

    # ---- the fast path (_FAST_LINES)
    def fast_header(self, parser: "_CardParser", card: Token) -> bool:
        """Read the rest of a card's header line whole (``card`` just read, the lexer right
        after it): ``ID "NAME" [en "NAME"] {`` and its line end, its tokens made and given
        to ``parser`` as the states they lead to (:func:`_header_states`).  False, nothing
        read, when the line is not plainly of that shape."""
        stream = self.stream
        header = self.header
        if (header is None or self.buffer or self.pushed or self.ahead is not None
                or stream.pos != card.end_pos):
            return False
        m = _HEADER.match(self.text, card.end_pos)
        if m is None:
            return False
        end_value = m.group(6)
        if "\n" not in end_value:  # a comment that ends the text
            return False
        states, kinds = header[m.group(3) is not None]
        line, line_start = stream.line, stream.line_start
        tokens = [card]
        groups = (1, 2, 3, 4, 5) if len(kinds) == 7 else (1, 2, 5)
        for kind, group in zip(kinds[1:], groups):
            start, end = m.span(group)
            tokens.append(_new_token(kind, m.group(group), start, line, start - line_start + 1,
                                     line, end - line_start + 1, end))
        end_tok = self.line_end(m, 6, line, line_start)
        tokens.append(end_tok)
        parser.state_stack[:] = states
        parser.value_stack[:] = tokens
        self.line_read(end_tok)
        return True

    def line_end(self, m, group: int, line: int, line_start: int) -> Token:
        """The ``_NL`` token of group ``group`` of match ``m`` on ``line``, as the lexer
        makes it."""
        start, end = m.span(group)
        value = m.group(group)
        end_line = line + value.count("\n")
        next_start = start + value.rindex("\n") + 1
        return _new_token("_NL", value, start, line, start - line_start + 1, end_line,
                          end - next_start + 1, end)

    def line_read(self, end: Token) -> None:
        """The reader after the line end ``end`` was read (the lexer moved past it)."""
        self.stream.seek(end.end_pos, end.end_line, end.end_pos - end.end_column + 1)
        self.last = end
        self.at_line_start = True
        self.stat_may_follow = False
        self.stat_value = None

    def fast_stats(self, parser: "_CardParser", m) -> bool:
        """Read the stat line at the lexer's place whole (``color blue  cost 1  unique``
        and its line end; ``m``: :attr:`one_stat`'s match of its first stat there): its
        ``Stat`` nodes built as the parser's rules build them, given to ``parser`` as the
        rule ``stats`` read whole (:meth:`_CardParser.feed_rule`).  False, nothing read,
        when the line is not plainly a stat line, holds a number too long to read, or the
        parser does not take a stat here."""
        one = self.one_stat
        text = self.text
        stream = self.stream
        line, line_start = stream.line, stream.line_start
        Stat = ast.Stat
        stats = []
        lookahead = _FIRST_STAT[m.lastindex]
        first_col = m.start(m.lastindex - 1 if m.lastindex != 5 else 5) - line_start + 1
        while True:
            kind = m.lastindex
            if kind == 5:  # a flag
                start, end = m.span(5)
                where = _new_pos(_Pos, (line, start - line_start + 1, line, end - line_start + 1))
                stats.append(Stat(m.group(5), True, pos=where, value_pos=where))
            else:
                start = m.start(kind - 1)
                value_start, end = m.span(kind)
                value = m.group(kind)
                if kind == 4:
                    digits = value.lstrip("0")
                    if len(digits) > ast.MAX_DIGITS:
                        return False  # reported where the parser reads it
                    value = int(digits or "0")
                stats.append(Stat(m.group(kind - 1), value,
                                  pos=_new_pos(_Pos, (line, start - line_start + 1, line,
                                                      end - line_start + 1)),
                                  value_pos=_new_pos(_Pos, (line, value_start - line_start + 1,
                                                            line, end - line_start + 1))))
            # another stat, else the line's end (no stat starts as a line end does)
            m = one(text, end)
            if m is None:
                end_match = _LINE_END.match(text, end)
                if end_match is None:
                    return False
                break
        if "\n" not in end_match.group(1):
            return False
        end_tok = self.line_end(end_match, 1, line, line_start)
        node = _Built()
        node.empty = False
        node.line, node.column = line, first_col
        node.end_line, node.end_column = end_tok.end_line, end_tok.end_column
        node.value = tuple(stats)
        if not parser.feed_rule(lookahead, "stats", node):
            return False
        self.line_read(end_tok)
        return True

    def run_line(self, parser: "_CardParser"):
        """Feed ``parser`` the rest of the line being read, as far as it is lexed already
        (in :attr:`buffer`): the tokens that need no more than being fed (not
        :data:`_RUN_STOP`'s), straight from the buffer, as :meth:`next` and
        :meth:`_CardParser.feed_token` would, in one loop.  Only where no stat may stand
        but at a line's start (where :meth:`next` leaves such a token as it is), and
        there only when the first token names no stat and starts no card.
        Returns True when the line end was fed, None when it stopped before a token left
        to :meth:`next` (or at the end of the buffer), else (the token's type, the
        ``UnexpectedToken``): the parser refused the token (the reader's :attr:`last`)."""
        buffer = self.buffer
        rows, state_stack, value_stack = parser.rows, parser.state_stack, parser.value_stack
        own_words = self.own_words
        at_start = self.at_line_start
        last = None
        try:
            while buffer:
                tok = buffer.pop()
                kind = tok.type
                if kind in _RUN_STOP:
                    buffer.append(tok)  # left to next()
                    return None
                if at_start:  # the line's first token: not a card's start, nor a stat's name
                    if kind == "CARD" or tok.value in self.stats:
                        buffer.append(tok)
                        return None
                    if kind in _HEADER_WORDS:  # (the first on its line: `static` is its own)
                        self.static = False
                    at_start = False
                last = tok
                if kind in _HEADER_WORDS:
                    self.static = self.static or kind in _STATIC_HEADERS
                if own_words and kind == "WORD":
                    tok = self.game_word(parser, tok)
                    kind = tok.type
                found = rows[state_stack[-1]].get(kind)
                # (_CardParser.feed_token inline: the reductions on `tok`, then its shift;
                # no _RUN_STOP token is `$END`, so none ends the parse)
                while found.__class__ is not int:
                    if found is None:
                        parser.feed_token(tok)  # raises its UnexpectedToken
                    size, callback, name = found
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    value_stack.append(callback(children))
                    state = rows[state_stack[-1]][name]
                    state_stack.append(state)
                    found = rows[state].get(kind)
                state_stack.append(found)
                value_stack.append(tok)
                if kind == "_NL":
                    return True
            return None
        except UnexpectedToken as err:
            return last.type, err
        finally:
            if last is not None:
                self.last = last
                self.at_line_start = last.type == "_NL"

    def lex_line(self, parser: "_CardParser"):
        """:meth:`run_line` from a line's first token, lexed as it is fed: each token made
        as :meth:`_Tokens.fill` makes it and fed as :meth:`run_line` feeds it, in one loop
        (no buffer between the lexer and the parser).  Only with nothing lexed ahead (an
        empty buffer, nothing pushed or peeked at) and the lexer of the plain shape.  It
        stops before a token that is not a word, a number, a string, ``:``, ``,``, a
        comparison or a line end holding a line break, before one of :data:`_RUN_STOP`,
        and before a line's first token that names a stat or starts a card: that token and
        the rest of the line are then lexed and read as before (:meth:`next`, which fills
        the buffer from there).  Returns what :meth:`run_line` returns."""
        stream = self.stream
        if self.buffer or self.pushed or self.ahead is not None or stream.lark_tokens is not None:
            return None
        lexer = stream.lexer
        match, keywords = lexer.match, lexer.keywords
        text = self.text
        pos, line, line_start = stream.pos, stream.line, stream.line_start
        rows, state_stack, value_stack = parser.rows, parser.state_stack, parser.value_stack
        own_words = self.own_words
        at_start = self.at_line_start
        simple = _LEX_SIMPLE
        run_stop = _RUN_STOP
        header_words = _HEADER_WORDS
        str_new = _str_new
        last = None
        try:
            while True:
                m = match(text, pos)
                if m is None:
                    return None
                kind = m.lastgroup
                end = m.end()
                if kind == "WORD":
                    value = m.group(kind)
                    kind = keywords.get(value, kind)
                    if kind in run_stop:
                        return None
                elif kind in simple:
                    value = m.group(kind)
                elif kind == "_NL":
                    value = m.group(kind)
                    if "\n" not in value or at_start:  # (a comment that ends the text)
                        return None
                    start = end - len(value)  # the token's start, after the blanks skipped
                    tok = _new_token(kind, value, start, line, start - line_start + 1,
                                     line + value.count("\n"),
                                     end - (start + value.rindex("\n") + 1) + 1, end)
                    line = tok.end_line
                    line_start = start + value.rindex("\n") + 1
                else:
                    return None
                if kind != "_NL":
                    if at_start:  # the line's first token: not a card's start, nor a stat's name
                        if kind == "CARD" or value in self.stats:
                            return None
                        if kind in header_words:  # (the first on its line: `static` is its own)
                            self.static = False
                        at_start = False
                    start = end - len(value)  # the token's start, after the blanks skipped
                    column = start - line_start + 1
                    tok = str_new(Token, value)  # (_new_token, without the call)
                    tok.type = kind
                    tok.start_pos = start
                    tok.value = value
                    tok.line = line
                    tok.column = column
                    tok.end_line = line
                    tok.end_column = column + end - start
                    tok.end_pos = end
                pos = end
                last = tok
                if kind in header_words:
                    self.static = self.static or kind in _STATIC_HEADERS
                if own_words and kind == "WORD":
                    tok = self.game_word(parser, tok)
                    kind = tok.type
                found = rows[state_stack[-1]].get(kind)
                # (_CardParser.feed_token inline, as in run_line)
                while found.__class__ is not int:
                    if found is None:
                        parser.feed_token(tok)  # raises its UnexpectedToken
                    size, callback, name = found
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    value_stack.append(callback(children))
                    state = rows[state_stack[-1]][name]
                    state_stack.append(state)
                    found = rows[state].get(kind)
                state_stack.append(found)
                value_stack.append(tok)
                if kind == "_NL":
                    return True
        except UnexpectedToken as err:
            return last.type, err
        finally:
            stream.pos, stream.line, stream.line_start = pos, line, line_start
            if last is not None:
                self.last = last
                self.at_line_start = last.type == "_NL"

    def fast_close(self) -> Optional[Token]:
        """The ``}`` at the lexer's place (a line's start), read as :meth:`next` reads it;
        None when there is none."""
        stream = self.stream
        pos = stream.pos
        if not self.text.startswith("}", pos):
            return None
        line, line_start = stream.line, stream.line_start
        column = pos - line_start + 1
        tok = _new_token("RBRACE", "}", pos, line, column, line, column + 1, pos + 1)
        stream.seek(pos + 1, line, line_start)
        self.last = tok
        self.at_line_start = False
        self.stat_may_follow = False
        self.stat_value = None
        return tok

    def push(self, tok: Token, first: bool) -> None:
        self.pushed.append((tok, first))

    def skip_line(self) -> bool:
        """Skip to the end of the line (its line end read).  True when a ``}`` was among
        the skipped tokens: it closes the card.  Stops before the end of the text."""
        while True:
            tok, first = self.next()
            if tok.type == "$END":
                self.push(tok, first)
                return False
            if tok.type == "_NL":
                return False
            if tok.type == "RBRACE":
                return True

    # ---- diagnostics
    def report(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def syntax_error(self, err: UnexpectedInput, open_card: Optional[str] = None) -> None:
        self.report(syntax_diagnostic(self.path, self.text, err, self.keywords, open_card,
                                      self.stat_names, ("card", *self.vocabulary.nouns),
                                      self.vocabulary.game))

    def bad_character(self, tok: Token) -> None:
        self.report(bad_character(self.path, self.text, tok.start_pos, tok.line, tok.column,
                                  set(self.keywords.values()) | set(self.stat_names)))

    def error_in(self, kind: Optional[str], tok: Token, open_card: Optional[str] = None) -> None:
        """Report ``tok`` where the parser of context ``kind`` (None: a file's start) refuses it."""
        try:
            self.context(kind).feed_token(tok)
        except UnexpectedToken as err:
            self.syntax_error(err, open_card)

    def context(self, kind: Optional[str]):
        """A parser that has just read what context ``kind`` stands for."""
        parser = self.lark.parse_interactive()
        if kind is not None:
            for tok in _context_tokens(kind):
                parser.feed_token(tok)
        return parser

    # ---- the set
    def read(self) -> None:
        while True:
            if self.fast and not self.buffer and not self.pushed and self.ahead is None \
                    and self.stream.lark_tokens is None:
                card = self.next_card()
                if card is not None:
                    self.read_card(card)
                    continue
            tok, first = self.next()
            kind = tok.type
            if kind == "_NL":
                continue
            if kind == "$END":
                return
            if kind == "CARD":
                self.read_card(tok)
                continue
            if kind == "GAME" and not self.seen_card and not self.seen_include \
                    and self.nodes == []:
                self.read_include(tok)
                if self.nodes and isinstance(self.nodes[-1], ast.GameLine):
                    self.game_line_words(self.nodes[-1])
                continue
            if kind == "GAME":
                self.report(Diagnostic(self.path, ast.Pos(tok.line, tok.column, tok.line, tok.end_column),
                                       "the `game` line comes first in a card file, once",
                                       "move it to the top of the file, before the includes"))
                self.skip_line()
                continue
            if kind == "INCLUDE" and not self.seen_card:
                self.seen_include = True
                self.read_include(tok)
                continue
            if kind == "INCLUDE":
                self.report(Diagnostic(self.path, ast.Pos(tok.line, tok.column, tok.line, tok.end_column),
                                       "`include` lines come before the first card",
                                       "move this line to the top of the file"))
            elif kind == "BAD_CHAR":
                self.bad_character(tok)
            else:
                self.error_in("after card" if self.seen_card else None, tok)
            self.skip_to_card()

    def next_card(self) -> Optional[Token]:
        """The ``card`` that starts the next card, when nothing but blanks, line ends and
        comments (one ``_NL``, as the lexer reads them) stand before it: its token, made as
        the lexer makes it, with the lexer moved past it (:meth:`next` would give the
        ``_NL``, which :meth:`read` skips, then it).  None, nothing read, otherwise."""
        stream = self.stream
        m = _NEXT_CARD.match(self.text, stream.pos)
        if m is None:
            return None
        line, line_start = stream.line, stream.line_start
        nl = m.group(1)
        if nl is not None:
            breaks = nl.count("\n")
            if not breaks:  # (a comment alone is no line end before a card)
                return None
            line += breaks
            line_start = m.start(1) + nl.rindex("\n") + 1
        end = m.end()
        start = end - 4
        column = start - line_start + 1
        tok = _new_token("CARD", "card", start, line, column, line, column + 4, end)
        stream.pos, stream.line, stream.line_start = end, line, line_start
        self.last = tok
        self.at_line_start = False
        return tok

    def skip_to_card(self) -> None:
        """Skip to the next line that starts a card (or, before the first card, an include)."""
        while True:
            tok, first = self.next()
            if tok.type == "$END" or (first and (tok.type == "CARD" or (
                    tok.type == "INCLUDE" and not self.seen_card))):
                self.push(tok, first)
                return

    def read_include(self, include: Token) -> None:
        parser = self.lark.parse_interactive()
        parser.feed_token(include)
        while True:
            tok, first = self.next()
            if tok.type == "BAD_CHAR":
                self.bad_character(tok)
                self.skip_line()
                return
            try:
                parser.feed_token(tok)
            except UnexpectedToken as err:
                self.syntax_error(err)
                if tok.type == "$END":
                    self.push(tok, first)
                elif tok.type != "_NL":
                    self.skip_line()
                return
            if tok.type == "_NL":
                self.nodes.extend(self.transform(parser.feed_token(_end_token(self.text, tok))))
                return

    def game_line_words(self, line: ast.GameLine) -> None:
        """``game "NAME"``: read the cards in that game's words (its game file's)."""
        found, problem = vocab_of.for_game(line.name, self.path)
        if problem is not None:
            self.report(Diagnostic(self.path, line.pos, *problem))
            return
        if self.given and found.game != self.vocabulary.game:
            self.report(Diagnostic(
                self.path, line.pos, f"these cards are for `{found.game}`, not "
                f"`{self.vocabulary.game}`", f"they are read here as {self.vocabulary.game}'s "
                f"cards: write `game \"{self.vocabulary.game}\"`, or play them in their game"))
            return
        self.use(found)

    # ---- a card
    def read_card(self, card: Token) -> None:
        self.in_card = True
        try:
            key = self.cached_card(card)
            if key is None:
                return
            known = len(self.diagnostics), len(self.nodes)
            self._read_card(card)
            self.keep_card(card, key, known)
        finally:
            self.in_card = False
            self.stat_may_follow = False
            self.stat_value = None

    def _read_card(self, card: Token) -> None:
        self.seen_card = True
        parser = self.building_parser()
        card_id: Optional[str] = None
        # the fast path's lines (fast_header, fast_stats, fast_close) where the lexer's
        # place can be moved on; each falls back to the tokens when unsure
        fast = self.fast and self.stream.lark_tokens is None
        if fast and self.fast_header(parser, card):
            card_id = str(parser.value_stack[1])
            at_line = True  # at a line's start: a stat line or the `}` may be read whole
        else:
            parser.feed_token(card)
            at_line = False
        broken = False
        self.static = False
        text, stream = self.text, self.stream
        # a stat line is looked for (read whole) until an effect's line was read in a run
        # (a card's stats come first; one written later is read as tokens)
        one_stat = self.one_stat
        while True:
            tok = None
            if at_line:
                at_line = False
                if not self.buffer and not self.pushed and self.ahead is None:
                    # a stat line, the closing `}`, or a line of tokens
                    m = one_stat(text, stream.pos) if one_stat is not None else None
                    if m is not None and self.fast_stats(parser, m):
                        at_line = True
                        continue
                    if text.startswith("}", stream.pos):
                        tok = self.fast_close()
                    if tok is None and self.stat_value is None and not self.stat_may_follow:
                        ran = self.lex_line(parser)  # the line, from its first token
                        if ran is True:
                            at_line = True
                            one_stat = None
                            continue
                        if ran is not None:
                            broken = True
                            parser = self.refused(*ran, card_id)
                            if parser is None:
                                return
                            continue
            if tok is None:
                tok, first = self.next()
            else:
                first = True
            kind = tok.type
            if kind not in _CARD_SPECIAL:  # most tokens: just read
                if kind == "WORD" and self.own_words:
                    tok = self.game_word(parser, tok)
                try:
                    parser.feed_token(tok)
                except UnexpectedToken as err:
                    error = err
                else:
                    if kind == "_NL":
                        at_line = fast and not broken
                        continue
                    if not (fast and self.stat_value is None and not self.stat_may_follow
                            and not self.pushed and self.ahead is None
                            and parser.__class__ is _CardParser):
                        continue
                    ran = self.run_line(parser)  # the rest of the line
                    if ran is True:
                        at_line = not broken
                        one_stat = None
                    elif ran is not None:
                        broken = True
                        parser = self.refused(*ran, card_id)
                        if parser is None:
                            return
                    continue
            elif kind == "BAD_CHAR":
                self.bad_character(tok)
                broken = True
                if self.skip_line():
                    return
                parser = self.recover(card_id)
                if parser is None:
                    return
                continue
            elif kind == "CARD" and first:
                # a new card starts while this one is open (no line inside a card starts
                # with `card`): this one is not closed
                try:
                    parser.feed_token(tok)
                except UnexpectedToken as err:
                    self.syntax_error(err, card_id)
                self.push(tok, first)
                return
            else:
                if kind == "CARD_ID" and card_id is None:
                    card_id = str(tok)
                try:
                    parser.feed_token(tok)
                    if kind == "RBRACE":
                        if not broken:
                            self.built_card(parser.reduce_to(_end_token(self.text, tok), "card"),
                                            card)
                        return
                    if kind in _NESTING and self.too_deep(parser, tok):
                        broken = True  # the rest of its line is not read
                        if self.skip_line():
                            return
                        parser = self.recover(card_id)
                        if parser is None:
                            return
                    continue
                except UnexpectedToken as err:
                    error = err
            # a syntax error at `tok`
            broken = True
            if kind == "$END":
                self.syntax_error(error, card_id)
                self.push(tok, first)
                return
            parser = self.refused(kind, error, card_id)
            if parser is None:
                return

    def refused(self, kind: str, error: UnexpectedToken, card_id: Optional[str]):
        """The parser refused a token of type ``kind`` (not the text's end) inside the card
        ``card_id``: the error reported, and the rest of its line skipped; a parser to read
        the rest of the card with (:meth:`recover`), or None when the card ended (at its
        ``}``, even a misplaced one)."""
        self.syntax_error(error, card_id)
        if kind == "RBRACE" or (kind != "_NL" and self.skip_line()):
            return None
        return self.recover(card_id)

    def too_deep(self, parser, tok: Token) -> bool:
        """Is ``tok`` (a ``may`` or ``if`` just read) nested deeper than :data:`MAX_DEPTH`
        in the action it is part of?  Reported if so.  Its depth is the number of ``may``
        and ``if`` the parser holds unfinished (itself included): an action is one line, so
        they are the actions ``tok`` is inside."""
        stack = parser.value_stack if parser.__class__ is _CardParser \
            else parser.parser_state.value_stack
        depth = 0
        for value in stack:
            if value.__class__ is Token and value.type in _NESTING:
                depth += 1
        if depth <= MAX_DEPTH:
            return False
        self.report(Diagnostic(
            self.path, _tpos(tok), "this card is nested too deeply to read",
            f"`may` and `if` nest at most {MAX_DEPTH} deep (an action inside one can be "
            f"another); this `{tok}` is {depth} deep: split the effect or nest less"))
        return True

    def recover(self, card_id: Optional[str]):
        """After a syntax error inside a card: a parser to read the rest of the card with,
        or None when the card ended (its ``}``, the next card, the end of the text).

        Each line is tried as the continuation of every context in :data:`_CONTEXTS`; the
        first that reads it whole goes on reading.  A line that no context reads is
        reported where the context that got furthest into it failed."""
        while True:
            order = ("static", "body", "activated") if self.static else ("body", "static", "activated")
            tok, first = self.next()
            kind = tok.type
            if kind == "_NL":
                continue
            if kind == "RBRACE":
                return None
            if kind == "$END" or (kind == "CARD" and first):
                self.error_in("body", tok, card_id)  # the file ends / the next card starts
                self.push(tok, first)
                return None
            if kind == "BAD_CHAR":
                self.bad_character(tok)
                if self.skip_line():
                    return None
                continue
            line = [tok]
            while line[-1].type not in ("_NL", "RBRACE"):
                nxt, nfirst = self.next()
                if nxt.type in ("$END", "BAD_CHAR"):
                    self.push(nxt, nfirst)
                    break
                line.append(nxt)
            best: Optional[tuple[int, UnexpectedToken]] = None
            for context in order:
                parser = self.context(context)
                for i, t in enumerate(line):
                    try:
                        parser.feed_token(self.game_word(parser, t) if self.own_words else t)
                    except UnexpectedToken as err:
                        if best is None or i > best[0]:
                            best = (i, err)
                        break
                else:  # the whole line reads in this context
                    return None if line[-1].type == "RBRACE" else parser
            self.syntax_error(best[1], card_id)
            if line[-1].type == "RBRACE":
                return None
            if line[-1].type != "_NL":  # cut short by a bad character: the line's one error is told
                tok, first = self.next()
                if tok.type == "BAD_CHAR" and self.skip_line():
                    return None
                if tok.type != "BAD_CHAR":
                    self.push(tok, first)

    # ---- cards read before (the language server's re-checks)
    def cached_card(self, card: Token) -> Optional[str]:
        """Read the card ``card`` starts from the cache when its text (up to the first line
        that starts with ``}``), its column and the game's words are those of a card read
        cleanly before: its AST, moved to its line, and the lexer moved past its ``}``.
        None when it was; else the key to keep it under (:meth:`keep_card`), "" when it
        cannot be kept."""
        if not self.stream.seekable() or self.pushed or self.ahead is not None:
            return ""
        close = _CLOSE.search(self.text, card.end_pos)
        if close is None:
            return ""
        segment = self.text[card.start_pos:close.end()]
        key = _card_key(self.words_key, card.column, segment)
        with _CARDS_LOCK:
            hit = _CARDS.get(key)
            if hit is None:
                return key
            _CARDS.move_to_end(key)
        if hit.__class__ is tuple:
            node, line = hit
        else:
            node, line = hit, hit.pos.line
        if card.line != line:  # the card moved: kept where it is now (the checker's
            node = _move(node, card.line - line)  # cache knows a card by its node)
            with _CARDS_LOCK:
                _CARDS[key] = _card_entry(node, card.line)
        self.nodes.append(node)
        self.seen_card = True
        brace = close.end() - 1
        brace_line = card.line + segment.count("\n")
        column = brace - close.start()
        self.last = Token("RBRACE", "}", brace, brace_line, column, brace_line, column + 1,
                          brace + 1)
        self.at_line_start = False
        self.stream.seek(brace + 1, brace_line, close.start() + 1)
        return None

    def keep_card(self, card: Token, key: str, known: tuple[int, int]) -> None:
        """Keep the card just read in the cache (``key``: :meth:`cached_card`'s) when it was
        read cleanly (no diagnostic, one card) and ended at the ``}`` its text ends with."""
        if not key or (len(self.diagnostics), len(self.nodes) - 1) != known:
            return
        last = self.last
        if last is None or last.type != "RBRACE" \
                or last.end_pos != card.start_pos + len(key) - key.index("card"):
            return
        node = self.nodes[-1]
        with _CARDS_LOCK:
            _CARDS[key] = _card_entry(node, card.line)
            while len(_CARDS) > _CARDS_KEPT:
                _CARDS.popitem(last=False)

    # ---- cards built while parsed
    def building_parser(self):
        """A parser of the card language that builds the AST as it reads (:class:`_Builder`)."""
        if self.builder is None:
            self.builder, self.building, self.header = _building(self.lark)
        self.builder.too_large = []
        self.builder.nested = 0
        return _CardParser(self.building)

    def built_card(self, built: _Built, card: Token) -> None:
        """Keep the card :meth:`building_parser` built (``built``: the card rule's, or the
        start rule's: a tuple of it; ``card`` its ``card`` token); a number too long is
        reported and the card left out, as :meth:`transform` does.  A card with many ``may`` / ``if`` (more than
        :data:`_MAX_NESTED`) is read again the plain way (:meth:`plain_card`) and that
        reading kept."""
        builder = self.builder
        if builder.nested > _MAX_NESTED:
            self.nodes.extend(self.plain_card(card))
            return
        if not self.numbers_too_large(builder.too_large):
            value = built.value
            if value.__class__ is tuple:
                self.nodes.extend(value)
            else:
                self.nodes.append(value)

    def plain_card(self, card: Token) -> list:
        """The card ``card`` starts (read cleanly before), read again the plain way: its
        tokens as the reader gives them (no fast path), Lark's own parser, its tree, then
        a walk (:meth:`transform`)."""
        again = _Reader(self.text, self.path, self.vocabulary, fast=False)
        again.stream.seek(card.start_pos, card.line, card.start_pos - card.column + 1)
        again.in_card = True
        parser = self.lark.parse_interactive()
        while True:
            tok, _ = again.next()
            if tok.type == "WORD" and again.own_words:
                tok = again.game_word(parser, tok)
            parser.feed_token(tok)
            if tok.type == "RBRACE":
                return self.transform(parser.feed_token(_end_token(self.text, tok)))

    def numbers_too_large(self, found: list) -> bool:
        """Report each number too long to read (``found``: (key, token)); True if any."""
        for key, tok in found:
            if key in ast.NUMBER_RANGES:
                message, hint = ast.number_problem(key, None, str(tok))
            else:  # a number stat of the game's own (`atk`): its range is the game file's
                message = f"`{key}` {ast.number_text(str(tok))} is too long to be a number"
                hint = (f"a number in card text has at most {ast.MAX_DIGITS} digits "
                        "(leading zeros aside)")
            self.report(Diagnostic(self.path, _tpos(tok), message, hint))
        return bool(found)

    # ---- trees to AST nodes
    def transform(self, tree) -> list:
        """The AST nodes of one card's (or include's) tree; a number too long is reported
        and its card left out."""
        out = []
        for sub in tree.children:
            to_ast = _ToAst()
            node = to_ast.transform(sub)  # (recursive: a card is at most MAX_DEPTH deep)
            if not self.numbers_too_large(to_ast.too_large):
                out.append(node)
        return out
