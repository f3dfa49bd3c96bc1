"""Invariant checks for generated games (used by test_invariants.py and the deep runner).

Each ``check_*`` function looks at a game after one step and raises AssertionError
(with the rule number) when an invariant of rules.md fails.  They recompute what they
check from the state's plain data and from the rules text — rows, costs, marks, points
— rather than asking wgdsl.games.world_gainer.rules, so a broken rule in the engine cannot hide itself.

:class:`Watcher` keeps what a check needs across steps (the uids dealt at set-up, this
turn's stun sets and plays, the draw-phase draws) and runs the chosen checks from
:func:`strategies.play_game`'s ``on_step`` hook.
"""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import Optional

from wgdsl.games.world_gainer.engine import Action
from wgdsl.games.world_gainer.interpreter import zone_squares
from wgdsl.kernel.errors import IllegalAction
from wgdsl.lang.cards import CardDef

PLAYERS = ("A", "B")
OTHER = {"A": "B", "B": "A"}
# R1.2 / R8.1, written out here rather than imported
ROW = {"A": ("A1", "A2", "A3"), "C": ("C1", "C2", "C3"), "B": ("B1", "B2", "B3")}
SQUARES = ROW["A"] + ROW["C"] + ROW["B"]
BATTLE = ROW["C"]
SLOTS = 5  # R1.1
MAX_STUNS = 5  # R5.3
WIN_POINTS = 15  # R12.2
COLORS = ("blue", "green", "red", "yellow")


# ------------------------------------------------------------------------ snapshots
# one instance as a tuple (attrgetter runs in C: the refusal check snapshots a lot);
# base and copy_of are CardDef objects, compared by identity first
_inst = attrgetter("uid", "owner", "base", "zone", "square", "slot", "exhausted", "copy_of")


def readable(value):
    """A snapshot value with card definitions shown by id (for failure messages)."""
    if isinstance(value, CardDef):
        return value.id
    if isinstance(value, tuple):
        return tuple(readable(v) for v in value)
    if isinstance(value, dict):
        return {k: readable(v) for k, v in value.items()}
    return value


def snapshot(game, agent=None) -> dict:
    """Everything an action could change, as plain comparable data."""
    st = game.state
    out = {
        "turn": st.turn, "active": st.active, "phase": st.phase, "played": st.played,
        "stun_set": st.stun_set, "first": st.first, "seed": st.seed, "winner": st.winner,
        "win_reason": st.win_reason, "next_uid": st.next_uid, "rng": st.rng.getstate(),
        "field": {sq: tuple(map(_inst, st.field[sq])) for sq in sorted(st.field)},
        "pending": len(game.pending),
        # the log only grows: its length and last entry stand for it
        "log": (len(game.log.entries), game.log.entries[-1] if game.log.entries else None),
    }
    for p, ps in sorted(st.players.items()):
        out[p] = {
            "stock": tuple(map(_inst, ps.stock)),
            "hand": tuple(map(_inst, ps.hand)),
            "standby": tuple(None if s is None else _inst(s) for s in ps.standby),
            "break": tuple(map(_inst, ps.break_)),
            "pool": dict(ps.pool),
        }
    if agent is not None and hasattr(agent, "transcript"):
        out["decisions"] = len(agent.transcript)  # a refused step consumes no answer
    return out


def holder_in(snap: dict, square: str) -> Optional[str]:
    stack = snap["field"][square]
    return stack[0][1] if stack else None


# ------------------------------------------------------------------------ R8
def priority_allows(game, player: str, card_id: str, square: str, holder) -> bool:
    """R8.2 from the rules text, plus R8.4: the card's own compiled static rules
    (``this can be played onto …``, WG-014's kind) — found generically, not by id."""
    for row in (ROW[player], BATTLE, ROW[OTHER[player]]):  # R8.1
        if square in row:
            return True
        if any(holder(sq) != player for sq in row):
            break
    for zone in game.fx[card_id].play_onto:  # R8.4
        if square in zone_squares(zone, player):
            return True
    return False


