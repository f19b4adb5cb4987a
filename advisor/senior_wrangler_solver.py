"""Solver and king-foresight for Senior Wrangler (every card is face up).

``solve(state)`` says whether the deal can still be won from ``state`` and,
when it can, gives a winning plan as a list of moves in our notation
(``column3>pile5``, ``redeal``). The verdict is

``yes``      a winning plan was found (and replayed through the rules engine);
``no``       every line of play was examined and none wins: the deal is lost;
``unknown``  the time or node budget ran out first.

How it searches
    The position is copied into a compact form (ranks only: suits never
    matter). Two searches share the budget:

    * a complete depth-first search over moves and redeals, with a table of
      positions already shown lost, and these sound cuts:
        - kings: a pile that needs only its king is like any other such pile,
          so a king is tried on one of them only;
        - forced cards: when a rank has a single card left in the columns,
          only one pile still needs it, and playing it there as soon as it
          is on top loses nothing, provided no later redeal could see the
          difference (a card in a frozen column, or the top card of the
          column being picked up when it would land on a frozen column):
          otherwise the cards later dealt above it would shift to other
          places when its column is dealt out;
        - waiting costs nothing for a card the coming redeal leaves
          uncovered (the top card of the column being picked up, or a column
          the redeal does not reach), so a session is never ended just after
          playing such a card: ending it one move earlier is at least as good;
        - the "kings relaxation": pretend that only kings block (any other
          card may be taken from anywhere above the first king of its
          column). Piles must still finish one at a time before their kings
          can go, and a king in a column that will never be picked up again
          locks the cards beneath it. If even this easier game cannot be won,
          the real one cannot. It is exact for the columns that are frozen
          (picked up already, or column 8) and optimistic for the others;
        - fixed-order dead ends: some runs of cards can never change their
          order again (a frozen column, and the cards of the column about to
          be picked up that its redeal sends to the same frozen column), so
          the upper cards of a run must be played first. A position is lost
          when cards that have only one place left must be played in a cycle
          (``order_cycle``), or when every card of some rank b lies in such a
          run below a rank a that every pile still wanting an a wants a b
          before it (``rank_block``);
        - optionally (``STACK_CUT``, off) the "stack relaxation": only the
          fixed-order runs block, every other card is in a free bag; if even
          that easier game cannot be won, the real one cannot
          (``stack_relaxation``). It sees more dead ends than the cuts above
          late in a game but did not pay for its cost (see ``STACK_CUT``);
    * a beam search over sessions that plays each session out with a
      Keeling-style heuristic (free the left-hand columns, keep kings off
      the cards they would bury) to find winning lines quickly in the many
      deals that can be won. Between sessions it keeps the positions that
      look best, counting against a position each card in a frozen column
      that lies above a card some pile wants sooner (only play can remove
      it) and each card a king will lie on once the coming redeals are done
      if nothing more moves (Keeling: get the kings "on the ground"), and
      drops those the dead-end cuts show lost. The last session, where the
      columns are fixed stacks, is not played out at random but searched
      completely (with a node budget) by a small dedicated search. Narrow
      beams restarted again and again with fresh random play-outs find
      more wins than a few wide ones: a deal is usually won by a lucky run
      rather than by keeping many lines. A play-out now and then declines
      a move it has chosen (``HOLD``): the card, and its column, wait for
      the next session. Many hard deals are won only so (a pile kept
      waiting for the copy of a rank that frees more; Keeling's tip 5).

    With many cards left (a fresh deal) the complete search cannot finish,
    so it only gets a short first try and the beam search the rest of the
    time; late in a game the two share it.

When the verdict is ``unknown`` the answer still carries the best line the
beam search found (``line``, with ``best_played`` cards on the piles), which the
advice offers as a suggestion that is not known to win.

What to expect (benchmarks/sw_solver_bench.py, 1 s of wall clock per deal on
this 2-core machine, seeds 0-999): the beam search in C (advisor/_swfast.c,
built at install) runs on both cores, and 986-991 deals get a "yes" with a
plan (ten runs with different play-out seeds; median 0.04 s per deal). Before
play-outs could hold cards back it was 970-976, and the Python search alone
decides about 900. No deal is proved lost. Where the time limit cuts a search
depends on the machine and its load, so the count moves by about three from
run to run. The undecided deals are mostly hard wins, not losses: of the 13
left at 1 s in one run, 10 were won within 30 CPU s (seed 931 after 34 s;
40, 451 and 597 stay unknown). Seed 19, which the search without holding did
not win in 150 CPU s (its best line reached 94 cards), is won in about 1 s.
No full deal can be proved lost within a second, and none is near: no sound
cut tried here fires on a fresh deal or before session 6 (the kings
relaxation, the fixed-order cuts and the stack relaxation all treat the
columns not yet frozen as free, and a fresh deal has only column 8 frozen).
"no" verdicts come for positions late in a game (they agree with a
brute-force search on hundreds of small positions).

``king_foresight(state)`` says, for every king still in the columns, where it
will lie after each coming redeal if no further card is moved (tips 2, 3, 6
and 7 of the source), and whether it ends "on the ground".
"""
from __future__ import annotations

import itertools
import os
import random
import threading
import time
from dataclasses import dataclass, field

from .engine import State, StateError, get_game
from . import solving
from .solving import replays_to_a_win, solver_main
from .games.senior_wrangler import KING, NCOL, NEED, PILE_LEN, SESSIONS, redeal_target

GAME_ID = "senior-wrangler"

# The clock all time limits are read from. A benchmark on a shared machine may set it to
# time.process_time so that a limit means CPU seconds of this process.
_clock = time.perf_counter


class _Budget(Exception):
    pass


@dataclass
class Solution(solving.Solution):
    best_played: int = 0              # most cards on the piles reached by any line tried (out of 96)
    line: list[str] = field(default_factory=list)   # when unknown: the best line found (not known to win)

    def to_json(self) -> dict:
        return {**super().to_json(), "best_played": self.best_played, "line": list(self.line)}


# ------------------------------------------------------------------ compact form

