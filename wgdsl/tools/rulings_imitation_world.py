"""Imitation World ruling cases (``[case] game = "imitation-world"``): read, validate, run.

The format is imitation-world.md's "What a ruling case needs": a board taken as printed
(``[state]``, ``[state.A]``, ``[state.B]``, ``[state.territory]``), scripted answers to the
questions abilities ask (``[answers]``), steps (``[[step]]``), deck checks
(``[[deck_check]]``) and expectations (``[expect]``, ``[expect.view.S.P]``).  A case drives
the engine through the public interface: each step becomes R24.2's actions, applied on a
clone kept only if every one is accepted; questions are answered from ``[answers]``.

Every problem of a bad case names its line (``path:LINE: [table] key: ...``); a bad case is
never run.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Optional

import attrs

from wgdsl.kernel.api import rule_matches, same_number

from .rulings import Result, _Loader, loaded
from .toml_text import shown, type_name

GAME_ID = "imitation-world"
SEATS = ("A", "B")
PHASES = ("start", "ripan", "draw", "cost", "main1", "battle", "main2", "end")
TOP_KEYS = ("case", "state", "answers", "step", "expect", "deck_check")
CASE_KEYS = ("id", "game", "source", "question", "answer", "cards")
STATE_KEYS = ("active", "turn", "phase", "max_turns", "A", "B", "territory")
PLAYER_KEYS = ("aga", "hand", "deck", "barriers", "cost", "set", "trash", "past")
SET_KEYS = ("card", "state", "new", "attacked", "blocked", "enchant", "enchant_owner")
STEP_KEYS = {  # action -> (required, optional)
    "place_cost": (("card",), ("pile", "mark")),
    "play": (("card",), ("attach", "target")),
    "activate": (("card",), ("target",)),
    "attack": (("attackers", "target"), ()),
    "block": (("blockers",), ()),
    "next": ((), ()),
    "end_turn": ((), ()),
}
EXPECT_KEYS = ("winner", "win_reason", "returns", "turn", "active", "phase", "step",
               "territory", "A", "B", "view")
EXPECT_PLAYER_KEYS = ("aga_face_up", "hand", "deck", "deck_top", "deck_bottom", "barriers",
                      "cost", "set", "trash", "past", "hand_count", "deck_count",
                      "barrier_count", "cost_count", "set_count", "trash_count", "past_count")
VIEW_KEYS = ("aga", "hand", "deck", "barriers", "cost")
DECK_KEYS = ("reference", "remove", "add", "aga", "cards", "file", "variant", "expect", "rule")


@attrs.define
class IWStep:
    action: str
    player: Optional[str] = None
    args: dict = attrs.Factory(dict)
    illegal: bool = False
    rule: Optional[str] = None

    def describe(self, seat: str) -> str:
        parts = [f"step {self.action}"]
        for k, v in self.args.items():
            parts.append(f"{k}={v}" if not isinstance(v, list) else f"{k}=[{', '.join(v)}]")
        return " ".join(parts) + f" by {seat}"


@attrs.define
class IWCase:
    id: str
    path: str
    game: Any
    table: Any
    board: Optional[dict]
    source: str = ""
    question: str = ""
    answer: str = ""
    answers: dict = attrs.Factory(dict)
    steps: list = attrs.Factory(list)
    expect: dict = attrs.Factory(dict)
    deck_checks: list = attrs.Factory(list)
    id_line: int = 0


# ====================================================================== loading
class _IWLoader(_Loader):
    def __init__(self, path: Path, lines):
        super().__init__(path, None, lines)
        self.table = None

    def cid(self, value: Any, where: str, at: tuple, types=None, anonymous=False):
        if not isinstance(value, str):
            self.problem(where, f"a card id must be a string, not {type_name(value)} "
                                f"`{shown(value)}`", at=at)
            return None
        if value == "?" and anonymous:
            return value
        cards = self.table.cards
        if value not in cards:
            from wgdsl.lang.diagnostics import did_you_mean

            self.problem(where, f"unknown card id `{value}`",
                         did_you_mean(value, list(cards)), at=at)
            return None
        if types is not None and cards[value].type not in types:
            self.problem(where, f"{value} is {cards[value].type}, not "
                                f"{' or '.join(types)}", at=at)
            return None
        return value

    def ids(self, table: dict, key: str, where: str, at: tuple, anonymous=True) -> list:
        if key not in table:
            return []
        value = table[key]
        if not isinstance(value, list):
            self.problem(where, f"`{key}` must be a list of card ids, not {type_name(value)}",
                         at=at + (key,))
            return []
        out = []
        for n, v in enumerate(value):
            c = self.cid(v, f"{where} {key}", at + (key, n), anonymous=anonymous)
            if c is not None:
                out.append(c)
        return out

    def load(self, data: dict) -> Optional[IWCase]:
        from wgdsl.games import load_game

        case_t, case_id, texts = self.case_header(data, TOP_KEYS, CASE_KEYS)
        game = load_game(GAME_ID)
        rel = self.typed(case_t, "cards", str, "[case]", ("case",))
        try:
            table = game.table(None if rel is None else self.path.parent / rel)
        except Exception as err:  # a card set with errors: its diagnostics
            self.problem("[case] cards", f"cannot read the card set: {err}", at=("case", "cards"))
            return None
        from wgdsl.games.imitation_world.board import with_anonymous

        self.table = with_anonymous(table)
        board = self.load_state(data) if ("state" in data or "step" in data
                                          or "expect" in data) else None
        case = IWCase(case_id or "", str(self.path), game, self.table, board, **texts)
        if self.lines is not None:
            case.id_line = self.lines.line(("case", "id"))
        case.answers = self.load_answers(data)
        case.steps = self.load_steps(data)
        case.expect = self.load_expect(data)
        case.deck_checks = self.load_decks(data)
        return None if self.problems else case

    def table_of(self, parent, key, where, at):
        return _Loader.table(self, parent, key, where, at)

    # ---------------------------------------------------------------- [state]
    def load_state(self, data: dict) -> dict:
        st = self.table_of(data, "state", "top level", ())
        self.keys(st, STATE_KEYS, "[state]", ("state",))
        active = st.get("active", "A")
        if self.one_of(active, SEATS, "[state] active", "a seat", ("state", "active")) is None:
            active = "A"
        turn = self.typed(st, "turn", int, "[state]", ("state",), 3 if active == "A" else 4)
        if turn < 1:
            self.problem("[state] turn", f"a turn is 1 or more, not {turn}", at=("state", "turn"))
        phase = st.get("phase", "main1")
        if self.one_of(phase, PHASES, "[state] phase", "a phase", ("state", "phase")) is None:
            phase = "main1"
        first = active if turn % 2 == 1 else ("B" if active == "A" else "A")
        if turn == 1 and first == active and phase in ("draw", "battle"):
            self.problem("[state] phase", f"the first player's turn 1 has no {phase} phase "
                                          "(R6.2)", at=("state", "phase"))
        max_turns = self.typed(st, "max_turns", int, "[state]", ("state",), 500)
        board = {"active": active, "turn": turn, "phase": phase, "max_turns": max_turns,
                 "players": {s: self.load_player(st, s) for s in SEATS}, "territory": None}
        terr = self.table_of(st, "territory", "[state]", ("state",))
        if terr:
            self.keys(terr, ("card", "controller"), "[state.territory]", ("state", "territory"))
            card = self.cid(terr.get("card"), "[state.territory] card",
                            ("state", "territory", "card"), types=("territory",))
            if "controller" not in terr:
                self.problem("[state.territory]", "`card` needs its `controller` (A or B)",
                             at=("state", "territory"))
            ctrl = self.one_of(terr.get("controller", "A"), SEATS,
                               "[state.territory] controller", "a seat",
                               ("state", "territory", "controller"))
            board["territory"] = (card, ctrl)
        return board

    def load_player(self, st: dict, s: str) -> dict:
        where, at = f"[state.{s}]", ("state", s)
        p = self.table_of(st, s, "[state]", ("state",))
        self.keys(p, PLAYER_KEYS, where, at)
        plain = self.table.plain_aga
        if "aga" not in p and plain is None:
            self.problem(where, "the card set has no aga without abilities to take when "
                         "`aga` is not given", at=at)
        default = plain.id if plain is not None else "?"
        out = {"aga": self.cid(p.get("aga", default), f"{where} aga", at + ("aga",),
                               types=("aga",)) or default}
        for key in ("hand", "deck", "trash", "past"):
            out[key] = self.ids(p, key, where, at)
        bar = p.get("barriers", 5)
        if isinstance(bar, bool) or not isinstance(bar, (int, list)):
            self.problem(where, "`barriers` is a count 0-5 or a list of at most 5 ids",
                         at=at + ("barriers",))
            bar = 5
        if isinstance(bar, int):
            if not 0 <= bar <= 5:
                self.problem(where, f"`barriers` {bar}: a player has 0 to 5 (R18.5)",
                             at=at + ("barriers",))
            out["barriers"] = ["?"] * max(0, min(5, bar))
        else:
            if len(bar) > 5:
                self.problem(where, f"`barriers` lists {len(bar)} cards; at most 5 (R18.5)",
                             at=at + ("barriers",))
            out["barriers"] = self.ids(p, "barriers", where, at)
        out["cost"] = self.load_cost(p.get("cost", {}), where, at + ("cost",), out["aga"])
        out["set"] = []
        entries = p.get("set", [])
        if not isinstance(entries, list):
            self.problem(where, "`set` is a list of tables ({ card = ID, ... })", at=at + ("set",))
            entries = []
        for n, e in enumerate(entries):
            ew, ea = f"{where} set[{n}]", at + ("set", n)
            if not isinstance(e, dict):
                self.problem(ew, "an entry is a table { card = ID, ... }", at=ea)
                continue
            self.keys(e, SET_KEYS, ew, ea)
            if "card" not in e:
                self.problem(ew, "missing `card`", at=ea)
                continue
            card = self.cid(e["card"], ew, ea + ("card",), types=("geuda", "object"))
            if card is None:
                continue
            entry = {"card": card, "state": e.get("state", "ripan")}
            if entry["state"] not in ("pan", "ripan"):
                self.problem(ew, "`state` is \"pan\" or \"ripan\"", at=ea + ("state",))
            for mark in ("new", "attacked", "blocked"):
                v = self.typed(e, mark, bool, ew, ea, False)
                if v and self.table.cards[card].type == "object":
                    self.problem(ew, f"an object has no `{mark}` mark (R1.7)", at=ea + (mark,))
                entry[mark] = v
            if "enchant" in e:
                if self.table.cards[card].type == "object":
                    self.problem(ew, "an enchant goes on a geuda, not an object (R12.1)",
                                 at=ea + ("enchant",))
                entry["enchant"] = self.cid(e["enchant"], ew, ea + ("enchant",),
                                            types=("enchant",))
                entry["enchant_owner"] = self.one_of(e.get("enchant_owner", s), SEATS, ew,
                                                     "a seat", ea + ("enchant_owner",)) or s
            elif "enchant_owner" in e:
                self.problem(ew, "`enchant_owner` without `enchant`", at=ea + ("enchant_owner",))
            out["set"].append(entry)
        return out

    def load_cost(self, cost: Any, where: str, at: tuple, aga: str) -> dict:
        if not isinstance(cost, dict):
            self.problem(where, "`cost` is a table: { unmarked = N } or { FACTION = N or [ids] }",
                         at=at)
            return {"unmarked": []}
        if not cost:
            return {"unmarked": []}
        factions = self.table.cost_factions
        keys = set(cost)
        if "unmarked" in keys and len(keys) > 1:
            self.problem(where, "`cost` is either { unmarked = N } or marked piles, never both "
                                "(R8.4)", at=at)
            return {"unmarked": []}
        out = {}
        from wgdsl.games.imitation_world import rules

        permits = self.table.cards[aga].aga() if aga in self.table.cards else None
        for key, value in cost.items():
            if key != "unmarked" and key not in factions:
                self.problem(where, f"`cost` key `{key}` is neither `unmarked` nor a cost "
                                    f"faction ({', '.join(factions)})", at=at + (key,))
                continue
            if key != "unmarked" and permits is not None and not permits.allows(key):
                self.problem(where, f"a marker {key} that the aga {aga} does not permit (R8.6)",
                             at=at + (key,))
            if isinstance(value, int) and not isinstance(value, bool):
                ids = ["?"] * max(0, value)
            elif isinstance(value, list):
                ids = self.ids(cost, key, where, at[:-1] + ("cost",))
            else:
                self.problem(where, f"`cost` {key}: a count or a list of ids", at=at + (key,))
                continue
            if key != "unmarked" and not ids:
                self.problem(where, f"the marked pile {key} holds no card (R8.4)", at=at + (key,))
            out[key] = ids
        del rules
        return out or {"unmarked": []}

    # ---------------------------------------------------------------- answers and steps
    def load_answers(self, data: dict) -> dict:
        ans = self.table_of(data, "answers", "top level", ())
        self.keys(ans, SEATS, "[answers]", ("answers",))
        out = {}
        for s in SEATS:
            v = ans.get(s, [])
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                self.problem("[answers]", f"`{s}` is a list of strings", at=("answers", s))
                v = []
            out[s] = list(v)
        return out

    def load_steps(self, data: dict) -> list:
        steps = data.get("step", [])
        if not isinstance(steps, list):
            self.problem("top level", "`step` is an array of tables ([[step]])", at=("step",))
            return []
        out = []
        for n, t in enumerate(steps):
            where, at = f"[[step]] {n + 1}", ("step", n)
            if not isinstance(t, dict):
                self.problem(where, "a step is a table", at=at)
                continue
            action = t.get("action")
            if action not in STEP_KEYS:
                self.one_of(action, STEP_KEYS, where, "`action`", at + ("action",))
                continue
            req, opt = STEP_KEYS[action]
            self.keys(t, ("action", "player", "expect", "rule") + req + opt, where, at)
            for k in req:
                if k not in t:
                    self.problem(where, f"`{action}` needs `{k}`", at=at)
            player = t.get("player")
            if player is not None:
                self.one_of(player, SEATS, where, "`player`", at + ("player",))
            illegal = t.get("expect")
            if illegal is not None and illegal != "illegal":
                self.problem(where, "`expect` is \"illegal\" (or absent)", at=at + ("expect",))
            if "rule" in t and illegal != "illegal":
                self.problem(where, "`rule` goes with `expect = \"illegal\"`", at=at + ("rule",))
            args = {}
            for k in req + opt:
                if k not in t:
                    continue
                v = t[k]
                if k in ("attackers", "blockers"):
                    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                        self.problem(where, f"`{k}` is a list of references", at=at + (k,))
                        continue
                    if k == "attackers" and not v:
                        self.problem(where, "`attackers = []` declares nothing", at=at + (k,))
                elif not isinstance(v, str):
                    self.problem(where, f"`{k}` must be a string, not {type_name(v)}",
                                 at=at + (k,))
                    continue
                args[k] = v
            rule = self.typed(t, "rule", str, where, at)
            out.append(IWStep(action, player, args, illegal == "illegal", rule))
        return out

    def load_expect(self, data: dict) -> dict:
        exp = self.table_of(data, "expect", "top level", ())
        self.keys(exp, EXPECT_KEYS, "[expect]", ("expect",))
        w, at = "[expect]", ("expect",)
        if "winner" in exp:
            self.one_of(exp["winner"], SEATS + ("none",), w, "`winner`", at + ("winner",))
        if "win_reason" in exp:
            self.one_of(exp["win_reason"], ("R20.1", "R20.2", "R20.6"), w, "`win_reason`",
                        at + ("win_reason",))
        if "returns" in exp:
            r = exp["returns"]
            if not isinstance(r, dict) or set(r) != set(SEATS) or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in r.values()):
                self.problem(w, "`returns` is a table of both seats' numbers: { A = 1, B = 0 }",
                             at=at + ("returns",))
        turn = self.typed(exp, "turn", int, w, at)
        if turn is not None and turn < 1:
            self.problem(w, f"`turn` {turn}: turns start at 1", at=at + ("turn",))
        if "active" in exp:
            self.one_of(exp["active"], SEATS, w, "`active`", at + ("active",))
        if "phase" in exp:
            self.one_of(exp["phase"], PHASES + ("over",), w, "`phase`", at + ("phase",))
        if "step" in exp:
            self.one_of(exp["step"], ("attack", "block"), w, "`step`", at + ("step",))
        if "territory" in exp:
            t = exp["territory"]
            if isinstance(t, dict):
                tw, ta = "[expect.territory]", at + ("territory",)
                self.keys(t, ("card", "controller"), tw, ta)
                if "card" in t:
                    self.cid(t["card"], tw, ta + ("card",), types=("territory",))
                if "controller" in t:
                    self.one_of(t["controller"], SEATS, tw, "`controller`", ta + ("controller",))
            elif t != "empty":
                self.problem(w, "`territory` is \"empty\" or a table { card, controller }",
                             at=at + ("territory",))
        for seat in SEATS:
            if seat in exp:
                self.expect_player(self.table_of(exp, seat, w, at), f"[expect.{seat}]",
                                   at + (seat,))
        view = self.table_of(exp, "view", w, at)
        self.keys(view, SEATS, "[expect.view]", at + ("view",))
        for v, row in view.items():
            if not isinstance(row, dict):
                self.problem("[expect.view]", f"`{v}` is a table of players",
                             at=at + ("view", v))
                continue
            self.keys(row, SEATS, f"[expect.view.{v}]", at + ("view", v))
            for p, t in row.items():
                vw, va = f"[expect.view.{v}.{p}]", at + ("view", v, p)
                if not isinstance(t, dict):
                    self.problem(f"[expect.view.{v}]", f"`{p}` is a table", at=va)
                    continue
                self.keys(t, VIEW_KEYS, vw, va)
                if "aga" in t and t["aga"] != "hidden":
                    self.cid(t["aga"], vw, va + ("aga",), types=("aga",))
                for k in ("hand", "deck", "barriers"):
                    self.ids(t, k, vw, va)
                if "cost" in t:
                    self.expect_cost(t["cost"], vw, va + ("cost",))
        return exp

    def expect_player(self, t: dict, w: str, at: tuple) -> None:
        self.keys(t, EXPECT_PLAYER_KEYS, w, at)
        self.typed(t, "aga_face_up", bool, w, at)
        for k in ("hand", "deck", "barriers", "trash", "past"):
            self.ids(t, k, w, at)
        for k in ("deck_top", "deck_bottom"):
            if k in t:
                self.cid(t[k], w, at + (k,), anonymous=True)
        for k in ("hand_count", "deck_count", "barrier_count", "cost_count", "set_count",
                  "trash_count", "past_count"):
            n = self.typed(t, k, int, w, at)
            if n is not None and n < 0:
                self.problem(w, f"`{k}` {n}: a count is 0 or more", at=at + (k,))
        if "cost" in t:
            self.expect_cost(t["cost"], w, at + ("cost",))
        if "set" in t:
            entries = t["set"]
            if not isinstance(entries, list):
                self.problem(w, "`set` is a list of tables ({ card = ID, ... })", at=at + ("set",))
                return
            for n, e in enumerate(entries):
                ew, ea = f"{w} set[{n}]", at + ("set", n)
                if not isinstance(e, dict):
                    self.problem(ew, "an entry is a table { card = ID, ... }", at=ea)
                    continue
                self.keys(e, SET_KEYS + ("atk", "def"), ew, ea)
                if "card" in e:
                    self.cid(e["card"], ew, ea + ("card",), types=("geuda", "object"))
                if "state" in e:
                    self.one_of(e["state"], ("pan", "ripan"), ew, "`state`", ea + ("state",))
                for mark in ("new", "attacked", "blocked"):
                    self.typed(e, mark, bool, ew, ea)
                for k in ("atk", "def"):
                    self.typed(e, k, int, ew, ea)
                if "enchant" in e and e["enchant"] != "none":
                    self.cid(e["enchant"], ew, ea + ("enchant",), types=("enchant",))
                if "enchant_owner" in e:
                    self.one_of(e["enchant_owner"], SEATS, ew, "`enchant_owner`",
                                ea + ("enchant_owner",))

    def expect_cost(self, cost: Any, w: str, at: tuple) -> None:
        if not isinstance(cost, dict):
            self.problem(w, "`cost` is a table: { unmarked = N } or { FACTION = N or [ids] }",
                         at=at)
            return
        for key, value in cost.items():
            if key != "unmarked" and key not in self.table.cost_factions:
                self.problem(w, f"`cost` key `{key}` is neither `unmarked` nor a cost faction "
                                f"({', '.join(self.table.cost_factions)})", at=at + (key,))
            elif isinstance(value, list):
                self.ids(cost, key, w, at)
            elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
                self.problem(w, f"`cost` {key}: a count or a list of ids", at=at + (key,))

    def load_decks(self, data: dict) -> list:
        checks = data.get("deck_check", [])
        if not isinstance(checks, list):
            self.problem("top level", "`deck_check` is an array of tables", at=("deck_check",))
            return []
        out = []
        for n, t in enumerate(checks):
            where, at = f"[[deck_check]] {n + 1}", ("deck_check", n)
            if not isinstance(t, dict):
                self.problem(where, "a deck check is a table", at=at)
                continue
            self.keys(t, DECK_KEYS, where, at)
            if t.get("expect") not in ("legal", "illegal"):
                self.problem(where, "`expect` is \"legal\" or \"illegal\"", at=at + ("expect",))
            if "rule" in t and t.get("expect") != "illegal":
                self.problem(where, "`rule` goes with `expect = \"illegal\"`", at=at + ("rule",))
            self.typed(t, "rule", str, where, at)
            self.typed(t, "file", str, where, at)
            if "reference" in t:
                from wgdsl.games.imitation_world.decks import REFERENCE_DECKS

                self.one_of(t["reference"], REFERENCE_DECKS, where, "`reference`",
                            at + ("reference",))
            if "variant" in t:
                self.one_of(t["variant"], ("main", "starter"), where, "`variant`",
                            at + ("variant",))
            ways = [k for k in ("reference", "cards", "file") if k in t]
            if len(ways) != 1:
                self.problem(where, "name the deck one way: `reference`, `aga` + `cards`, or "
                                    "`file`", at=at)
            for k in ("remove", "add", "cards"):
                self.ids(t, k, where, at, anonymous=False)
            from wgdsl.games.imitation_world.decks import REFERENCE_DECKS

            if t.get("reference") in REFERENCE_DECKS and isinstance(t.get("remove"), list) \
                    and t.get("variant", "main") in ("main", "starter"):
                self.removable(t, where, at)
            if "aga" in t:
                self.cid(t["aga"], where, at + ("aga",))
            out.append(dict(t))
        return out

    def removable(self, t: dict, where: str, at: tuple) -> None:
        """A deck check's `remove` names ids its reference deck holds (a bad file otherwise)."""
        from wgdsl.games.imitation_world.decks import check_deck

        deck = check_deck(t["reference"], self.table, t.get("variant", "main"))[0]
        if deck is None:
            self.problem(where, f"`reference` `{t['reference']}` is not a reference deck",
                         at=at + ("reference",))
            return
        have = list(deck.cards)
        for n, i in enumerate(t["remove"]):
            if i in have:
                have.remove(i)
            else:
                self.problem(where, f"`remove` {i}: the reference deck {t['reference']} holds no "
                                    "(more) copy of it", at=at + ("remove", n))


