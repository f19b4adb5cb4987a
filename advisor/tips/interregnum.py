"""Whitmore Jones's one tip for Interregnum, as code.

Source: Mary Whitmore Jones, *New Games of Patience* (1911), Interregnum
Patience: the whole skill of the game is in knowing when to build into the
interregnum and when to hold a card back rather than build the packets too
fast.

Before the next row is dealt, every card left on top of the lowest row gets
covered, so what matters is which builds are made before that deal, and in
which order: a card built now changes the rank its packet wants next, and
of two cards that could go on one packet only one will, the other possibly
staying stuck. The rule searches every order of the builds available before
the next deal (the cards under the lowest row's top cards were seen when
they were dealt, so they are known) and:

* suggests the first build of the best order (most cards built; then the
  cards left in the lowest row nearest to being wanted, and fewest of them
  lying above a card that will be wanted sooner),
* flags each build that is worse than holding back (kind ``hold-back``),
* suggests crowning a completed packet at once, and dealing only when
  nothing is left to build.

Scores (only their order matters): 60 crown, 50 the best build, 5 deal.
"""
from __future__ import annotations

from ..advice import Context, Danger, Suggestion, TipBook
from ..cards import rank_add
from ..engine import Loc, Move
from ..games.interregnum import GAME, PACKET, ROW

BOOK = TipBook("interregnum")
SOURCE = "Whitmore Jones, Interregnum Patience: when to build and when to hold back"
NODE_LIMIT = 6_000
BLOCKING = 3          # weight of a card lying above one that is wanted sooner


class _Planner:
    """Exhaustive search over build orders before the next deal."""

    def __init__(self, state):
        self.bottom = [[s.card for s in p] for p in state.areas["bottom"]]
        self.tops = [p[0].card if p else None for p in state.areas["top"]]
        self.start = [len(p) for p in state.areas["interregnum"]]
        self.base = []           # rank wanted by an empty packet j: top + 1 (None if unknown)
        for j in range(ROW):
            t = self.tops[j]
            if t is not None:
                self.base.append(rank_add(t.rank, 1))
            else:
                self.base.append(GAME.needed_rank(state, j) if self.start[j] < PACKET else None)
                if self.base[-1] is not None:
                    self.base[-1] = rank_add(self.base[-1], -self.start[j])
        self.memo: dict = {}
        self.nodes = 0
        self.cut = False

    def need(self, lens) -> list[int | None]:
        return [None if (self.base[j] is None or lens[j] >= PACKET) else rank_add(self.base[j], lens[j])
                for j in range(ROW)]

    def builds(self, heights, lens) -> list[tuple[int, int]]:
        need = self.need(lens)
        out = []
        for i in range(ROW):
            h = heights[i]
            if not h:
                continue
            card = self.bottom[i][h - 1]
            if card is None:
                continue
            for j in range(ROW):
                if need[j] == card.rank:
                    out.append((i, j))
        return out

    def leftover(self, heights, lens) -> int:
        """How badly the cards left in the lowest row lie (smaller is better): for each card, how many ranks
        its nearest packet must still climb before wanting it (double for the exposed card), plus a penalty
        for each card lying above one that will be wanted sooner (it blocks it)."""
        need = [n for n in self.need(lens) if n is not None]
        if not need:
            return 0
        total = 0
        for i in range(ROW):
            ds = []
            for k in range(heights[i]):
                card = self.bottom[i][k]
                ds.append(13 if card is None else min((card.rank - n) % 13 for n in need))
            if not ds:
                continue
            total += ds[-1] + sum(ds)
            for k in range(len(ds)):
                total += BLOCKING * sum(1 for m in range(k + 1, len(ds)) if ds[m] > ds[k])
        return total

    def best(self, heights: tuple, lens: tuple) -> tuple[tuple, list]:
        """((cards built, -leftover), plan) from this position: exhaustive within NODE_LIMIT positions,
        then the greedy order (first build found) from wherever the limit was reached."""
        key = (heights, lens)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        moves = self.builds(heights, lens)
        if not moves:
            result = ((0, -self.leftover(heights, lens)), [])
        elif self.nodes >= NODE_LIMIT:
            self.cut = True
            i, j = moves[0]
            (n, lo), plan = self.best(*self._after(heights, lens, i, j))
            result = ((n + 1, lo), [(i, j)] + plan)
        else:
            result = None
            for i, j in moves:
                (n, lo), plan = self.best(*self._after(heights, lens, i, j))
                cand = ((n + 1, lo), [(i, j)] + plan)
                if result is None or cand[0] > result[0]:
                    result = cand
        self.memo[key] = result
        return result

    @staticmethod
    def _after(heights: tuple, lens: tuple, i: int, j: int) -> tuple[tuple, tuple]:
        return heights[:i] + (heights[i] - 1,) + heights[i + 1:], lens[:j] + (lens[j] + 1,) + lens[j + 1:]

    def root(self):
        return tuple(len(p) for p in self.bottom), tuple(self.start)


