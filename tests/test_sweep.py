"""`wgdsl sweep`: the same games whatever runs them, resuming, refusals, the statistics.

Small sweeps (tens of games) so the file stays fast; the Ray test starts a local Ray with
2 workers and is skipped when Ray is not installed (CI installs it: .ci/run)."""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import wgdsl
from wgdsl.cli import main
from wgdsl.tools import sweep as S
from wgdsl.tools import sweep_report as R

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "examples" / "decks"


def records(out: Path) -> list:
    return sorted(S.read_records(out), key=lambda r: r["index"])


def sweep_of(game="getgem", games=24, shard=5, **kw):
    g = wgdsl.load_game(game)
    return S.plan(g, game, games, seed=kw.pop("seed", 3), shard_size=shard, **kw)


def run(cli_args, **kw):
    return CliRunner().invoke(main, cli_args, **kw)


# ------------------------------------------------------------ the same games everywhere
def test_same_records_for_any_worker_count_and_shard_size(tmp_path):
    a = sweep_of(games=21, shard=4, seats=(2, 3), agents=("random", "greedy"))
    b = sweep_of(games=21, shard=8, seats=(2, 3), agents=("random", "greedy"))
    S.run(a, tmp_path / "a", workers=1)
    S.run(b, tmp_path / "b", workers=2)
    ra, rb = records(tmp_path / "a"), records(tmp_path / "b")
    assert len(ra) == 21 and [r["index"] for r in ra] == list(range(21))
    assert ra == rb
    # the configurations really vary: both seat counts and both line-ups were played
    assert {r["seats"] for r in ra} == {"A,B", "A,B,C"}
    assert {tuple(sorted(set(json.loads(r["agents"]).values()))) for r in ra} == \
        {("random",), ("greedy",)}
    # another sweep seed gives other games
    c = sweep_of(games=21, shard=8, seats=(2, 3), agents=("random", "greedy"), seed=4)
    S.run(c, tmp_path / "c", workers=1)
    assert [r["seed"] for r in records(tmp_path / "c")] != [r["seed"] for r in ra]


def test_an_option_given_twice_is_played_with_each_value(tmp_path):
    sw = sweep_of(games=8, shard=3, options=S.option_grid(["first=A", "first=B", "first=B"]))
    S.run(sw, tmp_path / "s", workers=1)
    rs = records(tmp_path / "s")
    assert [r["first"] for r in rs] == ["A", "B"] * 4
    assert all(json.loads(r["options"]) == {"first": r["first"]} for r in rs)
    _, _, data = R.write(tmp_path / "s")
    assert data["first_player"]["wins"] == sum(r["first"] == r["winners"] for r in rs)


def test_world_gainer_decks_every_ordered_pair(tmp_path):
    sw = S.plan(wgdsl.load_game("world-gainer"), "world-gainer", 9, seed=1, shard_size=5,
                decks=(str(DECKS),))
    S.run(sw, tmp_path / "wg", workers=2)
    rs = records(tmp_path / "wg")
    pairs = {(json.loads(r["decks"])["A"], json.loads(r["decks"])["B"]) for r in rs}
    names = sorted(p.stem for p in DECKS.glob("*.txt"))
    assert pairs == {(a, b) for a in names for b in names}
    for r in rs:
        assert r["first"] == "A" and r["win_reason"] and r["winners"] in ("A", "B")
        drawn = json.loads(r["drawn"])
        if r["win_reason"] == "R12.3":  # the loser drew from an empty stock: it drew it all
            loser = "B" if r["winners"] == "A" else "A"
            deck = DECKS / (json.loads(r["decks"])[loser] + ".txt")
            whole = Counter()
            for line in deck.read_text().splitlines():
                line = line.split("#")[0].split()
                if line:
                    whole[line[1]] += int(line[0])
            assert drawn[loser] == dict(whole)


def test_imitation_world_decks_by_their_built_in_names(tmp_path):
    # IW R4.7: the reference decks are named; every ordered pair of the three is played
    game = wgdsl.load_game("imitation-world")
    names = ("existence-wall", "fantasy-dreams", "mask-two-faces")
    sw = S.plan(game, "imitation-world", 9, seed=3, shard_size=5, decks=names)
    S.run(sw, tmp_path / "iw", workers=1)
    rs = records(tmp_path / "iw")
    pairs = {(json.loads(r["decks"])["A"], json.loads(r["decks"])["B"]) for r in rs}
    assert pairs == {(a, b) for a in names for b in names}
    assert all(r["win_reason"] in ("R20.1", "R20.2") and not r["error"] for r in rs)
    with pytest.raises(S.SweepError, match="did you mean `existence-wall`"):
        S.plan(game, "imitation-world", 2, decks=("existence-wal",))
    # a game without decks refuses them in its own words (GG R18.2)
    with pytest.raises(S.SweepError, match="R18.2"):
        S.plan(wgdsl.load_game("getgem"), "getgem", 2, decks=(str(DECKS),))


