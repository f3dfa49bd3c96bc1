"""Robustness: malformed input gives diagnostics and a non-zero exit, never a traceback.

- Card-language text: random text, and mutations of cards/wg01.wg (token deletions,
  insertions, swaps, replacements, truncations) through ``wgdsl.lang.cards.check_text`` and
  ``wgdsl check FILE``.
- Ruling-case TOML: random bytes, truncated valid cases, values of the wrong type,
  unknown and missing keys through ``wgdsl rulings FILE``.

The examples are cheap, so these tests run several times the profile's example count.
"""

from __future__ import annotations

import datetime
import re
import tempfile
import tomllib
from pathlib import Path

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from wgdsl.lang.cards import check_text
from wgdsl.lang.diagnostics import render_all
from wgdsl.resources import builtin_cards_path
from cli_helpers import cli, no_traceback

WG01 = builtin_cards_path().read_text(encoding="utf-8")
RULINGS = Path(__file__).resolve().parent.parent / "examples" / "rulings"
CASES = sorted(RULINGS.rglob("*.toml"))

MORE = settings(max_examples=settings.default.max_examples * 4,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ====================================================================== card text
# a token is a string, a comment, a run of spaces, a word, a number or one other char
TOKEN = re.compile(r'"[^"\n]*"|#[^\n]*|\s+|[A-Za-z_][\w\-\']*|\d+|.', re.S)
WG01_TOKENS = TOKEN.findall(WG01)
assert "".join(WG01_TOKENS) == WG01
VOCABULARY = sorted({t for t in WG01_TOKENS if not t.isspace()})

junk = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@st.composite
def mutated(draw, tokens=tuple(WG01_TOKENS)):
    """WG01 with 1-4 token-level edits, or cut short."""
    toks = list(tokens)
    for _ in range(draw(st.integers(1, 4))):
        if not toks:
            break
        op = draw(st.sampled_from(("delete", "insert", "swap", "replace", "duplicate",
                                   "truncate")))
        # edits hit words, numbers, strings and punctuation (spaces and comments rarely
        # matter); an inserted token comes with spaces, so it stays one token
        words = [k for k, t in enumerate(toks) if not t.isspace() and not t.startswith("#")]
        if not words:
            break
        i = draw(st.sampled_from(words))
        if op == "delete":
            del toks[i:i + draw(st.integers(1, 3))]
        elif op == "insert":
            toks.insert(i, " " + draw(st.one_of(st.sampled_from(VOCABULARY), junk)) + " ")
        elif op == "swap":
            j = draw(st.sampled_from(words))
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "replace":
            toks[i] = draw(st.one_of(st.sampled_from(VOCABULARY), junk))
        elif op == "duplicate":
            toks.insert(i, toks[i])
        else:
            text = "".join(toks)
            cut = draw(st.integers(0, len(text)))
            toks = TOKEN.findall(text[:cut])
    return "".join(toks)


def assert_checks_cleanly(text: str) -> list:
    cardset, diagnostics = check_text(text, "fuzz.wg")
    assert cardset is not None or diagnostics, "no card set and no diagnostic"
    for d in diagnostics:
        assert d.message, "an empty diagnostic"
    render_all(diagnostics, {"fuzz.wg": text})  # rendering must not crash either
    return diagnostics


@MORE
@given(text=st.text(max_size=300))
def test_random_text_gives_diagnostics_not_crashes(text):
    assert_checks_cleanly(text)


@MORE
@given(text=st.lists(st.sampled_from(VOCABULARY + [" ", "\n", "  ", ":", "{", "}"]),
                    max_size=60).map(" ".join))
def test_word_salad_from_the_language_gives_diagnostics(text):
    assert_checks_cleanly(text)


@MORE
@given(text=mutated())
def test_mutated_wg01_gives_diagnostics_not_crashes(text):
    assert_checks_cleanly(text)


@settings(max_examples=settings.default.max_examples * 2,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=st.one_of(mutated(), st.text(max_size=200)))
def test_wgdsl_check_reports_and_exits_nonzero(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.wg"
        path.write_text(text, encoding="utf-8")
        # as the CLI reads it (a lone \r becomes a newline)
        diagnostics = check_text(path.read_text(encoding="utf-8"), "x")[1]
        result = cli("check", str(path))
    no_traceback(result)
    if diagnostics:
        assert result.exit_code == 1, result.output
        assert f"{path}:" in result.output and "error" in result.output
    else:
        assert result.exit_code == 0 and "ok:" in result.output, result.output


@MORE
@given(data=st.binary(max_size=200))
@example(data=b"\xef\xbb\xbf")  # a BOM alone: an empty set (Hypothesis found the oracle read it)
def test_wgdsl_check_on_random_bytes(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bytes.wg"
        path.write_bytes(data)
        result = cli("check", str(path))
        try:  # as the CLI reads it: UTF-8, a leading BOM dropped (wgdsl.files.decode)
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            text = None
    no_traceback(result)
    if text is None:
        assert result.exit_code == 1 and "UTF-8" in result.output, result.output
        return
    assert result.exit_code == (1 if check_text(text, "x")[1] else 0), result.output


# ====================================================================== ruling cases
def toml_value(v) -> str:
    """A TOML value (inline form); enough for what tomllib gives back."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v) if not isinstance(v, float) or v == v and abs(v) != float("inf") else \
            ("nan" if v != v else ("inf" if v > 0 else "-inf"))
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") \
            .replace("\t", "\\t").replace("\r", "\\r") + '"'
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else toml_value(k)


def to_toml(doc: dict) -> str:
    """Every top-level key as ``key = inline value`` (valid TOML, same data)."""
    return "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in doc.items())


def load(path: Path) -> dict:
    """A case as data, its card set path (relative to the case) made absolute, since the
    rewritten case is written elsewhere."""
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    cards = doc.get("case", {}).get("cards")
    if isinstance(cards, str):
        doc["case"]["cards"] = str((path.parent / cards).resolve())
    return doc


def paths_in(doc, prefix=()):
    """Every (path, value) inside a parsed case, tables and lists included."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield prefix + (k,), v
            yield from paths_in(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield prefix + (i,), v
            yield from paths_in(v, prefix + (i,))


def set_in(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def del_in(doc, path):
    for k in path[:-1]:
        doc = doc[k]
    del doc[path[-1]]


# keys the format lets take more than one type (ruling-format: `pool` in [expect.X] may
# be a number or a list of colors)
SEVERAL_TYPES = {"pool": (int, list)}


def acceptable(path, old, new) -> bool:
    """Would ``new`` be a value of an acceptable type where ``old`` was?"""
    if type(new) is type(old):
        return True
    key = path[-1]
    return path[0] == "expect" and type(new) in SEVERAL_TYPES.get(key, ())


values = st.one_of(
    st.integers(-3, 10**6), st.booleans(), st.text(max_size=8), st.floats(allow_nan=False),
    st.lists(st.integers(0, 5), max_size=3), st.dictionaries(st.sampled_from("xyz"),
                                                             st.integers(), max_size=2),
    st.just(datetime.date(2024, 1, 1)), st.just([{"a": 1}]))


def run_rulings(text: str = None, data: bytes = None):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.toml"
        if data is not None:
            path.write_bytes(data)
        else:
            path.write_text(text, encoding="utf-8")
        result = cli("rulings", str(path))
    no_traceback(result)
    return result


def assert_refused(result) -> None:
    """Diagnostics (an ERROR or FAIL line) and exit 1."""
    assert result.exit_code == 1, result.output
    assert re.search(r"^(ERROR|FAIL) ", result.output, re.M), result.output
    assert "0 passed, 1 failed" in result.output, result.output


def test_the_example_cases_round_trip_through_the_emitter():
    # the mutations below rewrite cases with to_toml; unmutated, they must still pass
    for case in CASES[:10]:
        result = run_rulings(to_toml(load(case)))
        assert result.exit_code == 0 and "1 passed, 0 failed" in result.output, \
            (case, result.output)


@MORE
@given(data=st.binary(max_size=300))
def test_rulings_on_random_bytes(data):
    assert_refused(run_rulings(data=data))


@MORE
@given(case=st.sampled_from(CASES), data=st.data())
def test_rulings_on_truncated_cases(case, data):
    text = case.read_text(encoding="utf-8")
    cut = data.draw(st.integers(0, len(text) - 1))
    result = run_rulings(text[:cut])
    if result.exit_code == 0:  # cut inside [expect]: a smaller case that still holds
        assert "1 passed, 0 failed" in result.output, result.output
    else:
        assert_refused(result)


@MORE
@given(case=st.sampled_from(CASES), data=st.data())
def test_rulings_on_values_of_the_wrong_type(case, data):
    doc = load(case)
    spots = [(p, v) for p, v in paths_in(doc)]
    path, old = data.draw(st.sampled_from(spots))
    new = data.draw(values.filter(lambda v: not acceptable(path, old, v)))
    set_in(doc, path, new)
    assert_refused(run_rulings(to_toml(doc)))


@MORE
@given(case=st.sampled_from(CASES), data=st.data())
def test_rulings_on_unknown_keys(case, data):
    doc = load(case)
    tables = [(), *[p for p, v in paths_in(doc) if isinstance(v, dict)]]
    where = data.draw(st.sampled_from(tables))
    key = data.draw(st.from_regex(r"[a-z_]{1,10}", fullmatch=True))
    target = doc
    for k in where:
        target = target[k]
    assume(key not in target)
    target[key] = data.draw(values)
    assert_refused(run_rulings(to_toml(doc)))


REQUIRED_TOP = ("case",)


@MORE
@given(case=st.sampled_from(CASES), data=st.data())
def test_rulings_on_deleted_keys(case, data):
    doc = load(case)
    spots = [p for p, v in paths_in(doc) if not isinstance(p[-1], int)]
    path = data.draw(st.sampled_from(spots))
    del_in(doc, path)
    result = run_rulings(to_toml(doc))
    # a missing optional key takes its default and may still pass; otherwise: refused
    if result.exit_code == 0:
        assert "1 passed, 0 failed" in result.output, result.output
    else:
        assert_refused(result)
