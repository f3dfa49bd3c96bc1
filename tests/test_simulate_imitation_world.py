"""`wgdsl simulate ID --game imitation-world`: a card played on a board built for it, its
abilities' events shown; a play that cannot be made says why, with the rule, exit 1."""

from __future__ import annotations

from click.testing import CliRunner

from wgdsl.cli import main


def run(*args):
    return CliRunner().invoke(main, ["simulate", *args, "--game", "imitation-world"])


def test_an_entering_ability_resolves_and_shows():
    out = run("IW-011")
    assert out.exit_code == 0, out.output
    after = out.output.split("after:")[1]
    assert "A: play IW-011" in out.output and "IW-011's ability resolves" in out.output
    assert "B:IW-008 3/0 pan" in after  # its only ripān geuda, taken without asking


def test_a_play_that_is_not_legal_says_why():
    out = run("IW-021", "--target", "territory")
    assert out.exit_code == 1
    assert "cannot be played: territory is not a target of IW-021" in out.output
    assert out.output.rstrip().endswith("(R14.2)")


def test_then_goes_on_to_the_end_of_the_turn():
    out = run("IW-017", "--then", "next", "--then", "next", "--then", "next")
    assert out.exit_code == 0, out.output
    events = out.output.split("A: play IW-017")[1].split("after:")[0]
    assert "IW-017's ability resolves" in events and "T4 B  turn 4: B's turn begins" in events


def test_an_aga_is_never_played():
    out = run("IW-001")
    assert out.exit_code == 2 and "never played (IW R19.5)" in out.output
