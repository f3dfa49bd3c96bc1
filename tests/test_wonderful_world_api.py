"""It's a Wonderful World through engine-api.md (IAW R22.5): the engine-api invariants over
random 2-5 seat games, the game's own (card conservation R22.7, 0-4 cubes on an empire
R15.2, nothing of a window shown to another seat before it closes R7.5 / R21.5, the order
of the seats' actions in a window never changing the result R7.4), each shown to catch a
deliberate break."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, settings, strategies as st

import engine_api_props as props
import wgdsl
from wgdsl.games.wonderful_world.game import WonderfulWorld
from wgdsl.games.wonderful_world.state import Act, WWState
from wgdsl.kernel.errors import IllegalAction

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or "ci"
EXAMPLES = {"deep": 5_000}.get(PROFILE, 4)
GAME = wgdsl.load_game("wonderful-world")
SUBJECT = props.Subject(game=GAME, seat_counts=st.integers(1, 5), max_actions=lambda n: 2500 * n,
                        factory="wonderful_world_games:wonderful_world", path=HERE,
                        scored=True)
RUN = settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck), deadline=None)
GENERIC = ("refusals", "clone", "resample", "ends")  # "window" is R7.5's own, below


@pytest.mark.parametrize("name", GENERIC)
def test_wonderful_world_keeps_the_property(name):
    props.ALL[name](SUBJECT, RUN)


def test_wonderful_world_is_deterministic_across_processes():
    props.check_determinism(SUBJECT, games=3)


# ------------------------------------------------------------------ the game's own
def own_at(walk: props.Walk, i: int) -> None:
    state = walk.state
    d = state.to_dict()
    cards = list(d["deck"]) + list(d["discard"]) + [c for pile in d["piles"] for c in pile]
    for p in d["players"].values():
        cards += p["hand"] + p["draft"] + p["constructed"] + [c["card"] for c in p["construction"]]
        cards += p["look"]
        cards += [p["pick_card"]] if p["pick_card"] else []
        if not 0 <= p["cubes"] <= 4:
            raise walk.fail("R15.2: an empire card holds more than 4 cubes at rest")
    if Counter(cards) != Counter(state.table.deck()):
        raise walk.fail("R22.7: the cards in play are not the set, every copy")
    # R7.5: another seat's action inside an open window shows nothing but its commit
    current = list(state.current_seats())
    if len(current) >= 2:
        actor = walk.rnd.choice(current)
        watcher = next(s for s in state.seats if s != actor)
        legal = state.legal_actions(actor)
        twin = state.clone()
        twin.apply(actor, walk.rnd.choice(legal))
        if twin.current_seats() and twin.d.phase == state.d.phase and \
                twin.d.step == state.d.step and twin.d.pick == state.d.pick:
            before, after = state.observation(watcher), twin.observation(watcher)
            for obs in (before, after):
                obs["players"][actor].pop("committed")
                obs["players"][actor].pop("face_down_pick")
                obs.pop("current")
            if json.dumps(before, sort_keys=True) != json.dumps(after, sort_keys=True):
                raise walk.fail(f"R7.5: {watcher} sees what {actor} did in the open window")


def check_own(subject, settings_=None) -> None:
    props._given(subject, lambda w: w.run(own_at), settings_)


def test_wonderful_world_keeps_its_own_invariants():
    check_own(SUBJECT, RUN)


def order_at(walk: props.Walk, i: int) -> None:
    """R7.4: every seat's next action, taken in any order, gives the same state and log."""
    state = walk.state
    current = list(state.current_seats())
    if len(current) < 2 or i % 7:
        return
    picks = {s: walk.rnd.choice(state.legal_actions(s)) for s in current}
    results = set()
    for order in (current, current[::-1]):
        c = state.clone()
        for s in order:
            if s in c.current_seats() and picks[s] in c.legal_actions(s):
                c.apply(s, picks[s])
        results.add(json.dumps([c.to_dict(), c.log], sort_keys=True))
    if len(results) > 1:
        raise walk.fail(f"R7.4: the order of the seats' actions changed the result ({picks})")


