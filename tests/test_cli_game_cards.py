"""`wgdsl cards` and `wgdsl show` for a game whose cards are a card-language set named by
its game file (Imitation World's `cards "iw01"`): the game's stats as columns, not World
Gainer's color/cost/stun; World Gainer's table is unchanged."""

from __future__ import annotations

from click.testing import CliRunner

from wgdsl.cli import main


def cli(*args):
    return CliRunner().invoke(main, list(args))


def test_cards_of_imitation_world_show_its_stats_in_the_game_files_order():
    out = cli("cards", "--game", "imitation-world")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].split() == ["id", "name", "English", "name", "type", "faction", "cost",
                                "atk", "def", "linked_attack", "effects"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert len(rows) == 120  # IW01 (the spec's "IW01 — the reference set")
    # IW-006 連結機兵: geuda, existence, cost 2, 2/2, 連結攻撃, no other ability (IW01)
    assert rows["IW-006"][-7:] == ["geuda", "existence", "2", "2", "2", "yes", "—"]
    # IW-007 has one ability (判定時); an aga has no cost and no ATK
    assert rows["IW-007"][-1] == "1"
    assert rows["IW-001"][-4:] == ["aga", "existence", "6", "1"]


def test_world_gainers_table_keeps_its_columns():
    out = cli("cards")
    assert out.output.splitlines()[0].split() == ["id", "name", "English", "name", "color",
                                                  "cost/req", "stun", "kind"]


def test_show_an_imitation_world_card_by_its_game_and_by_its_file():
    for args in (("--game", "imitation-world"), ("--cards", "cards/iw01.wg")):
        out = cli("show", "IW-007", *args)
        assert out.exit_code == 0, out.output
        text = out.output
        assert "Heavy Knight of Existence" in text
        for stat, value in (("type", "geuda"), ("cost", "4"), ("atk", "4"), ("def", "4")):
            assert any(line.split() == [stat, value] for line in text.splitlines()), stat
        assert "color" not in text and "stun" not in text
        assert "at judgment barrier or aga:" in text
    en = cli("show", "IW-011", "--game", "imitation-world", "--lang", "en")
    assert en.exit_code == 0 and "Phantom Swordsman" in en.output
    missing = cli("show", "IW-6", "--game", "imitation-world")
    assert missing.exit_code == 2 and "did you mean `IW-006`" in missing.output
