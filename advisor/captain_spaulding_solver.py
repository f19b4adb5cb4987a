"""Exact solver for Captain Spaulding (every card is face up).

``solve(state)`` says whether the deal can still be won from ``state`` and,
when it can, gives a winning plan as a list of moves in our notation
(``column3>aces2``, ``column5>kings4``, ``column7>column1``). The verdict is

``yes``      a winning plan was found, and it replays to a win through the rules engine;
``no``       every position reachable from ``state`` was examined and none is won;
``unknown``  the time or node budget ran out first, or the state cannot be solved
             (another game, a card that is not known, a state the rules engine rejects).

How it searches
    The position is copied into a compact form: nine columns of ranks (suits
    never matter) and, for each of the eight sequences, the rank it takes
    next. One depth-first search over single moves does all the work. Move
    ordering is a heuristic (builds first, then moves that bring a wanted
    card to a foot it can be built from, then moves that dig towards the
    shallowest wanted card, with a penalty for burying wanted cards or using
    an empty column for nothing); ordering decides only how soon a win is
    found, never what is examined in the end.

What is cut, and why that is sound (a "no" verdict rests on exactly these)
    * A table of positions already entered. A position is skipped only when
      it (or an equivalent one, see below) has been entered before: it is on
      the current line (a cycle) or its whole subtree has been or is being
      searched. The set of entered positions is then closed under moves, so
      when the search ends without a win it has entered every reachable
      position, and none is won. When the table reaches ``TT_LIMIT`` entries
      it is cleared (keeping the current line, so no line can loop): that
      only forgets work, it never skips a position not entered before, so
      the argument above still holds.
    * Equivalent positions share one entry. The rules do not care about
      suits, and treat the columns only through the sequence each is in line
      with. So swapping two non-centre columns together with their
      sequences changes nothing when the two sequences are on the same side
      (both aces or both kings) and take the same rank next; and every
      finished sequence is like every other (its column can never build
      again), on either side. The key of a position lists the centre column,
      then the (sequence state, column) pairs of the other eight sorted, so
      positions that differ only by such a swap have one key. Wins map to
      wins under these swaps, so the closure argument above holds for the
      classes.
    * For the same reason, of several empty columns that are equivalent in
      that sense only one is tried as the destination of a card.
    * No move is ever forced: no build was proven harmless in this game (a
      card on a column's foot can be the base another card needs to pack
      on), so every legal move stays in the search.
    * Before searching, the columns must hold exactly the ranks the
      sequences still need (each rank has eight copies and each sequence
      takes one, so a valid state can only fall short). A state that falls
      short is lost by the rules, but it is far more likely a misread table
      (a card the camera missed), so the answer is "unknown", not "no".

What to expect (fresh deals of seeds 0-29, CPU clock, a loaded machine):
with 1 s each, 27 "yes" and 3 "unknown" (seeds 6, 14, 17), median 0.01 s and
about 400 positions; with 3 s, 28 "yes" (seed 17 is won after 1.8 s and
50,000 positions), seeds 6 and 14 still open. Depth-first search keeps the
first line that wins, which wanders (raw lines of 200 to 95,000 moves);
``shorten`` cuts its detours. On the 470 of seeds 0-499 won with 5 CPU s, the
plans are 219 moves at the median (was 248 with one-move jumps alone), 10 of
them longer than 500 (was 36) and the longest 1029 (was 1920), for 0.1 s of
shortening at the median. A fresh deal's reachable space is far too large to exhaust,
so fresh deals get "yes" or "unknown"; "no" comes for positions late in a
game (they agree with a brute-force search on small positions, see the tests).
"""
from __future__ import annotations

import time
from collections import Counter

from .engine import State, get_game
from .solving import Solution, replays_to_a_win, solver_main

GAME_ID = "captain-spaulding"