def _log_count(game, state, opening: dict) -> tuple[dict, dict]:
    """The cards played and drawn, counted here from the log as cards_of's docstring says
    (no memo, no early skips): a played kind's entry adds the first card id its text
    names, a drawn kind's every one; a seat with a stock drew what left it."""
    import re

    cards = getattr(getattr(game, "spec", None), "cards", None)  # a game file's cards
    ids = {c.id for c in cards} if cards else None
    played = {s: Counter() for s in state.seats}
    drawn = {s: Counter(opening[s][0]) for s in state.seats}
    for e in state.log:
        names = [t.split("@")[0] for t in re.findall(r"[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9]+",
                                                     e["text"])]
        names = [t for t in names if ids is None or t in ids]
        if e["kind"] in S.PLAYED_KINDS:
            played[e["seat"]].update(names[:1])
        elif e["kind"] in S.DRAWN_KINDS and opening[e["seat"]][1] is None:
            drawn[e["seat"]].update(names)
    final = state.to_dict().get("players")
    for s, (hand, stock) in opening.items():
        if stock is not None:
            drawn[s] = +(Counter(hand) + Counter(stock) - Counter(final[s]["stock"]))
    return played, drawn


@pytest.mark.parametrize("name,seats,draws", [
    ("world-gainer", None, True), ("getgem", 3, True), ("imitation-world", None, True),
    (str(ROOT / "examples" / "games" / "war.game"), 2, False)])  # war reveals, never draws
def test_the_cards_counted_are_the_ones_the_log_names(monkeypatch, name, seats, draws):
    # cards_of reads each log text once per process (a memo): a second game with the
    # same texts, and a memo that forgets every text at once, count the same cards
    from wgdsl.tools.gamefile import SeatView, make_bots

    game = wgdsl.load_game(name)
    named = Counter()
    for seed in range(3):
        state = game.new_state(seed=seed, seats=seats)
        opening = S._openings(state)
        bots = make_bots(game, ("random",), seed, tuple(state.seats))
        while not state.is_terminal():
            seat = state.current_seats()[0]
            state.apply(seat, bots[seat].act(SeatView(state, seat)))
        want = _log_count(game, state, opening)
        named.update(played=sum(sum(c.values()) for c in want[0].values()),
                     drawn=sum(sum(c.values()) for c in want[1].values()))
        assert S.cards_of(game, state, opening) == want
        assert S.cards_of(game, state, opening, state.to_dict()) == want
        monkeypatch.setattr(S, "_MEMO_LIMIT", 1)
        assert S.cards_of(game, state, opening) == want
        monkeypatch.undo()
    assert named["played"] and bool(named["drawn"]) == draws  # the games named cards


def installed(module: str) -> bool:
    try:
        S.need(module, "this test")
        return True
    except S.SweepError:
        return False


def test_world_gainer_greedy_plays_through_the_public_interface(tmp_path):
    # the greedy agent (agents.py) as an engine-api bot: it wins on points or squares in
    # a few turns, where random play always runs a stock out (R12.3) after 60 or more
    sw = S.plan(wgdsl.load_game("world-gainer"), "world-gainer", 6, seed=2, shard_size=6,
                agents=("greedy",))
    S.run(sw, tmp_path / "g", workers=1)
    rs = records(tmp_path / "g")
    assert all(r["win_reason"] in ("R12.1", "R12.2") and r["turns"] < 40 for r in rs), \
        [(r["win_reason"], r["turns"]) for r in rs]
    assert all(json.loads(r["agents"]) == {"A": "greedy", "B": "greedy"} for r in rs)


ray = installed("ray")


@pytest.mark.skipif(not ray, reason="Ray is not installed (pip install 'wgdsl[sweep]')")
def test_ray_gives_the_same_records_as_the_pool(tmp_path):
    sw = sweep_of(games=12, shard=5)
    S.run(sw, tmp_path / "pool", workers=1)
    S.run(sw, tmp_path / "ray", backend="ray", workers=2)
    assert records(tmp_path / "ray") == records(tmp_path / "pool")


pyarrow = installed("pyarrow")


