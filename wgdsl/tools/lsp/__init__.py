"""``wgdsl lsp``: a language server for card files, game files and ruling cases.

:mod:`.documents` is what the server knows of a document (problems, hover, completion,
definition, formatting) as plain data; :mod:`.positions` converts between wgdsl's lines
and columns and the protocol's; :mod:`.server` speaks the protocol with pygls, an
optional dependency (``pip install 'wgdsl[lsp]'``).
"""

from __future__ import annotations

INSTALL = "pip install 'wgdsl[lsp]'"


def missing() -> str | None:
    """Why the server cannot start (pygls is not installed), or None."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError as err:
        return (f"wgdsl lsp needs pygls, which is not installed ({err.name} is missing): "
                f"{INSTALL} (from a checkout: pip install '.[lsp]')")
    return None


def serve(version: str = "") -> None:
    """Run the server on standard input and output until the editor says exit."""
    from .server import serve as run

    run(version)
