"""The golden-log gate (tests/golden_logs.py): 1,000 seeded games keep their logs."""

from golden_logs import differences, digests, read_golden


def test_golden_games_keep_their_logs():
    now = digests()
    golden = read_golden()
    assert len(golden) == 1000
    diff = differences(now, golden)
    assert not diff, (f"{len(diff)} golden games changed their log (first: {diff[:5]}); if a rule "
                      "changed on purpose, re-record with `python tests/golden_logs.py --record` "
                      "and say which rule in the commit")


def test_a_changed_log_is_noticed():
    golden = read_golden()
    tampered = dict(golden, **{"random 3": "0" * 64})
    assert differences(tampered, golden) == ["random 3"]