def test_the_order_of_actions_in_a_window_never_matters():
    props._given(SUBJECT, lambda w: w.run(order_at), RUN)


# ------------------------------------------------------------------ breaks are caught
class _Broken(WonderfulWorld):
    def __init__(self, game, cls):
        self.__dict__.update(game.__dict__)
        self.cls = cls

    def new_state(self, *args, **kwargs):
        state = WonderfulWorld.new_state(self, *args, **kwargs)
        return self.cls(self, state.seats, state.d)


class ShowsLive(WWState):
    """Other seats shown as they are, not as the window found them (R7.5 broken)."""

    def observation(self, seat):
        opened = self.d.opened
        self.d.opened = self.d.players
        try:
            return super().observation(seat)
        finally:
            self.d.opened = opened

    def _copy(self):
        return ShowsLive(self.game, self.seats, self.d.copy())


class LosesRecycled(WWState):
    """A recycled card vanishes instead of going to the discard pile."""

    def _act(self, seat, a):
        super()._act(seat, a)
        if a.kind == "recycle":
            self.d.discard.remove(a.args[0])
            self.d.players[seat].discarded.remove(a.args[0])

    def _copy(self):
        return LosesRecycled(self.game, self.seats, self.d.copy())


class LogsInOrderOfArrival(WWState):
    """Log entries added as they happen, not seat by seat at the close (R7.4 broken)."""

    def note(self, seat, kind, text):
        self.d.log.append((self.d.round, seat, kind, text))

    def _act(self, seat, a):  # (its hot entries are written inline, not through note)
        super()._act(seat, a)
        p = self.d.players[seat]
        self.d.log.extend(p.pending_log)
        p.pending_log = []

    def _copy(self):
        return LogsInOrderOfArrival(self.game, self.seats, self.d.copy())


@pytest.mark.parametrize("cls, check, message", [
    (ShowsLive, check_own, "R7.5"),
    (LosesRecycled, check_own, "R22.7"),
    (LogsInOrderOfArrival,
     lambda s, cfg: props._given(s, lambda w: w.run(order_at), cfg), "R7.4"),
])
def test_a_broken_engine_is_caught(cls, check, message):
    broken = replace(SUBJECT, game=_Broken(GAME, cls))
    with pytest.raises(AssertionError, match=message):
        check(broken, props.find_break(20))


# ------------------------------------------------------------------ the interface
def test_a_new_state_is_the_first_draft_window_of_every_seat():
    state = GAME.new_state(seed=3, seats=4, options={"empire_side": "B"})
    assert state.seats == ("P1", "P2", "P3", "P4") and state.current_seats() == state.seats
    obs = state.observation("P2")
    assert len(obs["hand"]) == 7 and obs["round"] == 1 and obs["phase"] == "draft"
    assert obs["deck_size"] == 150 - 28
    assert all(str(a).startswith("pick ") for a in state.legal_actions("P2"))
    with pytest.raises(IllegalAction) as err:
        state.apply("P2", Act("done"))
    assert err.value.rule == "R7.1"
    state.apply("P1", state.legal_actions("P1")[0])
    with pytest.raises(IllegalAction) as err:  # Q4: a second pick is refused
        state.apply("P1", state.legal_actions("P2")[0])
    assert err.value.rule == "R7.2"


@pytest.mark.parametrize("kwargs, message", [
    ({"seats": 0}, "1 to 5 seats"), ({"seats": 6}, "1 to 5 seats"),
    ({"options": {"empire_side": "C"}}, "empire_side"),
    ({"seats": 2, "options": {"empires": ["IAW-E01", "IAW-E01"]}}, "distinct empire ids"),
    ({"decks": ["x"]}, "do not apply"),
])
def test_new_state_refuses_what_the_game_is_not(kwargs, message):
    with pytest.raises(ValueError, match=message):
        GAME.new_state(seed=0, **kwargs)


