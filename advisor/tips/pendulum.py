"""Pendulum: the source's advice, as code.

Source: *Patience Games* (Kellscraft Studio web edition), chapter Pendulum.

* **choose-by-lowest-rows** -- the building order is chosen after the deal
  by looking at the lowest rows, whose cards must be able to move or the
  game blocks at once. Panel ``pendulum-choices``: every choice ranked by
  :func:`advisor.games.pendulum.rank_choices`; suggestions for the three
  best distinct orders (scores 50, 40, 30).
* **simple-play-wins** -- a check on that choice: if simple play (aces
  first, then packets, swinging when blocked) wins with some order but not
  with the best by the lowest rows, suggest that order (score 55).
* **rows-stepped** -- keep each row, as far as you can, at least one card
  shorter than the row above it. One note names the rows that are not; one
  suggestion empties a place in the most overlong row, lowest first
  (score 1 + a tenth of the excess: on the scale of search).
* **crowning-gap** -- a top-row gap takes only the crowning card of the
  order; suggests bringing one up when it can (score 3), else says which
  card the gap waits for.
* **swing-when-blocked** -- when no card can move, it is time for the
  pendulum to swing, to the other side from last time (score 10); after two
  swings in vain the game is lost.

Panel ``pendulum-order`` (in play): the chosen order, its crowning card, how
packing goes and where the next swing goes.
"""
from __future__ import annotations

from functools import lru_cache

from ..advice import Context, Suggestion, TipBook
from ..cards import RANK_LABEL, rank_add
from ..engine import Move
from ..games.pendulum import GAME, ROWS, building_order, rank_choices

BOOK = TipBook("pendulum")
SOURCE = "Patience Games (Kellscraft), Pendulum"


@lru_cache(maxsize=8)
def _ranked_from(text: str) -> list[dict]:
    from ..engine import State
    return rank_choices(State.from_json(text))


def _ranked(state) -> list[dict]:
    """rank_choices, computed once per position for the two rules that use it."""
    return [dict(r) for r in _ranked_from(state.dumps())]


def _playing(state) -> bool:
    return GAME.phase(state) == "play" and not GAME.is_won(state)


def _choice_reason(r: dict) -> str:
    cards = ", ".join(r["bottom_cards"]) or "none"
    return (f"builds {' '.join(r['order'])} (the {r['crowning']} crowns); {r['frees']} card"
            f"{'s' if r['frees'] != 1 else ''} go out by building alone, closing up the rows when it stops "
            f"({r['bottom']} from the lowest row: {cards}); simple play gets {r['played_out']} of 48 out; "
            f"the same order as '{r['same_as']}'")


def _distinct(ranked: list[dict]) -> list[dict]:
    """One of each pair of twin choices (up k = down 13-k), keeping the ranking's order."""
    seen: set = set()
    out = []
    for r in ranked:
        if r["same_as"] not in seen:
            seen.add(r["move"])
            out.append(r)
    return out


@BOOK.rule("choose-by-lowest-rows", f"{SOURCE}: choosing the method of building",
           "Choose the building order by the lowest rows: the order that lets most of their cards go out.")
def choose_by_lowest_rows(ctx: Context):
    state = ctx.state
    if GAME.phase(state) != "choose":
        return
    ranked = _ranked(state)
    yield ("pendulum-choices", [
        {"move": r["move"], "same_as": r["same_as"], "order": " ".join(r["order"]), "crowning": r["crowning"],
         "frees": r["frees"], "lowest_row": r["bottom"], "at_once": r["at_once"], "simple_play_out": r["played_out"]}
        for r in ranked])
    for r, score in zip(_distinct(ranked), (50, 40, 30)):
        yield Suggestion(r["move"], GAME.describe(state, Move.act("choose", r["direction"], r["interval"])),
                         _choice_reason(r), score)


@BOOK.rule("simple-play-wins", f"{SOURCE}: choosing the method of building (checked by playing on)",
           "If the best order by the lowest rows does not come out with simple play but another order does, "
           "say so: the lowest rows are the source's guide, the play-out is a check.")
