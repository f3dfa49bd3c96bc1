"""What the language server knows of a document, without the protocol (no pygls needed):
positions in the protocol's units, problems from the buffer (not the disk), the commands'
rules for includes and a case's card set, and `wgdsl lsp` without pygls.

The protocol itself is tests/test_lsp.py.
"""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from cli_helpers import cli
from wgdsl.tools.lsp.documents import Document
from wgdsl.tools.lsp.positions import Lines


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


TEXT = st.text(st.sampled_from(list("ab \t\"#\r\n") + ["野", "𠮷", "\u2028", "\x0c", "😀"]),
               max_size=40)


@given(TEXT, st.data())
def test_columns_are_utf16_units_and_lines_end_at_newlines_only(text, data):
    lines = Lines(text)
    rows = text.split("\n")
    row = data.draw(st.integers(0, len(rows) - 1))
    line = rows[row][:-1] if row < len(rows) - 1 and rows[row].endswith("\r") else rows[row]
    col = data.draw(st.integers(1, len(line) + 1))
    assert lines.to_lsp(row + 1, col) == (row, utf16(line[:col - 1]))
    # and back: the protocol position is the same place in the text
    offset = sum(len(r) + 1 for r in rows[:row]) + col - 1
    assert lines.offset(*lines.to_lsp(row + 1, col)) == offset
    assert lines.from_offset(offset) == (row, utf16(text[offset - col + 1:offset]))


def test_other_encodings_count_their_own_units():
    text = "a𠮷b\n"
    assert Lines(text, "utf-8").to_lsp(1, 3) == (0, 1 + 4)
    assert Lines(text, "utf-32").to_lsp(1, 3) == (0, 2)
    assert Lines(text, "utf-16").to_lsp(1, 3) == (0, 3)


def test_a_line_separator_in_a_comment_does_not_move_the_lines_below(tmp_path):
    text = 'card X1-001 "a" {\n  # a note\u2028still the note\n  color bleu  cost 1\n}\n'
    path = tmp_path / "sep.wg"
    path.write_text(text, encoding="utf-8")
    assert f"{path}:3:9: error: unknown color `bleu`" in cli("check", path).output
    problems = Document(str(path), text).problems()
    assert [(p.start, p.end) for p in problems] == [((2, 8), (2, 12))]
    # hover and definition find the words of the lines below it where the editor sees them
    text = text.replace("bleu", "blue") + '# \u2028\ncard X1-002 "b" {\n  color red  cost 1\n' \
        '  dimension:\n    may move a card named "a" in your stock to your break\n}\n'
    doc = Document(str(path), text)
    assert doc.problems() == []
    row = text.split("\n").index('    may move a card named "a" in your stock to your break')
    assert "X1-001" in doc.hover(row, 28)
    assert doc.definition(row, 28) == (str(path), (0, 13), (0, 14))


def test_the_buffer_is_checked_not_the_file_on_disk(tmp_path):
    path = tmp_path / "mine.wg"
    path.write_text('card X1-001 "a" {\n  color bleu  cost 1\n}\n', encoding="utf-8")
    assert Document(str(path), 'card X1-001 "a" {\n  color blue  cost 1\n}\n').problems() == []
    game = tmp_path / "g.game"
    game.write_text("nothing here\n", encoding="utf-8")
    war = (cli_root() / "examples" / "games" / "war.game").read_text(encoding="utf-8")
    assert Document(str(game), war).problems() == []


def cli_root():
    from pathlib import Path

    return Path(__file__).resolve().parents[1]


