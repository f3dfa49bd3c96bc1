"""benchmarks/bench_api.py runs: 2 games, 1 round (a benchmark is not a test; this only
keeps the script from rotting).  The OpenSpiel peer is timed when pyspiel imports; when it
does not, the script must say how to get it instead of failing.  Where pyspiel is
installed, the second case hides it, so both branches run on such a machine."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_api.py"
HAS_PYSPIEL = importlib.util.find_spec("pyspiel") is not None
# runs the script as __main__ with `import pyspiel` failing, as on a machine without it
HIDDEN = ("import runpy, sys; sys.modules['pyspiel'] = None; sys.argv = sys.argv[1:]; "
          "runpy.run_path(sys.argv[0], run_name='__main__')")


@pytest.mark.parametrize("peer", ["as installed",
                                  pytest.param("hidden", marks=pytest.mark.skipif(
                                      not HAS_PYSPIEL, reason="pyspiel is absent already"))])
def test_two_games_run(peer):
    args = [str(SCRIPT), "--games", "2", "--rounds", "1"]
    cmd = [sys.executable, *args] if peer == "as installed" else [sys.executable, "-c", HIDDEN, *args]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    line = re.search(r"round 1  wgdsl .* ([0-9.]+) µs/action .* ([0-9.]+) actions/game", out.stdout)
    assert line, out.stdout
    # the games were played: a time per action and a count of actions (what the games
    # are is the golden logs' business, not this test's)
    assert float(line.group(1)) > 0 and float(line.group(2)) >= 1
    timed_peer = peer == "as installed" and HAS_PYSPIEL
    assert ("round 1  backgammon" in out.stdout) == timed_peer
    assert ("ratio backgammon" in out.stdout) == timed_peer
    assert ("pip install open_spiel" in out.stdout) == (not timed_peer)
