"""World Gainer (the rules in docs/rules.md, cited as R8.2).

:mod:`.state` is the plain-data game state; :mod:`.rules` the rules tables as pure
functions; :mod:`.engine` the ``Game`` (``legal_actions()`` / ``apply()``) and its log;
:mod:`.interpreter` compiles the card language's effects against this game's zones and
squares; :mod:`.agents` are the players, who see the game through their seat's
:mod:`.view`; :mod:`.decks` reads and checks decks (R3);
:mod:`.board` draws the board.  A game may import the kernel and the language, never a
tool (tests/test_layers.py).
"""
