"""The rules reference (docs/rules.md), its reader (wgdsl/tools/rulebook.py) and `wgdsl rules`.

Every rule number the package, the grammar, the cards, the examples and the docs cite
must be defined in the reference; the reference must keep the spec's numbering (checked
against ../shared/spec/rules.md when that is here) without copying its sentences; and
the command must work from the files a wheel ships (wgdsl/_data).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl import resources
from wgdsl.cli import main
from wgdsl.tools import rulebook
from wgdsl.tools.rulebook import LayoutError, UnknownRule

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "rules.md"
SPEC_DIR = ROOT.parent / "shared" / "spec"
# a citation: R8, R8.2 — not part of a longer word or number (XR1, 0R1, R1a)
CITED = re.compile(r"(?<!GG )(?<!IAW )(?<!IW )(?<![A-Za-z0-9])R[0-9]+(?:\.[0-9]+)?(?![A-Za-z0-9])")
# what the wheel ships or the package is: its code, the grammar, the cards, the decks and
# ruling cases, the docs and the README that point at rule numbers
CITING = ("wgdsl", "grammar", "cards", "examples", "docs", "README.md")
# the files of the other games, whose rule numbers are their own books' (GETGEM's R8.5 is
# "GG R8.5"), and docs/games.md, whose numbers are those of the game files it shows
OTHER_BOOKS = ("docs/games.md", "docs/getgem.md", "wgdsl/games/getgem", "examples/rulings/getgem",
               "wgdsl/games/wonderful_world", "docs/wonderful-world.md",
               "examples/rulings/wonderful-world", "wgdsl/tools/rulings_wonderful_world.py",
               "wgdsl/games/imitation_world", "docs/imitation-world.md",
               "examples/rulings/imitation-world", "wgdsl/tools/rulings_imitation_world.py",
               "wgdsl/tools/simulate_imitation_world.py", "wgdsl/tools/decks_imitation_world.py",
               "tests/imitation_world")
TEXT_SUFFIXES = {".py", ".lark", ".wg", ".toml", ".txt", ".md"}


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _other_book(path) -> bool:
    try:
        relative = path.resolve().relative_to(ROOT).as_posix()
    except ValueError:  # a file outside the checkout (a test's own)
        return False
    return any(relative == o or relative.startswith(o + "/") for o in OTHER_BOOKS)


def cited_rules(paths) -> dict[str, str]:
    """Every rule number cited in the text files under ``paths``: number -> first place."""
    found: dict[str, str] = {}
    for top in paths:
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in files:
            if path.suffix not in TEXT_SUFFIXES or _other_book(path):
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                for m in CITED.finditer(line):
                    found.setdefault(m.group(), f"{path.relative_to(top.parent)}:{n}")
    return found


BOOK = rulebook.builtin()


# ------------------------------------------------------------- the reference is complete
def test_every_rule_number_cited_anywhere_is_in_the_reference():
    cited = cited_rules(ROOT / name for name in CITING)
    # the search must really have found the citations, or the test could not fail
    assert {"R8.2", "R11.1", "R13.5", "R12.3", "R3"} <= set(cited)
    assert len(cited) > 50
    missing = {rule: where for rule, where in cited.items() if BOOK.get(rule) is None}
    assert missing == {}, f"cited but not defined in docs/rules.md: {missing}"


def test_the_citation_search_sees_a_number_the_reference_lacks(tmp_path):
    (tmp_path / "x.py").write_text('raise IllegalAction("no", "R14.2")  # see R8.2\n'
                                   "XR1 R1a 0R9\n", encoding="utf-8")
    cited = cited_rules([tmp_path])
    assert cited == {"R14.2": f"{tmp_path.name}/x.py:1", "R8.2": f"{tmp_path.name}/x.py:1"}
    assert BOOK.get("R14.2") is None


def test_the_shipped_reference_is_the_checkout_file():
    assert resources.rules_reference_path() == REFERENCE
    assert BOOK.path == str(REFERENCE)
    assert BOOK.title.startswith("World Gainer")


def test_rules_and_sub_rules_in_the_specs_numbering():
    # R1 to R13 with these many sub-rules each (R9 has none); the WG01 card rulings after
    expected = {"R1": 6, "R2": 4, "R3": 4, "R4": 2, "R5": 5, "R6": 5, "R7": 3, "R8": 4,
                "R9": 0, "R10": 4, "R11": 3, "R12": 4, "R13": 7, "WG01": 7}
    assert {r.id: len(r.parts) for r in BOOK.rules} == expected
    assert [r.id for r in BOOK.rules] == list(expected)


def test_project_decisions_are_marked_where_they_belong():
    def decisions(rule_id):
        return [p for p in BOOK.get(rule_id).paragraphs() if p.startswith("- **Project decision**")]

    # the first landing's decisions (phases, copy choice, owner's zones, activated effects)
    assert "run by themselves" in decisions("R5.1")[0]
    assert "refused before any question is asked" in decisions("R7.2")[0]
    assert "owner's zones" in decisions("R1.1")[0]
    assert "standby and gain phases" in decisions("R13.2")[0]
    assert "1,000 turns" in decisions("R12.4")[0]


@pytest.mark.skipif(not (SPEC_DIR / "rules.md").is_file(),
                    reason=f"the spec is not here: {SPEC_DIR} (a checkout without ../shared)")
class TestAgainstTheSpec:
    SPEC = rulebook.parse((SPEC_DIR / "rules.md").read_text(encoding="utf-8"), "spec/rules.md") \
        if (SPEC_DIR / "rules.md").is_file() else None

    def test_same_rules_titles_and_sub_rules(self):
        for rule in self.SPEC.rules:
            ours = BOOK.get(rule.id)
            assert ours is not None, rule.id
            assert ours.title == rule.title
            assert [p.id for p in ours.parts] == [p.id for p in rule.parts]

    def test_every_ruling_and_card_of_the_spec_stays_in_its_rule(self):
        for rule in self.SPEC.rules:
            for spec_part in (rule, *rule.parts):
                ours = BOOK.get(spec_part.id)
                assert ours.text.count("**Ruling") >= spec_part.text.count("**Ruling"), ours.id
                spec_cards = set(re.findall(r"WG-\d{3}", spec_part.text))
                assert spec_cards <= set(re.findall(r"WG-\d{3}", ours.text)), ours.id
                spec_cited = set(CITED.findall(spec_part.text))
                assert spec_cited <= set(CITED.findall(ours.text)), ours.id

    def test_the_wg01_rulings_are_all_there(self):
        text = (SPEC_DIR / "wg01.md").read_text(encoding="utf-8")
        section = text.split("## Rulings", 1)[1]
        bullets = [b for b in re.split(r"\n- ", "\n" + section) if b.strip().startswith("WG-")]
        ours = BOOK.get("WG01").parts
        assert len(ours) == len(bullets) == 7
        for bullet, part in zip(bullets, ours):
            assert re.findall(r"WG-\d{3}", bullet)[0] in part.text

    def test_no_sentence_is_copied_from_the_spec(self):
        def norm(s):
            return " ".join(s.split())

        ours = norm(REFERENCE.read_text(encoding="utf-8"))
        spec = norm((SPEC_DIR / "rules.md").read_text(encoding="utf-8")
                    + (SPEC_DIR / "wg01.md").read_text(encoding="utf-8"))
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", spec)
                     if len(s.split()) >= 10 and not s.startswith("#")]  # titles are names
        assert len(sentences) > 50
        copied = [s for s in sentences if s in ours]
        assert copied == []


# ---------------------------------------------------------------------- the layout
GETGEM_LIKE = """\
# GETGEM — rules reference

