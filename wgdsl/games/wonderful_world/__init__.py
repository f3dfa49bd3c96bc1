"""It's a Wonderful World (../shared/spec/wonderful-world.md, cited "IAW R13.2"): 1 to 5
seats, a simultaneous draft, planning and five production steps a round.

``wonderful-world.game`` is the game's frame and the IAW01 set (the card model of R3 as
list stats: cost spaces, bonus, production, VP); :mod:`.cards` reads it into the card
table the rules use; :mod:`.rules` holds what is an algorithm — production, supremacy,
krystallium conversion, scoring and the tie-breaks — as pure functions; :mod:`.state`
plays the rounds on the kernel's private windows (R7), :mod:`.board` lays out a ruling
case's board, :mod:`.moves` says why an action is refused, :mod:`.agents` are the bots.
"""

from __future__ import annotations

from pathlib import Path

#: the game file of the built-in game (its IAW01 set)
GAME_FILE = Path(__file__).with_name("wonderful-world.game")
