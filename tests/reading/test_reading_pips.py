"""A card's pips settle its suit where the index classifier takes one suit of a colour for the other."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2", reason="vision extra (opencv) is required", exc_type=ImportError)

import vision.reading  # noqa: E402
from advisor.engine import State  # noqa: E402
from vision.reading import read_sightings  # noqa: E402
from vision.types import Sighting  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _photo():
    fx = json.loads((FIXTURES / "interregnum-pips-sightings.json").read_text())

    def sightings(rows):
        return [Sighting(label, tuple(box), conf, tuple((a, p) for a, p in readings)) for label, box, conf, readings in rows]

    image = cv2.imread(str(FIXTURES / "interregnum-pips.jpg"), cv2.IMREAD_COLOR)
    assert image is not None and (image.shape[1], image.shape[0]) == tuple(fx["image_size"])
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import reading_bench

    def read(with_image: bool):
        return read_sightings(sightings(fx["sightings"]), "interregnum", image_size=tuple(fx["image_size"]),
                              weak=sightings(fx["weak"]), image=image if with_image else None)
    return read, State.from_json(fx["truth"]), reading_bench.compare


def _suits(state: State) -> dict:
    return {(a, i, j): s.card.label for a, ps in state.areas.items() for i, p in enumerate(ps)
            for j, s in enumerate(p) if s.card is not None and s.face_up}


def test_the_pips_in_view_put_right_the_clubs_the_indices_read_as_spades(monkeypatch):
    # gnome-plastic (a deck held out of training): its index clubs are read as spades, sure of each;
    # the pips in the cards' bodies are plainly clubs. (The photo's suit balance, which turns some of
    # those clubs back from their indices' odds alone, is switched off: this is the pips' own part.)
    monkeypatch.setattr(vision.reading, "BALANCE_ALPHA", 0.0)
    read, truth, compare = _photo()
    without, with_pips = read(False), read(True)
    assert without.state is not None and with_pips.state is not None
    before = compare(truth, without.state, without.doubts, set())["wrong"]
    after = compare(truth, with_pips.state, with_pips.doubts, set())["wrong"]
    assert after < before
    true, was, now = _suits(truth), _suits(without.state), _suits(with_pips.state)
    # (places read empty without the pips may fill once the rules find the suits possible)
    mended = [k for k in now if was.get(k) not in (None, now[k]) and now[k] == true.get(k)]
    assert len(mended) >= 2 and all(true[k].endswith("c") and was[k] == true[k][:-1] + "s" for k in mended)


def test_no_photo_or_pips_switched_off_reads_by_the_indices_alone(monkeypatch):
    read, truth, compare = _photo()
    without = read(False)
    monkeypatch.setattr(vision.reading, "PIPS", 0)
    off = read(True)
    assert _suits(off.state) == _suits(without.state)


def test_a_colour_whose_pips_all_say_one_suit_is_left_to_the_indices(monkeypatch):
    # A deck whose pips the judge cannot tell apart gives one verdict for every card; the suits of a
    # deal split about evenly, so such pips are not believed. Here every pip is made to say spades.
    import vision.pips
    read, truth, compare = _photo()
    without = read(False)
    monkeypatch.setattr(vision.pips, "pip_log_odds", lambda view, hidden, colour, judge, ace=False: [-3.0, -3.0])
    biased = read(True)
    assert _suits(biased.state) == _suits(without.state)


def test_a_suit_changed_on_few_pips_stays_a_doubt_that_names_both_readings():
    read, truth, compare = _photo()
    with_pips = read(True)
    now = _suits(with_pips.state)
    few = [d for d in with_pips.doubts if "in view look" in d.message]
    assert few
    for d in few:
        label = now[(d.area, d.pile, d.index)]
        assert d.kind == "low-confidence" and label.endswith("c")
        assert f"its index reads {label[:-1]}♠" in d.message and f"read as {label[:-1]}♣" in d.message
