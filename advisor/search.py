"""Search-based suggestions for every game (placeholder until the advice issue lands)."""
from __future__ import annotations


def add_suggestions(game, state, advice) -> None:
    return None
