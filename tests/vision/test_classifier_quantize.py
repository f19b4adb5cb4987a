"""The classifier ships quantised to int8: it must load in the run-time classifier and answer as the float net does."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("onnxruntime", reason="vision extra (onnxruntime) is required", exc_type=ImportError)


def test_an_int8_export_loads_and_agrees_with_the_float_net(tmp_path):
    # needs the 'train' extra (torch); a missing install fails here rather than skipping
    import onnx
    import torch

    from vision.classifier import CLASSES, IndexClassifier, to_input
    from vision.classifier_train import build_net, quantize

    torch.manual_seed(0)
    net = build_net(width=0.5).eval()
    plain, small = tmp_path / "float.onnx", tmp_path / "int8.onnx"
    torch.onnx.export(net, torch.zeros(1, 3, 32, 32), str(plain), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
    rng = np.random.default_rng(1)
    # smooth random crops: blobs of ink on paper rather than pure noise
    X = np.clip(rng.normal(200, 40, (300, 4, 4, 3)), 0, 255).astype(np.uint8).repeat(8, 1).repeat(8, 2)
    quantize(plain, small, X[:200])
    ops = {n.op_type for n in onnx.load(str(small)).graph.node}
    assert "QuantizeLinear" in ops and "DequantizeLinear" in ops
    a, b = IndexClassifier(plain), IndexClassifier(small)
    assert b.size == 32
    with torch.no_grad():
        want = torch.softmax(net(torch.from_numpy(to_input(X[200:]))), 1).numpy()
    got = b.classify(X[200:])
    assert got.shape == (100, len(CLASSES)) and np.allclose(got.sum(1), 1, atol=1e-4)
    assert np.allclose(a.classify(X[200:]), want, atol=1e-4)       # the float export is the net itself
    assert np.abs(got - want).max() < 0.05                          # int8 stays close to it


def test_the_training_default_crop_is_the_committed_classifiers_input_size():
    # The documented pipeline command must make a classifier of the committed kind: until session 43 it
    # trained 32-px nets while the committed one reads 48-px crops, and two retrains were compared unfairly.
    from pathlib import Path

    from vision.classifier import CROP, IndexClassifier

    committed = Path(__file__).resolve().parents[2] / "models" / "cards_classifier.onnx"
    assert IndexClassifier(committed).size == CROP
