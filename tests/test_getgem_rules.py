"""GETGEM's rules, unit by unit, each expectation reasoned from getgem.md (cited "GG R10.1",
"Q&A 12"), never copied from the program's output.

The pure tests (:mod:`wgdsl.games.getgem.rules`) are called on card ids; everything that
happens in a turn is played through the public interface (``apply``, ``legal_actions``,
``observation``, ``to_dict``, ``log``) from a board laid out by
:func:`wgdsl.games.getgem.board.state_from_board`, with every random outcome scripted
(:class:`Script`, the board's ``Chance``), so an expectation never depends on the
generator.
"""

from __future__ import annotations

from collections import Counter

import pytest

import wgdsl
from wgdsl.games.getgem import rules
from wgdsl.games.getgem.board import Board, state_from_board
from wgdsl.games.getgem.state import Move
from wgdsl.kernel.errors import IllegalAction
from wgdsl.kernel.rng import MASK, shuffled

GAME = wgdsl.load_game("getgem")
TABLE = GAME.table
FIRE, WATER, THUNDER, RAINBOW, CURSE = "GG-001", "GG-002", "GG-003", "GG-004", "GG-005"
STEAL, EXCHANGE, ARM, PEEP, BARRIER = "GG-006", "GG-007", "GG-008", "GG-009", "GG-010"


class Script:
    """A scripted Chance (board.Chance): each random take and refill uses the next entry;
    ``asked`` records what it was asked, so a test can say it was (not) consulted."""

    def __init__(self, takes=(), shuffles=()):
        self.takes, self.shuffles = list(takes), [list(s) for s in shuffles]
        self.asked: list = []

    def take(self, hand):
        self.asked.append(("take", list(hand)))
        return self.takes.pop(0)

    def shuffle(self, cards):
        self.asked.append(("shuffle", list(cards)))
        return self.shuffles.pop(0)


def board(chance=None, **kw):
    return state_from_board(GAME, Board(**kw), chance if chance is not None else Script())


def act(state, text, seat=None):
    seat = seat or state.current_seats()[0]
    state.apply(seat, state.parse_action(seat, text))


def options(state) -> list:
    """The current seat's legal actions as text."""
    return sorted(str(a.option) if hasattr(a, "option") else str(a)
                  for a in state.legal_actions(state.current_seats()[0]))


def question(state):
    return state.observation(state.seats[0])["question"]


def events(state, kind) -> list:
    return [e for e in state.log if e["kind"] == kind]


# ====================================================================== GG R10: coverage
@pytest.mark.parametrize("counted, owned, cursed, expected, why", [
    ([FIRE, WATER, THUNDER], [], False, True, "one basic gem of each element"),
    ([FIRE, FIRE, WATER], [], False, False, "two fire are still one element: thunder missing"),
    ([FIRE, WATER, RAINBOW], [], False, True, "the rainbow stands for thunder: 3 - 2 <= 1"),
    ([FIRE, WATER, RAINBOW], [], True, False, "a curse leaves the rainbow nothing: 3 - 2 > 0"),
    ([FIRE, RAINBOW, RAINBOW], [], False, True, "two rainbows for two elements: 3 - 1 <= 2"),
    ([STEAL, RAINBOW, RAINBOW], [], False, False, "two rainbows cannot supply three elements"),
    ([STEAL, EXCHANGE, CURSE], ["fire", "water", "thunder"], True, True,
     "Q&A 4: the three element cards cover everything, cursed or not"),
    ([FIRE, RAINBOW, CURSE], ["water"], True, False,
     "Q&A 7: fire and water supplied, the cursed player's rainbow not"),
    ([FIRE, WATER, CURSE], ["thunder"], True, True, "Q&A 6: the element card supplies thunder"),
    ([RAINBOW, RAINBOW, RAINBOW], ["fire"], False, True, "surplus rainbows do no harm"),
])
def test_covers_is_the_r10_1_test(counted, owned, cursed, expected, why):
    assert rules.covers(TABLE, counted, owned, cursed) is expected, why


