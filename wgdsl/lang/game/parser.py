"""Game-file text -> :class:`~wgdsl.lang.game.ast.GameFile`, or diagnostics.

One LALR parser is built from ``game.lark`` (next to this module) the first time it is
needed.  The text is fed to it token by token: after a syntax error the rest of the line
is skipped (with the whole block, when the broken line opens one) and reading goes on
from the state the parser was in at the start of that line, so one run reports the
syntax errors of every broken line, not only the first.  A file with a syntax error is not
checked further: names a broken line declares would otherwise be reported as unknown.

Syntax errors are told in the designer's words: ``unknown word `phse```, ``did you mean
`phase`?``, ``the `round` block opened at line 12 is not closed``, ```round` is a word of
the game-file language; give the zone another name``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Optional

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedToken

from ..diagnostics import Diagnostic, did_you_mean, shorten, stray_character
from ..syntax_errors import keywords_of
from . import ast

GRAMMAR = Path(__file__).with_name("game.lark")
_NAME = re.compile(r"[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*")  # the grammar's NAME


class _KeepBadChars:
    """Keeps the grammar's ``BAD_CHAR`` terminal, which no rule uses: the reader reports
    such a character on its line instead of the lexer stopping at it."""

    always_accept = ("BAD_CHAR",)

    def process(self, stream):
        return stream


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The game files' parser, its analysis cached like the card language's."""
    from ..parser import cached_lark

    return cached_lark(GRAMMAR.read_text(encoding="utf-8"), "game-grammar.json", _KeepBadChars)


@lru_cache(maxsize=1)
def keywords() -> dict[str, str]:
    """Terminal name -> the literal it stands for (``PHASE`` -> ``phase``, ``LBRACE`` -> ``{``)."""
    return keywords_of(_lark().terminals)


def reserved_words() -> frozenset[str]:
    """The words of the language: a game cannot use them as names."""
    return frozenset(w for w in keywords().values() if w[:1].isalpha())


# the words that start a statement at each level (for "unknown statement `sets`")
GAME_STATEMENTS = ("seats", "turn", "first", "kind", "card", "signs", "relation", "zone",
                   "counter", "option", "rule", "effect", "played", "setup", "round", "end",
                   "nouns", "states", "uses", "judgments", "field", "abilities")
STEP_WORDS = ("reveal", "compare", "add", "move", "deal", "draw", "shuffle", "put")
_DESCRIBED = {
    "NAME": "a name (lowercase, such as `hand`)",
    "CAPID": "a capitalised id (a seat such as `A`, a card id such as `R-07`, a rule such as `S4`)",
    "STRING": 'a quoted name such as `"Rock"`',
    "INT": "a number",
    "_NL": "the end of the line",
    "$END": "the end of the file",
}


def parse(text: str, path: str = "<game>") -> tuple[Optional[ast.GameFile], list[Diagnostic]]:
    """The game file in ``text``, and its syntax errors (the file is None when there are)."""
    reader = _Reader(text, path)
    tree = reader.read()
    if reader.diagnostics or tree is None:
        return None, reader.diagnostics
    return _ToAst(path).transform(tree), []


# ---------------------------------------------------------------------------- reading
# a file with this many syntax errors is not read further (each error costs a re-read of
# the file so far, so the time a broken file takes stays bounded)
MAX_ERRORS = 30


