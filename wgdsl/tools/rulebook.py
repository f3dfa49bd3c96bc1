"""Rules references: the numbered rules that refusals, diagnostics and ruling cases cite.

A reference is a Markdown file in one small layout (World Gainer's is ``docs/rules.md``,
shipped in the wheel; the reference of another game is written the same way)::

    # Title of the reference
    Any text: what the reference is, its sources ...

    ## R8 Field priority (獲得の優先度)
    Text of the rule itself (optional).
    1. Text of R8.1,
       continued on indented lines; an indented `- ` list belongs to it too.
    2. Text of R8.2.

- ``## ID Title`` starts a rule; ID is capital letters then digits (``R8``, ``WG01``);
- inside a rule, ``N. text`` at the start of a line starts sub-rule ``ID.N``, numbered
  1, 2, 3 in order; indented lines (and blank lines between them) continue it;
- text between a heading and its first sub-rule belongs to the rule itself.

Anything else after the first rule (an unindented line after a sub-rule, a heading
without a rule number, a number out of order, an ID used twice) is a
:class:`LayoutError` at its line, so a reference cannot silently lose a rule.
"""

from __future__ import annotations

import difflib
import functools
import re
import textwrap
from pathlib import Path
from typing import Iterable, Optional, Union

import attrs

from wgdsl.files import read_text

_HEADING = re.compile(r"##(?!#)\s*(.*)$")
_RULE_HEADING = re.compile(r"([A-Z]+[0-9]+)\s+(\S.*)$")
_ITEM = re.compile(r"([0-9]+)\.\s+(\S.*)$")
# what a user may type for a rule: r8.2, R8.2, 8.2, `R8.2`, R8.2. (a sentence's full stop)
_QUERY = re.compile(r"([A-Za-z]*)([0-9]+)(?:\.([0-9]+))?\.?$")
_WORD = re.compile(r"[^\W_]{3,}")


class LayoutError(Exception):
    """A rules reference that does not follow the layout: ``path:line: message``."""

    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")
        self.path = path
        self.line = line
        self.message = message


