"""Keeling's tips for Uncle Remus, each a named rule.

Source: George Keeling, "The five great games of patience" (2005), section D,
tips 2-13. The tips are paraphrased in each rule's summary; the rules look
only at what the player can see (face-up cards), so they work on states read
from the camera with unknown cards.

Scores (only their order matters):
    60     the look-ahead's plan, or its advice to deal (tips 4-10 weighed together)
    42-50  a short fiddle that puts a book aside or turns up a face-down card (tips 5-7)
    34-39  a short fiddle that makes another space (tip 5)
    30-33  same-suit joins (tip 4)
    <20    which card or set to move into a space (tip 8)
    15-17  king / space placement for the last four-card deal (tip 13)
    5      deal: nothing advantageous is left in this session

Every suggested move (other than the fiddles, which follow a plan that
shortens at every step) makes a measurable gain - fewer cards to deal, fewer
face-down cards, fewer occupied columns, more same-suit links, or a space
moved out of the first columns - so following the top suggestion never goes
round in circles. The look-ahead's moves belong to a plan whose end scores
higher than its start, and a plan may not pass through a position seen since
the last card was turned up, so the same holds for it.
"""
from __future__ import annotations

from ..advice import TURN_90, Context, Danger, Suggestion, TipBook
from ..cards import RANK_NAME, SUIT_NAME, SUIT_SYMBOL
from ..engine import Loc, Move, Slot
from ..games.uncle_remus import BOOK_SIZE, BOOKS, COLUMN, STOCK, face_down_count, run_length
from .. import uncle_remus_fiddle as fiddle
from .. import uncle_remus_plan as planner


BOOK = TipBook("uncle-remus")
SOURCE = "Keeling, Uncle Remus"


def _cols(ctx: Context) -> list[list[Slot]]:
    return ctx.state.areas[COLUMN]


def _stock_left(ctx: Context) -> int:
    piles = ctx.state.areas.get(STOCK) or [[]]
    return len(piles[0])


def _last_deal_columns(ctx: Context) -> int:
    """How many columns the final short deal will cover (0 when there is none to come)."""
    left = _stock_left(ctx)
    ncol = len(_cols(ctx))
    short = left % ncol
    return short


def _whole_column_set(pile: list[Slot]) -> bool:
    """The column is one face-up card or one same-suit set with nothing under it."""
    return bool(pile) and run_length(pile) == len(pile)


def _face_up_part_is_one_set(pile: list[Slot]) -> bool:
    """Everything face up in the column forms one movable set (a single card or a same-suit run)."""
    return bool(pile) and run_length(pile) == len(pile) - face_down_count(pile)


def _set_words(pile: list[Slot], k: int) -> str:
    cards = [s.card.pretty for s in pile[-k:]]
    if k == 1:
        return f"the {cards[0]}"
    return f"the {cards[0]}-{cards[-1]} set"


def _legal(ctx: Context, move: Move) -> bool:
    return ctx.game.why_illegal(ctx.state, move) is None


def _blocked_by_book(ctx: Context) -> bool:
    """When removal is automatic and a finished book is still on the table, nothing else is advised."""
    moves = ctx.game.legal_moves(ctx.state)
    return bool(moves) and all(m.action == "remove" for m in moves)


# ------------------------------------------------------- tips 4-10 together

def _count(n: int, one: str, many: str) -> str:
    return f"{_word(n)} {one if n == 1 else many}"


