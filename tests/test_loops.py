"""The checker's warning for effects that can trigger each other without end (wgdsl/lang/loops.py).

Each card set below is small enough to follow by hand: the expected cycle is the chain of
events its text raises (R13.1 entering, leaving, R13.4 targeting), and the positions are
counted from the text as written."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.lang.cards import check_text, library_from_text
from wgdsl.resources import builtin_cards_path
from cli_helpers import at
from loop_cards import TWO_CARDS

ROOT = Path(__file__).resolve().parents[1]


def warnings(text: str, path: str = "t.wg"):
    cardset, diagnostics = check_text(text, path)
    assert all(d.severity == "warning" for d in diagnostics), [d.render(text) for d in diagnostics]
    return diagnostics


def test_a_card_that_puts_itself_back_onto_the_field():
    text = ('card LQ-001 "q" en "Q" {\n  color red  cost 1\n  dimension:\n'
            '    move this to an empty square of your my field\n}\n')
    [d] = warnings(text)
    assert at(d) == (4, 5)
    assert d.message == ("this effect can trigger itself without end: "
                         "LQ-001 (dimension) → LQ-001 (dimension)")
    assert "`move this to an empty square of your my field` puts a card onto the field" in d.hint
    assert "Effects that never end" in d.hint


def test_leaving_and_coming_back():
    text = ('card LP-001 "loop" {\n  color red  cost 1\n  dimension:\n'
            "    move this to owner's break\n"
            '  field when this leaves field:\n'
            '    move this to an empty square of your my field\n}\n')
    [d] = warnings(text)
    assert at(d) == (4, 5)
    assert ("LP-001 (dimension) → LP-001 (when this leaves field) → LP-001 (dimension)"
            in d.message)


def test_two_cards_that_send_a_card_back_and_forth():
    [d] = warnings(TWO_CARDS)
    assert at(d) == (4, 5)
    assert d.message == ("these effects can trigger each other without end: "
                         "LP-001 (when your other card enters field) → "
                         "LP-002 (when your other card leaves field to break) → "
                         "LP-001 (when your other card enters field)")


def test_a_response_that_targets_again():
    text = ('card RR-001 "echo" {\n  color red  cost 1\n'
            '  field when your other card on field becomes target:\n'
            '    choose an your other card on field\n}\n')
    [d] = warnings(text)
    assert at(d) == (4, 5) and "RR-001 (when your other card on field becomes target)" in d.message
    assert "targets a card" in d.hint


def test_may_and_if_do_not_hide_a_cycle():
    text = ('card LQ-001 "q" {\n  color red  cost 1\n  dimension:\n'
            '    if you hold fewer squares than opponent: may move this to an empty square of '
            'your my field\n}\n')
    [d] = warnings(text)
    assert at(d) == (4, 50)


@pytest.mark.parametrize("text", [
    # WG-006's pattern: it leaves the field and goes to the stock, not back onto the field
    'card N-001 "n" {\n  color red  cost 3\n  field when this leaves field to break:\n'
    "    move this to bottom of owner's stock\n}\n",
    # each round takes a card from the hand, and nothing puts one back: it ends with the hand
    'card G-001 "gift" {\n  color red  cost 1\n  dimension:\n'
    '    move a card named "gift" in your hand to an empty square of your my field\n}\n',
    # it empties the field: nothing comes back to leave it again
    'card S-001 "sweep" {\n  color red  cost 1\n  field when a card leaves field:\n'
    "    move every stack on field to owner's break\n}\n",
    # a cost-2 filter never picks the cost-3 card that would come back
    'card M-001 "m" {\n  color red  cost 2\n  field when your other card enters field:\n'
    "    move an opponent's card of cost 2 or less on battle field to owner's break\n}\n\n"
    'card R-001 "r" {\n  color red  cost 3\n  field when this leaves field to break:\n'
    '    move this to an empty square of your my field\n}\n',
    # a swap moves no card into or out of the field
    'card W-001 "w" {\n  color green  cost 3\n  field when your other card on field becomes target:\n'
    '    swap this with that card\n}\n',
])
def test_chains_that_end_are_not_warned(text):
    assert warnings(text) == []


@pytest.mark.parametrize("path", [builtin_cards_path(), ROOT / "examples" / "sets" / "expedition.wg"])
def test_the_shipped_sets_have_no_cycle(path):
    assert check_text(path.read_text(encoding="utf-8"), str(path))[1] == []


def test_a_cycle_through_an_included_card_is_reported_where_this_file_joins_it(tmp_path):
    base = tmp_path / "base.wg"
    base.write_text(TWO_CARDS.split("\ncard LP-002")[0] + "\n", encoding="utf-8")
    revive = TWO_CARDS[TWO_CARDS.index("card LP-002"):]
    text = 'include "base.wg"\n\n' + revive
    [d] = warnings(text, str(tmp_path / "more.wg"))
    assert d.path == str(tmp_path / "more.wg") and at(d) == (6, 5)
    assert "LP-002 (when your other card leaves field to break) → LP-001" in d.message
    # the included set alone has no cycle; a file that only includes it has none of its own
    assert warnings('include "base.wg"\n', str(tmp_path / "only.wg")) == []


def test_warnings_do_not_stop_a_set_from_loading():
    library = library_from_text(TWO_CARDS, "two.wg")
    assert [c.id for c in library] == ["LP-001", "LP-002"]


def test_an_error_still_stops_it_and_the_checker_reports_errors_first():
    text = TWO_CARDS.replace("color red  cost 1\n  field when your other card enters",
                             "color rouge  cost 1\n  field when your other card enters")
    diagnostics = check_text(text, "t.wg")[1]
    assert [d.severity for d in diagnostics] == ["error"]  # warnings wait for a sound set


def test_wgdsl_check_prints_warnings_and_exits_0(tmp_path):
    path = tmp_path / "two.wg"
    path.write_text(TWO_CARDS, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0
    assert f"{path}:4:5: warning: these effects can trigger each other without end" in result.output
    assert f"ok: 2 cards in {path} (1 warning)" in result.output


def test_wgdsl_check_with_an_error_and_a_warning_exits_1(tmp_path):
    path = tmp_path / "two.wg"
    # a syntax error in a third card: the checker still reads the other two
    path.write_text(TWO_CARDS + '\ncard X-1 "x" {\n  color red  cost 1\n  dimension:\n'
                    '    teleport this\n}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert "error: unknown action `teleport`" in result.output
    assert f"{path}: 1 error, 1 warning" in result.output


def _sets_to_compare():
    """WG01 with the loop cases above, copied into batches whose `named` references point
    at random batches and cost filters at random costs: sets with dense trigger graphs."""
    import random
    import re

    rng = random.Random(5)
    ending = test_chains_that_end_are_not_warned.pytestmark[0].args[1]
    parts = "\n".join([builtin_cards_path().read_text(encoding="utf-8"), TWO_CARDS, *ending,
                       'card RR-001 "echo" {\n  color red  cost 1\n'
                       '  field when your other card on field becomes target:\n'
                       '    choose an your other card on field\n}\n',
                       # events about named cards and cards of a cost
                       'card E-001 "e" {\n  color red  cost 2\n  field when a card named "e" '
                       "enters field:\n    move that card to owner's break\n}\n",
                       'card E-002 "f" {\n  color red  cost 1\n  field when a card of cost 2 or '
                       'less leaves field to break:\n    move a card named "e" in your break to '
                       'an empty square of your my field\n}\n',
                       'card E-003 "g" {\n  color red  cost 3\n  field when your other card of '
                       "cost 3 or more enters field:\n    move a card of cost 1 or less on field "
                       "to owner's break\n}\n",
                       'card E-004 "h" {\n  color red  cost 1\n  field when a card named "f" '
                       'becomes target:\n    choose a card named "h" on field\n}\n'])
    bodies = re.findall(r'^card \S+ "([^"]*)"(?: en "[^"]*")? \{\n(.*?)^\}\n', parts, re.M | re.S)
    for count in (40, 150, 400):
        picked = [bodies[rng.randrange(len(bodies))] for _ in range(count)]
        named = [f"{name} {k}" for k, (name, _) in enumerate(picked)]
        out = []
        for k, (name, body) in enumerate(picked):
            body = re.sub(r'named "([^"]*)"', lambda m: f'named "{rng.choice(named)}"', body)
            body = re.sub(r"of cost \d", lambda m: f"of cost {rng.randrange(6)}", body)
            out.append(f'card Z-{k:04d} "{name} {k}" {{\n{body}}}\n')
        yield "\n".join(out)


def test_the_linear_reach_graph_has_the_trigger_graphs_components():
    """find_loops groups the effects by a graph of hubs (linear in the set's size); its
    strongly connected components are those of the full trigger graph."""
    from wgdsl.lang import loops
    from wgdsl.lang.parser import parse

    seen_cycles = 0
    for text in _sets_to_compare():
        cardset, syntax = parse(text, "z.wg")
        assert syntax == []
        cards = loops._cards(cardset, ())
        nodes = loops._nodes(cards)

        def groups(comp):
            members: dict = {}
            for n in nodes:
                members.setdefault(comp[n], set()).add(n.order)
            return {n.order: frozenset(members[comp[n]]) for n in nodes}

        edges = loops._edges(nodes, cards)
        reach = loops._reach_graph(nodes, loops._copier_ids(cards))
        for n in nodes:  # through hubs, each node leads to the nodes its edges lead to
            found, stack = set(), list(reach[n])
            while stack:
                v = stack.pop()
                if isinstance(v, loops._Hub):
                    stack.extend(reach[v])
                else:
                    found.add(v.order)
            assert found == {m.order for m in edges[n]}, n.name
        full = groups(loops._components(nodes, edges))
        assert groups(loops._components(nodes, reach)) == full
        seen_cycles += sum(len(g) > 1 for g in full.values())
    assert seen_cycles > 20  # the sets do have effects that trigger each other
