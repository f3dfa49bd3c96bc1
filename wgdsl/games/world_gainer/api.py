"""World Gainer through the public engine interface (``../shared/spec/engine-api.md``).

``GAME`` is the :class:`WorldGainer` game ``wgdsl.load_game("world-gainer")`` returns;
``GAME.new_state(...)`` a :class:`WGState`: ``current_seats()``, ``legal_actions(seat)``,
``apply(seat, action)``, ``clone()``, ``observation(seat)``, ``resample(seat, seed)``,
``to_dict()``, ``returns()``, ``winners()``, ``log``, ``parse_action``.

Decisions as data.  The engine (:mod:`.engine`) asks its questions in the middle of an
action.  Stepped from here, a question nobody has answered yet stops the action
(:class:`~wgdsl.kernel.decision.Suspend`): the state keeps the board as it is at the
question, the :class:`~wgdsl.kernel.decision.Decision` (its seat is the one current, its
options are ``Answer`` actions) and, as plain data, what resumes it: the action, the
answers given so far and a snapshot of the state before the action
(:meth:`GameState.snapshot`, lists of the same instances: a few microseconds).  An answer
puts the snapshot back and runs the action again with one answer more; the engine is
deterministic, so the run retraces the same steps, with the same log, up to the next
question or the end.  ``clone()`` and ``resample()`` at a question copy the state before
the action and retrace it on the copy.  The retracing is the kernel's
(:class:`~wgdsl.kernel.stepper.Stepper`); this module gives it World Gainer's hooks.
docs/architecture.md says why this, and not compiled frames, carries decisions as data.

The in-process agents of ``wgdsl play`` and the benchmarks keep the fast path
(:class:`~wgdsl.games.world_gainer.engine.Game` with agents: no snapshot, no retracing);
tests/test_world_gainer_api.py holds the two drivers to the same log for the same answers.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Optional

from wgdsl.kernel.bots import RandomBot
from wgdsl.kernel.decision import Answer, Suspend
from wgdsl.kernel.errors import IllegalAction, RunawayEffects
from wgdsl.kernel.rng import fingerprint
from wgdsl.kernel.stepper import Stepper, keep_straight_path
from wgdsl.lang.cards import CardLibrary, card_set_path, load_cards
from wgdsl.lang.game.rule_functions import rule_function
from wgdsl.lang.vocabulary import Vocabulary

from .agents import make_agent
from .board import _seen, board_data, observation_data
from .engine import ACTION_KINDS, Action, Game
from .state import PHASES, PLAYERS, POINT_COLORS, SQUARES, STANDBY_SLOTS

RUNAWAY_RULE = "R13.7"  # effects that never end: the game stops with no winner
DEFAULT_DECKS = ("blue-red-tempo.txt", "green-control.txt")  # the built-in set's decks
# what another seat reads in its observation's log instead of an entry that names a card
# hidden from it
_REDACTED = {"set_stun": "sets a stun", "look": "looks at a card",
             "move": "moves a card it alone sees", "choice": "makes a choice among hidden cards"}
_SLOT_KINDS = ("discard_stun", "exhaust", "break_stun")
_SEAT = {p: (p,) for p in PLAYERS}  # the one seat that acts, as current_seats() gives it
_SQUARE_KINDS = ("break_field", "activate")
# the kernel's (current seats, acting seats, terminal) between steps of a game not over,
# by the seat that acts: made once, not per action
_WHO = {p: (_SEAT[p], _SEAT[p], False) for p in PLAYERS}
_NOBODY = object()  # (WGState.legal_actions: no seat's _WHO)
_ENGINE_APPLY = Game.apply  # the engine's own (WGState.apply runs its body inline)
# can a step of this kind meet a question (WGState._may_ask)?  False: never (setting a
# stun, discarding one); True: it may (activating); the others ask the state: _PHASES
# (passing, ending the turn: Game.phases_may_ask), _SLOT (exhausting, breaking a stun:
# whether the card's rule lets its player choose a color), _BREAK (breaking a field card:
# whether a card on the field has a "leaves" trigger, WGState._break_may_ask) and _PLAY
# (playing: whether the card or a card on the field has effects, WGState._play_may_ask)
_PHASES, _SLOT, _BREAK, _PLAY = "phases", "slot", "break", "play"
_ASKS = {kind: True for kind in ACTION_KINDS}
# the hooks the straight path (WGState.apply, legal_actions) does not call
_BYPASSED = ("_find_who", "_legal_of", "_may_ask", "_run")
_ASKS.update(set_stun=False, discard_stun=False, next=_PHASES, end_turn=_PHASES,
             exhaust=_SLOT, break_stun=_SLOT, break_field=_BREAK, play=_PLAY)


class WorldGainer:
    """The game: ``id``, ``name``, ``seat_range`` and :meth:`new_state`."""

    id = "world-gainer"
    name = "World Gainer"
    seat_range = (2, 2)
    options = ("first", "log")

    def __init__(self, spec=None):
        """``spec``: the game file it was loaded from (:func:`game_from_spec`); None for
        the engine alone, with the built-in set read in World Gainer's words."""
        self.spec = spec
        self.vocabulary = Vocabulary.from_spec(spec) if spec is not None else None
        self._builtin: Optional[CardLibrary] = None
        self._builtin_decks: Optional[dict] = None  # the built-in decks, read once
        # the bots a tool driving this interface can name (wgdsl.tools.gamefile.make_bots,
        # `wgdsl sweep --agent`): name -> a function of a seed that returns the bot
        self.agents = {"random": RandomBot,
                       "greedy": lambda seed: AgentBot(make_agent("greedy", seed))}

    def _library(self, cards: Any) -> CardLibrary:
        if cards is None:
            if self._builtin is None:
                self._builtin = load_cards(card_set_path(self.spec), self.vocabulary)
            return self._builtin
        if isinstance(cards, CardLibrary):
            return cards
        return load_cards(cards, self.vocabulary)

    def _decks(self, decks: Any, library: CardLibrary) -> dict:
        from .decks import load_deck

        if decks is None:
            if library is not self._builtin:
                raise ValueError("give decks= for a card set of your own: a deck file (both "
                                 "seats), a list of two, or {seat: file or list of card ids}")
            if self._builtin_decks is None:  # reading them cost 4/5 of new_state
                from wgdsl.resources import builtin_decks_dir

                self._builtin_decks = {
                    p: load_deck(builtin_decks_dir() / name, library, validate=True)
                    for p, name in zip(PLAYERS, DEFAULT_DECKS)}
            return {p: list(ids) for p, ids in self._builtin_decks.items()}
        if isinstance(decks, (str, Path)):
            decks = [decks, decks]
        if isinstance(decks, dict):
            unknown = sorted(set(decks) - set(PLAYERS))
            if unknown or len(decks) != len(PLAYERS):
                raise ValueError(f"decks= names the seats {', '.join(PLAYERS)}; got "
                                 f"{', '.join(map(str, decks)) or 'none'}")
            decks = [decks[p] for p in PLAYERS]
        decks = list(decks)
        if len(decks) != len(PLAYERS):
            raise ValueError(f"decks=: one deck for each of the {len(PLAYERS)} seats, not {len(decks)}")
        out = {}
        for p, deck in zip(PLAYERS, decks):
            if isinstance(deck, (str, Path)):
                out[p] = load_deck(deck, library, validate=True)
            else:
                ids = [str(i) for i in deck]
                missing = sorted({i for i in ids if i not in library})
                if missing:
                    raise ValueError(f"decks=: seat {p}'s deck names cards not in the set: "
                                     + ", ".join(missing))
                out[p] = ids
        return out

    def new_state(self, seed: int = 0, seats: Optional[int] = None, decks: Any = None,
                  cards: Any = None, options: Optional[dict] = None) -> "WGState":
        """A new game.  ``seats``: 2 (R1.1) or None; ``decks``: a deck file for both, a list
        of two (A's, B's), or ``{seat: file or list of ids}`` (default: the built-in set's
        two decks); ``cards``: a card file or a CardLibrary (default: the built-in set);
        ``options``: ``{"first": "A" or "B"}`` (default A, R4.2) and ``{"log": False}``
        to play without the event log's text."""
        if seats not in (None, len(PLAYERS)):
            raise ValueError(f"World Gainer is played by {len(PLAYERS)} seats (R1.1), not {seats}")
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(unknown)}; World Gainer's options "
                             f"are {', '.join(self.options)}")
        first = options.get("first", PLAYERS[0])
        if first not in PLAYERS:
            raise ValueError(f"option first: one of {', '.join(PLAYERS)}, not {first!r}")
        library = self._library(cards)
        game = Game.new(library, self._decks(decks, library), seed=int(seed), first=first,
                        log=bool(options.get("log", True)))
        return WGState(game)


