"""GETGEM's bots (wgdsl.games.getgem.agents): they act on a seat's observation and legal
actions only (engine-api.md "Agents"), the greedy bot plays as it says it does, and it
beats random play."""

from __future__ import annotations

import copy
import random

import wgdsl
from wgdsl.games.getgem.agents import GreedyBot
from wgdsl.games.getgem.board import Board, state_from_board
from wgdsl.kernel.bots import RandomBot
from wgdsl.kernel.decision import Answer
from wgdsl.tools.gamefile import SeatView

GAME = wgdsl.load_game("getgem")
FIRE, WATER, THUNDER, STEAL, BARRIER = "GG-001", "GG-002", "GG-003", "GG-006", "GG-010"


class SealedView:
    """Exactly what an agent may be given: copies of one seat's observation and legal
    actions, and no way back to the state (a bot that reached for more would fail)."""

    def __init__(self, state, seat):
        self._obs = state.observation(seat)
        self._legal = state.legal_actions(seat)

    def observation(self) -> dict:
        return copy.deepcopy(self._obs)

    def legal_actions(self) -> list:
        return list(self._legal)


def greedy_choice(state, seed=0):
    seat = state.current_seats()[0]
    return GreedyBot(seed, GAME.table).act(SealedView(state, seat))


def board(**kw):
    return state_from_board(GAME, Board(**kw))


def test_greedy_declares_whenever_it_can():
    state = board(phase="end", hands={"A": [STEAL, THUNDER, WATER, FIRE]})
    assert str(greedy_choice(state)) == f"declare {FIRE} {WATER} {THUNDER}"


def test_greedy_trades_for_an_element_card_it_lacks():
    state = board(hands={"A": [FIRE, FIRE, STEAL]}, elements={"B": ["fire"]})
    assert str(greedy_choice(state)) == "element fire"


def test_greedy_steals_from_the_seat_with_the_most_cards():
    state = board(players=3, hands={"A": [STEAL], "B": [FIRE], "C": [WATER, WATER, THUNDER]})
    assert str(greedy_choice(state)) == f"use {STEAL} C"


def test_greedy_answers_barrier_when_it_holds_one():
    state = board(hands={"A": [STEAL], "B": [BARRIER, FIRE]})
    state.apply("A", state.parse_action("A", f"use {STEAL} B"))
    assert greedy_choice(state) == Answer("B", "barrier")


def choices_differ_between_twins(make_bot, games=12, seed=3) -> int:
    """How often a bot (made afresh by ``make_bot``, so with the same seed) chooses
    differently in a state and in a resample of it for the current seat — a state that seat
    cannot tell apart (R18.6).  Each bot is given the view ``wgdsl play`` gives (SeatView),
    which holds the state: a bot reading more than its observation and legal actions shows."""
    rnd = random.Random(seed)
    differ = compared = 0
    for game in range(games):
        state = GAME.new_state(seed=game, seats=2 + game % 4, options={"max_turns": 40})
        while not state.is_terminal():
            seat = state.current_seats()[0]
            if rnd.random() < 0.3:
                other = state.resample(seat, rnd.randrange(2**32))
                differ += make_bot().act(SeatView(state, seat)) != make_bot().act(
                    SeatView(other, seat))
                compared += 1
            state.apply(seat, rnd.choice(state.legal_actions(seat)))
    assert compared > 100
    return differ


def test_the_bots_choose_alike_in_states_their_seat_cannot_tell_apart():
    assert choices_differ_between_twins(lambda: GreedyBot(7, GAME.table)) == 0
    assert choices_differ_between_twins(lambda: RandomBot(7)) == 0


class PeekingBot(GreedyBot):
    """A deliberate break: it breaks ties by the top card of the deck, read from the state
    behind its view."""

    def act(self, view):
        legal = view.legal_actions()
        deck = view._state.deck()
        return legal[sum(map(ord, deck[0] if deck else "")) % len(legal)]


def test_a_bot_that_reads_hidden_cards_is_caught():
    assert choices_differ_between_twins(lambda: PeekingBot(7, GAME.table)) > 0


def test_greedy_beats_random_play():
    # two seats, greedy first in half of the games: a bot that declares whenever it can
    # and steals from the fuller hand should win well over half of them
    wins = 0
    games = 40
    for seed in range(games):
        greedy_seat = "AB"[seed % 2]
        bots = {greedy_seat: GreedyBot(seed, GAME.table), "AB"[1 - seed % 2]: RandomBot(seed)}
        state = GAME.new_state(seed=seed, seats=2)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            state.apply(seat, bots[seat].act(SealedView(state, seat)))
        wins += state.winners() == (greedy_seat,)
    assert wins / games > 0.6
