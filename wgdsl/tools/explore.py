"""Exhaustive exploration of a ruling case's board (``wgdsl explore CASE.toml``).

From the board a ruling case sets up, every legal line is walked through the public
interface only (engine-api.md: ``current_seats``, ``legal_actions``, ``apply``,
``clone``, ``to_dict``, ``is_terminal``): every answer to every question, every order of
triggers (a question like any other), and — outside the case's own steps — every action.
States that are equal are merged (the key is the canonical JSON of ``to_dict()``), so a
line that reaches a state another line reached already is not walked again.

Where a line ends (:class:`Limit`):

* ``end-of-steps`` — the case's ``[[step]]``s are the actions, in order; only the
  questions they raise branch (the case's ``[answers]`` are not used: every answer is
  tried).  A line ends after the last step.  ``--check`` uses this: every outcome must
  meet the case's ``[expect]``.
* ``end-of-turn`` — every legal action of the seat to act branches, until the game's turn
  counter changes (``to_dict()["turn"]``, or ``["round"]`` for games counted in rounds)
  or the game ends.
* ``depth N`` — every legal action branches, N actions deep (an answer is an action).

In a simultaneous window only the first current seat's actions branch: engine-api.md
promises the order in which the seats commit never changes the result.  Random events
are not branched: World Gainer draws from the case's ``seed``, GETGEM takes the case's
``[random]`` entries (each line its own, in order; a line that needs one more ends as
*stopped*), It's a Wonderful World has nothing random after the setup.

The walk is bounded by ``max_states`` distinct states; when the bound is hit the result
says so (``complete`` False) and holds what was found.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any, Callable, Optional

import attrs

from wgdsl.kernel.errors import IllegalAction

from .rulings import CaseProblems, RulingCase, check_difference, load_case

END_OF_STEPS = "end-of-steps"
END_OF_TURN = "end-of-turn"
DEPTH = "depth"
TURN_KEYS = ("turn", "round")  # the first of these to_dict() shows is the turn counter
MAX_DIFF_PATHS = 12
MAX_VALUE = 100  # characters of a value shown in a text diff
PROGRESS_SECONDS = 2.0  # a walk reports its progress this often


class ExploreError(Exception):
    """Something about the input that makes exploring impossible (a message for the user)."""


@attrs.frozen
class Limit:
    kind: str  # END_OF_STEPS | END_OF_TURN | DEPTH
    depth: int = 0

    def describe(self) -> str:
        if self.kind == DEPTH:
            return f"{self.depth} action{'s' if self.depth != 1 else ''} deep"
        return {END_OF_STEPS: "to the end of the case's steps",
                END_OF_TURN: "to the end of the turn"}[self.kind]


def canonical(data: Any) -> str:
    """The canonical JSON text of ``data`` (keys sorted, no spaces): equal states, equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _label(seat: str, action: Any) -> str:
    text = str(action)
    return text if text.startswith(f"{seat} ") else f"{seat} {text}"


# ====================================================================== the games' cases
class _Adapter:
    """What the walk needs from a case of one game: the start state, its steps as action
    texts, whether a question is pending, the expectation.  Each game's runner builds the
    board; this only calls it."""

    stops: tuple = ()  # exceptions that end a line with their own message

    def __init__(self, case):
        self.case = case
        self.steps = list(case.steps)

    def extra(self) -> Any:  # what a line carries besides its state (GETGEM: chance used)
        return None

    def prepare(self, extra: Any) -> None:
        pass

    def step_texts(self, step, state) -> tuple[str, tuple]:
        raise NotImplementedError

    def step_refusal(self, step, state) -> Optional[str]:
        """Why ``step`` is refused on ``state`` as a whole, where the game's runner refuses
        more than its actions' texts say (None: as its texts are applied)."""
        return None

    def step_label(self, n: int, step, seat: str) -> str:
        raise NotImplementedError

    def asking(self, state) -> Optional[str]:
        raise NotImplementedError

    def difference(self, state) -> Optional[str]:
        raise NotImplementedError

    def case_line(self) -> Optional[dict]:
        """``to_dict()`` of the state the case's own steps and answers end in, or None."""
        state = self._case_run().get("state")
        return state.to_dict() if state is not None else None

    def _case_run(self) -> dict:
        """What the game's runner keeps of the case run as written (its ``keep``)."""
        from .rulings import run_case

        keep: dict = {}
        run_case(self.case, keep=keep)
        return keep


