"""Legal-move counts from fixed-seed deals, like chess "perft" numbers.

``perft(state, depth)`` counts the move sequences of length ``depth``. The
committed table (tests/rules/perft.json) pins move generation: a change in
any count means the rules changed, on purpose or not.

    python -m advisor.perft --write    # regenerate after a deliberate rules change
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .engine import State, games, get_game

SEEDS = (1, 2, 3)
DEPTH = 3
TABLE = Path(__file__).resolve().parent.parent / "tests" / "rules" / "perft.json"


def perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    game = get_game(state.game)
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        child = state.copy()
        game.apply(child, m)
        total += perft(child, depth - 1)
    return total


def table(game_id: str, depth: int = DEPTH) -> dict[str, list[int]]:
    g = get_game(game_id)
    return {str(seed): [perft(g.new(seed), d) for d in range(1, depth + 1)] for seed in SEEDS}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--write", action="store_true", help="rewrite the committed table")
    ap.add_argument("games", nargs="*")
    a = ap.parse_args()
    current = json.loads(TABLE.read_text()) if TABLE.exists() else {}
    for gid in a.games or sorted(games()):
        current[gid] = table(gid)
        print(gid, current[gid])
    if a.write:
        TABLE.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
