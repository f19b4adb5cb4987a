"""Expected-score placement for Poker Patience (and its Advanced and Serpent forms).

The advisor may not peek at the pack, so it works from the player's
observation: the unseen cards are the 52 minus every card in view (and the
joker, when it is still in the pack, lies at a random depth). For each
candidate move it plays the square out many times against the *same* sampled
orders of the unseen cards (common random numbers, so the comparison between
moves is much sharper than the spread of the scores) with a fast greedy
policy, and averages the final scores. When the move leaves just one card to
come, every possible last card is tried instead: the expectation is exact.

The greedy policy lays each card where it most raises a simple estimate of
what its row and column will finally score (:func:`line_value`); in Advanced
Poker it discards a card that would spoil every line it could go in, and a
joker held in hand is kept for the last place, where it makes the best of
both lines with everything else known.
"""
from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from functools import lru_cache

from .cards import Card, SUITS
from .engine import Loc, Move, State
from .games.poker_patience import (_NEIGH4, _NEIGH8, _ROYAL, CELLS, CENTRE, COLS, GAME, JOKER, MAX_DISCARDS,
                                   SIDE, cell_name, is_sequence, line_hand, parse_cell, table_for)

JK = 52                      # the joker's code; a real card is suit * 13 + rank - 1


def code(card: Card) -> int:
    return SUITS.index(card.suit) * 13 + card.rank - 1


