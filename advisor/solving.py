"""What every exact solver shares: checking a plan against the rules engine, and the command line.

A solver (``advisor/<game>_solver.py``) searches its own compact positions, so
a plan it finds is replayed through the game's rules engine before it is
claimed as a win: the engine, not the solver, says what is legal.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Callable

from .engine import State, get_game


# Before the first move of a game the solver may think this long (seconds). A player
# expects a pause when the cards are first laid out, and a plan found then is
# followed to the end at no further cost; later a deal without a plan gets the
# usual short look at every move, which is where the time would otherwise go.
OPENING_SECONDS = 5.0


def thinking_time(history, usual: float) -> float:
    """The solver's time for this decision: longer at the opening (no moves made yet)."""
    return usual if history else max(usual, OPENING_SECONDS)


@dataclass
class Solution:
    """A solver's answer: "yes" (with a plan that wins), "no" (proved lost) or "unknown"."""

    verdict: str                      # yes / no / unknown
    plan: list[str] = field(default_factory=list)
    reason: str = ""
    nodes: int = 0
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        return self.verdict in ("yes", "no")

    def to_json(self) -> dict:
        return {"verdict": self.verdict, "exact": self.exact, "plan": list(self.plan), "reason": self.reason,
                "nodes": self.nodes, "seconds": round(self.seconds, 3)}


def replays_to_a_win(game_id: str, state: State, plan: list[str]) -> bool:
    """Every move of ``plan`` legal in turn from ``state``, and the game won at the end."""
    g = get_game(game_id)
    s = state.copy()
    try:
        for text in plan:
            m = g.parse_move(s, text)
            if g.why_illegal(s, m) is not None:
                return False
            g.apply(s, m)
    except Exception:          # a plan the engine cannot even read is not a win
        return False
    return g.is_won(s)


def solver_main(solve: Callable, usage: str, argv: list[str] | None) -> int:
    """``python -m advisor.<game>_solver STATE.json [seconds]``: the verdict as JSON."""
    from .rules_cli import load_state
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print(usage)
        return 1
    state = load_state(args[0])
    limit = float(args[1]) if len(args) > 1 else 1.0
    print(json.dumps(solve(state, limit).to_json(), ensure_ascii=False, indent=1))
    return 0
