"""The card reader's gate: every diagnostic and position of many card texts, base against head.

    python benchmarks/read_gate.py --base main            # main against the working tree
    python benchmarks/read_gate.py --base main --quick    # fewer mutations, a 2,000-card set
    python benchmarks/read_gate.py --base HEAD~1 --head HEAD --keep /tmp/gate

A change to the reader (wgdsl/lang/parser.py), the checker or the AST that is meant to be
faster only must give exactly what it gave before.  Each revision (checked out as ab.py
does: a temporary git worktree, the working tree itself for ``--head .``) reads the same
texts, taken from ``--base``: cards/*.wg, examples/**/*.wg, the docs' code blocks and the
tests' string constants that hold a card, bench_parse.py's generated set (10,000 cards),
and seeded mutations of each (tokens deleted, duplicated, replaced and swapped, braces
taken out, bad characters, comments and odd blanks inside lines, CRLF line ends, texts
cut short, numbers changed or made too long, ids used twice), each read cold, again from
the caches of cards read and checked, moved down (lines added above) and in another
game's words.  For each text it writes every syntax diagnostic and every diagnostic of
the check (severity, position, message, hint, as rendered), a dump of the whole AST with
every position, the loop warnings, the trigger graph's edges and a re-check; then the two
records are compared byte for byte.  Exit status 0 when they are identical, 1 when not
(the first differences are printed).  A full run takes some minutes a side.
"""

from __future__ import annotations

import argparse
import ast as pyast
import difflib
import hashlib
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TEXTS_REV = "HEAD"  # the revision the texts are taken from (--texts)


def git_show(path):
    return subprocess.run(["git", "-C", str(REPO), "show", f"{TEXTS_REV}:{path}"],
                          capture_output=True, text=True, check=True).stdout


WORDS = ["this", "it", "that card", "card", "stun", "field", "break", "hand", "stock", "standby",
         "my field", "battle field", "may", "if you do:", "draw", "move", "to", "your", "opponent's",
         "owner's", "every", "choose", "exhaust", "ready", "cost", "color", "red", "blue", "fire",
         "named", "dimension:", "static", "when", "enters", "leaves", "geuda", "aga", "gets",
         "until end of turn", "-1", "0", "99", "1000000", "judgment", "turn", "shuffle", "stack",
         "{", "}", "}}", ":", ",", "@", "X", "#c", "\t", "  ", "card X-9 \"n\" {", "a", "an",
         "top", "bottom", "of", "in", "at", "start", "end", "random", "stat", "atk", "def",
         "type", "faction", "existence", "unique", "requires", "mark", "stun 1", "cost 2",
         "0000000000000001", "99999999999", "\"q\"", "en", "game", "include \"x.wg\"", "look"]
TOKEN = re.compile(r'"[^"\n]*"|[^\s]+')


def mutations(text, rng, count):
    lines = text.split("\n")
    out = []
    for _ in range(count):
        ls = list(lines)
        kind = rng.randrange(16)
        i = rng.randrange(len(ls))
        line = ls[i]
        toks = list(TOKEN.finditer(line))
        if kind == 0:
            del ls[i]
        elif kind == 1 and len(toks) > 1:  # swap two tokens
            j = rng.randrange(len(toks) - 1)
            a, b = toks[j], toks[j + 1]
            ls[i] = line[:a.start()] + b.group() + line[a.end():b.start()] + a.group() + line[b.end():]
        elif kind == 2 and toks:  # delete a token
            t = rng.choice(toks)
            ls[i] = line[:t.start()] + line[t.end():]
        elif kind == 3 and toks:  # replace a token
            t = rng.choice(toks)
            ls[i] = line[:t.start()] + rng.choice(WORDS) + line[t.end():]
        elif kind == 4 and toks:  # duplicate a token
            t = rng.choice(toks)
            ls[i] = line[:t.end()] + " " + t.group() + line[t.end():]
        elif kind == 5:  # a brace removed
            t = "\n".join(ls)
            spots = [m.start() for m in re.finditer(r"[{}]", t)]
            if spots:
                s = rng.choice(spots)
                t = t[:s] + t[s + 1:]
            out.append(t)
            continue
        elif kind == 6:  # a comment inside or after a line
            if toks:
                t = rng.choice(toks)
                ls[i] = line[:t.end()] + rng.choice([" # c", "#c", "  #", "\t# x {"]) + line[t.end():]
        elif kind == 7:  # odd spacing
            if toks:
                t = rng.choice(toks)
                ls[i] = line[:t.start()] + rng.choice(["\t", "   ", "\f", ""]) + line[t.start():]
        elif kind == 8:  # a bad character
            pos = rng.randrange(len(line) + 1)
            ls[i] = line[:pos] + rng.choice("@$%^&*!?~`|\\;=Zé漢") + line[pos:]
        elif kind == 9:
            ls.insert(i, ls[rng.randrange(len(ls))])
        elif kind == 10:  # numbers changed
            ls[i] = re.sub(r"\d+", lambda m: str(rng.choice(
                [0, 1, 2, 7, 99, 100001, "0" * 12 + "3", "9" * 25])), line)
        elif kind == 11:  # CRLF
            out.append("\r\n".join(ls))
            continue
        elif kind == 12:  # cut
            t = "\n".join(ls)
            out.append(t[:rng.randrange(len(t) + 1)])
            continue
        elif kind == 13:  # trailing blanks / indentation change
            ls[i] = rng.choice(["", "  ", "\t", "    "]) + line.strip() + rng.choice(["", " ", "\t", "  "])
        elif kind == 14:  # ids changed
            t = "\n".join(ls)
            ids = re.findall(r"^card (\S+)", t, re.M)
            if len(ids) > 1:
                a, b = rng.sample(ids, 2)
                t = t.replace(f"card {a} ", f"card {b} ", 1)
            out.append(t)
            continue
        else:  # several token-level changes at once
            for _ in range(3):
                i = rng.randrange(len(ls))
                toks = list(TOKEN.finditer(ls[i]))
                if toks:
                    t = rng.choice(toks)
                    ls[i] = ls[i][:t.start()] + rng.choice(WORDS) + ls[i][t.end():]
        out.append("\n".join(ls))
    return out


