"""Parser: card-language text -> AST (:mod:`wgdsl.ast`), or diagnostics.

One LALR parser is built from ``grammar/wgdsl.lark`` the first time it is needed and
kept.  Lark's tree is turned into frozen AST nodes by :class:`_ToAst`.  Syntax errors
become :class:`~wgdsl.diagnostics.Diagnostic` s that name the offending word in the
designer's terms ("unknown zone `brake`; did you mean `break`?", see
:mod:`wgdsl.syntax_errors`).  After a syntax error the parser resumes at the next card,
so one run reports the errors of every broken card, not just the first.
"""

from __future__ import annotations

import gc
import os
import re
from contextlib import contextmanager
from functools import lru_cache
from typing import Optional

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from . import ast
from .diagnostics import Diagnostic
from .resources import grammar_path
from .syntax_errors import syntax_diagnostic


_OPTIONS = dict(parser="lalr", lexer="basic", propagate_positions=True,
                maybe_placeholders=True)


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The one LALR parser, built once per process.

    Building it (analysing the grammar) takes about 0.15 s, so the analysis is kept in
    the user's cache directory (:func:`_cache_file`) and read back on the next start.
    The cache is JSON, never pickle: a file anyone could have written there is only
    data, at worst a parser that is rebuilt.  It is used only when its first line is
    the hash of this grammar, these options and the Lark and Python versions."""
    grammar = grammar_path().read_text(encoding="utf-8")
    key = _cache_key(grammar)
    path = _cache_file()
    if path:
        cached = _read_cache(path, key)
        if cached is not None:
            return cached
    parser = Lark(grammar, **_OPTIONS)
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


def _cache_file() -> Optional[str]:
    """``$XDG_CACHE_HOME/wgdsl/grammar.json`` (else ``~/.cache/...``), or None when the
    folder cannot be made (the parser is then built every time)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "wgdsl")
    try:
        os.makedirs(folder, exist_ok=True)
    except (OSError, ValueError):
        return None
    return os.path.join(folder, "grammar.json")


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


def _read_cache(path: str, key: str) -> Optional[Lark]:
    import json

    from .files import Unreadable, read_text

    try:
        text = read_text(path, "cache file", max_bytes=_CACHE_MAX_BYTES)
    except Unreadable:
        return None
    first, _, body = text.partition("\n")
    if first != key:
        return None
    try:
        data = json.loads(body, object_hook=_from_json)
        return Lark._load_from_dict(data["data"], data["memo"])
    except Exception:  # a damaged or foreign file: only data, so build afresh
        return None


def _write_cache(path: str, key: str, parser: Lark) -> None:
    import json
    import tempfile

    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
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


def _pos(meta) -> ast.Pos:
    if getattr(meta, "empty", True):
        return ast.NOWHERE
    return ast.Pos(meta.line, meta.column, meta.end_line, meta.end_column)


def _tpos(tok: Token) -> ast.Pos:
    return ast.Pos(tok.line, tok.column, tok.end_line, tok.end_column)


