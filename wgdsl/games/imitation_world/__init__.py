"""Imitation World (../shared/spec/imitation-world.md; docs/imitation-world.md, rules cited
"IW R17.4"): two players, a hidden aga, five chosen barriers, faction cost piles fixed late,
geuda that attack and block front to back.

- :mod:`.rules`: the algorithms as pure functions of plain values (deck construction IW R4,
  the cost zone IW R8-R9, attack and block eligibility IW R15-R16, the judgments IW
  R17-R19, the results IW R20), tested against the spec's examples
  (tests/test_imitation_world_rules.py);
- :mod:`.game` and :mod:`.state`: the engine, played through engine-api.md
  (``wgdsl.load_game("imitation-world")``), the turn of IW R6 and every decision of IW R24.2;
- :mod:`.abilities`: abilities as small records compiled once from the cards (IW R21);
- :mod:`.moves`: action texts and refusals; :mod:`.agents`: random and greedy bots.
"""

from pathlib import Path

#: the game file (its IW01 set); ``wgdsl.load_game("imitation-world")`` reads it
GAME_FILE = Path(__file__).with_name("imitation-world.game")