def test_a_seat_is_cursed_while_it_has_the_cursed_gem_in_hand_or_front():
    # GG R10.3 with R1.6: 「持っている」 includes the declaration cards
    assert rules.is_cursed(TABLE, [FIRE, CURSE], [])
    assert rules.is_cursed(TABLE, [FIRE], [WATER, CURSE])
    assert not rules.is_cursed(TABLE, [FIRE, RAINBOW], [WATER])


# ====================================================================== GG R11.2: declarations
def test_only_the_three_placed_cards_and_the_element_cards_count():
    # Q&A 5: the hand covers, but three Steals placed do not
    hand = [FIRE, WATER, THUNDER, STEAL, STEAL, STEAL]
    legal = rules.declarations(TABLE, hand, [], [])
    assert (STEAL, STEAL, STEAL) not in legal
    assert legal == [(FIRE, WATER, THUNDER)]


def test_a_declaration_needs_three_cards_even_with_every_element_card():
    # Q&A 4 (R11.2a): two cards never; three of any kind with the three element cards
    everything = ["fire", "water", "thunder"]
    assert rules.declarations(TABLE, [STEAL, EXCHANGE], everything, []) == []
    assert rules.declarations(TABLE, [STEAL, EXCHANGE, CURSE], everything, []) == [
        (CURSE, STEAL, EXCHANGE)]


def test_the_curse_in_hand_or_placed_blocks_the_rainbow_at_a_declaration():
    # Q&A 6: cursed, fire + water + rainbow is no declaration
    assert rules.declarations(TABLE, [FIRE, WATER, RAINBOW, CURSE], [], []) == []
    # ... with the thunder element card, fire + water + anything is (the curse placed too)
    legal = rules.declarations(TABLE, [FIRE, WATER, RAINBOW, CURSE], ["thunder"], [])
    assert (FIRE, WATER, CURSE) in legal and (FIRE, WATER, RAINBOW) in legal
    # Q&A 7: placing the cursed gem does not free the rainbow
    assert rules.declarations(TABLE, [FIRE, RAINBOW, CURSE], ["water"], []) == []


def test_no_second_declaration_while_declaring():
    # Q&A 24 (R11.2c)
    assert rules.declarations(TABLE, [FIRE, WATER, THUNDER], [], [STEAL]) == []


# ====================================================================== GG R9: gem moves
def test_gem_steal_payments_take_any_three_gems_but_never_the_cursed_gem():
    # Q&A 13, Q&A 12 (rainbows are gems for the gem steal), R10.4
    assert rules.gem_steal_payments(TABLE, [CURSE, FIRE, FIRE, WATER]) == [(FIRE, FIRE, WATER)]
    assert rules.gem_steal_payments(TABLE, [FIRE, WATER, RAINBOW, STEAL]) == [
        (FIRE, WATER, RAINBOW)]
    assert rules.gem_steal_payments(TABLE, [FIRE, WATER, STEAL, CURSE]) == []


def test_element_trades_need_two_basic_gems_of_an_element_not_owned():
    assert rules.element_trades(TABLE, [FIRE, FIRE, WATER], []) == ["fire"]
    assert rules.element_trades(TABLE, [FIRE, RAINBOW], []) == []  # Q&A 12
    assert rules.element_trades(TABLE, [WATER, WATER], ["water"]) == []  # Q&A 11
    assert rules.element_trades(TABLE, [WATER, WATER, THUNDER, THUNDER], ["fire"]) == [
        "water", "thunder"]


def test_the_element_trade_takes_the_card_from_a_declarer_whose_countdown_goes_on():
    # Q&A 10: C discards two fire gems and takes the fire element card from B's front
    state = board(players=3, active="C", hands={"C": [FIRE, FIRE]},
                  elements={"B": ["fire"]}, declared={"B": [WATER, THUNDER, STEAL]})
    assert "element fire" in options(state)
    act(state, "element fire")
    obs = state.observation("A")
    assert obs["fronts"]["C"]["elements"] == ["fire"]
    assert obs["fronts"]["B"] == {"elements": [], "declared": [WATER, THUNDER, STEAL]}
    assert obs["discard"] == [FIRE, FIRE] and obs["hand_sizes"]["C"] == 0


