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
    actions, log = golden["random 3"].split()
    reworded = dict(golden, **{"random 3": f"{actions} {'0' * 64}"})
    assert differences(reworded, golden) == ["random 3"]
    assert differences(reworded, golden, part=0) == []
    replayed = dict(golden, **{"greedy 9": f"{'0' * 64} {golden['greedy 9'].split()[1]}"})
    assert differences(replayed, golden, part=0) == ["greedy 9"]