def check_offered_priority(game, offered) -> None:
    """R8: legal_actions() never offers a play onto a row while a higher row is not all
    held, unless the card's own rule allows it (checked before the step)."""
    holder = game.state.holder
    for a in offered:
        if a.kind == "play":
            assert priority_allows(game, a.player, a.card, a.square, holder), (
                f"R8.2: legal_actions() offers {a} while {a.player} does not hold every "
                f"square of the higher rows")


def check_priority(game, step) -> None:
    """R8: a play from hand never lands on a row while a higher row is not all held,
    unless the card's own rule allows it (judged on the state before the step)."""
    a = step.action
    if a.kind != "play":
        return
    before = step.before
    assert before is not None, "check_priority needs the snapshot before the step"
    assert priority_allows(game, a.player, a.card, a.square, lambda sq: holder_in(before, sq)), (
        f"R8.2: {a} was played while {a.player} did not hold the higher rows")


# ------------------------------------------------------------------------ stacks, points
def check_stacks_and_points(game, step=None) -> None:
    """R10.2: in every stack each card's cost is above the sum below it (so costs rise
    strictly); R1.4: one owner per stack; R1.5: square and player points."""
    st = game.state
    totals = {p: 0 for p in PLAYERS}
    for sq in SQUARES:
        stack = st.field[sq]
        costs = [i.base.cost for i in stack]  # R2.4: the printed cost, even as a copy
        for k in range(1, len(costs)):
            assert costs[k] > costs[k - 1], f"R10.2: costs on {sq} do not rise: {costs}"
            assert costs[k] > sum(costs[:k]), (
                f"R10.2: on {sq} a card of cost {costs[k]} sits on cards totalling "
                f"{sum(costs[:k])}: {costs}")
        owners = {i.owner for i in stack}
        assert len(owners) <= 1, f"R1.4: the stack on {sq} mixes owners {sorted(owners)}"
        assert st.square_points(sq) == sum(costs), (
            f"R1.5: {sq} has {st.square_points(sq)} points, its costs sum to {sum(costs)}")
        if stack:
            assert st.holder(sq) == stack[0].owner, f"R1.4: {sq} is held by {st.holder(sq)}"
            totals[stack[0].owner] += sum(costs)
        else:
            assert st.holder(sq) is None, f"R1.4: empty {sq} is held by {st.holder(sq)}"
    for p in PLAYERS:
        assert st.points(p) == totals[p], (
            f"R1.5: {p} has {st.points(p)} points, the held squares sum to {totals[p]}")


# ------------------------------------------------------------------------ conservation
def check_conservation(game, identity: dict) -> None:
    """Every instance in exactly one zone, its zone/square/slot attributes agreeing with
    where it is listed, none created or lost (the uids dealt at set-up), each its owner's
    and still the card it was dealt as; nothing left half-done between steps."""
    st = game.state
    seen: dict = {}

    def see(i, where):
        assert i.uid not in seen, f"uid {i.uid} ({i.label()}) is in {seen[i.uid]} and in {where}"
        seen[i.uid] = where
        assert identity.get(i.uid) == (i.owner, i.base.id), (
            f"uid {i.uid} is {(i.owner, i.base.id)}, dealt as {identity.get(i.uid)}")

    for p in PLAYERS:
        ps = st.players[p]
        for zone, cards in (("stock", ps.stock), ("hand", ps.hand), ("break", ps.break_)):
            for i in cards:
                see(i, f"{p}'s {zone}")
                assert i.owner == p, f"{i.label()} of {i.owner} is in {p}'s {zone}"
                assert (i.zone, i.square, i.slot) == (zone, None, None), (
                    f"{i.label()} in {p}'s {zone} says zone={i.zone} square={i.square} slot={i.slot}")
                assert not i.exhausted, f"{i.label()} in {p}'s {zone} is exhausted"
                assert i.copy_of is None, f"{i.label()} in {p}'s {zone} is still a copy"
        assert len(ps.standby) == SLOTS, f"{p}'s standby has {len(ps.standby)} slots"
        for slot, s in enumerate(ps.standby):
            if s is None:
                continue
            see(s, f"{p}'s standby slot {slot + 1}")
            assert s.owner == p, f"{s.label()} of {s.owner} is in {p}'s standby"
            assert (s.zone, s.square, s.slot) == ("standby", None, slot), (
                f"{s.label()} in {p}'s slot {slot + 1} says zone={s.zone} slot={s.slot}")
            assert s.copy_of is None, f"stun {s.label()} is still a copy"
    assert set(st.field) == set(SQUARES), f"the field's squares are {sorted(st.field)}"
    for sq in SQUARES:
        for i in st.field[sq]:
            see(i, f"the stack on {sq}")
            assert (i.zone, i.square, i.slot) == ("field", sq, None), (
                f"{i.label()} on {sq} says zone={i.zone} square={i.square} slot={i.slot}")
            assert not i.exhausted, f"{i.label()} on {sq} is exhausted"
    missing = set(identity) - set(seen)
    assert not missing, f"cards lost: uids {sorted(missing)}"
    assert len(seen) == len(identity)
    assert not game.pending, f"{len(game.pending)} effects left pending between steps"


