"""What every command shares: exit statuses, `-` for standard input, help with examples,
no tracebacks, terminal-safe output (S3), Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.kernel.errors import RunawayEffects

ROOT = Path(__file__).resolve().parents[1]
WG01 = ROOT / "cards" / "wg01.wg"
DECK = ROOT / "examples" / "decks" / "green-control.txt"
CASES = ROOT / "examples" / "rulings"
WGDSL = [sys.executable, "-c", "from wgdsl.cli import main; main()"]
ESC_NAME = "\x1b]0;owned-title\x07\x1b[2J\x9b31m\u202e"


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "good.wg").write_text('card T-001 "a" {\n  color red  cost 1\n}\n', encoding="utf-8")
    (tmp_path / "bad.wg").write_text('card T-001 "a" {\n  color bleu  cost 1\n}\n', encoding="utf-8")
    (tmp_path / "broken.wg").write_text('card T-001 "a" {\n  dimension: drow 1 card\n}\n',
                                        encoding="utf-8")
    (tmp_path / "messy.wg").write_text('card T-001 "a" {\ncolor red cost 1\n}\n', encoding="utf-8")
    (tmp_path / "short.txt").write_text("3 WG-001\n", encoding="utf-8")
    (tmp_path / "fail.toml").write_text(
        '[case]\nid = "x"\n[state.A]\nhand = ["WG-020"]\npool = ["red"]\n'
        '[[step]]\naction = "play"\ncard = "WG-020"\nsquare = "A1"\n'
        '[expect.A]\nhand = ["WG-020"]\n', encoding="utf-8")
    return tmp_path


# ------------------------------------------------------------------ exit statuses
EXIT_CASES = [
    # 0: fine
    (["check"], 0), (["cards"], 0), (["show", "WG-001"], 0), (["fmt", "--check", WG01], 0),
    (["deck", "check", DECK], 0), (["play", "--seed", "1"], 0), (["rulings", CASES], 0),
    (["simulate", "WG-006"], 0),
    # 1: the input has problems
    (["check", "{bad}"], 1), (["fmt", "--check", "{messy}"], 1), (["fmt", "{broken}"], 1),
    (["deck", "check", "{short}"], 1), (["play", "--deck", "{short}"], 1),
    (["rulings", "{fail}"], 1), (["simulate", "WG-020", "--square", "B3"], 1),
    (["check", "no/such.wg"], 1),
    # 2: the command line is wrong
    (["nosuch"], 2), (["check", "--nope"], 2), (["cards", "--lang", "fr"], 2),
    (["show"], 2), (["show", "WG-6"], 2), (["fmt", "--check", "--write", "{good}"], 2),
    (["deck", "check"], 2), (["play", "--agent", "clever"], 2),
    (["play", "--deck", DECK, "--deck", DECK, "--deck", DECK], 2), (["rulings"], 2),
    (["simulate", "WG-0012"], 2), (["simulate", "WG-006", "--then", "fly away"], 2),
    (["simulate", "WG-006", "--answers", "C1"], 2),
]


@pytest.mark.parametrize("args,status", EXIT_CASES, ids=lambda v: " ".join(map(str, v))
                         if isinstance(v, list) else str(v))
def test_exit_status_is_the_same_kind_for_every_command(files, args, status):
    args = [str(a).format(**{p.stem: p for p in files.iterdir()}) for a in args]
    result = run(*args)
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_an_internal_error_is_one_message_not_a_traceback(monkeypatch):
    def broken(library):
        raise RuntimeError("something inside broke")

    monkeypatch.setattr("wgdsl.tools.listing.cards_table", broken)
    result = run("cards")
    assert result.exit_code == 70
    assert "internal error: RuntimeError: something inside broke" in result.stderr
    assert "bug in wgdsl" in result.stderr and "Traceback" not in result.output


# ------------------------------------------------------------------ help
def _commands(group=main, prefix=("wgdsl",)):
    for name, cmd in group.commands.items():
        yield prefix + (name,), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, prefix + (name,))


@pytest.mark.parametrize("path", [" ".join(p) for p, _ in _commands()])
def test_every_help_teaches_with_examples(path):
    result = run(*path.split()[1:], "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout, path
    assert f"\n  {path}" in result.stdout or f"  {path} " in result.stdout, path


# ------------------------------------------------------------------ `-` is standard input
def test_check_reads_standard_input():
    result = run("check", "-", input=WG01.read_bytes())
    assert (result.exit_code, result.stdout) == (0, "ok: 25 cards in <stdin>\n")
    result = run("check", "-", input=b'card T-1 "a" {\n  color bleu  cost 1\n}\n')
    assert result.exit_code == 1
    assert "<stdin>:2:9: error: unknown color `bleu`" in result.stderr
    result = run("check", "-", input=b'card T-1 "\xff" {\n}\n')
    assert result.exit_code == 1 and "<stdin>" in result.stderr and "UTF-8" in result.stderr


def test_deck_check_reads_standard_input():
    result = run("deck", "check", "-", input=DECK.read_bytes())
    assert (result.exit_code, result.stdout) == (0, "<stdin>: ok — 40 cards, 14 different\n")
    result = run("deck", "check", "-", input=b"3 WG-001\n")
    assert result.exit_code == 1 and "<stdin>: error: a stock has at least 40 cards" in result.stderr
    result = run("deck", "check", "--starter", "-", input=b"3 WG-0001\n")
    assert result.exit_code == 1 and "<stdin>:1:3: error: unknown card id" in result.stderr


# ------------------------------------------------------------------ S3: terminal escapes
@pytest.fixture
def escape_set(tmp_path):
    """A set on WG01 with a card whose name is escape sequences (S3)."""
    path = tmp_path / "esc.wg"
    path.write_text(f'include "wg01"\n\ncard XX-001 "{ESC_NAME}" en "{ESC_NAME}" {{\n'
                    "  color red  cost 1\n  dimension:\n    draw 1 card\n}\n", encoding="utf-8")
    return path


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _safe(text: str) -> None:
    for ch in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert ch not in text, repr(ch)


@pytest.mark.parametrize("args", [
    ["cards"], ["cards", "--text"], ["cards", "--text", "--lang", "en"], ["show", "XX-001"],
    ["show", "XX-001", "--lang", "en"], ["simulate", "XX-001"], ["simulate", "XX-001", "--json"],
    ["play", "--seed", "2"], ["play", "--games", "2", "--log"], ["play", "--json"],
    ["check"], ["fmt"],
], ids=" ".join)
def test_no_control_character_of_a_card_name_reaches_the_terminal(escape_set, args):
    if args[0] in ("check", "fmt"):
        args = args + [escape_set]
    else:
        args = args + ["--cards", escape_set]
    if args[0] == "play":
        # a WG01 deck with three XX-001 in place of WG-018 and the two WG-011
        deck = escape_set.parent / "deck.txt"
        lines = (ROOT / "examples" / "decks" / "blue-red-tempo.txt").read_text(encoding="utf-8")
        lines = [x for x in lines.splitlines() if "WG-018" not in x and "WG-011" not in x]
        deck.write_text("\n".join(lines + ["3 XX-001"]) + "\n", encoding="utf-8")
        args += ["--deck", deck]
    result = run(*args)
    _safe(result.stdout)
    _safe(result.stderr)
    shown = "\\x1b]0;owned-title\\x07\\x1b[2J\\x9b31m\\u202e"
    if args[0] == "fmt":  # layout only, no meaning check: the file is printed, escaped
        assert result.exit_code == 0, result.output
        assert shown in result.stdout
        return
    # the checker refuses control characters in a name (a positioned error); what it
    # prints shows the name escaped, like every other command would
    assert result.exit_code == 1, result.output
    assert "may not contain control characters" in result.stderr
    assert shown in result.stderr


def test_json_output_escapes_controls_and_keeps_the_text():
    # names cannot hold control characters any more (the checker), but any user string in a
    # JSON document is escaped the JSON way: still valid, and it decodes to the text itself
    from wgdsl.cli import _json_text

    text = _json_text({"name": ESC_NAME})
    _safe(text)
    assert json.loads(text) == {"name": ESC_NAME}


def test_no_control_character_in_diagnostics(tmp_path):
    bad = tmp_path / "bad.wg"
    bad.write_text(f'card XX-001 "{ESC_NAME}" {{\n  color bleu  cost 1\n}}\n', encoding="utf-8")
    result = run("check", bad)
    assert result.exit_code == 1
    _safe(result.stderr)
    result = run("show", f"X{ESC_NAME}")
    assert result.exit_code == 2
    _safe(result.stderr)


def test_the_s3_reproducer_is_escaped(tmp_path):
    repro = ROOT.parent / "shared" / "repro" / "security" / "S3-terminal-escape.wg"
    if not repro.exists():
        pytest.skip("the shared reproducers are not here")
    copy = tmp_path / "S3.wg"
    shutil.copy(repro, copy)
    result = run("cards", "--cards", copy)
    _safe(result.stdout)
    _safe(result.stderr)
    assert result.exit_code == 1  # a name with control characters is an error, shown escaped
    assert '"\\x1b]0;owned-title\\x07\\x1b[2J"' in result.stderr


# ------------------------------------------------------------------ runaway effects
def test_simulate_stopped_by_runaway_effects_prints_the_message(monkeypatch):
    from wgdsl.games.world_gainer.engine import Game

    def apply(self, action):
        raise RunawayEffects("effects that never end: XX-001 moves itself forever", ["XX-001"])

    monkeypatch.setattr(Game, "apply", apply)
    result = run("simulate", "WG-006")
    assert result.exit_code == 1
    assert "error: effects that never end: XX-001 moves itself forever" in result.stderr
    assert "Traceback" not in result.output


# ------------------------------------------------------------------ Ctrl-C
def test_ctrl_c_while_the_command_starts_up_is_no_traceback():
    # a press while the CLI is still being imported (the first few tenths of a second):
    # the command's entry point (wgdsl.__main__, the `wgdsl` script's) ends it as a press
    # does later.  The press is made certain by an import hook that raises it just as
    # wgdsl.cli is looked for.
    code = ("import sys\n"
            "class Press:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'wgdsl.cli':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Press())\n"
            "from wgdsl.__main__ import main\n"
            "sys.argv = ['wgdsl', '--help']\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 130, done.stderr
    assert done.stderr == "\ninterrupted\n"
    assert done.stdout == ""


def test_python_dash_m_wgdsl_is_the_command():
    done = subprocess.run([sys.executable, "-m", "wgdsl", "--version"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wgdsl")


def test_ctrl_c_stops_rulings_and_prints_the_count_so_far(tmp_path):
    for k in range(40):  # enough cases to still be running when the signal comes
        shutil.copytree(CASES, tmp_path / f"copy{k}")
        for f in (tmp_path / f"copy{k}").rglob("*.toml"):
            f.write_text(f.read_text(encoding="utf-8").replace('id = "', f'id = "c{k}-', 1),
                         encoding="utf-8")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(WGDSL + ["rulings", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    seen = [proc.stdout.readline() for _ in range(3)]
    proc.send_signal(signal.SIGINT)
    # read the rest through the same file object: communicate() reads the raw pipe and
    # would lose what readline() had already buffered
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(timeout=60)
    out = "".join(seen) + out
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    lines = out.splitlines()
    passed = sum(1 for line in lines if line.startswith("PASS "))
    assert lines[-1] == f"{passed} passed, 0 failed (interrupted)"
    assert 3 <= passed < 40 * 70
