"""GETGEM ruling cases (``[case] game = "getgem"``): read, validate, run.

The format is getgem.md's "What a ruling case needs": the same kind of TOML tables as
World Gainer's cases (wgdsl.tools.rulings), with a board of 2 to 5 seats, shared zones,
scripted random outcomes (``[random]``: no seed) and answers from any seat.  A case drives
the engine through the public interface: the runner builds the board
(wgdsl.games.getgem.board), gives each step to ``state.apply``, answers the questions from
``[answers]`` — a question with one answer, and a random event with one outcome, are settled
without using an entry — and compares what ``[expect]`` writes.

Every problem of a bad case names its line (``path:LINE: [table] key: ...``), as for
World Gainer's cases; a bad case is never run.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Optional

import attrs

from wgdsl.files import exists as files_exists
from wgdsl.lang.diagnostics import did_you_mean

from .rulings import Result, _Loader, loaded
from .toml_text import cut, shown, type_name

GAME_ID = "getgem"
SEATS = ("A", "B", "C", "D", "E")
ELEMENTS = ("fire", "water", "thunder")
PHASES = ("draw", "action", "end")
EFFECTS_OF_STEP = ("steal_push", "peeping", "barrier")

TOP_KEYS = ("case", "state", "random", "answers", "step", "expect")
CASE_KEYS = ("id", "game", "source", "question", "answer", "cards")
STATE_KEYS = ("players", "active", "turn", "phase", "peeping_used", "max_turns", "table") + SEATS
TABLE_KEYS = ("deck", "discard")
SEAT_KEYS = ("hand", "elements", "declared")
RANDOM_KEYS = ("take", "shuffle")
STEP_KEYS = {  # action -> (required keys, optional keys)
    "use": (("card",), ("effect", "target")),
    "gem_steal": (("cards", "target"), ()),
    "element": (("element",), ()),
    "declare": (("cards",), ()),
    "next": ((), ()),
    "end_turn": ((), ()),
}
EXPECT_KEYS = ("winner", "over", "returns", "turn", "active", "phase", "peeping_used",
               "revealed", "match_points", "next_first", "table", "knows") + SEATS
EXPECT_SEAT_KEYS = ("hand", "declared", "hand_count", "declared_count", "elements",
                    "declaring", "cursed", "covers")
EXPECT_TABLE_KEYS = ("deck", "deck_count", "discard_count", "deck_top", "discard", "supply")


@attrs.define
class GGStep:
    action: str
    player: Optional[str] = None
    card: Optional[str] = None
    effect: Optional[str] = None
    target: Optional[str] = None
    cards: tuple = ()
    element: Optional[str] = None
    illegal: bool = False

    def describe(self, seat: str) -> str:
        parts = [f"step {self.action}"]
        for value in (self.card, self.effect, *self.cards, self.element, self.target):
            if value:
                parts.append(value)
        return " ".join(parts) + f" by {seat}"


@attrs.define
class GGCase:
    id: str
    path: str
    game: Any
    board: Any
    source: str = ""
    question: str = ""
    answer: str = ""
    takes: list = attrs.Factory(list)
    shuffles: list = attrs.Factory(list)
    answers: dict = attrs.Factory(dict)  # seat -> [answers]
    steps: list = attrs.Factory(list)
    expect: dict = attrs.Factory(dict)  # table -> key -> value, as written
    id_line: int = 0


# ====================================================================== loading
class _GGLoader(_Loader):
    """Validates a GETGEM case (the helpers of World Gainer's loader: keys with did-you-mean,
    types, tables, lines)."""

    def __init__(self, path: Path, lines):
        super().__init__(path, None, lines)
        self.game = None
        self.seats: tuple = ()

    def card_id(self, value: Any, where: str, at: tuple) -> Optional[str]:
        if not isinstance(value, str):
            self.problem(where, f"a card id must be a string, not {type_name(value)} "
                                f"`{shown(value)}`", at=at)
            return None
        cards = self.game.table.cards if self.game is not None else {}
        if value not in cards or cards[value].kind == "element":
            hint = did_you_mean(value, [i for i, c in cards.items() if c.kind != "element"])
            if value in cards:
                hint = "element cards are written by name under `elements`"
            self.problem(where, f"unknown card id `{cut(value)}`", hint, at=at)
            return None
        return value

    def ids(self, table: dict, key: str, where: str, at: tuple) -> list:
        """``table[key]``: a list of card ids (the valid ones; [] when absent)."""
        if key not in table:
            return []
        return self.id_items(table[key], where, f"{where} {key}", f"`{key}`", at + (key,))

    def id_items(self, value: Any, where: str, item_where: str, what: str, at: tuple) -> list:
        """``value`` (``what``, written at ``at``): a list of card ids, each bad one a
        problem at its own item."""
        if not isinstance(value, list):
            self.problem(where, f"{what} must be a list of card ids, not {type_name(value)}",
                         at=at)
            return []
        out = []
        for n, item in enumerate(value):
            cid = self.card_id(item, item_where, at + (n,))
            if cid is not None:
                out.append(cid)
        return out

    def element_names(self, table: dict, key: str, where: str, at: tuple) -> Optional[list]:
        """``table[key]``: a list of element names, sorted; None after a problem."""
        value = table.get(key)
        if not isinstance(value, list):
            self.problem(where, f"`{key}` must be a list of element names (fire, water, "
                                f"thunder), not {type_name(value)}", at=at + (key,))
            return None
        names = [self.one_of(e, ELEMENTS, f"{where} {key}", "an element", at + (key, n))
                 for n, e in enumerate(value)]
        return None if None in names else sorted(names)

    def seat(self, value: Any, where: str, at: tuple) -> Optional[str]:
        return self.one_of(value, self.seats or SEATS, where, "a seat", at)

    def load(self, data: dict) -> Optional[GGCase]:
        case_t, case_id, texts = self.case_header(data, TOP_KEYS, CASE_KEYS)
        self.game = self.load_game(case_t)
        if self.game is None:
            return None
        board = self.load_state(data)
        case = GGCase(id=case_id or "", path=str(self.path), game=self.game, board=board, **texts)
        if self.lines is not None:
            case.id_line = self.lines.line(("case", "id"))
        self.load_random(data, case)
        self.load_answers(data, case)
        self.load_steps(data, case)
        self.load_expect(data, case)
        return None if self.problems else case

    def load_game(self, case_t: dict):
        from wgdsl.games import load_game

        rel = self.typed(case_t, "cards", str, "[case]", ("case",))
        if rel is None:
            return load_game(GAME_ID)
        at, where = ("case", "cards"), "[case] cards"
        rule = ("`cards` is a relative path to a GETGEM game file (`.game`, a copy of "
                "wgdsl/games/getgem/getgem.game) under the case file's folder or the one above")
        written = Path(rel)
        if "\x00" in rel or not rel.endswith(".game") or written.is_absolute():
            self.problem(where, f"`{cut(rel)}` is not a GETGEM card set", rule, at=at)
            return None
        path = self.path.parent / written
        try:
            real, home = path.resolve(), self.path.parent.resolve()
        except (OSError, RuntimeError, ValueError):
            self.problem(where, f"`{cut(rel)}` cannot be followed", rule, at=at)
            return None
        if not real.is_relative_to(home.parent):
            self.problem(where, f"`{cut(rel)}` leads outside the case file's folder and the "
                                "folder above it", rule, at=at)
            return None
        if not files_exists(path):
            self.problem(where, f"no game file `{cut(rel)}` (the path is relative to the case "
                                "file)", at=at)
            return None
        try:
            game = load_game(path)
        except ValueError as err:
            self.problem(where, f"`{cut(rel)}` cannot be played: "
                                + str(err).splitlines()[0], at=at)
            return None
        if getattr(game, "id", None) != GAME_ID or not hasattr(game, "table"):
            self.problem(where, f"`{cut(rel)}` is not a GETGEM game file", rule, at=at)
            return None
        return game

    # ---------------------------------------------------------------- [state]
    def load_state(self, data: dict):
        from wgdsl.games.getgem.board import Board

        state_t = self.table(data, "state", "top level", ())
        self.keys(state_t, STATE_KEYS, "[state]", ("state",))
        board = Board()
        at = ("state",)
        players = self.typed(state_t, "players", int, "[state]", at, 2)
        if not 2 <= players <= 5:
            self.problem("[state]", f"`players` is 2 to 5, not {players}", at=at + ("players",))
            players = 2
        board.players = players
        self.seats = SEATS[:players]
        for s in SEATS[players:]:
            if s in state_t:
                self.problem("[state]", f"a table for seat {s}, but only {players} players play "
                                        f"({', '.join(self.seats)})", at=at + (s,))
        if "active" in state_t:
            board.active = self.seat(state_t["active"], "[state] active", at + ("active",)) or "A"
        board.turn = self.typed(state_t, "turn", int, "[state]", at)
        if board.turn is not None and board.turn < 1:
            self.problem("[state]", "`turn` is at least 1", at=at + ("turn",))
        if "phase" in state_t:
            board.phase = self.one_of(state_t["phase"], PHASES, "[state] phase", "the phase",
                                      at + ("phase",)) or "action"
        board.peeping_used = self.typed(state_t, "peeping_used", bool, "[state]", at, False)
        board.max_turns = self.typed(state_t, "max_turns", int, "[state]", at, 500)
        if board.max_turns < 1:
            self.problem("[state]", "`max_turns` is at least 1 (GG R15)", at=at + ("max_turns",))
        turn = board.turn if board.turn is not None else SEATS.index(board.active) + 1
        if turn > board.max_turns:
            self.problem("[state]", f"`turn` {turn} is beyond `max_turns` {board.max_turns}",
                         at=at + ("turn",))
        if board.peeping_used and board.phase == "draw":
            self.problem("[state]", "`peeping_used = true` with `phase = \"draw\"`: nothing is "
                                    "used before the draw", at=at + ("peeping_used",))
        table_t = self.table(state_t, "table", "[state]", at)
        self.keys(table_t, TABLE_KEYS, "[state.table]", at + ("table",))
        board.deck = self.ids(table_t, "deck", "[state.table]", at + ("table",))
        board.discard = self.ids(table_t, "discard", "[state.table]", at + ("table",))
        owners: dict = {}
        for s in self.seats:
            seat_t = self.table(state_t, s, "[state]", at)
            where, sat = f"[state.{s}]", at + (s,)
            self.keys(seat_t, SEAT_KEYS, where, sat)
            board.hands[s] = self.ids(seat_t, "hand", where, sat)
            board.declared[s] = self.ids(seat_t, "declared", where, sat)
            if len(board.declared[s]) > 3:
                self.problem(where, f"`declared` holds {len(board.declared[s])} cards; a seat "
                                    "has at most 3 declaration cards (GG R11.2)",
                             at=sat + ("declared",))
            board.elements[s] = []
            owned = self.element_names(seat_t, "elements", where, sat) if "elements" in seat_t \
                else []
            for n, name in enumerate(owned or ()):
                if name in owners:
                    self.problem(where, f"the {name} element card is owned by {owners[name]} "
                                        "already (one of each)", at=sat + ("elements", n))
                owners[name] = s
                board.elements[s].append(name)
        self.check_copies(state_t, board)
        return board

    def check_copies(self, state_t: dict, board) -> None:
        """No id more often on the whole board than the set has copies (getgem.md "The
        board"): the problem is put at the first copy too many, in the order written."""
        def written(name: str) -> dict:
            value = state_t.get(name)
            return value if isinstance(value, dict) else {}

        at = ("state",)
        places = [(at + ("table", k), "[state.table]", written("table").get(k))
                  for k in TABLE_KEYS]
        places += [(at + (s, k), f"[state.{s}]", written(s).get(k))
                   for s in self.seats for k in ("hand", "declared")]
        copies = Counter(self.game.table.basic)
        total = Counter(board.deck + board.discard)
        for s in self.seats:
            total.update(board.hands[s] + board.declared[s])
        seen: Counter = Counter()
        for path, where, value in places:
            for n, cid in enumerate(value if isinstance(value, list) else ()):
                if not isinstance(cid, str) or cid not in copies:
                    continue
                seen[cid] += 1
                if seen[cid] == copies[cid] + 1:
                    self.problem(f"{where} {path[-1]}", f"{cid} appears {total[cid]} times on "
                                 f"the board, but the set has {copies[cid]} (GG R2.5)",
                                 at=path + (n,))

    # ---------------------------------------------------------------- [random], [answers]
    def load_random(self, data: dict, case: GGCase) -> None:
        t = self.table(data, "random", "top level", ())
        self.keys(t, RANDOM_KEYS, "[random]", ("random",))
        case.takes = self.ids(t, "take", "[random]", ("random",))
        shuffles = t.get("shuffle", [])
        if not isinstance(shuffles, list):
            self.problem("[random]", "`shuffle` must be a list of decks (lists of card ids)",
                         at=("random", "shuffle"))
            shuffles = []
        for n, deck in enumerate(shuffles):
            case.shuffles.append(self.id_items(deck, "[random]", "[random] shuffle",
                                               f"deck {n + 1} of `shuffle`",
                                               ("random", "shuffle", n)))

    def load_answers(self, data: dict, case: GGCase) -> None:
        t = self.table(data, "answers", "top level", ())
        self.keys(t, self.seats, "[answers]", ("answers",))
        for s in self.seats:
            value = t.get(s, [])
            if not isinstance(value, list):
                self.problem("[answers]", f"`{s}` must be a list of answers, not "
                                          f"{type_name(value)}", at=("answers", s))
                continue
            out = []
            for n, a in enumerate(value):
                if a in ("yes", "no") or self.answer_id(a, s, ("answers", s, n)):
                    out.append(a)
            case.answers[s] = out

    def answer_id(self, value: Any, seat: str, at: tuple) -> bool:
        """Whether ``value`` is a card id of the set (an answer other than yes / no)."""
        cards = self.game.table.cards
        if isinstance(value, str) and value in cards and cards[value].kind != "element":
            return True
        hint = None
        if isinstance(value, str) and value not in cards:
            hint = did_you_mean(value, ["yes", "no"] + [i for i, c in cards.items()
                                                       if c.kind != "element"])
        if isinstance(value, str):
            message = f"answer `{cut(value)}` is neither yes, no nor a card id of the set"
        else:
            message = (f"an answer is a string (yes, no or a card id), not {type_name(value)} "
                       f"`{shown(value)}`")
        self.problem(f"[answers] {seat}", message, hint, at=at)
        return False

    # ---------------------------------------------------------------- [[step]]
    def load_steps(self, data: dict, case: GGCase) -> None:
        for where, at, t, action in self.step_tables(data, STEP_KEYS):
            need, may = STEP_KEYS[action]
            self.keys(t, ("action", "player", "expect") + need + may, where, at,
                      f"`{action}` takes {', '.join(need + may) or 'no other keys'}")
            for key in need:
                if key not in t:
                    self.problem(where, f"`{action}` needs `{key}`", at=at)
            step = GGStep(action)
            if "player" in t:
                step.player = self.seat(t["player"], f"{where} player", at + ("player",))
            if "expect" in t:
                if t["expect"] != "illegal":
                    self.problem(where, f"`expect` is \"illegal\" or absent, not "
                                        f"`{shown(t['expect'])}`", at=at + ("expect",))
                step.illegal = True
            if "card" in t:
                step.card = self.card_id(t["card"], f"{where} card", at + ("card",))
            if "effect" in t:
                step.effect = self.one_of(t["effect"], EFFECTS_OF_STEP, f"{where} effect",
                                          "an effect", at + ("effect",))
            if "target" in t:
                step.target = self.seat(t["target"], f"{where} target", at + ("target",))
            if "cards" in t:
                step.cards = tuple(sorted(self.ids(t, "cards", where, at)))
            if "element" in t:
                step.element = self.one_of(t["element"], ELEMENTS, f"{where} element",
                                           "the element", at + ("element",))
            case.steps.append(step)

    # ---------------------------------------------------------------- [expect]
    def load_expect(self, data: dict, case: GGCase) -> None:
        t = self.table(data, "expect", "top level", ())
        at = ("expect",)
        self.keys(t, EXPECT_KEYS, "[expect]", at)
        out: dict = {"": {}}
        for key in ("winner", "active", "next_first"):
            if key in t:
                allowed = self.seats + (("none",) if key == "winner" else ())
                if self.one_of(t[key], allowed, f"[expect] {key}", "a seat", at + (key,)):
                    out[""][key] = t[key]
        for key, kind in (("over", bool), ("peeping_used", bool), ("turn", int)):
            if key in t and self.typed(t, key, kind, "[expect]", at) is not None:
                out[""][key] = t[key]
        if "phase" in t and self.one_of(t["phase"], ("action", "end"), "[expect] phase",
                                        "the phase", at + ("phase",)):
            out[""]["phase"] = t["phase"]
        if "revealed" in t:
            value = t["revealed"]
            if isinstance(value, list) and all(v in self.seats for v in value):
                out[""]["revealed"] = list(value)
            else:
                self.problem("[expect]", "`revealed` is a list of seats", at=at + ("revealed",))
        for key, kind in (("returns", (int, float)), ("match_points", int)):
            if key in t:
                value = t[key]
                if not isinstance(value, dict) or any(
                        s not in self.seats or isinstance(v, bool) or not isinstance(v, kind)
                        for s, v in value.items()):
                    self.problem("[expect]", f"`{key}` maps seats to numbers", at=at + (key,))
                elif key == "returns" and set(value) != set(self.seats):
                    self.problem("[expect]", "`returns` names every seat", at=at + (key,))
                else:
                    out[""][key] = dict(value)
        for s in self.seats:
            if s not in t:
                continue
            seat_t = self.table(t, s, "[expect]", at)
            where, sat = f"[expect.{s}]", at + (s,)
            self.keys(seat_t, EXPECT_SEAT_KEYS, where, sat)
            got: dict = {}
            for key in ("hand", "declared"):
                if key in seat_t:
                    got[key] = self.ids(seat_t, key, where, sat)
            for key in ("hand_count", "declared_count"):
                if self.typed(seat_t, key, int, where, sat) is not None:
                    got[key] = seat_t[key]
            for key in ("declaring", "cursed", "covers"):
                if self.typed(seat_t, key, bool, where, sat) is not None:
                    got[key] = seat_t[key]
            if "elements" in seat_t:
                names = self.element_names(seat_t, "elements", where, sat)
                if names is not None:
                    got["elements"] = names
            out[s] = got
        for s in SEATS[len(self.seats):]:
            if s in t:
                self.problem("[expect]", f"seat {s} does not play", at=at + (s,))
        if "table" in t:
            table_t = self.table(t, "table", "[expect]", at)
            where, tat = "[expect.table]", at + ("table",)
            self.keys(table_t, EXPECT_TABLE_KEYS, where, tat)
            got = {}
            for key in ("deck", "discard"):
                if key in table_t:
                    got[key] = self.ids(table_t, key, where, tat)
            for key in ("deck_count", "discard_count"):
                if self.typed(table_t, key, int, where, tat) is not None:
                    got[key] = table_t[key]
            if "deck_top" in table_t:
                cid = self.card_id(table_t["deck_top"], f"{where} deck_top", tat + ("deck_top",))
                if cid is not None:
                    got["deck_top"] = cid
            if "supply" in table_t:
                names = self.element_names(table_t, "supply", where, tat)
                if names is not None:
                    got["supply"] = names
            out["table"] = got
        if "knows" in t:
            knows_t = self.table(t, "knows", "[expect]", at)
            kat = at + ("knows",)
            got = {}
            for v, row in knows_t.items():
                if v not in self.seats:
                    self.problem("[expect.knows]", f"unknown seat `{cut(str(v))}`", at=kat + (v,))
                    continue
                if not isinstance(row, dict):
                    self.problem("[expect.knows]", f"`{v}` maps seats to lists of card ids",
                                 at=kat + (v,))
                    continue
                for h in row:
                    if h == v:
                        self.problem("[expect.knows]", f"`{v}` is paired with itself",
                                     at=kat + (v, h))
                    elif h not in self.seats:
                        self.problem("[expect.knows]", f"unknown seat `{cut(str(h))}`",
                                     at=kat + (v, h))
                    else:
                        got[(v, h)] = self.ids(row, h, f"[expect.knows] {v}", kat + (v,))
            out["knows"] = got
        case.expect = out


def load(path: Path, data: dict, lines) -> GGCase:
    """The case in the parsed TOML ``data``; CaseProblems lists every problem."""
    return loaded(_GGLoader(path, lines), data)


# ====================================================================== running
class Stop(Exception):
    """The case fails: the message says why."""


class ScriptedChance:
    """``[random]``: each random take and refill uses the next entry, which must be a
    possible outcome (getgem.md "Random outcomes")."""

    def __init__(self, takes: list, shuffles: list):
        self.takes, self.shuffles = list(takes), [list(s) for s in shuffles]
        self.used_takes = self.used_shuffles = 0

    def take(self, hand: list) -> str:
        if self.used_takes == len(self.takes):
            raise Stop(f"a random take from {_list(hand)} found no `[random] take` entry left")
        card = self.takes[self.used_takes]
        if card not in hand:
            raise Stop(f"`[random] take` entry {self.used_takes + 1}, {card}, is not in the "
                        f"hand it is taken from ({_list(hand)})")
        self.used_takes += 1
        return card

    def shuffle(self, cards: list) -> list:
        if self.used_shuffles == len(self.shuffles):
            raise Stop(f"a refill of {_list(cards)} found no `[random] shuffle` entry left")
        deck = self.shuffles[self.used_shuffles]
        if Counter(deck) != Counter(cards):
            raise Stop(f"`[random] shuffle` entry {self.used_shuffles + 1} ({_list(deck)}) is "
                        f"not the discard pile's cards ({_list(sorted(cards))})")
        self.used_shuffles += 1
        return list(deck)

    def left(self) -> list:
        out = []
        if self.used_takes < len(self.takes):
            out.append(f"take: {_list(self.takes[self.used_takes:])}")
        if self.used_shuffles < len(self.shuffles):
            out.append(f"shuffle: {len(self.shuffles) - self.used_shuffles} deck(s)")
        return out


def _list(items) -> str:
    return "[" + ", ".join(items) + "]"


def run(case: GGCase, keep: Optional[dict] = None) -> Result:
    """Run ``case``: its steps, the questions they raise, its expectations, and nothing of
    ``[answers]`` or ``[random]`` left over.

    Only the public interface is used (GG R18 and the state's plain reads): ``apply`` with
    GG R18.3's actions read by ``parse_action``, ``pending_decision`` and ``legal_actions``
    for the questions, ``to_dict`` and ``returns`` for what is compared — so a case checks
    the engine as every caller sees it."""
    from wgdsl.games.getgem.board import state_from_board
    from wgdsl.kernel.errors import IllegalAction

    def fail(message: str) -> Result:
        return Result(case.path, case.id, False, message)

    def used() -> tuple:
        return chance.used_takes, chance.used_shuffles, {s: len(a) for s, a in answers.items()}

    chance = ScriptedChance(case.takes, case.shuffles)
    answers = {s: list(a) for s, a in case.answers.items()}
    try:
        state = state_from_board(case.game, case.board, chance)
        if keep is not None:
            keep["state"] = state
        _settle(state, answers)
        for step in case.steps:
            seat = step.player or state.active
            label = step.describe(seat)
            before, marks = state.to_dict(), used()
            try:
                _apply_step(state, seat, step, answers)
            except IllegalAction as err:
                if state.to_dict() != before or used() != marks:
                    return fail(f"{label} was refused ({err}) but the state changed")
                if not step.illegal:
                    return fail(f"{label} was refused: {err}")
                continue
            if step.illegal:
                return fail(f"{label} was accepted, but the case expects it to be refused")
    except Stop as err:
        return fail(str(err))
    except Exception as err:  # an engine bug must not hide the other cases
        return fail(f"the engine failed: {type(err).__name__}: {err}")
    diff = case_difference(case, state)
    if diff is not None:
        return fail(diff)
    left = [f"{s}: {_list(a)}" for s, a in answers.items() if a] + chance.left()
    if left:
        return fail("left unused: " + "; ".join(left))
    return Result(case.path, case.id, True)


def action_text(step: GGStep, at_declaration: bool) -> str:
    """The step as GG R18.3 writes the move (card ids of `cards` ascending): `next` and
    `end_turn` are `pass` at the declaration point and `end` in the action phase."""
    if step.action == "use":
        return " ".join(w for w in ("use", step.card, step.effect, step.target) if w)
    if step.action == "gem_steal":
        return " ".join(("gem_steal",) + step.cards + (step.target,))
    if step.action == "element":
        return f"element {step.element}"
    if step.action == "declare":
        return " ".join(("declare",) + step.cards)
    return "pass" if at_declaration else "end"


def _apply_step(state, seat: str, step: GGStep, answers: dict) -> None:
    """Give ``step`` to the engine, then settle the questions; ``next`` / ``end_turn`` /
    ``declare`` go on to where the case waits (getgem.md's step table).  A refusal is the
    engine's IllegalAction: a step after the game is over, by a seat that is not active
    (GG R4.4), or that no rule allows."""
    at_declaration = not state.is_terminal() and state.phase == "end"
    state.apply(seat, state.parse_action(seat, action_text(step, at_declaration)))
    _settle(state, answers)
    if step.action == "end_turn" and not at_declaration and not state.is_terminal():
        state.apply(seat, state.parse_action(seat, "pass"))
        _settle(state, answers)


def _settle(state, answers: dict) -> None:
    """Answer every pending question: by itself when it has one answer, else the asked
    seat's next `[answers]` entry."""
    from wgdsl.games.getgem.moves import written_answer

    while (q := state.pending_decision()) is not None:
        seat = q.seat
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            state.apply(seat, legal[0])
            continue
        queue = answers.get(seat, [])
        if not queue:
            raise Stop(f"{seat} is asked `{q.kind}` ({', '.join(a.option for a in legal)}) "
                        f"and has no answer left in [answers]")
        written = queue.pop(0)
        answer = written_answer(legal, written)
        if answer is None:
            raise Stop(f"{seat}'s answer `{written}` to `{q.kind}` is not one of: "
                        f"{', '.join(a.option for a in legal)}")
        state.apply(seat, answer)


def case_difference(case: GGCase, state) -> Optional[str]:
    """The first expectation the state does not meet, in the order of getgem.md's table
    (the game, then each seat, the table and what each seat knows), or None."""
    from wgdsl.games.getgem import rules

    exp = case.expect
    data = state.to_dict()
    top = exp.get("", {})
    if "winner" in top:
        got = data["winner"] or "none"
        if got != top["winner"]:
            return f"winner: expected {top['winner']} but was {got}"
    for key in ("over", "turn", "active", "phase", "peeping_used", "revealed", "next_first"):
        if key in top:
            if key == "next_first" and not data["over"]:
                return "next_first: the game is not over"
            got = data[key]
            if got != top[key]:
                return f"{key}: expected {_shown(top[key])} but was {_shown(got)}"
    for key in ("returns", "match_points"):
        if key in top:
            if not data["over"]:
                return f"{key}: the game is not over"
            got = state.returns() if key == "returns" else data["match_points"]
            for s, v in top[key].items():
                if abs(got[s] - v) > 1e-9:
                    return f"{key}.{s}: expected {v} but was {got[s]}"
    table = case.game.table
    for s in data["seats"]:
        want = exp.get(s)
        if not want:
            continue
        hand, front = data["hands"][s], data["fronts"][s]
        declared, owned = front["declared"], front["elements"]
        cursed = rules.is_cursed(table, hand, declared)
        got = {"hand": hand, "declared": declared, "hand_count": len(hand),
               "declared_count": len(declared), "elements": sorted(owned),
               "declaring": bool(declared), "cursed": cursed,
               "covers": rules.covers(table, hand, owned, cursed)}
        for key, value in want.items():
            if key in ("hand", "declared"):
                if Counter(value) != Counter(got[key]):
                    return f"{s}.{key}: expected {_list(sorted(value))} but was {_list(got[key])}"
            elif got[key] != value:
                return f"{s}.{key}: expected {_shown(value)} but was {_shown(got[key])}"
    want = exp.get("table", {})
    got = {"deck": data["deck"], "deck_count": len(data["deck"]),
           "discard_count": len(data["discard"]), "discard": data["discard"],
           "supply": sorted(data["supply"])}
    for key, value in want.items():
        if key == "deck_top":
            if not data["deck"] or data["deck"][0] != value:
                return f"table.deck_top: expected {value} but the deck is {_list(data['deck'])}"
        elif key == "discard":
            if Counter(value) != Counter(got[key]):
                return (f"table.discard: expected {_list(sorted(value))} but was "
                        f"{_list(sorted(got[key]))}")
        elif got[key] != value:
            return f"table.{key}: expected {_shown(value)} but was {_shown(got[key])}"
    for (v, h), value in exp.get("knows", {}).items():
        known = data["known"][v][h]
        if Counter(value) != Counter(known):
            return f"knows.{v}.{h}: expected {_list(sorted(value))} but was {_list(known)}"
    return None


def _shown(value) -> str:
    if isinstance(value, list):
        return _list([str(v) for v in value])
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
