"""A text picture of a game state, from one player's side of the table.

``render_board(state, viewer)`` draws the 3×3 field (R1.2) with the viewer's my field at
the bottom — for ``B`` the grid is turned around, so B's my field ``B3 B2 B1`` is the
bottom row, read left to right from B's seat.  Each square shows its name, who holds it
(R1.4), the top card's id and short name, the stack size and the square's points (R1.5).
Around the grid: each player's standby slot by slot (ready or exhausted), hand, stock and
break sizes, pool and points, and on top the turn, the active player and the phase.

Japanese names are wide: columns are measured in display cells (East-Asian wide and
fullwidth characters count 2), so the grid lines up in a terminal.  The drawing itself
uses ASCII only (East-Asian "ambiguous" characters such as ``·`` or ``…`` are one cell in
some terminals and two in others).
"""

from __future__ import annotations

from typing import Optional

from wgdsl.terminal import printable
from wgdsl.width import display_width

from .state import OTHER, PLAYERS, ROWS, GameState, Instance

CELL = 22  # display cells inside a square's box


text_width = display_width


def fit(text: str, width: int) -> str:
    """``text`` cut (with ``~``) or padded with spaces to exactly ``width`` cells."""
    if text_width(text) <= width:
        return text + " " * (width - text_width(text))
    out, used = "", 0
    for ch in text:
        w = text_width(ch)
        if used + w > width - 1:
            break
        out += ch
        used += w
    out += "~"
    return out + " " * (width - text_width(out))


def _card(inst: Instance) -> str:
    """``ID name`` (a copy: ``ID=COPIED name``), control characters escaped so the grid
    is measured as the terminal shows it."""
    face = inst.face
    if inst.copy_of is not None:
        return printable(f"{inst.base.id}={face.id} {face.name}")
    return printable(f"{face.id} {face.name}")


def _square_lines(state: GameState, square: str) -> list[str]:
    stack = state.field[square]
    if not stack:
        return [f"{square}", "", "empty"]
    top = stack[-1]
    holder = state.holder(square)
    size = f"{len(stack)} card" + ("s" if len(stack) > 1 else "")
    return [f"{square}  held by {holder}", _card(top),
            f"{size}, {state.square_points(square)} pts"]


def _grid(state: GameState, viewer: str) -> list[str]:
    opponent = OTHER[viewer]
    rows = [ROWS[opponent], ROWS["C"], ROWS[viewer]]
    if viewer == "B":  # seen from the other side of the table: columns run 3, 2, 1
        rows = [tuple(reversed(r)) for r in rows]
    border = "+" + "+".join("-" * (CELL + 2) for _ in range(3)) + "+"
    out = [border]
    for row in rows:
        cells = [_square_lines(state, sq) for sq in row]
        for i in range(3):
            out.append("|" + "|".join(" " + fit(c[i], CELL) + " " for c in cells) + "|")
        out.append(border)
    return out


def _standby(state: GameState, player: str) -> str:
    slots = []
    for n, inst in enumerate(state.players[player].standby, start=1):
        if inst is None:
            slots.append(f"{n}:-")
        else:
            slots.append(f"{n}:{inst.face.id} {'exhausted' if inst.exhausted else 'ready'}")
    return "standby " + "  ".join(slots)


def _pool(state: GameState, player: str) -> str:
    pool = {c: n for c, n in state.players[player].pool.items() if n}
    if not pool:
        return "pool 0"
    parts = ", ".join(f"{c} {n}" for c, n in sorted(pool.items()))
    return f"pool {sum(pool.values())} ({parts})"


def _player_block(state: GameState, player: str, show_hand: bool) -> list[str]:
    p = state.players[player]
    role = "to play" if state.active == player else "waiting"
    held = state.squares_held(player)
    head = (f"{player} ({role}): {state.points(player)} points, "
            f"{held} square{'' if held == 1 else 's'} | hand {len(p.hand)} | "
            f"stock {len(p.stock)} | break {len(p.break_)} | {_pool(state, player)}")
    lines = [head, "  " + _standby(state, player)]
    if show_hand and p.hand:
        lines.append("  hand: " + ", ".join(_card(i) for i in p.hand))
    return lines


