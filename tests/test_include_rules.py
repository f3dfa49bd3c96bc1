"""What `include` may read (docs/language.md, "Building on another set: include").

`include "NAME"` is a built-in set; any other target is a relative path ending in `.wg`
that, symlinks followed, lies in the including file's folder or below it.  Anything else
is an error at the include that shows nothing of the target.  Includes nest at most
MAX_INCLUDE_DEPTH sets deep, so a long chain is an error, not a RecursionError.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.lang.cards import MAX_INCLUDE_DEPTH, check_text, load_cards
from wgdsl.lang.diagnostics import DiagnosticError, render_all

SECRET = "TOP-SECRET-LINE do not print"
CARD = 'card {id} "{id}" {{\n  color red  cost 1\n}}\n'


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path):
    """(diagnostics, everything they print) for checking the file ``path``."""
    text = path.read_text(encoding="utf-8")
    _, diagnostics = check_text(text, str(path))
    return diagnostics, render_all(diagnostics, {str(path): text})


@pytest.fixture
def home(tmp_path):
    """tmp/secret.wg and tmp/secret.txt outside the set's folder tmp/set/."""
    write(tmp_path / "secret.wg", SECRET + "\n")
    write(tmp_path / "secret.txt", SECRET + "\n")
    (tmp_path / "set").mkdir()
    return tmp_path


@pytest.mark.parametrize("target, reason", [
    ("/proc/self/environ", "an include path is relative to this file, not absolute"),
    ("../../../../../../../../etc/passwd", "only card files (`.wg`) can be included"),
    ("../secret.wg", "it is outside this file's folder (symlinks followed)"),
    ("../secret.txt", "only card files (`.wg`) can be included"),
    ("sub/../../secret.wg", "it is outside this file's folder (symlinks followed)"),
    ("/etc/hostname.wg", "an include path is relative to this file, not absolute"),
])
def test_targets_outside_the_rule_are_refused_at_the_include(home, target, reason):
    top = write(home / "set" / "top.wg", f'include "{target}"\n' + CARD.format(id="T-1"))
    diagnostics, out = problems_of(top)
    assert [(d.pos.line, d.pos.col, d.message) for d in diagnostics] == [
        (1, 9, f"cannot include `{target}`: {reason}")]
    assert SECRET not in out and "root:" not in out and "PATH=" not in out


def test_a_symlink_out_of_the_folder_is_refused(home):
    os.symlink(home / "secret.wg", home / "set" / "link.wg")
    os.symlink("/proc/self/environ", home / "set" / "env.wg")
    for name in ("link.wg", "env.wg"):
        top = write(home / "set" / "top.wg", f'include "{name}"\n')
        diagnostics, out = problems_of(top)
        assert [d.message for d in diagnostics] == [
            f"cannot include `{name}`: it is outside this file's folder (symlinks followed)"]
        assert SECRET not in out and "PATH=" not in out


def test_the_environ_reproducer_prints_no_environment(tmp_path):
    top = write(tmp_path / "S1-include-environ.wg", 'include "/proc/self/environ"\n')
    result = CliRunner().invoke(main, ["cards", "--cards", str(top)], env={"WGDSL_MARKER": "leaked-value"})
    assert result.exit_code == 1
    assert "leaked-value" not in result.output and "PATH=" not in result.output
    assert "cannot include `/proc/self/environ`" in result.stderr


def test_files_in_the_folder_and_below_are_included(home):
    write(home / "set" / "a.wg", CARD.format(id="T-1"))
    write(home / "set" / "lib" / "b.wg", CARD.format(id="T-2"))
    os.symlink(home / "set" / "lib" / "b.wg", home / "set" / "c.wg")  # a symlink that stays inside
    top = write(home / "set" / "top.wg",
                'include "a.wg"\ninclude "lib/b.wg"\ninclude "lib/../a.wg"\ninclude "c.wg"\n')
    diagnostics, _ = problems_of(top)
    assert [d.message for d in diagnostics] == []  # a.wg and b.wg are each included twice ...
    assert list(load_cards(top).by_id) == ["T-1", "T-2"]  # ... and their cards come once


def test_builtin_names(tmp_path):
    top = tmp_path / "x.wg"
    assert check_text('include "wg01"\n', str(top))[1] == []
    for target, message in [
        ("nosuch", "cannot include `nosuch`: there is no built-in set `nosuch`"),
        ("Wg01", "cannot include `Wg01`: not the name of a built-in set"),
        ("..", "cannot include `..`: not the name of a built-in set"),
        # a long target is shortened in the message
        ("a" * 300, f"cannot include `{'a' * 59}…`: not the name of a built-in set"),
    ]:
        (d,) = check_text(f'include "{target}"\n', str(top))[1]
        assert d.message == message
        assert "`wg01`" in d.hint


def test_a_directory_or_fifo_named_wg_is_refused_without_waiting(home):
    (home / "set" / "dir.wg").mkdir()
    os.mkfifo(home / "set" / "pipe.wg")
    top = write(home / "set" / "top.wg", 'include "dir.wg"\ninclude "pipe.wg"\n')
    diagnostics, _ = problems_of(top)
    assert [d.message for d in diagnostics] == [
        "cannot include `dir.wg`: it is a directory, not a card file",
        "cannot include `pipe.wg`: it is a FIFO (named pipe), not a card file",
    ]


# ---------------------------------------------------------------------------- depth
def chain(folder: Path, n: int) -> Path:
    """c0.wg includes c1.wg ... includes c{n-1}.wg (repro 20 with n files)."""
    for i in range(n):
        include = f'include "c{i + 1}.wg"\n' if i < n - 1 else ""
        write(folder / f"c{i}.wg", include + CARD.format(id=f"C{i}-001"))
    return folder / "c0.wg"


def test_a_chain_as_deep_as_allowed_loads(tmp_path):
    lib = load_cards(chain(tmp_path, MAX_INCLUDE_DEPTH))
    assert len(lib) == MAX_INCLUDE_DEPTH


def test_a_chain_one_deeper_is_an_error_at_the_deepest_include(tmp_path):
    with pytest.raises(DiagnosticError) as err:
        load_cards(chain(tmp_path, MAX_INCLUDE_DEPTH + 1))
    deepest = [d for d in err.value.diagnostics if "nested more than" in d.message]
    assert [(Path(d.path).name, d.pos.line, d.pos.col) for d in deepest] == [
        (f"c{MAX_INCLUDE_DEPTH - 1}.wg", 1, 9)]
    assert deepest[0].message == (f"cannot include `c{MAX_INCLUDE_DEPTH}.wg`: includes are nested "
                                  f"more than {MAX_INCLUDE_DEPTH} sets deep")


def test_the_250_file_chain_reproducer_ends_with_a_message(tmp_path):
    # repro 20: a RecursionError from about 245 files on
    top = chain(tmp_path, 300)
    result = CliRunner().invoke(main, ["check", str(top)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1
    assert f"includes are nested more than {MAX_INCLUDE_DEPTH} sets deep" in result.stderr
    assert "Recursion" not in result.output
