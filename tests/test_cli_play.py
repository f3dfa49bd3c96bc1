"""``wgdsl play``: its JSON document, the starter variant, sets without decks, games
stopped by effects that never end, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from json_shapes import ALL_KEYS, assert_play
from wgdsl.cli import main
from wgdsl.kernel.errors import RunawayEffects

ROOT = Path(__file__).resolve().parents[1]
EXPEDITION = ROOT / "examples" / "sets" / "expedition.wg"
WGDSL = [sys.executable, "-c", "from wgdsl.cli import main; main()"]


def run(*args, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)


def wgdsl(*args, **kwargs):
    """The real command in a child process: stdout, stderr and status as a user sees them."""
    return subprocess.run(WGDSL + list(args), capture_output=True, text=True, timeout=300,
                          **kwargs)


def _cards_per_player(board: dict) -> Counter:
    count = Counter()
    for p, pl in board["players"].items():
        count[p] += len(pl["hand"]) + len(pl["stock"]) + len(pl["break"])
        count[p] += sum(1 for s in pl["standby"] if s is not None)
    for stack in board["field"].values():
        if stack is not None:
            count[stack["holder"]] += len(stack["cards"])
    return count


# ------------------------------------------------------------------ --json
def test_play_games_log_json_is_one_json_document_with_a_record_per_game():
    result = wgdsl("play", "--games", "3", "--log", "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)  # before: "# game seed 0: ..." lines came first
    assert_play(doc, with_log=True)
    assert [g["seed"] for g in doc["games"]] == [0, 1, 2]
    assert [g["first"] for g in doc["games"]] == ["A", "B", "A"]  # alternate (R4.2)


def test_play_batch_json_has_records_without_logs():
    doc = json.loads(run("play", "--games", "4", "--seed", "10", "--json").stdout)
    assert_play(doc, with_log=False)
    assert len(doc["games"]) == 4 and doc["summary"]["games"] == 4


def test_play_one_game_json_has_the_final_board():
    result = wgdsl("play", "--json", "--seed", "3")
    doc = json.loads(result.stdout)
    assert_play(doc, with_log=True)
    (game,) = doc["games"]
    board = game["board"]
    assert board["winner"] == game["winner"] and board["turn"] == game["turns"]
    # every card of both 40-card stocks is somewhere on the board (R3.1)
    assert _cards_per_player(board) == {"A": 40, "B": 40}
    # the text of the same game ends with the same winner
    text = run("play", "--seed", "3").stdout
    assert text.rstrip().splitlines()[-1].startswith(f"Winner: {game['winner']}")


def test_every_json_key_is_documented():
    doc = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    missing = [k for k in sorted(ALL_KEYS) if f"`{k}`" not in doc and f'"{k}"' not in doc]
    assert missing == []


# ------------------------------------------------------------------ --starter (R3.4)
def test_play_starter_uses_20_card_stocks():
    doc = json.loads(run("play", "--starter", "--json", "--seed", "1").stdout)
    assert doc["starter"] is True
    assert _cards_per_player(doc["games"][0]["board"]) == {"A": 20, "B": 20}


def test_play_starter_accepts_a_20_card_deck_that_the_full_game_refuses(tmp_path):
    deck = tmp_path / "starter.txt"
    deck.write_text("3 WG-001\n3 WG-002\n3 WG-006\n3 WG-009\n3 WG-012\n3 WG-020\n2 WG-010\n",
                    encoding="utf-8")
    refused = run("play", "--deck", str(deck))
    assert refused.exit_code == 1 and "(R3.1)" in refused.stderr
    result = run("play", "--starter", "--deck", str(deck), "--json")
    assert result.exit_code == 0, result.output
    assert _cards_per_player(json.loads(result.stdout)["games"][0]["board"]) == {"A": 20, "B": 20}
    # the other limits are unchanged (R3.4): 4 of a name is still refused
    deck.write_text("4 WG-001\n3 WG-002\n3 WG-006\n3 WG-009\n3 WG-012\n3 WG-020\n1 WG-010\n",
                    encoding="utf-8")
    result = run("play", "--starter", "--deck", str(deck))
    assert result.exit_code == 1 and "(R3.2)" in result.stderr


def test_play_starter_batch_text():
    result = run("play", "--starter", "--games", "4")
    assert result.exit_code == 0, result.output
    assert "starter: every second card, 20 cards" in result.stdout
    assert "4 games" in result.stdout


# ------------------------------------------------------------------ a set without decks
def test_own_set_without_deck_gets_a_legal_stock_built_from_it(tmp_path):
    result = run("play", "--cards", str(EXPEDITION), "--json")
    assert result.exit_code == 0, result.output
    assert "no --deck given" in result.stderr and "Give --deck FILE" in result.stderr
    doc = json.loads(result.stdout)
    assert doc["decks"]["A"] == f"a 40-card stock built from {EXPEDITION}"
    # the note lists the stock: it is legal (R3) and starts with the set's own cards
    listed = result.stderr.split("R3.3): ")[1].split(".  Give")[0]
    entries = [e.split() for e in listed.split(", ")]
    deck = tmp_path / "built.txt"
    deck.write_text("\n".join(f"{n} {i}" for n, i in entries) + "\n", encoding="utf-8")
    assert run("deck", "check", "--cards", str(EXPEDITION), str(deck)).exit_code == 0
    assert entries[0][1].startswith("XP-") and sum(int(n) for n, _ in entries) == 40


def test_own_set_too_small_for_a_stock_says_to_give_a_deck(tmp_path):
    tiny = tmp_path / "tiny.wg"
    tiny.write_text('card T-001 "a" {\n  color red  cost 1\n}\n', encoding="utf-8")
    result = run("play", "--cards", str(tiny))
    assert result.exit_code == 2
    assert "--deck FILE" in result.stderr and "at most 3 cards" in result.stderr
    assert "site-packages" not in result.output and "WG-" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# ------------------------------------------------------------------ runaway effects
@pytest.fixture
def runaway(monkeypatch):
    """The engine raises RunawayEffects on the 30th action of every game."""
    from wgdsl.games.world_gainer.engine import Game

    original = Game.apply
    calls = {"n": 0}

    def apply(self, action):
        calls["n"] += 1
        if calls["n"] % 30 == 0:
            raise RunawayEffects("effects that never end: XX-001 and XX-002 move each other "
                                 "back and forth", ["XX-001", "XX-002"])
        return original(self, action)

    monkeypatch.setattr(Game, "apply", apply)
    return calls


def test_one_game_stopped_by_runaway_effects_prints_the_message_and_exits_1(runaway):
    result = run("play")
    assert result.exit_code == 1
    assert "effects that never end: XX-001 and XX-002" in result.stderr
    assert "Traceback" not in result.output
    assert "No winner" in result.stdout


def test_a_batch_reports_the_stopped_games_and_the_others(runaway):
    result = run("play", "--games", "3", "--json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert_play(doc, with_log=False)
    assert [g["reason"] for g in doc["games"]] == ["runaway effects"] * 3
    assert all("XX-001 and XX-002" in g["stopped"] for g in doc["games"])
    assert "game seed 0 was stopped" in result.stderr


# ------------------------------------------------------------------ Ctrl-C
def _interrupt_after(args, marker: str):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(WGDSL + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if marker in line:
            break
    proc.send_signal(signal.SIGINT)
    # read the rest through the same file object: communicate() reads the raw pipe and
    # would lose what the line iteration had already buffered
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(timeout=60)
    return proc.returncode, "".join(seen) + out, err


def test_ctrl_c_stops_a_series_and_prints_the_summary_of_the_games_finished():
    rc, out, err = _interrupt_after(["play", "--games", "100000", "--agent", "random", "--log"],
                                    "# game seed 1:")
    assert rc == 130
    assert "Traceback" not in err and "Aborted" not in err
    finished = int(err.split("interrupted after ")[1].split()[0])
    assert 2 <= finished < 100000
    assert f"\n{finished} games\n" in out
    assert "A wins" in out and "win conditions:" in out


def _cpu_seconds(pid: int):
    """The CPU time a process has used (Linux's /proc), or None where it cannot be read."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_ctrl_c_in_a_json_series_still_prints_one_document():
    # --json prints nothing until the end, so the press waits for the series to be under
    # way: 3 s of the process's CPU time (start-up takes well under that), not of the
    # clock -- on a loaded machine 8 s of the clock could end before start-up did, and
    # a press then stops Python before the series' handler is there
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(WGDSL + ["play", "--games", "100000", "--agent", "random", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        used = _cpu_seconds(proc.pid)
        if used is None:  # no /proc: the clock, as a fallback
            time.sleep(8)
            break
        if used >= 3:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    doc = json.loads(out)
    assert doc["interrupted"] is True
    assert_play(doc, with_log=False)
    assert 0 < len(doc["games"]) < 100000
