"""Imitation World's bots (wgdsl/games/imitation_world/agents.py) see only their seat's
observation and legal actions (wgdsl.tools.gamefile.SeatView); random games between them
end; the greedy bot beats the random one; `wgdsl play --game imitation-world` plays."""

from __future__ import annotations

from click.testing import CliRunner

import wgdsl
from wgdsl.cli import main
from wgdsl.tools.gamefile import play_one

GAME = wgdsl.load_game("imitation-world")


class OnlyTheView:
    """A view that fails the test if a bot reaches for anything but the two reads."""

    def __init__(self, view):
        self._v = view
        self.seat = view.seat

    def observation(self):
        return self._v.observation()

    def legal_actions(self):
        return self._v.legal_actions()


def test_greedy_beats_random_from_either_seat():
    wins = 0
    for seed in range(12):
        state, _ = play_one(GAME, seed, options={"first": "A"}, agents=("greedy", "random"))
        wins += state.winners() == ("A",)
        state, _ = play_one(GAME, seed, options={"first": "A"}, agents=("random", "greedy"))
        wins += state.winners() == ("B",)
    assert wins >= 20, wins


def test_bots_read_only_the_observation_and_the_legal_actions():
    from wgdsl.games.imitation_world.agents import GreedyBot

    bot = GreedyBot(0, GAME.table())
    state = GAME.new_state(4)
    from wgdsl.tools.gamefile import SeatView

    for _ in range(300):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        action = bot.act(OnlyTheView(SeatView(state, seat)))
        assert action in state.legal_actions(seat)
        state.apply(seat, action)


def test_play_command():
    out = CliRunner().invoke(main, ["play", "--game", "imitation-world", "--seed", "1",
                                    "--games", "4", "--agent", "greedy", "--agent", "random"])
    assert out.exit_code == 0, out.output
    assert "4 games of Imitation World" in out.output
