"""The kernel's rule for the next waiting ability (WG R13.5, IW R21.2), on plain tuples
(seat, card, ability): the active seat's first, older and newer alike; its seat picks among
kinds it can tell apart; abilities alike are one option, never a question."""

from __future__ import annotations

from wgdsl.kernel.triggers import next_to_resolve


def pick(waiting, active="A", answer=None):
    asked = []

    def ask(seat, options):
        asked.append((seat, options))
        return answer if answer is not None else options[-1]

    got = next_to_resolve(waiting, active, lambda w: w[0], lambda w: (w[1], w[2]),
                          lambda w: w[1], ask)
    return got, asked


def test_the_active_seats_abilities_come_first_older_and_newer_alike():
    waiting = [("B", "X", 0), ("A", "Y", 0)]
    assert pick(waiting) == (("A", "Y", 0), [])


def test_the_other_seat_resolves_when_the_active_seat_has_none_waiting():
    assert pick([("B", "X", 0)]) == (("B", "X", 0), [])


def test_two_kinds_are_a_question_to_their_seat_in_the_order_first_met():
    waiting = [("A", "Y", 0), ("B", "Z", 0), ("A", "X", 0), ("A", "Y", 0)]
    got, asked = pick(waiting, answer="X")
    assert got == ("A", "X", 0)
    assert asked == [("A", ["Y", "X"])]


def test_abilities_alike_are_one_option_and_never_asked():
    waiting = [("A", "Y", 0), ("A", "Y", 0)]
    assert pick(waiting) == (("A", "Y", 0), [])


def test_two_abilities_of_one_card_written_alike_are_not_asked():
    # two kinds (ability 0 and 1 of Y) with the same label: one option, the first resolves
    waiting = [("A", "Y", 1), ("A", "Y", 0)]
    assert pick(waiting) == (("A", "Y", 1), [])