class _WorldGainer(_Adapter):
    def start(self):
        from wgdsl.games.world_gainer.api import WGState
        from wgdsl.games.world_gainer.engine import Game

        from .rulings import build_state

        return WGState(Game(build_state(self.case), self.case.library))

    def step_texts(self, step, state):
        from wgdsl.games.world_gainer.engine import Action

        seat = step.player or state.to_dict()["active"]
        action = Action(step.action, seat, card=step.card, slot=step.slot, square=step.square)
        return seat, (str(action).strip(),)

    def step_label(self, n, step, seat):
        return step.describe(seat)

    def asking(self, state):
        # a question's legal actions are the kernel's Answer actions (engine-api.md)
        from wgdsl.kernel.decision import Answer

        seats = state.current_seats()
        if not seats:
            return None
        legal = state.legal_actions(seats[0])
        return seats[0] if legal and isinstance(legal[0], Answer) else None

    def difference(self, state):
        for check in self.case.checks:
            diff = check_difference(check, state.game.state)
            if diff is not None:
                return diff
        return None

    def case_line(self):
        from wgdsl.games.world_gainer.api import WGState

        game = self._case_run().get("game")
        return WGState(game).to_dict() if game is not None else None


class _Getgem(_Adapter):
    def __init__(self, case):
        from .rulings_getgem import ScriptedChance, Stop

        super().__init__(case)
        self.chance = ScriptedChance(case.takes, case.shuffles)
        self.stops = (Stop,)

    def start(self):
        from wgdsl.games.getgem.board import state_from_board

        return state_from_board(self.case.game, self.case.board, self.chance)

    # every clone shares the chance object the board was built with: each line sets it
    # to where that line is in the case's [random] entries before it acts
    def extra(self):
        return self.chance.used_takes, self.chance.used_shuffles

    def prepare(self, extra):
        self.chance.used_takes, self.chance.used_shuffles = extra

    def step_texts(self, step, state):
        from .rulings_getgem import action_text

        data = state.to_dict()
        seat = step.player or data["active"]
        at_declaration = not state.is_terminal() and data["phase"] == "end"
        texts = (action_text(step, at_declaration),)
        if step.action == "end_turn" and not at_declaration:
            texts += ("pass",)  # the runner's end_turn: end the action phase, then pass
        return seat, texts

    def step_label(self, n, step, seat):
        return f"step {n} ({step.describe(seat)})"

    def asking(self, state):
        q = state.pending_decision()
        return q.seat if q is not None else None

    def difference(self, state):
        from .rulings_getgem import case_difference

        return case_difference(self.case, state)



class _ImitationWorld(_Adapter):
    """Imitation World's steps are planned by its runner on the state they start from (a
    linked attack's `join` and `front` questions, end_turn's phases): their texts, and
    the refusal of a step its runner refuses whole."""

    def __init__(self, case):
        super().__init__(case)
        self._plans: dict = {}  # (step index, the state's digest) -> the runner's plan

    def start(self):
        from wgdsl.games.imitation_world.board import state_from_board

        return state_from_board(self.case.game, self.case.table, self.case.board)

    def _plan(self, step, state) -> tuple:
        from .rulings_imitation_world import step_plan

        key = (id(step), canonical(state.to_dict()))
        if key not in self._plans:
            self._plans[key] = step_plan(state, step, self.case.answers)
        return self._plans[key]

    def step_texts(self, step, state):
        seat, texts, _ = self._plan(step, state)
        return seat, texts

    def step_refusal(self, step, state):
        return self._plan(step, state)[2]

    def step_label(self, n, step, seat):
        return f"step {n} ({step.describe(seat)})"

    def asking(self, state):
        q = state.question
        return q.decision.seat if q is not None and not state.is_terminal() else None

    def difference(self, state):
        from .rulings_imitation_world import case_difference

        return case_difference(self.case, state)