@dataclass
class Compact:
    cols: list[bytearray]     # ranks, index 0 furthest from the player
    keys: list[int]
    prog: list[int]           # cards on each pile (12 = finished)
    session: int

    def copy(self) -> "Compact":
        return Compact([bytearray(c) for c in self.cols], list(self.keys), list(self.prog), self.session)

    @property
    def played(self) -> int:
        return sum(self.prog)


def compact(state: State) -> Compact:
    """The state in compact form; StateError when a card needed to solve it is unknown."""
    g = get_game(GAME_ID)
    if state.game != GAME_ID:
        raise StateError(f"the solver is for Senior Wrangler, not {state.game}")
    keys = []
    for j in range(NCOL):
        k = g.key_rank(state, j)
        if k is None:
            raise StateError(f"key card {j + 1} is not known, so the deal cannot be solved")
        keys.append(k)
    cols = []
    for i, col in enumerate(state.areas["column"]):
        if any(sl.card is None for sl in col):
            raise StateError(f"column {i + 1} holds a card that has not been read, so the deal cannot be solved")
        cols.append(bytearray(sl.card.rank for sl in col))
    prog = [g.progress(state, j) for j in range(NCOL)]
    return Compact(cols, keys, prog, g.session(state))


def _incomplete(pos: Compact) -> str | None:
    """A reason when the columns do not hold exactly the cards the piles still need."""
    from collections import Counter
    have = Counter(r for col in pos.cols for r in col)
    want = Counter(NEED[k][q] for k, p in zip(pos.keys, pos.prog) for q in range(p, PILE_LEN))
    if have != want:
        return ("the columns do not hold exactly the cards the piles still need "
                "(some cards are missing from the state), so the deal cannot be solved")
    return None


def _needs_after(keys: list[int]) -> list[list[tuple[int, ...]]]:
    """needs[j][p]: the non-king ranks pile j still needs when it holds p cards."""
    return [[tuple(NEED[k][q] for q in range(p, PILE_LEN - 1)) for p in range(PILE_LEN + 1)] for k in keys]


def _frozen(c: int, session: int) -> bool:
    """Column c (0-based) will never be picked up again."""
    return c < session - 1 or c == NCOL - 1 or session == SESSIONS


# _FROZEN[session][c] = _frozen(c, session), for the loops that ask it of every column
_FROZEN = [None] + [tuple(_frozen(c, s) for c in range(NCOL)) for s in range(1, SESSIONS + 1)]


# ------------------------------------------------------------ kings relaxation

def kings_relaxation(cols, prog, needs, session, quick: bool = False, steps: int = 300) -> bool:
    """False when the position is lost even if only kings could block (see the module notes).

    ``quick`` does only the first test (some pile must be able to reach its king); the full
    test gives up after ``steps`` steps and then answers True, which is always safe.
    """
    avail = [0] * 14
    chains = []
    free_kings = 0
    for c in range(NCOL):
        col = cols[c]
        if not _frozen(c, session):
            for r in col:
                if r == KING:
                    free_kings += 1
                else:
                    avail[r] += 1
            continue
        segs = []
        cur = [0] * 14
        for i in range(len(col) - 1, -1, -1):
            r = col[i]
            if r == KING:
                segs.append(cur)
                cur = [0] * 14
            else:
                cur[r] += 1
        segs.append(cur)
        top = segs[0]
        for r in range(1, 13):
            avail[r] += top[r]
        if len(segs) > 1:
            chains.append(segs[1:])
    incomplete = [j for j in range(NCOL) if prog[j] < PILE_LEN]
    if not incomplete:
        return True
    pneeds = [needs[j][prog[j]] if prog[j] < PILE_LEN else () for j in range(NCOL)]
    # quick test: some pile must be able to reach its king first
    if not any(all(avail[r] for r in pneeds[j]) for j in incomplete):
        return False
    if quick:
        return True
    full = 0
    for j in range(NCOL):
        if prog[j] >= PILE_LEN:
            full |= 1 << j
    # first[j]: the piles that reach their kings before pile j in some best order (bits). A pile
    # whose needs lie within pile j's can always go first: swapping the two in a good order keeps
    # every earlier total within what was available. (Equal needs: the lower pile first.)
    sets = {j: set(pneeds[j]) for j in incomplete}
    first = {j: sum(1 << i for i in incomplete if i != j and sets[i] <= sets[j] and (sets[i] != sets[j] or i < j))
             for j in incomplete}
    seen = set()
    nch = len(chains)
    budget = [steps]

    def fits(mask, av):
        d = [0] * 14
        for j in incomplete:
            if mask >> j & 1:
                for r in pneeds[j]:
                    d[r] += 1
                    if d[r] > av[r]:
                        return False
        return True

    def rec(state, mask, fk, av):
        if mask == 255:
            return True
        key = (state, mask, fk)
        if key in seen:
            return False
        seen.add(key)
        budget[0] -= 1
        if budget[0] < 0:
            raise _Budget
        # A king of a run is never worse than a free one: the run's next cards become
        # available, and the free king is still there for a later pile.
        free_king = fk and not any(state[k] < len(chains[k]) for k in range(nch))
        for j in incomplete:
            if mask >> j & 1 or first[j] & ~mask:
                continue
            m2 = mask | 1 << j
            if not fits(m2, av):
                continue
            if free_king and rec(state, m2, fk - 1, av):
                return True
            for k in range(nch):
                t = state[k]
                if t < len(chains[k]):
                    seg = chains[k][t]
                    if rec(state[:k] + (t + 1,) + state[k + 1:], m2, fk, [a + b for a, b in zip(av, seg)]):
                        return True
        return False

    try:
        return rec((0,) * nch, full, free_kings, avail)
    except _Budget:
        return True


def _fixed_chains(cols, session) -> list:
    """Runs of cards (top first) whose order no redeal can change: each must be played before the next.

    Every frozen column is one. So is each set of cards in the column about to be
    picked up that the redeal sends to the same frozen column (positions i, i + 8,
    ...): the upper ones must go first whether the card is played before the redeal
    (they lie above it now) or after (they land above it). Every card of the
    column being picked up is in exactly one such run, or in none when its
    target is a column that will be picked up later.
    """
    out = []
    for c in range(NCOL):
        col = cols[c]
        if _frozen(c, session):
            out.append(col[::-1])
    if session < SESSIONS:
        col = cols[session - 1]
        for d in range(min(NCOL, len(col))):
            if _frozen(d, session + 1):
                out.append(col[d::NCOL][::-1])
    return out