def simple_play_wins(ctx: Context):
    state = ctx.state
    if GAME.phase(state) != "choose":
        return
    ranked = _distinct(_ranked(state))
    if not ranked or ranked[0]["played_out"] == 48:
        return
    winner = next((r for r in ranked if r["played_out"] == 48), None)
    if winner is None:
        return
    yield Suggestion(winner["move"], GAME.describe(state, Move.act("choose", winner["direction"], winner["interval"])),
                     f"simple play (out on the aces first, then packets, swinging when blocked) wins with this order, "
                     f"but not with '{ranked[0]['move']}', which frees more at first; " + _choice_reason(winner), 55)


@BOOK.rule("rows-stepped", f"{SOURCE}: keep each row shorter than the one above",
           "Keep each row, as far as possible, at least one card shorter than the row above it.")
def rows_stepped(ctx: Context):
    state = ctx.state
    if not _playing(state):
        return
    lengths = [sum(1 for p in state.areas[name] if p) for name in ROWS]
    too_long = {ROWS[r]: lengths[r] - lengths[r - 1] + 1 for r in range(1, len(ROWS))
                if lengths[r] and lengths[r] >= lengths[r - 1]}
    if not too_long:
        return
    yield ("keep each row at least one card shorter than the row above; not yet: "
           + ", ".join(f"{name} ({lengths[ROWS.index(name)]} under {lengths[ROWS.index(name) - 1]})" for name in too_long))
    # one suggestion: a move emptying a place in the most overlong row, the lowest such row first
    worst = max(too_long, key=lambda n: (too_long[n], ROWS.index(n)))
    for m in GAME.legal_moves(state):
        if m.action == "move" and m.src.area == worst and m.count == len(state.pile(m.src)):
            yield Suggestion(str(m), GAME.describe(state, m),
                             f"empties a place in the {worst} row, {too_long[worst]} card"
                             f"{'s' if too_long[worst] != 1 else ''} longer than it should be", 1 + too_long[worst] / 10)
            return


@BOOK.rule("crowning-gap", f"{SOURCE}: gaps in the top row",
           "A top-row gap is filled only by the crowning card of the order, or waits for it.")
def crowning_gap(ctx: Context):
    state = ctx.state
    if not _playing(state):
        return
    gaps = [c for c, p in enumerate(state.areas["top"]) if not p]
    if not gaps:
        return
    crown = RANK_LABEL[rank_add(1, -GAME.step(state))]
    fills = [m for m in GAME.legal_moves(state) if m.action == "move" and m.dst.area == "top" and not state.pile(m.dst)]
    for m in fills:
        yield Suggestion(str(m), GAME.describe(state, m),
                         f"only a crowning card ({crown}) may fill a top-row gap; bringing it up frees the place "
                         f"it leaves in the {m.src.area} row", 3)
    if not fills:
        where = ", ".join(f"top {c + 1}" for c in gaps)
        yield f"{where}: only {'an' if crown in ('A', '8') else 'a'} {crown} (the crowning card) may fill a top-row gap"


@BOOK.rule("swing-when-blocked", f"{SOURCE}: the pendulum swings",
           "When no card can move, close up the rows to the other side from last time.")
def swing_when_blocked(ctx: Context):
    state = ctx.state
    if GAME.phase(state) == "play":
        info = state.info
        yield ("pendulum-order", {
            "order": GAME.order_words(state),
            "sequence": [RANK_LABEL[r] for r in building_order(info["direction"], info["interval"])],
            "crowning": RANK_LABEL[rank_add(1, -GAME.step(state))],
            "packing": f"the reverse way, {'in suit' if state.options.get('packing', 'suit') == 'suit' else 'any suit'}",
            "next_swing": info.get("next_swing", "right")})
    if not _playing(state):
        return
    legal = GAME.legal_moves(state)
    if not legal:
        yield "the rows have swung both ways without freeing a card: the game is lost"
        return
    if len(legal) == 1 and legal[0].action == "swing":
        side = legal[0].args[0]
        yield Suggestion(str(legal[0]), GAME.describe(state, legal[0]),
                         f"no card can move: swing the rows to the {side} (the swings alternate)", 10)
