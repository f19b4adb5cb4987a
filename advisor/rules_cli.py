"""Rules commands: games, deal, moves, check, play."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from .engine import Board, MoveError, State, StateError, games, get_game


def load_state(path: str) -> State:
    """Read a state file (``-`` for standard input), with a clear message on any problem."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise StateError(f"{path}: not a text file (a state is JSON)") from None
    except FileNotFoundError:
        raise StateError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise StateError(f"{path}: is a directory, not a state file") from None
    return State.from_json(text)


def dumps(obj) -> str:
    """Indented JSON, but a list of plain values (a pile of cards) stays on one line."""
    text = json.dumps(obj, ensure_ascii=False, indent=1)
    return re.sub(r"\[\s*([^\[\]{}]*?)\s*\]", lambda m: "[" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "]", text)


def _print(obj) -> None:
    print(dumps(obj))


def cmd_games(args) -> int:
    for gid, g in sorted(games().items()):
        print(f"{gid}\t{g.name}")
    return 0


def _options(pairs: list[str]) -> dict:
    opts = {}
    for p in pairs or []:
        key, sep, value = p.partition("=")
        if not sep:
            raise StateError(f"option {p!r}: write it as NAME=VALUE")
        try:
            opts[key] = json.loads(value)
        except json.JSONDecodeError:
            opts[key] = value
    return opts


def cmd_deal(args) -> int:
    game = get_game(args.game)
    _print(game.new(args.seed, _options(args.option)).to_json())
    return 0


def cmd_moves(args) -> int:
    board = Board(load_state(args.state))
    _print([{"move": str(m), "says": board.game.describe(board.state, m)} for m in board.legal_moves])
    return 0


def cmd_check(args) -> int:
    board = Board(load_state(args.state))
    move = board.parse(args.move)
    reason = board.why_illegal(move)
    if reason is None:
        print(f"legal: {move} ({board.game.describe(board.state, move)})")
        return 0
    print(f"illegal: {move}: {reason}")
    return 1


def register(sub) -> None:
    p = sub.add_parser("games", help="list the games, one line each: id and name")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("deal", help="deal a game from a seeded shuffle and print the state as JSON")
    p.add_argument("game")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("moves", help="list the legal moves of a state as JSON")
    p.add_argument("state", help="state JSON file, or - for standard input")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("check", help="say whether a move is legal, and why not")
    p.add_argument("state", help="state JSON file, or - for standard input")
    p.add_argument("move", help="e.g. column3>pile5, 7h>column2, deal")
    p.set_defaults(func=cmd_check)