def _places(keys: list[int]) -> list[list[int | None]]:
    """place[j][r]: where rank r goes in pile j's sequence (None for the key's own rank)."""
    return [[None] + [NEED[k].index(r) if r in NEED[k] else None for r in range(1, 14)] for k in keys]


def order_cycle(cols, prog, place, session) -> bool:
    """True when the position is lost because cards with only one place to go are held in a bad order.

    A rank that only one pile still needs has exactly one card left, and that card
    can only fill that pile's slot. Such cards must be played in their piles' order,
    and in a frozen column (whose order no redeal changes any more: later cards
    only land on top) from the top down. If these two orders together form a
    cycle, no line of play can place them all.
    """
    owner: list = [None] * 14
    cnt = [0] * 14
    for j in range(NCOL):
        p = prog[j]
        if p >= PILE_LEN:
            continue
        pl = place[j]
        for r in range(1, 14):
            q = pl[r]
            if q is not None and q >= p:
                cnt[r] += 1
                owner[r] = (j, q)
    single = [r for r in range(1, 14) if cnt[r] == 1]
    if len(single) < 2:
        return False
    succ: dict[int, list[int]] = {r: [] for r in single}
    indeg = dict.fromkeys(single, 0)
    per_pile: dict[int, list[tuple[int, int]]] = {}
    for r in single:
        j, q = owner[r]
        per_pile.setdefault(j, []).append((q, r))
    for lst in per_pile.values():
        lst.sort()
        for (_, a), (_, b) in zip(lst, lst[1:]):
            succ[a].append(b)
            indeg[b] += 1
    for chain in _fixed_chains(cols, session):
        prev = 0
        for r in chain:
            if cnt[r] == 1:
                if prev:
                    succ[prev].append(r)
                    indeg[r] += 1
                prev = r
    todo = [r for r in single if indeg[r] == 0]
    done = 0
    while todo:
        r = todo.pop()
        done += 1
        for b in succ[r]:
            indeg[b] -= 1
            if indeg[b] == 0:
                todo.append(b)
    return done < len(single)


# per key: its pile sequence and, for each q, the ranks of slots 0..q-1 as a bit mask
_SEQ_MASKS = {k: (NEED[k], [sum(1 << r for r in NEED[k][:q]) for q in range(PILE_LEN + 1)]) for k in range(1, 13)}


def rank_block(cols, prog, keys, session) -> bool:
    """True when the position is lost because every card of some rank is buried by a rank that needs it first.

    Take ranks a and b such that every pile still needing an ``a`` needs a ``b``
    before it, and every ``b`` left lies in a frozen column beneath some ``a``.
    The first ``b`` to be played needs an ``a`` above it played earlier; that
    ``a`` went to a pile that had to take a ``b`` even earlier: impossible.
    """
    full = (1 << 14) - 1
    covered = [full] * 14          # covered[b]: ranks lying above every b left (bit a)
    held = [0] * 14                # cards of each rank in the fixed runs
    for chain in _fixed_chains(cols, session):
        above = 0
        for r in chain:
            covered[r] &= above
            above |= 1 << r
            held[r] += 1
    left = [0] * 14
    for col in cols:
        for r in col:
            left[r] += 1
    for r in range(1, 14):
        if held[r] != left[r]:     # some card of this rank may still be dealt anywhere
            covered[r] = 0
    before = [full] * 14           # before[a]: ranks every pile still needing a needs earlier (bit b)
    wanted = 0
    for j in range(NCOL):
        p = prog[j]
        if p >= PILE_LEN:
            continue
        seq, pre = _SEQ_MASKS[keys[j]]
        base = pre[p]
        for q in range(p, PILE_LEN):
            a = seq[q]
            wanted |= 1 << a
            before[a] &= pre[q] ^ base
    for b in range(1, 14):
        cb = covered[b]
        if not cb or cb == full or not wanted >> b & 1:
            continue
        for a in range(1, 14):
            if cb >> a & 1 and wanted >> a & 1 and before[a] >> b & 1:
                return True
    return False


# ------------------------------------------------------------ stack relaxation

STACK_STEPS = 1000     # positions the stack relaxation may visit before it gives up (answering "maybe")


