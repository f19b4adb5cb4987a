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
first line that wins, which wanders (raw lines of 200-1600 moves); ``shorten``
cuts its detours, which brings seeds 0-14 to 177-484 moves (median 241). A fresh deal's reachable space is far too large to exhaust,
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

def _exact_key(cols: list[list[int]], need: list[int]) -> bytes:
    """The position itself (no symmetry): a plan may only jump to a position it really reaches."""
    return bytes(need) + b"".join(b"\xff" + bytes(c) for c in cols)


def shorten(cols: list[list[int]], need: list[int], path: list[tuple[int, int]],
            passes: int = 4) -> list[tuple[int, int]]:
    """The same win with detours cut out.

    Depth-first search keeps the first winning line it meets, and that line
    wanders: cards are packed back and forth before the search happens on the
    way out. Along the line, if one legal move from position i reaches a
    position the line only reaches later (at j > i + 1), the moves between are
    a detour and are replaced by that one move. Every position kept is one the
    line really passes through, so the result still wins (``solve`` replays it
    through the rules engine anyway).
    """
    for _ in range(passes):
        search = _Search(cols, need, float("inf"), 10 ** 9)
        keys = [_exact_key(search.cols, search.need)]
        for c, d in path:
            search.do(c, d)
            keys.append(_exact_key(search.cols, search.need))
        last = {k: j for j, k in enumerate(keys)}
        search = _Search(cols, need, float("inf"), 10 ** 9)
        out: list[tuple[int, int]] = []
        i = 0
        while i < len(path):
            jump, best = None, i + 1
            j = last.get(keys[i], i)
            if j > i:                       # the line comes back here later: skip the loop
                i = j
                continue
            for c, d in search.moves():
                search.do(c, d)
                j = last.get(_exact_key(search.cols, search.need), -1)
                search.undo(c, d)
                if j > best:
                    jump, best = (c, d), j
            move = jump or path[i]
            search.do(*move)
            out.append(move)
            i = best
        if len(out) == len(path):
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
        plan = _notation(shorten(cols, need, search.path))
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