# ------------------------------------------------------------------------ limits
def check_limits(game, watcher: "Watcher") -> None:
    """R5.3 ≤ 5 stuns and one stun set per turn, R5.4 one play from hand per turn,
    R6.1/R5.5 no points outside the active player's turn, and none at a turn's start."""
    st = game.state
    for p in PLAYERS:
        ps = st.players[p]
        stuns = sum(1 for s in ps.standby if s is not None)
        assert stuns <= MAX_STUNS, f"R5.3: {p} has {stuns} stuns"
        assert all(n >= 0 for n in ps.pool.values()), f"R6.3: {p}'s pool {ps.pool} is negative"
        # the engine's bookkeeping behind R5.1 and R6.2's listings: a seat not marked
        # `tired` has no exhausted stun (whatever exhausts one must mark it)
        assert ps.tired or not any(s is not None and s.exhausted for s in ps.standby), (
            f"{p} has an exhausted stun but is not marked tired: R5.1 would not ready it")
    turn = st.turn
    assert watcher.sets[turn] <= 1, f"R5.3: {watcher.sets[turn]} stuns set in turn {turn}"
    assert watcher.plays[turn] <= 1, f"R5.4: {watcher.plays[turn]} plays from hand in turn {turn}"
    if watcher.sets[turn]:
        assert st.stun_set, "R5.3: a stun was set this turn but stun_set is False"
    if watcher.plays[turn]:
        assert st.played, "R5.4: a card was played this turn but played is False"
    if watcher.turn_began:
        for p in PLAYERS:  # R5.5: unused points are lost at the end of a turn
            assert not sum(st.players[p].pool.values()), (
                f"R5.5: turn {turn} began with {p}'s pool {st.players[p].pool}")
    other = st.players[OTHER[st.active]]
    assert not sum(other.pool.values()), (
        f"R6.1: {OTHER[st.active]} holds points {other.pool} during {st.active}'s turn")


# ------------------------------------------------------------------------ winning
def points_of(game, p: str) -> int:
    """R1.5 from scratch: printed costs of every card on the squares ``p`` holds."""
    field = game.state.field
    return sum(i.base.cost for sq in SQUARES for i in field[sq] if field[sq][0].owner == p)


def r12_met(game, p: str) -> Optional[str]:
    st = game.state
    if all(st.field[sq] and st.field[sq][0].owner == p for sq in BATTLE):
        return "R12.1"
    if points_of(game, p) >= WIN_POINTS:
        return "R12.2"
    return None


