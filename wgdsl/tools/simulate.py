"""Single-card simulation: play one card on a board and show everything that follows.

Without a board file, :func:`default_board` builds one where the active player (A) can
legally play the card: its cost in the pool, A holding its whole my field (so the battle
field is open, R8.2), cards for both players on the field, in hand, stock, break and
standby so that targets exist.  With a board file (a ruling case's ``[state]`` and
``[answers]``) the card is played there.  Choices the answers do not cover are taken
with the first option, and the output says so: a designer tries a card in a second.

After the play, ``then`` steps (``break_field C1``, ``end_turn``, ``B: play XX-001 C2``,
see :func:`parse_step`) go on with the game, so an effect that waits for a trigger can
be seen to fire.  Every effect of the card is reported (:class:`EffectReport`): a
dimension effect resolved or why not, a triggered effect fired or what it waits for
(with the steps that would fire it), an activated effect used, usable now or why not,
a static rule applying or not, and what it changes.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

import attrs

from wgdsl.games.world_gainer import rules
from wgdsl.games.world_gainer.agents import Agent, BadAnswer
from wgdsl.games.world_gainer.board import board_data, render_board
from wgdsl.games.world_gainer.engine import Action, Game
from wgdsl.games.world_gainer.state import PLAYERS, SQUARES, STANDBY_SLOTS, GameState, Instance
from wgdsl.kernel.errors import IllegalAction, RunawayEffects
from wgdsl.lang import ast
from wgdsl.lang.cards import CardDef, CardLibrary

FILLER_FIELD = {"A": ("A1", "A2", "A3"), "B": ("B1", "B2", "B3", "C2")}


class FallbackAgent(Agent):
    """Answers from a script, then the first option; remembers what it defaulted."""

    name = "simulate"

    def __init__(self, answers=()):
        self.answers = list(answers)
        self.position = 0
        self.defaulted: list[str] = []

    def act(self, view, actions):  # pragma: no cover - simulate applies one action itself
        return actions[0]

    def answer(self, view, question):
        if self.position < len(self.answers):
            ans = self.answers[self.position]
            if ans not in question.options:
                raise BadAnswer(f"{question.player}'s answer `{ans}` does not fit "
                                f"\"{question.prompt}\" (options: {', '.join(question.options)})")
            self.position += 1
            return ans
        ans = question.options[0]
        self.defaulted.append(f"{question.player}: \"{question.prompt}\" -> {ans} "
                              f"(options: {', '.join(question.options)})")
        return ans

    def unused(self) -> list[str]:
        return self.answers[self.position:]


class _WatchedGame(Game):
    """A game that remembers which effects resolved, for the effects report."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.resolved: list = []  # (source instance uid, compiled effect)
        self.watch = lambda uid, effect: self.resolved.append((uid, effect))


def _fillers(library: CardLibrary, card: CardDef) -> list[CardDef]:
    """Cheap cards without field or static effects first (they stay out of the way)."""
    def quiet(c: CardDef) -> bool:
        return all(e.where == "dimension" for e in c.effects)

    pool = [c for c in library if c.id != card.id and not c.unique]
    pool.sort(key=lambda c: (not quiet(c), c.cost, c.id))
    return pool or [card]


def default_board(library: CardLibrary, card: CardDef, seed: int = 0) -> GameState:
    st = GameState.empty(seed)
    st.turn, st.active, st.phase, st.first = 3, "A", "gain", "A"
    fill = _fillers(library, card)
    k = 0

    def nxt() -> CardDef:
        nonlocal k
        c = fill[k % min(len(fill), 4)]
        k += 1
        return c

    for p in PLAYERS:
        for sq in FILLER_FIELD[p]:
            st.put(st.new_instance(p, nxt()), "field", square=sq)
    for p in PLAYERS:
        for _ in range(10):
            st.put(st.new_instance(p, nxt()), "stock")
        for _ in range(2 if p == "A" else 3):
            st.put(st.new_instance(p, nxt()), "hand")
        for _ in range(2):
            st.put(st.new_instance(p, nxt()), "break")
        for slot in range(3 if p == "B" else 2):
            st.put(st.new_instance(p, nxt()), "standby", slot=slot, exhausted=(slot == 2))
    st.put(st.new_instance("A", card), "hand")
    color = card.color if card.color != "yellow" else "red"
    st.players["A"].pool = {color: card.cost} if card.cost else {}
    return st


