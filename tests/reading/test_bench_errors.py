"""benchmarks/reading_errors.py sorts a reading's wrong cards by kind, as the benchmark counts them."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import reading_bench as rb  # noqa: E402
import reading_errors as re_  # noqa: E402

from advisor.cards import Card  # noqa: E402
from advisor.engine import Slot, get_game  # noqa: E402
from vision.reading import Doubt  # noqa: E402


def _face_up(state, area, pile):
    return [j for j, s in enumerate(state.areas[area][pile]) if s.face_up and s.card is not None]


def test_wrong_cards_are_sorted_by_kind_and_add_up_to_the_benchmarks_count():
    truth = get_game("senior-wrangler").new(7)
    read = truth.copy()
    col = read.areas["column"]
    j0, j1, j2, j3 = _face_up(read, "column", 0)[:4]
    c = col[0][j0].card
    partner = {"c": "s", "s": "c", "h": "d", "d": "h"}[c.suit]
    col[0][j0] = Slot(Card(c.rank, partner), True)                                     # suit, same colour
    c = col[0][j1].card
    col[0][j1] = Slot(Card(c.rank, "h" if c.suit in "cs" else "s"), True)             # suit, other colour
    c = col[0][j2].card
    col[0][j2] = Slot(Card(c.rank % 13 + 1, c.suit), True)                             # rank
    col[0][j3] = Slot(None, True)                                                      # unread
    del col[1][-1]                                                                     # a pile one card short
    kinds = re_.kinds_of_errors(truth, read)
    assert kinds == {"suit, same colour": 1, "suit, other colour": 1, "rank": 1, "unread": 1, "pile length": 1}
    assert sum(kinds.values()) == rb.compare(truth, read, [])["wrong"]
    # a doubt on column 1's second card leaves the other wrong cards unflagged; one on column 2 flags its pile
    doubts = [Doubt("x", "column", 0, j1, "low-confidence"), Doubt("y", "column", 1, None, "count")]
    assert re_.kinds_of_errors(truth, read, doubts, unflagged_only=True) == {"suit, same colour": 1, "rank": 1,
                                                                              "unread": 1}
    # no state: every card of the photo
    assert re_.kinds_of_errors(truth, None) == {"refused": rb.compare(truth, None, [])["wrong"]}


def test_read_conf_splits_the_kept_sightings_again_and_refuses_a_threshold_under_the_weakest_kept():
    import pytest

    from vision.reading import WEAK_CONF
    from vision.types import Sighting
    kept = [Sighting("As", (0, 0, 1, 1), 0.5), Sighting("2s", (0, 0, 1, 1), 0.12)]
    weak = [Sighting("3s", (0, 0, 1, 1), 0.08), Sighting("4s", (0, 0, 1, 1), 0.04)]
    strong, faint = re_.split_at(kept, weak, 0.07)
    assert [s.label for s in strong] == ["As", "2s", "3s"] and [s.label for s in faint] == ["4s"]
    strong, faint = re_.split_at(kept, weak, 0.2)
    assert [s.label for s in strong] == ["As"] and [s.label for s in faint] == ["2s", "3s", "4s"]
    with pytest.raises(SystemExit, match="at least"):
        re_.main(["--read-conf", str(WEAK_CONF / 2)])


def test_set_changes_a_readers_constant_and_refuses_one_it_does_not_have(monkeypatch):
    import pytest

    import reading_cache as rc
    import vision.reading as reading
    monkeypatch.setattr(reading, "PIPS", reading.PIPS)          # restored after the test
    rc.apply_settings(["PIPS=0"])
    assert reading.PIPS == 0 and isinstance(reading.PIPS, int)
    with pytest.raises(SystemExit, match="NO_SUCH_THING"):
        rc.apply_settings(["NO_SUCH_THING=1"])


def test_build_with_photos_detects_the_kept_photos_again_without_rendering(monkeypatch, tmp_path):
    # Another detector is compared on the very same photos: build --photos takes each layout's photo,
    # truth and deck from a folder already built and only runs the detector again.
    import pickle

    import numpy as np
    import pytest

    import reading_cache as rc
    from vision.synth import synthetic_deck
    deck = synthetic_deck(120, seed=3)
    calls = []

    def detector(tag):
        def detect(image):
            calls.append((tag, image.shape))
            return [], []
        return detect
    monkeypatch.setattr(rb, "decks_and_detector", lambda args: ([deck], detector("first")))
    first, second = tmp_path / "first", tmp_path / "second"
    rc.main(["build", "--games", "poker-patience", "--layouts", "1", "--dir", str(first), "--size", "320x240"])
    monkeypatch.setattr(rb, "decks_and_detector", lambda args: ([deck], detector("second")))

    def no_render(*a, **kw):
        raise AssertionError("the photo should have been taken from --photos")
    monkeypatch.setattr(rb, "render_layout", no_render)
    rc.main(["build", "--games", "poker-patience", "--layouts", "1", "--dir", str(second), "--photos", str(first)])
    assert [tag for tag, _ in calls] == ["first", "second"]
    a, b = (rc._load(d / "poker-patience" / "1000.pkl") for d in (first, second))
    assert np.array_equal(a["image"], b["image"]) and a["image"].shape == (240, 320, 3)
    assert a["truth"] == b["truth"] and b["deck"] == deck.name
    # without a kept photo there, it renders as before
    with pytest.raises(AssertionError, match="--photos"):
        rc.main(["build", "--games", "poker-patience", "--layouts", "1", "--seed", "1001", "--dir", str(second),
                 "--photos", str(first)])
    assert pickle.loads((first / "poker-patience" / "1000.pkl").read_bytes())["deck"] == deck.name


def test_read_turn_gives_the_kept_photo_and_its_detections_turned_alike():
    # (``read --turn 2``: the kept photos as if taken from across the table)
    import numpy as np

    import reading_cache as rc
    from vision.types import Sighting
    img = np.zeros((60, 100, 3), np.uint8)
    img[10:25, 30:38] = 255                                      # the box (30, 10, 38, 25) is the only ink
    sights, weak = [Sighting("7h", (30.0, 10.0, 38.0, 25.0), 0.9)], [Sighting("8h", (0.0, 0.0, 4.0, 6.0), 0.05)]
    assert rc.turned_photo(img, sights, weak, 0) == (img, sights, weak)
    for k in (1, 2, 3):
        turned, s, w = rc.turned_photo(img, sights, weak, k)
        ys, xs = np.nonzero(turned[..., 0])
        assert s[0].box == (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1) and s[0].label == "7h"
        assert len(w) == 1 and w[0].label == "8h"