def test_a_gem_steal_on_an_empty_hand_still_discards_the_three_gems():
    # Q&A 16 (R9.1): no Barrier window (R8.6), nothing taken, the gems are gone
    chance = Script()
    state = board(chance, hands={"A": [FIRE, WATER, RAINBOW]})
    act(state, f"gem_steal {FIRE} {WATER} {RAINBOW} B")
    assert state.current_seats() == ("A",) and question(state) is None
    assert state.to_dict()["discard"] == [FIRE, WATER, RAINBOW] and chance.asked == []


def test_no_barrier_answers_a_gem_steal():
    # Q&A 18: B holds a GG-010, yet A's gem steal goes straight to the random take
    chance = Script(takes=[FIRE])
    state = board(chance, hands={"A": [FIRE, WATER, THUNDER], "B": [BARRIER, FIRE]})
    act(state, f"gem_steal {FIRE} {THUNDER} {WATER} B")
    assert question(state) is None and chance.asked == [("take", [FIRE, BARRIER])]
    assert state.hands() == {"A": [FIRE], "B": [BARRIER]}


# ====================================================================== GG R12: countdown
def _play_out(state, limit=40) -> list:
    """Every seat ends its action phase and passes, every question gets its first answer,
    until a check; the take-backs as (turn, seat)."""
    for _ in range(limit):
        if state.is_terminal() or state.to_dict()["revealed"]:
            break
        seat = state.current_seats()[0]
        legal = state.legal_actions(seat)
        if question(state) is not None:
            state.apply(seat, legal[0])
        else:
            act(state, "end" if state.to_dict()["phase"] == "action" else "pass")
    return [(e["turn"], e["seat"]) for e in events(state, "take_back")]


@pytest.mark.parametrize("players, declared_on, take_backs, check_on", [
    (2, 5, [6, 8, 10], 10),      # Q&A 1: B's turns 6, 8, 10; A's own 7 and 9 do not count
    (3, 1, [2, 3, 5], 5),        # Q&A 2: B 2, C 3, (A 4), B 5
    (4, 1, [2, 3, 4], 4),        # R12.2: t+1..t+3
    (5, 1, [2, 3, 4], 4),        # Q&A 3: before E and A play again
])
def test_the_countdown_runs_on_the_other_seats_turns_only(players, declared_on, take_backs,
                                                         check_on):
    # A declares at the end of turn `declared_on` with fire, water, thunder; nobody acts
    state = board(players=players, active="A", turn=declared_on, phase="end",
                  hands={"A": [FIRE, WATER, THUNDER]})
    act(state, f"declare {THUNDER} {FIRE} {WATER}")
    assert [t for t, seat in _play_out(state)] == take_backs
    assert events(state, "take_back")[0]["seat"] == "A"
    assert state.is_terminal() and state.winners() == ("A",)
    assert state.to_dict()["turn"] == check_on and state.win_reason() == "GG R11.4"


def test_take_backs_go_in_seat_order_from_the_active_seats_left_and_the_declarer_chooses():
    # R11.3: D active; declarers A and B: A (D's left) first, then B; each names its card
    state = board(players=4, active="D", phase="end",
                  declared={"A": [FIRE, STEAL], "B": [WATER, WATER, THUNDER]})
    act(state, "pass")
    assert question(state) == {"kind": "take_back", "seat": "A"}
    assert options(state) == [f"take_back {FIRE}", f"take_back {STEAL}"]
    act(state, f"take_back {STEAL}")
    assert question(state) == {"kind": "take_back", "seat": "B"}
    assert options(state) == [f"take_back {WATER}", f"take_back {THUNDER}"]  # one WATER answer
    act(state, f"take_back {THUNDER}")
    assert state.declared() == {"A": [FIRE], "B": [WATER, WATER], "C": [], "D": []}
    # a take-back is public (R14.1, R14.4 b)
    assert state.known("C", "A") == [STEAL] and state.known("D", "B") == [THUNDER]