@pytest.mark.skipif(not pyarrow, reason="pyarrow is not installed")
def test_parquet_holds_what_csv_holds(tmp_path):
    S.run(sweep_of(games=10, shard=4), tmp_path / "csv", workers=1)
    S.run(sweep_of(games=10, shard=4, fmt="parquet"), tmp_path / "pq", workers=1)
    assert sorted(p.name for p in (tmp_path / "pq").glob("shard-*")) == \
        [f"shard-0000{i}.parquet" for i in range(3)]
    assert records(tmp_path / "pq") == records(tmp_path / "csv")


# ------------------------------------------------------------ resuming
def test_a_rerun_plays_only_the_missing_shards(tmp_path):
    sw = sweep_of(games=20, shard=5)
    out = tmp_path / "s"
    S.run(sw, out, workers=1)
    before = records(out)
    kept = {p.name: p.stat().st_mtime_ns for p in out.glob("shard-*")}
    (out / "shard-00002.csv").unlink()  # as if the sweep was killed before writing it
    (out / ".shard-00003.csv.tmp-999").write_text("half a shard")  # a write cut short
    done = S.run(sw, out, workers=2)
    assert done["written"] == 1 and done["skipped"] == 3 and done["games_played"] == 5
    assert not list(out.glob(".shard-*"))
    for name, mtime in kept.items():
        if name != "shard-00002.csv":
            assert (out / name).stat().st_mtime_ns == mtime  # not rewritten
    assert records(out) == before


def test_an_interrupted_sweep_resumes_where_it_stopped(tmp_path):
    sw = sweep_of(games=20, shard=5)
    out = tmp_path / "s"
    seen = []

    def stop_after_two(shard, n):
        seen.append(shard)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        S.run(sw, out, workers=1, on_shard=stop_after_two)
    assert len(list(out.glob("shard-*.csv"))) == 2
    played = []
    done = S.run(sw, out, workers=1, on_shard=lambda shard, n: played.append(shard))
    assert sorted(played) == [2, 3] and done["games_played"] == 10
    fresh = tmp_path / "fresh"
    S.run(sw, fresh, workers=1)
    assert records(out) == records(fresh)


def test_a_rerun_with_other_parameters_is_refused(tmp_path):
    out = tmp_path / "s"
    args = ["sweep", "--game", "getgem", "--games", "6", "--out", str(out), "--quiet",
            "--no-report"]
    assert run(args).exit_code == 0
    manifest = (out / "manifest.json").read_text()
    r = run(args[:4] + ["7"] + args[5:] + ["--seed", "1"])
    assert r.exit_code == 2
    assert "holds another sweep" in r.output
    assert "games: this directory has 6, the command gives 7" in r.output
    assert "seed: this directory has 0, the command gives 1" in r.output
    assert (out / "manifest.json").read_text() == manifest
    # the same command again is a resume, not a refusal; workers and backend may change
    assert run(args + ["--workers", "2"]).exit_code == 0


# ------------------------------------------------------------ statistics
def test_wilson_interval_from_the_formula():
    # 8 of 10, z = 1.96, by hand: p = 0.8, z^2 = 3.8416
    # centre = 0.8 + 3.8416 / 20 = 0.99208
    # half   = 1.96 * sqrt(0.16 / 10 + 3.8416 / 400) = 1.96 * sqrt(0.025604) = 0.313624
    # denom  = 1 + 3.8416 / 10 = 1.38416
    low, high = R.wilson(8, 10)
    assert abs(low - (0.99208 - 0.313624) / 1.38416) < 1e-4  # 0.49016
    assert abs(high - (0.99208 + 0.313624) / 1.38416) < 1e-4  # 0.94332
    # none of 10: [0, z^2/n / (1 + z^2/n)] = [0, 0.38416 / 1.38416]
    low, high = R.wilson(0, 10)
    assert low == 0 and abs(high - 0.38416 / 1.38416) < 1e-4
    # 50 of 100: symmetric around 0.5; half = 1.96 * sqrt(0.0025 + 3.8416 / 40000) / 1.038416
    low, high = R.wilson(50, 100)
    half = 1.96 * math.sqrt(0.0025 + 3.8416 / 40000) / 1.038416
    assert abs(low - (0.5 - half)) < 1e-4 and abs(high - (0.5 + half)) < 1e-4


