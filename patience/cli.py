"""``patience``: one command, with subcommands contributed by each package.

Each package that offers commands has a ``cli`` module with
``register(subparsers)``; every subcommand sets ``func(args) -> int``.
Errors we expect (bad input) are :class:`advisor.engine.PatienceError` or
``OSError``; they are printed as one line and exit with status 2.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from advisor.engine import PatienceError

# Packages that contribute subcommands, in the order they appear in --help.
COMMAND_MODULES = ("advisor.rules_cli", "vision.cli", "vision.reading_cli", "advisor.cli", "webui.cli")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="patience", description="Patience Companion: your assistant at the card table.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            # A package not written yet contributes nothing; a missing third-party
            # dependency of an existing module is a real error.
            if e.name == name:
                continue
            raise
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 1
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (patience moves s.json | head): not an error of ours.
        sys.stderr.close()
        return 0
    except (PatienceError, OSError) as e:
        print(f"patience {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