class AgentBot:
    """A World Gainer agent (:mod:`.agents`) as a bot of engine-api.md: ``act(view)`` with a
    view that gives ``legal_actions()``, ``observation()`` and ``rules()`` (the seat's
    :class:`~.view.SeatView`, which the agent's rule queries need: what that seat may know,
    nothing more).  A pending question (its legal actions are ``Answer`` actions) goes to
    the agent's ``answer`` with the decision the seat's observation shows."""

    def __init__(self, agent):
        self.agent = agent

    def act(self, view):
        legal = view.legal_actions()
        if isinstance(legal[0], Answer):
            from .agents import Question

            d = view.observation()["decision"]
            chosen = self.agent.answer(view.rules(), Question(d["seat"], d["kind"], d["prompt"],
                                                              tuple(d["options"])))
            return next(a for a in legal if a.option == chosen)
        return self.agent.act(view.rules(), legal)


class WGState(Stepper):
    """One game of World Gainer through engine-api.md (the engine's hooks for
    :class:`~wgdsl.kernel.stepper.Stepper`)."""

    seats = PLAYERS
    turn_rule = "R5"  # the active player acts (R5); World Gainer has no simultaneous window
    window_rule = "R5"
    runaway_rule = RUNAWAY_RULE

    def __init__(self, game: Game):
        super().__init__()
        self.game = game
        # stepped from outside: the engine has no agent, so a question past the answers
        # given raises Suspend; between steps there are none (the hot path sets nothing)
        game.answers, game.answered = (), 0
        # is the game's apply the engine's own? (then the straight path runs its body
        # inline: apply below; a subclass's or a test's is called)
        self._own_apply = type(game).apply is _ENGINE_APPLY

    # ------------------------------------------------------------------ the engine's hooks
    def _over(self) -> bool:
        return self.game.state.winner is not None

    def _acting(self) -> tuple:
        return _SEAT[self.game.state.active]

    def _find_who(self) -> tuple:
        """The kernel's (current seats, acting seats, terminal), read straight off the
        state between steps."""
        if self.question is None and self.stopped is None:
            st = self.game.state
            if st.winner is None:
                return _WHO[st.active]
        return super()._find_who()

    # ---------------------------------------------------------- the public loop's path
    # The kernel's legal_actions and apply, for World Gainer's common case
    # (between steps, one seat acting, the action listed) without the hooks' calls: the
    # loop of a learner or a sweep pays them once per action (issue 17).  Anything else
    # (a question pending, a game stopped or over, an action not listed, an apply with no
    # list asked for) goes to the kernel's, which says what is wrong in its own words.
    # tests/test_world_gainer_api.py holds both paths to the same lists, logs and errors.
    def __init_subclass__(cls, **kwargs):
        """A subclass that gives hooks of its own (a test's spy, a variant) is stepped
        by the kernel's path, which calls them: the straight path does not."""
        super().__init_subclass__(**kwargs)
        keep_straight_path(cls, WGState, _BYPASSED,
                           {"legal_actions": Stepper.legal_actions, "apply": Stepper.apply})

    # is_terminal and current_seats are the kernel's: a straight step below leaves the
    # (current seats, acting seats, terminal) of the state it reaches (_WHO's, as
    # _find_who would give it) when the game goes on, so they only read it
    def legal_actions(self, seat: str) -> list:
        legal = self._legal.get(seat)
        if legal is not None:
            return legal[:]
        if self._who is _WHO.get(seat, _NOBODY):  # between steps, ``seat`` acting
            legal = self._legal[seat] = self.game.legal_actions()
            return legal[:]
        return Stepper.legal_actions(self, seat)

    def apply(self, seat: str, action: Any) -> None:
        # the kernel keeps a seat's list only for a current seat between steps, so a list
        # kept means: no question, the game neither over nor stopped, ``seat`` acts
        legal = self._legal.get(seat)
        if legal is None:
            return Stepper.apply(self, seat, action)
        try:
            listed = action in legal
        except Exception:  # an unhashable or incomparable thing is no action
            listed = False
        if not listed:
            return Stepper.apply(self, seat, action)  # its refusal
        # (no snapshot is kept between steps: GameState.snap is set only inside _run)
        g = self.game
        st = g.state
        asks = _ASKS[action[0]]  # _may_ask, inline; action[0] is its kind (by index: a
        # specialised subscript, where a named tuple's field by name is a descriptor call)
        if asks is not False:
            if asks is _PHASES:  # phases_may_ask, its answer for this field read inline
                asks = (g._phases_ask if g._phases_seen == st.field_version
                        else g.phases_may_ask())
            elif asks is _SLOT:
                asks = bool(g.fx[st.players[action.player].standby[action.slot - 1]
                                 .face.id].any_color)
            elif asks is _BREAK:
                asks = self._break_may_ask()
            elif asks is _PLAY:
                asks = self._play_may_ask(action)
            if asks:
                self._resume(seat, action, [], self._snapshot())
                return
        self._legal = {}
        self._who = None
        try:
            if self._own_apply:
                # Game.apply's body past its refusals, inline (hot path: a call an action
                # fewer): the action is listed, so the game is not over, its kind is
                # known and its player acts (as Game.play_random does; a handler still
                # refuses what its own rules refuse, its log lines taken back)
                raw = g.log.raw
                logged = g._log_mark = len(raw)
                g._resolved = 0
                try:
                    g._handlers[action[0]](g, action)
                except IllegalAction:
                    del raw[logged:]
                    raise
                if g.pending:
                    g._resolve_pending()
                if st.field_version != g._checked_version:
                    g.check_win()
            else:  # a Game whose apply is not the engine's (a subclass's, a test's)
                g.apply(action)  # _run's hot path: no answers (g.answers is () here)
        except Suspend as stop:
            raise self._broken_promise(seat, action, stop) from None
        except RunawayEffects as err:
            self.stopped = err.message
            return
        if st.winner is None:  # what _find_who would say of the state reached
            self._who = _WHO[st.active]

    def _legal_of(self, seat: str) -> list:
        return self.game.legal_actions()

    def _run(self, seat, action, answers) -> None:
        g = self.game
        st = g.state
        if not answers and st.snap is None:  # hot path: no answer to give, no snapshot kept
            g.apply(action)
            return
        g.answers, g.answered = answers, 0
        try:
            g.apply(action)
        finally:
            st.snap = None
            g.answers, g.answered = (), 0

    def _may_ask(self, seat, action) -> bool:
        """Setting a stun and discarding one never ask anything or fire anything; nor do
        exhausting and breaking a stun unless its rule lets its player choose a color;
        nor do passing to the next phase and ending the turn unless a card on the field
        listens to the start or the end of a turn (:meth:`Game.phases_may_ask`)."""
        asks = _ASKS[action.kind]
        if asks is _PHASES:
            return self.game.phases_may_ask()
        if asks is _SLOT:
            inst = self.game.state.players[action.player].standby[action.slot - 1]
            return bool(self.game.fx[inst.face.id].any_color)
        if asks is _BREAK:
            return self._break_may_ask()
        if asks is _PLAY:
            return self._play_may_ask(action)
        return asks

    def _play_may_ask(self, action) -> bool:
        """Can playing a card from hand (R7) meet a question?  The play of a listed action
        asks nothing of its own (it names the card a copying card copies: a card with an
        entry copy is counted as asking all the same), so only through an effect: those
        of the card played (its dimension effects and "enters" triggers, R13.1), the
        triggers of the field's top cards (R13.5 responses to the play, "enters") and the
        look-back triggers of the cards it seizes or trades away (R13.3, any depth of a
        stack).  So it can ask only while the card played has an effect, a trigger or an
        entry copy, or a card on the field (at any depth, as a copy or not) has a trigger;
        every other effect starts from one of those (in a random game of the built-in
        set about half the plays that ask nothing are not snapshotted, issue 17)."""
        own, triggered = self.game._play_facts
        return action.card in own or (bool(triggered) and self._on_field(triggered))

    def _on_field(self, ids: frozenset) -> bool:
        """Is a card whose face is one of ``ids`` on the field (at any depth of a stack,
        as a copy or not)?"""
        for stack in self.game.state.field.values():
            for inst in stack:
                if (inst.copy_of or inst.base).id in ids:  # Instance.face inline
                    return True
        return False

    #: the card ids of this game's set with a "leaves" trigger (worked out at the first
    #: break of a field card, see _break_may_ask)
    _leave_ids: Optional[frozenset] = None

    def _break_may_ask(self) -> bool:
        """Can breaking a field card (R6.2) meet a question?  The card goes to its break
        (``Game._do_break_field``: ``leave_field``, points added quietly, then the win
        check), so the only effects the step can start are ``leaves`` triggers (R13.3):
        the card's own, looking back at its face on the field, and those of the tops of
        the field after it left, which were on the field before.  So it can ask only while
        a card on the field (at any depth of a stack, as a copy or not) has a face with a
        ``leaves`` trigger: in a random game of the built-in set about 5 breaks a game are
        not snapshotted (issue 17)."""
        ids = self._leave_ids
        if ids is None:
            ids = self._leave_ids = frozenset(
                cid for cid, card in self.game.fx.items() if card.triggers.get("leaves"))
        return bool(ids) and self._on_field(ids)

    def _snapshot(self):
        g = self.game
        snap = g.state.snap = g.state.snapshot()
        return snap, len(g.log.raw)

    def _retake(self, saved):
        """The snapshot just restored, kept for the step run again after an answer: the
        restore copied it back and left it whole (GameState.restore), and the state is
        the one it saw; a generator's state it saved holds, one it did not save was not
        drawn from since."""
        self.game.state.snap = saved[0]
        return saved

    def _restore(self, saved) -> None:
        snap, mark = saved
        g = self.game
        g.state.restore(snap)
        g.state.snap = None
        g.pending.clear()
        g._responding.clear()
        g.forget_caches()
        del g.log.raw[mark:]
        private = g.private
        if private and max(private) >= mark:  # (most steps rolled back wrote none)
            g.private = {i for i in private if i < mark}

    def seat_view(self, seat: str):
        """The engine's read-only window for ``seat`` (:class:`~.view.SeatView`): what an
        in-process agent decides with; it shows what ``observation(seat)`` shows."""
        return self.game.view(seat)

    def _copy(self) -> "WGState":
        return WGState(self.game.copy())

    def _refusal(self, seat: str, action: Any) -> IllegalAction:
        """The engine's own reason when it is an action of this game (tried on the state
        and rolled back), else what an action is."""
        if not isinstance(action, Action):
            return IllegalAction(f"not an action of World Gainer: {_shown(action)}; actions are "
                                 "those legal_actions() lists, or parse_action(seat, text) "
                                 "of their text", "R5")
        g = self.game
        saved = self._snapshot()
        g.answers, g.answered = (), 0
        try:
            g.apply(action)
        except IllegalAction as err:
            return err
        except BaseException:  # the engine took it (a question, an effect): not listed though
            pass
        finally:
            g.answered = 0
            self._restore(saved)
        if action.kind == "play" and action.copy is None:
            return IllegalAction(f"`{action}` does not say which card it copies; the legal "
                                 "plays name it (`copying SQUARE`)", "R13.4")
        return IllegalAction(f"`{action}` is not one of {seat}'s legal actions now", "R5")

    def _hidden(self, seat: str) -> list:
        """Groups of card uids hidden from ``seat``, each re-dealt among itself: its own
        stock (it knows what is in it, not where), and every card of the other player's
        it has not seen (hand, face-down stuns and stock alike)."""
        st = self.game.state
        groups: dict = {}
        for p, ps in st.players.items():
            for zone, cards in (("stock", ps.stock), ("hand", ps.hand), ("standby", ps.standby)):
                for inst in cards:
                    if inst is not None and _seen(st, inst, seat, zone) is None:
                        groups.setdefault((p, zone == "stock") if p == seat else p,
                                          []).append(inst.uid)
        return list(groups.values())

    def _redeal(self, seat: str, rnd: random.Random, hidden: list) -> None:
        by_uid = {inst.uid: inst for inst in self.game.state.all_instances()}
        for uids in hidden:
            cards = [by_uid[u] for u in uids]
            bases = [c.base for c in cards]
            rnd.shuffle(bases)
            for c, b in zip(cards, bases):
                c.base = b
        for ps in self.game.state.players.values():
            ps.hand_v += 1  # a hand's cards may be others now (Game._hand_index)

    def _reseed(self, rnd: random.Random) -> None:
        self.game.state.rng = random.Random(rnd.getrandbits(64))

    # ------------------------------------------------------------------ views
    def observation(self, seat: str) -> dict:
        if seat not in self.seats:
            raise ValueError(f"no seat {seat!r}; the seats are {', '.join(self.seats)}")
        g = self.game
        data = observation_data(g.state, seat)
        data["seat"] = seat
        dec = self.question.decision if self.question is not None else None
        if dec is None:
            data["decision"] = None
        elif dec.seat == seat or not dec.private:
            data["decision"] = dec.to_dict()
        else:
            data["decision"] = {"seat": dec.seat, "kind": dec.kind}
        private = g.private
        log = []
        for i, (turn, p, kind, text) in enumerate(g.log.entries):
            if i in private and p != seat:
                text = _REDACTED.get(kind, "does something hidden")
            log.append({"turn": turn, "seat": p, "kind": kind, "text": text})
        data["log"] = log
        data["stopped"] = self.stopped
        return data

    def to_dict(self) -> dict:
        st = self.game.state
        data = board_data(st)
        data["seats"] = list(self.seats)
        data["seed"] = st.seed
        data["rng"] = fingerprint(st.rng)
        q = self.question
        data["decision"] = q.decision.to_dict() if q is not None else None
        data["pending"] = None if q is None else {"action": str(q.action), "answers": list(q.answers)}
        data["stopped"] = self.stopped
        return data

    @property
    def log(self) -> list:
        return [{"turn": t, "seat": p, "kind": k, "text": x} for t, p, k, x in self.game.log.entries]

    def log_of(self, kinds) -> list:
        """The events of those kinds, building only their texts (the others' stay unbuilt)."""
        return [{"turn": t, "seat": p, "kind": k, "text": x}
                for t, p, k, x in self.game.log.of_kinds(kinds)]

    # ------------------------------------------------------------------ results
    def winners(self) -> tuple:
        w = self.game.state.winner
        return () if w is None else (w,)

    def win_reason(self) -> str:
        st = self.game.state
        if st.win_reason:
            return st.win_reason
        return RUNAWAY_RULE if self.stopped is not None else ""

    # ------------------------------------------------------------------ actions as text
    def parse_action(self, seat: str, text: str):
        """The action whose ``str()`` is ``text``: ``A play XX-001 C2``, ``A play XX-013
        C2 copying B1``, ``A exhaust slot 2``, ``A break_field C1``, ``A set_stun XX-004``,
        ``A next``, ``A end_turn``, ``A answer yes``.  IllegalAction says what is wrong."""
        words = str(text).split()
        form = ("`SEAT KIND ...`, e.g. `A play XX-001 C2`, `A exhaust slot 2`, "
                "`A answer yes`")
        if len(words) < 2:
            raise IllegalAction(f"cannot read `{text}` as an action: write {form}", "R5")
        who, kind, rest = words[0], words[1], words[2:]
        if who != seat:
            raise IllegalAction(f"`{text}` is an action of {who}, not of {seat}", "R5")
        if kind == "answer":
            if not rest:
                raise IllegalAction(f"`{text}`: answer what? (`{seat} answer OPTION`)", "R13.6")
            return Answer(seat, " ".join(rest))
        if kind not in ACTION_KINDS:
            raise IllegalAction(f"`{text}`: unknown action `{kind}`; actions are "
                                + ", ".join(ACTION_KINDS + ("answer",)), "R5")
        try:
            return _parse_rest(seat, kind, rest)
        except (ValueError, IndexError):
            raise IllegalAction(f"cannot read `{text}` as {kind}: {_FORMS[kind]}", "R5") from None


