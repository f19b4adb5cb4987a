"""Shortcuts the reader takes for speed must not change what it reads: each is checked against the
long way round (the reading with the shortcut turned off, or a one-row-at-a-time reference)."""
from __future__ import annotations

import random

import numpy as np
import pytest

import vision.reading as reading
from advisor.engine import get_game, playout
from vision.fake_sightings import camera, extent, sightings_for
from vision.reading import HASH, _top_bins_each, _vote_bins, read_sightings

SIZE = (1920, 1080)


def _fullest_bins(row: np.ndarray, n: int) -> list[tuple[int, int]]:
    """The reference: the n fullest non-empty bins, fullest first, the lower bin first on a tie."""
    order = sorted(range(len(row)), key=lambda k: (-row[k], k))
    return [(k, int(row[k])) for k in order[:n] if row[k] > 0]


@pytest.mark.parametrize("n", [1, 3, 6, 100])
def test_the_fullest_bins_of_every_turn_at_once_match_one_turn_at_a_time(n):
    rng = np.random.default_rng(n)
    counts = rng.poisson(0.3, size=(21, 64))
    counts[4] = 0                      # a turn where no translation got a vote
    counts[7, :5] = 9                  # ties: the lower bin comes first
    expected = [_fullest_bins(row, n) for row in counts]
    assert _top_bins_each(counts.copy(), n) == expected


def test_vote_bins_hash_the_floor_of_each_translation_as_the_plain_formula_does():
    rng = np.random.default_rng(5)
    ux = np.concatenate([rng.uniform(-3000, 3000, 5000), np.arange(-40, 40) + 0.0, np.arange(-40, 40) - 1e-9,
                         np.arange(-40, 40) + 0.5 - 1e-9]).reshape(2, -1)
    uy = rng.uniform(-3000, 3000, ux.shape)
    for shift in (0.0, 0.5):
        expected = ((np.floor(ux + shift).astype(np.int64) * 73856093)
                    ^ (np.floor(uy + shift).astype(np.int64) * 19349663)) & (HASH - 1)
        assert np.array_equal(_vote_bins(ux, uy, shift), expected)


@pytest.mark.parametrize("gid", ["pendulum", "seven-and-six", "senior-wrangler"])
def test_placing_the_cards_of_many_alignments_at_once_matches_one_alignment_at_a_time(gid):
    game = get_game(gid)
    pl = reading.places(game.layout({}), reading._template(game, {}))
    rng = np.random.default_rng(3)
    # cards down each fan and on each place, jittered, shifted a little differently for each alignment
    # (some then break their fan's chain or lie nowhere, so that cards retry other places)
    base = np.array([p.first + k * np.array(p.area.fan) for p in pl for k in range(4)], dtype=float)
    tabs = np.stack([base + rng.normal(0, 0.08 + 0.1 * k, base.shape) + rng.normal(0, 0.2 * k, 2)
                     for k in range(7)])
    owner, along, ok = reading._locate_many(tabs, pl)
    retried = 0
    for k, tab in enumerate(tabs):
        o, a, f = reading._locate(tab, pl)
        assert np.array_equal(owner[k], o) and np.array_equal(along[k], a) and np.array_equal(ok[k], f)
        retried += int((o >= 0).sum() - f.sum())
    assert retried > 0 and (owner >= 0).any() and not ok.all()


def _read(gid: str, seed: int, moves: int = 15):
    """A mid-game layout seen at an angle, a tenth of its indices missed: (state, doubts, message)."""
    rng = random.Random(seed)
    truth, _ = playout(get_game(gid).new(seed), rng, max_moves=moves)
    H = camera(random.Random(seed), extent=extent(truth), tilt=0.35)
    sights = [s for s in sightings_for(truth, H, random.Random(seed), jitter=0.03) if rng.random() > 0.1]
    r = read_sightings(sights, gid, image_size=SIZE)
    return (r.state.dumps() if r.state is not None else None, [d.message for d in r.doubts], r.message)


CASES = [("pendulum", 3), ("senior-wrangler", 4), ("seven-and-six", 2), ("aunty-allis", 5), ("captain-spaulding", 1),
         ("uncle-remus", 6)]


# Alignments that cannot win are not read (SKIP_HOPELESS_ALIGNMENTS): the state, the doubts (the
# "fits equally well" one among them) and any refusal must be those of reading every alignment,
# and the shortcut must actually leave some reading out.
def test_leaving_hopeless_alignments_unread_changes_no_reading(monkeypatch):
    reads = [0]
    real = reading._read_aligned

    def counted(*a, **k):
        reads[0] += 1
        return real(*a, **k)
    monkeypatch.setattr(reading, "_read_aligned", counted)
    fast = [_read(gid, seed) for gid, seed in CASES]
    fast_reads, reads[0] = reads[0], 0
    monkeypatch.setattr(reading, "SKIP_HOPELESS_ALIGNMENTS", 0)
    assert [_read(gid, seed) for gid, seed in CASES] == fast
    assert fast_reads < reads[0]


# ------------------------------------------------- the placing and the vote in C (vision/_readfast.c)

def test_the_readers_c_parts_are_built():
    assert reading._readfast is not None, "vision._readfast was not built: is a C compiler installed?"


