"""Pretty-printer: AST -> canonical card-language text (``wgdsl fmt``).

``format_cardset`` and ``format_card`` write the house style of ``cards/wg01.wg``::

    card XX-006 "新しい星人" en "Newcomer" {
      color red  cost 3  requires 1  stun 1
      field when this leaves field to break:
        move this to bottom of owner's stock
    }

One stats line (stats two spaces apart, in the order color, mark, cost, requires, stun,
unique; a stat written twice is kept twice, in the order written), then each effect: its
header indented by two spaces, its ``cost:`` line and actions by four.  Cards are
separated by one blank line.

Where the language accepts several spellings of one thing, the printer writes one of
them: ``2 cards`` / ``1 card``, ``of cost 2 or less`` for ``<=`` (``or more`` for
``>=``), ``fewer`` for ``less``, ``a``/``an`` by the next word, ``on`` before a field
zone and ``in`` before any other zone (``from`` in ``plays a card from hand``), ``at``
before turn events and ``when`` before the others.

Comments: the AST does not keep them, so :func:`format_source` (what ``wgdsl fmt``
runs) finds them in the source text and puts each back where it was.  The file's
opening comment block -- the comment and blank lines before the first card -- is kept
as it is.  Every other comment goes with a printed line: a comment at the end of a line
stays at the end of the printed line of the construct that starts on that line (a card
header, the stats line, an effect header, a ``cost:`` line, an action, a static rule,
the closing ``}``); a comment on a line of its own goes before the printed line of the
construct that follows it, indented like it (before ``}`` when nothing else follows in
the card; at the end of the file after the last card).  Between cards, a blank line
above a comment or between a comment and its card is kept.  Formatting formatted text
changes nothing (``format_source(format_source(x)) == format_source(x)``).

The printer covers every construct of ``grammar/wgdsl.lark``; the round trip
``parse(format_cardset(s)) == s`` holds for every card set (tests/test_fmt.py checks it
with generated trees).
"""

from __future__ import annotations

import bisect
import re
from typing import Optional

from . import ast

# World Gainer's stats in the order its cards write them; another game's stats keep the
# order the card gives them, after these
STAT_ORDER = ("color", "mark", "cost", "requires", "stun", "unique")
HEADER_INDENT = "  "
ACTION_INDENT = "    "


# ------------------------------------------------------------------------ small words
def article(next_word: str) -> str:
    """``a`` or ``an`` before ``next_word`` (by its first letter)."""
    return "an" if next_word[:1] in "aeiou" else "a"


def with_article(text: str) -> str:
    return f"{article(text)} {text}"


def quote(text: str) -> str:
    return f'"{text}"'


_OWNER_WORDS = {"you": "your", "opponent": "opponent's", "owner": "owner's"}


def owner_word(owner: Optional[str]) -> Optional[str]:
    return None if owner is None else _OWNER_WORDS[owner]


def _join(*parts: Optional[str]) -> str:
    return " ".join(p for p in parts if p)


# ------------------------------------------------------------------------ zones
def fmt_zone(zone: ast.Zone) -> str:
    return _join(owner_word(zone.owner), zone.name)


def place_word(zone: ast.Zone) -> str:
    """``on`` a field zone, ``in`` any other (``on battle field``, ``in your hand``)."""
    return "on" if zone.is_field else "in"


# ------------------------------------------------------------------------ filters
def fmt_cost(cost: ast.CostBound) -> str:
    if cost.op == "<=":
        return f"of cost {cost.value} or less"
    if cost.op == ">=":
        return f"of cost {cost.value} or more"
    return f"of cost {cost.op} {cost.value}"


def fmt_filter(f: ast.Filter, place: Optional[str] = None) -> str:
    """``your ready stun in your standby``; ``place`` overrides the preposition."""
    named = f"named {quote(f.name)}" if f.name is not None else None
    cost = fmt_cost(f.cost) if f.cost is not None else None
    where = None
    if f.zone is not None:
        where = f"{place or place_word(f.zone)} {fmt_zone(f.zone)}"
    nouns = " or ".join(f.nouns) if f.alternatives else f.noun
    return _join(owner_word(f.owner), *f.states, *f.values, nouns, named, cost, where)