def stack_relaxation(cols, prog, keys, session, steps: int | None = None) -> bool:
    """False when the position is lost even if only the fixed runs could block (see below).

    The relaxation: every card that lies in one of ``_fixed_chains`` (a frozen column,
    or a run of the column about to be picked up that its redeal sends to one frozen
    column) must still be played in its run's order, top first; every other card is
    in a free bag and may be played whenever a pile needs its rank. Any line of play
    of the real game, from this position on (a session start or any point in a
    session), is also a line of this easier game: a card played from the top of its
    column has had every card above it in its run played already (that is what makes
    the runs fixed, see ``_fixed_chains``), and a bag card may be played at any time.
    So if the easier game cannot be won, the real one cannot.

    It is searched completely, with one shortcut: when no run holds a card of rank r
    any more, a pile that needs an r takes one from the bag at once. That loses
    nothing. Every r left is then in the bag and there are exactly as many as piles
    still needing one. Take any win of the easier game: this pile takes its r later
    in it; move that step to now. Any other pile taking an r before that moment
    found, in the original line, at least two r in the bag (one for itself and one
    for this pile, both still needing one), so it still finds one; nothing else
    changes. Piles that need only their king are alike, so a king goes to one of
    them only. After ``steps`` positions the search gives up and answers True,
    which is always safe.
    """
    chains = [bytes(c) for c in _fixed_chains(cols, session) if c]
    nch = len(chains)
    if not nch:
        return True
    need = [NEED[k] + (0,) for k in keys]
    bag = [0] * 15
    for col in cols:
        for r in col:
            bag[r] += 1
    total = sum(bag)
    inrun = [0] * 15              # cards of each rank still in the runs
    for ch in chains:
        for r in ch:
            bag[r] -= 1
            inrun[r] += 1
    prog = list(prog)
    ptr = [0] * nch
    failed: set = set()
    budget = [int(STACK_STEPS) if steps is None else steps]
    KEEP = PILE_LEN - 1

    def rec(done: int) -> bool:
        # free moves first (ranks no run holds any more), undone on the way back
        undo = []
        changed = True
        while changed:
            changed = False
            for j in range(NCOL):
                p = prog[j]
                while p < PILE_LEN:
                    r = need[j][p]
                    if inrun[r] or not bag[r]:
                        break
                    bag[r] -= 1
                    p += 1
                    undo.append((j, r))
                    changed = True
                prog[j] = p
        done += len(undo)
        try:
            if done == total:
                return True
            hi = [x for x in prog if x >= KEEP]
            if len(hi) > 1:
                hi.sort()
                it = iter(hi)
                key = bytes(next(it) if x >= KEEP else x for x in prog) + bytes(ptr)
            else:
                key = bytes(prog) + bytes(ptr)
            if key in failed:
                return False
            budget[0] -= 1
            if budget[0] < 0:
                raise _Budget
            wanted = _wanted(prog, need)
            # a card on top of a run, to each pile that wants it
            for k in range(nch):
                t = ptr[k]
                ch = chains[k]
                if t < len(ch):
                    r = ch[t]
                    for j in wanted.get(r, ()):
                        ptr[k] = t + 1
                        prog[j] += 1
                        inrun[r] -= 1
                        ok = rec(done + 1)
                        inrun[r] += 1
                        prog[j] -= 1
                        ptr[k] = t
                        if ok:
                            return True
                        if r == KING:
                            break               # piles needing only a king are alike
            # a card of a rank some run still holds, from the bag
            for r, js in wanted.items():
                if bag[r] and inrun[r]:
                    for j in js:
                        bag[r] -= 1
                        prog[j] += 1
                        ok = rec(done + 1)
                        prog[j] -= 1
                        bag[r] += 1
                        if ok:
                            return True
                        if r == KING:
                            break
            failed.add(key)
            return False
        finally:
            for j, r in reversed(undo):
                bag[r] += 1
                prog[j] -= 1

    try:
        return rec(0)
    except _Budget:
        return True

# --------------------------------------------------------------- exact search

# Whether the dead-end cuts are tried at every node, not only at session starts and in the last session.
CUTS_EVERY_NODE = 0
# Whether the stack relaxation is tried at session starts in the exact search, and in the beam.
# Both are off: it is sound and sees more dead ends than the cuts above (at the start of
# session 8 it condemned 29 of 38 random play-outs where they condemned 11; at the start of
# session 7, 6 of 44 where they condemned none), but it never fires on a fresh deal or before
# session 6. Seeds 0-199 at 1 CPU s (bench --set): with STACK_CUT=1 the same 187 yes, 13
# unknown and median 0.053 s as without it (it changed no verdict on 30 positions at the start
# of sessions 6 and 7 either); with STACK_BEAM=1 as well, 161 yes, 39 unknown, median 0.159 s
# (in the beam it costs more than it saves). Kept, tested, for further work on loss proofs.
STACK_CUT = 0
STACK_BEAM = 0
# It is tried only from this session on: earlier it (almost) never fires, and finding the
# relaxed game's win among many cards can cost a good share of the second.
STACK_FROM = 6


# Piles needing only their king (11 cards) and finished piles (12) are told apart in the
# transposition keys only by how many there are of each. With the column heights (or the
# columns themselves) in the key, the total on the piles is known, and so is that count once
# every other pile is: capping the progress at 11 therefore loses nothing, and it makes two
# positions that differ only by which of those piles is finished share one entry (they are
# alike: such piles need nothing but a king, which any of them takes).
_CAP11 = bytes(min(x, PILE_LEN - 1) for x in range(256))


