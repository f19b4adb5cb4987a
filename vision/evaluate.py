"""Detector metrics: precision, recall, mAP50 and card-identity recall.

Ground truth is YOLO format (``class cx cy w h`` normalised) plus a names file
(one label per line, the class order).  Predictions are :class:`Sighting`
lists.  Classes are compared by card label text, so the model's class order
need not match the names file.

* precision / recall: at IoU 0.5 and the given confidence threshold, greedy
  matching by confidence within each class and image.
* mAP50: mean over classes present in the ground truth of the area under the
  interpolated precision-recall curve (101-point, as COCO / ultralytics), with
  all predictions down to ``map_conf``.
* card-identity recall: for each image, the distinct cards present in the
  ground truth; a card counts as found if at least one of its index boxes was
  detected (correct label, IoU >= 0.5).  Sum found / sum present.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .types import Sighting, VisionError

IMAGE_EXTS = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


def read_names(path: str | Path) -> list[str]:
    p = Path(path)
    if not p.is_file():
        raise VisionError(f"{p}: names file not found")
    names = [ln.strip() for ln in p.read_text().splitlines() if ln.strip()]
    if not names:
        raise VisionError(f"{p}: names file is empty")
    return names


def read_yolo_labels(path: str | Path, names: list[str], width: int, height: int) -> list[tuple[str, tuple]]:
    """YOLO label file -> [(label, (x0, y0, x1, y1) px)]. A missing file means no boxes."""
    p = Path(path)
    out = []
    if not p.is_file():
        return out
    for n, ln in enumerate(p.read_text().splitlines(), 1):
        parts = ln.split()
        if not parts:
            continue
        if len(parts) < 5:
            raise VisionError(f"{p}:{n}: expected 'class cx cy w h'")
        try:
            c = int(float(parts[0]))
            cx, cy, w, h = (float(v) for v in parts[1:5])
        except ValueError:
            raise VisionError(f"{p}:{n}: not numbers: {ln!r}") from None
        if not 0 <= c < len(names):
            raise VisionError(f"{p}:{n}: class {c} not in names file ({len(names)} names)")
        out.append((names[c], ((cx - w / 2) * width, (cy - h / 2) * height,
                               (cx + w / 2) * width, (cy + h / 2) * height)))
    return out


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    x0 = np.maximum(a[:, None, 0], b[None, :, 0])
    y0 = np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 2], b[None, :, 2])
    y1 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    aa = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    ab = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / (aa[:, None] + ab[None, :] - inter + 1e-9)


def match_image(gt: list[tuple[str, tuple]], preds: list[Sighting], iou_thr: float = 0.5):
    """Returns (per-pred list of (label, conf, is_tp)), per-gt matched flags (list of bool)."""
    pred_out = []
    gt_matched = [False] * len(gt)
    labels = {g[0] for g in gt} | {p.label for p in preds}
    for lab in labels:
        gi = [i for i, g in enumerate(gt) if g[0] == lab]
        pi = sorted([i for i, p in enumerate(preds) if p.label == lab], key=lambda i: -preds[i].conf)
        G = np.array([gt[i][1] for i in gi], float).reshape(-1, 4)
        P = np.array([preds[i].box for i in pi], float).reshape(-1, 4)
        ious = iou_matrix(P, G)
        used = set()
        for r, i in enumerate(pi):
            best, bj = iou_thr, -1
            for j in range(len(gi)):
                if j not in used and ious[r, j] >= best:
                    best, bj = ious[r, j], j
            if bj >= 0:
                used.add(bj)
                gt_matched[gi[bj]] = True
            pred_out.append((lab, preds[i].conf, bj >= 0))
    return pred_out, gt_matched


def average_precision(tp: np.ndarray, conf: np.ndarray, n_gt: int) -> float:
    if n_gt == 0:
        return float("nan")
    if len(tp) == 0:
        return 0.0
    o = np.argsort(-conf)
    tpc = np.cumsum(tp[o])
    fpc = np.cumsum(1 - tp[o])
    rec = tpc / n_gt
    prec = tpc / np.maximum(tpc + fpc, 1e-9)
    mrec = np.concatenate([[0.0], rec, [1.0]])
    mpre = np.concatenate([[1.0], prec, [0.0]])
    mpre = np.flip(np.maximum.accumulate(np.flip(mpre)))
    x = np.linspace(0, 1, 101)
    return float(np.trapezoid(np.interp(x, mrec, mpre), x) if hasattr(np, "trapezoid") else np.trapz(np.interp(x, mrec, mpre), x))


@dataclass
class Metrics:
    precision: float
    recall: float
    map50: float
    identity_recall: float
    images: int
    boxes: int
    predictions: int
    conf: float
    # false positives touching no labelled box at all (IoU < APART): on a labelled set that left some
    # indices out, these are mostly the indices left out, not errors of the detector
    apart: int = 0
    per_image: list = field(default_factory=list, repr=False)

    def as_dict(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in self.__dict__.items() if k != "per_image"}

    def lines(self) -> list[str]:
        return summary_lines(self.as_dict())


def summary_lines(m: dict) -> list[str]:
    """The printed report of a metrics dict (:meth:`Metrics.as_dict` or :func:`evaluate_dir`)."""
    apart = m.get("apart", 0)
    return [f"images: {m['images']}  boxes: {m['boxes']}  predictions (conf>={m['conf']}): {m['predictions']}",
            f"precision: {m['precision']:.4f}",
            f"recall: {m['recall']:.4f}",
            f"mAP50: {m['map50']:.4f}",
            f"card-identity recall: {m['identity_recall']:.4f}",
            f"false positives touching no labelled box: {apart}"
            + (" (many: check whether the labels leave visible indices out)" if apart > 0.02 * m["predictions"] else "")]


def compute_metrics(items: list[tuple[list, list[Sighting]]], conf: float = 0.25) -> Metrics:
    """items: [(gt boxes [(label, xyxy)], predictions at low conf)] per image."""
    all_pred: dict[str, list] = {}
    n_gt: dict[str, int] = {}
    tp_c = fp_c = fn_c = apart = 0
    found = present = 0
    n_boxes = n_preds = 0
    per_image = []
    for gt, preds in items:
        n_boxes += len(gt)
        for g in gt:
            n_gt[g[0]] = n_gt.get(g[0], 0) + 1
        pm, _ = match_image(gt, preds)
        for lab, c, tp in pm:
            all_pred.setdefault(lab, []).append((c, tp))
        hi = [p for p in preds if p.conf >= conf]
        n_preds += len(hi)
        pm2, gm2 = match_image(gt, hi)
        tp = sum(1 for _, _, t in pm2 if t)
        tp_c += tp
        apart += _apart(gt, hi)
        fp_c += len(pm2) - tp
        fn_c += len(gt) - sum(gm2)
        cards = {g[0] for g in gt}
        got = {gt[i][0] for i, m in enumerate(gm2) if m}
        present += len(cards)
        found += len(cards & got)
        per_image.append({"boxes": len(gt), "tp": tp, "fp": len(pm2) - tp, "fn": len(gt) - sum(gm2),
                          "cards": len(cards), "cards_found": len(cards & got)})
    aps = []
    for lab, n in n_gt.items():
        arr = np.array(all_pred.get(lab, []), float).reshape(-1, 2)
        aps.append(average_precision(arr[:, 1], arr[:, 0], n))
    return Metrics(precision=tp_c / max(1, tp_c + fp_c), recall=tp_c / max(1, tp_c + fn_c),
                   map50=float(np.mean(aps)) if aps else 0.0, identity_recall=found / max(1, present),
                   images=len(items), boxes=n_boxes, predictions=n_preds, conf=conf, apart=apart,
                   per_image=per_image)


APART = 0.1


def _apart(gt: list[tuple[str, tuple]], preds: list[Sighting]) -> int:
    """Predictions whose box overlaps no ground-truth box by IoU APART or more (whatever its label)."""
    if not preds:
        return 0
    if not gt:
        return len(preds)
    iou = iou_matrix(np.array([p.box for p in preds], float), np.array([g[1] for g in gt], float))
    return int((iou.max(1) < APART).sum())


def list_images(folder: str | Path) -> list[Path]:
    d = Path(folder)
    if not d.is_dir():
        raise VisionError(f"{d}: not a folder")
    files = sorted(p for p in d.iterdir() if p.suffix.lower() in IMAGE_EXTS)
    if not files:
        raise VisionError(f"{d}: no images (.jpg/.png) found")
    return files


def labelled_images(images: str | Path, labels: str | Path, names_file: str | Path, progress=None):
    """(image, ground-truth boxes [(label, xyxy)]) for every image of a labelled folder, in name order."""
    from .imageio import load_image

    names = read_names(names_file)
    files = list_images(images)
    for k, f in enumerate(files, 1):
        img = load_image(f)
        h, w = img.shape[:2]
        yield img, read_yolo_labels(Path(labels) / f"{f.stem}.txt", names, w, h)
        if progress:
            progress(k, len(files))


def evaluate_dir(images: str | Path, labels: str | Path, names_file: str | Path, model=None,
                 conf: float | None = None, map_conf: float = 0.01, tile: int = 640, detector=None,
                 progress=None, scale: float | None = None) -> dict:
    """Run the detector on every image of ``images`` and score against ``labels``."""
    from .detector import Detector

    det = detector or Detector(model)
    conf = det.default_conf if conf is None else conf
    items = [(gt, det(img, conf=map_conf, scale=scale))
             for img, gt in labelled_images(images, labels, names_file, progress)]
    out = compute_metrics(items, conf=conf).as_dict()
    # precision / recall at other thresholds (same predictions), to pick an operating point
    out["pr_by_conf"] = {}
    for c in (0.05, 0.1, 0.15, 0.25, 0.4, 0.5):
        m = compute_metrics(items, conf=c)
        out["pr_by_conf"][str(c)] = {"precision": round(m.precision, 4), "recall": round(m.recall, 4),
                                     "identity_recall": round(m.identity_recall, 4)}
    return out
