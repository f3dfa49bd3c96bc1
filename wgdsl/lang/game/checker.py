"""What the grammar cannot say about a game file, and the compiled spec when all is well.

:func:`compile_game` reads a parsed :class:`~wgdsl.lang.game.ast.GameFile` once.  It
reports every problem it finds (not only the first), each at the offending word, in a
designer's words and with what would be right (``unknown zone `hnad``` / ``did you mean
`hand`?``); when there is none it returns the :class:`~wgdsl.lang.game.spec.GameSpec`.

What it checks, beyond the grammar:

- every name used is declared (zones, counters, options, signs, relations, stats, kinds,
  rule functions), each declared once, and a name means one thing in the whole file;
- numbers are in range (seats, stats, copies, options and their defaults);
- each step has what it needs earlier in the round: ``reveal`` a choice, ``compare`` a
  reveal, ``the winner`` a compare, ``move played cards`` a chosen card; the cards chosen
  in a round are moved on in that round; a seat chooses only a card it can see;
- whose zone a step means fits the zone (a zone per seat says whose, a shared one does not);
- the game can be played and ends: a round has a window where seats choose, and an
  ``after N rounds`` rule caps every game;
- a rule function is named as ``"wgdsl.games.MODULE:FUNCTION"``: a game file may import
  nothing from anywhere else (whether the function exists is checked when the game is
  loaded: ``wgdsl.games.described``).

Unused declarations (a counter no step adds to, a rule function no step uses) are warnings.
"""

from __future__ import annotations

import re
from typing import Optional

import attrs

from wgdsl.terminal import has_control

from ..diagnostics import Diagnostic, SourceLines, did_you_mean, one_of, shorten
from . import ast, spec as S

MAX_SEATS = 26  # the default names run A to Z
MAX_CARDS = 10_000  # card instances in one game
MAX_COPIES = 1_000
MAX_NUMBER = 1_000_000  # options, stats, counters' starts
ZONE_WORDS = {"per seat": "scope", "shared": "scope", "pile": "kind", "bag": "kind",
              "hidden": "visibility", "owner": "visibility", "public": "visibility",
              "stacks": "stacking", "slots": "places", "grid": "places", "rows": "rows"}
MAX_PLACES = 100  # slots of a zone, rows or columns of a grid
ORDERS = ("clockwise", "counterclockwise")
HOOK_PACKAGE = "wgdsl.games."
_HOOK_REF = re.compile(r"(wgdsl\.games(?:\.[a-z_][a-z0-9_]*)+):([a-z][a-z0-9_]*)")
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_ANY_REF = re.compile(rf"({_IDENT}(?:\.{_IDENT})*):({_IDENT})")
# whose zone each kind of place may name
_SOURCE_WHO = (None, S.EACH_SEAT, S.EACH_WINNER, S.THE_WINNER, S.ACTIVE_SEAT)
_DEST_WHO = (None, S.THE_WINNER, S.ACTIVE_SEAT, S.ITS_OWNER)
_ADD_WHO = (S.EACH_WINNER, S.THE_WINNER, S.EACH_SEAT, S.ACTIVE_SEAT)
_WINNER_WHO = (S.EACH_WINNER, S.THE_WINNER)


def compile_game(game: ast.GameFile, text: str) -> tuple[Optional[S.GameSpec], list[Diagnostic]]:
    """The spec of ``game`` (parsed from ``text``) and every problem found; the spec is
    None when there is an error (warnings alone do not stop it)."""
    checker = _Checker(game, text)
    spec = checker.run()
    found = sorted(checker.diagnostics, key=lambda d: (d.pos.line, d.pos.col))
    errors = any(d.severity == "error" for d in found)
    return (None if errors else spec), found


