"""Whitmore Jones's one tip for Interregnum, as code.

Source: Mary Whitmore Jones, *New Games of Patience* (1911), Interregnum
Patience: the whole skill of the game is in knowing when to build into the
interregnum and when to hold a card back rather than build the packets too
fast.

Before the next row is dealt, every card left on top of the lowest row gets
covered, so what matters is where the builds before that deal leave the
game: which cards are still in the lowest row, and which rank each packet
wants next. The rule explores every order of the builds available before
the next deal (the cards under the lowest row's top cards were seen when
they were dealt, so they are known) and judges the positions where building
could stop:

* each candidate is played on to the end in sampled futures (``SAMPLES``
  orders of the cards not yet seen, the same ones for every candidate, each
  played by building whatever fits before every deal), and the one that wins
  most often (then builds most) is chosen; the candidates are the
  ``CANDIDATES`` best by a quick measure (most cards built; then the cards
  left in the lowest row nearest to being wanted, and fewest of them lying
  above a card that will be wanted sooner). Stopping with fewer cards built
  than possible is allowed: that is holding back;
* it suggests the first build towards the position chosen,
* flags each build now open that cannot reach a position as good (kind
  ``hold-back``),
* suggests crowning a completed packet at once, and dealing when the
  position chosen is the one already on the table.

Why play-outs rather than the quick measure alone: with the quick measure
choosing, the advice won 162 of 500 deals (seeds 0-499, benchmarks/advice_table.py);
with the play-outs, 296 (59%; an average human is reported to win about 45%).
Following the plan alone (benchmarks/interregnum_plan_bench.py, seeds 100-299)
wins 66 of 200 with the quick measure and 110 with 16 futures. Letting the
quick measure decide whenever the play-outs differed by less than 5 cards
built (or a win) did much worse, so even small differences in the play-outs
are better evidence than the measure (docs/benchmarks.md, session 17).

Scores (only their order matters): 60 crown, 50 the best build, 5 deal.
"""
from __future__ import annotations

import random
from collections import Counter

from ..advice import Context, Danger, Suggestion, TipBook, Winnable
from ..cards import rank_add
from ..engine import Loc, Move
from ..games.interregnum import GAME, PACKET, ROW

BOOK = TipBook("interregnum")
SOURCE = "Whitmore Jones, Interregnum Patience: when to build and when to hold back"
NODE_LIMIT = 6_000
BLOCKING = 3          # weight of a card lying above one that is wanted sooner
SAMPLES = 16          # sampled futures each candidate is played on in
CANDIDATES = 12       # positions judged by play-outs: the best by the quick measure
HOLD_MARGIN = 2       # sampled wins fewer than the plan's before a build is flagged for that alone
RANKS = 13
COPIES = 8            # of each rank in two packs


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

    def explore(self) -> tuple[dict, dict]:
        """Every position reachable by builds before the next deal (up to NODE_LIMIT of them), with one
        build order to each, and each position's builds -> the positions they lead to."""
        root = self.root()
        paths = {root: []}
        children: dict = {}
        stack = [root]
        queued = {root}
        while stack:
            pos = stack.pop()
            kids = []
            for i, j in self.builds(*pos):
                nxt = self._after(*pos, i, j)
                if nxt not in paths:
                    if len(paths) >= NODE_LIMIT:
                        self.cut = True
                        continue
                    paths[nxt] = paths[pos] + [(i, j)]
                kids.append(((i, j), nxt))
            # depth first, the first build first: each position's build order reads left to right
            for _, nxt in reversed(kids):
                if nxt not in queued:
                    queued.add(nxt)
                    stack.append(nxt)
            children[pos] = kids
        return paths, children

    def unseen_ranks(self, state) -> Counter:
        """Ranks of the cards nowhere in view: the stock's, as far as anyone at the table can know."""
        left = Counter({r: COPIES for r in range(1, RANKS + 1)})
        seen = [c.rank for c in self.tops if c is not None]
        seen += [c.rank for p in self.bottom for c in p if c is not None]
        for j, packet in enumerate(state.areas["interregnum"]):
            if len(packet) > PACKET:
                seen += range(1, RANKS + 1)          # a crowned packet holds each rank once
                continue
            for k, slot in enumerate(packet):
                if slot.card is not None:
                    seen.append(slot.card.rank)
                elif self.base[j] is not None:
                    seen.append(rank_add(self.base[j], k))
        left.subtract(seen)
        return +left

    def futures(self, state, n: int, rng: random.Random) -> list[list[int]]:
        """``n`` orders of the stock drawn from the unseen ranks (the next card dealt last); 0 stands
        for a card that fits nowhere, where what is in view does not add up (a card not read)."""
        size = len(state.areas["stock"][0]) if state.areas.get("stock") else 0
        pool = list(self.unseen_ranks(state).elements())
        out = []
        for _ in range(n):
            rng.shuffle(pool)
            stock = pool[:size] + [0] * max(0, size - len(pool))
            out.append(stock)
        return out

    def play_on(self, heights: tuple, lens: tuple, stock: list[int]) -> tuple[bool, int]:
        """Deal and play to the end from a position where building stops: before each deal, build
        whatever fits, a card wanted by two packets going to the one further built. Returns (won,
        cards built). (In a rank-only simulation of the plan, seeds 100-499, that tie rule won 230
        of 400 against 209 for the first packet found and 224 for the one least built.)"""
        piles = [[c.rank if c is not None else 0 for c in p[:h]] for p, h in zip(self.bottom, heights)]
        lens = list(lens)
        stock = list(stock)
        while True:
            if not stock:
                return all(n >= PACKET for n in lens), sum(lens)
            for p in piles:
                if stock:
                    p.append(stock.pop())
            need = self.need(lens)
            built = True
            while built:
                built = False
                for p in piles:
                    if p and p[-1] in need:
                        j = max((j for j in range(ROW) if need[j] == p[-1]), key=lambda j: lens[j])
                        p.pop()
                        lens[j] += 1
                        need[j] = None if lens[j] >= PACKET else rank_add(self.base[j], lens[j])
                        built = True
            if all(n >= PACKET for n in lens):
                return True, sum(lens)

    @staticmethod
    def _after(heights: tuple, lens: tuple, i: int, j: int) -> tuple[tuple, tuple]:
        return heights[:i] + (heights[i] - 1,) + heights[i + 1:], lens[:j] + (lens[j] + 1,) + lens[j + 1:]

    def root(self):
        return tuple(len(p) for p in self.bottom), tuple(self.start)


