"""Replays: `wgdsl play --record FILE` and `wgdsl replay FILE -o PAGE.html`.

The record's re-run is checked against states built here through the public interface
(load_game, new_state, parse_action, apply, to_dict, log), step by step, for every game;
the recorded game against what `wgdsl play` printed without --record; bad records
against their messages and places.  The page itself is opened in a real headless
Chromium (the system's package; skipped with the reason when it is absent): its DOM
after the scripts ran at a known step, its step controls clicked and its keys pressed
through the page's own fragment hook, and a screenshot compared on content (the board's
squares painted by who holds them).
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest

import wgdsl
from cli_helpers import cli, no_traceback

ROOT = Path(__file__).resolve().parents[1]
WAR = str(ROOT / "examples/games/war.game")
GAMES = {  # game -> (seed, seats, options): quick games; the World Gainer one asks questions
    "world-gainer": (3, 2, ()),
    "getgem": (2, 3, ()),
    "wonderful-world": (2, 2, ()),
    WAR: (2, 2, ("--option", "rounds=60")),
    str(ROOT / "examples/games/rock-paper-scissors.game"): (2, 2, ()),
}


def _record(tmp_path, game: str, seed: int, seats: int, extra=()) -> Path:
    path = tmp_path / "game.json"
    args = ["play", "--seed", seed, "--record", path, "--no-log", *extra]
    if game != "world-gainer":
        args += ["--game", game, "--seats", seats]
    result = cli(*args)
    no_traceback(result)
    assert result.exit_code == 0, result.output
    return path


def _page(tmp_path, record: Path) -> Path:
    out = tmp_path / "game.html"
    result = cli("replay", record, "-o", out)
    no_traceback(result)
    assert result.exit_code == 0, result.output
    return out


def _embedded(page: Path) -> dict:
    """The re-run the page carries (its <script type="application/json">), every step's
    board rebuilt here from step 0's and the patches (wgdsl.tools.replay.patch)."""
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', text,
                      re.S)
    replay = json.loads(found.group(1))
    steps = replay["steps"]
    for before, step in zip(steps, steps[1:]):
        board = json.loads(json.dumps(before["board"]))
        for op in step.pop("patch"):
            *keys, last = op[0] or [None]
            where = board
            for key in keys:
                where = where[key]
            if last is None:
                board = op[1]
            elif len(op) == 2:
                where[last] = op[1]
            else:
                del where[last]
        step["board"] = board
    return replay


def _fresh_state(record: dict):
    """A new state for the record's game, built here from its fields."""
    game = wgdsl.load_game(record["game"])
    kwargs = {"seed": record["seed"], "seats": record["seats"], "options": record["options"]}
    if record["cards"] is not None:
        kwargs["cards"] = record["cards"]
    if record["decks"] is not None:
        kwargs["decks"] = record["decks"]
    return game.new_state(**kwargs)


# ------------------------------------------------------------------ record and re-run
@pytest.mark.parametrize("game", list(GAMES), ids=lambda g: Path(g).stem)
def test_every_step_of_the_page_is_the_state_after_that_many_actions(tmp_path, game):
    record_path = _record(tmp_path, game, *GAMES[game])
    record = json.loads(record_path.read_text(encoding="utf-8"))
    replay = _embedded(_page(tmp_path, record_path))
    steps = replay["steps"]
    assert len(steps) == len(record["actions"]) + 1 > 1
    state = _fresh_state(record)
    assert steps[0]["board"] == state.to_dict() and steps[0]["action"] is None
    for k, item in enumerate(record["actions"], start=1):
        before = state.log
        state.apply(item["seat"], state.parse_action(item["seat"], item["action"]))
        step = steps[k]
        assert (step["seat"], step["action"]) == (item["seat"], item["action"])
        assert step["board"] == state.to_dict(), f"step {k}"
        assert step["current"] == list(state.current_seats()), f"step {k}"
        log = state.log
        if "entries" in step["log"]:
            assert step["log"]["entries"] == log
        else:  # the entries this action added are the slice the page highlights
            assert log[:len(before)] == before
            assert replay["log"][step["log"]["from"]:step["log"]["to"]] == log[len(before):]
            assert replay["log"][:step["log"]["to"]] == log
    assert state.is_terminal() and steps[-1]["terminal"]
    assert steps[-1]["winners"] == list(state.winners())
    assert steps[-1]["reason"] == state.win_reason()


