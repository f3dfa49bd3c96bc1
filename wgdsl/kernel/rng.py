"""The games' random generator: SplitMix64 on a plain int.

A game keeps the generator's state as one integer in its plain data, so a snapshot or a
copy of the state copies it for free, and a seeded game is the same in every process and
every Python version (engine-api.md invariant 4; ``random.Random`` would also do, but its
state is a 625-word tuple to save and restore).
"""

from __future__ import annotations

MASK = (1 << 64) - 1
_SPAN = 1 << 64


def next_random(x: int) -> tuple[int, int]:
    """SplitMix64: (the next state, a 64-bit number)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def below(x: int, n: int) -> tuple[int, int]:
    """(the next state, a number in 0..n-1) drawn without bias (rejection)."""
    limit = _SPAN - (_SPAN % n)
    while True:
        x, z = next_random(x)
        if z < limit:
            return x, z % n


def shuffled(x: int, cards: list) -> int:
    """Shuffle ``cards`` in place (Fisher-Yates from the end); the generator's next state.

    Each swap's index is ``below(x, i + 1)``'s, with :func:`below` and :func:`next_random`
    written out in the loop (every game's ``new_state`` shuffles its stocks: two calls a
    card saved; tests/test_kernel_fast_paths.py holds the two to the same draws)."""
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = _SPAN - (_SPAN % n)
        while True:
            x = (x + 0x9E3779B97F4A7C15) & MASK
            z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        cards[i], cards[j] = cards[j], cards[i]
    return x


def fingerprint(rng) -> str:
    """Sixteen hex digits that stand for a ``random.Random``'s whole state (its 625 words
    and the pending Gaussian), for a ``to_dict()`` that shows the generator without its
    2.5 KB of words: equal states give equal prints, and a different state a different
    one but with odds of 2^-64.  Python's hash of a tuple of ints (no string in it, so
    ``PYTHONHASHSEED`` does not move it) is the same in every process; it costs about a
    sixth of a SHA-256 of the state's text, which a sweep's record paid twice a game."""
    version, words, gauss = rng.getstate()
    return format(hash((version, words, () if gauss is None else (gauss,))) & MASK, "016x")
