"""What the commands do with game files: check one, show its compiled rules, play it.

- :func:`check` is ``wgdsl check FILE.game``: the game or None, and every diagnostic;
- :func:`rules_text` is ``wgdsl show --rules FILE.game``: the compiled structure, every
  default made explicit and every statement with the rule it cites;
- :func:`play_one` / :func:`play_series` are ``wgdsl play --game FILE``: random bots that
  see only what engine-api.md gives an agent (a seat's observation and its legal
  actions), one game with its log or many with statistics (:class:`Summary`).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator, Optional

import attrs

from wgdsl.games.described import DescribedGame, check_game_file
from wgdsl.kernel.bots import RandomBot
from wgdsl.lang.game import spec as S

check = check_game_file


# ---------------------------------------------------------------------------- show --rules
def rules_text(game: DescribedGame) -> str:
    """The compiled structure of a described game, readably (``wgdsl show --rules``)."""
    spec = game.spec
    low, high = spec.seat_range
    english = f" / {spec.name_en}" if spec.name_en else ""
    out = [f"{spec.name}{english} ({spec.id}), from {spec.path}", ""]
    seats = f"{low}" if low == high else f"{low} to {high}"
    names = ", ".join(spec.seat_names)
    order = "clockwise: as named" if spec.clockwise else \
        "counterclockwise: the first named, then the others in reverse"
    first = "drawn at random" if spec.first is None else spec.first
    passes = "" if spec.engine is not None else "; it passes to the next seat each round"
    out.append(f"seats      {seats} [{spec.seats_rule}]: {names} (turn order {order}); "
               f"first active seat: {first}{passes}")
    if spec.options:
        out.append("options    " + "; ".join(f"{o.name} {o.low} to {o.high}, default {o.default}"
                                              for o in spec.options))
    if spec.counters:
        out.append("counters   " + "; ".join(f"{c.name} per seat, starts at {c.start}"
                                              for c in spec.counters))
    if spec.signs:
        out.append("signs      " + ", ".join(spec.signs))
    for r in spec.relations:
        pairs = ", ".join(f"{a} {r.name} {b}" for a, b in sorted(r.pairs))
        out.append(f"relation   {r.name}: {pairs}")
    if spec.engine is not None:
        out.append(f"played by  {spec.engine.module}:{spec.engine.function}: its engine sets "
                   "the game up, plays its turns and ends it")
    if spec.card_set is not None:
        out.append(f"cards      {spec.card_set} [{spec.card_set_rule}]: written in the card "
                   "language, in this file's words (its colors, marks, phases and zones)")
    if spec.turn_phases:
        out.append(f"phases     {', '.join(spec.turn_phases)} [{spec.phases_rule}]")
    for pool in spec.pools:
        whose = "per seat" if pool.per_seat else "shared"
        emptied = ", emptied at the end of every turn" if pool.emptied else ""
        out.append(f"pool       {pool.name} ({whose}) of {', '.join(pool.words)}{emptied} "
                   f"[{pool.rule}]")
    for lim in spec.limits:
        out.append(f"limit      {lim.name} at most {lim.count} a turn [{lim.rule}]")
    for k in spec.kinds:
        stats = ", ".join(s.name + _stat_decl(s) for s in k.stats) or "no stats"
        flags = f"; flags {', '.join(k.flags)}" if k.flags else ""
        out.append(f"kind       {k.name}: {stats}{flags}")
    for e in spec.effects:
        traits = [t for t, on in (("selects a seat", e.selects), ("once per turn", e.once_per_turn),
                                  ("as a response", e.response)) if on]
        out.append(f"effect     {e.name} \"{e.name_ja}\" / \"{e.name_en}\" [{e.rule}]"
                   + (f" ({', '.join(traits)})" if traits else "")
                   + f" = {e.hook.module}:{e.hook.function}")
        out.append(f"             ja: {e.text_ja}")
        out.append(f"             en: {e.text_en}")
    if spec.cards:
        total = sum(c.copies for c in spec.cards)
        out.append(f"cards      {total} ({len(spec.cards)} different)")
        for c in spec.cards:
            stats = " ".join(f"{n} {S.stat_text(v)}" for n, v in c.stats)
            copies = f" x{c.copies}" if c.copies != 1 else ""
            english = f" / \"{c.name_en}\"" if c.name_en else ""
            flags = f" is {', '.join(c.flags)}" if c.flags else ""
            effects = f" does {' or '.join(c.effects)}" if c.effects else ""
            out.append(f"  {c.id:<8} \"{c.name}\"{english} {c.kind} {stats}{flags}{effects}"
                       f"{copies}")
    for z in spec.zones:
        if z.grid:
            shape = f"grid of {z.grid[0]} by {z.grid[1]} places"
        elif z.slots:
            shape = f"{z.slots} slots"
        else:
            shape = "pile" if z.ordered else "bag"
        stacks = ", a stack on each place" if z.stacks else ""
        out.append(f"zone       {z.name}: {'per seat' if z.per_seat else 'shared'}, "
                   f"{shape}{stacks}, {_SEEN[z.visibility]}")
    if spec.cards and spec.engine is None:
        out.append(f"zone       {S.PLAYED}: per seat, the cards chosen this round, seen by "
                   "their seat until revealed")
    for h in spec.hooks:
        out.append(f"rule fn    {h.name} = {h.module}:{h.function} (used to {h.kind})")
    if spec.engine is not None:
        return "\n".join(out)
    out.append("")
    out.append("setup" + ("" if spec.setup else ": nothing"))
    for step in spec.setup:
        out.append(_line(step.rule, step.text))
    out.append("each round")
    for phase in spec.phases:
        out.append(f"  phase {phase.name}")
        if phase.window is not None:
            w = phase.window
            kind = "simultaneous window" if w.every else "window of the active seat"
            out.append(_line(w.rule, f"{w.text}   ({kind})", 4))
        for step in phase.steps:
            out.append(_line(step.rule, step.text, 4))
    out.append("end (checked after every phase; `after N rounds` at the end of a round)")
    for e in spec.ends:
        out.append(_line(e.rule, e.text))
    return "\n".join(out)


def _stat_decl(s) -> str:
    if s.form == "of":
        return " a list of " + "/".join(s.values) + (" per " + "/".join(s.per) if s.per else "")
    if s.form == "per":
        return " a list of numbers per " + "/".join(s.per)
    if s.values and s.default_by:
        pairs = ", ".join(f"{k} {v}" for k, v in s.defaults)
        return " one of " + "/".join(s.values) + f" (default by {s.default_by}: {pairs})"
    if s.values:
        return " one of " + "/".join(s.values)
    return f" {s.low} to {s.high}" + (f" (default {s.default})" if s.default is not None else "")


_SEEN = {"hidden": "hidden (nobody sees its cards)", "owner": "seen by its seat only",
         "public": "public (every seat sees its cards)"}


def _line(rule: str, text: str, indent: int = 2) -> str:
    return f"{' ' * indent}{rule:<9} {text}"


# ---------------------------------------------------------------------------- play
class SeatView:
    """What an agent is given for one seat: its observation and its legal actions, asked
    for when wanted (a random bot never looks at the observation)."""

    def __init__(self, state, seat: str):
        self._state, self.seat = state, seat

    def observation(self) -> dict:
        return self._state.observation(self.seat)

    def legal_actions(self) -> list:
        return self._state.legal_actions(self.seat)

    def rules(self):
        """The game's own read-only window for this seat, for a bot that asks the rules
        about what the seat may know (World Gainer's SeatView); None when it has none."""
        own = getattr(self._state, "seat_view", None)
        return own(self.seat) if own is not None else None


@attrs.frozen
class GameRecord:
    seed: int
    seats: tuple
    winners: tuple
    reason: str  # the rule that decided (win_reason())
    ending: str  # what that rule says
    rounds: int  # the game's length: its rounds, or its turns for a game of turns
    actions: int


def agent_names(game) -> tuple:
    """The bots that can play ``game``: ``random`` for every game, and the game's own
    (``game.agents``: name -> a function of a seed that returns a bot)."""
    return ("random",) + tuple(n for n in getattr(game, "agents", {}) if n != "random")


def make_bots(game, names: tuple, seed: int, seats: tuple) -> dict:
    """A bot per seat: ``names`` is one name for every seat or one per seat, in seat
    order; bot i of game ``seed`` is seeded from both.  ValueError names the bots there
    are."""
    names = tuple(names) or ("random",)
    if len(names) not in (1, len(seats)):
        raise ValueError(f"give one agent for every seat or one per seat ({len(seats)}), "
                         f"not {len(names)}")
    own = getattr(game, "agents", {})
    bots = {}
    for i, seat in enumerate(seats):
        name = names[i % len(names)]
        if name == "random":
            bots[seat] = RandomBot(seed * 64 + i)
        elif name in own:
            bots[seat] = own[name](seed * 64 + i)
        else:
            raise ValueError(f"unknown agent {name!r} for {game.name}; its agents are "
                             + ", ".join(agent_names(game)))
    return bots


def play_one(game, seed: int = 0, seats: Optional[int] = None, options: Optional[dict] = None,
             agents: tuple = ("random",), record: Optional[list] = None):
    """One game of any engine-api game between bots (:func:`make_bots`), to its end: (the
    final state, its record).  ``record``, a list: each action is appended to it as
    (seat, its text), for a replay (wgdsl.tools.replay)."""
    state = game.new_state(seed=seed, seats=seats, options=options)
    bots = make_bots(game, agents, seed, tuple(state.seats))
    actions = 0
    while not state.is_terminal():
        seat = state.current_seats()[0]
        action = bots[seat].act(SeatView(state, seat))
        if record is not None:
            record.append((seat, str(action)))
        state.apply(seat, action)
        actions += 1
    data = state.to_dict()
    result = data.get("result") if isinstance(data.get("result"), dict) else {}
    ending = result.get("text") or getattr(game, "reasons", {}).get(state.win_reason(), "")
    length = data["round"] if "round" in data else data.get("turn", 0)
    return state, GameRecord(seed, tuple(state.seats), tuple(state.winners()), state.win_reason(),
                             ending, length, actions)


def play_series(game, games: int, seed: int = 0, seats: Optional[int] = None,
                options: Optional[dict] = None, agents: tuple = ("random",)) -> Iterator[GameRecord]:
    """The records of ``games`` games, game ``i`` of seed ``seed + i``."""
    for i in range(games):
        yield play_one(game, seed + i, seats, options, agents)[1]


MATCH_POINTS = 10  # GG R16.3: the first to 10 points wins the match


def play_match(game, seed: int = 0, seats: Optional[int] = None,
               options: Optional[dict] = None, agents: tuple = ("random",),
               target: int = MATCH_POINTS, max_games: int = 1000) -> Iterator[tuple]:
    """A match of several games (GETGEM, GG R16): game ``i`` of seed ``seed + i`` starts with
    the ``next_first`` of the game before; the points of each game are its terminal
    ``to_dict()["match_points"]``.  Yields ``(record, first, points, totals)`` per game
    until a seat has ``target`` points (or ``max_games`` were played).  ValueError for a
    game that keeps no match points."""
    totals: dict = {}
    first = dict(options or {}).get("first")
    for i in range(max_games):
        opts = dict(options or {})
        if first is not None:
            opts["first"] = first
        state, record = play_one(game, seed + i, seats, opts, agents)
        data = state.to_dict()
        if "match_points" not in data or "next_first" not in data:
            raise ValueError(f"{game.name} keeps no match points: --match is for games with "
                             "match scoring (GETGEM, GG R16)")
        for s, p in data["match_points"].items():
            totals[s] = totals.get(s, 0) + p
        yield record, opts.get("first", state.seats[0]), dict(data["match_points"]), dict(totals)
        first = data["next_first"]
        if max(totals.values()) >= target:
            return


def ranking(totals: dict) -> list:
    """(rank, seat, points), highest first; equal totals share a rank (GG R16.3)."""
    order = sorted(totals, key=lambda s: (-totals[s], s))
    out = []
    for i, s in enumerate(order):
        rank = out[-1][0] if out and totals[out[-1][1]] == totals[s] else i + 1
        out.append((rank, s, totals[s]))
    return out


@attrs.define
class Summary:
    """Win rates per seat, game lengths and how the games ended."""

    game: DescribedGame
    games: int = 0
    wins: Counter = attrs.Factory(Counter)  # seat -> games it won alone
    shared: Counter = attrs.Factory(Counter)  # seat -> games it won with others
    returns: Counter = attrs.Factory(Counter)  # seat -> sum of returns
    reasons: Counter = attrs.Factory(Counter)
    nobody: int = 0
    rounds: list = attrs.Factory(list)
    actions: int = 0
    seats: tuple = ()

    def add(self, r: GameRecord) -> None:
        self.games += 1
        self.seats = r.seats
        for s in r.winners:
            (self.wins if len(r.winners) == 1 else self.shared)[s] += 1
        share = 1 / len(r.winners) if r.winners else 1 / len(r.seats)
        for s in (r.winners or r.seats):
            self.returns[s] += share
        self.nobody += not r.winners
        self.reasons[(r.reason, r.ending)] += 1
        self.rounds.append(r.rounds)
        self.actions += r.actions

    def lines(self) -> list[str]:
        g = max(self.games, 1)
        out = [f"{self.games} games of {self.game.name}, {len(self.seats)} seats",
               f"  {'seat':<6} {'wins':>7} {'':>6}  {'shared':>7}  {'return':>6}"]
        for s in self.seats:
            out.append(f"  {s:<6} {self.wins[s]:>7} {self.wins[s] / g:6.1%}  {self.shared[s]:>7}  "
                       f"{self.returns[s] / g:6.3f}")
        if self.nobody:
            out.append(f"  nobody {self.nobody:>7} {self.nobody / g:6.1%}")
        if self.rounds:
            spec = getattr(self.game, "spec", None)
            unit = "rounds" if spec is not None and spec.engine is None else "turns"
            out.append(f"  {unit}: average {sum(self.rounds) / len(self.rounds):.1f}, fewest "
                       f"{min(self.rounds)}, most {max(self.rounds)}; actions: average "
                       f"{self.actions / g:.1f}")
        out.append("  how the games ended:")
        for (rule, text), n in sorted(self.reasons.items(), key=lambda item: (-item[1], item[0])):
            out.append(f"    {rule:<8} {n:>7} {n / g:6.1%}  {text}")
        return out


def result_text(state, record: Optional[GameRecord] = None) -> str:
    """How one game ended, with the rule that decided it."""
    described = state.to_dict().get("result")
    if record is not None and not (isinstance(described, dict) and "text" in described):
        won = record.winners
        who = ("Winner: " + won[0]) if len(won) == 1 else \
            ("Winners (sharing): " + ", ".join(won)) if won else "No winner"
        ending = f": {record.ending}" if record.ending else ""
        unit = "round" if "round" in state.to_dict() else "turn"
        return f"{who} — {record.reason}{ending} ({unit} {record.rounds})"
    data = state.to_dict()
    won, result = data["result"]["winners"], data["result"]
    who = ("Winner: " + won[0]) if len(won) == 1 else \
        ("Winners (sharing): " + ", ".join(won)) if won else "No winner"
    return f"{who} — {result['rule']}: {result['text']} (round {data['round']})"


# ---------------------------------------------------------------------------- cards
def spec_cards_table(spec) -> str:
    """``wgdsl cards --game GAME``: a game file's cards, one a line: id, name, English
    name, kind, stats, flags, effects, copies."""
    from wgdsl.tools.listing import table

    rows = [("id", "name", "English", "kind", "stats", "effects", "copies")]
    for c in spec.cards:
        stats = " ".join(f"{n} {S.stat_text(v)}" for n, v in c.stats)
        if c.flags:
            stats += (" " if stats else "") + "is " + ", ".join(c.flags)
        rows.append((c.id, c.name, c.name_en or "", c.kind, stats or "-",
                     " or ".join(c.effects) or "-", str(c.copies)))
    return table(rows)


def spec_card_text(spec, card, lang: str) -> str:
    """A game file's card as printed text in ``lang`` (``ja`` or ``en``): its name, kind
    and stats, then each effect's name and text (``or`` between the effects of a card its
    user picks one of)."""
    name = card.name if lang == "ja" or not card.name_en else card.name_en
    stats = " ".join(f"{n} {S.stat_text(v)}" for n, v in card.stats)
    lines = [f"{card.id} {name} [{card.kind}{' ' + stats if stats else ''}]"
             + (f" x{card.copies}" if card.copies != 1 else "")]
    for i, effect_name in enumerate(card.effects):
        e = spec.effect(effect_name)
        if i:
            lines.append("  または" if lang == "ja" else "  or")
        title = e.name_ja if lang == "ja" else e.name_en
        lines.append(f"  【{title}】{e.text_ja}" if lang == "ja" else f"  [{title}] {e.text_en}")
    if not card.effects:
        lines.append("  (効果なし)" if lang == "ja" else "  (no effect)")
    return "\n".join(lines)


def find_spec_card(spec, card_id: str):
    """(the card with this id, any letter case, or None; a did-you-mean hint)."""
    from wgdsl.lang.diagnostics import did_you_mean

    wanted = card_id.upper()
    for c in spec.cards:
        if c.id.upper() == wanted:
            return c, None
    return None, did_you_mean(wanted, [c.id for c in spec.cards])