_FORMS = {
    "set_stun": "`SEAT set_stun CARD`", "play": "`SEAT play CARD SQUARE [copying SQUARE]`",
    "discard_stun": "`SEAT discard_stun slot N`", "exhaust": "`SEAT exhaust slot N`",
    "break_stun": "`SEAT break_stun slot N`", "break_field": "`SEAT break_field SQUARE`",
    "activate": "`SEAT activate SQUARE`", "next": "`SEAT next`", "end_turn": "`SEAT end_turn`",
}


def _parse_rest(seat: str, kind: str, rest: list) -> Action:
    if kind in ("next", "end_turn"):
        if rest:
            raise ValueError
        return Action(kind, seat)
    if kind in _SLOT_KINDS:
        if len(rest) != 2 or rest[0] != "slot" or not rest[1].isdigit() or len(rest[1]) > 3:
            raise ValueError
        return Action(kind, seat, slot=int(rest[1]))
    if kind in _SQUARE_KINDS:
        if len(rest) != 1 or rest[0] not in SQUARES:
            raise ValueError
        return Action(kind, seat, square=rest[0])
    if kind == "set_stun":
        if len(rest) != 1:
            raise ValueError
        return Action(kind, seat, card=rest[0])
    # play CARD SQUARE [copying SQUARE]
    if len(rest) == 2 and rest[1] in SQUARES:
        return Action(kind, seat, card=rest[0], square=rest[1])
    if len(rest) == 4 and rest[1] in SQUARES and rest[2] == "copying" and rest[3] in SQUARES:
        return Action(kind, seat, card=rest[0], square=rest[1], copy=rest[3])
    raise ValueError