class _WonderfulWorld(_Adapter):
    def __init__(self, case):
        from wgdsl.games.wonderful_world.state import DeckExhausted

        super().__init__(case)
        self.stops = (DeckExhausted,)

    def start(self):
        from wgdsl.games.wonderful_world.board import state_from_board

        return state_from_board(self.case.game, self.case.board)

    def step_texts(self, step, state):
        return step.player, (step.text(),) * step.count

    def step_label(self, n, step, seat):
        return f"step {n} ({seat}: {step.text()})"

    def asking(self, state):
        return None  # every decision is a step of its own (wonderful-world.md)

    def difference(self, state):
        from .rulings_wonderful_world import case_difference

        return case_difference(self.case, state)


def adapter_for(case) -> _Adapter:
    from .rulings_getgem import GGCase
    from .rulings_imitation_world import IWCase
    from .rulings_wonderful_world import WWCase

    if isinstance(case, GGCase):
        return _Getgem(case)
    if isinstance(case, WWCase):
        return _WonderfulWorld(case)
    if isinstance(case, IWCase):
        if case.board is None:
            raise ExploreError(f"{case.path}: a case of deck checks only has no board to "
                               "explore (`wgdsl rulings` runs it)")
        return _ImitationWorld(case)
    if not isinstance(case, RulingCase):
        raise ExploreError(f"{case.path}: explore walks World Gainer, GETGEM, It's a "
                           "Wonderful World and Imitation World cases; this game's are not "
                           "walked yet (`wgdsl rulings` runs it)")
    return _WorldGainer(case)


# ====================================================================== the walk
@attrs.define
class Outcome:
    number: int  # 1-based, in the order found
    data: dict  # to_dict() of the final state
    stop: Optional[str]  # None: the line ended where the limit says; else why it stopped
    difference: Optional[str] = None  # the case's first unmet expectation (end-of-steps)
    node: int = 0
    lines: int = 0  # how many lines end here (those through a cycle left out)
    examples: list = attrs.Factory(list)  # a few lines, each a list of action labels
    case_line: bool = False  # the case's own steps and answers end here

    @property
    def meets(self) -> bool:
        return self.stop is None and self.difference is None


@attrs.define
class Exploration:
    limit: Limit
    case_id: str = ""
    states: int = 0  # distinct states walked (the bound counts these)
    applied: int = 0  # actions applied (on clones)
    merged: int = 0  # arrivals at a state already walked
    complete: bool = True
    outcomes: list = attrs.Factory(list)
    edges: dict = attrs.Factory(dict)  # node -> [(label, node)]
    leaf: dict = attrs.Factory(dict)  # node -> outcome number
    seconds: float = 0.0
    expect: bool = False  # outcomes were compared with the case's [expect]
    cycle: bool = False  # a line can come back to a state it passed (lines through it: endless)


@attrs.define
class _Pos:
    """Where a line is in the case's steps (end-of-steps) or how deep (the others)."""

    step: int = 0
    sub: int = 0
    seat: Optional[str] = None
    texts: Optional[tuple] = None
    depth: int = 0

    def key(self, limit: Limit) -> tuple:
        if limit.kind == END_OF_STEPS:
            return (self.step, self.sub, self.texts)
        return (self.depth,) if limit.kind == DEPTH else ()


def turn_of(data: dict) -> Any:
    for key in TURN_KEYS:
        if key in data:
            return data[key]
    raise ExploreError("this game's to_dict() shows no turn counter (`turn` or `round`): "
                       "explore it with --depth N")


