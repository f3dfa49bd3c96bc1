"""The report of a sweep (``wgdsl sweep report DIR``): one pass over its shards, then JSON
and a static HTML page with inline SVG plots (no script, no network).

Statistics, each with the formula it uses:

- a rate ``k/n`` with its 95 % **Wilson** interval (:func:`wilson`):
  ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``, ``z = 1.96``;
- win rate per seat, per deck and per agent (a seat wins when it is among ``winners()``;
  a game ranked by score shows its mean return too), the first player's win rate, and
  the same broken down by the rule that ended the game (``win_reason``);
- game length (turns, or rounds) as a histogram with its quantiles;
- per card and deck: the win rate of the seats that played it (drew it) against the
  deck's baseline (every seat-game with that deck), with Wilson intervals, and the
  number of seat-games per group needed to tell a difference ``d`` from the baseline
  ``p`` at a two-sided 5 % level with 80 % power (:func:`games_needed`):
  ``n = (z_a·sqrt(2·q(1-q)) + z_b·sqrt(p1(1-p1) + p2(1-p2)))² / d²``, ``q = (p1+p2)/2``,
  ``p1 = p``, ``p2 = p + d``, ``z_a = 1.96``, ``z_b = 0.8416``.
"""

from __future__ import annotations

import html
import json
import math
from collections import Counter, defaultdict
from pathlib import Path
from typing import Optional

from .sweep import MANIFEST, load_manifest, read_records

