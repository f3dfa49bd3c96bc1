"""Checker: semantic checks on a parsed card set (to be completed)."""

from __future__ import annotations

from . import ast
from .diagnostics import Diagnostic


def check(cardset: ast.CardSet) -> list[Diagnostic]:
    return []