def test_games_needed_from_the_formula():
    # 50 % against 60 %: q = 0.55; (1.96 * sqrt(2 * 0.55 * 0.45) + 0.8416 * sqrt(0.25 + 0.24))^2
    # = (1.96 * 0.703562 + 0.8416 * 0.7)^2 = (1.378981 + 0.58912)^2 = 3.873422; / 0.01
    assert R.games_needed(0.5, 0.1) == math.ceil(3.873422 / 0.01)  # 388
    assert R.games_needed(0.5, 0.0) is None and R.games_needed(0.95, 0.1) is None
    assert R.games_needed(0.5, 0.05) > 4 * R.games_needed(0.5, 0.1) * 0.9  # ~ 1/d^2


def test_report_counts_what_the_records_hold(tmp_path):
    out = tmp_path / "s"
    S.run(sweep_of(games=30, shard=10, seats=(2, 3)), out, workers=1)
    rs = records(out)
    _, hpath, data = R.write(out)
    assert data["games"] == 30 and data["complete"]
    first_wins = sum(r["first"] in r["winners"].split(",") for r in rs)
    assert data["first_player"]["wins"] == first_wins
    assert data["first_player"]["games"] == 30
    for seat in "ABC":
        games_with = [r for r in rs if seat in r["seats"].split(",")]
        assert data["seats"][seat]["games"] == len(games_with)
        assert data["seats"][seat]["wins"] == sum(seat in r["winners"].split(",") for r in games_with)
    assert sum(v["games"] for v in data["win_reasons"].values()) == 30
    assert set(data["configurations"]) == {"0", "1"}  # 2 and 3 seats
    for k, c in data["configurations"].items():
        mine = [r for r in rs if r["config"] == int(k)]
        assert c["games"] == len(mine) and c["seats"] == mine[0]["seats"]
        assert c["win_rate"]["A"]["wins"] == sum("A" in r["winners"].split(",") for r in mine)
    assert sum(data["length"]["histogram"].values()) == 30
    page = hpath.read_text()
    assert "<svg" in page and "First-player advantage" in page
    assert "http" not in page.replace("http://www.w3.org", "") and "<script" not in page
    assert json.loads((out / "report.json").read_text())["games"] == 30


def test_cli_sweep_world_gainer_reports_the_first_player_and_the_win_rule(tmp_path):
    out = tmp_path / "wg"
    r = run(["sweep", "--games", "12", "--shard-size", "4", "--workers", "2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "first player wins" in r.output and "ended by R12.3" in r.output
    r2 = run(["sweep", "report", str(out), "--delta", "0.1"])
    assert r2.exit_code == 0 and r2.output.splitlines()[0] == "12 games of world-gainer"


# ------------------------------------------------------------ bad arguments
@pytest.mark.parametrize("args, message", [
    (["--games", "5"], "needs --games N and --out DIR"),
    (["--games", "5", "--out", "X", "--agent", "clever"], "no agent 'clever'"),
    (["--games", "5", "--out", "X", "--seats", "3"], "played by 2 seats"),
    (["--games", "5", "--out", "X", "--game", "getgem", "--deck", str(DECKS)],
     "there are no decks (decks= must be None, GG R18.2)"),
    (["--games", "5", "--out", "X", "--deck", "nowhere.txt"], "no such file or directory"),
    (["--games", "5", "--out", "X", "--game", "getgem", "--agent", "random,greedy,random"],
     "3 names, one per seat"),
    (["--games", "5", "--out", "X", "--option", "colour=red"], "unknown option"),
    (["--games", "5", "--out", "X", "--option", "first"], "write NAME=VALUE"),
    (["--games", "5", "--out", "X", "--option", "first=C"], "option first"),
    (["--games", "5", "--out", "X", "--address", "ray://h:1"], "--address is Ray's"),
    (["--games", "5", "--out", "X", "--game", "nogame"], "unknown game"),
])
def test_bad_arguments_are_usage_errors(tmp_path, args, message):
    args = [str(tmp_path / a) if a == "X" else a for a in args]
    r = run(["sweep"] + args)
    assert r.exit_code == 2, r.output
    assert message in r.output
    assert "Traceback" not in r.output
    assert not (tmp_path / "X").exists()  # nothing written for a refused sweep


@pytest.mark.parametrize("module, args", [
    ("ray", ["--backend", "ray"]), ("pyarrow", ["--format", "parquet"])])
def test_a_missing_optional_package_says_what_to_install(tmp_path, monkeypatch, module, args):
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    r = run(["sweep", "--games", "4", "--out", str(tmp_path / "s")] + args)
    assert r.exit_code == 2
    assert f"needs the package {module}" in r.output and "pip install 'wgdsl[sweep]'" in r.output


def test_report_of_a_directory_that_is_no_sweep(tmp_path):
    r = run(["sweep", "report", str(tmp_path)])
    assert r.exit_code == 2 and "not a sweep directory" in r.output
