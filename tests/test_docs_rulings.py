"""docs/rulings.md stays true: its worked example is the shipped case file, word for
word, and it passes; every TOML snippet parses; the reports it shows are the ones the
runner prints."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from click.testing import CliRunner

from wgdsl.cli import main
from wgdsl.tools.rulings import load_case, run_case

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
TOML_BLOCKS = re.findall(r"```toml\n(.*?)```", DOC, re.S)
WORKED = ROOT / "examples" / "sets" / "rulings" / "xp003-courier-seized-draws.toml"


def test_the_worked_example_is_the_shipped_case():
    text = WORKED.read_text(encoding="utf-8")
    assert text in TOML_BLOCKS
    result = run_case(load_case(WORKED))
    assert result.ok, result.message


def test_every_toml_snippet_parses():
    assert len(TOML_BLOCKS) >= 5
    for block in TOML_BLOCKS:
        tomllib.loads(block)


def test_the_shown_failure_is_what_the_runner_prints(tmp_path):
    text = WORKED.read_text(encoding="utf-8")
    wrong = text.replace('[expect.A]\nhand = []', '[expect.A]\nhand = ["WG-010"]')
    assert wrong != text
    # `cards = "../expedition.wg"` must stay inside the folders a case may read from
    set_file = WORKED.parent.parent / "expedition.wg"
    (tmp_path / "expedition.wg").write_text(set_file.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "rulings").mkdir()
    case = tmp_path / "rulings" / "wrong.toml"
    case.write_text(wrong, encoding="utf-8")
    out = CliRunner().invoke(main, ["rulings", str(case)])
    assert out.exit_code == 1
    assert out.output in DOC
    assert "FAIL xp003-courier-seized-draws: A.hand: expected [WG-010] but was []" in out.output


def test_the_cases_the_doc_names_exist():
    named = set(re.findall(r"`([a-z0-9-]+\.toml)`", DOC))
    assert named
    shipped = {p.name for p in (ROOT / "examples").rglob("*.toml")}
    assert named <= shipped, named - shipped