class _Exact:
    def __init__(self, pos: Compact, deadline: float, node_limit: int):
        self.cols = [bytearray(c) for c in pos.cols]
        self.prog = list(pos.prog)
        self.s = pos.session
        self.keys = pos.keys
        self.need = [NEED[k] + (0,) for k in pos.keys]
        self.needs = _needs_after(pos.keys)
        self.place = _places(pos.keys)
        self.failed: set[bytes] = set()
        self.nodes = 0
        self.deadline = deadline
        self.node_limit = node_limit
        self.path: list[tuple[int, int]] = []   # (column, pile) or (-1, -1) for redeal
        self.best = sum(self.prog)

    def key(self) -> bytes:
        # piles needing only their king are interchangeable, and finished piles are inert:
        # the columns fix how many of those are finished (see _CAP11)
        return bytes(self.prog).translate(_CAP11) + bytes((self.s,)) + b"|".join(self.cols)

    def remaining(self, r: int) -> int:
        """How many cards of rank r are still in the columns (= piles still needing r)."""
        n = 0
        for j in range(NCOL):
            q = self.place[j][r]
            if q is not None and self.prog[j] <= q:
                n += 1
        return n

    def run(self) -> bool:
        return self.dfs(None, False)

    def dfs(self, last, after_forced: bool) -> bool:
        self.nodes += 1
        if self.nodes & 255 == 0 and (_clock() > self.deadline or self.nodes > self.node_limit):
            raise _Budget
        prog = self.prog
        played = sum(prog)
        if played > self.best:
            self.best = played
        if played == NCOL * PILE_LEN:
            return True
        k = self.key()
        if k in self.failed:
            return False
        cols = self.cols
        s = self.s
        if last is None or s == SESSIONS or CUTS_EVERY_NODE:
            # at a session start (and throughout the last session) use the kings relaxation
            if last is None and _clock() > self.deadline:
                raise _Budget
            if (not kings_relaxation(cols, prog, self.needs, s, quick=last is not None)
                    or rank_block(cols, prog, self.keys, s) or order_cycle(cols, prog, self.place, s)
                    or (STACK_CUT and last is None and STACK_FROM <= s < SESSIONS
                        and not stack_relaxation(cols, prog, self.keys, s))):
                self.failed.add(k)
                return False
        need = self.need
        wanted = _wanted(prog, need)
        moves = []
        forced = None
        for c in range(NCOL):
            col = cols[c]
            if not col:
                continue
            t = col[-1]
            piles = wanted.get(t)
            if not piles:
                continue
            if t == KING:
                moves.append((c, piles[0]))      # piles needing only a king are alike
                continue
            if len(piles) == 1 and self._stays_put(c) and self.remaining(t) == 1:
                forced = (c, piles[0])
                break
            for j in piles:
                moves.append((c, j))
        if forced is not None:
            moves = [forced]
        elif len(moves) > 1:
            moves.sort(key=self._order, reverse=True)
        for c, j in moves:
            col = cols[c]
            t = col.pop()
            prog[j] += 1
            self.path.append((c, j))
            ok = self.dfs((c, j), forced is not None)
            if ok:
                return True
            self.path.pop()
            prog[j] -= 1
            col.append(t)
        if forced is None and s < SESSIONS and (after_forced or not self._deferrable(last)):
            picked = cols[s - 1]
            cols[s - 1] = bytearray()
            lens = [len(c) for c in cols]
            for i, r in enumerate(picked):
                cols[redeal_target(i)].append(r)
            self.s = s + 1
            self.path.append((-1, -1))
            ok = self.dfs(None, False)
            if ok:
                return True
            self.path.pop()
            self.s = s
            for c in range(NCOL):
                del cols[c][lens[c]:]
            cols[s - 1] = picked
        self.failed.add(k)
        return False

    def _stays_put(self, c: int) -> bool:
        """Taking the top card of column c early cannot shift any other card's place at a later redeal."""
        s = self.s
        if _frozen(c, s):
            return True
        if c == s - 1:
            # it is dealt last from this column; fine if it lands on a column never picked up again
            d = redeal_target(len(self.cols[c]) - 1)
            return d < s or d == NCOL - 1
        return False

    def _deferrable(self, last) -> bool:
        """Ending the session right after this move is no better than ending it one move earlier."""
        if last is None:
            return False
        c, _ = last
        s = self.s
        return c == s - 1 or c >= len(self.cols[s - 1])

    def _order(self, move) -> int:
        c, j = move
        col = self.cols[c]
        sc = 0
        if _frozen(c, self.s):
            sc += 2
        if len(col) > 1:
            under = col[-2]
            nxt = self.need[j][self.prog[j] + 1]
            if under == nxt or any(self.need[i][self.prog[i]] == under for i in range(NCOL) if i != j):
                sc += 3
        return sc


# ---------------------------------------------------------------- beam search

# Per card in a frozen column lying above one some pile wants sooner. 6 rather than 4 once play-outs
# hold cards back (session 24, 24 hard seeds x 3 play-out seeds, HOLD 0.1, width 40, noise 2: 36
# wins against 32 for 4; 2 gave 31, 8 gave 32; with noise 3 as well, 38). Near the noise (about 4);
# seeds 0-999 at 1 CPU s decided 984-990 with each of these settings.
BLOCKED_WEIGHT = 6.0
KING_FORESIGHT = 1     # score kings by where they end if nothing more moves (0: by the next redeal only)
# Per card a king will lie on. 5 rather than 3: on the 43 hard seeds (the 31 the old solver left
# undecided in seeds 0-299 and 12 it won slowly) 18 against 12 wins with the old code, 21
# against 19 and 17 against 17 (two play-out seeds) with this one; 8 gave 21, 6 gave 18. The
# differences are near the noise (about 3 deals). Tried there and not kept: a weight on the
# blocked cards of the lay-out the coming redeals make (17), a penalty for uneven piles
# (Keeling's tip 10: 18, as without), 30 play-outs of the starting position (19).
KING_WEIGHT = 5.0

def _wanted(prog, need) -> dict[int, list[int]]:
    """rank -> the piles that need it next, in pile order."""
    wanted: dict[int, list[int]] = {}
    for j in range(NCOL):
        p = prog[j]
        if p < PILE_LEN:
            r = need[j][p]
            if r in wanted:
                wanted[r].append(j)
            else:
                wanted[r] = [j]
    return wanted


def _session_playout(cols, prog, need, s, rng, noise, hold=0.0):
    """Play one session out (every card that can move, chosen with a heuristic). Returns moves made.

    With ``hold`` > 0 each chosen move is, with that chance, declined instead: the card stays
    where it is for the rest of the session, and so does its column (see ``HOLD``)."""
    moves = []
    frozen = _FROZEN[s]
    rand = rng.random
    # wl[r]: the piles that need rank r next, in pile order (wl[0] stays empty: rank 0 stands
    # for an empty column in top); both are kept up to date move by move
    wl: list[list[int]] = [[] for _ in range(15)]
    for j in range(NCOL):
        if prog[j] < PILE_LEN:
            wl[need[j][prog[j]]].append(j)
    top = [col[-1] if col else 0 for col in cols]
    rc = range(NCOL)
    held = [False] * NCOL
    while True:
        cand = [(c, j) for c in rc if not held[c] for j in wl[top[c]]]
        if not cand:
            return moves
        if len(cand) == 1:
            c, j = cand[0]
        else:
            best, bs = cand[0], -1e9
            for c, j in cand:
                col = cols[c]
                t = top[c]
                sc = rand() * noise
                nxt = need[j][prog[j] + 1]
                if len(col) > 1:
                    u = col[-2]
                    if u == nxt or (wl[u] and (u != t or len(wl[u]) > 1)):
                        sc += 2
                if frozen[c]:
                    sc += 1
                if nxt and top.count(nxt) > (t == nxt):
                    sc += 1
                if sc > bs:
                    bs, best = sc, (c, j)
            c, j = best
        if hold > 0.0 and rand() < hold:
            held[c] = True
            continue
        col = cols[c]
        t = col.pop()
        top[c] = col[-1] if col else 0
        p = prog[j] + 1
        prog[j] = p
        wl[t].remove(j)
        if p < PILE_LEN:
            w = wl[need[j][p]]
            w.append(j)
            if len(w) > 1:
                w.sort()
        moves.append((c, j))


