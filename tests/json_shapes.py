"""The JSON documents of docs/json.md as checks: every key present, none extra, each of
its type.  ``assert_play(doc)`` and ``assert_simulate(doc)`` raise AssertionError naming
the path of the first difference."""

from __future__ import annotations

SQUARES = ("A1", "A2", "A3", "C1", "C2", "C3", "B1", "B2", "B3")
OPT = object()  # marks "or null"


def _type(path, value, kind, nullable=False):
    if value is None:
        assert nullable, f"{path} is null"
        return
    if kind is float:
        assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{path}: {value!r}"
    else:
        assert isinstance(value, kind) and not (kind is int and isinstance(value, bool)), \
            f"{path}: {value!r} is not {kind.__name__}"


def _keys(path, obj, keys):
    assert isinstance(obj, dict), f"{path} is not an object"
    assert set(obj) == set(keys), f"{path}: keys {sorted(obj)} != {sorted(keys)}"


def _strs(path, value):
    assert isinstance(value, list), f"{path} is not an array"
    for i, v in enumerate(value):
        _type(f"{path}[{i}]", v, str)


LOG_KEYS = ("turn", "player", "kind", "text")


def assert_log(path, log):
    assert isinstance(log, list) and log, f"{path} is not a non-empty array"
    for i, e in enumerate(log):
        _keys(f"{path}[{i}]", e, LOG_KEYS)
        _type(f"{path}[{i}].turn", e["turn"], int)
        _type(f"{path}[{i}].player", e["player"], str, nullable=True)
        _type(f"{path}[{i}].kind", e["kind"], str)
        _type(f"{path}[{i}].text", e["text"], str)


BOARD_KEYS = ("turn", "active", "phase", "first", "played", "stun_set", "winner", "win_reason",
              "field", "players")
PLAYER_KEYS = ("points", "squares", "hand", "stock", "break", "standby", "pool")


def assert_board(path, b):
    _keys(path, b, BOARD_KEYS)
    _type(f"{path}.turn", b["turn"], int)
    assert b["active"] in ("A", "B") and b["first"] in ("A", "B")
    assert b["phase"] in ("start", "draw", "standby", "gain", "end")
    _type(f"{path}.played", b["played"], bool)
    _type(f"{path}.stun_set", b["stun_set"], bool)
    assert b["winner"] in (None, "A", "B")
    _type(f"{path}.win_reason", b["win_reason"], str, nullable=True)
    _keys(f"{path}.field", b["field"], SQUARES)
    for sq, stack in b["field"].items():
        if stack is None:
            continue
        _keys(f"{path}.field.{sq}", stack, ("holder", "points", "cards"))
        assert stack["holder"] in ("A", "B")
        _type(f"{path}.field.{sq}.points", stack["points"], int)
        assert stack["cards"], f"{path}.field.{sq}.cards is empty (an empty square is null)"
        for i, c in enumerate(stack["cards"]):
            _keys(f"{path}.field.{sq}.cards[{i}]", c, ("id", "copy_of"))
            _type(f"{path}.field.{sq}.cards[{i}].id", c["id"], str)
            _type(f"{path}.field.{sq}.cards[{i}].copy_of", c["copy_of"], str, nullable=True)
    _keys(f"{path}.players", b["players"], ("A", "B"))
    for p, pl in b["players"].items():
        q = f"{path}.players.{p}"
        _keys(q, pl, PLAYER_KEYS)
        _type(f"{q}.points", pl["points"], int)
        _type(f"{q}.squares", pl["squares"], int)
        for zone in ("hand", "stock", "break"):
            _strs(f"{q}.{zone}", pl[zone])
        assert isinstance(pl["standby"], list) and len(pl["standby"]) == 5
        for i, s in enumerate(pl["standby"]):
            if s is not None:
                _keys(f"{q}.standby[{i}]", s, ("card", "exhausted"))
                _type(f"{q}.standby[{i}].card", s["card"], str)
                _type(f"{q}.standby[{i}].exhausted", s["exhausted"], bool)
        assert isinstance(pl["pool"], dict)
        for color, n in pl["pool"].items():
            assert color in ("blue", "green", "red", "yellow")
            _type(f"{q}.pool.{color}", n, int)
        # points are the costs of the squares held (R1.5)
        held = [s for s in b["field"].values() if s is not None and s["holder"] == p]
        assert pl["points"] == sum(s["points"] for s in held)
        assert pl["squares"] == len(held)


PLAY_KEYS = ("command", "seed", "games_requested", "first", "max_turns", "starter", "decks",
             "agents", "interrupted", "games", "summary")
RECORD_KEYS = ("seed", "first", "winner", "reason", "turns", "actions", "stopped", "log", "board")
SUMMARY_KEYS = ("games", "wins", "win_rate", "no_winner", "first_player_win_rate",
                "average_turns", "average_actions", "win_conditions")
