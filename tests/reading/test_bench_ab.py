"""The A/B reading benchmark loads another revision's reader from git (the project is a git clone, in CI
too) and reads with it."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import reading_ab  # noqa: E402

from advisor.engine import get_game  # noqa: E402
from vision.fake_sightings import camera, extent, sightings_for  # noqa: E402


def test_the_committed_reader_reads_a_dealt_layout_as_a_module_of_its_own():
    old = reading_ab.reader_at("HEAD")
    assert old.__name__ == "vision._reading_HEAD" and old.read_sightings is not reading_ab.current.read_sightings
    truth = get_game("aunty-allis").new(3)
    H = camera(random.Random(3), extent=extent(truth))
    kept = {"sights": sightings_for(truth, H, random.Random(3), jitter=0.02), "weak": [],
            "image": np.full((1080, 1920, 3), 90, np.uint8)}
    (state, doubts, message), seconds = reading_ab.read_once(old, "aunty-allis", kept)
    assert state is not None, message
    assert seconds > 0


def test_an_unknown_revision_is_a_clear_error():
    with pytest.raises(SystemExit, match="cannot read vision/reading.py at 'no-such-revision'"):
        reading_ab.reader_at("no-such-revision")