def _score(cols, prog, s, need=None, blocked_weight: float = 4.0) -> float:
    """How promising a position at the start of session s looks (higher is better)."""
    sc = 10.0 * sum(prog)
    dist = None
    if need is not None and blocked_weight:
        # how soon some pile wants each rank: a card lying in a frozen column above one that is
        # wanted sooner holds it back, and only play can remove it
        dist = [99] * 14
        for j in range(NCOL):
            p = prog[j]
            nj = need[j]
            for q in range(p, PILE_LEN):
                r = nj[q]
                if q - p < dist[r]:
                    dist[r] = q - p
    fz = _FROZEN[s]
    for c, col in enumerate(cols):
        frozen = fz[c]
        if frozen and dist is not None:
            m = -1
            for i in range(len(col) - 1, -1, -1):
                d = dist[col[i]]
                if d < m:
                    sc -= blocked_weight
                elif d > m:
                    m = d
        if KING_FORESIGHT:
            continue
        for i, r in enumerate(col):
            if r == KING:
                if frozen:
                    sc -= 3 * i                      # a king above i cards that may never reach the top
                else:
                    d = redeal_target(i)
                    if d < c or d == NCOL - 1:       # it will land on a column already dealt out
                        sc -= len(cols[d])
    if KING_FORESIGHT:
        # where every king ends if no further card moves: each card it then lies on is held
        # until some pile needs only a king (Keeling: get the kings "on the ground")
        fin = [bytes(c) for c in cols]
        for t in range(s, SESSIONS):
            picked = fin[t - 1]
            fin[t - 1] = b""
            for d in range(min(NCOL, len(picked))):
                fin[d] += picked[d::NCOL]
        for col in fin:
            i = col.find(KING)
            while i >= 0:
                sc -= KING_WEIGHT * i
                i = col.find(KING, i + 1)
    return sc


# Node budget of the last-session search. 500 did no better on the hard seeds (17 against 19
# wins of 43). Stronger tests inside it did not pay either: the kings test of the exact search
# at every position, or rank_block and order_cycle there, made it slower (the latter five
# times, for a third fewer give-ups), and the full kings relaxation before it condemns two
# positions in three but costs twice what the search itself spends on them.
FINISH_NODES = 1500


def _finish_last(cols, prog, need, nodes: int):
    """A winning line for the last session (no redeal left: the columns are fixed stacks), or None.

    Complete for the last session: only the two cuts of the exact search that are plainly
    sound there (a king tried on one of the piles needing only a king; a card whose rank
    has a single copy left is played at once). Raises _Budget (with the most cards
    played and the moves that played them) after ``nodes`` positions.
    """
    cols = [bytes(c) for c in cols]
    heights = [len(c) for c in cols]
    prog = list(prog)
    # nxt[j]: the rank pile j takes next (0 when finished), kept up to date as cards move
    nxt = [need[j][prog[j]] if prog[j] < PILE_LEN else 0 for j in range(NCOL)]
    rem = [0] * 15
    for col in cols:
        for r in col:
            rem[r] += 1
    failed = set()
    path: list = []
    total = NCOL * PILE_LEN
    best = [sum(prog)]
    best_path: list = []          # the moves to best[0]: a line reported must reach what it claims
    count = [0]
    played = [sum(prog)]
    rc = range(NCOL)
    cap = _CAP11

    def rec() -> bool:
        if played[0] == total:
            return True
        if played[0] > best[0]:
            best[0] = played[0]
            best_path[:] = path
        key = bytes(heights) + bytes(prog).translate(cap)
        if key in failed:
            return False
        count[0] += 1
        if count[0] > nodes:
            raise _Budget(best[0], list(best_path))
        wanted: dict[int, list[int]] = {}
        for j in rc:
            r = nxt[j]
            if r:
                if r in wanted:
                    wanted[r].append(j)
                else:
                    wanted[r] = [j]
        moves = []
        forced = None
        for c in rc:
            h = heights[c]
            if not h:
                continue
            col = cols[c]
            t = col[h - 1]
            piles = wanted.get(t)
            if piles is None:
                continue
            if t == KING:
                moves.append((0, c, piles[0]))
                continue
            if rem[t] == 1:
                forced = (0, c, piles[0])
                break
            u = col[h - 2] if h > 1 else 0
            for j in piles:
                moves.append((2 if u and (u == need[j][prog[j] + 1] or u in wanted) else 0, c, j))
        if forced is not None:
            moves = [forced]
        elif len(moves) > 1:
            moves.sort(reverse=True)
        for _, c, j in moves:
            t = cols[c][heights[c] - 1]
            heights[c] -= 1
            p = prog[j] + 1
            prog[j] = p
            nxt[j] = need[j][p]
            rem[t] -= 1
            played[0] += 1
            path.append((c, j))
            if rec():
                return True
            path.pop()
            heights[c] += 1
            prog[j] = p - 1
            nxt[j] = t
            rem[t] += 1
            played[0] -= 1
        failed.add(key)
        return False

    return path if rec() else None


def _unlink(hist) -> list:
    """The moves of a line kept as nested (earlier part, moves) pairs."""
    parts = []
    while hist is not None:
        hist, mv = hist
        parts.append(mv)
    return [m for mv in reversed(parts) for m in mv]


_REDEAL_MOVE = [(-1, -1)]


