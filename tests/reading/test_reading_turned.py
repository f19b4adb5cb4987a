"""Photos that show the layout on its side: a phone held across the table, or one that wrote the wrong turn
into the photo's EXIF (pointed straight down at a table, a phone cannot tell which way is up).

The reader turns a layout only a little either way, so such a photo was refused. Its indices lie on their side,
which says so: the photo is read turned a quarter each way, and the better reading kept
(``vision.reading.read_photo_sightings``).
"""
from __future__ import annotations

import io

import numpy as np
import pytest

from advisor.engine import CARD_ASPECT, get_game
from vision import reading
from vision.reading import _turn_box, photo_turns, read_photo_sightings, read_sightings, turn_sightings
from vision.types import Sighting

from test_reading import SIZE, photo, visible_equal


def test_a_box_turns_as_the_photo_does():
    img = np.zeros((60, 100), np.uint8)
    img[10:25, 30:38] = 1                       # the box (30, 10, 38, 25) of a 100 x 60 photo
    for k in (1, 2, 3):
        ys, xs = np.nonzero(np.rot90(img, k))
        assert _turn_box((30, 10, 38, 25), k, 100, 60) == (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
    # a quarter turn one way and three the other bring the box back
    assert _turn_box(_turn_box((30, 10, 38, 25), 1, 100, 60), 3, 60, 100) == (30, 10, 38, 25)


def _boxes(aspect: float, n: int = 9, conf: float = 0.9) -> list[Sighting]:
    return [Sighting("7h", (10.0 * i, 0.0, 10.0 * i + 20.0, 20.0 * aspect), conf) for i in range(n)]


def test_which_way_the_photo_is_read_follows_the_indices():
    assert photo_turns(_boxes(2.0)) == [(0,)]                  # indices upright: read as it is
    assert photo_turns(_boxes(0.5)) == [(1, 3)]                # on their side: a quarter turn each way
    assert photo_turns(_boxes(1.0)) == [(0,), (1, 3)]          # aslant: upright, and turned if refused there
    assert photo_turns(_boxes(0.5, n=2)) == [(0,)]             # too few to tell
    assert photo_turns(_boxes(0.5, conf=0.3)) == [(0,)]        # only unsure boxes say so


@pytest.mark.parametrize("k", [1, 3])
def test_a_layout_photographed_on_its_side_is_read_turned(k):
    truth = get_game("senior-wrangler").new(1)
    sights, _ = photo(truth, 1)
    w, h = SIZE
    turned = turn_sightings(sights, k, w, h)        # the photo turned k quarter turns: h x w
    assert read_sightings(turned, "senior-wrangler", image_size=(h, w)).state is None, "read upright after all"
    r = read_photo_sightings(None, turned, [], "senior-wrangler", image_size=(h, w))
    assert r.state is not None, r.message
    assert visible_equal(truth, r.state) == []
    assert r.turned == 4 - k and r.to_json()["turned_degrees"] == 90 * (4 - k)
    # the boxes are given back where they lie in the photo as given (the page draws them on it)
    given = {tuple(np.round(s.box, 3)) for s in turned}
    assert r.sightings and all(tuple(np.round(s.box, 3)) in given for s in r.sightings)


def test_an_upright_photo_is_read_once(monkeypatch):
    truth = get_game("senior-wrangler").new(1)
    sights, _ = photo(truth, 1)
    calls = []
    real = reading.read_sightings
    monkeypatch.setattr(reading, "read_sightings", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    r = read_photo_sightings(None, sights, [], "senior-wrangler", image_size=SIZE)
    assert r.state is not None and r.turned == 0 and len(calls) == 1
    assert visible_equal(truth, r.state) == []


def test_read_layout_reads_a_photo_turned_a_quarter(monkeypatch):
    # the whole chain, the detector aside: a blank photo of the turned size; the stand-in detector gives the
    # sightings as they lie in whichever way round it is shown the photo
    import vision
    from PIL import Image
    truth = get_game("senior-wrangler").new(1)
    sights, _ = photo(truth, 1)
    w, h = SIZE
    shown = []

    def detect(image, **kw):
        k = 1 if image.shape[:2] == (w, h) else 2        # the photo as given, or as turned a quarter by the reader
        shown.append(k)
        return turn_sightings(sights, k, w, h)
    monkeypatch.setattr(vision, "detect", detect, raising=False)
    buf = io.BytesIO()
    Image.new("RGB", (h, w), (30, 90, 40)).save(buf, format="PNG")
    r = vision.read_layout(buf.getvalue(), "senior-wrangler")
    assert r.state is not None, r.message
    assert visible_equal(truth, r.state) == []
    assert r.turned == 3
    assert shown == [1, 2]          # the indices lay on their side: looked at again with them upright (or upside down)
    given = {tuple(np.round(s.box, 3)) for s in turn_sightings(sights, 1, w, h)}
    assert all(tuple(np.round(s.box, 3)) in given for s in r.sightings)


@pytest.mark.parametrize("gid, seed", [("senior-wrangler", 1), ("captain-spaulding", 1), ("kings", 2), ("seven-and-six", 1)])
def test_a_layout_photographed_from_across_the_table_is_read_upside_down(gid, seed, monkeypatch):
    # (a layout the reader takes for one read upright, rows swapped, is not read again: see HALF_TURN_LOOK)
    truth = get_game(gid).new(seed)
    sights, _ = photo(truth, seed)
    w, h = SIZE
    upside_down = turn_sightings(sights, 2, w, h)
    r = read_photo_sightings(None, upside_down, [], gid, image_size=SIZE)
    assert r.state is not None, r.message
    assert visible_equal(truth, r.state) == []
    assert r.turned == 2
    monkeypatch.setattr(reading, "HALF_TURN_LOOK", 0)
    assert read_photo_sightings(None, upside_down, [], gid, image_size=SIZE).state is None   # refused as it is


def test_of_two_readings_a_half_turn_apart_the_better_scored_is_kept_and_a_tie_is_told():
    from dataclasses import replace as copy_with
    from advisor.engine import State
    truth = get_game("senior-wrangler").new(1)
    sights, _ = photo(truth, 1)
    a = read_sightings(sights, "senior-wrangler", image_size=SIZE)
    assert a.state is not None and a.score is not None
    other = State.from_json(a.state.to_json())
    other.areas["column"][0], other.areas["column"][7] = other.areas["column"][7], other.areas["column"][0]
    b = copy_with(a, state=other, doubts=[], turned=2)
    a.turned = 0
    # scores apart by more than the tie: the better kept, nothing said
    b.score = a.score - 2 * reading.TURN_TIE
    kept = reading._better_turn((a, None, SIZE), (b, None, SIZE))
    assert kept[0] is a and not any(d.kind == "ambiguous" for d in a.doubts)
    # a tie, the same slant: the better scored kept, and a doubt says which edge was taken as the player's
    b.score = a.score - reading.TURN_TIE / 3
    kept = reading._better_turn((a, None, SIZE), (b, None, SIZE))
    assert kept[0] is a and "bottom edge nearest you" in a.doubts[0].message and a.doubts[0].kind == "ambiguous"
    # a tie, but b's layout looks larger at its near edge: b kept
    a.doubts.pop(0)
    far_small = np.diag([1.0, 1.0, 1.0])
    far_small[2, 1] = -0.02                   # points further along y (nearer the player) look larger
    b.alignment = a.alignment @ far_small
    assert reading._near_over_far(b) > reading._near_over_far(a) + reading.PERSPECTIVE_MARGIN
    kept = reading._better_turn((a, None, SIZE), (b, None, SIZE))
    assert kept[0] is b and not any(d.kind == "ambiguous" for d in a.doubts + b.doubts)


def test_which_layouts_look_the_same_turned_half_round():
    from advisor.engine import Area, Layout
    alike = {gid for gid in ("interregnum", "senior-wrangler", "kings", "seven-and-six", "pendulum", "aunty-allis",
                             "captain-spaulding", "uncle-remus", "poker-patience")
             if reading._half_turn_alike(get_game(gid).layout({}))}
    assert alike == {"interregnum"}         # three rows of eight whole cards; the stock, face down, shows no index
    row = Area("row", "row", 3, origin=(0.0, 0.0), step=(1.2, 0.0))
    assert reading._half_turn_alike(Layout((row,)))
    # one card more at one end of the row below: turned round, it lies at the other end, where there is none
    assert not reading._half_turn_alike(Layout((row, Area("spare", "row", 1, origin=(0.0, 2.0)))))
    # fanned towards the player, a column turned round fans away: not alike
    assert not reading._half_turn_alike(Layout((Area("column", "column", 3, fan=(0.0, 0.3)),)))


def _interregnum_photos(tilt: float):
    truth = get_game("interregnum").new(3)
    sights, H = photo(truth, 3, tilt=tilt)
    w, h = SIZE
    return truth, sights, turn_sightings(sights, 2, w, h), H


def test_an_interregnum_photo_seen_straight_from_above_is_read_with_a_doubt_either_way_round():
    # Its rows of whole cards fit the photo as well either way round, and with no slant nothing tells which edge
    # is the player's: the photo is read as given, and the reading says so. (Until session 58 the photo upside
    # down was read with every card in the other row, and nothing said.)
    truth, upright, upside_down, _ = _interregnum_photos(tilt=0.0)
    r = read_photo_sightings(None, upright, [], "interregnum", image_size=SIZE)
    assert r.turned == 0 and visible_equal(truth, r.state) == []
    assert [d.kind for d in r.doubts if d.kind == "ambiguous"] == ["ambiguous"]
    r = read_photo_sightings(None, upside_down, [], "interregnum", image_size=SIZE)
    assert r.turned == 0 and visible_equal(truth, r.state) != []           # the cards in the rows the other way round
    assert any(d.kind == "ambiguous" and "bottom edge nearest you" in d.message for d in r.doubts)


def test_an_interregnum_photo_taken_at_a_slant_is_read_the_right_way_round_whichever_way_up_it_is():
    truth, upright, upside_down, _ = _interregnum_photos(tilt=0.25)
    r = read_photo_sightings(None, upright, [], "interregnum", image_size=SIZE)
    assert r.turned == 0 and visible_equal(truth, r.state) == []
    assert reading._near_over_far(r) >= reading.PERSPECTIVE_MARGIN            # (the fake camera's slant tells)
    assert not any(d.kind == "ambiguous" for d in r.doubts)
    r = read_photo_sightings(None, upside_down, [], "interregnum", image_size=SIZE)
    assert r.turned == 2 and visible_equal(truth, r.state) == []
    assert not any(d.kind == "ambiguous" for d in r.doubts)


def test_a_reading_is_checked_upside_down_when_it_scores_low_or_its_near_edge_looks_small():
    truth = get_game("senior-wrangler").new(1)
    sights, _ = photo(truth, 1)
    r = read_sightings(sights, "senior-wrangler", image_size=SIZE)
    assert r.score >= reading.HALF_TURN_BELOW and reading._near_over_far(r) > -reading.UPSIDE_DOWN_SLANT
    assert not reading._may_be_upside_down(r)
    r.score = reading.HALF_TURN_BELOW - 0.01
    assert reading._may_be_upside_down(r)
    r.score = 0.9
    near_small = np.eye(3)
    near_small[2, 1] = 0.03                   # points further along y (nearer the player) look smaller
    r.alignment = r.alignment @ near_small
    assert reading._may_be_upside_down(r)


def _interregnum_table_with_its_stock(H: np.ndarray) -> np.ndarray:
    """A bare wooden table, and the stock's back where the fake camera ``H`` puts it."""
    import cv2
    w, h = SIZE
    img = np.full((h, w, 3), (60, 110, 160), np.uint8)
    x, y = get_game("interregnum").layout({})["stock"].position(0, 0)
    corners = np.array([[x, y, 1], [x + 1, y, 1], [x + 1, y + CARD_ASPECT, 1], [x, y + CARD_ASPECT, 1]], float) @ H.T
    cv2.fillConvexPoly(img, np.round(corners[:, :2] / corners[:, 2:]).astype(np.int32), (40, 40, 150))
    return img


def test_where_the_slant_does_not_tell_the_stock_seen_on_the_table_tells_which_way_round():
    # Straight from above, Interregnum's rows read as well either way round; its stock, a pile of backs to the
    # right of the lowest row, is where one reading puts it and not where the other does.
    truth, upright, upside_down, H = _interregnum_photos(tilt=0.0)
    w, h = SIZE
    img = _interregnum_table_with_its_stock(H)
    r = read_photo_sightings(img, upright, [], "interregnum")
    assert r.turned == 0 and visible_equal(truth, r.state) == []
    assert not any(d.kind == "ambiguous" for d in r.doubts)
    r = read_photo_sightings(np.ascontiguousarray(img[::-1, ::-1]), upside_down, [], "interregnum")
    assert r.turned == 2 and visible_equal(truth, r.state) == []
    assert not any(d.kind == "ambiguous" for d in r.doubts)
    # the stock not shown (the table bare there): the photo is read as given, with the doubt, as before
    bare = np.full((h, w, 3), (60, 110, 160), np.uint8)
    r = read_photo_sightings(bare, upside_down, [], "interregnum")
    assert r.turned == 0 and any(d.kind == "ambiguous" for d in r.doubts)


def test_a_photo_refused_as_it_is_keeps_a_weak_upside_down_reading_only_if_its_near_edge_looks_larger(monkeypatch):
    truth = get_game("senior-wrangler").new(1)
    sights, _ = photo(truth, 1, tilt=0.25)
    w, h = SIZE
    upside_down = turn_sightings(sights, 2, w, h)
    r = read_photo_sightings(None, upside_down, [], "senior-wrangler", image_size=SIZE)
    assert r.turned == 2 and reading._near_over_far(r) >= reading.PERSPECTIVE_MARGIN
    # as if it had scored under HALF_TURN_KEEP: kept for its slant, and refused without that second chance
    monkeypatch.setattr(reading, "HALF_TURN_KEEP", r.score + 0.01)
    assert read_photo_sightings(None, upside_down, [], "senior-wrangler", image_size=SIZE).turned == 2
    monkeypatch.setattr(reading, "HALF_TURN_SLANTED", r.score + 0.01)
    assert read_photo_sightings(None, upside_down, [], "senior-wrangler", image_size=SIZE).state is None


@pytest.mark.parametrize("k", [1, 3])
def test_an_interregnum_photo_on_its_side_is_read_the_right_way_round_by_its_stock(k):
    # Read a quarter turn each way, its two readings score alike but for noise: the stock tells, not the scores.
    truth, upright, _, H = _interregnum_photos(tilt=0.0)
    w, h = SIZE
    img = np.ascontiguousarray(np.rot90(_interregnum_table_with_its_stock(H), k))
    r = read_photo_sightings(img, turn_sightings(upright, k, w, h), [], "interregnum")
    assert r.turned == 4 - k and visible_equal(truth, r.state) == []
    assert not any(d.kind == "ambiguous" for d in r.doubts)


def test_for_a_layout_alike_turned_round_the_scores_do_not_choose_the_way_round(monkeypatch):
    from dataclasses import replace as copy_with
    from advisor.engine import State
    truth, upright, _, _ = _interregnum_photos(tilt=0.25)
    a = read_sightings(upright, "interregnum", image_size=SIZE)
    other = State.from_json(a.state.to_json())
    other.areas["top"], other.areas["bottom"] = other.areas["bottom"], other.areas["top"]
    near_small = np.eye(3)
    near_small[2, 1] = 0.03                   # b's near edge looks smaller: the slant says a
    b = copy_with(a, state=other, doubts=[], turned=2, alignment=a.alignment @ near_small, score=a.score + 2 * reading.TURN_TIE)
    assert reading._near_over_far(a) > reading._near_over_far(b) + reading.PERSPECTIVE_MARGIN
    assert reading._better_turn((a, None, SIZE), (b, None, SIZE))[0] is a
    # the same two readings of a layout that is not alike turned round: the better score wins
    monkeypatch.setattr(reading, "_half_turn_alike", lambda layout: False)
    assert reading._better_turn((a, None, SIZE), (b, None, SIZE))[0] is b
