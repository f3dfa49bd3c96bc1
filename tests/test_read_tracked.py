"""What reading and checking a card set leaves for the cyclic garbage collector to scan.

A set read stays in memory (the language server keeps it), and the collector scans every
tracked object again at its passes: the caches of cards read and checked keep no object
of their own per card (a sound card's entry is two dictionaries' entries), so that a check
of a sound set leaves too few objects to start one of the collector's passes inside it
(benchmarks/bench_parse.py's check time was 0.42–0.65 s for 10,000 cards, depending on
whether a pass over the cards just read fell into it).  The caches still answer: a
re-check gives the same problems, a card with problems keeps them.
"""

from __future__ import annotations

import gc

from wgdsl.lang.checker import check, forget_cards
from wgdsl.lang.parser import parse
from wgdsl.resources import builtin_cards_path


def _tracked_after(fn) -> int:
    gc.collect()
    before = len(gc.get_objects())
    result = fn()
    gc.collect()
    return len(gc.get_objects()) - before, result


def _sound_set(copies: int) -> str:
    text = builtin_cards_path().read_text(encoding="utf-8")
    out = []
    for k in range(copies):  # fresh ids (names may repeat)
        out.append(text.replace("card WG-", f"card X{k}-"))
    return "\n".join(out)


def test_checking_a_sound_set_leaves_no_object_per_card():
    forget_cards()
    cardset, syntax = parse(_sound_set(8), "set.wg")
    assert syntax == [] and len(cardset.cards) == 200
    left, problems = _tracked_after(lambda: check(cardset))
    assert problems == []
    assert left < 40, left  # 200 cards checked and kept: less than one object each


def test_a_recheck_gives_the_problems_again():
    forget_cards()
    text = builtin_cards_path().read_text(encoding="utf-8").replace("color blue", "color bleu", 1)
    cardset, _ = parse(text, "wg01.wg")
    first = check(cardset)
    assert [p.message for p in first] == ["unknown color `bleu`"]
    again = check(parse(text, "wg01.wg")[0])  # the same nodes, from the cache of cards read
    assert [(p.pos, p.message, p.hint) for p in again] == [(p.pos, p.message, p.hint) for p in first]
    other = check(parse(text, "other.wg")[0])  # another path: checked again, its own path
    assert [p.path for p in other] == ["other.wg"]


def test_reading_a_set_leaves_no_cache_object_per_card():
    forget_cards()
    text = _sound_set(4)
    left, (cardset, _) = _tracked_after(lambda: parse(text, "set.wg"))
    # what the cards themselves hold (their nodes and positions) ...
    forget_cards()
    parse("", "empty.wg")
    own = 0
    seen = set()
    stack = [cardset.cards]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if gc.is_tracked(node):
            own += 1
        if isinstance(node, tuple):
            stack.extend(node)
        elif hasattr(node, "__attrs_attrs__"):
            stack.extend(getattr(node, a.name) for a in node.__attrs_attrs__)
    # ... and the cache of cards read adds nothing of its own per card
    assert left <= own + 40, (left, own)
