"""Seven and Six: analysis shared by the tips, and a look-ahead over one session's card moves.

Everything here works on what the player can see: face-down cards in live
columns and the stock are treated as unknown even when the state knows them
(turned-down books are known to the player, who built them).

The session planner tries the card moves (no deal) available now, in every
order up to a node budget, and scores where they lead with a simple reading of
Keeling's tips: face-down cards turned up and spaces made are worth most, a
king lying on other cards is a curse, a junior lying above its own senior is a
danger, and every card joined to its senior is progress. Card moves only ever
join cards, put kings into spaces or turn cards up, so the search is finite.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

from .cards import Card
from .engine import Loc, Move, Slot, State
from .games.seven_and_six import BOOK, COLS, GAME, STOCK, columns, is_dead, is_turned_book

# Weights of the position score (only differences matter).
W_HIDDEN = 10.0      # each face-down card still hidden in a live column
W_SPACE = 6.0        # each empty column
W_KING = 6.0         # each face-up king lying on other cards (Keeling tip 11): as much as a space
W_JOIN = 1.0         # each card joined to its senior
W_RISK = 4.0         # each junior lying above one of its own seniors (tip 8)
W_ACE = 0.5          # each column ending in an ace (tip 12)
W_BOOK = 2.0         # each book turned down (its column is dead)
NODE_LIMIT = 600


# ----------------------------------------------------------------- reading a column

def face_down(pile: list[Slot]) -> int:
    n = 0
    while n < len(pile) and not pile[n].face_up:
        n += 1
    return n


def sets_of(pile: list[Slot]) -> list[tuple[int, int]]:
    """The face-up sets of a live column, foot first, as (first index, last index)."""
    out: list[tuple[int, int]] = []
    j = face_down(pile)
    while j < len(pile):
        k = j
        while (k + 1 < len(pile) and pile[k].card is not None and pile[k + 1].card is not None
               and _joined(pile[k].card, pile[k + 1].card)):
            k += 1
        out.append((j, k))
        j = k + 1
    return out


def _joined(lower: Card, upper: Card) -> bool:
    return lower.rank == upper.rank + 1 and lower.is_red != upper.is_red


def senior_class(card: Card) -> tuple[int, bool]:
    """(rank, is_red) of the cards this one may be put on."""
    return (card.rank + 1, not card.is_red)


def is_senior(card: Card, cls: tuple[int, bool]) -> bool:
    return card.rank == cls[0] and card.is_red == cls[1]


@dataclass
class Risk:
    """A junior lying above one of its own seniors in the same column (Keeling tip 8)."""
    col: int            # 0..12 in dealing order
    depth: int          # index of the junior in its column
    card: Card
    senior_depth: int
    senior: Card
    free_seniors: int   # seniors of this class not yet married to a junior, outside this column's buried ones


def juniors_at_risk(state: State) -> list[Risk]:
    cols = columns(state)
    out: list[Risk] = []
    taken = _married_seniors(cols)
    for i, p in enumerate(cols):
        if not p or is_dead(p):
            continue
        for lo, _ in sets_of(p):
            c = p[lo].card
            if c is None or c.rank == BOOK:
                continue
            cls = senior_class(c)
            below = [j for j in range(lo) if p[j].face_up and p[j].card is not None and is_senior(p[j].card, cls)]
            if not below:
                continue
            # seniors buried here, not counting those already married (they are counted in ``taken``)
            buried = sum(1 for j in below if not (p[j + 1].card is not None and _joined(p[j].card, p[j + 1].card)))
            free = 4 - buried - taken.get(cls, 0)
            out.append(Risk(i, lo, c, below[-1], p[below[-1]].card, max(free, 0)))
    return out


def _married_seniors(cols: list[list[Slot]]) -> dict[tuple[int, bool], int]:
    """For each class (rank, colour): how many of its cards already carry a junior joined on them.

    Cards in turned-down books count when known (in a book every card but the ace carries its junior)."""
    taken: dict[tuple[int, bool], int] = {}
    for p in cols:
        if is_turned_book(p):
            for s in p[:-1]:
                if s.card is not None:
                    key = (s.card.rank, s.card.is_red)
                    taken[key] = taken.get(key, 0) + 1
            continue
        for j in range(len(p) - 1):
            a, b = p[j], p[j + 1]
            if a.face_up and b.face_up and a.card is not None and b.card is not None and _joined(a.card, b.card):
                key = (a.card.rank, a.card.is_red)
                taken[key] = taken.get(key, 0) + 1
    return taken


# ------------------------------------------------------------ what the player has seen

@dataclass
class View:
    """Cards the player cannot identify, and the cards seen, by class."""
    unknown: int                                  # hidden slots: live face-down, stock, unreadable
    seen: dict[tuple[int, bool], int] = field(default_factory=dict)
    blind_books: int = 0                          # turned-down books none of whose cards is known

    @classmethod
    def of(cls, state: State) -> "View":
        v = cls(0)
        for p in columns(state):
            if is_turned_book(p):
                known = next(((j, s.card) for j, s in enumerate(p) if s.card is not None), None)
                if known is None:
                    v.blind_books += 1
                    continue
                j, c = known
                king_red = c.is_red if j % 2 == 0 else not c.is_red
                for d in range(BOOK):
                    red = king_red if d % 2 == 0 else not king_red
                    v._see((BOOK - d, red))
                continue
            for s in p:
                if s.face_up and s.card is not None:
                    v._see((s.card.rank, s.card.is_red))
                else:
                    v.unknown += 1
        v.unknown += len(state.areas[STOCK][0])
        return v

    def _see(self, key: tuple[int, bool]) -> None:
        self.seen[key] = self.seen.get(key, 0) + 1

    def hidden_among(self, classes: set[tuple[int, bool]], d: int) -> float:
        """Chance that at least one card of ``classes`` is among ``d`` particular unknown cards."""
        if d <= 0 or not classes or self.unknown <= 0:
            return 0.0
        m = self.blind_books
        total = 0.0
        for b in range(m + 1):         # b of the blind books have a black king
            weight = comb(m, b) / 2 ** m
            k = 0
            for rank, red in classes:
                in_books = b if (red == ((BOOK - rank) % 2 == 1)) else m - b   # black-king book: rank r black iff 13-r even
                k += max(0, 4 - self.seen.get((rank, red), 0) - in_books)
            k = min(k, self.unknown)
            total += weight * (1.0 - comb(self.unknown - k, d) / comb(self.unknown, d)) if d <= self.unknown else weight
        return total


# ---------------------------------------------------------------- the position score

FEATURES = ("hidden", "spaces", "kings", "joins", "risk", "aces", "books")
_COLUMN_CACHE: dict[tuple, tuple[int, ...]] = {}


def column_features(pile: list[Slot]) -> tuple[int, ...]:
    """The counts of FEATURES for one column (cached: columns repeat a great deal in a search)."""
    key = tuple(pile)
    hit = _COLUMN_CACHE.get(key)
    if hit is not None:
        return hit
    if not pile:
        out = (0, 1, 0, 0, 0, 0, 0)
    elif is_turned_book(pile):
        out = (0, 0, 0, 0, 0, 0, 1)
    else:
        d = face_down(pile)
        kings = joins = risk = 0
        prev = None
        seen: set[tuple[int, bool]] = set()     # kinds of face-up card lower down in the column
        for j in range(d, len(pile)):
            c = pile[j].card
            if c is None:
                prev = None
                continue
            if prev is not None and _joined(prev, c):
                joins += 1
            else:
                if c.rank == BOOK:
                    kings += j > 0
                elif (c.rank + 1, not c.is_red) in seen:
                    risk += 1
            seen.add((c.rank, c.is_red))
            prev = c
        top = pile[-1].card
        out = (d, 0, kings, joins, risk, int(top is not None and pile[-1].face_up and top.rank == 1), 0)
    if len(_COLUMN_CACHE) > 200_000:
        _COLUMN_CACHE.clear()
    _COLUMN_CACHE[key] = out
    return out


def features(state: State) -> dict[str, int]:
    """The counts the position score weighs, over the whole table."""
    tot = [0] * len(FEATURES)
    for p in columns(state):
        for i, v in enumerate(column_features(p)):
            tot[i] += v
    return dict(zip(FEATURES, tot))


WEIGHTS = dict(hidden=-W_HIDDEN, spaces=W_SPACE, kings=-W_KING, joins=W_JOIN, risk=-W_RISK, aces=-W_ACE, books=W_BOOK)


def score(state: State) -> float:
    w = [WEIGHTS[k] for k in FEATURES]
    return sum(wi * v for p in columns(state) for wi, v in zip(w, column_features(p)))


# ------------------------------------------------------------------------ planner

@dataclass
class Plan:
    root: float                                   # score now
    values: dict[Move, float]                     # best score reachable after each card move now
    lines: dict[Move, list[Move]]                 # the best line of moves starting with each
    nodes: int
    complete: bool                                # False when the node budget ran out

    def gain(self, m: Move) -> float:
        return self.values[m] - self.root


def plan(state: State, limit: int = NODE_LIMIT) -> Plan:
    """Best score reachable with card moves alone (no deal), for each card move available now.

    The search looks only at what the player can see; a card turned up in the
    search stays unknown ('?'), so nothing is built on it until it is really seen.
    """
    view = GAME.observation(state) if _has_secrets(state) else state
    memo: dict[tuple, tuple[float, list[Move]]] = {}
    nodes = [0]

    def key(s: State) -> tuple:
        return tuple(tuple(p) for p in columns(s))

    def best(s: State) -> tuple[float, list[Move]]:
        k = key(s)
        if k in memo:
            return memo[k]
        result = (score(s), [])
        for m in _choices(s):
            if nodes[0] >= limit:
                break
            nodes[0] += 1
            child = s.copy()
            GAME.apply(child, m)
            v, line = best(child)
            if v > result[0]:
                result = (v, [m] + line)
        memo[k] = result
        return result

    root = score(view)
    values: dict[Move, float] = {}
    lines: dict[Move, list[Move]] = {}
    for m in GAME._card_moves(view):
        nodes[0] += 1
        child = view.copy()
        GAME.apply(child, m)
        v, line = best(child)
        values[m] = v
        lines[m] = [m] + line
    return Plan(root, values, lines, nodes[0], nodes[0] < limit)


def _choices(s: State) -> list[Move]:
    """The card moves worth branching on.

    A move is forced when its set has only one place to go, no other set wants that place, and it is not a
    king's move into a space: making it first takes no option away from the other moves available (the set
    under it can still move, with it, wherever it could before). Then only that move is tried.
    """
    moves = GAME._card_moves(s)
    if len(moves) < 2:
        return moves
    srcs: dict[Loc, int] = {}
    dsts: dict[Loc, int] = {}
    for m in moves:
        srcs[m.src] = srcs.get(m.src, 0) + 1
        dsts[m.dst] = dsts.get(m.dst, 0) + 1
    for m in moves:
        if srcs[m.src] == 1 and dsts[m.dst] == 1 and s.pile(m.dst):
            return [m]
    return moves


def _has_secrets(state: State) -> bool:
    """Face-down cards in live columns or the stock whose identity the state knows."""
    for p in columns(state):
        if is_turned_book(p):
            continue
        for s in p:
            if not s.face_up and s.card is not None:
                return True
    return any(s.card is not None for s in state.areas[STOCK][0])


def turns_up(state: State, m: Move) -> bool:
    """The move takes the last face-up cards off face-down ones."""
    if m.action != "move":
        return False
    p = state.pile(m.src)
    return len(p) > m.count and not p[-m.count - 1].face_up


def makes_space(state: State, m: Move) -> bool:
    return m.action == "move" and len(state.pile(m.src)) == m.count


def column_index(loc: Loc) -> int:
    return COLS.index(loc)