# ------------------------------------------------------------------ steps after the play
STEP_KINDS = {
    # kind: what its argument is
    "next": None, "end_turn": None,
    "exhaust": "slot", "break_stun": "slot", "discard_stun": "slot",
    "break_field": "square", "activate": "square",
    "set_stun": "card", "play": "card square",
}
STEP_FORMS = ("next | end_turn | exhaust N | break_stun N | discard_stun N | break_field SQUARE | "
              "activate SQUARE | set_stun ID | play ID SQUARE, optionally after `A:` or `B:`")


@attrs.frozen
class Step:
    """One action after the play; ``player`` None is the player whose turn it is then."""

    text: str
    kind: str
    player: Optional[str] = None
    card: Optional[str] = None
    slot: Optional[int] = None
    square: Optional[str] = None

    def action(self, active: str) -> Action:
        return Action(self.kind, self.player or active, card=self.card, slot=self.slot,
                      square=self.square)


def parse_step(text: str) -> Step:
    """``break_field C1``, ``end_turn``, ``B: play XX-001 C2``, ``exhaust 1`` -> a Step
    (ValueError saying what is wrong and what the forms are)."""
    raw = text.strip()
    player = None
    m = re.match(r"([AaBb])\s*:\s*(.*)$", raw)
    if m:
        player, raw = m.group(1).upper(), m.group(2)
    words = raw.split()
    if words:
        words[0] = words[0].lower().replace("-", "_")  # `break-field` reads too
    if words and words[0] in ("break", "discard") and len(words) > 1 and words[1] in ("field", "stun"):
        words = [f"{words[0]}_{words[1]}"] + words[2:]  # `break field C1` reads too
    if not words or words[0] not in STEP_KINDS:
        raise ValueError(f"`{text}` is not a step: write one of {STEP_FORMS}")
    kind, args = words[0], words[1:]
    shape = STEP_KINDS[kind]
    want = 0 if shape is None else len(shape.split())
    if len(args) != want:
        raise ValueError(f"`{text}`: {kind} takes "
                         + ("no argument" if shape is None else shape.upper().replace("CARD", "ID"))
                         + f" (forms: {STEP_FORMS})")
    if shape == "slot":
        if not re.fullmatch(r"[1-9]", args[0]) or int(args[0]) > STANDBY_SLOTS:
            raise ValueError(f"`{text}`: the standby slot is a number from 1 to {STANDBY_SLOTS}")
        return Step(text, kind, player, slot=int(args[0]))
    if shape == "square":
        square = args[0].upper()
        if square not in SQUARES:
            raise ValueError(f"`{text}`: `{args[0]}` is not a square ({', '.join(SQUARES)})")
        return Step(text, kind, player, square=square)
    if shape == "card":
        return Step(text, kind, player, card=args[0])
    if shape == "card square":
        square = args[1].upper()
        if square not in SQUARES:
            raise ValueError(f"`{text}`: `{args[1]}` is not a square ({', '.join(SQUARES)})")
        return Step(text, kind, player, card=args[0], square=square)
    return Step(text, kind, player)


@attrs.frozen
class StepResult:
    step: Step
    player: str
    error: Optional[str] = None  # why the step was refused, with the rule

    def to_dict(self) -> dict:
        return {"step": self.step.text, "player": self.player, "done": self.error is None,
                "error": self.error}


# ------------------------------------------------------------------ the effects report
@attrs.frozen
class EffectReport:
    """What became of one effect of the simulated card."""

    header: str  # the effect's first line as the card language writes it
    text: str  # the effect as printed card text (English)
    kind: str  # dimension | triggered | activated | static
    where: str  # dimension | field | a zone name
    status: str  # resolved | not resolved | fired | waiting | inactive | used | usable |
    #              not usable | applies | does not apply | not played
    detail: str  # why, in a sentence (with the rule)
    fire: tuple = ()  # steps (``--then``) that would make a waiting effect fire / use it

    def to_dict(self) -> dict:
        return {"effect": self.header, "text": self.text, "kind": self.kind,
                "where": self.where, "status": self.status, "detail": self.detail,
                "fire": list(self.fire) or None}


def _zone_words(inst: Instance) -> str:
    if inst.zone == "field":
        return f"on the field ({inst.square})"
    if inst.zone == "standby":
        return f"in {inst.owner}'s standby"
    return f"in {inst.owner}'s {inst.zone}"


