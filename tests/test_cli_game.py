"""The command line with game files: `wgdsl check FILE.game`, `wgdsl show --rules
FILE.game`, `wgdsl play --game FILE` (random bots), with the exit statuses of every
command (0 fine, 1 problems in the input, 2 a wrong command line) and never a traceback;
`wgdsl play` without --game is World Gainer as before."""

from __future__ import annotations

import pytest

from cli_helpers import cli, no_traceback
from described_games import RPS, WAR

RPS_TEXT = RPS.read_text(encoding="utf-8")


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.game"
    path.write_text(RPS_TEXT.replace("add 1 to points", "add 1 to pints"), encoding="utf-8")
    return path


# ------------------------------------------------------------------ check
def test_check_passes_the_examples():
    result = cli("check", RPS, WAR)
    no_traceback(result)
    assert result.exit_code == 0
    assert f'ok: game rock-paper-scissors "Rock, Paper, Scissors" (2 to 4 seats, 1 phase a round) in {RPS}' \
        in result.stdout
    assert f'ok: game war "War" (2 to 4 seats, 52 cards, 1 phase a round) in {WAR}' in result.stdout


def test_check_reports_a_game_file_as_it_reports_a_card_file(broken):
    result = cli("check", broken)
    no_traceback(result)
    assert result.exit_code == 1
    line = next(i for i, l in enumerate(broken.read_text().split("\n"), 1) if "pints" in l)
    col = broken.read_text().split("\n")[line - 1].index("pints") + 1
    assert f"{broken}:{line}:{col}: error: unknown counter `pints`" in result.stderr
    assert "hint: did you mean `points`?" in result.stderr
    assert "^^^^^" in result.stderr and f"{broken}: 1 error" in result.stderr


def test_check_reports_a_missing_rule_function(tmp_path):
    path = tmp_path / "hook.game"
    path.write_text(RPS_TEXT.replace("compare by beats", "compare by rule pick").replace(
        "  signs rock", '  rule pick from "wgdsl.games.described.library:no_such"\n  signs rock'),
        encoding="utf-8")
    result = cli("check", path)
    no_traceback(result)
    assert result.exit_code == 1
    assert "has no function `no_such`" in result.stderr


@pytest.mark.parametrize("make", [
    lambda tmp: tmp / "missing.game",
    lambda tmp: (tmp / "folder.game").mkdir() or tmp / "folder.game",
    lambda tmp: (tmp / "latin1.game").write_bytes(b'game x "\xe9" {\n}\n') and tmp / "latin1.game",
])
def test_check_an_unreadable_game_file_is_a_message(tmp_path, make):
    result = cli("check", make(tmp_path))
    no_traceback(result)
    assert result.exit_code == 1 and "error:" in result.stderr


def test_check_still_checks_card_files():
    result = cli("check")
    assert result.exit_code == 0 and "ok:" in result.stdout and "cards in" in result.stdout


# ------------------------------------------------------------------ show --rules
def test_show_rules_prints_the_compiled_structure():
    result = cli("show", "--rules", WAR)
    no_traceback(result)
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith(f"War (war), from {WAR}")
    assert "zone       stack: per seat, pile, hidden (nobody sees its cards)" in out
    assert "cards      52 (13 different)" in out
    assert "  W3        every seat chooses the top card of stack at once   (simultaneous window)" in out
    assert "  W6        after rounds rounds: most cards in stack wins" in out


def test_show_rules_of_world_gainer_is_its_game_file():
    result = cli("show", "--rules", "world-gainer")
    assert result.exit_code == 0
    out = result.stdout
    assert "phases     start, draw, standby, gain, end [R5]" in out
    assert "zone       standby: per seat, 5 slots, seen by its seat only" in out
    assert "zone       field: shared, grid of 3 by 3 places, a stack on each place" in out


@pytest.mark.parametrize("args, status, message", [
    (("show",), 2, "give a card id"),
    (("show", "--rules", str(RPS), "--lang", "en"), 2, "takes no card id"),
    (("show", "--rules", "chess"), 2, "unknown game"),
])
def test_show_rules_says_what_is_wrong(args, status, message):
    result = cli(*args)
    no_traceback(result)
    assert result.exit_code == status and message in result.output


