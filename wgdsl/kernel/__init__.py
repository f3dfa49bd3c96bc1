"""The kernel: what every game's engine shares and no game defines.

Today that is the errors an engine raises (:mod:`.errors`: an illegal action, effects that
never end), the event log (:mod:`.log`) and the public engine interface every game keeps
(:mod:`.api`: the Game/State protocols, the returns convention, how a ruling case's rule
and numbers match).  The kernel imports nothing else of wgdsl and
names no game's cards, zones or seats (tests/test_layers.py holds it to that).
"""
