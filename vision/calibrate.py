"""Fit how the two detector stages' scores are joined, and the threshold, on synthetic validation.

Stage 1 says "a corner index is here" and the classifier says which card it is.
Their plain product treats both as equally trustworthy; on synthetic validation
half the true boxes lost at the threshold were faint to stage 1 but named with
confidence by the classifier.  A small logistic model (:class:`JointScore`)
learns the weight of each opinion from labelled scenes, and its output is a
probability that the sighting is right, so one threshold means the same thing
whatever the photo.  Only synthetic data is used: the real photos stay a test.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .detector import Candidates, Detector, JointScore, joint_features
from .evaluate import compute_metrics, iou_matrix, labelled_images
from .types import Sighting


def right_boxes(cand: Candidates, gt: list[tuple[str, tuple]], names: list[str], iou: float = 0.5) -> np.ndarray:
    """1 for each candidate that names a labelled index it overlaps by ``iou`` (each label used once,
    surest candidates first, as the evaluation matches them), else 0."""
    y = np.zeros(len(cand.boxes))
    if not len(cand.boxes) or not gt:
        return y
    P = cand.probabilities
    k = P[:, :-1].argmax(1)
    order = np.argsort(-(cand.stage1 * P[np.arange(len(k)), k]))
    overlap = iou_matrix(cand.boxes, np.array([g[1] for g in gt], float))
    used: set[int] = set()
    for i in order:
        best, bj = iou, -1
        for j, (label, _) in enumerate(gt):
            if j not in used and label == names[k[i]] and overlap[i, j] >= best:
                best, bj = overlap[i, j], j
        if bj >= 0:
            used.add(bj)
            y[i] = 1.0
    return y


def collect(detector: Detector, images: str | Path, labels: str | Path, names_file: str | Path,
            scale: float | None = None, first: float = 0.01, progress=None) -> list[tuple[list, Candidates]]:
    """(labels, candidates) for every image of a labelled folder."""
    return [(gt, detector.candidates(img, first=first, scale=scale))
            for img, gt in labelled_images(images, labels, names_file, progress)]


def _features(cand: Candidates) -> np.ndarray:
    P = cand.probabilities
    k = P[:, :-1].argmax(1)
    return joint_features(cand.stage1, P[np.arange(len(k)), k], P[:, -1])


def fit_logistic(X: np.ndarray, y: np.ndarray, l2: float = 1e-3, iters: int = 50) -> np.ndarray:
    """Weights (one per column of X, then the bias) of a logistic regression, by Newton's method."""
    Xb = np.hstack([X, np.ones((len(X), 1))])
    w = np.zeros(Xb.shape[1])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(Xb @ w, -30, 30)))
        grad = Xb.T @ (p - y) + l2 * w
        hess = (Xb * (p * (1 - p))[:, None]).T @ Xb + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def fit_joint_score(collected: list[tuple[list, Candidates]], names: list[str]) -> JointScore:
    X = [_features(c) for _, c in collected if len(c.boxes)]
    y = [right_boxes(c, gt, names) for gt, c in collected if len(c.boxes)]
    if not X or not np.concatenate(y).any() or np.concatenate(y).all():
        raise ValueError("fitting the joint score needs both right and wrong boxes")
    w = fit_logistic(np.concatenate(X), np.concatenate(y))
    return JointScore(*map(float, w))


def sightings(detector: Detector, collected: list[tuple[list, Candidates]], floor: float = 0.0):
    """The collected candidates scored as ``detector`` scores them, for :func:`compute_metrics`."""
    return [(gt, detector.name(c, floor)) for gt, c in collected]


def best_threshold(items: list[tuple[list, list[Sighting]]], grid=np.round(np.arange(0.05, 0.91, 0.01), 2)) -> float:
    """The threshold with the best F1 (precision and recall of index boxes at IoU 0.5)."""
    def f1(c):
        m = compute_metrics(items, conf=float(c))
        return 2 * m.precision * m.recall / max(m.precision + m.recall, 1e-9)
    return float(max(grid, key=f1))


def threshold_for_precision(items: list[tuple[list, list[Sighting]]], precision: float,
                            grid=np.round(np.arange(0.02, 0.91, 0.01), 2)) -> float:
    """The lowest threshold at which the sightings are still ``precision`` precise (the highest on the grid
    if none is)."""
    for c in grid:
        if compute_metrics(items, conf=float(c)).precision >= precision:
            return float(c)
    return float(grid[-1])
