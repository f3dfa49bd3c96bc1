"""Ruling cases as users meet them: files that are no case (FIFOs, devices, names too long),
numbers too long to read, every problem at its line, and `[case] cards` kept to card sets."""

from __future__ import annotations

import os
import re
import threading
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.tools.rulings import CaseProblems, load_case, run_paths

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "examples").rglob("*.toml"))
LONG = "1" * 4301  # one digit more than int() reads from text

HEAD = '[case]\nid = "t"\n'


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(CaseProblems) as err:
        load_case(path)
    return err.value.problems


def within(seconds: float, fn):
    """fn()'s value; fails (instead of hanging the suite) when it takes longer."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as err:  # re-raised below
            out["error"] = err

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"still running after {seconds} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


def lines_of(results) -> list[str]:
    return [r.line() for r in results]


# ---------------------------------------------------------------- files that are no case
def test_a_fifo_and_a_device_in_a_directory_are_broken_cases_and_the_others_run(tmp_path):
    write(tmp_path / "a.toml", HEAD)
    os.mkfifo(tmp_path / "b.toml")
    (tmp_path / "c.toml").symlink_to("/dev/zero")
    write(tmp_path / "d.toml", '[case]\nid = "d"\n')
    got = lines_of(within(10, lambda: run_paths([tmp_path])))
    assert got == [
        "PASS t",
        f"ERROR {tmp_path / 'b.toml'}: is a FIFO (named pipe), not a ruling case file "
        "(a ruling case is a TOML text file, see docs/rulings.md)",
        f"ERROR {tmp_path / 'c.toml'}: is a device, not a ruling case file "
        "(a ruling case is a TOML text file, see docs/rulings.md)",
        "PASS d",
    ]


def test_paths_given_that_are_no_case_file(tmp_path):
    os.mkfifo(tmp_path / "f.toml")
    long_name = tmp_path / ("a" * 300 + ".toml")
    paths = [tmp_path / "f.toml", "/dev/zero", long_name, tmp_path / "nope.toml",
             tmp_path / "empty"]
    (tmp_path / "empty").mkdir()
    got = lines_of(within(10, lambda: run_paths(paths)))
    assert got == [
        f"ERROR {tmp_path / 'f.toml'}: is a FIFO (named pipe), not a ruling case file "
        "(a ruling case is a TOML text file, see docs/rulings.md)",
        "ERROR /dev/zero: is a device, not a ruling case file "
        "(a ruling case is a TOML text file, see docs/rulings.md)",
        f"ERROR {long_name}: the file name is too long for the operating system",
        f"ERROR {tmp_path / 'nope.toml'}: no such file or directory",
        f"ERROR {tmp_path / 'empty'}: no *.toml case files in this directory",
    ]


def test_load_case_of_a_fifo_does_not_block(tmp_path):
    # `wgdsl simulate --state FIFO` calls load_case
    os.mkfifo(tmp_path / "board.toml")
    with pytest.raises(CaseProblems) as err:
        within(10, lambda: load_case(tmp_path / "board.toml", board_only=True))
    assert err.value.problems == [f"{tmp_path / 'board.toml'}: is a FIFO (named pipe), not a "
                                  "ruling case file (a ruling case is a TOML text file, see "
                                  "docs/rulings.md)"]


def test_bytes_that_are_not_utf8_are_reported_at_line_and_column(tmp_path):
    p = tmp_path / "c.toml"
    p.write_bytes(b'[case]\nid = "t\xff"\n')
    [msg] = problems(p)
    assert msg.startswith(f"{p}:2:8: is not UTF-8 text")


def test_cli_rulings_with_a_fifo_a_device_and_a_long_name(tmp_path):
    os.mkfifo(tmp_path / "x.toml")
    (tmp_path / "z.toml").symlink_to("/dev/zero")
    res = within(20, lambda: CliRunner().invoke(main, ["rulings", str(tmp_path), "b" * 300 + ".toml"]))
    assert res.exit_code == 1
    out = res.output.splitlines()
    assert out[0] == f"ERROR {'b' * 300}.toml: the file name is too long for the operating system"
    assert out[1].startswith(f"ERROR {tmp_path / 'x.toml'}: is a FIFO")
    assert out[2].startswith(f"ERROR {tmp_path / 'z.toml'}: is a device")
    assert out[3] == "0 passed, 3 failed"


# ---------------------------------------------------------------- numbers too long to read
@pytest.mark.parametrize("text, line, col", [
    (f"ol = {LONG}", 1, 6),  # reproducer 07: not even a known key
    (HEAD + f"[state]\nseed = {LONG}\n", 4, 8),  # reproducer 11
    (HEAD + f"[state]\nturn = -{LONG[:-1]}_1\n", 4, 8),
    # long digit runs in strings, comments, keys and floats are not the number
    (HEAD + f'source = "{LONG}"\n# {LONG}\n{LONG} = 1\n[state]\nseed = {LONG}.5\n'
            f"[[step]]\naction = 'x{LONG}'\nslot = [1, 2,\n  {LONG}]\n", 11, 3),
    (HEAD + f'question = """\n{LONG}\n"""\nanswer = \'\'\'{LONG}\'\'\'\n[state]\nturn = {LONG}\n',
     8, 8),
])
def test_a_number_too_long_to_read_is_a_problem_at_its_place(tmp_path, text, line, col):
    p = write(tmp_path / "c.toml", text)
    with pytest.raises(ValueError):  # what tomllib does with it: not a TOMLDecodeError
        tomllib.loads(text)
    [msg] = problems(p)
    assert msg.startswith(f"{p}:{line}:{col}: a number of ")
    assert "digits is too long to read" in msg and "at most 4,300 digits" in msg


def test_a_slot_answer_with_a_long_number(tmp_path):
    # reproducer 10: `int()` of the digits after `slot`
    p = write(tmp_path / "c.toml", HEAD + f'[answers]\nA = ["C1",\n  "slot {LONG}"]\n')
    [msg] = problems(p)
    assert msg.startswith(f"{p}:5: [answers] A[2]: answer `slot 1111")
    assert msg.endswith("(4,306 characters)`: standby slots are 1 to 5")


@pytest.mark.parametrize("answer, ok", [("slot 0", False), ("slot 5", True), ("slot 005", True),
                                        ("slot 6", False), ("slot 10", False)])
def test_slot_answers_in_range(tmp_path, answer, ok):
    p = write(tmp_path / "c.toml", HEAD + f'[answers]\nA = ["{answer}"]\n')
    if ok:
        assert load_case(p).answers["A"] == [answer]
    else:
        assert problems(p)[0].endswith("standby slots are 1 to 5")


def test_a_long_value_is_cut_in_messages(tmp_path):
    p = write(tmp_path / "c.toml", HEAD + f'[state.A]\nhand = ["{"W" * 5000}"]\n'
                                          f"[[step]]\naction = \"exhaust\"\nslot = {LONG[:4000]}\n")
    found = problems(p)
    assert len(found) == 2 and all(len(m) < 300 for m in found), found
    assert "(5,000 characters)" in found[0] and "(4,000 digits)" in found[1]


def test_arrays_nested_too_deeply(tmp_path):
    p = write(tmp_path / "c.toml", HEAD + "x = " + "[" * 5000 + "]" * 5000 + "\n")
    [msg] = problems(p)
    assert msg == f"{p}: invalid TOML: arrays or tables are nested too deeply to read"


# ---------------------------------------------------------------- every problem at its line
def _breakable_lines(text: str):
    """(line number, key, broken text) for each `key = value` line whose value is
    whole on the line: the value replaced by one of the wrong type for that key."""
    lines = text.split("\n")
    for n, line in enumerate(lines, start=1):
        m = re.match(r"^(\s*)([A-Za-z0-9_]+)(\s*=\s*)(.*)$", line)
        if not m:
            continue
        value = re.sub(r"\s+#[^\"']*$", "", m.group(4))
        try:
            tomllib.loads("k = " + value)
        except tomllib.TOMLDecodeError:
            continue  # a multi-line value
        # a boolean is broken by a string (`true` would still be a boolean)
        wrong = '"x"' if m.group(2) in ("played", "stun_set") or value in ("true", "false") \
            else "true"
        broken = lines[:n - 1] + [m.group(1) + m.group(2) + m.group(3) + wrong] + lines[n:]
        yield n, m.group(2), "\n".join(broken)


@pytest.mark.parametrize("case", SHIPPED, ids=lambda p: p.name)
def test_a_broken_value_is_reported_at_its_line(tmp_path, case):
    text = case.read_text(encoding="utf-8")
    # the sets of the folder above come along, so `cards = "../expedition.wg"` still names one
    for card_set in case.parent.parent.glob("*.wg"):
        (tmp_path / card_set.name).write_bytes(card_set.read_bytes())
    copy = tmp_path / "rulings" / case.name
    copy.parent.mkdir()
    checked = 0
    for n, key, broken in _breakable_lines(text):
        copy.write_text(broken, encoding="utf-8")
        found = problems(copy)
        at = [m for m in found if m.startswith(f"{copy}:{n}: ")]
        assert at, (key, n, found)
        assert all(re.match(re.escape(str(copy)) + r":\d+: ", m) for m in found), found
        checked += 1
    assert checked >= 3


def test_the_lines_of_tables_keys_items_steps_dotted_keys_and_inline_tables(tmp_path):
    p = write(tmp_path / "c.toml", """\