def load(path: Path, data: dict, lines) -> IWCase:
    return loaded(_IWLoader(path, lines), data)


# ====================================================================== running
class Stop(Exception):
    """The case fails here (an answer missing or not an option)."""


def run(case: IWCase, keep: Optional[dict] = None) -> Result:
    """Run ``case``: its deck checks, its steps and the questions they raise, its
    expectations, and nothing of ``[answers]`` left over."""
    from wgdsl.games.imitation_world.board import state_from_board
    from wgdsl.kernel.errors import IllegalAction

    def fail(message: str) -> Result:
        return Result(case.path, case.id, False, message)

    for n, check in enumerate(case.deck_checks):
        diff = _deck_check(case, check)
        if diff is not None:
            return fail(f"deck check {n + 1}: {diff}")
    if case.board is None:
        return Result(case.path, case.id, True)
    answers = {s: list(a) for s, a in case.answers.items()}
    counts = {s: 0 for s in SEATS}
    try:
        state = state_from_board(case.game, case.table, case.board)
        if keep is not None:
            keep["state"] = state
        for step in case.steps:
            seat = step.player or _acting(state)
            label = step.describe(seat)
            twin = state.clone()
            saved = ({s: list(a) for s, a in answers.items()}, dict(counts))
            try:
                _apply_step(twin, seat, step, answers, counts)
            except IllegalAction as err:
                answers, counts = saved
                if not step.illegal:
                    return fail(f"{label} was refused: {err}")
                if step.rule and not rule_matches(step.rule, err.rule):
                    return fail(f"{label} was refused citing {err.rule or 'no rule'}, not "
                                f"{step.rule}: {err.reason}")
                continue
            if step.illegal:
                return fail(f"{label} was accepted, but the case expects it to be refused")
            state = twin
            if keep is not None:
                keep["state"] = state
    except Stop as err:
        return fail(str(err))
    except Exception as err:  # an engine bug must not hide the other cases
        return fail(f"the engine failed: {type(err).__name__}: {err}")
    diff = case_difference(case, state)
    if diff is not None:
        return fail(diff)
    left = [f"{s}: {', '.join(a)}" for s, a in answers.items() if a]
    if left:
        return fail("answers left unused: " + "; ".join(left))
    return Result(case.path, case.id, True)


