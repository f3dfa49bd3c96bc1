"""Games described by a game file, played by one generic engine (docs/games.md).

``load_game_file(path)`` reads, checks and compiles a ``.game`` file into a
:class:`~.game.DescribedGame` (engine-api.md's Game); its ``new_state`` is a
:class:`~.state.DescribedState`, a kernel :class:`~wgdsl.kernel.stepper.Stepper` over
plain data.  The rule functions a game file may name come from the ``wgdsl.games``
package only (:mod:`.hooks`); :mod:`.library` holds a few any game may use.
"""

from .game import DescribedGame, GameFileError, check_game_file, check_game_text, load_game_file

__all__ = ["DescribedGame", "GameFileError", "check_game_file", "check_game_text", "load_game_file"]