Free text before the first rule; `## R1` here is not a heading.
1. nor is this a sub-rule.

## R1 Players
Two to five players.
1. Seats go clockwise,
   and this line continues R1.1.

   - so does this list,
     item and all.
2. The dealer shuffles.

## R17 Character expansion
Optional.
"""


def test_a_reference_of_another_game_in_the_same_layout():
    book = rulebook.parse(GETGEM_LIKE, "gg.md")
    assert book.title == "GETGEM — rules reference"
    assert book.ids == ["R1", "R1.1", "R1.2", "R17"]
    r1 = book.get("R1")
    assert (r1.title, r1.text, r1.line) == ("Players", "Two to five players.", 6)
    assert book.get("R1.1").text == ("Seats go clockwise,\nand this line continues R1.1.\n\n"
                                     "- so does this list,\n  item and all.")
    assert book.get("R1.1").paragraphs() == [
        "Seats go clockwise, and this line continues R1.1.", "- so does this list, item and all."]
    assert book.get("R17").parts == () and book.get("R17").text == "Optional."
    assert book.get("R1.2").parent_id == "R1" and book.get("R1").parent_id is None


@pytest.mark.parametrize("text, line, message", [
    ("## R1 A\n1. one\n3. three\n", 3, "expected `2.`, found `3.`"),
    ("## R1 A\n2. two\n", 2, "expected `1.`, found `2.`"),
    ("## R1 A\n1. one\nnot indented\n", 3, "indent it to continue R1.1, or number it to start R1.2"),
    ("## R1 A\n## R1 B\n", 2, "rule R1 is already defined on line 1"),
    ("## Cards of the set\n", 1, "a rule heading is `## ID Title`"),
    ("## R1\n", 1, "a rule heading is `## ID Title`"),
    ("# Only a title\n\nsome text\n", 0, "no rules found"),
    ("", 0, "no rules found"),
])
def test_layout_errors_say_where_and_what_is_right(text, line, message):
    with pytest.raises(LayoutError) as err:
        rulebook.parse(text, "mine.md")
    assert err.value.line == line
    assert message in err.value.message
    assert str(err.value).startswith("mine.md:" + (f"{line}:" if line else " "))


# ---------------------------------------------------------------------- finding a rule
@pytest.mark.parametrize("query, rule_id", [
    ("R8.2", "R8.2"), ("r8.2", "R8.2"), ("8.2", "R8.2"), (" `R8.2` ", "R8.2"), ("R8.2.", "R8.2"),
    ("R8", "R8"), ("13", "R13"), ("WG01.4", "WG01.4"), ("wg01", "WG01"), ("01.3", "WG01.3"),
])
def test_find_accepts_what_people_type(query, rule_id):
    assert BOOK.find(query).id == rule_id


@pytest.mark.parametrize("query, message, hint", [
    ("R99", "no rule R99 (World Gainer — rules reference has rules R1 to R13, WG01)",
     "did you mean R9?"),
    ("R8.9", "R8 has no sub-rule R8.9", "R8 has sub-rules R8.1 to R8.4; `wgdsl rules R8`"),
    ("R9.1", "R9 has no sub-rules, so no R9.1", "`wgdsl rules R9` prints the whole rule"),
    ("aiko", "`aiko` is not a rule number", "wgdsl rules --search aiko"),
    ("empty stock", "not a rule number", "wgdsl rules --search 'empty stock'"),
    ("R-8", "not a rule number", "`wgdsl rules` lists every rule"),
])
def test_an_unknown_rule_says_what_is_near(query, message, hint):
    with pytest.raises(UnknownRule) as err:
        BOOK.find(query)
    assert message in err.value.message
    assert hint in err.value.hint


def test_search_any_case_any_spacing_across_line_breaks():
    book = rulebook.parse(GETGEM_LIKE, "gg.md")
    found = book.search("CLOCKWISE,   and this")  # "clockwise," ends a line of R1.1
    assert [(m.rule.id, m.sentences) for m in found] == [
        ("R1.1", ("Seats go clockwise, and this line continues R1.1.",))]
    found = BOOK.search("Empty Stock")  # R5.2's ruling: an effect's draw from an empty stock
    assert "R5.2" in [m.rule.id for m in found]
    assert all("empty stock" in s for m in found for s in m.sentences)


def test_search_finds_titles_and_returns_the_sentences_that_mention_the_word():
    found = {m.rule.id: m for m in BOOK.search("field priority")}
    assert "R8" in found  # its title
    aiko = {m.rule.id: m.sentences for m in BOOK.search("aiko")}
    assert set(aiko) == {"R7.3", "R11.1", "R11.2", "WG01.1"}
    assert all("aiko" in s for ss in aiko.values() for s in ss)
    assert BOOK.search("xyzzy") == []
    assert BOOK.words_near("aikko") == "aiko"


# ------------------------------------------------------------------------- the command
def test_rules_r8_2_prints_the_heading_and_the_rule():
    result = run("rules", "R8.2")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "R8 Field priority (獲得の優先度)",
        "R8.2  P may play onto a square of a row only while P holds **all** the squares of "
        "every row",
        "      ranked above that row.",
    ]
    assert result.stderr == ""


def test_rules_r8_prints_every_sub_rule():
    lines = run("rules", "r8").stdout.splitlines()
    assert lines[0] == "R8 Field priority (獲得の優先度)"
    assert [ln.split()[0] for ln in lines if ln.startswith("R8.")] == ["R8.1", "R8.2", "R8.3", "R8.4"]


def test_rules_alone_lists_the_headings():
    result = run("rules")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "World Gainer — rules reference"
    listed = [ln.split()[0] for ln in lines[1:] if re.match(r"[A-Z]+\d", ln)]
    assert listed == [f"R{n}" for n in range(1, 14)] + ["WG01"]
    assert "R8    Field priority (獲得の優先度)  (R8.1–R8.4)" in lines
    assert "R9    Playing onto an empty square" in lines


def test_an_unknown_rule_exits_1_with_a_did_you_mean():
    result = run("rules", "R99")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: no rule R99 (World Gainer — rules reference has rules R1 to R13, WG01)",
        "  hint: did you mean R9? (`wgdsl rules` lists every rule)",
    ]


@pytest.mark.parametrize("args", [
    ("R8", "--search", "aiko"), ("--search", "  "), ("R8", "R9"), ("--serch", "aiko"),
])
def test_wrong_usage_exits_2(args):
    result = run("rules", *args)
    assert result.exit_code == 2
    assert "Usage: " in result.stderr and " rules [OPTIONS] [RULE]" in result.stderr


def test_search_prints_each_rule_with_its_sentences():
    result = run("rules", "--search", "aiko")
    assert result.exit_code == 0
    firsts = [ln.split()[0] for ln in result.stdout.splitlines() if not ln.startswith(" ")]
    assert firsts == ["R7.3", "R11.1", "R11.2", "WG01.1"]
    assert max(len(ln) for ln in result.stdout.splitlines()) <= rulebook.WIDTH


def test_search_that_finds_nothing_exits_1_with_a_near_word():
    result = run("rules", "--search", "aikko")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["error: no rule mentions `aikko`",
                                          "  hint: did you mean `aiko`?"]


def test_help_teaches_with_examples():
    result = run("rules", "--help")
    assert result.exit_code == 0
    for example in ("wgdsl rules R8.2", "wgdsl rules R8 ", "wgdsl rules --search aiko",
                    "wgdsl rules  "):
        assert example in result.stdout
    assert "wgdsl rules R8.2" in run("--help").stdout


def test_another_reference_from_a_file(tmp_path):
    path = tmp_path / "gg.md"
    path.write_text(GETGEM_LIKE, encoding="utf-8")
    result = run("rules", "--file", str(path), "R1.1")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == ["R1 Players", "R1.1  Seats go clockwise,"]
    result = run("rules", "--file", str(path), "R2")
    assert result.exit_code == 1
    assert "GETGEM — rules reference has rules R1 to R17" in result.stderr


def test_a_broken_or_missing_reference_file_is_a_message(tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_text("## R1 A\n1. one\n3. three\n", encoding="utf-8")
    result = run("rules", "--file", str(bad))
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"{bad}:3: error: sub-rules of R1 are numbered 1, 2, 3 "
                                     "in order: expected `2.`, found `3.`")
    result = run("rules", "--file", str(tmp_path / "none.md"))
    assert (result.exit_code, result.stderr.strip()) == (1, f"{tmp_path / 'none.md'}: error: no such file")
    result = run("rules", "--file", str(tmp_path))
    assert result.exit_code == 1 and "is a directory" in result.stderr
    latin1 = tmp_path / "latin1.md"
    latin1.write_bytes("## R1 A\n1. café\n".encode("latin-1"))
    result = run("rules", "--file", str(latin1))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{latin1}:2:7: error: is not UTF-8 text")


def test_control_characters_in_a_reference_do_not_reach_the_terminal(tmp_path):
    path = tmp_path / "esc.md"
    path.write_text("## R1 Title \x1b]0;pwned\x07\n1. text \x1b[2J\n", encoding="utf-8")
    result = run("rules", "--file", str(path), "R1")
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout and "\\x1b]0;pwned\\x07" in result.stdout


# -------------------------------------------------------------------- in an installed wheel
def test_the_wheel_carries_the_reference_where_resources_looks():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert include["docs/rules.md"] == "wgdsl/_data/docs/rules.md"


def test_the_packaged_reference_is_preferred(tmp_path, monkeypatch):
    package = tmp_path / "site" / "wgdsl"
    (package / "_data" / "docs").mkdir(parents=True)
    shipped = package / "_data" / "docs" / "rules.md"
    shipped.write_text(GETGEM_LIKE, encoding="utf-8")
    monkeypatch.setattr(resources, "_PACKAGE", package)
    assert resources.rules_reference_path() == shipped
    rulebook.builtin.cache_clear()
    try:
        assert rulebook.builtin().title == "GETGEM — rules reference"
        assert run("rules", "R17").stdout.startswith("R17 Character expansion")
    finally:
        rulebook.builtin.cache_clear()