def _acting(state) -> str:
    cur = state.current_seats()
    return cur[0] if cur else state.active


def _resolve(state, text: str, step_seat: Optional[str] = None) -> str:
    """A step's card reference as R24.3's REF (``B:ID@2``) or IllegalAction."""
    from wgdsl.kernel.errors import IllegalAction

    if text == "territory":
        return text
    d = state.d
    seat, _, rest = text.rpartition(":")
    ident, _, k = rest.partition("@")
    found = []
    for s in ((seat,) if seat else SEATS):
        if s not in SEATS:
            continue
        same = [u for u in d.setz[s] if d.cid[u] == ident]
        if k:
            if k.isdigit() and 1 <= int(k) <= len(same):
                found.append(same[int(k) - 1])
        else:
            found.extend(same)
    if len(found) != 1:
        how = "no card" if not found else "several cards"
        raise IllegalAction(f"`{text}` fits {how} of the set zones", "R23.1")
    return state.ref(found[0])


def _phase_refusal(state, seat: str, kind: str):
    """R20.4, R6.4 and the phase/step checks, before any reference is read."""
    from wgdsl.kernel.errors import IllegalAction

    if state.is_terminal():
        return IllegalAction("the game is over", "R20.4")
    if seat not in state.current_seats():
        return IllegalAction(f"{seat} is not the seat to act now", "R6.4")
    dk = state.decision_kind()
    want = {"place_cost": ("cost", "R8.1"), "play": ("main", "R10.3"),
            "activate": ("main", "R10.3"), "attack": ("attack", "R15.3"),
            "block": ("block", "R6.4")}.get(kind)
    if want is not None and dk != want[0]:
        return IllegalAction(f"`{kind}` is not taken now (the game waits on {dk})", want[1])
    return None