def plan_words(plan: planner.Plan) -> str:
    """What a plan achieves, in plain words (its gains first, then what it costs)."""
    gains, costs = [], []
    if plan.books:
        gains.append(f"puts {_count(plan.books, 'book', 'books')} aside")
    if plan.turned:
        gains.append(f"turns up {_count(plan.turned, 'face-down card', 'face-down cards')}")
    if plan.spaces > 0:
        gains.append(f"makes {_count(plan.spaces, 'new space', 'new spaces')}")
    elif plan.spaces < 0:
        costs.append(f"uses up {_count(-plan.spaces, 'space', 'spaces')}")
    if plan.suit_links > 0:
        gains.append(f"puts {_count(plan.suit_links, 'more card', 'more cards')} on a senior of "
                     f"{'its' if plan.suit_links == 1 else 'their'} own suit")
    elif plan.suit_links < 0 and not plan.books:
        costs.append(f"parts {_count(-plan.suit_links, 'card', 'cards')} from a senior of the same suit")
    if plan.breaks < 0:
        gains.append(f"takes {_count(-plan.breaks, 'card', 'cards')} off a card that is not "
                     f"{'its' if plan.breaks == -1 else 'their'} senior")
    if not gains:
        gains.append("leaves the columns in longer runs, fewer of them to clear")
    text = ", ".join(gains[:-1]) + (" and " if len(gains) > 1 else "") + gains[-1]
    if costs:
        text += " (it " + " and ".join(costs) + ")"
    return text


@BOOK.rule("look-ahead", f"{SOURCE}, tips 4-10 weighed together",
           "Keeling's aims - put books aside, turn face-down cards up, make spaces, build in suit and end a "
           "session with few runs in each column - are weighed together, and the companion searches the moves "
           "you can make before the next deal (they never need a hidden card) for the plan that serves them "
           "best. When no plan gains anything, it is time to deal.")
def look_ahead(ctx: Context):
    if _blocked_by_book(ctx):
        return
    cols = _cols(ctx)
    waiting = [i for i, p in enumerate(cols) if planner.book_waiting(p)]
    if waiting:          # books removed by hand: a finished book goes first (tip 7)
        move = Move.act("remove", f"{COLUMN}{waiting[0] + 1}")
        if _legal(ctx, move):
            yield Suggestion(move=str(move), says=ctx.game.describe(ctx.state, move),
                             reason="the book is complete: put it aside at once (a finished book can only get in "
                                    "the way, and two books aside seldom lose)", score=60.0)
            return
    plan = planner.plan_for(ctx.state, ctx.history)
    if plan is None:
        deal = Move.act("deal")
        if _stock_left(ctx) and _legal(ctx, deal):
            yield Suggestion(
                move=str(deal), says=ctx.game.describe(ctx.state, deal),
                reason=("no plan of moves found before the next deal gains anything (none turns a card up, "
                        "makes a space, puts a book aside, builds in suit or tidies a column), so this session "
                        "is over: deal"), score=60.0)
        elif not _stock_left(ctx):
            yield ("All the cards are dealt and no plan of moves gains anything more: by Keeling's rules the "
                   "game is over here.")
        return
    first = ctx.game.parse_move(ctx.state, plan.notation[0])
    if not _legal(ctx, first):
        return
    if plan.length == 1:
        steps = "this move"
    else:
        shown = ", ".join(plan.notation[:8]) + (", ..." if plan.length > 8 else "")
        steps = f"the first of a plan of {plan.length} moves ({shown}) that"
    yield Suggestion(
        move=str(first), says=ctx.game.describe(ctx.state, first),
        reason=(f"{steps} {plan_words(plan)}: the best plan found among the moves you can make before the next "
                "deal"), score=60.0)


# -------------------------------------------------------------- tips 5-7

_GOAL_WORDS = {
    "book": "puts a completed book aside",
    "reveal": "turns up a face-down card in column {col}",
    "space": "makes a new space in column {col}",
}


@BOOK.rule("fiddle", f"{SOURCE}, tips 5 and 6",
           "Spaces are the top priority, and with them you can fiddle cards about until a card you want joins "
           "its senior; the companion searches the column moves (they never need a hidden card) for the "
           "shortest fiddle that puts a book aside, turns up a face-down card, or makes another space.")