def check_winning(game, watcher: "Watcher") -> None:
    """R12: the game is over exactly when a condition holds, the recorded reason is true
    of the final state, and a draw-phase draw from an empty stock loses (R12.3)."""
    st = game.state
    met = {p: r12_met(game, p) for p in PLAYERS}
    met = {p: r for p, r in met.items() if r}
    if st.winner is None:
        assert not met, f"R12: {met} holds but the game goes on"
        assert st.phase in ("standby", "gain"), f"R5: the game waits in the {st.phase} phase"
        assert game.legal_actions(), "R5: a running game offers no action"
    else:
        w, reason = st.winner, st.win_reason
        assert w in PLAYERS, f"winner {w!r}"
        assert game.legal_actions() == [], "a finished game still offers actions"
        if reason in ("R12.1", "R12.2"):
            if reason == "R12.1":
                assert all(st.field[sq] and st.field[sq][0].owner == w for sq in BATTLE), (
                    f"R12.1: {w} won but does not hold C1-C3")
            else:
                assert points_of(game, w) >= WIN_POINTS, (
                    f"R12.2: {w} won on points but has {points_of(game, w)}")
            if st.active in met:
                assert w == st.active, f"R12.4: both meet a condition; the active {st.active} wins"
        elif reason == "R12.3":
            loser = OTHER[w]
            assert st.active == loser and st.phase == "draw", (
                f"R12.3: {loser} lost outside their draw phase ({st.active}'s {st.phase})")
            assert not st.players[loser].stock, f"R12.3: {loser} lost with cards in the stock"
            assert not (st.turn == 1 and loser == st.first), "R12.3: the first player's first draw is skipped"
            assert not met, f"R12.3 recorded while {met} holds"
        else:
            raise AssertionError(f"unknown win reason {reason!r}")
    # the draw of the turn that began in this step (R5.2, R12.3)
    if watcher.turn_began and watcher.began_in_step:
        q, t = st.active, st.turn
        draws = [d for d in watcher.draws if d[0] == t and d[1] == q and d[2] == "draw" and not d[3]]
        if t == 1 and q == st.first:
            assert not draws, "R4.2: the first player drew on the first turn"
        elif st.winner is not None and st.win_reason == "R12.3":
            assert not draws, "R12.3: the loser drew a card"
        elif st.winner is not None and st.phase == "start":
            pass  # won by a start-of-turn effect, before the draw
        else:
            assert len(draws) == 1, f"R5.2: {q} made {len(draws)} draw-phase draws in turn {t}"
            assert draws[0][4] > 0, (
                f"R12.3: {q} had to draw from an empty stock in turn {t} and did not lose")


# ------------------------------------------------------------------------ refusal
def affordable(pool: dict, card) -> bool:
    """R6.3/R6.4 from the rules text."""
    if sum(pool.values()) < card.cost:
        return False
    if card.required <= 0:
        return True
    if card.color == "yellow":
        return any(n >= card.required for n in pool.values())
    return pool.get(card.color, 0) >= card.required