class _Checker:
    def __init__(self, game: ast.GameFile, text: str):
        self.game = game
        self.path = game.path
        self.lines = SourceLines(text)
        self.diagnostics: list[Diagnostic] = []
        # every name the file declares: name -> (what it is, where)
        self.names: dict[str, tuple[str, ast.Pos]] = {}
        self.rules: list[tuple[str, str]] = []
        self.used: set[str] = set()
        self.clashed: set[str] = set()  # names declared as two different things
        self.refused: set[int] = set()  # ids of the name Words of declarations left out
        # the declarations, by name, as compiled
        self.options: dict[str, S.OptionSpec] = {}
        self.kinds: dict[str, S.KindSpec] = {}
        self.zones: dict[str, S.ZoneSpec] = {}
        self.counters: dict[str, S.CounterSpec] = {}
        self.hooks: dict[str, tuple] = {}  # name -> (module, function, node)
        self.hook_kinds: dict[str, str] = {}  # name -> what the game uses it for
        self.relation_domain: dict[str, str] = {}  # relation -> "sign" or "card"
        self.card_ids: dict[str, int] = {}  # card id -> its line
        self.instances = 0  # cards in the game, copies counted
        self.flow = _Flow()
        self.place_pos = game.pos  # the place being checked (for "say whose")
        self.block_rule: Optional[str] = None  # the `rule ID` of the block being read

    # ------------------------------------------------------------------ reporting
    def error(self, pos: ast.Pos, message: str, hint: Optional[str] = None) -> None:
        self.diagnostics.append(Diagnostic(self.path, pos, message, hint))

    def warning(self, pos: ast.Pos, message: str, hint: Optional[str] = None) -> None:
        self.diagnostics.append(Diagnostic(self.path, pos, message, hint, severity="warning"))

    def text_of(self, pos: ast.Pos) -> str:
        """The words of the statement at ``pos`` as written: the rest of its line, without
        a comment, a ``rule ID`` or a block's ``{``."""
        line = self.lines.line(pos.line) or ""
        return _statement_text(line[pos.col - 1:])

    def rule_of(self, label: Optional[ast.Label], pos: ast.Pos, record: bool = True) -> str:
        """The rule a statement cites: its own ``rule ID``, else that of the block it is in
        (a phase, the setup, the end), else ``line N``.  Recorded for ``show --rules``."""
        if label is not None:
            rule = label.rule
        elif self.block_rule is not None:
            rule = self.block_rule
        else:
            rule = f"line {pos.line}"
        if record or label is not None:
            self.rules.append((rule, self.text_of(pos)))
        return rule

    def declare(self, word: ast.Word, what: str) -> None:
        """Record ``word`` as the name of a ``what``; reported (and the declaration left
        out: :attr:`refused`) if it names something already."""
        first = self.names.get(word.text)
        if first is not None:
            kind, pos = first
            if kind != what:  # its uses would each be "not a <what>": this error says it
                self.clashed.add(word.text)
            self.error(word.pos, f"`{shorten(word.text)}` is already the name of "
                                 f"{_article(kind)} (line {pos.line})",
                       "give each thing of the game its own name")
            self.refused.add(id(word))
            return
        self.names[word.text] = (what, word.pos)

    def declare_names(self, item) -> None:
        """The names an item declares, in file order (so a clash cites the first), before
        any declaration is compiled (so a name may be used above its declaration)."""
        what = _DECLARES.get(type(item))
        if isinstance(item, ast.Signs):
            for w in item.names:
                self.declare(w, "sign")
        elif isinstance(item, ast.ZoneDecl) and item.name.text == S.PLAYED:
            return  # reported by zone()
        elif what is not None:
            self.declare(item.name, what)

    def lookup(self, word: ast.Word, what: str, hint_more: str = "") -> bool:
        """Is ``word`` the name of a ``what``?  Reported (with the nearest name, or what
        the word names instead) when not."""
        found = self.names.get(word.text)
        if found is not None and found[0] == what:
            self.used.add(word.text)
            return True
        if word.text in self.clashed:
            return False
        if found is not None:
            self.error(word.pos, f"`{shorten(word.text)}` is {_article(found[0])} (line "
                                 f"{found[1].line}), not {_article(what)}", hint_more or None)
            return False
        choices = [n for n, (k, _) in self.names.items() if k == what]
        hint = did_you_mean(word.text, choices)
        if hint is None:
            hint = (f"the {_plural(what)} are " + one_of(choices)) if choices else \
                f"declare it first: {_DECLARE.get(what, what)}"
        self.error(word.pos, f"unknown {what} `{shorten(word.text)}`", hint)
        return False

    # ------------------------------------------------------------------ the whole file
    def run(self) -> Optional[S.GameSpec]:
        game = self.game
        if has_control(game.name):
            self.error(game.name_pos, "the game's name may not contain control characters")
        single: dict[type, object] = {}
        by_type: dict[type, list] = {}
        for item in game.items:
            by_type.setdefault(type(item), []).append(item)
            if isinstance(item, (ast.Seats, ast.TurnOrder, ast.FirstSeat, ast.Signs, ast.Setup,
                                 ast.Round, ast.End, ast.PlayedBy, ast.Phases, ast.CardSet)):
                first = single.setdefault(type(item), item)
                if first is not item:
                    self.error(item.pos, f"`{_KEYWORD[type(item)]}` is given twice",
                               f"it was first given at line {first.pos.line}; a game says it once")
        for item in game.items:
            self.declare_names(item)
        seats = single.get(ast.Seats)
        if seats is None:
            self.error(game.pos, "the game does not say how many seats play",
                       "add `seats 2` (or a range: `seats 2 to 4`)")
        for node in by_type.get(ast.OptionDecl, ()):
            self.option(node)
        for node in by_type.get(ast.Kind, ()):
            self.kind(node)
        effects = [e for e in (self.effect(node) for node in by_type.get(ast.EffectDecl, ()))
                   if e is not None]
        cards = [c for c in (self.card(node) for node in by_type.get(ast.CardDecl, ())) if c]
        signs = self.signs(single.get(ast.Signs))
        for node in by_type.get(ast.ZoneDecl, ()):
            self.zone(node)
        for node in by_type.get(ast.CounterDecl, ()):
            self.counter(node)
        for node in by_type.get(ast.HookDecl, ()):
            self.hook(node)
        relations = [r for r in (self.relation(node, cards) for node in by_type.get(ast.Relation, ()))
                     if r is not None]
        seat_spec = self.seats(seats, single.get(ast.TurnOrder), single.get(ast.FirstSeat))
        setup_node = single.get(ast.Setup)
        setup = self.setup(setup_node)
        round_node = single.get(ast.Round)
        played_by = single.get(ast.PlayedBy)
        engine = self.played_by(played_by, round_node, single.get(ast.End), setup_node)
        if played_by is not None:
            phases, ends = (), ()
        elif round_node is None:
            self.error(game.pos, "the game has no rounds",
                       "add `round {` with a phase in which seats choose (docs/games.md)")
            phases = ()
        else:
            phases = self.round(round_node)
        end_node = single.get(ast.End)
        if played_by is not None:
            pass
        elif end_node is None:
            self.error(game.pos, "the game does not say how it ends",
                       "add `end {` with its rules, and a round cap such as "
                       "`after 50 rounds: nobody wins`")
            ends = ()
        else:
            ends = self.ends(end_node)
        if effects and played_by is None:
            self.error(by_type[ast.EffectDecl][0].pos,
                       "effects need an engine that carries them out",
                       'add `played by "wgdsl.games.MODULE:FUNCTION"` (docs/games.md, '
                       '"Games played by an engine"); rounds and phases have no effects')
        if cards and played_by is None and not any(s.kind == "put" for s in setup):
            self.error(setup_node.pos if setup_node else game.pos, "the cards never enter the game",
                       "add `put every card into ZONE` to the setup (a shared zone, such as a deck)")
        turn_phases, phases_rule = self.turn_phases(single.get(ast.Phases), played_by)
        limits = self.limits(by_type.get(ast.Limit, ()), played_by)
        pools = self.pools(by_type.get(ast.Pool, ()), played_by)
        card_set, card_set_rule = self.card_set(single.get(ast.CardSet), played_by)
        card_words = self.card_words(by_type.get(ast.CardWords, ()))
        if any(d.severity == "error" for d in self.diagnostics):
            return None
        self.unused()  # (next to an error, an unused name is most often a misspelt use)
        low, high, names, clockwise, first, seats_rule = seat_spec
        return S.GameSpec(
            id=game.id.text, name=game.name, path=self.path, seat_range=(low, high),
            seat_names=names, clockwise=clockwise, first=first, seats_rule=seats_rule,
            kinds=tuple(self.kinds.values()), cards=tuple(cards), signs=signs,
            relations=tuple(relations), zones=tuple(self.zones.values()),
            counters=tuple(self.counters.values()), options=tuple(self.options.values()),
            hooks=tuple(self.hook_specs()), setup=setup, phases=phases, ends=ends,
            rules=tuple(self.rules), effects=tuple(effects), engine=engine,
            name_en=game.name_en, turn_phases=turn_phases, phases_rule=phases_rule,
            limits=limits, pools=pools, card_set=card_set, card_set_rule=card_set_rule,
            card_words=card_words)

    def card_words(self, nodes) -> tuple:
        """``nouns``, ``states``, ``uses``, ``judgments``, ``field`` and ``abilities in``:
        the card language's words of the game's cards, each kind said once."""
        from ..vocabulary import FEATURES

        found: dict[str, S.CardWordsSpec] = {}
        for node in nodes:
            if node.kind in found:
                self.error(node.pos, f"`{_WORDS_KEYWORD[node.kind]}` is given twice",
                           "a game says each kind of its cards' words once, on one line")
                continue
            words = self.unique(node.words, node.kind[:-1] + " " if node.kind.endswith("s")
                                else "")
            source = ""
            if node.source is not None:
                source = node.source.text
                stat = next((st for k in self.kinds.values() for st in k.stats
                             if st.name == source), None)
                if stat is None or not stat.values:
                    stats = [st.name for k in self.kinds.values() for st in k.stats if st.values]
                    self.error(node.source.pos, f"`{shorten(source)}` is not a word stat of the "
                               "game's cards", did_you_mean(source, stats) or
                               "`nouns from STAT` takes a stat whose values are words, such as "
                               "`stat type geuda, enchant`; or list the nouns: `nouns stun`")
                    continue
                words = tuple(stat.values)
            if node.kind == "uses":
                for w in node.words:
                    if w.text not in FEATURES:
                        self.error(w.pos, f"unknown construct `{shorten(w.text)}` of the card "
                                   "language", did_you_mean(w.text, FEATURES) or
                                   "the constructs a game may use are " + one_of(FEATURES))
            if node.kind in ("field", "abilities"):
                for w in node.words:
                    self.lookup(w, "zone")
            found[node.kind] = S.CardWordsSpec(node.kind, words,
                                               self.rule_of(node.label, node.pos), source)
        return tuple(found.values())

    # ------------------------------------------------------------------ an engine's frame
    def _needs_engine(self, node, played_by, what: str) -> bool:
        if played_by is None:
            self.error(node.pos, f"`{what}` is for a game played by an engine",
                       'add `played by "wgdsl.games.MODULE:FUNCTION"`, or give the game '
                       "`round {` with its phases (docs/games.md)")
            return False
        return True

    def turn_phases(self, node: Optional[ast.Phases], played_by) -> tuple:
        if node is None or not self._needs_engine(node, played_by, "phases"):
            return (), ""
        return self.unique(node.names, "phase "), self.rule_of(node.label, node.pos)

    def unique(self, words, what: str = "") -> tuple:
        """The texts of ``words`` in order, each once; a word listed again is an error at
        its place (``what`` names it: ``phase ``)."""
        seen: list[str] = []
        for w in words:
            if w.text in seen:
                self.error(w.pos, f"{what}`{w.text}` is listed twice")
            seen.append(w.text)
        return tuple(dict.fromkeys(seen))

    def limits(self, nodes, played_by) -> tuple:
        found: dict[str, S.LimitSpec] = {}
        for node in nodes:
            if not self._needs_engine(node, played_by, "limit"):
                continue
            name = node.name.text
            if name in found:
                self.error(node.name.pos, f"the limit of `{name}` is given twice")
                continue
            if not 1 <= node.count <= MAX_NUMBER:
                self.error(node.count_pos, f"a limit is 1 to {MAX_NUMBER:,} times a turn",
                           "a seat that may never take an action needs no action")
                continue
            found[name] = S.LimitSpec(name, node.count, self.rule_of(node.label, node.pos))
        return tuple(found.values())

    def pools(self, nodes, played_by) -> tuple:
        found: dict[str, S.PoolSpec] = {}
        for node in nodes:
            if not self._needs_engine(node, played_by, "pool"):
                continue
            name = node.name.text
            if name in found:
                self.error(node.name.pos, f"pool `{name}` is declared twice")
                continue
            found[name] = S.PoolSpec(name, node.per_seat, self.unique(node.words),
                                     node.emptied, self.rule_of(node.label, node.pos))
        return tuple(found.values())

    def card_set(self, node: Optional[ast.CardSet], played_by) -> tuple:
        """``cards "wg01"``: a built-in set's name or a ``.wg`` file beside the game file.
        The path is resolved, not read: the card language reads it when the game is loaded
        (a name with a directory part is refused, so a game file names no file elsewhere)."""
        if node is None or not self._needs_engine(node, played_by, "cards"):
            return None, ""
        ref = node.ref
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", ref) or ".." in ref:
            self.error(node.ref_pos, f"`{shorten(ref)}` is not a card set's name",
                       'name a built-in set (`"wg01"`) or a `.wg` file in the same folder as '
                       'this game file (`"my-set.wg"`)')
            return None, ""
        return ref, self.rule_of(node.label, node.pos)

    # ------------------------------------------------------------------ seats
    def seats(self, node: Optional[ast.Seats], order: Optional[ast.TurnOrder],
              first: Optional[ast.FirstSeat]):
        low = high = 2
        rule = "line 0"
        names: tuple = tuple(chr(ord("A") + i) for i in range(MAX_SEATS))
        if node is not None:
            rule = self.rule_of(node.label, node.pos)
            low, high = node.low, node.high
            if low < 1:
                self.error(node.low_pos, "a game has at least 1 seat")
            if high < low:
                self.error(node.high_pos,
                           f"`seats {low} to {high}`: the most is less than the fewest",
                           f"write `seats {high} to {low}`")
            if high > MAX_SEATS:
                self.error(node.high_pos, f"at most {MAX_SEATS} seats")
            if node.names:
                seen: dict[str, ast.Word] = {}
                for w in node.names:
                    if w.text in seen:
                        self.error(w.pos, f"seat `{w.text}` is named twice",
                                   "give each seat its own name")
                    seen.setdefault(w.text, w)
                names = tuple(w.text for w in node.names)
                if len(names) < high:
                    self.error(node.names[-1].pos,
                               f"{high} seats need {high} names; {len(names)} are given",
                               "name every seat, in turn order")
        clockwise = True
        if order is not None:
            self.rule_of(order.label, order.pos, record=False)
            word = order.word.text
            if word not in ORDERS:
                self.error(order.word.pos, f"unknown turn order `{shorten(word)}`",
                           did_you_mean(word, ORDERS) or "the turn order is " + one_of(ORDERS))
            clockwise = word != "counterclockwise"
        first_seat: Optional[str] = names[0]
        if first is not None:
            self.rule_of(first.label, first.pos, record=False)
            word = first.word.text
            if word == "random":
                first_seat = None
            elif word not in names[:max(low, 1)]:
                playing = names[:max(low, 1)]
                if word in names:
                    self.error(first.word.pos, f"with {low} seats, `{word}` does not play",
                               "the first seat is one of " + one_of(playing) + ", or `random`")
                else:
                    self.error(first.word.pos, f"unknown seat `{shorten(word)}`",
                               did_you_mean(word, list(playing) + ["random"])
                               or "the first seat is one of " + one_of(playing) + ", or `random`")
            else:
                first_seat = word
        return low, high, names[:max(high, 1)], clockwise, first_seat, rule

    # ------------------------------------------------------------------ options
    def option(self, node: ast.OptionDecl) -> None:
        if id(node.name) in self.refused:
            return
        self.rule_of(node.label, node.pos, record=False)
        for value, pos in ((node.low, node.low_pos), (node.high, node.high_pos),
                           (node.default, node.default_pos)):
            if value > MAX_NUMBER:
                self.error(pos, f"{value} is too large", f"at most {MAX_NUMBER:,}")
                return
        if node.high < node.low:
            self.error(node.high_pos, f"`{node.low} to {node.high}`: the most is less than the least")
        elif not node.low <= node.default <= node.high:
            self.error(node.default_pos, f"the default {node.default} is not within "
                                         f"{node.low} to {node.high}")
        self.options[node.name.text] = S.OptionSpec(node.name.text, node.low, node.high, node.default)

    def amount(self, number: ast.Number, least: int = 0, what: str = "") -> Optional[S.Amount]:
        """A number as written, or an option's name; ``least``: the smallest that makes
        sense where it is used (an option that can be less is reported)."""
        if isinstance(number.value, int):
            if number.value > MAX_NUMBER:
                self.error(number.pos, f"{number.value} is too large", f"at most {MAX_NUMBER:,}")
                return None
            if number.value < least:
                self.error(number.pos, f"{what} must be at least {least}")
                return None
            return S.Amount(number.value)
        word = ast.Word(number.value, pos=number.pos)
        if not self.lookup(word, "option"):
            return None
        option = self.options.get(number.value)
        if option is None:  # declared, but left out for an error of its own
            return None
        if option.low < least:
            self.error(number.pos, f"option `{option.name}` can be {option.low} (`{option.low} "
                                   f"to {option.high}`); {what} must be at least {least}",
                       f"make the option `{least} to {option.high}`")
            return None
        return S.Amount(option=number.value)

    # ------------------------------------------------------------------ cards
    def kind(self, node: ast.Kind) -> None:
        if id(node.name) in self.refused:
            return
        stats: dict[str, S.StatSpec] = {}
        for stat in node.stats:
            name = stat.name.text
            if name in stats:
                self.error(stat.name.pos,
                           f"stat `{name}` is declared twice in kind `{node.name.text}`")
                continue
            if stat.form in ("enum", "of", "per"):
                lists = [self.unique(words) for words in (stat.values, stat.per)]
                stats[name] = S.StatSpec(name, values=lists[0], form=stat.form, per=lists[1],
                                         rule=self.stat_rule(stat))
            else:
                if stat.high < stat.low:
                    self.error(stat.pos,
                               f"`{stat.low} to {stat.high}`: the most is less than the least")
                if max(stat.low, stat.high) > MAX_NUMBER:
                    self.error(stat.pos, f"a stat is at most {MAX_NUMBER:,}")
                if stat.default is not None and not stat.low <= stat.default <= stat.high:
                    self.error(stat.pos, f"the default {stat.default} is not within "
                               f"{stat.low} to {stat.high}")
                stats[name] = S.StatSpec(name, low=stat.low, high=stat.high,
                                         rule=self.stat_rule(stat), default=stat.default)
        for stat in node.stats:
            if stat.default_by is not None and stat.name.text in stats:
                self.default_by(stat, stats, node.name.text)
        flags: list[str] = []
        for flag in node.flags:
            if flag.text in flags or flag.text in stats:
                self.error(flag.pos, f"`{flag.text}` is declared twice in kind `{node.name.text}`")
                continue
            flags.append(flag.text)
        self.kinds[node.name.text] = S.KindSpec(node.name.text, tuple(stats.values()),
                                                tuple(flags))

    def stat_rule(self, stat: ast.StatDecl) -> str:
        return self.rule_of(stat.label, stat.pos) if stat.label is not None else ""

    def default_by(self, stat: ast.StatDecl, stats: dict, kind: str) -> None:
        """``default by color: blue scissors, ...``: every value of ``color`` maps to one
        of this stat's values."""
        name = stat.name.text
        by = stats.get(stat.default_by.text)
        if by is None or not by.values or by.name == name:
            self.error(stat.default_by.pos,
                       f"`{shorten(stat.default_by.text)}` is not another word stat of kind `{kind}`",
                       did_you_mean(stat.default_by.text,
                                    [s.name for s in stats.values()
                                     if s.values and s.name != name]) or
                       "a default comes from another stat whose values are words")
            return
        mine = stats[name]
        pairs: dict[str, str] = {}
        for key, value in stat.defaults:
            if key.text not in by.values:
                self.error(key.pos, f"`{shorten(key.text)}` is not a value of `{by.name}`",
                           did_you_mean(key.text, by.values) or
                           f"`{by.name}` is one of {one_of(by.values)}")
            elif key.text in pairs:
                self.error(key.pos, f"`{key.text}` is mapped twice")
            elif value.text not in mine.values:
                self.error(value.pos, f"`{shorten(value.text)}` is not a value of `{name}`",
                           did_you_mean(value.text, mine.values) or
                           f"`{name}` is one of {one_of(mine.values)}")
            else:
                pairs[key.text] = value.text
        missing = [v for v in by.values if v not in pairs]
        if missing and len(pairs) == len(stat.defaults):
            self.error(stat.default_by.pos,
                       f"`{name}` has no default for {one_of(missing)} of `{by.name}`",
                       "map every value: " + ", ".join(f"{v} {mine.values[0]}" for v in missing))
        stats[name] = attrs.evolve(mine, default_by=by.name,
                                   defaults=tuple((v, pairs[v]) for v in by.values if v in pairs))

    def card(self, node: ast.CardDecl) -> Optional[S.CardSpec]:
        ok = True
        ident = node.id.text
        if ident in self.card_ids:
            self.error(node.id.pos,
                       f"card id `{ident}` is already used on line {self.card_ids[ident]}",
                       "give every card its own id")
            ok = False
        self.card_ids.setdefault(ident, node.pos.line)
        for name, pos in ((node.name, node.name_pos), (node.name_en, node.name_en_pos)):
            if name is not None and has_control(name):
                self.error(pos, "a card name may not contain control characters")
                ok = False
        self.rule_of(node.label, node.pos, record=False)
        kind = None
        if self.lookup(node.kind, "kind of card"):
            kind = self.kinds.get(node.kind.text)
        copies = node.copies if node.copies is not None else 1
        if not 1 <= copies <= MAX_COPIES:
            self.error(node.copies_pos, f"copies: 1 to {MAX_COPIES}, not {copies}")
            ok = False
        self.instances += copies
        if self.instances > MAX_CARDS and self.instances - copies <= MAX_CARDS:
            self.error(node.pos, f"more than {MAX_CARDS:,} cards in the game")
            ok = False
        if kind is None:
            return None
        given: dict[str, object] = {}
        for stat in node.stats:
            decl = kind.stat(stat.name.text)
            if decl is None:
                names = [s.name for s in kind.stats]
                self.error(stat.name.pos,
                           f"kind `{kind.name}` has no stat `{shorten(stat.name.text)}`",
                           did_you_mean(stat.name.text, names) or
                           ("its stats are " + one_of(names) if names else "it has no stats"))
                ok = False
                continue
            if stat.name.text in given:
                self.error(stat.name.pos, f"`{stat.name.text}` is given twice")
                ok = False
                continue
            if decl.is_list or isinstance(stat.value, tuple):
                value = self.list_value(decl, stat, kind)
                if value is None:
                    ok = False
                    continue
                given[stat.name.text] = value
                continue
            if decl.values:
                if stat.value not in decl.values:
                    self.error(stat.value_pos, f"`{shorten(str(stat.value))}` is not a {decl.name}",
                               did_you_mean(str(stat.value), decl.values) or
                               f"a {decl.name} is " + one_of(decl.values))
                    ok = False
                    continue
            elif not isinstance(stat.value, int) or not decl.low <= stat.value <= decl.high:
                self.error(stat.value_pos, f"{decl.name} is a number from {decl.low} to {decl.high}, "
                                           f"not `{shorten(str(stat.value))}`")
                ok = False
                continue
            given[stat.name.text] = stat.value
        flags: list[str] = []
        for flag in node.flags:
            if flag.text not in kind.flags:
                self.error(flag.pos, f"kind `{kind.name}` has no flag `{shorten(flag.text)}`",
                           did_you_mean(flag.text, kind.flags) or
                           (f"its flags are {one_of(kind.flags)}" if kind.flags else
                            f"declare it in the kind: `flag {shorten(flag.text)}`"))
                ok = False
            elif flag.text in flags:
                self.error(flag.pos, f"`{flag.text}` is given twice")
                ok = False
            else:
                flags.append(flag.text)
        effects: list[str] = []
        for effect in node.effects:
            if not self.lookup(effect, "effect"):
                ok = False
            elif effect.text in effects:
                self.error(effect.pos, f"`{effect.text}` is given twice")
                ok = False
            else:
                effects.append(effect.text)
        for s_ in kind.stats:  # a list a card does not give is empty
            if s_.is_list:
                given.setdefault(s_.name, ())
        missing = [s.name for s in kind.stats if s.name not in given]
        if missing and ok:
            self.error(node.pos, f"card `{ident}` does not give its {_all_of(missing)}",
                       f"a card of kind `{kind.name}` gives every stat of it")
            ok = False
        if not ok:
            return None
        return S.CardSpec(ident, node.name, kind.name,
                          tuple((s.name, given[s.name]) for s in kind.stats), copies,
                          name_en=node.name_en, flags=tuple(flags), effects=tuple(effects))

    def signs(self, node: Optional[ast.Signs]) -> tuple:
        if node is None:
            return ()
        self.rule_of(node.label, node.pos, record=False)
        out = []
        for w in node.names:
            if id(w) not in self.refused:
                out.append(w.text)
        return tuple(out)

    def relation(self, node: ast.Relation, cards) -> Optional[S.RelationSpec]:
        if id(node.name) in self.refused:
            return None
        name = node.name.text
        if not node.facts:
            self.error(node.pos, f"relation `{name}` holds no pairs",
                       f"write one pair a line: `rock {name} scissors`")
            return None
        ids = {c.id for c in cards} | set(self.card_ids)
        pairs: dict[tuple, ast.Fact] = {}
        domain = set()
        for fact in node.facts:
            self.rule_of(fact.label, fact.pos)
            if fact.verb.text != name:
                self.error(fact.verb.pos, f"`{shorten(fact.verb.text)}` in relation `{name}`",
                           f"each line of the relation says `{name}`: `{fact.left.text} {name} "
                           f"{fact.right.text}`")
                continue
            sides = []
            for side in (fact.left, fact.right):
                is_card = side.text[:1].isupper()
                known = side.text in ids if is_card else self.names.get(side.text, ("",))[0] == "sign"
                if not known:
                    choices = sorted(ids) if is_card else self.names_of("sign")
                    what = "card" if is_card else "sign"
                    self.error(side.pos, f"unknown {what} `{shorten(side.text)}`",
                               did_you_mean(side.text, choices) or
                               ("a relation pairs signs (`signs rock, paper`) or card ids"))
                    break
                sides.append(side.text)
                domain.add("card" if is_card else "sign")
            else:
                pair = tuple(sides)
                if pair[0] == pair[1]:
                    self.error(fact.pos, f"`{pair[0]}` is paired with itself")
                elif pair[::-1] in pairs:
                    self.error(fact.pos, f"`{pair[0]} {name} {pair[1]}` contradicts line "
                                         f"{pairs[pair[::-1]].pos.line}",
                               "a relation holds one way between two things")
                elif pair not in pairs:
                    pairs[pair] = fact
        if len(domain) > 1:
            self.error(node.pos, f"relation `{name}` mixes signs and cards",
                       "a relation pairs signs, or card ids, not both")
            return None
        self.relation_domain[name] = domain.pop() if domain else "sign"
        return S.RelationSpec(name, frozenset(pairs))

    # ------------------------------------------------------------------ zones, counters, hooks
    def zone(self, node: ast.ZoneDecl) -> None:
        if node.name.text == S.PLAYED:
            self.error(node.name.pos, "`played` is the zone of the cards chosen in a round",
                       "give the zone another name; `move played cards to ...` moves them on")
            return
        if id(node.name) in self.refused:
            return
        self.rule_of(node.label, node.pos, record=False)
        chosen: dict[str, ast.Word] = {}
        slots, grid, rows = 0, (), ()
        for w in node.words:
            what = ZONE_WORDS.get(w.text) or (
                "places" if w.text.startswith(("slots ", "grid ")) else
                "rows" if w.text.startswith("rows ") else None)
            if what == "rows":
                rows = tuple(w.text.split(" ")[1:])
                if len(set(rows)) != len(rows):
                    self.error(w.pos, "a row's word is listed twice", "name each row once")
            if what == "places":
                numbers = [int(n) for n in w.text.split(" ")[1::2]]
                if not all(1 <= n <= MAX_PLACES for n in numbers):
                    self.error(w.pos, f"`{w.text}`: a zone has 1 to {MAX_PLACES} places a row "
                               "and 1 to {MAX_PLACES} rows".replace("{MAX_PLACES}", str(MAX_PLACES)))
                    continue
                if len(numbers) == 1:
                    slots = numbers[0]
                else:
                    grid = tuple(numbers)
            if what is None:
                self.error(w.pos, f"unknown word `{shorten(w.text)}` for a zone",
                           did_you_mean(w.text, ZONE_WORDS) or
                           "a zone is `shared` or `per seat`, a `pile` or a `bag`, and "
                           "`hidden`, `owner` or `public`")
                continue
            if what in chosen:
                self.error(w.pos, f"`{w.text}` and `{chosen[what].text}`: a zone has one {what}")
                continue
            chosen[what] = w
        per_seat = chosen.get("scope", ast.Word("shared")).text == "per seat"
        visibility = chosen.get("visibility", ast.Word("hidden")).text
        if visibility == "owner" and not per_seat:
            self.error(chosen["visibility"].pos, "a shared zone has no owner to see it",
                       "make it `per seat`, or `hidden` or `public`")
        if "stacking" in chosen and not (slots or grid):
            self.error(chosen["stacking"].pos, "`stacks` are the stacks of a zone's places",
                       "give the zone places: `slots 5` or `grid 3 by 3`")
        if "rows" in chosen and not grid:
            self.error(chosen["rows"].pos, "`rows` names the rows of a grid",
                       "give the zone a grid: `grid 3 by 3 rows battle, my`")
        self.zones[node.name.text] = S.ZoneSpec(node.name.text, per_seat,
                                                chosen.get("kind", ast.Word("pile")).text == "pile",
                                                visibility, slots=slots, grid=grid,
                                                stacks="stacking" in chosen, rows=rows,
                                                rule=self.rule_of(node.label, node.pos,
                                                                  record=False))

    def counter(self, node: ast.CounterDecl) -> None:
        if id(node.name) in self.refused:
            return
        self.rule_of(node.label, node.pos, record=False)
        if node.start > MAX_NUMBER:
            self.error(node.start_pos, f"a counter starts at most at {MAX_NUMBER:,}")
        self.counters[node.name.text] = S.CounterSpec(node.name.text, node.start)

    def list_value(self, decl: S.StatSpec, stat: ast.CardStat, kind) -> Optional[tuple]:
        """A card's bracketed list for the list stat ``decl`` (None after an error)."""
        name = decl.name
        if not decl.is_list:
            self.error(stat.value_pos, f"`{name}` is one value, not a list",
                       f"write `{name} VALUE` without brackets")
            return None
        if not isinstance(stat.value, tuple):
            self.error(stat.value_pos, f"`{name}` is a list: write it in brackets",
                       f"such as `{name} [{_list_example(decl)}]`, or `{name} []` for none")
            return None
        out = []
        ok = True
        for entry in stat.value:
            word, number, per = entry.word, entry.number, entry.per
            if decl.form == "per" and word is not None:
                self.error(word.pos, f"`{name}` entries are numbers, not `{shorten(word.text)}`",
                           f"such as `{_list_example(decl)}`")
                ok = False
                continue
            if decl.form == "of" and word is None:
                self.error(entry.pos, f"`{name}` entries name one of {one_of(decl.values)}",
                           f"such as `{_list_example(decl)}`")
                ok = False
                continue
            if word is not None and word.text not in decl.values:
                self.error(word.pos, f"`{shorten(word.text)}` is not one of {name}'s words",
                           did_you_mean(word.text, decl.values) or
                           f"{name} lists {one_of(decl.values)}")
                ok = False
                continue
            if per is not None:
                if not decl.per:
                    self.error(per.pos, f"`{name}` has no `per` entries",
                               f"its kind declares `stat {name} of ...` without `per`")
                    ok = False
                    continue
                if per.text not in decl.per:
                    self.error(per.pos, f"`per {shorten(per.text)}`: {name} counts per "
                                        f"{one_of(decl.per)}",
                               did_you_mean(per.text, decl.per))
                    ok = False
                    continue
            if number is not None and not 1 <= number <= MAX_NUMBER:
                self.error(entry.pos, f"a number of `{name}` is 1 to {MAX_NUMBER:,}")
                ok = False
                continue
            out.append((word.text if word else None, number if number is not None else 1,
                        per.text if per else None))
        if not ok:
            return None
        if decl.form == "of" and not decl.per:  # counts: merged, in the declared order
            counts: dict = {}
            for word, number, _ in out:
                counts[word] = counts.get(word, 0) + number
            return tuple((w, counts[w], None) for w in decl.values if w in counts)
        return tuple(out)

    def hook(self, node: ast.HookDecl) -> None:
        if id(node.name) in self.refused:
            return
        found = self.rule_function(node.ref, node.ref_pos)
        if found is not None:
            self.hooks[node.name.text] = (*found, node)

    def rule_function(self, ref: str, pos: ast.Pos) -> Optional[tuple[str, str]]:
        """``(module, function)`` of a reference ``"wgdsl.games.MODULE:FUNCTION"``, or None
        (reported) when it names no rule function of that package."""
        m = _HOOK_REF.fullmatch(ref)
        if m is not None:
            return m.group(1), m.group(2)
        any_ref = _ANY_REF.fullmatch(ref)
        if any_ref is not None and not (any_ref.group(1) + ".").startswith(HOOK_PACKAGE):
            self.error(pos, f"`{shorten(ref)}` is outside the wgdsl.games package",
                       "a game file may use rule functions of wgdsl.games only "
                       "(`\"wgdsl.games.MODULE:FUNCTION\"`): a game file runs no other code")
        else:
            self.error(pos, f"`{shorten(ref)}` does not name a rule function",
                       'write `"wgdsl.games.MODULE:FUNCTION"`, such as '
                       '`"wgdsl.games.described.library:odd_one_out"`')
        return None

    # ------------------------------------------------------------------ effects, engines
    def effect(self, node: ast.EffectDecl) -> Optional[S.EffectSpec]:
        if id(node.name) in self.refused:
            return None
        ok = True
        rule = self.rule_of(node.label, node.pos)
        for name, pos in ((node.name_ja, node.pos), (node.name_en, node.name_en_pos)):
            if name is not None and has_control(name):
                self.error(pos, "an effect's name may not contain control characters")
                ok = False
        traits: list[str] = []
        for trait in node.traits:
            if trait.text in traits:
                self.error(trait.pos, f"`{trait.text}` is given twice")
                ok = False
            traits.append(trait.text)
        texts: dict[str, str] = {}
        for language, text, pos in node.texts:
            if language in texts:
                self.error(pos, f"the {_LANGUAGES[language]} text is given twice",
                           "give one `ja` line and one `en` line")
                ok = False
            elif has_control(text):
                self.error(pos, "an effect's text may not contain control characters")
                ok = False
            texts[language] = text
        missing = [lang for lang in _LANGUAGES if lang not in texts]
        if missing:
            self.error(node.pos, f"effect `{node.name.text}` has no "
                                 f"{' and no '.join(_LANGUAGES[m] for m in missing)} text",
                       "write its text in both languages inside its block: "
                       '`ja "…"` and `en "…"`, one a line')
            ok = False
        if node.name_en is None:
            self.error(node.pos, f"effect `{node.name.text}` has no English name",
                       f'write it after the Japanese one: `effect {node.name.text} '
                       f'"{shorten(node.name_ja)}" en "Name"`')
            ok = False
        found = self.rule_function(node.ref, node.ref_pos)
        if found is None or not ok:
            return None
        hook = S.HookSpec(node.name.text, *found, "effect", pos=node.ref_pos)
        return S.EffectSpec(node.name.text, node.name_ja, node.name_en, texts["ja"],
                            texts["en"], rule, hook, selects="selects a seat" in traits,
                            once_per_turn="once per turn" in traits,
                            response="as a response" in traits)

    def played_by(self, node: Optional[ast.PlayedBy], round_node, end_node,
                  setup_node) -> Optional[S.HookSpec]:
        """``played by``: the engine's rule function; the game then has no rounds, end or
        setup of its own (its engine's rule functions are its procedure)."""
        if node is None:
            return None
        self.rule_of(node.label, node.pos)
        for other, word in ((round_node, "round"), (end_node, "end"), (setup_node, "setup")):
            if other is not None:
                self.error(other.pos, f"a game played by an engine has no `{word}` block",
                           f"its engine (`played by`, line {node.pos.line}) sets it up, plays "
                           "its turns and ends it; remove the block, or remove `played by` to "
                           "play the game by its rounds")
        found = self.rule_function(node.ref, node.ref_pos)
        if found is None:
            return None
        return S.HookSpec("engine", *found, "engine", pos=node.ref_pos)

    def hook_specs(self):
        for name, (module, function, node) in self.hooks.items():
            yield S.HookSpec(name, module, function, self.hook_kinds.get(name, "compare"),
                             pos=node.ref_pos)

    def unused(self) -> None:
        # an engine (`played by`) reads the options and counters itself
        engine = any(isinstance(i, ast.PlayedBy) for i in self.game.items)
        checked = ("rule function", "relation") if engine else \
            ("counter", "rule function", "relation", "option")
        for name, (what, pos) in self.names.items():
            if what in checked and name not in self.used:
                self.warning(pos, f"{what} `{shorten(name)}` is never used")

    # ------------------------------------------------------------------ places
    def zone_of(self, word: ast.Word) -> Optional[S.ZoneSpec]:
        if self.lookup(word, "zone"):
            return self.zones[word.text]
        return None

    def whose(self, zone: S.ZoneSpec, who: Optional[ast.Who], allowed, where: str,
              default: Optional[str] = None) -> tuple[bool, Optional[str]]:
        """Whose ``zone`` a place means: (fine, the who) — reported when it does not fit."""
        if not zone.per_seat:
            if who is not None:
                self.error(who.pos, f"`{zone.name}` is shared: it is nobody's",
                           f"write `{zone.name}` alone")
                return False, None
            return True, None
        kind = who.kind if who is not None else default
        if kind not in allowed:
            if who is None:
                self.error(self.place_pos, f"`{zone.name}` is a zone per seat: say whose",
                           "add " + one_of(f"of {S.WHO_TEXT[k]}" for k in allowed if k))
            else:
                self.error(who.pos, f"{where} cannot be `{zone.name}` of {S.WHO_TEXT[kind]}",
                           "write " + one_of(f"of {S.WHO_TEXT[k]}" for k in allowed if k))
            return False, None
        if kind in _WINNER_WHO and not self.flow.compared:
            self.error(who.pos, "there is no winner yet", _NO_WINNER_YET)
            return False, None
        return True, kind

    # ------------------------------------------------------------------ steps
    def setup(self, node: Optional[ast.Setup]) -> tuple:
        self.flow = _Flow()
        if node is None:
            return ()
        self.block_rule = self.rule_of(node.label, node.pos, record=False) if node.label else None
        out = []
        for step in node.steps:
            if step.kind in ("reveal", "compare"):
                self.error(step.pos, f"`{step.kind}` is a step of a round, not of the setup",
                           "nothing has been chosen before the first round")
                continue
            compiled = self.step(step, in_setup=True)
            if compiled is not None:
                out.append(compiled)
        self.block_rule = None
        return tuple(out)

    def round(self, node: ast.Round) -> tuple:
        self.flow = _Flow()
        round_rule = self.rule_of(node.label, node.pos, record=False) if node.label else None
        phases = []
        names: dict[str, ast.Word] = {}
        for phase in node.phases:
            if phase.name.text in names:
                self.error(phase.name.pos, f"phase `{phase.name.text}` is already a phase "
                                           f"(line {names[phase.name.text].pos.line})",
                           "give each phase its own name")
            names.setdefault(phase.name.text, phase.name)
            self.block_rule = round_rule
            phases.append(self.phase(phase))
        self.block_rule = None
        if not node.phases:
            self.error(node.pos, "a round has no phases", "add `phase NAME {` with a window")
        elif not self.flow.windows:
            self.error(node.pos, "nobody ever chooses anything in a round",
                       "a phase opens with a window: `every seat chooses a sign at once` or "
                       "`the active seat chooses a card from hand`")
        if self.flow.card_window is not None and not self.flow.moved_played:
            self.error(self.flow.card_window.pos, "the cards chosen here are never moved on",
                       "move them later in the round: `move played cards to discard` (or to "
                       "`bottom of stack of the winner`...)")
        return tuple(phases)

    def phase(self, node: ast.Phase) -> S.Phase:
        rule = self.rule_of(node.label, node.pos, record=False)
        self.block_rule = node.label.rule if node.label else self.block_rule
        window = None
        steps = []
        for i, item in enumerate(node.items):
            if isinstance(item, ast.Window):
                if i > 0:
                    self.error(item.pos, "a window opens its phase",
                               "start a new phase for another choice: `phase NAME {`")
                    continue
                window = self.window(item)
                continue
            compiled = self.step(item)
            if compiled is not None:
                steps.append(compiled)
        return S.Phase(node.name.text, window, tuple(steps), rule)

    def window(self, node: ast.Window) -> Optional[S.Window]:
        rule = self.rule_of(node.label, node.pos)
        flow = self.flow
        flow.windows += 1
        flow.revealed = False
        kind = "sign" if node.what == "sign" else "card"
        if flow.choice_kind not in (None, kind):
            self.error(node.pos, f"this window chooses a {kind}, an earlier one of the round "
                                 f"a {flow.choice_kind}",
                       "a round's windows all choose signs, or all choose cards")
        flow.choice_kind = flow.choice_kind or kind
        zone = None
        if node.what == "sign":
            if not self.names_of("sign"):
                self.error(node.pos, "the game has no signs to choose",
                           "declare them: `signs rock, paper, scissors`")
                return None
        else:
            flow.card_window = node
            flow.moved_played = False
            zone = self.zone_of(node.zone)
            if zone is None:
                return None
            if node.what == "top" and not zone.ordered:
                self.error(node.zone.pos, f"`{zone.name}` is a bag: it has no top card",
                           f"choose `a card from {zone.name}`, or make it a `pile`")
                return None
            if node.what == "card":
                sees = zone.visibility == "public" or (zone.per_seat and zone.visibility == "owner")
                if not sees:
                    self.error(node.zone.pos, f"a seat cannot see the cards of `{zone.name}` "
                                              f"({zone.visibility}) to choose one",
                               f"make the zone `{'owner' if zone.per_seat else 'public'}`, or "
                               f"choose `the top card of {zone.name}`")
                    return None
            if node.every and not zone.per_seat:
                self.error(node.zone.pos, f"every seat choosing at once from the shared "
                                          f"`{zone.name}` could choose the same card",
                           "choose from a zone per seat, or let `the active seat` choose")
                return None
        return S.Window(node.every, node.what, zone.name if zone else None, rule,
                        self.text_of(node.pos))

    def names_of(self, what: str) -> list[str]:
        return [n for n, (k, _) in self.names.items() if k == what]

    def step(self, node: ast.Step, in_setup: bool = False) -> Optional[S.Step]:
        rule = self.rule_of(node.label, node.pos)
        text = self.text_of(node.pos)
        flow = self.flow
        self.place_pos = node.pos
        kind = node.kind
        if kind == "reveal":
            if not flow.windows:
                self.error(node.pos, "nothing has been chosen to reveal",
                           "a `reveal` follows a window in the round")
                return None
            flow.revealed = True
            return S.Step(kind, rule, text)
        if kind == "compare":
            return self.compare(node, rule, text)
        if kind == "add":
            ok = self.lookup(node.name, "counter")
            amount = self.amount(node.amount, 0, "an amount")
            who = node.who.kind
            if who not in _ADD_WHO:
                self.error(node.who.pos,
                           f"`{S.WHO_TEXT[who]}` is a card's owner; a counter is a seat's",
                           "write " + one_of(f"of {S.WHO_TEXT[k]}" for k in _ADD_WHO))
                return None
            if who in _WINNER_WHO and not flow.compared:
                self.error(node.who.pos, "there is no winner yet", _NO_WINNER_YET)
                return None
            if not ok or amount is None:
                return None
            return S.Step(kind, rule, text, name=node.name.text, amount=amount, who=who)
        if kind == "put":
            zone = self.zone_of(node.name)
            if zone is None:
                return None
            if not in_setup:
                self.error(node.pos, "`put every card` is a step of the setup")
                return None
            if zone.per_seat:
                self.error(node.name.pos, f"`{zone.name}` is a zone per seat",
                           "put every card into a shared zone, then `deal` it")
                return None
            if not self.card_ids:
                self.error(node.pos, "the game has no cards to put",
                           'declare them: `card ID "Name" KIND STAT VALUE ... copies N`')
                return None
            if flow.put:
                self.error(node.pos, "every card is already put in a zone")
                return None
            if zone.capacity is not None and zone.capacity < self.instances:
                self.error(node.name.pos, f"`{zone.name}` has {zone.capacity} places for "
                           f"{self.instances} cards",
                           "put every card into a zone without places (a pile or a bag), "
                           "or give the zone more places")
            flow.put = True
            return S.Step(kind, rule, text, name=zone.name)
        if kind == "shuffle":
            zone = self.zone_of(node.source.zone)
            if zone is None:
                return None
            if not zone.ordered:
                self.error(node.source.zone.pos,
                           f"`{zone.name}` is a bag: it has no order to shuffle",
                           "only piles are shuffled")
                return None
            ok, who = self.whose(zone, node.source.who,
                                 (None, S.EACH_SEAT, S.THE_WINNER, S.ACTIVE_SEAT), "what is shuffled")
            return S.Step(kind, rule, text, source=S.ZoneRef(zone.name, who)) if ok else None
        if kind in ("deal", "draw"):
            src = self.zone_of(node.source.zone)
            dest = self.zone_of(node.name)
            amount = None if node.amount is None else self.amount(node.amount, 1, f"what is {kind}n")
            if src is None or dest is None or (node.amount is not None and amount is None):
                return None
            if not src.ordered:
                self.error(node.source.zone.pos,
                           f"`{src.name}` is a bag: it has no top to {kind} from",
                           "make it a `pile`")
                return None
            if not dest.per_seat:
                self.error(node.name.pos,
                           f"`{dest.name}` is shared; each seat {kind}s into its own zone",
                           "name a zone per seat")
                return None
            if kind == "deal":
                if src.per_seat:
                    self.error(node.source.zone.pos, f"`{src.name}` is a zone per seat",
                               "deal from a shared zone (each seat `draw`s from its own)")
                    return None
                return S.Step(kind, rule, text, amount=amount, source=S.ZoneRef(src.name),
                              dest=S.ZoneRef(dest.name, S.EACH_SEAT))
            if src.per_seat and node.source.who is not None:
                self.error(node.source.who.pos, "each seat draws from its own zone",
                           f"write `from {src.name}`")
                return None
            return S.Step(kind, rule, text, amount=amount,
                          source=S.ZoneRef(src.name, S.ITS_OWNER if src.per_seat else None),
                          dest=S.ZoneRef(dest.name, S.ITS_OWNER))
        if kind == "move":
            return self.move(node, rule, text, in_setup)
        raise AssertionError(f"unknown step kind {kind!r}")  # pragma: no cover - the grammar's

    def compare(self, node: ast.Step, rule: str, text: str) -> Optional[S.Step]:
        flow = self.flow
        if not flow.windows:
            self.error(node.pos, "nothing has been chosen to compare",
                       "a `compare` follows a window and a `reveal` in the round")
            return None
        if not flow.revealed:
            self.error(node.pos, "the choices are still hidden",
                       "add `reveal` before `compare`: a seat must see what beat it")
            return None
        flow.compared = True
        how, word = node.how, node.name
        if how == "rule":
            if not self.lookup(word, "rule function"):
                return None
            self.hook_kinds[word.text] = "compare"
            return S.Step("compare", rule, text, how=how, name=word.text)
        if how == "relation":
            found = self.names.get(word.text)
            if found is not None and found[0] == "rule function":
                self.error(word.pos, f"`{word.text}` is a rule function",
                           f"write `compare by rule {word.text}`")
                return None
            if found is None and self.stat_names() and word.text in self.stat_names():
                self.error(word.pos, f"`{word.text}` is a stat, not a relation",
                           f"write `compare by higher {word.text}` (or `lower`)")
                return None
            if not self.lookup(word, "relation", ""):
                return None
            domain = self.relation_domain.get(word.text, "sign")
            if flow.choice_kind not in (None, domain):
                self.error(word.pos, f"relation `{word.text}` pairs {domain}s; this round chooses "
                                     f"{flow.choice_kind}s")
                return None
            return S.Step("compare", rule, text, how=how, name=word.text)
        # higher / lower STAT
        if flow.choice_kind != "card":
            self.error(node.pos, f"`compare by {how} {word.text}` compares cards; this round "
                                 "chooses signs", "compare signs by a relation: `compare by beats`")
            return None
        kinds = list(self.kinds.values())
        lacking = [k.name for k in kinds if k.stat(word.text) is None]
        if not kinds or len(lacking) == len(kinds):
            self.error(word.pos, f"unknown stat `{shorten(word.text)}`",
                       did_you_mean(word.text, self.stat_names()) or
                       ("the stats are " + one_of(self.stat_names()) if self.stat_names()
                        else "declare it in a kind: `kind NAME {` / `stat rank 1 to 13`"))
            return None
        if lacking:
            self.error(word.pos, f"kind {one_of(lacking)} has no stat `{word.text}`",
                       "every kind of card that can be chosen needs the stat compared")
            return None
        if any(k.stat(word.text).is_list for k in kinds):
            self.error(word.pos, f"`{word.text}` is a list: cards are compared by a number or "
                                 "a word", "compare by a stat such as `rank 1 to 13`")
            return None
        return S.Step("compare", rule, text, how=how, name=word.text)

    def stat_names(self) -> list[str]:
        return sorted({s.name for k in self.kinds.values() for s in k.stats})

    def move(self, node: ast.Step, rule: str, text: str, in_setup: bool) -> Optional[S.Step]:
        flow = self.flow
        place = node.place
        has_owner = True
        if node.source is None:  # the played cards
            if flow.choice_kind != "card":
                self.error(node.pos, "no card has been chosen in this round" if in_setup or
                           flow.choice_kind is None else "this round chooses signs, not cards",
                           "`move played cards` follows a window where seats choose cards")
                return None
            flow.moved_played = True
            source = None
        else:
            src = self.zone_of(node.source.zone)
            if src is None:
                return None
            ok, who = self.whose(src, node.source.who, _SOURCE_WHO, "where cards come from")
            if not ok:
                return None
            has_owner = src.per_seat
            source = S.ZoneRef(src.name, who or (S.EACH_SEAT if src.per_seat else None))
        dest = self.zone_of(place.zone)
        if dest is None:
            return None
        if place.end is not None and not dest.ordered:
            self.error(place.pos, f"`{dest.name}` is a bag: it has no {place.end}",
                       f"write `to {dest.name}`, or make it a `pile`")
            return None
        self.place_pos = place.pos
        if dest.per_seat and place.who is None and not has_owner:
            self.error(place.pos, f"`{dest.name}` is a zone per seat: say whose",
                       "add `of the winner` or `of the active seat`")
            return None
        ok, who = self.whose(dest, place.who, _DEST_WHO, "where cards go",
                             default=S.ITS_OWNER)
        if not ok:
            return None
        if who == S.ITS_OWNER and not has_owner:
            self.error(place.who.pos, "cards of a shared zone have no owner",
                       "write `of the winner` or `of the active seat`")
            return None
        same_zone = source is not None and source.zone == dest.name
        if same_zone and (source.who == who or not dest.per_seat):
            self.error(place.pos, f"the cards are moved from `{dest.name}` to itself")
            return None
        return S.Step("move", rule, text, source=source,
                      dest=S.ZoneRef(dest.name, who, place.end))

    # ------------------------------------------------------------------ the end
    def quantity(self, q: ast.Quantity) -> Optional[S.Quantity]:
        if q.cards:
            zone = self.zone_of(q.name)
            if zone is None:
                return None
            if not zone.per_seat:
                self.error(q.name.pos,
                           f"`{zone.name}` is shared; a seat's cards are in a zone per seat")
                return None
            return S.Quantity(True, zone.name)
        if not self.lookup(q.name, "counter"):
            return None
        return S.Quantity(False, q.name.text)

    def ends(self, node: ast.End) -> tuple:
        self.block_rule = self.rule_of(node.label, node.pos, record=False) if node.label else None
        out = []
        capped = False
        for rule_node in node.rules:
            rule = self.rule_of(rule_node.label, rule_node.pos)
            cond, outcome = rule_node.condition, rule_node.outcome
            amount = quantity = by = None
            ok = True
            if cond.kind == "after":
                amount = self.amount(cond.amount, 1, "the number of rounds")
                ok = amount is not None
                capped = True
                if outcome.kind in ("that_wins", "that_loses"):
                    self.error(outcome.pos, "after a number of rounds there is no `that seat`",
                               "write `highest COUNTER wins` or `nobody wins`")
                    ok = False
            else:
                if cond.kind == "at_least":
                    amount = self.amount(cond.amount, 0, "an amount")
                    ok = amount is not None
                quantity = self.quantity(cond.quantity)
                ok = ok and quantity is not None
            if outcome.quantity is not None:
                by = self.quantity(outcome.quantity)
                ok = ok and by is not None
            if ok:
                out.append(S.EndRule(cond.kind, outcome.kind, rule, self.text_of(rule_node.pos),
                                     amount=amount, quantity=quantity, by=by))
        self.block_rule = None
        if not capped:
            self.error(node.pos, "nothing caps the number of rounds",
                       "every game must end: add a rule such as `after 50 rounds: highest points "
                       "wins` or `after 50 rounds: nobody wins`")
        return tuple(out)


