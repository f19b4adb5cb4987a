"""What the player is told: suggestions, dangers, panels and a verdict.

``advise(state, history)`` merges two sources:

* the game's **tip book** (``advisor/tips/<game_module>.py`` defining
  ``BOOK``), where each of the source's tips is one named rule;
* generic **search** (``advisor.search``), which ranks legal moves for every
  game, sampling hidden cards where some are hidden.

Everything here is plain data and JSON-serialisable.
"""
from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .engine import Game, Move, State, get_game

# Keeling's marks at the table, which the page draws.
TILT_RIGHT = "tilt-right-45"   # Aunty Allis: dead card; Kings: the pile's card fell on its own number
TURN_90 = "turn-90"            # danger card / junior at risk / top-priority pile
TILT_LEFT = "tilt-left-45"     # play before its twin; Kings: access will come


@dataclass
class Suggestion:
    move: str            # in our notation, e.g. column3>pile5
    says: str            # the move in words
    reason: str          # why, in plain words
    score: float = 0.0   # higher is better; only the order matters
    rule: str = "search"  # the named tip or "search"


@dataclass
class Danger:
    where: str           # a Loc, e.g. rubbish4
    depth: int | None    # index of the card in its pile (0 = bottom), None for the whole pile
    card: str | None     # card label, e.g. 10h
    kind: str            # e.g. dead, danger, play-first, junior-at-risk, curse
    reason: str
    mark: str | None = None   # one of TILT_RIGHT, TURN_90, TILT_LEFT
    rule: str = ""


@dataclass
class Winnable:
    verdict: str                   # yes, no, likely, unlikely, unknown
    exact: bool = False
    probability: float | None = None
    samples: int | None = None
    plan: list[str] = field(default_factory=list)
    reason: str = ""


@dataclass
class Advice:
    game: str
    suggestions: list[Suggestion] = field(default_factory=list)
    dangers: list[Danger] = field(default_factory=list)
    panels: dict[str, Any] = field(default_factory=dict)
    winnable: Winnable | None = None
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)


History = Sequence[tuple[State, Move]]   # earlier states, each with the move made from it


@dataclass
class Context:
    game: Game
    state: State
    history: History


@dataclass
class Rule:
    name: str
    source: str          # where the tip comes from, e.g. "Keeling, Aunty Allis tip 4"
    summary: str
    fn: Callable[[Context], Iterable[Any]]


class TipBook:
    """A game's tips, each a named rule yielding Suggestions, Dangers, (panel name, value) pairs or note strings."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.rules: list[Rule] = []

    def rule(self, name: str, source: str, summary: str):
        def wrap(fn):
            self.rules.append(Rule(name, source, summary, fn))
            return fn
        return wrap

    def run(self, ctx: Context, advice: Advice) -> None:
        suggested: dict[str, Suggestion] = {s.move: s for s in advice.suggestions}
        for r in self.rules:
            for item in r.fn(ctx) or ():
                if isinstance(item, Suggestion):
                    item.rule = item.rule if item.rule != "search" else r.name
                    # Each move is listed once: when several tips suggest it, keep the best score and join the reasons.
                    same = suggested.get(item.move)
                    if same is None:
                        suggested[item.move] = item
                        advice.suggestions.append(item)
                    else:
                        first, second = (same, item) if same.score >= item.score else (item, same)
                        same.reason, same.rule, same.score, same.says = (
                            f"{first.reason}; also ({second.rule}): {second.reason}", first.rule, first.score, first.says)
                elif isinstance(item, Danger):
                    item.rule = item.rule or r.name
                    advice.dangers.append(item)
                elif isinstance(item, tuple) and len(item) == 2:
                    advice.panels[item[0]] = item[1]
                elif isinstance(item, Winnable):
                    advice.winnable = item
                elif isinstance(item, str):
                    advice.notes.append(item)
                else:
                    raise TypeError(f"rule {r.name} yielded {item!r}")


def tip_book(game_id: str) -> TipBook | None:
    try:
        mod = importlib.import_module(f"advisor.tips.{game_id.replace('-', '_')}")
    except ModuleNotFoundError as e:
        if e.name == f"advisor.tips.{game_id.replace('-', '_')}":
            return None
        raise
    return getattr(mod, "BOOK", None)


def advise(state: State, history: History = (), *, search: bool = True, budget=None) -> Advice:
    """Advice for ``state``; ``budget`` (an ``advisor.search.Budget``) bounds the search time."""
    game = get_game(state.game)
    advice = Advice(game.id)
    book = tip_book(game.id)
    if book is not None:
        book.run(Context(game, state, history), advice)
    if search:
        from . import search as _search
        _search.add_suggestions(game, state, advice, budget, history=history)
    advice.suggestions.sort(key=lambda s: -s.score)
    return advice


def nearest_legal(state: State, move: Move) -> Move | None:
    """The legal move closest to an illegal proposal: same card to another place, or another card to the same place."""
    game = get_game(state.game)
    legal = game.legal_moves(state)
    if not legal:
        return None

    def closeness(m: Move) -> tuple:
        return (m.action == move.action, m.src == move.src and m.src is not None,
                m.dst == move.dst and m.dst is not None,
                m.src is not None and move.src is not None and m.src.area == move.src.area,
                m.dst is not None and move.dst is not None and m.dst.area == move.dst.area)

    best = max(legal, key=closeness)
    return best if any(closeness(best)) else legal[0]