def test_a_record_has_the_keys_docs_json_md_lists(tmp_path):
    record = json.loads(_record(tmp_path, "getgem", *GAMES["getgem"]).read_text(encoding="utf-8"))
    doc = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Replay record"):doc.index("## Shared objects")]
    listed = set(re.findall(r"^\| `(\w+)`(?:, `(\w+)`)?", section, re.M))
    assert set(record) == {k for pair in listed for k in pair if k}
    assert set(record["end"]) == {"terminal", "winners", "win_reason", "log_entries"}
    assert record["agents"] == ["random"] and record["seats"] == 3


def test_a_world_gainer_record_holds_the_answers_as_actions_and_replays_the_game_played(tmp_path):
    """`wgdsl play` plays World Gainer with in-process agents that answer questions inside
    an action; the record holds those answers as actions of their own, and the re-run's
    log is the log `wgdsl play --json` printed for the same seed, entry by entry."""
    record_path = _record(tmp_path, "world-gainer", 3, 2)
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert any(" answer " in a["action"] for a in record["actions"])
    played = cli("play", "--seed", 3, "--json")
    assert played.exit_code == 0
    printed = json.loads(played.stdout)["games"][0]["log"]
    log = _embedded(_page(tmp_path, record_path))["log"]
    assert [(e["turn"], e["seat"], e["kind"], e["text"]) for e in log] == \
        [(e["turn"], e["player"], e["kind"], e["text"]) for e in printed]


@pytest.mark.parametrize("game", ["getgem", WAR], ids=["getgem", "war"])
def test_the_record_of_another_game_replays_the_log_play_printed(tmp_path, game):
    seed, seats, extra = GAMES[game]
    record_path = _record(tmp_path, game, seed, seats, extra)
    printed = cli("play", "--game", game, "--seats", seats, "--seed", seed, *extra)
    assert printed.exit_code == 0
    lines = printed.stdout.split("\n\n")[0].splitlines()
    log = _embedded(_page(tmp_path, record_path))["log"]
    assert [line.split(None, 2)[-1] for line in lines] == [e["text"] for e in log]


@pytest.mark.parametrize("args", [("--seed", "3"), ("--seed", "3", "--json"),
                                  ("--game", "getgem", "--seats", "3", "--seed", "2", "--no-log")])
def test_recording_changes_nothing_play_prints(tmp_path, args):
    plain = cli("play", *args)
    recorded = cli("play", *args, "--record", tmp_path / "r.json")
    assert recorded.exit_code == plain.exit_code == 0
    assert recorded.stdout == plain.stdout
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["actions"]


def test_a_starter_game_with_its_cut_stocks_replays(tmp_path):
    record_path = _record(tmp_path, "world-gainer", 5, 2, ("--starter", "--first", "B"))
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert len(record["decks"]["A"]) == 20 and record["options"] == {"first": "B"}
    steps = _embedded(_page(tmp_path, record_path))["steps"]
    state = _fresh_state(record)
    for item in record["actions"]:
        state.apply(item["seat"], state.parse_action(item["seat"], item["action"]))
    assert steps[-1]["board"] == state.to_dict() and state.is_terminal()