COLUMNS = 9
CENTRE = 4          # 0-based index of the centre column
PILES = 8           # 0-3: the ace sequences (over columns 1-4), 4-7: the king sequences (over columns 6-9)
# The sequence in line with each column (None for the centre column) and back.
LINE: tuple[int | None, ...] = (0, 1, 2, 3, None, 4, 5, 6, 7)
COLUMN_OF: tuple[int, ...] = (0, 1, 2, 3, 5, 6, 7, 8)
PILE_NAME: tuple[str, ...] = tuple(f"aces{i + 1}" for i in range(4)) + tuple(f"kings{i + 1}" for i in range(4))

# The clock all time limits are read from. A benchmark on a shared machine may set it to
# time.process_time so that a limit means CPU seconds of this process.
_clock = time.perf_counter

# Most positions kept in the table of positions entered (see the module notes): about
# 150 bytes each, so the default stays under a few hundred megabytes.
TT_LIMIT = 1_500_000
# How often (in positions) the clock is read: reading a CPU clock is slow.
CLOCK_EVERY = 512


class _Unsolvable(Exception):
    """The state cannot be handed to the search (the message says why)."""


# ------------------------------------------------------------------ compact form

def compact(state: State) -> tuple[list[list[int]], list[int]]:
    """Columns as rank lists (foot last) and each sequence's next rank (0 when finished).

    Raises _Unsolvable when the state is not a valid, fully known Captain Spaulding state.
    """
    if getattr(state, "game", None) != GAME_ID:
        raise _Unsolvable(f"the solver is for Captain Spaulding, not {getattr(state, 'game', None)!r}")
    g = get_game(GAME_ID)
    problems = g.validate(state)
    if problems:
        raise _Unsolvable("the state is not a valid Captain Spaulding position: " + "; ".join(problems))
    need = []
    for area in ("aces", "kings"):
        for i, pile in enumerate(state.areas[area]):
            if any(sl.card is None for sl in pile):
                raise _Unsolvable(f"{area} {i + 1} holds a card that has not been read, so the deal cannot be solved")
            n = len(pile)
            if n >= 13:
                need.append(0)
            else:
                need.append(n + 1 if area == "aces" else 13 - n)
    cols = []
    for c, col in enumerate(state.areas["column"]):
        if any(sl.card is None for sl in col):
            raise _Unsolvable(f"column {c + 1} holds a card that has not been read, so the deal cannot be solved")
        cols.append([sl.card.rank for sl in col])
    return cols, need


def _short_of(cols: list[list[int]], need: list[int]) -> str | None:
    """A reason when the columns do not hold exactly the ranks the sequences still need."""
    have = Counter(r for col in cols for r in col)
    want: Counter = Counter()
    for p, n in enumerate(need):
        if n:
            want.update(range(n, 14) if p < 4 else range(1, n + 1))
    if have == want:
        return None
    from .cards import RANK_LABEL
    odd = ", ".join(RANK_LABEL[r] for r in range(1, 14) if have[r] != want[r])
    return ("the columns do not hold exactly the cards the sequences still need (rank " + odd
            + "): some cards are missing from the state, so the deal cannot be solved")


# -------------------------------------------------------------------- search