def plan_builds(state) -> dict:
    """The best order of builds before the next deal, and the value of each build available now."""
    p = _Planner(state)
    heights, lens = p.root()
    (n, lo), plan = p.best(heights, lens)
    first = {}
    for i, j in p.builds(heights, lens):
        (m, lo2), _ = p.best(*p._after(heights, lens, i, j))
        first[(i, j)] = (m + 1, lo2)
    return {"built": n, "leftover": -lo, "plan": plan, "first": first, "exhaustive": not p.cut}


def _move(i: int, j: int) -> Move:
    return Move.cards(Loc("bottom", i), Loc("interregnum", j))


@BOOK.rule("crown", SOURCE, "A packet holding its twelve cards is crowned by the card above it and turned down: do it at once.")
def crown(ctx: Context):
    for m in GAME.legal_moves(ctx.state):
        if m.action == "move" and m.src.area == "top":
            yield Suggestion(str(m), GAME.describe(ctx.state, m),
                             "the packet is complete; crowning it changes nothing else, so it can be done at once", 60)


@BOOK.rule("build-or-hold-back", SOURCE,
           "Of the builds open before the next deal, play them in the order that gets the most cards off the lowest "
           "row; hold back any build that would spoil that, since every card left on top of the lowest row is "
           "covered by the next deal.")
def build_or_hold_back(ctx: Context):
    state = ctx.state
    legal = GAME.legal_moves(state)
    result = plan_builds(state)
    plan = result["plan"]
    yield ("interregnum-plan", {"builds_before_deal": result["built"],
                                "plan": [str(_move(i, j)) for i, j in plan],
                                "exhaustive": result["exhaustive"]})
    if plan:
        i, j = plan[0]
        m = _move(i, j)
        rest = len(plan) - 1
        reason = (f"the best order builds {result['built']} card{'s' if result['built'] != 1 else ''} before the next deal"
                  + (f" ({rest} more after this one)" if rest else "")
                  + "; cards still on top of the lowest row when the next row comes are covered")
        yield Suggestion(str(m), GAME.describe(state, m), reason, 50)
        best = (result["built"], -result["leftover"])
        for (bi, bj), value in sorted(result["first"].items()):
            if value[0] < best[0]:
                card = state.areas["bottom"][bi][-1].card
                above = state.areas["top"][bj][0].card if state.areas["top"][bj] else None
                yield Danger(str(Loc("bottom", bi)), len(state.areas["bottom"][bi]) - 1, card.label, "hold-back",
                             f"building the {card.pretty} under the {above.pretty if above else 'packet'} now allows only "
                             f"{value[0]} build{'s' if value[0] != 1 else ''} before the next deal, against "
                             f"{result['built']} in the best order: hold it back")
        if Move.act("deal") in legal:
            yield (f"do not deal yet: {result['built']} card{'s' if result['built'] != 1 else ''} can still be built "
                   f"from the lowest row, and a fresh row would cover them")
    elif Move.act("deal") in legal:
        yield Suggestion("deal", GAME.describe(state, Move.act("deal")),
                         "nothing more can be built from the lowest row, so deal the next row", 5)