class _Reader:
    """Feeds the tokens of one text to the parser and recovers after each syntax error
    (see the module docstring).  At most one error is reported per line."""

    def __init__(self, text: str, path: str):
        self.text, self.path = text, path
        self.lark = _lark()
        self.words = keywords()
        self.stream = iter(self.lark.lex(text))
        self.diagnostics: list[Diagnostic] = []
        self.last: Optional[Token] = None
        # every token the parser has taken, in order (recovery rebuilds the parser from it)
        self.fed: list[Token] = []
        # the blocks open at the parser's position: (the line's first word, its `{` token)
        self.blocks: list[tuple[str, Token]] = []

    def next(self) -> Optional[Token]:
        tok = next(self.stream, None)
        if tok is not None:
            self.last = tok
        return tok

    def read(self):
        parser = self.lark.parse_interactive()
        line_start, line_blocks = 0, []  # where the current line starts in `fed`
        while True:
            tok = self.next()
            if tok is None:
                break
            if tok.type == "BAD_CHAR":
                self.report(_bad_character(self.path, tok, self.text))
                parser = self.recover(self.fed[line_start:] + [tok], line_start, line_blocks)
            else:
                tok = self.as_name(parser, tok)
                try:
                    parser.feed_token(tok)
                except UnexpectedToken as err:
                    self.report(self.explain(err, self.fed[line_start:]))
                    seen = self.fed[line_start:] + ([tok] if tok.type != "_NL" else [])
                    parser = self.recover(seen, line_start, line_blocks, ended=tok.type == "_NL")
                else:
                    self.fed.append(tok)
                    if tok.type == "LBRACE":
                        first = self.fed[line_start] if line_start < len(self.fed) else tok
                        self.blocks.append((str(first), tok))
                    elif tok.type == "RBRACE" and self.blocks:
                        self.blocks.pop()
                    if tok.type != "_NL":
                        continue
            if parser is None or len(self.diagnostics) >= MAX_ERRORS:
                return None
            line_start, line_blocks = len(self.fed), list(self.blocks)
        try:
            return parser.feed_eof(self.last)
        except UnexpectedToken as err:
            self.report(self.explain(err, self.fed[line_start:]))
            return None

    def as_name(self, parser, tok: Token) -> Token:
        """A keyword is read as a name where the parser takes a name and not the keyword:
        the words of the language are reserved only where they mean something (``phase
        draw``, ``option rounds``, ``after rounds rounds``)."""
        text = str(tok)
        if self.words.get(tok.type) != text or not _NAME.fullmatch(text):
            return tok
        choices = parser.choices()
        if tok.type not in choices and "NAME" in choices:
            return Token.new_borrow_pos("NAME", text, tok)
        return tok

    def recover(self, seen: list, line_start: int, line_blocks: list, ended: bool = False):
        """After an error on a line whose tokens so far are ``seen``: skip the rest of the
        line (and the block it opens), and return a parser in the state it had at the
        line's start (with the block closed when the line starts with `}`); None when
        nothing sensible can follow."""
        # a `}` that starts the line closes a block; one after a statement is a slip
        depth = sum(t.type == "LBRACE" for t in seen) - (seen[:1] != [] and seen[0].type == "RBRACE")
        tok = None if ended else self.next()
        while tok is not None and not (tok.type == "_NL" and depth <= 0):
            if tok.type == "LBRACE":
                depth += 1
            elif tok.type == "RBRACE":
                depth -= 1
            tok = self.next()
        del self.fed[line_start:]
        self.blocks = list(line_blocks)
        parser = self.lark.parse_interactive()
        try:
            for t in self.fed:
                parser.feed_token(t)
            for _ in range(min(-depth, len(self.blocks))):  # the line closed blocks: close them
                for t in (Token("RBRACE", "}"), Token("_NL", "\n")):
                    parser.feed_token(t)
                    self.fed.append(t)
                self.blocks.pop()
        except UnexpectedToken:
            return None
        return parser

    def report(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    # ------------------------------------------------------------------ errors
    def explain(self, err: UnexpectedToken, line: list) -> Diagnostic:
        tok: Token = err.token
        literals = sorted(self.words[n] for n in err.expected if n in self.words)
        described = [_DESCRIBED.get(n, n.lower()) for n in sorted(err.expected)
                     if n not in self.words]
        if tok.type == "$END":
            return self.early_end(literals, described)
        if tok.type == "_NL":
            pos = ast.Pos(tok.line, tok.column, tok.line, tok.column + 1)
            return Diagnostic(self.path, pos, "this line ends too early",
                              _expect_hint(literals, described))
        found = str(tok)
        shown = shorten(found)
        pos = ast.Pos(tok.line, tok.column, tok.end_line, tok.end_column)
        if tok.type == "RBRACE":
            return Diagnostic(self.path, pos, "unexpected `}`",
                              "a `}` closes a block on a line of its own; "
                              + (_expect_hint(literals, described) or ""))
        if tok.type == "GAME" and set(err.expected) <= {"$END", "_NL"}:
            return Diagnostic(self.path, pos, "a game file holds one game",
                              "write each game in a file of its own")
        if tok.type == "NAME" and "CAPID" in err.expected and line and line[-1].type == "RULE":
            return Diagnostic(self.path, pos, f"unexpected `{shown}`",
                              "a rule number starts with a capital letter, such as "
                              f"`rule {found[:1].upper()}{found[1:]}`")
        wants_name = bool({"NAME", "CAPID"} & set(err.expected))
        if found in self.words.values() and found[:1].isalpha():  # a keyword
            if wants_name and found not in literals:
                return Diagnostic(self.path, pos,
                                  f"`{shown}` is a word of the game-file language, not a name",
                                  "give the thing another name (the reserved words are listed "
                                  "in docs/games.md)")
            return Diagnostic(self.path, pos, f"`{shown}` cannot come here",
                              _expect_hint(literals, described))
        if tok.type in ("NAME", "CAPID") and literals and not wants_name:
            what = _word_kind(literals, line)
            hint = did_you_mean(found.lower(), literals)
            if tok.type == "CAPID" and found.lower() in literals:
                return Diagnostic(self.path, pos, f"words are lowercase: `{shown}`",
                                  f"write `{found.lower()}`")
            if hint or what != "word":
                return Diagnostic(self.path, pos, f"unknown {what} `{shown}`",
                                  hint or _expect_hint(literals, described))
        return Diagnostic(self.path, pos, f"unexpected `{shown}`", _expect_hint(literals, described))

    def early_end(self, literals, described) -> Diagnostic:
        written = len(self.text.rstrip())
        line = self.text.count("\n", 0, written) + 1
        col = written - (self.text.rfind("\n", 0, written) + 1) + 1
        pos = ast.Pos(line, col, line, col + 1)
        if self.blocks:
            word, brace = self.blocks[-1]
            return Diagnostic(self.path, pos,
                              f"the file ends inside the `{word}` block opened at line {brace.line}",
                              "close it with `}` on a line of its own")
        if all(t.type == "_NL" for t in self.fed):
            return Diagnostic(self.path, pos, "the file holds no game",
                              'a game file holds one game: `game ID "Name" {` ... `}`')
        return Diagnostic(self.path, pos, "the file ends too early",
                          _expect_hint(literals, described))


_RANGE = re.compile(r"(\d+)[ \t]*(?:\.\.\.?|-|–)[ \t]*(\d+)")


def _bad_character(path: str, tok: Token, text: str) -> Diagnostic:
    """A character no word of the language starts with."""
    found = str(tok)
    pos = ast.Pos(tok.line, tok.column, tok.line, tok.column + max(1, len(found)))
    line_start = tok.start_pos - (tok.column - 1)
    line_end = text.find("\n", tok.start_pos)
    for m in _RANGE.finditer(text, line_start, line_end if line_end >= 0 else len(text)):
        if m.start() < tok.start_pos < m.end():
            return Diagnostic(path, pos, f"unexpected `{shorten(found)}`",
                              f"a range is written with `to`: `{m.group(1)} to {m.group(2)}`")
    return stray_character(path, pos, found,
                           'names of the game and its cards go in double quotes, such as '
                           '`"Rock"`; the names of zones, counters and signs are plain '
                           "lowercase words", "a game file is written with")


def _word_kind(literals, line: list) -> str:
    """What kind of word the parser wanted, for "unknown <kind> `word`"."""
    if not line and set(literals) & set(GAME_STATEMENTS):
        return "statement"
    if not line and set(literals) & set(STEP_WORDS):
        return "step"
    return "word"


def _expect_hint(literals, described) -> Optional[str]:
    items = [f"`{w}`" for w in literals] + list(described)
    if not items:
        return None
    if len(items) > 14:
        items = items[:14] + ["..."]
    return "expected " + (items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1])


