"""wgdsl simulate ID --game getgem: a GETGEM card used on a board of its own, its questions
answered from --answers or by their first answer (said), refusals with the rule."""

from __future__ import annotations

import json

from click.testing import CliRunner

import wgdsl
from wgdsl.cli import main
from wgdsl.tools.simulate_getgem import default_board, simulate

GAME = wgdsl.load_game("getgem")


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_the_default_board_lets_a_use_the_card_and_keeps_the_set():
    for card in ("GG-006", "GG-007", "GG-008", "GG-009", "GG-010"):
        board = default_board(GAME, card, 4, seed=3)
        assert card in board.hands["A"]
        cards = board.deck + board.discard + [c for h in board.hands.values() for c in h]
        counts = {c: cards.count(c) for c in set(cards)}
        assert all(counts[c] <= GAME.table.basic.count(c) for c in counts)
        assert not any(GAME.table.cards[c].curse for c in board.discard)  # GG R10.4


def test_a_steal_takes_one_card_from_the_target():
    sim = simulate(GAME, "GG-006", seats=3, target="C", seed=1)
    before_c = len(default_board(GAME, "GG-006", 3, 1).hands["C"])
    assert len(sim.data["hands"]["C"]) == before_c - 1
    assert sim.data["discard"][-1] == "GG-006"
    assert sim.defaulted == (("C", "barrier", "no_barrier"),)  # C was asked, had no Barrier


def test_answers_are_used_in_order_and_a_wrong_one_is_refused():
    result = cli("simulate", "GG-008", "--game", "getgem", "--answers", "nonsense")
    assert result.exit_code == 2 and "is not one of: take" in result.output
    sim = simulate(GAME, "GG-008", seed=0)
    took = sim.defaulted[0][2].split()[-1]  # arm_take's first answer
    assert took in sim.data["hands"]["A"] or took in sim.data["discard"]


def test_the_cli_prints_both_texts_and_what_happened_and_refuses_with_the_rule():
    out = cli("simulate", "GG-009", "--game", "getgem", "--effect", "peeping")
    assert out.exit_code == 0, out.output
    assert "ピーピングドロー / Peeping Draw (R8.5)" in out.output
    assert "A looks at B's hand" in out.output and "what happens:" in out.output
    refused = cli("simulate", "GG-006", "--game", "getgem", "--target", "A")
    assert refused.exit_code == 1 and "never itself (GG R7.3)" in refused.output
    gem = cli("simulate", "GG-001", "--game", "getgem")
    assert gem.exit_code == 2 and "has no effect to use" in gem.output
    wg_only = cli("simulate", "GG-006", "--game", "getgem", "--then", "next")
    assert wg_only.exit_code == 2 and "--then: World Gainer's" in wg_only.output
    doc = json.loads(cli("simulate", "GG-007", "--game", "getgem", "--json").output)
    assert doc["card"] == "GG-007" and doc["target"] == "B" and doc["state"]["turn"] == 1


def test_a_match_runs_to_ten_points_each_game_started_by_the_winners_right_neighbour():
    from wgdsl.tools.gamefile import play_match, ranking

    games = list(play_match(GAME, seed=2, seats=4))
    *_, (last, _, _, totals) = games
    assert max(totals.values()) >= 10
    assert all(max(t.values()) < 10 for _, _, _, t in games[:-1])  # it stopped at once
    for (record, _, points, _), (_, first, _, _) in zip(games, games[1:]):
        if record.winners:  # GG R16.2: the winner's right neighbour starts the next game
            winner = record.winners[0]
            assert first == "ABCD"["ABCD".index(winner) - 1]
            assert points[winner] in (4, 7, 10)  # GG R16.1: 10 - 3 x rainbows (two in GG01)
    assert ranking({"A": 10, "B": 4, "C": 4, "D": 0}) == [(1, "A", 10), (2, "B", 4),
                                                           (2, "C", 4), (4, "D", 0)]


def test_cards_and_show_list_a_game_files_cards_in_both_languages():
    table = cli("cards", "--game", "getgem")
    assert table.exit_code == 0
    row = next(line for line in table.output.splitlines() if line.startswith("GG-009"))
    assert "Steal & Push / Peeping Draw" in row and "steal_push or peeping" in row
    assert row.split()[-1] == "3"  # copies, GG R2.5
    shown = cli("show", "GG-010", "--game", "getgem", "--lang", "en")
    assert "[Barrier] When another player's action card selects you" in shown.output
    assert "\n  or\n" in shown.output
    ja = cli("show", "gg-010", "--game", "getgem", "--lang", "ja").output
    assert "【バリア】" in ja and "または" in ja
    missing = cli("show", "GG-100", "--game", "getgem")
    assert missing.exit_code == 2 and "did you mean `GG-010`" in missing.output
    rules = cli("show", "--rules", "getgem")
    assert "played by  wgdsl.games.getgem.game:game_from_spec" in rules.output
