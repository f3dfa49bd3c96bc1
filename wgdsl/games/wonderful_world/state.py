"""One game of It's a Wonderful World in progress: plain data, the rounds, the windows.

There are no turns (IAW R1.3): every decision is taken in a **window** where every seat
acts at once (R7).  A draft window takes one `pick` per seat; planning and each production
step's placement take any number of private actions per seat, each applied at once to the
seat's own part of the state, then `done` (R7.2) — the kernel's private windows
(``Stepper.private_windows``).  Until a window closes the other seats see a seat as it was
when the window opened (R7.5, R21.5) and its log entries wait (R7.4).  A seat with exactly
one legal action is played by the engine (R7.6), so it is never current.

A seat's legal actions are worked out once per decision point (:meth:`WWState._options`):
R7.6's check and ``legal_actions`` share the list, which is forgotten when the seat acts or
a window opens or closes (each seat acts on its own part of the state only).

Each seat's part of the state is a :class:`Seat` of plain values; a copy copies them.  A
window does not copy every seat when it opens: a seat is copied before its first change in
the window (copy on write, ``Data.opened``), and one whose only action is its commit (a
pick, a done) is not copied at all: the commit is taken back on demand (:meth:`WWState._opened`).
Rule numbers are wonderful-world.md's, cited "IAW R10.2" outside this game's files.
"""

from __future__ import annotations

import random
from collections import Counter
from operator import attrgetter, itemgetter
from typing import Any, Optional

import attrs

from wgdsl.kernel.errors import IllegalAction
from wgdsl.kernel.multiset import common, minus
from wgdsl.kernel.rng import MASK
from wgdsl.kernel.stepper import Listed, Stepper

from . import rules
from .cards import RESOURCES, CardTable

ROUNDS = 4  # R6.1
PICKS = 7  # R8.5
SPACES = RESOURCES + ("KRY",)  # what krystallium may fill (R10.2)
_KRY_FILLS = frozenset(SPACES)


@attrs.frozen(cache_hash=True)
class Act:
    """An action (R22.4): ``str()`` is its text form.  Equal when kind and args are; the
    engine hands out one shared Act per action (:data:`ACTS`), its text made with it."""

    kind: str
    args: tuple = ()
    text: str = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "text", " ".join((self.kind,) + self.args))

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text}


class _Acts(dict):
    """args -> the one Act of a kind with those args, made the first time it is asked."""

    __slots__ = ("kind",)

    def __init__(self, kind: str):
        super().__init__()
        self.kind = kind

    def __missing__(self, args: tuple) -> Act:
        a = self[args] = Act(self.kind, args)
        return a


#: kind -> its shared Acts: the legal actions are these objects, listed without building
#: an Act or a text, and parse_action gives them back for the texts they print
ACTS = {kind: _Acts(kind) for kind in (
    "pick", "keep", "swap", "construct", "recycle", "place", "place_krystallium",
    "place_character", "discard_construction", "science_bonus", "done")}
_TEXT = attrgetter("text")  # the order of the legal actions (engine-api.md: by text)


class DeckExhausted(Exception):
    """A deal or a pile the deck cannot give (R5.7, R20.1): a board written by hand (a
    ruling case) may need more cards than it has; a game set up by new_state never does."""


class Seat:
    """One player's part of the state (R1.4)."""

    __slots__ = ("empire", "hand", "draft", "pick", "building", "cubes", "kry", "fin", "gen",
                 "built", "unplaced", "science", "committed", "pending_log", "discarded",
                 "seen", "look", "piles_taken", "swap_over", "pick_at",
                 "pairs", "yields")

    def copy(self) -> "Seat":
        s = Seat.__new__(Seat)
        s.empire, s.hand, s.draft, s.pick = self.empire, list(self.hand), list(self.draft), self.pick
        s.building = [(i, list(f)) for i, f in self.building]
        s.cubes, s.kry, s.fin, s.gen = self.cubes, self.kry, self.fin, self.gen
        s.built = list(self.built)
        s.unplaced, s.science, s.committed = self.unplaced, self.science, self.committed
        s.pending_log = list(self.pending_log)
        s.discarded = list(self.discarded)
        s.seen = list(self.seen)
        s.look, s.piles_taken, s.swap_over = list(self.look), self.piles_taken, self.swap_over
        s.pick_at, s.pairs = self.pick_at, self.pairs  # (pairs: never changed, replaced)
        s.yields = self.yields  # (likewise)
        return s

    @staticmethod
    def new(empire: str) -> "Seat":
        s = Seat.__new__(Seat)
        s.empire, s.hand, s.draft, s.pick, s.building = empire, [], [], None, []
        s.cubes = s.kry = s.fin = s.gen = s.unplaced = 0
        s.science, s.committed = False, False
        s.built, s.pending_log, s.discarded, s.seen = [], [], [], []
        s.look, s.piles_taken, s.swap_over = [], 0, False
        s.pick_at = 0  # where the pick was in the hand (a pick taken back puts it there)
        # (reference, empty spaces) of each card under construction, or None: worked out
        # when the legal actions are listed, forgotten when the construction area changes
        s.pairs = None
        # (count of constructed cards, rules.productions of them), or None: the production
        # of each resource, worked out at a step and kept while no card is completed
        s.yields = None
        return s


