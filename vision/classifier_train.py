"""Train the corner-index classifier (second detector stage) on crops of synthetic scenes.

Needs torch (the ``train`` extra).  Used by ``scripts/vision_pipeline.py``.

Crops come from the labelled boxes of the training scenes, each cut a few
times with jitter in position and size, plus "background" squares that miss
every labelled index.  At training time every crop is also turned by a random
quarter turn and given random light, colour cast, blur and noise.  Mirroring
is never used: a mirrored index is not a card.
"""
from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np

from .classifier import BACKGROUND, CLASSES, CROP, crop_index, to_input
from .evaluate import IMAGE_EXTS, read_names, read_yolo_labels


def _iou(a, B: np.ndarray) -> np.ndarray:
    if not len(B):
        return np.zeros(0)
    w = np.clip(np.minimum(a[2], B[:, 2]) - np.maximum(a[0], B[:, 0]), 0, None)
    h = np.clip(np.minimum(a[3], B[:, 3]) - np.maximum(a[1], B[:, 1]), 0, None)
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (B[:, 2] - B[:, 0]) * (B[:, 3] - B[:, 1]) - inter + 1e-9)


def extract_crops(images: Path, labels: Path, names: Path, copies: int = 3, background: float = 0.5,
                  seed: int = 0, jitter: bool = True, limit: int | None = None,
                  progress: Callable[[str], None] | None = None, size: int = CROP) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N, size, size, 3) uint8 and class ids (N,) from a YOLO-labelled folder.

    ``copies`` jittered crops per box; ``background`` negative squares per box.
    Without ``jitter`` each box gives exactly one centred crop and no negatives
    (for measuring)."""
    import cv2

    rng = np.random.default_rng(seed)
    name_list = read_names(names)
    index = {lab: i for i, lab in enumerate(CLASSES)}
    bg = index[BACKGROUND]
    files = sorted(p for p in Path(images).iterdir() if p.suffix.lower() in IMAGE_EXTS)[:limit]
    X, Y = [], []
    for n, f in enumerate(files, 1):
        img = cv2.imread(str(f), cv2.IMREAD_COLOR)
        if img is None:
            continue
        H, W = img.shape[:2]
        boxes = read_yolo_labels(Path(labels) / (f.stem + ".txt"), name_list, W, H)
        if not jitter:
            for lab, b in boxes:
                X.append(crop_index(img, b, size))
                Y.append(index[lab])
            continue
        B = np.array([b for _, b in boxes], np.float32).reshape(-1, 4)
        for lab, b in boxes:
            for _ in range(copies):
                X.append(crop_index(img, b, size, shift=tuple(rng.uniform(-0.08, 0.08, 2)),
                                    scale=float(rng.uniform(0.85, 1.25))))
                Y.append(index[lab])
        sizes = (B[:, 2:] - B[:, :2]) if len(B) else np.array([[20.0, 45.0]])
        want = int(round(background * max(len(boxes), 4)))
        tries = 0
        while want > 0 and tries < want * 20:
            tries += 1
            w, h = sizes[rng.integers(len(sizes))] * rng.uniform(0.7, 1.5)
            if rng.random() < 0.5:
                w, h = h, w
            x0, y0 = rng.uniform(0, max(1, W - w)), rng.uniform(0, max(1, H - h))
            cand = np.array([x0, y0, x0 + w, y0 + h])
            if len(B) and _iou(cand, B).max() > 0.1:
                continue
            X.append(crop_index(img, cand, size))
            Y.append(bg)
            want -= 1
        if progress and n % 200 == 0:
            progress(f"crops: {n}/{len(files)} images, {len(X)} crops")
    if not X:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(X), np.array(Y, np.int64)


def build_net(n_classes: int = len(CLASSES), width: float = 1.5):
    """A plain VGG-like CNN.  Width 1 (16-32-64-128 channels) underfits the 53 classes
    of 27 deck styles at every rotation: 58% on held-out decks after 8 epochs."""
    import torch.nn as nn

    c1, c2, c3, c4 = (int(round(c * width)) for c in (16, 32, 64, 128))

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(3, c1), *block(c1, c1), nn.MaxPool2d(2),
        *block(c1, c2), *block(c2, c2), nn.MaxPool2d(2),
        *block(c2, c3), *block(c3, c3), nn.MaxPool2d(2),
        *block(c3, c4), *block(c4, c4), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
        nn.Linear(c4, n_classes))


def _ink_variants(x, rng: np.random.Generator, shaded: float = 0.3, swollen: float = 0.2):
    """Suit signs drawn otherwise: on a share ``shaded`` of the crops the ink is lit by a ramp across the
    crop (part of each sign lighter, as in decks that draw their signs in relief), and on a share
    ``swollen`` the ink spreads by a pixel (fat signs, whose lobes merge). The held-out decks whose
    clubs and spades are swapped draw them so; the training decks' signs are flat and thin."""
    import torch
    import torch.nn.functional as F

    n, _, S, _ = x.shape
    lum = x.mean(1, keepdim=True)
    flat = lum.flatten(1)
    paper = flat.quantile(0.9, dim=1).view(n, 1, 1, 1)
    dark = flat.quantile(0.02, dim=1).view(n, 1, 1, 1)
    ink = ((paper - lum) / (paper - dark + 1e-3)).clamp(0, 1)
    paper_rgb = (x * (lum >= paper)).sum((2, 3), keepdim=True) / (lum >= paper).sum((2, 3), keepdim=True).clamp(min=1)
    a = torch.from_numpy(rng.uniform(0, 2 * np.pi, (n, 1, 1, 1)).astype(np.float32))
    g = torch.linspace(-1, 1, S)
    ramp = (torch.cos(a) * g.view(1, 1, 1, S) + torch.sin(a) * g.view(1, 1, S, 1)).mul(0.5).add(0.5).clamp(0, 1)
    amp = torch.from_numpy((rng.uniform(0.3, 0.7, (n, 1, 1, 1)) * (rng.random((n, 1, 1, 1)) < shaded))
                           .astype(np.float32))
    x = x + amp * ramp * ink * (paper_rgb - x)
    fat = torch.from_numpy(rng.random(n) < swollen)
    if fat.any():
        x = torch.where(fat.view(n, 1, 1, 1), -F.max_pool2d(-x, 3, 1, 1), x)
    return x


