"""GETGEM through engine-api.md (getgem.md R18): the five invariants of every game
(tests/engine_api_props.py) over random 2-5 seat games, GETGEM's own invariants of R18.8
after every action, the interface's shape (R18.1-R18.4), and each property shown to catch a
deliberate break of the engine (test_a_broken_engine_is_caught: one break per invariant of
R18.8 — card conservation, the cursed gem in the discard pile, the hand limit, more than 3
declaration cards, knowledge beyond the hand, one current seat — and the refill, resample
and clone properties)."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from dataclasses import replace
from math import factorial

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine_api_props as props
import wgdsl
from wgdsl.games.getgem import rules
from wgdsl.games.getgem.game import GetgemGame
from wgdsl.games.getgem.state import GGState, Move
from wgdsl.kernel.api import Game as GameProtocol, State as StateProtocol
from wgdsl.kernel.errors import IllegalAction

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or "ci"
EXAMPLES = {"deep": 10_000}.get(PROFILE, 6)
GAME = wgdsl.load_game("getgem")
MAX_TURNS = 60  # random games capped short: every property plays whole games


def _same_deal_chance(state, seat) -> float:
    """The probability that a uniform re-deal of what is hidden from ``seat`` (R18.6: the
    deck, in order, and each other hand minus what ``seat`` knows of it, as a multiset;
    during a push, the card just taken as a place of its own) puts every card back where
    it was.  With N hidden cards, m_x copies of id x among them, and place h holding
    s_h of them with c_hx copies of x, it is prod_h (s_h! / prod_x c_hx!) * prod_x m_x! / N!
    (the permutations of the N physical cards that give the same places, over all)."""
    data = state.to_dict()
    places = []
    pending = data["pending"] or {}
    taken = (pending.get("data") or {}).get("taken") if pending.get("kind") == "push" else None
    if taken is not None and seat in (pending["user"], pending["target"]):
        taken = None
    for h in state.seats:
        if h != seat:
            hidden = Counter(data["hands"][h]) - Counter(data["known"][seat][h])
            if taken is not None and h == pending["user"]:
                hidden -= Counter([taken])
                places.append(Counter([taken]))
            places.append(hidden)
    pool = Counter(data["deck"])
    for place in places:
        pool += place
    same = 1
    for place in places:
        same *= factorial(sum(place.values()))
        for count in place.values():
            same //= factorial(count)
    for count in pool.values():
        same *= factorial(count)
    return same / factorial(sum(pool.values()))


def _has_hidden(state, seat) -> bool:
    """Is something hidden from ``seat`` whose re-deal the resample property can see?  Yes
    when a re-deal lands every card where it was with probability under 1 %, so that
    the property's 4 resamples all dealing the state as it is (its sign of a resample
    that re-deals nothing) has a chance under 10^-8 in a correct engine; a hidden pool of
    2 cards (1/2 each time, 1/16 for the 4) would otherwise fail a long run by chance."""
    return not state.is_terminal() and _same_deal_chance(state, seat) < 0.01


SUBJECT = props.Subject(game=GAME, seat_counts=st.integers(2, 5),
                        max_actions=lambda n: 60 * MAX_TURNS, factory="getgem_games:getgem",
                        path=HERE, options={"max_turns": MAX_TURNS}, has_hidden=_has_hidden)
RUN = settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", sorted(props.ALL))
def test_getgem_keeps_the_property(name):
    props.ALL[name](SUBJECT, RUN)


def test_getgem_is_deterministic_across_processes():
    props.check_determinism(SUBJECT, games=6)


# ------------------------------------------------------------------ GETGEM's own (R18.8)
def gg_invariants_at(walk: props.Walk, i: int) -> None:
    state = walk.state
    d = state.to_dict()
    table = state.table
    places = list(d["deck"]) + list(d["discard"])
    for s in state.seats:
        places += d["hands"][s] + d["fronts"][s]["declared"]
    if Counter(places) != Counter(table.basic):
        raise walk.fail("R18.8: the basic cards are not each in exactly one place")
    owned = [e for s in state.seats for e in d["fronts"][s]["elements"]]
    if len(owned) != len(set(owned)) or set(owned) & set(d["supply"]) \
            or set(owned) | set(d["supply"]) != {"fire", "water", "thunder"}:
        raise walk.fail("R18.8: an element card is not in the supply or one front")
    if any(table.cards[c].curse for c in d["discard"]):
        raise walk.fail("R18.8 / R10.4: a cursed gem is in the discard pile")
    for s in state.seats:
        if len(d["fronts"][s]["declared"]) > 3:
            raise walk.fail("R18.8: more than 3 declaration cards")
        for h in state.seats:
            if h != s and Counter(d["known"][s][h]) - Counter(d["hands"][h]):
                raise walk.fail(f"R18.8: {s} 'knows' a card {h} does not hold")
    if not state.is_terminal() and len(state.current_seats()) != 1:
        raise walk.fail("R18.8: not exactly one current seat")
    # after a seat's own end phase its hand holds at most 6 (or only cursed gems): the
    # moment the turn changed, the seat that was active has kept the limit
    last = getattr(walk, "_gg_last", None)
    if last is not None and last[0] != d["turn"] and not (d["over"] and d["winner"]):
        hand = d["hands"][last[1]]
        if len(hand) > 6 and any(not table.cards[c].curse for c in hand):
            raise walk.fail(f"R11.5: {last[1]} ended its turn with {len(hand)} cards")
    walk._gg_last = (d["turn"], d["active"])


def refill_at(walk: props.Walk, i: int) -> None:
    """GG R13: a draw from an empty deck while the discard pile holds cards is preceded by
    the refill (the draw then gets a card); a draw that takes the deck's last card is
    followed at once by a refill when the discard pile holds cards (R13.1)."""
    state = walk.state
    log = state.log
    before = getattr(walk, "_gg_before", None)
    walk._gg_before = (len(log), state.to_dict())
    if before is None:
        return
    start, old = before
    new = log[start:]
    draws = [k for k, e in enumerate(new) if e["kind"] == "draw"]
    if not draws:
        return
    if not old["deck"] and old["discard"] and not any(e["kind"] == "refill" for e in new[:draws[0]]):
        raise walk.fail("GG R13.2: a draw from an empty deck did not refill it from the discard "
                        "pile first")
    if any("draws nothing" in new[k]["text"] for k in draws) and old["discard"] \
            and not any(e["kind"] == "refill" for e in new):
        raise walk.fail("GG R13.2: nothing drawn although the discard pile held cards")


def check_refill(subject, settings_=None) -> None:
    props._given(subject, lambda w: w.run(refill_at), settings_)


def test_an_empty_deck_is_refilled_from_the_discard_pile():
    check_refill(SUBJECT, RUN)


class HoardingWalk(props.Walk):
    """A walk whose active seat mostly ends its action phase at once: hands grow by a draw
    a turn, so the hand limit bites (uniform random play spends cards faster than it draws
    them and meets R11.5 in about 1 game of 200) and declarations and checks are frequent.
    Everything else (the declaration point, every question) is chosen uniformly."""

    def choose(self, state=None):
        seat, action = super().choose(state)
        if isinstance(action, Move) and action.kind != "end" and self.rnd.random() < 0.85:
            end = Move("end")
            if end in (state or self.state).legal_actions(seat):
                return seat, end
        return seat, action


def check_gg_invariants(subject, settings_=None) -> None:
    """R18.8 after every action, in uniform random games and in hoarding ones."""
    @given(seed=st.integers(0, 2**32 - 1), seats=subject.seat_counts,
           walk_seed=st.integers(0, 2**32 - 1), hoard=st.booleans())
    def run(seed, seats, walk_seed, hoard):
        walk = (HoardingWalk if hoard else props.Walk)(subject, seed, seats,
                                                       random.Random(walk_seed))
        walk.run(gg_invariants_at)

    (settings_(run) if settings_ is not None else run)()


def test_getgem_keeps_its_own_invariants_after_every_action():
    check_gg_invariants(SUBJECT, RUN)


# ------------------------------------------------------------------ breaks are caught
class _Broken(GetgemGame):
    def __init__(self, game, cls):
        self.__dict__.update(game.__dict__)
        self.cls = cls

    def new_state(self, *args, **kwargs):
        state = GetgemGame.new_state(self, *args, **kwargs)
        return self.cls(self, state.seats, state.d)


class DiscardsTheCurse(GGState):
    """A gem steal may pay with the cursed gem (R9.1 / R10.4 broken)."""

    def _moves(self, seat):
        from itertools import combinations

        out = super()._moves(seat)
        gems = sorted(c for c in self.d.hands[seat] if c in self.table.gems)
        others = [s for s in self.seats if s != seat]
        for trio in sorted(set(combinations(gems, 3))):
            if any(self.table.cards[c].curse for c in trio):
                out.extend(Move("gem_steal", cards=trio, target=t) for t in others)
        return out

    def _copy(self):
        return DiscardsTheCurse(self.game, self.seats, self.d.copy(), self.chance)


class ForgetsNothing(GGState):
    """Knowledge kept after a card left the hand face up (R14.4 (a) broken)."""

    def _forget(self, h, card):
        pass

    def _copy(self):
        return ForgetsNothing(self.game, self.seats, self.d.copy(), self.chance)


class RedealsNothing(GGState):
    """resample keeps every hidden card where it is."""

    def _redeal(self, seat, rnd, hidden):
        pass

    def _copy(self):
        return RedealsNothing(self.game, self.seats, self.d.copy(), self.chance)


class SharesTheDeck(GGState):
    """A copy that shares its deck list with the original."""

    def _copy(self):
        d = self.d.copy()
        d.deck = self.d.deck
        return SharesTheDeck(self.game, self.seats, d, self.chance)


class NeverRefills(GGState):
    """The discard pile is never shuffled back (GG R13 broken)."""

    def _refill(self):
        pass

    def _copy(self):
        return NeverRefills(self.game, self.seats, self.d.copy(), self.chance)


class LosesTheTradedGems(GGState):
    """The element trade's two gems leave the hand but never reach the discard pile (the
    card conservation of R18.8 broken)."""

    def _element_trade(self, seat, m):
        super()._element_trade(seat, m)
        del self.d.discard[-2:]

    def _copy(self):
        return LosesTheTradedGems(self.game, self.seats, self.d.copy(), self.chance)


class SkipsTheHandLimit(GGState):
    """The end phase goes on to the next turn without the hand limit (R11.5 broken)."""

    def _hand_limit(self):
        self._next_turn()

    def _copy(self):
        return SkipsTheHandLimit(self.game, self.seats, self.d.copy(), self.chance)


class DeclaresAgain(GGState):
    """A declaring seat may declare again (R11.2c broken): its front can hold 6 cards."""

    def _declarations(self, seat):
        d = self.d
        return rules.declarations(self.table, d.hands[seat], d.elements[seat], [])

    def _copy(self):
        return DeclaresAgain(self.game, self.seats, self.d.copy(), self.chance)


class AsksTheUserToo(GGState):
    """The user of a selecting card stays current beside the selected seat at its
    Barrier question (two current seats: a window GETGEM never has, R18.3)."""

    def _acting(self):
        q = self.d.q
        if q is not None and q["kind"] == "barrier":
            return (q["seat"], q["user"])
        return super()._acting()

    def _copy(self):
        return AsksTheUserToo(self.game, self.seats, self.d.copy(), self.chance)


@pytest.mark.parametrize("cls, check, message", [
    (NeverRefills, check_refill, "GG R13.2"),
    (DiscardsTheCurse, check_gg_invariants, "cursed gem is in the discard"),
    (ForgetsNothing, check_gg_invariants, "'knows' a card"),
    (LosesTheTradedGems, check_gg_invariants, "basic cards are not each in exactly one place"),
    (SkipsTheHandLimit, check_gg_invariants, "R11.5"),
    (DeclaresAgain, check_gg_invariants, "more than 3 declaration cards"),
    (AsksTheUserToo, check_gg_invariants, "not exactly one current seat"),
    (RedealsNothing, props.check_resample, r"\(3\)"),
    (SharesTheDeck, props.check_clone, r"\(2\)"),
])
def test_a_broken_engine_is_caught(cls, check, message):
    broken = replace(SUBJECT, game=_Broken(GAME, cls))
    with pytest.raises(AssertionError, match=message):
        check(broken, props.find_break(40))


# ------------------------------------------------------------------ the interface (R18)
def test_load_game_and_a_new_state():
    assert isinstance(GAME, GameProtocol)
    assert (GAME.id, GAME.name, GAME.seat_range) == ("getgem", "GETGEM", (2, 5))
    for n in range(2, 6):
        state = GAME.new_state(seed=n, seats=n)
        assert isinstance(state, StateProtocol)
        assert state.seats == tuple("ABCDE"[:n]) and state.current_seats() == ("A",)
        obs = state.observation("A")
        # R18.2: after the first player's draw; 30 - 4n - 1 in the deck (GG01)
        assert obs["deck_size"] == 30 - 4 * n - 1 and len(obs["hand"]) == 5
        assert obs["hand_sizes"] == {s: 5 if s == "A" else 4 for s in state.seats}
        assert obs["phase"] == "action" and obs["question"] is None
        assert set(obs) == {"seat", "seats", "turn", "active", "max_turns", "phase",
                            "peeping_used", "over", "winner", "current", "question", "hand",
                            "hand_sizes", "deck_size", "discard", "supply", "fronts", "known"}
        json.dumps(state.to_dict())
    assert GAME.new_state(seed=0, options={"first": "B"}).current_seats() == ("B",)


def test_only_the_current_seat_acts_and_refusals_cite_gg_rules():
    state = GAME.new_state(seed=4, seats=3)
    assert state.legal_actions("B") == []
    before = state.to_dict()
    for seat, text, rule in (("B", "end", "GG R4.4"), ("A", "declare GG-001 GG-002 GG-003", "GG R11.1"),
                             ("A", "use GG-999 B", "GG R2.5"), ("A", "frobnicate", "GG R18.3")):
        with pytest.raises(IllegalAction) as err:
            state.apply(seat, state.parse_action(seat, text))
        assert err.value.rule == rule
    assert state.to_dict() == before


def test_every_action_reads_back_from_its_text():
    state = GAME.new_state(seed=11, seats=4)
    rnd = random.Random(1)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        for action in state.legal_actions(seat):
            assert state.parse_action(seat, str(action)) == action
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
