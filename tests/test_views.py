"""Agents see only what their seat may know (engine-api.md; wgdsl/games/world_gainer/view.py).

- a seat's :class:`SeatView` shows exactly its observation: ``to_dict()``, built from the
  view's public methods, equals ``observation_data(state, seat)`` at every step of random
  games (questions included), and the games show it cards of every kind a seat can be
  shown;
- nothing a view hands out is the engine's (no instance, zone list, pool or state), and
  nothing of it can be assigned;
- a bot's choice depends only on the observation: GreedyAgent picks the same action in a
  state and in any state its seat cannot tell from it (``WGState.resample``), with the
  same random generator.

Each property is shown to catch the break it is there for: a view that shows the other
hand, one that forgets what its seat was shown, one that hands out the engine's zones,
and a greedy bot that peeks at the other hand through the reference the view keeps for
itself.
"""

from __future__ import annotations

import copy
import gc
import random
import weakref
from collections import Counter
from types import MappingProxyType
from typing import Mapping

import pytest
from hypothesis import Phase, given, settings, strategies as st

from helpers import LIB, board
from wgdsl.games.world_gainer import rules
from wgdsl.games.world_gainer.agents import GreedyAgent, RandomAgent
from wgdsl.games.world_gainer.api import GAME, WGState
from wgdsl.games.world_gainer.board import observation_data
from wgdsl.games.world_gainer.engine import Action, Game
from wgdsl.games.world_gainer.state import OTHER, PLAYERS, SQUARES, GameState, Instance, PlayerState
from wgdsl.games.world_gainer.view import FieldCard, SeatView, Stun
from wgdsl.lang.cards import CardDef, CardLibrary
from wgdsl.tools.play import run_to_end

# for a break: stop at the first failing game, no shrinking (the failure is the point)
FIND = settings(max_examples=40, phases=[Phase.explicit, Phase.generate], database=None,
                derandomize=True, deadline=None, print_blob=False)


BUSY = ("set_stun", "exhaust", "play")  # what makes a game move: stuns, points, plays


def walk(seed: int, rnd: random.Random, on_step) -> WGState:
    """A random game stepped through the public interface (so it stops at questions):
    ``on_step(state)`` before every action and once at the end.  Seven times in ten it
    sets a stun, exhausts one or plays when it can: uniform play seldom has the points
    to play a card, and the positions worth checking are the ones with plays."""
    state = GAME.new_state(seed=seed, options={"first": "AB"[seed % 2]})
    while True:
        on_step(state)
        if state.is_terminal():
            return state
        seat = state.current_seats()[0]
        legal = state.legal_actions(seat)
        busy = [a for a in legal if a.kind in BUSY]
        state.apply(seat, rnd.choice(busy if busy and rnd.random() < 0.7 else legal))


# ------------------------------------------------------------------ view == observation
class LeakyView(SeatView):
    """Break: shows the other player's hand."""

    def hand(self, of=None):
        return tuple(i.base for i in self._game.state.players[self._who(of)].hand)


class ForgetfulView(SeatView):
    """Break: shows the seat its own cards only, never what it was shown."""

    def _shown(self, cards, zone):
        if cards and zone != "stock" and cards[0].owner == self.seat:
            return tuple(i.base for i in cards)
        return (None,) * len(cards)


def compare_views(view_class=SeatView, games: int = 24) -> Counter:
    """Every step of ``games`` random games, both seats: the view's ``to_dict()`` against
    ``observation_data``.  Returns what the views showed that a seat knows only because it
    was shown (so the comparison is not vacuous)."""
    shown: Counter = Counter()

    def check(state: WGState) -> None:
        g = state.game
        for seat in PLAYERS:
            view = g.view(seat) if view_class is SeatView else view_class(g, seat)
            if view.to_dict() != observation_data(g.state, seat):
                raise AssertionError(f"{view_class.__name__} of {seat} is not its observation "
                                     f"(turn {g.state.turn}, {len(g.log.entries)} log lines)")
            other = OTHER[seat]
            shown["the other hand"] += sum(c is not None for c in view.hand(other))
            shown["a stock"] += sum(c is not None for p in PLAYERS for c in view.stock(p))
            shown["the other stuns"] += sum(s is not None and s.card is not None
                                            for s in view.standby(other))
        shown["questions"] += state.question is not None

    for seed in range(games):
        walk(seed, random.Random(seed), check)
    return shown


