"""GETGEM (../shared/spec/getgem.md; docs/getgem.md): 2 to 5 seats, hidden hands, steals,
element cards and a victory declaration that must survive the other seats' turns.

``getgem.game`` is the game's frame (seats, the GG01 cards in Japanese and English, their
effects, zones, options); it names the engine (``played by``) and each effect's rule
function.  The engine is the Python of this folder: :mod:`.rules` (pure functions: the
gem coverage test, what is legal), :mod:`.state` (one game on the kernel's Stepper),
:mod:`.effects` (one rule function per effect), :mod:`.board` (a state from a ruling
case's board) and :mod:`.agents` (bots that see only their observation).
"""

from __future__ import annotations

from pathlib import Path

#: the game file of the built-in game (its GG01 set); ``wgdsl.load_game("getgem")`` reads it
#: (wgdsl.games, the registry, loads it as any game file: it names this folder's engine)
GAME_FILE = Path(__file__).with_name("getgem.game")
