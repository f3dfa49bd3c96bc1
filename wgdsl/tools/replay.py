"""Replays: a game as a record of its actions, re-run through the public interface, written
as one self-contained HTML page that steps through its board and log.

A **replay record** (docs/json.md, "Replay record") is what ``wgdsl play --record FILE``
writes: the game (a built-in id or a game file's path), its seed, seats, options, World
Gainer's card set and stocks, and every action applied, as ``{"seat", "action"}`` with the
action's ``str()`` (what ``state.parse_action`` reads back; an answer to a question an
effect asked is an action of its own, ``A answer yes``).  Nothing of the board is stored:
:func:`rerun` plays the actions again through engine-api.md (``load_game``, ``new_state``,
``parse_action``, ``apply``) and takes ``to_dict()``, ``current_seats()``, ``winners()``
and the ``log`` entries each action added, so a replay works for every game
``load_game`` gives and never shows a board the engine did not produce.

:func:`page` turns a re-run into the HTML (``replay_page.html``: inline script and style,
no network, no fonts fetched).  A record that cannot be used is a
:class:`~wgdsl.lang.diagnostics.DiagnosticError` at its line and column in the file.
"""

from __future__ import annotations

import json
from json.decoder import scanstring
from pathlib import Path
from typing import Any, Optional

from wgdsl.lang.ast import NOWHERE, Pos
from wgdsl.lang.diagnostics import Diagnostic, DiagnosticError

FORMAT = "wgdsl-replay"
VERSION = 1
PAGE = Path(__file__).with_name("replay_page.html")
DATA_MARK = "/*REPLAY-DATA*/null"  # where the page template takes the re-run, as JSON


# ---------------------------------------------------------------------------- recording
class RecordingAgent:
    """An in-process World Gainer agent that notes, in ``actions``, every decision it makes
    as the public interface's action text: its actions, and its answers to the questions
    effects ask (``A answer C1``), in the order the game took them."""

    def __init__(self, agent, actions: list):
        self._agent, self._actions = agent, actions

    def __getattr__(self, name):
        return getattr(self._agent, name)

    def act(self, view, legal):
        action = self._agent.act(view, legal)
        self._actions.append((action.player, str(action)))
        return action

    def answer(self, view, question):
        option = self._agent.answer(view, question)
        self._actions.append((question.player, f"{question.player} answer {option}"))
        return option


def record(game: str, name: str, seed: int, seats: tuple, actions: list, *,
           options: Optional[dict] = None, cards: Optional[str] = None,
           decks: Optional[dict] = None, agents: tuple = (), winners: tuple = (),
           win_reason: Optional[str] = None, terminal: bool = True,
           log_entries: Optional[int] = None) -> dict:
    """The replay record of one game (docs/json.md): ``actions`` is a list of (seat, action
    text); ``winners``, ``win_reason``, ``terminal`` and ``log_entries`` are how the game
    ended, which :func:`rerun` checks the re-run against."""
    return {
        "format": FORMAT, "version": VERSION,
        "game": str(game), "name": name, "seed": seed, "seats": len(seats),
        "options": dict(options or {}), "cards": cards,
        "decks": {s: list(ids) for s, ids in decks.items()} if decks is not None else None,
        "agents": list(agents),
        "actions": [{"seat": s, "action": a} for s, a in actions],
        "end": {"terminal": terminal, "winners": list(winners), "win_reason": win_reason,
                "log_entries": log_entries},
    }


