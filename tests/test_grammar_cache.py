"""The grammar cache (`$XDG_CACHE_HOME/wgdsl/`) is data, never code.

Lark's own cache unpickled its file before comparing the hash line, so a file planted
there ran code at the next start (repro S2).  wgdsl's cache is JSON checked against the
hash of the grammar, options and versions; anything else there is ignored or rebuilt.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from wgdsl.lang import parser

class Payload:
    """Unpickled, runs ``echo code ran > TARGET`` (the repro's planted cache)."""

    def __init__(self, target: Path):
        self.target = target

    def __reduce__(self):
        return (os.system, (f"echo code ran > {self.target}",))


def run_check(cache_home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    return subprocess.run([sys.executable, "-c", "from wgdsl.cli import main; main()", "check"],
                          env=env, capture_output=True, text=True, timeout=60)


def plant(cache_home: Path, name: str, head: bytes) -> None:
    """A pickle that runs code when loaded, after ``head``, at cache_home/wgdsl/name."""
    folder = cache_home / "wgdsl"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(head + pickle.dumps(Payload(cache_home / "pwned.txt")))


def right_key() -> str:
    return parser._cache_key(parser.grammar_path().read_text(encoding="utf-8"))


@pytest.mark.parametrize("name, head", [
    ("grammar.lark-cache", b"any-hash-line\n"),      # the repro: Lark's old cache file
    ("grammar.json", b"any-hash-line\n"),
    ("grammar.json", None),                           # with the right hash line
])
def test_a_planted_pickle_never_runs(tmp_path, name, head):
    plant(tmp_path, name, head if head is not None else (right_key() + "\n").encode())
    proc = run_check(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok: 25 cards")
    assert not (tmp_path / "pwned.txt").exists()


def test_the_cache_is_json_under_the_grammar_hash_and_is_used(tmp_path):
    assert run_check(tmp_path).returncode == 0
    text = (tmp_path / "wgdsl" / "grammar.json").read_text(encoding="utf-8")
    key, _, body = text.partition("\n")
    assert key == right_key()
    json.loads(body)  # plain JSON
    # read back, it parses as the grammar does
    lark = parser._read_cache(str(tmp_path / "wgdsl" / "grammar.json"), key)
    assert lark is not None
    # (a stat's name is marked by the reader, from the game's words: the bare parser reads
    # a card's effects)
    assert lark.parse('card T-001 "a" {\n  dimension:\n    draw 1 card\n}\n').data == "start"


def test_a_damaged_cache_is_rebuilt(tmp_path):
    folder = tmp_path / "wgdsl"
    folder.mkdir()
    (folder / "grammar.json").write_text(right_key() + '\n{"d": [["data", 1]]}', encoding="utf-8")
    proc = run_check(tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("ok: 25 cards"), proc.stderr
    key, _, body = (folder / "grammar.json").read_text(encoding="utf-8").partition("\n")
    assert parser._read_cache(str(folder / "grammar.json"), key) is not None


def test_an_unwritable_cache_folder_still_works(tmp_path):
    (tmp_path / "wgdsl").write_text("a file where the folder would be", encoding="utf-8")
    proc = run_check(tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("ok: 25 cards"), proc.stderr


def test_no_unpickling_in_the_parser_module():
    source = Path(parser.__file__).read_text(encoding="utf-8")
    assert "import pickle" not in source and "pickle.load" not in source