def test_a_failed_check_shows_the_hand_and_ends_the_declaration():
    # Q&A 9: the pushed curse spoils the rainbow; everyone sees the hand (R14.4 h)
    state = board(players=3, active="C", phase="end",
                  hands={"A": [FIRE, WATER, RAINBOW, CURSE]}, declared={"A": [STEAL]})
    act(state, "pass")
    act(state, f"take_back {STEAL}")  # asked although it is the only answer (R14.3)
    assert not state.is_terminal() and state.to_dict()["revealed"] == ["A"]
    assert state.declared()["A"] == []
    hand = sorted([FIRE, WATER, RAINBOW, CURSE, STEAL])
    assert state.known("B", "A") == hand and state.known("C", "A") == hand
    assert [e["text"] for e in events(state, "check")][0].endswith("not all three")


# ====================================================================== GG R8.6: Barrier
def test_every_selected_seat_is_asked_even_without_a_barrier():
    # R8.6 (engine ruling): the pause must not tell that B holds a GG-010
    state = board(hands={"A": [STEAL], "B": [FIRE]})
    act(state, f"use {STEAL} B")
    assert state.current_seats() == ("B",)
    assert question(state) == {"kind": "barrier", "seat": "B", "by": "A", "card": STEAL,
                               "effect": None}
    assert options(state) == ["no_barrier"]
    # the question is the same in every seat's observation (R18.4)
    assert state.observation("A")["question"] == state.observation("B")["question"]


def test_a_barrier_nullifies_the_whole_peeping_draw_which_still_counts():
    # Q&A 17: no look, no draw; both cards discarded; no second Peeping Draw this turn
    state = board(hands={"A": [PEEP, PEEP], "B": [BARRIER, WATER]}, deck=[FIRE])
    act(state, f"use {PEEP} peeping B")
    assert question(state)["effect"] == "peeping"
    assert options(state) == ["barrier", "no_barrier"]
    act(state, "barrier")
    data = state.to_dict()
    assert data["discard"] == [PEEP, BARRIER] and data["deck"] == [FIRE]
    assert data["hands"] == {"A": [PEEP], "B": [WATER]} and data["known"]["A"]["B"] == []
    assert data["peeping_used"] is True
    assert f"use {PEEP} peeping B" not in options(state)
    assert f"use {PEEP} steal_push B" in options(state)


def test_a_declined_barrier_can_be_stolen():
    # Q&A 19: B's only card is the GG-010 and B says no: A takes it (one card: no Chance)
    chance = Script()
    state = board(chance, hands={"A": [STEAL], "B": [BARRIER]})
    act(state, f"use {STEAL} B")
    act(state, "no_barrier")
    assert state.hands() == {"A": [BARRIER], "B": []} and chance.asked == []
    assert "use GG-010 barrier B" not in options(state)  # never a move (R7.2)


# ====================================================================== GG R8.4: push
def test_the_push_excludes_the_card_just_taken_but_not_another_copy():
    chance = Script(takes=[WATER])
    state = board(chance, hands={"A": [PEEP, THUNDER], "B": [FIRE, WATER]})
    act(state, f"use {PEEP} steal_push B")
    act(state, "no_barrier")
    assert chance.asked == [("take", [FIRE, WATER])]  # the victim's hand, ids ascending
    assert question(state) == {"kind": "push", "seat": "A"}
    assert options(state) == [f"push {THUNDER}"]  # not the water just taken
    act(state, f"push {THUNDER}")
    assert state.hands() == {"A": [WATER], "B": [FIRE, THUNDER]}
    # another copy of the card taken may be pushed (R8.4); B still knows A holds one (R14.4 e)
    state = board(hands={"A": [PEEP, FIRE], "B": [FIRE]})
    act(state, f"use {PEEP} steal_push B")
    act(state, "no_barrier")
    assert options(state) == [f"push {FIRE}"]
    act(state, f"push {FIRE}")
    assert state.known("B", "A") == [FIRE] and state.known("A", "B") == [FIRE]


