"""Hypothesis strategies for card-language ASTs (reusable by any test).

Every strategy builds trees that the grammar can express, in the parser's canonical
form: nouns singular (``card``/``stun``), ``fewer`` rather than ``less``, a cost bound
as an operator and a value, stats in the order color, mark, cost, requires, stun,
unique (the printer writes them in that order; repeats are allowed).  Words that stand
for colors, marks and phases are drawn from real values and from random lowercase words
that are not keywords (keywords are reserved: ``color hand`` does not parse).

    from strategies_ast import cardsets, cards, actions, effects
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

from wgdsl.lang import ast
from wgdsl.resources import grammar_path

KEYWORDS = frozenset(re.findall(r'"([a-z\']+)"', grammar_path().read_text(encoding="utf-8")))

STAT_ORDER = ("color", "mark", "cost", "requires", "stun", "unique")
WHERES = ("dimension", "field", "hand", "stock", "standby", "break", "battle field", "my field")


def _not_keyword(word: str) -> bool:
    return word not in KEYWORDS


# ------------------------------------------------------------------------ leaves
words = st.one_of(
    st.sampled_from(["blue", "green", "red", "yellow", "rock", "paper", "scissors", "all",
                     "gain", "standby_", "bleu", "o'clock"]),
    st.from_regex(r"[a-z][a-z_']{0,9}", fullmatch=True),
).filter(_not_keyword)

# names: any one-line text without a double quote (the language has no escapes)
names = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters='"'),
    max_size=20,
)
card_ids = st.from_regex(r"[A-Z][A-Z0-9]{0,3}-[A-Z0-9]{1,4}", fullmatch=True)
counts = st.integers(min_value=0, max_value=10_000)

owners = st.sampled_from([None, "you", "opponent", "owner"])
players = st.sampled_from(["you", "opponent"])
zone_names = st.sampled_from(ast.ZONE_NAMES)
zones = st.builds(ast.Zone, owner=owners, name=zone_names)

cost_bounds = st.builds(ast.CostBound, op=st.sampled_from(["<=", ">=", "<", ">", "="]),
                        value=counts)

filters = st.builds(
    ast.Filter,
    owner=owners,
    states=st.lists(st.sampled_from(["ready", "exhausted", "other"]), max_size=3).map(tuple),
    noun=st.sampled_from(["card", "stun"]),
    name=st.none() | names,
    cost=st.none() | cost_bounds,
    zone=st.none() | zones,
)

# ------------------------------------------------------------------------ selectors
selectors = st.one_of(
    st.builds(ast.This),
    st.builds(ast.It),
    st.builds(ast.ThatCard),
    st.builds(ast.Choose, filters),
    st.builds(ast.Random, filters),
    st.builds(ast.Every, filters),
    st.builds(ast.Stacks, zones),
    st.builds(ast.EndCard, st.sampled_from(["top", "bottom"]), zones),
)

dests = st.one_of(
    st.builds(ast.ToZone, zones, as_stun=st.sampled_from([None, "ready", "exhausted", "other"])),
    st.builds(ast.ToEnd, st.sampled_from(["top", "bottom"]), zones),
    st.builds(ast.ToEmptySquare, zones),
)

conditions = st.one_of(
    st.builds(ast.YouDid),
    st.builds(ast.Compare, left=players, relation=st.sampled_from(["fewer", "more"]),
              quantity=st.sampled_from(["squares", "points", "cards in hand"]), right=players),
)

# ------------------------------------------------------------------------ actions
simple_actions = st.one_of(
    st.builds(ast.Draw, counts),
    st.builds(ast.Look, selectors),
    st.builds(ast.Move, selectors, dests),
    st.builds(ast.Exhaust, selectors),
    st.builds(ast.Shuffle, zones),
    st.builds(ast.ChooseAction, selectors),
    st.builds(ast.EnterAsCopy, selectors),
    st.builds(ast.CancelPlay),
    st.builds(ast.AddPoints, counts, words),
    st.builds(ast.Swap, selectors, selectors),
)

actions = st.recursive(
    simple_actions,
    lambda inner: st.one_of(st.builds(ast.May, inner), st.builds(ast.If, conditions, inner)),
    max_leaves=4,
)

# ------------------------------------------------------------------------ events
_subjects = st.builds(ast.This) | filters

events = st.one_of(
    st.builds(ast.Event, st.just("leaves"), subject=_subjects, to=st.none() | zone_names),
    st.builds(ast.Event, st.sampled_from(["enters", "seized", "targeted"]), subject=_subjects),
    st.builds(ast.Event, st.sampled_from(["turn_start", "turn_end"]), player=players),
    st.builds(ast.Event, st.just("plays"), subject=filters, player=players),
)

# ------------------------------------------------------------------------ statics
statics = st.one_of(
    st.builds(ast.Untargetable),
    st.builds(ast.Protected,
              st.lists(st.sampled_from(["seized", "traded"]), min_size=1, max_size=3).map(tuple),
              cost_bounds),
    st.builds(ast.PlayOnto, zones),
    st.builds(ast.AnyColor, st.lists(words, min_size=1, max_size=4).map(tuple)),
)

# ------------------------------------------------------------------------ effects
wheres = st.sampled_from(WHERES)
_bodies = st.lists(actions, min_size=1, max_size=3).map(tuple)

effects = st.one_of(
    st.builds(ast.Triggered, wheres, st.none() | events, _bodies),
    st.builds(ast.Activated, wheres, st.none() | words, st.none() | actions, _bodies),
    st.builds(ast.StaticEffect, wheres, st.lists(statics, min_size=1, max_size=3).map(tuple)),
)

# ------------------------------------------------------------------------ cards
stats = st.one_of(
    st.builds(ast.Stat, st.sampled_from(["color", "mark"]), words),
    st.builds(ast.Stat, st.sampled_from(["cost", "requires", "stun"]), counts),
    st.builds(ast.Stat, st.just("unique"), st.just(True)),
)


def _in_stat_order(items):
    return tuple(sorted(items, key=lambda s: STAT_ORDER.index(s.key)))


cards = st.builds(
    ast.Card,
    id=card_ids,
    name=names,
    en_name=st.none() | names,
    stats=st.lists(stats, max_size=7).map(_in_stat_order),
    effects=st.lists(effects, max_size=3).map(tuple),
)

cardsets = st.builds(ast.CardSet, st.lists(cards, max_size=3).map(tuple))
