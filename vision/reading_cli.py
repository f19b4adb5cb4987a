"""``patience read PHOTO --game GAME [--previous STATE.json]``: a photo of a layout -> the Reading as JSON."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from advisor.engine import State, StateError


def register(sub) -> None:
    p = sub.add_parser("read", help="read a photo of a layout into a game state (JSON)",
                       description="Find the cards in a photo of a patience layout and rebuild the game state, "
                                   "with a confidence per card, doubts in plain words, and (with --previous) "
                                   "the moves that explain what changed since the last photo.")
    p.add_argument("photo", help="the photo (JPEG, PNG or WebP)")
    p.add_argument("--game", required=True, help="the game being played (its id, e.g. senior-wrangler)")
    p.add_argument("--previous", help="the state read from the previous photo (JSON file, '-' for standard input)")
    p.add_argument("--options", help="game options as a JSON object (default: the previous state's, else the game's)")
    p.add_argument("--no-sightings", action="store_true", help="leave the raw detections out of the output")
    p.set_defaults(func=run)


def _previous(arg: str | None) -> State | None:
    if not arg:
        return None
    text = sys.stdin.read() if arg == "-" else Path(arg).read_text(encoding="utf-8")
    return State.from_json(text)


def run(args) -> int:
    from vision.reading import read_layout
    previous = _previous(args.previous)
    options = None
    if args.options:
        try:
            options = json.loads(args.options)
        except json.JSONDecodeError as e:
            raise StateError(f"--options is not valid JSON: {e.msg}") from None
        if not isinstance(options, dict):
            raise StateError("--options must be a JSON object, like '{\"columns\": 9}'")
    reading = read_layout(args.photo, args.game, previous=previous, options=options)
    out = reading.to_json()
    if args.no_sightings:
        out.pop("sightings", None)
    print(json.dumps(out, ensure_ascii=False, indent=1))
    return 0 if reading.state is not None else 1