def step_plan(state, step: IWStep, answers: dict) -> tuple:
    """(seat, the action texts ``step`` applies on ``state``, why it is refused or None),
    found by running it on a copy, its abilities' questions answered from ``answers`` (a
    case's ``[answers]``) and, past them, by their first option: what ``wgdsl explore``
    walks, branching at each question itself."""
    from wgdsl.kernel.errors import IllegalAction

    seat = step.player or _acting(state)
    twin = state.clone()
    texts: list = []
    try:
        _apply_step(twin, seat, step, {s: list(a) for s, a in answers.items()},
                    {s: 0 for s in SEATS}, record=texts)
    except IllegalAction as err:
        return seat, tuple(texts), str(err)
    except Stop as err:
        return seat, tuple(texts), str(err)
    return seat, tuple(texts), None


def _apply_step(state, seat: str, step: IWStep, answers: dict, counts: dict,
                record: Optional[list] = None) -> None:
    """Run ``step`` as the engine's actions; ``record``: the texts applied, in order (a
    question's answer is not one: ``record`` is for a walk that branches there), and past
    ``answers`` a question takes its first option."""
    from wgdsl.kernel.errors import IllegalAction

    a = step.args
    refused = _phase_refusal(state, seat, step.action) if step.action not in (
        "next", "end_turn") else None
    if refused is None and step.action in ("next", "end_turn"):
        if state.is_terminal():
            refused = IllegalAction("the game is over", "R20.4")
        elif seat not in state.current_seats():
            refused = IllegalAction(f"{seat} is not the seat to act now", "R6.4")
    if refused is not None:
        raise refused

    def do(text: str) -> None:
        if record is not None:
            record.append(text)
        state.apply(seat, state.parse_action(seat, text))
        _settle(state, answers, counts, lenient=record is not None)

    if step.action == "place_cost":
        zone = state.cost_zone(seat)
        pile, mark = a.get("pile"), a.get("mark")
        if not zone.marked:
            if (pile is None) != (mark is None):
                raise IllegalAction("a second faction names both `pile` and `mark`", "R8.5")
            text = f"cost {a['card']}" + (f" to {pile} mark {mark}" if pile else "")
        else:
            if mark is not None:
                raise IllegalAction("markers never change once the zone is marked", "R8.4")
            if pile is None:
                raise IllegalAction("a marked zone: name the `pile` the card joins or opens",
                                    "R8.6")
            text = f"cost {a['card']} to {pile}"
        do(text)
    elif step.action == "play":
        text = f"play {a['card']}"
        if "attach" in a:
            text += f" on {_resolve(state, a['attach'])}"
        elif "target" in a:
            t = a["target"]
            text += f" target {_resolve(state, t) if (':' in t or _on_field(state, t)) else t}"
        do(text)
    elif step.action == "activate":
        text = f"activate {_resolve(state, a['card'])}"
        if "target" in a:
            t = a["target"]
            text += f" target {_resolve(state, t) if (':' in t or _on_field(state, t)) else t}"
        do(text)
    elif step.action == "attack":
        refs = [_resolve(state, r) for r in a["attackers"]]
        if len(set(refs)) != len(refs):
            raise IllegalAction("an attacker is named twice", "R15.3")
        target = a["target"] if a["target"] == "player" else _resolve(state, a["target"])
        if len(refs) == 1:
            do(f"attack {refs[0]} {target}")
            if state.decision_kind() == "join":
                do("done")
            return
        linked = [r for r in refs if state.card(state.find_ref(r)).linked]
        if not linked:
            raise IllegalAction("several attackers need one with 連結攻撃", "R15.5")
        declarer = linked[0]
        do(f"attack {declarer} {target}")
        for r in refs:
            if r == declarer:
                continue
            if state.decision_kind() != "join":
                raise IllegalAction(f"{r} cannot join the linked attack", "R15.5")
            do(f"join {r}")
        if state.decision_kind() == "join":
            do("done")
        for r in refs:
            if state.decision_kind() != "front":
                break
            do(f"front {r}")
    elif step.action == "block":
        refs = [_resolve(state, r) for r in a["blockers"]]
        if len(set(refs)) != len(refs):
            raise IllegalAction("a blocker is named twice", "R16.2")
        for r in refs:
            do(f"block {r}")
        do("done")
    elif step.action == "next":
        do("next")
    else:  # end_turn
        start = state.active
        for _ in range(40):
            if state.is_terminal() or (state.active != start and state.phase == "cost"
                                       and state.decision_kind() == "cost"):
                return
            cur = state.current_seats()
            if not cur or cur[0] != start and state.active == start:
                raise IllegalAction("end_turn is not taken in block time", "R6.4")
            dk = state.decision_kind()
            do("done" if dk == "join" else "next")
        raise Stop("end_turn did not reach the other player's cost phase")


