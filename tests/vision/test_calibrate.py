"""Extra looks of stage 1, the joint score of both stages, and fitting it on labelled scenes."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

pytest.importorskip("onnxruntime", reason="vision extra (onnxruntime) is required", exc_type=ImportError)

from vision.calibrate import best_threshold, fit_logistic, right_boxes, threshold_for_precision  # noqa: E402
from vision.detector import (DEFAULT_MODEL, Candidates, Detector, JointScore, fuse_looks, unview,  # noqa: E402
                             view)
from vision.types import Sighting, VisionError  # noqa: E402


@pytest.mark.parametrize("name", ["turn", "mirror", "flip"])
def test_a_box_found_in_a_view_maps_back_onto_the_photo(name):
    img = np.zeros((60, 100, 3), np.uint8)
    img[10:20, 30:35] = 255                      # a white patch at x 30..35, y 10..20
    v = view(img, name)
    ys, xs = np.nonzero(v[..., 0])
    seen = np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], float)
    assert unview(seen, name, 100, 60).tolist() == [[30, 10, 35, 20]]


def test_unknown_view_is_named():
    with pytest.raises(VisionError, match="sideways"):
        view(np.zeros((2, 2, 3), np.uint8), "sideways")


def test_fusing_looks_averages_agreeing_boxes_and_halves_a_lone_one():
    a = (np.array([[0, 0, 10, 20], [50, 50, 60, 70]], float), np.array([0.8, 0.6]), np.zeros(2, int))
    b = (np.array([[1, 0, 11, 20]], float), np.array([0.4]), np.zeros(1, int))
    B, S, _ = fuse_looks([a, b])
    got = {tuple(np.round(x, 3)): s for x, s in zip(B, S)}
    # seen by both looks: mean score, box weighted by score (0.8 at x0 = 0, 0.4 at x0 = 1)
    assert got[(round(0.4 / 1.2, 3), 0, round(10 + 0.4 / 1.2, 3), 20)] == pytest.approx(0.6)
    # seen by one look of two: half its score
    assert got[(50, 50, 60, 70)] == pytest.approx(0.3)
    assert len(S) == 2


def test_fusing_keeps_two_nearby_indices_of_one_look_apart():
    """Two boxes of the same look are never merged with each other, however close."""
    a = (np.array([[0, 0, 10, 20], [1, 0, 11, 20]], float), np.array([0.9, 0.5]), np.zeros(2, int))
    B, S, _ = fuse_looks([a, None])
    assert sorted(S.tolist()) == pytest.approx([0.25, 0.45])
    assert fuse_looks([None, None]) is None


def test_joint_score_is_a_logistic_of_the_two_stages():
    j = JointScore(stage1_logit=1.0, log_p_card=2.0, log_p_not_index=0.0, bias=0.5)
    s, p = 0.5, np.exp(-0.25)                    # logit(0.5) = 0, log p = -0.25
    assert j(np.array([s]), np.array([p]), np.array([0.01]))[0] == pytest.approx(1 / (1 + np.exp(-(0 - 0.5 + 0.5))),
                                                                              abs=1e-4)
    assert JointScore.from_dict(j.as_dict()) == j
    with pytest.raises(VisionError, match="score"):
        JointScore.from_dict({"stage1_logit": 1})


def test_logistic_fit_recovers_a_known_rule():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 2))
    true = np.array([2.0, -1.0, 0.5])
    y = (rng.random(4000) < 1 / (1 + np.exp(-(X @ true[:2] + true[2])))).astype(float)
    assert fit_logistic(X, y) == pytest.approx(true, abs=0.2)


def _cand(boxes, stage1, cards, names):
    P = np.full((len(boxes), len(names) + 1), 0.001)
    for i, c in enumerate(cards):
        P[i, names.index(c)] = 0.9
    return Candidates(np.array(boxes, float), np.array(stage1, float), P, np.zeros(len(boxes), int))


def test_right_boxes_need_the_right_card_and_overlap_and_count_each_label_once():
    names = ["As", "Kh"]
    gt = [("As", (0, 0, 10, 20))]
    c = _cand([[0, 0, 10, 20], [0, 0, 10, 19], [0, 0, 10, 20], [30, 30, 40, 50]], [0.9, 0.5, 0.9, 0.9],
              ["As", "As", "Kh", "As"], names)
    # the surest As box takes the label; the second As box is a duplicate, the Kh box names the
    # wrong card and the last box is elsewhere
    assert right_boxes(c, gt, names).tolist() == [1, 0, 0, 0]


def test_best_threshold_separates_right_from_wrong():
    box = (0, 0, 10, 20)
    items = [([("As", box)], [Sighting("As", box, 0.7), Sighting("Kh", (50, 50, 60, 70), 0.3)])]
    assert 0.3 < best_threshold(items) <= 0.7


def test_detector_reads_views_and_score_from_its_settings(tmp_path):
    for f in DEFAULT_MODEL.parent.glob("cards_*.onnx"):
        shutil.copy(f, tmp_path / f.name)
    cfg = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    cfg.update(views=["turn"], score={"stage1_logit": 1.0, "log_p_card": 2.5, "log_p_not_index": -0.3, "bias": 0.3},
               read_conf=0.3)
    (tmp_path / "cards_detector.json").write_text(json.dumps(cfg))
    d = Detector(tmp_path / "cards_detector.onnx")
    assert d.views == ("turn",) and d.joint == JointScore(1.0, 2.5, -0.3, 0.3) and d.read_conf == 0.3
    cfg["views"] = ["sideways"]
    (tmp_path / "cards_detector.json").write_text(json.dumps(cfg))
    with pytest.raises(VisionError, match="sideways"):
        Detector(tmp_path / "cards_detector.onnx")


def test_threshold_for_precision_is_the_lowest_that_keeps_it():
    box = (0, 0, 10, 20)
    items = [([("As", box), ("Kh", (30, 0, 40, 20))],
              [Sighting("As", box, 0.8), Sighting("Qd", (60, 0, 70, 20), 0.5), Sighting("Kh", (30, 0, 40, 20), 0.3)])]
    # at 0.3 and below: 2 right of 3; above 0.3 up to 0.5: 1 of 2; above 0.5: 1 of 1
    assert threshold_for_precision(items, 0.6) == pytest.approx(0.02)
    assert threshold_for_precision(items, 0.9) == pytest.approx(0.51)
