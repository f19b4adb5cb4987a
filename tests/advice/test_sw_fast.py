"""The C beam search of the Senior Wrangler solver (advisor/_swfast.c) against its Python reference.

The C file ports the Python search function by function; only the random numbers
differ. These tests give both versions the same positions (fresh deals, session
starts after play-outs, and positions part-way through a session) and require the
same answers, and check the C play-out against the rules engine.
"""
from __future__ import annotations

import random

import pytest

from advisor import senior_wrangler_solver as solver
from advisor.games.senior_wrangler import NEED
from advisor.senior_wrangler_solver import (_Budget, _finish_last, _needs_after, _notation, _places, _score,
                                            _session_playout, compact, kings_relaxation, order_cycle, rank_block,
                                            solve)
from plans import replays_to_a_win
from sw_positions import G, plays_left, random_small_position, replay_legal, replay_until_stuck

fast = solver._fast


def test_the_c_search_is_built():
    # pip builds it from setup.py; without it the solver still works, but decides fewer deals in a second
    assert fast is not None, "advisor._swfast was not built: is a C compiler installed?"


def _positions(seeds, rng):
    """(keys, cols, prog, session) along random play-outs: at each session start and part-way through."""
    for seed in seeds:
        pos = compact(G.new(seed))
        need = [NEED[k] + (0,) for k in pos.keys]
        cols = [bytearray(c) for c in pos.cols]
        prog = list(pos.prog)
        for s in range(1, 9):
            yield pos.keys, [bytearray(c) for c in cols], list(prog), s
            mv = _session_playout(cols, prog, need, s, rng, 2.0)
            c2 = [bytearray(c) for c in cols]
            p2 = list(prog)
            # undo a random number of the session's moves: a position inside the session
            for c, j in reversed(mv[rng.randrange(len(mv) + 1):]):
                c2[c].append(NEED[pos.keys[j]][p2[j] - 1])
                p2[j] -= 1
            yield pos.keys, c2, p2, s
            if s < 8:
                picked = cols[s - 1]
                cols[s - 1] = bytearray()
                for d in range(min(8, len(picked))):
                    cols[d] += picked[d::8]


def _args(keys, cols, prog):
    return [bytes(c) for c in cols], bytes(prog), bytes(keys)


@pytest.fixture(scope="module")
def positions():
    return list(_positions(range(120), random.Random(5)))


def test_dead_end_cuts_agree_with_python(positions):
    fired = [0, 0, 0]
    for keys, cols, prog, s in positions:
        want = (kings_relaxation(cols, prog, _needs_after(keys), s, quick=True),
                rank_block(cols, prog, keys, s), order_cycle(cols, prog, _places(keys), s))
        assert fast.cuts(*_args(keys, cols, prog), s) == want, (keys, cols, prog, s)
        fired = [f + x for f, x in zip(fired, (not want[0], want[1], want[2]))]
    # the positions exercise every cut, not only the "alive" answer
    assert min(fired) > 0, fired


def test_position_score_agrees_with_python(positions):
    for keys, cols, prog, s in positions:
        need = [NEED[k] + (0,) for k in keys]
        for bw in (0.0, solver.BLOCKED_WEIGHT):
            want = _score(cols, prog, s, need, bw)
            assert fast.score(*_args(keys, cols, prog), s, bw, solver.KING_WEIGHT) == pytest.approx(want, abs=1e-9)


def test_last_session_search_agrees_with_python(positions):
    outcomes = set()
    for keys, cols, prog, s in positions:
        if s != 8:
            continue
        need = [NEED[k] + (0,) for k in keys]
        try:
            path = _finish_last(cols, prog, need, 2000)
            want = (1 if path is not None else 0, path or [])
        except _Budget as e:
            want = (-1, [], e.args[0])
        got = fast.finish_last(*_args(keys, cols, prog), 2000)
        assert got[:2] == want[:2]
        if want[0] == -1:
            assert got[2] == want[2]       # the most cards the budget reached
        outcomes.add(want[0])
    assert outcomes == {-1, 0, 1}


@pytest.mark.parametrize("seed", range(3))
def test_c_playout_plays_legal_moves_until_stuck(seed):
    rng = random.Random(8000 + seed)
    for i in range(10):
        st = random_small_position(rng, 10, 24)
        p = compact(st)
        cols, prog, moves = fast.playout(*_args(p.keys, p.cols, p.prog), p.session, 100 * seed + i, 2.0)
        end = compact(replay_until_stuck(st, _notation(moves)))
        assert [bytes(c) for c in end.cols] == list(cols) and bytes(end.prog) == prog


