"""It's a Wonderful World (../shared/spec/wonderful-world.md, cited "IAW R13.2"): 1 to 5
seats, a simultaneous draft, planning and five production steps a round.

``wonderful-world.game`` is the game's frame and the IAW01 set (the card model of R3 as
list stats: cost spaces, bonus, production, VP); :mod:`.cards` reads it into the card
table the rules use; :mod:`.rules` holds what is an algorithm — production, supremacy,
krystallium conversion, scoring and the tie-breaks — as pure functions.  The engine that
plays the rounds (the simultaneous windows of R7) is not built yet (issue 13).
"""

from __future__ import annotations

from pathlib import Path

#: the game file of the built-in game (its IAW01 set)
GAME_FILE = Path(__file__).with_name("wonderful-world.game")
