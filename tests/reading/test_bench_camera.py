"""The reading benchmark's camera frames the whole layout in front of it, as a player's photo does."""
from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import reading_bench as rb  # noqa: E402

ASPECT = 1.45


def _project(H, pts):
    ph = np.c_[pts, np.ones(len(pts))] @ H.T
    return ph[:, :2] / ph[:, 2:3], ph[:, 2]


@pytest.mark.parametrize("game", ["senior-wrangler", "aunty-allis", "kings"])
@pytest.mark.parametrize("seed", [1000, 1003, 2002, 2004])
def test_every_card_is_in_front_of_the_camera_and_in_the_frame(game, seed):
    rng = random.Random(seed)
    truth = rb.make_state(game, seed, 25)
    pl = rb.layout_placements(truth, ASPECT, rng)
    cam = rb.table_camera(rng, pl, ASPECT, tilt_deg=(35.0, 35.0), rotation=15.0)
    W, H = cam.size
    corners = np.array([[p.x + dx, p.y + dy] for p in pl for dx in (-0.5, 0.5) for dy in (-ASPECT / 2, ASPECT / 2)])
    xy, w = _project(cam.H, corners)
    assert (w > 0).all(), "a card lies behind the camera"
    assert (xy[:, 0] > -1).all() and (xy[:, 0] < W + 1).all() and (xy[:, 1] > -1).all() and (xy[:, 1] < H + 1).all()


def test_the_slant_is_no_steeper_than_the_tilt_allows():
    # at the steepest tilt (35 degrees) the trapezoid's far edge is at least (1 - k) / (1 + k / 2) of
    # the near one, k < 1 - sin(35 degrees): a card far away is never under a third of a near one
    smallest = (1 - (1 - math.sin(math.radians(35)))) / (1 + (1 - math.sin(math.radians(35))) / 2)
    for seed in range(20):
        rng = random.Random(seed)
        truth = rb.make_state("senior-wrangler", seed, 0)
        pl = rb.layout_placements(truth, ASPECT, rng)
        cam = rb.table_camera(rng, pl, ASPECT, tilt_deg=(35.0, 35.0), rotation=0.0)
        widths = []
        for p in pl:
            xy, _ = _project(cam.H, np.array([[p.x - 0.5, p.y], [p.x + 0.5, p.y]]))
            widths.append(np.hypot(*(xy[1] - xy[0])))
        assert min(widths) / max(widths) > 0.9 * smallest, seed


def test_each_fanned_pile_can_get_its_own_step_without_moving_anything_else():
    truth = rb.make_state("seven-and-six", 1001, 25)
    plain = rb.layout_placements(truth, ASPECT, random.Random(1))
    assert plain == rb.layout_placements(truth, ASPECT, random.Random(1), fan_spread=0.0)
    spread = rb.layout_placements(truth, ASPECT, random.Random(1), fan_spread=0.1, fan_rng=random.Random(5))
    keys = rb.placement_keys(truth)
    game = rb.get_game("seven-and-six")
    fans = {a.name: a.fan for a in game.layout(truth.options).areas}
    looseness = {}
    for (area, pile, j), a, b in zip(keys, plain, spread):
        # a card j places down a fan moves (loose - 1) * j fan steps along it; the head stays put
        moved = np.array([b.x - a.x, b.y - a.y])
        if j == 0 or fans[area] == (0.0, 0.0):
            assert np.allclose(moved, 0.0)
            continue
        loose = 1 + moved @ np.array(fans[area]) / (j * np.dot(fans[area], fans[area]))
        assert np.allclose(moved, (loose - 1) * j * np.array(fans[area]), atol=1e-9)
        looseness.setdefault((area, pile), []).append(loose)
    per_pile = [v[0] for v in looseness.values()]
    assert all(np.allclose(v, v[0]) for v in looseness.values())      # one step per pile
    assert len(set(np.round(per_pile, 6))) == len(per_pile)            # piles differ
    assert 0.7 < min(per_pile) and max(per_pile) < 1.4


def test_cards_laid_by_hand_move_a_little_each_pile_its_own_way_and_nothing_else_changes():
    truth = rb.make_state("senior-wrangler", 1002, 25)
    plain = rb.layout_placements(truth, ASPECT, random.Random(1))
    assert plain == rb.layout_placements(truth, ASPECT, random.Random(1), untidy=0.0)
    rng = random.Random(1)
    hand = rb.layout_placements(truth, ASPECT, rng, untidy=1.0, fan_rng=random.Random(5))
    # the untidiness comes from its own generator: the camera's draws that follow are those of a tidy render
    rest = random.Random(1)
    rb.layout_placements(truth, ASPECT, rest)
    assert rng.random() == rest.random()
    moved = {}
    for (area, pile, j), a, b in zip(rb.placement_keys(truth), plain, hand):
        d = np.hypot(b.x - a.x, b.y - a.y)
        assert d < 6 * np.hypot(rb.UNTIDY["head"], rb.UNTIDY["card"]) + 0.3 * j * math.radians(6 * rb.UNTIDY["drift"])
        assert abs(b.angle - a.angle) < 6 * rb.UNTIDY["turn"]
        moved.setdefault((area, pile), []).append((b.x - a.x, b.y - a.y))
    # a pile's cards share its offset: their mean moves are far apart from pile to pile, their spread within a pile is small
    heads = np.array([v[0] for v in moved.values()])
    assert heads.std(axis=0).min() > 0.03
    longest = max((v for (area, _), v in moved.items() if area == "column"), key=len)
    assert len(longest) > 6 and np.abs(np.diff(np.array(longest), axis=0)).max() < 0.2


def test_a_larger_photo_frames_the_same_layout_scaled_up():
    # --size 4000x3000 (a phone) against the default 1920x1080: same deal and camera angle, the layout
    # only larger on the larger photo, in proportion to the side that limits the framing
    def shot(size):
        placements = rb.layout_placements(rb.make_state("kings", 7, 0), ASPECT, random.Random(7))
        return rb.table_camera(random.Random(7), placements, ASPECT, size=size)
    small, big = shot((1920, 1080)), shot((4000, 3000))
    assert big.size == (4000, 3000)
    pts = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0], [3.0, 4.0]])
    a, _ = _project(small.H, pts)
    b, _ = _project(big.H, pts)
    ratio = np.ptp(b, axis=0) / np.ptp(a, axis=0)
    assert ratio[0] == pytest.approx(ratio[1], rel=1e-6)         # same shape: only the scale changed
    assert min(4000 / 1920, 3000 / 1080) * 0.999 <= ratio[0] <= max(4000 / 1920, 3000 / 1080) * 1.001


@pytest.mark.parametrize("text,size", [("1920x1080", (1920, 1080)), ("4000X3000", (4000, 3000))])
def test_photo_size_reads_width_by_height(text, size):
    assert rb.photo_size(text) == size


@pytest.mark.parametrize("text", ["4000", "4000x", "axb", "10x10", "20000x3000"])
def test_photo_size_refuses_what_is_not_a_size(text):
    with pytest.raises(SystemExit, match="--size"):
        rb.photo_size(text)
