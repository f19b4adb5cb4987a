"""Checking a solver's plan in tests with the engine's own Board, not with the solver's checker."""
from __future__ import annotations

from advisor.engine import Board, State


def replays_to_a_win(state: State, plan: list[str]) -> bool:
    b = Board(state.copy())
    for m in plan:
        b.push(m)                    # raises if any move is illegal
    return b.status() == "won"
