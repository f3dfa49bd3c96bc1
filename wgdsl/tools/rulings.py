"""Ruling cases: TOML files that pin down how a card or rule behaves.

The format is specified in ``shared/spec/ruling-format.md``: ``[case]`` (id, source,
question, answer, optional card set), ``[state]`` (the board, taken as printed),
``[answers]`` (scripted answers per player), ``[[step]]`` (actions) and ``[expect]``
(what must be true afterwards; only what is written is compared).

:func:`load_case` reads and validates one file and returns the case or the list of
problems found (each a readable sentence naming where in the file it is; never a
traceback).  :func:`run_case` builds the board, wraps it in a
:class:`~wgdsl.games.world_gainer.engine.Game` with a
:class:`~wgdsl.games.world_gainer.agents.ScriptedAgent` per player, runs the steps and
compares the expectations; it returns a :class:`Result` whose message is
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

from wgdsl.files import Unreadable, check_regular, is_dir, read_text
from wgdsl.files import exists as files_exists
from wgdsl.games.world_gainer.decks import unknown_id_hint
from wgdsl.games.world_gainer.state import (OTHER, PHASES, PLAYERS, POINT_COLORS, SQUARES,
                                             STANDBY_SLOTS, GameState)
from wgdsl.lang.cards import CardLibrary, load_cards
from wgdsl.lang.diagnostics import DiagnosticError, did_you_mean
from wgdsl.terminal import printable

from .toml_text import (TYPE_NAMES, TomlLines, cut, located, number_problem, shown, toml_problem,
                        type_name)

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
CASE_KEYS = ("id", "game", "source", "question", "answer", "cards")
# `[case] game`: absent or "world-gainer" is this module's format; the others are run by
# their own modules (getgem.md "What a ruling case needs")
GAMES = ("world-gainer", "getgem", "wonderful-world", "imitation-world")
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
        from wgdsl.games.world_gainer.engine import Action

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
    id_line: int = 0  # where `[case] id` is written (0: not known)


@attrs.frozen
class Result:
    """One line of a report.  A case that ran has its ``case_id``; a file that is no
    valid case has ``case_id`` None and a ``message`` that starts with the place of each
    problem: ``path:LINE: ...; path:LINE: ...`` (``path: ...`` when no line applies)."""

    path: str
    case_id: Optional[str]  # None: the file could not be read as a case
    ok: bool
    message: str = ""

    def line(self) -> str:
        if self.case_id is None:
            text = f"ERROR {self.message}"
        elif self.ok:
            text = f"PASS {self.case_id}"
        else:
            text = f"FAIL {self.case_id}: {self.message}"
        return printable(text)


def loaded(loader, data: dict):
    """The case ``loader`` (a game's ``_Loader``) reads from the parsed TOML ``data``;
    CaseProblems lists every problem it found, each at its line."""
    case = loader.load(data)
    if case is None:
        raise CaseProblems(str(loader.path), loader.rendered())
    return case


class CaseProblems(Exception):
    """A case file that cannot be used: every problem found, each a sentence that starts
    with its place, ``path:LINE: [table] key: ...`` (or ``path: ...``)."""

    def __init__(self, path: str, problems: list[str]):
        self.path = path
        self.problems = problems
        super().__init__("; ".join(problems))


# ====================================================================== where in the file
# tomllib gives values, not positions; every problem should still name its line.  TomlLines
# ====================================================================== loading
def _builtin_sets() -> dict[str, Path]:
    """The built-in card sets by name (``wg01``): the ``*.wg`` files next to WG01."""
    from wgdsl.resources import builtin_cards_path

    folder = builtin_cards_path().parent
    return {p.stem: p for p in sorted(folder.glob("*.wg"))}


CARDS_RULE = ("`cards` is a built-in set's name (`wg01`) or a relative path to a .wg file under "
              "the case file's folder or the folder just above it (`../set.wg`)")


class _Loader:
    """Validates the parsed TOML of one case; collects every problem with its line.

    Every check names the place it looks at twice: ``where`` for the message
    (``[state.A] hand``), ``at`` for the line (the path in the parsed TOML,
    ``("state", "A", "hand")``)."""

    def __init__(self, path: Path, default_library: Optional[CardLibrary],
                 lines: Optional[TomlLines] = None):
        self.path = path
        self.lines = lines
        self.problems: list[tuple[int, str]] = []  # (line or 0, text)
        self.default_library = default_library
        self.library: Optional[CardLibrary] = None

    def problem(self, where: str, message: str, hint: Optional[str] = None, *,
                at: tuple = ()) -> None:
        text = f"{where}: {message}" if where else message
        if hint:
            text += f" ({hint})"
        line = self.lines.line(at) if self.lines is not None else 0
        self.problems.append((line, text))

    def rendered(self) -> list[str]:
        return [located(str(self.path), line, text) for line, text in self.problems]

    # ---------------------------------------------------------------- helpers
    def keys(self, table: dict, allowed: Iterable[str], where: str, at: tuple,
             extra_hint: str = "") -> None:
        allowed = tuple(allowed)
        for key in table:
            if key not in allowed:
                hint = did_you_mean(key, allowed) or (extra_hint or
                                                      "known keys: " + ", ".join(allowed))
                self.problem(where, f"unknown key `{cut(key)}`", hint, at=at + (key,))

    def typed(self, table: dict, key: str, kind: type, where: str, at: tuple,
              default: Any = None) -> Any:
        if key not in table:
            return default
        value = table[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            self.problem(where, f"`{key}` must be {TYPE_NAMES[kind]}, not {type_name(value)} "
                                f"`{shown(value)}`", at=at + (key,))
            return default
        return value

    def table(self, parent: dict, key: str, where: str, at: tuple) -> dict:
        if key not in parent:
            return {}
        value = parent[key]
        if not isinstance(value, dict):
            self.problem(where, f"`{key}` must be a table, not {type_name(value)}", at=at + (key,))
            return {}
        return value

    def one_of(self, value: Any, choices: Iterable[str], where: str, what: str,
               at: tuple) -> Optional[str]:
        choices = tuple(choices)
        if not isinstance(value, str):
            self.problem(where, f"{what} must be a string, one of {', '.join(choices)}; "
                                f"not {type_name(value)} `{shown(value)}`", at=at)
            return None
        if value not in choices:
            hint = ("one of " + ", ".join(choices) if len(choices) <= 3
                    else did_you_mean(value, choices) or "one of " + ", ".join(choices))
            self.problem(where, f"{what} `{cut(value)}` is not valid", hint, at=at)
            return None
        return value

    def card_id(self, value: Any, where: str, at: tuple) -> Optional[str]:
        if not isinstance(value, str):
            self.problem(where, f"a card id must be a string, not {type_name(value)} "
                                f"`{shown(value)}`", at=at)
            return None
        if self.library is None:
            return value
        if value not in self.library:
            self.problem(where, f"unknown card id `{cut(value)}`",
                         unknown_id_hint(value, self.library), at=at)
            return None
        return value

    def id_list(self, table: dict, key: str, where: str, at: tuple) -> Optional[tuple]:
        if key not in table:
            return None
        value = table[key]
        if not isinstance(value, list):
            self.problem(where, f"`{key}` must be a list of card ids, not {type_name(value)}",
                         at=at + (key,))
            return None
        out = []
        for n, item in enumerate(value):
            if isinstance(item, str) and item.endswith(EXHAUSTED):
                self.problem(where, f"`{key}`: `{cut(item)}`: only standby entries can be "
                                    "exhausted", at=at + (key, n))
                continue
            cid = self.card_id(item, f"{where} {key}", at + (key, n))
            if cid is not None:
                out.append(cid)
        return tuple(out)

    def square(self, value: Any, where: str, at: tuple) -> Optional[str]:
        if not isinstance(value, str) or value not in SQUARES:
            hint = did_you_mean(str(value).upper() if isinstance(value, str) else str(value), SQUARES)
            written = cut(value) if isinstance(value, str) else shown(value)
            self.problem(where, f"unknown square `{written}`",
                         hint or "the squares are A1-A3, C1-C3 and B1-B3, R1.2", at=at)
            return None
        return value

    def standby(self, value: Any, where: str, at: tuple) -> Optional[tuple]:
        if not isinstance(value, list):
            self.problem(where, f"`standby` must be a list (slot 1 first), not {type_name(value)}",
                         at=at)
            return None
        if len(value) > STANDBY_SLOTS:
            self.problem(where, f"`standby` has {len(value)} entries, but a standby has only "
                                f"{STANDBY_SLOTS} slots (R1.1, R5.3)", at=at + (STANDBY_SLOTS,))
            return None
        slots: list = []
        for n, item in enumerate(value, start=1):
            item_at = at + (n - 1,)
            if not isinstance(item, str):
                self.problem(where, f"standby slot {n} must be a string (a card id, "
                                    f"`ID{EXHAUSTED}` or \"\"), not {type_name(item)}", at=item_at)
                slots.append(None)
                continue
            if item == "":
                slots.append(None)
                continue
            cid, exhausted = item, False
            if ":" in item:
                cid, _, flag = item.partition(":")
                if flag != EXHAUSTED[1:]:
                    self.problem(where, f"standby slot {n}: `{cut(item)}`: after `:` only "
                                        "`exhausted` is allowed",
                                 did_you_mean(flag, ["exhausted"]), at=item_at)
                    slots.append(None)
                    continue
                exhausted = True
            cid = self.card_id(cid, f"{where} standby slot {n}", item_at)
            slots.append(Stun(cid, exhausted) if cid is not None else None)
        slots += [None] * (STANDBY_SLOTS - len(slots))
        return tuple(slots)

    def colors(self, value: Any, where: str, at: tuple) -> Optional[tuple]:
        if not isinstance(value, list):
            return None
        out = []
        for n, item in enumerate(value):
            color = self.one_of(item, POINT_COLORS, where, "a pool point's color", at + (n,))
            if color is not None:
                out.append(color)
        return tuple(out)

    def step_tables(self, data: dict, actions: Iterable[str]):
        """``(where, at, table, action)`` for each ``[[step]]`` table whose ``action`` is
        one of ``actions``; every other step is reported (the games' formats share this)."""
        steps = data.get("step", [])
        if not isinstance(steps, list):
            self.problem("top level", "`step` must be an array of tables ([[step]])", at=("step",))
            return
        actions = tuple(actions)
        for n, t in enumerate(steps):
            where, at = f"step {n + 1}", ("step", n)
            if not isinstance(t, dict):
                self.problem(where, "must be a table", at=at)
                continue
            action = t.get("action")
            if action not in actions:
                if "action" in t:
                    self.one_of(action, actions, where, "the action", at + ("action",))
                else:
                    self.problem(where, "missing `action`", at=at)
                continue
            yield where, at, t, action

    # ---------------------------------------------------------------- sections
    def case_header(self, data: dict, top_keys, case_keys) -> tuple:
        """(the `[case]` table, its `id`, its texts): what every game's case opens with —
        the top level's and `[case]`'s keys checked, a missing or empty `id` a problem,
        `source`, `question` and `answer` read."""
        self.keys(data, top_keys, "top level", ())
        case_t = _Loader.table(self, data, "case", "top level", ())
        if "case" not in data:
            self.problem("", "missing [case] table (it needs at least `id`)")
        self.keys(case_t, case_keys, "[case]", ("case",))  # `game`: see _unknown_game
        case_id = self.typed(case_t, "id", str, "[case]", ("case",))
        if "case" in data and "id" not in case_t:
            self.problem("[case]", "missing `id` (a unique name shown in reports)", at=("case",))
        elif case_id is not None and not case_id.strip():
            self.problem("[case]", "`id` is empty", at=("case", "id"))
        texts = {k: self.typed(case_t, k, str, "[case]", ("case",), "")
                 for k in ("source", "question", "answer")}
        return case_t, case_id, texts

    def load(self, data: dict) -> Optional[RulingCase]:
        case_t, case_id, texts = self.case_header(data, TOP_KEYS, CASE_KEYS)
        self.library = self.load_library(case_t)

        case = RulingCase(id=case_id or "", path=str(self.path), library=self.library, **texts)
        if self.lines is not None:
            case.id_line = self.lines.line(("case", "id"))
        self.load_state(data, case)
        self.load_answers(data, case)
        self.load_steps(data, case)
        self.load_expect(data, case)
        return None if self.problems else case

    def load_library(self, case_t: dict) -> Optional[CardLibrary]:
        rel = self.typed(case_t, "cards", str, "[case]", ("case",))
        if rel is None:
            if self.default_library is not None:
                return self.default_library
            try:
                return load_cards()
            except DiagnosticError as err:  # pragma: no cover - the built-in set is checked
                self.problem("[case] cards", "the built-in card set has errors: "
                             + err.diagnostics[0].render().splitlines()[0])
                return None
        target = self.card_set_file(rel)
        if target is None:
            return None
        try:
            return load_cards(target)
        except DiagnosticError as err:
            # only the set's own diagnostics: one of a file it includes may quote a line
            # of a file that is no card set at all
            own = [d for d in err.diagnostics if d.path == str(target)]
            first = (own[0].render().splitlines()[0] if own
                     else f"{len(err.diagnostics)} problems in the files it includes")
            more = len(own) - 1
            self.problem("[case] cards", f"the card set `{cut(rel)}` has errors: {first}"
                         + (f" (and {more} more)" if more > 0 else ""), at=("case", "cards"))
            return None

    def card_set_file(self, rel: str) -> Optional[Path]:
        """The card set ``[case] cards`` names, or None after a problem.  Nothing of a
        file outside the allowed folders is read or shown (see :data:`CARDS_RULE`)."""
        at = ("case", "cards")
        where = "[case] cards"
        builtin = _builtin_sets()
        if rel in builtin:
            return builtin[rel]
        written = cut(rel)
        if "\x00" in rel or not rel.strip():
            self.problem(where, f"`{written}` is not a card set", CARDS_RULE, at=at)
            return None
        written = Path(rel)
        if written.is_absolute() or rel.startswith(("/", "\\")):
            self.problem(where, f"`{written}` is an absolute path; {CARDS_RULE}", at=at)
            return None
        if not rel.endswith(".wg"):
            hint = did_you_mean(rel, builtin) or CARDS_RULE
            self.problem(where, f"`{written}` is neither a built-in card set nor a .wg file",
                         hint, at=at)
            return None
        path = self.path.parent / written
        # where it leads is checked before whether it exists: a case learns nothing of
        # the files outside
        try:
            real = path.resolve()
            home = self.path.parent.resolve()
        except (OSError, RuntimeError, ValueError):
            self.problem(where, f"`{written}` cannot be followed (a symlink loop or a name too "
                                "long)", CARDS_RULE, at=at)
            return None
        if not (real.is_relative_to(home.parent) and real.suffix == ".wg"):
            self.problem(where, f"`{written}` leads outside the case file's folder and the "
                                f"folder above it; {CARDS_RULE}", at=at)
            return None
        if not files_exists(path):
            self.problem(where, f"no card set file `{written}` (looked for {cut(str(path))}; "
                                "the path is relative to the case file)", at=at)
            return None
        try:
            check_regular(real, "card set file")
        except Unreadable as err:
            hint = None if err.hint == "give a card set file" else err.hint
            self.problem(where, f"`{written}` {err.message}", hint or CARDS_RULE, at=at)
            return None
        return path

    def load_state(self, data: dict, case: RulingCase) -> None:
        at = ("state",)
        st = self.table(data, "state", "top level", ())
        self.keys(st, STATE_KEYS, "[state]", at)
        if "active" in st:
            case.active = self.one_of(st["active"], PLAYERS, "[state]", "`active`",
                                      at + ("active",)) or "A"
        if "phase" in st:
            case.phase = self.one_of(st["phase"], PHASES, "[state]", "`phase`",
                                     at + ("phase",)) or "gain"
        turn = self.typed(st, "turn", int, "[state]", at, 3)
        if turn < 1:
            self.problem("[state]", f"`turn` must be 1 or more, not {shown(turn)}",
                         at=at + ("turn",))
            turn = 3
        case.turn = turn
        case.played = self.typed(st, "played", bool, "[state]", at, False)
        case.stun_set = self.typed(st, "stun_set", bool, "[state]", at, False)
        case.seed = self.typed(st, "seed", int, "[state]", at, 0)
        for p in PLAYERS:
            case.players[p] = self.load_player(self.table(st, p, "[state]", at), f"[state.{p}]",
                                               at + (p,))
        field = self.table(st, "field", "[state]", at)
        for sq, spec in field.items():
            where = f"[state.field] {sq}"
            if self.square(sq, "[state.field]", at + ("field", sq)) is None:
                continue
            if spec == "empty":
                continue
            stack = self.load_stack(spec, where, at + ("field", sq))
            if stack is not None:
                case.field[sq] = stack

    def load_player(self, t: dict, where: str, at: tuple) -> PlayerSetup:
        self.keys(t, PLAYER_KEYS, where, at)
        kw = {}
        for key, attr in (("hand", "hand"), ("stock", "stock"), ("break", "break_")):
            ids = self.id_list(t, key, where, at)
            if ids is not None:
                kw[attr] = ids
        if "standby" in t:
            slots = self.standby(t["standby"], where, at + ("standby",))
            if slots is not None:
                kw["standby"] = slots
        if "pool" in t:
            if not isinstance(t["pool"], list):
                self.problem(where, f"`pool` must be a list of colors (e.g. [\"red\", \"red\"]), "
                                    f"not {type_name(t['pool'])}",
                             "a number is accepted only under [expect]" if isinstance(t["pool"], int)
                             else None, at=at + ("pool",))
            else:
                kw["pool"] = self.colors(t["pool"], f"{where} pool", at + ("pool",))
        return PlayerSetup(**kw)

    def load_stack(self, spec: Any, where: str, at: tuple, expect: bool = False) -> Optional[Stack]:
        if not isinstance(spec, dict):
            self.problem(where, f"a square is a table {{ holder = \"A\", cards = [...] }} or "
                                f"\"empty\", not {type_name(spec)} `{shown(spec)}`", at=at)
            return None
        self.keys(spec, STACK_KEYS, where, at)
        holder = None
        if "holder" in spec:
            holder = self.one_of(spec["holder"], PLAYERS, where, "`holder`", at + ("holder",))
            if holder is None:
                return None
        elif not expect:
            self.problem(where, "missing `holder` (the owner of the stack's cards, R1.4)", at=at)
            return None
        cards = self.id_list(spec, "cards", where, at)
        if cards is None and not expect:
            if "cards" not in spec:
                self.problem(where, "missing `cards` (bottom first)", at=at)
            return None
        if cards is not None and not cards and "cards" in spec and not spec["cards"]:
            self.problem(where, "`cards` is empty; leave the square out (or write \"empty\") "
                                "for an empty square", at=at + ("cards",))
            return None
        return Stack(holder, cards)

    def load_answers(self, data: dict, case: RulingCase) -> None:
        at = ("answers",)
        t = self.table(data, "answers", "top level", ())
        self.keys(t, PLAYERS, "[answers]", at,
                  "answers are listed per player: A = [...], B = [...]")
        for p in PLAYERS:
            if p not in t:
                continue
            value = t[p]
            if not isinstance(value, list):
                self.problem("[answers]", f"`{p}` must be a list of answers, not {type_name(value)}",
                             at=at + (p,))
                continue
            out = []
            for n, ans in enumerate(value, start=1):
                checked = self.answer_form(ans, f"[answers] {p}[{n}]", at + (p, n - 1))
                if checked is not None:
                    out.append(checked)
            case.answers[p] = out

    def answer_form(self, ans: Any, where: str, at: tuple) -> Optional[str]:
        if not isinstance(ans, str):
            if isinstance(ans, int) and not isinstance(ans, bool):
                if 0 <= ans < 10 ** 6:
                    hint = f"write \"slot {ans}\" for a standby slot"
                else:
                    hint = f"write a string; standby slots are \"slot 1\" to \"slot {STANDBY_SLOTS}\""
                self.problem(where, f"answer {shown(ans)} must be a string", hint, at=at)
            else:
                self.problem(where, f"an answer must be a string, not {type_name(ans)}", at=at)
            return None
        if ans in SQUARES or ans in YES_NO or ans in POINT_COLORS:
            return ans
        m = re.fullmatch(r"slot ([0-9]+)", ans)
        if m:
            # compared as text first: int() refuses numbers of more than 4,300 digits
            digits = m.group(1).lstrip("0") or "0"
            if len(digits) == 1 and 1 <= int(digits) <= STANDBY_SLOTS:
                return ans
            self.problem(where, f"answer `{cut(ans)}`: standby slots are 1 to {STANDBY_SLOTS}",
                         at=at)
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
        self.problem(where, f"answer `{cut(ans)}` is not a square, a card id, `slot N`, yes/no "
                            "or a color", hint, at=at)
        return None

    def load_steps(self, data: dict, case: RulingCase) -> None:
        if "step" not in data:
            return
        steps = data["step"]
        if isinstance(steps, dict):
            self.problem("[step]", "steps are an array of tables: write [[step]], not [step]",
                         at=("step",))
            return
        if not isinstance(steps, list):
            self.problem("top level", f"`step` must be [[step]] tables, not {type_name(steps)}",
                         at=("step",))
            return
        for n, t in enumerate(steps, start=1):
            where = f"[[step]] {n}"
            at = ("step", n - 1)
            if not isinstance(t, dict):
                self.problem(where, "must be a table", at=at)
                continue
            self.keys(t, STEP_KEYS, where, at)
            if "action" not in t:
                self.problem(where, "missing `action`", "one of " + ", ".join(ACTIONS), at=at)
                continue
            action = self.one_of(t["action"], ACTIONS, where, "action", at + ("action",))
            if action is None:
                continue
            player = None
            if "player" in t:
                player = self.one_of(t["player"], PLAYERS, where, "`player`", at + ("player",))
            needs = ACTIONS[action]
            for key in STEP_ARGS:
                if key in t and key not in needs:
                    takes = " and ".join(f"`{k}`" for k in needs) or "no other keys"
                    self.problem(where, f"`{action}` does not take `{key}` (it takes {takes})",
                                 at=at + (key,))
            args: dict = {}
            for key in needs:
                if key not in t:
                    self.problem(where, f"`{action}` needs `{key}`", at=at + (key,))
                    continue
                value = t[key]
                if key == "card":
                    args[key] = self.card_id(value, where, at + (key,))
                elif key == "square":
                    args[key] = self.square(value, where, at + (key,))
                elif key == "slot":
                    if isinstance(value, bool) or not isinstance(value, int):
                        self.problem(where, f"`slot` must be an integer 1 to {STANDBY_SLOTS}, "
                                            f"not {type_name(value)} `{shown(value)}`",
                                     at=at + (key,))
                    elif not 1 <= value <= STANDBY_SLOTS:
                        self.problem(where, f"`slot` must be 1 to {STANDBY_SLOTS}, not "
                                            f"{shown(value)} (slots are numbered from 1)",
                                     at=at + (key,))
                    else:
                        args[key] = value
            illegal = False
            if "expect" in t:
                if t["expect"] != "illegal":
                    self.problem(where, f"a step's `expect` can only be \"illegal\", not "
                                        f"`{shown(t['expect'])}`", at=at + ("expect",))
                illegal = True
            case.steps.append(Step(n, action, player, illegal=illegal, **args))

    def load_expect(self, data: dict, case: RulingCase) -> None:
        at = ("expect",)
        t = self.table(data, "expect", "top level", ())
        # written order is kept: the first difference is reported in file order
        for key, value in t.items():
            if key not in EXPECT_KEYS:
                self.keys({key: value}, EXPECT_KEYS, "[expect]", at)
            elif key == "winner":
                w = self.one_of(value, PLAYERS + ("none",), "[expect]", "`winner`", at + (key,))
                if w is not None:
                    case.checks.append(Check("winner", "winner", None, "winner", w))
            elif key in PLAYERS:
                if not isinstance(value, dict):
                    self.problem("[expect]", f"`{key}` must be a table", at=at + (key,))
                    continue
                self.load_expect_player(value, key, case)
            else:  # field
                if not isinstance(value, dict):
                    self.problem("[expect]", "`field` must be a table of squares", at=at + (key,))
                    continue
                for sq, spec in value.items():
                    sq_at = at + ("field", sq)
                    if self.square(sq, "[expect.field]", sq_at) is None:
                        continue
                    where = f"[expect.field] {sq}"
                    if spec == "empty":
                        case.checks.append(Check(f"field.{sq}", "square", None, sq, None))
                        continue
                    if isinstance(spec, str):
                        self.problem(where, f"`{cut(spec)}`: a square is \"empty\" or a table "
                                            "{ holder = ..., cards = [...] }", at=sq_at)
                        continue
                    stack = self.load_stack(spec, where, sq_at, expect=True)
                    if stack is not None:
                        if stack.holder is None and stack.cards is None:
                            self.problem(where, "write `holder`, `cards` or both", at=sq_at)
                            continue
                        case.checks.append(Check(f"field.{sq}", "square", None, sq, stack))

    def load_expect_player(self, t: dict, p: str, case: RulingCase) -> None:
        where = f"[expect.{p}]"
        at = ("expect", p)
        for key, value in t.items():
            what = f"{p}.{key}"
            key_at = at + (key,)
            if key not in EXPECT_PLAYER_KEYS:
                self.keys({key: value}, EXPECT_PLAYER_KEYS, where, at)
            elif key in ("hand", "break"):
                ids = self.id_list(t, key, where, at)
                if ids is not None:
                    case.checks.append(Check(what, "multiset", p, key, ids))
            elif key == "stock":
                ids = self.id_list(t, key, where, at)
                if ids is not None:
                    case.checks.append(Check(what, "exact", p, key, ids))
            elif key == "standby":
                slots = self.standby(value, where, key_at)
                if slots is not None:
                    case.checks.append(Check(what, "standby", p, key, slots))
            elif key == "pool":
                if isinstance(value, int) and not isinstance(value, bool):
                    if value < 0:
                        self.problem(where, f"`pool` cannot be negative ({shown(value)})",
                                     at=key_at)
                        continue
                    case.checks.append(Check(what, "pool", p, key, value))
                elif isinstance(value, list):
                    colors = self.colors(value, f"{where} pool", key_at)
                    if colors is not None:
                        case.checks.append(Check(what, "pool", p, key, colors))
                else:
                    self.problem(where, f"`pool` must be a number or a list of colors, "
                                        f"not {type_name(value)}", at=key_at)
            elif key in ("stock_top", "stock_bottom"):
                if isinstance(value, str):
                    cid = self.card_id(value, f"{where} {key}", key_at)
                    if cid is not None:
                        case.checks.append(Check(what, key, p, key, (cid,)))
                else:
                    ids = self.id_list(t, key, where, at)
                    if ids is not None:
                        case.checks.append(Check(what, key, p, key, ids))
            else:  # counts and points
                n = self.typed(t, key, int, where, at)
                if n is not None:
                    if n < 0:
                        self.problem(where, f"`{key}` cannot be negative ({shown(n)})", at=key_at)
                        continue
                    case.checks.append(Check(what, "count", p, key, n))


CASE_FILE = "ruling case file"


def _unreadable(path: str, err: Unreadable) -> str:
    hint = err.hint
    if hint == f"give a {CASE_FILE}":  # says no more than the message
        hint = "a ruling case is a TOML text file, see docs/rulings.md"
    return located(path, err.line, err.message + (f" ({hint})" if hint else ""), err.col)


# A ruling case is a few hundred bytes; reading (tomllib) a file of megabytes takes
# seconds, so a case file is refused above this size.
MAX_CASE_BYTES = 1024 * 1024


def load_case(path: Union[str, Path], library: Optional[CardLibrary] = None, *,
              board_only: bool = False) -> RulingCase:
    """Read and validate one case file; raises :class:`CaseProblems` listing every problem.

    Each problem reads ``path:LINE: [table] key: what is wrong (what would be right)``.
    ``board_only``: the file only needs ``[state]`` and ``[answers]`` (``wgdsl simulate
    --state``); a missing ``[case]`` table is fine and the case is named after the file."""
    name = str(path)
    try:
        text = read_text(Path(path), CASE_FILE, max_bytes=MAX_CASE_BYTES)
    except Unreadable as err:
        raise CaseProblems(name, [_unreadable(name, err)]) from None
    return load_case_text(text, path, library, board_only=board_only)


def load_case_text(text: str, path: Union[str, Path], library: Optional[CardLibrary] = None, *,
                   board_only: bool = False) -> RulingCase:
    """:func:`load_case` for text already read (an editor's buffer): ``path`` names the
    file in the problems, and a relative ``[case] cards`` is found from its folder."""
    p = Path(path)
    name = str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CaseProblems(name, [toml_problem(err, text, name)]) from None
    except ValueError:  # an integer int() refuses: more than 4,300 digits
        raise CaseProblems(name, [number_problem(text, name)]) from None
    except RecursionError:
        raise CaseProblems(name, [located(name, 0, "invalid TOML: arrays or tables are nested "
                                                    "too deeply to read")]) from None
    if board_only and "case" not in data:
        data = {**data, "case": {"id": p.stem}}
    unknown = _unknown_game(p, data, TomlLines(text))
    if unknown is not None:
        raise CaseProblems(name, [unknown])
    runner = _runner(_case_game(data))
    if runner is not None:  # another game's loader
        return runner.load(p, data, TomlLines(text))
    loader = _Loader(p, library, TomlLines(text))
    case = loader.load(data)
    if case is None:
        raise CaseProblems(name, loader.rendered())
    return case


def _runner(game: Optional[str]):
    """The case runner of a game other than World Gainer (each has its own case format),
    imported only for its cases; None for World Gainer's."""
    if game == "getgem":
        from . import rulings_getgem

        return rulings_getgem
    if game == "wonderful-world":
        from . import rulings_wonderful_world

        return rulings_wonderful_world
    if game == "imitation-world":
        from . import rulings_imitation_world

        return rulings_imitation_world
    return None


def _case_game(data: dict) -> Optional[str]:
    """The `[case] game` a case names, or None (a World Gainer case)."""
    case = data.get("case")
    game = case.get("game") if isinstance(case, dict) else None
    return game if isinstance(game, str) else None


def _unknown_game(path: Path, data: dict, lines: TomlLines) -> Optional[str]:
    """The problem of a `[case] game` that names no game of the runner, or None.

    Checked before any game's loader reads the file: each game has its own tables and
    keys, so reading a case of an unknown game with World Gainer's loader would bury the
    one mistake under a complaint about every key."""
    case_t = data.get("case")
    if not isinstance(case_t, dict) or "game" not in case_t or case_t["game"] in GAMES:
        return None
    value = case_t["game"]
    games = "the games are " + ", ".join(GAMES) + "; without `game` a case is World Gainer's"
    if isinstance(value, str):
        message = f"`game` `{cut(value)}` is not a game of the ruling cases"
        hint = did_you_mean(value, GAMES)
        games = f"{hint} {games}" if hint else games
    else:
        message = f"`game` must be a string, not {type_name(value)} `{shown(value)}`"
    return located(str(path), lines.line(("case", "game")), f"[case]: {message} ({games})")


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
    A GETGEM case is run by :mod:`.rulings_getgem`.
    """
    from . import rulings_getgem

    if isinstance(case, rulings_getgem.GGCase):
        return rulings_getgem.run(case, keep)
    from . import rulings_wonderful_world as ww

    if isinstance(case, ww.WWCase):
        return ww.run(case, keep)
    from . import rulings_imitation_world as iw

    if isinstance(case, iw.IWCase):
        return iw.run(case, keep)
    from wgdsl.games.world_gainer.agents import AgentError, ScriptedAgent
    from wgdsl.games.world_gainer.engine import Action, Game
    from wgdsl.kernel.errors import IllegalAction, RunawayEffects

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
        except RunawayEffects as err:
            return fail(f"{label}: {err.message}")
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
    """The ``*.toml`` files under ``paths`` (sorted per directory) and errors for bad paths.

    Nothing here raises or blocks: a missing path, a name too long for the system, a
    FIFO or a device given as a path is an error result.  A FIFO or device found in a
    directory is a file to load, and loading it reports what it is."""
    files: list[Path] = []
    errors: list[Result] = []
    for raw in paths:
        p = Path(raw)
        if is_dir(p):
            try:
                found = sorted(f for f in p.rglob("*.toml"))
            except OSError as err:
                errors.append(Result(str(p), None, False,
                                     located(str(p), 0, f"cannot list this directory: "
                                                         f"{err.strerror or err}")))
                continue
            if not found:
                errors.append(Result(str(p), None, False,
                                     located(str(p), 0, "no *.toml case files in this directory")))
            files += found
        else:  # a file, or no usable path: say which without reading (nor blocking)
            try:
                check_regular(p, CASE_FILE)
            except Unreadable as err:
                if not files_exists(p) and err.message == "no such file":
                    err = Unreadable("no such file or directory")
                errors.append(Result(str(raw), None, False, _unreadable(str(raw), err)))
                continue
            files.append(p)
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
        keep: Optional[dict] = None
        try:
            case = load_case(f)
        except CaseProblems as err:
            r = Result(str(f), None, False, "; ".join(err.problems))
        except Exception as err:  # a loader bug must not hide the other cases
            r = Result(str(f), None, False, located(
                str(f), 0, f"wgdsl failed while loading this case: {type(err).__name__}: {err}"))
        else:
            if case.id in seen:
                r = Result(str(f), None, False, located(
                    str(f), case.id_line, f"[case] id `{cut(case.id)}` is already used by "
                                          f"{seen[case.id]}"))
            else:
                seen[case.id] = str(f)
                keep = {}
                r = run_case(case, keep=keep)
        if on_result:
            on_result(r, keep)
        results.append(r)
    return results
