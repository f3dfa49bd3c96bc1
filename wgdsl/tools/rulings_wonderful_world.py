"""It's a Wonderful World ruling cases (``[case] game = "wonderful-world"``): read,
validate, run (wonderful-world.md "What a ruling case needs").

There is no active player, no ``[answers]`` and no ``[random]``: every decision is a
``[[step]]`` of some seat in some window, and nothing after the setup is random.  The board
is taken as printed and run on to the window it describes (games/wonderful_world/board.py);
each step (``count`` times) is applied on a clone that is kept only when every action is
accepted; ``[expect]`` compares only what it writes.  Bad cases name their line.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Optional

import attrs

from wgdsl.lang.diagnostics import did_you_mean

from .rulings import Result, _Loader, loaded
from .toml_text import cut, shown, type_name

GAME_ID = "wonderful-world"
SEATS = ("P1", "P2", "P3", "P4", "P5")
RESOURCES = ("MAT", "ENE", "SCI", "GLD", "EXP")
KINDS = RESOURCES + ("KRY", "FIN", "GEN")
PHASES = ("draft", "planning", "production", "over")
TOP_KEYS = ("case", "state", "step", "expect")
CASE_KEYS = ("id", "game", "source", "question", "answer", "cards")
STATE_KEYS = ("players", "empire_side", "round", "phase", "pick", "step", "at", "deck",
              "discard", "piles") + SEATS
SEAT_INTS = ("empire_cubes", "krystallium", "financiers", "generals", "unplaced", "piles_taken")
SEAT_BOOLS = ("science_choice", "committed", "swaps_over")
SEAT_LISTS = ("hand", "draft", "constructed", "look")
SEAT_KEYS = ("empire", "picked", "construction") + SEAT_LISTS + SEAT_INTS + SEAT_BOOLS
STEP_KEYS = {  # action -> its keys, in the order of its text form (R22.4)
    "pick": ("card",), "construct": ("card",), "recycle": ("card", "to"),
    "place": ("resource", "to"), "place_krystallium": ("to", "space"),
    "place_character": ("kind", "to"), "discard_construction": ("card",),
    "science_bonus": ("kind",), "swap": ("cards",), "keep": ("card",), "done": (),
}
EXPECT_KEYS = ("round", "phase", "pick", "step", "current_seats", "deck", "deck_top",
               "deck_count", "discard_count", "piles_count", "discard", "piles", "supremacy",
               "winners", "win_reason", "returns", "view") + SEATS
EXPECT_SEAT_KEYS = ("empire", "picked", "hand", "draft", "constructed", "look", "construction",
                    "hand_count", "draft_count", "construction_count", "constructed_count",
                    "empire_cubes", "krystallium", "financiers", "generals", "unplaced",
                    "piles_taken", "science_choice", "committed", "swaps_over", "production",
                    "score", "score_breakdown", "title")
VIEW_KEYS = ("empire", "draft", "draft_count", "hand_count", "construction",
             "construction_count", "constructed", "constructed_count", "empire_cubes",
             "krystallium", "financiers", "generals", "committed", "picked", "hand")
TITLES = ("ルーキー", "独裁者", "皇帝", "現人神")
EXPECT_TYPES = {
    "round": "int", "pick": "int", "deck_count": "int", "discard_count": "int",
    "piles_count": "int", "phase": "str", "step": "resource", "win_reason": "str",
    "current_seats": "seats", "winners": "seats", "deck": "ids", "discard": "ids",
    "deck_top": "str", "piles": "piles", "supremacy": "table_seat", "returns": "table_int",
    "empire": "str", "picked": "str", "hand": "ids", "draft": "ids", "constructed": "ids",
    "look": "ids", "construction": "construction", "production": "table_int",
    "score_breakdown": "table_int", "title": "str", "score": "int",
    **{k: "int" for k in ("hand_count", "draft_count", "construction_count",
                          "constructed_count", "empire_cubes", "krystallium", "financiers",
                          "generals", "unplaced", "piles_taken")},
    **{k: "bool" for k in ("science_choice", "committed", "swaps_over")},
}
EXPECT_SHAPES = {
    "int": "a whole number", "bool": "true or false", "ids": "a list of card ids",
    "seats": "a list of seats", "resource": "a resource code (MAT ENE SCI GLD EXP)",
    "table_int": "a table of numbers", "table_seat": "a table: resource -> seat or \"none\"",
    "str": "a string", "piles": "a list of piles (lists of card ids)",
    "construction": "a list of { card = ID, filled = [KINDS] }", None: "valid",
}


@attrs.define
class WWStep:
    player: str
    action: str
    args: tuple
    count: int = 1
    illegal: bool = False
    rule: Optional[str] = None

    def text(self) -> str:
        return " ".join((self.action,) + self.args)


@attrs.define
class WWCase:
    id: str
    path: str
    game: Any
    board: Any
    source: str = ""
    question: str = ""
    answer: str = ""
    steps: list = attrs.Factory(list)
    expect: dict = attrs.Factory(dict)
    id_line: int = 0


class _WWLoader(_Loader):
    def __init__(self, path: Path, lines):
        super().__init__(path, None, lines)
        self.game = None
        self.seats: tuple = ()

    def card_id(self, value: Any, where: str, at: tuple, empire: bool = False) -> Optional[str]:
        table = self.game.table
        pool = table.empires if empire else table.developments
        if not isinstance(value, str) or value not in pool:
            written = cut(value) if isinstance(value, str) else shown(value)
            other = table.developments if empire else table.empires
            hint = (("an empire id" if empire else "a development card id") + " is needed"
                    if isinstance(value, str) and value in other
                    else did_you_mean(str(value), list(pool)))
            self.problem(where, f"unknown {'empire' if empire else 'card'} id `{written}`",
                         hint, at=at)
            return None
        return value

    def ids(self, table: dict, key: str, where: str, at: tuple) -> list:
        if key not in table:
            return []
        value = table[key]
        if not isinstance(value, list):
            self.problem(where, f"`{key}` must be a list of card ids, not {type_name(value)}",
                         at=at + (key,))
            return []
        return [c for n, v in enumerate(value)
                if (c := self.card_id(v, f"{where} {key}", at + (key, n))) is not None]

    def construction(self, value: Any, where: str, at: tuple) -> list:
        if not isinstance(value, list):
            self.problem(where, "`construction` is a list of { card = ID, filled = [KINDS] }",
                         at=at)
            return []
        out = []
        for n, entry in enumerate(value):
            eat = at + (n,)
            if not isinstance(entry, dict) or "card" not in entry:
                self.problem(where, f"construction entry {n + 1} needs `card`", at=eat)
                continue
            self.keys(entry, ("card", "filled"), where, eat)
            card = self.card_id(entry["card"], f"{where} construction", eat + ("card",))
            filled = entry.get("filled", [])
            if not isinstance(filled, list) or any(k not in KINDS for k in filled):
                self.problem(where, f"construction entry {n + 1}: `filled` is a list of "
                                    f"{', '.join(KINDS)}", at=eat + ("filled",))
                continue
            if card is None:
                continue
            cost = Counter(self.game.table.developments[card].cost)
            if Counter(filled) - cost:
                self.problem(where, f"{card}: `filled` {filled} is more than its cost spaces "
                                    f"{sorted(cost.elements())}", at=eat + ("filled",))
                continue
            if Counter(filled) == cost:
                self.problem(where, f"{card}: every space filled: it would have completed "
                                    "(R11.1)", at=eat + ("filled",))
                continue
            out.append((card, list(filled)))
        return out

    def load(self, data: dict) -> Optional[WWCase]:
        from wgdsl.games import load_game

        case_t, case_id, texts = self.case_header(data, TOP_KEYS, CASE_KEYS)
        if "cards" in case_t:
            self.problem("[case]", "`cards`: only the built-in IAW01 set is supported yet",
                         at=("case", "cards"))
        self.game = load_game(GAME_ID)
        board = self.load_state(data)
        case = WWCase(case_id or "", str(self.path), self.game, board, **texts)
        if self.lines is not None:
            case.id_line = self.lines.line(("case", "id"))
        self.load_steps(data, case)
        self.load_expect(data, case)
        return None if self.problems else case

    def load_state(self, data: dict):
        from wgdsl.games.wonderful_world.board import Board, SeatBoard

        t = self.table(data, "state", "top level", ())
        at = ("state",)
        self.keys(t, STATE_KEYS, "[state]", at)
        b = Board()
        for key in ("players", "empire_side", "phase"):
            if key not in t:
                self.problem("[state]", f"missing `{key}`", at=at)
        b.players = self.typed(t, "players", int, "[state]", at, 3)
        if not 1 <= b.players <= 5:
            self.problem("[state]", f"`players` is 1 to 5, not {b.players}", at=at + ("players",))
            b.players = 3
        self.seats = SEATS[:b.players]
        if "empire_side" in t:
            b.empire_side = self.one_of(t["empire_side"], ("A", "B"), "[state]", "`empire_side`",
                                        at + ("empire_side",)) or "A"
        b.round = self.typed(t, "round", int, "[state]", at, 1)
        if not 1 <= b.round <= 4:
            self.problem("[state]", "`round` is 1 to 4", at=at + ("round",))
        if "phase" in t:
            b.phase = self.one_of(t["phase"], PHASES, "[state]", "`phase`", at + ("phase",)) \
                or "draft"
        if b.phase == "draft":
            if "pick" not in t:
                self.problem("[state]", "a draft board needs `pick` (0 to 7)", at=at)
            b.pick = self.typed(t, "pick", int, "[state]", at, 0)
            if not 0 <= b.pick <= 7:
                self.problem("[state]", "`pick` is 0 to 7", at=at + ("pick",))
            if b.players == 1:
                self.problem("[state]", "solo has no draft (R20.2)", at=at + ("phase",))
        elif "pick" in t:
            self.problem("[state]", "`pick` is for the draft phase", at=at + ("pick",))
        if b.phase == "production":
            if "step" not in t:
                self.problem("[state]", "a production board needs `step`", at=at)
            else:
                b.step = self.one_of(t["step"], RESOURCES, "[state]", "`step`", at + ("step",))
            if "at" in t:
                b.at = self.one_of(t["at"], ("produce", "place"), "[state]", "`at`",
                                   at + ("at",)) or "produce"
        else:
            for key in ("step", "at"):
                if key in t:
                    self.problem("[state]", f"`{key}` is for the production phase",
                                 at=at + (key,))
        if b.phase == "over" and b.round != 4:
            self.problem("[state]", "`phase = \"over\"` needs `round = 4`", at=at + ("phase",))
        b.deck = self.ids(t, "deck", "[state]", at)
        b.discard = self.ids(t, "discard", "[state]", at)
        piles = t.get("piles", [])
        if not isinstance(piles, list) or not all(isinstance(p, list) for p in piles):
            self.problem("[state]", "`piles` is a list of piles (lists of card ids)",
                         at=at + ("piles",))
            piles = []
        if piles and b.players > 1:
            self.problem("[state]", "`piles` are solo's", at=at + ("piles",))
        b.piles = [self.ids({"piles": p}, "piles", "[state]", at) for p in piles] \
            if isinstance(piles, list) else []
        empires: dict = {}
        for seat in SEATS:
            if seat in t and seat not in self.seats:
                self.problem("[state]", f"seat {seat} does not play ({b.players} players)",
                             at=at + (seat,))
        for k, seat in enumerate(self.seats, start=1):
            st = self.table(t, seat, "[state]", at)
            sat, where = at + (seat,), f"[state.{seat}]"
            self.keys(st, SEAT_KEYS, where, sat)
            sb = SeatBoard()
            if "empire" in st:
                sb.empire = self.card_id(st["empire"], where, sat + ("empire",), empire=True)
            empire = sb.empire or f"IAW-E0{k}"
            if empire in empires:
                self.problem(where, f"{empire} is {empires[empire]}'s empire already (R4.1)",
                             at=sat + ("empire",))
            empires[empire] = seat
            for key in SEAT_LISTS:
                setattr(sb, key, self.ids(st, key, where, sat))
            if "picked" in st:
                sb.picked = self.card_id(st["picked"], where, sat + ("picked",))
            if "construction" in st:
                sb.construction = self.construction(st["construction"], where,
                                                    sat + ("construction",))
            for key in SEAT_INTS:
                value = self.typed(st, key, int, where, sat)
                if value is not None and value < 0:
                    self.problem(where, f"`{key}` cannot be negative", at=sat + (key,))
                elif value is not None:
                    setattr(sb, key, value)
            for key in SEAT_BOOLS:
                value = self.typed(st, key, bool, where, sat)
                if value is not None:
                    setattr(sb, key, value)
            if not 0 <= sb.empire_cubes <= 4:
                self.problem(where, "`empire_cubes` is 0 to 4 at rest (R15.2)",
                             at=sat + ("empire_cubes",))
            if (sb.unplaced or sb.science_choice) and not (b.phase == "production"
                                                           and b.at == "place"):
                self.problem(where, "`unplaced` and `science_choice` belong to an open "
                                    "placement window (`at = \"place\"`)", at=sat)
            if sb.committed and (sb.unplaced or sb.science_choice or sb.draft):
                self.problem(where, "`committed = true` against its conditions (R22.2)",
                             at=sat + ("committed",))
            b.seats[seat] = sb
        return b

    def load_steps(self, data: dict, case: WWCase) -> None:
        for where, at, t, action in self.step_tables(data, STEP_KEYS):
            keys = STEP_KEYS[action]
            self.keys(t, ("player", "action", "count", "expect", "rule") + keys, where, at,
                      f"`{action}` takes {', '.join(keys) or 'no other keys'}")
            for key in ("player",) + keys:
                if key not in t:
                    self.problem(where, f"`{action}` needs `{key}`", at=at)
            player = self.one_of(t.get("player"), self.seats, where, "`player`",
                                 at + ("player",)) if "player" in t else None
            args = []
            for key in keys:
                value = t.get(key)
                if key == "cards":
                    if not isinstance(value, list) or len(value) != 2:
                        self.problem(where, "`cards` is a list of two ids", at=at + (key,))
                        continue
                    args.extend(sorted(str(v) for v in value))
                elif value is not None:
                    if not isinstance(value, str):
                        self.problem(where, f"`{key}` must be a string", at=at + (key,))
                        continue
                    args.append(value)
            count = self.typed(t, "count", int, where, at, 1)
            if count < 1:
                self.problem(where, "`count` is at least 1", at=at + ("count",))
            illegal = False
            if "expect" in t:
                if t["expect"] != "illegal":
                    self.problem(where, "`expect` is \"illegal\" or absent", at=at + ("expect",))
                illegal = True
                if count > 1:
                    self.problem(where, "`count` above 1 with `expect`", at=at + ("count",))
            rule = self.typed(t, "rule", str, where, at)
            if rule is not None and not illegal:
                self.problem(where, "`rule` goes with `expect = \"illegal\"`", at=at + ("rule",))
            if player is not None:
                case.steps.append(WWStep(player, action, tuple(args), count, illegal, rule))

    def expect_value(self, key: str, value: Any, where: str, at: tuple) -> None:
        """Report an expectation value of the wrong shape (the table of "Expectations")."""
        kind = EXPECT_TYPES.get(key)
        ok = True
        if kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "ids":
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
            if ok:
                for n, v in enumerate(value):
                    self.card_id(v, f"{where} {key}", at + (key, n))
        elif kind == "seats":
            ok = isinstance(value, list) and all(v in self.seats for v in value)
        elif kind == "resource":
            ok = value in RESOURCES
        elif kind == "table_int":
            ok = isinstance(value, dict) and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values())
        elif kind == "table_seat":
            ok = isinstance(value, dict) and all(v in self.seats + ("none",) for v in value.values())
        elif kind == "str":
            ok = isinstance(value, str)
        elif kind == "piles":
            ok = isinstance(value, list) and all(isinstance(p, list) for p in value)
        elif kind == "construction":
            ok = isinstance(value, list) and all(isinstance(e, dict) and "card" in e
                                                 for e in value)
        if not ok:
            self.problem(where, f"`{key}` must be {EXPECT_SHAPES[kind]}, not "
                                f"{type_name(value)} `{shown(value)}`", at=at + (key,))

    def load_expect(self, data: dict, case: WWCase) -> None:
        t = self.table(data, "expect", "top level", ())
        at = ("expect",)
        self.keys(t, EXPECT_KEYS, "[expect]", at)
        for key, value in t.items():
            if key not in SEATS and key != "view" and key in EXPECT_KEYS:
                self.expect_value(key, value, "[expect]", at)
        for seat in SEATS:
            if seat in t and seat not in self.seats:
                self.problem("[expect]", f"seat {seat} does not play", at=at + (seat,))
            elif seat in t:
                seat_t = self.table(t, seat, "[expect]", at)
                self.keys(seat_t, EXPECT_SEAT_KEYS, f"[expect.{seat}]", at + (seat,))
                for key, value in seat_t.items():
                    if key in EXPECT_SEAT_KEYS:
                        self.expect_value(key, value, f"[expect.{seat}]", at + (seat,))
                if "title" in seat_t and len(self.seats) > 1:
                    self.problem(f"[expect.{seat}]", "`title` is solo's", at=at + (seat, "title"))
        view = self.table(t, "view", "[expect]", at)
        for s, row in view.items():
            if s not in self.seats or not isinstance(row, dict):
                self.problem("[expect.view]", f"`{cut(str(s))}` is not a seat of the game",
                             at=at + ("view", s))
                continue
            for p, keys in row.items():
                if p not in self.seats or not isinstance(keys, dict):
                    self.problem(f"[expect.view.{s}]", f"`{cut(str(p))}` is not a seat",
                                 at=at + ("view", s, p))
                    continue
                self.keys(keys, VIEW_KEYS, f"[expect.view.{s}.{p}]", at + ("view", s, p))
                for key, value in keys.items():  # `picked` may also be "hidden"/"none"
                    if key in VIEW_KEYS and not (key == "picked" and isinstance(value, str)):
                        self.expect_value(key, value, f"[expect.view.{s}.{p}]",
                                          at + ("view", s, p))
                if "hand" in keys and s != p:
                    self.problem(f"[expect.view.{s}.{p}]", "`hand` only for the seat itself",
                                 at=at + ("view", s, p, "hand"))
        case.expect = t


def load(path: Path, data: dict, lines) -> WWCase:
    """The case in the parsed TOML ``data``; CaseProblems lists every problem."""
    return loaded(_WWLoader(path, lines), data)


# ====================================================================== running
def run(case: WWCase, keep: Optional[dict] = None) -> Result:
    from wgdsl.games.wonderful_world.board import BoardError, state_from_board
    from wgdsl.games.wonderful_world.state import DeckExhausted
    from wgdsl.kernel.errors import IllegalAction

    def fail(message: str) -> Result:
        return Result(case.path, case.id, False, message)

    try:
        state = state_from_board(case.game, case.board)
    except (BoardError, DeckExhausted) as err:
        return fail(str(err))
    if keep is not None:
        keep["state"] = state
    for n, step in enumerate(case.steps, start=1):
        label = f"step {n} ({step.player}: {step.text()})"
        twin = state.clone()
        refused = None
        for _ in range(step.count):
            try:
                twin.apply(step.player, twin.parse_action(step.player, step.text()))
            except IllegalAction as err:
                refused = err
                break
            except DeckExhausted as err:
                return fail(f"{label}: {err}")
        if refused is not None:
            if not step.illegal:
                return fail(f"{label} was refused: {refused}")
            if step.rule is not None and refused.rule != step.rule:
                return fail(f"{label} was refused citing {refused.rule}, not {step.rule}")
            continue
        if step.illegal:
            return fail(f"{label} was accepted, but the case expects it to be refused")
        state = twin
        if keep is not None:
            keep["state"] = state
    diff = case_difference(case, state)
    return fail(diff) if diff else Result(case.path, case.id, True)


def _seat_values(state, seat: str) -> dict:
    from wgdsl.games.wonderful_world import rules

    d = state.d
    p = d.players[seat]
    sc = rules.score(state.table, p.built, p.empire, d.side, p.gen, p.fin)
    latest: dict = {}
    for _, resource, _, _, produced in d.supremacy:
        latest[resource] = produced[seat]
    return {"empire": p.empire, "picked": p.pick or "none", "hand": p.hand, "draft": p.draft,
            "constructed": p.built, "look": p.look,
            "construction": [{"card": c, "filled": f} for c, f in p.building],
            "hand_count": len(p.hand), "draft_count": len(p.draft),
            "construction_count": len(p.building), "constructed_count": len(p.built),
            "empire_cubes": p.cubes, "krystallium": p.kry, "financiers": p.fin,
            "generals": p.gen, "unplaced": p.unplaced, "piles_taken": p.piles_taken,
            "science_choice": p.science, "committed": p.committed and not d.over,
            "swaps_over": p.swap_over, "production": latest, "score": sc["total"],
            "score_breakdown": sc,
            "title": rules.solo_title(sc["total"], d.side)[1]}


def _same(key: str, want, got) -> bool:
    if key in ("hand", "draft", "constructed", "look", "discard"):
        return Counter(want) == Counter(got)
    if key == "construction":
        return len(want) == len(got) and all(
            w.get("card") == g["card"] and Counter(w.get("filled", [])) == Counter(g["filled"])
            for w, g in zip(want, got))
    if key == "piles":
        return len(want) == len(got) and all(Counter(w) == Counter(g) for w, g in zip(want, got))
    if key in ("production", "score_breakdown", "supremacy"):
        return all(k in got and got[k] == v for k, v in want.items())
    if key == "winners":
        return set(want) == set(got)
    if key == "returns":
        return all(abs(got.get(s, -1e9) - v) < 1e-9 for s, v in want.items())
    return want == got


def case_difference(case: WWCase, state) -> Optional[str]:
    d = state.d
    exp = case.expect
    latest = {}
    for _, resource, winner, _, _ in d.supremacy:
        latest[resource] = winner or "none"
    top = {"round": d.round, "phase": d.phase, "pick": d.pick,
           "step": RESOURCES[d.step] if d.phase == "production" else None,
           "current_seats": list(state.current_seats()), "deck": list(reversed(d.deck)),
           "deck_top": d.deck[-1] if d.deck else None, "deck_count": len(d.deck),
           "discard_count": len(d.discard), "piles_count": len(d.piles),
           "discard": d.discard, "piles": d.piles, "supremacy": latest,
           "winners": list(state.winners()), "win_reason": state.win_reason() or None,
           "returns": state.returns()}
    for key, want in exp.items():
        if key in SEATS or key == "view":
            continue
        if key in ("win_reason", "returns") and not d.over:
            return f"{key}: the game is not over"
        if key == "supremacy" and any(k not in latest for k in want):
            return "supremacy: not computed for " + ", ".join(k for k in want if k not in latest)
        if not _same(key, want, top[key]):
            return f"{key}: expected {shown(want)}, got {shown(top[key])}"
    for seat in SEATS:
        if seat not in exp:
            continue
        got = _seat_values(state, seat)
        for key, want in exp[seat].items():
            if key == "production" and any(k not in got[key] for k in want):
                return f"{seat}.production: not computed"
            if not _same(key, want, got[key]):
                return f"{seat}.{key}: expected {shown(want)}, got {shown(got[key])}"
    for s, row in exp.get("view", {}).items():
        obs = state.observation(s)
        for p, keys in row.items():
            shownp = obs["players"][p]
            view = {"empire": shownp["empire"], "draft": shownp["draft"],
                    "draft_count": len(shownp["draft"]), "hand_count": shownp["hand_size"],
                    "construction": shownp["construction"],
                    "construction_count": len(shownp["construction"]),
                    "constructed": shownp["constructed"],
                    "constructed_count": len(shownp["constructed"]),
                    "empire_cubes": shownp["cubes"], "krystallium": shownp["krystallium"],
                    "financiers": shownp["financiers"], "generals": shownp["generals"],
                    "committed": shownp["committed"],
                    "picked": (obs["pick_card"] or "none") if s == p else
                    ("hidden" if shownp["face_down_pick"] else "none"),
                    "hand": obs["hand"] if s == p else None}
            for key, want in keys.items():
                if not _same(key, want, view[key]):
                    return f"view.{s}.{p}.{key}: expected {shown(want)}, got {shown(view[key])}"
    return None
