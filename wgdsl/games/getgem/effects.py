"""GETGEM's card effects (getgem.md R8), one rule function each, named by the game file
(``effect NAME ... from "wgdsl.games.getgem.effects:NAME"``).

An effect is given the engine's effect context ``ctx`` (:class:`~.state.GGState` itself):

- ``ctx.user``, ``ctx.target``: who used the card, and the seat it selected (None when the
  effect selects nobody);
- ``ctx.stage``, ``ctx.answer``: None on the first call; when the effect asked a question
  (``ctx.ask(kind, options, stage, **data)`` returns True when it was asked — a question
  with no possible answer is not asked and its part is skipped, GG R7.5), the engine calls
  the effect again once the seat has answered, with the ``stage`` it gave and the answer
  (a card id), and ``ctx.data`` holding the ``data``;
- the moves: ``take_random()`` (a random card of the target's hand into the user's; the
  id, or None from an empty hand), ``swap_hands()``, ``look()``, ``draw()``,
  ``arm_choices()`` / ``take_from_discard(id)``, ``discard_choices()`` / ``discard(id)``,
  ``push_choices(taken)`` / ``give(id)``, ``nullify()``.

Every part of a used card happens as far as the state allows (GG R7.5); the context keeps
the knowledge of GG R14.4 and the log.
"""

from __future__ import annotations

from wgdsl.lang.game.rule_functions import rule_function


@rule_function("effect")
def steal(ctx) -> None:
    """GG R8.1: a random card of the selected seat's hand into the user's."""
    ctx.take_random()


@rule_function("effect")
def full_exchange(ctx) -> None:
    """GG R8.2: the two whole hands change places; fronts stay."""
    ctx.swap_hands()


@rule_function("effect")
def arm(ctx) -> None:
    """GG R8.3: take a card of the discard pile other than this Arm (question
    ``arm_take``), then discard a card of the hand, never an undiscardable one
    (``arm_discard``); with nothing to take, the discard still happens."""
    if ctx.stage is None:
        if ctx.ask("arm_take", ctx.arm_choices(), "take"):
            return
    elif ctx.stage == "take":
        ctx.take_from_discard(ctx.answer)
    else:  # "discard"
        ctx.discard(ctx.answer)
        return
    ctx.ask("arm_discard", ctx.discard_choices(), "discard")


@rule_function("effect")
def steal_push(ctx) -> None:
    """GG R8.4: a random card of the selected seat's hand into the user's, then a card of
    the user's hand other than the one just taken given to that seat (question ``push``)."""
    if ctx.stage is None:
        taken = ctx.take_random()
        ctx.ask("push", ctx.push_choices(taken), "push", taken=taken)
    else:
        ctx.give(ctx.answer)


@rule_function("effect")
def peeping(ctx) -> None:
    """GG R8.5: look at the selected seat's whole hand, then draw a card (the deck refilled
    first if it is empty, GG R13)."""
    ctx.look()
    ctx.draw()


@rule_function("effect")
def barrier(ctx) -> None:
    """GG R8.6, used by the selected seat in answer to a selection: the selecting card's
    whole effect is nullified (the Barrier card itself is discarded by the engine, as
    every card used, GG R7.1)."""
    ctx.nullify()
