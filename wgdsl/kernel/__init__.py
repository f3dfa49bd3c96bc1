"""The kernel: what every game's engine shares and no game defines.

Today that is the errors an engine raises (:mod:`.errors`: an illegal action, effects that
never end) and the event log (:mod:`.log`).  The kernel imports nothing else of wgdsl and
names no game's cards, zones or seats (tests/test_layers.py holds it to that).
"""
