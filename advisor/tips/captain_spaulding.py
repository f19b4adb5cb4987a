"""Captain Spaulding: what Parlett's text gives as play advice, as code.

Source: David Parlett, *Original Patience Games*, Captain Spaulding. The text
gives no list of tips; its one point of play is "the catch": a column's foot
card may only be built on the sequence in line with its column, while the
centre column's foot card may go on any of the eight, and an emptied column
takes any card. So a card that fits a sequence out of its line is not lost:
it gets there through the centre column or through the column under that
sequence, once either is empty. The rule

* suggests moving such a card into the empty centre column (score 40) or
  into the empty column under the sequence it fits (score 35);
* flags it (kind ``out-of-line``) when neither place is free, naming the
  sequence it fits and the places that would let it get there.
"""
from __future__ import annotations

from ..advice import Context, Danger, Suggestion, TipBook
from ..engine import Loc, Move
from ..games.captain_spaulding import CENTRE, COLUMNS, GAME

BOOK = TipBook("captain-spaulding")
SOURCE = "Parlett, Captain Spaulding: the positional catch and the centre column"


def _fits_elsewhere(state, col: int) -> list[Loc]:
    """Sequences the foot card of ``col`` fits but may not be built on from where it lies."""
    pile = state.areas["column"][col]
    if not pile or pile[-1].card is None or col == CENTRE:
        return []
    card = pile[-1].card
    own = GAME._foundation_of(col)
    if GAME._fits(state, card, own):
        return []           # it can be built in line already
    return [f for f in GAME._foundations() if f != own and GAME._fits(state, card, f)]


def _column_under(f: Loc) -> int:
    return f.index if f.area == "aces" else f.index + CENTRE + 1


@BOOK.rule("through-the-centre", SOURCE,
           "A card that fits a sequence out of its line reaches it through the empty centre column, "
           "or through the emptied column under that sequence.")
def through_the_centre(ctx: Context):
    state = ctx.state
    cols = state.areas["column"]
    for c in range(COLUMNS):
        fits = _fits_elsewhere(state, c)
        if not fits:
            continue
        card = cols[c][-1].card
        names = " or ".join(f.human() for f in fits)
        if not cols[CENTRE]:
            m = Move.cards(Loc("column", c), Loc("column", CENTRE))
            yield Suggestion(str(m), GAME.describe(state, m),
                             f"the {card.pretty} fits {names} but is not in line with it; from the empty centre "
                             "column it may be built on any sequence", 40)
            continue
        free = [f for f in fits if not cols[_column_under(f)] and _column_under(f) != c]
        if free:
            f = free[0]
            m = Move.cards(Loc("column", c), Loc("column", _column_under(f)))
            yield Suggestion(str(m), GAME.describe(state, m),
                             f"the {card.pretty} fits {f.human()}; in the empty column under it, it is in line "
                             "and may be built there next", 35)
            continue
        under = ", ".join(f"column {_column_under(f) + 1}" for f in fits)
        yield Danger(str(Loc("column", c)), len(cols[c]) - 1, card.label, "out-of-line",
                     f"the {card.pretty} fits {names} but is out of line; it needs the centre column (5) "
                     f"or {under} to be empty")