Z95 = 1.959963984540054
Z80 = 0.8416212335729143


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (0, 1 for n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    den = 1 + z * z / n
    return max(0.0, (centre - half) / den), min(1.0, (centre + half) / den)


def games_needed(p: float, d: float, z_a: float = Z95, z_b: float = Z80) -> Optional[int]:
    """Seat-games per group to tell a rate ``p + d`` from ``p`` (two-sided 5 %, power
    80 %); None when ``d`` is 0 or ``p + d`` is outside [0, 1]."""
    p2 = p + d
    if d == 0 or not 0 <= p2 <= 1:
        return None
    q = (p + p2) / 2
    n = (z_a * math.sqrt(2 * q * (1 - q)) + z_b * math.sqrt(p * (1 - p) + p2 * (1 - p2))) ** 2 \
        / (d * d)
    return math.ceil(n)


def _rate(k: float, n: int) -> dict:
    low, high = wilson(k, n)
    return {"wins": k, "games": n, "rate": k / n if n else None, "low": low, "high": high}


class _Tally:
    def __init__(self):
        self.n = 0
        self.k = 0
        self.ret = 0.0

    def add(self, won: bool, ret: float) -> None:
        self.n += 1
        self.k += won
        self.ret += ret

    def to_dict(self) -> dict:
        d = _rate(self.k, self.n)
        d["mean_return"] = self.ret / self.n if self.n else None
        return d


def build(out: Path, delta: float = 0.05) -> dict:
    """The report of the sweep in ``out`` as a JSON-ready dict (one pass over its shards)."""
    sweep = load_manifest(out)
    games = 0
    errors = Counter()
    per_seat: dict = defaultdict(_Tally)
    per_deck: dict = defaultdict(_Tally)
    per_agent: dict = defaultdict(_Tally)
    first = _Tally()
    reasons: dict = defaultdict(lambda: [0, 0, 0, 0])  # rule -> [games, first wins, decided, turns]
    nobody = 0
    lengths = Counter()
    actions = 0
    played: dict = defaultdict(_Tally)  # (deck, card) -> seat-games that played it
    drawn: dict = defaultdict(_Tally)
    configs: dict = {}  # config -> what it is and its tallies
    for r in read_records(out):
        games += 1
        if r["error"]:
            errors[r["error"].split(":")[0]] += 1
        winners = set(filter(None, r["winners"].split(",")))
        returns = json.loads(r["returns"])
        decks = json.loads(r["decks"])
        agents = json.loads(r["agents"])
        cards_played = json.loads(r["played"])
        cards_drawn = json.loads(r["drawn"])
        for seat in r["seats"].split(","):
            won = seat in winners
            ret = float(returns.get(seat, 0.0))
            per_seat[seat].add(won, ret)
            deck = decks.get(seat, "(the game's cards)")
            per_deck[deck].add(won, ret)
            per_agent[agents.get(seat, "?")].add(won, ret)
            for card in cards_played.get(seat, {}):
                played[(deck, card)].add(won, ret)
            for card in cards_drawn.get(seat, {}):
                drawn[(deck, card)].add(won, ret)
        if r["first"]:
            first.add(r["first"] in winners, float(returns.get(r["first"], 0.0)))
        cfg = configs.get(r["config"])
        if cfg is None:
            cfg = configs[r["config"]] = {
                "seats": r["seats"], "decks": decks, "agents": agents,
                "options": json.loads(r.get("options") or "{}"), "first": _Tally(),
                "wins": {s: _Tally() for s in r["seats"].split(",")}}
        for seat, t in cfg["wins"].items():
            t.add(seat in winners, float(returns.get(seat, 0.0)))
        if r["first"]:
            cfg["first"].add(r["first"] in winners, 0.0)
        slot = reasons[r["win_reason"] or "(none)"]
        slot[0] += 1
        slot[1] += r["first"] in winners
        slot[2] += bool(winners)
        slot[3] += r["turns"]
        nobody += not winners
        lengths[r["turns"]] += 1
        actions += r["actions"]
    cards = []
    for (deck, card) in sorted(set(played) | set(drawn)):
        base = per_deck[deck]
        p = base.k / base.n if base.n else 0.0
        row = {"deck": deck, "card": card, "baseline": _rate(base.k, base.n)}
        for what, table in (("played", played), ("drawn", drawn)):
            t = table.get((deck, card))
            if t is None:
                row[what] = None
                continue
            d = _rate(t.k, t.n)
            diff = (d["rate"] - p) if d["rate"] is not None else 0.0
            d["difference"] = diff
            d["games_needed_for_difference"] = games_needed(p, diff) if t.n else None
            row[what] = d
        row["games_needed_for_delta"] = games_needed(p, delta if p + delta <= 1 else -delta)
        cards.append(row)
    return {
        "sweep": sweep.to_dict(),
        "games": games,
        "games_planned": sweep.games,
        "complete": games == sweep.games,
        "games_with_errors": dict(errors),
        "no_winner": _rate(nobody, games),
        "seats": {s: t.to_dict() for s, t in sorted(per_seat.items())},
        "decks": {d: t.to_dict() for d, t in sorted(per_deck.items())},
        "agents": {a: t.to_dict() for a, t in sorted(per_agent.items())},
        "first_player": first.to_dict(),
        "configurations": {str(k): {"seats": c["seats"], "decks": c["decks"],
                                    "agents": c["agents"], "options": c["options"],
                                    "games": c["first"].n or next(iter(c["wins"].values())).n,
                                    "first_player": c["first"].to_dict(),
                                    "win_rate": {s: t.to_dict() for s, t in c["wins"].items()}}
                           for k, c in sorted(configs.items())},
        "win_reasons": {rule: {"games": g, "share": g / games if games else None,
                               "text": rule_text(sweep.game, rule),
                               "first_player_wins": _rate(fw, g), "decided": dec,
                               "mean_length": turns / g}
                        for rule, (g, fw, dec, turns) in sorted(reasons.items(),
                                                                key=lambda kv: -kv[1][0])},
        "length": {"histogram": {str(k): v for k, v in sorted(lengths.items())},
                   "mean": sum(k * v for k, v in lengths.items()) / games if games else None,
                   "quantiles": _quantiles(lengths, games),
                   "mean_actions": actions / games if games else None},
        "cards": cards,
        "delta": delta,
        "formulas": {
            "wilson": "(p + z^2/2n ± z*sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), z = 1.96",
            "games_needed": "n per group = (z_a*sqrt(2q(1-q)) + z_b*sqrt(p1(1-p1)+p2(1-p2)))^2"
                            " / (p2-p1)^2, q = (p1+p2)/2, z_a = 1.96 (two-sided 5 %),"
                            " z_b = 0.8416 (power 80 %)",
        },
    }


def rule_text(game_name: str, rule: str) -> str:
    """What the rule that ended a game says, when the game tells (World Gainer's win
    conditions, a game's ``reasons``); "" otherwise."""
    try:
        from wgdsl.games import load_game

        game = load_game(game_name)
    except (ValueError, OSError):
        return ""
    if game.id == "world-gainer":
        from .play import WIN_CONDITIONS

        return WIN_CONDITIONS.get(rule, "")
    return getattr(game, "reasons", {}).get(rule, "")


def _quantiles(lengths: Counter, n: int) -> dict:
    out = {}
    if not n:
        return out
    items = sorted(lengths.items())
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        target, seen = q * (n - 1), 0
        for value, count in items:
            seen += count
            if seen > target:
                out[f"p{int(q * 100)}"] = value
                break
    return out


def write(out: Path, delta: float = 0.05) -> tuple[Path, Path, dict]:
    """Build the report and write ``report.json`` and ``report.html`` into ``out``."""
    data = build(out, delta)
    jpath, hpath = out / "report.json", out / "report.html"
    for path, text in ((jpath, json.dumps(data, indent=2, ensure_ascii=False) + "\n"),
                       (hpath, render_html(data))):
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return jpath, hpath, data


def headline(data: dict) -> list[str]:
    """The report's first lines, as text (what `wgdsl sweep` prints at the end)."""
    g = data["games"]
    out = [f"{g} games of {data['sweep']['game']}"
           + ("" if data["complete"] else f" (of {data['games_planned']} planned)")]
    fp = data["first_player"]
    if fp["games"]:
        out.append(f"  first player wins {_pct(fp['rate'])} [{_pct(fp['low'])}, "
                   f"{_pct(fp['high'])}]")
    for s, t in data["seats"].items():
        out.append(f"  seat {s:<4} wins {_pct(t['rate'])} [{_pct(t['low'])}, {_pct(t['high'])}]"
                   f"  mean return {t['mean_return']:.3f}")
    for rule, r in data["win_reasons"].items():
        fw = r["first_player_wins"]
        text = f" ({r['text']})" if r["text"] else ""
        out.append(f"  ended by {rule}{text}: {r['games']} games ({_pct(r['share'])}), "
                   f"{r['mean_length']:.1f} turns on average; the first player won "
                   f"{_pct(fw['rate'])} [{_pct(fw['low'])}, {_pct(fw['high'])}] of them")
    return out


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


# ---------------------------------------------------------------------------- HTML
def _e(x) -> str:
    return html.escape(str(x))


def _bars(rows: list, title: str, ref: Optional[float] = None) -> str:
    """Horizontal bars with Wilson whiskers: rows of (label, rate, low, high, n)."""
    if not rows:
        return ""
    h, left, width = 22, 170, 420
    height = h * len(rows) + 30
    parts = [f'<svg width="{left + width + 120}" height="{height}" role="img" '
             f'aria-label="{_e(title)}">']
    for i in range(0, 11, 2):
        x = left + width * i / 10
        parts.append(f'<line x1="{x}" y1="0" x2="{x}" y2="{height - 20}" stroke="#ddd"/>'
                     f'<text x="{x}" y="{height - 6}" font-size="10" text-anchor="middle">'
                     f'{i * 10}%</text>')
    if ref is not None:
        x = left + width * ref
        parts.append(f'<line x1="{x}" y1="0" x2="{x}" y2="{height - 20}" stroke="#c00" '
                     'stroke-dasharray="4 3"/>')
    for i, (label, rate, low, high, n) in enumerate(rows):
        y = i * h + 4
        rate = rate or 0.0
        parts.append(f'<text x="{left - 6}" y="{y + 13}" font-size="12" text-anchor="end">'
                     f'{_e(label)}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{width * rate:.1f}" height="{h - 8}" '
                     'fill="#4a7ab5"/>')
        parts.append(f'<line x1="{left + width * low:.1f}" y1="{y + (h - 8) / 2}" '
                     f'x2="{left + width * high:.1f}" y2="{y + (h - 8) / 2}" stroke="#000" '
                     'stroke-width="1.5"/>')
        parts.append(f'<text x="{left + width + 6}" y="{y + 13}" font-size="11">'
                     f'{100 * rate:.1f}% (n={n})</text>')
    parts.append("</svg>")
    return f"<figure><figcaption>{_e(title)}</figcaption>{''.join(parts)}</figure>"


def _histogram(hist: dict, title: str) -> str:
    if not hist:
        return ""
    keys = sorted(int(k) for k in hist)
    lo, hi = keys[0], keys[-1]
    bins = min(40, hi - lo + 1)
    step = max(1, math.ceil((hi - lo + 1) / bins))
    counts = Counter()
    for k in keys:
        counts[(k - lo) // step] += hist[str(k)]
    top = max(counts.values())
    w, hgt = 600, 160
    bw = w / (max(counts) + 1)
    parts = [f'<svg width="{w + 60}" height="{hgt + 40}" role="img" aria-label="{_e(title)}">']
    for b, c in sorted(counts.items()):
        bh = hgt * c / top
        parts.append(f'<rect x="{40 + b * bw:.1f}" y="{hgt - bh + 5:.1f}" width="{max(bw - 1, 1):.1f}" '
                     f'height="{bh:.1f}" fill="#6a9f58"><title>{lo + b * step}–'
                     f'{lo + b * step + step - 1}: {c}</title></rect>')
    parts.append(f'<text x="40" y="{hgt + 22}" font-size="11">{lo}</text>'
                 f'<text x="{40 + w}" y="{hgt + 22}" font-size="11" text-anchor="end">{hi}</text>'
                 f'<text x="0" y="14" font-size="11">{top}</text>')
    parts.append("</svg>")
    return f"<figure><figcaption>{_e(title)}</figcaption>{''.join(parts)}</figure>"


def _rows(table: dict) -> list:
    return [(k, v["rate"], v["low"], v["high"], v["games"]) for k, v in table.items()]


def _cell_rate(d) -> str:
    if not d:
        return "<td>-</td><td></td><td></td>"
    return (f"<td>{_pct(d['rate'])}</td><td>[{_pct(d['low'])}, {_pct(d['high'])}]</td>"
            f"<td>{d['games']}</td>")


def render_html(data: dict) -> str:
    sweep = data["sweep"]
    fp = data["first_player"]
    body = [f"<h1>Sweep: {_e(sweep['game'])}, {data['games']} games</h1>",
            f"<p>seed {_e(sweep['seed'])}; seats {_e(sweep['seats'] or 'default')}; agents "
            f"{_e([','.join(a) for a in sweep['agents']])}; decks "
            f"{_e([Path(d).stem for d in sweep['decks']] or 'default')}; options "
            f"{_e(sweep['options'] or 'none')}"
            + ("" if data["complete"] else f" — <b>incomplete: {data['games']} of "
               f"{data['games_planned']} games</b>") + "</p>"]
    body.append("<h2>First-player advantage</h2>")
    if fp["games"]:
        body.append(f"<p class=big>The first player won <b>{_pct(fp['rate'])}</b> of "
                    f"{fp['games']} games (95 % Wilson interval {_pct(fp['low'])} – "
                    f"{_pct(fp['high'])}; no advantage would be "
                    f"{_pct(1 / max(len(data['seats']), 1))}).</p>")
    body.append("<table><tr><th>game ended by</th><th>what it says</th><th>games</th>"
                "<th>share</th><th>mean length</th><th>first player won</th>"
                "<th>95 % interval</th></tr>")
    for rule, r in data["win_reasons"].items():
        fw = r["first_player_wins"]
        body.append(f"<tr><td>{_e(rule)}</td><td>{_e(r['text'])}</td><td>{r['games']}</td>"
                    f"<td>{_pct(r['share'])}</td><td>{r['mean_length']:.1f}</td>"
                    f"<td>{_pct(fw['rate'])}</td><td>[{_pct(fw['low'])}, {_pct(fw['high'])}]"
                    "</td></tr>")
    body.append("</table><p class=note>Where the advantage comes from: the rule that ends "
                "most games, and how often the first player wins those. An example: random "
                "World Gainer games all end by R12.3 (a player must draw from an empty "
                "stock); the first player skips its first draw (R4.2), so with stocks of "
                "equal size the second player's runs out first, unless effects that draw "
                "or return cards change the count.</p>")
    body.append("<h2>Win rate per seat, deck and agent</h2>")
    n_seats = max(len(data["seats"]), 1)
    body.append(_bars(_rows(data["seats"]), "win rate per seat (bars: 95 % Wilson interval; "
                      "dashed: 1/seats)", 1 / n_seats))
    body.append(_bars(_rows(data["decks"]), "win rate per deck (every seat-game with it)",
                      1 / n_seats))
    if len(data["agents"]) > 1:
        body.append(_bars(_rows(data["agents"]), "win rate per agent", 1 / n_seats))
    body.append("<table><tr><th>seat</th><th>win rate</th><th>interval</th><th>games</th>"
                "<th>mean return</th></tr>")
    for s, t in data["seats"].items():
        body.append(f"<tr><td>{_e(s)}</td>{_cell_rate(t)}<td>{t['mean_return']:.3f}</td></tr>")
    body.append("</table>")
    if len(data["configurations"]) > 1:
        body.append("<h2>Per configuration</h2><table><tr><th>#</th><th>seats</th>"
                    "<th>decks</th><th>agents</th><th>options</th><th>games</th>"
                    "<th>win rate per seat [95 % interval]</th><th>first player won</th></tr>")
        for k, c in data["configurations"].items():
            rates = "; ".join(f"{s} {_pct(t['rate'])} [{_pct(t['low'])}, {_pct(t['high'])}]"
                              for s, t in c["win_rate"].items())
            fp = c["first_player"]
            body.append(f"<tr><td>{k}</td><td>{_e(c['seats'])}</td>"
                        f"<td>{_e(', '.join(c['decks'].values()) or '-')}</td>"
                        f"<td>{_e(', '.join(c['agents'].values()))}</td>"
                        f"<td>{_e(', '.join(f'{n}={v}' for n, v in c['options'].items()) or '-')}"
                        f"</td><td>{c['games']}</td><td>{_e(rates)}</td>"
                        f"<td>{_pct(fp['rate'])}</td></tr>")
        body.append("</table>")
    ln = data["length"]
    body.append("<h2>Game length</h2>")
    if ln["mean"] is not None:
        body.append(f"<p>mean {ln['mean']:.1f} turns (rounds for a game of rounds); quantiles "
                    f"{_e(ln['quantiles'])}; mean actions {ln['mean_actions']:.1f}</p>")
    body.append(_histogram(ln["histogram"], "games by length"))
    body.append(f"<h2>Cards</h2><p>Per card and deck: the win rate of the seat-games in "
                f"which the seat played (drew) the card, against the deck's baseline. "
                f"<i>needed</i>: seat-games per group to tell the difference seen (or "
                f"±{_pct(data['delta'])}, last column) from the baseline at a two-sided 5 % "
                f"level with 80 % power: <code>{_e(data['formulas']['games_needed'])}</code>. "
                f"Intervals: <code>{_e(data['formulas']['wilson'])}</code>.</p>")
    by_deck: dict = defaultdict(list)
    for c in data["cards"]:
        if c["played"]:
            d = c["played"]
            by_deck[c["deck"]].append((c["card"], d["rate"], d["low"], d["high"], d["games"]))
    for deck, rows in by_deck.items():
        base = data["decks"].get(deck, {}).get("rate")
        body.append(_bars(rows, f"{deck}: win rate when the card was played (dashed: the "
                                f"deck's baseline, {_pct(base)})", base))
    body.append("<table><tr><th>deck</th><th>card</th><th>baseline</th><th>played: win</th>"
                "<th>interval</th><th>n</th><th>Δ</th><th>needed</th><th>drawn: win</th>"
                "<th>interval</th><th>n</th><th>Δ</th><th>needed</th>"
                f"<th>needed for ±{_pct(data['delta'])}</th></tr>")
    for c in data["cards"]:
        cells = [f"<td>{_e(c['deck'])}</td><td>{_e(c['card'])}</td>"
                 f"<td>{_pct(c['baseline']['rate'])}</td>"]
        for what in ("played", "drawn"):
            d = c[what]
            cells.append(_cell_rate(d))
            if d:
                flag = ' class="sig"' if not d["low"] <= c["baseline"]["rate"] <= d["high"] else ""
                cells.append(f"<td{flag}>{100 * d['difference']:+.1f}</td>"
                             f"<td>{d['games_needed_for_difference'] or '-'}</td>")
            else:
                cells.append("<td></td><td></td>")
        cells.append(f"<td>{c['games_needed_for_delta'] or '-'}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    body.append("</table>")
    style = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;color:#222}"
             "table{border-collapse:collapse;font-size:13px;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
             "td:first-child,th:first-child{text-align:left}.big{font-size:1.3em}"
             ".note{color:#555}.sig{background:#fde2b8}figcaption{font-weight:bold}")
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>wgdsl sweep: "
            f"{_e(sweep['game'])}</title><style>{style}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")


def is_sweep_dir(out: Path) -> bool:
    return (out / MANIFEST).exists()
