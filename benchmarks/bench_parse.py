"""How fast are card files read?  Parse and check a generated set of 10,000 cards.

The set is built from the 25 WG01 cards: copy k of each card gets a new id
(``X0-00001`` ...) and a name ending in ``#k``; ``named "..."`` references are renamed
the same way, so each copy refers to the card of its own batch and the checker stays
clean.  Prints cards per second for parsing, checking and both, by wall-clock time
and by CPU time (the process's own, steadier on a busy machine); asserts nothing
about time.  Every run reads cold: the caches of cards read and checked (which serve the
language server's re-checks, benchmarks/bench_lsp.py) are emptied first.

    python benchmarks/bench_parse.py [--cards 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import re
import time

from wgdsl.lang.checker import check, forget_cards
from wgdsl.lang.parser import parse
from wgdsl.resources import builtin_cards_path

CARD = re.compile(r'^card (\S+) "([^"]*)"(?: en "([^"]*)")? \{\n(.*?)^\}\n', re.M | re.S)


def generate(count: int) -> str:
    """``count`` cards made of WG01's bodies, with fresh ids and consistently renamed names."""
    source = builtin_cards_path().read_text(encoding="utf-8")
    cards = [m.groups() for m in CARD.finditer(source)]
    names = {name for _, name, en, _ in cards} | {en for _, _, en, _ in cards if en}
    out = []
    for n in range(count):
        _, name, en, body = cards[n % len(cards)]
        batch = n // len(cards)
        body = re.sub(r'named "([^"]*)"',
                      lambda m: f'named "{m.group(1)} #{batch}"' if m.group(1) in names else m.group(0),
                      body)
        en_part = f' en "{en} #{batch}"' if en else ""
        out.append(f'card X0-{n + 1:05d} "{name} #{batch}"{en_part} {{\n{body}}}\n\n')
    return "".join(out)


def best_of(repeat: int, fn):
    """(best wall time, best CPU time, result) over ``repeat`` runs."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    text = generate(args.cards)
    parse("")  # build the parser once, outside the timings

    def cold_parse():  # every card read afresh: the caches of cards read and checked emptied
        forget_cards()
        return parse(text, "bench.wg")

    def cold_check():
        forget_cards()
        return check(cardset)

    parse_wall, parse_cpu, (cardset, syntax) = best_of(args.repeat, cold_parse)
    assert syntax == [] and len(cardset.cards) == args.cards, syntax[:3]
    check_wall, check_cpu, problems = best_of(args.repeat, cold_check)
    assert problems == [], [p.render(text) for p in problems[:3]]

    n = args.cards
    print(f"{n} cards, {len(text.encode('utf-8')) / 1e6:.2f} MB, {text.count(chr(10))} lines "
          f"(best of {args.repeat})")
    print(f"  {'':14} {'wall s':>8} {'cards/s':>9}   {'CPU s':>8} {'cards/s':>9}")
    for label, wall, cpu in (("parse", parse_wall, parse_cpu), ("check", check_wall, check_cpu),
                             ("parse + check", parse_wall + check_wall, parse_cpu + check_cpu)):
        print(f"  {label:14} {wall:8.3f} {n / wall:9,.0f}   {cpu:8.3f} {n / cpu:9,.0f}")


if __name__ == "__main__":
    main()
