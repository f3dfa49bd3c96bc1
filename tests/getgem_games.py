"""GETGEM as a factory another process can import (engine_api_props.check_determinism)."""

import wgdsl


def getgem():
    return wgdsl.load_game("getgem")
