"""Balance sweeps: many games of any game ``load_game`` gives, across decks, seat counts,
agents and seeds, streamed to one file per shard (``wgdsl sweep``).

The plan of a sweep is a :class:`Sweep` (plain data, the manifest's ``sweep``):

- its **configurations** are every combination of a seat count (``--seats``), a deck
  matchup (World Gainer only: every ordered pair of the ``--deck`` files, mirrors
  included) and a line-up of agents (``--agent``: one name for every seat, or a comma list
  for the seats in order); game ``i`` is played in configuration ``i mod C``;
- game ``i``'s seed is :func:`game_seed` of (the sweep's seed, ``i``): a hash, so a game's
  result depends on nothing but the plan and its index, never on which process, backend or
  shard plays it;
- shard ``k`` holds games ``k*S .. k*S+S-1`` (``--shard-size S``); it is written as a whole,
  atomically (a temporary file, then ``os.replace``), as ``shard-00007.csv`` or
  ``.parquet``, so a file that exists is a finished shard and a rerun skips it.

Every game is played through engine-api.md (``new_state``, ``current_seats``,
``legal_actions``, ``apply``) by the game's own bots (``game.agents``, the ones ``wgdsl
play --agent`` names; :func:`wgdsl.tools.gamefile.make_bots`), which see only their
seat's view.  What a record holds is :data:`COLUMNS`; where the cards played and drawn
come from is :func:`cards_of`.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional, Sequence

import attrs

from wgdsl.lang.diagnostics import did_you_mean
from wgdsl.tools.gamefile import SeatView, agent_names, make_bots

MANIFEST = "manifest.json"
FORMATS = ("csv", "parquet")
INSTALL_HINT = "pip install 'wgdsl[sweep]'"
# the columns of a game record, in file order; the JSON ones are objects keyed by seat
COLUMNS = (
    ("index", "int"),        # the game's index in the sweep
    ("seed", "int"),         # game_seed(sweep seed, index): the game's new_state(seed=)
    ("config", "int"),       # the configuration it was played in (index mod C)
    ("seats", "str"),        # the seat names in turn order, comma-separated
    ("first", "str"),        # the seat that acted first
    ("decks", "json"),       # seat -> deck label ({} when the game takes no decks)
    ("agents", "json"),      # seat -> agent name
    ("options", "json"),     # the game's options ({} for its defaults)
    ("winners", "str"),      # comma-separated; empty: nobody won (a cap, a draw, a score game)
    ("returns", "json"),     # seat -> returns() (1/0, shares, or scores)
    ("win_reason", "str"),   # the rule that ended the game (win_reason())
    ("turns", "int"),        # the game's length: its turns, or rounds for a game of rounds
    ("actions", "int"),      # actions applied (answers to questions included)
    ("played", "json"),      # seat -> {card id: times played}
    ("drawn", "json"),       # seat -> {card id: times drawn}
    ("error", "str"),        # why the game stopped without a result ("" normally)
)
COLUMN_NAMES = tuple(name for name, _ in COLUMNS)
# log kinds whose text names a card the seat played / drew (World Gainer's `play`,
# GETGEM's `use` and `draw`, It's a Wonderful World's `complete` and draft `keep`, a game
# file's `reveal`); a game adds its kinds here, nothing else changes
PLAYED_KINDS = frozenset({"play", "use", "complete", "reveal"})
DRAWN_KINDS = frozenset({"draw", "keep", "take"})
_CARD_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9]+")


class SweepError(ValueError):
    """Something about the sweep the user asked for is wrong: the message says what and
    what would be right."""


# ---------------------------------------------------------------------------- the plan
@attrs.frozen
class Sweep:
    game: str
    games: int
    seed: int = 0
    seats: tuple = ()            # seat counts; () = the game's smallest
    decks: tuple = ()            # World Gainer deck files (as given); () = the built-in pair
    deck_digests: tuple = ()     # sha256 of each deck file: a changed file is another sweep
    agents: tuple = ("random",)  # line-ups: each a tuple of names (1 = every seat)
    options: tuple = ()          # (name, (values...)): each value is played in turn
    shard_size: int = 500
    format: str = "csv"

    def to_dict(self) -> dict:
        return {"game": self.game, "games": self.games, "seed": self.seed,
                "seats": list(self.seats), "decks": list(self.decks),
                "deck_digests": list(self.deck_digests),
                "agents": [list(a) for a in self.agents],
                "options": {k: list(v) for k, v in self.options}, "shard_size": self.shard_size,
                "format": self.format}

    @classmethod
    def from_dict(cls, d: dict) -> "Sweep":
        return cls(game=d["game"], games=d["games"], seed=d["seed"], seats=tuple(d["seats"]),
                   decks=tuple(d["decks"]), deck_digests=tuple(d["deck_digests"]),
                   agents=tuple(tuple(a) for a in d["agents"]),
                   options=tuple(sorted((k, tuple(v)) for k, v in d["options"].items())), shard_size=d["shard_size"],
                   format=d["format"])

    @property
    def shards(self) -> int:
        return -(-self.games // self.shard_size)

    def shard_range(self, k: int) -> range:
        return range(k * self.shard_size, min((k + 1) * self.shard_size, self.games))


def game_seed(sweep_seed: int, index: int) -> int:
    """Game ``index``'s seed: 48 bits of sha256 of both, the same in every process."""
    digest = hashlib.sha256(f"wgdsl-sweep:{sweep_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def deck_label(path: str) -> str:
    return Path(path).stem


def expand_decks(values: Sequence[str], names: Sequence[str] = ()) -> list[str]:
    """``--deck`` values: files, directories (every ``*.txt`` in them, sorted), or
    ``names``: the game's built-in decks (its ``deck_names``, Imitation World's
    ``existence-wall``)."""
    out = []
    for v in values:
        p = Path(v)
        if p.is_dir():
            found = sorted(str(f) for f in p.glob("*.txt"))
            if not found:
                raise SweepError(f"--deck {v}: a directory with no deck files (*.txt) in it")
            out += found
        elif p.is_file() or (v in names and not p.exists()):
            out.append(v)
        else:
            what = "not a file or a directory" if p.exists() else "no such file or directory"
            close = did_you_mean(v, list(names)) if names else None
            builtin = f"; {close}" if close else (
                f"; the game's built-in decks are {', '.join(names)}" if names else "")
            raise SweepError(f"--deck {v}: {what} (a deck file has one "
                             f"`COUNT ID` a line; a directory gives every *.txt in it){builtin}")
    labels = Counter(deck_label(d) for d in out)
    twice = sorted(k for k, n in labels.items() if n > 1)
    if twice:
        raise SweepError(f"--deck: two deck files named {twice[0]!r} (decks are told apart by "
                         "their file names in the records); rename one")
    return out


def option_grid(values: Sequence[str]) -> dict:
    """``--option NAME=VALUE`` values -> {name: [values]}: a name given twice or more is
    played with each of its values (``--option first=A --option first=B``)."""
    grid: dict = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SweepError(f"--option {item}: write NAME=VALUE, e.g. --option first=B")
        seen = grid.setdefault(key.strip(), [])
        if value.strip() not in seen:
            seen.append(value.strip())
    return grid


def plan(game, game_name: str, games: int, seed: int = 0, seats: Sequence[int] = (),
         decks: Sequence[str] = (), agents: Sequence[str] = (), options: Optional[dict] = None,
         shard_size: int = 500, fmt: str = "csv") -> Sweep:
    """Check a sweep's arguments against the game (SweepError says what is wrong) and
    return its plan.  ``options``: {name: [values]} (:func:`option_grid`)."""
    if games < 1:
        raise SweepError(f"--games {games}: at least 1")
    if shard_size < 1:
        raise SweepError(f"--shard-size {shard_size}: at least 1")
    if fmt not in FORMATS:
        raise SweepError(f"--format {fmt}: one of {', '.join(FORMATS)}")
    low, high = game.seat_range
    for n in seats:
        if not low <= n <= high:
            span = f"{low}" if low == high else f"{low} to {high}"
            raise SweepError(f"--seats {n}: {game.name} is played by {span} seats")
    names = tuple(getattr(game, "deck_names", ()))
    deck_files = expand_decks(decks, names)
    # a game without decks refuses them below, in its own words, as it starts a game
    digests = tuple(hashlib.sha256(Path(d).read_bytes() if Path(d).is_file()
                                   else f"built-in deck {d}".encode()).hexdigest()[:16]
                    for d in deck_files)
    known = agent_names(game)
    lineups = []
    for value in agents or ("random",):
        names = tuple(n.strip() for n in value.split(","))
        for n in names:
            if n not in known:
                raise SweepError(f"--agent {value}: no agent {n!r} for {game.name}; its agents "
                                 f"are {', '.join(known)}")
        if len(names) != 1:
            counts = seats or (low,)
            wrong = [n for n in counts if n != len(names)]
            if wrong:
                raise SweepError(f"--agent {value}: {len(names)} names, one per seat, but "
                                 f"--seats {wrong[0]}; give one name for every seat or one "
                                 "per seat")
        lineups.append(names)
    sweep = Sweep(game_name, games, seed, tuple(seats), tuple(deck_files), digests,
                  tuple(lineups), tuple(sorted((k, tuple(v)) for k, v in (options or {}).items())),
                  shard_size, fmt)
    # one game of each configuration's setup, so a bad option or deck is said now, not
    # in a worker
    for cfg in configurations(sweep):
        try:
            new_state(game, sweep, cfg, 0)
        except (ValueError, OSError) as err:
            raise SweepError(f"cannot start a game of {game.name}: {err}") from None
    return sweep


@attrs.frozen
class Config:
    seats: Optional[int]
    decks: Optional[tuple]   # deck files in seat order, or None
    agents: tuple
    options: tuple = ()      # (name, value) pairs


def configurations(sweep: Sweep) -> list[Config]:
    counts = sweep.seats or (None,)
    if sweep.decks:
        matchups = [(a, b) for a in sweep.decks for b in sweep.decks]
    else:
        matchups = [None]
    grids = [()]
    for name, values in sweep.options:
        grids = [g + ((name, v),) for g in grids for v in values]
    return [Config(n, m, a, o) for n in counts for m in matchups for a in sweep.agents
            for o in grids]


def new_state(game, sweep: Sweep, cfg: Config, seed: int, deck_cards: Optional[dict] = None):
    """Game ``seed`` of configuration ``cfg``; ``deck_cards`` (deck file -> its card ids,
    read by the command) lets a worker on another machine play decks it has no file of."""
    kwargs = {"seed": seed, "seats": cfg.seats, "options": dict(cfg.options) or None}
    if cfg.decks is not None:
        known = deck_cards or {}
        kwargs["decks"] = [list(known[d]) if d in known else d for d in cfg.decks]
    return game.new_state(**kwargs)


def deck_cards(sweep: Sweep) -> dict:
    """Each deck file of the sweep -> its card ids in file order (World Gainer's decks, R3
    checked), as ``new_state`` reads the file itself."""
    if not sweep.decks or sweep.game != "world-gainer":  # other games read their own
        return {}
    from wgdsl.games.world_gainer.decks import load_deck
    from wgdsl.lang.cards import load_cards

    library = load_cards()
    return {d: load_deck(d, library, validate=True) for d in sweep.decks}


# ---------------------------------------------------------------------------- one game
def _tokens(text: str) -> list[str]:
    return [t.split("@")[0] for t in _CARD_TOKEN.findall(text)]


def card_ids(game) -> Optional[frozenset]:
    """The card ids of a game described by a file (None: take every id-like token)."""
    spec = getattr(game, "spec", None)
    cards = getattr(spec, "cards", None)
    return frozenset(c.id for c in cards) if cards else None


# what the records read of a game, worked out once per game object in a process:
# id(game) -> (the game, its card_ids, {log text: the card ids it names, in order});
# the texts repeat game after game ("reveals R-10", "plays XX-005 to C2"), so each is
# read with the regex once
_READERS: dict = {}
_MEMO_LIMIT = 200_000  # texts remembered per game before starting again
_KINDS = PLAYED_KINDS | DRAWN_KINDS


def _reader(game) -> tuple:
    entry = _READERS.get(id(game))
    if entry is None or entry[0] is not game:
        entry = _READERS[id(game)] = (game, card_ids(game), {})
    return entry


def _openings(state) -> dict:
    """seat -> (its opening hand, its stock if the game shows one in to_dict()), from
    one to_dict() for every seat."""
    data = state.to_dict()
    players = data.get("players")
    out = {}
    for seat in state.seats:
        mine = players.get(seat) if isinstance(players, dict) else None
        if isinstance(mine, dict) and isinstance(mine.get("stock"), list):
            out[seat] = list(mine.get("hand") or []), list(mine["stock"])
        else:
            hand = state.observation(seat).get("hand")
            out[seat] = ([c for c in hand if isinstance(c, str)]
                         if isinstance(hand, list) else []), None
    return out


def cards_of(game, state, opening: dict, final: Optional[dict] = None) -> tuple[dict, dict]:
    """(played, drawn): seat -> Counter of card ids, from the finished game.

    Played: the cards named by the seat's log entries of a :data:`PLAYED_KINDS` kind.
    Drawn: a game that keeps each seat's stock in ``to_dict()`` (World Gainer, whose log
    says only "draws a card") — every card that left the seat's stock, its opening hand
    included; any other game — its opening hand (``observation(seat)["hand"]``) and the
    cards its :data:`DRAWN_KINDS` log entries name.  ``final``: the finished state's
    ``to_dict()``, when the caller has it (else it is asked for when a stock needs it)."""
    _, ids, memo = _reader(game)
    played = {s: [] for s in state.seats}
    # the seats whose draws the log tells (a seat with a stock: its stock tells them)
    from_log = {s: [] for s in state.seats if opening[s][1] is None}
    events = state.log_of(_KINDS) if hasattr(state, "log_of") else state.log
    for e in events:
        kind = e.get("kind")
        if kind not in _KINDS:
            continue
        out = (played if kind in PLAYED_KINDS else from_log).get(e.get("seat"))
        if out is None:
            continue
        text = e.get("text", "")
        found = memo.get(text)
        if found is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            found = memo[text] = tuple(t for t in _tokens(text) if ids is None or t in ids)
        if kind in PLAYED_KINDS:
            if found:
                out.append(found[0])  # the card played is the first one named
        else:
            out.extend(found)
    drawn = {}
    players = None
    for seat, (hand, stock) in opening.items():
        if stock is not None:
            if players is None:
                players = (final if final is not None else state.to_dict()).get("players")
            if isinstance(players, dict):
                left = Counter(hand) + Counter(stock)
                left.subtract(Counter(players[seat].get("stock", [])))
                drawn[seat] = +left
                continue
        drawn[seat] = Counter(from_log.get(seat, ()))
        drawn[seat].update(hand)
    return {s: Counter(c) for s, c in played.items()}, drawn


# one encoder for every record (json.dumps with options builds one a call)
_json = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def play_game(game, sweep: Sweep, index: int, configs: Optional[list] = None,
              decks: Optional[dict] = None, max_actions: int = 200_000) -> dict:
    """Game ``index`` of the sweep, played to its end: its record (:data:`COLUMNS`).
    ``decks``: :func:`deck_cards` (read from the files when not given)."""
    configs = configs or configurations(sweep)
    cfg = configs[index % len(configs)]
    seed = game_seed(sweep.seed, index)
    state = new_state(game, sweep, cfg, seed, decks)
    seats = tuple(state.seats)
    bots = make_bots(game, cfg.agents, seed, seats)
    opening = _openings(state)
    first = state.current_seats()[0] if not state.is_terminal() else ""
    actions, error = 0, ""
    acts = {s: (bots[s].act, SeatView(state, s)) for s in seats}
    is_terminal, current_seats, apply = state.is_terminal, state.current_seats, state.apply
    try:
        while not is_terminal():
            if actions >= max_actions:
                error = f"stopped after {max_actions} actions"
                break
            seat = current_seats()[0]
            act, view = acts[seat]
            apply(seat, act(view))
            actions += 1
    except Exception as err:  # a game that cannot go on is a record too, not a lost shard
        error = f"{type(err).__name__}: {err}"
    data = state.to_dict()
    length = data.get("turn", data.get("round", 0))
    done = state.is_terminal()
    played, drawn = cards_of(game, state, opening, data)
    names = {s: cfg.agents[i % len(cfg.agents)] for i, s in enumerate(seats)}
    decks = {s: deck_label(d) for s, d in zip(seats, cfg.decks)} if cfg.decks else {}
    if not decks and game.id == "world-gainer":  # its built-in pair
        from wgdsl.games.world_gainer.api import DEFAULT_DECKS

        decks = {s: deck_label(d) for s, d in zip(seats, DEFAULT_DECKS)}
    return {
        "index": index, "seed": seed, "config": index % len(configs),
        "seats": ",".join(seats), "first": first, "decks": _json(decks),
        "agents": _json(names), "options": _json(dict(cfg.options)),
        "winners": ",".join(state.winners()) if done else "",
        "returns": _json(state.returns() if done else {}),
        "win_reason": state.win_reason() if done else "",
        "turns": int(length or 0), "actions": actions,
        "played": _json(played),  # sort_keys: every seat's ids in order
        "drawn": _json(drawn),
        "error": error,
    }


_GAMES: dict = {}


def _game(name: str):
    if name not in _GAMES:
        from wgdsl.games import load_game

        _GAMES[name] = load_game(name)
    return _GAMES[name]


def payload(sweep: Sweep) -> dict:
    """What a worker is sent: the plan, and the decks' card ids (no file read there)."""
    return {"sweep": sweep.to_dict(), "decks": deck_cards(sweep)}


def run_shard(data: dict, shard: int) -> tuple[int, list]:
    """The records of one shard (what a worker runs: plain data in, plain data out)."""
    sweep = Sweep.from_dict(data["sweep"])
    game = _game(sweep.game)
    configs = configurations(sweep)
    return shard, [play_game(game, sweep, i, configs, data["decks"])
                   for i in sweep.shard_range(shard)]


def _quiet_worker() -> None:
    """A pool worker leaves Ctrl-C to the command (which stops the sweep)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


# ---------------------------------------------------------------------------- files
def shard_path(out: Path, shard: int, fmt: str) -> Path:
    return out / f"shard-{shard:05d}.{fmt}"


def _ray_module():
    import ray

    return ray


def _pyarrow_module():
    import pyarrow

    return pyarrow


def _parquet_module():
    import pyarrow.parquet

    return pyarrow.parquet


_OPTIONAL = {"ray": _ray_module, "pyarrow": _pyarrow_module, "pyarrow.parquet": _parquet_module}


def need(module: str, what: str):
    """Import an optional package (ray, pyarrow, pyarrow.parquet) or say what to install."""
    try:
        return _OPTIONAL[module]()
    except ImportError:
        raise SweepError(f"{what} needs the package {module.split('.')[0]}, which is not "
                         f"installed: {INSTALL_HINT}") from None


def write_shard(out: Path, shard: int, records: list, fmt: str) -> Path:
    """Write a shard atomically: a temporary file in the same directory, then a rename."""
    final = shard_path(out, shard, fmt)
    tmp = out / f".{final.name}.tmp-{os.getpid()}"
    try:
        if fmt == "csv":
            with open(tmp, "w", newline="", encoding="utf-8") as f:
                w = csv.DictWriter(f, fieldnames=COLUMN_NAMES)
                w.writeheader()
                w.writerows(records)
                f.flush()
                os.fsync(f.fileno())
        else:
            pa = need("pyarrow", "--format parquet")
            pq = need("pyarrow.parquet", "--format parquet")
            types = {"int": pa.int64(), "str": pa.string(), "json": pa.string()}
            schema = pa.schema([(n, types[t]) for n, t in COLUMNS])
            pq.write_table(pa.Table.from_pylist(records, schema=schema), tmp)
        os.replace(tmp, final)
    finally:
        if tmp.exists():
            tmp.unlink()
    return final


def read_shard(path: Path) -> Iterator[dict]:
    """The records of a shard file, with the int columns as ints."""
    ints = [n for n, t in COLUMNS if t == "int"]
    if path.suffix == ".csv":
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                for n in ints:
                    row[n] = int(row[n])
                yield row
    else:
        pq = need("pyarrow.parquet", f"reading {path.name}")
        yield from pq.read_table(path).to_pylist()


def read_records(out: Path) -> Iterator[dict]:
    """Every record of a sweep directory, shard by shard in index order."""
    for path in sorted(out.glob("shard-*.*")):
        if path.suffix in (".csv", ".parquet"):
            yield from read_shard(path)


def check_manifest(out: Path, sweep: Sweep) -> None:
    """Write the manifest of a new sweep, or refuse a directory holding another sweep."""
    path = out / MANIFEST
    want = {"wgdsl_sweep": 1, "sweep": sweep.to_dict()}
    if path.exists():
        try:
            have = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise SweepError(f"{path}: not a sweep manifest ({err}); give another --out "
                             "directory") from None
        old = have.get("sweep", {}) if isinstance(have, dict) else {}
        diff = [k for k in want["sweep"] if old.get(k) != want["sweep"][k]]
        if diff:
            lines = [f"  {k}: this directory has {old.get(k)!r}, the command gives "
                     f"{want['sweep'][k]!r}" for k in diff]
            raise SweepError(
                f"{out} holds another sweep (its {MANIFEST} differs):\n" + "\n".join(lines)
                + "\n  rerun with the same arguments to resume it, or give another --out "
                "directory for a new sweep")
        return
    if any(out.glob("shard-*")):
        raise SweepError(f"{out} has shard files but no {MANIFEST}: not a sweep this command "
                         "can resume; give another --out directory")
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f".{MANIFEST}.tmp-{os.getpid()}"
    tmp.write_text(json.dumps(want, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def load_manifest(out: Path) -> Sweep:
    path = out / MANIFEST
    try:
        return Sweep.from_dict(json.loads(path.read_text(encoding="utf-8"))["sweep"])
    except FileNotFoundError:
        raise SweepError(f"{out}: no {MANIFEST}: not a sweep directory (`wgdsl sweep --out "
                         "DIR` makes one)") from None
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise SweepError(f"{path}: not a sweep manifest ({err})") from None


# ---------------------------------------------------------------------------- backends
def _local(sweep: Sweep, todo: list, workers: int) -> Iterator[tuple[int, list]]:
    data = payload(sweep)
    if workers == 1:
        for k in todo:
            yield run_shard(data, k)
        return
    import concurrent.futures as cf
    import multiprocessing

    ctx = multiprocessing.get_context("forkserver" if sys.platform != "win32" else "spawn")
    pool = cf.ProcessPoolExecutor(max_workers=min(workers, len(todo) or 1), mp_context=ctx,
                                  initializer=_quiet_worker)
    finished = False
    try:
        futures = [pool.submit(run_shard, data, k) for k in todo]
        for f in cf.as_completed(futures):
            yield f.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:  # interrupted or failed: the shards in progress are not wanted any more
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.terminate()
            pool.shutdown(wait=False, cancel_futures=True)


def _ray(sweep: Sweep, todo: list, workers: Optional[int], address: Optional[str]
         ) -> Iterator[tuple[int, list]]:
    ray = need("ray", "--backend ray")
    started = False
    if not ray.is_initialized():
        kwargs = {"include_dashboard": False, "log_to_driver": False,
                  "configure_logging": False}
        if address:
            kwargs["address"] = address
        elif workers:
            kwargs["num_cpus"] = workers
        try:
            ray.init(**kwargs)
        except Exception as err:
            raise SweepError(f"cannot start or reach Ray{' at ' + address if address else ''}:"
                             f" {err}") from None
        started = True
    try:
        remote = ray.remote(run_shard)
        data = ray.put(payload(sweep))
        pending = [remote.remote(data, k) for k in todo]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def run(sweep: Sweep, out: Path, backend: str = "local", workers: Optional[int] = None,
        address: Optional[str] = None,
        on_shard: Optional[Callable[[int, int], None]] = None) -> dict:
    """Play the shards of ``sweep`` not yet in ``out`` and write each as it finishes.
    ``on_shard(shard, games)`` is called after each write.  Returns what was done."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SweepError(f"--out {out}: a file, not a directory")
    check_manifest(out, sweep)
    for stale in out.glob(".shard-*.tmp-*"):  # a write interrupted by a kill
        stale.unlink()
    todo = [k for k in range(sweep.shards) if not shard_path(out, k, sweep.format).exists()]
    skipped = sweep.shards - len(todo)
    if backend == "local":
        stream = _local(sweep, todo, workers or os.cpu_count() or 1)
    elif backend == "ray":
        stream = _ray(sweep, todo, workers, address)
    else:
        raise SweepError(f"--backend {backend}: local or ray")
    played = 0
    start = time.monotonic()
    for shard, records in stream:
        write_shard(out, shard, records, sweep.format)
        played += len(records)
        if on_shard is not None:
            on_shard(shard, len(records))
    return {"shards": sweep.shards, "skipped": skipped, "written": len(todo),
            "games_played": played, "seconds": time.monotonic() - start}


class Progress:
    """A progress bar on stderr: games done of the total, games/s and the time left.
    Silent when stderr is not a terminal or ``quiet``."""

    def __init__(self, total: int, done: int = 0, quiet: bool = False, stream=None):
        self.stream = stream or sys.stderr
        self.on = not quiet and self.stream.isatty()
        self.total, self.done, self.start_done = total, done, done
        self.start = time.monotonic()

    def update(self, n: int) -> None:
        self.done += n
        if not self.on:
            return
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = (self.done - self.start_done) / elapsed
        left = (self.total - self.done) / rate if rate > 0 else 0
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        self.stream.write(f"\rsweep [{'#' * filled}{'-' * (width - filled)}] {self.done}/"
                          f"{self.total} games  {rate:,.0f} games/s  ETA {_duration(left)}  ")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def shards_done(out: Path, sweep: Sweep) -> int:
    return sum(len(sweep.shard_range(k)) for k in range(sweep.shards)
               if shard_path(out, k, sweep.format).exists())


def iter_json_column(records: Iterable[dict], column: str) -> Iterator[dict]:
    for r in records:
        yield json.loads(r[column]) if isinstance(r[column], str) else r[column]
