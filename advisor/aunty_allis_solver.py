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
from .games.aunty_allis import (BUILT, DISCARD, JUNK, LEVEL, PILE, ROW_OF_RANK, ROWS, RUBBISH, START, STOCK,
                                pile_suit, place_status)

GID = "aunty-allis"
ROW_INDEX = {r: k for k, r in enumerate(ROWS)}
START_RANK = tuple(START[r] for r in ROWS)


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

    def _normalise(self, lens, steps):
        """Throw out every ace on top of the rubbish row (never a wrong move)."""
        lens = list(lens)
        for i in range(len(lens)):
            while lens[i] and self.rub[i][lens[i] - 1][0] == 1:
                lens[i] -= 1
                steps.append(("ace", i))
        return tuple(lens)

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
        lens = self._normalise(lens, steps)
        plan.extend(steps)
        if not any(lens) and not junk:
            return True
        key = (lens, piles, junk)
        if key in self.lost:
            del plan[len(plan) - len(steps):]
            return False
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 255 == 0 and time.perf_counter() > self.deadline):
            self.out = True
            return False
        for l2, p2, j2, st in self._moves(lens, piles, junk):
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
