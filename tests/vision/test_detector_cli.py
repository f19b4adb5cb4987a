"""Run-time detector on committed fixtures, CLI file formats, and bad input."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="vision extra (opencv) is required", exc_type=ImportError)
pytest.importorskip("onnxruntime", reason="vision extra (onnxruntime) is required", exc_type=ImportError)

from patience.cli import main  # noqa: E402
from vision import Sighting, VisionError, detect  # noqa: E402
from vision.decks import LABELS  # noqa: E402
from vision.detector import DEFAULT_MODEL, REGION_MARGIN, Detector, nms, tile_origins  # noqa: E402
from vision.evaluate import compute_metrics, read_names, read_yolo_labels  # noqa: E402
from vision.imageio import load_image  # noqa: E402

FIX = Path(__file__).parent / "fixtures"
IMAGES = sorted((FIX / "images").glob("*.jpg"))


def test_model_is_committed():
    assert DEFAULT_MODEL.is_file(), f"{DEFAULT_MODEL} missing: run scripts/vision_pipeline.py"


@pytest.fixture(scope="module")
def det():
    return Detector()


def test_tile_origins_cover_with_overlap():
    for L in (640, 1080, 1920, 4032):
        o = tile_origins(L, 640, 96)
        assert o[0] == 0 and o[-1] + 640 >= L
        for a, b in zip(o, o[1:]):
            assert a + 640 - b >= 96
    assert tile_origins(300, 640, 96) == [0]


def test_nms_keeps_best_of_overlapping():
    b = np.array([[0, 0, 10, 20], [1, 0, 11, 20], [50, 50, 60, 70]], float)
    s = np.array([0.5, 0.9, 0.3])
    assert nms(b, s, 0.5) == [1, 2]


def test_detector_finds_fixture_indices(det):
    """Committed rendered scenes (one from a held-out deck): most indices found, few false ones."""
    names = read_names(FIX / "names.txt")
    items = []
    for f in IMAGES:
        img = load_image(f)
        gt = read_yolo_labels(FIX / "labels" / f"{f.stem}.txt", names, img.shape[1], img.shape[0])
        items.append((gt, det(img, conf=0.01, scale=det.scene_scale)))
    m = compute_metrics(items, conf=det.default_conf)
    assert m.boxes >= 50
    assert m.recall >= 0.6, m.as_dict()
    assert m.precision >= 0.6, m.as_dict()


def test_rescale_brings_the_typical_index_to_the_models_size(det):
    """The second look: indices found 32 px long at scale 0.5, a model that knows 16 px -> scale 0.25."""
    px = det.index_px or 16.0
    boxes = np.array([[0, 0, 2 * px * 0.4, 2 * px]] * 8, float)
    found = (boxes, np.full(8, 0.9), np.zeros(8, int))
    d = Detector(index_px=px)
    assert d.rescale(found, 0.5) == pytest.approx(0.25)
    assert d.rescale((boxes / 2, found[1], found[2]), 0.5) == 0.5     # already the right size: no second look
    assert d.rescale((boxes, np.full(8, 0.1), found[2]), 0.5) == 0.5  # nothing sure enough to measure
    assert d.rescale(None, 0.5) == 0.5


def test_a_closer_camera_still_finds_the_indices(det):
    """The same table photographed twice as close (the fixture blown up 2x): with the second look
    the detector finds about as much as at the scale it was made for; at a fixed scale it would not."""
    assert det.index_px > 0, "the bundled settings should enable the second look"
    names = read_names(FIX / "names.txt")
    near, fixed = [], []
    for f in IMAGES:
        img = load_image(f)
        big = cv2.resize(img, None, fx=4.0, fy=4.0, interpolation=cv2.INTER_CUBIC)  # 2x the 1080p-sized table
        gt = [(lab, tuple(4 * v for v in box)) for lab, box in
              read_yolo_labels(FIX / "labels" / f"{f.stem}.txt", names, img.shape[1], img.shape[0])]
        near.append((gt, det(big, conf=0.01)))
        fixed.append((gt, Detector(index_px=0)(big, conf=0.01)))
    m, m_fixed = compute_metrics(near, conf=det.default_conf), compute_metrics(fixed, conf=det.default_conf)
    assert m.recall >= 0.6 and m.precision >= 0.6, m.as_dict()
    assert m.recall > m_fixed.recall + 0.2, (m.as_dict(), m_fixed.as_dict())


def test_layout_region_spans_the_found_indices_with_a_margin():
    """Boxes found at scale 0.5 -> the photo's part they span, REGION_MARGIN index lengths wider, inside the photo."""
    boxes = np.array([[400, 300, 410, 325]] * 6 + [[600, 500, 610, 525]] * 6, float)   # 25 px long at scale 0.5
    found = (boxes, np.full(12, 0.9), np.zeros(12, int))
    pad = REGION_MARGIN * 25 / 0.5
    assert Detector.layout_region(found, 0.5, 4000, 3000) == (int(800 - pad), int(600 - pad),
                                                             int(1220 + pad), int(1050 + pad))
    assert Detector.layout_region(found, 0.5, 1300, 1200) == (int(800 - pad), int(600 - pad), 1300, 1200)  # clipped
    assert Detector.layout_region((boxes, np.full(12, 0.1), found[2]), 0.5, 700, 500) is None   # nothing measured
    assert Detector.layout_region(None, 0.5, 700, 500) is None


