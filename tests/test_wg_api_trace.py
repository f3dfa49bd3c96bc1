"""The public interface's trace gate (tests/wg_api_trace.py) in the suite: World Gainer's
seeded games through ``load_game`` keep their recorded traces (lists, actions, refusals,
clones, observations, resamples, logs).  The first 100 games by default (≈ 10 s); all 300
under the ``deep`` profile."""

import os

from wg_api_trace import GAMES, GOLDEN, digests


def test_public_interface_traces_are_unchanged():
    want = GOLDEN.read_text().split()
    assert len(want) == GAMES
    games = GAMES if os.environ.get("HYPOTHESIS_PROFILE") == "deep" else 100
    got = digests(games)
    bad = [i for i, (a, b) in enumerate(zip(got, want)) if a != b]
    assert not bad, (f"{len(bad)} of {games} games changed their trace (first: {bad[:5]}); "
                     "diff `python tests/wg_api_trace.py --show I` between commits, and if "
                     "the interface changed on purpose re-record with `--record` and say why")