# ------------------------------------------------------------------------ selectors
def fmt_selector(sel: ast.Selector) -> str:
    if isinstance(sel, ast.This):
        return "this"
    if isinstance(sel, ast.It):
        return "it"
    if isinstance(sel, ast.ThatCard):
        return f"that {sel.noun}"
    if isinstance(sel, ast.All):
        return fmt_filter(sel.filter)
    if isinstance(sel, ast.Choose):
        return with_article(fmt_filter(sel.filter))
    if isinstance(sel, ast.Random):
        return f"a random {fmt_filter(sel.filter)}"
    if isinstance(sel, ast.Every):
        return f"every {fmt_filter(sel.filter)}"
    if isinstance(sel, ast.Stacks):
        return f"every stack on {fmt_zone(sel.zone)}"
    if isinstance(sel, ast.EndCard):
        return f"{sel.end} card of {fmt_zone(sel.zone)}"
    raise TypeError(f"not a selector: {sel!r}")


# ------------------------------------------------------------------------ destinations
def fmt_dest(dest: ast.Dest) -> str:
    if isinstance(dest, ast.ToZone):
        as_stun = f"as {dest.as_stun} stun" if dest.as_stun else None
        return _join(fmt_zone(dest.zone), as_stun)
    if isinstance(dest, ast.ToEnd):
        return f"{dest.end} of {fmt_zone(dest.zone)}"
    if isinstance(dest, ast.ToEmptySquare):
        return f"an empty square of {fmt_zone(dest.zone)}"
    raise TypeError(f"not a destination: {dest!r}")


# ------------------------------------------------------------------------ conditions
_PLAYER_WORDS = {"you": "you", "opponent": "opponent"}


def fmt_condition(cond: ast.Condition) -> str:
    if isinstance(cond, ast.YouDid):
        return "you do"
    if isinstance(cond, ast.Holds):
        return f"{fmt_zone(cond.zone)} holds {with_article(fmt_filter(cond.filter))}"
    if isinstance(cond, ast.Compare):
        have = cond.quantity == "cards in hand"
        if cond.left == "you":
            verb = "have" if have else "hold"
        else:
            verb = "has" if have else "holds"
        return _join(_PLAYER_WORDS[cond.left], verb, cond.relation, cond.quantity, "than",
                     _PLAYER_WORDS[cond.right])
    raise TypeError(f"not a condition: {cond!r}")


# ------------------------------------------------------------------------ actions
def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def fmt_action(act: ast.Action) -> str:
    if isinstance(act, ast.Draw):
        return f"draw {_plural(act.count, 'card')}"
    if isinstance(act, ast.Look):
        return f"look at {fmt_selector(act.what)}"
    if isinstance(act, ast.Move):
        return f"move {fmt_selector(act.what)} to {fmt_dest(act.to)}"
    if isinstance(act, ast.Exhaust):
        return f"exhaust {fmt_selector(act.what)}"
    if isinstance(act, ast.Shuffle):
        return f"shuffle {fmt_zone(act.zone)}"
    if isinstance(act, ast.ChooseAction):
        return f"choose {fmt_selector(act.what)}"
    if isinstance(act, ast.EnterAsCopy):
        return f"enter as a copy of {fmt_selector(act.what)}"
    if isinstance(act, ast.CancelPlay):
        return "cancel that play"
    if isinstance(act, ast.AddPoints):
        return f"add {act.count} {act.color} {'point' if act.count == 1 else 'points'}"
    if isinstance(act, ast.Swap):
        return f"swap {fmt_selector(act.first)} with {fmt_selector(act.second)}"
    if isinstance(act, ast.May):
        return f"may {fmt_action(act.action)}"
    if isinstance(act, ast.If):
        return f"if {fmt_condition(act.condition)}: {fmt_action(act.action)}"
    if isinstance(act, ast.Turn):
        return f"turn {fmt_selector(act.what)} {act.state}"
    if isinstance(act, ast.Modify):
        return fmt_modify(act)
    if isinstance(act, ast.PlayerDraws):
        return f"the {act.player} player draws {_plural(act.count, 'card')}"
    raise TypeError(f"not an action: {act!r}")


