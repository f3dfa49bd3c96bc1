"""A described game's zone with places is a capacity (docs/games.md, "Zones"): a deal
passes over a full zone, a draw takes what fits, a move leaves what does not fit where it
was, and `put every card` into a zone too small for the cards is an error of the file."""

from __future__ import annotations

import wgdsl
from wgdsl.lang.game import compile_text

GAME = """\
game slots "Slots" {
  seats 2
  kind token {
    stat rank 1 to 9
  }
  card T-1 "One" token rank 1 copies 6
  card T-2 "Two" token rank 2 copies 6
  zone deck shared pile hidden
  zone hand per seat HAND public
  zone table shared TABLE public
  setup {
    put every card into deck
    deal DEAL from deck to hand
  }
  round {
    phase play {
      every seat chooses a card from hand at once
      reveal
      move played cards to table
      draw DRAW from deck to hand
    }
  }
  end {
    after 3 rounds: nobody wins
  }
}
"""


def game_file(tmp_path, hand="bag", table="bag", deal="all", draw="1"):
    path = tmp_path / "slots.game"
    path.write_text(GAME.replace("HAND", hand).replace("TABLE", table).replace("DEAL", deal)
                    .replace("DRAW", draw),
                    encoding="utf-8")
    return wgdsl.load_game(str(path))


def zone(state, name):
    return state.to_dict()["zones"][name]


def test_a_deal_stops_at_each_seats_places(tmp_path):
    state = game_file(tmp_path, hand="slots 4").new_state(seed=1, seats=2)
    hands = zone(state, "hand")
    assert [len(hands[s]) for s in ("A", "B")] == [4, 4]
    assert len(zone(state, "deck")) == 12 - 8
    # without places every card is dealt
    state = game_file(tmp_path).new_state(seed=1, seats=2)
    assert [len(zone(state, "hand")[s]) for s in ("A", "B")] == [6, 6]


def test_a_deal_of_n_each_is_cut_by_the_places(tmp_path):
    state = game_file(tmp_path, hand="slots 2", deal="3").new_state(seed=1, seats=2)
    assert [len(zone(state, "hand")[s]) for s in ("A", "B")] == [2, 2]
    assert len(zone(state, "deck")) == 8
    assert "(full: A's hand, B's hand)" in " ".join(e["text"] for e in state.log)


def test_a_move_leaves_what_does_not_fit_and_a_draw_takes_what_fits(tmp_path):
    state = game_file(tmp_path, hand="slots 3", table="slots 1", deal="3", draw="2").new_state(
        seed=2, seats=2)
    for seat in state.current_seats():
        state.apply(seat, state.legal_actions(seat)[0])
    table = zone(state, "table")
    assert len(table) == 1  # one place: the first seat's card; the other's stays played
    texts = [e["text"] for e in state.log]
    assert any("table is full: 1 card stays in" in t for t in texts), texts
    # each hand had 3 places and 2 cards after the choice: `draw 2` takes 1 each
    hands = zone(state, "hand")
    assert [len(hands[s]) for s in ("A", "B")] == [3, 3]
    assert len(zone(state, "deck")) == 12 - 6 - 2
    assert sum("draws 1 card from deck into hand (hand is full)" in t for t in texts) == 2


def test_put_every_card_into_too_few_places_is_an_error():
    text = GAME.replace("HAND", "bag").replace("TABLE", "bag").replace("DEAL", "all").replace(
        "DRAW", "1").replace(
        "zone deck shared pile hidden", "zone deck shared slots 10 hidden")
    spec, problems = compile_text(text, "slots.game")
    assert spec is None
    errors = [p for p in problems if p.severity == "error"]
    assert len(errors) == 1
    assert errors[0].message == "`deck` has 10 places for 12 cards"
    line = text.splitlines().index("    put every card into deck") + 1
    assert (errors[0].pos.line, errors[0].pos.col) == (line, len("    put every card into ") + 1)
