"""GETGEM's fast paths (issue 17) against the plain computation they stand for.

- The public loop's straight path (``GGState``'s own ``is_terminal``, ``legal_actions`` and
  ``apply``) against the kernel's generic path (a subclass with a hook of its own is
  stepped by the kernel's): the same seats, lists, refusals, games and logs.
- The log's entries, kept as tuples with their texts filled when read, against the texts
  the rules say each entry shows.
"""

from __future__ import annotations

import random
import re
from itertools import combinations

import wgdsl
from straight_path import outcome as _outcome, play_both, wrong_applies
from wgdsl.games.getgem import rules
from wgdsl.games.getgem.state import GGState, Move
from wgdsl.kernel.decision import Answer
from wgdsl.kernel.stepper import Stepper

GAME = wgdsl.load_game("getgem")


class KernelPath(GGState):
    """GETGEM stepped by the kernel's generic path: a hook of its own (the same as
    GGState's) turns the straight is_terminal/legal_actions/apply off (__init_subclass__)."""

    def _acting(self):
        return super()._acting()

    def _copy(self):
        return KernelPath(self.game, self.seats, self.d.copy(), self.chance)


def _probes(state, seat: str, legal: list) -> list:
    """Wrong applies of every sort, each on its own clone: out of turn, not listed, an
    equal action made again from its text, not an action, unhashable, a stray answer, and
    an action given without legal_actions asked."""
    other = next(s for s in state.seats if s != seat)
    wrong = [(other, legal[0]), (seat, Move("pass")), (seat, Move("end")), (seat, "end"),
             (seat, ["unhashable"]), (seat, Answer(seat, "push GG-001")),
             (seat, state.parse_action(seat, str(legal[-1])))]
    return wrong_applies(state, seat, legal, wrong, with_log=True)


def test_the_straight_path_steps_as_the_kernels_path():
    """(Shown failing on purpose: the straight apply taking an action by equality without
    the kernel's check, is_terminal reading the active seat during a question, and the
    straight legal_actions listing for a seat that is not current.)"""
    assert KernelPath.apply is Stepper.apply and GGState.apply is not Stepper.apply
    answers = 0
    for seed in range(40):
        seats = 2 + seed % 4
        fast = GAME.new_state(seed=seed, seats=seats)
        base = GAME.new_state(seed=seed, seats=seats)
        slow = KernelPath(GAME, base.seats, base.d)
        answers += play_both(fast, slow, random.Random(seed), _probes, 17)
        assert fast.to_dict() == slow.to_dict() and fast.log == slow.log
        over = _outcome(lambda: fast.apply(fast.seats[0], Move("end")))
        assert over == _outcome(lambda: slow.apply(slow.seats[0], Move("end")))
        assert over[0] == "refused" and "game is over" in over[1]
    assert answers > 100  # the questions were stepped too


# the texts of the entries kept as templates, as the rules word them (SEAT: the entry's seat)
_TEXTS = {
    "turn": r"turn \d+: SEAT",
    "draw": r"SEAT draws (\S+|nothing: the deck and the discard pile are empty)",
    "end": r"SEAT ends the action phase",
    "pass": r"SEAT does not declare",
    "use": r"SEAT uses \S+( \(\w+\))?( on [A-E])?",
    "take": r"SEAT takes (\S+ at random from [A-E]|nothing: [A-E]'s hand is empty)",
    "arm": r"SEAT takes \S+ from the discard pile",
    "discard": r"SEAT discards \S+( \(hand limit\))?",
    "push": r"SEAT pushes \S+ to [A-E]",
    "barrier": r"SEAT uses (no Barrier|\S+ \(\w+\): [A-E]'s \S+ is nullified)",
    "win": r"SEAT wins \(GG R11\.4\)",
    "refill": r"the discard pile \(\d+ cards\) is shuffled into the deck",
}