class UnknownRule(LookupError):
    """No rule has the number asked for; ``hint`` says what would be right."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.message = message
        self.hint = hint


@attrs.frozen
class Rule:
    """A rule (``R8``, with its title) or a sub-rule (``R8.2``, title ""): its text as
    written, the indentation of its block removed, and the line where it starts."""

    id: str
    title: str
    text: str
    line: int
    parts: tuple["Rule", ...] = ()

    @property
    def heading(self) -> str:
        return f"{self.id} {self.title}"

    @property
    def parent_id(self) -> Optional[str]:
        """``R8`` for the sub-rule ``R8.2``; None for a rule."""
        return self.id.rpartition(".")[0] or None

    def paragraphs(self) -> list[str]:
        """The text as one line per paragraph: a blank line or a ``- `` item starts one."""
        out: list[list[str]] = []
        for line in self.text.splitlines():
            stripped = line.strip()
            if not stripped:
                out.append([])
            elif stripped.startswith("- ") or not out:
                out.append([stripped])
            else:
                out[-1].append(stripped)
        return [" ".join(p) for p in out if p]


@attrs.frozen
class Match:
    """A rule whose heading or text mentions what was searched: the sentences that do."""

    rule: Rule
    sentences: tuple[str, ...]


@attrs.frozen
class Rulebook:
    title: str
    path: str
    rules: tuple[Rule, ...]
    _index: dict = attrs.field(eq=False, repr=False)

    @property
    def ids(self) -> list[str]:
        """Every rule and sub-rule number, in the order of the file."""
        return [r.id for rule in self.rules for r in (rule, *rule.parts)]

    def get(self, rule_id: str) -> Optional[Rule]:
        return self._index.get(rule_id)

    def find(self, query: str) -> Rule:
        """The rule a user asked for (``R8.2``, ``r8.2``, ``8.2``), or :class:`UnknownRule`
        saying why there is none and what is near."""
        text = query.strip().strip("`")
        m = _QUERY.match(text)
        if m is None:
            hint = "`wgdsl rules` lists every rule"
            if _WORD.search(text):
                hint = f"to find the rules that mention a word: wgdsl rules --search {_shell_word(text)}"
            raise UnknownRule(f"`{query}` is not a rule number ({self._numbering()})", hint)
        prefix, number, part = m.group(1).upper(), m.group(2), m.group(3)
        if prefix:
            top = prefix + number
        else:  # a bare number: the one family of rules that has it (R8 for "8"), else the first
            tops = [r.id for r in self.rules if r.id[len(_prefix(r.id)):] == number]
            top = tops[0] if len(tops) == 1 else _prefix(self.rules[0].id) + number
        wanted = top + (f".{part}" if part is not None else "")
        rule = self._index.get(wanted)
        if rule is not None:
            return rule
        parent = self._index.get(top)
        if parent is not None:  # the rule exists, that sub-rule of it does not
            if not parent.parts:
                raise UnknownRule(f"{top} has no sub-rules, so no {wanted}",
                                  f"`wgdsl rules {top}` prints the whole rule")
            raise UnknownRule(f"{top} has no sub-rule {wanted}",
                              f"{top} has {_span(parent.parts)}; `wgdsl rules {top}` prints them all")
        near = difflib.get_close_matches(wanted, self.ids, n=1, cutoff=0.6)
        hint = f"did you mean {near[0]}? (`wgdsl rules` lists every rule)" if near else \
            "`wgdsl rules` lists every rule"
        raise UnknownRule(f"no rule {wanted} ({self.title} has {self._numbering()})", hint)

    def search(self, phrase: str) -> list[Match]:
        """The rules and sub-rules whose heading or text mentions ``phrase`` (any case,
        any spacing), with the sentences that do, in the order of the file."""
        needle = " ".join(phrase.split()).casefold()
        found = []
        for rule in self.rules:
            for r in (rule, *rule.parts):
                sentences = [s for p in r.paragraphs() for s in _sentences(p)
                             if needle in s.casefold()]
                if sentences or (r.title and needle in r.title.casefold()):
                    found.append(Match(r, tuple(sentences)))
        return found

    def words_near(self, phrase: str) -> Optional[str]:
        """A word of the reference close to ``phrase`` (a misspelt search), if any."""
        vocabulary = {w.casefold() for r in self._index.values()
                      for w in _WORD.findall(r.title + " " + r.text)}
        near = difflib.get_close_matches(phrase.casefold(), sorted(vocabulary), n=1, cutoff=0.75)
        return near[0] if near else None

    def _numbering(self) -> str:
        """``rules R1 to R13, WG01`` — how this reference numbers its rules."""
        runs: list[list[str]] = []
        for r in self.rules:
            if runs and _prefix(runs[-1][0]) == _prefix(r.id):
                runs[-1].append(r.id)
            else:
                runs.append([r.id])
        return "rules " + ", ".join(run[0] if len(run) == 1 else f"{run[0]} to {run[-1]}"
                                    for run in runs)


def _prefix(rule_id: str) -> str:
    """The letters of a rule number: ``R`` of ``R8``, ``WG`` of ``WG01``."""
    return rule_id.rstrip("0123456789")


def _span(parts: Iterable[Rule]) -> str:
    parts = list(parts)
    if len(parts) == 1:
        return f"one sub-rule, {parts[0].id}"
    return f"sub-rules {parts[0].id} to {parts[-1].id}"


def _shell_word(text: str) -> str:
    return text if re.fullmatch(r"[\w.-]+", text) else "'" + text.replace("'", "'\\''") + "'"


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _sentences(paragraph: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(paragraph) if s]


# ------------------------------------------------------------------ printing rules
WIDTH = 96  # search results are wrapped to this width; rules keep the file's lines


def _labelled(label: str, text: str, width: int) -> list[str]:
    """``R8.2  text``, the text's further lines indented under its first."""
    lines = text.splitlines() or [""]
    pad = " " * width
    return [(label.ljust(width) + lines[0]).rstrip()] + [pad + ln if ln else "" for ln in lines[1:]]


def render_rule(book: Rulebook, rule: Rule) -> str:
    """A rule: its heading, its own text and every sub-rule; a sub-rule: the heading of
    its rule, then the sub-rule alone."""
    if rule.parent_id is not None:
        parent = book.get(rule.parent_id)
        return "\n".join([parent.heading, *_labelled(rule.id, rule.text, len(rule.id) + 2)])
    out = [rule.heading]
    if rule.text:
        out.append(rule.text)
    width = max((len(p.id) for p in rule.parts), default=0) + 2
    for part in rule.parts:
        out.extend(_labelled(part.id, part.text, width))
    return "\n".join(out)


