"""Keeling's "fiddling" for Uncle Remus (tips 5 and 6), as a small search.

Moving cards between columns never needs a hidden card (only face-up cards
move), so within a session the future is known until a face-down card is
turned up. :func:`plan` searches breadth first over column moves for the
shortest sequence that

* puts a completed book aside,
* turns up a face-down card (the search stops there: the new card is unknown), or
* leaves more spaces than there are now,

which are the aims of Keeling's fiddling. Only what the player can see is
used: face-down cards are counted, never read.

The search is bounded (depth and node count) so that advice stays quick.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .engine import State
from .games.uncle_remus import BOOK_SIZE, COLUMN, STOCK

Card_ = tuple            # (rank, suit), or None for an unreadable face-up card
Col = tuple              # (face-down count, tuple of face-up cards, bottom first)


@dataclass
class Plan:
    moves: list[tuple[int, int, int]]          # (source column, destination column, cards), 0-based
    goal: str                                  # book, reveal or space
    column: int                                # where the goal happens (0-based)
    spaces_before: int
    spaces_after: int
    down_left: int = 0                         # face-down cards left in the revealed column
    links: int = 0                             # same-suit links (a card on its senior of its suit) at the end
    notation: list[str] = field(default_factory=list)

    @property
    def length(self) -> int:
        return len(self.moves)


def encode(state: State) -> tuple[Col, ...]:
    out = []
    for p in state.areas[COLUMN]:
        down = sum(1 for s in p if not s.face_up)
        up = tuple((s.card.rank, s.card.suit) if s.card is not None else None for s in p if s.face_up)
        out.append((down, up))
    return tuple(out)


def run_length(up: tuple) -> int:
    n = len(up)
    if not n or up[-1] is None:
        return 0
    r, s = up[-1]
    k = 1
    while k < n:
        c = up[-k - 1]
        if c is None or c[1] != s or c[0] != r + 1:
            break
        r += 1
        k += 1
    return k


def _book_on_top(up: tuple) -> bool:
    return len(up) >= BOOK_SIZE and up[-1] is not None and up[-1][0] == 1 and run_length(up) >= BOOK_SIZE


def links(cols: tuple[Col, ...]) -> int:
    n = 0
    for _, u in cols:
        for a, b in zip(u, u[1:]):
            if a is not None and b is not None and a[1] == b[1] and a[0] == b[0] + 1:
                n += 1
    return n


def _spaces(cols: tuple[Col, ...]) -> int:
    return sum(1 for d, u in cols if not d and not u)


def moves(cols: tuple[Col, ...], space: int | None):
    """Column moves worth searching: every legal move, except whole columns into a space, and
    only ``space`` among the empty columns (the others are equivalent)."""
    by_rank: dict[int, list[int]] = {}
    for j, (d, u) in enumerate(cols):
        if u and u[-1] is not None:
            by_rank.setdefault(u[-1][0], []).append(j)
    for i, (d, u) in enumerate(cols):
        if not u:
            continue
        if u[-1] is None:
            if space is not None and d:
                yield i, space, 1
            continue
        kmax = run_length(u)
        for k in range(1, kmax + 1):
            for j in by_rank.get(u[-k][0] + 1, ()):
                if j != i:
                    yield i, j, k
            if space is not None and not (d == 0 and k == len(u)):
                yield i, space, k


def step(cols: tuple[Col, ...], i: int, j: int, k: int) -> tuple[tuple[Col, ...], str | None]:
    """The columns after a move, and the irreversible event it causes (book, reveal) if any."""
    d, u = cols[i]
    moving = u[-k:]
    src = (d, u[:-k])
    dd, du = cols[j]
    dst = (dd, du + moving)
    event = None
    if _book_on_top(dst[1]):
        event = "book"
    elif d and k == len(u):
        event = "reveal"
    new = list(cols)
    new[i], new[j] = src, dst
    return tuple(new), event


def _space_for(cols: tuple[Col, ...], first: int) -> int | None:
    spaces = [j for j, (d, u) in enumerate(cols) if not d and not u]
    if not spaces:
        return None
    return next((j for j in spaces if j < first), spaces[0])


def plan(state: State, max_depth: int = 6, max_nodes: int = 1500) -> Plan | None:
    """The best short fiddle from ``state`` (see the module docstring), or None."""
    start = encode(state)
    ncol = len(start)
    stock = len((state.areas.get(STOCK) or [[]])[0])
    first = stock % ncol if stock else 0           # columns the last short deal will cover
    s0 = _spaces(start)
    seen = {start}
    frontier: deque = deque([(start, [])])
    best_space: Plan | None = None
    nodes = 0
    for depth in range(1, max_depth + 1):
        found: list[Plan] = []
        nxt: deque = deque()
        while frontier:
            cols, path = frontier.popleft()
            for i, j, k in moves(cols, _space_for(cols, first)):
                new, event = step(cols, i, j, k)
                nodes += 1
                p = path + [(i, j, k)]
                if event:
                    found.append(Plan(p, event, j if event == "book" else i, s0, _spaces(new),
                                      new[i][0] if event == "reveal" else 0, links(new)))
                    continue
                if new in seen:
                    continue
                seen.add(new)
                sp = _spaces(new)
                if sp > s0 and best_space is None:
                    best_space = Plan(p, "space", i, s0, sp)
                nxt.append((new, p))
            if nodes > max_nodes:
                break
        if found:
            # a book first; then keep the most spaces; then the most same-suit links (tip 4); then
            # (tip 8) the column with the fewest face-down cards
            found.sort(key=lambda pl: (pl.goal != "book", -pl.spaces_after, -pl.links, pl.down_left, pl.moves))
            return _named(found[0])
        if nodes > max_nodes:
            break
        frontier = nxt
    return _named(best_space) if best_space else None


def _named(p: Plan) -> Plan:
    p.notation = [f"{COLUMN}{i + 1}{f'x{k}' if k > 1 else ''}>{COLUMN}{j + 1}" for i, j, k in p.moves]
    return p