def test_a_far_camera_looks_again_only_at_the_layout(det, monkeypatch):
    """A fixture scene in one corner of a much larger table photo (a far camera): the final looks see
    only the layout's part of the photo, and the boxes still land where the indices are in the whole photo,
    as well found as when the whole photo is looked at."""
    names = read_names(FIX / "names.txt")
    img = load_image(IMAGES[0])
    photo = np.full((1440, 2560, 3), (60, 90, 40), np.uint8)    # plain green baize
    x0, y0 = 1700, 650
    photo[y0:y0 + img.shape[0], x0:x0 + img.shape[1]] = img
    gt = [(lab, (a + x0, b + y0, c + x0, d + y0)) for lab, (a, b, c, d) in
          read_yolo_labels(FIX / "labels" / f"{IMAGES[0].stem}.txt", names, img.shape[1], img.shape[0])]
    seen = []
    full = det._full
    monkeypatch.setattr(det, "_full", lambda work, conf, iou: seen.append(work.shape[:2]) or full(work, conf, iou))
    cropped = det(photo, conf=0.01)
    cropped_looks, seen[:] = seen[2:], []      # after the half-scale probe and the measuring look
    monkeypatch.setattr(det, "layout_region", lambda *a: None)
    whole = det(photo, conf=0.01)
    whole_looks = seen[2:]
    assert cropped_looks and len(cropped_looks) == len(whole_looks), "a far camera's photo is looked at again"
    for (h, w), (H, W) in zip(cropped_looks, whole_looks):
        assert h * w < 0.5 * H * W, (cropped_looks, whole_looks)
    m, m_whole = compute_metrics([(gt, cropped)], conf=det.default_conf), compute_metrics([(gt, whole)], conf=det.default_conf)
    assert m.recall >= 0.6 and m.precision >= 0.6, m.as_dict()
    assert m.recall >= m_whole.recall - 0.05, (m.as_dict(), m_whole.as_dict())


def test_detect_api_returns_sightings():
    # a very low threshold so that even a weak model returns boxes: this checks the API, not accuracy
    # the fixtures are 640 px cut-outs of a 1080p-sized table: the model's scene scale
    res = detect(str(IMAGES[0]), conf=0.001, scale=Detector().scene_scale)
    assert res and all(isinstance(s, Sighting) for s in res)
    for s in res:
        assert s.label in LABELS and 0 < s.conf <= 1
        x0, y0, x1, y1 = s.box
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 640


def test_no_cards_gives_empty_list(det):
    rng = np.random.default_rng(0)
    table = np.clip(rng.normal(120, 6, (1080, 1920, 3)), 0, 255).astype(np.uint8)
    assert det(table) == []