def illegal_actions(game) -> list:
    """``(what, action)`` pairs the rules must refuse in the current state."""
    st = game.state
    lib = game.library
    p = st.active
    o = OTHER[p]
    me = st.players[p]
    out: list = []
    if st.winner is not None:
        return [("game over", Action("next", p)), ("game over", Action("end_turn", p))]
    hand = list(dict.fromkeys(i.id for i in me.hand))
    missing = next((c.id for c in lib if c.id not in hand), None)
    stun_slots = [k + 1 for k, s in enumerate(me.standby) if s is not None]
    empty_slots = [k + 1 for k, s in enumerate(me.standby) if s is None]
    held = [sq for sq in SQUARES if st.field[sq] and st.field[sq][0].owner == p]
    not_held = [sq for sq in SQUARES if sq not in held]
    out += [("wrong player", Action("next", o)), ("wrong player", Action("end_turn", o)),
            ("unknown action", Action("pass", p))]
    if hand:
        kind = "set_stun" if st.phase == "standby" else "play"
        out.append(("wrong player", Action(kind, o, card=hand[0], square="C1")))
    for slot in (0, SLOTS + 1, None):
        out.append(("bad slot", Action("discard_stun", p, slot=slot)))
    if empty_slots:
        out.append(("empty slot", Action("discard_stun", p, slot=empty_slots[0])))
    if missing is not None:
        out.append(("card not in hand", Action("set_stun" if st.phase == "standby" else "play",
                                               p, card=missing, square="C1")))
    if st.phase == "standby":
        for c in hand[:2]:
            out.append(("wrong phase", Action("play", p, card=c, square=SQUARES[0])))
        for s in stun_slots[:1]:
            out.append(("wrong phase", Action("exhaust", p, slot=s)))
            out.append(("wrong phase", Action("break_stun", p, slot=s)))
        for sq in held[:1]:
            out.append(("wrong phase", Action("break_field", p, square=sq)))
        if hand and st.stun_set:
            out.append(("second stun", Action("set_stun", p, card=hand[0])))
        if hand and not empty_slots:
            out.append(("sixth stun", Action("set_stun", p, card=hand[0])))
    elif st.phase == "gain":
        for c in hand[:1]:
            out.append(("wrong phase", Action("set_stun", p, card=c)))
        for slot in (0, SLOTS + 1):
            out.append(("bad slot", Action("exhaust", p, slot=slot)))
        if empty_slots:
            out.append(("empty slot", Action("exhaust", p, slot=empty_slots[0])))
            out.append(("empty slot", Action("break_stun", p, slot=empty_slots[0])))
        for s in stun_slots:
            if me.standby[s - 1].exhausted:
                out.append(("exhausted stun", Action("exhaust", p, slot=s)))
                out.append(("exhausted stun", Action("break_stun", p, slot=s)))
                break
        out.append(("bad square", Action("break_field", p, square="D4")))
        for sq in not_held[:1]:
            out.append(("square not held", Action("break_field", p, square=sq)))
            out.append(("square not held", Action("activate", p, square=sq)))
        if hand:
            out.append(("bad square", Action("play", p, card=hand[0], square="D4")))
        if st.played:
            for c in hand[:1]:
                for sq in SQUARES:
                    out.append(("second play", Action("play", p, card=c, square=sq)))
                    break
        else:
            offered = {(a.card, a.square) for a in game.legal_actions() if a.kind == "play"}
            for c in hand:
                card = lib[c]
                ok_squares = [sq for sq in SQUARES
                              if priority_allows(game, p, c, sq, st.holder)]
                if not affordable(me.pool, card):
                    sq = ok_squares[0] if ok_squares else "C1"
                    out.append(("unaffordable", Action("play", p, card=c, square=sq)))
                    continue
                bad_rows = [sq for sq in SQUARES if sq not in ok_squares]
                for sq in bad_rows[:2]:
                    out.append(("priority", Action("play", p, card=c, square=sq)))
                blocked = [sq for sq in ok_squares if (c, sq) not in offered]
                # a copying card (WG-013's kind) may ask its copy before the outcome is
                # known: try every blocked square, with and without a named copy
                copying = game.fx[c].entry_copy is not None
                for sq in blocked if copying else blocked[:1]:
                    out.append(("placement", Action("play", p, card=c, square=sq)))
                    if copying:
                        for other in SQUARES:
                            if st.field[other]:
                                out.append(("placement", Action("play", p, card=c, square=sq,
                                                                copy=other)))
                                break
    return out


ASKED_KEYS = {"log", "decisions"}


def asks_before_refusing(game, action) -> bool:
    """A play of a copying card (WG-013's kind) naming no copy asks the copy first."""
    return (action.kind == "play" and action.copy is None and action.card in game.fx
            and game.fx[action.card].entry_copy is not None)