def plan_builds(state, samples: int = SAMPLES, seed: int = 0, futures: list[list[int]] | None = None) -> dict:
    """Where to stop building before the next deal, the order of builds to get there, and how each
    build open now compares (see the module notes). ``futures`` (orders of the stock's ranks, the
    next card dealt last) replace the sampled ones."""
    p = _Planner(state)
    paths, children = p.explore()
    root = p.root()
    # Candidates are the positions where nothing more can be built: a card left on top when something
    # could take it is covered by the next deal and must later be dug out, while building it only
    # moves its packet on to a rank that packet needs anyway. The choice is where each card goes.
    ends = [pos for pos, kids in children.items() if not kids]
    quick = {pos: (len(paths[pos]), -p.leftover(*pos)) for pos in ends}
    ends.sort(key=lambda pos: quick[pos], reverse=True)
    judged = ends[:CANDIDATES]
    value = {}
    wins = {}
    if futures is not None:
        samples = len(futures)
    if len(judged) > 1 and samples:
        futures = futures if futures is not None else p.futures(state, samples, random.Random(seed))
        for pos in judged:
            results = [p.play_on(*pos, f) for f in futures]
            wins[pos] = sum(won for won, _ in results)
            value[pos] = (wins[pos] + sum(n for _, n in results) / len(results) / 100, quick[pos])
    else:
        value = {pos: (0.0, quick[pos]) for pos in judged}
    chosen = max(judged, key=lambda pos: value[pos])
    # the best judged position each build open now can still reach
    # (and the most cards it can still lead to being built)
    reach: dict = {}

    def best_reach(pos):
        if pos not in reach:
            own, most = value.get(pos), len(paths[pos])
            for _, nxt in children.get(pos, []):       # (no cycles: every build takes a card away)
                r, m = best_reach(nxt)
                if r is not None and (own is None or r > own):
                    own = r
                most = max(most, m)
            reach[pos] = (own, most)
        return reach[pos]
    first = {move: best_reach(nxt) for move, nxt in children.get(root, [])}
    known = (all(c is not None for pile in p.bottom for c in pile)
             and all(b is not None for b, n in zip(p.base, p.start) if n < PACKET))
    most = max(len(paths[pos]) for pos in ends)
    return {"built": len(paths[chosen]), "most": most, "plan": paths[chosen],
            "complete": all(n >= PACKET for n in chosen[1]), "all_known": known,
            "value": value[chosen], "first": first, "exhaustive": not p.cut,
            "samples": samples if len(judged) > 1 else 0, "wins": wins.get(chosen), "judged": len(judged),
            "wins_most_built": max((w for pos, w in wins.items() if len(paths[pos]) == most), default=None)}


def _move(i: int, j: int) -> Move:
    return Move.cards(Loc("bottom", i), Loc("interregnum", j))