class Data:
    __slots__ = ("round", "phase", "pick", "step", "side", "deck", "discard", "players",
                 "produced", "supremacy", "opened", "opened_discard", "rng", "log", "over",
                 "result", "piles")

    def copy(self) -> "Data":
        d = Data.__new__(Data)
        d.round, d.phase, d.pick, d.step, d.side = self.round, self.phase, self.pick, self.step, self.side
        d.deck, d.discard = list(self.deck), list(self.discard)
        d.players = {s: p.copy() for s, p in self.players.items()}
        d.produced = dict(self.produced)
        d.supremacy = list(self.supremacy)
        # (the seats as a window found them are never changed once copied: shared)
        d.opened = None if self.opened is None else dict(self.opened)
        d.opened_discard = list(self.opened_discard)
        d.rng, d.log, d.over, d.result = self.rng, list(self.log), self.over, self.result
        d.piles = [list(p) for p in self.piles]
        return d


class WWState(Stepper):
    """engine-api.md's State for It's a Wonderful World (IAW R22.5)."""

    turn_rule = "R7.2"
    window_rule = "R7.2"
    runaway_rule = "R16.2"
    private_windows = True
    steps_ask = False  # every decision is a window's action: nothing asks inside a step

    def __init__(self, game, seats: tuple, data: Data):
        super().__init__()
        self.game = game
        self.table: CardTable = game.table
        self.seats = seats
        self.solo = len(seats) == 1  # R20
        self.d = data
        # seat -> its legal actions now (a list never changed once made); an entry goes when
        # the seat acts, all of them when a window closes or opens or the state is replaced
        self._opts: dict = {}
        # the seats that have not committed in the open window, in seat order (the current
        # seats while the game runs): kept as they commit, not looked for at every action
        self._cur = self._uncommitted()

    def _uncommitted(self) -> tuple:
        players = self.d.players
        return tuple([s for s in self.seats if not players[s].committed])

    # ------------------------------------------------------------------ log
    def note(self, seat: Optional[str], kind: str, text) -> None:
        """Log an entry: ``text`` a string, or (a template, its values...) formatted when
        the log is read (:func:`_entry`); kept as a tuple until then."""
        d = self.d
        entry = (d.round, seat, kind, text)
        if seat is not None and not d.over:
            d.players[seat].pending_log.append(entry)  # R7.4: added at the close
        else:
            d.log.append(entry)

    # ------------------------------------------------------------------ neighbours, refs
    def neighbour(self, seat: str, left: bool) -> str:
        i = self.seats.index(seat)
        return self.seats[(i + (1 if left else -1)) % len(self.seats)]

    def refs(self, seat: str) -> list:
        """(reference, index in the construction area) of each card under construction:
        ``ID``, or ``ID@k`` when the player has two or more of that id there (R22.4)."""
        names = _ref_names(self.d.players[seat].building)
        return list(zip(names, range(len(names))))

    # ------------------------------------------------------------------ rounds
    def start_round(self) -> None:
        d = self.d
        n = len(self.seats)
        deal = 10 if n == 2 else PICKS  # R19.2
        self.note(None, "round", f"round {d.round} begins")
        if len(d.deck) < (0 if self.solo else deal * n):
            raise DeckExhausted("deck exhausted (R5.7)")
        if self.solo:  # R20.2: no draft; planning takes two piles in turn (R20.3)
            d.players[self.seats[0]].piles_taken = 0
            d.phase = "planning"
            self.note(None, "planning", "planning phase")
            self._open_window()
            return
        for seat in self.seats:  # R8.1: P1 takes the top cards, then P2, ...
            p = d.players[seat]
            p.hand = [d.deck.pop() for _ in range(deal)]
            p.draft = []
        self.note(None, "deal", f"each player is dealt {deal} cards")
        d.phase, d.pick = "draft", 1
        self._open_window()

    def _open_window(self) -> None:
        d = self.d
        opts = self._opts
        opts.clear()
        players = d.players
        draft = d.phase == "draft"
        for seat in self.seats:
            p = players[seat]
            p.committed = False
            if p.discarded:  # (an empty list is kept: no seat's list is shared)
                p.discarded = []
            if draft:  # the hand seen, sorted; its picks listed from it (_legal_now's)
                ids = sorted(set(p.hand))
                opts[seat] = Listed(map(_PICK.__getitem__, ids))
                p.seen.append({"round": d.round, "pick": d.pick,
                               "hand": ids if len(ids) == len(p.hand) else sorted(p.hand)})
        self._cur = self.seats
        if self.solo and d.phase == "planning":
            self._take_pile(self.seats[0])
        d.opened = {}  # a seat is copied at its first change (_act), not here
        d.opened_discard = list(d.discard)
        self._autoplay()

    def _take_pile(self, seat: str) -> None:
        """R20.3 ①: the lowest-numbered pile left becomes the hand."""
        p = self.d.players[seat]
        if not self.d.piles:
            raise DeckExhausted("no pile left (R20.1)")
        p.hand = self.d.piles.pop(0)
        p.piles_taken += 1
        p.swap_over = False
        p.seen.append({"round": self.d.round, "pile": p.piles_taken, "hand": sorted(p.hand)})
        self.note(seat, "pile", f"{seat} takes pile {8 - len(self.d.piles)} as its hand")

    def _autoplay(self, seats: Optional[tuple] = None) -> None:
        """R7.6: a seat with exactly one legal action is played by the engine, again and
        again, seat by seat; the window closes when everyone has committed.  ``seats``: the
        seats whose options may have changed (after an action, only the actor's: each acts
        on its own state); None at a window's opening: every seat."""
        d = self.d
        players = d.players
        opts = self._opts
        production = d.phase == "production"
        # a production window that opens with every seat's actions single from first to
        # last closes before anyone can look: its seats need no copy as it found them,
        # but the game's last (to_dict shows its seats as it found them at the end)
        view = seats is not None or not production or (d.step == len(RESOURCES) - 1
                                                       and d.round == ROUNDS)
        if not view:
            for p in players.values():
                if p.building or p.science:
                    view = True
                    break
        for seat in seats or self.seats:
            p = players[seat]
            if production and not p.building and not p.science and not p.committed:
                self._place_all(seat, p, view)  # its one action at a time, at once
                continue
            while not p.committed:
                legal = opts.get(seat)  # self._options(seat), inline
                if legal is None:
                    legal = opts[seat] = self._legal_now(seat)
                if len(legal) != 1:
                    break
                self._act(seat, legal[0])
        if self.d.over or self._cur:  # the game ended, or a seat has still to commit
            return
        self._close_window()  # which opens the next window and plays its single options

    def _place_all(self, seat: str, p: Seat, view: bool = True) -> None:
        """R7.6 in a production step for a seat with nothing under construction and no
        science bonus to take: its one legal action is each cube it produced onto its
        empire (R12.1, R15), one at a time, then ``done``; played here at once, as
        ``_act`` plays them (the same state, the same log entries in the same order).
        ``view`` False: the seat is not copied as the window found it (nobody will ask)."""
        d = self.d
        self._opts.pop(seat, None)
        log = p.pending_log.append  # self.note(seat, ...), inline (the game is not over)
        n = p.unplaced
        if n:
            opened = d.opened
            if view and seat not in opened:
                opened[seat] = p.copy()
            cube, turn = RESOURCES[d.step], d.round
            cubes, kry = p.cubes, p.kry
            for _ in range(n):  # _to_empire, inline
                gained, cubes = divmod(cubes + 1, rules.CUBES_PER_KRYSTALLIUM)  # rules.convert
                kry += gained
                log((turn, seat, "empire", (_CONVERTS if gained else _ON_EMPIRE, seat, cube)))
            p.cubes, p.kry, p.unplaced = cubes, kry, 0
        p.committed = True  # done
        cur = _WITHOUT.get((self._cur, seat))
        self._cur = cur if cur is not None else _without(self._cur, seat)
        log((d.round, seat, "done", ("{} is done", seat)))

    def _close_window(self) -> None:
        d = self.d
        self._opts.clear()
        if d.phase == "production" and d.step == len(RESOURCES) - 1 and d.round == ROUNDS:
            # the game ends at this close: the last window's seats, made whole while a
            # commit can still be taken back (to_dict shows them)
            d.opened = {s: self._opened(s) for s in self.seats}
        for seat in self.seats:  # R7.4: each seat's entries, in seat order
            p = d.players[seat]
            d.log.extend(p.pending_log)
            p.pending_log = []
        if d.phase == "draft":
            self._reveal()
        elif d.phase == "planning":
            d.phase, d.step = "production", 0
            self._production_step()
        else:
            d.step += 1
            if d.step < len(RESOURCES):
                self._production_step()
            elif d.round == ROUNDS:
                self._end()
            else:
                d.round += 1
                self.start_round()

    def _reveal(self) -> None:
        d = self.d
        log = d.log.append  # self.note(None, ...), inline: a public entry is logged at once
        hands = []
        for seat in self.seats:
            p = d.players[seat]
            p.draft.append(p.pick)
            log((d.round, None, "reveal", ("{} reveals {}", seat, p.pick)))
            p.pick = None
            hands.append(p.hand)
        if d.pick < PICKS:  # R8.4: pass after picks 1-6, left in rounds 1 and 3
            left = d.round % 2 == 1
            seats = self.seats
            n, along = len(seats), 1 if left else -1
            for k, hand in enumerate(hands):  # to self.neighbour(seat, left)
                d.players[seats[(k + along) % n]].hand = hand
            log((d.round, None, "pass", _PASS_LEFT if left else _PASS_RIGHT))
            d.pick += 1
            self._open_window()
            return
        for seat in self.seats:  # R19.4: two players discard their 3 leftovers
            p = d.players[seat]
            if p.hand:
                d.discard.extend(p.hand)
                self.note(None, "leftovers", f"{seat}'s {len(p.hand)} cards left over are "
                                             "discarded (no recycle bonus)")
                p.hand = []
        d.phase = "planning"
        self.note(None, "planning", "planning phase")
        self._open_window()

    def _production_step(self) -> None:
        d = self.d
        resource = RESOURCES[d.step]
        produced = d.produced
        shown = [_PRODUCE.get(len(self.seats)) or _produce(len(self.seats)), resource]
        for seat in self.seats:
            p = d.players[seat]
            # rules.production of each resource, worked out at once while nothing is
            # completed (Seat.yields: the count of constructed cards it was made for)
            yields = p.yields
            if yields is None or yields[0] != len(p.built):
                yields = p.yields = (len(p.built), rules.productions(
                    self.table, p.empire, d.side, p.built))
            amount = produced[seat] = yields[1].get(resource, 0)
            shown += (seat, amount)
        d.log.append((d.round, None, "produce", tuple(shown)))  # self.note(None, ...), inline
        winner, token = rules.supremacy(resource, d.produced, solo=len(self.seats) == 1)
        # (round, step, winner or None, token, every seat's P): public (R21.3)
        d.supremacy.append((d.round, resource, winner, token, dict(d.produced)))
        if winner is not None:
            p = d.players[winner]
            if token == "choice":
                p.science = True
                self.note(None, "supremacy", f"{winner} alone produced the most {resource}: "
                                             "a Financier or a General of its choice")
            else:
                setattr(p, token.lower(), getattr(p, token.lower()) + 1)
                self.note(None, "supremacy", f"{winner} alone produced the most {resource}: "
                                             f"one {_TOKEN[token]}")
        for seat in self.seats:
            d.players[seat].unplaced = d.produced[seat]
        self._open_window()

    def _end(self) -> None:
        d = self.d
        d.over, d.phase = True, "over"
        totals, built, chars = {}, {}, {}
        for seat in self.seats:
            p = d.players[seat]
            sc = rules.score(self.table, p.built, p.empire, d.side, p.gen, p.fin)
            totals[seat] = sc["total"]
            built[seat] = len(p.built)
            chars[seat] = p.gen + p.fin
            self.note(None, "score", f"{seat}: {sc['total']} VP (fixed {sc['fixed']}, combo "
                                     f"{sc['combo']}, general {sc['general']}, financier "
                                     f"{sc['financier']})")
        if self.solo:  # R20.6: a title, no winner
            english, japanese = rules.solo_title(totals[self.seats[0]], d.side)
            d.result = {"scores": totals, "winners": [], "rule": "R20.6",
                        "title": english, "title_ja": japanese}
            self.note(None, "end", f"{self.seats[0]} earns the title {japanese} {english} (R20.6)")
            return
        won, rule = rules.winners(totals, built, chars)
        d.result = {"scores": totals, "winners": list(won), "rule": rule}
        self.note(None, "end", f"{' and '.join(won)} win{'s' if len(won) == 1 else ''} ({rule})")

    # ------------------------------------------------------------------ actions
    def _options(self, seat: str) -> list:
        """``seat``'s legal actions now, worked out once per decision point."""
        legal = self._opts.get(seat)
        if legal is None:
            legal = self._opts[seat] = self._legal_now(seat)
        return legal

    def _legal_now(self, seat: str) -> list:
        """``seat``'s legal actions, the shared Acts (:data:`ACTS`) in the order of their
        texts (engine-api.md), listed in that order without sorting them: kind by kind in
        the order of the kinds' names, each kind's by its card ids and references sorted
        (the order of the texts while every id sorts before ``empire`` and holds no space:
        ``CardTable.plain_ids``; otherwise the list is sorted by text at the end).  Each
        card under construction's pair (:func:`_pair`) carries its own actions."""
        d = self.d
        p = d.players[seat]
        if d.over or p.committed:
            return Listed()
        phase = d.phase
        if phase == "draft":  # a card's text order is its pick's ("pick " + id)
            return Listed(map(_PICK.__getitem__, sorted(set(p.hand))))
        building = p.building
        if not building:
            pairs = ()
        else:
            pairs = p.pairs
            if pairs is None:  # the construction area changed since the last listing
                developments = self.table.developments
                empties = []
                for ident, filled in building:  # rules.cost_left, inline
                    left = list(developments[ident].cost)
                    for kind in filled:
                        left.remove(kind)
                    empties.append(tuple(left))
                pairs = p.pairs = list(map(_pair, _ref_names(building), empties))
            if len(pairs) > 1:
                pairs = sorted(pairs)  # by reference (no two alike)
        if phase == "planning":
            solo = self.solo
            if solo:
                if p.look:  # R20.3: between a swap and its keep nothing else
                    keep = ACTS["keep"]
                    return Listed([keep[(i,)] for i in sorted(set(p.look))])
                cards = p.hand
                may_commit = not cards and p.piles_taken == 2
            else:
                cards = p.draft
                may_commit = not cards
            ids = sorted(set(cards))
            out = Listed(map(_CONSTRUCT.__getitem__, ids))  # construct
            append = out.append
            if pairs:
                out.extend(map(_DISCARD_OF, pairs))  # discard_construction
            if may_commit:
                append(_DONE)  # done
        else:
            out = Listed(map(_DISCARD_OF, pairs)) if pairs else Listed()  # discard_construction
            append = out.append
            unplaced = p.unplaced
            if not unplaced and not p.science:
                append(_DONE)  # done
            if unplaced:  # place: onto each card that has room, then the empire
                resource = RESOURCES[d.step]
                place = ACTS["place"]
                for pair in pairs:
                    if resource in pair[1]:
                        append(place[(resource, pair[0])])
                append(place[(resource, "empire")])
        if pairs:  # place_character (Financiers, then Generals), place_krystallium
            if p.fin:
                for pair in pairs:
                    if pair[4] is not None:
                        append(pair[4])
            if p.gen:
                for pair in pairs:
                    if pair[5] is not None:
                        append(pair[5])
            if p.kry:
                for pair in pairs:
                    out.extend(pair[3])
        if phase == "planning":
            if pairs:
                recycle = ACTS["recycle"]
                developments = self.table.developments
                for ident in ids:  # recycle: onto each card that has room, then the empire
                    bonus = developments[ident].recycle
                    for pair in pairs:
                        if bonus in pair[1]:
                            append(recycle[(ident, pair[0])])
                    append(_RECYCLE[ident])
            else:
                out.extend(map(_RECYCLE.__getitem__, ids))
            if solo and not p.swap_over and len(cards) >= 2 and d.deck:  # swap
                swap = ACTS["swap"]
                counts = Counter(cards)
                hand = sorted(counts)
                for k, a in enumerate(hand):  # each pair of the hand once
                    if counts[a] > 1:
                        append(swap[(a, a)])
                    out.extend(swap[(a, b)] for b in hand[k + 1:])
        elif p.science:  # science_bonus
            append(_SCIENCE_FIN)
            append(_SCIENCE_GEN)
        if not self.table.plain_ids:
            out.sort(key=_TEXT)
        return out

    def _act(self, seat: str, a: Act) -> None:
        d = self.d
        self._opts.pop(seat, None)
        p = d.players[seat]
        kind = a.kind
        # a commit (pick, done) is the seat's last action in the window, and one that can be
        # taken back (_opened): a seat is copied as the window found it only before another
        if kind == "pick":
            hand = p.hand
            ident = a.args[0]
            k = p.pick_at = hand.index(ident)
            del hand[k]
            p.pick = ident
            p.committed = True
            cur = _WITHOUT.get((self._cur, seat))  # the seats still to commit, without it
            self._cur = cur if cur is not None else _without(self._cur, seat)
            # self.note(seat, "pick", ...), inline
            (d.log if d.over else p.pending_log).append(
                (d.round, seat, "pick", ("{} picks {}", seat, ident)))
            return
        if kind == "done":
            p.committed = True
            cur = _WITHOUT.get((self._cur, seat))
            self._cur = cur if cur is not None else _without(self._cur, seat)
            (d.log if d.over else p.pending_log).append(
                (d.round, seat, "done", ("{} is done", seat)))  # self.note(), inline
            return
        opened = d.opened
        if seat not in opened:
            opened[seat] = p.copy()
        # self.note(seat, ...), inline: the seat's entries wait for the window's close (R7.4)
        log = (d.log if d.over else p.pending_log).append
        if kind == "construct":
            ident = a.args[0]
            (p.hand if self.solo else p.draft).remove(ident)
            p.swap_over = True
            p.pairs = _pairs_with(p.pairs, p.building, ident, self.table)
            p.building.append((ident, []))
            log((d.round, seat, "construct", ("{} starts constructing {}", seat, a.args[0])))
        elif kind == "recycle":
            ident, to = a.args
            (p.hand if self.solo else p.draft).remove(ident)
            p.swap_over = True
            d.discard.append(ident)
            p.discarded.append(ident)
            cube = self.table.developments[ident].recycle
            log((d.round, seat, "recycle", ("{} recycles {} for one {}", seat, ident, cube)))
            if to == "empire":  # self._put_cube(seat, cube, to), inline
                self._to_empire(seat, cube)
            else:
                log((d.round, seat, "place", ("{} puts a {} on {}", seat, cube, to)))
                self._fill(seat, to, cube)
        elif kind == "place":
            p.unplaced -= 1
            cube, to = a.args
            if to == "empire":  # self._put_cube(seat, cube, to), inline
                self._to_empire(seat, cube)
            else:
                log((d.round, seat, "place", ("{} puts a {} on {}", seat, cube, to)))
                self._fill(seat, to, cube)
        elif kind == "place_krystallium":
            p.kry -= 1
            log((d.round, seat, "krystallium", ("{} puts a krystallium on {} ({})", seat,
                                                            *a.args)))
            self._fill(seat, a.args[0], a.args[1])
        elif kind == "place_character":
            setattr(p, a.args[0].lower(), getattr(p, a.args[0].lower()) - 1)
            log((d.round, seat, "character", f"{seat} puts a {_TOKEN[a.args[0]]} on {a.args[1]}"))
            self._fill(seat, a.args[1], a.args[0])
        elif kind == "discard_construction":
            k = self._index(seat, a.args[0])
            p.pairs = _pairs_without(p.pairs, p.building, k)
            ident, _ = p.building.pop(k)
            d.discard.append(ident)
            p.discarded.append(ident)
            cube = self.table.developments[ident].recycle
            log((d.round, seat, "discard", ("{} discards {} under construction for one {} on the "
                                                 "empire", seat, a.args[0], cube)))
            self._to_empire(seat, cube)
        elif kind == "swap":  # R20.3 ②: two cards away, the top five to look at
            for ident in a.args:
                p.hand.remove(ident)
                d.discard.append(ident)
                p.discarded.append(ident)
            p.look = [d.deck.pop() for _ in range(min(5, len(d.deck)))]
            log((d.round, seat, "swap", f"{seat} discards {a.args[0]} {a.args[1]} and looks at "
                                    f"{' '.join(sorted(p.look))}"))
        elif kind == "keep":
            p.look.remove(a.args[0])
            p.hand.append(a.args[0])
            d.discard.extend(p.look)
            p.discarded.extend(p.look)
            log((d.round, seat, "keep", f"{seat} keeps {a.args[0]}"))
            p.look = []
        else:  # science_bonus
            p.science = False
            setattr(p, a.args[0].lower(), getattr(p, a.args[0].lower()) + 1)
            log((d.round, seat, "supremacy", f"{seat} takes a {_TOKEN[a.args[0]]}"))
        if self.solo and d.phase == "planning" and not p.committed and not p.hand \
                and not p.look and p.piles_taken == 1:
            self._take_pile(seat)  # R20.3 ①, the second time

    def _opened(self, seat: str) -> Seat:
        """``seat`` as the open window found it (R7.5): its copy made before its first
        change in the window; a seat not copied has not acted yet (it is as it was) or has
        only committed (its pick or done, taken back here on a copy: the entry it logged,
        the card back to its place in the hand)."""
        o = self.d.opened.get(seat)
        if o is not None:
            return o
        p = self.d.players[seat]
        if not p.committed:
            return p
        o = p.copy()
        o.committed = False
        del o.pending_log[-1:]  # the entry its commit logged (R7.4: it waits there)
        if o.pick is not None:
            o.hand.insert(o.pick_at, o.pick)
            o.pick = None
        return o

    def _index(self, seat: str, ref: str) -> int:
        building = self.d.players[seat].building
        if "@" not in ref:  # a plain id names the one card of that id there (R22.4)
            for k, (ident, _) in enumerate(building):
                if ident == ref:
                    return k
        return _ref_names(building).index(ref)

    def _to_empire(self, seat: str, cube: str) -> None:
        d = self.d
        p = d.players[seat]
        # rules.convert, inline (R15: at five, at once)
        gained, p.cubes = divmod(p.cubes + 1, rules.CUBES_PER_KRYSTALLIUM)
        if gained:
            p.kry += gained
        (d.log if d.over else p.pending_log).append(  # self.note(), inline
            (d.round, seat, "empire", (_CONVERTS if gained else _ON_EMPIRE, seat, cube)))

    def _fill(self, seat: str, ref: str, kind: str) -> None:
        """Fill an empty ``kind`` space of card ``ref``; R11: complete it when none is left."""
        p = self.d.players[seat]
        k = self._index(seat, ref)
        ident, filled = p.building[k]
        filled.append(kind)
        pairs = p.pairs
        if pairs is not None:  # the card's pair tells what is left (rules.cost_left)
            ref, empty = pairs[k][:2]
            left = list(empty)
            left.remove(kind)
            if left:  # the one space filled, in the card's pair (a new list of pairs)
                pairs = list(pairs)
                pairs[k] = _pair(ref, tuple(left))
                p.pairs = pairs
                return
        elif rules.cost_left(self.table, ident, filled):
            return
        p.pairs = _pairs_without(pairs, p.building, k)
        p.building.pop(k)
        p.built.append(ident)
        for token in self.table.developments[ident].bonus:
            setattr(p, token.lower(), getattr(p, token.lower()) + 1)
        bonus = f", gaining {' '.join(self.table.developments[ident].bonus)}" \
            if self.table.developments[ident].bonus else ""
        self.note(seat, "complete", ("{} completes {}{}", seat, ident, bonus))

    # ------------------------------------------------------------------ Stepper hooks
    def _over(self) -> bool:
        return self.d.over

    def _acting(self) -> tuple:
        return self._cur

    # The public loop's hot path (issue 17): between steps (never a question: no step asks;
    # no commits kept: the windows are private) the current seats are the uncommitted ones
    # kept in ``_cur``, a seat's list is the one ``_opts`` keeps, and an action listed (the
    # very object: one shared Act per action) runs at once; anything else takes the
    # kernel's path (its refusals, the game stopped).
    def is_terminal(self) -> bool:
        if self.question is None and self.stopped is None:
            return self.d.over
        return Stepper.is_terminal(self)

    def current_seats(self) -> tuple:
        if self.question is None and self.stopped is None:
            return () if self.d.over else self._cur
        return Stepper.current_seats(self)

    def legal_actions(self, seat: str) -> list:
        if self.question is None and self.stopped is None:
            legal = self._opts.get(seat)
            if legal is not None:
                return legal[:]
            if seat in self.d.players:  # a committed seat's list, or the game's end: empty
                return self._options(seat)[:]
        return Stepper.legal_actions(self, seat)

    def apply(self, seat: str, action: Any) -> None:
        legal = self._opts.get(seat)  # non-empty: the seat has not committed, the game runs
        if legal and self.question is None and self.stopped is None:
            for listed in legal:  # the very object (one shared Act per action)
                if listed is action:
                    break
            else:
                return Stepper.apply(self, seat, action)  # an equal Act made again, a refusal
            if self._legal:
                self._legal = {}
            self._who = None
            self._act(seat, action)
            # _autoplay((seat,)), inline for the common cases: the seat's next list is made
            # (and kept for its next decision); R7.6 plays it when it is a single action
            if not self.d.players[seat].committed:
                legal = self._opts[seat] = self._legal_now(seat)
                if len(legal) == 1:
                    self._autoplay((seat,))
            elif not self._cur and not self.d.over:
                self._close_window()  # every seat has committed
            return
        Stepper.apply(self, seat, action)

    def _legal_of(self, seat: str) -> list:
        return self._options(seat)

    def _may_ask(self, seat: str, action: Any) -> bool:
        return False  # (steps_ask says so for every step: the Stepper does not ask)

    def _run(self, seat: str, action: Any, answers: list) -> None:
        self._act(seat, action)
        self._autoplay((seat,))

    def _snapshot(self) -> Data:  # pragma: no cover - nothing asks (steps_ask is False)
        return self.d.copy()

    def _restore(self, snap: Data) -> None:  # pragma: no cover
        self.d = snap.copy()
        self._opts.clear()
        self._cur = self._uncommitted()

    def _copy(self) -> "WWState":
        twin = WWState(self.game, self.seats, self.d.copy())
        twin._opts = dict(self._opts)  # the same state: the same (unchanged) lists
        return twin

    def _game_over(self) -> IllegalAction:
        return IllegalAction("the game is over: no action is possible after round 4", "R16.2")

    def _not_current(self, seat: str, acting: tuple) -> IllegalAction:
        if seat in self.seats:
            return IllegalAction(f"{seat} has committed in this window (done, or its pick): "
                                 "it takes no further action until the next one", "R7.2")
        return IllegalAction(f"no seat {seat}; the seats are {', '.join(self.seats)}", "R1.1")

    def _refusal(self, seat: str, action: Any) -> IllegalAction:
        from .moves import refusal

        return refusal(self, seat, action)

    # ------------------------------------------------------------------ hidden information
    def _hidden(self, seat: str) -> dict:
        """The other seats that have committed in the open window (they act again, R21.6b)."""
        return {"committed": () if self.d.over else tuple(
            s for s in self.seats if s != seat and self.d.players[s].committed)}

    def _redeal(self, seat: str, rnd: random.Random, hidden: dict) -> None:
        """R21.6: (b) every other seat is put back to the window's opening; one that had
        committed acts again at random until it commits; (a) the cards ``seat`` cannot see
        — the deck and the other hands — are dealt again among those places."""
        d = self.d
        self._opts.clear()
        for other in self.seats:
            if other == seat or d.over:  # after the end there is no window to go back to
                continue
            was = d.players[other]
            for ident in was.discarded:
                d.discard.remove(ident)
            # the window's view of the seat is kept as it was (the re-deal changes the seat)
            found = self._opened(other)
            if found is was:
                found = was.copy()
            d.opened[other] = found
            back = found.copy()
            back.committed = False
            back.pending_log = []
            d.players[other] = back
        self._cur = self._uncommitted()
        others = [s for s in self.seats if s != seat]
        if self.solo:  # R21.6a: the deck and the piles not taken yet
            pool = list(d.deck) + [c for pile in d.piles for c in pile]
            rnd.shuffle(pool)
            d.piles = [[pool.pop() for _ in pile] for pile in d.piles]
            d.deck = pool
            return
        pool = list(d.deck) + [c for s in others for c in d.players[s].hand]
        known = self._known_cards(seat)
        for s in others:
            keep = common(d.players[s].hand, known.get(s, []))
            pool = minus(pool, keep)
        pool.sort()
        rnd.shuffle(pool)
        for s in others:
            p = d.players[s]
            keep = common(p.hand, known.get(s, []))
            p.hand = keep + [pool.pop() for _ in range(len(p.hand) - len(keep))]
        d.deck = pool
        for s in [s for s in others if s in hidden["committed"]]:
            p = d.players[s]
            while not p.committed:
                legal = self._options(s)
                self._act(s, legal[rnd.randrange(len(legal))])
        self._autoplay()
        self._legal = {}
        self._who = None

    def _known_cards(self, seat: str) -> dict:
        """What ``seat`` knows of each other hand: the packs it held earlier this round
        and passed on, minus the picks revealed since (R21.6a)."""
        d = self.d
        out: dict = {}
        if d.phase != "draft":
            return out
        mine = [e for e in d.players[seat].seen if e["round"] == d.round]
        left = d.round % 2 == 1
        n = len(self.seats)
        for back, entry in enumerate(reversed(mine[:-1]), start=1):
            # the hand held `back` picks ago is now `back` seats along the passing direction
            holder = self.seats[(self.seats.index(seat) + (back if left else -back)) % n]
            if holder == seat:
                continue
            pack = list(entry["hand"])
            # minus the picks made from it since: the seat's own, then each later holder's
            chain = [self.seats[(self.seats.index(seat) + (j if left else -j)) % n]
                     for j in range(back)]
            for j, picker in enumerate(chain):
                revealed = d.players[picker].draft
                index = entry["pick"] - 1 + j
                if index < len(revealed):
                    pack = minus(pack, [revealed[index]])
            out[holder] = pack
        return out

    def _reseed(self, rnd: random.Random) -> None:
        self.d.rng = rnd.getrandbits(64) & MASK

    # ------------------------------------------------------------------ results
    def winners(self) -> tuple:
        if not self.d.over or len(self.seats) == 1:
            return ()
        return tuple(self.d.result["winners"])

    def win_reason(self) -> str:
        return self.d.result["rule"] if self.d.over else ""

    def returns(self) -> dict:
        """R22.5: the scores (this game ranks by VP)."""
        if not self.d.over:
            return {s: 0.0 for s in self.seats}
        return {s: float(v) for s, v in self.d.result["scores"].items()}

    # ------------------------------------------------------------------ views
    def _seat_view(self, p: Seat, live: Seat) -> dict:
        return {"empire": p.empire, "draft": list(p.draft), "face_down_pick": live.pick is not None,
                "construction": [{"card": i, "filled": sorted(f)} for i, f in p.building],
                "constructed": sorted(p.built), "cubes": p.cubes, "krystallium": p.kry,
                "financiers": p.fin, "generals": p.gen, "hand_size": len(p.hand),
                "committed": live.committed}

    def observation(self, seat: str) -> dict:
        if seat not in self.seats:
            raise ValueError(f"no seat {seat!r}; the seats are {', '.join(self.seats)}")
        d = self.d
        window = not d.over
        players = {}
        for s in self.seats:
            live = d.players[s]
            shown = live if (s == seat or not window) else self._opened(s)
            players[s] = self._seat_view(shown, live)
        me = d.players[seat]
        discard = list(d.opened_discard) + list(me.discarded) if window else list(d.discard)
        return {
            "seat": seat, "seats": list(self.seats), "round": d.round, "phase": d.phase,
            "pick": d.pick, "step": RESOURCES[d.step] if d.phase == "production" else None,
            "side": d.side, "players": players, "produced": dict(d.produced),
            "supremacy": [list(x) for x in d.supremacy if x[0] == d.round],
            "discard": sorted(discard), "deck_size": len(d.deck),
            "current": list(self.current_seats()), "over": d.over,
            "hand": sorted(me.hand), "pick_card": me.pick, "unplaced": me.unplaced,
            "science_pending": me.science, "seen": [dict(e) for e in me.seen],
            "look": sorted(me.look), "piles_left": len(d.piles),
            "piles_taken": me.piles_taken, "swap_over": me.swap_over,
        }

    def to_dict(self) -> dict:
        d = self.d

        def whole(p: Seat) -> dict:
            view = self._seat_view(p, p)
            view.update(hand=sorted(p.hand), pick_card=p.pick, unplaced=p.unplaced,
                        science_pending=p.science, discarded=list(p.discarded),
                        pending_log=[_entry(e) for e in p.pending_log], seen=list(p.seen),
                        look=sorted(p.look), piles_taken=p.piles_taken, swap_over=p.swap_over)
            return view

        return {"seats": list(self.seats), "round": d.round, "phase": d.phase, "pick": d.pick,
                "step": d.step, "side": d.side, "deck": list(reversed(d.deck)),
                "discard": sorted(d.discard), "players": {s: whole(p) for s, p in d.players.items()},
                "opened": {} if d.opened is None else {
                    s: whole(self._opened(s)) for s in self.seats},
                "opened_discard": sorted(d.opened_discard), "produced": dict(d.produced),
                "supremacy": [list(x) for x in d.supremacy], "rng": d.rng, "over": d.over,
                "piles": [list(p) for p in d.piles],
                "result": d.result, "current": list(self.current_seats())}

    @property
    def log(self) -> list:
        return list(map(_entry, self.d.log))

    def log_of(self, kinds) -> list:
        return [_entry(e) for e in self.d.log if e[2] in kinds]

    def parse_action(self, seat: str, text: str):
        words = str(text).split()
        if not words:
            raise IllegalAction("an empty action", "R22.4")
        kind, args = words[0], tuple(words[1:])
        shared = ACTS.get(kind)
        # the shared Act when the engine has listed it (found at once in the legal list)
        return (shared.get(args) if shared is not None else None) or Act(kind, args)