def _on_field(state, text: str) -> bool:
    d = state.d
    return any(d.cid[u] == text.partition("@")[0] for s in SEATS for u in d.setz[s])


def _settle(state, answers: dict, counts: dict, lenient: bool = False) -> None:
    """Answer the questions abilities ask, from ``[answers]`` in order (R21.2-R21.3);
    ``lenient``: past them, the first option."""
    while not state.is_terminal() and state.question is not None:
        dec = state.question.decision
        seat = dec.seat
        queue = answers.get(seat, [])
        counts[seat] = counts.get(seat, 0) + 1
        asked = f"{dec.card}'s {dec.kind}" if dec.card else dec.kind
        if not queue and lenient:
            state.apply(seat, state.parse_action(seat, dec.options[0]))
            continue
        if not queue:
            raise Stop(f"{seat} is asked {asked} ({', '.join(dec.options)}) but has no answer "
                       "left")
        given = queue.pop(0)
        word = {"order": "order ", "choose": "choose "}.get(dec.kind, "")
        text = given
        if dec.kind == "choose" and (":" in given or _on_field(state, given)):
            try:
                text = _resolve(state, given)
            except Exception:
                text = given
        option = word + text
        if option not in dec.options:
            raise Stop(f"{seat}'s answer {counts[seat]} \"{given}\" is not an option for "
                       f"{asked} ({', '.join(dec.options)})")
        state.apply(seat, state.parse_action(seat, option))


