"""Games written only as game files, played by the generic engine (wgdsl.games.described),
keep every invariant of engine-api.md: tests/engine_api_props.py's properties and the
cross-process determinism on both examples (rock-paper-scissors: a simultaneous window of
signs; war: cards dealt, hidden piles, a pot) and on tests/games/hands.game (hidden hands,
a window of the active seat, draws, counterclockwise turns, a random first seat), card
conservation after every action, and what a seat is shown (choices hidden until revealed,
hidden piles and hands)."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, settings, strategies as st

import engine_api_props as props
import wgdsl
from described_games import (RPS, WAR, all_cards, cards_in_play, hands, has_hidden,
                             rock_paper_scissors, war)
from wgdsl.games.described import DescribedGame
from wgdsl.games.described.state import Choice, DescribedState
from wgdsl.kernel.api import Game as GameProtocol, State as StateProtocol
from wgdsl.kernel.errors import IllegalAction

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or "ci"
WAR_ROUNDS = 150  # a war game is up to this many rounds of 2-4 actions in the tests

RPS_SUBJECT = props.Subject(
    game=rock_paper_scissors(), seat_counts=st.integers(2, 4),
    max_actions=lambda n: 30 * n, factory="described_games:rock_paper_scissors", path=HERE,
    has_hidden=has_hidden)
WAR_SUBJECT = props.Subject(
    game=war(), seat_counts=st.integers(2, 4), max_actions=lambda n: WAR_ROUNDS * n,
    factory="described_games:war", path=HERE, options={"rounds": WAR_ROUNDS},
    has_hidden=has_hidden)
HANDS_SUBJECT = props.Subject(
    game=hands(), seat_counts=st.integers(2, 4), max_actions=lambda n: 12 * (n + 1),
    factory="described_games:hands", path=HERE, has_hidden=has_hidden)
SUBJECTS = {"rock-paper-scissors": RPS_SUBJECT, "war": WAR_SUBJECT, "hands": HANDS_SUBJECT}
# a war game is a few hundred actions, each checked: fewer games than rock-paper-scissors
RUN = {"rock-paper-scissors": None, "hands": None,
       "war": settings(max_examples={"deep": 2_000}.get(PROFILE, 6),
                       suppress_health_check=list(HealthCheck))}


@pytest.mark.parametrize("game", sorted(SUBJECTS))
@pytest.mark.parametrize("name", sorted(props.ALL))
def test_a_described_game_keeps_the_property(game, name):
    props.ALL[name](SUBJECTS[game], RUN[game])


@pytest.mark.parametrize("game", sorted(SUBJECTS))
def test_a_described_game_is_deterministic_across_processes(game):
    props.check_determinism(SUBJECTS[game], games=6)


# ------------------------------------------------------------------ card conservation
def conservation_at(walk: props.Walk, i: int) -> None:
    state = walk.state
    if cards_in_play(state.to_dict()) != all_cards(state):
        raise walk.fail("(5) card conservation: the cards in the zones are not the game's cards")


def check_conservation(subject, settings_=None) -> None:
    props._given(subject, lambda w: w.run(conservation_at), settings_)


@pytest.mark.parametrize("game", sorted(SUBJECTS))
def test_every_card_is_somewhere_after_every_action(game):
    check_conservation(SUBJECTS[game], RUN[game])


class DropsABottomCard(DescribedState):
    """A slip in the engine: a card put at the bottom of a pile is lost."""

    def put(self, uid, key, end=None):
        if end == "bottom":
            return
        super().put(uid, key, end)

    def _copy(self):
        return DropsABottomCard(self.game, self.seats, self.options, self.t.copy())


class _Broken(DescribedGame):
    def __init__(self, game, cls):
        self.__dict__.update(game.__dict__)
        self.cls = cls

    def new_state(self, *args, **kwargs):
        state = DescribedGame.new_state(self, *args, **kwargs)
        return self.cls(self, state.seats, state.options, state.t)


class RedealsNothing(DescribedState):
    """resample keeps every hidden card where it is (the future is leaked)."""

    def _hidden(self, seat):
        return [], []

    def _copy(self):
        return RedealsNothing(self.game, self.seats, self.options, self.t.copy())


class ShowsCommits(DescribedState):
    """An observation that shows what the other seats committed in an open window."""

    def observation(self, seat):
        data = super().observation(seat)
        data["committed"] = {s: str(a) for s, a in self.commits.items()}
        return data

    def _copy(self):
        return ShowsCommits(self.game, self.seats, self.options, self.t.copy())


@pytest.mark.parametrize("subject, cls, check, message", [
    (WAR_SUBJECT, DropsABottomCard, check_conservation, "card conservation"),
    (WAR_SUBJECT, RedealsNothing, props.check_resample, r"\(3\)"),
    (RPS_SUBJECT, ShowsCommits, props.check_window, "observation shows what"),
])
def test_a_broken_engine_is_caught(subject, cls, check, message):
    broken = replace(subject, game=_Broken(subject.game, cls))
    with pytest.raises(AssertionError, match=message):
        check(broken, props.find_break(10))


# ------------------------------------------------------------------ the games as games
def test_load_game_reads_a_game_file():
    game = wgdsl.load_game(str(RPS))
    assert isinstance(game, GameProtocol)
    assert (game.id, game.name, game.seat_range) == ("rock-paper-scissors",
                                                     "Rock, Paper, Scissors", (2, 4))
    state = game.new_state(seed=1, seats=3)
    assert isinstance(state, StateProtocol)
    assert state.seats == ("A", "B", "C") and state.current_seats() == ("A", "B", "C")
    assert state.legal_actions("B") == [Choice("B", s) for s in ("rock", "paper", "scissors")]
    assert wgdsl.load_game("world-gainer").id == "world-gainer"  # the built-in id still works


@pytest.mark.parametrize("kwargs, message", [
    ({"seats": 5}, "2 to 4 seats"), ({"seats": 1}, "2 to 4 seats"),
    ({"options": {"speed": 1}}, "unknown option"), ({"options": {"target": 0}}, "1 to 20"),
    ({"options": {"target": "x"}}, "whole number"), ({"decks": ["a.txt"]}, "its own cards"),
])
def test_new_state_refuses_what_the_game_is_not(kwargs, message):
    with pytest.raises(ValueError, match=message):
        RPS_SUBJECT.game.new_state(seed=0, **kwargs)


def _play(state, picks):
    """Every current seat takes the choice ``picks`` names for it."""
    for seat in tuple(state.current_seats()):
        state.apply(seat, Choice(seat, picks[seat]))


def test_rock_paper_scissors_scores_by_the_relation_in_the_file():
    """rock beats scissors (S3.1): A scores; paper, scissors and rock shown together
    beat each other in a circle: nobody scores; the first to 3 points wins (S4)."""
    state = RPS_SUBJECT.game.new_state(seed=0, seats=2)
    _play(state, {"A": "rock", "B": "scissors"})
    assert state.to_dict()["counters"]["points"] == {"A": 1, "B": 0}
    three = RPS_SUBJECT.game.new_state(seed=0, seats=3)
    _play(three, {"A": "rock", "B": "paper", "C": "scissors"})
    assert three.to_dict()["counters"]["points"] == {"A": 0, "B": 0, "C": 0}
    _play(three, {"A": "rock", "B": "rock", "C": "scissors"})  # both rocks beat scissors
    assert three.to_dict()["counters"]["points"] == {"A": 1, "B": 1, "C": 0}
    for _ in range(2):
        _play(state, {"A": "paper", "B": "rock"})
    assert state.is_terminal() and state.winners() == ("A",) and state.win_reason() == "S4"
    assert state.returns() == {"A": 1.0, "B": 0.0}
    with pytest.raises(IllegalAction) as err:
        state.apply("A", Choice("A", "rock"))
    assert err.value.rule == "S4"


def test_a_round_cap_ends_the_game_and_ties_share():
    """After `rounds` rounds the highest points win, ties sharing (S5)."""
    state = RPS_SUBJECT.game.new_state(seed=0, seats=2, options={"rounds": 2})
    _play(state, {"A": "rock", "B": "scissors"})
    _play(state, {"A": "rock", "B": "paper"})
    assert state.is_terminal() and state.win_reason() == "S5"
    assert state.winners() == ("A", "B") and state.returns() == {"A": 0.5, "B": 0.5}


def test_a_refusal_cites_the_window_of_the_file():
    state = RPS_SUBJECT.game.new_state(seed=0, seats=2)
    with pytest.raises(IllegalAction, match="the choices are rock, paper, scissors") as err:
        state.apply("A", Choice("A", "lizard"))
    assert err.value.rule == "S2"
    state.apply("A", Choice("A", "rock"))
    with pytest.raises(IllegalAction, match="already committed") as err:
        state.apply("A", Choice("A", "paper"))
    assert err.value.rule == "S2"


def test_war_deals_everything_and_the_higher_rank_takes_the_pot():
    game = WAR_SUBJECT.game
    state = game.new_state(seed=3, seats=2)
    data = state.to_dict()
    assert [len(data["zones"]["stack"][s]) for s in "AB"] == [26, 26]
    top = {s: data["zones"]["stack"][s][-1] for s in "AB"}
    rank = {c.id: c.stat("rank") for c in game.spec.cards}
    _play(state, {"A": "top", "B": "top"})
    after = state.to_dict()
    if rank[top["A"]] == rank[top["B"]]:  # a tie: the pot keeps both
        assert sorted(after["zones"]["pot"]) == sorted(top.values())
    else:
        winner = max("AB", key=lambda s: rank[top[s]])
        assert after["zones"]["pot"] == []
        assert len(after["zones"]["stack"][winner]) == 27
        assert sorted(after["zones"]["stack"][winner][:2]) == sorted(top.values())


def test_a_hidden_pile_is_hidden_and_a_revealed_card_stays_known():
    """Nobody sees the stacks, not even their owners; the cards revealed in a battle and
    taken to the bottom of the winner's stack are known to every seat, there."""
    state = WAR_SUBJECT.game.new_state(seed=5, seats=2)
    assert state.observation("A")["zones"]["stack"]["A"] == [None] * 26
    taken = 0
    while not taken:  # to a round with a winner: it takes the pot and the 2 cards played
        before = state.to_dict()["zones"]
        _play(state, {s: "top" for s in state.current_seats()})
        taken = 0 if state.to_dict()["zones"]["pot"] else len(before["pot"]) + 2
    whole = state.to_dict()["zones"]["stack"]
    winner = max("AB", key=lambda s: len(whole[s]) - len(before["stack"][s]))
    for seat in "AB":
        seen = state.observation(seat)["zones"]["stack"]
        assert seen[winner][:taken] == whole[winner][:taken] and None not in seen[winner][:taken]
        assert set(seen[winner][taken:]) == {None}