class _Flow:
    """What has happened so far in the round (or the setup) being checked."""

    def __init__(self):
        self.windows = 0
        self.choice_kind: Optional[str] = None  # "sign" or "card"
        self.revealed = False  # since the last window
        self.compared = False
        self.card_window: Optional[ast.Window] = None  # the last window that chose a card
        self.moved_played = False  # since it
        self.put = False


def _statement_text(rest: str) -> str:
    """``rest`` of a line without its comment (a ``#`` outside quotes), its ``rule ID`` and
    a block's ``{``, its words separated by single spaces."""
    quoted = False
    for i, ch in enumerate(rest):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            rest = rest[:i]
            break
    words = rest.split()
    if words[-1:] == ["{"]:
        words.pop()
    if len(words) >= 2 and words[-2] == "rule" and words[-1][:1].isupper():
        words = words[:-2]
    return " ".join(words)


_NO_WINNER_YET = ("`the winner` and `each winner` are those of a `compare` earlier in the "
                  "round")
# what each declaration names
_DECLARES = {ast.OptionDecl: "option", ast.Kind: "kind of card", ast.ZoneDecl: "zone",
             ast.CounterDecl: "counter", ast.HookDecl: "rule function", ast.Relation: "relation",
             ast.EffectDecl: "effect"}