def test_the_cursed_gem_may_be_pushed():
    # Q&A 14 (R10.4: a push is not a discard)
    state = board(hands={"A": [BARRIER, CURSE], "B": [STEAL]})
    act(state, f"use {BARRIER} steal_push B")
    act(state, "no_barrier")
    assert options(state) == [f"push {CURSE}"]


def test_nothing_is_pushed_when_only_the_card_taken_is_left():
    # Q&A 15: A's hand is the GG-009 alone; after the take there is no push question
    state = board(hands={"A": [PEEP], "B": [STEAL]})
    act(state, f"use {PEEP} steal_push B")
    act(state, "no_barrier")
    assert question(state) is None and state.hands() == {"A": [STEAL], "B": []}
    # ... and from an empty hand nothing is taken, and A has nothing to push
    state = board(hands={"A": [PEEP]})
    act(state, f"use {PEEP} steal_push B")
    act(state, "no_barrier")
    assert question(state) is None and state.hands() == {"A": [], "B": []}


# ====================================================================== GG R8.3: Arm
def test_the_arm_never_takes_itself():
    # Q&A 21: the pile holds a Steal; the Arm just used is not an answer
    state = board(hands={"A": [ARM, FIRE]}, discard=[STEAL])
    act(state, f"use {ARM}")
    assert question(state) == {"kind": "arm_take", "seat": "A"} and options(state) == [
        f"take {STEAL}"]
    act(state, f"take {STEAL}")
    # the card taken may be discarded; the question lists each id once
    assert options(state) == [f"discard {FIRE}", f"discard {STEAL}"]
    act(state, f"discard {STEAL}")
    assert state.to_dict()["discard"] == [ARM, STEAL]


def test_the_arm_takes_another_arm_the_oldest_copy_and_discards_even_after_taking_nothing():
    state = board(hands={"A": [ARM, CURSE, WATER]}, discard=[ARM, FIRE, ARM])
    act(state, f"use {ARM}")
    assert options(state) == [f"take {FIRE}", f"take {ARM}"]
    act(state, f"take {ARM}")
    assert state.to_dict()["discard"] == [FIRE, ARM, ARM]  # the oldest left, the used one stays
    assert options(state) == [f"discard {WATER}", f"discard {ARM}"]  # never the cursed gem
    # Q&A 21, second part: an empty pile (but the Arm) is no arm_take; the discard remains
    state = board(hands={"A": [ARM, CURSE, WATER]})
    act(state, f"use {ARM}")
    assert question(state) == {"kind": "arm_discard", "seat": "A"}
    assert options(state) == [f"discard {WATER}"]


# ====================================================================== GG R11.5: hand limit
def test_the_hand_limit_is_asked_once_per_card_never_for_the_cursed_gem():
    # Q&A 13 and 22: 9 cards, no declaration: 3 discards, one question each
    hand = [FIRE, WATER, THUNDER, STEAL, STEAL, EXCHANGE, ARM, CURSE, RAINBOW]
    state = board(phase="end", hands={"A": hand}, deck=[FIRE, WATER])  # B draws one next
    act(state, "pass")
    lefts = []
    while question(state) is not None:
        assert f"discard {CURSE}" not in options(state)
        lefts.append(question(state)["left"])
        act(state, f"discard {STEAL}" if f"discard {STEAL}" in options(state)
            else f"discard {ARM}")
    assert lefts == [3, 2, 1]
    assert state.to_dict()["turn"] == 2 and state.hands()["A"] == sorted(
        [FIRE, WATER, THUNDER, EXCHANGE, CURSE, RAINBOW])


