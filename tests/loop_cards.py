"""Card texts whose effects trigger each other without end, shared by the tests of the
loop warning (test_loops.py) and of the engine's runaway limit (test_engine_runaway.py)."""

# two cards that send each other's entering and leaving cards back and forth
# (the shape of ../shared/repro/22-loop-two-cards.wg)
TWO_CARDS = '''card LP-001 "門" en "Gate" {
  color red  cost 1
  field when your other card enters field:
    move that card to owner's break
}

card LP-002 "復活" en "Revive" {
  color red  cost 1
  field when your other card leaves field to break:
    move that card to an empty square of your my field
}
'''
