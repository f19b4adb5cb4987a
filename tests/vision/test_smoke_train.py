"""A tiny end-to-end training run: data -> 1 epoch -> ONNX export -> run-time detector."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_pipeline_smoke(tmp_path):
    # needs the 'train' extra (ultralytics); a missing install fails here rather than skipping
    import ultralytics  # noqa: F401
    env = dict(os.environ, YOLO_OFFLINE="1", ULTRALYTICS_OFFLINE="1", YOLO_CONFIG_DIR=str(tmp_path / "cfg"))
    work, out = tmp_path / "work", tmp_path / "out"
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "vision_pipeline.py"), "--smoke", "--work", str(work),
                        "--out", str(out), "--name", "smoke"], capture_output=True, text=True, env=env, timeout=880)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "Downloading" not in r.stdout + r.stderr, "the smoke run tried to download something"
    onnx = out / "smoke.onnx"
    assert onnx.is_file() and (out / "smoke.pt").is_file()
    # two stages: the index finder, and the classifier that names the card
    assert (out / "smoke_classifier.onnx").is_file() and (out / "smoke.json").is_file()
    assert len(list((work / "train" / "labels").glob("*.txt"))) == 8
    metrics = (out / "smoke.metrics.json").read_text()
    assert '"synthetic_val"' in metrics and '"heldout_decks"' in metrics
    # the classifier ships quantised, with its held-out accuracy before and after
    import onnx as onnx_lib
    assert "QuantizeLinear" in {n.op_type for n in onnx_lib.load(str(out / "smoke_classifier.onnx")).graph.node}
    cls = __import__("json").loads(metrics)["classifier"]
    assert cls["int8"] is True and 0 <= cls["val_acc_int8"] <= 1 and cls["heldout_crop_accuracy"] == cls["val_acc_int8"]
    # the exported model runs in the torch-free detector
    from vision.detector import Detector
    import numpy as np
    det = Detector(onnx)
    assert det.mode == "full"  # exported with dynamic input size
    assert det.n_classes == 1 and det.classifier is not None
    res = det(np.full((300, 500, 3), 128, np.uint8), conf=0.0001)
    assert isinstance(res, list)
    # the classifier alone can be trained on, from its own weights, beside the same stage 1
    import json
    before = (out / "smoke.onnx").read_bytes()
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "vision_pipeline.py"), "--smoke", "--classifier-only",
                        "--work", str(work), "--out", str(out), "--name", "smoke",
                        "--cls-init", str(out / "smoke_classifier.pt"), "--cls-lr", "0.001"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "continuing from" in r.stdout
    metrics = json.loads((out / "smoke.metrics.json").read_text())
    assert metrics["classifier"]["continued_from"] == str(out / "smoke_classifier.pt")
    assert metrics["classifier"]["lr"] == 0.001
    assert (out / "smoke.onnx").read_bytes() == before        # stage 1 untouched