class _Search:
    """The depth-first search (see the module notes). ``run`` returns True, False or None (budget)."""

    def __init__(self, cols: list[list[int]], need: list[int], deadline: float, node_limit: int):
        self.cols = [list(c) for c in cols]
        self.need = list(need)
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.seen: set[bytes] = set()
        self.path: list[tuple[int, int]] = []     # (source column, destination: column 0-8 or 9 + sequence)

    # -- the key of a position up to the symmetries of the module notes
    def _state_byte(self, c: int) -> int:
        p = LINE[c]
        n = self.need[p]
        if n == 0:
            return 0                   # finished: like every other finished sequence, on either side
        return n if p < 4 else 32 + n

    def key(self) -> bytes:
        cols = self.cols
        items = sorted(bytes((self._state_byte(c), *cols[c])) for c in range(COLUMNS) if c != CENTRE)
        return bytes(cols[CENTRE]) + b"\xfe" + b"\xff".join(items)

    # -- moves
    def _wanted(self, c: int) -> tuple[int, ...]:
        """Ranks the foot of column c could be built with now."""
        if c == CENTRE:
            return tuple(n for n in self.need if n)
        n = self.need[LINE[c]]
        return (n,) if n else ()

    @staticmethod
    def _depth(col: list[int], wanted: tuple[int, ...]) -> int:
        """Cards lying above the shallowest card of ``col`` whose rank is in ``wanted`` (99 when none)."""
        if wanted:
            for k in range(len(col) - 1, -1, -1):
                if col[k] in wanted:
                    return len(col) - 1 - k
        return 99

    def moves(self) -> list[tuple[int, int]]:
        """Every legal move (less duplicate empty destinations), best first by the ordering heuristic."""
        cols = self.cols
        need = self.need
        wanted = [self._wanted(c) for c in range(COLUMNS)]
        depth = [self._depth(cols[c], wanted[c]) for c in range(COLUMNS)]
        foot = [col[-1] if col else 0 for col in cols]
        scored: list[tuple[int, int, int]] = []
        for c in range(COLUMNS):
            x = foot[c]
            if not x:
                continue
            col = cols[c]
            under = col[-2] if len(col) > 1 else 0
            # what leaving column c does for it
            if under and under in wanted[c]:
                gain = 60                       # exposes a card that can be built at once
            elif not under:
                gain = 30                       # empties the column
            elif depth[c] < 99:
                gain = 30 - 3 * min(depth[c], 9)
            else:
                gain = 0
            # builds
            targets = range(PILES) if c == CENTRE else (LINE[c],)
            for p in targets:
                if need[p] == x:
                    scored.append((1000 + gain, c, 9 + p))
            empties_tried: set[int] = set()
            for d in range(COLUMNS):
                if d == c:
                    continue
                y = foot[d]
                if y:
                    if y - x != 1 and x - y != 1:
                        continue
                    sc = gain
                    if x in wanted[d]:
                        sc += 80                # lands where it can be built next move
                    if depth[d] < 99:
                        sc -= 25 - 2 * min(depth[d], 9)   # buries a wanted card one deeper
                    scored.append((sc, c, d))
                else:
                    sb = 99 if d == CENTRE else self._state_byte(d)
                    if sb in empties_tried:
                        continue                # an equivalent empty column was tried already
                    empties_tried.add(sb)
                    if x in wanted[d]:
                        sc = gain + 70          # to a place it can be built from
                    elif not under:
                        sc = -100               # a lone card to another empty place: rarely of use
                    else:
                        sc = gain - 40          # spends an empty column
                    scored.append((sc, c, d))
        scored.sort(key=lambda t: -t[0])
        return [(c, d) for _, c, d in scored]

    def do(self, c: int, d: int) -> None:
        x = self.cols[c].pop()
        if d >= 9:
            p = d - 9
            self.need[p] = (0 if x == 13 else x + 1) if p < 4 else x - 1
        else:
            self.cols[d].append(x)

    def undo(self, c: int, d: int) -> None:
        if d >= 9:
            p = d - 9
            x = self.need[p] - 1 if p < 4 else self.need[p] + 1
            if p < 4 and self.need[p] == 0:
                x = 13
            self.need[p] = x
        else:
            x = self.cols[d].pop()
        self.cols[c].append(x)

    def won(self) -> bool:
        return not any(self.need)

    def run(self) -> bool | None:
        """True (``path`` holds a win), False (exhausted: lost) or None (budget spent)."""
        if self.won():
            return True
        root = self.key()
        self.seen.add(root)
        keys = [root]                       # keys of the positions on the current line
        stack = [(self.moves(), 0)]
        nodes = 0
        while stack:
            mvs, i = stack[-1]
            if i >= len(mvs):
                stack.pop()
                keys.pop()
                if self.path:
                    self.undo(*self.path.pop())
                continue
            stack[-1] = (mvs, i + 1)
            c, d = mvs[i]
            self.do(c, d)
            if d >= 9 and self.won():
                self.path.append((c, d))
                self.nodes += nodes
                return True
            k = self.key()
            if k in self.seen:
                self.undo(c, d)
                continue
            nodes += 1
            if nodes % CLOCK_EVERY == 0:
                if _clock() > self.deadline:
                    self.undo(c, d)
                    self.nodes += nodes
                    return None
            if nodes >= self.node_limit:
                self.undo(c, d)
                self.nodes += nodes
                return None
            if len(self.seen) >= TT_LIMIT:
                self.seen.clear()
                self.seen.update(keys)
            self.seen.add(k)
            keys.append(k)
            self.path.append((c, d))
            stack.append((self.moves(), 0))
        self.nodes += nodes
        return False


