"""Exact end-game solver for Aunty Allis.

Once the stock is used up and every card on the table can be read, nothing
is hidden and no chance is left: the game is a puzzle of order. Keeling's
tip 6 (a game won with thirty or more dead cards in the rubbish row, played
in the right order) is exactly this puzzle.

The search works on a compact abstraction of the position and on *macro*
moves: an ace thrown out of the rubbish row (always safe, so taken without
branching), a rubbish card built on its pile, or a whole golden-rule chain
(a card leaving an operational place, then the fills down to the starter
taken from the rubbish row). Places of one row are interchangeable and the
two packs' copies of a card are alike, so positions differing only in that
are one. Positions proved lost are remembered. The plan found is replayed on
the real state to give ordinary moves.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .cards import Card
from .engine import Loc, Move, State, get_game
from .games.aunty_allis import (BUILT, DISCARD, JUNK, LEVEL, ROW_OF_RANK, ROWS, RUBBISH, SEQ, START, STOCK,
                                pile_suit, place_status)

GID = "aunty-allis"
ROW_INDEX = {r: k for k, r in enumerate(ROWS)}
START_RANK = tuple(START[r] for r in ROWS)
SEQ_BY_INDEX = tuple(SEQ[r] for r in ROWS)


@dataclass
class Solution:
    verdict: str                 # "yes", "no" or "unknown" (budget spent, or cards not known)
    plan: list[Move] = field(default_factory=list)
    nodes: int = 0
    reason: str = ""


def solvable_now(state: State) -> str | None:
    """None when the solver applies, else why not."""
    if state.game != GID:
        return "not an Aunty Allis state"
    if state.areas[STOCK][0]:
        return "cards remain in the stock, so what comes next is not known"
    for r in (*ROWS, RUBBISH):
        for p in state.areas[r]:
            if any(s.card is None for s in p):
                return "some cards on the table cannot be read"
    for r in ROWS:
        for p in state.areas[r]:
            if not p:
                return "a place is empty in the middle of a golden-rule chain: finish the chain first"
    return None


# An abstract position: (lens, piles, junk)
#   lens  : tuple of rubbish pile lengths (the piles' contents never change, only shrink)
#   piles : sorted tuple of (row index, suit, height) for every built pile
#   junk  : sorted tuple of (row index, rank, suit) for every junk card
# Steps of a plan (replayed on the real state):
#   ("ace", i)                     rubbish i top thrown out
#   ("build", i)                   rubbish i top built on its pile
#   ("vacate", row, rank, suit)    a junk card leaves its place (thrown out or built)
#   ("fill-r", i)                  the open place filled from rubbish i
#   ("fill-j", row, rank, suit)    the open place filled by junk from another row


def deadlocked(rub, lens, piles, junk) -> bool:
    """A sound test that the position can no longer be won (never says so wrongly).

    Every card left must still be played. Some orders are forced: a rubbish card
    goes before the card it covers, and a card goes after the one remaining copy of
    a card its pile still needs. When one of two copies is needed and one copy is
    forced to come after, the other is forced before. A cycle in these forced
    orders (Keeling's twin king on the seven is the shortest) means defeat.
    """
    nodes: list[tuple[int, str]] = []
    where: dict[tuple[int, str], list[int]] = {}
    covers: list[int] = []          # index of the card directly beneath, or -1
    for i, n in enumerate(lens):
        below = -1
        for j in range(n):
            face = rub[i][j]
            k = len(nodes)
            nodes.append(face)
            covers.append(below)
            where.setdefault(face, []).append(k)
            below = k
    for _, rank, suit in junk:
        k = len(nodes)
        nodes.append((rank, suit))
        covers.append(-1)
        where.setdefault((rank, suit), []).append(k)
    n = len(nodes)
    heights: dict[tuple[int, str], list[int]] = {}
    for row, suit, h in piles:
        heights.setdefault((row, suit), []).append(h)
    after: list[set[int]] = [set() for _ in range(n)]   # after[a]: cards that must come after a
    for k in range(n):
        if covers[k] >= 0:
            after[k].add(covers[k])
    pairs = []
    for y, (rank, suit) in enumerate(nodes):
        if rank == 1:
            continue
        level = LEVEL[rank]
        if level == 0:
            continue
        row = ROW_INDEX[ROW_OF_RANK[rank]]
        hs = heights.get((row, suit), [])
        cands = [h for h in hs if h <= level] + [0] * max(0, 2 - len(hs))
        if not cands:
            return True
        top = max(cands)
        seq = SEQ_BY_INDEX[row]
        for lv in range(top, level):
            face = (seq[lv], suit)
            copies = where.get(face, [])
            left = 2 - sum(1 for h in hs if h > lv)
            if left <= 0 or not copies:
                return True
            if len(copies) == 1:
                after[copies[0]].add(y)
            else:
                pairs.append((y, copies[0], copies[1]))
    while True:
        # topological order (Kahn); a cycle means deadlock
        indeg = [0] * n
        for a in range(n):
            for b in after[a]:
                indeg[b] += 1
        order = [a for a in range(n) if not indeg[a]]
        for a in order:
            for b in after[a]:
                indeg[b] -= 1
                if not indeg[b]:
                    order.append(b)
        if len(order) < n:
            return True
        if not pairs:
            return False
        reach = [0] * n
        for a in reversed(order):
            r = 0
            for b in after[a]:
                r |= reach[b] | (1 << b)
            reach[a] = r
        added = False
        rest = []
        for y, c1, c2 in pairs:
            f1, f2 = reach[y] >> c1 & 1, reach[y] >> c2 & 1
            if f1 and f2:
                return True
            if f1 and y not in after[c2]:
                after[c2].add(y)
                added = True
            elif f2 and y not in after[c1]:
                after[c1].add(y)
                added = True
            elif not f1 and not f2:
                rest.append((y, c1, c2))
        pairs = rest
        if not added:
            return False


class _Solver:
    def __init__(self, rub: list[list[tuple[int, str]]], max_nodes: int, deadline: float, within: bool = True):
        self.rub = rub
        self.within = within
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.lost: set = set()
        self.out = False

    # -- helpers on abstract positions
    def _top(self, lens, i):
        n = lens[i]
        return self.rub[i][n - 1] if n else None

    def _normalise(self, lens, piles, steps):
        """Make the moves that can never be wrong, without branching.

        An ace on top of the rubbish row is thrown out. A rubbish card goes on its pile
        when there are as many ready piles for its face as copies of it still to build
        (its twin already built, or both piles ready): only those piles can take it,
        nothing else can go on them meanwhile, and uncovering the card beneath only adds
        choices, so some winning order (if any) starts this way.
        """
        lens = list(lens)
        pile_set = set(piles)
        changed = True
        while changed:
            changed = False
            for i in range(len(lens)):
                while lens[i]:
                    rank, suit = self.rub[i][lens[i] - 1]
                    if rank == 1:
                        lens[i] -= 1
                        steps.append(("ace", i))
                        changed = True
                        continue
                    level = LEVEL[rank]
                    if level == 0:
                        break
                    row = ROW_INDEX[ROW_OF_RANK[rank]]
                    if (row, suit, level) in pile_set:
                        hs = [h for r, su, h in piles if r == row and su == suit]
                        unbuilt = 2 - sum(1 for h in hs if h > level)
                        if hs.count(level) < unbuilt:
                            break
                        piles = self._raise(piles, row, suit, level)
                        pile_set = set(piles)
                        lens[i] -= 1
                        steps.append(("build", i))
                        changed = True
                        continue
                    break
        return tuple(lens), piles

    @staticmethod
    def _raise(piles, row, suit, height):
        """Piles with one pile (row, suit, height) raised by one; None if there is none."""
        key = (row, suit, height)
        if key not in piles:
            return None
        lst = list(piles)
        lst.remove(key)
        lst.append((row, suit, height + 1))
        return tuple(sorted(lst))

    def _chains(self, lens, piles, junk, row):
        """Every way to fill an open place of ``row``: (lens, piles, junk, steps)."""
        need = START_RANK[row]
        for i, n in enumerate(lens):
            if n and self.rub[i][n - 1][0] == need:
                card = self.rub[i][n - 1]
                nl = list(lens)
                nl[i] -= 1
                yield tuple(nl), tuple(sorted(piles + ((row, card[1], 1),))), junk, [("fill-r", i)]
        seen_j = set()
        for k, item in enumerate(junk):
            holder, rank, suit = item
            if holder == row or rank != need or item in seen_j:
                continue
            seen_j.add(item)
            nj = junk[:k] + junk[k + 1:]
            np = tuple(sorted(piles + ((row, suit, 1),)))
            for l2, p2, j2, st in self._chains(lens, np, nj, holder):
                yield l2, p2, j2, [("fill-j", holder, rank, suit)] + st

    def _moves(self, lens, piles, junk):
        pile_set = set(piles)
        # builds from the rubbish row
        for i, n in enumerate(lens):
            if not n:
                continue
            rank, suit = self.rub[i][n - 1]
            if rank == 1 or LEVEL[rank] == 0:
                continue
            row = ROW_INDEX[ROW_OF_RANK[rank]]
            if (row, suit, LEVEL[rank]) in pile_set:
                nl = list(lens)
                nl[i] -= 1
                yield tuple(nl), self._raise(piles, row, suit, LEVEL[rank]), junk, [("build", i)]
        # golden-rule chains, each started by a junk card leaving its place
        seen_j = set()
        for k, item in enumerate(junk):
            holder, rank, suit = item
            if item in seen_j:
                continue
            seen_j.add(item)
            if rank == 1:
                np = piles
            else:
                if LEVEL[rank] == 0:
                    continue
                row = ROW_INDEX[ROW_OF_RANK[rank]]
                if row == holder and not self.within:
                    continue
                np = self._raise(piles, row, suit, LEVEL[rank])
                if np is None:
                    continue
            nj = junk[:k] + junk[k + 1:]
            for l2, p2, j2, st in self._chains(lens, np, nj, holder):
                yield l2, p2, j2, [("vacate", holder, rank, suit)] + st

    def dfs(self, lens, piles, junk, plan) -> bool:
        steps: list = []
        lens, piles = self._normalise(lens, piles, steps)
        plan.extend(steps)
        if not any(lens) and not junk:
            return True
        key = (lens, piles, junk)
        if key in self.lost:
            del plan[len(plan) - len(steps):]
            return False
        self.nodes += 1
        if deadlocked(self.rub, lens, piles, junk):
            self.lost.add(key)
            del plan[len(plan) - len(steps):]
            return False
        if self.nodes > self.max_nodes or (self.nodes & 255 == 0 and time.perf_counter() > self.deadline):
            self.out = True
            return False
        moves = list(self._moves(lens, piles, junk))
        # Golden-rule chains first: opening the rows is what most positions are short of.
        moves.sort(key=lambda t: t[3][0][0] != "vacate")
        for l2, p2, j2, st in moves:
            plan.extend(st)
            if self.dfs(l2, p2, j2, plan):
                return True
            del plan[len(plan) - len(st):]
            if self.out:
                return False
        self.lost.add(key)
        del plan[len(plan) - len(steps):]
        return False


def _abstract(state: State):
    rub = [[s.card.face for s in p] for p in state.areas[RUBBISH]]
    piles, junk = [], []
    for r in ROWS:
        for p in state.areas[r]:
            if place_status(p, r) == BUILT:
                piles.append((ROW_INDEX[r], pile_suit(p), len(p)))
            else:
                c = p[0].card
                junk.append((ROW_INDEX[r], c.rank, c.suit))
    return rub, tuple(len(p) for p in rub), tuple(sorted(piles)), tuple(sorted(junk))


def _replay(state: State, steps: list) -> list[Move]:
    """Turn abstract steps into the ordinary moves of the real state."""
    game = get_game(GID)
    s = state.copy()
    moves: list[Move] = []

    def junk_place(row: str, rank: int, suit: str) -> Loc:
        for i, p in enumerate(s.areas[row]):
            if len(p) == 1 and p[0].card.face == (rank, suit) and place_status(p, row) == JUNK:
                return Loc(row, i)
        raise AssertionError("junk card not found")

    def pile_for(card: Card) -> Loc:
        row = ROW_OF_RANK[card.rank]
        for i, p in enumerate(s.areas[row]):
            if place_status(p, row) == BUILT and pile_suit(p) == card.suit and len(p) == LEVEL[card.rank]:
                return Loc(row, i)
        raise AssertionError("pile not found")

    def hole() -> Loc:
        for r in ROWS:
            for i, p in enumerate(s.areas[r]):
                if not p:
                    return Loc(r, i)
        raise AssertionError("no open place")

    for step in steps:
        kind = step[0]
        if kind == "ace":
            m = Move.cards(Loc(RUBBISH, step[1]), Loc(DISCARD, 0))
        elif kind == "build":
            m = Move.cards(Loc(RUBBISH, step[1]), pile_for(s.areas[RUBBISH][step[1]][-1].card))
        elif kind == "vacate":
            _, ri, rank, suit = step
            src = junk_place(ROWS[ri], rank, suit)
            dst = Loc(DISCARD, 0) if rank == 1 else pile_for(Card(rank, suit))
            m = Move.cards(src, dst)
        elif kind == "fill-r":
            m = Move.cards(Loc(RUBBISH, step[1]), hole())
        else:
            _, ri, rank, suit = step
            m = Move.cards(junk_place(ROWS[ri], rank, suit), hole())
        reason = game.why_illegal(s, m)
        if reason is not None:          # a bug in the abstraction, never expected
            raise AssertionError(f"solver plan step {m} is illegal: {reason}")
        game.apply(s, m)
        moves.append(m)
    return moves


def solve(state: State, max_nodes: int = 200_000, seconds: float = 2.0) -> Solution:
    why_not = solvable_now(state)
    if why_not:
        return Solution("unknown", reason=why_not)
    rub, lens, piles, junk = _abstract(state)
    sv = _Solver(rub, max_nodes, time.perf_counter() + seconds, state.options.get("moves_within_row", True))
    plan: list = []
    won = sv.dfs(lens, piles, junk, plan)
    if won:
        return Solution("yes", _replay(state, plan), sv.nodes, "every card is known and this order of play wins")
    if sv.out:
        return Solution("unknown", [], sv.nodes, f"no answer within the search budget ({sv.nodes} positions)")
    return Solution("no", [], sv.nodes, "every order of play has been tried: none clears the rubbish row")
