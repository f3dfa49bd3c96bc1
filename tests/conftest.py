"""Hypothesis profiles for the whole suite.

- ``ci`` (the default, and what CI=true selects): a bounded number of examples and short
  generated games so the WHOLE suite stays within a few minutes on a 2-core machine;
  derandomized, so every run tests the same examples and a CI failure reproduces.
- ``deep``: many examples, long games (to a win or a deck-out), no deadline — for a
  night run: ``HYPOTHESIS_PROFILE=deep pytest tests/test_invariants.py``.

HYPOTHESIS_PROFILE picks a profile by name; WGDSL_GAME_STEPS overrides the game length.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

import strategies

settings.register_profile(
    "ci",
    max_examples=25,
    derandomize=True,
    deadline=None,  # game steps vary widely in time; shared CI machines even more
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "deep",
    max_examples=2000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# how many actions one generated game may take, per profile
GAME_STEPS = {"ci": 300, "deep": 2000}

profile = os.environ.get("HYPOTHESIS_PROFILE") or "ci"
settings.load_profile(profile)
if strategies.GAME_STEPS is None:
    strategies.GAME_STEPS = GAME_STEPS.get(profile, GAME_STEPS["ci"])
