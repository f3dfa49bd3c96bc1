"""Stepping a game from outside: the engine-api ``State`` over a game's own engine.

A game's engine is written the natural way: an action runs to its end, and a question in
the middle of it (a "may", a target, an order of triggers) is asked on the spot.  In the
process, a bot answers at once (the fast path).  From outside (engine-api.md, search,
learning libraries) nobody is there to answer, so :class:`Stepper` turns the question
into data:

- the engine raises :class:`~wgdsl.kernel.decision.Suspend` at a question it has no answer
  for; the stepper keeps the :class:`~wgdsl.kernel.decision.Decision` (its seat is the
  one current, its options are :class:`~wgdsl.kernel.decision.Answer` actions), the step
  it stopped (a seat's action, or a simultaneous window's commits), the answers given so
  far, and a snapshot of the state before the step;
- an answer restores the snapshot and runs the step again with one answer more.  The
  engine is deterministic (engine-api.md invariant 4), so the run retraces the same
  steps, log included, up to the next question or the end;
- ``clone()`` and ``resample()`` at a question copy the state before the step and retrace
  it on the copy; between steps they copy the state as it is;
- a **simultaneous window** (several seats act "at once"): every seat in
  ``current_seats()`` commits its action, kept here and shown to nobody else; when the
  last has committed the game resolves them all together, in its own fixed order.

A game subclasses :class:`Stepper` and gives the hooks (``_acting``, ``_legal_of``,
``_run``, ``_may_ask``, ``_snapshot``, ``_restore``, ``_retake``, ``_copy``, ``_refusal``,
``_redeal``...);
everything engine-api.md names about seats, questions, windows, refusals and copies is
here, once for every game.

A **step** is handed to the hooks as two values, ``(seat, action)``: one seat's action, or
(``seat`` None) a simultaneous window's commits as ``action``, a dict ``{seat: action}``.
No object is built per action: the public loop applies one action per call, and the
common case (one acting seat, no question pending, a step the game says asks nothing)
runs straight from :meth:`Stepper.apply` to the game's ``_run`` (issue 17).
"""

from __future__ import annotations

import random
from typing import Any, Optional

from .api import returns_for
from .decision import Answer, Suspend
from .errors import IllegalAction, RunawayEffects


class Listed(list):
    """Legal actions whose ``in`` (the Stepper's test of an action applied) looks for the
    very object first: a bot hands back one of the listed actions, so for a game whose
    actions compare with a Python-level ``__eq__`` (attrs classes) the test calls none,
    where a plain list's calls one per action listed before it.  Then equality, as a
    list's ``in``: an equal action made again from its text is taken too.  (A game of
    tuples keeps plain lists: their comparison is C, and this loop would cost more.)"""

    __slots__ = ()

    def __contains__(self, action: Any) -> bool:
        for a in self:
            if a is action:
                return True
        return list.__contains__(self, action)


def step_text(seat: Optional[str], action: Any) -> str:
    """A step's text: the action's, or a window's commits' (``seat`` None), in order."""
    if seat is None:
        return "; ".join(str(a) for a in action.values())
    return str(action)


#: the answers of a step that has none yet (the hot path's: no list made an action)
_NO_ANSWERS: tuple = ()


class Question:
    """A decision waiting for its answer, and what resumes the step it stopped: ``seat``'s
    ``action`` (``seat`` None: a window's commits ``{seat: action}``) with ``answers``."""

    __slots__ = ("seat", "action", "answers", "decision", "snap")

    def __init__(self, seat: Optional[str], action: Any, answers: list, decision, snap):
        self.seat, self.action, self.answers = seat, action, answers
        self.decision, self.snap = decision, snap


