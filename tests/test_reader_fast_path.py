"""The reader's fast path (wgdsl.lang.parser._FAST_LINES: a card's header line, its stat
lines and its closing ``}`` read whole with one pattern each, the other lines' tokens after
their first fed in one run) gives exactly what reading every line token by token gives: the same card set, every node and every position, and
the same diagnostics, in every game's words, on well-formed and on broken texts.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_fast_read import _everything
from wgdsl.lang import parser
from wgdsl.lang import vocabulary as vocab_of
from wgdsl.lang.checker import forget_cards
from wgdsl.lang.parser import parse
from wgdsl.resources import builtin_cards_path, builtin_game_files

REPO = Path(__file__).resolve().parents[1]

GAMES = sorted(builtin_game_files())


def _read(text: str, vocabulary, fast: bool, monkeypatch):
    forget_cards()  # every card read afresh (the cache of cards read would answer)
    with monkeypatch.context() as m:
        m.setattr(parser, "_FAST_LINES", fast)
        return parse(text, "f.wg", vocabulary)


def _same_both_ways(text: str, vocabulary, monkeypatch) -> None:
    fast, fast_problems = _read(text, vocabulary, True, monkeypatch)
    plain, plain_problems = _read(text, vocabulary, False, monkeypatch)
    assert _everything(fast) == _everything(plain)
    assert fast_problems == plain_problems


# ------------------------------------------------------------------------ generated card texts
def _effect_blocks() -> list[str]:
    """Every effect of the card files in the repository (its header line and the lines
    below it, as written)."""
    blocks = []
    files = [builtin_cards_path(), builtin_cards_path().with_name("iw01.wg"),
             *sorted((REPO / "examples").rglob("*.wg"))]
    for path in files:
        for body in re.findall(r"^card [^\n]*\{\n(.*?)^\}", path.read_text(encoding="utf-8"),
                               re.M | re.S):
            block: list[str] = []
            for line in body.splitlines():
                if line.startswith("  ") and not line.startswith("   ") and line.rstrip().endswith(":") \
                        or re.match(r"  \S[^:]*:", line):
                    if block:
                        blocks.append("\n".join(block))
                    block = [line]
                elif block:
                    block.append(line)
            if block:
                blocks.append("\n".join(block))
    return sorted(set(blocks))


EFFECTS = _effect_blocks()
# an effect's header with no body, and lines that are neither stats nor effects: where a
# stat line then stands, the parser may refuse it
LOOSE = ["  dimension:", "  field activated:", "  field activated during your gain phase:",
         "  field static:", "  cost: move this to your break", "    draw 1 card", "  x"]


class Pick:
    """Choices for one text: a well-formed text (``plain``, the fast path's case) takes only
    the common ones; another takes the rare ones too, often."""

    def __init__(self, draw, plain: bool):
        self.draw, self.plain = draw, plain

    def __call__(self, common: list, rare: list):
        return self.draw(st.sampled_from(common if self.plain else common * 2 + rare))


BLANKS = ([" ", "  "], ["\t", "\f", "", " \t "])
LINE_ENDS = (["\n"], ["\r\n", "  # a note\n", "\n\n", "\n# a line\n", "#x\n  ", "\n\f",
                      "", "\r", "# at the end", "\n# a card\n", " #card\n\n"])
WORDS = ["field", "cost", "if", "opponent's", "card", "en", "draw", "static", "blue", "bleu",
         "x_y'z", "stun", "color", "type", "unique", "wild"]
# (a number too long to read is a diagnostic, and well-formed text)
NUMBERS = (["0", "1", "3", "07", "99", "0000000000001", "1234567890", "99999999999999999999"],
           ["100", "1x", "2:"])


@st.composite
def stat_lines(draw, vocabulary, pick: Pick) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        name = pick(list(vocabulary.stats), ["colour", "cost:", "card", "Color"])
        kind = vocabulary.stats.get(name)
        if kind == "word":
            value = pick(list(vocabulary.values.get(name, ())) or WORDS, WORDS)
        elif kind == "number":
            value = pick(NUMBERS[0], NUMBERS[1] + WORDS)
        elif kind == "flag":
            value = pick([""], ["1", "blue"])
        else:
            value = pick(["", "red"], ["1"])
        parts.append(name + (pick(*BLANKS) + value if value else ""))
        parts.append(pick(["  ", " "], ["\t", "\f", "", "#x "]))
    return pick(["  "], ["", "\t", " \f"]) + "".join(parts).rstrip(" ") + pick(*LINE_ENDS)


@st.composite
def cards(draw, vocabulary, pick: Pick) -> str:
    card_id = pick(["X-1", "WG-001", "IW-120", "A1-B2"], ["x-1", "X-1-2", "X1", "X-1a"])
    name = pick(['"名前"', '"a b"', '""'], ['"x', "x"])
    en = pick(["", ' en "Name"'], [' en"x"', ' en "', " en x", "en", ' en "a" en "b"'])
    out = ["card" + pick([" "], ["  ", "\t", ""]) + card_id + pick(*BLANKS) + name + en
           + pick(*BLANKS) + "{" + pick(*LINE_ENDS)]
    for _ in range(draw(st.integers(0, 4))):
        what = draw(st.integers(0, 9))
        if what < 5:
            out.append(draw(stat_lines(vocabulary, pick)))
        elif what < 8:
            out.append(draw(st.sampled_from(EFFECTS)) + pick(*LINE_ENDS))
        else:  # where a stat line then stands, the parser may refuse it
            out.append(draw(st.sampled_from(LOOSE)) + pick(*LINE_ENDS))
    out.append(pick(["", "  "], ["\t", "\f"]) + "}"
               + pick(["\n", "\n\n"], ["", " # end\n", "}\n", " x\n", "\n# a card\n", " #card\n"]))
    return "".join(out)


@st.composite
def card_texts(draw):
    game = draw(st.sampled_from(GAMES))
    vocabulary = vocab_of._builtin(game)
    pick = Pick(draw, draw(st.booleans()))
    text = "".join(draw(st.lists(cards(vocabulary, pick), min_size=1, max_size=4)))
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2, 3]))):  # a mutation: any text may come
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "delete", "cut", "end"]))
        if how == "insert":
            piece = draw(st.sampled_from(["}", "{", ":", "#", "\n", " ", '"', "@", "X-1", "cost",
                                          "0", "é", "\r", "may ", "card ", "\t"]))
            text = text[:at] + piece + text[at:]
        elif how == "cut":  # the text ends here
            text = text[:at]
        elif how == "end":  # the text ends after a line, with a comment
            text = text[:text.rfind("\n", 0, at) + 1] + pick(["  color red"], ["  cost 1"]) + "# x"
        else:
            text = text[:at] + text[at + draw(st.integers(1, 6)):]
    return text, vocabulary


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(card_texts())
def test_the_fast_path_reads_what_the_tokens_read(monkeypatch, case):
    text, vocabulary = case
    _same_both_ways(text, vocabulary, monkeypatch)


# ------------------------------------------------------------------------ the files themselves
def test_the_fast_path_reads_every_card_file_as_the_tokens_do(monkeypatch):
    for path in [builtin_cards_path(), builtin_cards_path().with_name("iw01.wg"),
                 *sorted((REPO / "examples").rglob("*.wg"))]:
        text = path.read_text(encoding="utf-8")
        game = re.search(r'^game "([^"]+)"', text, re.M)
        vocabulary = vocab_of._builtin(game.group(1)) if game else None
        _same_both_ways(text, vocabulary, monkeypatch)


def test_after_a_static_effect_the_next_header_is_read_both_ways_alike(monkeypatch):
    """The reader notes whether the effect being read is a `static` one (after an error, a
    line that reads both as a static rule and as an action is read as the former only
    there); a header read in a run of tokens notes it as one read token by token."""
    text = ('card X-1 "x" {\n  color red  cost 1\n  field static:\n    this cannot be targeted\n'
            '  dimension:\n    draw 1 card @\n    this gets atk +2\n    draw 1 card\n}\n')
    _same_both_ways(text, None, monkeypatch)
    assert len(_read(text, None, True, monkeypatch)[1]) == 1  # the `@` alone


def test_the_fast_path_reads_the_lines_it_is_for(monkeypatch):
    """Not a path that nothing takes: WG01's headers, stat lines and `}` lines are read
    whole, and a line that is not plainly well formed is not."""
    taken: dict = {}
    for name in ("next_card", "fast_header", "fast_stats", "fast_close", "lex_line", "run_line"):
        def counted(*args, _name=name, _method=getattr(parser._Reader, name)):
            found = _method(*args)
            taken[_name, bool(found)] = taken.get((_name, bool(found)), 0) + 1
            return found
        monkeypatch.setattr(parser._Reader, name, counted)
    forget_cards()
    text = builtin_cards_path().read_text(encoding="utf-8")
    cards = len(parse(text)[0].cards)
    assert taken["fast_header", True] == cards == 25
    # every card's `card` after the blank lines and comments before it, the first's too
    assert taken["next_card", True] == cards
    assert taken["fast_stats", True] == cards  # one stat line each
    assert taken["fast_close", True] == cards
    # every other line of a card (its effects' lines) read to its end in one run of tokens,
    # from its first, lexed as it is fed (lex_line); when its first is a `may`, an `if`,
    # or `cost` of a `cost:` line (a stat's name), that token is left to next() and the
    # rest of the line read in one run from the tokens lexed (run_line)
    lines = [line.split() for body in re.findall(r"^card [^\n]*\{\n(.*?)^\}", text, re.M | re.S)
             for line in body.splitlines()[1:]]
    left = sum(line[0] in ("may", "if", "cost:") for line in lines)
    assert len(lines) == 46 and left == 7
    assert taken["lex_line", True] == len(lines) - left
    assert taken["lex_line", False] == taken["run_line", True] == left
    assert ("run_line", False) not in taken
    taken.clear()
    forget_cards()
    # a comment is a line end; `1requires` is two tokens, left to them (the pattern of a
    # line's first stat does not match); a number too long to read is left to them too;
    # neither line is a run of tokens (a stat's name starts it: next()'s)
    parse('card X-1 "x" {  # a note\n  color red  cost 1 # a note\n  cost 1requires 0\n'
          '  stun 1  requires 1234567890\n}\n')
    assert taken == {("fast_header", True): 1, ("fast_stats", True): 1, ("fast_stats", False): 1,
                     ("fast_close", True): 1, ("lex_line", False): 2, ("next_card", True): 1,
                     ("next_card", False): 2}  # (a `card` first; the text's end, twice)
    taken.clear()
    forget_cards()
    with monkeypatch.context() as m:  # the plain way: token by token
        m.setattr(parser, "_FAST_LINES", False)
        parse(text)
    assert taken == {}


def test_a_card_in_a_comment_between_cards_starts_no_card(monkeypatch):
    """The next card's `card` is read whole after the line ends and comments before it
    (_Reader.next_card), but only as the lexer would read it: not a `card` inside a
    comment, whatever follows the comment."""
    card = 'card X-1 "x" {\n  color red  cost 1\n}\n'
    for between in ("# a card\n", "\n# a card\n\n", "  # card\n#card x\n", "#card\n", "#card"):
        for after in ("", card, "  dimension:\n", 'game "x"\n'):
            _same_both_ways(card + between + after, None, monkeypatch)