def test_a_choice_is_hidden_from_the_others_until_it_is_revealed():
    """The log of a choice is private to its seat until `reveal` (here in the same step)."""
    state = RPS_SUBJECT.game.new_state(seed=0, seats=2)
    _play(state, {"A": "rock", "B": "paper"})
    a_log = [e["text"] for e in state.observation("A")["log"] if e["kind"] == "choose"]
    b_log = [e["text"] for e in state.observation("B")["log"] if e["kind"] == "choose"]
    assert a_log == ["A chooses rock", "B chooses a sign"]
    assert b_log == ["A chooses a sign", "B chooses paper"]
    shown = [e["text"] for e in state.observation("B")["log"] if e["kind"] == "reveal"]
    assert shown == ["A shows rock", "B shows paper"]


@pytest.mark.parametrize("text", ["A choose rock", "B choose paper"])
def test_parse_action_reads_back_str(text):
    state = RPS_SUBJECT.game.new_state(seed=0, seats=2)
    assert str(state.parse_action(text.split()[0], text)) == text


@pytest.mark.parametrize("seat, text, message", [
    ("A", "", "cannot read"), ("A", "B choose rock", "action of B"),
    ("A", "A play rock", "cannot read"), ("A", "A choose", "cannot read"),
])
def test_parse_action_says_what_is_wrong(seat, text, message):
    with pytest.raises(IllegalAction, match=message):
        RPS_SUBJECT.game.new_state(seed=0, seats=2).parse_action(seat, text)