def test_c_playout_that_holds_declines_moves_but_plays_only_legal_ones():
    # as the Python play-out's hold (test_senior_wrangler_solver.py)
    rng = random.Random(8100)
    ended_with_plays_open = played = 0
    for i in range(20):
        st = random_small_position(rng, 10, 24)
        p = compact(st)
        cols, prog, moves = fast.playout(*_args(p.keys, p.cols, p.prog), p.session, i, 2.0, 0.3)
        board = replay_legal(st, _notation(moves))
        end = compact(board)
        assert [bytes(c) for c in end.cols] == list(cols) and bytes(end.prog) == prog
        ended_with_plays_open += bool(plays_left(board))
        played += len(moves)
        assert fast.playout(*_args(p.keys, p.cols, p.prog), p.session, i, 2.0, 1.0)[2] == []
    assert ended_with_plays_open > 0 and played > 0


@pytest.mark.parametrize("use_fast", [1, 0])
def test_both_searches_find_plans_that_replay(monkeypatch, use_fast):
    monkeypatch.setattr(solver, "USE_FAST", use_fast)
    st = G.new(2)
    sol = solve(st, 3.0)
    assert sol.verdict == "yes"
    assert replays_to_a_win(st, sol.plan)


def test_c_search_reports_its_best_line_when_out_of_time():
    pos = compact(G.new(40))       # a deal the beam search has not won in 30 s (holding or not)
    # 0.3 s takes the beams to the last session, where a small node budget stops its complete search part-way:
    # the line kept once ended 20 cards short of the count claimed
    plan, best, line = fast.beam_search(*_args(pos.keys, pos.cols, pos.prog), 1, 0.3, False, 0, 5, 6, 2.0,
                                        50, solver.BLOCKED_WEIGHT, solver.KING_WEIGHT)
    assert plan is None
    board = G.new(40)
    for m in _notation(line):
        G.apply(board, G.parse_move(board, m))
    # the line replays and reaches the count claimed, also where the last session's complete search got furthest
    assert 0 < sum(compact(board).prog) == best


@pytest.mark.parametrize("cols, prog, keys, problem", [
    ([b"\x00"] + [b""] * 7, bytes(8), bytes(range(1, 9)), "rank"),
    ([b""] * 7, bytes(8), bytes(range(1, 9)), "8"),
    ([b""] * 8, bytes(7), bytes(range(1, 9)), "8 bytes"),
    ([b""] * 8, bytes(8), bytes([13] * 8), "keys"),
    ([b"\x05" * 97] + [b""] * 7, bytes(8), bytes(range(1, 9)), "96"),
])
def test_c_functions_refuse_malformed_positions(cols, prog, keys, problem):
    with pytest.raises(ValueError, match=problem):
        fast.cuts(cols, prog, keys, 1)


def test_a_win_stops_the_searches_beside_it():
    """Searches in one group stop when one of them wins: a beam search of deal 40 (never won by one in 30 s) given
    60 s ends as soon as a search of the easy deal 2 in its group has won, with no plan of its own."""
    import threading
    import time

    hard, easy = compact(G.new(40)), compact(G.new(2))
    group = next(solver._groups)
    out = {}

    def search(name, pos, seconds):
        out[name] = fast.beam_search(*_args(pos.keys, pos.cols, pos.prog), 1, seconds, 0, 0, 20, 6, 2.0, 1500,
                                     solver.BLOCKED_WEIGHT, solver.KING_WEIGHT, group)
    t = threading.Thread(target=search, args=("hard", hard, 60.0))
    t0 = time.perf_counter()
    t.start()
    search("easy", easy, 60.0)
    t.join(timeout=60.0)
    assert not t.is_alive() and time.perf_counter() - t0 < 30.0, "the hard search did not stop"
    assert out["easy"][0] is not None and out["hard"][0] is None
    # a search in no group, or in another, is not stopped by that win
    plan, best, line = fast.beam_search(*_args(hard.keys, hard.cols, hard.prog), 1, 0.2, 0, 0, 20, 6, 2.0, 1500,
                                        solver.BLOCKED_WEIGHT, solver.KING_WEIGHT, next(solver._groups))
    assert plan is None and best > 0


@pytest.mark.parametrize("searchers", [1, 2, 3])
def test_side_by_side_searches_find_a_plan_that_replays(monkeypatch, searchers):
    monkeypatch.setattr(solver, "SEARCHERS", searchers)
    st = G.new(2)
    sol = solve(st, 3.0)
    assert sol.verdict == "yes" and replays_to_a_win(st, sol.plan)
    sol = solve(G.new(40), 0.3)                   # out of time on every thread: no verdict, the best count back
    assert sol.verdict == "unknown" and 0 < sol.best_played < 96
