"""Invariants of rules.md checked after EVERY step of Hypothesis-generated games.

Games start from R3-legal stocks (strategies.legal_decks) and a drawn seed; every
action is drawn from ``legal_actions()`` and every answer from the question's options
(strategies.DrawAgent).  The checks live in invariants.py:

- field priority (R8.2, R8.4), on the action played and on every play offered;
- stacks and points (R10.2, R1.4, R1.5);
- conservation of cards (every instance in exactly one zone, none created or lost);
- limits (≤ 5 stuns, one stun set and one play per turn, empty pools at turn start);
- winning (R12: over exactly when a condition holds, reason true of the final state);
- refusal (constructed illegal actions raise IllegalAction, state unchanged);
- determinism (same seed and choices → the same log, byte for byte).

The profile (tests/conftest.py) sets the number of games and their length.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from invariants import Watcher, snapshot
from strategies import (DrawAgent, ReplayAgent, game_steps, games, is_legal_stock, legal_decks,
                        play_game, stock_capacity)
from wgdsl.games.world_gainer.decks import Deck, DeckEntry, validate_deck
from wgdsl.kernel.errors import IllegalAction
from wgdsl.lang.ast import NOWHERE
from wgdsl.lang.cards import library_from_text, load_cards

WG01 = load_cards()


def run_checked(setup, data, checks) -> Watcher:
    agent = DrawAgent(data)
    game = setup.new(agent)
    watcher = Watcher(game, checks, agent=agent)
    watcher.check_all()  # the state right after set-up, turn 1 begun
    watcher.turn_began = False
    steps = play_game(game, agent, game_steps(), watcher.on_step, snapshot=snapshot,
                      before_step=watcher.before_step)
    st_ = game.state
    event(f"ended: {st_.win_reason or 'step bound'}")
    event(f"steps: {steps // 50 * 50}+")
    return watcher


# ------------------------------------------------------------------------ the decks
# a small set where two ids share a name (R3.2 counts by name), one card is unique, and
# one gives the opponent a card on the field during your turn (so both players can meet
# an R12 condition at the same check, R12.4 — no WG01 card can do that)
TINY = "\n".join(
    [f'card T-{n:03d} "name{n}" {{\n  color {c}  cost {1 + n % 4}  requires 0\n}}\n'
     for n, c in zip(range(1, 15), ["blue", "green", "red"] * 5)]
    + ['card T-101 "name1" {\n  color red  cost 2  requires 0\n}\n',
       'card T-102 "sun" {\n  color yellow  cost 5  requires 5  unique\n}\n',
       'card T-103 "gift" {\n  color green  cost 1  requires 0\n  dimension:\n'
       '    move a card in your hand to an empty square of your my field\n'
       '    move a card in opponent\'s hand to an empty square of opponent\'s my field\n}\n'])


@pytest.fixture(scope="module")
def tiny():
    return library_from_text(TINY, "tiny.wg")


@given(decks=legal_decks(WG01))
def test_generated_wg01_decks_obey_r3(decks):
    assert len(decks["A"]) == len(decks["B"]) >= 40
    for ids in decks.values():
        assert is_legal_stock(ids, WG01)
        deck = Deck("gen", tuple(DeckEntry(1, i, NOWHERE) for i in ids))
        assert validate_deck(deck, WG01) == []


@given(data=st.data())
def test_generated_decks_obey_r3_for_any_library(tiny, data):
    # T-001 and T-101 share "name1": at most 3 together; T-102 is unique
    assert stock_capacity(tiny) == 14 * 3 + 3 + 1
    decks = data.draw(legal_decks(tiny))
    for ids in decks.values():
        assert is_legal_stock(ids, tiny)
        counts = Counter(ids)
        assert counts["T-001"] + counts["T-101"] <= 3
        assert counts["T-102"] <= 1


@given(data=st.data())
def test_games_on_any_library_keep_the_invariants(tiny, data):
    run_checked(data.draw(games(tiny)), data, Watcher.ALL)


# ------------------------------------------------------------------------ the properties
@given(setup=games(), data=st.data())
def test_field_priority(setup, data):
    """R8: no play from hand lands on a row while a higher row is not all held (except
    by the card's own rule, R8.4), and legal_actions() never offers such a play."""
    run_checked(setup, data, ["priority"])


@given(setup=games(), data=st.data())
def test_stacks_and_points(setup, data):
    """R10.2 stack costs, one owner per stack, R1.5 square and player points."""
    run_checked(setup, data, ["stacks"])


@given(setup=games(), data=st.data())
def test_conservation(setup, data):
    """Every card in exactly one zone, consistent with its attributes; none made or lost."""
    run_checked(setup, data, ["conservation"])


@given(setup=games(), data=st.data())
def test_limits(setup, data):
    """≤ 5 stuns, one stun set and one play from hand per turn, empty pools at turn start."""
    run_checked(setup, data, ["limits"])


@given(setup=games(), data=st.data())
def test_winning(setup, data):
    """R12: over exactly when a condition holds; the reason is true of the final state."""
    run_checked(setup, data, ["winning"])


@given(setup=games(), data=st.data())
def test_refusal_leaves_the_state_unchanged(setup, data):
    """Illegal actions (wrong phase, wrong player, unaffordable, bad slot/square, second
    stun or play, priority, placement, after the end) raise and change nothing."""
    watcher = run_checked(setup, data, ["refusal"])
    for what in watcher.refusals:
        event(f"refused: {what}")


@given(setup=games(), data=st.data())
def test_same_seed_and_choices_give_the_same_log(setup, data):
    agent = DrawAgent(data)
    game = setup.new(agent)
    play_game(game, agent, game_steps())
    replay = ReplayAgent(agent.transcript)
    again = setup.new(replay)
    try:
        play_game(again, replay, game_steps())
    except IllegalAction as err:
        raise AssertionError(f"the replay diverged: a recorded action is now refused: {err}")
    assert replay.position == len(agent.transcript), "the replay made fewer decisions"
    first, second = game.log.to_json(), again.log.to_json()
    if second != first:
        lines, relines = game.log.lines(), again.log.lines()
        at = next((k for k, (x, y) in enumerate(zip(lines, relines)) if x != y),
                  min(len(lines), len(relines)))
        raise AssertionError(f"same seed and choices, different logs from line {at}: "
                             f"{lines[at:at + 1]} vs {relines[at:at + 1]}")
    assert snapshot(again) == snapshot(game), "same log, different final states"


# ------------------------------------------------------------------------ across processes
GAMES_SCRIPT = """
import hashlib, random, sys
from wgdsl.games.world_gainer.agents import RandomAgent
from wgdsl.games.world_gainer.engine import Game
from wgdsl.lang.cards import load_cards
lib = load_cards()
ids = [c.id for c in lib if not c.unique]
digest = hashlib.sha256()
for seed in range(12):
    r = random.Random(seed)
    decks = {p: r.sample([i for i in ids for _ in range(3)], 40) for p in "AB"}
    game = Game.new(lib, decks, seed=seed, first="AB"[seed % 2],
                    agents={"A": RandomAgent(seed), "B": RandomAgent(seed + 100)})
    steps = 0
    while not game.over and steps < 3000:
        seat = game.state.active
        game.apply(game.agents[seat].act(game.view(seat), game.legal_actions()))
        steps += 1
    digest.update(game.log.to_json().encode())
print(digest.hexdigest())
"""


def log_digests(prefix: str = "", hash_seeds=("1", "2")) -> list:
    """The digest of GAMES_SCRIPT's logs run in fresh processes, one per hash seed
    (``prefix``: code run first, e.g. a deliberate break in tests/mutation_check.py)."""
    import os
    import subprocess
    import sys

    out = []
    for hash_seed in hash_seeds:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run([sys.executable, "-c", prefix + GAMES_SCRIPT], env=env,
                             check=True, capture_output=True, text=True, timeout=300)
        out.append(run.stdout.strip())
    return out


def test_the_log_does_not_depend_on_the_process():
    """Determinism across processes: set and dict orders that follow PYTHONHASHSEED
    would give other logs in another run (the in-process replay cannot see that)."""
    first, second = log_digests()
    assert first == second, "two processes played the same seeds and choices differently"