# ====================================================================== expectations
def _multiset(a, b) -> bool:
    return Counter(a) == Counter(b)


def case_difference(case: IWCase, state) -> Optional[str]:
    exp = case.expect
    obs = state.observation("A")
    whole = state.to_dict()
    if "winner" in exp:
        won = state.winners()
        actual = won[0] if won else "none"
        if actual != exp["winner"]:
            return f"winner: expected {exp['winner']} but was {actual}"
    if "win_reason" in exp and state.win_reason() != exp["win_reason"]:
        return f"win_reason: expected {exp['win_reason']} but was {state.win_reason() or 'none'}"
    if "returns" in exp:
        if not state.is_terminal():
            return "returns: the game is not over"
        if not same_number(dict(exp["returns"]), state.returns()):
            return f"returns: expected {exp['returns']} but was {state.returns()}"
    for key, actual in (("turn", state.turn), ("active", state.active),
                        ("phase", state.phase)):
        if key in exp and not same_number(exp[key], actual):
            return f"{key}: expected {exp[key]} but was {actual}"
    if "step" in exp:
        actual = obs["step"]
        if actual != exp["step"]:
            return f"step: expected {exp['step']} but was {actual}"
    if "territory" in exp:
        t = whole["territory"]
        want = exp["territory"]
        if want == "empty":
            if t is not None:
                return f"territory: expected empty but holds {t['card']}"
        elif isinstance(want, dict):
            for k, v in want.items():
                if t is None or t.get(k) != v:
                    return f"territory.{k}: expected {v} but was {None if t is None else t.get(k)}"
    for s in SEATS:
        if s in exp:
            diff = _player_difference(s, exp[s], whole["players"][s])
            if diff is not None:
                return diff
    for v, row in exp.get("view", {}).items():
        seen = state.observation(v)["players"]
        for p, want in row.items():
            got = seen[p]
            for k, value in want.items():
                prefix = f"view.{v}.{p}.{k}"
                if k == "aga":
                    if got["aga"] != value:
                        return f"{prefix}: expected {value} but was {got['aga']}"
                elif k == "hand":
                    if not _multiset(got["hand"], value):
                        return f"{prefix}: expected {sorted(value)} but was {got['hand']}"
                elif k in ("deck", "barriers"):
                    if got[k] != value:
                        return f"{prefix}: expected {value} but was {got[k]}"
                elif k == "cost":
                    diff = _cost_difference(prefix, value, got["cost"])
                    if diff is not None:
                        return diff
    return None