def record_text(data: dict) -> str:
    """A record as the file holds it: a key to a line, one action to a line."""
    def one(value) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in data.items():
        if key == "actions" and value:
            value = "[\n" + ",\n".join("    " + one(a) for a in value) + "\n  ]"
        else:
            value = one(value)
        lines.append(f"  {one(key)}: {value}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


# ---------------------------------------------------------------------------- reading
class _Where:
    """Where each value of a JSON text starts (by its path of keys and indexes), found
    only when a problem is to be reported."""

    def __init__(self, path: str, text: str):
        self.path, self.text = path, text
        self._starts: Optional[dict] = None

    def _scan(self) -> dict:
        text, starts = self.text, {}
        decoder = json.JSONDecoder()

        def ws(i):
            while i < len(text) and text[i] in " \t\r\n":
                i += 1
            return i

        def value(i, at):
            i = ws(i)
            starts[at] = i
            if text[i] == "{":
                i = ws(i + 1)
                if text[i] == "}":
                    return i + 1
                while True:
                    key, i = scanstring(text, ws(i) + 1)
                    i = value(ws(i) + 1, at + (key,))
                    i = ws(i)
                    if text[i] == "}":
                        return i + 1
                    i += 1
            if text[i] == "[":
                i = ws(i + 1)
                if text[i] == "]":
                    return i + 1
                n = 0
                while True:
                    i = ws(value(i, at + (n,)))
                    if text[i] == "]":
                        return i + 1
                    i, n = i + 1, n + 1
            return decoder.raw_decode(text, i)[1]

        value(0, ())
        return starts

    def pos(self, at: tuple) -> Pos:
        if self._starts is None:
            try:
                self._starts = self._scan()
            except (ValueError, IndexError):
                self._starts = {}
        while at and at not in self._starts:
            at = at[:-1]
        i = self._starts.get(at)
        if i is None:
            return NOWHERE
        line = self.text.count("\n", 0, i) + 1
        col = i - (self.text.rfind("\n", 0, i) + 1) + 1
        return Pos(line, col, line, col + 1)

    def error(self, at: tuple, message: str, hint: Optional[str] = None) -> DiagnosticError:
        return DiagnosticError([Diagnostic(self.path, self.pos(at), message, hint)],
                               {self.path: self.text})


def _dotted(at: tuple) -> str:
    out = ""
    for part in at:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "the document"


WRITE_ONE = "write one with `wgdsl play --record FILE` (docs/json.md, \"Replay record\")"


def load_record(path: str) -> tuple[dict, "_Where"]:
    """The record in file ``path``, checked: DiagnosticError at the place of the first
    problem (the file unreadable, not JSON, not a record, a value of the wrong kind)."""
    from wgdsl.files import Unreadable, read_text

    try:
        text = read_text(path, "replay record")
    except Unreadable as err:
        pos = Pos(err.line, err.col, err.line, err.col + 1) if err.line else NOWHERE
        raise DiagnosticError([Diagnostic(path, pos, err.message, err.hint)]) from None
    where = _Where(path, text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        pos = Pos(err.lineno, err.colno, err.lineno, err.colno + 1)
        raise DiagnosticError([Diagnostic(path, pos, f"not JSON: {err.msg}",
                                          "a replay record is the JSON document "
                                          "`wgdsl play --record FILE` writes")],
                              {path: text}) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        if isinstance(data, dict) and data.get("command") == "play":
            raise where.error(("command",), "this is the output of `wgdsl play --json` (results "
                              "and final boards), not a replay record: it has no actions to "
                              "step through", WRITE_ONE)
        at = ("format",) if isinstance(data, dict) and "format" in data else ()
        raise where.error(at, f"not a replay record: it needs \"format\": \"{FORMAT}\"", WRITE_ONE)
    if data.get("version") != VERSION:
        raise where.error(("version",), f"replay record version {data.get('version')!r}: this "
                          f"wgdsl reads version {VERSION}", "write it again with this wgdsl's "
                          "`wgdsl play --record FILE`")
    kinds = {"game": (str,), "seed": (int,), "seats": (int,), "options": (dict,),
             "cards": (str, type(None)), "decks": (dict, type(None)), "actions": (list,)}
    names = {str: "a string", int: "an integer", dict: "an object", list: "an array",
             type(None): "null"}
    for key, types in kinds.items():
        if key not in data:
            raise where.error((), f"the record has no \"{key}\"", WRITE_ONE)
        value = data[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise where.error((key,), f"\"{key}\" must be "
                              + " or ".join(names[t] for t in types)
                              + f", not {json.dumps(value, ensure_ascii=False)[:40]}")
    for i, item in enumerate(data["actions"]):
        if not (isinstance(item, dict) and isinstance(item.get("seat"), str)
                and isinstance(item.get("action"), str)):
            raise where.error(("actions", i), f"actions[{i}] must be "
                              "{\"seat\": SEAT, \"action\": TEXT}, e.g. "
                              "{\"seat\": \"A\", \"action\": \"A next\"}")
    return data, where


def _resolve(name: str, record_path: str) -> str:
    """A path written in a record: as given (relative to the current directory), else
    relative to the record's own folder."""
    if Path(name).exists():
        return name
    beside = Path(record_path).parent / name
    return str(beside) if beside.exists() else name


# ---------------------------------------------------------------------------- re-running
def _log_entries(log: list) -> list:
    return [dict(e) for e in log]


def _step(state, seat: Optional[str], action: Optional[str]) -> dict:
    terminal = state.is_terminal()
    return {"seat": seat, "action": action, "board": state.to_dict(),
            "current": list(state.current_seats()), "terminal": terminal,
            "winners": list(state.winners()) if terminal else [],
            "reason": state.win_reason() if terminal else None}


def rerun(data: dict, where: "_Where") -> dict:
    """The record re-played through the public interface: ``steps`` (step 0 the board
    before any action; step k after action k: its seat and text, ``board`` the
    ``to_dict()``, ``current`` seats, ``terminal``, ``winners``, ``reason``, and ``log``:
    the slice ``[from, to)`` of ``log`` it shows, or ``entries`` of its own when the log
    was rewritten rather than added to) and ``log`` (the log at the end)."""
    from wgdsl.games import is_game_file, load_game
    from wgdsl.kernel.errors import IllegalAction, RunawayEffects

    name = data["game"]
    ref = _resolve(name, where.path) if is_game_file(name) else name
    try:
        game = load_game(ref)
    except ValueError as err:
        if isinstance(err, DiagnosticError):
            raise
        raise where.error(("game",), f"cannot load the game {name!r}: {err}",
                          "a built-in id (world-gainer, getgem, wonderful-world) or the path "
                          "of a game file, relative to here or to the record") from None
    kwargs: dict = {"seed": data["seed"], "seats": data["seats"], "options": data["options"]}
    if data["cards"] is not None:
        kwargs["cards"] = _resolve(data["cards"], where.path)
    if data["decks"] is not None:
        kwargs["decks"] = data["decks"]
    try:
        state = game.new_state(**kwargs)
    except (ValueError, OSError) as err:
        if isinstance(err, DiagnosticError):
            raise
        said = str(err)
        at = next(((key,) for key, word in (("seats", "seat"), ("decks", "deck"),
                                           ("cards", "card"), ("options", "option"))
                   if word in said and data[key] not in (None, {})), ())
        raise where.error(at, f"{game.name} cannot start this game: {said}") from None
    steps = [_step(state, None, None)]
    logs = [_log_entries(state.log)]
    for i, item in enumerate(data["actions"]):
        seat, text = item["seat"], item["action"]
        at = ("actions", i)
        if state.is_terminal():
            raise where.error(at, f"actions[{i}] `{text}`: the game was already over after "
                              f"{i} actions", "the record does not replay: was it written by "
                              "another version of the game or its cards?")
        if seat not in state.seats:
            raise where.error(at + ("seat",), f"actions[{i}]: no seat {seat!r} in this game; "
                              f"its seats are {', '.join(state.seats)}")
        try:
            action = state.parse_action(seat, text)
            state.apply(seat, action)
        except IllegalAction as err:
            raise where.error(at + ("action",), f"actions[{i}] `{text}` is refused"
                              + (f" ({err.rule})" if err.rule else "") + f": {err}",
                              "the record does not replay: was it written by another version "
                              "of the game or its cards?") from None
        except RunawayEffects as err:  # a game whose stepper does not stop it itself
            raise where.error(at, f"actions[{i}] `{text}`: {err.message}") from None
        steps.append(_step(state, seat, text))
        logs.append(_log_entries(state.log))
    end = data.get("end") if isinstance(data.get("end"), dict) else {}
    found = {"terminal": state.is_terminal(), "winners": steps[-1]["winners"],
             "win_reason": steps[-1]["reason"], "log_entries": len(logs[-1])}
    for key, value in found.items():
        if end.get(key) is not None and end[key] != value and (key != "winners" or end[key]):
            raise where.error(("end", key), f"the re-run game ends otherwise than recorded: "
                              f"{key} {json.dumps(value)}, recorded {json.dumps(end[key])}",
                              "was the record written by another version of the game or its "
                              "cards?")
    final = logs[-1]
    for k, step in enumerate(steps):
        log = logs[k]
        before = len(logs[k - 1]) if k else 0
        if final[:len(log)] == log and (not k or log[:before] == logs[k - 1]):
            step["log"] = {"from": min(before, len(log)), "to": len(log)}
        else:  # the log was rewritten, not added to: the step keeps its own
            step["log"] = {"from": 0, "to": 0, "entries": log}
    return {"game": name, "name": getattr(game, "name", name), "seed": data["seed"],
            "seats": list(state.seats), "agents": data.get("agents") or [],
            "steps": steps, "log": final}


# ---------------------------------------------------------------------------- the page
def _script_json(value: Any) -> str:
    """JSON that is safe inside a <script> element: no `</script>`, no `<!--`."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def patch(old: Any, new: Any, at: tuple = ()) -> list:
    """What turns ``old`` into ``new``: ``[path, value]`` to set a value, ``[path]`` to
    delete a key; objects are compared key by key, anything else replaced whole."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return [] if old == new and type(old) is type(new) else [[list(at), new]]
    ops = [[list(at + (k,))] for k in old if k not in new]
    for k, v in new.items():
        if k not in old:
            ops.append([list(at + (k,)), v])
        elif old[k] != v or type(old[k]) is not type(v):
            ops += patch(old[k], v, at + (k,))
    return ops


def packed(replay: dict) -> dict:
    """The re-run as the page carries it: step 0's board whole, every later step's as the
    :func:`patch` from the board before (a long game's page stays small)."""
    steps = []
    for k, step in enumerate(replay["steps"]):
        if k:
            step = {key: v for key, v in step.items() if key != "board"}
            step["patch"] = patch(replay["steps"][k - 1]["board"], replay["steps"][k]["board"])
        steps.append(step)
    return {**replay, "steps": steps}


def page(replay: dict) -> str:
    """The self-contained HTML page of a re-run (:func:`rerun`)."""
    import html

    template = PAGE.read_text(encoding="utf-8")
    title = f"{replay['name']} — seed {replay['seed']} — wgdsl replay"
    return (template.replace("<!--TITLE-->", html.escape(title))
            .replace(DATA_MARK, _script_json(packed(replay))))


def build(record_path: str) -> tuple[str, dict]:
    """Read and re-run a record: (the HTML page, the re-run)."""
    data, where = load_record(record_path)
    replay = rerun(data, where)
    return page(replay), replay


def world_gainer_record(game, result, actions: list, cards: Optional[str], decks: dict,
                        agents: tuple) -> dict:
    """The record of a World Gainer game played by in-process agents
    (:func:`wgdsl.tools.play.play_game` with ``record=actions``)."""
    from .play import RUNAWAY

    stopped = result.reason == RUNAWAY
    won = result.winner is not None
    return record("world-gainer", "World Gainer", result.seed, ("A", "B"), actions,
                  options={"first": result.first}, cards=cards, decks=decks, agents=agents,
                  winners=(result.winner,) if won else (),
                  win_reason=result.reason if won else None, terminal=won or stopped,
                  log_entries=None if stopped else len(game.log.entries))


def game_record(name: str, game, state, seed: int, options: dict, agents: tuple,
                actions: list) -> dict:
    """The record of a game played through the public interface
    (:func:`wgdsl.tools.gamefile.play_one` with ``record=actions``)."""
    terminal = state.is_terminal()
    return record(name, game.name, seed, tuple(state.seats), actions, options=options,
                  agents=agents, winners=tuple(state.winners()) if terminal else (),
                  win_reason=state.win_reason() if terminal else None, terminal=terminal,
                  log_entries=len(state.log))