def _is_top(game: Game, inst: Instance) -> bool:
    return inst.zone == "field" and game.state.field[inst.square][-1] is inst


def _fire_steps(event: ast.Event, inst: Instance, state: GameState) -> tuple:
    """Steps after the play that make ``event`` happen, when there is a short way."""
    if event.kind == "leaves" and isinstance(event.subject, ast.This) and event.to in (None, "break"):
        if inst.zone == "field" and inst.owner == state.active:
            # R6.2: the top card of a stack you hold into break, for a point
            return (f"break_field {inst.square}",)
    if event.kind in ("turn_start", "turn_end"):
        mine = event.player == "you"
        owner_active = inst.owner == state.active
        # end_turn passes into the next player's turn (its start phase runs on the way)
        turns_to_start = 2 if owner_active == mine else 1
        if event.kind == "turn_start":
            return ("end_turn",) * turns_to_start
        return ("end_turn",) * (1 if owner_active == mine else 2)
    return ()


def _applies_where(eff, game: Game, inst: Instance) -> tuple[bool, str]:
    """Does an effect that works ``eff.where`` work now, and why (not)."""
    if eff.where == "field":
        if inst.zone != "field":
            return False, (f"it works only while the card is on the field (R13.2); the card is "
                           f"{_zone_words(inst)}")
        if not _is_top(game, inst):
            return False, (f"only top cards' field effects apply (R13.3); the card is covered "
                           f"on {inst.square}")
        return True, f"it works while the card is on the field ({inst.square}, R13.2)"
    if inst.zone == eff.where:
        return True, f"it works while the card is in {inst.owner}'s {eff.where}, where it is"
    return False, (f"it works only while the card is in its owner's {eff.where} (R13.2); the "
                   f"card is {_zone_words(inst)}")


def _has_copy(eff) -> bool:
    return isinstance(eff, ast.Triggered) and any(isinstance(a, ast.EnterAsCopy) for a in eff.actions)


def effect_reports(game: _WatchedGame, card: CardDef, inst: Instance, played: bool,
                   used_steps: dict, copied: Optional[CardDef] = None) -> list[EffectReport]:
    """One report per effect of ``card`` (``inst``, the copy played), in card order; for a
    card that entered as a copy of ``copied``, then one per effect of the copied card."""
    out = _reports(game, card, card, inst, played, used_steps, copied)
    if played and copied is not None:
        out += _reports(game, copied, copied, inst, played, used_steps, None,
                        prefix=f"(as {copied.id}) ")
    return out


