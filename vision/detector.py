"""Run-time detector: ONNX models, numpy + onnxruntime only (no torch).

Two stages (see models/MODEL_CARD.md for why):

1. a one-class YOLO model finds every corner index.  The photo is first scaled
   so its long side is ``max_side`` px (the model was trained where a corner
   index is 10-35 px tall), then run in one pass ("full", a model exported with
   dynamic input size) or in overlapping tiles ("tile", a fixed-size model);
2. a small CNN (:mod:`vision.classifier`) names the card from a crop of the
   *full-resolution* photo around each box, or vetoes it as "not an index".

A 52-class YOLO model (one stage) also works: the classifier is then not used.
Run-time settings live in a JSON file beside the ONNX model
(``cards_detector.json``: classifier file, ``max_side``, thresholds, the extra
views stage 1 takes and the fitted score that joins the two stages).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .decks import LABELS
from .imageio import load_image
from .runtime import session_options
from .types import Sighting, VisionError

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODELS_DIR / "cards_detector.onnx"


@dataclass(frozen=True)
class TileSpec:
    size: int = 640
    overlap: int = 96


# The half-scale look is trusted when its indices are at least this share of ``index_px``:
# then at full scale they would be 1.2x the model's size or more, where it starts to misjudge them.
# Smaller ones are measured at full scale as before.
PROBE_TRUST = 0.6
# Labels a sighting carries besides its first reading (Sighting.readings): the classifier's
# best few, down to this probability. On four rendered Senior Wrangler photos of held-out decks
# the right label was first for 65% of the indices, in the best two for 80%, best five 89%.
READINGS = 5
READING_MIN = 0.01

# Extra looks stage 1 may take at the photo: turned half round, mirrored, upside down.
# A corner index is printed both ways up on a card, so every turn is a fair look,
# and each one the model is unsure of in a different place.
VIEWS = ("turn", "mirror", "flip")
# The final looks see the layout's part of the photo: the indices the measuring look found, and this
# many index lengths around them (a card is about five long), for any card that look missed whole.
REGION_MARGIN = 6.0
STRIDE = 32     # the detector's coarsest feature map: photos are padded to a multiple of it


def view(image: np.ndarray, name: str) -> np.ndarray:
    flips = {"turn": (slice(None, None, -1), slice(None, None, -1)), "mirror": (slice(None), slice(None, None, -1)),
             "flip": (slice(None, None, -1), slice(None))}
    if name not in flips:
        raise VisionError(f"unknown detector view {name!r} (known: {', '.join(VIEWS)})")
    return np.ascontiguousarray(image[flips[name]])


def unview(boxes: np.ndarray, name: str, width: int, height: int) -> np.ndarray:
    """Boxes (xyxy) found in ``view(image, name)`` -> the same boxes on ``image`` (width x height)."""
    x0, y0, x1, y1 = boxes.T
    if name in ("turn", "mirror"):
        x0, x1 = width - x1, width - x0
    if name in ("turn", "flip"):
        y0, y1 = height - y1, height - y0
    return np.stack([x0, y0, x1, y1], 1)


def fuse_looks(looks: list, iou: float = 0.5):
    """Boxes and scores from several looks at one photo -> one set, each box scored by its mean over the looks.

    A box seen by one look of n counts ``score / n``: agreement is what the extra looks are for.
    Boxes that overlap by ``iou`` are the same index; the fused box is the score-weighted mean."""
    n = len(looks)
    seen = [lk for lk in looks if lk is not None and len(lk[0])]
    if not seen:
        return None
    B = np.concatenate([lk[0] for lk in seen])
    S = np.concatenate([lk[1] for lk in seen])
    src = np.concatenate([np.full(len(lk[0]), k) for k, lk in enumerate(seen)])
    taken = np.zeros(len(B), bool)
    out_b, out_s = [], []
    for i in np.argsort(-S):
        if taken[i]:
            continue
        group = [i]
        taken[i] = True
        ious = _iou_one(B[i], B)
        for k in range(len(seen)):
            if k == src[i]:
                continue
            cand = np.nonzero((src == k) & ~taken & (ious >= iou))[0]
            if len(cand):
                j = cand[np.argmax(ious[cand])]
                group.append(j)
                taken[j] = True
        w = S[group]
        out_b.append((B[group] * w[:, None]).sum(0) / max(w.sum(), 1e-9))
        out_s.append(w.sum() / n)
    return np.array(out_b), np.array(out_s), np.zeros(len(out_s), int)


def _iou_one(b: np.ndarray, B: np.ndarray) -> np.ndarray:
    w = np.clip(np.minimum(b[2], B[:, 2]) - np.maximum(b[0], B[:, 0]), 0, None)
    h = np.clip(np.minimum(b[3], B[:, 3]) - np.maximum(b[1], B[:, 1]), 0, None)
    inter = w * h
    area = (b[2] - b[0]) * (b[3] - b[1]) + (B[:, 2] - B[:, 0]) * (B[:, 3] - B[:, 1]) - inter
    return inter / np.maximum(area, 1e-9)


@dataclass(frozen=True)
class JointScore:
    """How sure we are that a box is this card, from both stages: a logistic model over the
    stage-1 score (as a logit), the classifier's log-probability of the card it names and its
    log-probability of "not an index".  Fitted on synthetic validation by the pipeline
    (:func:`vision.calibrate.fit_joint_score`); without it the score is the plain product,
    which trusts the two stages equally and turned out to undervalue a sure name on a faint box."""
    stage1_logit: float
    log_p_card: float
    log_p_not_index: float
    bias: float

    FEATURES = ("stage1_logit", "log_p_card", "log_p_not_index")

    def __call__(self, stage1: np.ndarray, p_card: np.ndarray, p_not: np.ndarray) -> np.ndarray:
        z = joint_features(stage1, p_card, p_not) @ np.array([self.stage1_logit, self.log_p_card, self.log_p_not_index])
        return 1.0 / (1.0 + np.exp(-(z + self.bias)))

    @classmethod
    def from_dict(cls, d: dict) -> "JointScore":
        try:
            return cls(**{k: float(d[k]) for k in (*cls.FEATURES, "bias")})
        except (KeyError, TypeError, ValueError) as e:
            raise VisionError(f"detector settings: malformed 'score' entry {d!r} ({e})") from None

    def as_dict(self) -> dict:
        return {k: round(getattr(self, k), 4) for k in (*self.FEATURES, "bias")}


def joint_features(stage1: np.ndarray, p_card: np.ndarray, p_not: np.ndarray) -> np.ndarray:
    s = np.clip(np.asarray(stage1, float), 1e-4, 1 - 1e-4)
    return np.stack([np.log(s / (1 - s)), np.log(np.asarray(p_card, float) + 1e-6),
                     np.log(np.asarray(p_not, float) + 1e-6)], 1)


@dataclass
class Candidates:
    """Every box stage 1 kept, on the photo, before the threshold: what the final score is made of."""
    boxes: np.ndarray          # (N, 4) xyxy in photo pixels
    stage1: np.ndarray         # (N,) stage-1 score
    probabilities: np.ndarray  # (N, 53) classifier output (last column: not an index); (N, 0) for one stage
    classes: np.ndarray        # (N,) stage-1 class (one-stage models)


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


def settings(model: Path) -> dict:
    """The run-time settings saved beside ``model`` (``<stem>.json``), or {}."""
    p = model.with_suffix(".json")
    if not p.is_file():
        return {}
    try:
        return json.loads(p.read_text())
    except (OSError, ValueError) as e:
        raise VisionError(f"{p}: unreadable detector settings ({e})") from None


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


def to_network(img: np.ndarray) -> np.ndarray:
    """A BGR uint8 image -> the network's 1 x 3 x H x W RGB float32 input in [0, 1].

    (Written into one array: converting the transposed view and copying it again took a
    tenth of a second a 1080p photo.)"""
    x = np.empty((1, 3) + img.shape[:2], np.float32)
    np.copyto(x[0], img.transpose(2, 0, 1)[::-1], casting="unsafe")
    x /= 255.0
    return x


class Detector:
    """An ONNX corner-index detector. ``Detector()(image) -> list[Sighting]``."""

    def __init__(self, model: str | Path | None = None, names: list[str] | None = None,
                 tile: int = 640, overlap: int = 96, max_side: int | None = None, threads: int | None = None,
                 mode: str | None = None, classifier: str | Path | None = None, index_px: float | None = None,
                 views: tuple[str, ...] | None = None):
        import onnxruntime as ort

        path = Path(model) if model else Path(os.environ.get("PATIENCE_DETECTOR_MODEL", DEFAULT_MODEL))
        if not path.is_file():
            raise VisionError(f"detector model not found: {path}")
        cfg = settings(path)
        self.session = ort.InferenceSession(str(path), session_options(threads), providers=["CPUExecutionProvider"])
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        shp = inp.shape
        self.dynamic = not isinstance(shp[2], int)
        self.input_size = tile if self.dynamic else int(shp[2])
        self.names = names or list(LABELS)
        out_rows = self.session.get_outputs()[0].shape[1]
        if not isinstance(out_rows, int):
            # a dynamic export may leave even the row count symbolic: ask the model
            probe = np.zeros((1, 3, 64, 64) if self.dynamic else (1, 3, self.input_size, self.input_size), np.float32)
            out_rows = self.session.run(None, {self.input_name: probe})[0].shape[1]
        self.n_classes = out_rows - 4
        self.classifier = None
        if self.n_classes == 1:
            from .classifier import IndexClassifier
            cpath = classifier or os.environ.get("PATIENCE_CLASSIFIER_MODEL") or cfg.get("classifier")
            if not cpath:
                raise VisionError(f"{path} finds corner indices only: it needs an index classifier model")
            cpath = Path(cpath) if Path(cpath).is_absolute() else path.parent / cpath
            self.classifier = IndexClassifier(cpath, threads=threads)
        elif self.n_classes != len(self.names):
            raise VisionError(f"{path} has {self.n_classes} classes, expected {len(self.names)} card labels")
        self.tile = TileSpec(self.input_size, overlap)
        self.max_side = int(max_side or cfg.get("max_side", 1920))
        # typical corner-index length (px, at the model's input) to bring every photo to; 0: no second look
        self.index_px = float(cfg.get("index_px", 0) if index_px is None else index_px)
        self.default_conf = float(cfg.get("conf", 0.25))
        # the threshold the layout reader takes sightings down to (vision.reading), on this model's score scale
        self.read_conf = float(cfg["read_conf"]) if "read_conf" in cfg else None
        self.views = tuple(cfg.get("views", ()) if views is None else views)
        unknown = [v for v in self.views if v not in VIEWS]
        if unknown:   # fail here, not mid-photo
            raise VisionError(f"unknown detector view {unknown[0]!r} (known: {', '.join(VIEWS)})")
        self.joint = JointScore.from_dict(cfg["score"]) if cfg.get("score") and self.classifier else None
        self.scene_scale = float(cfg.get("scene_scale", self.max_side / 1920))
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
            outs.append(self.session.run(None, {self.input_name: to_network(t)})[0])
        return outs

    def __call__(self, image, conf: float | None = None, iou: float = 0.5, scale: float | None = None
                 ) -> list[Sighting]:
        """``scale`` fixes the working scale (default: long side to ``max_side``, never enlarged, then
        rescaled to the model's index size, see :meth:`rescale`); the synthetic scenes, cut from
        1080p-sized tables, are measured at ``self.scene_scale``."""

        conf = self.default_conf if conf is None else conf
        # the first stage keeps weak boxes when a classifier follows: the final
        # confidence joins both stages
        first = min(conf, 0.1) if self.classifier else conf
        return self.name(self.candidates(image, first, iou, scale), conf)

    def candidates(self, image, first: float = 0.1, iou: float = 0.5, scale: float | None = None) -> Candidates:
        """Stage 1 (at ``first``) and the classifier's opinion of each box, before any threshold."""
        img = load_image(image)
        H, W = img.shape[:2]
        s = scale if scale else min(1.0, self.max_side / max(H, W))
        auto = not scale and self.index_px
        # looks that only measure the indices take no extra views: those are for the final look
        found = None
        if auto:
            # A quick look at half the scale first (a quarter of the pixels). Indices much larger
            # than the model's size get split into rank and suit or missed, so a close camera
            # would be misjudged at ``s``; at half the scale they are in range and measured well.
            probe = self._find(img, s / 2, first, iou, views=())
            m = self.typical_length(probe)
            if m is not None and m >= PROBE_TRUST * self.index_px:
                s, found = s / 2, probe
        if found is None:
            found = self._find(img, s, first, iou, views=() if auto else None)
        if auto:
            s2 = self.rescale(found, s)
            region = self.layout_region(found, s, W, H)
            if s2 != s:
                found = self._find(img, s2, first, iou, region=region)
            elif self.views:
                found = self._find(img, s, first, iou, plain=found, region=region)
            s = s2
        if found is None:
            return Candidates(np.zeros((0, 4)), np.zeros(0), np.zeros((0, 0)), np.zeros(0, int))
        B, S, C = found
        B = B / s
        B[:, [0, 2]] = B[:, [0, 2]].clip(0, W)
        B[:, [1, 3]] = B[:, [1, 3]].clip(0, H)
        P = self.classifier.probabilities(img, B) if self.classifier is not None else np.zeros((len(B), 0))
        return Candidates(B, S, P, C)

    @staticmethod
    def typical_length(found) -> float | None:
        """Median long side of the boxes stage 1 is sure of (score >= 0.3), None with fewer than 6."""
        if found is None:
            return None
        B, S, _ = found
        sure = S >= 0.3
        if sure.sum() < 6:
            return None
        return float(np.median(np.maximum(B[sure, 2] - B[sure, 0], B[sure, 3] - B[sure, 1])))

    def rescale(self, found, s: float) -> float:
        """The working scale at which the indices found at scale ``s`` would be ``index_px`` long.

        A one-class index finder is sensitive to the size of what it looks for, and
        that size depends on the camera's distance and resolution, not on the photo's
        pixel count: so the photo is looked at once, the typical index measured, and
        looked at again at the scale the model knows best (unless it already is)."""
        m = self.typical_length(found)
        if m is None:
            return s
        s2 = float(np.clip(s * self.index_px / m, 0.08, 1.5))
        return s if abs(np.log(s2 / s)) < np.log(1.2) else s2

    @staticmethod
    def layout_region(found, s: float, W: int, H: int) -> tuple[int, int, int, int] | None:
        """The part of the photo (x0, y0, x1, y1, photo pixels) that the indices found at scale ``s``
        span, with a margin of ``REGION_MARGIN`` index lengths; None when nothing was measured.

        The final looks are the costly ones (at the model's index size, and turned as well): a far
        camera, which needs the largest scale, also leaves the most table around the layout."""
        m = Detector.typical_length(found)
        if m is None:
            return None
        B = found[0] / s
        pad = REGION_MARGIN * m / s
        x0, y0 = max(0, int(B[:, 0].min() - pad)), max(0, int(B[:, 1].min() - pad))
        x1, y1 = min(W, int(np.ceil(B[:, 2].max() + pad))), min(H, int(np.ceil(B[:, 3].max() + pad)))
        return x0, y0, x1, y1

    def _find(self, img: np.ndarray, s: float, conf: float, iou: float, views: tuple[str, ...] | None = None,
              plain=False, region: tuple[int, int, int, int] | None = None):
        """Stage 1 at scale ``s``: the plain look (or ``plain``, already taken), plus each of ``views``
        (default: the settings'), fused by :func:`fuse_looks`. With ``region`` the new looks see only
        that part of the photo; boxes are in the whole photo's coordinates at scale ``s`` either way."""
        import cv2

        H, W = img.shape[:2]
        work = cv2.resize(img, (round(W * s), round(H * s)), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
                          ) if s != 1 else img
        ox = oy = 0
        if region is not None:
            # cut from the scaled photo on the network's stride, counted from each side (the turned view
            # starts at the far side), so that the model sees the same pixels on the same grid as in a look
            # at the whole photo
            h, w = work.shape[:2]
            x0, y0 = (int(region[0] * s) // STRIDE) * STRIDE, (int(region[1] * s) // STRIDE) * STRIDE
            x1 = w - (max(0, w - int(np.ceil(region[2] * s))) // STRIDE) * STRIDE
            y1 = h - (max(0, h - int(np.ceil(region[3] * s))) // STRIDE) * STRIDE
            work = work[y0:y1, x0:x1]
            ox, oy = x0, y0
            if isinstance(plain, tuple):      # (boxes, scores, classes) already found: into the cut's coordinates
                plain = (plain[0] - [ox, oy, ox, oy], plain[1], plain[2])
        look = self._full if self.mode == "full" else self._tiles
        views = self.views if views is None else views
        found = look(work, conf, iou) if plain is False else plain
        if views:
            h, w = work.shape[:2]
            looks = [found]
            for v in views:
                other = look(view(work, v), conf, iou)
                looks.append(None if other is None else (unview(other[0], v, w, h), other[1], other[2]))
            found = fuse_looks(looks, iou)
        if found is None or not (ox or oy):
            return found
        return found[0] + [ox, oy, ox, oy], found[1], found[2]

    def _tiles(self, work: np.ndarray, conf: float, iou: float):
        h, w = work.shape[:2]
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
            b, sc, c = decode(out, conf, self.n_classes)
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
            return None
        return self._nms(np.concatenate(all_b), np.concatenate(all_s), np.concatenate(all_c), iou)

    def _full(self, work: np.ndarray, conf: float, iou: float):
        h, w = work.shape[:2]
        ph, pw = -(-h // STRIDE) * STRIDE, -(-w // STRIDE) * STRIDE
        pad = np.full((ph, pw, 3), 114, np.uint8)
        pad[:h, :w] = work
        out = self.session.run(None, {self.input_name: to_network(pad)})[0]
        b, sc, c = decode(out, conf, self.n_classes)
        if not len(b):
            return None
        return self._nms(b, sc, c, iou)

    @staticmethod
    def _nms(B, S, C, iou):
        """Class-wise NMS -> (boxes, scores, classes) kept."""
        keep = []
        for k in np.unique(C):
            idx = np.nonzero(C == k)[0]
            keep.extend(idx[j] for j in nms(B[idx], S[idx], iou))
        keep = np.array(keep, int)
        return B[keep], S[keep], C[keep]

    def readings(self, probs: np.ndarray) -> tuple[tuple[str, float], ...]:
        """The likely labels of one index (classifier probabilities over the cards), best first."""
        top = np.argsort(-probs)[:READINGS]
        return tuple((self.names[int(i)], round(float(probs[i]), 4)) for i in top if probs[i] >= READING_MIN)

    def name(self, cand: Candidates, conf: float) -> list[Sighting]:
        """Candidates -> Sightings at or above ``conf``, named by the classifier if there is one."""
        B, S = cand.boxes, cand.stage1
        if not len(B):
            return []
        names = [self.names[int(k)] for k in cand.classes]
        P = None
        if self.classifier is not None:
            P = cand.probabilities
            k = P[:, :-1].argmax(1)
            p = P[np.arange(len(k)), k]
            names = [self.names[int(i)] for i in k]
            if self.joint is not None:
                S = self.joint(S, p, P[:, -1])
            else:
                S = np.where(P[:, -1] > p, 0.0, S * p)  # the classifier says: not a corner index
        # readings only for the boxes kept: most candidates fall under the threshold
        result = [Sighting(names[i], tuple(float(v) for v in B[i]), float(S[i]),
                           self.readings(P[i, :-1]) if P is not None else ())
                  for i in np.nonzero(S >= conf)[0]]
        result.sort(key=lambda r: -r.conf)
        return result


def reading_threshold(model: str | Path | None = None) -> float | None:
    """The default (or ``model``'s) ``read_conf`` setting, without loading the model; None if it has none."""
    return _read_conf(str(model or os.environ.get("PATIENCE_DETECTOR_MODEL", DEFAULT_MODEL)))


@lru_cache(maxsize=4)
def _read_conf(model: str) -> float | None:
    # read once per model, like the detector itself (_default_detector), not once per photo
    value = settings(Path(model)).get("read_conf")
    return None if value is None else float(value)


@lru_cache(maxsize=4)
def _default_detector(model: str | None) -> Detector:
    return Detector(model)


def name_boxes(image: np.ndarray, boxes, model: str | Path | None = None) -> list[tuple[tuple[str, float], ...]] | None:
    """The index classifier's likely labels (best first, with probabilities) for given boxes of a photo,
    as :meth:`Detector.readings` gives them, with ``("bg", p)`` first where it finds no index likelier;
    None for a detector without a separate classifier."""
    det = _default_detector(str(model) if model else None)
    if det.classifier is None:
        return None
    probs = det.classifier.probabilities(image, [tuple(map(float, b)) for b in boxes])
    out = []
    for P in probs:
        best = det.readings(P[:-1])
        out.append(((("bg", round(float(P[-1]), 4)),) + best) if P[-1] > P[:-1].max() else best)
    return out


def detect(image, conf: float | None = None, model: str | Path | None = None, scale: float | None = None
           ) -> list[Sighting]:
    """Detect every visible corner index in ``image`` -> list of :class:`Sighting`.

    ``scale`` is for images whose index size is known (e.g. cut-outs of a 1080p table); by default
    the photo's long side is brought to the model's working size."""
    return _default_detector(str(model) if model else None)(image, conf=conf, scale=scale)