def test_the_page_is_self_contained_and_keeps_the_users_text_inert(tmp_path):
    """No address outside the file; text from the game (a card name with `</script>` in
    it) stays data: it round-trips through the page and never closes the script."""
    from wgdsl.tools.replay import page

    hostile = "</script><script>alert(1)</script><!-- 星人 & \u2028"
    replay = {"game": "x", "name": "X", "seed": 0, "seats": ["A"], "agents": [], "log":
              [{"turn": 1, "seat": "A", "kind": "k", "text": hostile}],
              "steps": [{"seat": None, "action": None, "board": {"name": hostile},
                         "current": [], "terminal": True, "winners": [], "reason": None,
                         "log": {"from": 0, "to": 1}}]}
    out = tmp_path / "p.html"
    out.write_text(page(replay), encoding="utf-8")
    text = out.read_text(encoding="utf-8")
    assert text.count("</script>") == 2  # the data's and the code's, nothing of the user's
    assert _embedded(out) == replay
    assert '<meta charset="utf-8">' in text
    for pattern in (r"\bsrc=", r"\bhref=", r"@import", r"url\(", r"https?://", r"<link\b"):
        assert not re.search(pattern, text), pattern


# ------------------------------------------------------------------ bad input
def _replay_error(tmp_path, text: str, name: str = "bad.json"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = cli("replay", path, "-o", tmp_path / "out.html")
    no_traceback(result)
    assert result.exit_code == 1, result.output
    assert not (tmp_path / "out.html").exists()
    return str(path), result.stderr


def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def test_a_file_that_is_not_json_is_reported_at_its_place(tmp_path):
    path, err = _replay_error(tmp_path, '{\n  "format": "wgdsl-replay",\n  "seed": 1,,\n}\n')
    assert err.startswith(f"{path}:3:13: error: not JSON")
    assert "--record" in err


def test_the_output_of_play_json_is_refused_with_what_to_do(tmp_path):
    played = cli("play", "--seed", 1, "--json", "--no-log")
    path, err = _replay_error(tmp_path, played.stdout)
    assert err.startswith(f"{path}:2:") and "output of `wgdsl play --json`" in err
    assert "wgdsl play --record FILE" in err


@pytest.mark.parametrize("text, message", [
    ("[]", "not a replay record"),
    ('{"format": "other"}', "not a replay record"),
    ('{"format": "wgdsl-replay", "version": 9}', "version 9"),
])
def test_other_json_is_not_a_record(tmp_path, text, message):
    _, err = _replay_error(tmp_path, text)
    assert message in err


def _edited(tmp_path, edit) -> tuple[str, str]:
    record_path = _record(tmp_path, "getgem", 2, 3)
    text = edit(record_path.read_text(encoding="utf-8"))
    return text, _replay_error(tmp_path, text, "edited.json")[1]


def test_a_value_of_the_wrong_kind_is_reported_at_its_line(tmp_path):
    text, err = _edited(tmp_path, lambda t: t.replace('"seed": 2,', '"seed": "two",'))
    assert "edited.json:%d:" % _line_of(text, '"seed"') in err
    assert '"seed" must be an integer' in err


def test_a_refused_action_is_reported_at_its_line_with_the_rule(tmp_path):
    def edit(text):
        lines = text.splitlines()
        i = next(n for n, line in enumerate(lines) if '"action"' in line) + 5
        seat = json.loads(lines[i].rstrip(","))["seat"]
        lines[i] = json.dumps({"seat": seat, "action": f"{seat} fly"}) + ","
        return "\n".join(lines)

    text, err = _edited(tmp_path, edit)
    line = _line_of(text, " fly")
    assert re.search(rf"edited\.json:{line}:\d+: error: actions\[5\] `\w+ fly` is refused", err)


def test_an_action_for_no_seat_and_a_game_that_ends_otherwise_are_reported(tmp_path):
    text, err = _edited(tmp_path, lambda t: t.replace('{"seat": "A"', '{"seat": "Q"', 1))
    assert "edited.json:%d:" % _line_of(text, '"Q"') in err and "no seat 'Q'" in err
    text, err = _edited(tmp_path, lambda t: re.sub(r'"log_entries": \d+', '"log_entries": 1', t))
    assert "ends otherwise than recorded" in err and ":%d:" % _line_of(text, '"log_entries"') in err


def test_a_game_that_cannot_start_is_reported_at_the_value(tmp_path):
    text, err = _edited(tmp_path, lambda t: t.replace('"seats": 3,', '"seats": 9,'))
    assert "edited.json:%d:" % _line_of(text, '"seats"') in err
    assert "GETGEM cannot start this game" in err


def test_unknown_game_missing_file_and_unwritable_paths(tmp_path):
    _, err = _edited(tmp_path, lambda t: t.replace('"game": "getgem"', '"game": "nogame"'))
    assert "cannot load the game 'nogame'" in err
    result = cli("replay", tmp_path / "absent.json")
    no_traceback(result)
    assert result.exit_code == 1 and "absent.json: error: no such file" in result.stderr
    record_path = _record(tmp_path, "getgem", 2, 3)
    result = cli("replay", record_path, "-o", tmp_path / "no-dir" / "x.html")
    no_traceback(result)
    assert result.exit_code == 1 and "cannot write the page" in result.stderr
    result = cli("play", "--seed", 1, "--record", tmp_path / "no-dir" / "x.json")
    no_traceback(result)
    assert result.exit_code == 1 and "cannot write the replay record" in result.stderr


def test_record_is_one_game(tmp_path):
    result = cli("play", "--games", 2, "--record", tmp_path / "x.json")
    assert result.exit_code == 2 and "--record writes one game" in result.output
    assert not (tmp_path / "x.json").exists()


# ------------------------------------------------------------------ in a real browser
CHROMIUM = shutil.which("chromium")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install chromium; .ci/run does)")
WINDOW = (1280, 720)