def test_declaring_first_can_leave_nothing_to_discard():
    # Q&A 22: the declaration comes before the hand limit (R11 order)
    hand = [FIRE, WATER, THUNDER, STEAL, STEAL, EXCHANGE, ARM, CURSE, RAINBOW]
    state = board(phase="end", hands={"A": hand})
    act(state, f"declare {FIRE} {WATER} {THUNDER}")
    assert question(state) is None and state.to_dict()["active"] == "B"


def test_a_take_back_over_the_limit_is_kept_until_the_seats_own_turn():
    # Q&A 23: B takes a card back to 7 at the end of A's turn; no discard for B
    state = board(phase="end", hands={"B": [FIRE] * 5 + [STEAL]}, declared={"B": [WATER] * 3})
    act(state, "pass")
    act(state, f"take_back {WATER}")
    assert question(state) is None and len(state.hands()["B"]) == 7


# ====================================================================== GG R13: refill
def test_the_deck_is_refilled_as_soon_as_its_last_card_is_drawn():
    # R13.1 (Q&A 26): the scripted shuffle is given the pile oldest first and returns the
    # new deck top first
    chance = Script(shuffles=[[FIRE, STEAL]])
    state = board(chance, players=5, phase="draw", hands={"A": [ARM]}, deck=[WATER],
                  discard=[STEAL, FIRE])
    assert chance.asked == [("shuffle", [STEAL, FIRE])]
    data = state.to_dict()
    assert data["hands"]["A"] == [WATER, ARM] and data["deck"] == [FIRE, STEAL]
    assert data["discard"] == []
    # ... so an Arm used now finds only itself: nothing to take (Q&A 26)
    act(state, f"use {ARM}")
    assert question(state) == {"kind": "arm_discard", "seat": "A"}


def test_a_pile_of_one_id_is_refilled_without_asking_chance():
    chance = Script()
    state = board(chance, phase="draw", deck=[WATER], discard=[STEAL, STEAL])
    assert chance.asked == [] and state.deck() == [STEAL, STEAL]


def test_with_both_piles_empty_nothing_is_drawn_and_a_peeping_draw_draws_itself_back():
    # Q&A 27 (R13.2, R8.5)
    state = board(active="B", phase="draw", hands={"A": [FIRE], "B": [PEEP]})
    assert state.hands()["B"] == [PEEP] and "draws nothing" in events(state, "draw")[0]["text"]
    act(state, f"use {PEEP} peeping A")
    act(state, "no_barrier")
    assert state.hands()["B"] == [PEEP] and state.known("B", "A") == [FIRE]
    assert state.deck() == [] and state.to_dict()["discard"] == []


# ====================================================================== GG R3, R5: setup
def test_the_deal_is_one_card_at_a_time_from_the_first_player_then_the_first_draw():
    # R3.2 (engine convention) and R5.2: the pile shuffled by the seeded generator, dealt
    # from its top round the table from `first`, four times; the first player then draws
    seed, seats, first = 7, 3, "C"
    pile = list(TABLE.basic)
    shuffled(seed & MASK, pile)
    state = GAME.new_state(seed=seed, seats=seats, options={"first": first})
    order = ["C", "A", "B"]
    expected = {s: sorted(pile[k] for k in range(i, 4 * seats, seats)) for i, s in enumerate(order)}
    expected["C"] = sorted(expected["C"] + [pile[4 * seats]])
    assert state.hands() == expected
    assert state.deck() == pile[4 * seats + 1:]