def _shown(action: Any) -> str:
    text = repr(action)
    return text if len(text) <= 80 else text[:77] + "..."


GAME = WorldGainer()


def _frame_problem(spec) -> Optional[str]:
    """What of a game file's frame this engine cannot play (None: it can play it all).
    The engine's tables (R8-R11), payment (R6) and phases are written for World Gainer's
    seats, zones, colors, marks and phases; a variant file may change the cards, not
    these."""
    zones = {z.name: z for z in spec.zones}
    color, mark = spec.stat("color"), spec.stat("mark")
    wanted = [
        (tuple(spec.seat_names[:2]) == PLAYERS and tuple(spec.seat_range) == (2, 2),
         f"seats 2 named {', '.join(PLAYERS)}"),
        (set(zones) == {"stock", "hand", "standby", "break", "field"},
         "the zones stock, hand, standby, break and field"),
        ("standby" not in zones or zones["standby"].slots == STANDBY_SLOTS,
         f"a standby of `slots {STANDBY_SLOTS}`"),
        ("field" not in zones or (zones["field"].grid == (3, 3) and zones["field"].stacks),
         "a field of `grid 3 by 3 stacks`"),
        (color is not None and tuple(color.values) == POINT_COLORS,
         f"`stat color {', '.join(POINT_COLORS)}`, in that order"),
        (mark is not None and tuple(mark.values) == ("rock", "paper", "scissors", "all"),
         "`stat mark rock, paper, scissors, all` (the beats of R2.3)"),
        (tuple(spec.turn_phases) == PHASES, f"`phases {', '.join(PHASES)}`"),
        (spec.limit("set_stun") is not None and spec.limit("set_stun").count == 1
         and {lim.name for lim in spec.limits} == {"set_stun"},
         "`limit set_stun 1 per turn` and no other limit"),
        (spec.card_set is not None, 'its cards (`cards "wg01"`)'),
        (spec.pool("points") is not None and spec.pool("points").per_seat
         and spec.pool("points").emptied and spec.pool("points").words == POINT_COLORS
         and len(spec.pools) == 1,
         f"`pool points per seat of {', '.join(POINT_COLORS)} emptied at end of turn` "
         "(R6.1, R5.5) and no other pool"),
    ]
    for ok, what in wanted:
        if not ok:
            return f"the World Gainer engine plays {what}; this file does not say so"
    return None


@rule_function("engine")
def game_from_spec(spec, effects: dict) -> WorldGainer:
    """The World Gainer game of its game file (``played by``): ValueError, reported at
    ``played by``, when the file's frame is not one this engine plays."""
    problem = _frame_problem(spec)
    if problem is not None:
        raise ValueError(problem)
    if effects:
        raise ValueError("World Gainer's effects are written on its cards, in the card "
                         "language; the game file declares none")
    return WorldGainer(spec)
