"""The public engine interface every game keeps (docs: ../shared/spec/engine-api.md).

Two parts, both game-independent:

- the helpers that spec fixes for every game: :func:`returns_for` (the "Returns"
  convention), :func:`rule_matches` (how a ruling case's rule matches the rule cited),
  :func:`same_number` (numbers in a case's expectations compare by value);
- :class:`Game` and :class:`State`, :class:`typing.Protocol` classes naming what a game
  and its state provide.  They carry no code: a game satisfies them by having the names.
  ``tests/engine_api_props.py`` checks the invariants over random play for any of them.

The kernel imports nothing else of wgdsl (tests/test_layers.py).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Mapping, Optional, Protocol, Sequence, runtime_checkable


def returns_for(seats: Sequence[str], winners: Iterable[str]) -> dict[str, float]:
    """``{seat: return}`` of a game decided by winning (engine-api.md, "Returns"): a sole
    winner gets 1 and every other seat 0; winners who tie share 1 equally; no winner (a
    turn cap, a declared draw) gives every seat 1/N.  The returns sum to 1.

    A winner that is not one of ``seats`` is a bug of the caller: ValueError names it."""
    seats = tuple(seats)
    if not seats:
        raise ValueError("returns_for: no seats; a game has at least one seat")
    if len(set(seats)) != len(seats):
        raise ValueError(f"returns_for: a seat is named twice in {seats!r}")
    won = set(winners)
    unknown = sorted(won - set(seats))
    if unknown:
        raise ValueError(f"returns_for: winner(s) {unknown!r} not among the seats {seats!r}")
    if not won:
        won = set(seats)
    share = 1.0 / len(won)
    return {seat: (share if seat in won else 0.0) for seat in seats}


def rule_matches(expected: str, cited: str) -> bool:
    """Does a ruling case's ``expected`` rule match the rule an engine ``cited``?  Yes when
    they are equal, or when ``expected`` is a prefix of ``cited`` ending at a dot.  With
    a game whose rules are numbered T1, T2...: ``"T9"`` matches ``"T9"`` and ``"T9.2"``
    (and ``"T9.2.1"``), never ``"T19"`` or ``"T9a"``; ``"T9.2"`` never matches ``"T9"``.
    (The kernel names no game's rules, so the examples use a made-up numbering.)  An empty
    ``expected`` matches only an empty ``cited``."""
    if expected == cited:
        return True
    return bool(expected) and cited.startswith(expected + ".")


def same_number(a: Any, b: Any) -> bool:
    """Numbers compare by value (``40`` equals ``40.0``); anything else compares with
    ``==``.  A bool is not a number here (``True`` is not ``1``): a case that expects
    ``true`` must not pass on a count of 1.  Containers compare element by element under
    the same rule (a dict's keys exactly, its values by this rule)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float, Fraction)) and isinstance(b, (int, float, Fraction)):
        return a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same_number(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_number(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@runtime_checkable
class State(Protocol):
    """One game in progress (engine-api.md).  Actions are hashable, equal when they mean
    the same thing, have a stable ``str()`` and ``parse_action`` reads it back."""

    #: the seat names, in turn order (``("A", "B")`` for World Gainer)
    seats: tuple[str, ...]
    #: the event log: JSON-serialisable events, each with at least "turn", "seat",
    #: "kind", "text"
    log: list

    def is_terminal(self) -> bool:
        """True once the game has ended (a win, a score, a draw or the game's turn cap)."""

    def current_seats(self) -> tuple[str, ...]:
        """The seats that must act now: empty when terminal; several during a
        simultaneous window (each commits, hidden from the others)."""

    def legal_actions(self, seat: str) -> list:
        """The actions ``seat`` may take now; never empty for a current seat, empty for
        any other.  Answers to a pending choice (a "may", a target) are actions too."""

    def apply(self, seat: str, action: Any) -> None:
        """Take ``action`` for ``seat``.  An action not in ``legal_actions(seat)`` raises
        ``IllegalAction(reason, rule)`` and changes nothing (``to_dict()`` and the log)."""

    def clone(self) -> "State":
        """An independent copy, at any point (mid-effect too); the same actions on both
        give the same future (equal ``to_dict()`` and log)."""

    def observation(self, seat: str) -> dict:
        """JSON-serialisable: everything ``seat`` may know, nothing else (no other seat's
        hidden cards, no other seat's pending commit in a simultaneous window)."""

    def resample(self, seat: str, seed: int) -> "State":
        """A new state ``seat`` cannot tell from this one: the cards hidden from it
        re-dealt consistently with ``observation(seat)``, the random generator
        re-seeded.  This state is not changed."""

    def to_dict(self) -> dict:
        """JSON-serialisable: the whole state (for judges and tools)."""

    def returns(self) -> dict[str, float]:
        """At terminal, ``{seat: return}``: :func:`returns_for` for a game decided by
        winning, each seat's score for a game ranked by score."""

    def winners(self) -> tuple[str, ...]:
        """The seats that won (empty for a draw or a turn cap)."""

    def win_reason(self) -> str:
        """The rule that ended the game (also when nobody won)."""

    def parse_action(self, seat: str, text: str) -> Any:
        """The action whose ``str()`` is ``text`` for ``seat``; IllegalAction if none."""


@runtime_checkable
class Game(Protocol):
    """A game: its id, its name, how many seats it takes, and how to start one."""

    #: the game's id ("world-gainer", "getgem", ...)
    id: str
    #: the name shown to people ("GETGEM")
    name: str
    #: (smallest, largest) number of seats
    seat_range: tuple[int, int]

    def new_state(self, seed: int = 0, seats: Optional[int] = None, decks: Any = None,
                  cards: Any = None, options: Optional[dict] = None) -> State:
        """A new game: ``seats`` a count (default the game's smallest); ``decks`` and
        ``cards`` as the CLI's --deck/--cards; ``options`` the game's variants."""