# ====================================================================== GG R14.4: knowledge
def test_a_random_take_blurs_what_a_third_seat_knew_of_the_victims_hand():
    # (h) then (d): C's check shows B's hand to all; A steals one of B's cards: A and B know
    # which, C only that one of each distinct id it knew may be gone
    chance = Script(takes=[FIRE])
    state = board(chance, players=3, active="C", phase="end",
                  hands={"A": [STEAL], "B": [FIRE, FIRE, WATER]}, declared={"B": [STEAL]})
    act(state, "pass")
    act(state, f"take_back {STEAL}")
    assert state.known("C", "B") == [FIRE, FIRE, WATER, STEAL]  # the failed check
    act(state, f"use {STEAL} B")
    act(state, "no_barrier")
    assert state.known("A", "B") == [FIRE, WATER, STEAL]
    assert state.known("B", "A") == [FIRE]
    assert state.known("C", "B") == [FIRE]  # {F, F, W, S} loses one of each distinct id
    assert state.known("C", "A") == []


def test_a_full_exchange_tells_each_what_it_gave_and_moves_the_others_knowledge():
    # Q&A 20 with (f): fronts stay; C's knowledge follows the hands
    state = board(players=3, active="C", phase="end",
                  hands={"A": [EXCHANGE, FIRE, WATER, RAINBOW], "B": [THUNDER]},
                  declared={"B": [STEAL, STEAL]})
    act(state, "pass")
    act(state, f"take_back {STEAL}")  # public: every seat knows B holds a Steal
    assert state.to_dict()["active"] == "A"  # turn 4 (A draws nothing: both piles empty)
    act(state, f"use {EXCHANGE} B")
    act(state, "no_barrier")
    assert state.hands() == {"A": [THUNDER, STEAL], "B": [FIRE, WATER, RAINBOW], "C": []}
    assert state.declared()["B"] == [STEAL]
    assert state.known("A", "B") == [FIRE, WATER, RAINBOW]
    assert state.known("B", "A") == [THUNDER, STEAL]
    assert state.known("C", "A") == [STEAL] and state.known("C", "B") == []


def test_a_peeping_draw_shows_the_whole_hand_to_the_user_only():
    state = board(players=3, hands={"A": [PEEP], "B": [FIRE, CURSE]}, deck=[WATER])
    act(state, f"use {PEEP} peeping B")
    act(state, "no_barrier")
    assert state.known("A", "B") == [FIRE, CURSE] and state.known("C", "B") == []
    assert state.hands()["A"] == [WATER]


# ====================================================================== GG R18.6: resample
def _push_pending(players=3):
    """A used Steal & Push on B and took B's thunder; A's push is pending."""
    chance = Script(takes=[THUNDER])
    state = board(chance, players=players, hands={"A": [PEEP, WATER, STEAL], "B": [FIRE, THUNDER],
                                                  "C": [RAINBOW, EXCHANGE]},
                  deck=[ARM, FIRE, WATER])
    act(state, f"use {PEEP} steal_push B")
    act(state, "no_barrier")
    assert question(state)["kind"] == "push"
    return state


def test_resample_during_a_push_deals_the_card_just_taken_as_a_place_of_its_own():
    state = _push_pending()
    takens = set()
    for seed in range(40):
        other = state.resample("C", seed)
        assert other.observation("C") == state.observation("C")
        hand = other.hands()["A"]
        taken = other.to_dict()["pending"]["data"]["taken"]
        takens.add(taken)
        assert taken in hand
        rest = list(hand)
        rest.remove(taken)
        assert options(other) == sorted(f"push {c}" for c in set(rest))
        other.apply("A", other.legal_actions("A")[0])  # the push is legal in the new deal
    assert len(takens) > 1  # C never saw which card moved


def test_resample_for_the_victim_of_a_pending_push_offers_only_cards_the_taker_holds():
    # B knows A took its thunder, not the rest of A's hand: that rest is re-dealt, and the
    # push's answers must follow it (a stale answer would name a card A no longer holds)
    state = _push_pending()
    hands = set()
    for seed in range(40):
        other = state.resample("B", seed)
        assert other.observation("B") == state.observation("B")
        hand = other.hands()["A"]
        hands.add(tuple(hand))
        assert THUNDER in hand
        for answer in other.legal_actions("A"):
            assert answer.option.split()[-1] in hand
            other.clone().apply("A", answer)
    assert len(hands) > 1