def test_show_rules_of_a_broken_file_is_its_diagnostics(broken):
    result = cli("show", "--rules", broken)
    no_traceback(result)
    assert result.exit_code == 1 and "unknown counter `pints`" in result.stderr


def test_show_still_shows_a_card():
    result = cli("show", "WG-001")
    assert result.exit_code == 0 and "WG-001" in result.stdout


# ------------------------------------------------------------------ play --game
def test_play_one_game_prints_its_log_and_the_rule_that_ended_it():
    result = cli("play", "--game", RPS, "--seed", 4)
    no_traceback(result)
    assert result.exit_code == 0
    lines = result.stdout.strip().split("\n")
    assert lines[0] == "R1   -   round 1: A is the active seat"
    assert any(l.startswith("R1   A   A chooses ") for l in lines)
    assert lines[-1].startswith("Winner: ") and "S4: a seat has target points: that seat wins" in lines[-1]
    assert cli("play", "--game", RPS, "--seed", 4).stdout == result.stdout  # same seed, same game


def test_play_many_games_prints_win_rates_lengths_and_endings():
    result = cli("play", "--game", WAR, "--games", 20, "--seats", 3, "--option", "rounds=60")
    no_traceback(result)
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("20 games of War, 3 seats")
    for seat in "ABC":
        assert f"\n  {seat}  " in out
    assert "rounds: average" in out and "how the games ended:" in out
    endings = [l for l in out.split("\n") if l.startswith("    W")]
    assert endings and sum(int(l.split()[1]) for l in endings) == 20
    most = int(out.split("most ")[1].split(";")[0])
    assert most <= 60  # the option capped every game


@pytest.mark.parametrize("args, message", [
    (("--seats", 9), "War is played by 2 to 4 seats (W1), not 9"),
    (("--option", "rounds"), "write NAME=VALUE"),
    (("--option", "speed=3"), "unknown option 'speed'"),
    (("--option", "rounds=0"), "option rounds: 1 to 5000, not 0"),
    (("--option", "rounds=many"), "a whole number"),
    (("--deck", "x.txt"), "--deck: World Gainer's option"),
    (("--first", "B", "--starter"), "--first, --starter: World Gainer's options"),
    (("--agent", "greedy"), "unknown agent 'greedy' for War; its agents are random"),
    (("--seats", 3, "--agent", "random", "--agent", "random"),
     "give one agent for every seat or one per seat (3), not 2"),
])
def test_play_a_wrong_command_line_is_a_usage_error(args, message):
    result = cli("play", "--game", WAR, *args)
    no_traceback(result)
    assert result.exit_code == 2 and message in result.output


def test_play_an_unknown_game_is_a_usage_error():
    result = cli("play", "--game", "chess")
    no_traceback(result)
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output


def test_play_a_broken_or_missing_game_file_is_its_diagnostics(broken, tmp_path):
    for path, message in ((broken, "unknown counter `pints`"),
                          (tmp_path / "none.game", "no such file")):
        result = cli("play", "--game", path)
        no_traceback(result)
        assert result.exit_code == 1 and message in result.stderr


def test_play_without_a_game_is_world_gainer_as_before():
    plain = cli("play", "--seed", 3, "--no-log")
    assert plain.exit_code == 0 and "Winner:" in plain.stdout
    assert cli("play", "--seed", 3, "--no-log", "--game", "world-gainer").stdout == plain.stdout
    assert cli("play", "--seed", 3, "--no-log", "--seats", 2).stdout == plain.stdout
    for args, message in ((("--seats", 3), "played by 2 seats"), (("--option", "x=1"), "for game files")):
        result = cli("play", *args)
        assert result.exit_code == 2 and message in result.output


def test_help_teaches_the_game_file_commands():
    assert "--game examples/games/rock-paper-scissors.game" in cli("play", "--help").output
    assert "show --rules examples/games/rock-paper-scissors.game" in cli("show", "--help").output
    assert "wgdsl check examples/games/war.game" in cli("check", "--help").output