def test_includes_follow_the_commands_rules(tmp_path):
    outside = tmp_path / "outside.wg"
    outside.write_text('card Y1-001 "secret" {\n  color blue  cost 1\n}\n', encoding="utf-8")
    folder = tmp_path / "sets"
    folder.mkdir()
    text = 'include "../outside.wg"\n\ncard X1-001 "a" {\n  color blue  cost 1\n}\n'
    doc = Document(str(folder / "mine.wg"), text)
    problems = doc.problems()
    (folder / "mine.wg").write_text(text, encoding="utf-8")
    printed = cli("check", folder / "mine.wg").output
    assert len(problems) == 1 and problems[0].message.split("\n")[0] in printed
    assert "outside this file's folder" in problems[0].message
    assert problems[0].start == (0, 8)
    assert doc.definition(0, 12) is None  # nothing outside is offered
    assert all(c.id != "Y1-001" for c in doc.cards)
    # an included set with errors: the error in it comes along as related information
    (folder / "base.wg").write_text('card Z1-001 "b" {\n  color bleu  cost 1\n}\n', encoding="utf-8")
    problems = Document(str(folder / "mine.wg"), text.replace("../outside.wg", "base.wg")).problems()
    assert "the included set `base.wg` has errors" in problems[0].message
    (related_path, span, message), = problems[0].related
    assert related_path.endswith("base.wg") and span == ((1, 8), (1, 12))
    assert "unknown color `bleu`" in message


def test_a_case_names_its_card_set_under_the_commands_rules(tmp_path):
    (tmp_path / "x.wg").write_text('card Y1-001 "far" {\n  color blue  cost 1\n}\n', encoding="utf-8")
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    text = '[case]\nid = "far"\ncards = "../../x.wg"\n\n[state.A]\nhand = ["Y1-001"]\n'
    problems = Document(str(inner / "far.toml"), text).problems()
    assert problems and problems[0].start[0] == 2  # the `cards` line
    assert "leads outside the case file's folder" in problems[0].message
    # the same words as `wgdsl rulings` prints for the file
    (inner / "far.toml").write_text(text, encoding="utf-8")
    printed = cli("rulings", inner / "far.toml").output
    assert problems[0].message.split(" (")[0] in printed


def test_a_toml_file_without_a_case_table_is_not_a_case(tmp_path):
    doc = Document(str(tmp_path / "pyproject.toml"), '[project]\nname = "x"\nbad = \n')
    assert doc.kind is None and doc.problems() == [] and doc.completions(0, 0) == []


def test_without_pygls_the_command_says_what_to_install():
    code = ("import sys; sys.modules['pygls'] = None; from wgdsl.cli import main; "
            "sys.exit(main(['lsp']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert "pip install 'wgdsl[lsp]'" in done.stderr and "Traceback" not in done.stderr


def test_a_document_not_saved_yet_is_known_by_its_language_id():
    text = 'card X1-001 "a" {\n  color bleu  cost 1\n}\n'
    assert Document("untitled:Untitled-1", text).problems() == []  # nothing known of it
    problems = Document("untitled:Untitled-1", text, language="wgdsl").problems()
    assert [(p.start, p.message.split("\n")[0]) for p in problems] == \
        [((1, 8), "unknown color `bleu`")]


def test_a_rule_number_is_world_gainers_only_where_it_cites_its_rules(tmp_path):
    text = '[case]\nid = "x"\nsource = "R8.2; GG R11.4"\n'
    doc = Document(str(tmp_path / "x.toml"), text)
    doc.problems()
    assert "R8.2" in doc.hover(2, 11)
    assert doc.hover(2, 20) is None  # GETGEM's R11.4, not World Gainer's
    gg = Document(str(tmp_path / "g.toml"), '[case]\nid = "g"\ngame = "getgem"\nsource = "R11.4"\n')
    gg.problems()
    assert gg.hover(3, 12) is None


def test_a_broken_case_offers_its_games_built_in_cards(tmp_path):
    (tmp_path / "mine.wg").write_text('include "wg01"\n\ncard X1-001 "mine" {\n  color blue  cost 1\n}\n',
                                      encoding="utf-8")
    text = '[case]\nid = "m"\ncards = "mine.wg"\n\n[state.A]\nhand = ["X1-001"]\n'
    good = Document(str(tmp_path / "m.toml"), text)
    assert good.problems() == [] and good.card("X1-001") is not None
    broken = Document(str(tmp_path / "m.toml"), text.replace("hand =", "hand = = "))
    assert broken.problems()
    assert broken.hover(5, 10) is None  # its own set cannot be read
    assert broken.set_file.endswith("wg01.wg") and broken.card("WG-001") is not None