def fiddle_rule(ctx: Context):
    if _blocked_by_book(ctx):
        return
    p = fiddle.plan(ctx.state)
    if p is None:
        return
    first = ctx.game.parse_move(ctx.state, p.notation[0])
    if not _legal(ctx, first):
        return
    goal = _GOAL_WORDS[p.goal].format(col=p.column + 1)
    lost = max(0, p.spaces_before - p.spaces_after)
    steps = "this move" if p.length == 1 else f"a fiddle of {p.length} moves ({', '.join(p.notation)})"
    reason = f"{steps} {goal}"
    if lost:
        reason += f", using up {'a space' if lost == 1 else f'{lost} spaces'}"
    if p.goal == "space":
        score = 40.0 - p.length
    else:
        score = 50.0 - p.length - 2.0 * lost + (1.0 if p.goal == "book" else 0.0)
    yield Suggestion(move=str(first), says=ctx.game.describe(ctx.state, first), reason=reason, score=score)


# ------------------------------------------------------------ tips 2 and 3

@BOOK.rule("false-set", f"{SOURCE}, tips 2 and 3",
           "A card lying on the next higher card of another suit looks like a set but cannot move as one; "
           "Keeling turns such a card through ninety degrees as a reminder.")
def false_sets(ctx: Context):
    for i, p in enumerate(_cols(ctx)):
        for j in range(1, len(p)):
            lower, upper = p[j - 1], p[j]          # ``upper`` lies on ``lower``
            if not (lower.face_up and upper.face_up) or lower.card is None or upper.card is None:
                continue
            a, b = upper.card, lower.card
            if a.rank + 1 != b.rank or a.suit == b.suit:
                continue
            alike = " Both are " + a.colour + ", so it is easy to take them for a set." if a.colour == b.colour else ""
            yield Danger(
                where=f"{COLUMN}{i + 1}", depth=j, card=a.label, kind="false-set",
                reason=(f"the {a.pretty} lies on the {b.pretty}: in sequence but not one suit, so they cannot "
                        f"move together.{alike} Turn the {a.pretty} through 90° as a reminder; moving the two as "
                        "a set would be cheating."),
                mark=TURN_90)


# ------------------------------------------------------------------- tip 4

@BOOK.rule("same-suit-first", f"{SOURCE}, tip 4",
           "Books are of one suit, so put cards on a senior of their own suit whenever you can, even if the set "
           "has to be broken up again later.")
def same_suit_first(ctx: Context):
    if _blocked_by_book(ctx):
        return
    cols = _cols(ctx)
    tops: dict[tuple[int, str], list[int]] = {}
    for j, q in enumerate(cols):
        if q and q[-1].face_up and q[-1].card is not None:
            tops.setdefault(q[-1].card.face, []).append(j)
    for i, p in enumerate(cols):
        k = run_length(p)
        if not k:
            continue
        head = p[-k].card
        for j in tops.get((head.rank + 1, head.suit), ()):
            if j == i:
                continue
            move = Move.cards(Loc(COLUMN, i), Loc(COLUMN, j), k)
            if not _legal(ctx, move):
                continue
            rest = p[:-k]
            bonus, extra = 0.0, ""
            if not rest:
                bonus, extra = 3.0, f"; it also empties column {i + 1}"
            elif not rest[-1].face_up:
                bonus, extra = 2.0, f"; it also turns up a face-down card in column {i + 1}"
            yield Suggestion(
                move=str(move), says=ctx.game.describe(ctx.state, move),
                reason=(f"joins {_set_words(p, k)} to the {cols[j][-1].card.pretty} of its own suit: "
                        f"books are made of one suit, so same-suit sets come first{extra}"),
                score=30.0 + bonus + (k / 100.0))


# ------------------------------------------------------------------- tip 8

@BOOK.rule("space-choice", f"{SOURCE}, tip 8",
           "When you use a space, aim to create another: move in the single card or same-suit set lying on a "
           "single face-down card, or, between rivals, the one with fewer face-down cards beneath.")