def _cost_difference(prefix: str, want: dict, got: dict) -> Optional[str]:
    if not want:
        want = {"unmarked": 0}
    if set(want) != set(got):
        return f"{prefix}: expected piles {sorted(want)} but were {sorted(got)}"
    for k, v in want.items():
        if isinstance(v, int):
            if len(got[k]) != v:
                return f"{prefix}.{k}: expected {v} cards but were {len(got[k])}"
        elif not _multiset(got[k], v):
            return f"{prefix}.{k}: expected {sorted(v)} but were {sorted(got[k])}"
    return None


def _player_difference(s: str, want: dict, got: dict) -> Optional[str]:
    counts = {"hand_count": "hand", "deck_count": "deck", "barrier_count": "barriers",
              "set_count": "set", "trash_count": "trash", "past_count": "past"}
    for k, v in want.items():
        prefix = f"{s}.{k}"
        if k == "aga_face_up":
            if got["aga_face_up"] != v:
                return f"{prefix}: expected {v} but was {got['aga_face_up']}"
        elif k in ("hand", "trash", "past"):
            if not _multiset(got[k], v):
                return f"{prefix}: expected {sorted(v)} but was {sorted(got[k])}"
        elif k in ("deck", "barriers"):
            if got[k] != v:
                return f"{prefix}: expected {v} but was {got[k]}"
        elif k == "deck_top":
            if not got["deck"] or got["deck"][0] != v:
                return f"{prefix}: expected {v} but was {got['deck'][:1] or 'an empty deck'}"
        elif k == "deck_bottom":
            if not got["deck"] or got["deck"][-1] != v:
                return f"{prefix}: expected {v} but was {got['deck'][-1:] or 'an empty deck'}"
        elif k in counts:
            if len(got[counts[k]]) != v:
                return f"{prefix}: expected {v} but was {len(got[counts[k]])}"
        elif k == "cost_count":
            n = sum(len(p) for p in got["cost"].values())
            if n != v:
                return f"{prefix}: expected {v} but was {n}"
        elif k == "cost":
            diff = _cost_difference(prefix, v, got["cost"])
            if diff is not None:
                return diff
        elif k == "set":
            diff = _set_difference(prefix, v, got["set"])
            if diff is not None:
                return diff
    return None