def _chromium(tmp_path, url: str, *mode: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "chromium-profile"
    profile.mkdir(exist_ok=True)
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", "--force-device-scale-factor=1",
         "--hide-scrollbars", f"--window-size={WINDOW[0]},{WINDOW[1]}", *mode, url],
        capture_output=True, text=True, timeout=120, check=True)


class _Dom(HTMLParser):
    """What the tests read of a dumped DOM: elements by id (their text), the body's data
    attributes, and the text of log entries highlighted as the step's own."""

    def __init__(self, html: str):
        super().__init__()
        self.by_id: dict = {}
        self.by_path: dict = {}  # the board's boxes (data-path)
        self.body: dict = {}
        self.now: list = []
        self.log_items = 0
        self._open: list = []  # (tag, id or None, is a highlighted log entry)
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        now = tag == "li" and "now" in (a.get("class") or "").split()
        if tag == "li" and "data-index" in a:
            self.log_items += 1
        if now:
            self.now.append("")
        if a.get("id"):
            self.by_id[a["id"]] = ""
        ident = a.get("id") or ("path:" + a["data-path"] if "data-path" in a else None)
        if ident and ident.startswith("path:"):
            self.by_path[ident[5:]] = ""
        self._open.append((tag, ident, now))

    def handle_endtag(self, tag):
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for tag, ident, now in self._open:
            if ident and ident.startswith("path:"):
                self.by_path[ident[5:]] += data
            elif ident:
                self.by_id[ident] += data
        if any(now for _, _, now in self._open):
            self.now[-1] += data


def _dom(tmp_path, page: Path, fragment: str) -> _Dom:
    return _Dom(_chromium(tmp_path, page.as_uri() + "#" + fragment, "--dump-dom").stdout)


@pytest.fixture(scope="module")
def wg_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("replay")
    record_path = _record(tmp, "world-gainer", 3, 2)
    return json.loads(record_path.read_text(encoding="utf-8")), _page(tmp, record_path)