def _beam(pos: Compact, deadline: float, rng: random.Random, width: int = 30, samples: int = 10,
          noise: float = 2.0, finish_from: int = SESSIONS):
    """A winning line found by beam search, or None; also the most cards played and that line."""
    need = [NEED[k] + (0,) for k in pos.keys]
    needs = _needs_after(pos.keys)
    place = _places(pos.keys)
    beam = [([bytearray(c) for c in pos.cols], list(pos.prog), None)]
    s = pos.session
    best = sum(pos.prog)
    best_line = None
    total = NCOL * PILE_LEN
    while beam:
        cand = {}
        for cols, prog, hist in beam:
            if s >= finish_from:
                # in the last session a fast complete search of the rest beats random play-outs
                if _clock() > deadline:
                    return None, best, _unlink(best_line)
                try:
                    got = _finish_last(cols, prog, need, FINISH_NODES)
                except _Budget as e:
                    got = None
                    if e.args and e.args[0] > best:
                        best, best_line = e.args[0], (hist, e.args[1])
                else:
                    if got is not None:
                        line = _unlink((hist, got))
                        return line, total, line
                    continue                      # no way to finish: drop it
            if _clock() > deadline:           # (reading a CPU clock is slow: once per position)
                return None, best, _unlink(best_line)
            for _ in range(samples):
                c2 = [bytearray(c) for c in cols]
                p2 = list(prog)
                mv = _session_playout(c2, p2, need, s, rng, noise, HOLD)
                played = sum(p2)
                if played > best or best_line is None:
                    best, best_line = max(best, played), (hist, mv)
                if played == total:
                    line = _unlink((hist, mv))
                    return line, total, line
                key = bytes(p2) + b"|".join(c2)
                if key not in cand:
                    cand[key] = (c2, p2, (hist, mv))
        if s >= SESSIONS:
            return None, best, _unlink(best_line)
        nxt = []
        for cols, prog, hist in cand.values():
            picked = cols[s - 1]
            cols[s - 1] = bytearray()
            for d in range(min(NCOL, len(picked))):
                cols[d] += picked[d::NCOL]      # redeal_target(i) = i % NCOL, in dealing order
            nxt.append((_score(cols, prog, s + 1, need, BLOCKED_WEIGHT), cols, prog, (hist, _REDEAL_MOVE)))
        s += 1
        nxt.sort(key=lambda x: -x[0])
        # the dead-end cuts cost more than the score: try them best first, until the beam is full
        beam = []
        for _, cols, prog, hist in nxt:
            if (kings_relaxation(cols, prog, needs, s, quick=True) and not rank_block(cols, prog, pos.keys, s)
                    and not order_cycle(cols, prog, place, s)
                    and not (STACK_BEAM and STACK_FROM <= s < SESSIONS
                             and not stack_relaxation(cols, prog, pos.keys, s))):
                beam.append((cols, prog, hist))
                if len(beam) >= width:
                    break
    return None, best, _unlink(best_line)


# -------------------------------------------------------------------- solve

# Above this many cards left in the columns the complete search only gets a short first try
# (this share of the time limit) and the beam search the rest.
EXACT_FEW_CARDS = 48
EXACT_EARLY_SHARE = 0.03
# The beam searches are restarted (with fresh random play-outs) until a plan is found or the
# time is up, their width growing by this factor from the first. Many narrow beams find more
# wins in 1 s than a few wide ones (widths 5-8 did best on hard seeds; doubling from 10 worse).
BEAM_WIDTH0 = 5
BEAM_GROWTH = 1.0
BEAM_NOISE = 3.0       # randomness of the play-out choices (2 before play-outs held cards back; with them 3: 38 wins against 32, 1 gave 36, 4 gave 33)
BEAM_SAMPLES = 6       # play-outs of each kept position per session (at least)
# Width of the C search's beams: it affords about fifty times the play-outs, and wider beams
# paid there (seeds 0-999 at 1 CPU s: width 5 decided 965 and 966 with two play-out seeds,
# 20, 40 and 80 each 971). With held cards (HOLD) the beam keeps more kinds of session ends, and
# 40 paid again: 33 against 27 wins on 24 hard seeds x 3 (80: 31; 10: 14).
FAST_BEAM_WIDTH = 40

# The beam search in C (advisor/_swfast.c), built at install time where a C compiler is
# found. USE_FAST = 0 makes the solver use the Python search (for comparisons).
try:
    from . import _swfast as _fast
except ImportError:          # no compiler at install time: the Python search does the work
    _fast = None
USE_FAST = 1
# Beam searches run side by side, one a CPU core (the C search lets go of the interpreter while it
# works), each with its own play-out seed; the first to win stops the others. A second searcher
# is a second chance at the same wall time: seeds of the play-outs decide which deals a beam wins.
SEARCHERS = min(2, os.cpu_count() or 1)
# Chance that a play-out declines a move it has chosen, leaving that card (and its column) as it
# is until the next session. Many wins need it: a pile kept waiting for the copy of a rank that
# frees more, or a column left for the redeal to cover (Keeling's tip 5 holds a card back for the
# first reason). Seeds 0-999 at 1 CPU s of each thread: 975 decided without it, 981 with 0.1 in one
# of the two searchers at width 20 (session 24); on 24 hard seeds (3 play-out seeds each) 0.03-0.2 did about as well, 0.3 worse.
HOLD = 0.1
_groups = itertools.count()


def _fast_beam_usable() -> bool:
    """The C search implements the settings in use (it has king foresight only and no stack cut)."""
    return _fast is not None and bool(USE_FAST) and bool(KING_FORESIGHT) and not STACK_BEAM and BEAM_GROWTH == 1.0