def test_a_view_shows_its_seat_exactly_its_observation():
    shown = compare_views()
    assert set(shown) == {"the other hand", "a stock", "the other stuns", "questions"}
    assert all(shown.values()), shown


@pytest.mark.parametrize("view_class, games", [(LeakyView, 1), (ForgetfulView, 24)])
def test_a_view_that_shows_more_or_less_fails(view_class, games):
    with pytest.raises(AssertionError, match=f"{view_class.__name__} of [AB] is not"):
        compare_views(view_class, games)


def test_what_a_view_shows_of_a_position():
    game = board(field={"C1": ("B", ["WG-001"]), "C2": ("A", ["WG-007"])},
                 hands={"A": ["WG-002"], "B": ["WG-003"]},
                 stocks={"A": ["WG-004"], "B": ["WG-005"]},
                 standby={"B": ["", "WG-006:exhausted"]}, breaks={"B": ["WG-008"]},
                 pool={"A": {"blue": 1, "red": 1}})
    game.move(game.state.field["C1"][0], "hand")  # seen on the field: B's hand shows it
    a, b = game.view("A"), game.view("B")
    assert a.hand() == (LIB["WG-002"],) and a.hand("B") == (None, LIB["WG-001"])
    assert b.hand("A") == (None,) and b.hand() == (LIB["WG-003"], LIB["WG-001"])
    assert a.stock() == a.stock("B") == (None,) and a.stock_count("B") == 1
    assert a.standby("B") == (None, Stun(None, True), None, None, None)  # face down
    assert b.standby() == (None, Stun(LIB["WG-006"], True), None, None, None)
    assert a.break_("B") == (LIB["WG-008"],)
    assert a.pool() == b.pool("A") == {"blue": 1, "red": 1} and a.pool("B") == {}
    assert a.stack("C2") == (FieldCard(LIB["WG-007"], None, "A"),) and a.top("C1") is None
    assert a.holder("C2") == "A" and a.points() == a.square_points("C2") == LIB["WG-007"].cost
    for sq in SQUARES:  # the engine's rule, for the viewer's seat
        assert a.play_outcome("WG-002", sq) == game.play_outcome("A", LIB["WG-002"], sq)
        assert b.play_outcome(LIB["WG-003"], sq) == game.play_outcome("B", LIB["WG-003"], sq)
    # WG-002 costs 1, of which 1 blue (R6.3): A's blue point pays it; red points do not
    assert a.payment("WG-002") == {"blue": 1} and a.payment("WG-002", {"red": 5}) is None
    assert b.payment("WG-002") is None  # B's pool is empty
    assert a.to_dict() == observation_data(game.state, "A")


def test_one_live_view_per_seat():
    game = GAME.new_state(seed=3).game
    view = game.view("A")
    assert game.view("A") is view and game.view("B") is not view
    assert (view.seat, view.opponent, game.view("B").seat) == ("A", "B", "B")
    before = view.hand_count()
    game.apply(next(a for a in game.legal_actions() if a.kind == "set_stun"))
    assert view.hand_count() == before - 1 and view.stun_set  # read live, not a copy
    assert game.copy().view("A") is not view  # a copy of the game has views of its own
    with pytest.raises(ValueError, match="no seat 'C'"):
        game.view("C")


def freed_without_the_collector() -> bool:
    """Is a finished game freed by reference counting alone once its agents' views are
    dropped (no cycle left for the garbage collector)?"""
    gc.collect()
    gc.disable()
    try:
        library = GAME._library(None)
        game = Game.new(library, GAME._decks(None, library), seed=1,
                        agents={"A": RandomAgent(1), "B": RandomAgent(2)})
        run_to_end(game)
        view = game.view("A")
        game.view("B")  # made and dropped at once
        ref = weakref.ref(game)
        del game
        assert ref() is not None  # a view holds its game
        del view
        return ref() is None
    finally:
        gc.enable()


def test_a_finished_game_is_freed_with_its_views_without_the_collector(monkeypatch):
    """A game that held its views strongly would make a cycle with them, and every game
    of a series would wait for the collector (with the cycle, ab.py put random series at
    0.90-0.96 of main)."""
    assert freed_without_the_collector()

    def strong_view(self, seat):  # the break: the game keeps its views
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = SeatView(self, seat)
        return view

    monkeypatch.setattr(Game, "view", strong_view)
    assert not freed_without_the_collector()


