"""Imitation World's fast reads against the rules they stand for: the engine lists
attackers and blockers from the marks sets, computes a set zone's REFs at once, reads
ATK and DEF in one pass over a per-table map of the 常時 modifiers (and a judgment's
numbers from them with no rules.Fighter), and keeps one
CostZone per shape (issue 17).  Each is checked here, in seeded random games, against a
plain reading of the rules: rules.attack_refusal / block_refusal over Marks (IW R15.3,
R16.2), ref() one card at a time (R24.3), the modifiers of every source summed as R21.1
says, and a CostZone built afresh (R8.4).  (Each check was seen to fail on a deliberate
break: an attacker list that forgets `new`, a REF counted from 0, a territory modifier
given to its owner instead of its controller.)"""

from __future__ import annotations

import copy
import pickle
import random

from imitation_world_games import imitation_world
from wgdsl.games.imitation_world import rules
from wgdsl.games.imitation_world.state import SEATS, Action, other

GAME = imitation_world()


def _plain_raw(state, uid: int, stat: str) -> int:
    """R2.3, R21.1 read plainly: printed value, every source's 常時 modifiers, the
    attached enchant's, the until-end-of-turn ones."""
    d = state.d
    c = state.card(uid)
    v = c.atk if stat == "atk" else c.defence
    sources = [(s, u) for s in SEATS for u in d.setz[s]]
    sources += [(s, d.aga[s]) for s in SEATS if s in d.aga and d.aga_up[s]]
    if d.terr is not None:
        sources.append((d.terr_ctrl, d.terr))
    for s, su in sources:
        for m in state.card(su).abilities.modifiers:
            if m.stat != stat or m.who == "attached":
                continue
            if m.faction is not None and c.faction != m.faction:
                continue
            if (m.who == "this" and su == uid) or (c.type == "geuda" and (
                    m.who == "all_geuda" or (m.who == "your_geuda" and d.owner[uid] == s))):
                v += m.amount
    if uid in d.ench:
        v += sum(m.amount for m in state.card(d.ench[uid]).abilities.modifiers
                 if m.stat == stat and m.who == "attached")
    return v + sum(n for u, st, n in d.eot if u == uid and st == stat)


def _plain_judged(state, uid: int, kind: str, role: str) -> tuple:
    """R17.2, R21.4 read plainly: a rules.Fighter of the values and the 判定時 modifiers
    of the judgment at hand, judged as rules.py judges it."""
    ja = sum(m.amount for m in state.card(uid).abilities.judgment if m.stat == "atk"
             and kind in m.kinds and m.role in (None, role))
    jd = sum(m.amount for m in state.card(uid).abilities.judgment if m.stat != "atk"
             and kind in m.kinds and m.role in (None, role))
    f = rules.Fighter(_plain_raw(state, uid, "atk"), _plain_raw(state, uid, "def"), ja, jd)
    return f.judged_atk, f.judged_def


def _check(state) -> int:
    d = state.d
    checked = 0
    for s in SEATS:
        geuda = [u for u in d.setz[s] if state.card(u).type == "geuda"]
        assert state._attackers(s) == [u for u in geuda
                                       if rules.attack_refusal(state.marks(u)) is None]
        assert state._refs(s) == {u: state.ref(u) for u in d.setz[s]}
        for u in geuda:
            for stat in ("atk", "def"):
                assert state.raw(u, stat) == _plain_raw(state, u, stat), (u, stat)
            for kind, role in (("survival", "attacker"), ("survival", "blocker"),
                               ("survival", "target"), ("barrier", "attacker"),
                               ("aga", "attacker")):
                assert state._judged([u], kind, role) == [_plain_judged(state, u, kind, role)]
        for kind, role in (("survival", "attacker"), ("barrier", "attacker")):
            assert state._judged(geuda, kind, role) == [_plain_judged(state, u, kind, role)
                                                        for u in geuda]
        zone = state.cost_zone(s)
        fresh = (rules.CostZone(piles=[(f, len(p)) for f, p in d.cpiles[s].items()])
                 if d.cpiles[s] else rules.CostZone(unmarked=len(d.cun[s])))
        assert zone == fresh
        checked += len(geuda)
    a = d.attack
    if a is not None and a["stage"] == "block" and state.question is None:
        assert state._can_block() == [
            u for u in d.setz[other(d.active)] if state.card(u).type == "geuda"
            and u not in a["blockers"] and rules.block_refusal(state.marks(u)) is None]
    return checked


def test_fast_reads_agree_with_the_rules():
    checked = 0
    for seed in range(12):
        state = GAME.new_state(seed=seed)
        pick = random.Random(f"listing {seed}")
        while not state.is_terminal():
            checked += _check(state)
            seat = state.current_seats()[0]
            state.apply(seat, pick.choice(state.legal_actions(seat)))
    assert checked > 1000  # the games did put geuda on the field


def test_refs_of_several_cards_of_one_id_agree_with_ref():
    """R24.3's `A:ID@2`: a set zone holding three cards of one id (made so by hand: the
    default decks seldom put two on the field)."""
    state = GAME.new_state(seed=3)
    pick = random.Random("refs")
    while len(state.d.setz["A"]) < 3 and not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    zone = state.d.setz["A"]
    assert len(zone) >= 3
    for u in zone[1:3]:
        state.d.cid[u] = state.d.cid[zone[0]]
    state._refc = {}  # ids changed by hand: forget the kept REFs, as _redeal does
    refs = state._refs("A")
    assert refs == {u: state.ref(u) for u in zone}
    ident = state.d.cid[zone[0]]
    assert [refs[u] for u in zone[:3]] == [f"A:{ident}@{k}" for k in (1, 2, 3)]


