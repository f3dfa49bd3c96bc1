"""Imitation World's actions are one object per text (state.Action).  The legal lists make
the actions of texts not met yet in one pass (state._actions_of, issue 17) instead of
calling Action per text: here the actions it makes and the ones it finds must be what
Action itself gives (the same object, its first word as ``kind``, its words), in lists
built by a game and in lists made up here.  (Seen to fail on deliberate breaks: a
``kind`` taken as the text's last word; a text met twice in one list made twice, the
second object not the one Action hands back.)"""

from __future__ import annotations

import itertools
import random

from imitation_world_games import imitation_world
from wgdsl.games.imitation_world import state as iw

GAME = imitation_world()
_fresh = itertools.count()


def _plain(action) -> tuple:
    """What Action.__new__ gives a text: its kind and words."""
    text = action.text
    return text.split(" ", 1)[0], tuple(text.split())


def test_new_texts_are_made_as_action_makes_them():
    n = next(_fresh)
    texts = [f"attack A:T{n} player", f"attack A:T{n} B:U{n}@2", "next", f"block B:U{n}",
             f"attack A:T{n} player"]  # a new text twice in one list
    assert not any(t in iw._ACTIONS for t in texts if t != "next")
    got = iw._actions_of(texts, list(map(iw._ACTIONS.get, texts)))
    assert [a.text for a in got] == texts
    for a in got:
        assert isinstance(a, iw.Action)
        assert (a.kind, a.words) == _plain(a)
        assert iw.Action(a.text) is a  # the one object of its text from now on
    assert got[0] is got[4]
    assert got[2] is iw.NEXT


def test_every_listed_action_is_the_one_action_of_its_text():
    for seed in range(6):
        state = GAME.new_state(seed=seed)
        pick = random.Random(f"actions {seed}").choice
        while not state.is_terminal():
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            for a in legal:
                assert iw.Action(a.text) is a
                assert (a.kind, a.words) == _plain(a)
            state.apply(seat, pick(legal))


def _barriers_afresh(state, seat) -> list:
    """The setup's list read from the deck as it is: `barrier ID` for each id, sorted."""
    ids = sorted({state.d.cid[u] for u in state.d.deck[seat]})
    return [iw.Action(f"barrier {i}") for i in ids]


def test_kept_barrier_lists_are_the_deck_read_afresh():
    # every setup decision of 30 games, the list read off the last one (IWState._listc)
    # against the deck read afresh; a clone taken mid-setup lists alike
    for seed in range(30):
        state = GAME.new_state(seed=seed)
        pick = random.Random(f"barriers {seed}").choice
        if seed % 2:  # decks holding two cards of each of their three first ids (by
            d = state.d  # giving the cards of their three last ids those ids), taken first
            for seat in "AB":
                ids = sorted({d.cid[u] for u in d.deck[seat]})
                for first, last in zip(ids[:3], ids[-3:]):
                    d.cid[next(u for u in d.deck[seat] if d.cid[u] == last)] = first
        while state.decision_kind() == "barrier":
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            assert legal == _barriers_afresh(state, seat)
            assert state.clone().legal_actions(seat) == legal
            # an id of two cards stays listed while one of them is left in the deck
            state.apply(seat, pick(legal[:2]) if seed % 2 else pick(legal))
        assert state.d.phase != "setup"