@needs_chromium
def test_the_page_at_a_known_step_in_a_browser(tmp_path, wg_page):
    record, page = wg_page
    k = next(i for i, a in enumerate(record["actions"], 1) if " play " in a["action"])
    state = _fresh_state(record)
    for item in record["actions"][:k - 1]:
        state.apply(item["seat"], state.parse_action(item["seat"], item["action"]))
    before = state.log
    item = record["actions"][k - 1]
    state.apply(item["seat"], state.parse_action(item["seat"], item["action"]))
    added = state.log[len(before):]
    dom = _dom(tmp_path, page, f"step={k}")
    assert dom.body.get("data-step") == str(k)
    assert dom.by_id["counter"] == f"step {k} / {len(record['actions'])}"
    assert item["action"] in dom.by_id["action"]
    assert dom.log_items == len(state.log)
    # the step's own entries are the ones highlighted, Japanese card names intact
    assert [t for t in dom.now] == [f"T{e['turn']}{e['seat']}{e['text']}" for e in added]
    assert any(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", e["text"]) for e in added)
    # each seat's hand, as the state has it, in the seat's panel
    for seat, data in state.to_dict()["players"].items():
        hand = data["hand"]
        assert dom.by_path[f"players.{seat}.hand"] == f"hand ({len(hand)})" + "".join(hand)


@needs_chromium
@pytest.mark.parametrize("fragment, step", [
    ("click=next,next,next", 3),
    ("step=5&click=prev,prev", 3),
    ("click=last,prev", -1),
    ("key=ArrowRight,ArrowRight,End,ArrowLeft", -1),
    ("step=4&key=Home,ArrowRight", 1),
    ("step=99999", 0),
])
def test_the_step_controls_clicked_and_keys_pressed(tmp_path, wg_page, fragment, step):
    record, page = wg_page
    last = len(record["actions"])
    want = last - 1 if step == -1 else last if step == 0 else step
    dom = _dom(tmp_path, page, fragment)
    assert dom.body.get("data-step") == str(want), fragment
    assert dom.by_id["counter"] == f"step {want} / {last}"


def _png_pixels(path: Path, upto: int):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG, not interlaced: its
    rows up to ``upto``."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + size
    width, height, depth, colour, _, _, interlace = head
    assert depth == 8 and colour in (2, 6) and not interlace
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(min(height, upto)):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


@needs_chromium
def test_a_screenshot_shows_each_square_in_the_colour_of_who_holds_it(tmp_path, wg_page):
    """At a step where both seats hold squares and some are empty (found here through the
    interface), the screenshot paints every square by its holder: squares of one holder
    alike, of different holders (or none) different, and not the blank page colour."""
    record, page = wg_page
    state = _fresh_state(record)
    for k, item in enumerate(record["actions"], 1):
        state.apply(item["seat"], state.parse_action(item["seat"], item["action"]))
        field = state.to_dict()["field"]
        holders = {sq: (st or {}).get("holder") for sq, st in field.items()}
        if {"A", "B", None} <= set(holders.values()):
            break
    else:
        pytest.fail("no step with squares of A, of B and empty ones")
    layout = json.loads(_dom(tmp_path, page, f"step={k}&layout").by_id["layout"])
    # the squares' places (--dump-dom's window lacks the height of the screenshot's, which
    # moves nothing on the board: only the log's own scrolling height follows it)
    assert layout["step"] == k and layout["window"][0] == WINDOW[0]
    shot = tmp_path / "shot.png"
    _chromium(tmp_path, page.as_uri() + f"#step={k}", f"--screenshot={shot}")
    width, height, rows = _png_pixels(
        shot, max(int(y + h) for x, y, w, h in (c["rect"] for c in layout["cells"].values())))
    assert (width, height) == WINDOW
    assert len({px for row in rows[::10] for px in row[::10]}) > 20  # not a blank page

    def colour(square):  # the colour of the square's lower right corner, inside its border
        x, y, w, h = layout["cells"][square]["rect"]
        patch = {rows[int(y + h) - 8 - dy][int(x + w) - 8 - dx] for dy in range(4) for dx in range(4)}
        assert len(patch) == 1, (square, patch)  # a plain background, no text there
        return patch.pop()

    seen = {sq: colour(sq) for sq in holders}
    by_holder: dict = {}
    for sq, who in holders.items():
        by_holder.setdefault(who, set()).add(seen[sq])
    assert all(len(c) == 1 for c in by_holder.values()), by_holder
    assert len({c for cs in by_holder.values() for c in cs}) == 3
    assert (255, 255, 255) not in seen.values()