# ---------------------------------------------------------------------------- tree -> AST
def _tpos(tok: Token) -> ast.Pos:
    return ast.Pos(tok.line, tok.column, tok.end_line, tok.end_column)


def _word(tok: Token) -> ast.Word:
    return ast.Word(str(tok), pos=_tpos(tok))


def _number(tok) -> ast.Number:
    text = str(tok)
    return ast.Number(int(text) if tok.type == "INT" else text, pos=_tpos(tok))


def _end_of(node) -> Optional[ast.Pos]:
    if isinstance(node, Token):
        return _tpos(node)
    pos = getattr(node, "pos", None)
    if isinstance(pos, ast.Pos) and pos != ast.NOWHERE:
        return pos
    return None


def _span(meta, parts) -> ast.Pos:
    """From the start of the statement to the end of its last part (not its label, not the
    line end), so a caret underlines what the statement says."""
    end = None
    for part in parts:
        if part is None or isinstance(part, ast.Label):
            continue
        if isinstance(part, (list, tuple)):
            for p in part:
                end = _end_of(p) or end
            continue
        end = _end_of(part) or end
    if getattr(meta, "empty", True):
        return end or ast.NOWHERE
    if end is None:
        return ast.Pos(meta.line, meta.column, meta.line, meta.column + 1)
    return ast.Pos(meta.line, meta.column, end.end_line, end.end_col)


