"""IW01's abilities compiled from the card language (wgdsl/games/imitation_world/compile.py)
equal the records written by hand from the spec's table (tests/imitation_world_programs.py),
card by card; the vanilla cards compile to nothing; a construct the engine cannot carry out
is refused when the set is loaded, naming the card."""

from __future__ import annotations

import pytest

import wgdsl
from imitation_world_programs import PROGRAMS
from wgdsl.games.imitation_world.abilities import NONE, Abilities
from wgdsl.games.imitation_world.compile import compile_card

TABLE = wgdsl.load_game("imitation-world").table()


@pytest.mark.parametrize("ident", sorted(PROGRAMS))
def test_a_rules_card_compiles_to_its_records(ident):
    assert TABLE[ident].abilities == Abilities.of(PROGRAMS[ident])


def test_cards_without_abilities_compile_to_nothing():
    plain = [i for i, c in TABLE.cards.items() if c.abilities == NONE]
    assert sorted(set(TABLE.cards) - set(plain)) == sorted(PROGRAMS)
    assert {"IW-003", "IW-004", "IW-006", "IW-013", "IW-025", "IW-120"} <= set(plain)


def test_an_unknown_construct_is_refused_naming_the_card():
    import attrs

    from wgdsl.lang import ast

    card = TABLE["IW-012"]  # its source: `field when this is out: draw 1 card`
    from wgdsl.lang.cards import load_cards
    from wgdsl.lang.vocabulary import Vocabulary
    from wgdsl.lang.cards import card_set_path

    game = wgdsl.load_game("imitation-world")
    src = load_cards(card_set_path(game.spec), Vocabulary.from_spec(game.spec))["IW-012"].source
    eff = src.effects[0]
    odd = attrs.evolve(src, effects=(attrs.evolve(eff, event=attrs.evolve(eff.event,
                                                                        kind="leaves")),))
    with pytest.raises(ValueError, match="card IW-012: the Imitation World engine cannot "
                                         "carry out the event 'leaves'"):
        compile_card(odd)
    assert card.abilities.triggers[0].timing == "out"
    assert isinstance(eff, ast.Triggered)