def dump(node, out):
    """Every field of every node, positions included, with the types of tuples."""
    if isinstance(node, tuple):
        out.append(f"{type(node).__name__}(")
        for n in node:
            dump(n, out)
            out.append(",")
        out.append(")")
        return
    if attrs.has(type(node)):
        out.append(type(node).__name__ + "{")
        for f in attrs.fields(type(node)):
            if f.name == "vocabulary":
                out.append(f"vocabulary={getattr(getattr(node, 'vocabulary'), 'game', None)!r};")
                continue
            out.append(f.name + "=")
            dump(getattr(node, f.name), out)
            out.append(";")
        out.append("}")
        return
    out.append(f"{type(node).__name__}:{node!r}")


def ast_hash(cardset):
    parts = []
    dump(cardset, parts)
    s = "".join(parts)
    return f"{len(s)} {hashlib.sha1(s.encode()).hexdigest()[:16]}"


class _Hashed:
    """A file-like that keeps only the hash and size of what is written (the big sets)."""

    def __init__(self):
        self.h, self.n = hashlib.sha1(), 0

    def write(self, s):
        self.h.update(s.encode("utf-8", "surrogatepass"))
        self.n += len(s)


def record(f, label, text, vocabulary=None):
    if len(text) > 200_000:
        sink = _Hashed()
        _record(sink, label, text, vocabulary)
        f.write(f"=== {label} (hashed) {sink.n} {sink.h.hexdigest()}\n")
        return
    _record(f, label, text, vocabulary)


def _record(f, label, text, vocabulary=None):
    f.write(f"=== {label} ({hashlib.sha1(text.encode()).hexdigest()[:12]})\n")
    try:
        # the parser alone: its syntax diagnostics and its AST
        cardset, syntax = parse(text, "mut.wg", vocabulary)
        f.write(f"parse {ast_hash(cardset)} {len(syntax)}\n")
        for d in syntax:
            f.write(f"S {d.severity} {tuple(d.pos)} {d.message!r} {d.hint!r}\n")
        cardset, diags = check_text(text, "mut.wg", vocabulary=vocabulary)
    except RecursionError:
        f.write("RecursionError\n")
        return
    for d in diags:
        f.write(f"{d.severity} {tuple(d.pos)} {d.message!r} {d.hint!r}\n")
        f.write(d.render(text) + "\n")
    if cardset is not None:
        f.write(f"ast {ast_hash(cardset)}\n")
        for d in loops.find_loops(cardset):
            f.write(f"LOOP {tuple(d.pos)} {d.message!r} {d.hint!r}\n")
        for a, b, acts in loops.trigger_graph(cardset):
            f.write(f"EDGE {a} -> {b} {[tuple(x.pos) for x in acts]}\n")
        again = check(cardset, (), cardset.vocabulary)
        f.write(f"recheck {len(again)} {hashlib.sha1(repr(again).encode()).hexdigest()[:12]}\n")


CARD = re.compile(r'^card (\S+) "([^"]*)"(?: en "([^"]*)")? \{\n(.*?)^\}\n', re.M | re.S)


def generate(count):
    """bench_parse.py's set (its generate(), as of TEXTS_REV)."""
    src = git_show("benchmarks/bench_parse.py")
    ns = {"__name__": "gate_bench"}
    exec(compile(src, "bench_parse.py", "exec"), ns)
    return ns["generate"](count)