REASONS = ("R12.1", "R12.2", "R12.3", "turn limit", "runaway effects")


def assert_record(path, r, with_log):
    _keys(path, r, RECORD_KEYS)
    _type(f"{path}.seed", r["seed"], int)
    assert r["first"] in ("A", "B")
    assert r["winner"] in (None, "A", "B")
    assert r["reason"] in REASONS, r["reason"]
    assert (r["winner"] is None) == (r["reason"] in ("turn limit", "runaway effects"))
    _type(f"{path}.turns", r["turns"], int)
    _type(f"{path}.actions", r["actions"], int)
    _type(f"{path}.stopped", r["stopped"], str, nullable=r["winner"] is not None)
    if r["winner"] is not None:
        assert r["stopped"] is None
    if with_log:
        assert_log(f"{path}.log", r["log"])
        assert_board(f"{path}.board", r["board"])
        assert r["board"]["winner"] == r["winner"]
        assert r["board"]["win_reason"] == (r["reason"] if r["winner"] else None)
    else:
        assert r["log"] is None and r["board"] is None


def assert_play(doc, with_log):
    _keys("$", doc, PLAY_KEYS)
    assert doc["command"] == "play"
    for key in ("seed", "games_requested", "max_turns"):
        _type(f"$.{key}", doc[key], int)
    assert doc["first"] in ("A", "B", "alternate")
    _type("$.starter", doc["starter"], bool)
    _type("$.interrupted", doc["interrupted"], bool)
    for key in ("decks", "agents"):
        _keys(f"$.{key}", doc[key], ("A", "B"))
        for p in "AB":
            _type(f"$.{key}.{p}", doc[key][p], str)
    assert isinstance(doc["games"], list)
    for i, r in enumerate(doc["games"]):
        assert_record(f"$.games[{i}]", r, with_log)
        assert r["seed"] == doc["seed"] + i
    s = doc["summary"]
    _keys("$.summary", s, SUMMARY_KEYS)
    assert s["games"] == len(doc["games"])
    _keys("$.summary.wins", s["wins"], ("A", "B", "none"))
    winners = [r["winner"] for r in doc["games"]]
    assert s["wins"] == {"A": winners.count("A"), "B": winners.count("B"),
                         "none": winners.count(None)}
    _keys("$.summary.win_rate", s["win_rate"], ("A", "B"))
    for key in ("no_winner", "first_player_win_rate", "average_turns", "average_actions"):
        _type(f"$.summary.{key}", s[key], float)
    assert set(s["win_conditions"]) == {r["reason"] for r in doc["games"]}


SIM_KEYS = ("command", "card", "square", "played", "error", "steps", "log", "effects",
            "defaulted_answers", "unused_answers", "before", "after")
EFFECT_KEYS = ("effect", "text", "kind", "where", "status", "detail", "fire")
STATUSES = {
    "dimension": {"resolved", "not resolved", "replaced", "not played"},
    "triggered": {"fired", "waiting", "inactive", "replaced", "not played", "resolved"},
    "activated": {"used", "usable", "not usable", "replaced", "not played"},
    "static": {"applies", "does not apply", "replaced", "not played"},
}


def assert_simulate(doc):
    _keys("$", doc, SIM_KEYS)
    assert doc["command"] == "simulate"
    _type("$.card", doc["card"], str)
    _type("$.square", doc["square"], str, nullable=True)
    _type("$.played", doc["played"], bool)
    _type("$.error", doc["error"], str, nullable=True)
    for i, s in enumerate(doc["steps"]):
        _keys(f"$.steps[{i}]", s, ("step", "player", "done", "error"))
        assert s["done"] == (s["error"] is None)
    if doc["log"]:
        assert_log("$.log", doc["log"])
    for i, e in enumerate(doc["effects"]):
        _keys(f"$.effects[{i}]", e, EFFECT_KEYS)
        assert e["status"] in STATUSES[e["kind"]], (e["kind"], e["status"])
        for key in ("effect", "text", "where", "detail"):
            _type(f"$.effects[{i}].{key}", e[key], str)
        if e["fire"] is not None:
            _strs(f"$.effects[{i}].fire", e["fire"])
    _strs("$.defaulted_answers", doc["defaulted_answers"])
    _strs("$.unused_answers", doc["unused_answers"])
    assert_board("$.before", doc["before"])
    assert_board("$.after", doc["after"])


ALL_KEYS = (set(BOARD_KEYS) | set(PLAYER_KEYS) | set(PLAY_KEYS) | set(RECORD_KEYS)
            | set(SUMMARY_KEYS) | set(SIM_KEYS) | set(EFFECT_KEYS) | set(LOG_KEYS)
            | {"holder", "cards", "copy_of", "card", "exhausted", "step", "done"})