# -------------------------------------------------------------- shortening

# Most time (seconds on the solver's clock) spent shortening one plan, and at most this
# share of the time the caller gave the search. Most plans stop improving well before
# (median 0.1 s on seeds 0-499); the cap bites on the long wandering lines, which
# would still gain a little more with more time.
SHORTEN_SECONDS = 0.5
SHORTEN_SHARE = 0.5


def _exact_key(cols: list[list[int]], need: list[int]) -> bytes:
    """The position itself (no symmetry): a plan may only jump to a position it really reaches."""
    return bytes(need) + b"".join(b"\xff" + bytes(c) for c in cols)


def _forward(s: _Search) -> list[tuple[tuple[int, int], bytes]]:
    """Every legal move from the position of ``s`` with the exact key it leads to.

    Unlike ``_Search.moves`` no empty column is left out: two empty columns are
    alike for the search, but a plan must reach the very position it continues from.
    Keys are put together from the unchanged parts of the position's own key,
    which is what makes the sweeps of the shortener affordable.
    """
    cols, need = s.cols, s.need
    nb = bytes(need)
    parts = [b"\xff" + bytes(col) for col in cols]
    feet = [col[-1] if col else 0 for col in cols]
    out = []
    for c in range(COLUMNS):
        x = feet[c]
        if not x:
            continue
        left = parts[c][:-1]
        for p in (range(PILES) if c == CENTRE else (LINE[c],)):
            if need[p] == x:
                q = list(parts)
                q[c] = left
                after = (0 if x == 13 else x + 1) if p < 4 else x - 1
                out.append(((c, 9 + p), nb[:p] + bytes((after,)) + nb[p + 1:] + b"".join(q)))
        for d in range(COLUMNS):
            if d != c and (not feet[d] or feet[d] - x in (1, -1)):
                q = list(parts)
                q[c] = left
                q[d] = parts[d] + bytes((x,))
                out.append(((c, d), nb + b"".join(q)))
    return out


def _sizes(cols: list[list[int]]) -> int:
    """The column lengths in one number: with the sequences' state, a cheap first test of equal positions."""
    return sum(len(col) << (7 * c) for c, col in enumerate(cols))


def _backward(s: _Search, wanted: set[tuple[bytes, int]]) -> list[tuple[tuple[int, int], bytes]]:
    """Positions one legal move before the position of ``s``: (that move, its key).

    Only those whose (sequence state, ``_sizes``) is in ``wanted``: most are of
    no use to the caller, and that test is much cheaper than building a key.
    """
    cols, need = s.cols, s.need
    nb = bytes(need)
    size = _sizes(cols)
    parts = [b"\xff" + bytes(col) for col in cols]
    out = []
    for d in range(COLUMNS):           # the foot of d came from another column
        col = cols[d]
        if not col:
            continue
        x = col[-1]
        if len(col) > 1 and col[-2] - x not in (1, -1):
            continue                   # it could not have been packed there
        left = parts[d][:-1]
        for c in range(COLUMNS):
            if c != d and (nb, size - (1 << (7 * d)) + (1 << (7 * c))) in wanted:
                q = list(parts)
                q[d] = left
                q[c] = parts[c] + bytes((x,))
                out.append(((c, d), nb + b"".join(q)))
    for p in range(PILES):             # the top card of a sequence was built from a column
        n = need[p]
        if p < 4:
            if n == 2:
                continue               # only the starting ace: nothing was built
            x = 13 if n == 0 else n - 1
        else:
            if n == 12:
                continue               # only the starting king
            x = n + 1
        nb2 = nb[:p] + bytes((x,)) + nb[p + 1:]
        for c in (CENTRE, COLUMN_OF[p]):
            if (nb2, size + (1 << (7 * c))) not in wanted:
                continue
            q = list(parts)
            q[c] = parts[c] + bytes((x,))
            out.append(((c, 9 + p), nb2 + b"".join(q)))
    return out


