"""The game-file language (wgdsl/lang/game): the examples compile to the spec they say;
every problem is a diagnostic at the offending word (line and column found in the text,
not copied from a run), with what would be right; syntax errors recover line by line."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from described_games import RPS, WAR
from wgdsl.lang.diagnostics import render_all
from wgdsl.lang.game import compile_text
from wgdsl.lang.game import spec as S
from wgdsl.lang.game.parser import parse

RPS_TEXT = RPS.read_text(encoding="utf-8")
WAR_TEXT = WAR.read_text(encoding="utf-8")


def where(text: str, line_has: str, word: str) -> tuple[int, int]:
    """(line, column) of ``word`` on the first line of ``text`` containing ``line_has``."""
    for number, line in enumerate(text.split("\n"), 1):
        if line_has in line:
            return number, line.index(word, line.index(line_has) if word in line_has else 0) + 1
    raise AssertionError(f"no line has {line_has!r}")


def problems(text: str):
    spec, found = compile_text(text, "t.game")
    return spec, found


def errors(text: str):
    return [d for d in problems(text)[1] if d.severity == "error"]


# ------------------------------------------------------------------ the examples
def test_rock_paper_scissors_compiles_to_what_it_says():
    spec, found = problems(RPS_TEXT)
    assert found == []
    assert (spec.id, spec.name, spec.seat_range) == ("rock-paper-scissors",
                                                     "Rock, Paper, Scissors", (2, 4))
    assert spec.signs == ("rock", "paper", "scissors")
    beats = spec.relation("beats")
    assert beats.pairs == {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}
    assert [o.name for o in spec.options] == ["target", "rounds"]
    (phase,) = spec.phases
    assert phase.window == S.Window(True, "sign", None, "S2", "every seat chooses a sign at once")
    assert [s.kind for s in phase.steps] == ["reveal", "compare", "add"]
    assert phase.steps[2].who == S.EACH_WINNER and phase.steps[2].rule == "S3.2"
    assert [(e.condition, e.outcome, e.rule) for e in spec.ends] == [
        ("at_least", "that_wins", "S4"), ("after", "highest", "S5")]
    assert spec.ends[0].amount == S.Amount(option="target")


def test_war_compiles_with_its_cards_zones_and_defaults():
    spec, found = problems(WAR_TEXT)
    assert found == []
    assert sum(c.copies for c in spec.cards) == 52 and len(spec.cards) == 13
    assert spec.cards[-1] == S.CardSpec("R-A", "Ace", "playing-card", (("rank", 14),), 4)
    assert spec.zone("stack") == S.ZoneSpec("stack", True, True, "hidden")
    assert spec.zone("pot") == S.ZoneSpec("pot", False, True, "public")
    # a statement without its own rule cites its block's (`setup rule W2 {`)
    assert [s.rule for s in spec.setup] == ["W2", "W2", "W2"]
    move = spec.phases[0].steps[-1]
    assert move.source == S.ZoneRef("pot") and move.dest == S.ZoneRef("stack", S.THE_WINNER, "bottom")


def test_a_statement_without_a_rule_cites_its_line():
    text = RPS_TEXT.replace("      reveal                                          rule S2", "      reveal")
    spec, _ = problems(text)
    line, _ = where(text, "      reveal", "reveal")
    assert spec.phases[0].steps[0].rule == f"line {line}"


def test_keywords_are_names_where_a_name_goes():
    """`rounds`, `draw`, `end` are words of the language, yet an option, a phase and a zone
    may be called so (a keyword is reserved only where it means something)."""
    text = WAR_TEXT.replace("phase battle", "phase draw").replace("zone pot", "zone end") \
        .replace("cards to pot", "cards to end").replace("cards of pot", "cards of end")
    spec, found = problems(text)
    assert found == [] and spec.phases[0].name == "draw" and spec.zone("end").name == "end"


# ------------------------------------------------------------------ semantic diagnostics
CASES = [
    # (the file, replace, with, the line to find, the word the caret is on, message, hint)
    (RPS_TEXT, "compare by beats", "compare by beat", "compare by beat", "beat",
     "unknown relation `beat`", "did you mean `beats`?"),
    (RPS_TEXT, "add 1 to points", "add 1 to pints", "add 1 to pints", "pints",
     "unknown counter `pints`", "did you mean `points`?"),
    (RPS_TEXT, "scissors beats paper", "sissors beats paper", "sissors beats", "sissors",
     "unknown sign `sissors`", "did you mean `scissors`?"),
    (RPS_TEXT, "scissors beats paper", "scissors beat paper", "scissors beat paper", "beat",
     "`beat` in relation `beats`", "each line of the relation says `beats`"),
    (RPS_TEXT, "paper beats rock ", "scissors beats rock ", "scissors beats rock", "scissors",
     "contradicts line", "one way"),
    (RPS_TEXT, "a seat has target points", "a seat has targt points", "targt", "targt",
     "unknown option `targt`", "did you mean `target`?"),
    (RPS_TEXT, "points of each winner", "points of its owner", "its owner", "its owner",
     "`its owner` is a card's owner", "of each winner"),
    (RPS_TEXT, "compare by beats", "compare by higher rank", "compare by higher", "compare",
     "compares cards; this round chooses signs", "compare by beats"),
    (RPS_TEXT, "seats 2 to 4", "seats 4 to 2", "seats 4 to 2", "2",
     "the most is less than the fewest", "seats 2 to 4"),
    (RPS_TEXT, "seats 2 to 4", "seats 2 to 4 named A, B, C", "named A", "C",
     "4 seats need 4 names; 3 are given", "name every seat"),
    (RPS_TEXT, "option rounds 1 to 200 default 30", "option rounds 0 to 200 default 30",
     "after rounds", "rounds", "option `rounds` can be 0", "1 to 200"),
    (RPS_TEXT, "option target 1 to 20 default 3", "option target 1 to 20 default 30",
     "option target", "30", "the default 30 is not within 1 to 20", None),
    (RPS_TEXT, "after rounds rounds: highest points wins", "after rounds rounds: that seat wins",
     "rounds: that seat wins", "that seat wins", "there is no `that seat`", "nobody wins"),
    (RPS_TEXT, "counter points start 0", "counter points start 0\n  zone points",
     "zone points", "points", "`points` is already the name of a counter (line", "its own name"),
    (RPS_TEXT, "  rule S2\n  relation", '  rule S2\n  rule odd from "os:system"\n  relation',
     "os:system", '"os:system"', "outside the wgdsl.games package", "runs no other code"),
    (WAR_TEXT, "compare by higher rank", "compare by higher rnak", "rnak", "rnak",
     "unknown stat `rnak`", "did you mean `rank`?"),
    (WAR_TEXT, "per seat pile hidden", "per seat pile hiden", "hiden", "hiden",
     "unknown word `hiden` for a zone", "did you mean `hidden`?"),
    (WAR_TEXT, 'card R-3 "Three" playing-card rank 3', 'card R-3 "Three" playing-card rnk 3',
     "rnk", "rnk", "kind `playing-card` has no stat `rnk`", "did you mean `rank`?"),
    (WAR_TEXT, 'card R-3 "Three" playing-card rank 3', 'card R-3 "Three" playing-card rank 1',
     'card R-3', "1 copies", "rank is a number from 2 to 14, not `1`", None),
    (WAR_TEXT, 'card R-3 "Three"', 'card R-2 "Three"', 'card R-2 "Three"', "R-2",
     "card id `R-2` is already used on line", "its own id"),
    (WAR_TEXT, 'card R-3 "Three" playing-card', 'card R-3 "Three" playing-crd',
     "playing-crd", "playing-crd", "unknown kind of card `playing-crd`",
     "did you mean `playing-card`?"),
    (WAR_TEXT, "the top card of stack at once", "a card from stack at once", "a card from stack",
     "stack", "cannot see the cards of `stack` (hidden)", "the top card of stack"),
    (WAR_TEXT, "deal all from deck to stack", "deal all from deck to pot", "deal all", "pot",
     "`pot` is shared; each seat deals into its own zone", "zone per seat"),
    (WAR_TEXT, "to bottom of stack of the winner", "to bottom of stack", "to bottom of stack",
     "bottom", "`stack` is a zone per seat: say whose", "of the winner"),
    (WAR_TEXT, "move all cards of pot to", "move all cards of pot of the winner to", "of the winner to",
     "the winner", "`pot` is shared: it is nobody's", "`pot` alone"),
    (WAR_TEXT, "zone stack per seat pile hidden", "zone stack per seat bag hidden",
     "the top card of stack", "stack at", "`stack` is a bag: it has no top card", "a `pile`"),
]


@pytest.mark.parametrize("text, old, new, line_has, word, message, hint", CASES,
                         ids=[c[5][:40] for c in CASES])
def test_a_problem_is_reported_at_the_offending_word(text, old, new, line_has, word, message, hint):
    assert old in text
    broken = text.replace(old, new, 1)
    found = errors(broken)
    assert found, f"no error for {new!r}"
    match = [d for d in found if message in d.message]
    assert match, [d.message for d in found]
    d = match[0]
    assert (d.pos.line, d.pos.col) == where(broken, line_has, word.split()[0])
    if hint is not None:
        assert hint in (d.hint or ""), d.hint
    rendered = render_all([d], {"t.game": broken})
    assert rendered.startswith(f"t.game:{d.pos.line}:{d.pos.col}: error: {d.message}")
    assert "\n    " in rendered and "^" in rendered  # the line, and a caret under the word


@pytest.mark.parametrize("old, new, message", [
    ("      reveal                                          rule S2\n", "",
     "the choices are still hidden"),
    ("    after rounds rounds: highest points wins          rule S5\n", "",
     "nothing caps the number of rounds"),
])
def test_what_a_step_needs_before_it_is_checked(old, new, message):
    assert old in RPS_TEXT
    assert any(message in d.message for d in errors(RPS_TEXT.replace(old, new)))


def test_the_cards_must_enter_and_leave_the_played_zone():
    no_put = WAR_TEXT.replace("    put every card into deck\n", "")
    assert any("the cards never enter the game" in d.message for d in errors(no_put))
    kept = WAR_TEXT.replace("      move played cards to pot                                  rule W4\n", "")
    (d,) = [d for d in errors(kept) if "never moved on" in d.message]
    assert (d.pos.line, d.pos.col) == where(kept, "every seat chooses", "every")


def test_every_problem_is_reported_not_only_the_first():
    broken = RPS_TEXT.replace("add 1 to points", "add 1 to pints").replace(
        "compare by beats", "compare by beat")
    assert {"unknown counter `pints`", "unknown relation `beat`"} <= {d.message for d in errors(broken)}


def test_a_name_may_be_used_above_its_declaration_and_one_clash_is_one_error():
    moved = RPS_TEXT.replace("  counter points start 0                              rule S3\n", "")
    moved = moved.replace("  round {", "  round {\n", 1).rstrip()[:-1] + "  counter points start 0\n}\n"
    assert problems(moved)[1] == []
    clash = RPS_TEXT.replace("  counter points start 0", "  counter points start 0\n  zone points")
    assert [d.message for d in errors(clash)] == [
        f"`points` is already the name of a counter (line {where(clash, 'counter points', 'points')[0]})"]


def test_an_unused_declaration_is_a_warning_only():
    text = RPS_TEXT.replace("  counter points start 0", "  counter points start 0\n  counter coins start 5")
    spec, found = problems(text)
    assert spec is not None
    assert [(d.severity, d.message) for d in found] == [("warning", "counter `coins` is never used")]


# ------------------------------------------------------------------ syntax
@pytest.mark.parametrize("old, new, line_has, word, message, hint", [
    ("phase throw", "phse throw", "phse", "phse", "unknown word `phse`", "did you mean `phase`?"),
    ("seats 2 to 4", "sets 2 to 4", "sets", "sets", "unknown statement `sets`",
     "did you mean `seats`?"),
    ("add 1 to points", "add 1 ot points", "ot points", "ot", "unexpected `ot`", "expected `to`"),
    ("seats 2 to 4", "seats 2 to 4 namd A, B", "namd", "namd", "unknown word `namd`",
     "did you mean `named`?"),
    ("every seat chooses", "Every seat chooses", "Every seat chooses", "Every", "words are lowercase: `Every`",
     "write `every`"),
    ("compare by beats", "compare by beats @", "beats @", "@", "unexpected character `@`",
     "`#` starts a comment"),
    ("compare by beats", 'compare by "beats', '"beats', '"', "this quoted name is not closed", None),
    ("reveal  ", "reveal now  ", "reveal now", "now", "unexpected `now`",
     "expected `rule` or the end of the line"),
    ("option target 1 to 20", "option target 1..20", "1..20", "..", "unexpected `..`",
     "a range is written with `to`: `1 to 20`"),
    ("seats 2 to 4 ", "seats 2-4 ", "seats 2-4", "-", "unexpected `-`", "`2 to 4`"),
    ("rule S3.2", "rule s3.2", "rule s3.2", "s3", "unexpected `s3`", "`rule S3`"),
])
def test_a_syntax_error_is_reported_in_the_designers_words(old, new, line_has, word, message, hint):
    assert old in RPS_TEXT
    broken = RPS_TEXT.replace(old, new, 1)
    game, found = parse(broken, "t.game")
    assert game is None
    (d,) = found
    assert d.message == message
    assert (d.pos.line, d.pos.col) == where(broken, line_has, word)
    if hint is not None:
        assert hint in d.hint


def test_syntax_errors_on_several_lines_are_all_reported():
    """After a broken line (and a broken block header: its block is skipped) reading
    goes on, so each broken line is reported once."""
    broken = RPS_TEXT.replace("seats 2 to 4", "sets 2 to 4").replace(
        "phase throw {", "phase throw now {").replace("target points:", "target pints")
    _, found = parse(broken, "t.game")
    assert [d.pos.line for d in found] == [where(broken, "sets", "sets")[0],
                                         where(broken, "phase throw now", "now")[0],
                                         where(broken, "target pints", "pints")[0]]


@pytest.mark.parametrize("text, message", [
    ("", "the file holds no game"),
    ("# only a comment\n", "the file holds no game"),
    (RPS_TEXT.rstrip()[:-1], "the file ends inside the `game` block opened at line"),
    (RPS_TEXT + 'game again "Again" {\n}\n', "a game file holds one game"),
])
def test_a_file_that_is_not_one_whole_game(text, message):
    _, found = parse(text, "t.game")
    assert found and message in found[0].message


def test_a_huge_broken_file_stops_after_many_errors():
    from wgdsl.lang.game.parser import MAX_ERRORS

    broken = RPS_TEXT.replace("  counter points start 0", "  countr x\n" * 500 + "  counter points start 0")
    _, found = parse(broken, "t.game")
    assert len(found) == MAX_ERRORS


# ------------------------------------------------------------------ robustness
_WORDS = sorted({w for t in (RPS_TEXT, WAR_TEXT) for w in t.split()}) + [
    "{", "}", "\n", ":", ",", "0", "99999999", "played", "of", "top", "#", '"x"', "@", "é"]


@given(data=st.data())
def test_a_mangled_game_file_is_diagnostics_never_a_crash(data):
    """Words of the examples deleted, replaced or inserted anywhere: the reader and the
    checker answer with diagnostics placed inside the text, or with a spec."""
    text = data.draw(st.sampled_from([RPS_TEXT, WAR_TEXT]))
    parts = re.split(r"(\s+)", text)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(parts) - 1))
        how = data.draw(st.sampled_from(["replace", "delete", "insert"]))
        word = data.draw(st.sampled_from(_WORDS))
        if how == "replace":
            parts[at] = word
        elif how == "delete":
            parts[at] = ""
        else:
            parts.insert(at, word + " ")
    mangled = "".join(parts)
    spec, found = compile_text(mangled, "t.game")
    assert spec is not None or any(d.severity == "error" for d in found)
    lines = mangled.split("\n")
    for d in found:
        assert 1 <= d.pos.line <= len(lines) + 1 and d.pos.col >= 1, d
        assert d.message and "Traceback" not in d.render(mangled)


def test_a_checker_that_crashes_is_caught(monkeypatch):
    """A slip in the checker (looking a name up as if it had been declared) is found by
    the property above."""
    from hypothesis import HealthCheck, Phase, settings

    from wgdsl.lang.game import checker

    def careless(self, word, what, hint_more=""):
        return self.names[word.text][0] == what

    monkeypatch.setattr(checker._Checker, "lookup", careless)
    found = settings(max_examples=200, phases=[Phase.generate], derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))(
        test_a_mangled_game_file_is_diagnostics_never_a_crash.hypothesis.inner_test)
    with pytest.raises(KeyError):
        given(data=st.data())(found)()


def test_a_game_file_of_megabytes_is_refused_at_once(tmp_path):
    """Reading runs at about 50 µs a line: a 2 MB file would take tens of seconds, so its
    size is refused before it is read, with the limit and what a game file is."""
    from wgdsl.lang.game import MAX_GAME_BYTES, read_source

    big = tmp_path / "big.game"
    big.write_text('game x "X" {\n' + "  seats 2\n" * (MAX_GAME_BYTES // 10) + "}\n")
    text, problems = read_source(big)
    assert text is None and len(problems) == 1
    assert f"at most {MAX_GAME_BYTES:,}" in problems[0].message
    assert "few kilobytes" in problems[0].hint