def _reports(game: _WatchedGame, card: CardDef, face: CardDef, inst: Instance, played: bool,
             used_steps: dict, copied: Optional[CardDef], prefix: str = "") -> list[EffectReport]:
    from wgdsl.lang.fmt import effect_header, fmt_action, fmt_event
    from wgdsl.lang.text import render_effect

    fx = game.fx[face.id]
    st = game.state
    seen_dimension = 0
    seen_trigger: dict = {}
    out = []
    for eff in card.effects:
        header = prefix + effect_header(eff)
        text = render_effect(eff, "en")
        where = eff.where

        def report(status, detail, fire=()):
            out.append(EffectReport(header, text, kind, where, status, detail, tuple(fire)))

        compiled = None
        if isinstance(eff, ast.Triggered):
            if eff.event is None:
                group, i, kind = fx.dimension, seen_dimension, "dimension"
                seen_dimension += 1
            else:
                i = seen_trigger.get(eff.event.kind, 0)
                seen_trigger[eff.event.kind] = i + 1
                group, kind = fx.triggers.get(eff.event.kind, ()), "triggered"
            compiled = group[i] if i < len(group) else None
        elif isinstance(eff, ast.Activated):
            kind = "activated"
        else:
            kind = "static"
        runs = sum(1 for uid, c in game.resolved if uid == inst.uid and c is compiled) \
            if compiled is not None else 0
        if not played:
            report("not played", "the card was not played, so none of its effects applied")
            continue
        if copied is not None:
            if _has_copy(eff):
                report("resolved", f"the card entered the field as a copy of {copied.id} "
                       f"{copied.name} (R7.2): it has that card's effects, listed below")
            else:
                report("replaced", f"as a copy of {copied.id} the card has that card's effects, "
                       "not this one")
            continue
        if kind == "dimension":
            if _has_copy(eff) and runs:
                report("resolved", "there was no card it could copy: it entered as itself")
            elif runs:
                report("resolved", "it resolved when the card entered the field (R13.1); what it "
                       "did is in the log" + (f" ({runs} times)" if runs > 1 else ""))
            elif st.winner is not None:
                report("not resolved", f"the game was won first ({st.win_reason}, R12)")
            elif inst.zone != "field":
                report("not resolved", "the card did not stay on the field (aiko, trade or a "
                       f"cancelled play: it never was on the field, R7.3); it is {_zone_words(inst)}")
            else:
                report("not resolved", "it was not triggered")
        elif kind == "triggered":
            works, why = _applies_where(eff, game, inst)
            trigger = f"`{fmt_event(eff.event)}`"
            if runs:
                report("fired", f"its trigger {trigger} happened and it resolved"
                       + (f" ({runs} times)" if runs > 1 else "") + "; what it did is in the log")
            elif works:
                report("waiting", f"it waits for its trigger {trigger}; {why}",
                       _fire_steps(eff.event, inst, st))
            else:
                report("inactive", f"its trigger is {trigger}, but {why}")
        elif kind == "activated":
            step_no = used_steps.get("card")
            works, why = _applies_where(eff, game, inst)
            if step_no is not None:
                report("used", f"step {step_no} used it; what it did is in the log")
            elif not works:
                report("not usable", f"not now: {why}")
            elif (st.winner is None and inst.owner == st.active
                  and any(a.kind == "activate" and a.square == inst.square
                          for a in game.legal_actions())):
                report("usable", f"{inst.owner} can use it now (R13.2)", (f"activate {inst.square}",))
            else:
                if st.winner is not None:
                    reason = "the game is over"
                elif inst.owner != st.active:
                    reason = f"it is {st.active}'s turn; only the active player uses effects"
                elif eff.phase is not None and eff.phase != st.phase:
                    reason = (f"it is used during the {eff.phase} phase; the board is in the "
                              f"{st.phase} phase")
                elif eff.cost is not None:
                    reason = f"its cost `{fmt_action(eff.cost)}` cannot be paid now"
                else:
                    reason = "the engine offers no use of it on this board"
                report("not usable", f"not now: {reason}")
        else:
            works, why = _applies_where(eff, game, inst)
            rule_text = render_effect(eff, "en", labels=False)
            if works:
                report("applies", f"{why}; what it changes: {rule_text}")
            else:
                report("does not apply", f"{why}; what it changes there: {rule_text}")
    return out


# ------------------------------------------------------------------ the simulation
@attrs.frozen
class Simulation:
    card: CardDef
    square: Optional[str]
    before_text: str
    after_text: str
    log: tuple  # the log as text lines
    error: Optional[str]  # why the card could not be played (or a step refused), with the rule
    defaulted: tuple
    unused: tuple
    state: GameState
    before: dict = attrs.Factory(dict)  # board_data before the play
    log_entries: tuple = ()  # (turn, player, kind, text)
    steps: tuple = ()  # StepResult per step run
    effects: tuple = ()  # EffectReport per effect of the card
    played: bool = False  # the play itself happened (a later step may still have been refused)


def _pick_square(game: Game, card: CardDef, square: Optional[str]) -> Optional[str]:
    if square is not None:
        return square
    plays = [a for a in game.legal_actions() if a.kind == "play" and a.card == card.id]
    if not plays:
        return None
    preference = ("C1", "C2", "C3") + tuple(sq for sq in SQUARES if sq[0] != "C")
    order = {sq: i for i, sq in enumerate(preference)}
    return min(plays, key=lambda a: order[a.square]).square


def _why_unplayable(game: Game, card: CardDef) -> str:
    st = game.state
    p = st.active
    if st.phase != "gain":
        return f"cards are played in the gain phase, and this board is in the {st.phase} phase (R7.1)"
    if st.played:
        return "the active player has already played a card from hand this turn (R5.4)"
    if rules.payment(st.players[p].pool, card.cost, card.required, card.color) is None:
        return (f"the pool cannot pay cost {card.cost} with {card.required} {card.color} "
                "(R6.3); add points to `pool`")
    reasons = []
    for sq in SQUARES:
        if not game.priority_ok(p, card, sq):
            continue
        outcome, rule, reason = game.play_outcome(p, card, sq)
        if outcome == rules.ILLEGAL:
            reasons.append(f"{sq}: {reason} ({rule})")
    if not reasons:
        return "no square is open to it by field priority (R8.2)"
    return "no square takes it: " + "; ".join(reasons)


