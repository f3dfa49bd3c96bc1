"""`include "wg01"`: a designer's set extends another set without copying it."""

from pathlib import Path

import pytest

from wgdsl.lang.cards import check_text, load_cards
from wgdsl.lang.diagnostics import DiagnosticError
from wgdsl.lang.fmt import format_cardset
from wgdsl.lang.parser import parse

NEW_CARD = '''card XP-900 "新顔" en "Newcomer" {
  color green  cost 2  requires 1
  dimension:
    may move a card named "月面派遣軍・曹長" in your stock to your hand
}
'''


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_a_set_including_wg01_has_both_sets_cards(tmp_path):
    lib = load_cards(write(tmp_path, "mine.wg", 'include "wg01"\n\n' + NEW_CARD))
    assert len(lib) == 26
    assert lib["XP-900"].en_name == "Newcomer"
    assert lib["WG-002"].name == "月面派遣軍・曹長"  # the named card comes from WG01


def test_a_name_from_the_included_set_is_known_to_the_checker(tmp_path):
    # without the include, the named card is unknown to the set
    problems = check_text(NEW_CARD, "alone.wg")[1]
    assert len(problems) == 1 and "月面派遣軍・曹長" in problems[0].message
    assert check_text('include "wg01"\n' + NEW_CARD, str(tmp_path / "x.wg"))[1] == []


def test_includes_are_relative_to_the_including_file(tmp_path):
    sub = tmp_path / "sub"
    sub.mkdir()
    write(sub, "base.wg", 'card XP-001 "土台" {\n  color red  cost 1\n}\n')
    lib = load_cards(write(tmp_path, "top.wg", 'include "sub/base.wg"\n\ncard XP-002 "上" {\n  color red  cost 2\n}\n'))
    assert list(lib.by_id) == ["XP-001", "XP-002"]


def test_a_missing_include_is_reported_at_its_line(tmp_path):
    diags = check_text('include "nowhere.wg"\n', str(tmp_path / "x.wg"))[1]
    assert len(diags) == 1
    d = diags[0]
    assert (d.pos.line, d.pos.col) == (1, 9)
    assert "cannot include `nowhere.wg`" in d.message


def test_reusing_an_included_id_is_an_error(tmp_path):
    diags = check_text('include "wg01"\n\ncard WG-006 "偽" {\n  color red  cost 1\n}\n',
                       str(tmp_path / "x.wg"))[1]
    assert [(d.pos.line, d.pos.col) for d in diags] == [(3, 6)]
    assert "already used by an included set" in diags[0].message


def test_sets_including_each_other_are_refused_not_looped(tmp_path):
    write(tmp_path, "a.wg", 'include "b.wg"\n')
    b = write(tmp_path, "b.wg", 'include "a.wg"\n')
    with pytest.raises(DiagnosticError) as err:
        load_cards(b)
    assert "includes this file again" in err.value.render()


def test_fmt_keeps_includes_first():
    cardset, _ = parse('include "wg01"\n' + NEW_CARD, "x.wg")
    text = format_cardset(cardset)
    assert text.startswith('include "wg01"\n\ncard XP-900')
    assert parse(text, "y.wg")[0] == cardset
