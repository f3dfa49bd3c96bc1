"""Ruling cases: TOML files that pin down how a card or rule behaves.

The format is specified in ``shared/spec/ruling-format.md``: ``[case]`` (id, source,
question, answer, optional card set), ``[state]`` (the board, taken as printed),
``[answers]`` (scripted answers per player), ``[[step]]`` (actions) and ``[expect]``
(what must be true afterwards; only what is written is compared).

:func:`load_case` reads and validates one file and returns the case or the list of
problems found (each a readable sentence naming where in the file it is; never a
traceback).  :func:`run_case` builds the board, wraps it in a
:class:`~wgdsl.engine.Game` with a :class:`~wgdsl.agents.ScriptedAgent` per player, runs
the steps and compares the expectations; it returns a :class:`Result` whose message is
the first difference, e.g. ``A.hand: expected [XX-009] but was [XX-009, XX-006]``.
:func:`run_paths` does both for files and directories (``*.toml``, recursively) and
reports duplicate case ids across files.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Union

import attrs

from .cards import CardLibrary, load_cards
from .decks import unknown_id_hint
from .diagnostics import DiagnosticError, did_you_mean
from .state import OTHER, PHASES, PLAYERS, POINT_COLORS, SQUARES, STANDBY_SLOTS, GameState

ACTIONS = {  # action -> the keys it needs (ruling-format.md's table)
    "set_stun": ("card",),
    "discard_stun": ("slot",),
    "exhaust": ("slot",),
    "break_stun": ("slot",),
    "break_field": ("square",),
    "play": ("card", "square"),
    "activate": ("square",),
    "next": (),
    "end_turn": (),
}
STEP_ARGS = ("card", "slot", "square")
EXHAUSTED = ":exhausted"
YES_NO = ("yes", "no")

TOP_KEYS = ("case", "state", "answers", "step", "expect")
CASE_KEYS = ("id", "source", "question", "answer", "cards")
STATE_KEYS = ("active", "phase", "turn", "played", "stun_set", "seed", "A", "B", "field")
PLAYER_KEYS = ("hand", "stock", "standby", "break", "pool")
EXPECT_KEYS = ("winner", "A", "B", "field")
EXPECT_PLAYER_KEYS = PLAYER_KEYS + ("stock_top", "stock_bottom", "stock_count", "hand_count",
                                    "break_count", "points")
STACK_KEYS = ("holder", "cards")
STEP_KEYS = ("player", "action") + STEP_ARGS + ("expect",)


# ====================================================================== data
@attrs.frozen
class Stun:
    card: str
    exhausted: bool = False

    def __str__(self) -> str:
        return self.card + (EXHAUSTED if self.exhausted else "")


@attrs.frozen
class PlayerSetup:
    hand: tuple = ()
    stock: tuple = ()  # top first
    standby: tuple = (None,) * STANDBY_SLOTS  # Stun or None per slot
    break_: tuple = ()  # oldest first
    pool: tuple = ()  # colors


@attrs.frozen
class Stack:
    holder: str
    cards: tuple  # bottom first


@attrs.frozen
class Step:
    number: int  # 1-based, as written
    action: str
    player: Optional[str] = None  # None: the active player when the step runs
    card: Optional[str] = None
    slot: Optional[int] = None
    square: Optional[str] = None
    illegal: bool = False

    def describe(self, player: Optional[str] = None) -> str:
        from .engine import Action

        action = Action(self.action, player or self.player or "", card=self.card,
                        slot=self.slot, square=self.square)
        return f"step {self.number} ({str(action).strip()})"


@attrs.frozen
class Check:
    """One expectation: ``what`` names it in messages (``A.hand``, ``field.C1``)."""

    what: str
    kind: str  # winner | multiset | exact | standby | count | points | pool | stock_top | stock_bottom | square
    player: Optional[str]
    key: str
    expected: Any


@attrs.define
class RulingCase:
    id: str
    path: str
    library: CardLibrary
    source: str = ""
    question: str = ""
    answer: str = ""
    active: str = "A"
    phase: str = "gain"
    turn: int = 3
    played: bool = False
    stun_set: bool = False
    seed: int = 0
    players: dict = attrs.Factory(lambda: {p: PlayerSetup() for p in PLAYERS})
    field: dict = attrs.Factory(dict)  # square -> Stack
    answers: dict = attrs.Factory(lambda: {p: [] for p in PLAYERS})
    steps: list = attrs.Factory(list)
    checks: list = attrs.Factory(list)


@attrs.frozen
class Result:
    path: str
    case_id: Optional[str]  # None: the file could not be read as a case
    ok: bool
    message: str = ""

    def line(self) -> str:
        if self.case_id is None:
            return f"ERROR {self.path}: {self.message}"
        if self.ok:
            return f"PASS {self.case_id}"
        return f"FAIL {self.case_id}: {self.message}"


class CaseProblems(Exception):
    """A case file that cannot be used: every problem found, as sentences."""

    def __init__(self, path: str, problems: list[str]):
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


# ====================================================================== loading
_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list",
               dict: "a table"}


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


class _Loader:
    """Validates the parsed TOML of one case; collects every problem."""

    def __init__(self, path: Path, default_library: Optional[CardLibrary]):
        self.path = path
        self.problems: list[str] = []
        self.default_library = default_library
        self.library: Optional[CardLibrary] = None

    def problem(self, where: str, message: str, hint: Optional[str] = None) -> None:
        text = f"{where}: {message}" if where else message
        if hint:
            text += f" ({hint})"
        self.problems.append(text)

    # ---------------------------------------------------------------- helpers
    def keys(self, table: dict, allowed: Iterable[str], where: str, extra_hint: str = "") -> None:
        allowed = tuple(allowed)
        for key in table:
            if key not in allowed:
                hint = did_you_mean(key, allowed) or (extra_hint or
                                                      "known keys: " + ", ".join(allowed))
                self.problem(where, f"unknown key `{key}`", hint)

    def typed(self, table: dict, key: str, kind: type, where: str, default: Any = None) -> Any:
        if key not in table:
            return default
        value = table[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            self.problem(where, f"`{key}` must be {_TYPE_NAMES[kind]}, not {_type_name(value)} "
                                f"`{value!r}`")
            return default
        return value

    def table(self, parent: dict, key: str, where: str) -> dict:
        if key not in parent:
            return {}
        value = parent[key]
        if not isinstance(value, dict):
            self.problem(where, f"`{key}` must be a table, not {_type_name(value)}")
            return {}
        return value

    def one_of(self, value: Any, choices: Iterable[str], where: str, what: str) -> Optional[str]:
        choices = tuple(choices)
        if not isinstance(value, str):
            self.problem(where, f"{what} must be a string, one of {', '.join(choices)}; "
                                f"not {_type_name(value)} `{value!r}`")
            return None
        if value not in choices:
            hint = ("one of " + ", ".join(choices) if len(choices) <= 3
                    else did_you_mean(value, choices) or "one of " + ", ".join(choices))
            self.problem(where, f"{what} `{value}` is not valid", hint)
            return None
        return value

    def card_id(self, value: Any, where: str) -> Optional[str]:
        if not isinstance(value, str):
            self.problem(where, f"a card id must be a string, not {_type_name(value)} `{value!r}`")
            return None
        if self.library is None:
            return value
        if value not in self.library:
            self.problem(where, f"unknown card id `{value}`", unknown_id_hint(value, self.library))
            return None
        return value

    def id_list(self, table: dict, key: str, where: str) -> Optional[tuple]:
        if key not in table:
            return None
        value = table[key]
        if not isinstance(value, list):
            self.problem(where, f"`{key}` must be a list of card ids, not {_type_name(value)}")
            return None
        out = []
        for item in value:
            if isinstance(item, str) and item.endswith(EXHAUSTED):
                self.problem(where, f"`{key}`: `{item}`: only standby entries can be exhausted")
                continue
            cid = self.card_id(item, f"{where} {key}")
            if cid is not None:
                out.append(cid)
        return tuple(out)

    def square(self, value: Any, where: str) -> Optional[str]:
        if not isinstance(value, str) or value not in SQUARES:
            hint = did_you_mean(str(value).upper() if isinstance(value, str) else str(value), SQUARES)
            self.problem(where, f"unknown square `{value}`",
                         hint or "the squares are A1-A3, C1-C3 and B1-B3, R1.2")
            return None
        return value

    def standby(self, value: Any, where: str) -> Optional[tuple]:
        if not isinstance(value, list):
            self.problem(where, f"`standby` must be a list (slot 1 first), not {_type_name(value)}")
            return None
        if len(value) > STANDBY_SLOTS:
            self.problem(where, f"`standby` has {len(value)} entries, but a standby has only "
                                f"{STANDBY_SLOTS} slots (R1.1, R5.3)")
            return None
        slots: list = []
        for n, item in enumerate(value, start=1):
            if not isinstance(item, str):
                self.problem(where, f"standby slot {n} must be a string (a card id, "
                                    f"`ID{EXHAUSTED}` or \"\"), not {_type_name(item)}")
                slots.append(None)
                continue
            if item == "":
                slots.append(None)
                continue
            cid, exhausted = item, False
            if ":" in item:
                cid, _, flag = item.partition(":")
                if flag != EXHAUSTED[1:]:
                    self.problem(where, f"standby slot {n}: `{item}`: after `:` only `exhausted` "
                                        "is allowed", did_you_mean(flag, ["exhausted"]))
                    slots.append(None)
                    continue
                exhausted = True
            cid = self.card_id(cid, f"{where} standby slot {n}")
            slots.append(Stun(cid, exhausted) if cid is not None else None)
        slots += [None] * (STANDBY_SLOTS - len(slots))
        return tuple(slots)

    def colors(self, value: Any, where: str) -> Optional[tuple]:
        if not isinstance(value, list):
            return None
        out = []
        for item in value:
            color = self.one_of(item, POINT_COLORS, where, "a pool point's color")
            if color is not None:
                out.append(color)
        return tuple(out)

    # ---------------------------------------------------------------- sections
    def load(self, data: dict) -> Optional[RulingCase]:
        self.keys(data, TOP_KEYS, "top level")
        case_t = self.table(data, "case", "top level")
        if "case" not in data:
            self.problem("", "missing [case] table (it needs at least `id`)")
        self.keys(case_t, CASE_KEYS, "[case]")
        case_id = self.typed(case_t, "id", str, "[case]")
        if "case" in data and "id" not in case_t:
            self.problem("[case]", "missing `id` (a unique name shown in reports)")
        elif case_id is not None and not case_id.strip():
            self.problem("[case]", "`id` is empty")
        texts = {k: self.typed(case_t, k, str, "[case]", "") for k in ("source", "question", "answer")}
        self.library = self.load_library(case_t)

        case = RulingCase(id=case_id or "", path=str(self.path), library=self.library, **texts)
        self.load_state(data, case)
        self.load_answers(data, case)
        self.load_steps(data, case)
        self.load_expect(data, case)
        return None if self.problems else case

    def load_library(self, case_t: dict) -> Optional[CardLibrary]:
        rel = self.typed(case_t, "cards", str, "[case]")
        if rel is None:
            if self.default_library is not None:
                return self.default_library
            try:
                return load_cards()
            except DiagnosticError as err:  # pragma: no cover - the built-in set is checked
                self.problem("[case] cards", "the built-in card set has errors: "
                             + err.diagnostics[0].render().splitlines()[0])
                return None
        where = (self.path.parent / rel)
        if not where.is_file():
            self.problem("[case] cards", f"no card set file `{rel}` (looked for {where}; "
                                         "the path is relative to the case file)")
            return None
        try:
            return load_cards(where)
        except DiagnosticError as err:
            first = err.diagnostics[0].render().splitlines()[0]
            more = len(err.diagnostics) - 1
            self.problem("[case] cards", f"the card set `{rel}` has errors: {first}"
                         + (f" (and {more} more)" if more else ""))
            return None

    def load_state(self, data: dict, case: RulingCase) -> None:
        st = self.table(data, "state", "top level")
        self.keys(st, STATE_KEYS, "[state]")
        if "active" in st:
            case.active = self.one_of(st["active"], PLAYERS, "[state]", "`active`") or "A"
        if "phase" in st:
            case.phase = self.one_of(st["phase"], PHASES, "[state]", "`phase`") or "gain"
        turn = self.typed(st, "turn", int, "[state]", 3)
        if turn < 1:
            self.problem("[state]", f"`turn` must be 1 or more, not {turn}")
            turn = 3
        case.turn = turn
        case.played = self.typed(st, "played", bool, "[state]", False)
        case.stun_set = self.typed(st, "stun_set", bool, "[state]", False)
        case.seed = self.typed(st, "seed", int, "[state]", 0)
        for p in PLAYERS:
            case.players[p] = self.load_player(self.table(st, p, "[state]"), f"[state.{p}]")
        field = self.table(st, "field", "[state]")
        for sq, spec in field.items():
            where = f"[state.field] {sq}"
            if self.square(sq, "[state.field]") is None:
                continue
            if spec == "empty":
                continue
            stack = self.load_stack(spec, where)
            if stack is not None:
                case.field[sq] = stack

    def load_player(self, t: dict, where: str) -> PlayerSetup:
        self.keys(t, PLAYER_KEYS, where)
        kw = {}
        for key, attr in (("hand", "hand"), ("stock", "stock"), ("break", "break_")):
            ids = self.id_list(t, key, where)
            if ids is not None:
                kw[attr] = ids
        if "standby" in t:
            slots = self.standby(t["standby"], where)
            if slots is not None:
                kw["standby"] = slots
        if "pool" in t:
            if not isinstance(t["pool"], list):
                self.problem(where, f"`pool` must be a list of colors (e.g. [\"red\", \"red\"]), "
                                    f"not {_type_name(t['pool'])}",
                             "a number is accepted only under [expect]" if isinstance(t["pool"], int)
                             else None)
            else:
                kw["pool"] = self.colors(t["pool"], f"{where} pool")
        return PlayerSetup(**kw)

    def load_stack(self, spec: Any, where: str, expect: bool = False) -> Optional[Stack]:
        if not isinstance(spec, dict):
            self.problem(where, f"a square is a table {{ holder = \"A\", cards = [...] }} or "
                                f"\"empty\", not {_type_name(spec)} `{spec!r}`")
            return None
        self.keys(spec, STACK_KEYS, where)
        holder = None
        if "holder" in spec:
            holder = self.one_of(spec["holder"], PLAYERS, where, "`holder`")
            if holder is None:
                return None
        elif not expect:
            self.problem(where, "missing `holder` (the owner of the stack's cards, R1.4)")
            return None
        cards = self.id_list(spec, "cards", where)
        if cards is None and not expect:
            if "cards" not in spec:
                self.problem(where, "missing `cards` (bottom first)")
            return None
        if cards is not None and not cards and "cards" in spec and not spec["cards"]:
            self.problem(where, "`cards` is empty; leave the square out (or write \"empty\") "
                                "for an empty square")
            return None
        return Stack(holder, cards)

    def load_answers(self, data: dict, case: RulingCase) -> None:
        t = self.table(data, "answers", "top level")
        self.keys(t, PLAYERS, "[answers]", "answers are listed per player: A = [...], B = [...]")
        for p in PLAYERS:
            if p not in t:
                continue
            value = t[p]
            if not isinstance(value, list):
                self.problem("[answers]", f"`{p}` must be a list of answers, not {_type_name(value)}")
                continue
            out = []
            for n, ans in enumerate(value, start=1):
                checked = self.answer_form(ans, f"[answers] {p}[{n}]")
                if checked is not None:
                    out.append(checked)
            case.answers[p] = out

    def answer_form(self, ans: Any, where: str) -> Optional[str]:
        if not isinstance(ans, str):
            if isinstance(ans, int) and not isinstance(ans, bool):
                self.problem(where, f"answer {ans} must be a string", f"write \"slot {ans}\" for a "
                             "standby slot")
            else:
                self.problem(where, f"an answer must be a string, not {_type_name(ans)}")
            return None
        if ans in SQUARES or ans in YES_NO or ans in POINT_COLORS:
            return ans
        m = re.fullmatch(r"slot ([0-9]+)", ans)
        if m:
            if 1 <= int(m.group(1)) <= STANDBY_SLOTS:
                return ans
            self.problem(where, f"answer `{ans}`: standby slots are 1 to {STANDBY_SLOTS}")
            return None
        if self.library is not None and ans in self.library:
            return ans
        forms = (list(SQUARES) + list(YES_NO) + list(POINT_COLORS)
                 + [f"slot {n}" for n in range(1, STANDBY_SLOTS + 1)])
        if self.library is not None:
            forms += list(self.library.by_id)
        if self.library is not None and re.match(r"[A-Za-z]+-", ans):
            hint = unknown_id_hint(ans, self.library)
        else:
            hint = did_you_mean(ans, forms)
        self.problem(where, f"answer `{ans}` is not a square, a card id, `slot N`, yes/no or a "
                            "color", hint)
        return None

    def load_steps(self, data: dict, case: RulingCase) -> None:
        if "step" not in data:
            return
        steps = data["step"]
        if isinstance(steps, dict):
            self.problem("[step]", "steps are an array of tables: write [[step]], not [step]")
            return
        if not isinstance(steps, list):
            self.problem("top level", f"`step` must be [[step]] tables, not {_type_name(steps)}")
            return
        for n, t in enumerate(steps, start=1):
            where = f"[[step]] {n}"
            if not isinstance(t, dict):
                self.problem(where, "must be a table")
                continue
            self.keys(t, STEP_KEYS, where)
            if "action" not in t:
                self.problem(where, "missing `action`", "one of " + ", ".join(ACTIONS))
                continue
            action = self.one_of(t["action"], ACTIONS, where, "action")
            if action is None:
                continue
            player = None
            if "player" in t:
                player = self.one_of(t["player"], PLAYERS, where, "`player`")
            needs = ACTIONS[action]
            for key in STEP_ARGS:
                if key in t and key not in needs:
                    takes = " and ".join(f"`{k}`" for k in needs) or "no other keys"
                    self.problem(where, f"`{action}` does not take `{key}` (it takes {takes})")
            args: dict = {}
            for key in needs:
                if key not in t:
                    self.problem(where, f"`{action}` needs `{key}`")
                    continue
                value = t[key]
                if key == "card":
                    args[key] = self.card_id(value, where)
                elif key == "square":
                    args[key] = self.square(value, where)
                elif key == "slot":
                    if isinstance(value, bool) or not isinstance(value, int):
                        self.problem(where, f"`slot` must be an integer 1 to {STANDBY_SLOTS}, "
                                            f"not {_type_name(value)} `{value!r}`")
                    elif not 1 <= value <= STANDBY_SLOTS:
                        self.problem(where, f"`slot` must be 1 to {STANDBY_SLOTS}, not {value} "
                                            "(slots are numbered from 1)")
                    else:
                        args[key] = value
            illegal = False
            if "expect" in t:
                if t["expect"] != "illegal":
                    self.problem(where, f"a step's `expect` can only be \"illegal\", not "
                                        f"`{t['expect']!r}`")
                illegal = True
            case.steps.append(Step(n, action, player, illegal=illegal, **args))

    def load_expect(self, data: dict, case: RulingCase) -> None:
        t = self.table(data, "expect", "top level")
        # written order is kept: the first difference is reported in file order
        for key, value in t.items():
            if key not in EXPECT_KEYS:
                self.keys({key: value}, EXPECT_KEYS, "[expect]")
            elif key == "winner":
                w = self.one_of(value, PLAYERS + ("none",), "[expect]", "`winner`")
                if w is not None:
                    case.checks.append(Check("winner", "winner", None, "winner", w))
            elif key in PLAYERS:
                if not isinstance(value, dict):
                    self.problem("[expect]", f"`{key}` must be a table")
                    continue
                self.load_expect_player(value, key, case)
            else:  # field
                if not isinstance(value, dict):
                    self.problem("[expect]", "`field` must be a table of squares")
                    continue
                for sq, spec in value.items():
                    if self.square(sq, "[expect.field]") is None:
                        continue
                    where = f"[expect.field] {sq}"
                    if spec == "empty":
                        case.checks.append(Check(f"field.{sq}", "square", None, sq, None))
                        continue
                    if isinstance(spec, str):
                        self.problem(where, f"`{spec}`: a square is \"empty\" or a table "
                                            "{ holder = ..., cards = [...] }")
                        continue
                    stack = self.load_stack(spec, where, expect=True)
                    if stack is not None:
                        if stack.holder is None and stack.cards is None:
                            self.problem(where, "write `holder`, `cards` or both")
                            continue
                        case.checks.append(Check(f"field.{sq}", "square", None, sq, stack))

    def load_expect_player(self, t: dict, p: str, case: RulingCase) -> None:
        where = f"[expect.{p}]"
        for key, value in t.items():
            what = f"{p}.{key}"
            if key not in EXPECT_PLAYER_KEYS:
                self.keys({key: value}, EXPECT_PLAYER_KEYS, where)
            elif key in ("hand", "break"):
                ids = self.id_list(t, key, where)
                if ids is not None:
                    case.checks.append(Check(what, "multiset", p, key, ids))
            elif key == "stock":
                ids = self.id_list(t, key, where)
                if ids is not None:
                    case.checks.append(Check(what, "exact", p, key, ids))
            elif key == "standby":
                slots = self.standby(value, where)
                if slots is not None:
                    case.checks.append(Check(what, "standby", p, key, slots))
            elif key == "pool":
                if isinstance(value, int) and not isinstance(value, bool):
                    if value < 0:
                        self.problem(where, f"`pool` cannot be negative ({value})")
                        continue
                    case.checks.append(Check(what, "pool", p, key, value))
                elif isinstance(value, list):
                    colors = self.colors(value, f"{where} pool")
                    if colors is not None:
                        case.checks.append(Check(what, "pool", p, key, colors))
                else:
                    self.problem(where, f"`pool` must be a number or a list of colors, "
                                        f"not {_type_name(value)}")
            elif key in ("stock_top", "stock_bottom"):
                if isinstance(value, str):
                    cid = self.card_id(value, f"{where} {key}")
                    if cid is not None:
                        case.checks.append(Check(what, key, p, key, (cid,)))
                else:
                    ids = self.id_list(t, key, where)
                    if ids is not None:
                        case.checks.append(Check(what, key, p, key, ids))
            else:  # counts and points
                n = self.typed(t, key, int, where)
                if n is not None:
                    if n < 0:
                        self.problem(where, f"`{key}` cannot be negative ({n})")
                        continue
                    case.checks.append(Check(what, "count", p, key, n))


_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"\s*\(at end of document\)$")


def _toml_problem(err: tomllib.TOMLDecodeError, text: str) -> str:
    msg = str(err)
    m = _TOML_AT.search(msg)
    if m:
        return f"line {m.group(1)}, column {m.group(2)}: invalid TOML: {msg[:m.start()]}"
    m = _TOML_END.search(msg)
    if m:
        return (f"line {len(text.splitlines()) or 1}: invalid TOML at the end of the file: "
                f"{msg[:m.start()]}")
    return f"invalid TOML: {msg}"


def load_case(path: Union[str, Path], library: Optional[CardLibrary] = None, *,
              board_only: bool = False) -> RulingCase:
    """Read and validate one case file; raises :class:`CaseProblems` listing every problem.

    ``board_only``: the file only needs ``[state]`` and ``[answers]`` (``wgdsl simulate
    --state``); a missing ``[case]`` table is fine and the case is named after the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CaseProblems(str(path), ["no such file"]) from None
    except IsADirectoryError:
        raise CaseProblems(str(path), ["is a directory, not a case file"]) from None
    except UnicodeDecodeError as err:
        raise CaseProblems(str(path), [f"is not UTF-8 text (byte {err.start})"]) from None
    except OSError as err:
        raise CaseProblems(str(path), [f"cannot be read: {err.strerror}"]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CaseProblems(str(path), [_toml_problem(err, text)]) from None
    if board_only and "case" not in data:
        data = {**data, "case": {"id": p.stem}}
    loader = _Loader(p, library)
    case = loader.load(data)
    if case is None:
        raise CaseProblems(str(path), loader.problems)
    return case


# ====================================================================== the board
def build_state(case: RulingCase) -> GameState:
    """The case's board as printed: instances owned by their zone's player (a stack's
    cards by its holder), nothing triggered."""
    lib = case.library
    st = GameState.empty(case.seed)
    st.seed = case.seed
    st.rng = random.Random(case.seed)
    st.turn, st.active, st.phase = case.turn, case.active, case.phase
    st.played, st.stun_set = case.played, case.stun_set
    # turn 1 is the first player's first turn (R4.2): the first player plays odd turns
    st.first = case.active if case.turn % 2 == 1 else OTHER[case.active]
    for p in PLAYERS:
        setup = case.players[p]
        for cid in setup.stock:
            st.put(st.new_instance(p, lib[cid]), "stock", bottom=True)
        for cid in setup.hand:
            st.put(st.new_instance(p, lib[cid]), "hand")
        for slot, stun in enumerate(setup.standby):
            if stun is not None:
                st.put(st.new_instance(p, lib[stun.card]), "standby", slot=slot,
                       exhausted=stun.exhausted)
        for cid in setup.break_:
            st.put(st.new_instance(p, lib[cid]), "break")
        pool: dict = {}
        for color in setup.pool:
            pool[color] = pool.get(color, 0) + 1
        st.players[p].pool = pool
    for sq in SQUARES:
        stack = case.field.get(sq)
        if stack is None:
            continue
        for cid in stack.cards:
            st.put(st.new_instance(stack.holder, lib[cid]), "field", square=sq)
    return st


def snapshot(st: GameState) -> tuple:
    """Everything the rules can see, to prove a refused step changed nothing."""
    def ids(cards):
        return tuple((c.uid, c.id, c.copy_of.id if c.copy_of else None) for c in cards)

    players = tuple(
        (ids(pl.stock), ids(pl.hand), ids(pl.break_),
         tuple(None if s is None else (s.uid, s.exhausted) for s in pl.standby),
         tuple(sorted((c, n) for c, n in pl.pool.items() if n)))
        for pl in (st.players[p] for p in PLAYERS))
    field = tuple(ids(st.field[sq]) for sq in SQUARES)
    return (players, field, st.turn, st.active, st.phase, st.played, st.stun_set, st.winner,
            st.rng.getstate())


# ====================================================================== comparing
def _list(items: Iterable) -> str:
    return "[" + ", ".join(str(i) if i is not None and i != "" else '""' for i in items) + "]"


def _pool_colors(pool: dict) -> list[str]:
    out = []
    for color in POINT_COLORS:
        out += [color] * pool.get(color, 0)
    for color, n in pool.items():
        if color not in POINT_COLORS:
            out += [color] * n
    return out


def _stack_text(holder: Optional[str], cards: Optional[Iterable]) -> str:
    if holder is None and cards is None:
        return "empty"
    parts = []
    if holder is not None:
        parts.append(f"{holder} holds")
    if cards is not None:
        parts.append(_list(cards))
    return " ".join(parts)


def check_difference(check: Check, st: GameState) -> Optional[str]:
    """None when the state meets ``check``, else a sentence saying how it differs."""
    exp = check.expected
    if check.kind == "winner":
        actual = st.winner or "none"
        if actual != exp:
            why = f" ({st.win_reason})" if st.win_reason else ""
            return f"winner: expected {exp} but was {actual}{why}"
        return None
    if check.kind == "square":
        stack = st.field[check.key]
        holder = st.holder(check.key)
        cards = [c.id for c in stack]
        if exp is None:
            if stack:
                return f"{check.what}: expected empty but was {_stack_text(holder, cards)}"
            return None
        want_holder = exp.holder
        want_cards = list(exp.cards) if exp.cards is not None else None
        if not stack:
            return f"{check.what}: expected {_stack_text(want_holder, want_cards)} but was empty"
        if (want_holder is not None and want_holder != holder) or \
                (want_cards is not None and want_cards != cards):
            return (f"{check.what}: expected {_stack_text(want_holder, want_cards)} but was "
                    f"{_stack_text(holder if want_holder is not None else None, cards if want_cards is not None else None)}")
        return None
    pl = st.players[check.player]
    if check.kind == "multiset":
        zone = pl.hand if check.key == "hand" else pl.break_
        actual = [c.id for c in zone]
        if Counter(actual) != Counter(exp):
            return f"{check.what}: expected {_list(exp)} but was {_list(actual)}"
        return None
    if check.kind == "exact":
        actual = [c.id for c in pl.stock]
        if actual != list(exp):
            return f"{check.what}: expected {_list(exp)} but was {_list(actual)} (top first)"
        return None
    if check.kind in ("stock_top", "stock_bottom"):
        stock = [c.id for c in pl.stock]
        n = len(exp)
        actual = stock[:n] if check.kind == "stock_top" else stock[len(stock) - n:] if n else []
        if actual != list(exp):
            shown = _list(actual) if actual else "an empty stock"
            if n == 1 and actual:
                shown = actual[0]
            want = exp[0] if n == 1 else _list(exp)
            return f"{check.what}: expected {want} but was {shown}"
        return None
    if check.kind == "standby":
        actual = tuple(None if s is None else Stun(s.id, s.exhausted) for s in pl.standby)
        if actual != tuple(exp):
            return f"{check.what}: expected {_list(exp)} but was {_list(actual)}"
        return None
    if check.kind == "pool":
        total = pl.pool_total()
        if isinstance(exp, int):
            if total != exp:
                colors = _list(_pool_colors(pl.pool))
                return f"{check.what}: expected {exp} but was {total} {colors}"
            return None
        actual = _pool_colors(pl.pool)
        if Counter(actual) != Counter(exp):
            return f"{check.what}: expected {_list(exp)} but was {_list(actual)}"
        return None
    # counts and points
    if check.key == "points":
        actual = st.points(check.player)
    elif check.key == "stock_count":
        actual = len(pl.stock)
    elif check.key == "hand_count":
        actual = len(pl.hand)
    else:  # break_count
        actual = len(pl.break_)
    if actual != exp:
        return f"{check.what}: expected {exp} but was {actual}"
    return None


# ====================================================================== running
def run_case(case: RulingCase, *, keep: Optional[dict] = None) -> Result:
    """Run one case: the steps, then the expectations, then the answers all used.

    ``keep``, when given, receives the finished ``game`` (for showing a failure).
    """
    from .agents import AgentError, ScriptedAgent
    from .engine import Action, Game, IllegalAction

    agents = {p: ScriptedAgent(case.answers[p]) for p in PLAYERS}
    game = Game(build_state(case), case.library, agents)
    if keep is not None:
        keep["game"] = game

    def fail(message: str) -> Result:
        return Result(case.path, case.id, False, message)

    for step in case.steps:
        st = game.state
        player = step.player or st.active
        action = Action(step.action, player, card=step.card, slot=step.slot, square=step.square)
        label = step.describe(player)
        before = snapshot(st)
        positions = {p: a.position for p, a in agents.items()}
        try:
            game.apply(action)
        except IllegalAction as err:
            for p, a in agents.items():  # a refused step consumes no answers
                a.position = positions[p]
            if snapshot(game.state) != before:
                return fail(f"{label} was refused ({err}) but the state changed")
            if not step.illegal:
                return fail(f"{label} was refused: {err}")
            continue
        except AgentError as err:
            return fail(f"{label}: {err}")
        except Exception as err:  # an engine bug must not hide the other cases
            return fail(f"{label}: the engine failed: {type(err).__name__}: {err}")
        if step.illegal:
            return fail(f"{label} was accepted, but the case expects it to be refused")

    for check in case.checks:
        diff = check_difference(check, game.state)
        if diff is not None:
            return fail(diff)
    left = {p: a.remaining() for p, a in agents.items() if a.remaining()}
    if left:
        text = "; ".join(f"{p}: {_list(ans)}" for p, ans in left.items())
        return fail(f"answers left unused: {text}")
    return Result(case.path, case.id, True)


def case_files(paths: Iterable[Union[str, Path]]) -> tuple[list[Path], list[Result]]:
    """The ``*.toml`` files under ``paths`` (sorted per directory) and errors for bad paths."""
    files: list[Path] = []
    errors: list[Result] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = sorted(p.rglob("*.toml"))
            if not found:
                errors.append(Result(str(p), None, False, "no *.toml case files in this directory"))
            files += found
        elif p.is_file():
            files.append(p)
        else:
            errors.append(Result(str(p), None, False, "no such file or directory"))
    return files, errors


def run_paths(paths: Iterable[Union[str, Path]], *,
              on_result: Optional[Callable[[Result, Optional[dict]], None]] = None) -> list[Result]:
    """Load and run every case under ``paths``; one :class:`Result` per file (or bad path)."""
    files, results = case_files(paths)
    for r in results:
        if on_result:
            on_result(r, None)
    seen: dict[str, str] = {}
    for f in files:
        try:
            case = load_case(f)
        except CaseProblems as err:
            r = Result(str(f), None, False, "; ".join(err.problems))
        else:
            if case.id in seen:
                r = Result(str(f), None, False,
                           f"[case] id `{case.id}` is already used by {seen[case.id]}")
                keep = None
            else:
                seen[case.id] = str(f)
                keep: Optional[dict] = {}
                r = run_case(case, keep=keep)
            if on_result:
                on_result(r, keep)
            results.append(r)
            continue
        if on_result:
            on_result(r, None)
        results.append(r)
    return results