def simulate(library: CardLibrary, card_id: str, *, state: Optional[GameState] = None,
             answers: Optional[dict] = None, square: Optional[str] = None,
             seed: int = 0, then: Sequence[Step] = ()) -> Simulation:
    """Play ``card_id`` (from the active player's hand) on ``state`` or a default board,
    then run the ``then`` steps; report the boards, the log and every effect of the card."""
    card = library[card_id]
    if state is None:
        state = default_board(library, card, seed)
    agents = {p: FallbackAgent((answers or {}).get(p, ())) for p in PLAYERS}
    game = _WatchedGame(state, library, agents)
    p = state.active
    inst = next((i for i in state.players[p].hand if i.id == card.id), None)
    if inst is None:
        inst = state.new_instance(p, card)
        state.put(inst, "hand")
    before_text = render_board(state, p)
    before = board_data(state)
    chosen = _pick_square(game, card, square)
    error = None
    played = False
    results: list[StepResult] = []
    used_steps: dict = {}
    if chosen is None:
        error = f"{card.id} cannot be played on this board: {_why_unplayable(game, card)}"
    else:
        try:
            game.apply(Action("play", p, card=card.id, square=chosen))
            played = True
        except IllegalAction as err:
            error = f"{card.id} cannot be played onto {chosen}: {err.reason}" + (
                f" ({err.rule})" if err.rule else "")
        except BadAnswer as err:
            error = str(err)
        except RunawayEffects as err:
            error = err.message
    copied = inst.copy_of if played and inst.zone == "field" else None
    if played:
        for number, step in enumerate(then, start=1):
            who = step.player or game.state.active
            if game.state.winner is not None:
                error = f"step {number} `{step.text}` was not run: the game is over"
                results.append(StepResult(step, who, "the game is over"))
                break
            uses_it = step.kind == "activate" and game.state.top(step.square) is inst
            try:
                game.apply(step.action(game.state.active))
            except IllegalAction as err:
                why = err.reason + (f" ({err.rule})" if err.rule else "")
                error = f"step {number} `{step.text}` was refused: {why}"
                results.append(StepResult(step, who, why))
                break
            except BadAnswer as err:
                error = f"step {number} `{step.text}`: {err}"
                results.append(StepResult(step, who, str(err)))
                break
            except RunawayEffects as err:
                error = f"step {number} `{step.text}`: {err.message}"
                results.append(StepResult(step, who, err.message))
                break
            results.append(StepResult(step, who))
            if uses_it:
                used_steps.setdefault("card", number)
    effects = effect_reports(game, card, inst, played, used_steps, copied)
    return Simulation(
        card=card, square=chosen, before_text=before_text,
        after_text=render_board(game.state, p), log=tuple(game.log.lines()), error=error,
        defaulted=tuple(d for a in agents.values() for d in a.defaulted),
        unused=tuple(f"{pl}: {', '.join(a.unused())}" for pl, a in agents.items() if a.unused()),
        state=game.state, before=before, log_entries=tuple(game.log.entries),
        steps=tuple(results), effects=tuple(effects), played=played,
    )


def parse_answers(values) -> dict:
    """``A=C1,A=yes,B=no`` (and repeated options) -> {"A": ["C1", "yes"], "B": ["no"]}."""
    out: dict = {p: [] for p in PLAYERS}
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            who, sep, ans = item.partition("=")
            who = who.strip().upper()
            if not sep or who not in PLAYERS or not ans.strip():
                raise ValueError(f"`{item}` is not PLAYER=ANSWER (e.g. A=C1, B=no, A=slot 2)")
            out[who].append(ans.strip())
    return out


def log_data(entries) -> list[dict]:
    """Log entries as the ``log`` array of docs/json.md."""
    return [{"turn": t, "player": pl, "kind": k, "text": x} for t, pl, k, x in entries]


def to_json_dict(sim: Simulation) -> dict:
    """The ``wgdsl simulate --json`` document (docs/json.md)."""
    return {
        "command": "simulate",
        "card": sim.card.id,
        "square": sim.square,
        "played": sim.played,
        "error": sim.error,
        "steps": [s.to_dict() for s in sim.steps],
        "log": log_data(sim.log_entries),
        "effects": [e.to_dict() for e in sim.effects],
        "defaulted_answers": list(sim.defaulted),
        "unused_answers": list(sim.unused),
        "before": sim.before,
        "after": board_data(sim.state),
    }
