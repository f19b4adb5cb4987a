"""Run-time detector: ONNX YOLO model applied in overlapping tiles at native resolution.

No torch needed: numpy + onnxruntime (+ PIL/OpenCV for image I/O).

The model was trained on 640x640 scene tiles in which a corner index is about
20-70 px tall.  A photo is first scaled so its long side is at most
``max_side`` (default 1920: a 1080p webcam frame is used as is, a 12 MP phone
photo is reduced), then cut into overlapping tiles; detections from all tiles
are merged: boxes cut by an inner tile edge are dropped (the overlap holds a
whole copy) and the rest go through class-wise NMS.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .decks import LABELS
from .imageio import load_image
from .types import Sighting, VisionError

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODELS_DIR / "cards_yolo11n.onnx"


@dataclass(frozen=True)
class TileSpec:
    size: int = 640
    overlap: int = 96


def tile_origins(length: int, size: int, overlap: int) -> list[int]:
    """Start offsets of tiles of ``size`` covering ``length`` with at least ``overlap``."""
    if length <= size:
        return [0]
    n = int(np.ceil((length - overlap) / (size - overlap)))
    step = (length - size) / (n - 1)
    return [int(round(i * step)) for i in range(n)]


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    """Greedy NMS; boxes (N, 4) xyxy. Returns kept indices, best first."""
    order = np.argsort(-scores)
    keep: list[int] = []
    x0, y0, x1, y1 = boxes.T
    areas = (x1 - x0) * (y1 - y0)
    while order.size:
        i = order[0]
        keep.append(int(i))
        if order.size == 1:
            break
        rest = order[1:]
        w = np.clip(np.minimum(x1[i], x1[rest]) - np.maximum(x0[i], x0[rest]), 0, None)
        h = np.clip(np.minimum(y1[i], y1[rest]) - np.maximum(y0[i], y0[rest]), 0, None)
        inter = w * h
        ov = inter / (areas[i] + areas[rest] - inter + 1e-9)
        order = rest[ov <= iou]
    return keep


def decode(out: np.ndarray, conf: float, n_classes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """YOLO (v8/11) head output (4+nc, N) -> boxes xyxy, scores, class ids above ``conf``."""
    if out.ndim == 3:
        out = out[0]
    if out.shape[0] != 4 + n_classes and out.shape[1] == 4 + n_classes:
        out = out.T
    cls_scores = out[4:]
    cls = cls_scores.argmax(0)
    sc = cls_scores[cls, np.arange(cls_scores.shape[1])]
    m = sc >= conf
    cx, cy, w, h = out[:4, m]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
    return boxes, sc[m], cls[m]


class Detector:
    """An ONNX corner-index detector. ``Detector()(image) -> list[Sighting]``."""

    def __init__(self, model: str | Path | None = None, names: list[str] | None = None,
                 tile: int = 640, overlap: int = 96, max_side: int = 1920, threads: int | None = None,
                 mode: str | None = None):
        import onnxruntime as ort

        path = Path(model) if model else Path(os.environ.get("PATIENCE_DETECTOR_MODEL", DEFAULT_MODEL))
        if not path.is_file():
            raise VisionError(f"detector model not found: {path}")
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads or min(2, os.cpu_count() or 1)
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        shp = inp.shape
        self.dynamic = not isinstance(shp[2], int)
        self.input_size = tile if self.dynamic else int(shp[2])
        self.names = names or list(LABELS)
        self.tile = TileSpec(self.input_size, overlap)
        self.max_side = max_side
        # A model exported with dynamic shapes runs on the whole (scaled) photo in
        # one pass; a fixed-size model runs on overlapping tiles.
        self.mode = mode or ("full" if self.dynamic else "tile")
        if self.mode not in ("full", "tile"):
            raise VisionError(f"unknown detector mode {self.mode!r}")
        if self.mode == "full" and not self.dynamic:
            raise VisionError("mode 'full' needs a model exported with dynamic input size")

    def _infer_tiles(self, tiles: list[np.ndarray]) -> list[np.ndarray]:
        outs = []
        for t in tiles:
            x = t[..., ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
            outs.append(self.session.run(None, {self.input_name: np.ascontiguousarray(x)})[0])
        return outs

    def __call__(self, image, conf: float = 0.25, iou: float = 0.5) -> list[Sighting]:
        import cv2

        img = load_image(image)
        H, W = img.shape[:2]
        s = min(1.0, self.max_side / max(H, W))
        work = cv2.resize(img, (round(W * s), round(H * s)), interpolation=cv2.INTER_AREA) if s < 1 else img
        h, w = work.shape[:2]
        if self.mode == "full":
            return self._full(work, s, W, H, conf, iou)
        T, ov = self.tile.size, self.tile.overlap
        xs, ys = tile_origins(w, T, ov), tile_origins(h, T, ov)
        tiles, origins = [], []
        for y in ys:
            for x in xs:
                t = work[y:y + T, x:x + T]
                if t.shape[0] < T or t.shape[1] < T:
                    pad = np.full((T, T, 3), 114, np.uint8)
                    pad[:t.shape[0], :t.shape[1]] = t
                    t = pad
                tiles.append(t)
                origins.append((x, y))
        all_b, all_s, all_c = [], [], []
        for (x, y), out in zip(origins, self._infer_tiles(tiles)):
            b, sc, c = decode(out, conf, len(self.names))
            if len(b):
                # drop boxes cut by an inner tile edge: the neighbour tile has them whole
                e = 2.0
                cut = np.zeros(len(b), bool)
                if x > 0:
                    cut |= b[:, 0] <= e
                if y > 0:
                    cut |= b[:, 1] <= e
                if x + T < w:
                    cut |= b[:, 2] >= T - e
                if y + T < h:
                    cut |= b[:, 3] >= T - e
                b, sc, c = b[~cut], sc[~cut], c[~cut]
                b = b + [x, y, x, y]
                all_b.append(b)
                all_s.append(sc)
                all_c.append(c)
        if not all_b:
            return []
        return self._merge(np.concatenate(all_b), np.concatenate(all_s), np.concatenate(all_c), s, W, H, iou)

    def _full(self, work: np.ndarray, s: float, W: int, H: int, conf: float, iou: float) -> list[Sighting]:
        h, w = work.shape[:2]
        ph, pw = -(-h // 32) * 32, -(-w // 32) * 32
        pad = np.full((ph, pw, 3), 114, np.uint8)
        pad[:h, :w] = work
        x = pad[..., ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
        out = self.session.run(None, {self.input_name: np.ascontiguousarray(x)})[0]
        b, sc, c = decode(out, conf, len(self.names))
        if not len(b):
            return []
        return self._merge(b, sc, c, s, W, H, iou)

    def _merge(self, B, S, C, s, W, H, iou) -> list[Sighting]:
        result: list[Sighting] = []
        for k in np.unique(C):
            idx = np.nonzero(C == k)[0]
            for j in nms(B[idx], S[idx], iou):
                i = idx[j]
                x0, y0, x1, y1 = (B[i] / s).tolist()
                x0, y0, x1, y1 = max(0.0, x0), max(0.0, y0), min(float(W), x1), min(float(H), y1)
                result.append(Sighting(self.names[int(k)], (x0, y0, x1, y1), float(S[i])))
        result.sort(key=lambda r: -r.conf)
        return result


@lru_cache(maxsize=4)
def _default_detector(model: str | None) -> Detector:
    return Detector(model)


def detect(image, conf: float = 0.25, model: str | Path | None = None) -> list[Sighting]:
    """Detect every visible corner index in ``image`` -> list of :class:`Sighting`."""
    return _default_detector(str(model) if model else None)(image, conf=conf)