#: (seats, seat) -> ``seats`` without ``seat``, in order (bounded: subsets of 5 seats)
_WITHOUT: dict = {}


def _without(seats: tuple, seat: str) -> tuple:
    out = _WITHOUT[(seats, seat)] = tuple([s for s in seats if s != seat])
    return out


#: seat count -> the template of a production step's log entry ("MAT step: P1 3, P2 0")
_PRODUCE: dict = {}


def _produce(n: int) -> str:
    out = _PRODUCE[n] = "{} step: " + ", ".join(["{} {}"] * n)
    return out


_TOKEN = {"FIN": "Financier", "GEN": "General"}
_PASS_LEFT, _PASS_RIGHT = "hands pass to the left", "hands pass to the right"
_ON_EMPIRE = "{} puts a {} on its empire"
_CONVERTS = _ON_EMPIRE + ": 5 cubes become a krystallium"


def _entry(e: tuple) -> dict:
    """A log entry as the log shows it, from (turn, seat, kind, text or (template,
    values...)) as :meth:`WWState.note` keeps it (never changed once written)."""
    turn, seat, kind, text = e
    if text.__class__ is tuple:
        text = text[0].format(*text[1:])
    return {"turn": turn, "seat": seat, "kind": kind, "text": text}
_DONE = ACTS["done"][()]
_SCIENCE_FIN, _SCIENCE_GEN = ACTS["science_bonus"][("FIN",)], ACTS["science_bonus"][("GEN",)]