def space_choice(ctx: Context):
    if _blocked_by_book(ctx):
        return
    cols = _cols(ctx)
    spaces = [i for i, p in enumerate(cols) if not p]
    if not spaces:
        return
    # Tip 13: while the last short deal is to come, fill a space in the first columns first.
    short = _last_deal_columns(ctx)
    target = next((i for i in spaces if i < short), spaces[0])
    rivals = []
    for i, p in enumerate(cols):
        downs = face_down_count(p)
        if not downs or not _face_up_part_is_one_set(p):
            continue
        k = len(p) - downs
        move = Move.cards(Loc(COLUMN, i), Loc(COLUMN, target), k)
        if _legal(ctx, move):
            rivals.append((downs, i, k, move))
    rivals.sort()
    for rank, (downs, i, k, move) in enumerate(rivals):
        p = cols[i]
        if downs == 1:
            why = (f"{_set_words(p, k)} lies on a single face-down card: once it is in the space, column {i + 1} "
                   "needs only one more card moved to become a new space")
        else:
            why = f"{_set_words(p, k)} lies on {downs} face-down cards"
        if len(rivals) > 1 and rank == 0:
            why += ", the fewest of the columns that could go into the space"
        yield Suggestion(
            move=str(move), says=ctx.game.describe(ctx.state, move),
            reason=(f"{why}. Do all your fiddling with the space before you give it up; when you do, make the "
                    "move that gives the best chance of another space"),
            score=20.0 - downs - rank / 100.0)


# -------------------------------------------------------------- tips 9-11

@BOOK.rule("accessible-columns", f"{SOURCE}, tips 9-11",
           "Before each deal, count the accessible columns (a single face-up card or one same-suit set with "
           "nothing beneath): the more there are, the better the chance of new spaces after the deal.")
def accessible_columns(ctx: Context):
    cols = _cols(ctx)
    accessible = [i + 1 for i, p in enumerate(cols) if _whole_column_set(p)]
    spaces = [i + 1 for i, p in enumerate(cols) if not p]
    left = _stock_left(ctx)
    yield ("accessible-columns", {"count": len(accessible), "columns": accessible, "spaces": spaces,
                                  "cards_to_deal": left})
    if left and _legal(ctx, Move.act("deal")):
        text = (f"Before you deal: {len(accessible)} accessible column{'s' if len(accessible) != 1 else ''}"
                + (f" ({', '.join(map(str, accessible))})" if accessible else "")
                + " - a single card or one same-suit set with nothing under it. Try to end the session with as "
                  "many as you can; it may be worth untidy rubbish columns to get them.")
        if spaces:
            text += (f" A space left open ({', '.join(map(str, spaces))}) will take a dealt card: good for a "
                     "fresh start, bad if a king lands in it.")
        yield text


# ------------------------------------------------------------------ tip 12

@BOOK.rule("kings-block", f"{SOURCE}, tip 12",
           "Kings cannot go on other cards, so every column with a king lying on other cards is hard to clear; "
           "kings together in one column are less harmful than kings spread across many.")
def kings_block(ctx: Context):
    blocked = []
    for i, p in enumerate(_cols(ctx)):
        for j, s in enumerate(p):
            if j > 0 and s.face_up and s.card is not None and s.card.rank == 13:
                blocked.append(i + 1)
                others = sum(1 for t in p[j + 1:] if t.face_up and t.card is not None and t.card.rank == 13)
                yield Danger(
                    where=f"{COLUMN}{i + 1}", depth=j, card=s.card.label, kind="king-blocks",
                    reason=(f"the {s.card.pretty} lies on other cards: it can only leave column {i + 1} into a "
                            "space, so the column is hard to clear"
                            + (f" (it shares the column with {others} more king{'s' if others > 1 else ''}, "
                               "which is less harmful than kings spread out)" if others else "")))
                break
    yield ("kings-blocking-columns", blocked)


# ------------------------------------------------------------------ tip 13