def _entry_fits(want: dict, e: dict) -> bool:
    for k, v in want.items():
        if k == "state":
            if ("pan" if e["pan"] else "ripan") != v:
                return False
        elif k == "enchant":
            if (e["enchant"] or "none") != v:
                return False
        elif k in ("atk", "def"):
            if not same_number(v, e[k]):
                return False
        elif e.get(k, False if k in ("new", "attacked", "blocked") else None) != v:
            return False
    return True


def _set_difference(prefix: str, want: list, got: list) -> Optional[str]:
    for w in want:
        if not any(_entry_fits(w, e) for e in got):
            return f"{prefix}: no entry matches {_inline(w)}"
    if len(want) != len(got):
        return f"{prefix}: expected {len(want)} entries but there are {len(got)}"

    def match(i: int, used: set) -> bool:
        if i == len(want):
            return True
        return any(j not in used and _entry_fits(want[i], e) and match(i + 1, used | {j})
                   for j, e in enumerate(got))

    if not match(0, set()):
        return f"{prefix}: the entries do not pair one to one with {[e['card'] for e in got]}"
    return None


def _inline(d: dict) -> str:
    def v(x):
        if isinstance(x, bool):
            return "true" if x else "false"
        if isinstance(x, str):
            return f'"{x}"'
        return str(x)

    return "{ " + ", ".join(f"{k} = {v(x)}" for k, x in d.items()) + " }"


# ====================================================================== deck checks
def _deck_check(case: IWCase, check: dict) -> Optional[str]:
    from wgdsl.games.imitation_world import rules

    table = case.table
    variant = check.get("variant", "main")
    if "reference" in check or "file" in check:
        from wgdsl.games.imitation_world.decks import check_deck

        name = check.get("reference") or str(Path(case.path).parent / check["file"])
        deck, diagnostics, _, _ = check_deck(name, table, variant)
        if deck is None:  # not a deck file at all (its R4 problems are judged below)
            return "the deck cannot be read: " + "; ".join(d.message for d in diagnostics)
        aga, cards = deck.aga, list(deck.cards)
    else:
        aga, cards = check.get("aga"), list(check.get("cards", []))
    for i in check.get("remove", []):
        if i not in cards:
            return f"remove {i}: the deck has no {i}"
        cards.remove(i)
    cards += list(check.get("add", []))
    if "aga" in check:
        aga = check["aga"]
    aga_card = table.cards.get(aga) if aga else None
    problems = list(rules.deck_problems([table[i].deck_card() for i in cards],
                                        aga_card.aga() if aga_card is not None
                                        and aga_card.type == "aga" else None, variant))
    if aga_card is not None and aga_card.type != "aga":
        problems.append(rules.Problem("IW R4.3", f"{aga} is not an aga"))
    cited = [p.rule.removeprefix("IW ") for p in problems]
    if check.get("expect") == "legal":
        if problems:
            return f"expected legal but: {problems[0].message} ({cited[0]})"
        return None
    if not problems:
        return "expected illegal but the deck is legal"
    rule = check.get("rule")
    if rule and not any(rule_matches(rule, c) for c in cited):
        return f"expected a problem citing {rule} but found {', '.join(cited)}"
    return None