def _relink(cols: list[list[int]], need: list[int], path: list[tuple[int, int]],
            deadline: float) -> list[tuple[int, int]]:
    """The shortest way through the line ``path`` when it may take shortcuts of at most two moves.

    A shortcut leaves a position of the line and rejoins it at a later one: a
    position met twice (a loop, no moves), one legal move to a later position,
    or two legal moves through a position off the line. The two-move shortcuts
    are found by meeting in the middle (the positions one move after each
    position of the line against those one move before each), so a pass costs
    one sweep of moves forwards and backwards, not a search from every position.
    The best combination of shortcuts is then a shortest path along the line.
    Every position kept is one the line passes through, and every move of a
    shortcut was legal where it is made, so the result wins as the line did.
    When the deadline passes, the gains made so far are kept and the rest of
    the line follows unchanged.
    """
    s = _Search(cols, need, float("inf"), 0)
    n = len(path)
    dist = [0] * (n + 1)
    back: list[tuple[int, list[tuple[int, int]]]] = [(0, [])] * (n + 1)
    on_line: dict[bytes, tuple[int, int]] = {}                          # key -> (dist, index)
    one_off: dict[bytes, tuple[int, int, tuple[int, int]]] = {}         # key -> (dist, from index, move)
    sizes: set[tuple[bytes, int]] = set()                              # (sequence state, _sizes) of one_off
    for k in range(n + 1):
        if k and k % 16 == 0 and _clock() > deadline:
            return _walk_back(back, k - 1) + path[k - 1:]     # the gains so far, then the line as it was
        key = _exact_key(s.cols, s.need)
        if k:
            best = (dist[k - 1] + 1, k - 1, [path[k - 1]])
            if key in on_line and on_line[key][0] < best[0]:
                best = (on_line[key][0], on_line[key][1], [])
            if key in one_off and one_off[key][0] < best[0]:
                d, i, m = one_off[key]
                best = (d, i, [m])
            for m2, q in _backward(s, sizes):
                hit = one_off.get(q)
                if hit is not None and hit[0] + 1 < best[0]:
                    best = (hit[0] + 1, hit[1], [hit[2], m2])
            dist[k], back[k] = best[0], (best[1], best[2])
        if key not in on_line or dist[k] < on_line[key][0]:
            on_line[key] = (dist[k], k)
        if k < n:
            size = _sizes(s.cols)
            for m1, x in _forward(s):
                if x not in one_off or dist[k] + 1 < one_off[x][0]:
                    one_off[x] = (dist[k] + 1, k, m1)
                    c, d = m1
                    sizes.add((x[:PILES], size - (1 << (7 * c)) + (1 << (7 * d)) if d < 9 else size - (1 << (7 * c))))
            s.do(*path[k])
    return _walk_back(back, n)


def _walk_back(back: list[tuple[int, list[tuple[int, int]]]], k: int) -> list[tuple[int, int]]:
    """The moves of the shortest way found to position k of the line."""
    parts = []
    while k:
        k, moves = back[k]
        parts.append(moves)
    return [m for moves in reversed(parts) for m in moves]