class Stepper:
    """The engine-api State of one game in progress (see the module docstring)."""

    seats: tuple = ()
    #: the rule a seat that acts out of turn breaks, and the one a window's commit breaks
    turn_rule = ""
    window_rule = ""
    #: the rule cited when the game stopped because its effects never ended
    runaway_rule = ""
    #: a window of several seats where each takes its own actions one at a time, applied at
    #: once to its own part of the state and hidden from the others by the game's
    #: observation, until the seat commits (It's a Wonderful World, IAW R7.2); otherwise a
    #: window takes one hidden action per seat and resolves them together
    private_windows = False
    #: can a step of this game meet a question (raise Suspend)?  A game whose questions
    #: are its own data (its steps never ask) says False: :meth:`apply` then never asks
    #: :meth:`_may_ask` (a call an action fewer) and no step is snapshotted; a step that
    #: asks all the same is a loud RuntimeError, as with ``_may_ask`` False (issue 17)
    steps_ask = True

    def __init__(self):
        self.question: Optional[Question] = None
        self.commits: dict = {}  # a simultaneous window's commits so far (hidden)
        self.stopped: Optional[str] = None  # why the game stopped without its rules' end
        self._legal: dict = {}  # seat -> legal actions of the current state (a cache)
        # (current seats, acting seats) of the current state, or None: computed when asked,
        # forgotten whenever the state moves (the loop of a bot asks it several times)
        self._who: Optional[tuple] = None

    # ------------------------------------------------------------------ hooks
    def _acting(self) -> tuple:  # pragma: no cover - every game gives these
        """Between steps: the seats that act now (several: a simultaneous window)."""
        raise NotImplementedError

    def _legal_of(self, seat: str) -> list:  # pragma: no cover
        """Between steps: ``seat``'s legal actions (it is one of :meth:`_acting`)."""
        raise NotImplementedError

    def _run(self, seat: Optional[str], action: Any, answers: list) -> None:  # pragma: no cover
        """Run the step ``(seat, action)`` (``seat`` None: ``action`` is a window's commits,
        ``{seat: action}``) to its end with ``answers`` to its questions, in order; raise
        Suspend at a question past them.  ``answers`` is a sequence to read, not to keep
        changing (an empty tuple when there are none yet)."""
        raise NotImplementedError

    def _snapshot(self) -> Any:  # pragma: no cover
        raise NotImplementedError

    def _restore(self, snap: Any) -> None:  # pragma: no cover
        raise NotImplementedError

    def _retake(self, snap: Any) -> Any:
        """A snapshot of the state as it is right after :meth:`_restore` of ``snap`` (an
        answer runs its step again from there).  The default takes a new one; a game whose
        restore leaves ``snap`` whole may give it back (World Gainer: one snapshot a
        question fewer)."""
        return self._snapshot()

    def _copy(self) -> "Stepper":  # pragma: no cover
        """An independent copy between steps (no question, no commits)."""
        raise NotImplementedError

    def _over(self) -> bool:  # pragma: no cover
        """Has the game ended by its own rules?"""
        raise NotImplementedError

    def _may_ask(self, seat: Optional[str], action: Any) -> bool:
        """Can running the step ``(seat, action)`` (as :meth:`_run` takes it) meet a
        question?  When a game knows it cannot, the snapshot before it is not taken (the
        default: it can)."""
        return True

    def _refusal(self, seat: str, action: Any) -> IllegalAction:
        """Why ``action`` of a current ``seat`` is not legal now (it is not listed)."""
        return IllegalAction(f"`{action}` is not one of {seat}'s legal actions now", self.turn_rule)

    def _stray_answer(self, seat: str, action: Answer) -> IllegalAction:
        """Why an ``Answer`` a current ``seat`` gave, not listed, is refused.  The kernel
        knows only the questions it keeps (none is pending here); a game that keeps its
        questions as its own data says which it asks instead (GETGEM: its ``_refusal``)."""
        return IllegalAction(f"there is no question to answer now; {seat} acts with one "
                             "of legal_actions()", self.turn_rule)

    def _redeal(self, seat: str, rnd: random.Random, hidden: Any) -> None:  # pragma: no cover
        """Re-deal among themselves, with ``rnd``, the cards :meth:`_hidden` found hidden
        from ``seat`` (on a copy)."""
        raise NotImplementedError

    def _hidden(self, seat: str) -> Any:  # pragma: no cover
        """What is hidden from ``seat`` now (given to :meth:`_redeal` on a copy)."""
        raise NotImplementedError

    def winners(self) -> tuple:  # pragma: no cover
        raise NotImplementedError

    # ------------------------------------------------------------------ who acts
    # The loop of a learner or a sweep asks is_terminal, current_seats, legal_actions and
    # then applies, once per action: the first of them works out (current seats, acting
    # seats, terminal) once, and the others read it (hot path: a call or two each).
    def is_terminal(self) -> bool:
        who = self._who
        if who is None:
            who = self._who = self._find_who()
        return who[2]

    def current_seats(self) -> tuple:
        who = self._who
        if who is None:
            who = self._who = self._find_who()
        return who[0]

    def _find_who(self) -> tuple:
        """(current seats, acting seats, terminal) of the state as it is now."""
        q = self.question
        if q is not None:
            return (q.decision.seat,), (), self.stopped is not None or self._over()
        if self.stopped is not None or self._over():
            return (), (), True
        acting = self._acting()
        if len(acting) > 1 and self.commits:  # (a private window never holds commits)
            return tuple(s for s in acting if s not in self.commits), acting, False
        return acting, acting, False

    def legal_actions(self, seat: str) -> list:
        # hot path: the list kept for this state (kept only for a current seat between
        # steps, forgotten with _who whenever the state moves), handed out as a copy
        legal = self._legal.get(seat)
        if legal is not None:
            return legal[:]
        who = self._who
        if who is None:
            who = self._who = self._find_who()
        if seat not in who[0]:
            return []
        if self.question is not None:
            return [Answer(seat, o) for o in self.question.decision.options]
        legal = self._legal[seat] = self._legal_of(seat)
        return legal[:]

    # ------------------------------------------------------------------ acting
    def apply(self, seat: str, action: Any) -> None:
        """Take ``action`` for ``seat``, or raise IllegalAction and change nothing."""
        q = self.question
        if q is not None:
            self._answer(q, seat, action)
            return
        who = self._who
        if who is None:
            who = self._who = self._find_who()
        current, acting, over = who
        if seat not in current:
            raise self._out_of_turn(seat, acting, over)
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = self._legal_of(seat)
        try:
            listed = action in legal
        except Exception:  # an unhashable or incomparable thing is no action
            listed = False
        if not listed:
            if isinstance(action, Answer):
                raise self._stray_answer(seat, action)
            raise self._refusal(seat, action)
        if len(acting) > 1 and not self.private_windows:  # keep it until all have acted
            self._commit(seat, action, acting)
            return
        # the common case, inline (hot path: one call per action, no snapshot): a step the
        # game says asks nothing runs straight to its end or to a stop
        if self.steps_ask and self._may_ask(seat, action):
            self._resume(seat, action, [], self._snapshot())  # (_step would ask _may_ask again)
            return
        self._legal = {}
        self._who = None
        try:
            self._run(seat, action, _NO_ANSWERS)
        except Suspend as stop:
            raise self._broken_promise(seat, action, stop) from None
        except RunawayEffects as err:
            self.stopped = err.message

    def _answer(self, q: Question, seat: str, action: Any) -> None:
        """``apply`` at a question: ``action`` must answer it (then its step resumes)."""
        dec = q.decision
        if seat != dec.seat:
            raise IllegalAction(f"{dec.seat} is choosing (\"{dec.prompt}\"); {seat} cannot "
                                "act until it has answered", dec.rule)
        if not isinstance(action, Answer) or action.seat != seat \
                or action.option not in dec.options:
            raise IllegalAction(f"{seat} must answer \"{dec.prompt}\" with one of: "
                                f"{', '.join(dec.options)} (as `{seat} answer OPTION`), "
                                f"not {_shown(action)}", dec.rule)
        self._rewind(q)
        # _step with one answer more (answers given: it always snapshots), the snapshot
        # the rewind has just put back taken again (_retake)
        self._resume(q.seat, q.action, q.answers + [action.option], self._retake(q.snap))

    def _out_of_turn(self, seat: str, acting: tuple, over: bool) -> IllegalAction:
        """Why ``seat``, not among the current seats, cannot act now."""
        if over:
            return self._game_over()
        if seat in self.commits:
            return IllegalAction(f"{seat} has already committed its action in this window",
                                 self.window_rule)
        return self._not_current(seat, acting)

    def _commit(self, seat: str, action: Any, acting: tuple) -> None:
        """A seat's commit in a simultaneous window: kept until every acting seat has
        committed, then the window's step runs."""
        self.commits[seat] = action
        self._legal.pop(seat, None)
        self._who = None
        if len(self.commits) < len(acting):
            return
        commits, self.commits = {s: self.commits[s] for s in acting}, {}
        self._step(None, commits, [])

    def _not_current(self, seat: str, acting: tuple) -> IllegalAction:
        """Why ``seat``, not among the current seats, cannot act (the game is not over)."""
        return IllegalAction(f"it is {' and '.join(acting)}'s turn, not {seat}'s", self.turn_rule)

    def _game_over(self) -> IllegalAction:
        if self.stopped is not None:
            return IllegalAction(f"the game is over: it stopped ({self.stopped})", self.runaway_rule)
        won = self.winners()
        return IllegalAction(f"the game is over: {' and '.join(won) or 'nobody'} won "
                             f"({self.win_reason()})", self.win_reason())

    def _step(self, seat: Optional[str], action: Any, answers: list) -> None:
        """Run the step ``(seat, action)``: to its end, to the next question (kept as
        data), or to a stop."""
        self._resume(seat, action, answers,
                     self._snapshot() if answers or (self.steps_ask and self._may_ask(seat, action))
                     else None)

    def _resume(self, seat: Optional[str], action: Any, answers: list, snap: Any) -> None:
        """:meth:`_step` with its snapshot taken (``snap`` None: the step cannot ask)."""
        self._legal = {}
        self._who = None
        try:
            self._run(seat, action, answers)
        except Suspend as stop:
            if snap is None:
                raise self._broken_promise(seat, action, stop) from None
            self.question = Question(seat, action, answers, stop.decision, snap)
            return
        except RunawayEffects as err:
            self.stopped = err.message
        except BaseException:
            if snap is not None:
                self._restore(snap)
            raise
        self.question = None

    def _broken_promise(self, seat: Optional[str], action: Any, stop: Suspend) -> RuntimeError:
        """A step :meth:`_may_ask` said asks nothing asked (no snapshot: it cannot resume)."""
        return RuntimeError(f"{type(self).__name__}._may_ask said {step_text(seat, action)} "
                            f"asks nothing, yet it asked: {stop.decision.prompt}")

    def _rewind(self, q: Question) -> None:
        """Back to the state before ``q``'s step (its snapshot is used up)."""
        self._restore(q.snap)
        self.question = None
        self._legal = {}
        self._who = None

    # ------------------------------------------------------------------ copies
    def _at_step_start(self, fn):
        """``fn()`` called on this state as it was before the pending step (a window's
        commits are in the step, not in the state); then the step is retraced back to its
        question."""
        q = self.question
        self._rewind(q)
        try:
            return fn()
        finally:
            self._step(q.seat, q.action, q.answers)

    def _copy_all(self) -> "Stepper":
        twin = self._copy()
        twin.stopped = self.stopped
        twin.commits = dict(self.commits)
        return twin

    def clone(self) -> "Stepper":
        q = self.question
        if q is None:
            return self._copy_all()
        twin = self._at_step_start(self._copy)
        twin.stopped = self.stopped
        twin._step(q.seat, q.action, q.answers)
        return twin

    def resample(self, seat: str, seed: int) -> "Stepper":
        """A state ``seat`` cannot tell from this one (engine-api.md): what is hidden from
        it now re-dealt (:meth:`_redeal`), the generator re-seeded (:meth:`_reseed`), and
        in an open simultaneous window the other seats' commits dropped (they were never
        shown to ``seat``; in the copy those seats are still to choose).  At a question
        the hidden cards are those hidden at the question, re-dealt in the state before
        the step, which is then retraced (a random outcome earlier in the same step is
        kept: the generator is re-seeded after the retrace)."""
        if seat not in self.seats:
            raise ValueError(f"no seat {seat!r}; the seats are {', '.join(self.seats)}")
        hidden = self._hidden(seat)
        rnd = random.Random(seed)
        q = self.question
        if q is None:
            twin = self._copy_all()
            twin.commits = {s: a for s, a in self.commits.items() if s == seat}
            twin._who = None
            twin._redeal(seat, rnd, hidden)
        else:
            twin = self._at_step_start(self._copy)
            twin.stopped = self.stopped
            twin._redeal(seat, rnd, hidden)
            twin._step(q.seat, q.action, q.answers)
        twin._reseed(rnd)
        return twin

    def _reseed(self, rnd: random.Random) -> None:  # pragma: no cover - every game gives it
        """Re-seed the game's generator from ``rnd``."""
        raise NotImplementedError

    # ------------------------------------------------------------------ results
    def win_reason(self) -> str:  # pragma: no cover - every game gives it
        raise NotImplementedError

    def returns(self) -> dict:
        return returns_for(self.seats, self.winners())

    def log_of(self, kinds) -> list:
        """The events of :attr:`log` whose ``"kind"`` is one of ``kinds`` (a set), in order:
        what a tool that reads a few kinds pays (a sweep's record: the cards played and
        drawn).  A game whose log keeps its events in another form gives a cheaper one
        (World Gainer builds only those events' texts)."""
        return [e for e in self.log if e["kind"] in kinds]


def keep_straight_path(cls: type, owner: type, bypassed: tuple, kernel_path: dict) -> None:
    """For a game's state class ``owner`` with a straight path (its own versions of the
    kernel's methods, which skip the hooks named in ``bypassed`` for the common case; issue
    17): when its subclass ``cls`` gives one of those hooks of its own (a test's spy, a
    broken variant), each method of ``kernel_path`` (name -> the function that calls the
    hooks) that ``cls`` takes from ``owner`` unchanged is put back, so that the hooks are
    called.  Called from ``owner.__init_subclass__``."""
    if any(getattr(cls, hook) is not getattr(owner, hook) for hook in bypassed):
        for name, fallback in kernel_path.items():
            if getattr(cls, name) is getattr(owner, name):
                setattr(cls, name, fallback)


def _shown(action: Any) -> str:
    text = f"`{action}`" if isinstance(action, (Answer, tuple)) else repr(action)
    return text if len(text) <= 80 else text[:77] + "..."
