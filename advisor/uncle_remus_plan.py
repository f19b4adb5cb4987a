"""A look-ahead for Uncle Remus: the best plan of column moves before the next deal.

Keeling's tips (turn cards up, make spaces, build in suit, deal only when
nothing advantageous is left) are weighed together here by one score of a
position, and a best-first search over the player's own column moves looks
for the position that scores best. Column moves never need a hidden card,
so until a face-down card is turned up the outcome of a plan is certain;
a card turned up in the search is an unknown card that fits nowhere (the
search may carry on with the other columns, but the plan is re-made once the
card is seen). When no plan gains anything, the advice is to deal.

Only what the player can see is used: face-up cards, how many cards are face
down in each column, and how many are left to deal. The identity of a
face-down card or of the stock's order is never read.

Cards are small integers (``rank * 4 + suit``) so that the search is quick:
a card ``b`` is the same-suit senior of ``a`` when ``b == a + 4``.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from .cards import SUITS
from .engine import State
from .games.uncle_remus import BOOK_SIZE, BOOKS, COLUMN, STOCK

UNKNOWN = -100          # a card turned up in the search, or one the camera cannot read: fits nowhere

# Weights of the position score (only differences matter). A book is worth most;
# then a face-down card turned up (more for the last one of a column, which is
# then on its way to becoming a space), so that a space may be given up for one
# as tip 8 allows; then a space; then a card on its same-suit senior, a card on a
# senior of another suit, and a penalty for a card on anything else (it buries
# what lies beneath). Columns made of few runs are worth more (tips 9-11): with
# nothing face down they are one or two moves from a space.
W_BOOK = 400.0
W_SPACE = 45.0
W_DOWN = 50.0
W_CLOSED = 10.0
W_SUIT = 12.0
W_RANK = 4.0
W_BREAK = 6.0
W_KING_HOME = 3.0
W_ACCESS = 30.0          # divided by the same-suit runs in a column with nothing face down (tip 10)
W_NEAR = 10.0            # the same for a column with cards face down: fewer runs, sooner turned up
MOVE_COST = 0.4          # per move, so that the shorter of two equal plans wins

# Positions generated per new plan. Measured on seeds 0-19 with the planner alone: 800 won 0 deals
# (mean completion 0.20), 3000 won 7 and 30 000 also 7, so more buys little beyond a few thousand.
MAX_NODES = 5000


Col = tuple              # (face-down count, tuple of face-up cards as ints, bottom first)


def card_int(card) -> int:
    if card is None:
        return UNKNOWN
    return card.rank * 4 + SUITS.index(card.suit)


def encode(state: State) -> tuple[Col, ...]:
    """The columns as the player sees them (face-down cards are counted, never read)."""
    out = []
    for p in state.areas[COLUMN]:
        down = 0
        up = []
        for s in p:
            if s.face_up:
                up.append(card_int(s.card))
            else:
                down += 1
        out.append((down, tuple(up)))
    return tuple(out)


def stock_left(state: State) -> int:
    return len((state.areas.get(STOCK) or [[]])[0])


def run_length(up: tuple) -> int:
    n = len(up)
    if not n or up[-1] < 0:
        return 0
    k = 1
    while k < n and up[-k - 1] == up[-k] + 4:
        k += 1
    return k


_SCORE: dict = {}


def column_score(col: Col) -> float:
    s = _SCORE.get(col)
    if s is not None:
        return s
    d, u = col
    if not d and not u:
        s = W_SPACE
    else:
        s = -W_DOWN * d - (W_CLOSED if d else 0.0)
        runs = 1
        for a, b in zip(u, u[1:]):            # b lies on a
            if a < 0 or b < 0:
                runs += 1
                continue
            if a == b + 4:
                s += W_SUIT
            elif a >> 2 == (b >> 2) + 1:
                s += W_RANK
                runs += 1
            else:
                s -= W_BREAK
                runs += 1
        s += (W_NEAR if d else W_ACCESS) / runs
        if not d and u and u[0] >= 0 and u[0] >> 2 == 13:
            s += W_KING_HOME                  # a king heading a column needs no space later
    if len(_SCORE) > 200_000:
        _SCORE.clear()
    _SCORE[col] = s
    return s


def score(cols: tuple[Col, ...], books: int) -> float:
    return W_BOOK * books + sum(column_score(c) for c in cols)


def _moves(cols: tuple[Col, ...]):
    """The column moves worth trying. One space stands for all; a whole column never goes into a
    space (nothing changes). A set already lying on its senior moves only where it gains: a split
    same-suit set only onto a senior of its own suit, and a set on a senior of another suit only
    onto one of its own suit or into a space (a move to an equal place is never needed: the
    search sees the same position with the columns in another order)."""
    space = None
    by_rank: dict[int, list[int]] = {}
    for j, (d, u) in enumerate(cols):
        if u:
            if u[-1] >= 0:
                by_rank.setdefault(u[-1] >> 2, []).append(j)
        elif space is None:
            space = j
    for i, (d, u) in enumerate(cols):
        n = len(u)
        if not n or u[-1] < 0:
            continue
        k = 1
        while True:
            head = u[-k]
            below = u[-k - 1] if k < n else None
            seniors = by_rank.get((head >> 2) + 1, ())
            if below is not None and below == head + 4:
                # a split of a same-suit set: only to join a senior of its own suit
                for j in seniors:
                    if j != i and cols[j][1][-1] == head + 4:
                        yield i, j, k
                k += 1
                continue
            if below is not None and below >= 0 and below >> 2 == (head >> 2) + 1:
                for j in seniors:
                    if j != i and cols[j][1][-1] == head + 4:
                        yield i, j, k
            else:
                for j in seniors:
                    if j != i:
                        yield i, j, k
            if space is not None and (d or k < n):
                yield i, space, k
            break


def _book_on_top(up: tuple) -> bool:
    return len(up) >= BOOK_SIZE and up[-1] >= 0 and up[-1] >> 2 == 1 and run_length(up) >= BOOK_SIZE


def apply_move(cols: tuple[Col, ...], i: int, j: int, k: int) -> tuple[tuple[Col, ...], int, int]:
    """The columns after moving ``k`` cards from ``i`` to ``j``; also (cards turned up, books made)."""
    d, u = cols[i]
    moving = u[-k:]
    rest = u[:-k]
    turned = 0
    if not rest and d:
        src = (d - 1, (UNKNOWN,))
        turned = 1
    else:
        src = (d, rest)
    dd, du = cols[j]
    du = du + moving
    books = 0
    if _book_on_top(du):
        books = 1
        du = du[:-BOOK_SIZE]
        if not du and dd:
            dd, du = dd - 1, (UNKNOWN,)
            turned += 1
    new = list(cols)
    new[i] = src
    new[j] = (dd, du)
    return tuple(new), turned, books


def book_waiting(pile) -> bool:
    """A completed book still lies on top of the column (books removed by hand)."""
    up = tuple(card_int(s.card) for s in pile if s.face_up)
    return _book_on_top(up)


@dataclass
class Plan:
    moves: list[tuple[int, int, int]]     # (source, destination, cards), 0-based columns
    gain: float                           # score gained (moves' cost included)
    turned: int = 0                       # face-down cards turned up on the way
    books: int = 0
    spaces: int = 0                       # spaces gained (may be negative)
    suit_links: int = 0                   # cards on a same-suit senior gained
    rank_links: int = 0                   # cards on a senior of another suit gained
    breaks: int = 0                       # cards on a non-senior: fewer is tidier
    nodes: int = 0
    notation: list[str] = field(default_factory=list)

    @property
    def length(self) -> int:
        return len(self.moves)


def _counts(cols: tuple[Col, ...]) -> tuple[int, int, int, int]:
    spaces = suit = rank = breaks = 0
    for d, u in cols:
        if not d and not u:
            spaces += 1
        for a, b in zip(u, u[1:]):
            if a < 0 or b < 0:
                continue
            if a == b + 4:
                suit += 1
            elif a >> 2 == (b >> 2) + 1:
                rank += 1
            else:
                breaks += 1
    return spaces, suit, rank, breaks


def best_plan(cols: tuple[Col, ...], books: int = 0, avoid: frozenset | set = frozenset(),
              max_nodes: int | None = None) -> Plan | None:
    """The best-scoring plan of column moves from ``cols``, or None when no plan gains anything.

    Best first: the most promising position found so far is expanded next. Positions that differ
    only in the order of their columns count as one (a deal of ten treats every column alike).
    ``avoid`` holds positions already passed through (since the last card was turned up), which a
    plan may not return to: so that advice given move by move cannot go round in circles.
    """
    max_nodes = max_nodes or MAX_NODES
    cs = column_score
    root = score(cols, books)
    best_val, best_path, best_end = root, None, None
    seen = {_key(c) for c in avoid}
    seen.add(_key(cols))
    counter = 0
    heap = [(-root, 0, root, cols, books, 0, ())]
    nodes = 0
    pop, push = heapq.heappop, heapq.heappush
    while heap and nodes < max_nodes:
        _, _, val0, c, b, turned, path = pop(heap)
        depth = len(path) + 1
        key0 = _key(c)
        for i, j, k in _moves(c):
            new, t, nb = apply_move(c, i, j, k)
            nodes += 1
            oi, oj, ni, nj = c[i], c[j], new[i], new[j]
            key = (key0 - hash(oi) - hash(oj) + hash(ni) + hash(nj)) & _MASK
            if key in seen:
                continue
            seen.add(key)
            val = val0 - cs(oi) - cs(oj) + cs(ni) + cs(nj) + W_BOOK * nb
            p = path + ((i, j, k),)
            v = val - MOVE_COST * depth
            if v > best_val + 1e-9:
                best_val, best_path, best_end = v, p, (new, b + nb, turned + t)
            counter += 1
            push(heap, (-v, counter, val, new, b + nb, turned + t, p))
    if best_path is None:
        return None
    end, end_books, turned = best_end
    s0, u0, r0, k0 = _counts(cols)
    s1, u1, r1, k1 = _counts(end)
    plan = Plan(list(best_path), best_val - root, turned, end_books - books, s1 - s0, u1 - u0, r1 - r0,
                k1 - k0, nodes)
    plan.notation = [f"{COLUMN}{i + 1}{f'x{k}' if k > 1 else ''}>{COLUMN}{j + 1}" for i, j, k in plan.moves]
    return plan


_MASK = (1 << 64) - 1


def _key(cols: tuple[Col, ...]) -> int:
    """The same for two positions whose columns are the same in another order."""
    return sum(hash(c) for c in cols) & _MASK


# ------------------------------------------------------------ advice glue

_PLANS: dict = {}          # position -> the rest of the plan made there (valid until a card is turned up)


def key_of(state: State) -> tuple:
    return encode(state), stock_left(state), len(state.areas.get(BOOKS, []))


def recent_positions(history, state: State) -> set:
    """Positions seen since the last card was turned up or dealt (the search may not return to them)."""
    out = set()
    ncards = sum(len(u) for _, u in encode(state))
    down = sum(d for d, _ in encode(state))
    for past, _ in reversed(list(history)[-120:]):
        try:
            cols = encode(past)
        except (KeyError, AttributeError):
            break
        if sum(d for d, _ in cols) != down or sum(len(u) for _, u in cols) != ncards:
            break
        out.add(cols)
    return out


def plan_for(state: State, history=()) -> Plan | None:
    """The plan to follow from ``state`` (None: nothing gains; deal, or stop when all is dealt).

    A plan made earlier is followed to its end (or to the first card it turns up, where a new
    plan is made with the new card in view), so that its aim is reached rather than re-chosen at
    every step."""
    k = key_of(state)
    cols, _, books = k
    moves = _PLANS.get(k)
    nodes = 0
    if moves is None:
        plan = best_plan(cols, books, recent_positions(history, state))
        if plan is None:
            return None
        moves, nodes = plan.moves, plan.nodes
        _remember(k, moves)
    return summarise(cols, books, moves, nodes)


def summarise(cols: tuple[Col, ...], books: int, moves: list, nodes: int = 0) -> Plan:
    """What a plan achieves, counted from ``cols`` to the plan's end."""
    root = score(cols, books)
    end, b, turned = cols, books, 0
    for i, j, k in moves:
        end, t, nb = apply_move(end, i, j, k)
        b += nb
        turned += t
    s0, u0, r0, k0 = _counts(cols)
    s1, u1, r1, k1 = _counts(end)
    plan = Plan(list(moves), score(end, b) - root - MOVE_COST * len(moves), turned, b - books, s1 - s0,
                u1 - u0, r1 - r0, k1 - k0, nodes)
    plan.notation = [f"{COLUMN}{i + 1}{f'x{k}' if k > 1 else ''}>{COLUMN}{j + 1}" for i, j, k in moves]
    return plan


def forget() -> None:
    """Drop the plans kept between calls (a fresh start, as for another player)."""
    _PLANS.clear()


def _remember(k: tuple, moves: list) -> None:
    """Keep the plan at each position it passes through, up to the first card it turns up."""
    cols, stock, books = k
    for n, (i, j, c) in enumerate(moves):
        _PLANS[(cols, stock, books)] = moves[n:]
        cols, t, b = apply_move(cols, i, j, c)
        books += b
        if t:
            break
    if len(_PLANS) > 50_000:
        _PLANS.clear()
