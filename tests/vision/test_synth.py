"""The scene generator labels exactly the visible corner indices."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="vision extra (opencv) is required", exc_type=ImportError)

from vision.decks import LABELS  # noqa: E402
from vision.synth import (VISIBLE_MIN, Camera, Placement, find_index_box, random_layout,  # noqa: E402
                          random_scene, render_scene, synthetic_deck, thin_strokes)


@pytest.fixture(scope="module")
def deck():
    return synthetic_deck(160)


def _plain_bg(cam):
    w, h = cam.size
    return np.full((h, w, 3), 90, np.float32)


def test_synthetic_deck_has_index_box_for_every_card(deck):
    assert set(deck.index_boxes) == set(LABELS)
    for label, (x0, y0, x1, y1) in deck.index_boxes.items():
        w, h = deck.size
        assert 0 <= x0 < x1 <= 0.3 * w and 0 <= y0 < y1 <= 0.42 * h, label


def test_find_index_box_ignores_blank_card():
    blank = np.full((232, 160, 4), 255, np.uint8)
    assert find_index_box(blank) is None


def test_single_card_top_down_labels_both_corners(deck):
    cam = Camera.top_down(size=(400, 400), center=(0, 0), card_px=150)
    rng = np.random.default_rng(0)
    s = render_scene([Placement("10h", 0, 0)], deck, cam, rng, background=_plain_bg(cam), photometric=False)
    lab = s.labelled()
    assert sorted(b.corner for b in lab) == ["br", "tl"]
    assert all(b.label == "10h" for b in lab)
    # the box is the deck's index box scaled by card_px / card width
    x0, y0, x1, y1 = deck.index_boxes["10h"]
    f = 150 / deck.size[0]
    tl = next(b for b in lab if b.corner == "tl")
    card_x0 = 200 - 75
    card_y0 = 200 - 75 * deck.aspect
    assert tl.xyxy[0] == pytest.approx(card_x0 + x0 * f, abs=1.0)
    assert tl.xyxy[1] == pytest.approx(card_y0 + y0 * f, abs=1.0)
    assert tl.xyxy[2] == pytest.approx(card_x0 + x1 * f, abs=1.0)
    # the pixels inside the box really are the index: darker than the paper
    bx0, by0, bx1, by1 = (int(round(v)) for v in tl.xyxy)
    assert s.image[by0:by1, bx0:bx1].min() < 120


def test_covered_index_is_not_labelled(deck):
    """A fanned column: each card covers the bottom index of the one under it."""
    cam = Camera.top_down(size=(500, 700), center=(0, 1.0), card_px=120)
    rng = np.random.default_rng(1)
    fan = 0.3 * deck.aspect
    pl = [Placement(l, 0, k * fan) for k, l in enumerate(["Ks", "Qh", "Jc", "10d"])]
    s = render_scene(pl, deck, cam, rng, background=_plain_bg(cam), photometric=False)
    lab = {(b.label, b.corner) for b in s.labelled()}
    # every top-left index shows; only the last card's bottom-right index shows
    assert lab == {("Ks", "tl"), ("Qh", "tl"), ("Jc", "tl"), ("10d", "tl"), ("10d", "br")}
    hidden = [b for b in s.index_boxes if b.corner == "br" and b.label != "10d"]
    assert all(b.visible < 0.05 for b in hidden)


def test_partly_covered_index_threshold(deck):
    """An index covered by more than 40 % is dropped, one covered a little is kept."""
    cam = Camera.top_down(size=(600, 600), center=(0, 0), card_px=150)
    x0, y0, x1, y1 = deck.index_boxes["As"]
    w, h = deck.size
    iw = (x1 - x0) / w  # index width in card widths
    # put a second card to the left of the first so that its right edge covers
    # a fraction c of the first card's top-left index box (from the left)
    out = {}
    for c in (0.15, 0.8):
        left_edge_of_index = -0.5 + x0 / w
        cover_to = left_edge_of_index + c * iw
        pl = [Placement("As", 0, 0), Placement("2c", cover_to - 0.5, 0.02)]
        s = render_scene(pl, deck, cam, np.random.default_rng(2), background=_plain_bg(cam), photometric=False)
        tl = next(b for b in s.index_boxes if b.label == "As" and b.corner == "tl")
        out[c] = tl.visible
        assert tl.visible == pytest.approx(1 - c, abs=0.08)
        assert (tl in s.labelled()) == (tl.visible >= VISIBLE_MIN)
    assert out[0.15] >= VISIBLE_MIN > out[0.8]


def test_out_of_frame_index_not_labelled(deck):
    cam = Camera.top_down(size=(300, 300), center=(0, 0), card_px=150)
    # card centred on the left border: its top-left index lies outside the image
    s = render_scene([Placement("9d", -1.0, 0)], deck, cam, np.random.default_rng(3),
                     background=_plain_bg(cam), photometric=False)
    assert all(b.corner != "tl" for b in s.labelled())


def test_face_down_cards_have_no_labels(deck):
    cam = Camera.top_down(size=(400, 400), center=(0, 0), card_px=150)
    s = render_scene([Placement("9d", 0, 0, face_up=False)], deck, cam, np.random.default_rng(4),
                     background=_plain_bg(cam), photometric=False)
    assert s.labelled() == []


def test_random_scenes_yolo_lines_are_valid(deck):
    rng = np.random.default_rng(5)
    for _ in range(3):
        s = random_scene([deck], rng, size=(320, 320))
        assert s.image.shape == (320, 320, 3)
        for ln in s.yolo_lines():
            c, cx, cy, w, h = ln.split()
            assert 0 <= int(c) < 52
            assert all(0 <= float(v) <= 1 for v in (cx, cy, w, h))
        # labelled boxes belong to cards that are in the layout and face up
        for b in s.labelled():
            assert s.cards[b.card].face_up and s.cards[b.card].label == b.label


def test_thin_strokes_thins_the_ink_and_keeps_the_boxes(deck):
    thin = thin_strokes(deck, 1, ["7s", "Kh"])
    assert set(thin.images) == {"7s", "Kh"} and thin.index_boxes == deck.index_boxes
    for label in ("7s", "Kh"):
        x0, y0, x1, y1 = deck.index_boxes[label]
        ink = lambda im: int((im[y0:y1, x0:x1, :3].min(axis=2) < 128).sum())  # noqa: E731
        before, after = ink(deck.images[label]), ink(thin.images[label])
        # thinner, but still there to be seen
        assert 0 < after < before, (label, before, after)
        assert np.array_equal(thin.images[label][..., 3], deck.images[label][..., 3])


def test_two_pack_layout_can_hold_duplicates():
    rng = np.random.default_rng(6)
    pl = random_layout(rng, 1.45, two_packs=True)
    assert {p.copy for p in pl} <= {0, 1}


# ------------------------------------------------------------ index finder on hand-drawn cards
def _card(w=200, h=300):
    im = np.zeros((h, w, 4), np.uint8)
    im[..., :3] = 245
    im[..., 3] = 255
    return im


def _ink(im, x0, y0, x1, y1):
    im[y0:y1, x0:x1, :3] = 20


def test_find_index_box_joins_a_thin_one_to_its_zero_and_the_suit_below():
    """A "10" whose "1" is a narrow bar left of a "0" ring, and a suit pip a wide gap below."""
    im = _card()
    _ink(im, 14, 20, 19, 60)                          # "1": 5 x 40, 8x taller than wide
    cv2.ellipse(im, (32, 40), (9, 19), 0, 0, 360, (20, 20, 20, 255), 4)   # "0", a little higher-left start
    _ink(im, 16, 84, 40, 104)                         # suit pip, 24 px below the rank (0.6 of its height)
    x0, y0, x1, y1 = find_index_box(im)
    assert x0 <= 14 and x1 >= 41, "both digits of the 10"
    assert y0 <= 21 and y1 >= 104, "rank and the suit below it"
    assert y1 <= 108 and x1 <= 46


def test_find_index_box_is_not_seeded_by_a_court_frame_line():
    """A court card's frame starts higher than its index: the thin line must not become the box."""
    im = _card()
    _ink(im, 30, 12, 33, 72)                          # frame line: 3 x 60, starts above the rank
    _ink(im, 12, 22, 26, 52)                          # rank
    _ink(im, 12, 58, 26, 74)                          # suit
    x0, y0, x1, y1 = find_index_box(im)
    assert x0 <= 12 and x1 <= 28, "the frame line is not part of the box"
    assert y0 <= 22 and 74 <= y1 <= 78