def render_list(book: Rulebook) -> str:
    """One line per rule: its number, its title and the span of its sub-rules."""
    width = max(len(r.id) for r in book.rules) + 2
    lines = [book.title]
    for r in book.rules:
        span = f"  ({r.parts[0].id}–{r.parts[-1].id})" if r.parts else ""
        lines.append(r.id.ljust(width) + r.title + span)
    lines.append("")
    lines.append("`wgdsl rules R8` prints a rule with its sub-rules, `wgdsl rules R8.2` one "
                 "sub-rule, `wgdsl rules --search WORD` the rules that mention a word.")
    return "\n".join(lines)


def render_matches(matches: Iterable[Match]) -> str:
    """One entry per rule found: its number, then the sentences that mention the word."""
    matches = list(matches)
    width = max((len(m.rule.id) for m in matches), default=0) + 2
    out = []
    for m in matches:
        text = " … ".join(m.sentences) if m.sentences else m.rule.title
        out.extend(textwrap.wrap(text, WIDTH, initial_indent=m.rule.id.ljust(width),
                                 subsequent_indent=" " * width, break_long_words=False,
                                 break_on_hyphens=False))
    return "\n".join(out)


# ------------------------------------------------------------------ reading a reference
def parse(text: str, path: str = "<rules>") -> Rulebook:
    """A :class:`Rulebook` from a reference's text, or :class:`LayoutError`."""
    title = ""
    rules: list[Rule] = []
    index: dict[str, Rule] = {}
    # the rule being read: id, title, line, own text lines, finished sub-rules
    current: Optional[dict] = None
    item: Optional[dict] = None  # the sub-rule being read: number, line, lines

    def close_item():
        nonlocal item
        if item is not None:
            first, rest = item["lines"][0], textwrap.dedent("\n".join(item["lines"][1:]))
            body = (first + ("\n" + rest if rest.strip() else "")).rstrip()
            sub = Rule(f"{current['id']}.{item['number']}", "", body, item["line"])
            current["parts"].append(sub)
            index[sub.id] = sub
            item = None

    def close_rule():
        nonlocal current
        if current is not None:
            close_item()
            rule = Rule(current["id"], current["title"], "\n".join(current["lines"]).strip(),
                        current["line"], tuple(current["parts"]))
            rules.append(rule)
            index[rule.id] = rule
            current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.expandtabs(4).rstrip()
        heading = _HEADING.match(line)
        if heading:
            close_rule()
            m = _RULE_HEADING.match(heading.group(1).strip())
            if m is None:
                raise LayoutError(path, number, "a rule heading is `## ID Title` with ID capital "
                                  "letters then digits (`## R8 Field priority`), not "
                                  f"`{line}`")
            rule_id = m.group(1)
            if rule_id in index:
                raise LayoutError(path, number, f"rule {rule_id} is already defined on line "
                                  f"{index[rule_id].line}")
            current = {"id": rule_id, "title": m.group(2).strip(), "line": number,
                       "lines": [], "parts": []}
            continue
        if current is None:  # before the first rule: the title, then free text
            if not title and line.startswith("# "):
                title = line[2:].strip()
            continue
        numbered = _ITEM.match(line)
        if numbered:
            close_item()
            expected = len(current["parts"]) + 1
            if int(numbered.group(1)) != expected:
                raise LayoutError(path, number, f"sub-rules of {current['id']} are numbered 1, 2, "
                                  f"3 in order: expected `{expected}.`, found "
                                  f"`{numbered.group(1)}.`")
            item = {"number": expected, "line": number, "lines": [numbered.group(2)]}
        elif item is not None:
            if line and not line[0].isspace():
                raise LayoutError(path, number, f"this line follows {current['id']}."
                                  f"{item['number']} but is not indented: indent it to continue "
                                  f"{current['id']}.{item['number']}, or number it to start "
                                  f"{current['id']}.{item['number'] + 1}")
            item["lines"].append(line)
        else:
            current["lines"].append(line)
    close_rule()
    if not rules:
        raise LayoutError(path, 0, "no rules found: a rule starts with a heading "
                          "`## ID Title` (`## R8 Field priority`)")
    return Rulebook(title or Path(path).name, path, tuple(rules), index)


def load(path: Union[str, Path]) -> Rulebook:
    """Read and parse a reference file; :class:`wgdsl.files.Unreadable` or
    :class:`LayoutError` when it cannot be used."""
    return parse(read_text(path, "rules reference"), str(path))


@functools.lru_cache(maxsize=None)
def builtin() -> Rulebook:
    """World Gainer's rules reference, ``docs/rules.md`` (``_data/docs`` in a wheel)."""
    from wgdsl.resources import rules_reference_path

    return load(rules_reference_path())
