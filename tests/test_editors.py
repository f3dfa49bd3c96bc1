"""editors/: the VS Code extension's manifest and the TextMate grammars for highlighting.

The grammars' keyword lists must be the languages' keywords: they are compared with the
keyword terminals Lark itself reads from grammar/wgdsl.lark and wgdsl/lang/game/game.lark,
so a keyword added to a grammar and not to its highlighting (or the reverse) fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lark import Lark

from cli_helpers import cli
from wgdsl.lang.vocabulary import world_gainer

ROOT = Path(__file__).resolve().parents[1]
VSCODE = ROOT / "editors" / "vscode"
GRAMMARS = {
    "source.wgdsl": (VSCODE / "syntaxes" / "wgdsl.tmLanguage.json", ROOT / "grammar" / "wgdsl.lark"),
    "source.wgdsl-game": (VSCODE / "syntaxes" / "wgdsl-game.tmLanguage.json",
                          ROOT / "wgdsl" / "lang" / "game" / "game.lark"),
}


def lark_keywords(grammar: Path) -> set[str]:
    """The words among the grammar's string terminals, as Lark reads them."""
    parser = Lark(grammar.read_text(encoding="utf-8"), parser="lalr", lexer="basic")
    return {t.pattern.value for t in parser.terminals
            if t.pattern.type == "str" and t.pattern.value[:1].isalpha()}


def patterns(node):
    """Every pattern with a `match` in a TextMate grammar (repository included)."""
    if isinstance(node, dict):
        if "match" in node:
            yield node
        for value in node.values():
            yield from patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from patterns(value)


def words_of(match: str) -> set[str]:
    m = re.search(r"\(\?:([^()]*)\)", match)
    assert m, f"not a list of words: {match}"
    return set(m.group(1).split("|"))


def grammar(scope: str) -> dict:
    return json.loads(GRAMMARS[scope][0].read_text(encoding="utf-8"))


@pytest.mark.parametrize("scope", sorted(GRAMMARS))
def test_the_textmate_keywords_are_the_grammars_keywords(scope):
    g = grammar(scope)
    assert g["scopeName"] == scope
    highlighted: set[str] = set()
    for p in patterns(g):
        re.compile(p["match"])  # every expression is one a regex engine reads
        if p.get("name", "").startswith("keyword."):
            highlighted |= words_of(p["match"])
    expected = lark_keywords(GRAMMARS[scope][1])
    assert highlighted - expected == set(), "highlighted words that are no keyword"
    assert expected - highlighted == set(), "keywords the highlighting misses"


def test_the_card_grammar_highlights_the_values_the_checker_knows():
    g = grammar("source.wgdsl")
    named = {p["name"]: words_of(p["match"]) for p in patterns(g) if "name" in p
             and p["name"].startswith("support.constant")}
    words = world_gainer()  # World Gainer's game file
    assert named["support.constant.color.wgdsl"] == set(words.colors)
    assert named["support.constant.mark.wgdsl"] == set(words.marks)


def scopes(scope: str, line: str) -> list[tuple[str, str]]:
    """(text, scope) of a line, the grammar's top-level patterns tried in order at each
    place (enough of TextMate's rule for these one-line grammars)."""
    g = grammar(scope)

    def expand(items):
        for item in items:
            if "include" in item:
                yield from expand([g["repository"][item["include"][1:]]])
            elif "patterns" in item:
                yield from expand(item["patterns"])
            else:
                yield item

    rules = list(expand(g["patterns"]))
    out, i = [], 0
    while i < len(line):
        for rule in rules:
            m = re.compile(rule["match"]).match(line, i)
            if m and m.end() > i:
                if "captures" in rule:
                    out += [(m.group(int(k)), v["name"]) for k, v in rule["captures"].items()]
                else:
                    out.append((m.group(), rule["name"]))
                i = m.end()
                break
        else:
            i += 1
    return out


def test_a_card_line_is_highlighted_word_by_word():
    found = scopes("source.wgdsl", 'card WG-006 "ニビル星人" en "Nibiruan" {  # R13.2')
    assert found[:4] == [("card", "keyword.control.wgdsl"), ("WG-006", "constant.other.card-id.wgdsl"),
                         ('"ニビル星人"', "string.quoted.double.wgdsl"), ("en", "keyword.control.wgdsl")]
    assert found[-1] == ("# R13.2", "comment.line.number-sign.wgdsl")
    found = dict(scopes("source.wgdsl", "    move this to bottom of owner's stock  color blue"))
    assert found["owner's"] == "keyword.other.wgdsl"  # the whole word, not `owner` then `'s`
    assert found["blue"] == "support.constant.color.wgdsl"


def test_a_game_line_is_highlighted_word_by_word():
    found = scopes("source.wgdsl-game", '  card R-2 "Two" playing-card rank 2 copies 4   rule W1')
    assert ("R-2", "constant.other.id.wgdsl-game") in found
    assert ("W1", "entity.name.tag.rule.wgdsl-game") in found
    assert ("copies", "keyword.other.wgdsl-game") in found
    assert not any(text == "card" for text, _ in found[1:])  # `playing-card` is a name


def test_the_vscode_manifest_names_the_languages_grammars_and_server():
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    languages = {lang["id"]: lang["extensions"] for lang in manifest["contributes"]["languages"]}
    assert languages == {"wgdsl": [".wg"], "wgdsl-game": [".game"]}
    for lang in manifest["contributes"]["languages"]:
        json.loads((VSCODE / lang["configuration"]).read_text(encoding="utf-8"))
    for g in manifest["contributes"]["grammars"]:
        assert json.loads((VSCODE / g["path"]).read_text(encoding="utf-8"))["scopeName"] == g["scopeName"]
        assert g["language"] in languages
    default = manifest["contributes"]["configuration"]["properties"]["wgdsl.server.command"]["default"]
    assert default == ["wgdsl", "lsp"]
    script = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert '["wgdsl", "lsp"]' in script and "vscode-languageclient/node" in script
    assert "vscode-languageclient" in manifest["dependencies"]
    # the client adds --stdio to the command (TransportKind.stdio): the server takes it
    assert "--stdio" in cli("lsp", "--help").output