def test_log_entries_read_as_the_rules_word_them():
    """Every entry the log keeps as a template reads, once filled, as its kind's text with
    its own seat; the turn entries count the turns.  (Shown failing on purpose: a
    template's arguments swapped, and a turn's entry written before its number moved.)"""
    kinds = set()
    for seed in range(30):
        state = GAME.new_state(seed=seed, seats=2 + seed % 4)
        rnd = random.Random(seed)
        turn = 1
        while not state.is_terminal():
            seat = state.current_seats()[0]
            start = len(state.log)
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rnd.randrange(len(legal))])
            for e in state.log[start:]:
                kinds.add(e["kind"])
                want = _TEXTS.get(e["kind"])
                if want is not None:
                    assert re.fullmatch(want.replace("SEAT", re.escape(e["seat"])), e["text"]), e
                assert "{" not in e["text"], e
                if e["kind"] == "turn":
                    turn += 1
                    assert e["turn"] == turn and e["text"] == f"turn {turn}: {e['seat']}"
        assert state.clone().log == state.log
    assert {"turn", "draw", "end", "pass", "use", "take", "discard", "push"} <= kinds


# ------------------------------------------------------------------ the listing
def _plain_moves(state, seat: str) -> list:
    """The action phase's moves (GG R6.1) straight from rules.py, every Move built anew:
    each action card's uses (cards ascending, effects in the card's order, seats in turn
    order), the gem steals, the element trades, end."""
    d, table = state.d, state.table
    hand = d.hands[seat]
    others = [s for s in state.seats if s != seat]
    out = []
    for card in sorted(set(hand)):
        for word, name in table.uses.get(card, ()):
            e = table.effects[name]
            if e.once_per_turn and d.peeping_used:
                continue
            out += ([Move("use", card, word, t) for t in others] if e.selects
                    else [Move("use", card, word)])
    for trio in rules.gem_steal_payments(table, hand):
        out += [Move("gem_steal", cards=trio, target=t) for t in others]
    out += [Move("element", element=e) for e in rules.element_trades(table, hand, d.elements[seat])]
    return out + [Move("end")]


def _plain_declarations(table, hand: list, owned, declared: list) -> list:
    """GG R11.2 by its words: every distinct trio of the hand that covers (no shortcut)."""
    if declared or len(hand) < 3:
        return []
    cursed = rules.is_cursed(table, hand, ())
    return [trio for trio in sorted(set(combinations(sorted(hand), 3)))
            if rules.covers(table, trio, tuple(owned), cursed)]


def _plain_legal(state, seat: str) -> list:
    d = state.d
    if d.q is not None:
        return None  # (answers: the kernel's own words, compared by the path test)
    if d.phase == "end":
        return [Move("declare", cards=t) for t in _plain_declarations(
            state.table, d.hands[seat], d.elements[seat], d.declared[seat])] + [Move("pass")]
    return _plain_moves(state, seat)


def test_the_listing_is_the_rules_listing():
    """The kept moves (uses by card, gem steals by gem multiset, trades counted in C,
    declarations behind the whole hand's cover test) list what rules.py lists, in its
    order, at every decision of seeded games at 2-5 seats, and the turn order read from
    the seat tables is the seats' own.  (Shown failing on purpose: the once-per-turn use
    listed after a Peeping Draw; a trade listed for an owned element; the gem steals'
    multiset key unsorted; the declarations' shortcut counting no wild gem; the seat
    after the next taken as the left neighbour.)"""
    decisions = kinds = 0
    seen = set()
    for seed in range(60):
        seats = 2 + seed % 4
        state = GAME.new_state(seed=seed, seats=seats)
        for s in state.seats:
            i = state.seats.index(s)
            assert state._mine[s].from_left == tuple(state.seats[(i + k) % seats]
                                                     for k in range(1, seats))  # GG R11.3
            assert state.left_of(s) == state.seats[(i + 1) % seats]
        rnd = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            plain = _plain_legal(state, seat)
            if plain is not None:
                assert legal == plain
                decisions += 1
                seen.update(m.kind for m in legal)
            state.apply(seat, legal[rnd.randrange(len(legal))])
    assert decisions > 3000 and {"use", "gem_steal", "element", "declare", "pass"} <= seen


def test_declarations_shortcut_against_every_trio():
    """rules.declarations skips the trios when the whole hand covers nothing: against
    every trio tested, over random hands of the set's cards (curses, wilds and owned
    elements included).  (Shown failing on purpose: the shortcut counting no wild gem.)"""
    table = GAME.table
    rnd = random.Random(17)
    found = 0
    for _ in range(3000):
        hand = rnd.sample(list(table.basic), rnd.randrange(0, 10))
        owned = rnd.sample(["fire", "water", "thunder"], rnd.randrange(0, 3))
        got = rules.declarations(table, hand, owned, [])
        assert got == _plain_declarations(table, hand, owned, [])
        found += bool(got)
    assert 300 < found < 2700