def _both_placings(monkeypatch, tab, pl):
    monkeypatch.setattr(reading, "USE_C", 0)
    slow = reading._locate_many(tab, pl)
    monkeypatch.setattr(reading, "USE_C", 1)
    return slow, reading._locate_many(tab, pl)


GAME_IDS = ["senior-wrangler", "pendulum", "seven-and-six", "captain-spaulding", "aunty-allis", "uncle-remus",
            "kings", "interregnum", "poker-patience"]


@pytest.mark.parametrize("gid", GAME_IDS)
def test_the_placing_in_c_gives_what_numpy_gives_bit_for_bit(monkeypatch, gid):
    assert reading._readfast is not None, "vision._readfast was not built"
    game = get_game(gid)
    pl = reading.places(game.layout({}), reading._template(game, {}))
    arr = reading._Arrays.of(pl)
    rng = np.random.default_rng(len(gid))
    retried = squared = 0
    for trial in range(30):
        K, n = int(rng.integers(1, 25)), int(rng.integers(1, 100))
        # cards on fan steps and squared places, jittered from a little to a lot (so that fans break and
        # cards retry other places), some alignments scattered over the whole table
        steps = rng.integers(0, 12, (K, n))[..., None]
        tab = arr.heads[rng.integers(0, len(pl), (K, n))] + arr.fans[rng.integers(0, len(pl), (K, n))] * steps
        tab = tab + rng.normal(0, rng.choice([0.02, 0.1, 0.4]), tab.shape)
        if trial % 5 == 0:
            tab = rng.uniform(arr.heads.min(0) - 1, arr.heads.max(0) + 3, (K, n, 2))
        if trial % 7 == 0:
            tab[0, 0] = np.inf          # an alignment that takes a card out of the picture (a refit can)
        slow, fast = _both_placings(monkeypatch, tab, pl)
        for x, y in zip(slow, fast):
            assert x.dtype == y.dtype and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")
        owner, _, ok = slow
        retried += int(((owner >= 0) & ~ok).sum())
        squared += int(((owner >= 0) & (arr.flen[np.maximum(owner, 0)] == 0)).sum())
    # the cases that matter were met: cards breaking their fans' chains, and squared places, where the game has them
    assert retried > 0 or not (arr.flen > 0).any()
    assert squared > 0 or (arr.flen > 0).all()


def test_the_placing_in_c_follows_the_rules_constants(monkeypatch):
    game = get_game("pendulum")
    pl = reading.places(game.layout({}), reading._template(game, {}))
    arr = reading._Arrays.of(pl)
    rng = np.random.default_rng(9)
    tab = arr.heads[rng.integers(0, len(pl), (8, 60))] + rng.normal(0, 0.3, (8, 60, 2))
    base = _both_placings(monkeypatch, tab, pl)[1]
    for name, value in [("REACH_GAP", 0), ("REACH_NEAR", 0.0), ("MAX_GAP", 1.2), ("ACROSS", 0.2), ("LOCATE_ROUNDS", 1)]:
        monkeypatch.setattr(reading, name, value)
        slow, fast = _both_placings(monkeypatch, tab, pl)
        assert all(np.array_equal(x, y) for x, y in zip(slow, fast)), name
    # and at least one of them changed the placing (the constants reach the C code at all)
    assert not all(np.array_equal(x, y) for x, y in zip(base, fast))


@pytest.mark.parametrize("turns,ranks", [(21, 6), (21, 100), (1, 3)])
def test_the_vote_in_c_gives_what_numpy_gives_bit_for_bit(monkeypatch, turns, ranks):
    assert reading._readfast is not None, "vision._readfast was not built"
    rng = np.random.default_rng(turns + ranks)
    for trial in range(40):
        n, slots = int(rng.integers(1, 71)), int(rng.integers(1, 120))
        qx, qy = rng.uniform(0, 1920, n), rng.uniform(0, 1080, n)
        # slots on a half-card grid as well as anywhere: votes then fall on bin edges
        table = rng.uniform(-3, 12, (slots, 2))
        if trial % 2:
            table = np.round(table * 2) / 2
        s = rng.uniform(50, 200)
        th = np.radians(np.linspace(-30, 30, turns))
        rot = np.stack([np.stack([np.cos(th), -np.sin(th)], 1), np.stack([np.sin(th), np.cos(th)], 1)], 1)
        sl = table @ (s * rot).transpose(0, 2, 1)
        monkeypatch.setattr(reading, "USE_C", 0)
        tops, mean = reading._pose_votes(qx, qy, sl, 0.3 * s, ranks)
        monkeypatch.setattr(reading, "USE_C", 1)
        tops_c, mean_c = reading._pose_votes(qx, qy, sl, 0.3 * s, ranks)
        assert tops_c == tops
        assert any(len(bins) for grid in tops for bins in grid)
        for g, grid in enumerate(tops):
            for t, bins in enumerate(grid):
                for rank in range(len(bins)):
                    assert np.array_equal(mean_c(g, t, rank), mean(g, t, rank))


def test_readings_with_the_c_parts_are_those_of_numpy(monkeypatch):
    fast = [_read(gid, seed) for gid, seed in CASES]
    monkeypatch.setattr(reading, "USE_C", 0)
    assert [_read(gid, seed) for gid, seed in CASES] == fast
