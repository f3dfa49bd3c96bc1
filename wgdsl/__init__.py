"""wgdsl: a declarative card language, rules engine and ruling-case runner for card games.

The public engine interface (engine-api.md)::

    import wgdsl
    game = wgdsl.load_game("world-gainer")
    state = game.new_state(seed=1)
    state.apply(seat, state.legal_actions(seat)[0])   # wgdsl.IllegalAction when refused

Names are imported on first use, so ``import wgdsl`` (and the CLI) stays light.
"""

__version__ = "0.1.0"

__all__ = ["load_game", "IllegalAction", "RunawayEffects", "Answer", "Decision"]


def __getattr__(name: str):
    if name == "load_game":
        from wgdsl.games import load_game

        return load_game
    if name in ("IllegalAction", "RunawayEffects"):
        from wgdsl.kernel import errors

        return getattr(errors, name)
    if name in ("Answer", "Decision"):
        from wgdsl.kernel import decision

        return getattr(decision, name)
    raise AttributeError(f"module 'wgdsl' has no attribute {name!r}")