def _jump_ahead(cols: list[list[int]], need: list[int], path: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """One walk along the line, taking at each kept position the legal move that lands furthest ahead on it.

    Only the positions kept are expanded, so this costs little even on the
    lines of tens of thousands of moves that depth-first search sometimes keeps;
    ``_relink``, which expands every position, then works on what is left.
    """
    s = _Search(cols, need, float("inf"), 0)
    keys = [_exact_key(s.cols, s.need)]
    for m in path:
        s.do(*m)
        keys.append(_exact_key(s.cols, s.need))
    last = {k: j for j, k in enumerate(keys)}
    s = _Search(cols, need, float("inf"), 0)
    out: list[tuple[int, int]] = []
    i = last[keys[0]]
    while i < len(path):
        move, best = path[i], i + 1
        for m, key in _forward(s):
            j = last.get(key, -1)
            if j > best:
                move, best = m, j
        s.do(*move)
        out.append(move)
        i = last[keys[best]]
    return out


def _legal(cols: list[list[int]], need: list[int], c: int, d: int) -> bool:
    """The rules of a move, in the compact form (the rules engine says the same, more slowly)."""
    col = cols[c]
    if not col:
        return False
    x = col[-1]
    if d >= 9:
        return (c == CENTRE or LINE[c] == d - 9) and need[d - 9] == x
    if d == c:
        return False
    under = cols[d]
    return not under or under[-1] - x in (1, -1)


def _merge_card_moves(cols: list[list[int]], need: list[int], path: list[tuple[int, int]],
                      deadline: float) -> list[tuple[int, int]]:
    """Moves of one card merged into one, the other moves kept in their order.

    A card the line carries from column a to b, and later on from b to c, can
    often go from a to c in one move, either where it first left a or where it
    finally left b, while everything else happens as before; if c is a, both
    moves go. Other cards then meet it where they did not before, so each such
    change is replayed from the position it starts at and kept only when the
    legal moves reach exactly the position the line had at the end of it (the
    rest of the line goes on from there). These savings lie far apart along the
    line, where the short shortcuts of ``_relink`` do not reach.
    """
    s = _Search(cols, need, float("inf"), 0)
    ids = [[(c, k) for k in range(len(col))] for c, col in enumerate(s.cols)]
    before, keys, card = [], [], []
    for c, d in path:
        before.append(([list(col) for col in s.cols], list(s.need)))
        keys.append(_exact_key(s.cols, s.need))
        x = ids[c].pop()
        if d < 9:
            ids[d].append(x)
        card.append(x)
        s.do(c, d)
    keys.append(_exact_key(s.cols, s.need))
    moves_of: dict[tuple[int, int], list[int]] = {}
    for i, x in enumerate(card):
        moves_of.setdefault(x, []).append(i)
    tries = []
    for idx in moves_of.values():
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                tries.append((a - b, idx[b] - idx[a], idx[a], idx[b], idx[a + 1:b]))
    tries.sort()          # most of the card's moves saved first, then the shortest stretch
    done: dict[int, tuple[int, list[tuple[int, int]]]] = {}
    busy = [False] * len(path)
    for n, (*_, s0, t, inner) in enumerate(tries):
        if n % 64 == 0 and _clock() > deadline:
            break
        if any(busy[s0:t + 1]):
            continue       # overlaps a change already made: its positions are not the line's any more
        a, c = path[s0][0], path[t][1]
        mid = [path[k] for k in range(s0 + 1, t) if k not in inner]
        for seg in ([mid] if c == a else [mid + [(a, c)], [(a, c)] + mid]):
            cs, nd = [list(col) for col in before[s0][0]], list(before[s0][1])
            sim = _Search(cs, nd, 0, 0)
            ok = True
            for m in seg:
                if not _legal(sim.cols, sim.need, *m):
                    ok = False
                    break
                sim.do(*m)
            if ok and _exact_key(sim.cols, sim.need) == keys[t + 1]:
                done[s0] = (t, seg)
                busy[s0:t + 1] = [True] * (t + 1 - s0)
                break
    if not done:
        return path
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(path):
        if i in done:
            t, seg = done[i]
            out += seg
            i = t + 1
        else:
            out.append(path[i])
            i += 1
    return out


def shorten(cols: list[list[int]], need: list[int], path: list[tuple[int, int]],
            seconds: float = SHORTEN_SECONDS) -> list[tuple[int, int]]:
    """The same win with detours cut out, within ``seconds``.

    Depth-first search keeps the first winning line it meets, and that line
    wanders: cards are packed back and forth before the search happens on the
    way out. ``_jump_ahead`` first takes the one-move shortcuts of a cheap walk,
    then ``_relink`` (shortcuts of up to two moves, best combination) and
    ``_merge_card_moves`` (one card's moves merged, the rest kept) take turns:
    each pass gives a new line with new positions, so they are repeated until a
    round gains nothing or the time is spent. Every change is kept only when
    its moves are legal and rejoin the line exactly, and ``solve`` replays the
    result through the rules engine anyway.
    """
    deadline = _clock() + seconds
    while True:                        # cheap, and it takes most of a very long line away
        out = _jump_ahead(cols, need, path)
        if len(out) >= len(path):
            break
        path = out
        if _clock() > deadline:
            return path
    while _clock() < deadline:
        out = _merge_card_moves(cols, need, _relink(cols, need, path, deadline), deadline)
        if len(out) >= len(path):
            break
        path = out
    return path


# -------------------------------------------------------------------- solve

def _notation(path: list[tuple[int, int]]) -> list[str]:
    """Moves as ``str(Move)`` prints them: column3>aces3, column5>kings2, column1>column7."""
    return [f"column{c + 1}>" + (PILE_NAME[d - 9] if d >= 9 else f"column{d + 1}") for c, d in path]


def verify_plan(state: State, plan: list[str]) -> bool:
    """Replay a plan through the rules engine: every move legal and the game won at the end."""
    return replays_to_a_win(GAME_ID, state, plan)


def solve(state: State, time_limit: float = 1.0, node_limit: int = 10 ** 9) -> Solution:
    """Can the deal still be won from ``state``? See the module notes."""
    t0 = _clock()
    try:
        cols, need = compact(state)
    except _Unsolvable as e:
        return Solution("unknown", reason=str(e))
    except Exception as e:     # a malformed state must not take the caller down
        return Solution("unknown", reason=f"the state could not be read: {e}")
    if not any(need):
        return Solution("yes", [], "the game is already won", 0, _clock() - t0)
    short = _short_of(cols, need)
    if short:
        return Solution("unknown", [], short, 0, _clock() - t0)
    search = _Search(cols, need, t0 + time_limit, node_limit)
    verdict = search.run()
    secs = _clock() - t0
    if verdict is True:
        plan = _notation(shorten(cols, need, search.path, min(SHORTEN_SECONDS, SHORTEN_SHARE * time_limit)))
        secs = _clock() - t0
        if not verify_plan(state, plan):     # never claim a win the rules engine does not confirm
            return Solution("unknown", [], "internal error: the plan found did not replay", search.nodes, secs)
        return Solution("yes", plan, f"a winning plan of {len(plan)} moves", search.nodes, secs)
    if verdict is False:
        return Solution("no", [], f"every reachable position was examined ({search.nodes} positions): none wins",
                        search.nodes, secs)
    why = "time" if search.nodes < node_limit else "node"
    return Solution("unknown", [], f"no verdict within the {why} limit ({time_limit:g} s, "
                    f"{search.nodes} positions examined)", search.nodes, secs)


def main(argv: list[str] | None = None) -> int:
    """python -m advisor.captain_spaulding_solver STATE.json [seconds]"""
    return solver_main(solve, main.__doc__, argv)


if __name__ == "__main__":
    raise SystemExit(main())
