"""Loss proofs of the Senior Wrangler solver: the stack relaxation must never condemn a winnable position."""
from __future__ import annotations

import random
import time

import pytest

from advisor import senior_wrangler_solver as solver

from advisor.senior_wrangler_solver import (compact, kings_relaxation, order_cycle, rank_block, solve,
                                            stack_relaxation, _needs_after, _places)
from sw_positions import (G, _random_piles, brute_force_winnable, full_position, pile_ranks, random_pickup_position,
                          random_small_position)

DONE = [12] * 7


def _stack(st) -> bool:
    """True when the stack relaxation proves the position lost."""
    p = compact(st)
    return not stack_relaxation(p.cols, p.prog, p.keys, p.session, 10 ** 6)


def _old_cuts(st) -> bool:
    p = compact(st)
    return (not kings_relaxation(p.cols, p.prog, _needs_after(p.keys), p.session)
            or rank_block(p.cols, p.prog, p.keys, p.session) or order_cycle(p.cols, p.prog, _places(p.keys), p.session))


def test_stack_relaxation_on_the_hand_made_losses():
    # the queen lies on the five in column 8, but the pile needs the five first
    assert _stack(full_position(DONE + [8], [[], [], [], [], [], [], [], [13, 6, 5, 12]], session=8))
    assert not _stack(full_position(DONE + [8], [[], [], [], [], [], [], [], [13, 6, 12, 5]], session=8))
    # column 1 was dealt out long ago: six above queen above five
    assert _stack(full_position(DONE + [8], [[5, 12, 6], [], [], [], [13]], session=6))
    # the same cards in column 7 during session 6 are still free (its redeal sends them apart)
    assert not _stack(full_position(DONE + [8], [[], [], [], [], [13], [], [5, 12, 6]], session=6))
    # both queens under kings in frozen columns, and both piles left need a queen before a king
    heights = [12, 12, 9, 12, 12, 12, 12, 9]
    assert _stack(full_position(heights, [[12, 13], [12, 13, 11, 6]], session=8))
    assert not _stack(full_position(heights, [[13, 12], [12, 13, 11, 6]], session=8))


def test_stack_relaxation_sees_a_block_the_older_cuts_miss():
    # Session 7; piles 4 (key 6: 1, 7, K to come), 7 (key A: J, Q, K) and 8 (key 7: Q, 6, K).
    # Both queens lie under kings in frozen columns, so a king must be played first, and only
    # pile 4 can take one without a queen; but its ace lies under the six that pile 8 can only
    # take after its queen. No single rank or single card shows it, so the older cuts pass it.
    assert pile_ranks(6)[9:] == [1, 7, 13] and pile_ranks(1)[9:] == [11, 12, 13]
    assert pile_ranks(7)[9:] == [12, 6, 13]
    keys = ["4h", "10s", "8c", "6d", "3h", "2s", "Ac", "7d"]
    st = full_position([12, 12, 12, 9, 12, 12, 9, 9], [[12, 13], [13], [7], [1, 6], [12, 13], [], [11], []],
                       session=7, keys=keys)
    assert not _old_cuts(st)
    assert _stack(st)
    assert brute_force_winnable(st) is False
    assert solve(st, 2.0).verdict == "no"


@pytest.mark.parametrize("seed", range(4))
def test_stack_relaxation_agrees_with_brute_force(seed):
    # on small positions the relaxation is nearly exact: it must never fire on a winnable one
    rng = random.Random(6000 + seed)
    fired = lost = 0
    for i in range(30):
        if i % 2:
            st = random_small_position(rng, 8, 16)
        else:
            st = random_pickup_position(rng, 10, 14, rng.choice((5, 6, 7)))
        truth = brute_force_winnable(st)
        got = _stack(st)
        if got:
            assert truth is False, st.dumps()
        fired += got
        lost += not truth
    assert lost == 0 or fired >= 1          # it proves at least some of the losses