def test_find_index_box_ignores_the_big_pips_of_the_card_body():
    """The card body's pips may lie just below the index: a pip much larger than the rank is not its suit."""
    im = _card()
    _ink(im, 12, 20, 26, 45)                          # rank, 25 px tall
    _ink(im, 12, 50, 52, 110)                         # a body pip: 40 x 60 right under it
    x0, y0, x1, y1 = find_index_box(im)
    assert y1 <= 49 and x1 <= 30


def test_consistent_index_boxes_replaces_boxes_that_lost_their_suit():
    from vision.synth import consistent_index_boxes
    pip_box = (10, 20, 40, 100)
    found = {label: pip_box for label in LABELS}
    found["10s"] = (8, 20, 52, 100)                   # a wider "10": width is free
    found["Ks"] = (10, 20, 40, 55)                    # rank only: the picture swallowed the suit
    found["Qh"] = (60, 12, 64, 200)                   # a frame line
    found["Jd"] = None                                # nothing found
    boxes = consistent_index_boxes(found)
    assert boxes["10s"] == (8, 20, 52, 100)
    assert boxes["Ks"] == pip_box and boxes["Qh"] == pip_box and boxes["Jd"] == pip_box
    assert len(boxes) == 52


def test_hand_fans_turn_each_card_by_one_step_about_a_common_point():
    rng = np.random.default_rng(3)
    pl = random_layout(rng, 1.45, two_packs=False, kind="hands")
    assert len(pl) >= 3
    # the cards of the first fan: the leading run whose angles are one constant step apart
    steps = np.diff([p.angle for p in pl])
    n = 1 + next((i for i, d in enumerate(steps) if abs(d - steps[0]) > 1e-9), len(steps))
    first = pl[:n]
    assert len(first) >= 3 and 4 <= abs(steps[0]) <= 14
    # pivot = centre moved back down the card's own up-direction by the radius; the same for every card
    def pivot(p, r):
        t = np.radians(p.angle)
        return np.array([p.x - r * np.sin(t), p.y + r * np.cos(t)])
    a, b = first[0], first[1]
    # solve the radius from the first two cards, then every card of the fan must share the pivot
    ta, tb = np.radians(a.angle), np.radians(b.angle)
    r = (b.x - a.x) / (np.sin(tb) - np.sin(ta))
    piv = pivot(a, r)
    assert 0.5 * 1.45 - 1e-9 <= r <= 1.0 * 1.45 + 1e-9
    for p in first:
        assert np.allclose(pivot(p, r), piv, atol=1e-9)


def test_a_hand_fan_scene_labels_only_indices_left_in_view(deck):
    """In a fan turned clockwise each card leaves the index of the one below in view; the labels
    follow what is visible: every labelled box has at least the visible share, and no card is
    labelled more often than it has corners."""
    rng = np.random.default_rng(5)
    pl = random_layout(rng, deck.aspect, two_packs=False, kind="hands")
    cam = Camera.top_down(size=(640, 640), center=(np.mean([p.x for p in pl]), np.mean([p.y for p in pl])), card_px=70)
    scene = render_scene(pl, deck, cam, rng)
    boxes = scene.labelled()
    assert boxes and all(b.visible >= VISIBLE_MIN for b in boxes)
    counts = Counter(b.label for b in boxes)
    assert max(counts.values()) <= 2
    hidden = [b for b in scene.index_boxes if b.visible < VISIBLE_MIN]
    assert hidden, "the fan covers some indices"