def fmt_modify(mod: ast.Modify) -> str:
    """``this gets atk +2``, ``your geuda get def +1`` (a rule about cards in the plural)."""
    verb = "get" if isinstance(mod.target, ast.All) else "gets"
    until = f"until {mod.until}" if mod.until else None
    return _join(fmt_selector(mod.target), verb, mod.stat, f"{mod.amount:+d}", until)


# ------------------------------------------------------------------------ events
def _subject(subject) -> str:
    if isinstance(subject, ast.This):
        return "this"
    text = fmt_filter(subject)
    # "your card enters field", but "a card enters field"
    return text if subject.owner is not None else with_article(text)


def _whose(player: str) -> str:
    return "every" if player == "every" else owner_word(player)


def fmt_event(ev: ast.Event) -> str:
    """The event with its ``when``/``at``: ``when this leaves field to break``."""
    if ev.kind == "turn_start":
        return f"at start of {_whose(ev.player)} turn"
    if ev.kind == "turn_end":
        return f"at end of {_whose(ev.player)} turn"
    if ev.kind == "judgment":
        role = f"when this is {ev.role}" if ev.role else None
        return _join("at judgment", " or ".join(ev.judgments), role)
    if ev.kind == "plays":
        what = with_article(fmt_filter(ev.subject, place="from"))
        verb = "play" if ev.player == "you" else "plays"
        return f"when {_PLAYER_WORDS[ev.player]} {verb} {what}"
    subject = _subject(ev.subject)
    if ev.kind == "leaves":
        return _join("when", subject, "leaves field", f"to {ev.to}" if ev.to else None)
    if ev.kind == "enters":
        return f"when {subject} enters field"
    if ev.kind == "seized":
        return f"when {subject} is seized"
    if ev.kind == "targeted":
        return f"when {subject} becomes target"
    if ev.kind == "out":
        return f"when {subject} is out"
    raise ValueError(f"unknown event kind {ev.kind!r}")


# ------------------------------------------------------------------------ statics
def fmt_static(rule: ast.Static) -> str:
    if isinstance(rule, ast.Untargetable):
        return "this cannot be targeted"
    if isinstance(rule, ast.Protected):
        kinds = " or ".join(rule.kinds)
        return f"this square cannot be {kinds} by a card {fmt_cost(rule.cost)}"
    if isinstance(rule, ast.PlayOnto):
        return f"this can be played onto {fmt_zone(rule.zone)} ignoring priority"
    if isinstance(rule, ast.AnyColor):
        return "this gives points of one chosen color among " + ", ".join(rule.colors)
    if isinstance(rule, ast.Modify):
        return fmt_modify(rule)
    raise TypeError(f"not a static rule: {rule!r}")


# ------------------------------------------------------------------------ effects
def fmt_where(where: str) -> str:
    return where if where in ("dimension", "field") else f"in {where}"


def effect_header(eff: ast.Effect) -> str:
    """The effect's first line without indentation: ``field activated during your gain phase:``."""
    if isinstance(eff, ast.WhenPlayed):
        return "when played:"
    if isinstance(eff, ast.Attached):
        f = eff.filter
        text = fmt_filter(f)
        return f"attached to {text if f.owner is not None else with_article(text)}:"
    where = fmt_where(eff.where)
    if isinstance(eff, ast.Triggered):
        condition = f"if {fmt_condition(eff.condition)}" if eff.condition is not None else None
        return _join(where, fmt_event(eff.event) if eff.event else None, condition) + ":"
    if isinstance(eff, ast.Activated):
        during = f"during your {eff.phase} phase" if eff.phase else None
        return _join(where, "activated", during) + ":"
    if isinstance(eff, ast.StaticEffect):
        return f"{where} static:"
    raise TypeError(f"not an effect: {eff!r}")