class _Walker:
    def __init__(self, adapter: _Adapter, limit: Limit, max_states: int,
                 progress: Optional[Callable[[Exploration], None]], merge: bool = True):
        self.a = adapter
        self.merge = merge
        self.limit = limit
        self.max_states = max_states
        self.progress = progress
        self.result = Exploration(limit, expect=limit.kind == END_OF_STEPS)
        self.ids: dict = {}  # node key -> node number
        self.outcome_ids: dict = {}  # (stop, digest) -> Outcome
        self.start_turn = None
        self._what: dict = {}  # node -> what _settle said
        self._pos_of: dict = {}  # node -> its settled position

    # ------------------------------------------------------------------ one action
    def _applied(self, state, extra, seat: str, action) -> tuple:
        """(the new state, its extra, None) or (None, None, why the line stopped)."""
        twin = state.clone()
        self.a.prepare(extra)
        self.result.applied += 1
        try:
            twin.apply(seat, action)
        except IllegalAction as err:  # listed as legal, refused: a bug worth a line of its own
            return None, None, f"{_label(seat, action)} was listed as legal but refused: {err}"
        except self.a.stops as err:
            return None, None, str(err)
        except Exception as err:  # an engine bug must not end the whole walk
            return None, None, f"the engine failed on {_label(seat, action)}: " \
                               f"{type(err).__name__}: {err}"
        return twin, self.a.extra(), None

    def _refusal(self, state, extra, seat: str, texts: tuple) -> Optional[str]:
        """Why the step's actions are refused (applied on a clone, in order), or None when
        they are all accepted."""
        twin = state.clone()
        self.a.prepare(extra)
        for text in texts:
            try:
                twin.apply(seat, twin.parse_action(seat, text))
            except IllegalAction as err:
                return str(err)
            except self.a.stops as err:
                return str(err)
        return None

    # ------------------------------------------------------------------ what a node does
    def _settle(self, state, extra, pos: _Pos):
        """Move ``pos`` over finished steps; returns ("ask", seat, actions),
        ("act", seat, actions) or ("end", stop)."""
        limit = self.limit
        if limit.kind != END_OF_STEPS:
            if state.is_terminal():
                return ("end", None)
            if limit.kind == DEPTH and pos.depth >= limit.depth:
                return ("end", None)
            if limit.kind == END_OF_TURN and turn_of(state.to_dict()) != self.start_turn:
                return ("end", None)
            seat = state.current_seats()[0]
            return ("act", seat, state.legal_actions(seat))
        steps = self.a.steps
        while True:
            asked = self.a.asking(state)
            if asked is not None:
                return ("ask", asked, state.legal_actions(asked))
            if pos.step >= len(steps):
                return ("end", None)
            step = steps[pos.step]
            if pos.texts is None:
                pos.seat, pos.texts = self.a.step_texts(step, state)
            # a step its runner refuses as a whole (before or beside its actions' texts)
            whole = self.a.step_refusal(step, state) if pos.sub == 0 else None
            if whole is None and (pos.sub >= len(pos.texts) or
                                  (pos.sub > 0 and state.is_terminal())):
                pos.step, pos.sub, pos.seat, pos.texts = pos.step + 1, 0, None, None
                continue
            label = self.a.step_label(pos.step + 1, step, pos.seat)
            if step.illegal:
                if whole is None and self._refusal(state, extra, pos.seat, pos.texts) is None:
                    return ("end", f"{label} was accepted, but the case expects it to be refused")
                pos.step, pos.sub, pos.seat, pos.texts = pos.step + 1, 0, None, None
                continue
            if whole is not None:
                return ("end", f"{label} was refused: {whole}")
            text = pos.texts[pos.sub]
            seat = pos.seat
            legal = state.legal_actions(seat)
            try:
                wanted = str(state.parse_action(seat, text))
            except IllegalAction as err:
                return ("end", f"{label} was refused: {err}")
            matches = [a for a in legal if str(a) == wanted]
            if not matches:  # an action the engine refines: a copy names what it copies
                matches = [a for a in legal if str(a).startswith(wanted + " ")]
            if not matches:
                why = self._refusal(state, extra, seat, (text,))
                return ("end", f"{label} was refused: {why or 'not a legal action now'}")
            return ("act", seat, matches)

    # ------------------------------------------------------------------ the walk
    def run(self, root) -> Exploration:
        res = self.result
        started = time.monotonic()
        next_report = started + PROGRESS_SECONDS
        root_extra = self.a.extra()
        if self.limit.kind == END_OF_TURN:
            self.start_turn = turn_of(root.to_dict())
        root_id = self._node(root, root_extra, _Pos())[0]
        stack = [root_id]
        pending = {root_id: (root, root_extra, self._pos_of[root_id])}
        while stack:
            if res.states >= self.max_states:
                res.complete = False
                break
            node = stack.pop()
            state, extra, pos = pending.pop(node)
            what = self._what[node]
            if what[0] == "end":
                continue
            _, seat, actions = what
            out = res.edges.setdefault(node, [])
            for action in actions:
                child, child_extra, stop = self._applied(state, extra, seat, action)
                label = _label(seat, action)
                if child is None:
                    out.append((label, self._stopped(state, stop)))
                    continue
                cpos = attrs.evolve(pos, sub=pos.sub + 1 if what[0] == "act" and
                                    self.limit.kind == END_OF_STEPS else pos.sub,
                                    depth=pos.depth + 1)
                cid, new = self._node(child, child_extra, cpos)
                out.append((label, cid))
                if new:
                    if self._what[cid][0] != "end":
                        stack.append(cid)
                        pending[cid] = (child, child_extra, self._pos_of[cid])
                else:
                    res.merged += 1
            if self.progress is not None and time.monotonic() >= next_report:
                res.seconds = time.monotonic() - started
                self.progress(res)
                next_report = time.monotonic() + PROGRESS_SECONDS
        res.seconds = time.monotonic() - started
        self._count_lines(root_id)
        self._mark_case_line()
        return res

    def _node(self, state, extra, pos: _Pos) -> tuple[int, bool]:
        """The node number of ``state`` at ``pos`` (settled first) and whether it is new."""
        pos = attrs.evolve(pos)
        what = self._settle(state, extra, pos)
        data = state.to_dict()
        key = (pos.key(self.limit), extra, _digest(canonical(data)))
        if not self.merge:
            key += (len(self.ids),)
        found = self.ids.get(key)
        if found is not None:
            return found, False
        number = len(self.ids)
        self.ids[key] = number
        self.result.states += 1
        self._what[number] = what
        self._pos_of[number] = pos
        if what[0] == "end":
            self.result.leaf[number] = self._outcome(state, data, what[1], number).number
        return number, True

    def _stopped(self, state, stop: str) -> int:
        """A node for a line that stopped after ``state`` (the state is the one before)."""
        data = state.to_dict()
        key = ("stopped", stop, _digest(canonical(data)))
        found = self.ids.get(key)
        if found is not None:
            self.result.merged += 1
            return found
        number = len(self.ids)
        self.ids[key] = number
        self._what[number] = ("end", stop)
        self.result.leaf[number] = self._outcome(state, data, stop, number).number
        return number

    def _outcome(self, state, data: dict, stop: Optional[str], node: int) -> Outcome:
        key = (stop, _digest(canonical(data)))
        found = self.outcome_ids.get(key)
        if found is not None:
            return found
        out = Outcome(len(self.outcome_ids) + 1, data, stop, node=node)
        if self.result.expect and stop is None:
            out.difference = self.a.difference(state)
        self.outcome_ids[key] = out
        self.result.outcomes.append(out)
        return out

    # ------------------------------------------------------------------ lines
    def _count_lines(self, root: int, keep: int = 5) -> None:
        """How many lines end in each outcome (None when a cycle makes them endless) and
        the first few of them, in the order walked."""
        res = self.result
        counts: dict = {}  # node -> {outcome: count or None}
        on_path: set = set()
        cyclic = set()

        def visit(node: int) -> dict:
            # iterative post-order: a deep walk must not hit Python's recursion limit
            work = [(node, 0)]
            while work:
                n, i = work.pop()
                if n in counts:
                    continue
                if n in res.leaf:
                    counts[n] = {res.leaf[n]: 1}
                    continue
                edges = res.edges.get(n, [])
                if i == 0:
                    on_path.add(n)
                if i < len(edges):
                    work.append((n, i + 1))
                    child = edges[i][1]
                    if child in on_path:
                        cyclic.add(child)
                    elif child not in counts:
                        work.append((child, 0))
                    continue
                on_path.discard(n)
                total: dict = {}
                for _, child in edges:  # an edge back into the line (a cycle) adds none
                    for o, c in counts.get(child, {}).items():
                        total[o] = total.get(o, 0) + c
                counts[n] = total
            return counts.get(node, {})

        for o, c in visit(root).items():
            res.outcomes[o - 1].lines = c
        res.cycle = bool(cyclic)
        # a few lines per outcome, walked in order (a line never revisits a node)
        found: dict = {o.number: [] for o in res.outcomes}
        work = [(root, [], frozenset({root}))]
        budget = 20000
        while work and budget > 0:
            budget -= 1
            node, line, seen = work.pop()
            if node in res.leaf:
                got = found[res.leaf[node]]
                if len(got) < keep:
                    got.append(line)
                continue
            want = {o for o, c in counts.get(node, {}).items() if len(found[o]) < keep}
            if not want:
                continue
            for label, child in reversed(res.edges.get(node, [])):
                if child not in seen:
                    work.append((child, line + [label], seen | {child}))
        for o in res.outcomes:
            o.examples = found[o.number]

    def _mark_case_line(self) -> None:
        if self.limit.kind != END_OF_STEPS:
            return
        try:
            data = self.a.case_line()
        except Exception:  # the case's own run is a courtesy: never fail the walk for it
            return
        if data is None:
            return
        text = canonical(data)
        for o in self.result.outcomes:
            if o.stop is None and canonical(o.data) == text:
                o.case_line = True