@BOOK.rule("last-deal-columns", f"{SOURCE}, tip 13",
           "The last four cards go onto columns 1-4: a king in a space is best in those columns, and a space "
           "is best outside them, so move a king or another whole-column set into a space among the first "
           "four and let the space move elsewhere.")
def last_deal_columns(ctx: Context):
    if _blocked_by_book(ctx):
        return
    short = _last_deal_columns(ctx)
    if not short:
        return
    cols = _cols(ctx)
    yield ("last-deal", {"columns": list(range(1, short + 1)), "cards_left": _stock_left(ctx)})
    first = [i for i in range(short) if not cols[i]]
    if not first:
        return
    target = first[0]
    for i in range(short, len(cols)):
        p = cols[i]
        if not _whole_column_set(p):
            continue
        move = Move.cards(Loc(COLUMN, i), Loc(COLUMN, target), len(p))
        if not _legal(ctx, move):
            continue
        king = p[0].card.rank == 13
        what = _set_words(p, len(p))
        yield Suggestion(
            move=str(move), says=ctx.game.describe(ctx.state, move),
            reason=(f"the last {_word(short)} cards will land on columns 1 to {short}: "
                    + (f"{what} is headed by a king, which is best kept there" if king
                       else f"moving {what} there")
                    + f", and the space moves to column {i + 1}, where the last deal cannot fill it"),
            score=(17.0 if king else 15.0) + len(p) / 100.0)


def _word(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
            9: "nine"}.get(n, str(n))


# ------------------------------------------------------- end of a session

@BOOK.rule("end-of-session", f"{SOURCE}, rules of play and tip 9",
           "A session ends when no advantageous move is left; then deal the next cards, having first thought "
           "about where they will fall.")
def end_of_session(ctx: Context):
    move = Move.act("deal")
    if _stock_left(ctx) and _legal(ctx, move):
        yield Suggestion(move=str(move), says=ctx.game.describe(ctx.state, move),
                         reason="deal only when no advantageous move is left in this session; the tips above "
                                "say what is still worth doing first",
                         score=5.0)


# ------------------------------------------------------------------- tip 7

@BOOK.rule("potential-book", f"{SOURCE}, tip 7",
           "When every card of a suit is face up somewhere, you may be able to fiddle them into a real book and "
           "put it aside; do it if you can (two books put aside seldom lose).")
def potential_book(ctx: Context):
    cols = _cols(ctx)
    where: dict[str, dict[int, list[str]]] = {}
    for i, p in enumerate(cols):
        for s in p:
            if s.face_up and s.card is not None:
                where.setdefault(s.card.suit, {}).setdefault(s.card.rank, []).append(f"{COLUMN}{i + 1}")
    found = []
    for suit in "shdc":
        ranks = where.get(suit, {})
        if len(ranks) == BOOK_SIZE:
            # How many cards already sit in one same-suit run from the king down.
            best = 0
            for p in cols:
                for j, s in enumerate(p):
                    if s.face_up and s.card is not None and s.card.face == (13, suit):
                        n = 1
                        while j + n < len(p) and p[j + n].face_up and p[j + n].card is not None \
                                and p[j + n].card.face == (13 - n, suit):
                            n += 1
                        best = max(best, n)
            found.append({"suit": SUIT_SYMBOL[suit], "name": SUIT_NAME[suit],
                          "cards": {RANK_NAME[r]: sorted(set(ranks[r])) for r in sorted(ranks, reverse=True)},
                          "run_from_king": best})
    yield ("potential-books", found)
    for f in found:
        yield (f"All thirteen {f['name']} are face up (a run of {f['run_from_king']} from the king already): "
               "see whether you can fiddle them into a complete book and put it aside.")
    books = len(ctx.state.areas.get(BOOKS, []))
    if books >= 2 and not ctx.game.is_won(ctx.state):
        yield f"{books} books put aside: Keeling says games are seldom lost from here."