def _span(meta, last) -> ast.Pos:
    """From the start of ``meta`` to the end of node ``last``.

    A rule that ends with a line end (``body: (action _NL)+``) would otherwise end on
    the next line, after its indentation and any comment; this keeps an effect's
    position on the text that says it.
    """
    start = _pos(meta)
    end = getattr(last, "pos", ast.NOWHERE)
    if start == ast.NOWHERE or end == ast.NOWHERE:
        return start
    return ast.Pos(start.line, start.col, end.end_line, end.end_col)


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

    def transform(self, tree: Tree):
        children = [self.transform(c) if isinstance(c, Tree) else c for c in tree.children]
        return getattr(self, tree.data)(tree.meta, children)

    # ---- set and cards
    def start(self, meta, children):
        return tuple(children)

    def include(self, meta, children):
        return ast.Include(_unquote(children[0]), pos=_tpos(children[0]))

    def card(self, meta, children):
        card_id, name, en_name, *items = children
        stats = tuple(s for item in items if isinstance(item, tuple) for s in item)
        effects = tuple(item for item in items if not isinstance(item, tuple))
        return ast.Card(
            id=str(card_id),
            name=_unquote(name),
            en_name=_unquote(en_name) if en_name is not None else None,
            stats=stats,
            effects=effects,
            pos=_tpos(card_id),
        )

    def stats(self, meta, children):
        return tuple(children)

    def _stat(key, convert):
        def method(self, meta, children):
            if not children:  # unique
                return ast.Stat(key, True, pos=_pos(meta), value_pos=_pos(meta))
            return ast.Stat(key, convert(children[0]), pos=_pos(meta), value_pos=_tpos(children[0]))

        return method

    stat_color = _stat("color", str)
    stat_mark = _stat("mark", str)
    stat_cost = _stat("cost", int)
    stat_requires = _stat("requires", int)
    stat_stun = _stat("stun", int)
    stat_unique = _stat("unique", bool)
    del _stat

    # ---- effects
    def where_dimension(self, meta, children):
        return "dimension"

    def where_field(self, meta, children):
        return "field"

    def where_zone(self, meta, children):
        return children[0]

    def trigger(self, meta, children):
        return children[0]

    def during(self, meta, children):
        return (str(children[0]), _tpos(children[0]))

    def cost_line(self, meta, children):
        return children[0]

    def body(self, meta, children):
        return tuple(children)

    def triggered(self, meta, children):
        where, event, actions = children
        return ast.Triggered(where, event, actions, pos=_span(meta, actions[-1]))

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

    def subj_this(self, meta, children):
        return ast.This(pos=_pos(meta))

    def subj_filter(self, meta, children):
        return children[-1]

    # ---- actions
    def draw(self, meta, children):
        count = next(c for c in children if isinstance(c, Token) and c.type == "INT")
        return ast.Draw(int(count), pos=_pos(meta))

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
        return ast.AddPoints(int(count), str(color), pos=_pos(meta), color_pos=_tpos(color))

    def swap(self, meta, children):
        return ast.Swap(children[0], children[1], pos=_pos(meta))

    def may(self, meta, children):
        return ast.May(children[0], pos=_pos(meta))

    def if_(self, meta, children):
        return ast.If(children[0], children[1], pos=_pos(meta))

    # ---- selectors
    def sel_this(self, meta, children):
        return ast.This(pos=_pos(meta))

    def sel_it(self, meta, children):
        return ast.It(pos=_pos(meta))

    def sel_that(self, meta, children):
        return ast.ThatCard(pos=_pos(meta))

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
        rest = children[1:]
        states = tuple(c for c in rest if isinstance(c, tuple) and c[0] == "state")
        noun, named, cost, place = [c for c in rest if not (isinstance(c, tuple) and c[0] == "state")]
        name, name_pos = named if named is not None else (None, ast.NOWHERE)
        return ast.Filter(
            owner=owner,
            states=tuple(s[1] for s in states),
            noun=noun,
            name=name,
            cost=cost,
            zone=place,
            pos=_pos(meta),
            name_pos=name_pos,
        )

    def state(self, meta, children):
        return ("state", str(children[0]))

    def noun(self, meta, children):
        return str(children[0]).rstrip("s")

    def named(self, meta, children):
        return (_unquote(children[0]), _tpos(children[0]))

    def cost_cmp(self, meta, children):
        op, value = children
        return ast.CostBound(str(op), int(value), pos=_pos(meta))

    def cost_or(self, meta, children):
        value, less_more = children
        return ast.CostBound("<=" if less_more == "less" else ">=", int(value), pos=_pos(meta))

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


# ---------------------------------------------------------------------------- parsing
_CARD_START = re.compile(r"^card\s", re.M)