def write_record(out_path: str, quick: bool) -> None:
    """Write this tree's record of every text to ``out_path`` (run inside the tree)."""
    global attrs, ast, loops, vocab_of, check_text, check, forget_checked, forget_cards, parse
    sys.setrecursionlimit(10000)
    import attrs  # noqa: F811

    from wgdsl.lang import ast, loops  # noqa: F811
    from wgdsl.lang import vocabulary as vocab_of  # noqa: F811
    from wgdsl.lang.cards import check_text  # noqa: F811
    from wgdsl.lang.checker import check, forget_cards as forget_checked  # noqa: F811
    from wgdsl.lang.parser import forget_cards, parse  # noqa: F811

    MUT = 12 if quick else 40
    repo = os.getcwd()
    files = subprocess.run(["git", "-C", str(REPO), "ls-tree", "-r", "--name-only", TEXTS_REV,
                            "cards", "examples", "docs"], capture_output=True, text=True,
                           check=True).stdout.split()
    seeds = []
    for p in sorted(files):
        if p.endswith(".wg"):
            seeds.append((p, git_show(p)))
    for p in sorted(f for f in files if f.startswith("docs/") and f.endswith(".md")):
        for k, block in enumerate(re.findall(r"```[a-z]*\n(.*?)```", git_show(p), re.S)):
            if re.search(r"^\s*card \S+ \"", block, re.M):
                seeds.append((f"{p}#{k}", block))
    names = subprocess.run(["git", "-C", str(REPO), "ls-tree", "--name-only", TEXTS_REV, "tests/"], capture_output=True,
                           text=True, check=True).stdout.split()
    for name in sorted(names):
        if not name.endswith(".py"):
            continue
        try:
            tree = pyast.parse(git_show(name))
        except SyntaxError:
            continue
        k = 0
        for node in pyast.walk(tree):
            if isinstance(node, pyast.Constant) and isinstance(node.value, str) \
                    and re.search(r"^\s*card \S+", node.value, re.M):
                seeds.append((f"{name}#{k}", node.value))
                k += 1

    rng = random.Random(1717)
    iw = vocab_of._builtin("imitation-world")
    with open(out_path, "w", encoding="utf-8") as f:
        for label, text in seeds:
            for cold in (True, False):  # cold, then the cache of cards read
                if cold:
                    forget_cards()
                    forget_checked()
                record(f, f"{label}{'' if cold else '/cached'}", text)
            record(f, f"{label}/moved", "\n# moved\n\n" + text)
            if "game \"" not in text:
                record(f, f"{label}/iw-words", text, iw)
            for k, m in enumerate(mutations(text, rng, MUT)):
                record(f, f"{label}~{k}", m)
        big = generate(2000 if quick else 10_000)
        forget_cards()
        forget_checked()
        record(f, "bench-set", big)
        record(f, "bench-set/cached", big)
        for k, m in enumerate(mutations(big, rng, 3 if quick else 10)):
            forget_cards()
            record(f, f"bench-set~{k}", m)
    with open(out_path, encoding="utf-8") as f:
        body = f.read().replace(repo, "<TREE>")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(body)


def main() -> int:
    global TEXTS_REV
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="HEAD", help="revision A (default HEAD); the texts are its")
    ap.add_argument("--head", default=".", help="revision B (default: the working tree, '.')")
    ap.add_argument("--quick", action="store_true", help="fewer mutations, 2,000 generated cards")
    ap.add_argument("--keep", metavar="DIR", help="keep the two records in DIR (base.txt, head.txt)")
    ap.add_argument("--record", metavar="OUT", help=argparse.SUPPRESS)  # inside a tree
    ap.add_argument("--texts", default="HEAD", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.record:
        TEXTS_REV = args.texts
        write_record(args.record, args.quick)
        return 0
    from ab import _tree  # (a revision checked out as ab.py does)

    texts = subprocess.run(["git", "-C", str(REPO), "rev-parse", args.base], capture_output=True,
                           text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="read-gate-") as tmp:
        out = Path(args.keep) if args.keep else Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        records = []
        for side, rev in (("base", args.base), ("head", args.head)):
            tree = _tree(rev, Path(tmp), side)
            try:
                path = out / f"{side}.txt"
                env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1",
                           PYTHONHASHSEED="0")
                print(f"{side} ({rev}): reading ...", flush=True)
                done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--record",
                                       str(path), "--texts", texts, *(["--quick"] if args.quick else [])],
                                      cwd=tree, env=env)
                if done.returncode != 0:
                    print(f"the record of {side} failed (exit {done.returncode})")
                    return 2
                records.append(path.read_text(encoding="utf-8").replace(str(tree), "<TREE>"))
            finally:
                if tree != REPO:
                    subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                                   check=False)
        a, b = records
        texts_count = a.count("\n=== ") + 1
        if a == b:
            print(f"identical: {texts_count} texts, {len(a):,} characters of record "
                  f"(sha1 {hashlib.sha1(a.encode()).hexdigest()[:12]})")
            return 0
        diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "base", "head", n=2, lineterm=""))
        print("\n".join(diff[:80]))
        print(f"DIFFERENT: {sum(1 for d in diff if d.startswith(('-', '+')))} lines differ")
        return 1


if __name__ == "__main__":
    sys.exit(main())