def decode(c: int):
    return JOKER if c == JK else Card(c % 13 + 1, SUITS[c // 13])


# ------------------------------------------------------------- line values

_CACHE = 200_000


@lru_cache(maxsize=_CACHE)
def exact_line(key: tuple[int, ...], variant: str, ace_middle: bool) -> int:
    """Points of a line of card codes (sorted), by the variant's table."""
    if JK in key:
        return line_hand([decode(c) for c in key], variant, ace_middle)[1]
    table = table_for(variant)
    made = _sets(key)
    best = table.get(made, 0)
    if len(key) == SIDE:
        ranks = {c % 13 + 1 for c in key}
        flush = key[0] // 13 == key[-1] // 13
        straight = len(ranks) == SIDE and is_sequence(ranks, ace_middle)
        if flush and straight:
            best = max(best, table.get("royal-flush" if ranks == _ROYAL else "straight-flush", 0),
                       table["straight-flush"])
        elif flush:
            best = max(best, table["flush"])
        elif straight:
            best = max(best, table["straight"])
    return best


def _sets(key: tuple[int, ...], jokers: int = 0) -> str:
    """The best set (pair ... fours) among these card codes, a joker joining the largest group."""
    counts: dict[int, int] = {}
    for c in key:
        if c != JK:
            r = c % 13
            counts[r] = counts.get(r, 0) + 1
    vals = sorted(counts.values(), reverse=True) + [0, 0]
    c0, c1 = vals[0] + jokers, vals[1]
    if c0 >= 4:
        return "fours"
    if c0 >= 3:
        return "full-house" if c1 >= 2 else "threes"
    if c0 >= 2:
        return "two-pairs" if c1 >= 2 else "pair"
    return "nothing"


_NEXT_SET = {"nothing": "pair", "pair": "threes", "two-pairs": "full-house", "threes": "full-house"}
_FLUSH_CHANCE = {1: 0.55, 2: 0.32, 3: 0.18, 4: 0.1}
_STRAIGHT_CHANCE = {1: 0.4, 2: 0.22, 3: 0.12, 4: 0.07}
_UPGRADE = 0.22


@lru_cache(maxsize=_CACHE)
def line_value(key: tuple[int, ...], variant: str, ace_middle: bool) -> float:
    """A rough expectation of what a line holding these cards will finally score.

    Exact for five cards. For fewer, the best of: the set it has made plus a
    share of the next set up, per open place; a flush still possible (all one
    suit) or a sequence still possible (different ranks within one run of
    five), weighted by how many places remain open.
    """
    n = len(key)
    if n >= SIDE:
        return float(exact_line(key, variant, ace_middle))
    table = table_for(variant)
    open_ = SIDE - n
    jokers = key.count(JK)
    real = [c for c in key if c != JK]
    made = _sets(key, jokers)
    have = table.get(made, 0)
    nxt = _NEXT_SET.get(made)
    best = have + (_UPGRADE * open_ * (table.get(nxt, 0) - have) if nxt else 0.0)
    if not real:
        return best
    one_suit = real[0] // 13 == real[-1] // 13
    if one_suit:
        best = max(best, table["flush"] * _FLUSH_CHANCE[open_])
    ranks = frozenset(c % 13 + 1 for c in real)
    if len(ranks) == len(real):
        runs = _runs(ranks, ace_middle)
        if runs:
            chance = _STRAIGHT_CHANCE[open_] * min(1.0, 0.5 + 0.25 * runs)
            best = max(best, table["straight"] * chance)
            if one_suit:
                best = max(best, table["straight-flush"] * chance * _FLUSH_CHANCE[open_])
    return best


@lru_cache(maxsize=_CACHE)
def line_gain(key: tuple[int, ...], card: int, variant: str, ace_middle: bool) -> float:
    """How much adding ``card`` raises :func:`line_value` of the line ``key``."""
    return (line_value(tuple(sorted(key + (card,))), variant, ace_middle)
            - line_value(key, variant, ace_middle))


@lru_cache(maxsize=4096)
def _runs(ranks: frozenset, ace_middle: bool) -> int:
    """How many five-rank runs contain all these ranks."""
    windows = [set(range(lo, lo + 5)) for lo in range(1, 10)] + [{10, 11, 12, 13, 1}]
    if ace_middle:
        windows += [{(lo - 1 + k) % 13 + 1 for k in range(5)} for lo in (11, 12, 13)]
    return sum(1 for w in windows if ranks <= w)


# ----------------------------------------------------------------- the sim

class Sim:
    """A square being laid, kept for speed: rows and columns as sorted tuples of card codes."""

    __slots__ = ("cells", "rows", "cols", "frontier", "box", "last", "discards_left", "joker", "variant", "ace_middle")

    def __init__(self, cells: dict, last, discards_left: int, joker, variant: str, ace_middle: bool):
        self.cells = {}
        self.rows: dict[int, tuple] = {}
        self.cols: dict[int, tuple] = {}
        self.frontier: set = set()
        self.box = None
        self.discards_left, self.joker, self.variant, self.ace_middle = discards_left, joker, variant, ace_middle
        for cell, v in cells.items():
            self._put(cell, v)
        self.last = last

    def copy(self) -> "Sim":
        s = Sim.__new__(Sim)
        s.cells, s.rows, s.cols, s.frontier = dict(self.cells), dict(self.rows), dict(self.cols), set(self.frontier)
        s.box, s.last, s.discards_left, s.joker = self.box, self.last, self.discards_left, self.joker
        s.variant, s.ace_middle = self.variant, self.ace_middle
        return s

    def _put(self, cell: tuple, v) -> None:
        self.cells[cell] = v
        c, r = cell
        if v is not None:
            self.rows[r] = tuple(sorted(self.rows.get(r, ()) + (v,)))
            self.cols[c] = tuple(sorted(self.cols.get(c, ()) + (v,)))
        self.frontier.discard(cell)
        self.frontier.update(n for n in _NEIGH8[cell] if n not in self.cells)
        b = self.box
        self.box = (c, c, r, r) if b is None else (min(b[0], c), max(b[1], c), min(b[2], r), max(b[3], r))

    def fill_unknown(self, cell: tuple, v: int) -> None:
        """Give an unreadable placed card a value (from a sample)."""
        c, r = cell
        self.cells[cell] = v
        self.rows[r] = tuple(sorted(self.rows.get(r, ()) + (v,)))
        self.cols[c] = tuple(sorted(self.cols.get(c, ()) + (v,)))

    def line(self, cell: tuple, axis: int) -> tuple[int, ...]:
        return self.rows.get(cell[1], ()) if axis == 0 else self.cols.get(cell[0], ())

    def targets(self) -> list[tuple[int, int]]:
        if len(self.cells) >= CELLS:
            return []
        if not self.cells:
            return [CENTRE]
        c0, c1, r0, r1 = self.box
        lo_c, hi_c, lo_r, hi_r = c1 - SIDE + 1, c0 + SIDE - 1, r1 - SIDE + 1, r0 + SIDE - 1
        if self.variant == "serpent" and self.last in self.cells:
            near = [n for n in _NEIGH4[self.last] if n not in self.cells
                    and lo_c <= n[0] <= hi_c and lo_r <= n[1] <= hi_r]
            if near:
                return sorted(near)
        return sorted(n for n in self.frontier if lo_c <= n[0] <= hi_c and lo_r <= n[1] <= hi_r)

    def gain(self, cell: tuple, card: int) -> float:
        va, am = self.variant, self.ace_middle
        return (line_gain(self.rows.get(cell[1], ()), card, va, am)
                + line_gain(self.cols.get(cell[0], ()), card, va, am))

    def best_cell(self, card: int) -> tuple[tuple[int, int] | None, float]:
        va, am = self.variant, self.ace_middle
        rows, cols = self.rows, self.cols
        row_gain: dict[int, float] = {}
        col_gain: dict[int, float] = {}
        best, best_gain = None, -1e9
        for t in self.targets():
            c, r = t
            g_r = row_gain.get(r)
            if g_r is None:
                g_r = row_gain[r] = line_gain(rows.get(r, ()), card, va, am)
            g_c = col_gain.get(c)
            if g_c is None:
                g_c = col_gain[c] = line_gain(cols.get(c, ()), card, va, am)
            if g_r + g_c > best_gain:
                best, best_gain = t, g_r + g_c
        return best, best_gain

    def place(self, cell: tuple, card: int) -> None:
        self._put(cell, card)
        self.last = cell
        if card == JK:
            self.joker = "placed"

    def score(self) -> int:
        va, am = self.variant, self.ace_middle
        return (sum(exact_line(t, va, am) for t in self.rows.values())
                + sum(exact_line(t, va, am) for t in self.cols.values()))


DISCARD_BELOW = -0.6      # discard (Advanced Poker) a card whose best place loses this much


def finish(sim: Sim, pending: int | None, order: list[int]) -> int:
    """Play the square out greedily: ``pending`` (a code, or None) first, then ``order``; the final score."""
    order = list(order)
    while len(sim.cells) < CELLS:
        if sim.joker == "hand" and len(sim.cells) == CELLS - 1:
            sim.place(sim.targets()[0], JK)
            break
        if pending is None:
            if not order:
                break
            pending = order.pop()
        card, pending = pending, None
        cell, g = sim.best_cell(card)
        if cell is None:
            break
        if card != JK and sim.discards_left > 0 and g < DISCARD_BELOW:
            sim.discards_left -= 1
            continue
        sim.place(cell, card)
    return sim.score()


# ------------------------------------------------------------ from a state

def sim_from(state: State) -> tuple[Sim, int | None, list[int]]:
    """The sim of a state, the pending card (turned; JK for a turned joker) and the unseen pool."""
    g = GAME.grid(state)
    cells = {}
    for cell, v in g.items():
        if v is JOKER:
            cells[cell] = JK
        elif v is not None:
            cells[cell] = code(v)
        else:
            cells[cell] = None          # unreadable: filled from the pool below
    last = state.info.get("last")
    last = parse_cell(last) if isinstance(last, str) else None
    where, _ = GAME._joker(state)
    variant = state.options.get("variant", "ordinary")
    discards_left = MAX_DISCARDS - len(state.areas["discard"][0]) if variant == "advanced" else 0
    sim = Sim(cells, last, discards_left, where, variant, bool(state.options.get("ace_middle", False)))
    turned = state.areas["turned"][0]
    pending = JK if where == "turned" else (code(turned[-1].card) if turned and turned[-1].card else None)
    seen = {code(c) for c in state.known_cards()}      # ``state`` is the player's observation
    pool = [c for c in range(52) if c not in seen]
    return sim, pending, pool


@dataclass
class Estimate:
    move: Move
    mean: float
    spread: float      # standard error of the mean (0 when exact)
    samples: int
    exact: bool = False


def _apply_root(sim: Sim, pending, move: Move):
    """The sim after the root move, and what is still to be laid before the pack."""
    s = sim.copy()
    if move.action == "joker":
        s.place(parse_cell(move.args[0]), JK)
        return s, (None if pending == JK else pending)
    if move.action == "turn":
        return s, None
    if move.dst.area == "discard":
        s.discards_left -= 1
        return s, None
    s.place((COLS.index(move.dst.area), move.dst.index), pending)
    return s, None


def expected_scores(state: State, seconds: float = 0.5, max_samples: int = 200, seed: int = 0,
                    max_candidates: int = 16) -> list[Estimate]:
    """Every legal move with its expected final score, best first (from the player's observation)."""
    obs = GAME.observation(state)
    legal = GAME.legal_moves(obs)
    if not legal:
        return []
    sim, pending, pool = sim_from(obs)
    unknown_cells = [c for c, v in sim.cells.items() if v is None]
    joker_in_pack = sim.joker == "pack"
    # prior order: the policy's own one-step gain
    def prior(m: Move) -> float:
        if m.action == "turn":
            return 0.0
        if m.action == "joker":
            return sim.gain(parse_cell(m.args[0]), JK) if not unknown_cells else 0.0
        if m.dst.area == "discard":
            return DISCARD_BELOW
        if pending is None or unknown_cells:
            return 0.0
        return sim.gain((COLS.index(m.dst.area), m.dst.index), pending)
    ranked = sorted(legal, key=lambda m: -prior(m))
    cands = ranked[:max_candidates]
    rng = random.Random(seed)
    needs_sampling = pending is None or unknown_cells or joker_in_pack
    # exact: after the move at most one more card is laid, from a known pool and no discards left to choose
    cells_left = CELLS - len(sim.cells)
    results: dict[Move, list[int]] = {m: [] for m in cands}
    exact = (not needs_sampling and cells_left == 2 and sim.discards_left == 0
             and sim.joker in (None, "placed"))
    if exact:
        out = []
        for m in cands:
            s, p = _apply_root(sim, pending, m)
            scores = [finish(s.copy(), None, [c]) for c in pool]
            out.append(Estimate(m, statistics.fmean(scores), 0.0, len(scores), True))
        out.sort(key=lambda e: -e.mean)
        return out
    deadline = time.perf_counter() + seconds
    alive = list(cands)
    n = 0
    while n < max_samples and (n < 4 or time.perf_counter() < deadline):
        order = pool[:]
        rng.shuffle(order)
        base = sim
        if unknown_cells:
            base = sim.copy()
            for cell in unknown_cells:
                base.fill_unknown(cell, order.pop())
        if joker_in_pack:
            order.insert(rng.randint(0, len(order)), JK)
        p0 = pending
        if p0 is None and order:
            p0 = order.pop()     # the card a "turn" would show
        for m in alive:
            if m.action == "turn":
                results[m].append(finish(base.copy(), p0, order))
                continue
            s, p = _apply_root(base, p0, m)
            results[m].append(finish(s, p, order))
        n += 1
        if n % 6 == 0 and len(alive) > 1:
            alive = _survivors(alive, results, n)
    out = []
    for m in ranked:
        xs = results.get(m)
        if xs:
            sd = statistics.pstdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
            out.append(Estimate(m, statistics.fmean(xs), sd, len(xs)))
    out.sort(key=lambda e: (e.samples < n, -e.mean))     # survivors of the elimination first
    return out


def _survivors(alive: list[Move], results: dict, n: int) -> list[Move]:
    """Drop the moves clearly worse than the leader, judged on the same sampled orders."""
    lead = max(alive, key=lambda m: statistics.fmean(results[m]))
    keep = []
    for m in alive:
        if m == lead:
            keep.append(m)
            continue
        diffs = [a - b for a, b in zip(results[m], results[lead])]
        mean = statistics.fmean(diffs)
        sd = statistics.pstdev(diffs) / len(diffs) ** 0.5
        if mean + 2.5 * sd >= 0 and mean > -8:
            keep.append(m)
    return keep


def greedy_move(state: State) -> Move | None:
    """The policy's own choice (no sampling): used as a fast baseline."""
    obs = GAME.observation(state)
    legal = GAME.legal_moves(obs)
    if not legal:
        return None
    sim, pending, _ = sim_from(obs)
    if pending is None or any(v is None for v in sim.cells.values()):
        return legal[0]
    cell, g = sim.best_cell(pending)
    if pending != JK and sim.discards_left > 0 and g < DISCARD_BELOW:
        return Move.cards(Loc("turned", 0), Loc("discard", 0))
    if pending == JK:
        return Move.act("joker", cell_name(*cell))
    return Move.cards(Loc("turned", 0), Loc(COLS[cell[0]], cell[1]))