# ------------------------------------------------------------------ nothing of the engine
class ZoneView(SeatView):
    """Break: hands out the engine's own break piles (lists of Instances a bot could
    change)."""

    def break_(self, of=None):
        return self._game.state.players[self._who(of)].break_


def calls(view: SeatView) -> list:
    """Every public name of the view with the arguments to try it with (properties with
    none); fails when the view has a public name this list does not try."""
    hand = [c for c in view.hand() if c is not None] or [next(iter(view.library))]
    seats = (None,) + PLAYERS
    table = [("to_dict", ())]
    table += [(m, (of,)) for m in ("hand", "hand_count", "stock", "stock_count", "standby",
                                    "break_", "pool", "points", "squares_held") for of in seats]
    table += [(m, (sq,)) for m in ("stack", "top", "holder", "square_points") for sq in SQUARES]
    table += [("play_outcome", (c, sq)) for c in hand for sq in SQUARES]
    table += [("payment", (c,)) for c in hand] + [("payment", (c, {"red": 9})) for c in hand]
    properties = ("seat", "opponent", "seats", "library", "turn", "phase", "active", "first",
                  "played", "stun_set", "winner", "win_reason")
    table += [(name, None) for name in properties]
    public = {n for n in dir(view) if not n.startswith("_")}
    assert public == {name for name, _ in table}, public ^ {name for name, _ in table}
    return table


def _inside(value):
    yield value
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _inside(v)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _inside(k)
            yield from _inside(v)


def escapes(view: SeatView) -> list:
    """What the view hands out that belongs to the engine: the game, its state, a player's
    zones, a zone list or pool, a card instance."""
    game = view._game
    state = game.state
    owned = [game, state, state.field, state.known, state.rng, game.log,
             *state.field.values(), *state.all_instances()]
    for p in state.players.values():
        owned += [p, p.stock, p.hand, p.standby, p.break_, p.pool]
    owned = {id(o) for o in owned}
    out = []
    for name, args in calls(view):
        value = getattr(view, name) if args is None else getattr(view, name)(*args)
        for v in _inside(value):
            if id(v) in owned or isinstance(v, (Game, GameState, PlayerState, Instance)):
                out.append((name, args, type(v).__name__))
    return out


def test_a_view_hands_out_nothing_the_engine_owns_and_takes_no_assignment():
    kinds: Counter = Counter()

    def check(state):
        if len(state.log) % 7:
            return
        for seat in PLAYERS:
            view = state.game.view(seat)
            assert escapes(view) == []
            for name, args in calls(view):
                value = getattr(view, name) if args is None else getattr(view, name)(*args)
                kinds.update(type(v).__name__ for v in _inside(value))

    for seed in range(4):
        walk(seed, random.Random(seed), check)
    # the checks saw every kind of answer a view gives
    for kind in (FieldCard, Stun, CardDef, MappingProxyType, CardLibrary):
        assert kinds[kind.__name__], kind
    view = GAME.new_state(seed=1).game.view("A")
    for name, _ in calls(view):
        with pytest.raises(AttributeError):
            setattr(view, name, None)
    with pytest.raises(AttributeError):
        view.game = None  # no attribute can be added either
    with pytest.raises(TypeError):
        view.pool()["red"] = 9


def test_a_view_that_hands_out_the_engines_zones_fails():
    game = GAME.new_state(seed=1).game
    found = escapes(ZoneView(game, "A"))  # the empty pile is the engine's list
    assert found and {(name, kind) for name, _, kind in found} == {("break_", "list")}
    game.move(game.state.players["A"].hand[0], "break")
    found = escapes(ZoneView(game, "A"))  # and then the card in it
    assert {(name, kind) for name, _, kind in found} == {("break_", "list"), ("break_", "Instance")}


def test_a_view_refuses_what_is_not_there():
    view = GAME.new_state(seed=1).game.view("A")
    with pytest.raises(ValueError, match="no square 'D4'"):
        view.stack("D4")
    with pytest.raises(ValueError, match="no square 'D4'"):
        view.play_outcome(view.hand()[0], "D4")
    with pytest.raises(ValueError, match="nothing on C1 to copy"):
        view.play_outcome(view.hand()[0], "C2", copy="C1")
    with pytest.raises(ValueError, match="no seat 'C'"):
        view.hand("C")
    with pytest.raises(ValueError, match="no card 'XX-999'"):
        view.payment("XX-999")