[case]
id = "t"

[state]
turn = "3"                          # 5
A.hand = ["WG-001",                 # 6
  "WG-0009"]                        # 7
B = { standby = ["WG-009",          # 8
                 "WG-009:exausted"] }

[state.field]
C1 = { holder = "Q", cards = ["WG-001"] }    # 12

[[step]]
action = "next"

[[step]]                            # 17
action = "play"
card = "WG-001"
square = "D1"                       # 20

[[step]]                            # 22
action = "exhaust"

[expect.A]
stock_top = "WG-999"                # 26
[expect]
winner = "C"                        # 28
field.C2 = "gone"                   # 29
""")
    got = [(int(m.split(":")[1]), m.split(": ", 1)[1]) for m in problems(p)]
    assert got == [
        (5, "[state]: `turn` must be an integer, not a string `'3'`"),
        (7, "[state.A] hand: unknown card id `WG-0009` (did you mean `WG-009`?)"),
        (9, "[state.B]: standby slot 2: `WG-009:exausted`: after `:` only `exhausted` is "
            "allowed (did you mean `exhausted`?)"),
        (12, "[state.field] C1: `holder` `Q` is not valid (one of A, B)"),
        (20, "[[step]] 2: unknown square `D1` (the squares are A1-A3, C1-C3 and B1-B3, R1.2)"),
        (22, "[[step]] 3: `exhaust` needs `slot`"),
        (26, "[expect.A] stock_top: unknown card id `WG-999` (did you mean `WG-019`?)"),
        (28, "[expect]: `winner` `C` is not valid (one of A, B, none)"),
        (29, "[expect.field] C2: `gone`: a square is \"empty\" or a table "
             "{ holder = ..., cards = [...] }"),
    ]


def test_a_missing_key_is_reported_at_its_table(tmp_path):
    p = write(tmp_path / "c.toml", '# a case\n\n[case]\nsource = "x"\n')
    assert problems(p) == [f"{p}:3: [case]: missing `id` (a unique name shown in reports)"]
    p = write(tmp_path / "d.toml", '[state]\nturn = 3\n')
    assert problems(p) == [f"{p}: missing [case] table (it needs at least `id`)"]


def test_duplicate_ids_name_the_line_of_the_id(tmp_path):
    write(tmp_path / "a" / "one.toml", HEAD)
    two = write(tmp_path / "b" / "two.toml", '# two\n[case]\n\nid = "t"\n')
    r = run_paths([tmp_path])[1]
    assert r.line() == f"ERROR {two}:4: [case] id `t` is already used by {tmp_path / 'a' / 'one.toml'}"


def test_error_lines_list_every_problem_at_its_place(tmp_path):
    p = write(tmp_path / "bad.toml", HEAD + '[state.A]\nhnad = []\n[[step]]\naction = "play"\n'
                                            'card = "WG-01"\nsquare = "D1"\n')
    res = CliRunner().invoke(main, ["rulings", str(p)])
    assert res.output.splitlines() == [
        f"ERROR {p}:4: [state.A]: unknown key `hnad` (did you mean `hand`?); "
        f"{p}:7: [[step]] 1: unknown card id `WG-01` (did you mean `WG-021`?); "
        f"{p}:8: [[step]] 1: unknown square `D1` (the squares are A1-A3, C1-C3 and B1-B3, R1.2)",
        "0 passed, 1 failed"]


def test_the_error_line_shown_in_the_doc_is_what_the_runner_prints(tmp_path, monkeypatch):
    doc = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    [text] = [b for b in re.findall(r"```toml\n(.*?)```", doc, re.S) if 'id = "bad"' in b]
    write(tmp_path / "bad.toml", text)
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["rulings", "bad.toml"])
    assert res.output.startswith("ERROR bad.toml:4: ")
    assert f"```text\n{res.output}```" in doc


def test_control_characters_in_reports_are_made_visible(tmp_path):
    p = write(tmp_path / "c.toml", '[case]\nid = "t\\u001b]0;owned\\u0007"\n')
    [r] = run_paths([p])
    assert r.ok and r.line() == "PASS t\\x1b]0;owned\\x07"
    p = write(tmp_path / "d.toml", HEAD + '[state.A]\nhand = ["\\u001b[2J"]\n')
    [r] = run_paths([p])
    assert "\x1b" not in r.line() and "\\x1b[2J" in r.line()


def test_a_loader_crash_is_an_error_line_not_a_traceback(tmp_path, monkeypatch):
    import wgdsl.tools.rulings as rulings

    def boom(self, data):
        raise KeyError("boom")

    monkeypatch.setattr(rulings._Loader, "load", boom)
    write(tmp_path / "a.toml", HEAD)
    [r] = run_paths([tmp_path])
    assert r.line() == (f"ERROR {tmp_path / 'a.toml'}: wgdsl failed while loading this case: "
                        "KeyError: 'boom'")


# ---------------------------------------------------------------- [case] cards
SECRET = "SECRET-TOKEN-42"
SET = (ROOT / "examples" / "sets" / "expedition.wg").read_text(encoding="utf-8")


@pytest.fixture()
def tree(tmp_path):
    """tmp/outside/secret.wg, tmp/set/set.wg and cases in tmp/set/rulings/."""
    write(tmp_path / "outside" / "secret.wg", f"{SECRET} card\n")
    write(tmp_path / "outside" / "secret.txt", f"{SECRET} card\n")
    write(tmp_path / "set" / "set.wg", SET)
    (tmp_path / "set" / "rulings").mkdir()
    return tmp_path


def case_with_cards(tree, cards: str, name: str = "c.toml") -> Path:
    return write(tree / "set" / "rulings" / name,
                 f'# a case\n[case]\nid = "t"\ncards = "{cards}"\n[state.A]\nhand = ["XP-003"]\n')


@pytest.mark.parametrize("cards", ["../set.wg", "./../set.wg", "wg01", "same.wg", "sub/deep.wg"])
def test_cards_a_case_may_name(tree, cards):
    write(tree / "set" / "rulings" / "same.wg", SET)
    write(tree / "set" / "rulings" / "sub" / "deep.wg", SET)
    p = case_with_cards(tree, cards)
    if cards == "wg01":  # the built-in set has no XP cards
        assert any("unknown card id `XP-003`" in m for m in problems(p))
    else:
        assert "XP-003" in load_case(p).library


@pytest.mark.parametrize("cards, words", [
    ("/etc/shadow", "is an absolute path"),
    ("{secret}", "is an absolute path"),
    ("../../outside/secret.wg", "leads outside the case file's folder"),
    ("../../outside/secret.txt", "is neither a built-in card set nor a .wg file"),
    ("link.wg", "leads outside the case file's folder"),
    ("../link-up.wg", "leads outside the case file's folder"),
    ("/proc/self/environ", "is an absolute path"),
    ("~/.ssh/id_rsa.wg", "no card set file"),
    ("../../outside/nope.wg", "leads outside"),
    ("wg02", "is neither a built-in card set nor a .wg file"),
    ("fifo.wg", "is a FIFO (named pipe), not a card set file"),
    ("zero.wg", "leads outside"),
    ("nope.wg", "no card set file `nope.wg`"),
])
def test_cards_outside_the_allowed_folders_is_refused_and_nothing_of_it_shown(tree, cards, words):
    rulings_dir = tree / "set" / "rulings"
    (rulings_dir / "link.wg").symlink_to(tree / "outside" / "secret.wg")
    (tree / "set" / "link-up.wg").symlink_to(tree / "outside" / "secret.wg")
    os.mkfifo(rulings_dir / "fifo.wg")
    (rulings_dir / "zero.wg").symlink_to("/dev/zero")
    p = case_with_cards(tree, cards.format(secret=tree / "outside" / "secret.wg"))
    found = within(10, lambda: problems(p))
    assert found[0].startswith(f"{p}:4: [case] cards: ") and words in found[0], found
    assert all(SECRET not in m for m in found)


def test_a_card_set_with_errors_shows_only_its_own_diagnostics(tree, monkeypatch):
    import wgdsl.tools.rulings as rulings
    from wgdsl.lang.ast import Pos
    from wgdsl.lang.diagnostics import Diagnostic, DiagnosticError

    bad = write(tree / "set" / "bad.wg", 'include "../outside/secret.wg"\n')
    p = case_with_cards(tree, "../bad.wg")
    [msg] = problems(p)
    assert msg.startswith(f"{p}:4: [case] cards: the card set `../bad.wg` has errors: ")
    assert SECRET not in msg
    # whatever order the card loader lists them in, a diagnostic of another file is not shown
    foreign = Diagnostic("/etc/shadow", Pos(1, 1, 1, 5), f"unexpected `{SECRET}`")
    own = Diagnostic(str(p.parent / "../bad.wg"), Pos(1, 1, 1, 8), "the included set has errors")

    def load_cards(path=None):
        raise DiagnosticError([foreign, own, foreign])

    monkeypatch.setattr(rulings, "load_cards", load_cards)
    [msg] = problems(p)
    assert SECRET not in msg and "the included set has errors" in msg
    assert bad.exists()


def test_cli_rulings_of_the_security_reproducer(tmp_path):
    p = write(tmp_path / "S1.toml", '[case]\nid = "leak"\ncards = "/etc/shadow"\n')
    res = CliRunner().invoke(main, ["rulings", str(p)])
    assert res.output.splitlines()[0].startswith(f"ERROR {p}:3: [case] cards: `/etc/shadow` is an "
                                                 "absolute path; `cards` is a built-in set's name")


def test_a_case_file_over_a_megabyte_is_refused_before_reading(tmp_path):
    p = write(tmp_path / "c.toml", HEAD + "[state]\n" + "x = 1\n" * 200_000)
    [msg] = problems(p)
    assert msg.startswith(f"{p}: is 1,200,024 bytes; a ruling case file may have at most "
                          "1,048,576")