class _ByCard(dict):
    """id -> what ``make(id)`` gives, made the first time it is asked (shared Acts)."""

    __slots__ = ("make",)

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, ident: str):
        v = self[ident] = self.make(ident)
        return v


#: id -> its pick (the Act of ACTS["pick"]), its construct, its recycle onto the empire
_PICK = _ByCard(lambda i: ACTS["pick"][(i,)])
_CONSTRUCT = _ByCard(lambda i: ACTS["construct"][(i,)])
_RECYCLE = _ByCard(lambda i: ACTS["recycle"][(i, "empire")])

#: (reference, empty spaces) -> the pair of a card under construction: (reference, empty
#: spaces, its discard_construction, its place_krystallium for each kind of empty space a
#: krystallium fills in the order of their texts, its place_character FIN and GEN or None);
#: made once (bounded: references times what a card's cost can leave empty) and shared
_PAIRS: dict = {}
_DISCARD_OF = itemgetter(2)


def _pair(ref: str, empty: tuple) -> tuple:
    pair = _PAIRS.get((ref, empty))
    if pair is None:
        kry, character = ACTS["place_krystallium"], ACTS["place_character"]
        pair = _PAIRS[(ref, empty)] = (
            ref, empty, ACTS["discard_construction"][(ref,)],
            tuple(kry[(ref, sp)] for sp in sorted(_KRY_FILLS.intersection(empty))),
            character[("FIN", ref)] if "FIN" in empty else None,
            character[("GEN", ref)] if "GEN" in empty else None)
    return pair


