"""Hand-made Senior Wrangler positions for the solver and tip tests."""
from __future__ import annotations

import random
from collections import Counter

from advisor.cards import Card, full_deck, interval_sequence, parse_rank, rank_add
from advisor.engine import State, get_game, up

GID = "senior-wrangler"
G = get_game(GID)
KEYS8 = ["5h", "9s", "Ac", "2d", "3h", "4s", "6c", "7d"]


def pile_ranks(key: int) -> list[int]:
    """The twelve ranks of a pile on this key, from the shared rank arithmetic (not the engine)."""
    return interval_sequence(rank_add(key, key), key, 12)


def full_position(heights, columns, session, keys=KEYS8) -> State:
    """A complete 104-card position.

    ``heights[j]``: cards on pile j (12 = finished, squared on its key).
    ``columns``: ranks (or labels) bottom to top for each column; they must be exactly
    the ranks the piles still need. Suits are dealt from what is left of two packs.
    """
    deck = full_deck(2)
    key_cards = []
    for lab in keys:
        c = next(c for c in deck if c.label == lab)
        deck.remove(c)
        key_cards.append(c)
    piles = []
    for k, h in zip(key_cards, heights):
        p = []
        for r in pile_ranks(k.rank)[:h]:
            c = next(c for c in deck if c.rank == r)
            deck.remove(c)
            p.append(c)
        piles.append(p)
    cols = []
    for col in list(columns) + [[]] * (8 - len(columns)):
        out = []
        for x in col:
            r = x if isinstance(x, int) else parse_rank(x)
            c = next(c for c in deck if c.rank == r)
            deck.remove(c)
            out.append(c)
        cols.append(out)
    assert not deck, f"the columns must hold exactly the cards the piles still need; left over: {Counter(c.rank for c in deck)}"
    key_area = [[up(k)] + ([up(c) for c in p] if len(p) == 12 else []) for k, p in zip(key_cards, piles)]
    pile_area = [[up(c) for c in p] if len(p) < 12 else [] for p in piles]
    st = State(GID, {"column": [[up(c) for c in col] for col in cols], "key": key_area, "pile": pile_area},
               {"session": session}, {})
    assert G.validate(st) == [], G.validate(st)
    return st


def _random_piles(rng: random.Random, left_lo: int, left_hi: int):
    """Random key cards, pile heights leaving between ``left_lo`` and ``left_hi`` cards to play,
    and the shuffled ranks of those cards."""
    ranks = rng.sample(range(1, 13), 8)
    keys = [Card(r, rng.choice("shdc")).label for r in ranks]
    while True:
        heights = [rng.randint(8, 12) for _ in range(8)]
        if left_lo <= sum(12 - h for h in heights) <= left_hi:
            break
    needed = [r for k, h in zip(ranks, heights) for r in pile_ranks(k)[h:]]
    rng.shuffle(needed)
    return keys, heights, needed


def random_small_position(rng: random.Random, left_lo: int, left_hi: int, sessions=(5, 6, 7, 8)) -> State:
    """A complete position with only a few cards left, scattered at random over the columns."""
    keys, heights, needed = _random_piles(rng, left_lo, left_hi)
    cols = [[] for _ in range(8)]
    for r in needed:
        cols[rng.randrange(8)].append(r)
    return full_position(heights, cols, rng.choice(sessions), keys)


def brute_force_winnable(state: State) -> bool:
    """Exhaustive search over the rules engine's own moves (no pruning beyond remembering positions)."""
    memo: dict[tuple, bool] = {}

    def rec(st: State) -> bool:
        # positions that differ only in suits are alike (suits never matter in this game)
        k = (st.info["session"],
             tuple(tuple(sl.card.rank for sl in p) for area in ("column", "key", "pile") for p in st.areas[area]))
        if k in memo:
            return memo[k]
        res = G.is_won(st)
        if not res:
            for m in G.legal_moves(st):
                ch = st.copy()
                G.apply(ch, m)
                if rec(ch):
                    res = True
                    break
        memo[k] = res
        return res

    return rec(state)


def random_pickup_position(rng: random.Random, left_lo: int, left_hi: int, session: int) -> State:
    """Like ``random_small_position``, but most cards lie in the column picked up at the end of ``session``.

    That column is long enough (nine cards or more) for the redeal to send two of
    its cards to the same column, the case the solver's fixed-order runs rely on.
    """
    keys, heights, needed = _random_piles(rng, left_lo, left_hi)
    cols = [[] for _ in range(8)]
    long_col = session - 1
    for n, r in enumerate(needed):
        cols[long_col if n < 9 or rng.random() < 0.5 else rng.randrange(8)].append(r)
    return full_position(heights, cols, session, keys)


def replay_legal(state: State, moves: list[str]) -> State:
    """Replay moves on a copy of ``state``, checking that each one is legal."""
    board = state.copy()
    for m in moves:
        mv = G.parse_move(board, m)
        assert G.why_illegal(board, mv) is None, (state.dumps(), m)
        G.apply(board, mv)
    return board


def plays_left(board: State) -> list:
    """The cards that could still go on a pile (every legal move but the redeal)."""
    return [m for m in G.legal_moves(board) if m.action != "redeal"]


def replay_until_stuck(state: State, moves: list[str]) -> State:
    """Replay a play-out's moves on a copy of ``state``, each one legal, and check that it stopped
    only when no column shows a card some pile wants."""
    board = replay_legal(state, moves)
    assert not plays_left(board)
    return board
