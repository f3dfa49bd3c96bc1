"""One game of a described game in progress: plain data, and the kernel Stepper's hooks.

The whole state is a :class:`Table` of plain values (lists of card numbers, dicts of
ints, tuples): copying one is copying its containers, never walking objects.  A card in
play is a number, its *uid*; ``defs[uid]`` is the card of the spec it is (so resample
re-deals hidden cards by permuting ``defs`` among them).  ``known[uid]`` is a bit per seat:
the seats that know that card although its zone hides it (a card revealed, then put
into a hidden pile; a card a seat took into its own hand).

The engine between windows lives in :meth:`DescribedState._advance`: it runs the phases'
compiled steps (:mod:`.program`) until a window where some seat can choose, or until an
end rule decides.  A window of every seat is a simultaneous window of the kernel's
:class:`~wgdsl.kernel.stepper.Stepper`: each seat commits, nothing is shown until the last
has, then the choices are recorded in turn order (so the order of commits cannot matter).
"""

from __future__ import annotations

import random
from typing import Any, Optional

import attrs

from wgdsl.kernel.decision import Answer
from wgdsl.kernel.errors import IllegalAction
from wgdsl.kernel.rng import below, shuffled
from wgdsl.kernel.stepper import Stepper
from wgdsl.lang.game.spec import PLAYED



@attrs.frozen
class Choice:
    """The action of a window: ``seat`` chooses ``option`` (a sign, a card id, or ``top``
    for the top card of a pile).  ``str()`` is ``"A choose rock"``."""

    seat: str
    option: str

    @property
    def kind(self) -> str:
        return "choose"

    def __str__(self) -> str:
        return f"{self.seat} choose {self.option}"

    def to_dict(self) -> dict:
        return {"kind": "choose", "seat": self.seat, "option": self.option}


class Table:
    """The state of one game, as plain data (see the module docstring)."""

    __slots__ = ("round", "phase", "active", "zones", "defs", "known", "counters",
                 "choices", "winners", "rng", "result", "log")

    def copy(self) -> "Table":
        t = Table.__new__(Table)
        t.round, t.phase, t.active = self.round, self.phase, self.active
        t.zones = {k: list(v) for k, v in self.zones.items()}
        t.defs = list(self.defs)
        t.known = list(self.known)
        t.counters = {c: dict(v) for c, v in self.counters.items()}
        t.choices = dict(self.choices)  # seat -> (value, revealed): tuples, shared safely
        t.winners, t.rng, t.result = self.winners, self.rng, self.result
        t.log = list(self.log)  # entries are tuples
        return t




