"""wgdsl.files.read_text: every user file is read safely or refused with a reason."""

import os

import pytest

from wgdsl.files import Unreadable, decode, exists, is_dir, read_text


def test_reads_utf8_and_drops_a_bom(tmp_path):
    f = tmp_path / "a.wg"
    f.write_bytes(b"\xef\xbb\xbfcard X\n")
    assert read_text(f) == "card X\n"


def test_not_utf8_is_reported_at_line_and_column(tmp_path):
    f = tmp_path / "a.wg"
    f.write_bytes(b"one\n\xe3\x81\x82x\xff\n")  # line 2: "あx" then a bad byte
    with pytest.raises(Unreadable) as err:
        read_text(f, "card file")
    assert (err.value.line, err.value.col) == (2, 3)
    assert "0xff" in err.value.message and "line 2, column 3" in err.value.message
    assert err.value.hint == "save the card file as UTF-8"


def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "f.wg"
    os.mkfifo(fifo)
    with pytest.raises(Unreadable, match="FIFO"):
        read_text(fifo, "card file")


def test_device_is_refused():
    with pytest.raises(Unreadable, match="a device, not a deck file"):
        read_text("/dev/zero", "deck file")


def test_symlink_to_a_device_is_refused(tmp_path):
    link = tmp_path / "z.toml"
    link.symlink_to("/dev/zero")
    with pytest.raises(Unreadable, match="device"):
        read_text(link)


def test_directory_missing_and_too_long_names(tmp_path):
    with pytest.raises(Unreadable, match="a directory, not a card file"):
        read_text(tmp_path, "card file")
    with pytest.raises(Unreadable, match="no such file"):
        read_text(tmp_path / "nope.wg")
    with pytest.raises(Unreadable, match="too long"):
        read_text(tmp_path / ("a" * 300 + ".wg"))
    with pytest.raises(Unreadable, match="NUL"):
        read_text("a\0b")
    assert not exists(tmp_path / ("a" * 300)) and not is_dir(tmp_path / ("a" * 300))
    assert is_dir(tmp_path) and exists(tmp_path)


def test_too_large_is_refused_before_reading(tmp_path):
    f = tmp_path / "big.wg"
    f.write_bytes(b"x" * 101)
    with pytest.raises(Unreadable, match="at most 100"):
        read_text(f, "card file", max_bytes=100)
    assert read_text(f, max_bytes=101) == "x" * 101


def test_decode_reports_the_first_bad_byte_on_line_one():
    with pytest.raises(Unreadable) as err:
        decode(b"ab\x80")
    assert (err.value.line, err.value.col) == (1, 3)