@pytest.mark.parametrize("deal", [13, 0, 5])
def test_stack_relaxation_passes_every_position_of_a_winning_line(deal, monkeypatch):
    # every position on a winning line is winnable, so the relaxation must let each one through
    monkeypatch.setattr(solver, "_clock", time.process_time)     # CPU seconds: the machine may be busy
    st = G.new(deal)
    sol = solve(st, 5.0)
    assert sol.verdict == "yes"
    s = st.copy()
    assert not _stack(s)
    redeals = 0
    for text in sol.plan:
        G.apply(s, G.parse_move(s, text))
        redeals += text == "redeal"
        p = compact(s)
        assert stack_relaxation(p.cols, p.prog, p.keys, p.session, 20000), (deal, text)
    assert redeals >= 5


def test_stack_relaxation_gives_up_safely():
    # with no steps at all it cannot prove anything, and says so by letting the position through
    heights = [12, 12, 9, 12, 12, 12, 12, 9]
    st = full_position(heights, [[12, 13], [12, 13, 11, 6]], session=8)
    p = compact(st)
    assert stack_relaxation(p.cols, p.prog, p.keys, p.session, 0) is True


def _kings_reference(cols, prog, keys, session) -> bool:
    """The kings relaxation's easier game, searched plainly: any pile whose needs fit may reach its
    king next, taking any free king or the next king of any frozen run (no shortcuts, no memory)."""
    needs = _needs_after(keys)
    avail = [0] * 14
    runs = []
    free = 0
    for c, col in enumerate(cols):
        if not solver._frozen(c, session):
            free += sum(r == 13 for r in col)
            for r in col:
                avail[r] += r != 13
            continue
        segs = [[]]
        for r in reversed(col):
            if r == 13:
                segs.append([])
            else:
                segs[-1].append(r)
        for r in segs[0]:
            avail[r] += 1
        if len(segs) > 1:
            runs.append(segs[1:])
    todo = [j for j in range(8) if prog[j] < 12]

    def fits(done, av):
        used = [0] * 14
        for j in done:
            for r in needs[j][prog[j]]:
                used[r] += 1
        return all(u <= a for u, a in zip(used, av))

    def rec(done, at, fk, av):
        if len(done) == len(todo):
            return True
        for j in todo:
            if j in done or not fits(done + [j], av):
                continue
            if fk and rec(done + [j], at, fk - 1, av):
                return True
            for k, seg in enumerate(runs):
                if at[k] < len(seg):
                    av2 = list(av)
                    for r in seg[at[k]]:
                        av2[r] += 1
                    if rec(done + [j], at[:k] + (at[k] + 1,) + at[k + 1:], fk, av2):
                        return True
        return False

    return rec([], (0,) * len(runs), free, avail)


def _kings_low_position(rng: random.Random):
    """A small position whose kings tend to lie on top of the other cards, where they block most."""
    keys, heights, needed = _random_piles(rng, 8, 15)
    cols = [[] for _ in range(8)]
    for r in sorted(needed, key=lambda r: (r == 13 and rng.random() < 0.7, rng.random())):
        cols[rng.randrange(8)].append(r)
    return full_position(heights, cols, rng.choice((6, 7, 8)), keys)


@pytest.mark.parametrize("seed", range(3))
def test_kings_relaxation_shortcuts_change_no_answer(seed):
    # the full test skips orders that cannot be better (a free king while a run still has one, a pile
    # before another whose needs contain its own): with steps to spare it must answer as the plain
    # search does, and never condemn a position that brute force wins
    rng = random.Random(7100 + seed)
    lost = 0
    for i in range(150):
        st = _kings_low_position(rng)
        p = compact(st)
        got = kings_relaxation(p.cols, p.prog, _needs_after(p.keys), p.session, steps=10 ** 6)
        assert got == _kings_reference(p.cols, p.prog, p.keys, p.session), st.dumps()
        if not got:
            lost += 1
            assert brute_force_winnable(st) is False, st.dumps()
    assert lost >= 1           # the positions include some it condemns