def format_effect(eff: ast.Effect) -> str:
    lines = [HEADER_INDENT + effect_header(eff)]
    if isinstance(eff, (ast.StaticEffect, ast.Attached)):
        body = [fmt_static(r) for r in eff.rules]
    else:
        body = [fmt_action(a) for a in eff.actions]
        if isinstance(eff, ast.Activated) and eff.cost is not None:
            body.insert(0, "cost: " + fmt_action(eff.cost))
    lines.extend(ACTION_INDENT + line for line in body)
    return "\n".join(lines)


# ------------------------------------------------------------------------ cards
def _stat_text(stat: ast.Stat) -> str:
    return stat.key if stat.value is True else f"{stat.key} {stat.value}"


def _stat_rank(stat: ast.Stat) -> int:
    return STAT_ORDER.index(stat.key) if stat.key in STAT_ORDER else len(STAT_ORDER)


def stats_line(card: ast.Card) -> Optional[str]:
    """``color blue  cost 1  requires 0  stun 1`` (None for a card without stats)."""
    stats = card.stats
    if all(s.key in STAT_ORDER for s in stats):  # another game's keep the written order
        stats = sorted(stats, key=_stat_rank)  # stable: repeats keep order
    if not stats:
        return None
    return "  ".join(_stat_text(s) for s in stats)


def card_header(card: ast.Card) -> str:
    en = f" en {quote(card.en_name)}" if card.en_name is not None else ""
    return f"card {card.id} {quote(card.name)}{en} {{"


def format_card(card: ast.Card) -> str:
    """One card, ending with ``}`` and a newline."""
    lines = [card_header(card)]
    stats = stats_line(card)
    if stats is not None:
        lines.append(HEADER_INDENT + stats)
    lines.extend(format_effect(e) for e in card.effects)
    lines.append("}")
    return "\n".join(lines) + "\n"


def format_cardset(cardset: ast.CardSet) -> str:
    """A whole card set: its includes, then the cards in order, one blank line between them."""
    includes = "".join(f'include "{inc.target}"\n' for inc in cardset.includes)
    if cardset.game is not None:
        includes = f'game {quote(cardset.game.name)}\n' + includes
    cards = "\n".join(format_card(c) for c in cardset.cards)
    return includes + ("\n" if includes and cards else "") + cards


# ------------------------------------------------------------------------ source files
_COMMENT = re.compile(r'^((?:[^"#\n]|"[^"\n]*")*)#', re.M)
_HEADER_LINE = re.compile(r"[ \t]*(#[^\n]*)?(\n|$)")


def split_header(text: str) -> tuple[str, str]:
    """(the comment lines before the first card, the rest).

    The header is every leading line that is blank or a comment; it is kept verbatim
    (right-stripped) by :func:`format_source`, so a file's title comment survives.
    """
    offset = 0
    while offset < len(text):
        m = _HEADER_LINE.match(text, offset)
        if m is None or m.end() == offset:
            break
        offset = m.end()
    return text[:offset], text[offset:]


