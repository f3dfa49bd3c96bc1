"""The tools: what the commands do, as library functions that return data or text.

:mod:`.play` plays series of games between agents; :mod:`.simulate` plays one card on a
ready-made board and explains what happened; :mod:`.rulings` reads and runs ruling cases
(docs/rulings.md); :mod:`.listing` lists and shows cards; :mod:`.rulebook` reads the
rules reference (docs/rules.md).  A tool may import the kernel, the language and the
games, never the command line (tests/test_layers.py); ``wgdsl.cli`` prints what they
return.
"""