_KEYWORD = {ast.Seats: "seats", ast.TurnOrder: "turn order", ast.FirstSeat: "first seat",
            ast.Signs: "signs", ast.Setup: "setup", ast.Round: "round", ast.End: "end",
            ast.PlayedBy: "played by", ast.Phases: "phases", ast.CardSet: "cards"}
_WORDS_KEYWORD = {"nouns": "nouns", "states": "states", "uses": "uses",
                  "judgments": "judgments", "field": "field", "abilities": "abilities in"}
_LANGUAGES = {"ja": "Japanese", "en": "English"}
_DECLARE = {
    "zone": "`zone NAME per seat pile hidden`",
    "counter": "`counter NAME start 0`",
    "option": "`option NAME 1 to 10 default 5`",
    "relation": "`relation beats {` with lines such as `rock beats scissors`",
    "rule function": '`rule NAME from "wgdsl.games.MODULE:FUNCTION"`',
    "kind of card": "`kind NAME {` with lines such as `stat rank 1 to 13`",
    "sign": "`signs rock, paper, scissors`",
    "effect": '`effect NAME "名前" en "Name" from "wgdsl.games.MODULE:FUNCTION" {` with its '
              '`ja "…"` and `en "…"` text',
}


def _list_example(decl: S.StatSpec) -> str:
    if decl.form == "per":
        return f"3, 1 per {decl.per[0]}" if decl.per else "3"
    first = decl.values[0] if decl.values else "X"
    return f"{first} 2, {first} per {decl.per[0]}" if decl.per else f"{first} 2"


def _all_of(items) -> str:
    items = [f"`{i}`" for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _article(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _plural(noun: str) -> str:
    return {"kind of card": "kinds of card"}.get(noun, noun + "s")
