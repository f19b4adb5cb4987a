"""Advice for Poker Patience (and Advanced and Serpent Poker), as named rules.

Source: Mary Whitmore Jones, *New Games of Patience* (1911), Poker Patience
and Advanced Poker Patience, and issue 4 (the placement with the best
expected score).

* ``best-expected-placement``: every legal move is scored by the expected
  final score of the square, sampling the order of the unseen cards
  (:mod:`advisor.poker_patience_solver`); exact when one card is left to come.
* ``running-score``: the score of each row and column so far.
* ``dumping-ground``: the book's advice to keep one row as a dumping-ground
  for the cards that come out awkwardly: the least promising line is shown,
  and a card that helps no line is steered into it.
* ``discard-sparingly``: Advanced Poker's five discards are a privilege the
  book says not to spend freely, least of all early in the game.

Scores (only their order matters): 100 + expected final score for the
sampled suggestions, 20 for the dumping-ground suggestion.
"""
from __future__ import annotations

from ..advice import Advice, Context, Suggestion, TipBook, Winnable
from ..engine import Loc, Move
from ..games.poker_patience import COLS, GAME, MAX_DISCARDS, cell_name, score_square, square_lines
from .. import poker_patience_solver as solver

SOURCE = "Whitmore Jones, Poker Patience"
BUDGET_SECONDS = 0.4          # time for ranking the moves of one position
EARLY = 10                    # fewer cards laid than this is "the beginning of a game"


BOOK = TipBook("poker-patience")


def estimates(ctx: Context) -> list:
    """The sampled expected scores of the position, computed once per advice."""
    if getattr(ctx, "_poker_estimates", None) is None:
        ctx._poker_estimates = solver.expected_scores(ctx.state, seconds=BUDGET_SECONDS)
    return ctx._poker_estimates


def _what(state) -> str:
    where, _ = GAME._joker(state)
    if where == "turned":
        return "the joker"
    t = state.areas["turned"][0]
    return f"the {t[-1].card.pretty}" if t and t[-1].card else "the turned card"


@BOOK.rule("best-expected-placement", "issue 4; Whitmore Jones, Poker Patience (each card laid by judgment)",
           "Lay each card where the expected final score of the square is highest, judged by playing the square "
           "out many times against random orders of the cards not yet seen.")
def best_expected_placement(ctx: Context):
    ests = estimates(ctx)
    if not ests:
        return
    yield ("expected-scores", [{"move": str(e.move), "expected": round(e.mean, 2), "spread": round(e.spread, 2),
                                "samples": e.samples, "exact": e.exact} for e in ests])
    best = ests[0]
    for e in ests[:5]:
        how = ("exactly, over every card that can still come" if e.exact else
               f"over {e.samples} sampled orders of the unseen cards (± {e.spread:.1f})")
        gap = "" if e is best else f", {best.mean - e.mean:.1f} less than the best"
        yield Suggestion(str(e.move), GAME.describe(ctx.state, e.move),
                         f"expected final score {e.mean:.1f}{gap}, {how}", 100 + e.mean)
    yield Winnable("yes", exact=best.exact, samples=None if best.exact else best.samples,
                   reason=f"a game of Poker Patience always ends with a complete square; what counts is its score, "
                          f"expected to be about {best.mean:.1f} with good play from here")


@BOOK.rule("running-score", SOURCE, "Each row and column scored as it stands, by the variant's table.")
def running_score(ctx: Context):
    yield ("score", {"total": score_square(ctx.state), "lines": square_lines(ctx.state)})


def _lines(sim):
    """(name, cells with a free place, value) for every row and column already started."""
    targets = sim.targets()
    va, am = sim.variant, sim.ace_middle
    out = []
    for r, key in sim.rows.items():
        free = [t for t in targets if t[1] == r]
        out.append((f"row {r + 1}", free, solver.line_value(key, va, am), len(key)))
    for c, key in sim.cols.items():
        free = [t for t in targets if t[0] == c]
        out.append((f"column {COLS[c]}", free, solver.line_value(key, va, am), len(key)))
    return out


def detrimental(state) -> bool | None:
    """Whether the turned card adds nothing to any row or column it could join (None: nothing to judge)."""
    obs = GAME.observation(state)
    sim, pending, _ = solver.sim_from(obs)
    if pending is None or pending == solver.JK or any(v is None for v in sim.cells.values()) or not sim.cells:
        return None
    _, gain = sim.best_cell(pending)
    return gain <= 0


@BOOK.rule("dumping-ground", "Whitmore Jones, Poker Patience: one row as a dumping-ground",
           "When cards come out awkwardly, keep one line as a dumping-ground: the least promising row or column "
           "takes the cards that help no line.")
def dumping_ground(ctx: Context):
    state = ctx.state
    sim, pending, _ = solver.sim_from(GAME.observation(state))
    if any(v is None for v in sim.cells.values()):
        return
    lines = [l for l in _lines(sim) if l[1] and l[3] >= 2]
    if not lines:
        return
    name, free, value, _ = min(lines, key=lambda l: (l[2], -l[3], l[0]))
    yield ("dumping-ground", {"line": name, "prospect": round(value, 2),
                              "free": [cell_name(*t) for t in free]})
    if detrimental(state):
        cell = max(free, key=lambda t: (sim.gain(t, pending), [-x for x in t]))
        m = Move.cards(Loc("turned", 0), Loc(COLS[cell[0]], cell[1]))
        yield Suggestion(str(m), GAME.describe(state, m),
                         f"{_what(state)} helps no row or column it could join: put it in the dumping ground, {name}, "
                         f"where it spoils the least", 20)
        yield f"{_what(state)[0].upper()}{_what(state)[1:]} helps no line: the dumping ground is {name}."


@BOOK.rule("discard-sparingly", "Whitmore Jones, Advanced Poker Patience: discards",
           "Advanced Poker allows five discards; spend them sparingly, especially in the beginning of a game: "
           "when discarding is ranked best early on, say so and by how little.")
def discard_sparingly(ctx: Context):
    state = ctx.state
    if state.options.get("variant") != "advanced":
        return
    left = MAX_DISCARDS - len(state.areas["discard"][0])
    yield ("discards-left", left)
    laid = len(GAME.grid(state))
    if left <= 0 or laid >= EARLY:
        return
    ests = estimates(ctx)
    if not ests or ests[0].move.action != "move" or ests[0].move.dst.area != "discard":
        return
    lay = next((e for e in ests if e.move.action == "move" and e.move.dst.area != "discard"), None)
    margin = f" (only {ests[0].mean - lay.mean:.1f} points better than laying it at {lay.move.dst})" if lay else ""
    yield (f"discarding {_what(state)} is ranked first{margin}, but with {laid} card{'s' if laid != 1 else ''} laid "
           f"it is early: the book advises against spending the {left} discard{'s' if left != 1 else ''} freely "
           f"at the beginning of a game")