def explore_case(path: str, limit: Optional[Limit] = None, max_states: int = 100000,
                 progress: Optional[Callable[[Exploration], None]] = None, *,
                 merge: bool = True) -> Exploration:
    """Walk every line of the ruling case at ``path``; raises CaseProblems for a bad case
    and ExploreError for one that cannot be explored so.  ``merge=False`` walks every line
    apart (to measure what merging equal states saves)."""
    case = load_case(path)
    adapter = adapter_for(case)
    if limit is None:
        limit = Limit(END_OF_STEPS) if adapter.steps else Limit(END_OF_TURN)
    try:
        root = adapter.start()
    except adapter.stops as err:
        raise ExploreError(f"{path}: the board cannot be set up: {err}") from None
    except Exception as err:
        if type(err).__name__ == "BoardError":
            raise ExploreError(f"{path}: the board cannot be set up: {err}") from None
        raise
    result = _Walker(adapter, limit, max_states, progress, merge).run(root)
    result.case_id = case.id
    return result


# ====================================================================== what differs
def _flat(data: Any, prefix: str = "") -> dict:
    """Leaf values by dotted path; dicts are opened, lists are values."""
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            out.update(_flat(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: data}


def differences(outcomes: list) -> list[str]:
    """The paths of to_dict() where the outcomes do not all agree, in to_dict()'s order."""
    flats = [_flat(o.data) for o in outcomes]
    paths: list = []
    for f in flats:
        for p in f:
            if p not in paths:
                paths.append(p)
    return [p for p in paths
            if len({canonical(f[p]) if p in f else "\0" for f in flats}) > 1]


def to_json(result: Exploration) -> dict:
    case_id = result.case_id
    paths = differences(result.outcomes)
    return {
        "command": "explore", "case": case_id, "limit": result.limit.describe(),
        "complete": result.complete, "states": result.states, "actions_applied": result.applied,
        "merged": result.merged, "compared_with_expect": result.expect,
        "differing_paths": paths,
        "outcomes": [{
            "outcome": o.number,
            "stopped": o.stop,
            "meets_expect": (o.meets if result.expect else None),
            "difference": o.difference,
            "case_line": o.case_line,
            "line_count": o.lines,
            "lines": o.examples,
            "differs": {p: flat.get(p) for p in paths},
        } for o, flat in ((o, _flat(o.data)) for o in result.outcomes)],
        "cycle": result.cycle,
    }


def _value(v: Any) -> str:
    text = canonical(v)
    return text if len(text) <= MAX_VALUE else text[:MAX_VALUE - 3] + "..."


def _verdict(o: Outcome, expect: bool) -> str:
    if o.stop is not None:
        return f"stopped: {o.stop}"
    if not expect:
        return "end"
    return "meets the expectation" if o.difference is None else f"differs: {o.difference}"


def render_text(result: Exploration, *, tree_lines: int = 200) -> str:
    case_id = result.case_id
    res = result
    n = len(res.outcomes)
    out = [f"explore {case_id}: {n} distinct outcome{'s' if n != 1 else ''}, "
           f"{res.limit.describe()} ({res.states} states, {res.applied} actions applied, "
           f"{res.merged} arrivals merged into a state already walked)"]
    if not res.complete:
        out.append(f"INCOMPLETE: the bound of {res.states} states was hit; the outcomes below "
                   "are those found so far (raise --max-states)")
    out.append("")
    out += _tree(res, tree_lines)
    out.append("")
    paths = differences(res.outcomes)
    for o in res.outcomes:
        lines = f"{o.lines} line{'s' if o.lines != 1 else ''}"
        mark = "  <- the case's own answers" if o.case_line else ""
        out.append(f"[{o.number}] {_verdict(o, res.expect)} ({lines}){mark}")
        flat = _flat(o.data)
        for p in paths[:MAX_DIFF_PATHS]:
            out.append(f"    {p} = {_value(flat.get(p))}")
        if len(paths) > MAX_DIFF_PATHS:
            out.append(f"    ... and {len(paths) - MAX_DIFF_PATHS} more paths (--json)")
        for line in o.examples[:1]:
            out.append("    e.g. " + (" ; ".join(line) if line else "(no action)"))
    if res.cycle:
        out.append("(a line can come back to a state it passed: the lines that go round "
                   "are endless and not counted)")
    if n > 1 and not paths:
        out.append("(the outcomes differ only in why their lines stopped)")
    return "\n".join(out)


def _tree(res: Exploration, limit: int) -> list[str]:
    """The walk as a tree: each action under the state it was taken in; a state reached
    again is not opened again (``= see above``)."""
    out: list[str] = []
    shown: set = set()
    root = 0
    work = [(root, "", None, True)]
    while work:
        if len(out) >= limit:
            out.append(f"... (tree cut at {limit} lines; --json lists the lines of each outcome)")
            break
        node, indent, label, last = work.pop()
        if label is not None:
            branch = "└─ " if last else "├─ "
            text = indent + branch + label
            if node in res.leaf:
                text += f"  → [{res.leaf[node]}]"
            elif node in shown:
                text += "  (= a state reached above)"
            elif node not in res.edges:
                text += "  (not walked: the bound)"
            out.append(text)
            child_indent = indent + ("   " if last else "│  ")
        else:
            out.append("the case's board" + (f"  → [{res.leaf[node]}]" if node in res.leaf
                                              else ""))
            child_indent = ""
        if node in shown or node in res.leaf:
            continue
        shown.add(node)
        edges = res.edges.get(node, [])
        for i in range(len(edges) - 1, -1, -1):
            lab, child = edges[i]
            work.append((child, child_indent, lab, i == len(edges) - 1))
    return out


def check_failures(result: Exploration) -> list[Outcome]:
    """The outcomes ``--check`` refuses: every one that does not meet the expectation."""
    return [o for o in result.outcomes if not o.meets]


__all__ = ["CaseProblems", "END_OF_STEPS", "END_OF_TURN", "DEPTH", "Limit", "ExploreError",
           "Exploration", "Outcome", "explore_case", "render_text", "to_json", "differences",
           "check_failures", "canonical"]
