"""It's a Wonderful World as a factory another process can import (check_determinism)."""

import wgdsl


def wonderful_world():
    return wgdsl.load_game("wonderful-world")