class DescribedState(Stepper):
    """One game of a :class:`~wgdsl.games.described.game.DescribedGame` through the
    engine-api (engine-api.md): the kernel Stepper's hooks over a :class:`Table`."""

    def __init__(self, game, seats: tuple, options: dict, table: Table):
        super().__init__()
        self.game = game
        self.spec = game.spec
        self.program = game.program
        self.seats = seats
        self.options = options
        self.t = table
        self.bit = {s: 1 << i for i, s in enumerate(seats)}
        self.everyone = (1 << len(seats)) - 1

    # ------------------------------------------------------------------ rules cited
    @property
    def turn_rule(self) -> str:
        """A refusal of an action that is not its seat's now cites the open window."""
        t = self.t
        if t.result is not None:
            return t.result[1]
        window = self.spec.phases[t.phase].window
        return window.rule if window is not None else self.spec.seats_rule

    window_rule = turn_rule
    steps_ask = False  # a described game asks nothing inside a step: every choice is a window

    # ------------------------------------------------------------------ helpers for steps
    def order(self) -> tuple:
        """The seats in turn order, from the active seat."""
        a = self.t.active
        return self.seats[a:] + self.seats[:a]

    @property
    def active_seat(self) -> str:
        return self.seats[self.t.active]

    def sole_winner(self) -> Optional[str]:
        w = self.t.winners
        return w[0] if w is not None and len(w) == 1 else None

    def card(self, uid: int):
        return self.spec.cards[self.t.defs[uid]]

    def below(self, n: int) -> int:
        """A number in 0..n-1 from the game's generator (no bias: rejection)."""
        self.t.rng, k = below(self.t.rng, n)
        return k

    def shuffle(self, cards: list) -> None:
        self.t.rng = shuffled(self.t.rng, cards)

    def put(self, uid: int, key: tuple, end: Optional[str] = None) -> None:
        """Card ``uid`` into zone ``key`` (on top, or at the ``bottom``); who sees it there
        knows it from now on."""
        cards = self.t.zones[key]
        if end == "bottom":
            cards.insert(0, uid)
        else:
            cards.append(uid)
        vis = self.program.visibility[key[0]]
        if vis == "public":
            self.t.known[uid] = self.everyone
        elif vis == "owner":
            self.t.known[uid] |= self.bit[key[1]]

    def room(self, key: tuple) -> int:
        """How many more cards zone ``key`` takes: its free places (a zone with ``slots``
        or a ``grid`` of single cards), or as many as there are cards."""
        cap = self.program.capacity[key[0]]
        return len(self.t.defs) if cap is None else max(0, cap - len(self.t.zones[key]))

    def note(self, seat: str, kind: str, text: str, private_to: Optional[str] = None,
             public_text: Optional[str] = None) -> None:
        """A log entry; with ``private_to``, the other seats read ``public_text`` instead."""
        self.t.log.append((self.t.round, seat, kind, text, private_to, public_text))

    def zone_name(self, key: tuple) -> str:
        return key[0] if key[1] is None else f"{key[1]}'s {key[0]}"

    # ------------------------------------------------------------------ the engine
    def _advance(self) -> None:
        """Run the game on from the start of the current phase to the next window where a
        seat can choose, or to its end."""
        t, phases = self.t, self.spec.phases
        while t.result is None:
            window = phases[t.phase].window
            if window is not None:
                if self._eligible(window):
                    return
                self.note("", "skip", f"nobody can choose in phase {phases[t.phase].name}")
            self._finish_phase()

    def _finish_phase(self) -> None:
        """The current phase's steps after its window, its end checks, and the next phase
        (at the last, the round's end checks and the next round)."""
        t, program = self.t, self.program
        for run in program.phases[t.phase]:
            run(self)
        if self._check_ends(program.phase_ends):
            return
        if t.phase + 1 < len(self.spec.phases):
            t.phase += 1
        elif not self._check_ends(program.round_ends):
            self._start_round(t.round + 1)

    def _start_round(self, number: int) -> None:
        t = self.t
        t.round, t.phase = number, 0
        if number > 1:
            t.active = (t.active + 1) % len(self.seats)
        t.choices, t.winners = {}, None
        self.note("", "round", f"round {number}: {self.active_seat} is the active seat")

    def _check_ends(self, ends) -> bool:
        for rule, check in ends:
            decided = check(self)
            if decided is not None:
                self.t.result = (tuple(decided), rule.rule, rule.text)
                won = " and ".join(decided) or "nobody"
                self.note("", "end", f"{won} win{'s' if len(decided) == 1 else ''}: "
                                     f"{rule.text} ({rule.rule})")
                return True
        return False

    def _eligible(self, window) -> tuple:
        if window.what == "sign":
            return self.order() if window.every else (self.active_seat,)
        zones = self.t.zones
        zone = window.zone
        if window.every:
            return tuple(s for s in self.order() if zones[(zone, s)])
        key = (zone, self.active_seat) if self.program.per_seat[zone] else (zone, None)
        return (self.active_seat,) if zones[key] else ()

    def _options(self, seat: str) -> list[str]:
        window = self.spec.phases[self.t.phase].window
        if window.what == "sign":
            return list(self.spec.signs)
        if window.what == "top":
            return ["top"]
        key = (window.zone, seat if self.program.per_seat[window.zone] else None)
        ids = [self.spec.cards[self.t.defs[u]].id for u in reversed(self.t.zones[key])]
        return list(dict.fromkeys(ids))  # each card id once, from the top

    def _choose(self, seat: str, option: str) -> None:
        t = self.t
        window = self.spec.phases[t.phase].window
        if window.what == "sign":
            t.choices[seat] = (option, False)
            self.note(seat, "choose", f"{seat} chooses {option}", seat, f"{seat} chooses a sign")
            return
        key = (window.zone, seat if self.program.per_seat[window.zone] else None)
        cards = t.zones[key]
        if window.what == "top":
            uid = cards.pop()
        else:
            at = next(i for i in range(len(cards) - 1, -1, -1) if self.card(cards[i]).id == option)
            uid = cards.pop(at)
        self.put(uid, (PLAYED, seat))
        t.choices[seat] = (uid, False)
        card = self.card(uid)
        where = f"the top card of {window.zone}" if window.what == "top" else "a card"
        self.note(seat, "choose", f"{seat} chooses {where}: {card.id} \"{card.name}\"", seat,
                  f"{seat} chooses {where}")

    # ------------------------------------------------------------------ the Stepper's hooks
    def _over(self) -> bool:
        return self.t.result is not None

    def _acting(self) -> tuple:
        if self.t.result is not None:
            return ()
        return self._eligible(self.spec.phases[self.t.phase].window)

    def _legal_of(self, seat: str) -> list:
        return [Choice(seat, o) for o in self._options(seat)]

    def _may_ask(self, seat, action) -> bool:
        return False  # (steps_ask says so for every step: the Stepper does not ask)

    def _run(self, seat, action, answers: list) -> None:
        commits = action if seat is None else {seat: action}  # seat None: a window's commits
        for seat in self.order():  # turn order, whatever the order of the commits
            if seat in commits:
                self._choose(seat, commits[seat].option)
        self._finish_phase()
        self._advance()

    def _snapshot(self) -> Table:
        return self.t.copy()

    def _restore(self, snap: Table) -> None:
        self.t = snap

    def _copy(self) -> "DescribedState":
        return DescribedState(self.game, self.seats, self.options, self.t.copy())

    def _refusal(self, seat: str, action: Any) -> IllegalAction:
        rule = self.turn_rule
        if not isinstance(action, Choice):
            return IllegalAction(f"not an action of {self.spec.name}: {_shown(action)}; actions "
                                 "are those legal_actions() lists, or parse_action(seat, text) "
                                 "of their text", rule)
        options = self._options(seat)
        return IllegalAction(f"{seat} cannot choose `{action.option}` now; "
                             f"the choices are {', '.join(options)}", rule)

    def _hidden(self, seat: str) -> tuple:
        """The cards ``seat`` cannot see now (by uid: found again in a copy), and the
        seats whose choice of a sign it has not been shown."""
        t, bit = self.t, self.bit[seat]
        cards = []
        for key, uids in t.zones.items():
            vis = self.program.visibility[key[0]]
            if vis == "public" or (vis == "owner" and key[1] == seat):
                continue
            cards.extend(u for u in uids if not t.known[u] & bit)
        signs = [s for s, (value, shown) in t.choices.items()
                 if s != seat and not shown and isinstance(value, str)]
        return cards, signs

    def _redeal(self, seat: str, rnd: random.Random, hidden: tuple) -> None:
        cards, signs = hidden
        defs = [self.t.defs[u] for u in cards]
        rnd.shuffle(defs)
        for u, d in zip(cards, defs):
            self.t.defs[u] = d
        for s in signs:
            self.t.choices[s] = (rnd.choice(self.spec.signs), False)

    def _reseed(self, rnd: random.Random) -> None:
        self.t.rng = rnd.getrandbits(64)

    # ------------------------------------------------------------------ views
    def _zones_seen(self, seat: Optional[str]) -> tuple[dict, dict]:
        """(zones, played) as card ids, None where ``seat`` cannot see (``seat`` None: all)."""
        t, spec = self.t, self.spec
        bit = self.bit.get(seat, 0) if seat is not None else None

        def shown(key, uids):
            vis = self.program.visibility[key[0]]
            open_ = seat is None or vis == "public" or (vis == "owner" and key[1] == seat)
            return [spec.cards[t.defs[u]].id if open_ or t.known[u] & bit else None for u in uids]

        zones: dict = {}
        for z in spec.zones:
            if z.per_seat:
                zones[z.name] = {s: shown((z.name, s), t.zones[(z.name, s)]) for s in self.seats}
            else:
                zones[z.name] = shown((z.name, None), t.zones[(z.name, None)])
        played = {s: shown((PLAYED, s), t.zones[(PLAYED, s)]) for s in self.seats}
        return zones, played

    def _choices_seen(self, seat: Optional[str]) -> dict:
        out = {}
        for s, (value, revealed) in self.t.choices.items():
            if seat is None or revealed or s == seat:
                out[s] = value if isinstance(value, str) else self.card(value).id
            else:
                out[s] = "?"
        return out

    def _common(self) -> dict:
        t = self.t
        result = t.result
        return {
            "game": self.spec.id, "seats": list(self.seats), "options": dict(self.options),
            "round": t.round, "phase": self.spec.phases[t.phase].name,
            "active": self.active_seat,
            "counters": {c: dict(v) for c, v in t.counters.items()},
            "winners": list(t.winners) if t.winners is not None else None,
            "result": None if result is None else
            {"winners": list(result[0]), "rule": result[1], "text": result[2]},
        }

    def observation(self, seat: str) -> dict:
        if seat not in self.seats:
            raise ValueError(f"no seat {seat!r}; the seats are {', '.join(self.seats)}")
        data = self._common()
        data["seat"] = seat
        data["zones"], data["played"] = self._zones_seen(seat)
        data["choices"] = self._choices_seen(seat)
        data["committed"] = str(self.commits[seat]) if seat in self.commits else None
        data["decision"] = None
        data["log"] = [{"turn": turn, "seat": s, "kind": kind,
                        "text": text if private_to is None or private_to == seat else public}
                       for turn, s, kind, text, private_to, public in self.t.log]
        return data

    def to_dict(self) -> dict:
        t = self.t
        data = self._common()
        data["zones"], data["played"] = self._zones_seen(None)
        data["choices"] = self._choices_seen(None)
        data["revealed"] = [s for s, (_, shown) in t.choices.items() if shown]
        data["commits"] = {s: str(a) for s, a in self.commits.items()}
        data["known"] = self._known()
        data["rng"] = t.rng
        data["decision"] = None
        data["stopped"] = self.stopped
        return data

    def _known(self) -> list:
        """``[zone, seat or None, position, [seats]]`` for every card known to some seat
        in a place that does not show it to them."""
        t, out = self.t, []
        for (zone, owner), uids in t.zones.items():
            vis = self.program.visibility[zone]
            if vis == "public":
                continue
            for i, u in enumerate(uids):
                knows = [s for s in self.seats if t.known[u] & self.bit[s]
                         and not (vis == "owner" and s == owner)]
                if knows:
                    out.append([zone, owner, i, knows])
        return out

    @property
    def log(self) -> list:
        return [{"turn": turn, "seat": s, "kind": kind, "text": text}
                for turn, s, kind, text, _, _ in self.t.log]

    def log_of(self, kinds) -> list:
        return [{"turn": turn, "seat": s, "kind": kind, "text": text}
                for turn, s, kind, text, _, _ in self.t.log if kind in kinds]

    # ------------------------------------------------------------------ results
    def winners(self) -> tuple:
        return self.t.result[0] if self.t.result is not None else ()

    def win_reason(self) -> str:
        return self.t.result[1] if self.t.result is not None else ""

    # ------------------------------------------------------------------ actions as text
    def parse_action(self, seat: str, text: str):
        """The action whose ``str()`` is ``text``: ``A choose rock``, ``A choose R-07``,
        ``A choose top`` (or ``A answer OPTION``).  IllegalAction says what is wrong."""
        words = str(text).split()
        rule = self.turn_rule
        if len(words) != 3 or words[1] not in ("choose", "answer"):
            raise IllegalAction(f"cannot read `{text}` as an action: write `{seat} choose OPTION` "
                                "(a sign, a card id, or `top`)", rule)
        if words[0] != seat:
            raise IllegalAction(f"`{text}` is an action of {words[0]}, not of {seat}", rule)
        if words[1] == "answer":
            return Answer(seat, words[2])
        return Choice(seat, words[2])


def _shown(action: Any) -> str:
    text = repr(action)
    return text if len(text) <= 80 else text[:77] + "..."