@BOOK.rule("crown", SOURCE, "A packet holding its twelve cards is crowned by the card above it and turned down: do it at once.")
def crown(ctx: Context):
    for m in GAME.legal_moves(ctx.state):
        if m.action == "move" and m.src.area == "top":
            yield Suggestion(str(m), GAME.describe(ctx.state, m),
                             "the packet is complete; crowning it changes nothing else, so it can be done at once", 60)


def _winnable(state, r: dict):
    """The "still winnable?" figure: exact once the stock is out and every card in view is known (the
    builds were all explored); otherwise how often the plan's position was won in the sampled futures."""
    if not (state.areas.get("stock") and state.areas["stock"][0]) and r["exhaustive"] and r["all_known"]:
        if r["complete"]:
            crowns = [str(Move.cards(Loc("top", j), Loc("interregnum", j))) for j in range(ROW) if state.areas["top"][j]]
            yield Winnable("yes", True, 1.0, None, [str(_move(i, j)) for i, j in r["plan"]] + crowns,
                           "the stock is out and every card left is in view: these builds complete every packet")
        else:
            yield Winnable("no", True, 0.0, None, [],
                           "the stock is out and every order of the builds left was tried: no order completes "
                           "every packet")
        return
    if r["samples"]:
        w, k = r["wins"], r["samples"]
        p = w / k
        yield Winnable("likely" if p >= 0.5 else ("possible" if p > 0 else "unknown"), False, round(p, 3), k, [],
                       f"estimated, not proved: after the builds suggested, {w} of {k} sampled orders of the cards "
                       f"still to come were won by building whatever fits before each deal. A player who plans "
                       f"each deal does better: read it as a floor"
                       + (", and 0 wins does not mean the deal is lost" if w == 0 else ""))


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


@BOOK.rule("build-or-hold-back", SOURCE,
           "Before the next deal, stop building where the game goes best: every card left on top of the lowest row is "
           "covered by the next row, but a packet built too far may want a rank that will not come. Each way to stop "
           "is played on in sampled orders of the unseen cards; follow the one that wins most, and hold back any build "
           "that cannot lead there.")
def build_or_hold_back(ctx: Context):
    state = ctx.state
    legal = GAME.legal_moves(state)
    r = plan_builds(state)
    plan = r["plan"]
    yield ("interregnum-plan", {"builds_before_deal": r["built"], "most_builds": r["most"],
                                "plan": [str(_move(i, j)) for i, j in plan], "exhaustive": r["exhaustive"],
                                "sampled_futures": r["samples"], "wins_in_sampled_futures": r["wins"]})
    k = r["samples"]
    yield from _winnable(state, r)
    if k:
        judged = (f"of {r['judged']} ways to end the builds before the next deal, played on in {k} sampled orders "
                  f"of the cards still to come, this one won most ({r['wins']} of {k})")
        if r["built"] < r["most"]:
            judged += (f"; building all {r['most']} cards that could go won at best {r['wins_most_built']}: "
                       f"hold the rest back")
    else:
        judged = "it is the only way the builds before the next deal can end"
    if plan:
        i, j = plan[0]
        m = _move(i, j)
        rest = len(plan) - 1
        reason = (f"build {_cards(r['built'])} before the next deal"
                  + (f" ({rest} more after this one)" if rest else "") + f": {judged}")
        yield Suggestion(str(m), GAME.describe(state, m), reason, 50)
        for (bi, bj), (value, most) in sorted(r["first"].items()):
            if (bi, bj) == (i, j):
                continue
            if most < r["built"]:
                why = f"allows only {_cards(most)} to be built before the next deal, against {r['built']}"
            elif value is None:
                why = "leads to none of the positions judged best"
            elif k and int(value[0]) <= r["wins"] - HOLD_MARGIN:
                why = f"leads at best to a position that won {int(value[0])} of the {k} sampled futures, against {r['wins']}"
            else:
                continue
            card = state.areas["bottom"][bi][-1].card
            above = state.areas["top"][bj][0].card if state.areas["top"][bj] else None
            yield Danger(str(Loc("bottom", bi)), len(state.areas["bottom"][bi]) - 1, card.label, "hold-back",
                         f"building the {card.pretty} under the {above.pretty if above else 'packet'} now {why}: hold it back")
        if Move.act("deal") in legal:
            yield (f"do not deal yet: {_cards(r['built'])} should still be built from the lowest row first, "
                   f"and a fresh row would cover them")
    elif Move.act("deal") in legal:
        yield Suggestion("deal", GAME.describe(state, Move.act("deal")),
                         "nothing more can be built from the lowest row, so deal the next row", 5)
