"""Card files a user can hand wgdsl: whatever they hold, a clear message, never a
traceback, a hang or runaway memory.

- reading: devices, FIFOs, directories, names the system refuses, NUL bytes, a BOM,
  bytes that are not UTF-8 (wgdsl.files.read_text under cards.read_source and include);
- reloading a changing card set keeps memory bounded, and a reload sees every change.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tracemalloc

import pytest

from wgdsl.lang.cards import check_text, load_cards, read_source
from wgdsl.lang.diagnostics import DiagnosticError
from wgdsl.resources import builtin_cards_path
from cli_helpers import at, cli, no_traceback

WG01 = builtin_cards_path().read_text(encoding="utf-8")


def wgdsl(*args: str, cwd=None, env=None, timeout: float = 30):
    """The real command in a child process (a hang fails the test instead of stalling it)."""
    return subprocess.run([sys.executable, "-c", "from wgdsl.cli import main; main()", *args],
                          cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


# ====================================================================== reading
def test_check_of_a_device_is_refused_not_read_until_memory_runs_out():
    result = cli("check", "/dev/zero")
    no_traceback(result)
    assert result.exit_code == 1
    assert "/dev/zero: error: is a device, not a card file" in result.stderr


def test_check_of_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.wg"
    os.mkfifo(fifo)
    proc = wgdsl("check", str(fifo), timeout=20)
    assert proc.returncode == 1
    assert f"{fifo}: error: is a FIFO (named pipe), not a card file" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", [("check",), ("cards", "--cards"), ("show", "X-1", "--cards")])
def test_a_file_name_too_long_for_the_system_is_a_message(tmp_path, command):
    name = str(tmp_path / ("a" * 300 + ".wg"))
    result = cli(*command, name)
    no_traceback(result)
    assert result.exit_code == 1
    assert "the file name is too long for the operating system" in result.stderr


def test_an_include_of_a_name_too_long_is_an_error_at_the_include(tmp_path):
    # repro 04: `include"w111...1"` (a bare name of 300 characters)
    path = tmp_path / "long.wg"
    path.write_text('include"w' + "1" * 300 + '"\n', encoding="utf-8")
    result = cli("check", str(path))
    no_traceback(result)
    assert result.exit_code == 1
    assert f"{path}:1:8: error: cannot include `w111" in result.stderr
    problems = check_text('include "' + "a" * 300 + '.wg"\n', str(tmp_path / "x.wg"))[1]
    assert [(at(d), d.message) for d in problems] == [
        ((1, 9), "cannot include `" + "a" * 59 + "…`: the file name is too long for the operating system")]


def test_nul_bytes_in_a_card_file_are_reported_where_they_are(tmp_path):
    path = tmp_path / "nul.wg"
    path.write_bytes(b'card T-001 "a" {\n  color red\x00  cost 1\n}\n')
    result = cli("check", str(path))
    no_traceback(result)
    assert f"{path}:2:12: error: unexpected character U+0000" in result.stderr
    assert "\x00" not in result.stderr


def test_a_nul_byte_in_an_include_path_is_an_error_at_the_include(tmp_path):
    problems = check_text('include "a\x00b.wg"\n', str(tmp_path / "x.wg"))[1]
    assert [at(d) for d in problems] == [(1, 9)]
    assert problems[0].message.startswith("cannot include `a\x00b.wg`")


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.wg"
    path.write_bytes(b"\xef\xbb\xbf" + 'card T-001 "a" {\n  color red  cost 1\n}\n'.encode())
    assert read_source(path) == ('card T-001 "a" {\n  color red  cost 1\n}\n', [])
    assert list(load_cards(path).by_id) == ["T-001"]


def test_bytes_that_are_not_utf8_are_reported_at_their_line_and_column(tmp_path):
    path = tmp_path / "latin1.wg"
    path.write_bytes('card T-001 "a" {\n  color red  cost 1\n}\ncard T-002 "café" {\n'.encode("latin-1"))
    text, (d,) = read_source(path)
    assert text is None
    assert at(d) == (4, 16)
    assert d.message.startswith("is not UTF-8 text: byte 0xe9 at line 4, column 16")
    with pytest.raises(DiagnosticError) as err:
        load_cards(path)
    assert err.value.render().startswith(f"{path}:4:16: error: is not UTF-8 text")


def test_a_directory_given_as_a_card_file(tmp_path):
    text, (d,) = read_source(tmp_path)
    assert text is None and d.message == "is a directory, not a card file"


# ====================================================================== reloading
def test_reloading_a_changing_set_keeps_memory_bounded(tmp_path):
    from wgdsl.games.world_gainer.interpreter import compiled_for

    path = tmp_path / "set.wg"

    def load(i: int) -> None:
        path.write_text(WG01 + f"\n# version {i}\n", encoding="utf-8")
        compiled_for(load_cards(path))

    for i in range(20):  # fill the caches first
        load(i)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(20, 220):
            load(i)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # about 110 KB a load when every load was kept: 21 MB for these 200
    assert grown < 2_000_000, f"{grown:,} bytes more after 200 reloads"


def test_a_reloaded_file_is_read_afresh_even_with_the_same_time_stamp(tmp_path):
    path = tmp_path / "set.wg"
    path.write_text('card T-001 "a" {\n  color red  cost 1\n}\n', encoding="utf-8")
    stamp = os.stat(path).st_mtime_ns
    assert list(load_cards(path).by_id) == ["T-001"]
    path.write_text('card T-002 "b" {\n  color red  cost 1\n}\n', encoding="utf-8")
    os.utime(path, ns=(stamp, stamp))
    assert list(load_cards(path).by_id) == ["T-002"]


def test_a_change_in_an_included_file_is_seen(tmp_path):
    base = tmp_path / "base.wg"
    base.write_text('card T-001 "a" {\n  color red  cost 1\n}\n', encoding="utf-8")
    top = tmp_path / "top.wg"
    top.write_text('include "base.wg"\ncard T-009 "z" {\n  color red  cost 1\n}\n', encoding="utf-8")
    assert list(load_cards(top).by_id) == ["T-001", "T-009"]
    base.write_text('card T-002 "b" {\n  color red  cost 1\n}\n', encoding="utf-8")
    assert list(load_cards(top).by_id) == ["T-002", "T-009"]
    assert load_cards(top) is load_cards(top)  # unchanged: the same library


def test_unicode_line_breaks_do_not_shift_deck_lines_or_shown_effects(tmp_path):
    from wgdsl.games.world_gainer.decks import parse_deck
    from wgdsl.lang.cards import load_cards
    from wgdsl.tools.listing import effect_source

    lib = load_cards()
    # a U+2028 and a form feed inside comments: the bad id is still on line 3
    _, problems = parse_deck("3 WG-001  # a\u2028b\n# c\x0cd\n3 WG-999\n", "d.txt", lib)
    assert [p.pos.line for p in problems] == [3]
    text = 'card XX-001 "x" {  # \u2028\n  color red  cost 1\n  dimension:\n    draw 1 card\n}\n'
    from wgdsl.lang.cards import check_text
    cardset, diagnostics = check_text(text)
    assert not [d for d in diagnostics if d.severity == "error"]
    assert effect_source(cardset.cards[0].effects[0], text) == "dimension:\n  draw 1 card"