# ------------------------------------------------------------------ choices from the observation
class PeekingGreedy(GreedyAgent):
    """Break: a play is worth less for each card in the other player's hand whose mark
    beats it (R2.3) -- read through the reference the view keeps for itself."""

    def _play_value(self, view, action, points, battle):
        value = super()._play_value(view, action, points, battle)
        mark = view.library[action.card].mark
        hand = view._game.state.players[view.opponent].hand
        return value - 15 * sum(rules.compare_marks(i.base.mark, mark) > 0 for i in hand)


def check_choices_depend_only_on_the_observation(agent_class, run_settings=None) -> None:
    """At random positions of random games (between actions), the agent's action for the
    current seat, and its action in ``resample(seat, ·)`` of the position (a state the seat
    cannot tell from it) with a copy of the agent (the same generator state), are the
    same.  The agent plays on the game's own seat between checks, so its generator moves."""

    @given(seed=st.integers(0, 2**32 - 1), walk_seed=st.integers(0, 2**32 - 1),
           agent_seed=st.integers(0, 2**32 - 1))
    def run(seed, walk_seed, agent_seed):
        rnd = random.Random(walk_seed)
        agent = agent_class(agent_seed)

        def check(state):
            if state.is_terminal() or state.question is not None or rnd.random() > 0.2:
                return
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            mine = copy.deepcopy(agent).act(state.game.view(seat), legal)
            for _ in range(3):
                twin = state.resample(seat, rnd.randrange(2**32))
                assert twin.legal_actions(seat) == legal, "resample changed the legal actions"
                theirs = copy.deepcopy(agent).act(twin.game.view(seat), legal)
                if theirs != mine:
                    raise AssertionError(
                        f"{agent_class.__name__} chose `{mine}` and, in a state {seat} cannot "
                        f"tell from it, `{theirs}` (game seed {seed}, "
                        f"turn {state.game.state.turn})")
            agent.act(state.game.view(seat), legal)  # its generator moves as in play

        walk(seed, rnd, check)

    if run_settings is not None:
        run = run_settings(run)
    run()


def test_the_greedy_agent_chooses_from_what_its_seat_may_know():
    """(RandomAgent's choice is its generator's alone: nothing to check.)"""
    check_choices_depend_only_on_the_observation(GreedyAgent)


def test_an_agent_that_peeks_at_the_other_hand_fails():
    with pytest.raises(AssertionError, match="PeekingGreedy chose .* cannot tell from it"):
        check_choices_depend_only_on_the_observation(PeekingGreedy, FIND)


def test_the_engine_asks_with_the_asked_seats_view_and_tools_act_with_the_actors():
    """Questions go to the asked seat's view (also when it is not that seat's turn), and
    ``wgdsl play``'s loop gives each acting seat its own view."""
    seen: Counter = Counter()

    class Recording(RandomAgent):
        def act(self, view, actions):
            assert isinstance(view, SeatView) and view.seat == actions[0].player == view.active
            seen["act"] += 1
            return super().act(view, actions)

        def answer(self, view, question):
            assert isinstance(view, SeatView) and view.seat == question.player
            seen["answer on its own turn" if view.seat == view.active else
                 "answer on the other's turn"] += 1
            return "no" if question.kind == "yes_no" else super().answer(view, question)

    library = GAME._library(None)
    decks = GAME._decks(None, library)
    for seed in range(20):
        run_to_end(Game.new(library, decks, seed=seed,
                            agents={"A": Recording(seed), "B": Recording(-seed)}))
    # B's WG-019 may cancel A's play (a question to B on A's turn; B declines)
    game = board(hands={"A": ["WG-016"]}, pool={"A": ["green"] * 4}, standby={"B": ["WG-010"]},
                 field={"B2": ("B", ["WG-019"])})
    game.agents = {"A": Recording(0), "B": Recording(1)}
    game.apply(Action("play", "A", card="WG-016", square="A1"))
    assert game.view("A").holder("A1") == "A"
    assert seen["act"] and seen["answer on its own turn"], seen
    assert seen["answer on the other's turn"] == 1, seen
