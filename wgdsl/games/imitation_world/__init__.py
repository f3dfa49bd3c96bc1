"""Imitation World (../shared/spec/imitation-world.md; docs/imitation-world.md, rules cited
"IW R17.4"): two players, a hidden aga, five chosen barriers, faction cost piles fixed late,
geuda that attack and block front to back.

This package will hold the game: its game file (the frame and the IW01 set in Japanese and
English), the engine that plays a turn on the kernel, a board for ruling cases, and bots.
So far it holds :mod:`.rules`: what is a table or an algorithm (docs/games.md) — deck
construction (IW R4), the cost zone and cost condition (IW R8-R9), attack and block
eligibility with the linked attack (IW R15-R16), the survival, barrier destruction and aga
destruction judgments (IW R17-R19) and the results (IW R20) — as pure functions of plain
values (numbers and faction strings, never card ids or engine objects), each tested
against the spec's worked examples and Q&A rulings (tests/test_imitation_world_rules.py).
"""