# ------------------------------------------------------------------ hands.game
def test_turn_order_and_a_random_first_seat():
    """counterclockwise: North, then the other names in reverse; the first active seat is
    drawn with the game's seed (the same seed, the same seat), and the active seat passes
    on in turn order each round."""
    game = HANDS_SUBJECT.game
    assert game.new_state(seed=0, seats=4).seats == ("North", "West", "South", "East")
    assert game.new_state(seed=0, seats=3).seats == ("North", "South", "East")
    firsts = {game.new_state(seed=s, seats=4).to_dict()["active"] for s in range(40)}
    assert firsts == {"North", "West", "South", "East"}
    for seed in range(5):
        a, b = game.new_state(seed=seed, seats=4), game.new_state(seed=seed, seats=4)
        assert a.to_dict() == b.to_dict()
        first = a.to_dict()["active"]
        _play(a, {s: a.legal_actions(s)[0].option for s in a.current_seats()})
        active = a.to_dict()["active"]
        assert a.current_seats() == (active,)  # the gift: a window of the active seat
        assert active == first
        _play(a, {active: a.legal_actions(active)[0].option})
        if not a.is_terminal():
            seats = a.seats
            assert a.to_dict()["active"] == seats[(seats.index(first) + 1) % 4]


def test_a_hand_is_its_seats_alone_and_a_card_shown_stays_known():
    game = HANDS_SUBJECT.game
    state = game.new_state(seed=1, seats=2)
    whole = state.to_dict()["zones"]["hand"]
    for seat in state.seats:
        other = next(s for s in state.seats if s != seat)
        seen = state.observation(seat)["zones"]["hand"]
        assert seen[seat] == whole[seat] and seen[other] == [None] * len(whole[other])
        assert [a.option for a in state.legal_actions(seat)] == \
            list(dict.fromkeys(reversed(whole[seat])))
    gifts = 0
    for seed in range(20):  # games where the active seat's gift goes to another seat's hand
        state = game.new_state(seed=seed, seats=2)
        _play(state, {s: state.legal_actions(s)[0].option for s in state.current_seats()})
        active, winners = state.to_dict()["active"], state.to_dict()["winners"]
        if len(winners) != 1 or winners[0] == active:
            continue
        gift = state.legal_actions(active)[0].option
        _play(state, {active: gift})
        gifts += 1
        # the gift was shown, then went into the winner's hand: every seat sees it there
        for seat in state.seats:
            assert gift in state.observation(seat)["zones"]["hand"][winners[0]]
    assert gifts >= 3