@contextmanager
def _collector_paused():
    """Pause the cyclic garbage collector while a parse tree is built and transformed.

    Lark makes about a hundred objects per card and none of them form cycles, but the
    collector keeps re-scanning the growing tree: with it running, reading 10,000
    cards costs 0.49 ms a card against 0.28 ms for 1,000 (benchmarks/bench_parse.py).
    Paused, the cost per card stays flat.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def parse(text: str, path: str = "<input>") -> tuple[Optional[ast.CardSet], list[Diagnostic]]:
    """Parse a card set.  Returns (card set, syntax diagnostics).

    On a syntax error the parse resumes at the next card (the next line that starts
    with ``card``, or the ``card`` that began while another card was still open), so
    the cards before and after a broken one are still read (and checked).
    """
    with _collector_paused():
        return _parse(text, path)


def _parse(text: str, path: str) -> tuple[Optional[ast.CardSet], list[Diagnostic]]:
    diagnostics: list[Diagnostic] = []
    cards: list[ast.Card] = []
    offset = 0
    while True:
        # blank out what was already read so line and column numbers stay true
        chunk = _blank(text, offset)
        try:
            tree = _lark().parse(chunk)
        except UnexpectedInput as err:
            diagnostics.append(syntax_diagnostic(path, chunk, err, _lark().terminals))
            err_offset = _offset_of(chunk, err)
            cards.extend(_good_prefix(chunk, err_offset, offset, path, diagnostics))
            resume = _resume_offset(text, err, err_offset, offset)
            if resume is None:
                break
            offset = resume
            continue
        cards.extend(_cards(tree, path, diagnostics))
        break
    includes = tuple(c for c in cards if isinstance(c, ast.Include))
    cards = [c for c in cards if not isinstance(c, ast.Include)]
    return ast.CardSet(tuple(cards), path=path, includes=includes), diagnostics


def _blank(text: str, offset: int) -> str:
    if offset == 0:
        return text
    return re.sub(r"[^\n]", " ", text[:offset]) + text[offset:]


def _cards(tree, path: str, diagnostics: list[Diagnostic]) -> list[ast.Card]:
    """Transform the parse tree card by card; a card nested too deeply is reported alone."""
    out = []
    for sub in tree.children:
        try:
            out.append(_ToAst().transform(sub))
        except RecursionError:
            pos = _pos(sub.meta)
            diagnostics.append(Diagnostic(
                path, ast.Pos(pos.line, pos.col, pos.line, pos.col + 4),
                "this card is nested too deeply to read",
                "an action inside `may` or `if` can hold another one, but not hundreds deep",
            ))
    return out


def _offset_of(text: str, err: UnexpectedInput) -> int:
    pos = getattr(err, "pos_in_stream", None)
    if pos is None:
        tok = getattr(err, "token", None)
        pos = getattr(tok, "start_pos", None)
    return len(text) if pos is None else pos


def _next_line(text: str, offset: int) -> int:
    nl = text.find("\n", offset)
    return len(text) if nl < 0 else nl + 1


def _resume_offset(text: str, err: UnexpectedInput, err_offset: int, offset: int) -> Optional[int]:
    """Where to parse again after an error, or None when no card follows."""
    tok = getattr(err, "token", None)
    if isinstance(tok, Token) and tok.type == "CARD" and err_offset > offset:
        return err_offset  # a card began while the previous one was still open
    nxt = _CARD_START.search(text, _next_line(text, err_offset))
    return None if nxt is None else nxt.start()


def _good_prefix(chunk: str, err_offset: int, start: int, path: str,
                 diagnostics: list[Diagnostic]) -> list[ast.Card]:
    """The complete cards between ``start`` and the card holding the error."""
    starts = [m.start() for m in _CARD_START.finditer(chunk, start, err_offset)]
    if not starts or starts[-1] == start:
        return []
    try:
        tree = _lark().parse(chunk[: starts[-1]])
    except UnexpectedInput:
        return []
    return _cards(tree, path, diagnostics)