def format_header(header: str) -> str:
    lines = [line.rstrip() for line in header.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


_STRING = re.compile(r'"[^"\n]*"')


def _comments(lines: list[str], first: int) -> dict:
    """Line number -> (comment text, whether code precedes it on the line), from ``first``."""
    out = {}
    for lineno in range(first, len(lines) + 1):
        m = _COMMENT.match(lines[lineno - 1])
        if m:
            comment = lines[lineno - 1][len(m.group(1)):].rstrip()
            out[lineno] = (comment, bool(m.group(1).strip()))
    return out


def _close_lines(lines: list[str]) -> list[int]:
    """The line of every ``}`` outside strings and comments, in order (one per card)."""
    out = []
    for lineno, line in enumerate(lines, start=1):
        m = _COMMENT.match(line)
        code = m.group(1) if m else line
        code = _STRING.sub('""', code)
        out.extend(lineno for ch in code if ch == "}")
    return out


def _card_entries(card: ast.Card, close_line: int) -> list[tuple[int, str]]:
    """The printed lines of a card, each with the source line of what it prints."""
    entries = [(card.pos.line, card_header(card))]
    stats = stats_line(card)
    if stats is not None:
        entries.append((min(st.pos.line for st in card.stats), HEADER_INDENT + stats))
    for eff in card.effects:
        entries.append((eff.pos.line, HEADER_INDENT + effect_header(eff)))
        if isinstance(eff, (ast.StaticEffect, ast.Attached)):
            entries.extend((r.pos.line, ACTION_INDENT + fmt_static(r)) for r in eff.rules)
            continue
        if isinstance(eff, ast.Activated) and eff.cost is not None:
            entries.append((eff.cost.pos.line, ACTION_INDENT + "cost: " + fmt_action(eff.cost)))
        entries.extend((a.pos.line, ACTION_INDENT + fmt_action(a)) for a in eff.actions)
    entries.append((close_line, "}"))
    return entries


def _with_comments(cardset: ast.CardSet, text: str, first: int) -> str:
    """The formatted card set (after the opening block) with the comments from line
    ``first`` on, each put back beside its line (see the module docstring)."""
    lines = text.split("\n")  # as the parser counts lines (splitlines also splits at U+2028)
    closes = _close_lines(lines)
    items = [[(inc.pos.line, f'include "{inc.target}"')] for inc in cardset.includes]
    if cardset.game is not None:
        items.insert(0, [(cardset.game.pos.line, f"game {quote(cardset.game.name)}")])
    n_includes = len(items)
    for k, card in enumerate(cardset.cards):
        items.append(_card_entries(card, closes[k] if k < len(closes) else card.pos.line))
    flat = [(anchor, i, j) for i, item in enumerate(items) for j, (anchor, _) in enumerate(item)]
    comments = _comments(lines, first)
    leading: dict = {}
    trailing: dict = {}
    at_end = []
    keys = sorted((a, order) for order, (a, _, _) in enumerate(flat))
    for lineno, (comment, after_code) in sorted(comments.items()):
        cut = bisect.bisect_right(keys, (lineno, len(flat)))  # keys[:cut] start on or before
        if after_code and cut:
            # the last printed line whose construct starts on or before this line
            trailing.setdefault(flat[keys[cut - 1][1]][1:], []).append(comment)
        elif cut < len(keys):
            # a comment line goes before the first printed line of what follows it
            leading.setdefault(flat[keys[cut][1]][1:], []).append(lineno)
        else:
            at_end.append(lineno)

    def blank_above(lineno: int) -> bool:
        return lineno - 1 >= first and not lines[lineno - 2].strip()

    blocks = []
    for i, item in enumerate(items):
        out = []
        for j, (anchor, line) in enumerate(item):
            above = leading.get((i, j), [])
            indent = HEADER_INDENT if line == "}" else line[: len(line) - len(line.lstrip())]
            top = j == 0  # a card header or an include: blank lines around comments count
            for k, c in enumerate(above):
                if top and k and blank_above(c):
                    out.append("")
                out.append(indent + comments[c][0])
            if top and above and blank_above(anchor):
                out.append("")
            out.append(line + "".join("  " + t for t in trailing.get((i, j), [])))
        blocks.append("\n".join(out) + "\n")
    includes = "".join(blocks[:n_includes])
    cards = "\n".join(blocks[n_includes:])
    body = includes + ("\n" if includes and cards else "") + cards
    if at_end:
        tail = []
        for k, c in enumerate(at_end):
            if blank_above(c) and (k or body):
                tail.append("")
            tail.append(comments[c][0])
        body += "\n".join(tail) + "\n"
    return body


def format_source(text: str, path: str = "<input>") -> tuple[Optional[str], list]:
    """Format a card file's text, comments kept: (formatted text or None, diagnostics).

    Syntax errors give None and the parser's diagnostics: a file that does not parse
    is never reformatted (its unreadable part would be lost).  A file that parses gives
    its formatted text and no diagnostics.
    """
    from .parser import parse

    cardset, diagnostics = parse(text, path)
    if diagnostics or cardset is None:
        return None, diagnostics
    header, _ = split_header(text)
    head = format_header(header)
    body = _with_comments(cardset, text, header.count("\n") + 1)
    out = head + ("\n" if head and body else "") + body
    return out, []