def test_kept_refs_are_the_set_zone_read_afresh():
    """The REFs kept per set zone (R24.3), carried over as one card enters at its end or
    one card leaves (the only card of its id there) instead of being read again, are the
    zone's REFs read afresh, both ways, before every decision of seeded games, and after
    clones and resamples.  (Seen to fail: the map back from a card entering's REF
    pointing at the zone's first card; a card leaving kept in the map.)"""
    carried = 0
    for seed in range(20):
        state = GAME.new_state(seed=seed)
        pick = random.Random(f"refs {seed}")
        sizes = {s: 0 for s in SEATS}
        while not state.is_terminal():
            for s in SEATS:
                zone = state.d.setz[s]
                carried += abs(len(zone) - sizes[s]) == 1
                sizes[s] = len(zone)
                refs = state._refs(s)
                plain = state._refs_of(s, zone, [state.d.cid[u] for u in zone])
                assert refs == plain, (seed, s)
                assert state._refc[s][0] == zone
                assert state._refc[s][2] == {r: u for u, r in plain.items()}
            seat = state.current_seats()[0]
            if seed % 5 == 0 and pick.random() < 0.05:
                state = pick.choice([state.clone(), state.resample(seat, seed)])
                continue
            state.apply(seat, pick.choice(state.legal_actions(seat)))
    assert carried > 500, carried  # a card entered or left between most checks


def test_kept_lists_agree_with_lists_made_afresh():
    """What listing keeps between decisions (a hand's texts per cost-zone shape, kept per
    card table; a block list less the block just taken; the blockers the attack's
    declaration found; the kept REFs) gives the list a fresh copy of the state makes with
    nothing kept.  (Seen to fail: a block list that keeps the block taken, a hand's texts
    kept whatever the cost zone, the declaration's blockers kept less one.)"""
    kinds = {}
    for seed in range(10):
        state = GAME.new_state(seed=seed)
        pick = random.Random(f"kept {seed}")
        while not state.is_terminal():
            seat = state.current_seats()[0]
            listed = state.legal_actions(seat)
            kind = state.decision_kind()
            kept = dict(state._hand)  # the fresh list reads none of it; then it goes on
            state._hand.clear()
            assert listed == state.clone().legal_actions(seat), (seed, kind)
            state._hand.clear()
            state._hand.update(kept)
            kinds[kind] = kinds.get(kind, 0) + 1
            state.apply(seat, pick.choice(listed))
    assert kinds["block"] > 100 and kinds["main"] > 500  # both were met often


def test_one_action_per_text():
    """Actions are equal iff their texts are (R24.3): one object per text, kept so through
    copies and pickles; still frozen, still never equal to a plain string."""
    a = Action("play IW-001")
    assert a is Action("play " + "IW-001")
    assert a == Action("play IW-001") and a != Action("play IW-002")
    assert copy.deepcopy(a) is a and pickle.loads(pickle.dumps(a)) is a
    assert a != "play IW-001" and str(a) == "play IW-001"
    assert repr(a) == "Action(text='play IW-001')"
    assert (a.kind, a.words) == ("play", ("play", "IW-001"))
    assert a.to_dict() == {"kind": "play", "text": "play IW-001"}
    try:
        a.text = "next"
    except Exception as err:
        assert type(err).__name__ == "FrozenInstanceError"
    else:
        raise AssertionError("an Action could be changed")


def _fresh_zone(state, s: str):
    d = state.d
    return (rules.CostZone(piles=[(f, len(p)) for f, p in d.cpiles[s].items()])
            if d.cpiles[s] else rules.CostZone(unmarked=len(d.cun[s])))


def test_kept_cost_zone_shape_follows_cards_leaving_any_zone():
    """The cost zone's shape kept per seat (_zone_key) is forgotten when a card leaves a
    cost zone (R8.4), and kept when one leaves a set zone (a geuda out of a judgment)
    or the hand: after each move the kept zone is the one built afresh.  (Seen to fail
    with the reset left out of _remove.)"""
    moved = {"cost": 0, "setz": 0}
    for seed in range(30):
        state = GAME.new_state(seed=seed)
        pick = random.Random(f"zone {seed}")
        while not state.is_terminal() and state.d.turn < 8:
            seat = state.current_seats()[0]
            state.apply(seat, pick.choice(state.legal_actions(seat)))
        if state.is_terminal():
            continue
        d = state.d
        for s in SEATS:
            for where, cards in (("setz", list(d.setz[s])),
                                 ("cost", [p[-1] for p in d.cpiles[s].values() if len(p) > 1]
                                  + list(d.cun[s]))):  # (a marked pile is never empty)
                for u in cards[:2]:
                    assert state.cost_zone(s) == _fresh_zone(state, s)  # the shape kept
                    state._to(u, "trash")
                    assert state.cost_zone(s) == _fresh_zone(state, s), (seed, where)
                    moved[where] += 1
    assert moved["cost"] > 20 and moved["setz"] > 20