# The (reference, empty spaces) pairs of a construction area kept through its changes
# (Seat.pairs; None: worked out again at the next listing): a card added or taken away
# changes only its own pair while every reference is the plain id (no id twice, R22.4);
# otherwise the references are named again, so the pairs are left to the listing.
def _pairs_with(pairs: Optional[list], building: list, ident: str, table: CardTable):
    """The pairs once ``ident`` starts construction after ``building`` (None: unknown)."""
    if pairs is None:
        return None if building else [_pair(ident, table.developments[ident].cost)]
    for other, _ in building:
        if other == ident:
            return None  # two of one id: both named ID@k
    return pairs + [_pair(ident, table.developments[ident].cost)]


def _pairs_without(pairs: Optional[list], building: list, k: int):
    """The pairs once the ``k``-th card of ``building`` leaves it (None: unknown)."""
    if pairs is None:
        return None
    for (ident, _), pair in zip(building, pairs):
        if ident != pair[0]:
            return None  # an ID@k reference: the others may be named again
    return pairs[:k] + pairs[k + 1:]


def _ref_names(building: list) -> list:
    """The reference of each card under construction, in order (R22.4): its id, or
    ``ID@k`` for the k-th of two or more of one id."""
    names = [ident for ident, _ in building]
    if len(set(names)) == len(names):
        return names
    counts = Counter(names)
    seen: Counter = Counter()
    out = []
    for ident in names:
        seen[ident] += 1
        out.append(ident if counts[ident] == 1 else f"{ident}@{seen[ident]}")
    return out