def test_resample_keeps_what_a_pending_arm_discard_says_of_the_hand():
    # The question tells every seat that A holds a card it may discard (R14.3): a deal
    # giving A only the cursed gem would be a state B can tell apart
    state = board(players=3, hands={"A": [ARM, WATER], "B": [STEAL], "C": [EXCHANGE]},
                  deck=[CURSE, FIRE, THUNDER])
    act(state, f"use {ARM}")
    assert question(state) == {"kind": "arm_discard", "seat": "A"}
    seen = Counter()
    for seed in range(200):
        other = state.resample("B", seed)
        (card,) = other.hands()["A"]
        seen[card] += 1
        assert card != CURSE and other.legal_actions("A")
    assert len(seen) > 1


# ====================================================================== refusals, R16, R15
def test_a_wrong_answer_is_refused_by_the_question_and_changes_nothing():
    state = board(hands={"A": [STEAL], "B": [FIRE]})
    assert state.pending_decision() is None
    act(state, f"use {STEAL} B")
    decision = state.pending_decision()
    assert (decision.seat, decision.kind, decision.options, decision.rule) == (
        "B", "barrier", ("no_barrier",), "GG R8.6")
    before = state.to_dict()
    with pytest.raises(IllegalAction) as err:
        act(state, "barrier")  # B holds no GG-010
    assert err.value.rule == "GG R14.3" and "barrier" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        state.apply("A", Move("end"))  # A waits for B's answer
    assert err.value.rule == "GG R14.3" and "B is answering" in err.value.reason
    assert state.to_dict() == before


def test_cards_out_of_order_are_refused_with_the_form_to_write():
    # R18.3: an action's card ids are listed in ascending order (parse_action sorts them;
    # an action built by hand is told the form instead of a misleading reason)
    state = board(hands={"A": [FIRE, FIRE, THUNDER], "B": [WATER]})
    with pytest.raises(IllegalAction) as err:
        state.apply("A", Move("gem_steal", cards=(THUNDER, FIRE, FIRE), target="B"))
    assert err.value.rule == "GG R18.3"
    assert f"gem_steal {FIRE} {FIRE} {THUNDER} B" in err.value.reason
    act(state, f"gem_steal {THUNDER} {FIRE} {FIRE} B")  # the text form, in any order
    assert state.to_dict()["discard"] == [FIRE, FIRE, THUNDER]


def test_match_points_and_the_next_first_player():
    # Q&A 29: 4 players, A wins with fire, water, rainbow, rainbow: 10 - 2 x 3 = 4 points,
    # D (A's right neighbour) starts the next game
    state = board(players=4, active="D", phase="end", hands={"A": [FIRE, WATER, RAINBOW]},
                  declared={"A": [RAINBOW]})
    act(state, "pass")
    act(state, f"take_back {RAINBOW}")
    data = state.to_dict()
    assert state.winners() == ("A",) and data["over"] and data["phase"] == "end"
    assert data["match_points"] == {"A": 4, "B": 0, "C": 0, "D": 0}
    assert data["next_first"] == "D"
    assert state.returns() == {"A": 1.0, "B": 0.0, "C": 0.0, "D": 0.0}
    obs = state.observation("B")
    assert obs["current"] == [] and obs["question"] is None and obs["winner"] == "A"


def test_the_turn_cap_ends_the_game_after_its_last_end_phase_with_no_winner():
    # R15: B plays turn 5 of 5 (3 seats: A started); the end phase runs, then no winner
    state = board(players=3, active="B", turn=5, max_turns=5, phase="end")
    act(state, "pass")
    data = state.to_dict()
    assert state.is_terminal() and state.winners() == () and state.win_reason() == "GG R15"
    assert state.returns() == {s: pytest.approx(1 / 3) for s in "ABC"}
    assert data["turn"] == 5 and data["active"] == "B"
    assert data["match_points"] == {"A": 0, "B": 0, "C": 0} and data["next_first"] == "A"
