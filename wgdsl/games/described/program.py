"""A GameSpec's steps and end rules compiled once into closures (:class:`Program`).

Each step of the spec becomes a function of the state, ``run(state)``, built when the game
is loaded: which zones, counters and seats it touches, the relation or stat it compares by,
the rule function it calls, are looked up here once, so a game in play calls closures and
never reads the spec's structure to find out what to do.  One Program serves every state
of its game (it holds no state of its own).

The state's helpers the closures use are those of
:class:`~wgdsl.games.described.state.DescribedState`: ``order()``, ``put()``,
``shuffle()``, ``note()``, ``card()``, ``sole_winner()``, ``zone_name()``, and its
:class:`~wgdsl.games.described.state.Table` ``t``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Callable, Optional

import attrs

from wgdsl.lang.game import spec as S
from wgdsl.lang.game.spec import PLAYED


class RuleFunctionError(Exception):
    """A rule function a game file names returned something that is not what its use
    promises (a bug in the rule function, not in the game file)."""


@attrs.frozen
class Program:
    setup: tuple  # of run(state)
    phases: tuple  # per phase: the run(state) of its steps after the window
    phase_ends: tuple  # (EndRule, check(state) -> winners or None), checked after each phase
    round_ends: tuple  # the same for `after N rounds`, checked at the end of a round
    visibility: dict  # zone -> hidden / owner / public (and `played`: owner)
    per_seat: dict  # zone -> bool
    capacity: dict  # zone -> how many cards it holds (its places), or None: no limit


def compile_program(spec: S.GameSpec, hooks: dict) -> Program:
    """The closures of ``spec``; ``hooks``: rule function name -> the function."""
    visibility = {z.name: z.visibility for z in spec.zones}
    visibility[PLAYED] = "owner"
    per_seat = {z.name: z.per_seat for z in spec.zones}
    per_seat[PLAYED] = True
    capacity = {z.name: z.capacity for z in spec.zones}
    capacity[PLAYED] = None
    build = _Builder(spec, hooks, per_seat)
    return Program(
        setup=tuple(build.step(s) for s in spec.setup),
        phases=tuple(tuple(build.step(s) for s in p.steps) for p in spec.phases),
        phase_ends=tuple((e, build.end(e)) for e in spec.ends if e.condition != "after"),
        round_ends=tuple((e, build.end(e)) for e in spec.ends if e.condition == "after"),
        visibility=visibility, per_seat=per_seat, capacity=capacity)


def _cards(n: int, what: str = "card") -> str:
    return f"{n} {what}s" if n != 1 else f"1 {what}"


def _stay(n: int) -> str:
    return f"{_cards(n)} stays" if n == 1 else f"{_cards(n)} stay"


class _Builder:
    def __init__(self, spec: S.GameSpec, hooks: dict, per_seat: dict):
        self.spec, self.hooks, self.per_seat = spec, hooks, per_seat

    def step(self, step: S.Step) -> Callable:
        return getattr(self, "_" + step.kind)(step)

    # ------------------------------------------------------------------ whose
    @staticmethod
    def _seats(who: Optional[str]) -> Callable:
        """``seats(state)``: the seats ``who`` means now (None: none of them can be meant,
        when `the winner` is asked for and there is no sole winner)."""
        if who in (None, S.EACH_SEAT):
            return lambda st: st.order()
        if who == S.EACH_WINNER:
            return lambda st: tuple(s for s in st.order() if s in (st.t.winners or ()))
        if who == S.THE_WINNER:
            def the_winner(st):
                w = st.sole_winner()
                return None if w is None else (w,)
            return the_winner
        if who == S.ACTIVE_SEAT:
            return lambda st: (st.active_seat,)
        raise AssertionError(who)  # pragma: no cover - the checker allows no other

    def _keys(self, ref: S.ZoneRef) -> Callable:
        """``keys(state)``: the zones a source or a zone to shuffle means now."""
        zone = ref.zone
        if not self.per_seat[zone]:
            key = ((zone, None),)
            return lambda st: key
        seats = self._seats(ref.who)

        def keys(st):
            found = seats(st)
            return None if found is None else tuple((zone, s) for s in found)
        return keys

    # ------------------------------------------------------------------ steps
    def _reveal(self, step: S.Step) -> Callable:
        def run(st):
            t = st.t
            for seat in st.order():
                value, shown = t.choices.get(seat, (None, True))
                if shown:
                    continue
                t.choices[seat] = (value, True)
                if isinstance(value, str):
                    st.note(seat, "reveal", f"{seat} shows {value}")
                else:
                    t.known[value] = st.everyone
                    card = st.card(value)
                    st.note(seat, "reveal", f"{seat} shows {card.id} \"{card.name}\"")
        return run

    def _compare(self, step: S.Step) -> Callable:
        how, name = step.how, step.name
        if how == "relation":
            pairs = self.spec.relation(name).pairs

            def winners(st, chosen):
                keys = {s: (v if isinstance(v, str) else st.card(v).id) for s, v in chosen}
                return [s for s, v in keys.items()
                        if any((v, w) in pairs for w in keys.values())
                        and not any((w, v) in pairs for w in keys.values())]
            what = f"by {name}"
        elif how in ("higher", "lower"):
            ranks = {k.name: k.stat(name) for k in self.spec.kinds}
            pick = max if how == "higher" else min

            def winners(st, chosen):
                values = {}
                for s, uid in chosen:
                    card = st.card(uid)
                    values[s] = ranks[card.kind].rank(card.stat(name))
                if not values:
                    return []
                best = pick(values.values())
                return [s for s, v in values.items() if v == best]
            what = f"by {how} {name}"
        else:  # a rule function
            fn = self.hooks[name]
            hook = self.spec.hook(name)
            ref = f"`{name}` ({hook.module}:{hook.function})"

            def winners(st, chosen):
                seen = MappingProxyType({s: (v if isinstance(v, str) else st.card(v))
                                         for s, v in chosen})
                result = fn(seen)
                try:
                    found = list(result)
                except TypeError:
                    found = None
                if found is None or any(s not in seen for s in found):
                    raise RuleFunctionError(
                        f"rule function {ref} returned {result!r}; a compare rule function "
                        f"returns seats among those that chose ({', '.join(seen)})")
                return [s for s in seen if s in found]
            what = f"by rule {name}"

        def run(st):
            t = st.t
            chosen = [(s, t.choices[s][0]) for s in st.order() if s in t.choices]
            won = winners(st, chosen)
            t.winners = tuple(s for s in st.seats if s in won)
            if not t.winners:
                text = "nobody wins"
            else:
                text = " and ".join(t.winners) + (" wins" if len(t.winners) == 1 else " win")
            st.note("", "compare", f"compare {what}: {text}")
        return run

    def _add(self, step: S.Step) -> Callable:
        counter, amount, seats = step.name, step.amount, self._seats(step.who)

        def run(st):
            found = seats(st)
            if found is None:
                st.note("", "add", f"no sole winner: nobody adds to {counter}")
                return
            n = amount.of(st.options)
            values = st.t.counters[counter]
            for s in found:
                values[s] += n
                st.note(s, "add", f"{s} adds {n} to {counter} ({values[s]})")
        return run

    def _put(self, step: S.Step) -> Callable:
        key = (step.name, None)

        def run(st):
            n = len(st.t.defs)
            for uid in range(n):
                st.put(uid, key)
            st.note("", "put", f"put every card into {step.name} ({_cards(n)})")
        return run

    def _shuffle(self, step: S.Step) -> Callable:
        keys = self._keys(step.source)

        def run(st):
            found = keys(st)
            if found is None:
                st.note("", "shuffle", f"no sole winner: no {step.source.zone} is shuffled")
                return
            t = st.t
            for key in found:
                cards = t.zones[key]
                st.shuffle(cards)
                # nobody knows where a card is now, but for those who see the zone itself
                vis = st.program.visibility[key[0]]
                known = st.everyone if vis == "public" else \
                    st.bit[key[1]] if vis == "owner" else 0
                for uid in cards:
                    t.known[uid] = known
                st.note("", "shuffle", f"shuffle {st.zone_name(key)}")
        return run

    def _deal(self, step: S.Step) -> Callable:
        source, dest, amount = (step.source.zone, None), step.dest.zone, step.amount

        def run(st):
            cards = st.t.zones[source]
            order = st.order()
            dealt = dict.fromkeys(order, 0)
            each = None if amount is None else amount.of(st.options)
            # a zone with places takes no more cards than it has places: a full seat is
            # passed over, and the deal stops when every seat is full
            room = {s: st.room((dest, s)) for s in order}
            i = 0
            while cards:
                open_seats = [s for s in order
                              if (each is None or dealt[s] < each) and dealt[s] < room[s]]
                if not open_seats:
                    break
                seat = order[i % len(order)]
                i += 1
                if seat not in open_seats:
                    continue
                st.put(cards.pop(), (dest, seat))
                dealt[seat] += 1
            total = sum(dealt.values())
            full = [s for s in order if dealt[s] == room[s] and (each is None or room[s] < each)]
            short = each is not None and not cards and any(
                dealt[s] < min(each, room[s]) for s in order)
            st.note("", "deal", f"deal {_cards(total)} from {source[0]}: " + ", ".join(
                f"{n} to {st.zone_name((dest, s))}" for s, n in dealt.items())
                + (f" ({source[0]} ran out)" if short else "")
                + (" (full: " + ", ".join(st.zone_name((dest, s)) for s in full) + ")"
                   if full else ""))
        return run

    def _draw(self, step: S.Step) -> Callable:
        src, dest, amount = step.source.zone, step.dest.zone, step.amount
        own = self.per_seat[src]

        def run(st):
            n = amount.of(st.options)
            for seat in st.order():
                cards = st.t.zones[(src, seat if own else None)]
                room = st.room((dest, seat))
                k = min(n, len(cards), room)
                for _ in range(k):
                    st.put(cards.pop(), (dest, seat))
                why = (f" ({dest} is full)" if k == room < n else
                       f" ({src} ran out)" if k < n else "")
                st.note(seat, "draw", f"{seat} draws {_cards(k)} from {src} into {dest}{why}")
        return run

    def _move(self, step: S.Step) -> Callable:
        dest = step.dest
        played = step.source is None
        if played:
            def sources(st):
                return tuple((PLAYED, s) for s in st.order())
        else:
            sources = self._keys(step.source)
        shared_dest = not self.per_seat[dest.zone]
        # whose zone the cards go to: None for a shared zone, or for `its owner` (the seat
        # each card comes from); else the seat `the winner` / `the active seat` is now
        to_seat = None if shared_dest or dest.who == S.ITS_OWNER else self._seats(dest.who)
        end = dest.end

        def run(st):
            found = sources(st)
            if found is None:
                st.note("", "move", f"no sole winner: no cards move from {step.source.zone}")
                return
            if to_seat is not None:
                target = to_seat(st)
                if target is None:
                    st.note("", "move", "no sole winner: the cards stay where they are")
                    return
            t = st.t
            for key in found:
                cards = t.zones[key]
                if not cards:
                    continue
                if shared_dest:
                    into = (dest.zone, None)
                elif to_seat is None:  # its owner
                    into = (dest.zone, key[1])
                else:
                    into = (dest.zone, target[0])
                # a zone with places takes what fits: the top cards go, the rest stay
                room = st.room(into)
                moved = cards[len(cards) - room:] if room < len(cards) else list(cards)
                del cards[len(cards) - len(moved):]
                for uid in (reversed(moved) if end == "bottom" else moved):
                    st.put(uid, into, end)
                where = f"the {end} of " if end else ""
                if not moved:
                    st.note("", "move", f"{st.zone_name(into)} is full: "
                            f"{_stay(len(cards))} in {st.zone_name(key)}")
                    continue
                what = (f"{key[1]}'s " + ("played card" if len(moved) == 1 else
                                          f"{len(moved)} played cards") if played
                        else f"{_cards(len(moved))} from {st.zone_name(key)}")
                stay = (f" ({st.zone_name(into)} is full: {_stay(len(cards))})"
                        if cards else "")
                st.note("", "move", f"move {what} to {where}{st.zone_name(into)}{stay}")
        return run

    # ------------------------------------------------------------------ ends
    def _amount_of(self, q: S.Quantity) -> Callable:
        if q.cards:
            zone = q.name
            return lambda st, seat: len(st.t.zones[(zone, seat)])
        counter = q.name
        return lambda st, seat: st.t.counters[counter][seat]

    def end(self, rule: S.EndRule) -> Callable:
        """``check(state)``: None while the rule does not decide, else the winners."""
        cond = rule.condition
        if cond == "after":
            amount = rule.amount

            def hits(st):
                return () if st.t.round >= amount.of(st.options) else None
        else:
            value = self._amount_of(rule.quantity)
            if cond == "at_least":
                amount = rule.amount

                def hits(st):
                    n = amount.of(st.options)
                    found = tuple(s for s in st.seats if value(st, s) >= n)
                    return found or None
            else:  # none
                def hits(st):
                    found = tuple(s for s in st.seats if value(st, s) == 0)
                    return found or None
        outcome = rule.outcome
        if outcome == "that_wins":
            return hits
        if outcome == "that_loses":
            def check(st):
                found = hits(st)
                return None if found is None else tuple(s for s in st.seats if s not in found)
            return check
        if outcome == "nobody":
            def check(st):
                return None if hits(st) is None else ()
            return check
        by = self._amount_of(rule.by)
        pick = max if outcome == "highest" else min

        def check(st):
            if hits(st) is None:
                return None
            values = {s: by(st, s) for s in st.seats}
            best = pick(values.values())
            return tuple(s for s in st.seats if values[s] == best)
        return check