def test_two_players_discard_three_leftovers_each():
    """Q3: dealt 10, 7 picks, 3 left in each hand go to the discard pile; 130 in the deck."""
    import random

    state = GAME.new_state(seed=5, seats=2)
    rnd = random.Random(5)
    while state.d.phase == "draft":
        seat = state.current_seats()[0]
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    d = state.to_dict()
    assert len(d["discard"]) == 6 and len(d["deck"]) == 130
    assert all(len(p["draft"]) == 7 and p["hand"] == [] for p in d["players"].values())


def test_resample_keeps_the_packs_a_seat_passed_with_their_holders():
    """R21.6a: in round 1 (passing left) P1's first hand, minus P1's and P2's picks, is P3's
    hand at the third pick; a resample for P1 keeps it there and deals only the rest."""
    state = GAME.new_state(seed=9, seats=3)
    for _ in range(2):  # picks 1 and 2, each seat its first card
        for seat in state.seats:
            state.apply(seat, state.legal_actions(seat)[0])
    d = state.to_dict()
    first = Counter(d["players"]["P1"]["seen"][0]["hand"])
    first -= Counter([d["players"]["P1"]["draft"][0], d["players"]["P2"]["draft"][1]])
    assert Counter(d["players"]["P3"]["hand"]) == first  # the pack went P1 -> P2 -> P3
    for seed in range(5):
        other = state.resample("P1", seed).to_dict()
        assert Counter(other["players"]["P3"]["hand"]) == first
        assert other["players"]["P1"] == d["players"]["P1"]


def test_play_prints_the_scores_and_the_winners():
    from click.testing import CliRunner

    from wgdsl.cli import main

    out = CliRunner().invoke(main, ["play", "--game", "wonderful-world", "--seats", "3",
                                    "--agent", "greedy"])
    assert out.exit_code == 0, out.output
    assert "VP (fixed" in out.output and "(round 4)" in out.output
    assert out.output.strip().splitlines()[-1].startswith(("Winner: P", "Winners (sharing): P"))


def test_solo_plans_two_piles_with_swaps_and_ends_with_a_title():
    """IAW R20.1-R20.3, R20.6, Q28: 8 piles of 5; a swap discards 2 and shows the top 5;
    between a swap and its keep only `keep`; no swap once a card of the hand was
    constructed; the second pile comes when the first hand is played; a title, no winner."""
    state = GAME.new_state(seed=2, seats=1, options={"empire_side": "B"})
    d = state.to_dict()
    assert len(d["piles"]) == 7 and len(d["players"]["P1"]["hand"]) == 5  # pile 1 taken
    assert len(d["deck"]) == 150 - 40
    legal = [str(a) for a in state.legal_actions("P1")]
    swap = next(a for a in state.legal_actions("P1") if a.kind == "swap")
    state.apply("P1", swap)
    looked = state.observation("P1")["look"]
    assert len(looked) == 5 and all(str(a).startswith("keep ") for a in state.legal_actions("P1"))
    with pytest.raises(IllegalAction) as err:
        state.apply("P1", Act("done"))
    assert err.value.rule == "R20.3"
    state.apply("P1", Act("keep", (looked[0],)))
    hand = state.observation("P1")["hand"]
    assert len(hand) == 4 and looked[0] in hand  # each swap shrinks the hand by one
    state.apply("P1", Act("construct", (hand[0],)))
    assert not any(a.kind == "swap" for a in state.legal_actions("P1"))
    assert "done" not in legal
    import random

    rnd = random.Random(0)
    while not state.is_terminal():
        state.apply("P1", rnd.choice(state.legal_actions("P1")))
    assert state.winners() == () and state.win_reason() == "R20.6"
    assert state.to_dict()["result"]["title"] in ("Rookie", "Dictator", "Emperor", "Living God")
    assert set(state.returns()) == {"P1"}