def _side_by_side_beams(pos: Compact, seconds: float, seed: int, width: int):
    """The C beam search on ``SEARCHERS`` threads for ``seconds`` each (on the solver's clock; a CPU
    clock is then each thread's own), play-out seeds ``seed``, ``seed + 1``...: (plan or None, best
    cards played, best line), a win from any of them first."""
    args = ([bytes(c) for c in pos.cols], bytes(pos.prog), bytes(pos.keys), pos.session, seconds)
    rest = (width, max(int(BEAM_SAMPLES), width // 3), BEAM_NOISE, int(FINISH_NODES), BLOCKED_WEIGHT, KING_WEIGHT)
    n = max(1, int(SEARCHERS))
    # the C clock: 0 wall, 1 the process's CPU time, 2 each thread's own
    clock = (2 if n > 1 else 1) if _clock is time.process_time else 0
    group = next(_groups) if n > 1 else -1
    results: list = [None] * n
    errors: list = []

    def search(k: int) -> None:
        try:
            results[k] = _fast.beam_search(*args, clock, seed + k, *rest, group, float(HOLD))
        except BaseException as e:      # handed to the caller: a thread must not swallow it
            errors.append(e)
    helpers = [threading.Thread(target=search, args=(k,), daemon=True) for k in range(1, n)]
    for h in helpers:
        h.start()
    search(0)
    for h in helpers:
        h.join()
    if errors:
        raise errors[0]
    won = [r for r in results if r[0] is not None]
    return won[0] if won else max(results, key=lambda r: r[1])


def _notation(moves) -> list[str]:
    return ["redeal" if c < 0 else f"column{c + 1}>pile{j + 1}" for c, j in moves]


def verify_plan(state: State, plan: list[str]) -> bool:
    """Replay a plan through the rules engine: every move legal and the game won at the end."""
    return replays_to_a_win(GAME_ID, state, plan)


def solve(state: State, time_limit: float = 1.0, node_limit: int = 10 ** 9, seed: int = 0,
          beam_share: float = 0.85) -> Solution:
    """Can the deal still be won from ``state``? See the module notes."""
    t0 = _clock()
    deadline = t0 + time_limit
    try:
        pos = compact(state)
    except StateError as e:
        return Solution("unknown", reason=str(e))
    problem = _incomplete(pos)
    if problem:
        return Solution("unknown", reason=problem)
    if pos.played == NCOL * PILE_LEN:
        return Solution("yes", [], "the game is already won", 0, 0.0, pos.played)
    ex = _Exact(pos, deadline, node_limit)
    best = pos.played
    plan = None
    line: list = []
    verdict = None
    # With many cards left the complete search cannot finish: the beam gets nearly all the time.
    many = NCOL * PILE_LEN - pos.played > EXACT_FEW_CARDS
    if many:
        beam_share = 1.0
    # 1. a short complete search: settles small positions at once
    ex.deadline = min(deadline, t0 + (EXACT_EARLY_SHARE if many else 0.15) * time_limit)
    try:
        verdict = ex.run()
    except _Budget:
        ex.path.clear()
        ex.cols = [bytearray(c) for c in pos.cols]
        ex.prog = list(pos.prog)
        ex.s = pos.session
    if verdict is None and _fast_beam_usable():
        # 2. beam searches, in C: the same search as below, about fifty times the play-outs
        width = int(FAST_BEAM_WIDTH)
        left = t0 + beam_share * time_limit - _clock()
        if left > 0:
            bplan, bbest, bline = _side_by_side_beams(pos, left, seed, width)
            line = bline
            best = max(best, bbest)
            if bplan is not None:
                plan = _notation(bplan)
                verdict = True
    elif verdict is None:
        # 2. beam searches (restarted with fresh play-outs; see BEAM_GROWTH), for a winning line
        rng = random.Random(seed)
        width = int(BEAM_WIDTH0)
        beam_end = t0 + beam_share * time_limit
        while verdict is None and _clock() < beam_end:
            bplan, bbest, bline = _beam(pos, beam_end, rng, width, max(int(BEAM_SAMPLES), width // 3), BEAM_NOISE)
            if bbest > best or not line:
                line = bline
            best = max(best, bbest)
            if bplan is not None:
                plan = _notation(bplan)
                verdict = True
            if pos.session == SESSIONS:
                break                     # in the last session the beam is one complete search: no retry
            width = max(width, int(width * BEAM_GROWTH + 0.5))
    if verdict is None:
        # 3. the complete search again, keeping what it has learned
        ex.deadline = deadline
        try:
            verdict = ex.run()
        except _Budget:
            pass
    best = max(best, ex.best)
    secs = _clock() - t0
    if verdict is True:
        if plan is None:
            plan = _notation(ex.path)
        if not verify_plan(state, plan):      # never claim a win the rules engine does not confirm
            return Solution("unknown", [], "internal error: the plan found did not replay", ex.nodes, secs, best)
        return Solution("yes", plan, f"a winning plan of {len(plan)} moves", ex.nodes, secs, 96)
    if verdict is False:
        return Solution("no", [], "every line of play was examined: none wins", ex.nodes, secs, best)
    return Solution("unknown", [], f"no verdict within {time_limit:g} s "
                    f"(best line found puts {best} of 96 cards on the piles)", ex.nodes, secs, best,
                    _notation(line))


# ------------------------------------------------------------ king foresight

def king_foresight(state: State) -> list[dict]:
    """Where every king still in the columns will lie after each coming redeal, if no further card moves.

    Each entry: ``card`` (label), ``now`` {column, position} (position 1 = furthest from
    the player), ``after`` a list of {session, column, position, beneath, settled} — one per
    coming redeal that moves it — and ``ground``: True when the king ends at the bottom of a
    column that will not be picked up again (harmless), ``locks``: cards it finally lies on.
    """
    g = get_game(GAME_ID)
    s0 = g.session(state)
    cols = [list(col) for col in state.areas["column"]]
    kings = {}
    for c, col in enumerate(cols):
        for i, sl in enumerate(col):
            if sl.card is not None and sl.card.rank == KING:
                kings[id(sl)] = {"card": sl.card.label, "pretty": sl.card.pretty,
                                 "now": {"column": c + 1, "position": i + 1}, "after": []}
    for s in range(s0, SESSIONS):
        picked = cols[s - 1]
        cols[s - 1] = []
        for i, sl in enumerate(picked):
            d = redeal_target(i)
            cols[d].append(sl)
            if id(sl) in kings:
                n = len(cols[d])
                kings[id(sl)]["after"].append({"session": s, "column": d + 1, "position": n, "beneath": n - 1,
                                               "settled": _frozen(d, s + 1)})
    where = {id(sl): (c, i) for c, col in enumerate(cols) for i, sl in enumerate(col)}
    out = []
    for k_id, info in kings.items():
        c, i = where[k_id]
        info["final"] = {"column": c + 1, "position": i + 1}
        info["ground"] = i == 0
        info["locks"] = i
        out.append(info)
    out.sort(key=lambda x: (x["now"]["column"], x["now"]["position"]))
    return out


def main(argv: list[str] | None = None) -> int:
    """python -m advisor.senior_wrangler_solver STATE.json [seconds]"""
    return solver_main(solve, main.__doc__, argv)


if __name__ == "__main__":
    raise SystemExit(main())
