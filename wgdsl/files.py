"""Reading a user's text file safely: card sets, decks, ruling cases.

Every file wgdsl reads on a user's behalf goes through :func:`read_text`, which either
returns the text or raises :class:`Unreadable` saying what was wrong and what would be
right.  It never blocks and never reads without bound:

- only regular files are read (a FIFO would block forever, ``/dev/zero`` never ends, a
  directory is not a file); symlinks are followed to what they name;
- a file larger than :data:`MAX_BYTES` is refused before it is read;
- a UTF-8 byte-order mark is accepted and dropped (Japanese editors write one);
- text that is not UTF-8 is reported at its line and column, not as a byte offset;
- a name the operating system refuses (too long, a NUL byte) is a message, not a crash.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Optional, Union

# Far above any card set, deck or ruling case a person writes (WG01 is 5 KB; a generated
# 10,000-card benchmark set is about 2 MB), far below what would exhaust memory.
MAX_BYTES = 16 * 1024 * 1024

_BOM = b"\xef\xbb\xbf"


class Unreadable(Exception):
    """A file that cannot be used as text: ``message`` says why, ``hint`` what to do.

    ``line`` and ``col`` (1-based) are set when the problem is at a place in the file
    (bytes that are not UTF-8)."""

    def __init__(self, message: str, hint: Optional[str] = None, line: int = 0, col: int = 0):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.line = line
        self.col = col


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _os_message(err: OSError) -> str:
    if err.errno == errno.ENAMETOOLONG:
        return "the file name is too long for the operating system"
    if err.errno == errno.ENOENT:
        return "no such file"
    if err.errno == errno.EACCES:
        return "permission denied"
    return f"cannot be read: {err.strerror or err}"


def check_regular(path: Union[str, Path], what: str = "file") -> os.stat_result:
    """The ``stat`` of a regular file (symlinks followed), or :class:`Unreadable`."""
    try:
        st = os.stat(path)
    except ValueError:  # an embedded NUL byte
        raise Unreadable("the file name contains a NUL byte") from None
    except OSError as err:
        raise Unreadable(_os_message(err)) from None
    if not stat.S_ISREG(st.st_mode):
        raise Unreadable(f"is {_kind_of(st.st_mode)}, not a {what}", f"give a {what}")
    return st


def exists(path: Union[str, Path]) -> bool:
    """``Path.exists`` that answers False, not OSError, for a name the system refuses."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def is_dir(path: Union[str, Path]) -> bool:
    """``Path.is_dir`` that answers False, not OSError, for a name the system refuses."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_text(path: Union[str, Path], what: str = "file", *, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of a regular file, a leading byte-order mark dropped.

    ``what`` names the file in messages ("card file", "deck file", "ruling case")."""
    st = check_regular(path, what)
    if st.st_size > max_bytes:
        raise Unreadable(f"is {st.st_size:,} bytes; a {what} may have at most {max_bytes:,}",
                         f"split the {what} into smaller files")
    try:
        # O_NONBLOCK: should the file have been swapped for a FIFO since the stat, opening
        # it does not wait for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise Unreadable(_os_message(err)) from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unreadable(f"is {_kind_of(os.fstat(fd).st_mode)}, not a {what}", f"give a {what}")
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise Unreadable(f"is larger than {max_bytes:,} bytes, the most a {what} may have",
                         f"split the {what} into smaller files")
    return decode(data, what)


def decode(data: bytes, what: str = "file") -> str:
    """UTF-8 bytes as text (a leading BOM dropped), or :class:`Unreadable` at the line
    and column of the first byte that is not UTF-8."""
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line_start = data.rfind(b"\n", 0, err.start) + 1
        line = data.count(b"\n", 0, err.start) + 1
        col = len(data[line_start:err.start].decode("utf-8", errors="replace")) + 1
        raise Unreadable(
            f"is not UTF-8 text: byte 0x{data[err.start]:02x} at line {line}, column {col} "
            f"cannot be decoded",
            f"save the {what} as UTF-8", line, col) from None