def check_refusals(game, agent=None, per_kind: int = 2) -> Counter:
    """Every constructed illegal action raises IllegalAction, is not offered, and leaves
    the state exactly as it was (at most ``per_kind`` of each kind per state, plus every
    placement of a copying card).  Returns how many of each kind were tried."""
    tried: Counter = Counter()
    offered = set(game.legal_actions())
    before = snapshot(game, agent)
    decisions = getattr(agent, "transcript", None)
    for what, action in illegal_actions(game):
        if tried[what] >= per_kind and not (what == "placement" and game.fx[action.card].entry_copy):
            continue
        assert action not in offered, f"legal_actions() offers the illegal ({what}) {action}"
        try:
            game.apply(action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"the illegal ({what}) action {action} was accepted")
        after = snapshot(game, agent)
        if after != before:
            changed = {k for k in before if before[k] != after.get(k)}
            if changed <= ASKED_KEYS and asks_before_refusing(game, action) \
                    and all(e[2] == "choice" for e in game.log.entries[before["log"][0]:]):
                # the documented exception (tests/test_engine_cards.py): a copy is chosen
                # as the card is played (R7.2), before the placement is judged; the state
                # is unchanged, only the question was asked and logged
                tried["placement: asked, then refused"] += 1
                if decisions is not None:  # a refused step consumes no answer: give it back
                    del decisions[before["decisions"]:]
                before = snapshot(game, agent)
            else:
                diff = {}
                for k in sorted(changed):
                    b, a = before[k], after.get(k)
                    if isinstance(b, dict) and isinstance(a, dict):  # a player: by zone
                        for z in b:
                            if b[z] != a.get(z):
                                diff[f"{k}.{z}"] = (readable(b[z]), readable(a.get(z)))
                    else:
                        diff[k] = (readable(b), readable(a))
                raise AssertionError(
                    f"the refused ({what}) action {action} changed the state: {diff}")
        tried[what] += 1
    return tried


# ------------------------------------------------------------------------ watcher
class Watcher:
    """Per-game bookkeeping and the ``on_step`` hook running the chosen checks."""

    ALL = ("priority", "stacks", "conservation", "limits", "winning", "refusal")

    def __init__(self, game, checks=ALL, agent=None):
        self.game = game
        self.checks = set(checks)
        self.agent = agent
        st = game.state
        self.identity = {i.uid: (i.owner, i.base.id) for i in st.all_instances()}
        self.sets: Counter = Counter()
        self.plays: Counter = Counter()
        self.draws: list = []  # (turn, player, phase, by_effect, stock size before)
        self.last_turn = st.turn
        self.turn_began = True  # turn 1 has just begun
        self.began_in_step = False
        self.refusals: Counter = Counter()
        original = game.draw

        def draw(p, by_effect=False):
            s = game.state
            self.draws.append((s.turn, p, s.phase, by_effect, len(s.players[p].stock)))
            return original(p, by_effect=by_effect)

        game.draw = draw  # an instance attribute: the engine's self.draw finds it

    def check_all(self, step=None) -> None:
        game, c = self.game, self.checks
        if step is not None and "priority" in c:
            check_priority(game, step)
        if "stacks" in c:
            check_stacks_and_points(game)
        if "conservation" in c:
            check_conservation(game, self.identity)
        if "limits" in c:
            check_limits(game, self)
        if "winning" in c:
            check_winning(game, self)
        if "refusal" in c:
            self.refusals.update(check_refusals(game, self.agent))

    def before_step(self, game, offered) -> None:
        if "priority" in self.checks:
            check_offered_priority(game, offered)

    def on_step(self, game, step) -> None:
        st = game.state
        a = step.action
        # the step's action counts toward the turn it was made in
        turn_of_action = step.before["turn"] if step.before is not None else self.last_turn
        if a.kind == "set_stun":
            self.sets[turn_of_action] += 1
        elif a.kind == "play":
            self.plays[turn_of_action] += 1
        self.turn_began = st.turn != self.last_turn
        self.began_in_step = True
        if self.turn_began:
            assert st.turn == self.last_turn + 1, f"R5: turn {self.last_turn} → {st.turn}"
        self.last_turn = st.turn
        self.check_all(step)