def _header(meta, *parts) -> ast.Pos:
    """A block's position: its first line only (``phase throw``)."""
    return _span(meta, parts)


def _label(children) -> Optional[ast.Label]:
    for c in children:
        if isinstance(c, ast.Label):
            return c
    return None


@v_args(meta=True)
class _ToAst(Transformer):
    """Lark tree -> AST nodes.  Method names are the grammar's rule and alias names."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def start(self, meta, children):
        return children[-1]

    def game(self, meta, children):
        ident, name, english, *items = children
        return ast.GameFile(_word(ident), str(name)[1:-1], tuple(items), self.path,
                            pos=_header(meta, ident, name), name_pos=_tpos(name),
                            name_en=str(english)[1:-1] if english is not None else None)

    def label(self, meta, children):
        return ast.Label(str(children[0]), pos=_tpos(children[0]))

    # ---- seats
    def seats(self, meta, children):
        low, high, names, label = children
        return ast.Seats(int(low), int(high) if high is not None else int(low), tuple(names or ()),
                         label, pos=_span(meta, [low, high, names]), low_pos=_tpos(low),
                         high_pos=_tpos(high) if high is not None else _tpos(low))

    def named(self, meta, children):
        return [_word(t) for t in children]

    def turn_order(self, meta, children):
        word, label = children
        return ast.TurnOrder(_word(word), label, pos=_span(meta, [word]))

    def first_seat(self, meta, children):
        word, label = children
        return ast.FirstSeat(_word(word), label, pos=_span(meta, [word]))

    # ---- cards
    def kind(self, meta, children):
        name, *items = children
        stats = tuple(i for i in items if isinstance(i, ast.StatDecl))
        flags = tuple(w for i in items if isinstance(i, list) for w in i)
        return ast.Kind(_word(name), stats, flags, pos=_header(meta, name))

    def flag_decl(self, meta, children):
        return [_word(t) for t in children]

    def stat_range(self, meta, children):
        name, low, high, default, label = children
        return ast.StatDecl(_word(name), low=int(low), high=int(high),
                            pos=_span(meta, [name, low, high, default]), label=label,
                            default=int(default) if default is not None else None)

    def stat_enum(self, meta, children):
        name, *values = children
        label = values.pop()
        default_by = values.pop()
        by, pairs = default_by if default_by is not None else (None, ())
        return ast.StatDecl(_word(name), values=tuple(_word(v) for v in values), form="enum",
                            pos=_span(meta, [name, *values]), label=label, default_by=by,
                            defaults=pairs)

    def default_by(self, meta, children):
        by, *pairs = children
        return _word(by), tuple(pairs)

    def pair(self, meta, children):
        return tuple(_word(t) for t in children)

    def phases(self, meta, children):
        *names, label = children
        return ast.Phases(tuple(_word(n) for n in names), label, pos=_span(meta, names))

    def nouns_from(self, meta, children):
        source, label = children
        return ast.CardWords("nouns", (), label, source=_word(source), pos=_span(meta, [source]))

    def card_words(self, meta, children):
        kind, *names, label = children
        return ast.CardWords(kind, tuple(_word(n) for n in names), label, pos=_span(meta, names))

    def words_kind(self, meta, children):
        return " ".join(str(c) for c in children).replace(" in", "")

    def limit(self, meta, children):
        name, count, label = children
        return ast.Limit(_word(name), int(count), label, pos=_span(meta, [name, count]),
                         count_pos=_tpos(count))

    def pool(self, meta, children):
        name, per_seat, *words = children
        label = words.pop()
        emptied = words.pop()
        return ast.Pool(_word(name), per_seat is not None, tuple(_word(w) for w in words),
                        emptied is not None, label, pos=_span(meta, [name, *words]))

    def emptied(self, meta, children):
        return True

    def card_set(self, meta, children):
        ref, label = children
        return ast.CardSet(str(ref)[1:-1], label, pos=_span(meta, [ref]), ref_pos=_tpos(ref))

    def slots(self, meta, children):
        return ast.Word(f"slots {children[0]}", pos=_span(meta, children))

    def grid(self, meta, children):
        return ast.Word(f"grid {children[0]} by {children[1]}", pos=_span(meta, children))

    def rows(self, meta, children):
        return ast.Word("rows " + " ".join(str(c) for c in children), pos=_span(meta, children))

    def stat_of(self, meta, children):
        name, *values = children
        per = values.pop()
        return ast.StatDecl(_word(name), values=tuple(_word(v) for v in values), form="of",
                            per=tuple(per or ()), pos=_span(meta, [name, *values, per]))

    def stat_per(self, meta, children):
        name, per = children
        return ast.StatDecl(_word(name), form="per", per=tuple(per), pos=_span(meta, [name, per]))

    def per_words(self, meta, children):
        return [_word(t) for t in children]

    def entries(self, meta, children):
        found = ast.Entries(c for c in children if c is not None)
        found.pos = ast.Pos(meta.line, meta.column, meta.end_line, meta.end_column)
        return found

    def _entry(self, meta, word, number, per) -> ast.Entry:
        parts = [p for p in (word, number, per) if p is not None]
        return ast.Entry(_word(word) if word is not None else None,
                         int(number) if number is not None else None,
                         _word(per) if per is not None else None, pos=_span(meta, parts))

    def entry_count(self, meta, children):
        word, number = children
        return self._entry(meta, word, number, None)

    def entry_per(self, meta, children):
        word, per = children
        return self._entry(meta, word, None, per)

    def entry_number(self, meta, children):
        number, per = children
        return self._entry(meta, None, number, per)

    def card(self, meta, children):
        ident, name, english, kind, *rest = children
        label = rest.pop()
        copies = rest.pop()
        effects = rest.pop()
        flags = rest.pop()
        stats = tuple(rest)
        return ast.CardDecl(_word(ident), str(name)[1:-1], _word(kind), stats,
                            int(copies) if copies is not None else None, label,
                            name_en=str(english)[1:-1] if english is not None else None,
                            flags=tuple(flags or ()), effects=tuple(effects or ()),
                            pos=_span(meta, [ident, name, kind, *stats, *(flags or ()),
                                             *(effects or ()), copies]),
                            name_pos=_tpos(name),
                            name_en_pos=_tpos(english) if english is not None else ast.NOWHERE,
                            copies_pos=_tpos(copies) if copies is not None else ast.NOWHERE)

    def english(self, meta, children):
        return children[0]

    def card_flags(self, meta, children):
        return [_word(t) for t in children]

    def card_effects(self, meta, children):
        return [_word(t) for t in children]

    # ---- effects and engines
    def effect(self, meta, children):
        name, name_ja, english, *rest = children
        traits = [c for c in rest if isinstance(c, ast.Word)]
        ref = next(c for c in rest if isinstance(c, Token) and c.type == "STRING")
        label = next((c for c in rest if isinstance(c, ast.Label)), None)
        texts = tuple(c for c in rest if isinstance(c, tuple))
        return ast.EffectDecl(_word(name), str(name_ja)[1:-1],
                              str(english)[1:-1] if english is not None else None,
                              tuple(traits), str(ref)[1:-1], label, texts,
                              pos=_header(meta, name, name_ja, english, ref), ref_pos=_tpos(ref),
                              name_en_pos=_tpos(english) if english is not None else ast.NOWHERE)

    def _trait(self, meta, text: str) -> ast.Word:
        return ast.Word(text, pos=ast.Pos(meta.line, meta.column, meta.end_line, meta.end_column))

    def trait_selects(self, meta, children):
        return self._trait(meta, "selects a seat")

    def trait_once(self, meta, children):
        return self._trait(meta, "once per turn")

    def trait_response(self, meta, children):
        return self._trait(meta, "as a response")

    def text_ja(self, meta, children):
        return ("ja", str(children[0])[1:-1], _tpos(children[0]))

    def text_en(self, meta, children):
        return ("en", str(children[0])[1:-1], _tpos(children[0]))

    def played_by(self, meta, children):
        ref, label = children
        return ast.PlayedBy(str(ref)[1:-1], label, pos=_span(meta, [ref]), ref_pos=_tpos(ref))

    def card_stat(self, meta, children):
        name, value = children
        if isinstance(value, ast.Entries):  # a bracketed list
            pos = ast.Pos(meta.line, meta.column, meta.end_line, meta.end_column)
            return ast.CardStat(_word(name), value, pos=pos, value_pos=value.pos)
        v = int(value) if value.type == "INT" else str(value)
        return ast.CardStat(_word(name), v, pos=_span(meta, [name, value]), value_pos=_tpos(value))

    def copies(self, meta, children):
        return children[0]

    # ---- signs and relations
    def signs(self, meta, children):
        *names, label = children
        return ast.Signs(tuple(_word(n) for n in names), label, pos=_span(meta, names))

    def relation(self, meta, children):
        name, *facts = children
        return ast.Relation(_word(name), tuple(facts), pos=_header(meta, name))

    def fact(self, meta, children):
        left, verb, right, label = children
        return ast.Fact(_word(left), _word(verb), _word(right), label,
                        pos=_span(meta, [left, verb, right]))

    # ---- zones, counters, options, hooks
    def zone(self, meta, children):
        name, *words = children
        label = words.pop()
        words = tuple(w if isinstance(w, ast.Word) else _word(w) for w in words)
        return ast.ZoneDecl(_word(name), words, label, pos=_span(meta, [name, *words]))

    def per_seat(self, meta, children):
        return ast.Word("per seat", pos=_span(meta, []) if getattr(meta, "empty", True) else
                        ast.Pos(meta.line, meta.column, meta.end_line, meta.end_column))

    def counter(self, meta, children):
        name, per_seat, start, label = children
        return ast.CounterDecl(_word(name), per_seat is not None,
                               int(start) if start is not None else 0, label,
                               pos=_span(meta, [name, per_seat, start]),
                               start_pos=_tpos(start) if start is not None else ast.NOWHERE)

    def option(self, meta, children):
        name, low, high, default, label = children
        return ast.OptionDecl(_word(name), int(low), int(high), int(default), label,
                              pos=_span(meta, [name, low, high, default]), low_pos=_tpos(low),
                              high_pos=_tpos(high), default_pos=_tpos(default))

    def hook(self, meta, children):
        name, ref = children
        return ast.HookDecl(_word(name), str(ref)[1:-1], pos=_span(meta, [name, ref]),
                            ref_pos=_tpos(ref))

    # ---- blocks
    def setup(self, meta, children):
        label, *steps = children
        return ast.Setup(tuple(steps), label, pos=ast.Pos(meta.line, meta.column, meta.line,
                                                             meta.column + len("setup")))

    def round(self, meta, children):
        label, *phases = children
        return ast.Round(tuple(phases), label, pos=ast.Pos(meta.line, meta.column, meta.line,
                                                              meta.column + len("round")))

    def end(self, meta, children):
        label, *rules = children
        return ast.End(tuple(rules), label, pos=ast.Pos(meta.line, meta.column, meta.line,
                                                           meta.column + len("end")))

    def phase(self, meta, children):
        name, label, *items = children
        return ast.Phase(_word(name), label, tuple(items), pos=_header(meta, name))

    # ---- windows
    def window_every(self, meta, children):
        choice, label = children
        return ast.Window(True, choice[0], choice[1], label, pos=_span(meta, [choice[2]]))

    def window_active(self, meta, children):
        choice, label = children
        return ast.Window(False, choice[0], choice[1], label, pos=_span(meta, [choice[2]]))

    def choice_sign(self, meta, children):
        return ("sign", None, ast.Word("sign", pos=ast.Pos(meta.line, meta.column,
                                                          meta.end_line, meta.end_column)))

    def choice_card(self, meta, children):
        return ("card", _word(children[0]), _word(children[0]))

    def choice_top(self, meta, children):
        return ("top", _word(children[0]), _word(children[0]))

    # ---- steps
    def step_line(self, meta, children):
        step, label = children
        return ast.Step(**{**step, "label": label})

    def _step(self, meta, kind: str, parts, **fields) -> dict:
        return {"kind": kind, "pos": _span(meta, parts), **fields}

    def reveal(self, meta, children):
        return {"kind": "reveal", "pos": ast.Pos(meta.line, meta.column, meta.line,
                                                 meta.column + len("reveal"))}

    def compare(self, meta, children):
        how, name = children[0]
        return self._step(meta, "compare", [name], how=how, name=name)

    def by_higher(self, meta, children):
        return ("higher", _word(children[0]))

    def by_lower(self, meta, children):
        return ("lower", _word(children[0]))

    def by_rule(self, meta, children):
        return ("rule", _word(children[0]))

    def by_relation(self, meta, children):
        return ("relation", _word(children[0]))

    def add(self, meta, children):
        amount, counter, who = children
        return self._step(meta, "add", [who], amount=_number(amount), name=_word(counter), who=who)

    def move(self, meta, children):
        source, place = children
        return self._step(meta, "move", [place], source=source, place=place)

    def deal(self, meta, children):
        amount, source, dest = children
        count = None if amount.type == "ALL" else _number(amount)
        return self._step(meta, "deal", [dest], amount=count, source=source, name=_word(dest))

    def draw(self, meta, children):
        amount, source, dest = children
        return self._step(meta, "draw", [dest], amount=_number(amount), source=source,
                          name=_word(dest))

    def shuffle(self, meta, children):
        (source,) = children
        return self._step(meta, "shuffle", [source], source=source)

    def put(self, meta, children):
        (zone,) = children
        return self._step(meta, "put", [zone], name=_word(zone))

    def source_played(self, meta, children):
        return None

    def source_all(self, meta, children):
        return children[0]

    def zone_ref(self, meta, children):
        zone, who = children
        return ast.ZoneRef(_word(zone), who, pos=_span(meta, [zone, who]))

    def place(self, meta, children):
        end, zone, who = children
        return ast.Place(str(end) if end is not None else None, _word(zone), who,
                         pos=_span(meta, [zone, who]))

    def pile_end(self, meta, children):
        return children[0]

    def _who(self, meta, kind: str) -> ast.Who:
        return ast.Who(kind, pos=ast.Pos(meta.line, meta.column, meta.end_line, meta.end_column))

    def each_winner(self, meta, children):
        return self._who(meta, "each_winner")

    def the_winner(self, meta, children):
        return self._who(meta, "the_winner")

    def each_seat(self, meta, children):
        return self._who(meta, "each_seat")

    def active_seat(self, meta, children):
        return self._who(meta, "active_seat")

    def its_owner(self, meta, children):
        return self._who(meta, "its_owner")

    # ---- the end
    def end_rule(self, meta, children):
        condition, outcome, label = children
        return ast.EndRule(condition, outcome, label, pos=_span(meta, [condition, outcome]))

    def has_at_least(self, meta, children):
        amount, quantity = children
        return ast.Condition("at_least", _number(amount), quantity, pos=_span(meta, [quantity]))

    def has_none(self, meta, children):
        (quantity,) = children
        return ast.Condition("none", None, quantity, pos=_span(meta, [quantity]))

    def after_rounds(self, meta, children):
        (amount,) = children
        return ast.Condition("after", _number(amount), None,
                             pos=ast.Pos(meta.line, meta.column, meta.end_line, meta.end_column))

    def counter_quantity(self, meta, children):
        return ast.Quantity(False, _word(children[0]), pos=_tpos(children[0]))

    def cards_quantity(self, meta, children):
        return ast.Quantity(True, _word(children[0]),
                            pos=ast.Pos(meta.line, meta.column, meta.end_line, meta.end_column))

    def _outcome(self, meta, kind, quantity=None):
        return ast.Outcome(kind, quantity, pos=ast.Pos(meta.line, meta.column, meta.end_line,
                                                       meta.end_column))

    def that_seat_wins(self, meta, children):
        return self._outcome(meta, "that_wins")

    def that_seat_loses(self, meta, children):
        return self._outcome(meta, "that_loses")

    def highest_wins(self, meta, children):
        return self._outcome(meta, "highest", children[-1])

    def lowest_wins(self, meta, children):
        return self._outcome(meta, "lowest", children[-1])

    def nobody_wins(self, meta, children):
        return self._outcome(meta, "nobody")