@pytest.mark.parametrize("seats, seed", [(1, 4), (2, 7), (5, 9)])
def test_legal_actions_are_sorted_by_text_and_any_equal_action_is_taken_alike(seats, seed):
    """R22.4: legal_actions sorted by text, each once; parse_action(text) and an Act built
    anew are equal to the listed action (not the same object) and are taken like it."""
    import random

    state = GAME.new_state(seed=seed, seats=seats)
    rnd = random.Random(seed)
    while not state.is_terminal():
        seat = rnd.choice(state.current_seats())
        legal = state.legal_actions(seat)
        texts = [str(a) for a in legal]
        assert texts == sorted(set(texts)), texts
        assert all(state.parse_action(seat, t) == a for t, a in zip(texts, legal))
        chosen = rnd.choice(legal)
        anew = Act(chosen.kind, tuple(chosen.args))
        assert anew == chosen and anew is not chosen and hash(anew) == hash(chosen)
        twin = state.clone()
        twin.apply(seat, anew)
        state.apply(seat, chosen)
        assert twin.to_dict() == state.to_dict() and twin.log == state.log


def _plain_legal(state, seat) -> list:
    """The legal texts of ``seat`` enumerated plainly from the rules (R8-R12, R14.5, R20.3,
    R22.4), for the engine's faster listing to be compared with."""
    from wgdsl.games.wonderful_world.cards import RESOURCES

    d, table = state.d, state.table
    p = d.players[seat]
    if d.over or p.committed:
        return []
    if d.phase == "draft":  # R8.2
        return sorted({f"pick {c}" for c in p.hand})
    names = [c for c, _ in p.building]
    refs = [c if names.count(c) == 1 else f"{c}@{names[:k + 1].count(c)}"
            for k, c in enumerate(names)]
    empty = []
    for c, filled in p.building:
        left = list(table.developments[c].cost)
        for kind in filled:
            left.remove(kind)
        empty.append(left)
    out = set()
    if d.phase == "planning":
        if state.solo and p.look:  # R20.3 ②: keep one of the five
            return sorted({f"keep {c}" for c in p.look})
        cards = p.hand if state.solo else p.draft
        if state.solo and not p.swap_over and len(p.hand) >= 2 and d.deck:
            hand = sorted(p.hand)
            out |= {f"swap {a} {b}" for i, a in enumerate(hand) for b in hand[i + 1:]}
        for c in cards:  # R9.1-R9.3
            out |= {f"construct {c}", f"recycle {c} empire"}
            out |= {f"recycle {c} {r}" for r, e in zip(refs, empty)
                    if table.developments[c].recycle in e}
        done = (not p.hand and not p.look and p.piles_taken == 2) if state.solo else not p.draft
    else:  # R12, R14.5
        resource = RESOURCES[d.step]
        if p.unplaced:
            out.add(f"place {resource} empire")
            out |= {f"place {resource} {r}" for r, e in zip(refs, empty) if resource in e}
        if p.science:
            out |= {"science_bonus FIN", "science_bonus GEN"}
        done = not p.unplaced and not p.science
    for r, e in zip(refs, empty):  # R10.2, R10.3, R12.4
        out |= {f"place_krystallium {r} {k}" for k in set(e) if p.kry and k in RESOURCES + ("KRY",)}
        out |= {f"place_character {k} {r}" for k in ("FIN", "GEN")
                if k in e and getattr(p, k.lower())}
        out.add(f"discard_construction {r}")
    if done:
        out.add("done")
    return sorted(out)


@pytest.mark.parametrize("seats, seed", [(1, 3), (1, 8), (2, 5), (2, 11), (3, 2), (5, 6)])
def test_the_legal_actions_kept_and_listed_are_the_plain_enumeration(seats, seed):
    """The legal actions the engine lists (and keeps from one action to the next until the
    seat acts or the window moves) are, at every decision of every seat, those enumerated
    plainly from the rules; and each is the one shared Act that parse_action gives back."""
    import random

    state = GAME.new_state(seed=seed, seats=seats)
    rnd = random.Random(seed)
    while not state.is_terminal():
        for seat in state.seats:
            kept = state._opts.get(seat)
            fresh = state._legal_now(seat)
            assert [str(a) for a in fresh] == _plain_legal(state, seat), seat
            assert kept is None or kept == fresh, seat
        seat = rnd.choice(state.current_seats())
        legal = state.legal_actions(seat)
        assert all(state.parse_action(seat, str(a)) is a for a in legal)
        state.apply(seat, rnd.choice(legal))
