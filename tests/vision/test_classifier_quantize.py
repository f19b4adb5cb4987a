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
    graph = onnx.load(str(small)).graph
    ops = {n.op_type for n in graph.node}
    assert "QuantizeLinear" in ops and "DequantizeLinear" in ops
    # weights in seven bits (see the tests below): every weight tensor, none left with eight
    inits = {t.name: t for t in graph.initializer}
    weights = [onnx.numpy_helper.to_array(inits[n.input[0]]) for n in graph.node
               if n.op_type == "DequantizeLinear" and n.input[0] in inits
               and inits[n.input[0]].data_type == onnx.TensorProto.INT8]
    assert weights and all(w.min() >= -64 and w.max() <= 63 for w in weights)
    a, b = IndexClassifier(plain), IndexClassifier(small)
    assert b.size == 32
    with torch.no_grad():
        want = torch.softmax(net(torch.from_numpy(to_input(X[200:]))), 1).numpy()
    got = b.classify(X[200:])
    assert got.shape == (100, len(CLASSES)) and np.allclose(got.sum(1), 1, atol=1e-4)
    assert np.allclose(a.classify(X[200:]), want, atol=1e-4)       # the float export is the net itself
    assert np.abs(got - want).max() < 0.05                          # int8 stays close to it


def _conv_in_qdq(w: np.ndarray, w_scale: np.ndarray, bias: np.ndarray, b_scale: np.ndarray):
    """A one-convolution QDQ model as onnxruntime's quantiser writes them: int8 weights with zero points 0,
    an int32 bias on the scale of input times weights."""
    from onnx import TensorProto, helper, numpy_helper

    n = len(w)
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
             helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"], axis=0),
             helper.make_node("DequantizeLinear", ["b", "bs", "bz"], ["bd"], axis=0),
             helper.make_node("Conv", ["xd", "wd", "bd"], ["y"])]
    inits = [numpy_helper.from_array(np.array(1 / 255, np.float32), "xs"),
             numpy_helper.from_array(np.array(0, np.uint8), "xz"),
             numpy_helper.from_array(w, "w"), numpy_helper.from_array(w_scale, "ws"),
             numpy_helper.from_array(np.zeros(n, np.int8), "wz"),
             numpy_helper.from_array(bias, "b"), numpy_helper.from_array(b_scale, "bs"),
             numpy_helper.from_array(np.zeros(n, np.int32), "bz")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 3, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_seven_bit_weights_halve_the_weights_and_double_their_scales_biases_alike(tmp_path):
    import onnx
    from onnx import numpy_helper

    from vision.classifier_train import seven_bit_weights

    w = np.array([[[[-128, -3, 0], [1, 2, 3], [64, 100, 127]]], [[[5, -5, 7], [0, 0, 0], [0, 0, 1]]]], np.int8)
    ws = np.array([0.01, 0.02], np.float32)
    bias = np.array([1001, -40], np.int32)
    bs = ws / 255
    path = tmp_path / "conv.onnx"
    onnx.save(_conv_in_qdq(w, ws, bias, bs), str(path))
    assert seven_bit_weights(path) == 1                # only the first channel's range needs it, but a tensor is halved whole
    got = {t.name: numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer}
    assert got["w"].dtype == np.int8 and got["w"].min() >= -64 and got["w"].max() <= 63
    assert got["w"][0, 0].tolist() == [[-64, -2, 0], [0, 1, 2], [32, 50, 63]]  # halves to even; 127 -> 63.5 -> 64, clipped to 63
    assert np.allclose(got["ws"], ws * 2) and np.allclose(got["bs"], bs * 2)
    assert got["b"].tolist() == [500, -20]             # 1001 / 2 and -40 / 2, rounded half to even
    # what the convolution sees moves by at most half a weight step of the new scale
    assert np.abs(got["w"] * got["ws"][:, None, None, None] - w * ws[:, None, None, None]).max() <= ws.max() + 1e-7
    assert seven_bit_weights(path) == 0                # seven bits already: left alone


def test_seven_bit_weights_refuse_weights_quantised_off_zero(tmp_path):
    import onnx
    from onnx import numpy_helper

    from vision.classifier_train import seven_bit_weights

    model = _conv_in_qdq(np.full((1, 1, 3, 3), 100, np.int8), np.array([0.01], np.float32),
                         np.array([0], np.int32), np.array([0.01 / 255], np.float32))
    for t in model.graph.initializer:
        if t.name == "wz":
            t.CopyFrom(numpy_helper.from_array(np.array([3], np.int8), "wz"))
    path = tmp_path / "conv.onnx"
    onnx.save(model, str(path))
    with pytest.raises(ValueError, match="not quantised symmetrically"):
        seven_bit_weights(path)


def test_the_committed_classifier_names_real_crops_as_its_unoptimised_graph_does():
    # Session 54: on a CPU with AVX2 and no VNNI, onnxruntime's fused int8 kernels (eight-bit weights times
    # unsigned activations) saturate, and the committed classifier named half of the real-dev crops
    # wrong while the same graph run without fusing named them right. The fixtures' crops showed it too
    # (probabilities up to 0.26 apart, two crops named otherwise): so this runs on whatever CPU tests run.
    from pathlib import Path

    import onnxruntime as ort

    from vision.classifier import IndexClassifier, crop_index, softmax, to_input
    from vision.evaluate import labelled_images

    root = Path(__file__).resolve().parents[2]
    model = root / "models" / "cards_classifier.onnx"
    fx = root / "tests" / "vision" / "fixtures"
    clf = IndexClassifier(model)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    plain = ort.InferenceSession(str(model), so, providers=["CPUExecutionProvider"])
    crops = np.stack([crop_index(img, box, clf.size)
                      for img, gt in labelled_images(fx / "images", fx / "labels", fx / "names.txt")
                      for _, box in gt])
    assert len(crops) >= 50
    got = clf.classify(crops)
    want = softmax(plain.run(None, {plain.get_inputs()[0].name: to_input(crops)})[0])
    assert np.abs(got - want).max() < 0.01
    assert np.array_equal(got.argmax(1), want.argmax(1))


def test_the_training_default_crop_is_the_committed_classifiers_input_size():
    # The documented pipeline command must make a classifier of the committed kind: until session 43 it
    # trained 32-px nets while the committed one reads 48-px crops, and two retrains were compared unfairly.
    from pathlib import Path

    from vision.classifier import CROP, IndexClassifier

    committed = Path(__file__).resolve().parents[2] / "models" / "cards_classifier.onnx"
    assert IndexClassifier(committed).size == CROP