def _augment(x, rng: np.random.Generator, ink: bool = False):
    """Random quarter turns, light, colour cast, blur and noise on a (N, 3, S, S) float batch (with
    ``ink``, suit signs drawn otherwise too: :func:`_ink_variants`)."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    k = int(rng.integers(4))
    x = torch.rot90(x, k, (2, 3))
    if ink:
        x = _ink_variants(x, rng)
    gain = torch.from_numpy(rng.uniform(0.6, 1.3, (n, 1, 1, 1)).astype(np.float32))
    cast = torch.from_numpy(rng.uniform(0.85, 1.15, (n, 3, 1, 1)).astype(np.float32))
    bias = torch.from_numpy(rng.uniform(-0.12, 0.12, (n, 1, 1, 1)).astype(np.float32))
    x = x * gain * cast + bias
    # contrast squeeze toward the mean: washed-out webcam frames
    c = torch.from_numpy(rng.uniform(0.6, 1.0, (n, 1, 1, 1)).astype(np.float32))
    m = x.mean((1, 2, 3), keepdim=True)
    x = m + (x - m) * c
    if rng.random() < 0.4:
        s = x.shape[-1]
        f = float(rng.uniform(0.4, 0.75))
        x = F.interpolate(F.interpolate(x, scale_factor=f, mode="bilinear", align_corners=False),
                          size=(s, s), mode="bilinear", align_corners=False)
    x = x + torch.randn_like(x) * float(rng.uniform(0, 0.05))
    return x.clamp(0, 1)


def train_classifier(X: np.ndarray, Y: np.ndarray, out_onnx: Path, epochs: int = 12, batch: int = 256,
                     lr: float = 3e-3, threads: int = 2, seed: int = 0, val: tuple | None = None,
                     log: Callable[[str], None] = print, minutes: float | None = None, width: float = 1.5,
                     init: Path | None = None, int8: bool = True, ink: bool = False) -> dict:
    """Train, export ONNX to ``out_onnx`` (and a .pt beside it); returns a summary.

    ``init``: the weights (.pt) of an earlier classifier of the same width to continue from
    (with ``epochs`` 0: exported as it is).  ``int8``: the ONNX is quantised (:func:`quantize`)."""
    import torch
    import torch.nn as nn

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = build_net(width=width)
    if init is not None:
        net.load_state_dict(torch.load(str(init), map_location="cpu"))
        log(f"classifier: continuing from {init}")
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    steps = epochs * int(np.ceil(len(X) / batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15) if steps else None
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    t0 = time.time()
    step = 0
    hist = []
    for ep in range(epochs):
        net.train()
        perm = rng.permutation(len(X))
        tot, right, seen = 0.0, 0, 0
        for i in range(0, len(X), batch):
            idx = perm[i:i + batch]
            xb = _augment(torch.from_numpy(to_input(X[idx])), rng, ink)
            yb = torch.from_numpy(Y[idx])
            logits = net(xb)
            loss = lossf(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step < steps - 1:
                sched.step()
            step += 1
            tot += loss.item() * len(idx)
            right += int((logits.argmax(1) == yb).sum())
            seen += len(idx)
        rec = {"epoch": ep + 1, "loss": round(tot / seen, 4), "train_acc": round(right / seen, 4),
               "seconds": round(time.time() - t0)}
        if val is not None:
            rec["val_acc"] = round(accuracy(net, *val), 4)
        hist.append(rec)
        log(f"classifier {rec}")
        if minutes and time.time() - t0 > minutes * 60:
            log("classifier: time budget reached")
            break
    net.eval()
    out_onnx = Path(out_onnx)
    torch.save(net.state_dict(), out_onnx.with_suffix(".pt"))
    dummy = torch.zeros(1, 3, X.shape[1], X.shape[2])  # the crop size the net was trained at
    summary = {"epochs": hist, "train_crops": int(len(X)), "width": width, "crop": int(X.shape[1]), "lr": lr,
               "seconds": round(time.time() - t0), "continued_from": str(init) if init is not None else None,
               "int8": int8, "ink_variants": ink}
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "float.onnx"
        torch.onnx.export(net, dummy, str(plain), input_names=["crops"], output_names=["logits"],
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
        if not int8:
            shutil.copy(plain, out_onnx)
            return summary
        quantize(plain, out_onnx, X, seed=seed)
        if val is not None:
            summary["val_acc_float"] = hist[-1]["val_acc"] if hist else onnx_accuracy(plain, *val)
            summary["val_acc_int8"] = onnx_accuracy(out_onnx, *val)
            log(f"classifier: held-out crops named right, float {summary['val_acc_float']}, "
                f"int8 {summary['val_acc_int8']}")
    return summary


def quantize(plain: Path, out_onnx: Path, X: np.ndarray, seed: int = 0, calibration: int = 2048) -> None:
    """``plain`` (float ONNX) -> ``out_onnx`` with int8 activations and weights, the weights in seven bits
    (:func:`seven_bit_weights`).

    Static quantisation (onnxruntime, QDQ, per-channel weights), its activation ranges
    calibrated on ``calibration`` training crops turned as run time may see them.
    On this 2-core CPU the int8 net names a crop about three times faster than the
    float one, and named the held-out decks' crops as well (0.833 vs 0.834, session 11):
    the classifier was most of the detector's time on a layout photo. (On session 54's CPU, AVX2
    without VNNI: 0.54 against 0.95 ms a crop.)"""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    rng = np.random.default_rng(seed)
    pick = rng.choice(len(X), min(calibration, len(X)), replace=False)
    crops = np.stack([np.rot90(X[i], int(rng.integers(4))) for i in pick])

    class Crops(CalibrationDataReader):
        def __init__(self):
            self.batches = iter(range(0, len(crops), 128))

        def get_next(self):
            i = next(self.batches, None)
            return None if i is None else {"crops": to_input(crops[i:i + 128])}

    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(plain), str(pre))
        quantize_static(str(pre), str(out_onnx), Crops(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True)
    seven_bit_weights(out_onnx)


def seven_bit_weights(model: Path) -> int:
    """Halve the int8 weights of a quantised ONNX model (rounded, so they lie in -64..63) and double their
    scales, and likewise the int32 biases whose scale is the weights' times the input's; returns how many
    weight tensors were changed.

    With int8 weights and uint8 activations onnxruntime multiplies with an x86 instruction that adds pairs
    of products into 16 bits and saturates, unless the CPU has VNNI. On a CPU with AVX2 alone the committed
    classifier then named half of the real-dev crops wrong. Seven-bit weights keep every such pair within
    16 bits (255 * 64 * 2 < 2^15), so the fast kernel is right on every CPU (the quantiser's
    ``reduce_range``; onnxruntime's own u8s8-to-u8u8 rewrite for some operators keys on the same -64..63
    range). Storing the weights unsigned instead is exact too, but was 0.85 ms a
    crop against 0.54 here; seven bits named as many crops right (models/MODEL_CARD.md, "Session 54")."""
    import onnx
    from onnx import numpy_helper

    m = onnx.load(str(model))
    inits = {t.name: t for t in m.graph.initializer}
    made_by = {n.output[0]: n for n in m.graph.node if n.op_type == "DequantizeLinear"}

    def halve(dq, dtype, lo: int, hi: int) -> None:
        q, scale = inits[dq.input[0]], inits[dq.input[1]]
        values = np.round(numpy_helper.to_array(q).astype(np.float64) / 2)
        q.CopyFrom(numpy_helper.from_array(np.clip(values, lo, hi).astype(dtype), q.name))
        scale.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(scale) * 2, scale.name))

    changed = 0
    for node in m.graph.node:
        if node.op_type not in ("Conv", "Gemm") or len(node.input) < 2:
            continue
        w = made_by.get(node.input[1])
        if w is None or w.input[0] not in inits or inits[w.input[0]].data_type != onnx.TensorProto.INT8:
            continue
        values = numpy_helper.to_array(inits[w.input[0]])
        if values.min() >= -64 and values.max() <= 63:
            continue          # seven bits already: halving again would only lose precision
        if len(w.input) > 2 and w.input[2] in inits and numpy_helper.to_array(inits[w.input[2]]).any():
            raise ValueError(f"{model}: weights {w.input[0]} are not quantised symmetrically")
        halve(w, np.int8, -64, 63)
        b = made_by.get(node.input[2]) if len(node.input) > 2 else None
        if b is not None and b.input[0] in inits:
            # the bias is stored on the scale of input times weights: it follows the weights' scale
            halve(b, np.int32, -2 ** 31, 2 ** 31 - 1)
        changed += 1
    onnx.save(m, str(model))
    return changed


def onnx_accuracy(model: Path, X: np.ndarray, Y: np.ndarray) -> float:
    """One look of an exported classifier at each crop: the fraction named right."""
    from .classifier import IndexClassifier
    return round(float((IndexClassifier(model).classify(X).argmax(1) == Y).mean()), 4) if len(X) else 0.0


def accuracy(net, X: np.ndarray, Y: np.ndarray) -> float:
    import torch

    net.eval()
    right = 0
    with torch.no_grad():
        for i in range(0, len(X), 512):
            right += int((net(torch.from_numpy(to_input(X[i:i + 512]))).argmax(1).numpy() == Y[i:i + 512]).sum())
    net.train()
    return right / max(1, len(X))
