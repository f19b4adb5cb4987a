"""Our catalogue of games: ``seeds/<game-id>.toml``, in our own words.

Each entry has: id, name, source (document, by name), source_file, packs,
summary (two or three sentences for the page), ``[[areas]]`` (name, kind,
count, description), ``rules`` (list of sentences), ``[[decisions]]``
(question, decision, reason, and the ``option`` giving the other reading
where both are plausible), ``[[variants]]`` and ``[[facts]]`` (worked facts
from the source, used as test fixtures: name, about, and data).
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
REQUIRED = ("id", "name", "source", "packs", "summary", "areas", "rules", "decisions", "facts")


@lru_cache(maxsize=None)
def entry(game_id: str) -> dict:
    path = SEEDS / f"{game_id}.toml"
    if not path.exists():
        raise KeyError(f"no catalogue entry seeds/{game_id}.toml")
    with path.open("rb") as f:
        return tomllib.load(f)


def fact(game_id: str, name: str) -> dict:
    for f in entry(game_id).get("facts", []):
        if f.get("name") == name:
            return f
    raise KeyError(f"seeds/{game_id}.toml has no fact named {name!r}")