def test_corrupt_and_non_image_files_raise(tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_text("this is not a picture")
    with pytest.raises(VisionError, match="not a readable image"):
        load_image(bad)
    trunc = tmp_path / "trunc.jpg"
    trunc.write_bytes(IMAGES[0].read_bytes()[:200])
    with pytest.raises(VisionError):
        load_image(trunc)
    with pytest.raises(VisionError, match="no such file"):
        load_image(tmp_path / "missing.jpg")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    with pytest.raises(VisionError, match="empty"):
        load_image(empty)


def test_exif_rotated_photo_is_read_upright(tmp_path):
    from PIL import Image
    # stored landscape 200x100 with EXIF orientation 6 (rotate 90 CW to display) -> upright is 100x200
    arr = np.zeros((100, 200, 3), np.uint8)
    arr[:, :20] = 255  # a white band on the stored left edge
    im = Image.fromarray(arr)
    exif = Image.Exif()
    exif[0x0112] = 6
    p = tmp_path / "phone.jpg"
    im.save(p, exif=exif.tobytes())
    up = load_image(p)
    assert up.shape[:2] == (200, 100)
    # stored left edge becomes the top after a 90 degree clockwise turn
    assert up[:15].mean() > 200 and up[-50:].mean() < 30
    buf = io.BytesIO()
    im.save(buf, format="JPEG", exif=exif.tobytes())
    assert load_image(buf.getvalue()).shape[:2] == (200, 100)


def test_cli_detect_writes_yolo_text_and_annotation(tmp_path, capsys):
    out, ann = tmp_path / "txt", tmp_path / "ann"
    rc = main(["detect", *map(str, IMAGES), "--save-txt", str(out), "--annotate", str(ann), "--conf", "0.001"])
    assert rc == 0
    for f in IMAGES:
        lines = (out / f"{f.stem}.txt").read_text().splitlines()
        assert lines, f.name
        for ln in lines:
            label, cx, cy, w, h, conf = ln.split()
            assert label in LABELS
            vals = [float(v) for v in (cx, cy, w, h, conf)]
            assert all(0 <= v <= 1 for v in vals)
        a = cv2.imread(str(ann / f"{f.stem}.jpg"))
        assert a is not None and a.shape[:2] == (640, 640)


def test_cli_detect_bad_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "x.png"
    bad.write_bytes(b"\x89PNG garbage")
    rc = main(["detect", str(bad), "--save-txt", str(tmp_path / "o")])
    assert rc == 2
    err = capsys.readouterr().err.strip()
    assert "x.png" in err and "\n" not in err


def test_cli_eval_detector_prints_metrics(capsys):
    rc = main(["eval-detector", "--images", str(FIX / "images"), "--labels", str(FIX / "labels"),
               "--names", str(FIX / "names.txt")])
    assert rc == 0
    out = capsys.readouterr().out
    for key in ("precision:", "recall:", "mAP50:", "card-identity recall:"):
        assert key in out
    vals = {ln.split(":")[0]: float(ln.split(":")[1]) for ln in out.splitlines() if ln.count(":") == 1}
    assert 0 <= vals["precision"] <= 1 and 0 <= vals["mAP50"] <= 1


def test_cli_eval_detector_missing_names_exits_2(tmp_path):
    rc = main(["eval-detector", "--images", str(FIX / "images"), "--labels", str(FIX / "labels"),
               "--names", str(tmp_path / "nope.txt")])
    assert rc == 2


def test_metrics_perfect_and_empty():
    gt = [("10h", (10, 10, 30, 50)), ("Qs", (100, 10, 120, 50)), ("10h", (200, 10, 220, 50))]
    perfect = [Sighting(l, b, 0.9) for l, b in gt]
    m = compute_metrics([(gt, perfect)])
    assert (m.precision, m.recall, m.map50, m.identity_recall) == (1.0, 1.0, pytest.approx(1.0, abs=0.006), 1.0)  # 101-point AP, as ultralytics
    # one of the two 10h boxes found: identity recall still 1, recall 2/3
    m = compute_metrics([(gt, perfect[:2])])
    assert m.recall == pytest.approx(2 / 3) and m.identity_recall == 1.0
    # wrong label at the right place: a false positive and a miss
    m = compute_metrics([(gt[:1], [Sighting("10d", gt[0][1], 0.9)])])
    assert m.precision == 0 and m.recall == 0 and m.identity_recall == 0


def test_false_positives_far_from_every_label_are_counted_apart():
    gt = [("10h", (10, 10, 30, 50)), ("Qs", (100, 10, 120, 50))]
    preds = [Sighting("10h", gt[0][1], 0.9),              # right
             Sighting("Ks", gt[1][1], 0.9),               # wrong label on a labelled index: not apart
             Sighting("7c", (400, 300, 420, 340), 0.9),   # nowhere near a label: apart
             Sighting("7d", (500, 300, 520, 340), 0.1)]   # under the threshold: not counted
    m = compute_metrics([(gt, preds)], conf=0.5)
    assert m.apart == 1 and m.precision == pytest.approx(1 / 3)
    assert any("touching no labelled box: 1" in line for line in m.lines())


def test_both_models_run_without_spinning_threads_and_find_the_same_boxes(monkeypatch):
    """Stage 1 and the classifier take turns on two cores: neither pool keeps spinning while the other
    runs. Spinning only changes how threads wait, never the numbers."""
    import vision.runtime as runtime
    so = runtime.session_options()
    assert so.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert so.intra_op_num_threads >= 1
    quiet = Detector()
    monkeypatch.setattr(runtime, "SPINNING", True)
    spinning = Detector()
    # (onnxruntime's default, spinning, is the entry left unset)
    with pytest.raises(RuntimeError):
        runtime.session_options().get_session_config_entry("session.intra_op.allow_spinning")
    for path in IMAGES[:2]:
        img = load_image(path)
        a, b = quiet(img, conf=0.05), spinning(img, conf=0.05)
        assert a, f"no sightings in fixture {path.name}"
        assert [(s.label, s.box, s.conf) for s in a] == [(s.label, s.box, s.conf) for s in b]