def render_board(state: GameState, viewer: str = "A", *, show_hand: bool = True) -> str:
    """The board as text, from ``viewer``'s side (their my field at the bottom).

    ``show_hand`` lists the viewer's own hand (the opponent's hand is only counted).
    """
    if viewer not in OTHER:
        raise ValueError(f"viewer must be `A` or `B`, not `{viewer}`")
    opponent = OTHER[viewer]
    status = f"Turn {state.turn} | {state.active} to play | {state.phase} phase"
    if state.played:
        status += " | played from hand"
    if state.stun_set:
        status += " | stun set"
    lines = [status]
    if state.winner is not None:
        reason = f" ({state.win_reason})" if state.win_reason else ""
        lines.append(f"*** {state.winner} wins{reason} ***")
    lines += _player_block(state, opponent, show_hand=False)
    lines += _grid(state, viewer)
    lines += _player_block(state, viewer, show_hand=show_hand)
    return "\n".join(lines)


# ------------------------------------------------------------------ the board as data
def _field_card(inst: Instance) -> dict:
    return {"id": inst.base.id, "copy_of": inst.copy_of.id if inst.copy_of is not None else None}


def _player_data(state: GameState, player: str) -> dict:
    p = state.players[player]
    return {
        "points": state.points(player),
        "squares": state.squares_held(player),
        "hand": [i.id for i in p.hand],
        "stock": [i.id for i in p.stock],  # top first
        "break": [i.id for i in p.break_],  # oldest first
        "standby": [None if s is None else {"card": s.id, "exhausted": s.exhausted}
                    for s in p.standby],
        "pool": {c: n for c, n in sorted(p.pool.items()) if n},
    }


def board_data(state: GameState) -> dict:
    """The board as plain data (the ``board`` object of docs/json.md): turn, phase, every
    square (``None`` when empty, else its holder, points and cards bottom to top) and
    each player's zones, points and pool."""
    field = {}
    for sq, stack in state.field.items():
        field[sq] = None if not stack else {
            "holder": state.holder(sq),
            "points": state.square_points(sq),
            "cards": [_field_card(i) for i in stack],
        }
    return {
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase,
        "first": state.first,
        "played": state.played,
        "stun_set": state.stun_set,
        "winner": state.winner,
        "win_reason": state.win_reason,
        "field": field,
        "players": {p: _player_data(state, p) for p in PLAYERS},
    }


def visible(state: GameState, inst: Instance, seat: str, zone: str) -> bool:
    """May ``seat`` know card ``inst`` in ``zone`` (R1.1, R1.6)?  Its own cards but a
    stock's, and the cards it has been shown (``GameState.known``).  The one test of
    what a seat sees: observations (below) and agents' views (:mod:`.view`) both use it."""
    if zone != "stock" and inst.owner == seat:
        return True
    known = state.known.get(inst.uid)
    return known is not None and seat in known


def _seen(state: GameState, inst: Instance, seat: str, zone: str) -> Optional[str]:
    """The card's id if ``seat`` may know it where it is, else None (:func:`visible`)."""
    return inst.id if visible(state, inst, seat, zone) else None


def observation_data(state: GameState, seat: str) -> dict:
    """The board as ``seat`` sees it: :func:`board_data` with every card hidden from that
    seat as ``None`` (every stock's cards, the other player's hand and face-down stuns),
    except the cards it has been shown (``GameState.known``)."""
    data = board_data(state)
    for p, pdata in data["players"].items():
        ps = state.players[p]
        pdata["stock"] = [_seen(state, i, seat, "stock") for i in ps.stock]
        pdata["hand"] = [_seen(state, i, seat, "hand") for i in ps.hand]
        pdata["standby"] = [None if s is None else
                            {"card": _seen(state, s, seat, "standby"), "exhausted": s.exhausted}
                            for s in ps.standby]
    return data
